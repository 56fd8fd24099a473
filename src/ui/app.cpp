// The App's actions and links (ui/app.hpp): opening experiments, stories and links, the run's
// status, and the change stamp. The logic they call lives in src/page.
//
// Index of this file
// [SECTION] Experiments, data and the reproduction
// [SECTION] The twin's edits
// [SECTION] Stories
// [SECTION] The run and its status
// [SECTION] Links and embeds
#include "ui/app.hpp"

#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"

namespace attnlab::ui {

// [SECTION] Experiments, data and the reproduction

App::App() { select_experiment(experiment_ids().front()); }

namespace {
// The reproduction (paper) an experiment belongs to, or "".
std::string reproduction_of(const std::string& id) {
  for (const auto& name : reproduction_names())
    for (const auto& panel : reproduction_panels(name))
      if (panel.experiment == id) return name;
  return "";
}
}  // namespace

void App::set_exporters(void (*download)(const char*, const char*, const char*), void (*copy_text)(const char*, const char*),
                        void (*open_url)(const char*), const std::string& page_url) {
  download_ = download;
  copy_text_ = copy_text;
  open_url_ = open_url;
  page_url_ = page_url;
}

void App::select_experiment(const std::string& id) {
  run_.open(id);
  controls_.forget_edits();
  link_.keep_hidden_of(run_.experiment().schema());  // hidden keys were the previous experiment's
  has_inspector_ = run_.experiment().has_inspector();
  reproduction_name_ = reproduction_of(id);
  if ((view_ == View::Inspector && !has_inspector_) || (view_ == View::Reproduction && reproduction_name_.empty()))
    show(View::Results);
}

std::string App::load_data(const std::string& json) {
  const std::string error = run_.load_data(json);
  if (error.empty()) controls_.forget_edits();
  return error;
}

void App::params_edited() {
  run_.forget_preset();
  run_.settings_changed();
}

void App::show(View v) {
  view_ = v;
  select_tab_ = true;
}

void App::start_reproduction(bool paper_trials) {
  try {
    if (reproduction_name_.empty()) throw ParamError("experiment '" + run_.experiment().info().id + "' has no paper reproduction");
    paper_trials_ = paper_trials;
    reproduction_.stop_workers(run_.pool());
    reproduction_.start(reproduction_name_, paper_trials, run_.seed());
    show(View::Reproduction);
  } catch (const std::exception& e) {
    run_.set_error(e.what());
  }
}

void App::open_panel(int panel) {
  Params params;
  std::string preset;
  std::uint64_t seed = run_.seed();
  std::unique_ptr<Experiment> run = reproduction_.take(panel, params, preset, seed);
  if (!run) return;
  select_experiment(run->info().id);
  run_.open_finished(std::move(run), params, preset, seed);  // computed by the reproduction: Done
  std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed));
  show(View::Results);
}

// [SECTION] The twin's edits

std::string App::set_param(const std::string& key, const std::string& value) {
  try {
    if (key == "seed") {
      run_.set_seed(parse_seed(value));
      std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(run_.seed()));
      run_.settings_changed();
      return "";
    }
    Params edited = run_.params();
    run_.experiment().schema().set(edited, key, value);  // throws ParamError naming the key and what is allowed
    run_.params() = edited;
    controls_.forget_edits();
    params_edited();
    return "";
  } catch (const ParamError& e) {
    return e.what();
  }
}

std::string App::select_preset(const std::string& name) {
  try {
    run_.apply(run_.experiment().make_params(name, {}), name, run_.seed());
    controls_.forget_edits();
    run_.settings_changed();
    return "";
  } catch (const ParamError& e) {
    return e.what();
  }
}

std::string App::open_experiment(const std::string& id) {
  try {
    select_experiment(id);
    link_.leave_story();
    link_.leave_start_page();
    return "";
  } catch (const ParamError& e) {
    return e.what();
  }
}

std::string App::open_story_by_id(const std::string& id) {
  try {
    open_story(id);
    return "";
  } catch (const ParamError& e) {
    return e.what();
  }
}

void App::free_lab() {
  if (link_.start_page()) link_.leave_start_page(), reset();
  link_.leave_story();
}

std::string App::run_control(const std::string& action) {
  try {
    switch (page::kRunActions.decode("action", action)) {
      case page::RunAction::Run: run(); break;
      case page::RunAction::Pause: pause(); break;
      case page::RunAction::Step: step_once(); break;
      case page::RunAction::Reset: reset(); break;
    }
    return "";
  } catch (const ParamError& e) {
    return e.what();
  }
}

// [SECTION] Stories

