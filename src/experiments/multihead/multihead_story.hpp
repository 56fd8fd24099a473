// The guided story through the multihead paper: its steps as data (lab/story.hpp), listed by
// experiments/stories.cpp.
#pragma once
#include "lab/story.hpp"

namespace attnlab::multihead {

Story make_story();

}  // namespace attnlab::multihead
