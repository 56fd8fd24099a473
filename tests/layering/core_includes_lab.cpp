// Must not compile: core sees only core/ (tests/layering/check.sh).
#include "lab/schema.hpp"
