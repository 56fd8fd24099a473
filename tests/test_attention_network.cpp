// The attention networks and datasets of docs/separation.md sections 2-3 against closed forms.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/rng.hpp"
#include "experiments/separation/attention_trial.hpp"

using namespace attnlab;
using namespace attnlab::separation;

namespace {
AttentionSettings settings(AttentionModel model, int n, int d, ScoreMatrix x) {
  AttentionSettings s;
  s.model = model;
  s.n = n;
  s.d = d;
  s.x = x;
  s.m = 9;
  s.tau = model == AttentionModel::Self ? (s.c + 0.1) * std::sqrt(std::log(double(n))) : 0.9;
  return s;
}

double logit(const RowGroups& q, const RowGroups& k, int j0, int j1, ScoreMatrix x) {
  return score(q.row(static_cast<std::size_t>(j0)), k, static_cast<std::size_t>(j1), x);
}
}  // namespace

TEST_CASE("self-attention logits match the closed forms of docs/separation.md s.3", "[separation][attention][claim:sep-14][claim:sep-31]") {
  for (int n : {20, 23}) {  // 23: the stack of I_{d-2} is truncated
    AttentionSettings s = settings(AttentionModel::Self, n, 7, ScoreMatrix::Identity);
    const double a = 1.3, ln = std::log(double(n));
    const SpecialTokens t{6, 6};
    RowGroups q, k;
    build_input(s, a, t, Layout::Dense, q, k);
    REQUIRE(q.size() == std::size_t(n));
    for (int j0 = 0; j0 < n; ++j0)
      for (int j1 = 0; j1 < n; ++j1) {
        const bool same_class = j0 % 5 == j1 % 5;
        // X = I: L = log n (a^2 [j0 = j1 = j3] + b^2 [same class] + c^2)
        const double want_i = ln * ((j0 == 6 && j1 == 6 ? a * a : 0.0) + (same_class ? s.b * s.b : 0.0) + s.c * s.c);
        REQUIRE(logit(q, k, j0, j1, ScoreMatrix::Identity) == Approx(want_i).epsilon(1e-13));
        // X = 1: L = s_j0 s_j1 with s_j = sqrt(log n)(b + c + a [j = j3])
        const double s0 = std::sqrt(ln) * (s.b + s.c + (j0 == 6 ? a : 0.0));
        const double s1 = std::sqrt(ln) * (s.b + s.c + (j1 == 6 ? a : 0.0));
        REQUIRE(logit(q, k, j0, j1, ScoreMatrix::AllOnes) == Approx(s0 * s1).epsilon(1e-13));
      }
  }
}

TEST_CASE("cross-attention logits, the planted weight n^a / (n^a + n - 1) and uniform rows", "[separation][attention][claim:sep-27]") {
  const int n = 30;
  AttentionSettings s = settings(AttentionModel::Cross, n, 4, ScoreMatrix::Identity);
  const double a = 1.7, ln = std::log(double(n));
  const SpecialTokens t{11, 4};  // j3 = 11, j2 = 4
  RowGroups q, k, c;
  build_input(s, a, t, Layout::Dense, q, k);
  for (int j0 = 0; j0 < n; ++j0)
    for (int j1 = 0; j1 < n; ++j1)  // L(j0, j1) = log n (1 + a [j0 = j2 and j1 = j3])
      REQUIRE(logit(q, k, j0, j1, ScoreMatrix::Identity) ==
              Approx(ln * (1.0 + (j0 == 4 && j1 == 11 ? a : 0.0))).epsilon(1e-13));
  int rows_seen = 0;
  attend(q, k, ScoreMatrix::Identity, Normalisation::Softmax, c, [&](std::size_t row, const std::vector<double>& w) {
    ++rows_seen;
    for (int j = 0; j < n; ++j) {
      if (row == 4 && j == 11) CHECK(w[j] == Approx(std::pow(n, a) / (std::pow(n, a) + n - 1)).epsilon(1e-12));
      else if (row != 4) CHECK(w[j] == 1.0 / n);  // exactly uniform
    }
  });
  CHECK(rows_seen == n);
  attend(q, k, ScoreMatrix::Identity, Normalisation::Linear, c, [&](std::size_t row, const std::vector<double>& w) {
    if (row == 4) CHECK(w[11] == Approx((1 + a) / (n + a)).epsilon(1e-12));
  });
  // Linear attention's planted weight (1 + a) / (n + a) passes one half only for a > n - 2.
  for (double side : {-0.05, 0.05}) {
    const double strong = n - 2 + side;
    build_input(s, strong, t, Layout::Dense, q, k);
    attend(q, k, ScoreMatrix::Identity, Normalisation::Linear, c, [&](std::size_t row, const std::vector<double>& w) {
      if (row == 4) CHECK((w[11] > 0.5) == (side > 0));
    });
  }
}

TEST_CASE("grouped rows give the same F as the dense row-by-row computation", "[separation][attention]") {
  Rng rng(77);
  for (AttentionModel model : {AttentionModel::Self, AttentionModel::Cross})
    for (ScoreMatrix x : {ScoreMatrix::Identity, ScoreMatrix::AllOnes})
      for (int n : {12, 17, 40}) {
        AttentionSettings s = settings(model, n, 6, x);
        s.a1 = 0.9;
        s.tau = 0.3;  // low enough that some rows fire and F is not just 0
        for (int rep = 0; rep < 5; ++rep) {
          AttentionTrialDraw draw;
          draw_trial(s, rng, draw);
          for (const Evaluation& e : kEvaluations) {
            RowGroups gq, gk, gc, dq, dk, dc;
            const double a = e.d1 ? s.a1 : s.a0;
            const SpecialTokens& t = e.d1 ? draw.d1 : draw.d0;
            build_input(s, a, t, Layout::Grouped, gq, gk);
            build_input(s, a, t, Layout::Dense, dq, dk);
            CHECK(gk.size() <= std::size_t(s.d + 1));
            CHECK(gq.tokens() == n);
            CHECK(gk.tokens() == n);
            attend(gq, gk, x, e.norm, gc);
            attend(dq, dk, x, e.norm, dc);
            const ReadoutValue g = evaluate_rows_readout(gc, draw.readouts[0], s.tau);
            const ReadoutValue d = evaluate_rows_readout(dc, draw.readouts[0], s.tau);
            CHECK(g.value == Approx(d.value).margin(1e-12));
            CHECK(g.fires() == d.fires());
          }
        }
      }
}

