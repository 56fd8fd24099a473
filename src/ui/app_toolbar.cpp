// The App's toolbar: experiment and preset pickers, Run / Step / Reset, Share and downloads, the
// teacher's Embed dialog, seed, theme and progress; and the preview banner above it.
// Index of this file
// [SECTION] The full lab, the preview banner, theme and workers
// [SECTION] Exports
// [SECTION] A story's navigation
// [SECTION] The toolbar's rows
#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "imgui.h"
#include "lab/link_keys.hpp"
#include "ui/app.hpp"
#include "ui/keyboard_focus.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

namespace {

constexpr const char* kLeaveStory = "Leave the story?";

// Toolbar flow layout: the next item goes on the same line if `width` pixels still fit, else
// on a new line (phones get a wrapped toolbar instead of buttons off-screen).
void flow(float width) {
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
}

float button_width(const char* label) {
  return ImGui::CalcTextSize(label).x + ImGui::GetStyle().FramePadding.x * 2.0f;
}

}  // namespace

// [SECTION] The full lab, the preview banner, theme and workers

void App::open_full_lab() const {
  if (!open_url_) return;
  EmbedOptions full;
  full.theme = link_.embed().theme;
  open_url_((page_url_ + "#" + link_.encode(link_subject(), full, false)).c_str());
}

void App::draw_preview_banner() {
  ImGui::PushStyleColor(ImGuiCol_Text, theme().warning);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Preview: this is what students see in the embed.");
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::Button("Back to editing")) load_hash(link_.end_preview());
  ImGui::Separator();
}

void App::draw_theme_picker() {
  // The themes of the link-key table (lab/link_keys.hpp), in its order; "contrast" reads "high contrast".
  const auto label = [](const char* name) { return std::string(name) == "contrast" ? "high contrast" : name; };
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::BeginCombo("##theme", label(kThemeTable.name_of(theme_shown())))) {
    for (const auto& row : kThemeTable)
      if (ImGui::Selectable(label(row.name), row.value == theme_shown())) link_.embed().theme = row.value;
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Colour theme (kept in links).");
}

// Where runs compute: on N Web Workers (default: every core but the one drawing) or on the page's
// main thread. Kept in links as threads=N once chosen.
void App::draw_threads_picker() {
  if (!run_.pool()) return;
  const int shown = threads();
  const std::string label = shown == 0 ? "main thread" : std::to_string(shown) + (shown == 1 ? " worker" : " workers");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::BeginCombo("##threads", label.c_str())) {
    for (int n = 0; n <= kMaxThreads; ++n) {
      const std::string item = n == 0 ? "main thread" : std::to_string(n) + (n == 1 ? " worker" : " workers");
      if (ImGui::Selectable(item.c_str(), n == shown) && n != shown) {
        run_.set_threads(n);  // the next frame hands the remaining units to the new pool size
      }
    }
    ImGui::EndCombo();
  }
  note_focus("threads");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Where runs compute: Web Workers, one per core (the default leaves one core to draw the "
                      "page), or the page's main thread. Results are the same either way. Kept in links (threads=).");
}

// [SECTION] Exports

void App::draw_export_buttons() {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  flow(button_width("Share") + button_width("CSV") + button_width("JSON") + button_width("Figures...") + 3.0f * spacing);
  if (ImGui::Button("Share")) share();
  note_focus("Share");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy a link to this exact state (experiment, parameters, seed).");
  ImGui::SameLine();
  ImGui::BeginDisabled(!run_.controller().prepared() || !download_);
  if (ImGui::Button("CSV")) download("csv");
  note_focus("CSV");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Download the results table with every parameter, the seed and the version.");
  ImGui::SameLine();
  if (ImGui::Button("JSON")) download("json");
  note_focus("JSON");
  ImGui::SameLine();
  const bool figures = !figure_results().plots.empty() || !figure_results().heatmaps.empty();
  ImGui::EndDisabled();
  ImGui::BeginDisabled(!figures);
  if (ImGui::Button("Figures...")) ImGui::OpenPopup("figures");
  note_focus("Figures");
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Download a plot or a heatmap (with its colour bar) as SVG (vector, for papers) or PNG (for slides).");
  ImGui::EndDisabled();
  draw_figures_popup();
}

