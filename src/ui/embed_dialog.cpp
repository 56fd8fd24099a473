#include "ui/embed_dialog.hpp"

#include <algorithm>

#include "experiments/stories.hpp"
#include "lab/embed_snippet.hpp"
#include "imgui.h"
#include "imgui_stdlib.h"

namespace attnlab::ui {

namespace {

// A "students see" checkbox for a group or parameter key (ticked = shown).
void visibility_checkbox(EmbedOptions& o, const std::string& key, const char* label) {
  bool shown = !o.hides(key);
  if (ImGui::Checkbox(label, &shown)) {
    if (shown) o.hidden.erase(key);
    else o.hidden.insert(key);
  }
}

// "Parameters students see": a checkbox per parameter, and all / none.
void parameter_checkboxes(EmbedOptions& o, const Schema& schema, float width) {
  ImGui::TextUnformatted("Parameters students see:");
  ImGui::SameLine();
  if (ImGui::SmallButton("all")) {
    o.hidden.erase("params");
    for (const auto& s : schema.specs()) o.hidden.erase(s.key);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("none")) {
    for (const auto& s : schema.specs()) o.hidden.erase(s.key);
    o.hidden.insert("params");
  }
  ImGui::BeginChild("params", ImVec2(width, ImGui::GetFontSize() * 9.0f), true);
  const bool all_hidden = o.hides("params");
  for (const auto& s : schema.specs()) {
    if (all_hidden) {
      ImGui::TextDisabled("%s (hidden)", s.label.c_str());
      continue;
    }
    visibility_checkbox(o, s.key, (s.label + "##" + s.key).c_str());
  }
  ImGui::EndChild();
}

// `text` with a line break every `columns` characters (for display only).
std::string break_into_lines(const std::string& text, std::size_t columns) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); i += columns) out += (i ? "\n" : "") + text.substr(i, columns);
  return out;
}

}  // namespace

void EmbedDialog::open(const EmbedOptions& current) {
  options_ = current;
  options_.embed = true;
  open_ = true;
  ImGui::OpenPopup("Embed in a course page");
}

// What to embed: this page as it is, or a guided story from one of its steps.
const Story* EmbedDialog::draw_choice(float width, const std::string& title) {
  const std::vector<Story>& all = stories();
  const std::string here = "This page: " + title;
  ImGui::SetNextItemWidth(width);
  if (ImGui::BeginCombo("##what", story_ < 0 ? here.c_str() : ("Story: " + all[static_cast<std::size_t>(story_)].paper).c_str())) {
    if (ImGui::Selectable(here.c_str(), story_ < 0)) story_ = -1;
    for (std::size_t i = 0; i < all.size(); ++i)
      if (ImGui::Selectable(("Story: " + all[i].paper).c_str(), story_ == static_cast<int>(i)))
        story_ = static_cast<int>(i), story_step_ = 1;
    ImGui::EndCombo();
  }
  const Story* story = story_ < 0 ? nullptr : &all[static_cast<std::size_t>(story_)];
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  if (story) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
    ImGui::InputInt("first step", &story_step_, 1);
    story_step_ = std::clamp(story_step_, 1, static_cast<int>(story->steps.size()));
    ImGui::TextWrapped("Step %d: %s. Students move through the story with Back and Next; each step shows its own "
                       "controls.", story_step_, story->steps[static_cast<std::size_t>(story_step_ - 1)].title.c_str());
  } else {
    ImGui::TextUnformatted("The embed shows this page only, with these parameters and seed.");
  }
  ImGui::PopTextWrapPos();
  return story;
}

