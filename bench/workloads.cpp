#include "bench/workloads.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "core/rng.hpp"
#include "experiments/mirror/dataset.hpp"
#include "experiments/mirror/trainer.hpp"
#include "experiments/multihead/certification.hpp"
#include "experiments/multihead/instance.hpp"
#include "experiments/multihead/learners.hpp"
#include "experiments/registry.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/regression_schema.hpp"
#include "experiments/regression/solvers.hpp"
#include "experiments/separation/attention_trial.hpp"
#include "experiments/separation/toy_model.hpp"
#include "lab/clock.hpp"
#include "lab/json_text.hpp"
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

// --- regression (docs/regression.md): solver iterations on the presets' problems -----------------

// A preset's problem, x* and shared start, built as RegressionExperiment::reset() builds them (seed 1).
struct RegressionBench {
  regression::Problem problem;
  regression::Reference reference;
  regression::SolverOptions options;
};

RegressionBench make_regression_bench(const std::string& preset) {
  using namespace regression;
  constexpr std::uint64_t kSeed = 1;
  const Params p = make_experiment("regression")->make_params(preset, {});
  const GeneratorSettings s = generator_settings(p);
  RegressionBench b;
  b.problem = generate(s, kSeed);
  b.reference = find_minimiser(b.problem, b.problem.x_true.size() ? b.problem.x_true
                                                                  : Eigen::VectorXd::Zero(b.problem.d()));
  if (!b.reference.found)
    throw std::runtime_error("bench: x* of regression preset '" + preset + "' not found: " + b.reference.message);
  Rng rng = Rng::for_stream(kSeed, 7);  // the experiment's random_unit(d, seed)
  Eigen::VectorXd u(b.problem.d());
  for (int i = 0; i < u.size(); ++i) u[i] = rng.normal();
  b.problem.x0 = b.reference.x + p.real("r0") * (u / u.norm());
  b.options.damped = p.boolean("damped");
  b.options.sampling = sampling_settings(p);
  b.options.max_iterations = static_cast<int>(p.integer("max_iterations"));
  b.options.tolerance = p.real("tolerance");
  b.options.seed = kSeed;
  return b;
}

// Built on first use and kept: the large problem's setup (generate + find_minimiser) takes seconds.
const RegressionBench& regression_bench(bool large) {
  if (large) {
    static const RegressionBench b = make_regression_bench("large_sparse");
    return b;
  }
  static const RegressionBench b = make_regression_bench("reference");
  return b;
}

// Steps a Solver from the preset's x0, restarting it whenever it finishes, until `min_seconds` of wall
// time have passed. The rate is iterations per second of solver time (TraceRow::seconds, the same
// clock as the experiment's "ms per iteration" note): it leaves out the Solver's constructor and the
// eps0 measurement step() makes after each approximate step, which for the large problem costs as
// much as a Hessian.
BenchResult regression_iterations(const std::string& name, bool large, regression::Method method,
                                  double min_seconds) {
  const RegressionBench& b = regression_bench(large);
  BenchResult r{name, "iterations/s"};
  double solver_seconds = 0.0, distances = 0.0;
  const double start = now_seconds();
  while (now_seconds() - start < min_seconds) {
    regression::Solver solver(method, b.problem, b.reference, b.options);
    while (!solver.finished() && now_seconds() - start < min_seconds) solver.step();
    const regression::TraceRow& last = solver.trace().back();
    r.units += static_cast<long long>(solver.trace().size()) - 1;
    solver_seconds += last.seconds;
    distances += last.distance;
  }
  r.seconds = solver_seconds;
  r.rate = solver_seconds > 0.0 ? static_cast<double>(r.units) / solver_seconds : 0.0;
  if (!(distances >= 0.0)) r.rate = 0.0;  // keeps the work observable to the optimiser
  return r;
}

// --- mirror (docs/mirror.md s.1, s.2, s.4): normalised l_p-AttGD steps ---------------------

// The paper's synthetic setting for seed 1 (n = 6, T = 8, d = 10) and its W0 ~ N(0, 1), drawn as the
// experiment draws them (stream 99, column-major); built on first use and shared by the three p's.
struct MirrorBench {
  mirror::Dataset data;
  Eigen::MatrixXd W0;
};

const MirrorBench& mirror_bench() {
  static const MirrorBench b = [] {
    constexpr std::uint64_t kSeed = 1;
    MirrorBench m;
    m.data = mirror::synthetic_dataset(6, 8, 10, kSeed);
    m.W0.resize(m.data.d(), m.data.d());
    Rng rng = Rng::for_stream(kSeed, 99);
    for (Eigen::Index k = 0; k < m.W0.size(); ++k) m.W0.data()[k] = rng.normal();
    return m;
  }();
  return b;
}

// Normalised mirror-descent steps (eta = 0.1, log-domain direction, as the experiment runs them) from
// W0, restarted from W0 every kMirrorRestart steps: ||W||_p grows like (eta k)^{1/(p-1)}, and a longer
// run would end up timing a saturated softmax (the gradient's log-domain path) rather than the paper's
// regime. On this data p = 2 and p = 3 stay on the direct path for all 2000 steps; p = 1.75 takes the
// log-domain path from step ~1300 of each restart. The restart (MirrorDescent's constructor:
// grad psi(W0) and one forward pass) is timed too.
constexpr int kMirrorRestart = 2000;

