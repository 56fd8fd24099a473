#include "lab/schema.hpp"
#include "lab/find_named.hpp"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "lab/sweep.hpp"

namespace attnlab {

std::string format_number(double x) {
  char buf[40];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, x);
    if (std::strtod(buf, nullptr) == x) break;
  }
  return buf;
}

// Plain decimal numbers only: [-]digits[.digits][e[+-]digits]. No spaces, '+', hex or inf/nan,
// so every face (page, URL, CLI, JS) accepts exactly the same texts.
bool is_plain_decimal(const std::string& t) {
  std::size_t i = 0, digits = 0;
  if (i < t.size() && t[i] == '-') ++i;
  while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++digits;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++digits;
  }
  if (digits == 0) return false;
  if (i < t.size() && (t[i] == 'e' || t[i] == 'E')) {
    ++i;
    if (i < t.size() && (t[i] == '-' || t[i] == '+')) ++i;
    std::size_t exp_digits = 0;
    while (i < t.size() && std::isdigit(static_cast<unsigned char>(t[i]))) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == t.size();
}

namespace {

std::string quote(const std::string& s) { return "'" + s + "'"; }

[[noreturn]] void reject(const ParamSpec& spec, const std::string& text, const std::string& why) {
  throw ParamError("parameter '" + spec.key + "': " + quote(text) + " " + why + "; allowed: " +
                   describe_type(spec));
}

// A number of the schema's texts: a plain decimal whose magnitude a double can hold. A value too
// small for a double (1e-400) reads as 0, which the range check then judges; -0 reads as 0, so
// its canonical text is "0". Returns the reason for a refusal, or nullptr.
const char* parse_double(const std::string& text, double& out) {
  if (!is_plain_decimal(text)) return "is not a number";
  const char* begin = text.c_str();
  char* end = nullptr;
  errno = 0;
  out = std::strtod(begin, &end);
  if (end != begin + text.size()) return "is not a number";
  if (errno == ERANGE && std::fabs(out) > 1.0) return "is beyond the range of a double";
  out += 0.0;  // -0 -> 0
  return nullptr;
}

}  // namespace

std::string first_repeated_key(const KeyValues& values) {
  std::set<std::string> seen;
  for (const auto& kv : values)
    if (!seen.insert(kv.first).second) return kv.first;
  return "";
}

Schema::Schema(std::vector<ParamSpec> specs) : specs_(std::move(specs)) {}

const ParamSpec* Schema::find(const std::string& key) const {
  for (const auto& s : specs_)
    if (s.key == key) return &s;
  return nullptr;
}

const ParamSpec& Schema::at(const std::string& key) const {
  return find_named(specs_, key, [](const ParamSpec& s) { return s.key; }, "parameter", "known parameters");
}

ParamValue Schema::parse(const ParamSpec& spec, const std::string& text) const {
  ParamValue v;
  switch (spec.type) {
    case ParamType::Integer: {
      double x;
      if (const char* why = parse_double(text, x)) reject(spec, text, why);
      if (x != std::floor(x)) reject(spec, text, "is not an integer");
      if (x < spec.min || x > spec.max) reject(spec, text, "is out of range");
      v.number = x;
      break;
    }
    case ParamType::Real: {
      double x;
      if (const char* why = parse_double(text, x)) reject(spec, text, why);
      if (x < spec.min || x > spec.max) reject(spec, text, "is out of range");
      v.number = x;
      break;
    }
    case ParamType::Boolean:
      if (text == "true" || text == "1" || text == "yes" || text == "on") v.number = 1.0;
      else if (text == "false" || text == "0" || text == "no" || text == "off") v.number = 0.0;
      else reject(spec, text, "is not a boolean");
      break;
    case ParamType::Choice: {
      bool found = false;
      for (const auto& c : spec.choices) found = found || c == text;
      if (!found) reject(spec, text, "is not a valid choice");
      v.text = text;
      break;
    }
    case ParamType::Sweep: {
      Sweep sweep = parse_sweep(*this, spec.key, text);  // throws with its own message
      v.text = text;
      v.number = static_cast<double>(sweep.values.size());
      break;
    }
  }
  return v;
}

Params Schema::defaults() const {
  Params p;
  for (const auto& s : specs_) p.values_[s.key] = parse(s, s.default_value);
  return p;
}

void Schema::set(Params& params, const std::string& key, const std::string& text) const {
  params.values_[key] = parse(at(key), text);
}

void Schema::apply(Params& params, const KeyValues& values) const {
  for (const auto& [k, v] : values) set(params, k, v);
}

std::string Schema::format(const Params& params, const std::string& key) const {
  const ParamSpec& spec = at(key);
  const ParamValue& v = params.at(key);
  switch (spec.type) {
    case ParamType::Integer:
    case ParamType::Real:
      return format_number(v.number);
    case ParamType::Boolean:
      return v.number != 0.0 ? "true" : "false";
    case ParamType::Choice:
    case ParamType::Sweep:
      return v.text;
  }
  return "";
}

KeyValues Schema::to_key_values(const Params& params) const {
  KeyValues out;
  for (const auto& s : specs_) out.emplace_back(s.key, format(params, s.key));
  return out;
}

}  // namespace attnlab
