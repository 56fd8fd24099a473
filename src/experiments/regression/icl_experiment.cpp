#include "experiments/regression/icl_experiment.hpp"
#include "experiments/papers.hpp"

#include <Eigen/SVD>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/loss.hpp"
#include "experiments/regression/regression_inputs.hpp"
#include "experiments/regression/regression_schema.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

namespace {

const char* const kSpec = "docs/regression.md s.4";

// What one step moves (parameter `perturb`).
enum class Perturb { X, A };
constexpr ChoiceTable<Perturb> kPerturbTable{{"x", Perturb::X}, {"A", Perturb::A}};

// A move's measurements: the table's columns, and the fields of its unit's partial.
constexpr const char* kColumns[] = {"delta", "b_shift", "shift_per_delta", "bound", "identity_error", "alpha_new"};
using Row = std::vector<double>;

Partial to_partial(const Row& row) {
  Partial p;
  for (std::size_t i = 0; i < row.size(); ++i) p.put(kColumns[i], row[i]);
  return p;
}

Row from_partial(const Partial& p) {
  Row row;
  for (const char* c : kColumns) row.push_back(p.value(c));
  return row;
}

// The point x_t where the step starts and the direction dx of a move of x, from their own stream
// (x_t = 0 when x_norm = 0). The run draws dA after them from the same stream.
Rng draw_point(const Params& params, std::uint64_t seed, int d, Eigen::VectorXd& x, Eigen::VectorXd& direction) {
  Rng rng = Rng::for_stream(seed, 11);
  x = Eigen::VectorXd(d);
  direction = Eigen::VectorXd(d);
  for (int i = 0; i < d; ++i) x[i] = rng.normal(), direction[i] = rng.normal();
  x *= params.real("x_norm") / x.norm();
  if (!std::isfinite(x[0])) x.setZero();  // x_norm = 0
  direction /= direction.norm();
  return rng;
}

// The move sizes delta swept, from delta_min to delta_max at per_decade points per decade.
std::vector<double> sweep_deltas(const Params& params) {
  const double lo = params.real("delta_min"), hi = params.real("delta_max");
  if (!(lo < hi))
    throw ParamError("parameter 'delta_max': " + format_number(hi) + " is not above delta_min = " +
                     format_number(lo) + "; allowed: delta_max > delta_min");
  std::vector<double> deltas;
  const double step = 1.0 / double(params.integer("per_decade"));
  for (double e = dmath::log10(lo); e <= dmath::log10(hi) + 1e-9; e += step) deltas.push_back(dmath::pow(10.0, e));
  return deltas;
}

Schema icl_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::choice("function", "function u", kHyperbolicTable.names()).value("exp").section(kSpec)
      .help_text("u(x) = exp(A x), cosh(A x) or sinh(A x)."));
  add(ParamSpec::integer("n", "rows n").range(1, 5000).value("200").section(kSpec)
      .help_text("Rows of A (n >= d)."));
  add(ParamSpec::integer("d", "columns d").range(1, 200).value("10").section(kSpec)
      .help_text("Columns of A."));
  add(ParamSpec::real("norm_A", "||A||").range(0.01, 100).value("1").section(kSpec).log_slider()
      .help_text("Spectral norm of A."));
  add(ParamSpec::real("kappa", "condition number").range(1, 1e6).value("30").section(kSpec).log_slider()
      .help_text("Target condition number of A."));
  add(ParamSpec::choice("target", "target b", kTargetTable.names()).value("simplex").section(kSpec)
      .help_text("planted, simplex or unit, as in the regression experiment."));
  add(ParamSpec::real("x_norm", "||x||").range(0, 50).value("1").section(kSpec)
      .help_text("The point x_t where the step starts (a random direction of this norm)."));
  add(ParamSpec::choice("perturb", "what moves", kPerturbTable.names()).value("x").section(kSpec)
      .help_text("x: x_{t+1} = x_t + dx with ||dx|| = delta. A: A_{t+1} = A_t + dA with ||dA||_2 = delta."));
  add(ParamSpec::real("delta_min", "smallest move").range(1e-14, 1).value("1e-10").section(kSpec).log_slider()
      .help_text("The sweep starts here."));
  add(ParamSpec::real("delta_max", "largest move").range(1e-14, 10).value("0.1").section(kSpec).log_slider()
      .help_text("The sweep ends here."));
  add(ParamSpec::integer("per_decade", "points per decade").range(1, 20).value("3").section(kSpec)
      .help_text("Sweep points per factor of 10."));
  return Schema(std::move(s));
}

