// Helpers of the JS API that the page's own bindings reuse.
#pragma once
#include <emscripten/val.h>

#include <string>

#include "lab/experiment.hpp"

namespace attnlab::web {

std::string error_json(const std::string& message);
KeyValues key_values_from(const emscripten::val& object);
std::string describe_json(const Experiment& e);
std::string bench_json_for(double min_seconds);  // bench/workloads in this module

}  // namespace attnlab::web
