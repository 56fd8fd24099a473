#include "lab/partial_codec.hpp"

#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "lab/run_record.hpp"

namespace attnlab {

namespace {

void append_number(std::string& out, double x) {
  if (std::isnan(x)) {
    out += "null";
  } else if (std::isinf(x)) {
    out += x > 0 ? "\"inf\"" : "\"-inf\"";
  } else if (x == 0.0 && std::signbit(x)) {
    out += "-0.0";  // "-0" would be read back as the integer 0
  } else {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    out += buf;
  }
}

double number_from(const nlohmann::ordered_json& j, const std::string& field) {
  if (j.is_number()) return j.get<double>();
  if (j.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (j.is_string() && j.get<std::string>() == "inf") return std::numeric_limits<double>::infinity();
  if (j.is_string() && j.get<std::string>() == "-inf") return -std::numeric_limits<double>::infinity();
  throw std::runtime_error("partial result: field '" + field + "' holds " + j.dump() +
                           "; allowed: numbers, null (NaN), \"inf\" or \"-inf\"");
}

}  // namespace

std::string encode_partial(const Partial& partial) {
  std::string out = "{\"values\":{";
  bool first = true;
  for (const auto& [name, values] : partial.all_values()) {
    out += (first ? "" : ",") + json_escape(name) + ":[";
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (i) out += ',';
      append_number(out, values[i]);
    }
    out += ']';
    first = false;
  }
  out += "},\"texts\":{";
  first = true;
  for (const auto& [name, text] : partial.all_texts()) {
    out += (first ? "" : ",") + json_escape(name) + ":" + json_escape(text);
    first = false;
  }
  return out + "}}";
}

Partial decode_partial(const std::string& json_text) {
  // ordered_json keeps the fields in their written order (a Partial's order is part of it).
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("values") || !j.contains("texts") ||
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

}  // namespace attnlab
