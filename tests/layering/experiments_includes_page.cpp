// Must not compile: experiments sees only core/, lab/ and experiments/, not the page logic
// (tests/layering/check.sh).
#include "page/page_link.hpp"
