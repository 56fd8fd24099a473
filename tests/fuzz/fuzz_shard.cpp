// Shard files for `attnlab merge`: parse_shard_json, then check_shards on the shard alone and
// beside itself (which must be refused: every unit twice). Property: an accepted shard written
// back out parses to the same JSON.
#include <string>
#include <vector>

#include "fuzz_common.hpp"
#include "lab/shard.hpp"

using namespace attnlab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  Shard shard;
  if (!fuzz::accepts([&] { shard = parse_shard_json(fuzz::text(data, size), "fuzz.json"); })) return 0;
  fuzz::accepts([&] { check_shards({shard}, {"fuzz.json"}); });
  if (!shard.units.empty())
    fuzz::require(!fuzz::accepts([&] { check_shards({shard, shard}, {"a.json", "b.json"}); }),
                  "a shard given twice is refused");
  const std::string written = to_shard_json(shard);
  Shard again;
  fuzz::require(fuzz::accepts([&] { again = parse_shard_json(written, "written.json"); }), "a written shard parses");
  fuzz::require(to_shard_json(again) == written, "a shard round-trips");
  return 0;
}
