// separation.self / separation.cross: paper claims with binomial tolerances (docs/separation.md
// s.5), the presets' swept ranges (s.4) and the inspector's agreement with the sweep.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <tuple>

#include "core/statistics.hpp"
#include "experiments/registry.hpp"
#include "lab/plot_map_frame.hpp"
#include "lab/runner.hpp"

using namespace attnlab;

namespace {
Results run(const std::string& id, const std::string& preset, const KeyValues& values, std::uint64_t seed) {
  auto e = make_experiment(id);
  e->reset(e->make_params(preset, values), seed);
  run_to_completion(*e);
  return e->results();
}
double cell(const Table& t, std::size_t row, const std::string& column) { return t.rows[row][t.column(column)]; }
}  // namespace

TEST_CASE("cross-attention: softmax detects D1 with probability 1 - (3/4)^m", "[separation][cross][claim][claim:sep-28]") {
  // d = 21: the uniform rows average 20 class signs and almost never reach tau = 0.9.
  const Results r = run("separation.cross", "", {{"n", "200"}, {"d", "21"}, {"sweep", "m=1:8:1"}, {"trials", "2000"}}, 7);
  REQUIRE(r.table.rows.size() == 8);
  for (std::size_t i = 0; i < r.table.rows.size(); ++i) {
    const double m = cell(r.table, i, "m"), want = 1.0 - std::pow(0.75, m);
    const double se = binomial_standard_error(want, 2000);
    CHECK(std::fabs(cell(r.table, i, "exp_d1") - want) < 4.0 * se + 1e-3);
    CHECK(cell(r.table, i, "theory_exp_d1") == Approx(want));
    CHECK(cell(r.table, i, "lin_d1") < 0.01);  // linear attention stays silent on D1
  }
}

namespace {
// Fig. 7c's setting (n = 200, d = 11, a1 = 3, tau = 0.9) over `sweep`: every point's rate of softmax
// firing on D1 holds 1 - (3/4)^m in its Wilson interval, the intervals jointly at 99.9% (Bonferroni:
// z = 3.836 for 8 points, 4.369 for 80); returns how many points were checked.
std::size_t check_cross_law(const std::string& sweep, int trials, double z) {
  const Results r = run("separation.cross", "fig7c", {{"sweep", sweep}, {"trials", std::to_string(trials)}}, 7);
  for (std::size_t i = 0; i < r.table.rows.size(); ++i) {
    const double m = cell(r.table, i, "m"), want = 1.0 - std::pow(0.75, m), rate = cell(r.table, i, "exp_d1");
    const Interval band = wilson_interval(static_cast<std::int64_t>(std::lround(rate * trials)), trials, z);
    WARN("d = 11, m = " << m << ": softmax fires on D1 in " << rate << " of " << trials << " trials, Wilson (joint 99.9%) ["
                        << band.low << ", " << band.high << "], 1 - (3/4)^m = " << want << "; success "
                        << cell(r.table, i, "success_rate"));
    CHECK(band.low <= want);
    CHECK(band.high >= want);
    CHECK(cell(r.table, i, "theory_exp_d1") == Approx(want).epsilon(1e-12));
  }
  return r.table.rows.size();
}
}  // namespace

TEST_CASE("cross-attention at the paper's d = 11: detection follows 1 - (3/4)^m", "[separation][cross][claim][claim:sep-28]") {
  CHECK(check_cross_law("m=1:8:1", 20000, 3.836106931176034) == 8);
}

TEST_CASE("cross-attention at the paper's d = 11, Fig. 7c's whole m range", "[separation][cross][paper]") {
  CHECK(check_cross_law("m=1:80:1", 20000, 4.368679592974831) == 80);
}

TEST_CASE("cross-attention: success is about 0 at d = 2 and rises with d", "[separation][cross][claim][claim:sep-30]") {
  const Results r = run("separation.cross", "fig7b", {{"sweep", "d=2,21"}, {"trials", "400"}}, 3);
  CHECK(cell(r.table, 0, "success_rate") < 0.03);
  CHECK(cell(r.table, 0, "exp_d0") > 0.9);  // the uniform rows fire on D0
  CHECK(cell(r.table, 1, "success_rate") > 0.9);
}

