// The self- and cross-attention networks' schema (docs/separation.md s.2-s.4) and the decoding of one
// sweep point into a trial's settings; the choices marked ours in the help texts are listed there too.
#include "experiments/separation/attention_schema.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/det_math.hpp"
#include "experiments/separation/success_sweep.hpp"
#include "experiments/separation/toy_model.hpp"

namespace attnlab::separation {

namespace {

const char* const kDatasets = "docs/separation.md s.3";
const char* const kNetwork = "docs/separation.md s.2";

}  // namespace

Schema attention_schema(AttentionModel model) {
  const bool self = model == AttentionModel::Self;
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  add(ParamSpec::integer("n", "tokens n")
      .range(2, 100000).value("1000").in_units("tokens").section(kDatasets).log_slider().can_sweep()
      .help_text(self ? "Number of tokens (rows of A). Def. D.1 asks for n to be a multiple of the number of "
                        "classes."
                      : "Number of tokens (rows of A). Def. F.1 asks for n to be a multiple of the number of "
                        "classes."));
  add(ParamSpec::integer("d", "dimension d")
      .range(self ? 3.0 : 2.0, 200).value(self ? "12" : "11").section(kDatasets).can_sweep()
      .help_text(self ? "Columns of A: one planted column, d - 2 one-hot class columns, one constant column."
                      : "Columns of A2 = A3: one planted column and d - 1 one-hot class columns."));
  add(ParamSpec::choice("uneven_n", "uneven n", kUnevenNTable.names()).value("truncate").section(kDatasets)
      .help_text(std::string("Ours (Def. ") + (self ? "D.1" : "F.1") +
                 " assumes the class count divides n): truncate: token j belongs to class j mod " +
                 (self ? "(d - 2)" : "(d - 1)") +
                 ", so some classes have one token more. round_down: use the largest multiple of the class count "
                 "not above n."));
  add(ParamSpec::choice("x", "score matrix X", kScoreMatrixTable.names()).value("identity").section(kNetwork)
      .help_text("identity: X = I_d (Figs. 4 and 7; Appendix E). ones: X = the all-ones matrix (Fig. 5; Appendix D). "
                 "The value matrix is I_d."));
  add(ParamSpec::real("a0", "D0 strength a0").range(0, 3).value("0.01").section(kDatasets).can_sweep()
      .help_text(self ? "Planted entry of D0 is a0 sqrt(log n); the paper's D0 has a0 in (0, 0.1) (Def. D.1)."
                      : "Planted entry of D0 is a0 log n in the query row j2; the paper's D0 has a0 in (0, 0.1) "
                        "(Def. F.1)."));
  add(ParamSpec::real("a1", "D1 strength a1").range(0, 5).value(self ? "1.2" : "3").section(kDatasets).can_sweep()
      .help_text(self ? "Planted entry of D1 is a1 sqrt(log n); the paper's D1 has a1 >= 0.7 (Def. D.1)."
                      : "Planted entry of D1 is a1 log n in the query row j2; the paper's D1 has a1 > 1 (Def. F.1)."));
  if (self) {
    add(ParamSpec::real("b", "class weight b").range(0.01, 2).value("0.2").section(kDatasets).can_sweep()
        .help_text("The one-hot class columns carry b sqrt(log n). Def. D.1 asks b + c = 1 with b, c >= 0.1; ours: b "
                   "is a parameter of its own (the paper's c sweep, Section 7.2.1, keeps b = 0.2), lock_b ties it to "
                   "1 - c."));
    add(ParamSpec::real("c", "constant weight c").range(0.01, 2).value("0.8").section(kDatasets).can_sweep()
        .help_text("The constant column carries c sqrt(log n); the paper's threshold is tau = (c + 0.1) sqrt(log n) "
                   "(Theorems D.5, E.4)."));
    add(ParamSpec::boolean("lock_b", "lock b = 1 - c").value("false").section(kDatasets)
        .help_text("Use b = 1 - c (Def. D.1's b + c = 1) instead of the parameter b. The paper's c sweep keeps b = "
                   "0.2 (Section 7.2.1)."));
  }
  add(ParamSpec::choice("m_rule", "readout width rule", kPaperOrFixedTable.names()).value("paper").section(kNetwork)
      .help_text(self ? "paper: m = max(log(n / delta), 15) (Section 7.2.1), rounded by m_rounding. fixed: the "
                        "parameter m. Sweeping m always uses m."
                      : "paper: m = log(n / delta) (Section F.6), rounded by m_rounding. fixed: the parameter m. "
                        "Sweeping m always uses m."));
  add(ParamSpec::integer("m", "readout width m")
      .range(1, 200).value("15").in_units("columns").section(kNetwork).can_sweep()
      .help_text("Number of Rademacher readout columns y_l in {+1, -1}^d."));
  add(ParamSpec::choice("m_rounding", "m rounding", kRoundingTable.names()).value("round").section(kNetwork)
      .help_text("Ours: how log(n / delta) becomes an integer (the paper does not say; round by default)."));
  add(ParamSpec::real("delta", "delta").range(1e-6, 0.5).value("0.01").section(kNetwork).log_slider().can_sweep()
      .help_text("Enters the paper's readout width m = log(n / delta) (Def. 3.7, Sections 7.2.1 and F.6)."));
  add(ParamSpec::choice("tau_rule", "threshold rule", kPaperOrFixedTable.names()).value("paper").section(kNetwork)
      .help_text(self ? "paper: tau = (c + 0.1) sqrt(log n), the threshold of Theorems D.5 and E.4 (ours: Section "
                        "7.2 does not say which tau its figures used). fixed: the parameter tau. Sweeping tau always "
                        "uses tau."
                      : "paper: tau = 0.9, the threshold of Theorem F.5 (ours: Section F.6 does not say which tau its "
                        "figures used). fixed: the parameter tau. Sweeping tau always uses tau."));
  add(ParamSpec::real("tau", "threshold tau")
      .range(0.001, 100).value(self ? "2" : "0.9").section(kNetwork).log_slider().can_sweep()
      .help_text("Readout threshold phi_tau(z) = max(z - tau, 0), used when tau_rule is fixed."));
  add(ParamSpec::boolean("shared_readout", "shared readout").value("true").section("docs/separation.md s.4")
      .help_text("Ours (the paper does not say): one readout y for the four evaluations of a trial (true), or a fresh "
                 "y for each (false)."));
  add(trials_spec());
  add(paper_trials_spec(100));
  add(ParamSpec::sweep("sweep", "sweep").value("n=200:1000:10").section("docs/separation.md s.4")
      .help_text(std::string("The swept parameter and its values: none, KEY=FROM:TO:STEP or KEY=V1,V2,... (KEY: n, "
                             "d, m, delta, tau, a0, a1") +
                 (self ? ", b, c)." : ").")));
  return Schema(std::move(s));
}

AttentionSettings attention_settings(AttentionModel model, const Params& p, const Sweep& swept) {
  AttentionSettings s;
  s.model = model;
  s.d = static_cast<int>(p.integer("d"));
  s.n = static_cast<int>(p.integer("n"));
  const int classes = class_count(model, s.d);
  if (kUnevenNTable.decode(p, "uneven_n") == UnevenN::RoundDown) {
    s.n -= s.n % classes;
    if (s.n < 2)
      throw ParamError("parameter 'n': " + std::to_string(p.integer("n")) + " rounds down to " +
                       std::to_string(s.n) + " tokens with " + std::to_string(classes) +
                       " classes; allowed: n >= max(2, number of classes) with uneven_n = round_down");
  }
  s.x = kScoreMatrixTable.decode(p, "x");
  s.a0 = p.real("a0");
  s.a1 = p.real("a1");
  const bool self = model == AttentionModel::Self;
  if (self) {
    s.c = p.real("c");
    s.b = p.boolean("lock_b") ? 1.0 - s.c : p.real("b");
    if (s.b < 0.01)
      throw ParamError("parameter 'c': " + format_number(s.c) +
                       " with lock_b gives b = 1 - c below 0.01; allowed: c <= 0.99 while lock_b is on");
  }
  const double ln = dmath::log(static_cast<double>(s.n));
  if (kPaperOrFixedTable.decode(p, "m_rule") == ValueRule::Fixed || swept.sweeps("m")) {
    s.m = static_cast<int>(p.integer("m"));
  } else {
    const Rounding rounding = kRoundingTable.decode(p, "m_rounding");
    s.m = readout_width_for(dmath::log(s.n / p.real("delta")), rounding);
    if (self) s.m = std::max(s.m, 15);  // docs/separation.md s.4: m = max(log(n/delta), 15) for Figs. 4, 5
  }
  if (kPaperOrFixedTable.decode(p, "tau_rule") == ValueRule::Fixed || swept.sweeps("tau")) s.tau = p.real("tau");
  else s.tau = self ? (s.c + 0.1) * std::sqrt(ln) : 0.9;  // docs/separation.md s.2 thresholds
  s.shared_readout = p.boolean("shared_readout");
  return s;
}

}  // namespace attnlab::separation
