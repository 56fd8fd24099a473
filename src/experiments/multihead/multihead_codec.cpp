// `multihead` (docs/multihead.md): the two units' partial codec. Each unit's fields are listed once
// for both directions (lab/partial_fields.hpp): Record is the partial's struct with a PartialReader,
// the const struct with a PartialWriter. Encoding gathers the task's state into the struct first;
// the optional fields only when the unit has them.
#include "experiments/multihead/enclosure.hpp"
#include "experiments/multihead/multihead_unit.hpp"
#include "lab/partial_fields.hpp"

namespace attnlab::multihead {

namespace {

template <class Record, class Io>
void pipeline_fields(Record& p, Io& io) {
  io.number("seconds", p.seconds);
  io.numbers("crude_examples", p.crude_examples);
  io.numbers("crude_error", p.crude_error);
  io.numbers("refit_error", p.refit_error);
  io.numbers("certification", p.certification);
  io.optional_numbers("stream_alpha", p.stream_alpha);
  io.optional_numbers("stream_heads", p.stream_heads);
  io.optional_numbers("singular_values", p.singular_values);
  io.optional_numbers("span_cos", p.span_cos);
  io.optional_numbers("search_grid", p.search_grid);
  io.optional_numbers("pipeline", p.pipeline);
  io.optional_numbers("enclosure", p.enclosure);
  io.optional_numbers("enclosure_reference", p.enclosure_reference);
  io.optional_text("enclosure_failure", p.enclosure_failure);
  io.optional_text("message", p.message);
}

template <class Record, class Io>
void adam_fields(Record& a, Io& io) {
  io.number("seconds", a.seconds);
  io.numbers("adam_step", a.step);
  io.numbers("adam_mse", a.mse);
  io.numbers("adam_theta_error", a.theta_error);
  io.numbers("adam_w_error", a.w_error);
}

}  // namespace

Partial PipelineTask::partial() const {
  PipelinePartial r;
  r.seconds = seconds_;
  for (const auto& c : crude_curve_) r.crude_examples.push_back(c[0]), r.crude_error.push_back(c[1]);
  r.refit_error = refit_curve_;
  r.certification = {double(cert_done_), double(cert_rows_accepted_), double(constraints_.size()), double(violated_)};
  if (!stream_alpha_.empty()) r.stream_alpha = stream_alpha_, r.stream_heads = stream_heads_;
  const Eigen::VectorXd& sv = span_.singular_values;
  r.singular_values.assign(sv.data(), sv.data() + sv.size());
  if (span_cos_) r.span_cos = {*span_cos_};
  if (search_.m == 2 && search_.grid.size() == std::size_t(kGridSize * kGridSize)) r.search_grid = search_.grid;
  if (pipeline_) r.pipeline = {(*pipeline_)[0], (*pipeline_)[1], (*pipeline_)[2]};
  if (!enclosure_results_.empty()) {
    for (const auto& row : enclosure_results_) r.enclosure.insert(r.enclosure.end(), row.begin(), row.end());
    if (min_norm_point_.size()) {
      const Eigen::VectorXd hull = affine_hull_min_norm(run_->truth.Theta);
      r.enclosure_reference = {hull.norm(), (span_.theta_p - hull).norm() / hull.norm()};
    }
    r.enclosure_failure = enclosure_failure_;
  }
  r.message = message_;
  Partial p;
  PartialWriter io(p, "");
  pipeline_fields(r, io);
  return p;
}

Partial AdamTask::partial() const {
  AdamPartial a;
  a.seconds = seconds_;
  for (const auto& row : curve_)
    a.step.push_back(row[0]), a.mse.push_back(row[1]), a.theta_error.push_back(row[2]), a.w_error.push_back(row[3]);
  Partial p;
  PartialWriter io(p, "");
  adam_fields(a, io);
  return p;
}

// A unit that has not reported yet reads as empty.
PipelinePartial decode_pipeline(const std::optional<Partial>& pipe) {
  PipelinePartial p;
  if (!pipe) return p;
  PartialReader io(*pipe, "");
  pipeline_fields(p, io);
  return p;
}

AdamPartial decode_adam(const std::optional<Partial>& adam) {
  AdamPartial a;
  if (!adam) return a;
  PartialReader io(*adam, "");
  adam_fields(a, io);
  return a;
}

}  // namespace attnlab::multihead
