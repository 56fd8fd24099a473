// Must not compile: the repository root is no include directory (tests/layering/check.sh).
#include "src/lab/schema.hpp"
