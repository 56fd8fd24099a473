// Controls generated from a Schema: one widget per parameter with its tooltip, every edit passed
// through Schema::set (the one validation boundary); a rejected edit shows the schema's message.
#pragma once
#include <map>
#include <string>

#include "lab/embed_options.hpp"
#include "lab/schema.hpp"

namespace attnlab::ui {

class ParamControls {
 public:
  // Draws the controls; returns true when a value changed. Parameters the embed hides are not drawn.
  bool draw(const Schema& schema, Params& params, const EmbedOptions& embed);
  void forget_edits() { text_.clear(), errors_.clear(); }
  // The schema's message for the first field that shows a refused value, or "": while a field shows
  // one, what is on screen is not what would run, so Run and Step wait (App::run_blocked).
  std::string first_error() const { return errors_.empty() ? "" : errors_.begin()->second; }
  bool any_refused() const { return !errors_.empty(); }  // first_error() is not ""
  // The key of the field that had the keyboard focus in the last draw, or "" (App::focused_control).
  const std::string& focused() const { return focused_; }

 private:
  bool commit(const Schema& schema, Params& params, const std::string& key, const std::string& text);
  std::map<std::string, std::string> text_;    // text being edited, per key
  std::map<std::string, std::string> errors_;  // the schema's message for a rejected edit
  std::string focused_;
};

}  // namespace attnlab::ui
