// Regression problem files ("bring your own problem", --data, the page's file picker).
// Property: an accepted problem written back out reads as the same problem.
#include <string>

#include "experiments/regression/problem_file.hpp"
#include "fuzz_common.hpp"

using namespace attnlab;
using namespace attnlab::regression;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  ProblemFile file;
  if (!fuzz::accepts([&] { file = read_problem_file(fuzz::text(data, size)); })) return 0;
  const std::string written = write_problem_file(file.problem);
  ProblemFile again;
  fuzz::require(fuzz::accepts([&] { again = read_problem_file(written); }), "a written problem file reads");
  fuzz::require(write_problem_file(again.problem) == written, "a problem file round-trips");
  return 0;
}
