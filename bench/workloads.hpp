// Benchmark workloads, run by `attnlab bench` natively and by bench/node_bench.cjs on the wasm
// module, so both measure exactly the same code. Throughput only; no assertions.
#pragma once
#include <string>
#include <vector>

namespace attnlab {

struct BenchResult {
  std::string name;    // "toy n=1000", "self n=1000 d=12", "cross dense n=200 d=66"
  std::string unit;    // "trials/s"
  double rate = 0.0;   // units per second
  double seconds = 0.0;
  long long units = 0;
};

constexpr double kMaxBenchSeconds = 600.0;

// Each workload runs for at least `min_seconds`, which must be in (0, kMaxBenchSeconds]
// (std::invalid_argument otherwise).
std::vector<BenchResult> run_benchmarks(double min_seconds);
std::string bench_json(const std::vector<BenchResult>& results);

}  // namespace attnlab
