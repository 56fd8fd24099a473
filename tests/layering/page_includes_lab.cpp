// Must compile: the page logic sees lab and experiments (tests/layering/check.sh).
#include "experiments/registry.hpp"
#include "lab/unit_scheduler.hpp"
#include "page/page_link.hpp"
