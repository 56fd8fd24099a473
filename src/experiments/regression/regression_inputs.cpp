#include "experiments/regression/regression_inputs.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/regression/generator.hpp"
#include "experiments/regression/loss.hpp"
#include "experiments/regression/regression_schema.hpp"
#include "lab/text.hpp"

namespace attnlab::regression {

namespace {

constexpr int kCurvePoints = 121;    // per function
constexpr int kMarkedPoints = 60;    // entries of A x0 shown on the curve, at most
constexpr int kSegmentPoints = 101;  // t = 0, 0.01, ..., 1
constexpr int kHeatmapCells = 20000;

// The start's direction u of x0 = x* + r0 u (its own stream, so the problem's draw is unchanged).
Eigen::VectorXd random_unit(int d, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 7);
  Eigen::VectorXd u(d);
  for (int i = 0; i < d; ++i) u[i] = rng.normal();
  return u / u.norm();
}

double apply(Hyperbolic f, double z) {
  switch (f) {
    case Hyperbolic::Exp: return dmath::exp(z);
    case Hyperbolic::Cosh: return dmath::cosh(z);
    case Hyperbolic::Sinh: return dmath::sinh(z);
  }
  return 0.0;
}

// The first rows (and columns) of A as a heatmap: what a large loaded problem shows.
Heatmap first_rows(const SparseRows& A) {
  Heatmap h;
  h.cols = std::min<int>(static_cast<int>(A.cols()), 200);
  h.rows = std::max(1, std::min<int>(static_cast<int>(A.rows()), kHeatmapCells / h.cols));
  h.title = printf_text("Inputs: the first %.0f rows of A", h.rows) +
            (h.cols < A.cols() ? printf_text(" (first %.0f columns)", h.cols) : std::string());
  h.x_label = "column j";
  h.y_label = "row i";
  h.value_label = "entry A_ij";
  h.values.assign(static_cast<std::size_t>(h.rows) * static_cast<std::size_t>(h.cols), 0.0);
  double biggest = 0.0;
  for (int i = 0; i < h.rows; ++i)
    for (SparseRows::InnerIterator it(A, i); it; ++it)
      if (it.col() < h.cols) {
        h.values[static_cast<std::size_t>(i) * h.cols + it.col()] = it.value();
        biggest = std::max(biggest, std::fabs(it.value()));
      }
  if (!(biggest > 0.0)) biggest = 1.0;
  h.low = -biggest;
  h.high = biggest;
  return h;
}

}  // namespace

Start prepare_start(const Params& params, std::uint64_t seed, const ProblemFile* data) {
  Start s;
  const bool from_data = kSourceTable.decode(params, "source") == ProblemSource::Data;
  if (from_data) {
    if (!data)
      throw ParamError("parameter 'source': 'data' needs a problem file (CLI --data FILE.json, the page's Load "
                       "problem button, or the JS API); allowed: generate, or load a file first");
    s.problem = data->problem;
    if (!data->has_function) s.problem.function = kHyperbolicTable.decode(params, "function");
  } else {
    s.problem = generate(generator_settings(params), seed);
  }
  Problem& problem = s.problem;
  s.facts = measure(problem.A);
  // x*: damped exact Newton from x_true (or the file's x0, or 0), then the shared start.
  const Eigen::VectorXd from = problem.x_true.size() ? problem.x_true
                               : problem.x0.size()   ? problem.x0
                                                     : Eigen::VectorXd::Zero(problem.d());
  s.reference = find_minimiser(problem, from);
  if (!s.reference.found) throw ParamError("the minimiser x* was not found: " + s.reference.message);
  const bool file_start = from_data && problem.x0.size();
  if (!file_start) problem.x0 = s.reference.x + params.real("r0") * random_unit(problem.d(), seed);
  const double start_exponent = s.facts.norm * problem.x0.norm();
  if (start_exponent > kMaxExponent)
    throw ParamError("parameter 'r0': the start has ||A|| ||x0|| = " + format_number(start_exponent) +
                     ", which would overflow exp/cosh/sinh; allowed: a start with ||A|| ||x0|| <= 700");
  return s;
}

Plot function_plot(const std::string& title, Hyperbolic chosen, double lo, double hi, std::vector<double> marked,
                   const std::string& marked_name) {
  if (!(hi - lo > 1e-6)) {  // a single point (x = 0, say): widen to a visible interval around it
    const double mid = 0.5 * (lo + hi), half = std::max(1e-3, 1e-3 * std::fabs(mid));
    lo = mid - half, hi = mid + half;
  }
  lo = std::max(lo, -kMaxExponent), hi = std::min(hi, kMaxExponent);
  Plot p = Plot::titled(title).x("z = (A x)_i").y("u(z)");
  std::vector<double> z(kCurvePoints);
  for (int k = 0; k < kCurvePoints; ++k) z[k] = lo + (hi - lo) * k / (kCurvePoints - 1);
  auto curve = [&](Hyperbolic f) {
    std::vector<double> y;
    for (double v : z) y.push_back(apply(f, v));
    return y;
  };
  p.series.push_back({std::string(to_string(chosen)) + " (this problem's u)", SeriesStyle::Line, z, curve(chosen),
                      {}, {}});
  for (Hyperbolic f : {Hyperbolic::Exp, Hyperbolic::Cosh, Hyperbolic::Sinh})
    if (f != chosen) p.series.push_back({to_string(f), SeriesStyle::Reference, z, curve(f), {}, {}});
  if (!marked.empty()) {
    std::sort(marked.begin(), marked.end());
    marked.erase(std::unique(marked.begin(), marked.end()), marked.end());  // x = 0: one point, not n
    const std::size_t m = std::min<std::size_t>(marked.size(), kMarkedPoints);
    std::vector<double> mx, my;
    for (std::size_t k = 0; k < m; ++k) {  // evenly spaced order statistics, the smallest and largest included
      const std::size_t i = m == 1 ? 0 : k * (marked.size() - 1) / (m - 1);
      mx.push_back(std::clamp(marked[i], lo, hi));
      my.push_back(apply(chosen, mx.back()));
    }
    p.series.push_back({marked_name, SeriesStyle::LineMarkers, mx, my, {}, {}});
  }
  return p;
}