TEST_CASE("self-attention: the planted row detects D1 and success rises with d", "[separation][self][claim][claim:sep-25]") {
  const Results r = run("separation.self", "fig4b", {{"sweep", "d=10,66"}, {"trials", "1000"}}, 5);
  const double m = cell(r.table, 1, "m");
  CHECK(m == 15);  // max(log(256 / 0.01), 15)
  const double want = 1.0 - std::pow(0.75, m);
  CHECK(std::fabs(cell(r.table, 1, "exp_d1") - want) < 4.0 * binomial_standard_error(want, 1000) + 2e-3);
  CHECK(cell(r.table, 1, "success_rate") > 0.95);
  // docs/separation.md s.5: at small d the near-uniform rows of D0 fire, so success is well below 1.
  CHECK(cell(r.table, 0, "exp_d0") > 0.2);
  CHECK(cell(r.table, 0, "success_rate") < cell(r.table, 1, "success_rate") - 0.2);
}

TEST_CASE("every attention preset runs and sweeps the paper's range", "[separation][presets][claim:sep-03][claim:sep-33]") {
  struct Expect {
    const char* id;
    const char* preset;
    const char* key;
    double first, last;
    std::size_t points;
  };
  const Expect expect[] = {
      {"separation.toy", "fig3a", "n", 100, 2000, 191},    {"separation.toy", "fig3b", "m", 1, 100, 100},
      {"separation.self", "fig4a", "n", 200, 1000, 81},   {"separation.self", "fig4b", "d", 4, 66, 6},
      {"separation.self", "fig4c", "m", 1, 80, 80},       {"separation.self", "fig4d", "c", 0.5, 0.9, 81},
      {"separation.self", "fig4e", "a0", 0.01, 0.8, 80},  {"separation.self", "fig4f", "a1", 0.1, 2.98, 81},
      {"separation.self", "fig5a", "n", 200, 1000, 81},   {"separation.self", "fig5b", "d", 4, 66, 6},
      {"separation.self", "fig5c", "m", 1, 80, 80},       {"separation.self", "fig5d", "c", 0.5, 0.9, 81},
      {"separation.self", "fig5e", "a0", 0.01, 0.8, 80},  {"separation.self", "fig5f", "a1", 0.1, 2.98, 81},
      {"separation.cross", "fig7a", "n", 200, 1000, 81},  {"separation.cross", "fig7b", "d", 2, 51, 10},
      {"separation.cross", "fig7c", "m", 1, 80, 80},      {"separation.cross", "fig7d", "a1", 0.1, 2.98, 81},
      {"separation.cross", "fig7e", "a0", 0.01, 0.9, 90},
  };
  for (const Expect& x : expect) {
    INFO(x.id << " " << x.preset);
    auto e = make_experiment(x.id);
    const Params p = e->make_params(x.preset, {{"trials", "1"}});
    e->reset(p, 1);
    run_to_completion(*e);
    const Table t = e->results().table;
    REQUIRE(t.rows.size() == x.points);
    CHECK(cell(t, 0, x.key) == Approx(x.first));
    CHECK(cell(t, t.rows.size() - 1, x.key) == Approx(x.last));
    if (p.has("x")) CHECK(p.text("x") == (std::string(x.preset).rfind("fig5", 0) == 0 ? "ones" : "identity"));
  }
}

TEST_CASE("the paper_trials switch runs the paper's trial count", "[separation][presets][claim:sep-12]") {
  auto e = make_experiment("separation.cross");
  e->reset(e->make_params("fig7b", {{"paper_trials", "true"}, {"trials", "7"}}), 1);
  CHECK(e->progress().total == 10 * 100);
  auto toy = make_experiment("separation.toy");
  toy->reset(toy->make_params("fig3b", {{"paper_trials", "true"}, {"trials", "7"}}), 1);
  CHECK(toy->progress().total == 100 * 1000);
  // Without paper_trials every point runs 1000 trials, for the attention networks too.
  auto self = make_experiment("separation.self");
  self->reset(self->make_params("fig4b", {}), 1);
  CHECK(self->progress().total == 6 * 1000);
}

