// The page: experiment picker, presets, generated controls, Run / Pause / Step / Reset, a progress
// bar and the plots. Work runs in time slices of a few milliseconds per frame
// (docs/design.md "The step(budget) contract, written once"). Knows nothing of the browser: src/web/ feeds it the URL hash and
// the functions that save files and copy text. app.cpp holds the state, links and views;
// app_toolbar.cpp draws the toolbar; app_exports.cpp makes the downloads and figures.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "imgui.h"

#include "lab/embed_options.hpp"
#include "lab/experiment.hpp"
#include "lab/link.hpp"
#include "lab/run_controller.hpp"
#include "lab/story.hpp"
#include "lab/url_hash.hpp"
#include "ui/embed_dialog.hpp"
#include "ui/inspector_view.hpp"
#include "ui/param_controls.hpp"
#include "ui/reproduction_view.hpp"
#include "ui/start_page.hpp"
#include "ui/story_panel.hpp"
#include "ui/unit_scheduler.hpp"

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
  // Changes whenever a frame would show something new (results, state, view, progress steps).
  std::uint64_t change_stamp() const;

  // The page state as a URL hash (experiment, every parameter, seed; a story's step and the
  // student's changes to it; "" for the start page) and its inverse.
  std::string hash() const;
  // Applies a hash (from a link); returns "" or the error message (the state is unchanged then).
  // A link without exp= and story= opens the start page.
  std::string load_hash(const std::string& hash);

  // What the page shows, for tests and course pages: {"page": "start" | "lab" | "story", "story":
  // the step (StoryPanel::json) or null, "inputs": the titles of the picture of the run's inputs
  // shown before Run (Experiment::inputs) or null, "runBlocked": why Run waits ("" when it does not), "cards": the start page's figures}.
  std::string page_json() const;
  // A prediction for the story step on screen (a choice's index, or a number): "" or the error.
  std::string predict(double value) { return in_story_ ? story_.predict(value) : "story: no story step is open"; }
  // Opens the story step `delta` steps away (Back -1, Next +1); returns "" or the error.
  std::string story_step_by(int delta);

  void run();
  void pause() { if (run_.state() == RunState::Running) run_.set_state(RunState::Paused); }
  void step_once();
  void reset();

  RunState state() const { return run_.state(); }
  // Something is computing (a run or the reproduction): the page gives it most of each frame.
  bool batch_running() const { return reproduction_.started() && !reproduction_.finished() && !reproduction_.paused(); }
  bool busy() const {
    return run_.state() == RunState::Running || (reproduction_.started() && !reproduction_.finished() && !reproduction_.paused());
  }
  double progress() const;
  std::string csv() const;   // the current results as CSV (with every parameter and the seed)
  std::string json() const;
  std::string status_text() const;  // one line for the screen-reader live region
  std::string inspector_json() const { return inspector_.json(); }
  // Starts the whole-paper reproduction of the current experiment's paper (the page's action).
  void start_reproduction(bool paper_trials);
  std::string reproduction_json() const { return reproduction_.started() ? reproduction_.json() : "{}"; }
  void forget_gl_objects() { inspector_.forget_gl_objects(), heatmaps_.forget_gl_objects(); }
  // User data for experiments that accept it (a regression problem file): "" or the error.
  std::string load_data(const std::string& json);
  // Refuses a data file by its size before it is read ("" when the size is allowed); the loaded
  // data and the parameters stay as they are either way.
  std::string check_data_size(double bytes);
  // Set by the browser glue: opens a file picker whose text comes back through load_data().
  void set_file_picker(void (*open_picker)()) { open_picker_ = open_picker; }
  // Set by the browser glue: save text as a file; copy text (a link, a snippet) to the clipboard;
  // open a link in a new tab; and the page's own address (links are built on it).
  void set_exporters(void (*download)(const char* name, const char* mime, const char* text),
                     void (*copy_text)(const char* text, const char* what), void (*open_url)(const char* url),
                     const std::string& page_url) {
    download_ = download;
    copy_text_ = copy_text;
    open_url_ = open_url;
    page_url_ = page_url;
  }
  // Figure exports: an SVG rasterised by the browser as PNG, and binary downloads.
  void set_figure_exporter(void (*svg_as_png)(const char* name, const char* svg)) { svg_as_png_ = svg_as_png; }
  const EmbedOptions& embed_options() const { return embed_; }
  std::vector<std::string> visible_params() const;  // the parameter keys the page shows
  const std::string& focused_control() const { return focused_; }
  // run_blocked()'s words for a field showing a refused value, `field_error` the schema's message;
  // the twin (web/twin.js) says the same for its own fields.
  static std::string refused_value_message(const std::string& field_error);
  // The theme the page shows: a link's theme= wins over the viewer's preference (set by the glue).
  void set_preferred_theme(ThemeChoice t) { preferred_theme_ = t; }
  ThemeChoice theme_shown() const;
  // Set by the browser glue: the pool of Web Workers that computes runs off the main thread, and
  // its default size. Without one (or when no worker can start) runs compute in frame slices.
  void set_worker_pool(std::unique_ptr<WorkerPool> pool, int default_threads);
  // Workers computing runs: the link's threads= or the default; 0 computes on the main thread.
  int threads() const { return threads_ >= 0 ? threads_ : default_threads_; }
  // The text view (a link's view=text): the page shows its DOM twin (web/twin.js) instead of the canvas.
  bool text_view() const { return text_view_; }
  void set_text_view(bool on) { text_view_ = on; }
  bool computing_on_workers() const { return pool_ && threads() > 0 && !pool_->failed(); }
  int busy_workers() const { return pool_ ? pool_->busy() : 0; }
  // Screen rectangle (x, y, w, h in CSS pixels) of the Run button: lets browser tests click it.
  const float* run_button_rect() const { return run_button_rect_; }

 private:
  void select_experiment(const std::string& id);
  std::string story_hash(const EmbedOptions& embed, bool run) const;
  RunSettings story_settings() const;
  KeyValues page_flags(const EmbedOptions& embed, bool run) const;  // embed, hide, theme, run, threads
  void draw_story_navigation();
  void go_home();  // the start page, keeping the theme
  void open_story(const std::string& id);  // its first step, keeping the embed settings
  std::string next_story_id() const;        // the story after the open one, "" after the last
  std::string next_story_title() const;     // its paper's title, "" after the last
  // Why Run and Step wait, or "": a field shows a refused value, or a story step awaits its prediction.
  std::string run_blocked() const;
  void apply_link(const Link& link);  // a decoded, valid link (lab/link.hpp)
  void salvage_embed(const Link& link);  // after a refused link: keep its embed settings
  void params_changed();
  void advance(const Budget& budget);
  void draw_toolbar();
  void draw_preset_picker();
  void draw_run_buttons();
  void draw_seed_field();
  void draw_progress();
  void draw_export_buttons();
  void draw_figures_popup();
  void draw_theme_picker();
  void draw_threads_picker();
  void stop_workers();  // cancels the units in flight, if any
  std::string compute_text() const;  // where the run computes, for the status line
  void draw_preview_banner();
  void draw_controls();
  void draw_results();
  void draw_sweep_results();
  void draw_notes(const std::vector<std::string>& notes);
  void draw_reproduction();
  void open_panel(int panel);
  void show(View v);

  // The main run: the experiment on screen, its state, results and error (lab/run_controller.hpp).
  // params_ and seed_ are the settings on screen; every change of them resets the run to them.
  RunController run_;
  Params params_;
  std::string preset_;
  std::uint64_t seed_ = 1;
  std::string error_;  // the message line: the run's error, a refused link, a refused seed
  ParamControls controls_;
  char seed_text_[16] = "1";
  float run_button_rect_[4] = {0, 0, 0, 0};
  bool log_x_ = false, log_y_ = false;  // view options, not experiment parameters
  View view_ = View::Results;
  bool select_tab_ = false;  // the tab bar should switch to view_ (after a link or an action)
  bool has_inspector_ = false;
  std::string reproduction_name_;  // the paper of the current experiment, "" if none
  InspectorView inspector_;
  HeatmapWidget heatmaps_;  // the results' heatmaps (e.g. a contour of the loss)
  void (*open_picker_)() = nullptr;
  void (*download_)(const char*, const char*, const char*) = nullptr;
  void (*copy_text_)(const char*, const char*) = nullptr;
  void (*open_url_)(const char*) = nullptr;
  void (*svg_as_png_)(const char*, const char*) = nullptr;
  std::string page_url_;
  // "separation.toy-fig3b-seed1.csv"; `what` names a figure ("plot2", "heatmap1") or is empty.
  std::string export_name(const char* extension, const std::string& what = "") const;
  std::string hash_with(const EmbedOptions& embed, bool run) const;
  std::string figure_prefix() const;  // "inspect-p2-t0-" for the inspector's figures, else ""
  EmbedOptions embed_;  // from the link: embedded, hidden controls, theme
  std::string before_preview_hash_;  // the page's own state while the teacher previews an embed
  bool previewing_ = false;  // the teacher is looking at the embed as students will
  // A story to open at the end of the frame (the last step's "Next story"); "" opens the start page.
  std::optional<std::string> pending_story_;
  bool start_page_ = true;   // the link named no experiment and no story
  StartPage start_;
  bool in_story_ = false;    // a story's step is on screen (story_)
  StoryPanel story_;
  // The picture of the run's inputs (Experiment::inputs), drawn at every reset and shown in the
  // results pane until the run has results; a refusal of the settings leaves it empty.
  Results inputs_;
  unsigned inputs_version_ = 0;
  bool showing_inputs() const;
  ThemeChoice preferred_theme_ = ThemeChoice::Dark;
  EmbedDialog embed_dialog_;
  bool shows(const char* group) const { return !embed_.hides(group); }
  std::string focused_;  // the toolbar control or parameter field (its key) with keyboard focus, for tests
  void note_focus(const char* name) {
    if (ImGui::IsItemFocused()) focused_ = name;
  }

 public:
  // The Share / CSV / JSON buttons' actions (also the page API's, for tests and course pages).
  void share() const;
  void download(const std::string& kind) const;
  // Figure exports: kind "svg" or "png" for plot `index`, "heatmap-svg" or "heatmap" (PNG) for
  // heatmap `index`, "reproduction-svg" or "reproduction" (PNG) for the reproduction's paper figure
  // `index`; returns "" or why nothing was exported.
  std::string export_figure(const std::string& kind, int index) const;
  // The SVG text that export_figure(kind, index) saves (or rasterises); "" if there is none.
  std::string figure_svg(const std::string& kind, int index) const;
  std::string heatmap_svg(int index) const;  // heatmap `index` as SVG ("" if none), the colour scale on screen
  // The figures of the tab on screen: the inspection's in the Inspector, else the run's, or before the run has
  // results the picture of its inputs.
  const Results& figure_results() const;
  bool inspector_figures() const;  // figure_results() are the inspection's
  std::string plot_svg(int index) const;  // the SVG text of plot `index` ("" if none)
  // The figures' data for the page's text twin (web/twin.js): every plot's labels and series, every
  // heatmap's size, range and ringed entries; "inputs": true while they are the picture of the inputs.
  std::string twin_figures_json() const;
  // The controls for the twin: {"experiment", "preset", "seed", "params": {key: value as the link writes
  // it}, "visible": [keys shown], "error": the refused value's message or ""}.
  std::string twin_params_json() const;
  std::string plots_json() const;  // {"plots": [{"title", "series": [names]}], "heatmaps": [titles], "reproduction": [titles]}
  std::string data_status_;
  std::string data_text_;  // the loaded data file, for the workers
  std::unique_ptr<WorkerPool> pool_;
  int threads_ = -1;  // -1: the default (a link's threads= sets it)
  bool text_view_ = false;  // view=text
  int default_threads_ = 0;
  UnitScheduler scheduler_;
  ReproductionView reproduction_;
  bool paper_trials_ = true;
};

}  // namespace attnlab::ui
