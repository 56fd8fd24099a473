// Must not compile: the bench sees the layers below it, not the faces (tests/layering/check.sh).
#include "cli/reproduce.hpp"
