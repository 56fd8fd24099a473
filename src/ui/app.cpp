// The App's state, links and views (ui/app.hpp); toolbar: app_toolbar.cpp; downloads: app_exports.cpp.
//
// Index of this file
// [SECTION] Experiment, data and reproduction
// [SECTION] The run and its status
// [SECTION] Links and embeds
// [SECTION] Computing in time slices
// [SECTION] The frame, the controls and the tabs
// [SECTION] The reproduction tab
// [SECTION] Results: notes, plots and heatmaps
// [SECTION] What the page shows; story steps
#include "ui/app.hpp"

#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "experiments/stories.hpp"
#include "imgui.h"
#include "lab/plot_ticks.hpp"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"
#include "lab/text.hpp"

namespace attnlab::ui {

// [SECTION] Experiment, data and reproduction

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

void App::select_experiment(const std::string& id) {
  run_.open(make_experiment(id), run_.params(), seed_);
  data_status_.clear();
  data_text_.clear();
  params_ = run_.experiment().schema().defaults();
  preset_.clear();
  controls_.forget_edits();
  reset();
  // Hidden parameter keys belong to the previous experiment's schema; the groups stay.
  for (auto it = embed_.hidden.begin(); it != embed_.hidden.end();) {
    it = is_control_group(*it) || run_.experiment().schema().find(*it) ? std::next(it) : embed_.hidden.erase(it);
  }
  has_inspector_ = run_.experiment().has_inspector();
  reproduction_name_ = reproduction_of(id);
  if ((view_ == View::Inspector && !has_inspector_) || (view_ == View::Reproduction && reproduction_name_.empty()))
    show(View::Results);
}

std::string App::load_data(const std::string& json) {
  try {
    run_.experiment().set_data(json);
    data_text_ = json;
    const Experiment::DataSelector selector = run_.experiment().data_selector();
    run_.experiment().schema().set(params_, selector.key, selector.value);
    preset_.clear();
    controls_.forget_edits();
    data_status_ = "Data file loaded (" + std::to_string(json.size()) + " bytes); the experiment now uses it.";
    params_changed();
    return "";
  } catch (const std::exception& e) {
    data_status_ = std::string("Data file not loaded: ") + e.what();
    return e.what();
  }
}

std::string App::check_data_size(double bytes) {
  try {
    Experiment::check_data_size(bytes > 0.0 ? static_cast<std::uintmax_t>(std::min(bytes, 1e18)) : 0);
    return "";
  } catch (const std::exception& e) {
    data_status_ = std::string("Data file not loaded: ") + e.what();
    return e.what();
  }
}

void App::show(View v) {
  view_ = v;
  select_tab_ = true;
}

void App::start_reproduction(bool paper_trials) {
  try {
    if (reproduction_name_.empty()) throw ParamError("experiment '" + run_.experiment().info().id + "' has no paper reproduction");
    paper_trials_ = paper_trials;
    reproduction_.stop_workers(pool_.get());
    reproduction_.start(reproduction_name_, paper_trials, seed_);
    show(View::Reproduction);
  } catch (const std::exception& e) {
    error_ = e.what();
  }
}

void App::open_panel(int panel) {
  Params params;
  std::string preset;
  std::uint64_t seed = seed_;
  std::unique_ptr<Experiment> run = reproduction_.take(panel, params, preset, seed);
  if (!run) return;
  const std::string id = run->info().id;
  select_experiment(id);
  params_ = params;
  preset_ = preset;
  seed_ = seed;
  std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
  run_.open_finished(std::move(run), params_, seed_);  // computed by the reproduction: Done
  show(View::Results);
}

// [SECTION] The run and its status

void App::params_changed() {
  // Results always belong to the parameters on screen: a change discards the old run.
  const bool was_running = run_.state() == RunState::Running;
  reset();
  if (was_running) run();
}

void App::set_worker_pool(std::unique_ptr<WorkerPool> pool, int default_threads) {
  pool_ = std::move(pool);
  default_threads_ = std::max(1, default_threads);
}

void App::stop_workers() { scheduler_.stop(pool_.get()); }

void App::reset() {
  stop_workers();
  scheduler_ = UnitScheduler();  // forgets the last run's reruns
  run_.reset(params_, seed_);
  error_.clear();
  ++inputs_version_;
  try {
    inputs_ = run_.experiment().inputs(params_, seed_);
  } catch (const std::exception&) {  // a run these settings cannot make: Run says why
    inputs_ = Results();
  }
}

// Until the run has something to show (docs/design.md "The picture before a run").
bool App::showing_inputs() const {
  return !start_page_ && run_.results().plots.empty() && run_.results().heatmaps.empty();
}

void App::advance(const Budget& budget) {
  run_.advance([&](Experiment& experiment) {
    if (computing_on_workers() && run_.state() == RunState::Running) {
      // The workers compute; this thread posts units, absorbs partials and redraws what changed.
      pool_->resize(threads());
      if (!pool_->ready()) return false;  // still starting (a failure falls back on the next frame)
      if (!scheduler_.active())
        scheduler_.start({{&experiment, UnitScheduler::spec_json(experiment, params_, seed_, data_text_)}});
      return !scheduler_.tick(*pool_).empty();
    }
    // On this thread; if the workers all failed mid-run, the units they had not returned are
    // computed here (step() runs every unit not yet absorbed).
    if (scheduler_.active()) stop_workers();
    experiment.step(budget);
    return true;
  });
  if (run_.failed()) error_ = run_.error();
}

void App::open_story(const std::string& id) {
  const StoryStep& first = story(id).steps[0];
  load_hash(encode_story_hash({id, 0}, first, {}, first.settings.seed, page_flags(embed_, false)));
}

std::string App::next_story_id() const {
  const std::vector<Story>& all = stories();
  for (std::size_t i = 0; i + 1 < all.size(); ++i)
    if (all[i].id == story_.story().id) return all[i + 1].id;
  return "";
}

std::string App::next_story_title() const {
  const std::string id = next_story_id();
  return id.empty() ? "" : story(id).paper;
}

std::string App::refused_value_message(const std::string& field_error) {
  return "A field shows a value that was refused (" + field_error + "): correct it first";
}

std::string App::run_blocked() const {
  const std::string field = controls_.first_error();
  if (!field.empty()) return refused_value_message(field);
  if (in_story_ && story_.awaiting_prediction()) return "Make your prediction first (under the question)";
  return "";
}

void App::run() {
  if (run_.state() != RunState::Paused && !run_blocked().empty()) return;  // the buttons say why
  if (run_.state() == RunState::Done || run_.state() == RunState::Failed) reset();
  run_.set_state(RunState::Running);
}

void App::step_once() {
  if (run_.state() != RunState::Paused && !run_blocked().empty()) return;
  if (run_.state() == RunState::Done || run_.state() == RunState::Failed) reset();
  Budget b;
  b.seconds = 0.05;
  run_.set_state(RunState::Paused);
  advance(b);
}

double App::progress() const {
  if (view_ == View::Reproduction && reproduction_.started()) return reproduction_.progress();
  if (scheduler_.active()) return scheduler_.progress();
  return run_.fraction();
}

std::string App::csv() const { return run_.prepared() ? to_csv(make_record(run_.experiment(), params_, preset_, seed_)) : ""; }
std::string App::json() const { return run_.prepared() ? to_json(make_record(run_.experiment(), params_, preset_, seed_)) : "{}"; }

std::string App::status_text() const {
  if (start_page_) return "Attention Lab: the start page, each paper as a guided story, and the free lab";
  if (view_ == View::Reproduction && reproduction_.started())
    return reproduction_.status_text() + (batch_running() ? ". " + compute_text() : std::string());
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
  if (in_story_) s = story_.story().id + " story, step " + std::to_string(story_.step_index() + 1) + " of " +
                    std::to_string(story_.story().steps.size()) + ": " + story_.step().title + ". " + s;
  if (showing_inputs() && run_.state() == RunState::Idle && !inputs_.plots.empty())
    s += ". Before the run: a picture of its inputs";
  if (!error_.empty()) s += ". Error: " + error_;
  if (run_.state() == RunState::Running) s += ". " + compute_text();
  if (!scheduler_.rerun_text().empty()) s += ". " + scheduler_.rerun_text();
  return s;
}

// [SECTION] Links and embeds

KeyValues App::page_flags(const EmbedOptions& embed, bool run) const {
  KeyValues flags = embed.to_flags();
  if (run) flags.emplace_back("run", "1");
  if (threads_ >= 0) flags.emplace_back("threads", std::to_string(threads_));
  if (text_view_) flags.emplace_back("view", "text");
  return flags;
}

// A story step's link: the step, then only what the student changed in it.
std::string App::story_hash(const EmbedOptions& embed, bool run) const {
  const StoryStep& step = story_.step();
  const Params opened = run_.experiment().make_params(step.settings.preset, step.settings.params);
  KeyValues changed;
  for (const auto& spec : run_.experiment().schema().specs())
    if (run_.experiment().schema().format(params_, spec.key) != run_.experiment().schema().format(opened, spec.key))
      changed.emplace_back(spec.key, run_.experiment().schema().format(params_, spec.key));
  return encode_story_hash({story_.story().id, story_.step_index()}, step, changed, seed_, page_flags(embed, run));
}

// The run's settings beside the step's, for the answer's "You changed ..." sentence.
RunSettings App::story_settings() const {
  const StoryStep& step = story_.step();
  const Schema& schema = run_.experiment().schema();
  return {schema.to_key_values(run_.experiment().make_params(step.settings.preset, step.settings.params)),
          schema.to_key_values(params_)};
}

std::string App::hash_with(const EmbedOptions& embed, bool run) const {
  if (in_story_) return story_hash(embed, run);
  if (start_page_) {
    std::string out;
    for (const auto& [k, v] : page_flags(embed, run)) out += (out.empty() ? "" : "&") + k + "=" + percent_encode(v);
    return out;
  }
  HashState st;
  st.experiment = run_.experiment().info().id;
  st.preset = preset_;  // its name (and description); the parameters below are applied after it
  st.params = run_.experiment().schema().to_key_values(params_);
  st.has_seed = true;
  st.seed = seed_;
  st.flags = page_flags(embed, run);
  if (view_ == View::Inspector && !text_view_)
    st.flags.insert(st.flags.end(), {{"view", "inspector"}, {"point", std::to_string(inspector_.point())},
                                     {"trial", std::to_string(inspector_.trial())}});
  return encode_hash(st);
}

// While the teacher previews, the address keeps the page's own state (a reload leaves the preview).
std::string App::hash() const { return previewing_ ? before_preview_hash_ : hash_with(embed_, false); }

std::vector<std::string> App::visible_params() const {
  std::vector<std::string> keys;
  for (const auto& s : run_.experiment().schema().specs())
    if (!embed_.hides_param(s.key)) keys.push_back(s.key);
  return keys;
}

ThemeChoice App::theme_shown() const {
  return embed_.theme != ThemeChoice::Default ? embed_.theme : preferred_theme_;
}

std::string App::load_hash(const std::string& hash) {
  const Link link = decode_link(hash, link_catalogue(), run_.experiment().info().id);
  if (!link.refused()) {
    apply_link(link);
    return "";
  }
  start_page_ = false;  // the lab shows why the link was refused
  salvage_embed(link);
  error_ = "link not applied: " + link.refusal;
  return link.refusal;
}

void App::apply_link(const Link& link) {
  text_view_ = link.text_view;
  if (link.page == LinkPage::Start) {
    reset();
    embed_ = link.embed;
    previewing_ = false;
    start_page_ = true;
    in_story_ = false;
    threads_ = link.threads;
    return;
  }
  select_experiment(link.experiment);
  params_ = link.params;
  preset_ = link.preset;
  embed_ = link.embed;
  previewing_ = false;
  start_page_ = false;
  in_story_ = link.page == LinkPage::Story;
  if (link.story) story_.open(story(link.story->story), link.story->step);
  if (link.seed) seed_ = *link.seed;
  threads_ = link.threads;
  std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
  controls_.forget_edits();
  reset();
  inspector_.select(link.point, link.trial);
  show(link.view == LinkView::Inspector && has_inspector_ ? View::Inspector : View::Results);
  // Students without a Run button get a running experiment; so do steps that start by themselves.
  if (link.run) run();
}

void App::salvage_embed(const Link& link) {
  if (!link.salvaged_embed) return;
  if (!link.salvaged_experiment.empty() && link.salvaged_experiment != run_.experiment().info().id)
    select_experiment(link.salvaged_experiment);
  embed_ = *link.salvaged_embed;
  previewing_ = false;
}

// [SECTION] Computing in time slices

std::string App::compute_text() const {
  if (!pool_ || threads() == 0) return "Computing on the page's main thread";
  if (pool_->failed()) return "Computing on the page's main thread: Web Workers could not start here";
  if (!pool_->ready()) return "Starting " + std::to_string(threads()) + " worker" + (threads() == 1 ? "" : "s");
  return "Computing on " + pool_->memory_text();
}

void App::compute(double slice_seconds) {
  if (start_page_) return start_.compute(slice_seconds);
  if (run_.state() != RunState::Running && scheduler_.active()) stop_workers();  // paused or stopped
  if (run_.state() == RunState::Running) {
    Budget b;
    b.seconds = slice_seconds;
    advance(b);
  }
  if (reproduction_.started())
    reproduction_.advance(slice_seconds, pool_ && threads() > 0 ? pool_.get() : nullptr, threads());
}

std::uint64_t App::change_stamp() const {
  // What a redraw would show differently: new results, another state or view, a step of the
  // progress bar (1/400), an error.
  const auto permille = static_cast<std::uint64_t>(400.0 * progress());
  const std::uint64_t page = start_page_ ? start_.version() : in_story_ ? story_.step_index() + 1 : 0;
  return (std::uint64_t(run_.version()) << 24) ^ (std::uint64_t(run_.state()) << 16) ^ (std::uint64_t(view_) << 12) ^
         permille ^ (std::uint64_t(error_.size()) << 40) ^ (std::uint64_t(inputs_version_) << 48) ^ (page << 32) ^
         (std::uint64_t(start_page_) << 63);
}

// [SECTION] The frame, the controls and the tabs

void App::frame(float width, float height) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("Attention Lab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  focused_.clear();
  if (start_page_) {
    ImGui::BeginChild("start", ImVec2(0, 0), false, ImGuiWindowFlags_NavFlattened);
    const StartPage::Choice choice = start_.draw();
    ImGui::EndChild();
    ImGui::End();
    if (!choice.story.empty()) open_story(choice.story);
    if (choice.free_lab) start_page_ = false, reset();
    return;
  }
  if (previewing_) draw_preview_banner();
  draw_toolbar();
  ImGui::Separator();
  // An embed may hide every control: the results then fill the frame.
  bool any_control = shows("info") || in_story_ || (run_.experiment().accepts_data() && open_picker_ && shows("data"));
  for (const auto& s : run_.experiment().schema().specs()) any_control = any_control || !embed_.hides_param(s.key);
  const bool narrow = width < ImGui::GetFontSize() * 50.0f;  // phones: stack the panels
  const float panel = narrow ? -1.0f : std::max(ImGui::GetFontSize() * 24.0f, width * 0.3f);
  // On a narrow screen the panels stack: the controls first in the full page, but the results first
  // in an embed, whose readers came for the figure. NavFlattened: the arrow keys move between the
  // toolbar, the controls and the results freely.
  const bool results_first = narrow && embed_.embed;
  if (results_first || !any_control) {
    ImGui::BeginChild("results", ImVec2(0, any_control ? height * 0.6f : 0.0f), true, ImGuiWindowFlags_NavFlattened);
    draw_results();
    ImGui::EndChild();
  }
  if (any_control) {
    ImGui::BeginChild("controls", ImVec2(panel, narrow && !results_first ? height * 0.4f : 0.0f), true,
                      ImGuiWindowFlags_NavFlattened);
    draw_controls();
    if (!controls_.focused().empty()) focused_ = controls_.focused();  // a parameter field
    ImGui::EndChild();
    if (!narrow) ImGui::SameLine();
  }
  if (!results_first && any_control) {
    ImGui::BeginChild("results", ImVec2(0, 0), true, ImGuiWindowFlags_NavFlattened);
    draw_results();
    ImGui::EndChild();
  }
  ImGui::End();
  if (pending_story_) {
    const std::string id = *pending_story_;
    pending_story_.reset();
    id.empty() ? go_home() : open_story(id);
  }
}

void App::draw_controls() {
  const ExperimentInfo& info = run_.experiment().info();
  if (in_story_) {
    if (story_.draw(run_.results(), run_.state() == RunState::Done, next_story_title(), story_settings()) == StoryPanel::Action::NextStory)
      pending_story_ = next_story_id();
    // The step's own controls only: the others stay as the step set them.
    EmbedOptions shown = embed_;
    for (const auto& s : run_.experiment().schema().specs())
      if (std::find(story_.step().shows.begin(), story_.step().shows.end(), s.key) == story_.step().shows.end())
        shown.hidden.insert(s.key);
    if (!story_.step().shows.empty()) ImGui::Separator();
    if (controls_.draw(run_.experiment().schema(), params_, shown)) {
      preset_.clear();
      params_changed();
    }
    return;
  }
  if (shows("info")) {
    text_wrapped_at_spaces(info.summary);
    text_wrapped_at_spaces(info.paper, ImGui::GetColorU32(ImGuiCol_TextDisabled));
    if (!preset_.empty()) {
      ImGui::Spacing();
      text_wrapped_at_spaces(run_.experiment().preset(preset_).title, theme().heading);
      text_wrapped_at_spaces(run_.experiment().preset(preset_).description);
    }
  }
  if (run_.experiment().accepts_data() && open_picker_ && shows("data")) {
    if (ImGui::Button("Load data file...")) open_picker_();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A JSON data file for this experiment (see the README), then the data parameter switches to it.");
    if (!data_status_.empty()) ImGui::TextWrapped("%s", data_status_.c_str());
  }
  ImGui::Separator();
  if (controls_.draw(run_.experiment().schema(), params_, embed_)) {
    preset_.clear();
    params_changed();
  }
}

void App::draw_results() {
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme().error);
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
  }
  if (!shows("tabs")) {  // an embed of one view, without the tab bar
    if (view_ == View::Inspector && has_inspector_) {
      inspector_.draw(run_.experiment(), params_, preset_, seed_);
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
    inspector_.draw(run_.experiment(), params_, preset_, seed_);
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
                       reproduction_panels(reproduction_name_).size(), static_cast<unsigned long long>(seed_));
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

void App::draw_notes(const std::vector<std::string>& notes) {
  // Conditions and states: "OK:" green, "FAILS:" and errors red, "Warning:" amber. They take at
  // most a third of the space (then they scroll), so the plots stay in view on small screens.
  // Wrapped once, at the width left beside a scrollbar, for both the height and the drawing.
  const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  std::vector<std::string> wrapped;
  float needed = 0.0f;
  for (const auto& note : notes) {
    wrapped.push_back(wrap_at_spaces(note, width));
    const auto lines = std::count(wrapped.back().begin(), wrapped.back().end(), '\n') + 1;
    needed += static_cast<float>(lines) * ImGui::GetFontSize() + ImGui::GetStyle().ItemSpacing.y;
  }
  if (needed <= 0.0f) return;
  const float most = std::max(ImGui::GetFontSize() * 3.5f, ImGui::GetContentRegionAvail().y * 0.33f);
  ImGui::BeginChild("notes", ImVec2(0.0f, std::min(needed, most)), false, ImGuiWindowFlags_NavFlattened);
  for (std::size_t i = 0; i < notes.size(); ++i) {
    text_unformatted(wrapped[i], note_colour(notes[i]));
  }
  ImGui::EndChild();
}

void App::draw_sweep_results() {
  // Before the run has results: the picture of its inputs, under a line that says so.
  const bool inputs = showing_inputs();
  const Results& results = inputs ? inputs_ : run_.results();
  if (inputs) {
    const char* next = in_story_ && story_.awaiting_prediction() ? "Make your prediction on the left, then press Run."
                       : run_.state() == RunState::Running       ? "The run is starting; its results replace this picture."
                                                                 : "Press Run to start; the curves grow as trials finish.";
    ImGui::TextWrapped("Before the run: what goes in. %s", next);
    if (results.plots.empty() && results.heatmaps.empty()) return;
  }
  ImGui::Checkbox("log x", &log_x_);
  ImGui::SameLine();
  ImGui::Checkbox("log y", &log_y_);
  // In a story the plot the step is about comes first, the other plots fold below it when there
  // are more than two, and the notes fold into "Details" (closed); the free lab shows everything.
  const std::string named = in_story_ ? story_.step().plot : "";
  if (!in_story_) draw_notes(results.notes);
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < results.plots.size(); ++i)
    if (results.plots[i].title == named) order.insert(order.begin(), i);
    else order.push_back(i);
  std::vector<std::size_t> maps;
  for (std::size_t i = 0; i < results.heatmaps.size(); ++i)
    if (results.heatmaps[i].title == named) maps.insert(maps.begin(), i);
    else maps.push_back(i);
  const bool map_first = !maps.empty() && results.heatmaps[maps.front()].title == named;
  const std::size_t shown = in_story_ && results.plots.size() > 2 ? 1 : results.plots.size();
  // The picture of the inputs stays small: it is what goes in, not what to read off.
  const float side = std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * (inputs ? 18.0f : 30.0f));
  const auto draw_map = [&](std::size_t i) {
    heatmaps_.draw(static_cast<int>(i), results.heatmaps[i], inputs ? 0x80000000u + inputs_version_ : run_.version(),
                   ImVec2(side, side), false);
  };
  if (map_first) draw_map(maps.front());
  // The plots share the height left, but each keeps at least 10 lines for its data area plus its
  // legend's rows (a narrow frame stacks a long legend), and then the panel scrolls.
  const float font = ImGui::GetFontSize();
  const float share = ImGui::GetContentRegionAvail().y / static_cast<float>(std::max<std::size_t>(1, shown)) -
                      ImGui::GetStyle().ItemSpacing.y - (shown < results.plots.size() ? 3.0f * font : 0.0f);
  const auto text_width = [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; };
  const auto draw_one = [&](std::size_t i, float height) {
    Plot plot = results.plots[i];
    plot.log_x = plot.log_x || log_x_;
    plot.log_y = plot.log_y || log_y_;
    const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);  // as draw_plot takes it
    const int legend_rows = plot_frame(plot, width, 0.0, font, text_width).legend_rows;
    draw_plot(std::to_string(i).c_str(), plot, std::max(font * (12.0f + 1.3f * static_cast<float>(legend_rows)), height));
  };
  for (std::size_t k = 0; k < shown; ++k) draw_one(order[k], inputs ? std::min(share, font * 18.0f) : share);
  if (shown < order.size()) {
    const std::string more = "More plots (" + std::to_string(order.size() - shown) + ")";
    if (ImGui::CollapsingHeader(more.c_str()))
      for (std::size_t k = shown; k < order.size(); ++k) draw_one(order[k], font * 16.0f);
  }
  for (std::size_t k = map_first ? 1 : 0; k < maps.size(); ++k) draw_map(maps[k]);
  if (in_story_ && !results.notes.empty()) {
    const std::string details = "Details (" + std::to_string(results.notes.size()) + " notes)";
    if (ImGui::CollapsingHeader(details.c_str()))
      for (const std::string& note : results.notes) text_wrapped_at_spaces(note, note_colour(note));
  }
}

}  // namespace attnlab::ui

