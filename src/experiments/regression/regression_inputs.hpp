// The picture before a run (Experiment::inputs()) of `regression` and `regression.icl`: the
// function u over the range the problem's inner products (A x)_i take, and for `regression` the
// loss and its two parts (data term, regulariser) along the segment from the shared start x0 to x*
// (docs/regression.md "In the lab"). Drawn from the settings and seed alone, by the same code the run prepares with; no solver runs.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "experiments/regression/problem.hpp"
#include "experiments/regression/problem_file.hpp"
#include "experiments/regression/solvers.hpp"
#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::regression {

// Problems built in full for a picture, within a few milliseconds natively; larger ones get a
// picture that needs no A. `regression.icl` only draws its problem: up to kPictureEntries entries
// of A (n d). `regression` also finds x* (damped Newton, each step O(n d^2)): up to kSolveRows rows
// and kSolveEntries entries.
constexpr double kPictureEntries = 20000.0;
constexpr double kSolveRows = 2000.0;
constexpr double kSolveEntries = 10000.0;

// The problem a `regression` run solves with its x* (damped exact Newton from x_true, the file's
// x0, or 0) and its shared start x0 = x* + r0 u (or the file's x0): what prepare() builds and
// inputs() draws. `data` is the loaded problem file (null when none). Throws ParamError.
struct Start {
  Problem problem;  // x0 set
  MatrixFacts facts;
  Reference reference;
};
Start prepare_start(const Params& params, std::uint64_t seed, const ProblemFile* data);

// u = exp, cosh and sinh over [lo, hi], the chosen one drawn solid, the others dashed; `marked`
// (any order, down-sampled here) are drawn as points on the chosen curve under `marked_name`
// (nothing when empty).
Plot function_plot(const std::string& title, Hyperbolic chosen, double lo, double hi, std::vector<double> marked,
                   const std::string& marked_name);

// `regression`'s picture. Throws ParamError as prepare() does.
Results regression_inputs(const Params& params, std::uint64_t seed, const ProblemFile* data);

}  // namespace attnlab::regression
