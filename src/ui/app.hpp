// The page: experiment picker, presets, generated controls, Run / Pause / Step / Reset, a progress
// bar and the plots. Knows nothing of the browser: src/web/ feeds it the URL hash and the functions
// that save files and copy text. Its logic lives in src/page (tested natively): the link state
// (page::LinkState), the main run on this thread or on workers (page::PageRun), a story's state
// (page::StoryState) and the JSON of what it shows (page/page_json.hpp). The App wires them and
// draws, one job per file: app.cpp the actions and links; app_frame.cpp the frame, controls and
// tabs; app_results.cpp the results pane; app_toolbar.cpp the toolbar; app_exports.cpp the
// downloads and figures; app_twin.cpp the JSON for the text twin and tests.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "imgui.h"

#include "lab/embed_options.hpp"
#include "lab/experiment.hpp"
#include "lab/link.hpp"
#include "lab/unit_scheduler.hpp"
#include "page/change_stamp.hpp"
#include "page/page_link.hpp"
#include "page/page_run.hpp"
#include "page/story_state.hpp"
#include "ui/embed_dialog.hpp"
#include "ui/inspector_view.hpp"
#include "ui/param_controls.hpp"
#include "ui/reproduction_view.hpp"
#include "ui/start_page.hpp"
#include "ui/story_panel.hpp"

namespace attnlab::ui {

constexpr int kMaxThreads = kMaxLinkThreads;  // a link's threads= (Web Workers), 0 for the main thread
// What the results area shows: the sweep's plots, the inspector, or the whole-paper reproduction.
enum class View { Results, Inspector, Reproduction };

class App {
 public:
  App();
  // Advances a running experiment (and a reproduction) by about `slice_seconds` on this thread,
  // or by what the workers sent back.
  void compute(double slice_seconds);
  // Draws one frame filling a `width` x `height` area.
  void frame(float width, float height);
  // Grows by one whenever a frame would show something new (results, state, view, progress steps).
  std::uint64_t change_stamp() const;

  // The page state as a URL hash (experiment, every parameter, seed; a story's step and the
  // student's changes to it; the start page's flags) and its inverse.
  std::string hash() const;
  // Applies a hash (from a link); returns "" or the error message (the state is unchanged then).
  // A link without exp= and story= opens the start page.
  std::string load_hash(const std::string& hash);
  // The start page as Home opens it (page::LinkState::home_link).
  void go_home();

  // A prediction for the story step on screen (a choice's index, or a number): "" or the error.
  std::string predict(double value);
  // The same for step `step` (1-based) of story `story`, refused unless that step is on screen: the
  // hook a course page's resume uses (docs/design.md "Predictions kept").
  std::string set_prediction(const std::string& story, int step, double value);
  // Opens the story step `delta` steps away (Back -1, Next +1); returns "" or the error.
  std::string story_step_by(int delta);
  // The step on screen again at its own settings, the student's prediction kept: the answer's
  // offer once the student has changed a setting. "" or the error.
  std::string use_step_settings();

  // The twin's edits (web/twin.js), as the canvas's controls make them; "" or the error (the state
  // is unchanged then). set_param takes a parameter's key or "seed"; select_preset "" for none.
  std::string set_param(const std::string& key, const std::string& value);
  std::string select_preset(const std::string& name);
  std::string open_experiment(const std::string& id);
  std::string open_story_by_id(const std::string& id);
  void free_lab();  // the start page's Free lab, a story step's Free lab
  // A run button by its name (page::kRunActions): "" or the error naming the allowed ones.
  std::string run_control(const std::string& action);

  void run() { run_.run(run_blocked()); }
  void pause() { run_.pause(); }
  void step_once() { run_.step_once(run_blocked()); }
  void reset() { run_.reset(); }
  RunState state() const { return run_.state(); }
  // Something is computing (a run or the reproduction): the page gives it most of each frame.
  bool batch_running() const { return reproduction_.started() && !reproduction_.finished() && !reproduction_.paused(); }
  bool busy() const { return run_.state() == RunState::Running || batch_running(); }
  double progress() const;
  // The downloads; a story step's say which step and the student's prediction (record_context).
  std::string csv() const { return run_.csv(record_context()); }
  std::string json() const { return run_.json(record_context()); }
  std::string status_text() const;  // one line for the screen-reader live region
  std::string story_status_text() const;  // status_text() in a story
  std::string inspector_json() const { return inspector_.json(); }
  // Starts the whole-paper reproduction of the current experiment's paper (the page's action).
  void start_reproduction(bool paper_trials);
  std::string reproduction_json() const { return reproduction_.started() ? reproduction_.json() : "{}"; }
  void forget_gl_objects() { inspector_.forget_gl_objects(), heatmaps_.forget_gl_objects(); }
  // User data for experiments that accept it (a regression problem file): "" or the error.
  std::string load_data(const std::string& json);
  // Refuses a data file by its size before it is read ("" when the size is allowed).
  std::string check_data_size(double bytes) { return run_.check_data_size(bytes); }

