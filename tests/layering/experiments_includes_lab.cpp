// Must compile: the control, so that a broken check does not pass by failing everywhere.
#include "core/rng.hpp"
#include "experiments/registry.hpp"
#include "lab/schema.hpp"
