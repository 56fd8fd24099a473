#include "lab/shard.hpp"

#include <cstdio>
#include <map>

#include "lab/json_document.hpp"
#include "lab/partial_json.hpp"
#include "lab/text.hpp"

namespace attnlab {

namespace {
constexpr int kShardFormat = 1;
constexpr int kMaxShards = 1000000;
}  // namespace

ShardSpec parse_shard_spec(const std::string& text) {
  const std::size_t slash = text.find('/');
  auto number = [](const std::string& s) { return static_cast<int>(parse_digits(s, 7).value_or(-1)); };
  const int i = slash == std::string::npos ? -1 : number(text.substr(0, slash));
  const int k = slash == std::string::npos ? -1 : number(text.substr(slash + 1));
  if (i < 1 || k < 1 || i > k || k > kMaxShards)
    throw ParamError("option --shard: '" + text + "' is not allowed; allowed: I/K with 1 <= I <= K <= " +
                     std::to_string(kMaxShards) + " (shard I of K), e.g. 3/40");
  return {i, k};
}

std::vector<std::int64_t> shard_units(std::int64_t unit_count, const ShardSpec& spec) {
  std::vector<std::int64_t> units;
  for (std::int64_t u = spec.index - 1; u < unit_count; u += spec.count) units.push_back(u);
  return units;
}

std::string data_digest(const std::string& data_text) {
  if (data_text.empty()) return "";
  std::uint64_t h = 14695981039346656037ull;
  for (unsigned char c : data_text) h = (h ^ c) * 1099511628211ull;
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

std::string to_shard_json(const Shard& s) {
  JsonValue units = JsonValue::array();
  for (const auto& [unit, partial] : s.units) units.push_back({{"unit", unit}, {"partial", partial_json(partial)}});
  const JsonValue j = {{"attnlab_shard", kShardFormat},
                       {"attnlab_version", s.run.version},
                       {"experiment", s.run.experiment},
                       {"preset", s.run.preset},
                       {"seed", s.run.seed},
                       {"params", json_object(s.run.params)},
                       {"data_digest", s.run.data_digest},
                       {"unit_count", s.run.unit_count},
                       {"shard", std::to_string(s.spec.index) + "/" + std::to_string(s.spec.count)},
                       {"units", std::move(units)}};
  return json_text(j, JsonNumbers::Exact, JsonLayout::Lines) + "\n";
}

Shard parse_shard_json(const std::string& text, const std::string& name) {
  auto fail = [&](const std::string& why) -> ParamError { return ParamError(name + ": " + why); };
  const JsonValue j = parse_json_document<JsonValue>(text, name, kMaxShardBytes);
  if (!j.is_object()) throw fail("not a shard file (not a JSON object)");
  if (!j.contains("attnlab_shard")) throw fail("not a shard file (no \"attnlab_shard\" field; write shards with "
                                               "'attnlab run ... --shard I/K')");
  if (j["attnlab_shard"] != kShardFormat)
    throw fail("shard format " + j["attnlab_shard"].dump() + " is not known to this build (it reads format " +
               std::to_string(kShardFormat) + ")");
  auto text_field = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_string()) throw fail(std::string("field \"") + key + "\" is not a string");
    return j[key].get<std::string>();
  };
  auto count_field = [&](const char* key) {
    if (!j.contains(key) || !j[key].is_number_unsigned())
      throw fail(std::string("field \"") + key + "\" is not a non-negative integer");
    return j[key].get<std::uint64_t>();
  };
  Shard s;
  s.run.version = text_field("attnlab_version");
  s.run.experiment = text_field("experiment");
  s.run.preset = text_field("preset");
  s.run.seed = count_field("seed");
  s.run.data_digest = text_field("data_digest");
  s.run.unit_count = static_cast<std::int64_t>(count_field("unit_count"));
  if (!j.contains("params") || !j["params"].is_object()) throw fail("field \"params\" is not an object");
  for (const auto& [k, v] : j["params"].items()) {
    if (!v.is_string()) throw fail("parameter '" + k + "' is not a string");
    s.run.params.emplace_back(k, v.get<std::string>());
  }
  try {
    s.spec = parse_shard_spec(text_field("shard"));
  } catch (const ParamError& e) {
    throw fail(std::string("field \"shard\": ") + e.what());
  }
  if (!j.contains("units") || !j["units"].is_array()) throw fail("field \"units\" is not an array");
  for (const auto& u : j["units"]) {
    if (!u.is_object() || !u.contains("unit") || !u["unit"].is_number_unsigned() || !u.contains("partial"))
      throw fail("an entry of \"units\" is not {\"unit\": N, \"partial\": {...}}");
    const std::int64_t unit = static_cast<std::int64_t>(u["unit"].get<std::uint64_t>());
    if (unit >= s.run.unit_count)
      throw fail("unit " + std::to_string(unit) + " is out of range (the run has " +
                 std::to_string(s.run.unit_count) + " units)");
    try {
      s.units.emplace_back(unit, partial_from_json(u["partial"]));
    } catch (const std::runtime_error& e) {
      throw fail("unit " + std::to_string(unit) + ": " + e.what());
    }
  }
  return s;
}

