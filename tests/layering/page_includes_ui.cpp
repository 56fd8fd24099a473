// Must not compile: the page logic (src/page) builds without ImGui and knows nothing of its
// drawing (src/ui) (tests/layering/check.sh).
#include "ui/app.hpp"
