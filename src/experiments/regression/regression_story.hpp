// The guided story through the regression paper: its steps as data (lab/story.hpp), listed by
// experiments/stories.cpp.
#pragma once
#include "lab/story.hpp"

namespace attnlab::regression {

Story make_story();
// Its glossary (regression_glossary.cpp).
std::vector<GlossaryEntry> story_glossary();

}  // namespace attnlab::regression
