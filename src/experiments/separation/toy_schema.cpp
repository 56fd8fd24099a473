// `separation.toy`'s schema and presets (docs/separation.md s.1); the choices marked ours in the
// help texts are listed there too.
#include "experiments/separation/toy_schema.hpp"

#include <string>

#include "core/det_math.hpp"

namespace attnlab::separation {

Schema toy_schema() {
  std::vector<ParamSpec> s;
  auto add = [&](ParamSpec p) { s.push_back(std::move(p)); };
  const std::string sec1 = "docs/separation.md s.1";
  add(ParamSpec::integer("n", "tokens n")
      .range(2, 100000).value("1000").in_units("tokens").section(sec1).log_slider().can_sweep()
      .help_text("Length of v = A x. D0 draws every v_i in [log n, 1.4 log n]; D1 also plants one v_j = 4 log n (Def. "
                 "3.8)."));
  add(ParamSpec::choice("m_rule", "readout width rule", kLogNOrFixedTable.names()).value("log_n").section(sec1)
      .help_text("log_n: m = log n rounded by m_rounding (the paper's Section 7.1, Fig. 3a). fixed: use the parameter "
                 "m. Sweeping m always uses m."));
  add(ParamSpec::integer("m", "readout width m")
      .range(1, 200).value("7").in_units("columns").section(sec1).can_sweep()
      .help_text("Number of Rademacher readout columns y_j. F fires when some <f, y_j> exceeds tau."));
  add(ParamSpec::choice("m_rounding", "m rounding", kRoundingTable.names()).value("round").section(sec1)
      .help_text("Ours: how m = log n becomes an integer (the paper does not say; round by default)."));
  add(ParamSpec::real("tau", "threshold tau").range(0.01, 0.5).value("0.25").section(sec1).can_sweep()
      .help_text("Readout threshold phi_tau(z) = max(z - tau, 0) (Def. 3.5). Ours: 0.25 by default; the paper fixes "
                 "no tau for the toy model, and that its proofs need tau <= 1/4 is our reading of Lemmas 4.2 and 5.2. "
                 "Smaller tau lets D0 fire (false positives)."));
  add(ParamSpec::choice("sampler", "dataset sampler", kSamplerTable.names())
      .value("uniform").section(sec1)
      .help_text("Ours (Def. 3.8 gives only the ranges, no distribution): uniform: v_i ~ U[log n, 1.4 log n]. "
                 "two_point: v_i in {log n, 1.4 log n}. adversarial: round(n^0.6) entries at 1.4 log n, the rest at "
                 "log n."));
  add(ParamSpec::boolean("shared_readout", "shared readout").value("true").section("docs/separation.md s.4")
      .help_text("Ours (the paper does not say): one readout y for the four evaluations of a trial (true), or a fresh "
                 "y for each (false)."));
  add(trials_spec());
  add(paper_trials_spec(1000));
  add(ParamSpec::sweep("sweep", "sweep").value("m=1:10:1").section("docs/separation.md s.4")
      .help_text("The swept parameter and its values: none, KEY=FROM:TO:STEP or KEY=V1,V2,... (KEY: n, m or tau)."));
  return Schema(std::move(s));
}

std::vector<Preset> toy_presets() {
  return {
      {"fig3a", "Fig. 3a: success vs n",
       "The paper's Fig. 3a: n from 100 to 2000, m = log n, 1000 trials per point (Section 7.1). Success "
       "rises towards 1; what failures remain come from softmax not firing on D1 (probability 2^-m, the proof "
       "of Lemma 5.2). Ours: tau = 0.25 (the paper fixes none for the toy model).",
       {{"sweep", "n=100:2000:10"}, {"m_rule", "log_n"}, {"tau", "0.25"}, {"trials", "1000"}}},
      {"fig3b", "Fig. 3b: success vs m",
       "The paper's Fig. 3b: n = 1000, m from 1 to 100 (Section 7.1). Softmax puts almost all weight on the "
       "planted token, so it fires exactly when one of the m signs at that token is +1: success follows "
       "1 - 2^-m (Lemma 4.2, part 3, and the proof of Lemma 5.2). Ours: tau = 0.25 (the paper fixes none for "
       "the toy model).",
       {{"n", "1000"}, {"sweep", "m=1:100:1"}, {"tau", "0.25"}, {"trials", "1000"}}},
      {"tau_sweep", "Teaching: success vs tau",
       "Ours, not a panel of the paper: n = 1000, m = log n, tau from 0.01 to 0.5. Below about 0.1 both networks start to fire on D0, and "
       "linear attention on D1 too (false positives): success drops. The threshold is what keeps the datasets "
       "apart; above it only softmax on D1 fires.",
       {{"n", "1000"}, {"m_rule", "log_n"}, {"sweep", "tau=0.01:0.5:0.01"}, {"trials", "1000"}}},
  };
}

ToySettings toy_settings(const Params& p, bool m_swept) {
  ToySettings s;
  s.n = static_cast<int>(p.integer("n"));
  const bool fixed_m = kLogNOrFixedTable.decode(p, "m_rule") == ValueRule::Fixed || m_swept;
  s.m = fixed_m ? static_cast<int>(p.integer("m"))
                : readout_width_for(dmath::log(static_cast<double>(s.n)), kRoundingTable.decode(p, "m_rounding"));
  s.tau = p.real("tau");
  s.sampler = kSamplerTable.decode(p, "sampler");
  s.shared_readout = p.boolean("shared_readout");
  return s;
}

}  // namespace attnlab::separation
