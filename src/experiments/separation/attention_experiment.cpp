// The self- and cross-attention networks of the paper's Appendices D-F (docs/separation.md s.2-s.4);
// the choices marked ours in the help texts and the runs' "Ours: " notes are listed there too.
//
// Index of this file
// [SECTION] Constants and choice tables
// [SECTION] Schema
// [SECTION] The experiment: prepare and units
// [SECTION] Results, inputs and the inspector
// [SECTION] Notes and the settings of a point
// [SECTION] Factories
#include "experiments/separation/attention_experiment.hpp"
#include "experiments/papers.hpp"

#include <algorithm>
#include <cmath>

#include "core/det_math.hpp"
#include "experiments/separation/attention_inputs.hpp"
#include "experiments/separation/attention_presets.hpp"
#include "experiments/separation/attention_trial.hpp"
#include "experiments/separation/inspector.hpp"
#include "experiments/separation/planted_row_law.hpp"
#include "experiments/separation/success_sweep.hpp"

namespace attnlab::separation {

namespace {

// [SECTION] Constants and choice tables

const char* const kDatasets = "docs/separation.md s.3";
const char* const kNetwork = "docs/separation.md s.2";

// Parameters `uneven_n` and `x` (the tables of m_rule, tau_rule and m_rounding are shared:
// success_sweep.hpp, toy_model.hpp).
enum class UnevenN { Truncate, RoundDown };
constexpr ChoiceTable<UnevenN> kUnevenNTable{{"truncate", UnevenN::Truncate}, {"round_down", UnevenN::RoundDown}};
constexpr ChoiceTable<ScoreMatrix> kScoreMatrixTable{{"identity", ScoreMatrix::Identity},
                                                     {"ones", ScoreMatrix::AllOnes}};

}  // namespace


// [SECTION] Schema

namespace {

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

// [SECTION] The experiment: prepare and units

// The largest run accepted, in units of about a nanosecond natively (see reset()).
constexpr double kMaxWork = 1e12;
// The inspector computes every row of the n x n matrices: O(n^2 d).
constexpr int kMaxInspectorTokens = 5000;

class AttentionExperiment final : public Experiment {
 public:
  explicit AttentionExperiment(AttentionModel model)
      : Experiment(attention_schema(model),
                   model == AttentionModel::Self ? self_attention_presets() : cross_attention_presets()),
        model_(model) {
    if (model == AttentionModel::Self)
      info_ = {"separation.self", "Softmax vs linear: self-attention",
               paper_citation("separation", "Def. D.1, Figs. 4 and 5"),
               "A = A1 = A2 = A3 holds one-hot classes, a constant column and one planted token j3 of strength a "
               "(small in D0, large in D1). Softmax attention lets the planted row concentrate on j3, so a "
               "random-sign readout fires on D1; linear attention keeps every row near uniform."};
    else
      info_ = {"separation.cross", "Softmax vs linear: cross-attention",
               paper_citation("separation", "Def. F.1, Fig. 7"),
               "The query row j2 scores the planted key j3 at (1 + a) log n and every other key at log n. "
               "Softmax turns that gap into weight n^a / (n^a + n - 1) on j3 and the readout fires on D1; "
               "linear attention gives j3 only (1 + a) / (n + a), so its rows stay near uniform."};
  }

  KeyValues smoke_settings() const override { return {{"n", "60"}, {"sweep", "m=1:4:1"}, {"trials", "40"}}; }

  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    const std::int64_t trials = trials_per_point(params, 100);
    std::vector<std::int64_t> costs = sweep_.reset(schema_, params, seed, "sweep", trials);
    seed_ = seed;
    trials_ = trials;
    tau_from_rule_ = kPaperOrFixedTable.decode(params, "tau_rule") == ValueRule::Paper && !sweep_.sweep().sweeps("tau");
    m_from_rule_ = kPaperOrFixedTable.decode(params, "m_rule") == ValueRule::Paper && !sweep_.sweep().sweeps("m");
    settings_.clear();
    double work = 0.0;  // per trial: 4 attentions over <= d + 1 groups, and the readout
    widest_ = 0;
    for (const Params& p : sweep_.points()) {
      settings_.push_back(settings_for(p, sweep_.sweep()));
      widest_ = std::max(widest_, settings_.back().m);
      const double d = settings_.back().d, groups = d + 1.0;
      work += (4.0 * groups * groups * d + 4.0 * groups * d * settings_.back().m + 50.0) * double(trials);
    }
    share_widths_ = sweep_.sweep().sweeps("m") && params.boolean("shared_readout");
    if (share_widths_) work /= double(settings_.size());
    if (work > kMaxWork)
      throw ParamError("parameter 'trials': " + format_number(double(trials)) +
                       " trials over this sweep would take hours; allowed: fewer trials, sweep points, d or m");
    return costs;
  }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override {
    // The task's own scratch and, for an m-sweep, the trial last evaluated at the widest m.
    return sweep_.start_unit(unit, [this, trial = AttentionTrial(), cached_trial = std::int64_t(-1)](
                                       std::size_t point, std::int64_t t, Rng& rng) mutable {
      if (!share_widths_) return trial.run(settings_[point], rng);
      if (t != cached_trial) {  // an m-sweep evaluates each trial once, at the widest m
        AttentionSettings widest = settings_[point];
        widest.m = widest_;
        trial.run_widest(widest, rng);
        cached_trial = t;
      }
      return trial.outcome_at(settings_[point].m);
    });
  }

  void merge(std::int64_t unit, const Partial& partial) override { sweep_.merge(unit, partial); }

