// The experiment interface: declared once, driven by every face (DESIGN.md "The one idea").
// A run is resumable: reset() validates nothing (Params are valid by construction) and prepares,
// step() does a bounded slice of work, progress() and results() may be called at any time.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "lab/results.hpp"
#include "lab/schema.hpp"

namespace attnlab {

struct Preset {
  std::string name;         // "fig3a"
  std::string title;        // "Fig. 3a: success vs n"
  std::string description;  // what the paper claims and what to look for
  KeyValues values;         // applied over the defaults, in order
};

struct ExperimentInfo {
  std::string id;       // "separation.toy"
  std::string title;    // human title
  std::string paper;    // citation
  std::string summary;  // two or three sentences
};

// How much work one step() may do: at most `max_units` work units, and it stops after
// `seconds` of wall time (checked between units). Results never depend on the slicing.
struct Budget {
  std::int64_t max_units = INT64_MAX;
  double seconds = 1e300;
};

struct Progress {
  std::int64_t done = 0;
  std::int64_t total = 0;
  bool finished() const { return done >= total; }
  double fraction() const { return total > 0 ? static_cast<double>(done) / static_cast<double>(total) : 1.0; }
};

class Experiment {
 public:
  virtual ~Experiment() = default;
  virtual const ExperimentInfo& info() const = 0;
  virtual const Schema& schema() const = 0;
  virtual const std::vector<Preset>& presets() const = 0;

  virtual void reset(const Params& params, std::uint64_t seed) = 0;
  virtual void step(const Budget& budget) = 0;
  virtual Progress progress() const = 0;
  virtual Results results() const = 0;

  // Optional close look at one trial of one sweep point of the current run (valid after reset):
  // matrices as heatmaps, per-row values, the network's outputs. inspector_points() labels the
  // points ("n = 200", ...) and is empty for experiments without an inspector; inspect() throws
  // ParamError for a point or trial out of range or when there is no inspector.
  virtual std::vector<std::string> inspector_points() const { return {}; }
  virtual Results inspect(std::size_t point, std::int64_t trial) const;

  // Optional user data (e.g. a problem file as JSON text), kept across reset() and used when the
  // parameters ask for it. Throws ParamError naming what is wrong; the default takes no data.
  virtual bool accepts_data() const { return false; }
  virtual void set_data(const std::string& json);

  const Preset& preset(const std::string& name) const;  // throws ParamError for unknown names
  // Defaults with the named preset (if any) and then `overrides` applied; throws ParamError.
  Params make_params(const std::string& preset_name, const KeyValues& overrides) const;
};

}  // namespace attnlab
