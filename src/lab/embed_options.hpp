// How a page link presents an experiment: embedded (one experiment filling an iframe, no picker),
// which controls students may see (hide=), and the colour theme. Parsed from the link's flags and
// checked against the experiment's schema like any other input.
#pragma once
#include <set>
#include <string>
#include <vector>

#include "lab/schema.hpp"
#include "lab/url_hash.hpp"

namespace attnlab {

// Controls that hide= can name besides parameter keys.
struct ControlGroup {
  const char* key;
  const char* label;  // what a teacher ticks in the "Embed" dialog
};
const std::vector<ControlGroup>& control_groups();
bool is_control_group(const std::string& key);  // "run", "presets", ... (not a parameter key)

enum class ThemeChoice { Default, Dark, Light, HighContrast };
const char* to_string(ThemeChoice t);  // "", "dark", "light", "contrast"

struct EmbedOptions {
  bool embed = false;
  std::set<std::string> hidden;  // group keys and parameter keys
  ThemeChoice theme = ThemeChoice::Default;
  bool hides(const std::string& key) const { return hidden.count(key) > 0; }
  // A parameter is hidden by its own key or by the "params" group.
  bool hides_param(const std::string& key) const { return hides("params") || hides(key); }
  // The flags for a link: embed=1, hide=a,b (sorted), theme=...; nothing for the defaults.
  KeyValues to_flags() const;
};

// Reads embed=, hide= and theme= from a decoded link. Throws ParamError naming the flag, the value
// and what is allowed (hide= lists the groups and the experiment's parameter keys).
EmbedOptions parse_embed_options(const HashState& link, const Schema& schema);
// The same, keeping what is valid and skipping the rest: a link that was refused still shows an
// embed (with the error), never the full lab.
EmbedOptions salvage_embed_options(const HashState& link, const Schema& schema);

}  // namespace attnlab
