// "Bring your own problem": a JSON file {"function": "exp"|"cosh"|"sinh" (optional), "A": [[...], ...]
// (n rows of d numbers) or {"rows": n, "cols": d, "entries": [[i, j, value], ...]} (sparse),
// "b": [n numbers], "w": [n numbers] or one number, "x0": [d numbers] (optional)}.
#pragma once
#include <string>

#include "experiments/regression/problem.hpp"

namespace attnlab::regression {

struct ProblemFile {
  Problem problem;      // x0 empty when the file has none
  bool has_function = false;
};

// Parses and validates (validate() of problem.hpp, apart from x0 when absent); throws ParamError
// with a message naming the field ("problem file: b has 3 entries; it needs 200").
ProblemFile read_problem_file(const std::string& json);
// The inverse (dense A when at least half the entries are non-zero, else the sparse form).
std::string write_problem_file(const Problem& p);

}  // namespace attnlab::regression
