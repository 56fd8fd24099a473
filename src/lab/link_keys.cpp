#include "lab/link_keys.hpp"

namespace attnlab {

const std::vector<LinkKey>& link_keys() {
  using T = LinkKeyType;
  // key      type         allowed                                   default  embed  home   flag
  static const std::vector<LinkKey> keys = {
      {"exp", T::Id, "an experiment's id", "", true, false, false},
      {"preset", T::Id, "a preset of the experiment", "", true, false, false},
      {"seed", T::Integer, "integer in [0, 4294967295]", "1", true, false, false},
      {"story", T::Id, "a story's id", "", true, false, true},
      {"step", T::Integer, "a step of the story, from 1", "1", true, false, true},
      {"run", T::Switch, "1 (the run starts on opening)", "", true, false, true},
      {"embed", T::Switch, "0 or 1", "0", true, false, true},
      {"hide", T::List, "control groups and parameter keys, comma-separated", "", true, false, true},
      {"theme", T::Choice, "dark, light or contrast", "", true, true, true},
      {"view", T::Choice, "results, inspector or text", "results", true, true, true},
      {"point", T::Integer, "integer in [0, 9999999]", "0", true, false, true},
      {"trial", T::Integer, "integer in [0, 9999999]", "0", true, false, true},
      {"threads", T::Integer,
       "integer in [0, " + std::to_string(kMaxLinkThreads) + "] (0 computes on the page's main thread)", "", true, true, true},
  };
  return keys;
}

const LinkKey* find_link_key(const std::string& key) {
  for (const LinkKey& k : link_keys())
    if (key == k.key) return &k;
  return nullptr;
}

ParamError link_value_refused(const std::string& key, const std::string& value, const std::string& extra) {
  const LinkKey* row = find_link_key(key);
  return ParamError("link: '" + key + "=" + value + "' is not allowed; allowed: " + (row ? row->allowed : std::string("?")) + extra);
}

}  // namespace attnlab