TEST_CASE("the inspector recomputes the sweep's trial densely and agrees", "[separation][inspector]") {
  for (const char* id : {"separation.self", "separation.cross"}) {
    INFO(id);
    auto e = make_experiment(id);
    // tau low enough that the networks disagree in interesting ways; one trial per point.
    e->reset(e->make_params("", {{"n", "60"}, {"d", "7"}, {"sweep", "a1=0.5,1.5,3"}, {"tau_rule", "fixed"},
                                 {"tau", "0.5"}, {"trials", "3"}}),
             21);
    run_to_completion(*e);
    const Table t = e->results().table;
    REQUIRE(e->inspector_points().size() == 3);
    CHECK(e->inspector_points()[1] == "a1 = 1.5");
    for (std::size_t point = 0; point < 3; ++point) {
      int fired[4] = {0, 0, 0, 0};
      for (std::int64_t trial = 0; trial < 3; ++trial) {
        const Results r = e->inspect(point, trial);
        REQUIRE(r.heatmaps.size() == 5);  // softmax and linear for D1 and D0, then A
        CHECK(r.heatmaps[0].rows == 60);
        CHECK(r.heatmaps[4].cols == 7);
        CHECK(r.table.rows.size() == 60);
        const std::string verdicts = r.notes.at(0);
        const char* names[4] = {"F_exp(D1) = ", "F_lin(D1) = ", "F_exp(D0) = ", "F_lin(D0) = "};
        for (int k = 0; k < 4; ++k) {
          const auto at = verdicts.find(names[k]);
          REQUIRE(at != std::string::npos);
          fired[k] += verdicts.compare(verdicts.find('(', at + 12), 7, "(fires)") == 0;
        }
        // Each softmax row of the dense attention matrix sums to 1.
        double row_sum = 0.0;
        for (int j = 0; j < r.heatmaps[0].cols; ++j) row_sum += r.heatmaps[0].values[std::size_t(j)];
        CHECK(row_sum == Approx(1.0));
      }
      const char* rates[4] = {"exp_d1", "lin_d1", "exp_d0", "lin_d0"};
      for (int k = 0; k < 4; ++k) CHECK(cell(t, point, rates[k]) * 3 == Approx(fired[k]));
    }
    CHECK_THROWS_WITH(e->inspect(3, 0), Catch::StartsWith("inspector point 3 is out of range"));
    CHECK_THROWS_WITH(e->inspect(0, 3), Catch::StartsWith("inspector trial 3 is out of range"));
  }
}

