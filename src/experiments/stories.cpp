#include "experiments/stories.hpp"

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
  std::string known;
  for (const Story& s : stories()) {
    if (s.id == id) return s;
    known += (known.empty() ? "" : ", ") + s.id;
  }
  throw ParamError("unknown story '" + id + "'; stories: " + known);
}

}  // namespace attnlab