class IclExperiment final : public Experiment {
 public:
  IclExperiment() : Experiment(icl_schema()) {
    info_ = {"regression.icl", "Rescaled hyperbolic regression: the in-context learning shift",
             paper_citation("regression", "Corollary F.2"),
             "One step x_t -> x_{t+1} of a solver equals solving the same problem with a shifted target "
             "b~ = (u(x_{t+1}) - c(x_t)) / alpha(x_{t+1}): the residual identity holds exactly and ||b~ - b|| grows "
             "linearly with the step (slope 1 on log-log axes). The same holds for a move of A."};
    presets_ = {
        {"move_x", "Move x (exp)", "Sweep ||dx|| from 1e-10 to 0.1: slope 1, identity at rounding level.",
         {{"function", "exp"}, {"perturb", "x"}}},
        {"move_A", "Move A (exp)", "Sweep ||dA|| from 1e-10 to 0.1: the same linear law for a change of the data.",
         {{"function", "exp"}, {"perturb", "A"}}},
        {"sinh_alpha_zero", "sinh at x = 0: alpha ~ 0",
         "For sinh, alpha(x) = <sinh(A x), 1> is 0 at x = 0 and changes sign nearby, so b~ divides by a number "
         "near 0: ||b~ - b|| does not follow a linear law and no bound holds. Shown honestly, not hidden.",
         {{"function", "sinh"}, {"perturb", "x"}, {"x_norm", "0"}, {"target", "unit"}}},
    };
  }

  // A few decades at one point per decade, on a small problem: several units, well under a second.
  KeyValues smoke_settings() const override {
    return {{"n", "40"}, {"d", "4"}, {"delta_min", "1e-6"}, {"per_decade", "1"}};
  }

