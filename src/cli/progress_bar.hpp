// A one-line progress bar on stderr for long CLI runs (only when stderr is a terminal).
#pragma once
#include "lab/experiment.hpp"

namespace attnlab {

class ProgressBar {
 public:
  explicit ProgressBar(bool enabled);
  void update(const Progress& p);  // redraws at most every 0.1 s, and only after 0.3 s
  void finish();

 private:
  bool enabled_;
  bool drawn_ = false;
  double start_, last_ = 0.0;
};

}  // namespace attnlab