TEST_CASE("rows readout equals the definition and counts each token", "[separation][attention]") {
  Rng rng(3);
  Readout y;
  y.draw(5, 4, rng);
  RowGroups c(5);
  c.add({0.5, -0.2, 0.3, 0.1, 0.9}, 3.0);
  c.add({-0.4, 0.2, 0.2, 0.6, 0.0}, 2.0);
  const double tau = 0.2;
  double total = 0.0;
  for (std::size_t r = 0; r < 2; ++r)
    for (int l = 0; l < 4; ++l) {
      double dot = 0.0;
      for (int i = 0; i < 5; ++i) dot += y.sign(i, l) * c.row(r)[i];
      total += c.count(r) * std::max(dot - tau, 0.0);
    }
  CHECK(evaluate_rows_readout(c, y, tau).value == Approx(total).margin(1e-14));
}

TEST_CASE("row margins are the four-partial-sum dot product bit for bit, at every width", "[separation][attention]") {
  // The dot product is written with SSE2 lanes (docs/toolchain.md "Pitfall 7"); its contract is the
  // scalar order: four partial sums over blocks of four, the tail on the first, then (s0+s1)+(s2+s3).
  // Widths 1 to 13 cover no block, whole blocks and every tail length.
  Rng rng(11);
  for (int d = 1; d <= 13; ++d) {
    Readout y;
    y.draw(d, 3, rng);
    RowGroups c(d);
    std::vector<double> row(static_cast<std::size_t>(d));
    for (int r = 0; r < 4; ++r) {
      for (double& x : row) x = rng.uniform() - 0.5;
      c.add(row, 1.0);
    }
    const double tau = 0.1;
    const std::vector<double> margins = row_margins(c, y, tau);
    for (std::size_t r = 0; r < c.size(); ++r) {
      double best = -INFINITY;
      for (int l = 0; l < 3; ++l) {
        double s[4] = {0.0, 0.0, 0.0, 0.0};
        int i = 0;
        for (; i + 4 <= d; i += 4)
          for (int k = 0; k < 4; ++k) s[k] += c.row(r)[i + k] * y.sign(i + k, l);
        for (; i < d; ++i) s[0] += c.row(r)[i] * y.sign(i, l);
        best = std::max(best, (s[0] + s[1]) + (s[2] + s[3]));
      }
      INFO("d = " << d << ", row " << r);
      CHECK(margins[r] == best - tau);
    }
  }
}

TEST_CASE("linear attention with a zero row sum is reported, not divided by", "[separation][attention]") {
  RowGroups q(2), k(2), c;
  q.add({1.0, 0.0}, 1.0);
  k.add({0.0, 1.0}, 3.0);
  CHECK_THROWS_WITH(attend(q, k, ScoreMatrix::Identity, Normalisation::Linear, c),
                    Catch::StartsWith("linear attention needs positive row sums"));
}

TEST_CASE("RowGroups reused across sizes gives back exactly the rows added", "[separation][attention]") {
  // clear() zeroes only where the dropped rows were written (their non-zeros, or all of a row that
  // held a -0), so every appended row must still start as +0 everywhere.
  Rng rng(12);
  RowGroups g;
  for (int round = 0; round < 40; ++round) {
    const int d = 1 + static_cast<int>(rng.below(9));
    g.clear(d);
    std::vector<std::vector<double>> rows;
    const int n = static_cast<int>(rng.below(6));
    for (int r = 0; r < n; ++r) {
      std::vector<double> row(static_cast<std::size_t>(d));
      for (double& x : row) {
        const auto kind = rng.below(4);
        x = kind == 0 ? rng.normal() : kind == 1 ? -0.0 : 0.0;
      }
      rows.push_back(row);
      if (rng.below(2)) {
        g.add(row, 1.0 + r);
      } else {  // append_zero_row + seal_row, writing only the non-(+0) entries
        double* p = g.append_zero_row();
        for (int i = 0; i < d; ++i)
          if (row[static_cast<std::size_t>(i)] != 0.0 || std::signbit(row[static_cast<std::size_t>(i)])) p[i] = row[static_cast<std::size_t>(i)];
        g.seal_row(1.0 + r);
      }
    }
    REQUIRE(g.size() == rows.size());
    for (std::size_t r = 0; r < rows.size(); ++r) {
      std::vector<int> nonzeros;
      double sum = 0.0;
      for (int i = 0; i < d; ++i) {
        const double x = rows[r][static_cast<std::size_t>(i)];
        CHECK(std::memcmp(&x, g.row(r) + i, sizeof x) == 0);
        if (x != 0.0) nonzeros.push_back(i);
        sum += x;
      }
      CHECK(std::vector<int>(g.nonzeros_begin(r), g.nonzeros_end(r)) == nonzeros);
      const double got = g.sum(r);  // the sum over every entry, to the bit
      CHECK(std::memcmp(&got, &sum, sizeof sum) == 0);
      CHECK(g.count(r) == 1.0 + static_cast<double>(r));
    }
  }
}
