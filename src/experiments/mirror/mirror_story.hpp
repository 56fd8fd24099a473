// The guided story through the mirror paper: its steps as data (lab/story.hpp), listed by
// experiments/stories.cpp.
#pragma once
#include "lab/story.hpp"

namespace attnlab::mirror {

Story make_story();

}  // namespace attnlab::mirror
