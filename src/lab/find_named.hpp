// Find-or-refuse by name, written once: the item of `items` whose name (`name_of(item)`) is `name`,
// or a ParamError listing every known name, e.g.
//   "unknown preset 'x' for mirror; presets: synthetic_figure, single_run_zero"
// (`what` = "preset", `context` = " for mirror", `list_label` = "presets"; "(none)" when empty).
#pragma once
#include <string>

#include "lab/param.hpp"

namespace attnlab {

template <class Range, class NameOf>
const auto& find_named(const Range& items, const std::string& name, NameOf name_of, const std::string& what,
                       const std::string& list_label, const std::string& context = "") {
  std::string known;
  for (const auto& item : items) {
    const std::string item_name = name_of(item);
    if (item_name == name) return item;
    known += (known.empty() ? "" : ", ") + item_name;
  }
  throw ParamError("unknown " + what + " '" + name + "'" + context + "; " + list_label + ": " +
                   (known.empty() ? "(none)" : known));
}

}  // namespace attnlab
