// The `separation.self` / `separation.cross` run that prepare() builds and the units and results()
// read (docs/design.md "The run: prepare, units, merge, results").
#pragma once
#include <cstdint>
#include <vector>

#include "experiments/separation/attention_datasets.hpp"
#include "experiments/separation/success_sweep.hpp"

namespace attnlab::separation {

struct AttentionRun {
  AttentionModel model = AttentionModel::Self;
  SuccessSweep sweep;                       // the points, the trial blocks and their merged counts
  std::vector<AttentionSettings> settings;  // per sweep point
  std::int64_t trials = 0;                  // per point (for the notes)
  bool tau_from_rule = false;               // tau from the paper's theorems (for the notes)
  bool m_from_rule = false;  // m = log(n / delta) follows n (the theory curve is drawn against n)
  int widest = 0;            // the largest m over the points
  bool share_widths = false;  // an m-sweep with a shared readout: each trial drawn once, at the widest m
};

}  // namespace attnlab::separation
