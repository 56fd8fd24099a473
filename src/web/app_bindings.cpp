// The page's JS API (attnlab.app*): read the App's state back, drive it from the text twin
// (web/twin.js), tests and course pages. The twin edits through these hooks and writes no link:
// C++ decodes every link (lab/link_keys.hpp).
#include <emscripten/bind.h>

#include <nlohmann/json.hpp>
#include <string>

#include "imgui.h"
#include "imgui_internal.h"
#include "ui/text_contrast.hpp"
#include "web/page_glue.hpp"

namespace attnlab::web {
namespace {

using Json = nlohmann::ordered_json;

// The page's JS API: read the state back, drive it from tests and course pages.
std::string app_hash() { return app().hash(); }
std::string app_csv() { return app().csv(); }
std::string app_json() { return app().json(); }
std::string app_state() { return to_string(app().state()); }
double app_progress() { return app().progress(); }
// {"threads": N, "workers": true|false, "busy": N}: where runs compute, for tests and benchmarks.
std::string app_compute_json() {
  return Json{{"threads", app().threads()}, {"workers", app().computing_on_workers()}, {"busy", app().busy_workers()}}.dump();
}
std::string app_load_hash(const std::string& hash) {
  request_redraw();
  const std::string error = app().load_hash(hash);
  if (error.empty()) address_follows_link();
  return error;
}
void app_run() { app().run(), request_redraw(); }
// The toolbar's run buttons, for the twin: "run", "pause", "step" (Step run) or "reset"; "" or the
// error naming the allowed actions.
std::string app_run_control(const std::string& what) {
  request_redraw();
  return app().run_control(what);
}
// The twin's edits, as the canvas's controls make them (web/twin.js writes no link): "" or the error.
std::string app_set_param(const std::string& key, const std::string& value) {
  request_redraw();
  return app().set_param(key, value);
}
std::string app_select_preset(const std::string& name) {
  request_redraw();
  return app().select_preset(name);
}
std::string app_select_experiment(const std::string& id) {
  request_redraw();
  return app().open_experiment(id);
}
std::string app_open_story(const std::string& id) {
  request_redraw();
  const std::string error = app().open_story_by_id(id);
  publish_page_state();
  return error;
}
void app_go_home() {
  app().go_home();
  request_redraw();
  publish_page_state();
}
void app_free_lab() {
  app().free_lab();
  request_redraw();
  publish_page_state();
}
// The start page, the story step (with its prediction) and the preview: App::page_json().
std::string app_page_json() { return app().page_json(); }
std::string app_predict(double value) {
  request_redraw();
  const std::string error = app().predict(value);
  publish_page_state();  // the address carries the prediction at once (predict=)
  return error;
}
// A course page's resume (docs/design.md "Predictions kept"): the prediction for step `step`
// (1-based, as appPageJson's "step") of story `story`, as appPredict takes it (its "predicted");
// "" or the error, which names the step on screen when it is another.
std::string app_set_prediction(const std::string& story, int step, double value) {
  request_redraw();
  const std::string error = app().set_prediction(story, step, value);
  publish_page_state();
  return error;
}
// Back (-1) or Next (+1) in a story, as the toolbar's buttons.
std::string app_story_step(int delta) {
  request_redraw();
  const std::string error = app().story_step_by(delta);
  publish_page_state();  // the address names the new step at once (a history entry, as a click makes)
  return error;
}
std::string app_use_step_settings() {
  request_redraw();
  const std::string error = app().use_step_settings();
  publish_page_state();
  return error;
}
std::string app_inspector_json() { return app().inspector_json(); }
void app_reproduce(bool paper_trials) { app().start_reproduction(paper_trials), request_redraw(); }
std::string app_reproduction_json() { return app().reproduction_json(); }
std::string app_check_data_size(double bytes) {
  request_redraw();
  return app().check_data_size(bytes);
}
std::string app_load_data(const std::string& json) {
  request_redraw();
  return app().load_data(json);
}
void app_download(const std::string& kind) { app().download(kind); }
void app_share() { app().share(); }
std::string app_export_figure(const std::string& kind, int index) { return app().export_figure(kind, index); }
std::string app_plot_svg(int index) { return app().plot_svg(index); }
// The SVG text appExportFigure(kind, index) saves or rasterises ("" if none), for tests of the exports.
std::string app_figure_svg(const std::string& kind, int index) { return app().figure_svg(kind, index); }
// The figures on screen: {"plots": [{"title", "series": [names]}], "heatmaps": [titles],
// "reproduction": [the paper figures' titles]}, for tests of the exports.
std::string app_plots_json() { return app().plots_json(); }
// What the link made of the page: {"embed":true,"hidden":["n","seed"],"theme":"light","visible":[...]}
// with the parameter keys still shown, for tests and course pages.
std::string app_embed_json() {
  const EmbedOptions& o = app().embed_options();
  return Json{{"embed", o.embed}, {"hidden", o.hidden}, {"visible", app().visible_params()}, {"theme", to_string(app().theme_shown())}}
      .dump();
}
// The control keyboard focus is on ("Run", "Share", ...; "" if none): lets tests drive the page by keys.
std::string app_focused_control() { return app().focused_control(); }
void app_keyboard_arrived() {
  app().keyboard_arrived();
  request_redraw();
}
// The words Run's refusal uses for a field with a refused value (App::refused_value_message), for
// the twin's own fields.
std::string app_refused_value_message(std::string field_error) { return ui::App::refused_value_message(field_error); }
// The text view (view=text, web/twin.js): read it, and switch it from the twin's toolbar switch.
// Every plot's series and every heatmap's size, range and ringed entries (App::twin_figures_json), and
// a stamp that changes whenever the page's state or results do: the twin re-reads only then.
std::string app_twin_figures_json() { return app().twin_figures_json(); }
std::string app_twin_params_json() { return app().twin_params_json(); }
std::string app_story_hints_json() { return app().story_hints_json(); }
double app_change_stamp() { return static_cast<double>(app().change_stamp() & 0xFFFFFFFFFFFFull); }
// True while a text field on the canvas has the keyboard: Esc then leaves the field, not the canvas.
bool app_text_input() { return ImGui::GetCurrentContext() && ImGui::GetIO().WantTextInput; }
// A popup (a combo's list, the figures menu, a question such as "Leave the story?") is open: its
// Escape closes it, and the canvas keeps the focus (web/twin.js).
bool app_popup_open() { return ImGui::GetCurrentContext() && ImGui::IsPopupOpen("", ImGuiPopupFlags_AnyPopupId); }
bool app_text_view() { return app().text_view(); }
void app_set_text_view(bool on) {
  app().set_text_view(on);
  request_redraw();
  publish_page_state();  // the address says view=text at once
}
// Every text of the last frame drawn with its colour and the colour behind it, from the draw data
// (ui/text_contrast.hpp), for the contrast tests.
std::string app_text_runs_json() {
  const ImDrawData* draw = ImGui::GetCurrentContext() ? ImGui::GetDrawData() : nullptr;
  return draw ? ui::text_runs_json(ui::text_runs(*draw, ImGui::GetColorU32(ImGuiCol_WindowBg, 1.0f))) : "[]";
}
std::string app_run_button() {
  const float* r = app().run_button_rect();
  return Json{{"x", r[0]}, {"y", r[1]}, {"w", r[2]}, {"h", r[3]}}.dump();
}
// Whether the last frame drew a tooltip (ImGui's tooltip windows are "##Tooltip_NN").
bool tooltip_shown() {
  const ImGuiWindow* w = ImGui::GetCurrentContext() ? ImGui::FindWindowByName("##Tooltip_00") : nullptr;
  return w && w->Active;
}
// Where the story's question is on screen: {x, y, w, h, visible (whole, without scrolling its panel),
// compact (the page's compact view for a frame too small to use), choiceHeight (the least height of
// the prediction's choices, CSS px; 0 without choices), answerVisible, controlsWhole, tooltip}.
std::string app_question_rect() {
  const auto& q = app().question_rect();
  return Json{{"x", q.x}, {"y", q.y}, {"w", q.w}, {"h", q.h}, {"panelTop", q.panel_top}, {"panelBottom", q.panel_bottom},
              {"visible", q.visible}, {"compact", app().compact()},
              {"choiceHeight", q.choice_height}, {"answerVisible", q.answer_visible},
              {"controlsWhole", q.controls_whole}, {"tooltip", tooltip_shown()}}.dump();
}

}  // namespace
}  // namespace attnlab::web

