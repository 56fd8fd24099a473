// The App's frame (ui/app.hpp): the toolbar over the controls and the results, stacked on a
// narrow screen; the controls pane; the tabs (Results, Inspector, Reproduce the paper) and the
// reproduction tab.
#include <algorithm>

#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"
#include "imgui.h"
#include "lab/clock.hpp"
#include "ui/app.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

namespace attnlab::ui {

void App::frame(float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("Attention Lab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  focused_.clear();
  question_ = {};
  // A frame too small to use (the browser's 300 x 150, when a course site strips the iframe's
  // size and does not listen for the lab's height message): the question and "Open full size".
  compact_ = link_.embed().embed && !link_.start_page() &&
             (height < ImGui::GetFontSize() * 16.0f || width < ImGui::GetFontSize() * 14.0f);
  if (compact_) {
    draw_compact();
    ImGui::End();
    return;
  }
  if (link_.start_page()) {
    ImGui::BeginChild("start", ImVec2(0, 0), false, ImGuiWindowFlags_NavFlattened);
    const StartPage::Choice choice = start_.draw(heatmaps_);
    ImGui::EndChild();
    ImGui::End();
    if (!choice.story.empty()) open_story(choice.story);
    if (choice.free_lab) link_.leave_start_page(), reset();
    return;
  }
  if (link_.previewing()) draw_preview_banner();
  draw_toolbar();
  ImGui::Separator();
  // An embed may hide every control: the results then fill the frame.
  bool any_control = shows("info") || link_.in_story() || (run_.experiment().accepts_data() && open_picker_ && shows("data"));
  for (const auto& s : run_.experiment().schema().specs()) any_control = any_control || !link_.embed().hides_param(s.key);
  const bool narrow = width < ImGui::GetFontSize() * 50.0f;  // phones: stack the panels
  const float panel = narrow ? -1.0f : std::max(ImGui::GetFontSize() * 24.0f, width * 0.3f);
  // On a narrow screen the panels stack: the controls first in the full page and in a story (its
  // question comes before the figure that answers it), but the results first in an embed of one
  // experiment, whose readers came for the figure. NavFlattened: the arrow keys move between the
  // toolbar, the controls and the results freely.
  const bool results_first = narrow && link_.embed().embed && !link_.in_story();
  // A story's step gets the larger share before its run (its text and question must show without
  // scrolling), and a bit under half once the run is done: the answer (scrolled into view) over the
  // figure it explains, which needs the room (walk 15: 0.55 left a phone's map 300 px, cut).
  const bool answered = link_.in_story() && run_.state() == RunState::Done;
  const float controls_share = answered ? 0.45f : link_.in_story() ? 0.75f : 0.4f;
  const float least_share = answered ? 0.35f : 0.4f;  // of the whole height
  if (results_first || !any_control) {
    draw_results_panel(ImVec2(0, any_control ? height * 0.6f : 0.0f));
  }
  if (any_control) {
    const float avail = ImGui::GetContentRegionAvail().y;
    float stacked = std::max(avail * controls_share, height * least_share);
    // Before a story step's answer, a stacked panel grows to its content (last frame's) up to most
    // of the height, so no control of the question is cut at its foot; longer content scrolls. The
    // explorer keeps its share: its picture of the inputs shows below, and its controls scroll.
    if (link_.in_story() && run_.state() != RunState::Done && controls_content_h_ > stacked)
      stacked = std::max(stacked, std::min(controls_content_h_, avail * kControlsShareMost));
    ImGui::BeginChild("controls", ImVec2(panel, narrow && !results_first ? stacked : 0.0f), true,
                      ImGuiWindowFlags_NavFlattened);
    draw_controls();
    if (!controls_.focused().empty()) focused_ = controls_.focused();  // a parameter field
    controls_content_h_ = ImGui::GetCursorPosY() + ImGui::GetStyle().WindowPadding.y;
    question_.controls_whole = controls_content_h_ <= ImGui::GetWindowHeight();
    ImGui::EndChild();
    if (!narrow) ImGui::SameLine();
  }
  if (!results_first && any_control) {
    draw_results_panel(ImVec2(0, 0));
  }
  ImGui::End();
  if (pending_story_) {
    const std::string id = *pending_story_;
    pending_story_.reset();
    id.empty() ? go_home() : open_story(id);
  }
}

void App::draw_results_panel(ImVec2 size) {
  ImGui::BeginChild("results", size, true, ImGuiWindowFlags_NavFlattened);
  // A paused run is still started: pausing keeps the results where the student scrolled them.
  const RunState state = run_.state();
  const bool started = state == RunState::Running || state == RunState::Paused || state == RunState::Done;
  const std::string here = (link_.in_story() ? story_.story().id + "#" + std::to_string(story_.step_index()) : "") +
                           (started ? "|run" : "|before");
  if (here != results_scrolled_for_) ImGui::SetScrollY(0.0f), results_scrolled_for_ = here;
  draw_results();
  ImGui::EndChild();
}

void App::draw_compact() {
  if (open_url_) {
    if (ImGui::Button("Open full size")) open_full_lab();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This frame is too small: open the lab in a new tab.");
  }
  const std::string what = link_.in_story() ? "Question: " + story_.step().question
                           : run_.preset().empty() ? run_.experiment().info().title
                                                   : run_.experiment().preset(run_.preset()).title;
  const ImVec2 top = ImGui::GetCursorScreenPos();
  question_.w = ImGui::GetContentRegionAvail().x;
  text_wrapped_at_spaces(what, theme().heading);
  question_.x = top.x, question_.y = top.y, question_.h = ImGui::GetItemRectMax().y - top.y;
  question_.visible = link_.in_story() && top.y + question_.h <= ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
}

void App::draw_controls() {
  const ExperimentInfo& info = run_.experiment().info();
  if (link_.in_story()) {
    story_panel_.track_run(run_.state() == RunState::Running, progress(), now_seconds());
    story_panel_.set_field_refused(controls_.any_refused());
    switch (story_panel_.draw(story_, run_.results(), run_.state(), next_story_title(), story_settings())) {
      case StoryPanel::Action::NextStory: pending_story_ = page::next_story_id(stories(), story_.story().id); break;
      case StoryPanel::Action::StepSettings: use_step_settings(); break;
      case StoryPanel::Action::Run: run(); break;
      default: break;
    }
    if (!story_panel_.focused().empty()) focused_ = story_panel_.focused();
    question_ = story_panel_.question();
    // The step's own controls only: the others stay as the step set them.
    EmbedOptions shown = link_.embed();
    for (const auto& s : run_.experiment().schema().specs())
      if (std::find(story_.step().shows.begin(), story_.step().shows.end(), s.key) == story_.step().shows.end())
        shown.hidden.insert(s.key);
    if (!story_.step().shows.empty()) ImGui::Separator();
    if (controls_.draw(run_.experiment().schema(), run_.params(), shown)) {
      params_edited();
    }
    return;
  }
  if (shows("info")) {
    text_wrapped_at_spaces(info.summary);
    text_wrapped_at_spaces(info.paper, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (!run_.preset().empty()) {
      ImGui::Spacing();
      text_wrapped_at_spaces(run_.experiment().preset(run_.preset()).title, theme().heading);
      text_wrapped_at_spaces(run_.experiment().preset(run_.preset()).description);
    }
  }
  if (run_.experiment().accepts_data() && open_picker_ && shows("data")) {
    if (ImGui::Button("Load data file...")) open_picker_();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A JSON data file for this experiment (see the README), then the data parameter switches to it.");
    if (!run_.data_status().empty()) ImGui::TextWrapped("%s", run_.data_status().c_str());
  }
  ImGui::Separator();
  if (controls_.draw(run_.experiment().schema(), run_.params(), link_.embed())) {
    params_edited();
  }
}

void App::draw_results() {
  if (!run_.error().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme().error);
    ImGui::TextWrapped("%s", run_.error().c_str());
    ImGui::PopStyleColor();
  }
  if (!shows("tabs")) {  // an embed of one view, without the tab bar
    if (view_ == View::Inspector && has_inspector_) {
      inspector_.draw(run_.experiment(), run_.params(), run_.preset(), run_.seed());
    } else {
      view_ = View::Results;
      draw_sweep_results();
    }
    return;
  }
  if (!ImGui::BeginTabBar("views")) return;
  auto tab = [&](const char* label, View v) {
    const ImGuiTabItemFlags flags = select_tab_ && view_ == v ? ImGuiTabItemFlags_SetSelected : 0;
    const bool open = ImGui::BeginTabItem(label, nullptr, flags);
    if (open && !select_tab_) view_ = v;
    return open;
  };
  if (tab("Results", View::Results)) {
    draw_sweep_results();
    ImGui::EndTabItem();
  }
  if (has_inspector_ && tab("Inspector", View::Inspector)) {
    inspector_.draw(run_.experiment(), run_.params(), run_.preset(), run_.seed());
    ImGui::EndTabItem();
  }
  if (!reproduction_name_.empty() && tab("Reproduce the paper", View::Reproduction)) {
    draw_reproduction();
    ImGui::EndTabItem();
  }
  select_tab_ = false;
  ImGui::EndTabBar();
}

// [SECTION] The reproduction tab

void App::draw_reproduction() {
  if (ImGui::Button(reproduction_.started() ? "Restart" : "Start")) start_reproduction(paper_trials_);
  ImGui::SameLine();
  if (reproduction_.started() && !reproduction_.finished()) {
    if (ImGui::Button(reproduction_.paused() ? "Resume" : "Pause")) reproduction_.pause(!reproduction_.paused());
    ImGui::SameLine();
  }
  ImGui::Checkbox("paper's trial counts", &paper_trials_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("On: 1000 trials per point for Fig. 3 and 100 for Figs. 4, 5 and 7, as in the paper. "
                      "Off: 1000 everywhere (smoother curves, about ten times longer).");
  if (!reproduction_.started()) {
    ImGui::TextWrapped("Runs every figure panel of the paper (%zu presets) one after another with the seed %llu, "
                       "and draws each success curve as it grows.",
                       reproduction_panels(reproduction_name_).size(), static_cast<unsigned long long>(run_.seed()));
    return;
  }
  // The paper's figures, laid out as in the paper, from what has been computed so far.
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Figures as in the paper:");
  for (std::size_t i = 0; i < reproduction_.figure_count(); ++i) {
    ImGui::PushID(static_cast<int>(i));
    const std::string title = reproduction_.figure_title(i), name = title.substr(0, title.find(':'));
    // "Figure 4 [SVG] [PNG]" stays together; on a narrow screen the next one starts a new line.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float group = ImGui::CalcTextSize((name + " SVG PNG").c_str()).x + 4.0f * style.FramePadding.x +
                        3.0f * style.ItemInnerSpacing.x + style.ItemSpacing.x;
    ImGui::SameLine();
    if (ImGui::GetContentRegionAvail().x < group) ImGui::NewLine();
    ImGui::TextDisabled("%s", name.c_str());
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::SmallButton("SVG")) export_figure("reproduction-svg", static_cast<int>(i));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: every panel in the paper's rows and columns, as SVG", title.c_str());
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    if (ImGui::SmallButton("PNG")) export_figure("reproduction", static_cast<int>(i));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s: every panel in the paper's rows and columns, as PNG", title.c_str());
    ImGui::PopID();
  }
  const int open = reproduction_.draw();
  if (open >= 0) open_panel(open);
}

// [SECTION] Results: notes, plots and heatmaps
}  // namespace attnlab::ui
