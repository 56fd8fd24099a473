// --set KEY=VALUE and --sweep SPEC through an experiment's schema, as the CLI, the JS API and the
// page's controls apply them. Input: the first line picks the experiment (an id, or a number
// taken modulo the registry's size), then one KEY=VALUE a line; "preset=NAME" picks a preset.
// Property: every accepted value has a canonical text that the schema accepts again unchanged.
#include <sstream>
#include <string>

#include "experiments/registry.hpp"
#include "fuzz_common.hpp"
#include "lab/schema.hpp"
#include "lab/sweep.hpp"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(fuzz::text(data, size));
  std::string line;
  std::getline(in, line);
  const std::vector<std::string> ids = experiment_ids();
  std::string id = line;
  if (!line.empty() && line.size() < 4 && line.find_first_not_of("0123456789") == std::string::npos)
    id = ids[static_cast<std::size_t>(std::stoi(line)) % ids.size()];
  std::unique_ptr<Experiment> e;
  if (!fuzz::accepts([&] { e = make_experiment(id); })) return 0;
  const Schema& schema = e->schema();

  std::string preset;
  KeyValues sets;
  while (std::getline(in, line)) {
    const auto eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    if (key == "preset") preset = value;
    else sets.emplace_back(std::move(key), std::move(value));
  }
  // One value at a time, as a control does, and a sweep as --sweep gives it.
  for (const auto& kv : sets) {
    fuzz::accepts([&] { schema.validate(kv.first, kv.second); });
    fuzz::accepts([&] { parse_sweep(schema, "sweep", kv.second); });
  }
  Params params;
  if (!fuzz::accepts([&] { params = e->make_params(preset, sets); })) return 0;
  const KeyValues canonical = schema.to_key_values(params);
  Params again = schema.defaults();
  fuzz::require(fuzz::accepts([&] { schema.apply(again, canonical); }), "canonical values are accepted");
  fuzz::require(schema.to_key_values(again) == canonical, "canonical values round-trip");
  return 0;
}