// What students see (control groups; a page's parameters one by one), whether it starts running,
// and the iframe's size.
void EmbedDialog::draw_controls(const Schema& schema, bool accepts_data, bool has_tabs, bool story, float width) {
  ImGui::TextUnformatted("Students see:");
  ImGui::Indent();
  for (const auto& g : control_groups()) {
    const std::string key = g.key;
    if (key == "params" || (key == "data" && !accepts_data) || (key == "tabs" && !has_tabs)) continue;
    visibility_checkbox(options_, key, g.label);
  }
  ImGui::Unindent();
  if (story) {  // a story's steps choose their own parameters
    for (auto it = options_.hidden.begin(); it != options_.hidden.end();)
      it = is_control_group(*it) ? std::next(it) : options_.hidden.erase(it);
  } else {
    parameter_checkboxes(options_, schema, width);
  }
  if (options_.hides("run")) {
    bool always = true;  // students without a Run button get a running experiment
    ImGui::BeginDisabled();
    ImGui::Checkbox("start running when the page opens (students have no Run button)", &always);
    ImGui::EndDisabled();
  } else {
    ImGui::Checkbox("start running when the page opens", &run_);
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputInt("width", &width_, 0);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6.0f);
  ImGui::InputInt("height (px)", &height_, 0);
  width_ = std::clamp(width_, 240, 4000), height_ = std::clamp(height_, 240, 4000);
}

// The link and the iframe snippet with their Copy buttons, Preview and Close; true on Preview.
bool EmbedDialog::draw_link(const std::string& url, const std::string& snippet, float width, CopyText copy) {
  bool preview = false;
  ImGui::TextUnformatted("Link:");
  std::string shown = url;
  ImGui::SetNextItemWidth(width);
  ImGui::InputText("##link", &shown, ImGuiInputTextFlags_ReadOnly);
  ImGui::TextUnformatted("Paste into the course page:");
  // Shown broken into lines that fit (the text box does not wrap); Copy iframe copies it whole.
  std::string lines = break_into_lines(snippet, static_cast<std::size_t>(std::max(20.0f, width / (ImGui::GetFontSize() * 0.6f))));
  ImGui::InputTextMultiline("##snippet", &lines, ImVec2(width, ImGui::GetFontSize() * 6.5f), ImGuiInputTextFlags_ReadOnly);
  if (ImGui::Button("Copy link") && copy) copy(url.c_str(), "Embed link");
  ImGui::SameLine();
  if (ImGui::Button("Copy iframe") && copy) copy(snippet.c_str(), "Iframe snippet");
  ImGui::SameLine();
  if (ImGui::Button("Preview")) {
    preview = true;
    open_ = false;
    ImGui::CloseCurrentPopup();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Show this page as the students will see it.");
  ImGui::SameLine();
  if (ImGui::Button("Close")) {
    open_ = false;
    ImGui::CloseCurrentPopup();
  }
  return preview;
}

bool EmbedDialog::draw(const Schema& schema, bool accepts_data, bool has_tabs, const std::string& title,
                       const std::string& page_url, const HashFor& hash_for, CopyText copy) {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing,
                          ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(std::min(io.DisplaySize.x, ImGui::GetFontSize() * 24.0f), 0),
                                      ImVec2(io.DisplaySize.x, io.DisplaySize.y * 0.95f));
  if (!ImGui::BeginPopupModal("Embed in a course page", &open_, ImGuiWindowFlags_AlwaysAutoResize)) return false;
  // As wide as 30 em, or the screen (phones).
  const float width = std::min(ImGui::GetFontSize() * 30.0f, io.DisplaySize.x - ImGui::GetFontSize() * 2.0f);
  const Story* story = draw_choice(width, title);
  draw_controls(schema, accepts_data, has_tabs, story != nullptr, width);
  if (story) {
    KeyValues flags = options_.to_flags();
    if (run()) flags.emplace_back("run", "1");
    const StoryStep& step = story->steps[static_cast<std::size_t>(story_step_ - 1)];
    link_hash_ = encode_story_hash({story->id, static_cast<std::size_t>(story_step_ - 1)}, step, {}, step.settings.seed, flags);
  } else {
    link_hash_ = hash_for(options_, run());
  }
  const std::string url = page_url + "#" + link_hash_;
  const std::string snippet = iframe_snippet(url, "Attention Lab: " + (story ? story->paper : title), width_, height_);
  const bool preview = draw_link(url, snippet, width, copy);
  ImGui::EndPopup();
  return preview;
}

}  // namespace attnlab::ui
