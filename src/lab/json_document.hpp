// The JSON documents that users hand in (regression problem files, mirror data files, shard files):
// one parser with one set of refusals, each a ParamError that names the document:
//   - more bytes than the document may have (checked before anything is parsed),
//   - not valid JSON (a syntax error, a number beyond a double such as 1e400, bad UTF-8),
//   - a key given twice in one object (nlohmann would keep the last one silently),
//   - nesting deeper than kMaxJsonDepth (no document of the lab needs more than 5 levels).
// Needs nlohmann/json (attnlab::json) in the including library.
#pragma once
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "lab/param.hpp"

namespace attnlab {

constexpr int kMaxJsonDepth = 32;

// `Json` is nlohmann::json or nlohmann::ordered_json; `source` names the document in messages
// ("problem file", "data file", "shard part-3.json").
template <class Json>
Json parse_json_document(const std::string& text, const std::string& source, std::uintmax_t max_bytes) {
  if (text.size() > max_bytes)
    throw ParamError(source + ": " + std::to_string(text.size()) + " bytes is more than the " +
                     std::to_string(max_bytes) + " it may have");
  std::vector<std::set<std::string>> keys;  // the keys seen in each open object
  const auto check = [&](int depth, typename Json::parse_event_t event, Json& parsed) {
    using Event = typename Json::parse_event_t;
    if ((event == Event::object_start || event == Event::array_start) && depth >= kMaxJsonDepth)
      throw ParamError(source + ": nested deeper than " + std::to_string(kMaxJsonDepth) + " levels");
    if (event == Event::object_start) keys.emplace_back();
    if (event == Event::object_end && !keys.empty()) keys.pop_back();
    if (event == Event::key && !keys.empty() && !keys.back().insert(parsed.template get<std::string>()).second)
      throw ParamError(source + ": the key '" + parsed.template get<std::string>() + "' appears twice in one object");
    return true;
  };
  try {
    return Json::parse(text, check);
  } catch (const typename Json::exception& e) {  // a syntax error, or a number beyond a double (1e400)
    throw ParamError(source + ": not valid JSON (" + e.what() + ")");
  }
}

}  // namespace attnlab