using namespace attnlab::web;

EMSCRIPTEN_BINDINGS(attnlab_page) {
  emscripten::function("appHash", &app_hash);
  emscripten::function("appCsv", &app_csv);
  emscripten::function("appJson", &app_json);
  emscripten::function("appState", &app_state);
  emscripten::function("appProgress", &app_progress);
  emscripten::function("appComputeJson", &app_compute_json);
  emscripten::function("appLoadHash", &app_load_hash);
  emscripten::function("appRun", &app_run);
  emscripten::function("appRunControl", &app_run_control);
  emscripten::function("appPageJson", &app_page_json);
  emscripten::function("appPredict", &app_predict);
  emscripten::function("appStoryStep", &app_story_step);
  emscripten::function("appUseStepSettings", &app_use_step_settings);
  emscripten::function("appSetPrediction", &app_set_prediction);
  emscripten::function("appRunButton", &app_run_button);
  emscripten::function("appTextRunsJson", &app_text_runs_json);
  emscripten::function("appQuestionRect", &app_question_rect);
  emscripten::function("appInspectorJson", &app_inspector_json);
  emscripten::function("appReproduce", &app_reproduce);
  emscripten::function("appReproductionJson", &app_reproduction_json);
  emscripten::function("appLoadData", &app_load_data);
  emscripten::function("appCheckDataSize", &app_check_data_size);
  emscripten::function("appDownload", &app_download);
  emscripten::function("appShare", &app_share);
  emscripten::function("appExportFigure", &app_export_figure);
  emscripten::function("appPlotSvg", &app_plot_svg);
  emscripten::function("appFigureSvg", &app_figure_svg);
  emscripten::function("appPlotsJson", &app_plots_json);
  emscripten::function("appEmbedJson", &app_embed_json);
  emscripten::function("appFocusedControl", &app_focused_control);
  emscripten::function("appKeyboardArrived", &app_keyboard_arrived);
  emscripten::function("appRefusedValueMessage", &app_refused_value_message);
  emscripten::function("appTextView", &app_text_view);
  emscripten::function("appTextInput", &app_text_input);
  emscripten::function("appPopupOpen", &app_popup_open);
  emscripten::function("appTwinFiguresJson", &app_twin_figures_json);
  emscripten::function("appChangeStamp", &app_change_stamp);
  emscripten::function("appTwinParamsJson", &app_twin_params_json);
  emscripten::function("appStoryHintsJson", &app_story_hints_json);
  emscripten::function("appSetTextView", &app_set_text_view);
  emscripten::function("appSetParam", &app_set_param);
  emscripten::function("appSelectPreset", &app_select_preset);
  emscripten::function("appSelectExperiment", &app_select_experiment);
  emscripten::function("appOpenStory", &app_open_story);
  emscripten::function("appGoHome", &app_go_home);
  emscripten::function("appFreeLab", &app_free_lab);
}

