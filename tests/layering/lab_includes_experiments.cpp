// Must not compile: lab sees only core/ and lab/ (tests/layering/check.sh).
#include "experiments/registry.hpp"
