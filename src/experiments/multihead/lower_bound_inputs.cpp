#include "experiments/multihead/lower_bound_inputs.hpp"

#include <algorithm>
#include <cmath>

#include "core/rng.hpp"
#include "experiments/multihead/lower_bound.hpp"
#include "experiments/multihead/lower_bound_schema.hpp"
#include "lab/text.hpp"

namespace attnlab::multihead {

double gadget_output(const Gadget& g, double rho, double u) {
  double h = 0.0;
  for (std::size_t j = 0; j < g.knots.size(); ++j)
    h += g.weights[j] * (phi(rho * (g.knots[j] + u)) + phi(rho * (u - g.knots[j])));
  return h;
}

Results lower_bound_inputs(const Params& p, std::uint64_t seed) {
  const ParitySettings run = lower_bound_settings(p, seed);
  Results r;
  Plot layer = Plot::titled("Inputs: the parity layer's output when the two tokens' signs differ")
                   .x("u = (bits of S where token 1 has + and token 2 has -) - (the reverse)")
                   .y("first output times the token's sign");
  constexpr int kSteps = 60;  // points per unit of u
  // The layers for smaller |S| compute nearly the same function of u on their own range [-|S|, |S|]
  // (drawn one over the other, only the top one would show): one curve, the largest |S|'s, and in its
  // name how far the others are from it at most.
  const int s = run.max_S;
  const Gadget g = build_gadget(s + 1, s, run.rho);
  Series curve{"", SeriesStyle::Line, {}, {}, {}, {}};
  for (int n = -s * kSteps; n <= s * kSteps; ++n) {
    const double u = double(n) / kSteps;
    curve.x.push_back(u), curve.y.push_back(gadget_output(g, run.rho, u));
  }
  double apart = 0.0;
  for (int smaller = 1; smaller < s; ++smaller) {
    const Gadget h = build_gadget(smaller + 1, smaller, run.rho);
    for (std::size_t n = 0; n < curve.x.size(); ++n)
      if (std::fabs(curve.x[n]) <= smaller)
        apart = std::max(apart, std::fabs(gadget_output(h, run.rho, curve.x[n]) - curve.y[n]));
  }
  curve.name = s == 1 ? std::string("|S| = 1")
                      : printf_text("|S| = %.0f (each smaller |S|: within %.2g of it on [-|S|, |S|])", s, apart);
  layer.series.push_back(std::move(curve));
  r.plots.push_back(std::move(layer));

  constexpr int kExamples = 16;
  const int d = run.train_d;
  Heatmap examples;
  examples.title = printf_text("Inputs: the first %.0f examples, two tokens of %.0f signs each", kExamples, d);
  // Walk 11: "z" was never explained. Row r of an input is (a_r, z_r) (docs/multihead.md s.4).
  examples.x_label = "token 1 (its sign a, then its d - 1 bits z), then token 2 (the same)";
  examples.y_label = "example";
  examples.rows = kExamples;
  examples.cols = 2 * d;
  examples.low = -1.0, examples.high = 1.0;
  examples.value_label = "sign";
  Rng rng = Rng::for_stream(run.seed, 21);  // as recover_parity_gf2 draws them
  for (int n = 0; n < kExamples; ++n) {
    Eigen::MatrixXd X = random_input(2, d, rng);
    if (X(0, 0) == X(1, 0)) X(1, 0) = -X(0, 0);
    for (int t = 0; t < 2; ++t)
      for (int j = 0; j < d; ++j) examples.values.push_back(X(t, j));
  }
  examples.paths.push_back({"where token 1 ends and token 2 begins", {0.0, double(kExamples)}, {double(d), double(d)}});
  r.heatmaps.push_back(std::move(examples));
  r.notes.push_back("The examples are the same for every |S|; only their label, the parity over S, changes.");
  return r;
}

}  // namespace attnlab::multihead