BenchResult mirror_steps(double p, const std::string& p_label, double min_seconds) {
  const MirrorBench& b = mirror_bench();
  mirror::TrainerSettings s;
  s.p = p;
  s.eta = 0.1;
  s.normalised = true;
  s.log_domain = true;
  BenchResult r{"mirror p=" + p_label + " n=6 T=8 d=10", "steps/s"};
  double checksum = 0.0;
  const double start = now_seconds();
  double elapsed = 0.0;
  while (elapsed < min_seconds) {
    mirror::MirrorDescent md(b.data, b.W0, b.data.v, s);
    for (int k = 0; k < kMirrorRestart && elapsed < min_seconds; k += 50) {
      for (int j = 0; j < 50; ++j) md.step();
      r.units += 50;
      elapsed = now_seconds() - start;
    }
    checksum += md.W().sum();
  }
  r.seconds = elapsed;
  r.rate = static_cast<double>(r.units) / elapsed;
  if (checksum != checksum) r.rate = 0.0;  // keeps the work observable to the optimiser (NaN only)
  return r;
}

}  // namespace

// The multi-head pipeline's inner loop at (d, k, m) = (12, 3, 2): draw X, label it with the hidden
// layer, certify its rows (docs/multihead.md s.6 costs). No reference implementation exists.
BenchResult multihead_certification(double min_seconds) {
  multihead::InstanceSettings s;
  const multihead::Layer truth = multihead::random_instance(s, 1);
  const Eigen::MatrixXd W_sum = truth.W_sum();
  std::vector<multihead::Constraint> constraints;
  Rng rng = Rng::for_stream(1, 1);
  BenchResult r{"multihead (12,3,2) certification", "samples/s"};
  const double start = now_seconds();
  double elapsed = 0.0;
  while (elapsed < min_seconds) {
    for (int k = 0; k < 200; ++k, ++r.units) {
      const Eigen::MatrixXd X = multihead::random_input(s.k, s.d, rng);
      multihead::certify(X, multihead::apply(truth, X), W_sum, {}, constraints);
    }
    elapsed = now_seconds() - start;
  }
  r.seconds = elapsed;
  r.rate = static_cast<double>(r.units) / elapsed + 0.0 * static_cast<double>(constraints.size());
  return r;
}

// Adam on the same architecture at (12, 3, 2): minibatch steps of 256 examples.
BenchResult multihead_adam(double min_seconds) {
  multihead::InstanceSettings s;
  const multihead::Layer truth = multihead::random_instance(s, 1);
  multihead::AdamSettings a;
  a.samples = 2000;
  multihead::AdamBaseline adam(truth, s.k, a, 1);
  BenchResult r{"multihead (12,3,2) adam", "steps/s"};
  const double start = now_seconds();
  double elapsed = 0.0;
  while (elapsed < min_seconds) {
    adam.step();
    ++r.units;
    elapsed = now_seconds() - start;
  }
  r.seconds = elapsed;
  r.rate = static_cast<double>(r.units) / elapsed;
  return r;
}

std::vector<BenchResult> run_benchmarks(double min_seconds) {
  if (!(min_seconds > 0.0 && min_seconds <= kMaxBenchSeconds))
    throw std::invalid_argument("benchmark seconds must be in (0, 600]; got " + format_number(min_seconds));
  const AttentionModel self = AttentionModel::Self, cross = AttentionModel::Cross;
  // Keep this order in step with bench/separation_numpy.py, then bench/regression_scipy.py, then
  // bench/mirror_numpy.py (bench/run.sh concatenates their lists and checks the names).
  std::vector<BenchResult> out;
  out.push_back(toy_trials(1000, min_seconds));
  out.push_back(toy_trials(2000, min_seconds));
  out.push_back(attention_trials(self, 1000, 12, min_seconds));
  out.push_back(dense_attention_trials(self, 1000, 12, min_seconds));
  out.push_back(attention_trials(self, 200, 66, min_seconds));
  out.push_back(attention_trials(cross, 1000, 12, min_seconds));
  out.push_back(attention_trials(cross, 200, 66, min_seconds));
  out.push_back(dense_attention_trials(cross, 200, 66, min_seconds));
  using regression::Method;
  for (const bool large : {false, true}) {
    const std::string problem = large ? "regression large " : "regression reference ";
    out.push_back(regression_iterations(problem + "newton", large, Method::Newton, min_seconds));
    out.push_back(regression_iterations(problem + "approx_diag", large, Method::ApproxDiag, min_seconds));
    out.push_back(regression_iterations(problem + "sampled", large, Method::Sampled, min_seconds));
  }
  out.push_back(mirror_steps(1.75, "1.75", min_seconds));
  out.push_back(mirror_steps(2.0, "2", min_seconds));
  out.push_back(mirror_steps(3.0, "3", min_seconds));
  out.push_back(multihead_certification(min_seconds));
  out.push_back(multihead_adam(min_seconds));
  return out;
}

std::string bench_json(const std::vector<BenchResult>& results) {
  JsonValue out = JsonValue::array();
  for (const BenchResult& r : results)
    out.push_back({{"name", r.name}, {"unit", r.unit}, {"rate", r.rate}, {"seconds", r.seconds}, {"units", r.units}});
  return json_text(out);
}

}  // namespace attnlab
