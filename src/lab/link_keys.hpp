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
// Setting: the experiment's settings (exp, preset, seed); Flag: page behaviour (HashState::flags).
enum class LinkKeyRole { Setting, Flag };
// Who keeps the page's value of a key when it writes another link: an embed's link (the teacher's
// Embed dialog) and Home (the start page: how the page looks and computes).
enum LinkKeyKeeper : unsigned { kKeptByNone = 0, kKeptByEmbed = 1, kKeptByHome = 2 };

struct LinkKey {
  const char* key;
  LinkKeyType type;
  std::string allowed;   // the words a refusal names: "dark, light or contrast"
  const char* fallback;  // the value when absent ("" for none)
  unsigned kept_by;      // LinkKeyKeeper bits
  LinkKeyRole role;
  bool embed_keeps() const { return (kept_by & kKeptByEmbed) != 0; }
  bool home_keeps() const { return (kept_by & kKeptByHome) != 0; }
  bool flag() const { return role == LinkKeyRole::Flag; }
};

// The table, in the order links write the keys.
const std::vector<LinkKey>& link_keys();
// The row of `key`, or nullptr for an experiment's parameter.
const LinkKey* find_link_key(const std::string& key);
// The row of a key the lab itself reads ("story", "predict"); throws std::logic_error for a key the
// table does not hold (a misspelling in the code, not in a link).
const LinkKey& link_key(const std::string& key);

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
