#include "unit_schedules.hpp"

#include <catch2/catch.hpp>
#include <cstring>
#include <regex>

#include "experiments/registry.hpp"
#include "lab/run_record.hpp"
#include "lab/shard.hpp"
#include "lab/version.hpp"
#ifndef __EMSCRIPTEN__
#include "lab/thread_pool_runner.hpp"
#endif

namespace attnlab::testing {

std::string fingerprint(const Results& r) {
  std::string out;
  auto bits = [&](const std::vector<double>& v) {
    for (double x : v) {
      std::uint64_t u;
      std::memcpy(&u, &x, sizeof u);
      out += std::to_string(u) + ",";
    }
    out += "\n";
  };
  static const std::regex wall_clock("[0-9][0-9.e+-]* m?s\\b");
  auto text = [&](const std::string& s) { out += std::regex_replace(s, wall_clock, "# s") + "\n"; };
  for (const auto& c : r.table.columns) out += c + ",";
  for (const auto& row : r.table.rows) bits(row);
  for (const auto& p : r.plots) {
    text(p.title);
    for (const auto& s : p.series) text(s.name), bits(s.x), bits(s.y), bits(s.y_low), bits(s.y_high);
  }
  for (const auto& h : r.heatmaps) {
    text(h.title + " " + h.note);
    bits(h.values);
    for (const auto& m : h.marks) out += std::to_string(m.row) + ":" + std::to_string(m.col) + m.label + ",";
    for (const auto& path : h.paths) text(path.label), bits(path.rows), bits(path.cols);
  }
  for (const auto& n : r.notes) text(n);
  return out;
}

namespace {

struct Prepared {
  std::unique_ptr<Experiment> experiment;
  Params params;
};

Prepared prepare(const std::string& id, const KeyValues& settings, std::uint64_t seed) {
  Prepared p{make_experiment(id), {}};
  p.params = p.experiment->make_params("", settings);
  p.experiment->reset(p.params, seed);
  return p;
}

// Shard `spec` of the run, as a shard file's text; each unit is previewed after its first piece.
std::string shard_text(const std::string& id, const KeyValues& settings, std::uint64_t seed, const ShardSpec& spec) {
  Prepared r = prepare(id, settings, seed);
  Shard s;
  s.spec = spec;
  s.run = {kVersion, id, "", seed, r.experiment->schema().to_key_values(r.params), "", r.experiment->unit_count()};
  for (std::int64_t u : shard_units(r.experiment->unit_count(), spec))
    s.units.emplace_back(u, run_task_to_end(*r.experiment->start_unit(u)));
  return to_shard_json(s);
}

}  // namespace

void check_unit_schedules_agree(const std::string& id, const KeyValues& settings, std::uint64_t seed) {
  INFO(id << " with " << settings.size() << " settings, seed " << seed);
  Prepared whole = prepare(id, settings, seed);
  REQUIRE(whole.experiment->unit_count() >= 2);  // several units to split
  whole.experiment->step(Budget{});                // in one go
  REQUIRE(whole.experiment->progress().finished());
  const std::string expected = fingerprint(whole.experiment->results());
  const std::string expected_csv = to_csv(make_record(*whole.experiment, whole.params, "", seed));
  CHECK(expected_csv.find("# partial=") == std::string::npos);

  Prepared sliced = prepare(id, settings, seed);  // one piece per step, previews merged in between
  Budget one;
  one.max_units = 1;
  std::int64_t steps = 0;
  while (!sliced.experiment->progress().finished() && steps < 10000000) sliced.experiment->step(one), ++steps;
  CHECK(steps >= whole.experiment->unit_count());
  CHECK(fingerprint(sliced.experiment->results()) == expected);

  for (int k : {2, 3, 5}) {  // k shards through their file text, absorbed last to first after a preview
    INFO(k << " shards");
    std::vector<Shard> shards;
    std::vector<std::string> names;
    for (int i = k; i >= 1; --i) {
      names.push_back("part-" + std::to_string(i));
      shards.push_back(parse_shard_json(shard_text(id, settings, seed, {i, k}), names.back()));
    }
    check_shards(shards, names);
    Prepared merged = prepare(id, settings, seed);
    for (const Shard& s : shards)
      for (auto it = s.units.rbegin(); it != s.units.rend(); ++it) {
        auto task = merged.experiment->start_unit(it->first);
        Partial preview;
        if (!task->run_piece() && task->preview(preview)) merged.experiment->absorb_preview(it->first, preview);
        merged.experiment->absorb(it->first, it->second);
      }
    REQUIRE(merged.experiment->progress().finished());
    CHECK(fingerprint(merged.experiment->results()) == expected);
    CHECK(to_csv(make_record(*merged.experiment, merged.params, "", seed)) == expected_csv);
  }

#ifndef __EMSCRIPTEN__
  Prepared threaded = prepare(id, settings, seed);  // two threads, units finishing in any order
  const auto report = run_units_on_threads({threaded.experiment.get()}, all_units({threaded.experiment.get()}), 2);
  CHECK(report.errors[0].empty());
  CHECK(fingerprint(threaded.experiment->results()) == expected);
#endif

  Prepared other = prepare(id, settings, seed + 1);  // another seed: another table
  other.experiment->step(Budget{});
  CHECK(other.experiment->results().table.rows != whole.experiment->results().table.rows);
}

}  // namespace attnlab::testing
