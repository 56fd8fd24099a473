// The `separation.toy` run that prepare() builds and the units and results() read
// (docs/design.md "The run: prepare, units, merge, results").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/separation/success_sweep.hpp"
#include "experiments/separation/toy_model.hpp"

namespace attnlab::separation {

struct ToyRun {
  SuccessSweep sweep;              // the points, the trial blocks and their merged counts
  std::vector<ToySettings> settings;  // per sweep point
  int widest = 0;                  // the largest m over the points
  bool share_widths = false;       // an m-sweep with a shared readout: each trial drawn once, at the widest m
  std::int64_t trials = 0;         // per point (for the notes)
  bool m_from_rule = false;        // m = log n rounded by `rounding` (for the notes)
  std::string rounding;
};

}  // namespace attnlab::separation