TEST_CASE("the picture before a run shows trial 0's D1 and D0 inputs at the first point", "[separation][inputs]") {
  for (const char* id : {"separation.self", "separation.cross"}) {
    INFO(id);
    const bool self = std::string(id) == "separation.self";
    auto e = make_experiment(id);
    const Params params = e->make_params("", {{"n", "60"}, {"d", "7"}, {"sweep", "a1=1.5,3"}, {"trials", "2"}});
    const Results picture = e->inputs(params, 21);
    REQUIRE(picture.heatmaps.size() == 2);
    CHECK(picture.plots.empty());
    e->reset(params, 21);
    const Table inspected = e->inspect(0, 0).table;  // the sweep's trial 0 at a1 = 1.5
    const char* planted_column[2] = {"j3_d1", "j3_d0"};
    const double planted_entry[2] = {1.5, 0.01};  // a1 at the first point, a0
    for (int k = 0; k < 2; ++k) {
      const Heatmap& h = picture.heatmaps[std::size_t(k)];
      INFO(h.title);
      CHECK((h.title.find(k == 0 ? "Inputs: D1 " : "Inputs: D0 ") == 0));
      // The strength drawn, in the title (walk 11): a1 at the sweep's first point, a0.
      CHECK(h.title.find(k == 0 ? "(planted strength a = 1.5 = a1, the sweep's first)" : "(planted strength a = 0.01)") != std::string::npos);
      CHECK(h.rows == 60);  // all tokens fit
      CHECK(h.cols == (self ? 7 : 14));
      CHECK(h.note.find("rows:") == std::string::npos);  // no tokens left out
      // Cross-attention's query half says why it is one colour but for column 1 (walk 12).
      CHECK((h.note.find("every query is log n") != std::string::npos) == !self);
      int j3 = -1;
      for (std::size_t j = 0; j < inspected.rows.size(); ++j)
        if (cell(inspected, j, planted_column[k]) == 1.0) j3 = int(j);
      REQUIRE(j3 >= 0);
      const auto mark = std::find_if(h.marks.begin(), h.marks.end(), [](const Heatmap::Mark& m) { return m.label == "j3"; });
      REQUIRE(mark != h.marks.end());
      CHECK(mark->row == j3);
      // The planted entry: a sqrt(log n) in A (self), 1 in the keys' first column (cross), whose
      // query token j2 carries a in units of log n in the first query column.
      const double value = h.values[std::size_t(j3 * h.cols + mark->col)];
      if (self) {
        CHECK(value == Approx(planted_entry[k] * std::sqrt(std::log(60.0))));
      } else {
        CHECK(value == 1.0);
        const auto query = std::find_if(h.marks.begin(), h.marks.end(), [](const Heatmap::Mark& m) { return m.label == "j2"; });
        REQUIRE(query != h.marks.end());
        CHECK(h.values[std::size_t(query->row * h.cols)] == Approx(planted_entry[k]));
        // Columns counted from 1 in each half, as the caption counts them (walk 11: "column 0" for j2),
        // and the half named (walk 12: j2 and j3 both read "column = 1").
        CHECK(cell_place(h, query->row, query->col).rfind("column = 1 (queries), ", 0) == 0);
        CHECK(cell_place(h, mark->row, mark->col).rfind("column = 1 (keys), ", 0) == 0);
        CHECK(cell_place(h, mark->row, h.cols - 1).rfind("column = 7 (keys), ", 0) == 0);
      }
    }
  }
}

TEST_CASE("the picture before a run shows a slice of a large input", "[separation][inputs]") {
  for (const char* id : {"separation.self", "separation.cross"}) {
    INFO(id);
    auto e = make_experiment(id);
    const Results picture = e->inputs(e->make_params("", {{"n", "100000"}, {"d", "200"}, {"sweep", "none"}}), 3);
    REQUIRE(picture.heatmaps.size() == 2);
    for (const Heatmap& h : picture.heatmaps) {
      INFO(h.title);
      CHECK(std::size_t(h.rows) * std::size_t(h.cols) <= 20000);
      CHECK(h.note.rfind("rows: tokens ", 0) == 0);
      CHECK(h.marks.size() == (std::string(id) == "separation.self" ? 1u : 2u));  // j3 (and j2) are in the slice
      // Each y tick names the token at its row: the rows are the note's slices, top to bottom.
      std::vector<int> token_at_row;
      std::string rest = h.note.substr(std::string("rows: tokens ").size());
      for (int first = 0, last = 0; std::sscanf(rest.c_str(), "%d to %d", &first, &last) == 2;) {
        for (int t = first; t <= last; ++t) token_at_row.push_back(t);
        const std::size_t next = rest.find(", then ");
        if (next == std::string::npos) break;
        rest = rest.substr(next + 7);
      }
      REQUIRE(token_at_row.size() == std::size_t(h.rows));
      const MapFrame frame = map_frame(h, 600, 400, 400, 13, [](const std::string& t) { return 7.0 * static_cast<double>(t.size()); });
      CHECK(frame.y_ticks.size() >= 2);
      for (const MapTick& tick : frame.y_ticks) {
        const auto row = std::size_t(std::floor(tick.at * h.rows));
        INFO("tick '" << tick.label << "' at " << tick.at);
        REQUIRE(row < token_at_row.size());
        CHECK(tick.label == std::to_string(token_at_row[row]));
      }
    }
  }
}

