// Must not compile: experiments see core/, lab/ and experiments/, not the bench (tests/layering/check.sh).
#include "bench/workloads.hpp"