void App::open_story(const std::string& id) { load_hash(link_.open_story_link(story(id), run_.threads_setting())); }


std::string App::next_story_title() const {
  const std::string id = page::next_story_id(stories(), story_.story().id);
  return id.empty() ? "" : story(id).paper;
}

std::string App::predict(double value) {
  return link_.in_story() ? story_.predict(value) : "story: no story step is open";
}

std::string App::set_prediction(const std::string& story, int step, double value) {
  if (!link_.in_story()) return "story: no story step is open";
  if (step < 1) return "story: step " + std::to_string(step) + " is not allowed; allowed: a step from 1";
  return story_.predict_at(story, static_cast<std::size_t>(step - 1), value);
}

KeyValues App::record_context() const {
  return link_.in_story() ? story_.record_context(run_.results(), run_.state() == RunState::Done) : KeyValues{};
}

std::string App::story_step_by(int delta) {
  if (!link_.in_story()) return "story: no story step is open";
  try {
    return load_hash(link_.story_step_link(story_, story_.step_by(delta), run_.threads_setting()));
  } catch (const ParamError& e) {
    return e.what();
  }
}

std::string App::use_step_settings() {
  if (!link_.in_story()) return "story: no story step is open";
  const std::optional<double> kept = story_.prediction();
  const std::string error = story_step_by(0);
  return error.empty() && kept ? story_.predict(*kept) : error;
}

std::string App::refused_value_message(const std::string& field_error) {
  return "A field shows a value that was refused (" + field_error + "): correct it first";
}

std::string App::run_blocked() const {
  const std::string field = controls_.first_error();
  if (!field.empty()) return refused_value_message(field);
  if (link_.in_story() && story_.awaiting_prediction()) return "Make your prediction first";
  return "";
}

// [SECTION] The run and its status

double App::progress() const {
  if (view_ == View::Reproduction && reproduction_.started()) return reproduction_.progress();
  return run_.progress();
}

// Until the run has something to show (docs/design.md "The picture before a run").
bool App::showing_inputs() const {
  return !link_.start_page() && run_.results().plots.empty() && run_.results().heatmaps.empty();
}

std::string App::status_text() const {
  if (link_.start_page()) return "Attention Lab: the start page, each paper as a guided story, and the free lab";
  if (view_ == View::Reproduction && reproduction_.started())
    return reproduction_.status_text() + (batch_running() ? ". " + run_.compute_text() : std::string());
  if (link_.in_story()) return story_status_text();
  // Said when something changes that a listener needs: the state, each further tenth of the
  // progress, and, once the run stops, its key numbers (the first notes, kept short).
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %s, %d%% done", run_.experiment().info().title.c_str(), to_string(run_.state()),
                10 * static_cast<int>(10.0 * progress() + 1e-9));
  std::string s = buf;
  const bool stopped = run_.state() != RunState::Running;
  const std::vector<std::string>& notes = view_ == View::Inspector ? inspector_.results().notes : run_.results().notes;
  if (view_ == View::Inspector) s += ". Inspector, sweep point " + std::to_string(inspector_.point()) + ", trial " +
                                     std::to_string(inspector_.trial());
  for (std::size_t i = 0; stopped && i < notes.size() && i < 3 && s.size() < 400; ++i)
    s += (s.back() == '.' ? " " : ". ") + notes[i];
  if (link_.in_story()) s = story_.story().id + " story, step " + std::to_string(story_.step_index() + 1) + " of " +
                            std::to_string(story_.story().steps.size()) + ": " + story_.step().title + ". " + s;
  if (showing_inputs() && run_.state() == RunState::Idle && !run_.inputs().plots.empty())
    s += ". Before the run: a picture of its inputs";
  if (!run_.error().empty()) s += ". Error: " + run_.error();
  if (run_.state() == RunState::Running) s += ". " + run_.compute_text();
  if (!run_.scheduler().rerun_text().empty()) s += ". " + run_.scheduler().rerun_text();
  return s;
}

// In a story the live region says only what a student needs, in the story's words (docs/design.md,
// "Keyboard and screen reader"): the step and what to do, then "Running, 40%" by tenths (at most
// 90% until the run is done), then once "Answer ready" (and on the last step "Story finished"); an
// error in plain words. No run notes, no worker counts: those stay in the page.
std::string App::story_status_text() const {
  std::string s = "Step " + std::to_string(story_.step_index() + 1) + " of " +
                  std::to_string(story_.story().steps.size()) + ": " + story_.step().title + ". ";
  const int tenths = std::min(9, static_cast<int>(10.0 * progress() + 1e-9));
  switch (run_.state()) {
    case RunState::Running: s = "Running, " + std::to_string(10 * tenths) + "%."; break;
    case RunState::Paused: s = "Paused, " + std::to_string(10 * tenths) + "%."; break;
    case RunState::Done: s += story_.last_step() ? "Answer ready. Story finished." : "Answer ready."; break;
    case RunState::Failed: s += "The run failed."; break;
    default: s += story_.awaiting_prediction() ? "Pick your answer, then press Run." : "Press Run."; break;
  }
  if (!run_.error().empty()) s += " The run stopped: " + run_.error();
  return s;
}

