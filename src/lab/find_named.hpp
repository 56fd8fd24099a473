// Find-or-refuse by name, written once: the item of `items` whose name (`name_of(item)`) is `name`,
// or a ParamError listing every known name, e.g.
//   "unknown preset 'x' for mirror; presets: synthetic_figure, single_run_zero"
// (`what` = "preset", `context` = " for mirror", `list_label` = "presets"; "(none)" when empty).
// find_named_or_null and known_names serve the callers whose refusal reads otherwise (links, the CLI).
#pragma once
#include <string>

#include "lab/param.hpp"

namespace attnlab {

// Every item's name, joined by ", " ("" when there is none).
template <class Range, class NameOf>
std::string known_names(const Range& items, NameOf name_of) {
  std::string known;
  for (const auto& item : items) known += (known.empty() ? "" : ", ") + std::string(name_of(item));
  return known;
}

// The first item named `name`, or nullptr.
template <class Range, class NameOf>
const auto* find_named_or_null(const Range& items, const std::string& name, NameOf name_of) {
  for (const auto& item : items)
    if (name_of(item) == name) return &item;
  return static_cast<decltype(&*std::begin(items))>(nullptr);
}

template <class Range, class NameOf>
const auto& find_named(const Range& items, const std::string& name, NameOf name_of, const std::string& what,
                       const std::string& list_label, const std::string& context = "") {
  if (const auto* found = find_named_or_null(items, name, name_of)) return *found;
  const std::string known = known_names(items, name_of);
  throw ParamError("unknown " + what + " '" + name + "'" + context + "; " + list_label + ": " +
                   (known.empty() ? "(none)" : known));
}

}  // namespace attnlab