  // One unit per move size delta (docs/design.md "The run: prepare, units, merge, results"): each measures one move from
  // the same prepared point, reading the problem only. A unit is one piece: one evaluation of u,
  // plus a dense copy of A when A moves (about 15 ms at the largest, n = 5000, d = 200).
  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    const double delta = deltas_[static_cast<std::size_t>(unit)];
    return make_single_piece_task([this, delta] { return to_partial(measure_move(delta)); });
  }

  Results results() const override;

  // The function u over the range the step's (A x)_i take, with the entries of A x_t on it, and the
  // move sizes swept (docs/regression.md s.4). dA is not drawn (an SVD of an n x d matrix).
  Results inputs(const Params& params, std::uint64_t seed) const override;

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    deltas_.clear();
    slots_.clear();
    const GeneratorSettings s = shared_generator_settings(params);
    problem_ = generate(s, seed);
    Rng rng = draw_point(params, seed, s.d, x_, direction_);
    move_A_ = kPerturbTable.decode(params, "perturb") == Perturb::A;
    if (move_A_) {  // a dense direction dA with ||dA||_2 = 1
      Eigen::MatrixXd E(s.n, s.d);
      for (int i = 0; i < s.n; ++i)
        for (int j = 0; j < s.d; ++j) E(i, j) = rng.normal();
      Eigen::JacobiSVD<Eigen::MatrixXd> svd(E);
      direction_A_ = E / svd.singularValues()[0];
    }
    std::vector<double> deltas = sweep_deltas(params);
    const Point at = evaluate(problem_, x_);
    if (!at.finite) throw ParamError("parameter 'x_norm': exp/cosh/sinh of A x overflows at this x");
    base_ = at;
    deltas_ = std::move(deltas);
    measure_norm_ = measure(problem_.A).norm;
    slots_.assign(deltas_.size(), std::nullopt);
    return std::vector<std::int64_t>(deltas_.size(), 1);
  }

  void merge(std::int64_t unit, const Partial& partial) override {
    slots_[static_cast<std::size_t>(unit)] = from_partial(partial);
  }

 private:
  // One move of size delta: b~, its distance to b, the residual identity, the bound.
  Row measure_move(double delta) const {
    Problem moved = problem_;
    Eigen::VectorXd x_new = x_;
    if (move_A_) {
      moved.A = (Eigen::MatrixXd(problem_.A) + delta * direction_A_).sparseView();
      moved.A.makeCompressed();
    }
    else x_new = x_ + delta * direction_;
    const Point after = evaluate(moved, x_new);
    const Eigen::VectorXd b_shifted = (after.u - base_.c) / after.alpha;
    const double shift = (b_shifted - problem_.b).norm();
    const double identity = (after.u - after.alpha * b_shifted - base_.c).cwiseAbs().maxCoeff() /
                            std::max(1e-300, base_.c.cwiseAbs().maxCoeff() + after.u.cwiseAbs().maxCoeff());
    // ||u' - u|| <= max|v| ||A' x' - A x|| (max over the segment is at an end), and
    // |alpha - alpha'| <= sqrt(n) ||u' - u||: ||b~ - b|| <= vmax m (1 + sqrt(n) ||b||) / |alpha'|,
    // with m = ||A|| delta (x moves) or delta ||x|| (A moves).
    const double vmax = std::max(base_.v.cwiseAbs().maxCoeff(), after.v.cwiseAbs().maxCoeff());
    const double moved_by = move_A_ ? delta * x_.norm() : measure_norm_ * delta;
    const double bound = vmax * moved_by * (1.0 + std::sqrt(double(problem_.n())) * problem_.b.norm()) /
                         std::fabs(after.alpha);
    return {delta, shift, shift / delta, bound, identity, after.alpha};
  }

  Problem problem_;
  Point base_;
  Eigen::VectorXd x_, direction_;
  Eigen::MatrixXd direction_A_;
  bool move_A_ = false;
  double measure_norm_ = 1.0;
  std::vector<double> deltas_;             // unit k moves by deltas_[k]
  std::vector<std::optional<Row>> slots_;  // unit k's row, once it came
};

Results IclExperiment::results() const {
  Results r;
  r.table.columns.assign(std::begin(kColumns), std::end(kColumns));
  // The rows that came, in unit order (increasing delta), whatever order they came in.
  for (const auto& slot : slots_)
    if (slot) r.table.rows.push_back(*slot);
  const std::vector<Row>& rows = r.table.rows;
  std::vector<double> delta, shift, bound, identity, slope_line;
  for (const auto& row : rows) {
    delta.push_back(row[0]);
    shift.push_back(row[1]);
    bound.push_back(row[3]);
    identity.push_back(row[4]);
  }
  const char* what = move_A_ ? "||A_{t+1} - A_t||" : "||x_{t+1} - x_t||";
  Plot p = Plot::titled("Target shift of one step (Corollary F.2)").x(what).y("||b~ - b||").log_x_axis().log_y_axis();
  p.series.push_back({"measured ||b~ - b||", SeriesStyle::LineMarkers, delta, shift, {}, {}});
  p.series.push_back({"bound max|v| m (1 + sqrt(n) ||b||) / |alpha'|", SeriesStyle::Line, delta, bound, {}, {}});
  if (!rows.empty() && shift[0] > 0.0) {
    for (double x : delta) slope_line.push_back(shift[0] * x / delta[0]);
    p.series.push_back({"slope 1", SeriesStyle::Reference, delta, slope_line, {}, {}});
  }
  r.plots.push_back(p);
  Plot q = Plot::titled("Residual identity u(x_{t+1}) - alpha(x_{t+1}) b~ = c(x_t)")
      .x(what).y("max error / max |entry|").log_x_axis().log_y_axis();
  q.series.push_back({"relative error", SeriesStyle::LineMarkers, delta, identity, {}, {}});
  r.plots.push_back(q);
  if (rows.size() >= 2) {
    // Least-squares slope of log shift against log delta.
    double sx = 0, sy = 0, sxx = 0, sxy = 0;
    int m = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!(shift[i] > 0.0)) continue;
      const double lx = dmath::log10(delta[i]), ly = dmath::log10(shift[i]);
      sx += lx, sy += ly, sxx += lx * lx, sxy += lx * ly, ++m;
    }
    if (m >= 2) r.notes.push_back(printf_text("Log-log slope of ||b~ - b|| against the move: %.4f (theory: 1).",
                                      (m * sxy - sx * sy) / (m * sxx - sx * sx)));
    double worst = 0.0;
    for (double e : identity) worst = std::max(worst, e);
    r.notes.push_back(printf_text("Residual identity: largest relative error %.2g over the sweep.", worst));
    double smallest_alpha = INFINITY;
    for (const auto& row : rows) smallest_alpha = std::min(smallest_alpha, std::fabs(row[5]));
    if (smallest_alpha < 1e-6 * std::max(1.0, base_.u.cwiseAbs().sum()))
      r.notes.push_back(printf_text("Warning: |alpha(x_{t+1})| gets as small as %.2g: b~ divides by it, so ||b~ - b|| has no "
                            "linear bound here (the sinh case of docs/regression.md s.4).",
                            smallest_alpha));
  }
  return r;
}

