// The guided story through the separation paper: its steps as data (lab/story.hpp), listed by
// experiments/stories.cpp.
#pragma once
#include "lab/story.hpp"

namespace attnlab::separation {

Story make_story();

}  // namespace attnlab::separation
