#include "experiments/separation/toy_inputs.hpp"

#include <algorithm>
#include <string>

#include "core/det_math.hpp"
#include "core/rng.hpp"
#include "experiments/separation/toy_schema.hpp"
#include "lab/sweep.hpp"
#include "lab/text.hpp"

namespace attnlab::separation {

Results toy_inputs_at(const ToySettings& s, std::uint64_t seed) {
  Rng rng = Rng::for_stream(seed, 0);
  ToyTrialInputs in;
  draw_trial_inputs(s, rng, in);
  const std::size_t planted = static_cast<std::size_t>(std::max_element(in.v1.begin(), in.v1.end()) - in.v1.begin());
  const std::size_t stride = (in.v1.size() + 3999) / 4000;
  const SeriesStyle style = s.n <= 100 ? SeriesStyle::LineMarkers : SeriesStyle::Line;
  // Names that read well before a value in the hover ("D1 input (...): 7.65", walk 14).
  Series d1{"D1 input (one score planted at 4 log n)", style, {}, {}, {}, {}};
  Series d0{"D0 input (no score planted)", style, {}, {}, {}, {}};
  for (std::size_t i = 0; i < in.v1.size(); ++i) {
    if (i % stride != 0 && i != planted) continue;
    d1.x.push_back(double(i + 1)), d1.y.push_back(in.v1[i]);
    d0.x.push_back(double(i + 1)), d0.y.push_back(in.v0[i]);
  }
  const double log_n = dmath::log(double(s.n)), last = double(s.n);
  const std::string every = stride > 1 ? ", every " + ordinal(static_cast<long long>(stride)) + " token" : "";
  Plot plot = Plot::titled("Inputs: one D1 and one D0 input (n = " + std::to_string(s.n) + every + ")")
                  .x("token i").y("score v_i");
  plot.series.push_back(std::move(d1));
  plot.series.push_back(std::move(d0));
  // Levels: read by the hover at every token (walk 14).
  plot.series.push_back({"log n: the lowest unplanted score", SeriesStyle::Reference, {1.0, last}, {log_n, log_n}, {}, {},
                         SeriesFlags_Level});
  plot.series.push_back({"1.4 log n: the highest unplanted score", SeriesStyle::Reference, {1.0, last},
                         {1.4 * log_n, 1.4 * log_n}, {}, {}, SeriesFlags_Level});
  Results r;
  r.plots.push_back(std::move(plot));
  return r;
}

Results toy_inputs(const Schema& schema, const Params& params, std::uint64_t seed) {
  const Params first = first_sweep_point(schema, params, "sweep");
  return toy_inputs_at(toy_settings(first, parse_sweep(schema, "sweep", params.text("sweep")).sweeps("m")), seed);
}

}  // namespace attnlab::separation