// [SECTION] What the page shows; story steps

namespace attnlab::ui {

std::string App::page_json() const {
  const char* page = start_page_ ? "start" : in_story_ ? "story" : "lab";
  std::string out = std::string("{\"page\":\"") + page + "\",\"story\":" +
                    (in_story_ ? story_.json(run_.results(), run_.state() == RunState::Done, story_settings()) : "null") + ",\"inputs\":";
  if (showing_inputs()) {
    out += "[";
    for (std::size_t i = 0; i < inputs_.plots.size(); ++i) out += std::string(i ? "," : "") + json_escape(inputs_.plots[i].title);
    for (std::size_t i = 0; i < inputs_.heatmaps.size(); ++i)
      out += std::string(i || !inputs_.plots.empty() ? "," : "") + json_escape(inputs_.heatmaps[i].title);
    out += "]";
  } else {
    out += "null";
  }
  out += ",\"runBlocked\":" + json_escape(run_.state() == RunState::Running || run_.state() == RunState::Paused ? "" : run_blocked());
  return out + ",\"cards\":" + (start_page_ ? start_.json() : "null") + "}";
}

std::string App::story_step_by(int delta) {
  if (!in_story_) return "story: no story step is open";
  const long to = static_cast<long>(story_.step_index()) + delta;
  if (to < 0 || to >= static_cast<long>(story_.story().steps.size())) return "story: no step there";
  const StoryStep& step = story_.story().steps[static_cast<std::size_t>(to)];
  // The embed, theme and hidden groups go along; hidden parameter keys were the old step's.
  EmbedOptions flags = embed_;
  for (auto it = flags.hidden.begin(); it != flags.hidden.end();)
    it = is_control_group(*it) ? std::next(it) : flags.hidden.erase(it);
  return load_hash(encode_story_hash({story_.story().id, static_cast<std::size_t>(to)}, step, {}, step.settings.seed,
                                     page_flags(flags, false)));
}

}  // namespace attnlab::ui
