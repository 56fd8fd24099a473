#include "lab/json_text.hpp"

#include <cmath>
#include <cstdio>

#include "lab/run_record.hpp"

namespace attnlab {

namespace {

std::string number_text(double x, JsonNumbers numbers) {
  if (numbers == JsonNumbers::Shortest) return std::isfinite(x) ? format_number(x) : "null";
  if (!std::isfinite(x)) throw ParamError("json_text: a non-finite number has no exact JSON form");
  if (x == 0.0 && std::signbit(x)) return "-0.0";  // "-0" would be read back as the integer 0
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

std::string scalar_text(const JsonValue& v) { return v.dump(-1, ' ', false, JsonValue::error_handler_t::replace); }

// `lines`: break before each member (depth 0) or element (depth 1) this call writes.
void write(std::string& out, const JsonValue& v, JsonNumbers numbers, bool lines, int depth) {
  const bool break_here = lines && depth <= 1;
  if (v.is_object()) {
    out += '{';
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out += first ? "" : (break_here && depth == 0 ? ",\n" : ",");
      first = false;
      out += scalar_text(JsonValue(it.key())) + ':';
      write(out, it.value(), numbers, lines && depth == 0, depth + 1);
    }
    out += '}';
  } else if (v.is_array()) {
    out += '[';
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (break_here && depth == 1) out += i ? ",\n" : "\n";
      else if (i) out += ',';
      write(out, v[i], numbers, false, depth + 1);
    }
    out += ']';
  } else if (v.is_number_float()) {
    out += number_text(v.get<double>(), numbers);
  } else {
    out += scalar_text(v);
  }
}

}  // namespace

JsonValue json_object(const KeyValues& values) {
  JsonValue out = JsonValue::object();
  for (const auto& [k, v] : values) out[k] = v;
  return out;
}

std::string json_text(const JsonValue& value, JsonNumbers numbers, JsonLayout layout) {
  std::string out;
  write(out, value, numbers, layout == JsonLayout::Lines, 0);
  return out;
}

std::string json_escape(const std::string& s) { return json_text(JsonValue(s)); }

}  // namespace attnlab
