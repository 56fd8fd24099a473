#include "lab/experiment.hpp"

namespace attnlab {

const Preset& Experiment::preset(const std::string& name) const {
  std::string known;
  for (const auto& p : presets()) {
    if (p.name == name) return p;
    known += (known.empty() ? "" : ", ") + p.name;
  }
  throw ParamError("unknown preset '" + name + "' for " + info().id + "; presets: " +
                   (known.empty() ? "(none)" : known));
}

Params Experiment::make_params(const std::string& preset_name, const KeyValues& overrides) const {
  Params p = schema().defaults();
  if (!preset_name.empty()) schema().apply(p, preset(preset_name).values);
  schema().apply(p, overrides);
  return p;
}

void Experiment::set_data(const std::string&) {
  throw ParamError("experiment '" + info().id + "' takes no data file");
}

Results Experiment::inspect(std::size_t, std::int64_t) const {
  throw ParamError("experiment '" + info().id + "' has no inspector");
}

}  // namespace attnlab
