#include "bench/workloads.hpp"

#include <cmath>
#include <stdexcept>

#include "experiments/separation/toy_model.hpp"
#include "lab/clock.hpp"
#include "lab/run_record.hpp"
#include "lab/schema.hpp"

namespace attnlab {

namespace {

BenchResult toy_trials(int n, double min_seconds) {
  separation::ToySettings s;
  s.n = n;
  s.m = separation::readout_width_for(std::log(static_cast<double>(n)), separation::Rounding::Round);
  s.tau = 0.25;
  separation::ToyTrial trial;
  BenchResult r{"toy n=" + std::to_string(n), "trials/s"};
  long long successes = 0;
  const double start = now_seconds();
  double elapsed = 0.0;
  while (elapsed < min_seconds) {
    for (int k = 0; k < 100; ++k, ++r.units) {
      Rng rng = Rng::for_stream(1, static_cast<std::uint64_t>(r.units));
      successes += trial.run(s, rng).success();
    }
    elapsed = now_seconds() - start;
  }
  r.seconds = elapsed;
  r.rate = static_cast<double>(r.units) / elapsed;
  if (successes < 0) r.rate = 0.0;  // keeps the work observable to the optimiser
  return r;
}

}  // namespace

std::vector<BenchResult> run_benchmarks(double min_seconds) {
  if (!(min_seconds > 0.0 && min_seconds <= kMaxBenchSeconds))
    throw std::invalid_argument("benchmark seconds must be in (0, 600]; got " + format_number(min_seconds));
  return {toy_trials(1000, min_seconds), toy_trials(2000, min_seconds)};
}

std::string bench_json(const std::vector<BenchResult>& results) {
  std::string out = "[";
  for (std::size_t i = 0; i < results.size(); ++i) {
    const BenchResult& r = results[i];
    out += (i ? "," : "") + std::string("{\"name\":") + json_escape(r.name) + ",\"unit\":" + json_escape(r.unit) +
           ",\"rate\":" + format_number(r.rate) + ",\"seconds\":" + format_number(r.seconds) +
           ",\"units\":" + std::to_string(r.units) + "}";
  }
  return out + "]";
}

}  // namespace attnlab