TEST_CASE("inconsistent settings are refused with a message naming the parameter", "[separation][self][claim:sep-31]") {
  auto e = make_experiment("separation.self");
  CHECK_THROWS_WITH(e->reset(e->make_params("", {{"lock_b", "true"}, {"c", "1.5"}}), 1),
                    Catch::StartsWith("parameter 'c': 1.5 with lock_b gives b = 1 - c below 0.01"));
  CHECK_THROWS_WITH(e->reset(e->make_params("", {{"uneven_n", "round_down"}, {"n", "5"}, {"d", "12"}, {"sweep", "none"}}), 1),
                    Catch::StartsWith("parameter 'n': 5 rounds down to 0 tokens"));
}

TEST_CASE("an attention m-sweep reusing one widest draw equals running each m on its own", "[separation][cross]") {
  const KeyValues base{{"n", "60"}, {"d", "4"}, {"tau_rule", "fixed"}, {"tau", "0.5"}, {"trials", "200"}};
  KeyValues swept = base;
  swept.push_back({"sweep", "m=1:9:1"});
  const Results sweep = run("separation.cross", "", swept, 4);
  for (int m = 1; m <= 9; ++m) {
    KeyValues one = base;
    one.insert(one.end(), {{"m_rule", "fixed"}, {"m", std::to_string(m)}, {"sweep", "none"}});
    const Results r = run("separation.cross", "", one, 4);
    for (const char* c : {"successes", "exp_d1", "lin_d1", "exp_d0", "lin_d0", "near_ties"})
      CHECK(cell(sweep.table, std::size_t(m - 1), c) == cell(r.table, 0, c));
  }
}

// The planted-row law drawn per sweep point: 1 - (3/4)^m in the paper's
// settings, 1 - (5/8)^m for self-attention with c < 0.65, 0 while the planted token does not
// dominate its row, and the measured softmax-on-D1 rate follows the right one.
TEST_CASE("the reference curve is the planted-row law of each point", "[separation][claim][claim:sep-19][claim:sep-21]") {
  auto theory_at = [](const char* id, const char* preset, const KeyValues& changes) {
    auto e = make_experiment(id);
    KeyValues all = changes;
    all.push_back({"trials", "1"});
    e->reset(e->make_params(preset, all), 1);
    run_to_completion(*e);
    const Table t = e->results().table;
    std::vector<double> v;
    for (const auto& row : t.rows) v.push_back(row[static_cast<std::size_t>(t.column("theory_exp_d1"))]);
    return v;
  };
  const std::vector<double> low_c = theory_at("separation.self", "fig4c", {{"c", "0.5"}, {"sweep", "m=1:5:1"}});
  const std::vector<double> paper_c = theory_at("separation.self", "fig4c", {{"sweep", "m=1:5:1"}});
  const std::vector<double> cross = theory_at("separation.cross", "fig7c", {{"sweep", "m=1:5:1"}});
  for (int m = 1; m <= 5; ++m) {
    CHECK(low_c[static_cast<std::size_t>(m - 1)] == Approx(1.0 - std::pow(5.0 / 8.0, m)).epsilon(1e-12));
    CHECK(paper_c[static_cast<std::size_t>(m - 1)] == Approx(1.0 - std::pow(3.0 / 4.0, m)).epsilon(1e-12));
    CHECK(cross[static_cast<std::size_t>(m - 1)] == Approx(1.0 - std::pow(3.0 / 4.0, m)).epsilon(1e-12));
  }
  CHECK(theory_at("separation.self", "fig4f", {{"sweep", "a1=0.3,0.6"}}) == std::vector<double>{0.0, 0.0});
  CHECK(theory_at("separation.cross", "fig7d", {{"sweep", "a1=0.3,0.6"}}) == std::vector<double>{0.0, 0.0});

  // Measured at c = 0.5, m = 1 (2000 trials): the rate of softmax firing on D1 lies within the
  // Wilson 99.9% interval of q = 3/8, which excludes the paper's 1/4.
  auto e = make_experiment("separation.self");
  e->reset(e->make_params("fig4c", {{"c", "0.5"}, {"sweep", "m=1"}, {"trials", "2000"}}), 1);
  run_to_completion(*e);
  const Table t = e->results().table;
  const double rate = t.rows[0][static_cast<std::size_t>(t.column("exp_d1"))];
  const Interval band = wilson_interval(static_cast<std::int64_t>(std::lround(rate * 2000)), 2000, 3.29);
  INFO("measured " << rate << ", 99.9% interval [" << band.low << ", " << band.high << "]");
  CHECK(band.low <= 0.375);
  CHECK(band.high >= 0.375);
  CHECK(band.low > 0.25);
}

