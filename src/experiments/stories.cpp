#include "experiments/stories.hpp"
#include "lab/find_named.hpp"

#include "experiments/mirror/mirror_story.hpp"
#include "experiments/multihead/multihead_story.hpp"
#include "experiments/regression/regression_story.hpp"
#include "experiments/separation/separation_story.hpp"
#include "lab/param.hpp"

namespace attnlab {

// The order is the start page's.
const std::vector<Story>& stories() {
  static const std::vector<Story> all = {separation::make_story(), regression::make_story(), mirror::make_story(),
                                         multihead::make_story()};
  return all;
}

const Story& story(const std::string& id) {
  return find_named(stories(), id, [](const Story& s) { return s.id; }, "story", "stories");
}

}  // namespace attnlab