void App::compute(double slice_seconds) {
  if (link_.start_page()) return start_.compute();
  run_.compute(slice_seconds);
  if (reproduction_.started())
    reproduction_.advance(slice_seconds, run_.pool() && threads() > 0 ? run_.pool() : nullptr, threads());
}

std::uint64_t App::change_stamp() const {
  // What a redraw would show differently: new results, another state or view, a step of the
  // progress bar (1/400), an error, another page or step, a scroll to the answer still asked.
  const std::uint64_t page = link_.start_page() ? start_.version() : link_.in_story() ? story_.step_index() + 1 : 0;
  return stamp_.observe({run_.controller().version(), static_cast<std::uint64_t>(run_.state()),
                         static_cast<std::uint64_t>(view_), static_cast<std::uint64_t>(400.0 * progress()),
                         std::hash<std::string>()(run_.error()), run_.inputs_version(), page,
                         static_cast<std::uint64_t>(link_.page()),
                         static_cast<std::uint64_t>(story_panel_.answer_scrolls_left())});
}

// The run's settings beside the step's, for the answer's "You changed ..." sentence.
RunSettings App::story_settings() const {
  const StoryStep& step = story_.step();
  const Experiment& x = run_.experiment();
  KeyValues labels;
  for (const ParamSpec& spec : x.schema().specs()) labels.emplace_back(spec.key, spec.label);
  // The seed too: another seed draws other data, and the answer says so.
  KeyValues at_step = x.schema().to_key_values(x.make_params(step.settings.preset, step.settings.params));
  KeyValues yours = x.schema().to_key_values(run_.params());
  at_step.emplace_back("seed", std::to_string(step.settings.seed));
  yours.emplace_back("seed", std::to_string(run_.seed()));
  return {std::move(at_step), std::move(yours), std::move(labels)};
}

// [SECTION] Links and embeds

page::LinkSubject App::link_subject() const {
  return {&run_.experiment(), &run_.params(), run_.preset(), run_.seed(), run_.threads_setting(),
          view_ == View::Inspector, inspector_.point(), inspector_.trial(), link_.in_story() ? &story_ : nullptr};
}

// While the teacher previews, the address keeps the page's own state (a reload leaves the preview).
std::string App::hash() const { return link_.address(link_subject()); }

std::vector<std::string> App::visible_params() const {
  std::vector<std::string> keys;
  for (const auto& s : run_.experiment().schema().specs())
    if (!link_.embed().hides_param(s.key)) keys.push_back(s.key);
  return keys;
}

ThemeChoice App::theme_shown() const {
  return link_.embed().theme != ThemeChoice::Default ? link_.embed().theme : preferred_theme_;
}

std::string App::load_hash(const std::string& hash) {
  const Link link = decode_link(hash, link_catalogue(), run_.experiment().info().id);
  if (!link.refused()) {
    apply_link(link);
    return "";
  }
  if (link.salvaged_embed && !link.salvaged_experiment.empty() && link.salvaged_experiment != run_.experiment().info().id)
    select_experiment(link.salvaged_experiment);
  link_.salvage(link);  // the lab shows why the link was refused
  run_.set_error("link not applied: " + link.refusal);
  return link.refusal;
}

void App::go_home() { load_hash(link_.home_link(run_.threads_setting())); }

void App::apply_link(const Link& link) {
  if (link.page == LinkPage::Start) {
    run_.reset();
    link_.apply(link);
    run_.set_threads(link.threads);
    return;
  }
  select_experiment(link.experiment);
  run_.apply(link.params, link.preset, link.seed.value_or(run_.seed()));
  link_.apply(link);
  if (link.story) story_.open(story(link.story->story), *link.story);  // with the link's prediction
  run_.set_threads(link.threads);
  std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(run_.seed()));
  controls_.forget_edits();
  run_.reset();
  inspector_.select(link.point, link.trial);
  show(link.view == LinkView::Inspector && has_inspector_ ? View::Inspector : View::Results);
  // Students without a Run button get a running experiment; so do steps that start by themselves.
  if (link.run) run();
}

}  // namespace attnlab::ui
