#include "experiments/separation/toy_results.hpp"

#include "core/det_math.hpp"
#include "lab/schema.hpp"

namespace attnlab::separation {

Results toy_results(const ToyRun& run) {
  const SuccessSweep& sweep = run.sweep;
  Results r;
  r.table = sweep.table({"n", "m", "tau", "theory"}, [&](std::size_t point) {
    const ToySettings& s = run.settings[point];
    return std::vector<double>{double(s.n), double(s.m), s.tau, 1.0 - dmath::pow(2.0, -s.m)};
  });
  r.table.key.push_back({"theory", "1 - 2^-m (proof of Lemma 5.2): the chance softmax fires on D1, which success "
                                   "cannot exceed"});
  const std::string x = sweep.sweep().active() ? sweep.sweep().key : "n";
  // 1 - 2^-m is drawn against m, and against n when m = log n follows n; never against tau.
  std::vector<std::string> axes{"m"};
  if (run.m_from_rule) axes.push_back("n");
  r.plots = sweep.plots(r.table, x, {"theory", "theory 1 - 2^-m", true, axes});
  if (!r.table.rows.empty()) r.notes.push_back(sweep.latest_point_summary(r.table, x));
  for (std::string& note : toy_notes(run)) r.notes.push_back(std::move(note));
  return r;
}

std::vector<std::string> toy_notes(const ToyRun& run) {
  if (run.settings.empty()) return {};
  const ToySettings& s = run.settings.front();
  const bool swept_tau = run.sweep.sweep().sweeps("tau");
  std::string threshold = swept_tau ? "tau swept" : "tau = " + format_number(s.tau);
  std::vector<std::string> notes{"Ours: " + threshold + " (the paper fixes no tau for the toy model; tau <= 1/4 "
                                 "is our reading of Lemmas 4.2 and 5.2) and the sampler " +
                                 kSamplerTable.name_of(s.sampler) + " (Def. 3.8 gives only the ranges)."};
  std::string how;
  if (run.m_from_rule) how = "m = log n rounded (" + run.rounding + ")";
  if (s.shared_readout) how += std::string(how.empty() ? "" : ", ") + "one readout shared by the four evaluations of a trial";
  if (run.trials != 1000) how += std::string(how.empty() ? "" : ", ") + std::to_string(run.trials) + " trials per point (the paper: 1000)";
  if (!how.empty()) notes.push_back("Ours: " + how + ".");
  return notes;
}

}  // namespace attnlab::separation
