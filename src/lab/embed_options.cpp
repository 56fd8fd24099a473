#include "lab/embed_options.hpp"

#include "lab/link_keys.hpp"
#include "lab/text.hpp"

namespace attnlab {

const std::vector<ControlGroup>& control_groups() {
  static const std::vector<ControlGroup> groups = {
      {"run", "Run / Step / Reset buttons"},
      {"presets", "preset picker"},
      {"seed", "seed"},
      {"export", "Share and downloads"},
      {"info", "description of the experiment"},
      {"tabs", "Inspector and paper tabs"},
      {"data", "data file loader"},
      {"params", "all parameters"},
  };
  return groups;
}

const char* to_string(ThemeChoice t) { return t == ThemeChoice::Default ? "" : kThemeTable.name_of(t); }

KeyValues EmbedOptions::to_flags() const {
  KeyValues flags;
  if (embed) flags.emplace_back("embed", "1");
  if (!hidden.empty()) {
    std::string list;
    for (const auto& key : hidden) list += (list.empty() ? "" : ",") + key;
    flags.emplace_back("hide", list);
  }
  if (theme != ThemeChoice::Default) flags.emplace_back("theme", to_string(theme));
  return flags;
}

bool is_control_group(const std::string& key) {
  for (const auto& g : control_groups())
    if (key == g.key) return true;
  return false;
}

namespace {

std::string allowed_hide_keys(const Schema& schema) {
  std::string out;
  for (const auto& g : control_groups()) out += std::string(out.empty() ? "" : ", ") + g.key;
  for (const auto& s : schema.specs()) out += ", " + s.key;
  return out;
}

EmbedOptions parse(const HashState& link, const Schema& schema, bool strict) {
  EmbedOptions o;
  const std::string embed = link.flag("embed");
  if (strict && embed != "" && embed != "0" && embed != "1") throw link_value_refused("embed", embed);
  o.embed = embed == "1";
  for (const std::string& key : split(link.flag("hide"), ',')) {
    if (key.empty()) continue;
    if (!is_control_group(key) && !schema.find(key)) {
      if (!strict) continue;
      throw ParamError("link: 'hide' names '" + key + "', which is not a control here; allowed: " +
                       allowed_hide_keys(schema));
    }
    o.hidden.insert(key);
  }
  const std::string theme = link.flag("theme");
  if (const auto* row = kThemeTable.find(theme)) o.theme = row->value;
  else if (!theme.empty() && strict) throw link_value_refused("theme", theme);
  return o;
}

}  // namespace

EmbedOptions parse_embed_options(const HashState& link, const Schema& schema) { return parse(link, schema, true); }
EmbedOptions salvage_embed_options(const HashState& link, const Schema& schema) { return parse(link, schema, false); }

}  // namespace attnlab
