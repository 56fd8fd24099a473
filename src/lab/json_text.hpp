// JSON text written by the lab: documents are built as nlohmann::ordered_json values (keys in the
// order they are inserted) and written by json_text(), which differs from nlohmann's dump() only in
// how floating-point numbers are spelled and, with JsonLayout::Lines, in where lines break:
//   JsonNumbers::Shortest  format_number() (lab/schema.hpp): "0.25", "1e-09", "3" for 3.0; NaN and
//                          infinities are null. Run records, the JS API's answers.
//   JsonNumbers::Exact     17 significant digits ("%.17g"), -0.0 as "-0.0" (so it is read back as a
//                          double); a non-finite number is refused (encode it before, as
//                          lab/partial_codec.hpp does). Partial results and shard files.
// Integers (std::int64_t, std::uint64_t) are written as nlohmann writes them; strings as nlohmann
// escapes them, with bytes that are not UTF-8 replaced by U+FFFD.
// Needs nlohmann/json (attnlab::json) in the including library.
#pragma once
#include <string>

#include <nlohmann/json.hpp>

#include "lab/schema.hpp"

namespace attnlab {

using JsonValue = nlohmann::ordered_json;

enum class JsonNumbers { Shortest, Exact };
// Compact: no whitespace. Lines: each member of the top-level object, and each element of an array
// that is such a member, starts a line (a shard file: its header fields, then one unit a line).
enum class JsonLayout { Compact, Lines };

// {"key": "value", ...} in the pairs' order: parameters, preset values, a shard's settings.
JsonValue json_object(const KeyValues& values);

std::string json_text(const JsonValue& value, JsonNumbers numbers = JsonNumbers::Shortest,
                      JsonLayout layout = JsonLayout::Compact);

}  // namespace attnlab
