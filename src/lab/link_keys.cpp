#include "lab/link_keys.hpp"

#include <stdexcept>

namespace attnlab {

const std::vector<LinkKey>& link_keys() {
  using T = LinkKeyType;
  const LinkKeyRole setting = LinkKeyRole::Setting, flag = LinkKeyRole::Flag;
  const unsigned none = kKeptByNone, embed = kKeptByEmbed, both = kKeptByEmbed | kKeptByHome;
  // key  type  allowed  default  kept by  role
  static const std::vector<LinkKey> keys = {
      {"exp", T::Id, "an experiment's id", "", embed, setting},
      {"preset", T::Id, "a preset of the experiment", "", embed, setting},
      {"seed", T::Integer, "integer in [0, 4294967295]", "1", embed, setting},
      {"story", T::Id, "a story's id", "", embed, flag},
      {"step", T::Integer, "a step of the story, from 1", "1", embed, flag},
      // The student's prediction for the step: an embed's link never carries it (the teacher's
      // snippet must not answer for the students), Home leaves the story.
      {"predict", T::Choice, "a choice of the step's prediction, from 1, or the number typed", "", none, flag},
      {"run", T::Switch, "1 (the run starts on opening)", "", embed, flag},
      {"embed", T::Switch, "0 or 1", "0", embed, flag},
      {"hide", T::List, "control groups and parameter keys, comma-separated", "", embed, flag},
      {"theme", T::Choice, "dark, light or contrast", "", both, flag},
      {"view", T::Choice, "results, inspector or text", "results", both, flag},
      {"point", T::Integer, "integer in [0, 9999999]", "0", embed, flag},
      {"trial", T::Integer, "integer in [0, 9999999]", "0", embed, flag},
      {"threads", T::Integer, "integer in [0, " + std::to_string(kMaxLinkThreads) + "] (0 computes on the page's main thread)",
       "", both, flag},
  };
  return keys;
}

const LinkKey* find_link_key(const std::string& key) {
  for (const LinkKey& k : link_keys())
    if (key == k.key) return &k;
  return nullptr;
}

const LinkKey& link_key(const std::string& key) {
  const LinkKey* row = find_link_key(key);
  if (!row) throw std::logic_error("the link-key table has no key '" + key + "'");
  return *row;
}

ParamError link_value_refused(const std::string& key, const std::string& value, const std::string& extra) {
  const LinkKey* row = find_link_key(key);
  return ParamError("link: '" + key + "=" + value + "' is not allowed; allowed: " + (row ? row->allowed : std::string("?")) + extra);
}

}  // namespace attnlab