  // Set by the browser glue: opens a file picker whose text comes back through load_data().
  void set_file_picker(void (*open_picker)()) { open_picker_ = open_picker; }
  // Set by the browser glue: save text as a file; copy text (a link, a snippet) to the clipboard;
  // open a link in a new tab; and the page's own address (links are built on it).
  void set_exporters(void (*download)(const char* name, const char* mime, const char* text),
                     void (*copy_text)(const char* text, const char* what), void (*open_url)(const char* url),
                     const std::string& page_url);
  // Figure exports: an SVG rasterised by the browser as PNG.
  void set_figure_exporter(void (*svg_as_png)(const char* name, const char* svg)) { svg_as_png_ = svg_as_png; }
  // Set by the browser glue: the pool of Web Workers that computes runs off the main thread, and
  // its default size. Without one (or when no worker can start) runs compute in frame slices.
  void set_worker_pool(std::unique_ptr<WorkerPool> pool, int default_threads) { run_.set_worker_pool(std::move(pool), default_threads); }
  // The theme the page shows: a link's theme= wins over the viewer's preference (set by the glue).
  void set_preferred_theme(ThemeChoice t) { preferred_theme_ = t; }
  ThemeChoice theme_shown() const;

  const EmbedOptions& embed_options() const { return link_.embed(); }
  std::vector<std::string> visible_params() const;  // the parameter keys the page shows
  const std::string& focused_control() const { return focused_; }
  // The keyboard came to the canvas (Tab, from the page or a host page, or a first arrow key while
  // no control shows the keyboard's frame): in a story step before its run, the prediction takes
  // the keyboard focus (StoryPanel::focus_prediction). Returns whether it did.
  bool keyboard_arrived() {
    const bool asks = link_.in_story() && story_.step().prediction && run_.state() != RunState::Done;
    if (asks) story_panel_.focus_prediction();
    return asks;
  }
  // run_blocked()'s words for a field showing a refused value, `field_error` the schema's message;
  // the twin (web/twin.js) says the same for its own fields.
  static std::string refused_value_message(const std::string& field_error);
  // Workers computing runs: the link's threads= or the default; 0 computes on the main thread.
  int threads() const { return run_.threads(); }
  // The text view (a link's view=text): the page shows its DOM twin (web/twin.js) instead of the canvas.
  bool text_view() const { return link_.text_view(); }
  void set_text_view(bool on) { link_.set_text_view(on); }
  bool computing_on_workers() const { return run_.computing_on_workers(); }
  int busy_workers() const { return run_.pool() ? run_.pool()->busy() : 0; }
  // Screen rectangle (x, y, w, h in CSS pixels) of the Run button: lets browser tests click it.
  const float* run_button_rect() const { return run_button_rect_; }
  // Where the story's question is on screen (not visible without a story), and whether the page
  // shows its compact view (an embed in a frame too small to use, such as the browser's 300 x 150
  // left when a course site strips the iframe's size: the question and "Open full size").
  const StoryPanel::Placed& question_rect() const { return question_; }
  bool compact() const { return compact_; }

  // The Share / CSV / JSON buttons' actions (also the page API's, for tests and course pages);
  // app_exports.cpp.
  void share() const;
  void download(const std::string& kind) const;
  // Figure exports: kind "svg" or "png" for plot `index`, "heatmap-svg" or "heatmap" (PNG) for
  // heatmap `index`, "reproduction-svg" or "reproduction" (PNG) for the reproduction's paper figure
  // `index`; returns "" or why nothing was exported.
  std::string export_figure(const std::string& kind, int index) const;
  // The SVG text that export_figure(kind, index) saves (or rasterises); "" if there is none.
  std::string figure_svg(const std::string& kind, int index) const;
  std::string heatmap_svg(int index) const;  // heatmap `index` as SVG ("" if none), the colour scale on screen
  std::string plot_svg(int index) const;     // the SVG text of plot `index` ("" if none)

  // What the page shows, as JSON (app_twin.cpp; page/page_json.hpp has the fields).
  std::string page_json() const;
  std::string twin_figures_json() const;
  std::string twin_params_json() const;
  std::string story_hints_json() const;  // {"plot", "run"}: StoryPanel's hints, "" where none
  std::string plots_json() const;

