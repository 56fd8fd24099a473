// A unit's Partial as JSON text, exactly: the form that Web Worker messages and shard files carry.
//   {"values": {"NAME": [x, ...], ...}, "texts": {"NAME": "...", ...}}
// Finite doubles are written with 17 significant digits (a correctly rounded printf and strtod,
// as glibc and musl have, give back the same bits); NaN is null, infinities are "inf" / "-inf".
#pragma once
#include <string>

#include "lab/work_unit.hpp"

namespace attnlab {

std::string encode_partial(const Partial& partial);
// Throws std::runtime_error saying what is malformed.
Partial decode_partial(const std::string& json_text);

}  // namespace attnlab
