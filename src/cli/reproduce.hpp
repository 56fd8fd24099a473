// `attnlab reproduce PAPER --out DIR [--figures DIR]`: every figure panel of a paper, one CSV per
// panel plus an index (and the paper's figures laid out as in the paper), with independent panels
// run on several threads (results do not depend on the threads).
#pragma once
#include <cstdint>
#include <string>

#include "lab/schema.hpp"

namespace attnlab::cli {

struct ReproduceOptions {
  std::string name;     // "separation"
  std::string out_dir;  // created if missing
  std::string figures;  // --figures DIR: the paper's figures as multi-panel SVGs; "" for none
  KeyValues sets;       // applied to every panel after its preset, e.g. trials=200
  std::uint64_t seed = 1;
  int jobs = 1;
  bool quiet = false;
};

// Validates every panel's parameters before running any; throws ParamError or runtime_error.
int reproduce(const ReproduceOptions& options);

}  // namespace attnlab::cli
