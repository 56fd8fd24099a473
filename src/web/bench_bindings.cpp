// The JS API's `benchmarks(seconds)` (bench/workloads.hpp), in the node module only: the page's module
// and the workers' leave the benchmark workloads out (9.4 KB gzip of the page's first load; docs/toolchain.md).
#include <emscripten/bind.h>

#include <exception>
#include <string>

#include "bench/workloads.hpp"
#include "lab/json_text.hpp"

namespace {

std::string bench_json_for(double min_seconds) {
  try {
    return attnlab::bench_json(attnlab::run_benchmarks(min_seconds));
  } catch (const std::exception& ex) {
    return attnlab::json_text({{"error", ex.what()}});
  }
}

}  // namespace

EMSCRIPTEN_BINDINGS(attnlab_bench_api) { emscripten::function("benchmarks", &bench_json_for); }