Results IclExperiment::inputs(const Params& params, std::uint64_t seed) const {
  Results r;
  const GeneratorSettings s = shared_generator_settings(params);  // throws when n < d, as the run does
  const std::vector<double> deltas = sweep_deltas(params);
  const bool move_A = kPerturbTable.decode(params, "perturb") == Perturb::A;
  const double largest = deltas.empty() ? 0.0 : deltas.back();
  if (double(s.n) * double(s.d) <= kPictureEntries) {
    const Problem problem = generate(s, seed);
    Eigen::VectorXd x, direction;
    draw_point(params, seed, s.d, x, direction);
    const Point at = evaluate(problem, x);
    if (!at.finite) throw ParamError("parameter 'x_norm': exp/cosh/sinh of A x overflows at this x");
    // (A x)_i over the sweep: linear in delta when x moves (extremes at delta = 0 and the largest),
    // within largest ||x|| of A x_t when A moves (||dA||_2 = 1).
    double lo = at.Ax.minCoeff(), hi = at.Ax.maxCoeff();
    if (move_A) {
      lo -= largest * x.norm(), hi += largest * x.norm();
    } else {
      const Eigen::VectorXd moved = at.Ax + largest * (problem.A * direction);
      lo = std::min(lo, moved.minCoeff()), hi = std::max(hi, moved.maxCoeff());
    }
    r.plots.push_back(function_plot("Inputs: the function u over the range of (A x)_i during the step", s.function,
                                    lo, hi, std::vector<double>(at.Ax.data(), at.Ax.data() + at.Ax.size()),
                                    "entries of A x_t (where the step starts)"));
  } else {
    // |(A x)_i| <= ||A|| ||x||, and a move adds at most ||A|| delta (x moves) or delta ||x|| (A moves).
    const double x_norm = params.real("x_norm");
    const double R = s.norm * x_norm + largest * (move_A ? x_norm : s.norm);
    r.plots.push_back(function_plot("Inputs: the function u over [-R, R], R = ||A|| ||x_t|| + the largest move",
                                    s.function, -R, R, {}, ""));
  }
  Plot sweep = Plot::titled("Inputs: the move sizes swept").x("sweep point").y(move_A ? "||dA||" : "||dx||").log_y_axis();
  std::vector<double> index;
  for (std::size_t k = 0; k < deltas.size(); ++k) index.push_back(double(k + 1));
  sweep.series.push_back({"move size delta", SeriesStyle::LineMarkers, index, deltas, {}, {}});
  if (!deltas.empty()) r.plots.push_back(sweep);
  return r;
}

}  // namespace

std::unique_ptr<Experiment> make_icl_experiment() { return std::make_unique<IclExperiment>(); }

}  // namespace attnlab::regression
