// Every key a page link may hold besides an experiment's parameters, in one table (as TensorFlow
// Playground's state.ts drives its URL from one property table): its type, what it allows, its
// default, and whether an embed link and Home keep it. url_hash.cpp sorts a link's pairs by it,
// link.cpp, embed_options.cpp and story.cpp decode their keys' values with its words, and the page
// (src/page/page_link.cpp) writes links by it. docs/design.md "One link: decode_link".
#pragma once
#include <string>
#include <vector>

#include "lab/choice_table.hpp"
#include "lab/embed_options.hpp"

namespace attnlab {

// The most Web Workers a link's threads= may ask for (0 computes on the page's main thread).
constexpr int kMaxLinkThreads = 16;

enum class LinkKeyType { Id, Integer, Switch, List, Choice };

struct LinkKey {
  const char* key;
  LinkKeyType type;
  std::string allowed;      // the words a refusal names: "dark, light or contrast"
  const char* fallback;     // the value when absent ("" for none)
  bool embed_keeps;         // an embed's link (the teacher's Embed dialog) keeps the page's value
  bool home_keeps;          // Home (the start page) keeps the page's value: how the page looks and computes
  bool flag;                // page behaviour (HashState::flags), not the experiment's settings (exp, preset, seed)
};

// The table, in the order links write the keys.
const std::vector<LinkKey>& link_keys();
// The row of `key`, or nullptr for an experiment's parameter.
const LinkKey* find_link_key(const std::string& key);

// view=: what the page shows.
enum class ViewChoice { Results, Inspector, Text };
inline constexpr ChoiceTable<ViewChoice> kViewTable{
    {"results", ViewChoice::Results}, {"inspector", ViewChoice::Inspector}, {"text", ViewChoice::Text}};
// theme=: the colour theme (absent: the viewer's preference).
inline constexpr ChoiceTable<ThemeChoice> kThemeTable{
    {"dark", ThemeChoice::Dark}, {"light", ThemeChoice::Light}, {"contrast", ThemeChoice::HighContrast}};

// The value of key `key` of a link refused with the table's words:
//   "link: 'theme=blue' is not allowed; allowed: dark, light or contrast"
ParamError link_value_refused(const std::string& key, const std::string& value, const std::string& extra = "");

}  // namespace attnlab
