// Every guided story of the project (one per paper, named in src/experiments/papers.cpp), by id.
// The page's start page and story steps, the CLI's `stories`, the JS API's listStories() and the
// site's oEmbed files list them from here. Each story is declared beside its paper's experiments
// (<paper>/<paper>_story.cpp).
#pragma once
#include <string>
#include <vector>

#include "lab/story.hpp"

namespace attnlab {

const std::vector<Story>& stories();
// Throws ParamError naming the known stories when `id` is unknown.
const Story& story(const std::string& id);

}  // namespace attnlab
