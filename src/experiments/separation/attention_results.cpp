#include "experiments/separation/attention_results.hpp"

#include "experiments/separation/planted_row_law.hpp"

namespace attnlab::separation {

Results attention_results(const AttentionRun& run) {
  const SuccessSweep& sweep = run.sweep;
  Results r;
  const bool self = run.model == AttentionModel::Self;
  std::vector<std::string> columns{"n", "d", "m", "tau", "a0", "a1"};
  if (self) columns.insert(columns.end(), {"b", "c"});
  columns.push_back("theory_exp_d1");
  r.table = sweep.table(columns, [&](std::size_t point) {
    const AttentionSettings& s = run.settings[point];
    std::vector<double> row{double(s.n), double(s.d), double(s.m), s.tau, s.a0, s.a1};
    if (self) row.insert(row.end(), {s.b, s.c});
    row.push_back(planted_row_law(s).detection);  // docs/separation.md s.3: detection by the planted row, per point
    return row;
  });
  const std::string x = sweep.sweep().active() ? sweep.sweep().key : "n";
  // The law 1 - (1 - q)^m is drawn against m, and against n when m = log(n / delta) follows n;
  // against a1, c, d, tau, ... the plot leaves it out (the table keeps it per point).
  std::vector<std::string> axes{"m"};
  if (run.m_from_rule) axes.push_back("n");
  r.plots = sweep.plots(r.table, x,
                         {"theory_exp_d1", "ours: planted-row law 1 - (1 - q)^m (softmax on D1; q = 1/4: 1 - (3/4)^m)",
                          false, axes});
  if (!r.table.rows.empty()) r.notes.push_back(sweep.latest_point_summary(r.table, x));
  for (std::string& note : attention_notes(run)) r.notes.push_back(std::move(note));
  return r;
}

std::vector<std::string> attention_notes(const AttentionRun& run) {
  if (run.settings.empty()) return {};
  const bool self = run.model == AttentionModel::Self;
  std::string first = self ? "Ours: j3 drawn uniformly per input" : "Ours: j2 and j3 drawn uniformly per input";
  if (run.settings.front().shared_readout) first += ", one readout shared by the four evaluations of a trial";
  if (run.trials != 100) first += ", " + std::to_string(run.trials) + " trials per point (the paper: 100)";
  std::vector<std::string> notes{first + "."};
  std::vector<std::string> more;
  if (run.tau_from_rule)
    more.push_back(self ? "tau = (c + 0.1) sqrt(log n) is Theorems D.5 and E.4's; Section 7.2 does not say which "
                          "tau its figures used"
                        : "tau = 0.9 is Theorem F.5's; Section F.6 does not say which tau its figures used");
  int uneven = 0;
  for (const AttentionSettings& s : run.settings) uneven += s.n % class_count(run.model, s.d) != 0;
  if (uneven > 0)
    more.push_back(std::string("at ") + std::to_string(uneven) + " of " + std::to_string(run.settings.size()) +
                   " points the " + (self ? "d - 2" : "d - 1") + " classes do not divide n (Def. " +
                   (self ? "D.1" : "F.1") + " assumes they do): the stack of identities is cut off (uneven_n)");
  if (!more.empty()) {
    std::string second = "Ours: " + more[0];
    for (std::size_t i = 1; i < more.size(); ++i) second += "; " + more[i];
    notes.push_back(second + ".");
  }
  return notes;
}

}  // namespace attnlab::separation