Results regression_inputs(const Params& params, std::uint64_t seed, const ProblemFile* data) {
  Results r;
  const bool from_data = kSourceTable.decode(params, "source") == ProblemSource::Data;
  const Hyperbolic param_function = kHyperbolicTable.decode(params, "function");
  double rows = 0.0, entries = 0.0;
  if (from_data) {
    if (data) rows = data->problem.n(), entries = rows * double(data->problem.d());
  } else {
    const GeneratorSettings g = generator_settings(params);  // throws when n < d, as the run does
    rows = g.n, entries = double(g.n) * double(g.d);
  }
  if (rows > kSolveRows || entries > kSolveEntries) {
    // Too large to build here: what needs no solve.
    if (from_data) {
      const Problem& p = data->problem;
      const Hyperbolic f = data->has_function ? p.function : param_function;
      if (p.x0.size()) {
        const Eigen::VectorXd Ax = p.A * p.x0;
        r.plots.push_back(function_plot("Inputs: u over the entries of A x0 (the file's start)", f, Ax.minCoeff(),
                                        Ax.maxCoeff(), std::vector<double>(Ax.data(), Ax.data() + Ax.size()),
                                        "entries of A x0 (the start), on the curve u"));
      }
      r.heatmaps.push_back(first_rows(p.A));
    } else {
      // |(A x)_i| <= ||A|| ||x||, and x0 lies at distance r0 from x*, found near x_true.
      const double R = params.real("norm_A") * (params.real("x_true_norm") + params.real("r0"));
      // The title names no x_true and no r0: a step that shows this picture may define neither.
      r.plots.push_back(function_plot("Inputs: u over [-R, R], R a rough bound on the entries (A x)_i between the "
                                      "start and x*", param_function, -R, R, {}, ""));
      r.notes.push_back(printf_text("The loss from x0 to x* is drawn before Run for n <= %.0f and n d <= %.0f only.",
                                    kSolveRows, kSolveEntries));
    }
    return r;
  }

  const Start s = prepare_start(params, seed, data);
  const Problem& p = s.problem;
  const Eigen::VectorXd& x0 = p.x0;
  const Eigen::VectorXd& xs = s.reference.x;
  // (A x)_i is linear along the segment: its extremes are at x0 and x*.
  const Eigen::VectorXd A0 = p.A * x0, As = p.A * xs;
  const double lo = std::min(A0.minCoeff(), As.minCoeff()), hi = std::max(A0.maxCoeff(), As.maxCoeff());
  r.plots.push_back(function_plot("Inputs: the function u over the range of (A x)_i from x0 to x*", p.function, lo,
                                  hi, std::vector<double>(A0.data(), A0.data() + A0.size()),
                                  "entries of A x0 (the start), on the curve u"));
  // The loss and its two parts along the segment: which part dominates says how much of the
  // Hessian the regulariser's A^T W^2 A holds (docs/regression.md s.2).
  Plot segment = Plot::titled("Inputs: the loss and its two parts along the segment from the start x0 to x*")
                     .x("t (0: the start x0, 1: the minimiser x*)").y("loss L");
  std::vector<double> t, loss, data_term, regulariser;
  for (int k = 0; k < kSegmentPoints; ++k) {
    const double tk = double(k) / (kSegmentPoints - 1);
    const Point at = evaluate(p, x0 + tk * (xs - x0));
    if (!at.finite || !std::isfinite(at.loss)) continue;  // cannot happen: both ends are checked
    t.push_back(tk);
    loss.push_back(at.loss);
    data_term.push_back(0.5 * at.c.squaredNorm());
    regulariser.push_back(0.5 * p.w.cwiseProduct(at.Ax).squaredNorm());
  }
  segment.series.push_back({"loss L", SeriesStyle::Line, t, loss, {}, {}});
  segment.series.push_back({"data term 0.5 ||u - alpha b||^2", SeriesStyle::Line, t, data_term, {}, {}});
  segment.series.push_back({"regulariser 0.5 ||W A x||^2", SeriesStyle::Line, t, regulariser, {}, {}});
  if (!t.empty()) r.plots.push_back(segment);
  return r;
}

}  // namespace attnlab::regression