 private:
  // app.cpp: actions and links
  void select_experiment(const std::string& id);
  void open_story(const std::string& id);   // its first step, keeping the embed settings
  std::string next_story_title() const;      // the next story's paper, "" after the last
  RunSettings story_settings() const;
  KeyValues record_context() const;         // a story step's: StoryState::record_context        // the step's settings beside the run's ("You changed ...")
  // Why Run and Step wait, or "": a field shows a refused value, or a story step awaits its prediction.
  std::string run_blocked() const;
  void apply_link(const Link& link);  // a decoded, valid link (lab/link.hpp)
  void params_edited();  // a parameter field changed: no preset describes the settings any more
  void open_panel(int panel);
  void show(View v);
  page::LinkSubject link_subject() const;
  bool showing_inputs() const;  // the results pane shows the picture of the run's inputs
  // Before Run in a story step, the empty frame of the plot it names (page/story_frame.hpp), drawn
  // first on the canvas and in the twin; nullptr otherwise. Prepared once per step.
  const Plot* story_frame() const;
  mutable std::string story_frame_for_;  // the step ("story#index") story_frame_ was made for
  mutable Plot story_frame_;
  // app_frame.cpp: the frame, the controls and the tabs
  void draw_controls();
  void draw_results();
  // The results panel, scrolled back to its top when a story's step changes or a run starts (the
  // named plot's title then shows first; walk 11: a step opened scrolled where the last one was).
  void draw_results_panel(ImVec2 size);
  void draw_reproduction();
  void draw_compact();
  // app_results.cpp: the results pane
  void draw_sweep_results();
  void draw_notes(const std::vector<std::string>& notes);
  // app_toolbar.cpp
  void draw_preview_banner();
  void draw_story_navigation();
  // Asks before the start page replaces a step with a prediction or a run (walk 13: a Space on
  // "Attention Lab", reached by Arrow Up, lost the step without a word).
  void draw_leave_story_question();
  void draw_toolbar();
  void draw_preset_picker();
  void draw_run_buttons();
  void draw_seed_field();
  void draw_progress();
  void draw_export_buttons();
  void draw_figures_popup();
  void draw_theme_picker();
  void draw_threads_picker();
  void open_full_lab() const;  // this state in the full lab, in a new tab
  bool shows(const char* group) const { return !link_.embed().hides(group); }
  void note_focus(const char* name) {
    if (ImGui::IsItemFocused()) focused_ = name;
  }
  // app_exports.cpp
  // "separation.toy-fig3b-seed1.csv"; `what` names a figure ("plot2", "heatmap1") or is empty.
  std::string export_name(const char* extension, const std::string& what = "") const;
  std::string figure_prefix() const;  // "inspect-p2-t0-" for the inspector's figures, else ""
  // The figures of the tab on screen: the inspection's in the Inspector, else the run's, or before
  // the run has results the picture of its inputs.
  const Results& figure_results() const;
  bool inspector_figures() const;  // figure_results() are the inspection's

  page::PageRun run_;     // the experiment on screen, its settings and its run
  page::LinkState link_;  // the page open, the embed options, the preview
  page::StoryState story_;
  StoryPanel story_panel_;
  mutable page::ChangeStamp stamp_;
  ParamControls controls_;
  char seed_text_[16] = "1";
  float run_button_rect_[4] = {0, 0, 0, 0};
  StoryPanel::Placed question_;
  std::string results_scrolled_for_;  // the step and run the results panel was last scrolled to the top for
  float controls_content_h_ = 0.0f;  // the controls' content height, last frame (a stacked panel grows to it)
  // Of the height under the toolbar: the results keep at least their tab row in sight.
  static constexpr float kControlsShareMost = 0.94f;
  bool compact_ = false;
  // The log switches, view options: unset, each plot keeps the scale it declares; set, every plot
  // takes it. The switches show the first plot's scale while unset.
  std::optional<bool> log_x_, log_y_;
  void apply_log_switches(Plot& plot) const;  // not to an index axis
  void draw_log_switches(const Plot& first);    // above the plots, never above a map alone
  View view_ = View::Results;
  bool select_tab_ = false;  // the tab bar should switch to view_ (after a link or an action)
  bool has_inspector_ = false;
  std::string reproduction_name_;  // the paper of the current experiment, "" if none
  InspectorView inspector_;
  HeatmapWidget heatmaps_;  // the results' heatmaps (e.g. a contour of the loss)
  ReproductionView reproduction_;
  bool paper_trials_ = true;
  void (*open_picker_)() = nullptr;
  void (*download_)(const char*, const char*, const char*) = nullptr;
  void (*copy_text_)(const char*, const char*) = nullptr;
  void (*open_url_)(const char*) = nullptr;
  void (*svg_as_png_)(const char*, const char*) = nullptr;
  std::string page_url_;
  // A story to open at the end of the frame (the last step's "Next story"); "" opens the start page.
  std::optional<std::string> pending_story_;
  StartPage start_;
  ThemeChoice preferred_theme_ = ThemeChoice::Dark;
  EmbedDialog embed_dialog_;
  std::string focused_;  // the toolbar control or parameter field (its key) with keyboard focus, for tests
};

}  // namespace attnlab::ui
