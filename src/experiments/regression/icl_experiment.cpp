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

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    deltas_.clear();
    slots_.clear();
    const GeneratorSettings s = shared_generator_settings(params);
    problem_ = generate(s, seed);
    Rng rng = Rng::for_stream(seed, 11);
    x_ = Eigen::VectorXd(s.d);
    direction_ = Eigen::VectorXd(s.d);
    for (int i = 0; i < s.d; ++i) x_[i] = rng.normal(), direction_[i] = rng.normal();
    x_ *= params.real("x_norm") / x_.norm();
    if (!std::isfinite(x_[0])) x_.setZero();  // x_norm = 0
    direction_ /= direction_.norm();
    move_A_ = kPerturbTable.decode(params, "perturb") == Perturb::A;
    if (move_A_) {  // a dense direction dA with ||dA||_2 = 1
      Eigen::MatrixXd E(s.n, s.d);
      for (int i = 0; i < s.n; ++i)
        for (int j = 0; j < s.d; ++j) E(i, j) = rng.normal();
      Eigen::JacobiSVD<Eigen::MatrixXd> svd(E);
      direction_A_ = E / svd.singularValues()[0];
    }
    const double lo = params.real("delta_min"), hi = params.real("delta_max");
    if (!(lo < hi))
      throw ParamError("parameter 'delta_max': " + format_number(hi) + " is not above delta_min = " +
                       format_number(lo) + "; allowed: delta_max > delta_min");
    std::vector<double> deltas;
    const double step = 1.0 / double(params.integer("per_decade"));
    for (double e = dmath::log10(lo); e <= dmath::log10(hi) + 1e-9; e += step) deltas.push_back(dmath::pow(10.0, e));
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

}  // namespace

std::unique_ptr<Experiment> make_icl_experiment() { return std::make_unique<IclExperiment>(); }

}  // namespace attnlab::regression
