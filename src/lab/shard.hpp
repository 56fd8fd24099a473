// Shards: a run's units split over processes or machines (`attnlab run ... --shard i/k`), each
// writing its units' partials to a JSON file, and `attnlab merge` putting them back together into
// exactly the table one process writes. Units go to shards round-robin (unit u to shard
// u mod k + 1), which spreads expensive and cheap units evenly.
//   {"attnlab_shard": 1, "attnlab_version": "...", "experiment": "...", "preset": "...",
//    "seed": N, "params": {"KEY": "VALUE", ...}, "data_digest": "...", "unit_count": N,
//    "shard": "i/k", "units": [{"unit": u, "partial": {...}}, ...]}
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "lab/schema.hpp"
#include "lab/work_unit.hpp"

namespace attnlab {

// The largest shard file merge reads (a shard of a large run is a few MB); larger files are refused
// by size before they are read.
constexpr std::uintmax_t kMaxShardBytes = 1ull << 30;

struct ShardSpec {
  int index = 1;  // 1-based, as Slurm's array task ids and GNU parallel's {#} count
  int count = 1;
};
// "3/40" -> {3, 40}; throws ParamError naming the option and the allowed form.
ShardSpec parse_shard_spec(const std::string& text);
// The units of a run that belong to shard `spec`, in unit order.
std::vector<std::int64_t> shard_units(std::int64_t unit_count, const ShardSpec& spec);

// What makes two shards parts of one run.
struct RunIdentity {
  std::string version, experiment, preset;
  std::uint64_t seed = 0;
  KeyValues params;         // every parameter, canonical text, schema order
  std::string data_digest;  // of the user's data file; empty when the run takes none
  std::int64_t unit_count = 0;
};

struct Shard {
  RunIdentity run;
  ShardSpec spec;
  std::vector<std::pair<std::int64_t, Partial>> units;
};

std::string to_shard_json(const Shard& shard);
// Throws ParamError "FILE: ..." (with `name` as FILE) when the text is not a shard file.
Shard parse_shard_json(const std::string& text, const std::string& name);
// Checks that the shards are parts of one run that together hold every unit exactly once;
// throws ParamError naming the field that differs (and both values), the shard that is missing
// or the one given twice. `names` are the shards' file names, for the messages.
void check_shards(const std::vector<Shard>& shards, const std::vector<std::string>& names);

// A short fingerprint of a data file's text (64-bit FNV-1a, in hex), "" for no data.
std::string data_digest(const std::string& data_text);

}  // namespace attnlab
