// A unit's Partial as a JSON value, for documents that hold partials (shard files) and for
// lab/partial_codec.hpp, which writes it as text with JsonNumbers::Exact. The form:
//   {"values": {"NAME": [x, ...], ...}, "texts": {"NAME": "...", ...}}, NaN as null,
//   infinities as "inf" / "-inf".
// Needs nlohmann/json (attnlab::json) in the including library.
#pragma once
#include "lab/json_text.hpp"
#include "lab/work_unit.hpp"

namespace attnlab {

JsonValue partial_json(const Partial& partial);
// Throws std::runtime_error saying what is malformed.
Partial partial_from_json(const JsonValue& value);

}  // namespace attnlab
