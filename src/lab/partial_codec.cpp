#include "lab/partial_codec.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "lab/partial_json.hpp"

namespace attnlab {

namespace {

// A double as the JSON value that decode_partial reads back as the same double.
JsonValue exact_number(double x) {
  if (std::isnan(x)) return nullptr;
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return x;  // json_text's JsonNumbers::Exact: 17 digits, -0.0 kept
}

double number_from(const JsonValue& j, const std::string& field) {
  if (j.is_number()) return j.get<double>();
  if (j.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (j.is_string() && j.get<std::string>() == "inf") return std::numeric_limits<double>::infinity();
  if (j.is_string() && j.get<std::string>() == "-inf") return -std::numeric_limits<double>::infinity();
  throw std::runtime_error("partial result: field '" + field + "' holds " + j.dump() +
                           "; allowed: numbers, null (NaN), \"inf\" or \"-inf\"");
}

}  // namespace

JsonValue partial_json(const Partial& partial) {
  JsonValue values = JsonValue::object(), texts = JsonValue::object();
  for (const auto& [name, list] : partial.all_values()) {
    JsonValue& out = values[name] = JsonValue::array();
    for (double x : list) out.push_back(exact_number(x));
  }
  for (const auto& [name, text] : partial.all_texts()) texts[name] = text;
  return {{"values", std::move(values)}, {"texts", std::move(texts)}};
}

Partial partial_from_json(const JsonValue& j) {
  if (!j.is_object() || !j.contains("values") || !j.contains("texts") ||
      !j["values"].is_object() || !j["texts"].is_object())
    throw std::runtime_error("partial result: not an object with \"values\" and \"texts\"");
  Partial p;
  for (const auto& [name, arr] : j["values"].items()) {
    if (!arr.is_array()) throw std::runtime_error("partial result: field '" + name + "' is not an array");
    std::vector<double> v;
    v.reserve(arr.size());
    for (const auto& x : arr) v.push_back(number_from(x, name));
    p.put(name, std::move(v));
  }
  for (const auto& [name, text] : j["texts"].items()) {
    if (!text.is_string()) throw std::runtime_error("partial result: text '" + name + "' is not a string");
    p.put_text(name, text.get<std::string>());
  }
  return p;
}

std::string encode_partial(const Partial& partial) { return json_text(partial_json(partial), JsonNumbers::Exact); }

Partial decode_partial(const std::string& text) {
  // ordered_json keeps the fields in their written order (a Partial's order is part of it).
  const JsonValue j = JsonValue::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("partial result: not an object with \"values\" and \"texts\"");
  return partial_from_json(j);
}

}  // namespace attnlab
