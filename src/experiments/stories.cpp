#include "experiments/stories.hpp"
#include "lab/find_named.hpp"

#include "experiments/papers.hpp"
#include "lab/param.hpp"

namespace attnlab {

// One per paper that has a story, in the papers' table's order (src/experiments/papers.cpp): the
// start page's.
const std::vector<Story>& stories() {
  static const std::vector<Story> all = make_stories();
  return all;
}

const Story& story(const std::string& id) {
  return find_named(stories(), id, [](const Story& s) { return s.id; }, "story", "stories");
}

}  // namespace attnlab
