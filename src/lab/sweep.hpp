// Sweeps: one parameter taking a list of values, written "key=from:to:step" or "key=v1,v2,...",
// or "none". Parsed and validated against the schema (each value must be valid for its key).
#pragma once
#include <string>
#include <vector>

namespace attnlab {

class Schema;

struct Sweep {
  std::string key;             // empty for "none"
  std::vector<double> values;  // the sweep points, in order
  bool active() const { return !key.empty(); }
  bool sweeps(const std::string& k) const { return active() && key == k; }  // `k` is the swept key
};

constexpr std::size_t kMaxSweepPoints = 10000;

// Throws ParamError (naming `param_key`, the sweep parameter) when the text is malformed, the
// key is not sweepable, a value is out of the key's range or there are too many points.
Sweep parse_sweep(const Schema& schema, const std::string& param_key, const std::string& text);

class Params;
// `params` at the sweep's first point (`params` itself when its sweep parameter says "none"): what
// Experiment::inputs() draws. Throws ParamError as parse_sweep does.
Params first_sweep_point(const Schema& schema, const Params& params, const std::string& param_key);

}  // namespace attnlab
