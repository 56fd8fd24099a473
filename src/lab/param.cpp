#include "lab/param.hpp"

#include "lab/schema.hpp"

namespace attnlab {

const ParamValue& Params::at(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) throw ParamError("unknown parameter '" + key + "'");
  return it->second;
}

bool Params::operator==(const Params& o) const {
  if (values_.size() != o.values_.size()) return false;
  for (const auto& [k, v] : values_) {
    auto it = o.values_.find(k);
    if (it == o.values_.end() || it->second.number != v.number || it->second.text != v.text) return false;
  }
  return true;
}

std::string describe_type(const ParamSpec& spec) {
  std::string unit = spec.unit.empty() ? "" : " (" + spec.unit + ")";
  switch (spec.type) {
    case ParamType::Integer:
      return "integer in [" + format_number(spec.min) + ", " + format_number(spec.max) + "]" + unit;
    case ParamType::Real:
      return "number in [" + format_number(spec.min) + ", " + format_number(spec.max) + "]" + unit;
    case ParamType::Boolean:
      return "true or false";
    case ParamType::Choice: {
      std::string s = "one of ";
      for (std::size_t i = 0; i < spec.choices.size(); ++i) s += (i ? ", " : "") + spec.choices[i];
      return s;
    }
    case ParamType::Sweep:
      return "none, KEY=FROM:TO:STEP or KEY=V1,V2,... with KEY a sweepable parameter";
  }
  return "";
}

}  // namespace attnlab