// Fig. 4f / 5f's texts: success is not monotone in a1, since linear attention fires on D1 at large a1.
TEST_CASE("at large a1 linear attention fires on D1 and success falls", "[separation][self][claim][claim:sep-23]") {
  for (const char* preset : {"fig4f", "fig5f"}) {
    INFO(preset);
    const Results r = run("separation.self", preset, {{"sweep", "a1=1,3"}, {"trials", "400"}}, 3);
    const Interval at1 = wilson_interval(std::lround(cell(r.table, 0, "lin_d1") * 400), 400, 3.29);
    const Interval at3 = wilson_interval(std::lround(cell(r.table, 1, "lin_d1") * 400), 400, 3.29);
    CHECK(at3.low > at1.high);
    CHECK(cell(r.table, 1, "success_rate") < cell(r.table, 0, "success_rate") - 0.2);
  }
}

// Every run says which of the lab's choices it used: "Ours: " notes after the summary, naming the
// truncated class stack only where the classes do not divide n (Fig. 7d, not Fig. 7c).
TEST_CASE("separation runs emit their 'Ours: ' notes", "[separation][claim][claim:sep-05][claim:sep-18][claim:sep-31]") {
  auto notes = [](const char* id, const char* preset) {
    return run(id, preset, {{"trials", "2"}, {"sweep", "none"}}, 1).notes;
  };
  auto has = [](const std::vector<std::string>& v, const std::string& part) {
    for (const auto& n : v)
      if (n.rfind("Ours: ", 0) == 0 && n.find(part) != std::string::npos) return true;
    return false;
  };
  const auto toy = notes("separation.toy", "fig3b");
  CHECK(has(toy, "tau = 0.25 (the paper fixes no tau for the toy model"));
  CHECK(has(toy, "one readout shared"));
  CHECK(has(notes("separation.self", "fig4c"), "j3 drawn uniformly"));
  CHECK(has(notes("separation.self", "fig4c"), "Theorems D.5 and E.4"));
  CHECK(has(notes("separation.cross", "fig7d"), "classes do not divide n"));
  CHECK_FALSE(has(notes("separation.cross", "fig7c"), "classes do not divide n"));
  CHECK(has(notes("separation.cross", "fig7c"), "Theorem F.5"));
}