void App::draw_figures_popup() {
  const Results& r = figure_results();
  if (!ImGui::BeginPopup("figures")) return;
  for (std::size_t i = 0; i < r.plots.size(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Plot %zu: %s", i + 1, r.plots[i].title.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("SVG")) export_figure("svg", static_cast<int>(i));
    ImGui::SameLine();
    if (ImGui::SmallButton("PNG")) export_figure("png", static_cast<int>(i));
    ImGui::PopID();
  }
  for (std::size_t i = 0; i < r.heatmaps.size(); ++i) {
    ImGui::PushID(1000 + static_cast<int>(i));
    ImGui::AlignTextToFramePadding();
    ImGui::Text("Heatmap %zu: %s", i + 1, r.heatmaps[i].title.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("SVG")) export_figure("heatmap-svg", static_cast<int>(i));
    ImGui::SameLine();
    if (ImGui::SmallButton("PNG")) export_figure("heatmap", static_cast<int>(i));
    ImGui::PopID();
  }
  ImGui::EndPopup();
}

// [SECTION] A story's navigation

void App::draw_story_navigation() {
  const StoryPanel::Action action = story_panel_.draw_navigation(story_, link_.embed().embed);
  draw_leave_story_question();  // opened below by Home, under the same ID as the button's
  if (!story_panel_.focused().empty()) focused_ = story_panel_.focused();
  switch (action) {
    case StoryPanel::Action::Back:
    case StoryPanel::Action::Next:
      story_step_by(action == StoryPanel::Action::Next ? +1 : -1);
      if (keyboard_focus_shown()) story_panel_.focus_prediction();  // a keyboard's Next: to the question
      break;
    case StoryPanel::Action::Home:
      if (story_.predicted() || run_.state() == RunState::Done) ImGui::OpenPopup(kLeaveStory);
      else go_home();
      break;
    case StoryPanel::Action::FreeLab: link_.leave_story(); break;
    case StoryPanel::Action::NextStory:  // drawn by StoryPanel::draw, not the navigation
    case StoryPanel::Action::StepSettings:
    case StoryPanel::Action::Run:
    case StoryPanel::Action::None: break;
  }
}

void App::draw_leave_story_question() {
  const ImGuiIO& io = ImGui::GetIO();
  ImGui::SetNextWindowPos(ImVec2(io.DisplaySize.x * 0.5f, io.DisplaySize.y * 0.5f), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kLeaveStory, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  const float width = std::min(ImGui::GetFontSize() * 22.0f, io.DisplaySize.x - ImGui::GetFontSize() * 3.0f);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
  ImGui::TextUnformatted((story_.story().paper + ", " + story_.step().title).c_str());
  ImGui::TextUnformatted("Your prediction and this step's run are not kept on the start page.");
  ImGui::PopTextWrapPos();
  // Stay, the safe answer, comes first: the keyboard's focus lands on it; Escape means it too.
  if (ImGui::Button("Stay on the step") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) ImGui::CloseCurrentPopup();
  note_focus("Stay");
  ImGui::SameLine();
  if (ImGui::Button("Go to the start page")) {
    ImGui::CloseCurrentPopup();
    go_home();
  }
  note_focus("Leave");
  ImGui::EndPopup();
}

// [SECTION] The toolbar's rows

void App::draw_toolbar() {
  const float em = ImGui::GetFontSize();
  if (link_.in_story()) {
    draw_story_navigation();
  } else if (!link_.embed().embed) {
    if (ImGui::Button("Attention Lab")) {
      go_home();
      return;
    }
    note_focus("Home");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("The start page: every paper and its guided story.");
    flow(em * 16.0f);
    ImGui::SetNextItemWidth(em * 16.0f);
    if (ImGui::BeginCombo("##experiment", run_.experiment().info().title.c_str())) {
      for (const auto& id : experiment_ids()) {
        auto e = make_experiment(id);
        if (ImGui::Selectable(e->info().title.c_str(), id == run_.experiment().info().id)) select_experiment(id);
      }
      ImGui::EndCombo();
    }
  } else {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(run_.experiment().info().title.c_str());
  }
  if (shows("presets") && !link_.in_story()) draw_preset_picker();
  if (shows("run")) draw_run_buttons();
  if (shows("export") && copy_text_) {
    draw_export_buttons();
    if (!link_.embed().embed) {
      flow(button_width("Embed..."));
      if (ImGui::Button("Embed...")) embed_dialog_.open(link_.embed());
      note_focus("Embed");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("For teachers: choose the controls students see and copy an iframe for a course page.");
    }
  }
  if (!link_.embed().embed) {
    const auto hash_for = [this](const EmbedOptions& o, bool run) { return link_.encode(link_subject(), o, run); };
    const bool has_tabs = has_inspector_ || !reproduction_name_.empty();
    const std::string title = link_.in_story() ? story_.story().paper : run_.experiment().info().title;
    if (embed_dialog_.draw(run_.experiment().schema(), run_.experiment().accepts_data(), has_tabs, title, page_url_, hash_for,
                           copy_text_)) {
      const std::string own = hash();
      load_hash(embed_dialog_.link_hash());
      link_.start_preview(own);
    }
  }
  if (shows("seed")) draw_seed_field();
  if (!link_.embed().embed) {
    flow(em * 8.0f);
    draw_theme_picker();
    if (run_.pool()) {
      flow(em * 8.0f);
      draw_threads_picker();
    }
  } else if (open_url_) {
    flow(button_width("Open in Attention Lab"));
    if (ImGui::Button("Open in Attention Lab")) open_full_lab();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This experiment in the full lab, in a new tab, with every control.");
  }
  flow(em * 10.0f);
  draw_progress();
}

void App::draw_preset_picker() {
  const float em = ImGui::GetFontSize();
  flow(em * 12.0f);
  ImGui::SetNextItemWidth(em * 12.0f);
  const std::string preset_label = run_.preset().empty() ? "preset..." : run_.experiment().preset(run_.preset()).title;
  if (ImGui::BeginCombo("##preset", preset_label.c_str())) {
    for (const auto& p : run_.experiment().presets()) {
      if (ImGui::Selectable(p.title.c_str(), p.name == run_.preset())) {
        run_.apply(run_.experiment().make_params(p.name, {}), p.name, run_.seed());
        controls_.forget_edits();
        run_.settings_changed();
      }
      if (ImGui::IsItemHovered()) wrapped_tooltip(p.description);
    }
    ImGui::EndCombo();
  }
}

void App::draw_run_buttons() {
  const char* run_label = run_.state() == RunState::Running ? "Pause" : run_.state() == RunState::Paused ? "Resume" : "Run";
  // Run and Step wait while a field shows a refused value or a story step awaits its prediction.
  const std::string blocked = run_.state() == RunState::Running || run_.state() == RunState::Paused ? "" : run_blocked();
  const auto why = [&](const char* what) {
    if (!ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    wrapped_tooltip(blocked.empty() ? what : blocked);
  };
  flow(button_width(run_label) + button_width("Step run") + button_width("Reset") + 2.0f * ImGui::GetStyle().ItemSpacing.x);
  ImGui::BeginDisabled(!blocked.empty());
  if (ImGui::Button(run_label)) run_.state() == RunState::Running ? pause() : run();
  ImGui::EndDisabled();
  why("Run the experiment to its end; the curves grow as it computes.");
  note_focus("Run");
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  run_button_rect_[0] = lo.x, run_button_rect_[1] = lo.y, run_button_rect_[2] = hi.x - lo.x, run_button_rect_[3] = hi.y - lo.y;
  ImGui::SameLine();
  ImGui::BeginDisabled(!blocked.empty());
  if (ImGui::Button("Step run")) step_once();
  ImGui::EndDisabled();
  why("Compute a twentieth of a second of the run, then pause: watch it grow step by step.");
  note_focus("Step");
  ImGui::SameLine();
  if (ImGui::Button("Reset")) reset();
  note_focus("Reset");
}

void App::draw_seed_field() {
  const float em = ImGui::GetFontSize();
  flow(em * 9.0f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("seed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 6.0f);
  ImGui::InputText("##seed", seed_text_, sizeof seed_text_, ImGuiInputTextFlags_CharsDecimal);
  note_focus("seed");
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    try {
      run_.set_seed(parse_seed(seed_text_));
      run_.settings_changed();
    } catch (const ParamError& e) {
      std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(run_.seed()));
      run_.set_error(e.what());
    }
  }
}

void App::draw_progress() {
  char overlay[64];
  const bool reproducing = view_ == View::Reproduction && reproduction_.started();
  const char* state = !reproducing ? to_string(run_.state())
                      : reproduction_.finished() ? "reproduced"
                      : reproduction_.paused()   ? "paused"
                                                 : "reproducing";
  std::snprintf(overlay, sizeof overlay, "%s %.0f%%", state, 100.0 * progress());
  ImGui::ProgressBar(static_cast<float>(progress()), ImVec2(-1.0f, 0.0f), overlay);
}

}  // namespace attnlab::ui
