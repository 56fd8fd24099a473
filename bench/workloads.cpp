#include "bench/workloads.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "experiments/separation/attention_trial.hpp"
#include "experiments/separation/toy_model.hpp"
#include "lab/clock.hpp"
#include "lab/run_record.hpp"
#include "lab/schema.hpp"

namespace attnlab {

namespace {

using separation::AttentionModel;
using separation::AttentionSettings;

// Runs trial(stream index) -> success in batches of `batch` until `min_seconds` have passed. The
// success count is kept observable so the optimiser cannot drop the work.
template <class Trial>
BenchResult timed_trials(const std::string& name, double min_seconds, int batch, Trial trial) {
  BenchResult r{name, "trials/s"};
  long long successes = 0;
  const double start = now_seconds();
  double elapsed = 0.0;
  while (elapsed < min_seconds) {
    for (int k = 0; k < batch; ++k, ++r.units) successes += trial(static_cast<std::uint64_t>(r.units)) ? 1 : 0;
    elapsed = now_seconds() - start;
  }
  r.seconds = elapsed;
  r.rate = static_cast<double>(r.units) / elapsed;
  if (successes < 0) r.rate = 0.0;  // keeps the work observable to the optimiser
  return r;
}

BenchResult toy_trials(int n, double min_seconds) {
  separation::ToySettings s;
  s.n = n;
  s.m = separation::readout_width_for(std::log(static_cast<double>(n)), separation::Rounding::Round);
  s.tau = 0.25;
  separation::ToyTrial trial;
  return timed_trials("toy n=" + std::to_string(n), min_seconds, 100, [&](std::uint64_t i) {
    Rng rng = Rng::for_stream(1, i);
    return trial.run(s, rng).success();
  });
}

// The paper's settings (spec s.2 and s.4, Figs. 4 and 7) with X = I.
AttentionSettings paper_settings(AttentionModel model, int n, int d) {
  AttentionSettings s;
  s.model = model;
  s.n = n;
  s.d = d;
  s.x = separation::ScoreMatrix::Identity;
  s.shared_readout = true;
  const double ln = std::log(static_cast<double>(n));
  const int m = separation::readout_width_for(std::log(n / 0.01), separation::Rounding::Round);
  if (model == AttentionModel::Self) {  // Def. D.1
    s.a0 = 0.01, s.a1 = 1.2, s.b = 0.2, s.c = 0.8;
    s.tau = (s.c + 0.1) * std::sqrt(ln);
    s.m = std::max(m, 15);
  } else {  // Def. F.1
    s.a0 = 0.01, s.a1 = 3.0;
    s.tau = 0.9;
    s.m = m;
  }
  return s;
}

std::string size_label(int n, int d) { return "n=" + std::to_string(n) + " d=" + std::to_string(d); }
const char* model_label(AttentionModel model) { return model == AttentionModel::Self ? "self" : "cross"; }

// The project's path: AttentionTrial on the grouped rows.
BenchResult attention_trials(AttentionModel model, int n, int d, double min_seconds) {
  const AttentionSettings s = paper_settings(model, n, d);
  separation::AttentionTrial trial;
  return timed_trials(std::string(model_label(model)) + " " + size_label(n, d), min_seconds, 100,
                      [&](std::uint64_t i) {
                        Rng rng = Rng::for_stream(1, i);
                        return trial.run(s, rng).success();
                      });
}

// Benchmark only: the same trial (same draw, same four evaluations) on Layout::Dense, one row per
// token, so each attention is the plain O(n^2 d) row-by-row computation of spec s.2.
class DenseAttentionTrial {
 public:
  separation::TrialOutcome run(const AttentionSettings& s, Rng& rng) {
    separation::draw_trial(s, rng, draw_);
    separation::TrialOutcome out;
    bool* fired[4] = {&out.exp_d1, &out.lin_d1, &out.exp_d0, &out.lin_d0};
    for (int k = 0; k < 4; ++k) {
      const separation::Evaluation& e = separation::kEvaluations[k];
      separation::build_input(s, e.d1 ? s.a1 : s.a0, e.d1 ? draw_.d1 : draw_.d0, separation::Layout::Dense,
                              queries_, keys_);
      separation::attend(queries_, keys_, s.x, e.norm, c_);
      const separation::ReadoutValue r =
          separation::evaluate_rows_readout(c_, draw_.readout(k, s.shared_readout), s.tau);
      *fired[k] = r.fires();
      out.near_ties += r.near_ties;
    }
    return out;
  }

 private:
  separation::AttentionTrialDraw draw_;
  separation::RowGroups queries_, keys_, c_;
};

BenchResult dense_attention_trials(AttentionModel model, int n, int d, double min_seconds) {
  const AttentionSettings s = paper_settings(model, n, d);
  DenseAttentionTrial trial;
  return timed_trials(std::string(model_label(model)) + " dense " + size_label(n, d), min_seconds, 1,
                      [&](std::uint64_t i) {
                        Rng rng = Rng::for_stream(1, i);
                        return trial.run(s, rng).success();
                      });
}

}  // namespace

std::vector<BenchResult> run_benchmarks(double min_seconds) {
  if (!(min_seconds > 0.0 && min_seconds <= kMaxBenchSeconds))
    throw std::invalid_argument("benchmark seconds must be in (0, 600]; got " + format_number(min_seconds));
  const AttentionModel self = AttentionModel::Self, cross = AttentionModel::Cross;
  // Keep this order in step with bench/separation_numpy.py (bench/run.sh checks the names).
  std::vector<BenchResult> out;
  out.push_back(toy_trials(1000, min_seconds));
  out.push_back(toy_trials(2000, min_seconds));
  out.push_back(attention_trials(self, 1000, 12, min_seconds));
  out.push_back(dense_attention_trials(self, 1000, 12, min_seconds));
  out.push_back(attention_trials(self, 200, 66, min_seconds));
  out.push_back(attention_trials(cross, 1000, 12, min_seconds));
  out.push_back(attention_trials(cross, 200, 66, min_seconds));
  out.push_back(dense_attention_trials(cross, 200, 66, min_seconds));
  return out;
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
