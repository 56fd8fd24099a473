// The URL-hash codec: the page's full state (experiment, every parameter, seed, flags) as
// "#exp=separation.toy&seed=1&n=1000&...&run=1". Share links and embeds use it.
#pragma once
#include <cstdint>
#include <string>

#include "lab/schema.hpp"

namespace attnlab {

struct HashState {
  std::string experiment;  // "exp"
  std::string preset;      // "preset" (applied before the parameters)
  KeyValues params;        // every other key that is not a flag
  bool has_seed = false;
  std::uint64_t seed = 0;
  KeyValues flags;         // run, embed, hide, theme, view, point, trial, threads, story, step: page behaviour
  std::string flag(const std::string& key) const;  // "" when absent
};

// Keys with a meaning of their own in the hash (the link-key table, lab/link_keys.hpp); no
// experiment may use them as parameter keys.
bool is_reserved_hash_key(const std::string& key);

std::string encode_hash(const HashState& state);
// The longest link the lab reads (a sweep of 10,000 listed points fits): longer ones are refused
// before they are split.
constexpr std::size_t kMaxHashBytes = 128 * 1024;
// Decodes without validating parameter values (the Schema does that). Throws ParamError on a
// malformed seed, a pair without '=', a key given twice or a link longer than kMaxHashBytes.
HashState decode_hash(const std::string& hash);

// The seed's one syntax everywhere: a plain decimal integer in [0, 2^32 - 1]. Throws ParamError.
std::uint64_t parse_seed(const std::string& text);

std::string percent_encode(const std::string& s);
std::string percent_decode(const std::string& s);

}  // namespace attnlab