void check_shards(const std::vector<Shard>& shards, const std::vector<std::string>& names) {
  if (shards.empty()) throw ParamError("merge needs at least one shard file");
  const Shard& a = shards[0];
  for (std::size_t i = 1; i < shards.size(); ++i) {
    const Shard& b = shards[i];
    auto differ = [&](const std::string& field, const std::string& x, const std::string& y) {
      return ParamError("shards " + names[0] + " and " + names[i] + " are from different runs: " + field + " is '" +
                        x + "' in one and '" + y + "' in the other");
    };
    if (a.run.experiment != b.run.experiment) throw differ("the experiment", a.run.experiment, b.run.experiment);
    if (a.run.version != b.run.version) throw differ("the attnlab version", a.run.version, b.run.version);
    if (a.run.seed != b.run.seed) throw differ("the seed", std::to_string(a.run.seed), std::to_string(b.run.seed));
    if (a.run.preset != b.run.preset) throw differ("the preset", a.run.preset, b.run.preset);
    std::map<std::string, std::string> pa(a.run.params.begin(), a.run.params.end()),
        pb(b.run.params.begin(), b.run.params.end());
    for (const auto& [k, v] : pa) {
      auto it = pb.find(k);
      if (it == pb.end()) throw differ("parameter '" + k + "'", v, "(absent)");
      if (it->second != v) throw differ("parameter '" + k + "'", v, it->second);
    }
    for (const auto& [k, v] : pb)
      if (!pa.count(k)) throw differ("parameter '" + k + "'", "(absent)", v);
    if (a.run.data_digest != b.run.data_digest) throw differ("the data file's digest", a.run.data_digest, b.run.data_digest);
    if (a.spec.count != b.spec.count)
      throw differ("the number of shards", std::to_string(a.spec.count), std::to_string(b.spec.count));
    if (a.run.unit_count != b.run.unit_count)
      throw differ("the number of units", std::to_string(a.run.unit_count), std::to_string(b.run.unit_count));
  }
  const int k = a.spec.count;
  std::vector<int> seen(static_cast<std::size_t>(k) + 1, -1);
  for (std::size_t i = 0; i < shards.size(); ++i) {
    const int index = shards[i].spec.index;
    if (seen[static_cast<std::size_t>(index)] >= 0)
      throw ParamError("shard " + std::to_string(index) + "/" + std::to_string(k) + " is given twice: " +
                       names[static_cast<std::size_t>(seen[static_cast<std::size_t>(index)])] + " and " + names[i]);
    seen[static_cast<std::size_t>(index)] = static_cast<int>(i);
    // Each shard holds exactly its own units.
    const std::vector<std::int64_t> expected = shard_units(a.run.unit_count, shards[i].spec);
    std::vector<std::int64_t> got;
    for (const auto& u : shards[i].units) got.push_back(u.first);
    if (got != expected)
      throw ParamError(names[i] + ": shard " + std::to_string(index) + "/" + std::to_string(k) + " holds " +
                       std::to_string(got.size()) + " units where it should hold units " +
                       (expected.empty() ? std::string("(none)") : std::to_string(expected.front()) + ", " +
                        (expected.size() > 1 ? std::to_string(expected[1]) + ", ..." : std::string("..."))) +
                       " (" + std::to_string(expected.size()) + " in all); was it cut short?");
  }
  std::string missing;
  int count = 0;
  for (int index = 1; index <= k; ++index)
    if (seen[static_cast<std::size_t>(index)] < 0) {
      if (count < 10) missing += (count ? ", " : "") + std::to_string(index) + "/" + std::to_string(k);
      ++count;
    }
  if (count)
    throw ParamError("shard" + std::string(count > 1 ? "s " : " ") + missing + (count > 10 ? ", ..." : "") +
                     (count > 1 ? " are" : " is") + " missing (" + std::to_string(count) + " of " + std::to_string(k) +
                     "); merge needs every shard of the run");
}

}  // namespace attnlab
