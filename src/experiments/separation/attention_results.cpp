#include "experiments/separation/attention_results.hpp"

#include <cmath>
#include <cstdio>

#include "experiments/separation/planted_row_law.hpp"
#include "lab/schema.hpp"

namespace attnlab::separation {

namespace {
// Ours, for the stories: whether linear attention's D1 and D0 rates differ (their Wilson 95%
// ranges apart) and where most; and the success the four rates of the latest point would give if
// the four evaluations fired in independent trials, beside the measured success.
std::vector<std::string> rate_notes(const Table& t, const std::string& x) {
  const auto at = [&](const std::vector<double>& row, const char* c) { return row[t.column(c)]; };
  int apart = 0;
  const std::vector<double>* widest = &t.rows.front();
  for (const auto& row : t.rows) {
    apart += at(row, "lin_d1_low") > at(row, "lin_d0_high") || at(row, "lin_d0_low") > at(row, "lin_d1_high");
    if (std::fabs(at(row, "lin_d1") - at(row, "lin_d0")) > std::fabs(at(*widest, "lin_d1") - at(*widest, "lin_d0")))
      widest = &row;
  }
  char buf[300];
  std::snprintf(buf, sizeof buf, "Ours: linear attention's rates on D1 and on D0 have Wilson 95%% ranges apart at %d "
                "of %zu points; the widest gap at %s = %s: %.3f on D1, %.3f on D0.", apart, t.rows.size(), x.c_str(),
                format_number(at(*widest, x.c_str())).c_str(), at(*widest, "lin_d1"), at(*widest, "lin_d0"));
  std::vector<std::string> notes{buf};
  const auto& last = t.rows.back();
  const double product = at(last, "exp_d1") * (1 - at(last, "exp_d0")) * (1 - at(last, "lin_d1")) * (1 - at(last, "lin_d0"));
  std::snprintf(buf, sizeof buf, "Ours: at %s = %s, if the four evaluations fired in independent trials, success would "
                "be %.3f (softmax's rate on D1 times the three other silences); measured %.3f", x.c_str(),
                format_number(at(last, x.c_str())).c_str(), product, at(last, "success_rate"));
  std::string independent = buf;
  if (product > 0.0) {
    std::snprintf(buf, sizeof buf, ", %.2f times that", at(last, "success_rate") / product);
    independent += buf;
  }
  notes.push_back(independent + ".");
  return notes;
}
}  // namespace

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
  r.table.key.push_back({"theory_exp_d1", "ours: the planted-row law 1 - (1 - q)^m for softmax on D1"});
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
  if (!r.table.rows.empty())
    for (std::string& note : rate_notes(r.table, x)) r.notes.push_back(std::move(note));
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