  // [SECTION] Results, inputs and the inspector

  Results results() const override {
    Results r;
    const bool self = model_ == AttentionModel::Self;
    std::vector<std::string> columns{"n", "d", "m", "tau", "a0", "a1"};
    if (self) columns.insert(columns.end(), {"b", "c"});
    columns.push_back("theory_exp_d1");
    r.table = sweep_.table(columns, [&](std::size_t point) {
      const AttentionSettings& s = settings_[point];
      std::vector<double> row{double(s.n), double(s.d), double(s.m), s.tau, s.a0, s.a1};
      if (self) row.insert(row.end(), {s.b, s.c});
      row.push_back(planted_row_law(s).detection);  // docs/separation.md s.3: detection by the planted row, per point
      return row;
    });
    const std::string x = sweep_.sweep().active() ? sweep_.sweep().key : "n";
    // The law 1 - (1 - q)^m is drawn against m, and against n when m = log(n / delta) follows n;
    // against a1, c, d, tau, ... the plot leaves it out (the table keeps it per point).
    std::vector<std::string> axes{"m"};
    if (m_from_rule_) axes.push_back("n");
    r.plots = sweep_.plots(r.table, x,
                           {"theory_exp_d1", "ours: planted-row law 1 - (1 - q)^m (softmax on D1; q = 1/4: 1 - (3/4)^m)",
                            false, axes});
    if (!r.table.rows.empty()) r.notes.push_back(sweep_.latest_point_summary(r.table, x));
    for (std::string& note : ours_notes()) r.notes.push_back(std::move(note));
    return r;
  }

  // The D1 and D0 inputs of trial 0 at the first sweep point: what the run starts from.
  Results inputs(const Params& params, std::uint64_t seed) const override {
    const Sweep swept = parse_sweep(schema_, "sweep", params.text("sweep"));
    return attention_inputs(settings_for(first_sweep_point(schema_, params, "sweep"), swept), seed);
  }

  bool has_inspector() const override { return true; }
  std::vector<std::string> inspector_points() const override { return sweep_.point_labels(); }

  Results inspect(std::size_t point, std::int64_t trial) const override {
    sweep_.check_inspectable(point, trial);
    if (settings_[point].n > kMaxInspectorTokens)
      throw ParamError("the inspector draws n x n matrices; parameter 'n' must be at most " +
                       std::to_string(kMaxInspectorTokens) + " to inspect (got " +
                       std::to_string(settings_[point].n) + ")");
    return inspect_trial(settings_[point], seed_, trial);
  }

  // [SECTION] Notes and the settings of a point

 private:
  // The lab's departures that this run's settings use (docs/separation.md s.3, s.4).
  std::vector<std::string> ours_notes() const {
    if (settings_.empty()) return {};
    const bool self = model_ == AttentionModel::Self;
    std::string first = self ? "Ours: j3 drawn uniformly per input" : "Ours: j2 and j3 drawn uniformly per input";
    if (settings_.front().shared_readout) first += ", one readout shared by the four evaluations of a trial";
    if (trials_ != 100) first += ", " + std::to_string(trials_) + " trials per point (the paper: 100)";
    std::vector<std::string> notes{first + "."};
    std::vector<std::string> more;
    if (tau_from_rule_)
      more.push_back(self ? "tau = (c + 0.1) sqrt(log n) is Theorems D.5 and E.4's; Section 7.2 does not say which "
                            "tau its figures used"
                          : "tau = 0.9 is Theorem F.5's; Section F.6 does not say which tau its figures used");
    int uneven = 0;
    for (const AttentionSettings& s : settings_) uneven += s.n % class_count(model_, s.d) != 0;
    if (uneven > 0)
      more.push_back(std::string("at ") + std::to_string(uneven) + " of " + std::to_string(settings_.size()) +
                     " points the " + (self ? "d - 2" : "d - 1") + " classes do not divide n (Def. " +
                     (self ? "D.1" : "F.1") + " assumes they do): the stack of identities is cut off (uneven_n)");
    if (!more.empty()) {
      std::string second = "Ours: " + more[0];
      for (std::size_t i = 1; i < more.size(); ++i) second += "; " + more[i];
      notes.push_back(second + ".");
    }
    return notes;
  }

  // The settings of sweep point `p` of a run that sweeps `swept`.
  AttentionSettings settings_for(const Params& p, const Sweep& swept) const {
    AttentionSettings s;
    s.model = model_;
    s.d = static_cast<int>(p.integer("d"));
    s.n = static_cast<int>(p.integer("n"));
    const int classes = class_count(model_, s.d);
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
    const bool self = model_ == AttentionModel::Self;
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

  AttentionModel model_;
  SuccessSweep sweep_;
  std::vector<AttentionSettings> settings_;
  std::uint64_t seed_ = 0;
  std::int64_t trials_ = 0;     // per point (for the notes)
  bool tau_from_rule_ = false;  // tau from the paper's theorems (for the notes)
  bool m_from_rule_ = false;    // m = log(n / delta) follows n (the theory curve is drawn against n)
  int widest_ = 0;
  bool share_widths_ = false;
};

}  // namespace

// [SECTION] Factories

std::unique_ptr<Experiment> make_self_attention_experiment() {
  return std::make_unique<AttentionExperiment>(AttentionModel::Self);
}
std::unique_ptr<Experiment> make_cross_attention_experiment() {
  return std::make_unique<AttentionExperiment>(AttentionModel::Cross);
}

}  // namespace attnlab::separation