// tau_rule = paper and m_rule = paper: Theorems D.5 / E.4 and F.5's thresholds, Section 7.2.1's and
// F.6's widths (the help texts of tau_rule and m_rule).
TEST_CASE("the paper's threshold and width rules", "[separation][presets][claim][claim:sep-17]") {
  const Results self = run("separation.self", "fig4a", {{"sweep", "n=200,1000"}, {"trials", "1"}}, 1);
  for (std::size_t i = 0; i < 2; ++i) {
    const double n = cell(self.table, i, "n");
    CHECK(cell(self.table, i, "tau") == Approx((0.8 + 0.1) * std::sqrt(std::log(n))).epsilon(1e-12));
    CHECK(cell(self.table, i, "m") == 15);  // max(round(log(n / 0.01)), 15): log(1e5) = 11.5
  }
  const Results cross = run("separation.cross", "fig7a", {{"sweep", "n=200,1000"}, {"trials", "1"}}, 1);
  CHECK(cell(cross.table, 0, "tau") == 0.9);
  CHECK(cell(cross.table, 0, "m") == 10);  // round(log(200 / 0.01)) = round(9.90)
  CHECK(cell(cross.table, 1, "m") == 12);  // round(log(1000 / 0.01)) = round(11.51)
}

// What the plots show: a theory curve only against the variables of its formula,
// legends that say what success needs of each rate, and no rate hidden under an identical one.
namespace {
bool has_reference(const Plot& p) {
  for (const Series& s : p.series)
    if (s.style == SeriesStyle::Reference) return true;
  return false;
}
// Every component rate equal at every point to an earlier one is a plain line named "identical to
// <that one>"; no two drawn with markers are equal.
void check_identical_rates_visible(const Plot& parts) {
  for (std::size_t k = 0; k < parts.series.size(); ++k) {
    const Series& s = parts.series[k];
    if (s.style == SeriesStyle::Reference) continue;
    bool equal_to_earlier = false;
    for (std::size_t j = 0; j < k && !equal_to_earlier; ++j) {  // the first equal one is named
      if (parts.series[j].style == SeriesStyle::Reference || parts.series[j].y != s.y) continue;
      equal_to_earlier = true;
      const std::string earlier = parts.series[j].name.substr(0, parts.series[j].name.find(" ("));
      CHECK(s.name.find("identical to " + earlier + ")") != std::string::npos);
    }
    CHECK((s.style == SeriesStyle::Line) == equal_to_earlier);
  }
}
}  // namespace

TEST_CASE("the planted-row law is drawn against m and n only, and identical rates stay visible",
          "[separation][self][cross][plots]") {
  // Fig. 4c: x = m, the law beside softmax on D1; softmax and linear on D0 agree in every row there.
  const Results c = run("separation.self", "fig4c", {{"sweep", "m=1:20:1"}, {"trials", "100"}}, 1);
  REQUIRE(c.plots.size() == 2);
  CHECK(has_reference(c.plots[1]));
  const std::vector<std::string> names{"softmax on D1 (success needs it to fire)", "linear on D1 (success needs it silent)",
                                       "softmax on D0 (success needs it silent)"};
  for (std::size_t k = 0; k < names.size(); ++k) CHECK(c.plots[1].series[k].name == names[k]);
  CHECK(c.plots[1].series[3].name == "linear on D0 (success needs it silent; identical to softmax on D0)");
  check_identical_rates_visible(c.plots[1]);
  // m = max(log(n / delta), 15) follows n in Fig. 4a: the law stays on the n axis.
  CHECK(has_reference(run("separation.self", "fig4a", {{"sweep", "n=200,400"}, {"trials", "10"}}, 1).plots[1]));
  // Against a1 (Fig. 7d), d (Fig. 5b), c (Fig. 4d) and tau the law is left out; the table keeps it.
  for (const auto& [id, preset, sweep] : std::vector<std::tuple<std::string, std::string, std::string>>{
           {"separation.cross", "fig7d", "a1=0.5,1,1.5"}, {"separation.self", "fig5b", "d=4,6,10"},
           {"separation.self", "fig4d", "c=0.5,0.7"}, {"separation.self", "fig4c", "tau=1,2"}}) {
    INFO(preset << " " << sweep);
    const Results r = run(id, preset, {{"sweep", sweep}, {"trials", "40"}}, 1);
    for (const Plot& p : r.plots) CHECK_FALSE(has_reference(p));
    CHECK(r.table.column("theory_exp_d1") >= 0);
    check_identical_rates_visible(r.plots[1]);
  }
}
