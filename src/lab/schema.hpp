// The validation boundary: text from the page, the URL, the CLI or the JS API becomes a
// validated Params here, or a ParamError naming the parameter, the value and the allowed range.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "lab/param.hpp"

namespace attnlab {

using KeyValues = std::vector<std::pair<std::string, std::string>>;
// The first key that appears twice in `values` (a link or a command line that sets a parameter
// twice is refused, not settled silently), or "" when every key is unique.
std::string first_repeated_key(const KeyValues& values);

class Schema {
 public:
  explicit Schema(std::vector<ParamSpec> specs);

  const std::vector<ParamSpec>& specs() const { return specs_; }
  const ParamSpec* find(const std::string& key) const;
  const ParamSpec& at(const std::string& key) const;  // throws ParamError for unknown keys

  Params defaults() const;
  // Parses and validates `text` for `key` without storing it. Throws ParamError.
  ParamValue validate(const std::string& key, const std::string& text) const { return parse(at(key), text); }
  // Parses and validates `text` for `key`, then stores it in params. Throws ParamError.
  void set(Params& params, const std::string& key, const std::string& text) const;
  // Applies key=value pairs in order (each validated), starting from `params`.
  void apply(Params& params, const KeyValues& values) const;
  // Canonical text of one value (round-trips through set()).
  std::string format(const Params& params, const std::string& key) const;
  // Every parameter in schema order as canonical text.
  KeyValues to_key_values(const Params& params) const;

 private:
  ParamValue parse(const ParamSpec& spec, const std::string& text) const;
  std::vector<ParamSpec> specs_;
};

// True for [-]digits[.digits][e[+-]digits]: the only number syntax any face accepts.
bool is_plain_decimal(const std::string& text);

// Shortest decimal text that reads back as the same double ("0.25", "1e-09", "1000").
std::string format_number(double x);

}  // namespace attnlab
