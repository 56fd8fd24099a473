// What every fuzz target shares: the input as text, and the one rule that a parser either accepts
// its input or refuses it with the exception its header documents (a message for the user). Any
// other exception escapes to libFuzzer, which reports it as a crash, as it does ASan/UBSan reports.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lab/param.hpp"

namespace attnlab::fuzz {

inline std::string text(const std::uint8_t* data, std::size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// A property that must hold for every input: abort (a crash for libFuzzer) with the reason.
inline void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz property violated: %s\n", what);
    std::abort();
  }
}

// Runs f(); a ParamError (bad input named for the user) is a refusal, anything else escapes.
template <class F>
bool accepts(F&& f) {
  try {
    f();
    return true;
  } catch (const ParamError&) {
    return false;
  }
}

}  // namespace attnlab::fuzz
