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

const char* to_string(RunState s) {
  switch (s) {
    case RunState::Idle: return "ready";
    case RunState::Running: return "running";
    case RunState::Paused: return "paused";
    case RunState::Done: return "done";
    case RunState::Failed: return "failed";
  }
  return "";
}

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
  experiment_ = make_experiment(id);
  data_status_.clear();
  data_text_.clear();
  params_ = experiment_->schema().defaults();
  preset_.clear();
  controls_.forget_edits();
  reset();
  // Hidden parameter keys belong to the previous experiment's schema; the groups stay.
  for (auto it = embed_.hidden.begin(); it != embed_.hidden.end();) {
    it = is_control_group(*it) || experiment_->schema().find(*it) ? std::next(it) : embed_.hidden.erase(it);
  }
  has_inspector_ = experiment_->has_inspector();
  reproduction_name_ = reproduction_of(id);
  if ((view_ == View::Inspector && !has_inspector_) || (view_ == View::Reproduction && reproduction_name_.empty()))
    show(View::Results);
}

std::string App::load_data(const std::string& json) {
  try {
    experiment_->set_data(json);
    data_text_ = json;
    const Experiment::DataSelector selector = experiment_->data_selector();
    experiment_->schema().set(params_, selector.key, selector.value);
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
    if (reproduction_name_.empty()) throw ParamError("experiment '" + experiment_->info().id + "' has no paper reproduction");
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
  experiment_ = std::move(run);
  params_ = params;
  preset_ = preset;
  seed_ = seed;
  std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
  started_ = true;
  state_ = RunState::Done;
  results_ = experiment_->results();
  show(View::Results);
}

void App::params_changed() {
  // Results always belong to the parameters on screen: a change discards the old run.
  const bool was_running = state_ == RunState::Running;
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
  started_ = false;
  state_ = RunState::Idle;
  error_.clear();
  results_ = Results{};
  preview_.stop();
  preview_stale_ = true;
}

// The preview: what Run would compute, started on the main thread for at most a second and a half
// of computing, while nothing else is shown (no run, the Results view, no prediction pending).
bool App::showing_preview() const {
  return !start_page_ && state_ == RunState::Idle && !started_ && !(in_story_ && story_.awaiting_prediction());
}

void App::update_preview() {
  if (!showing_preview()) return;
  if (preview_stale_) {
    preview_.start(experiment_->info().id, params_, seed_, 1.5);
    preview_stale_ = false;
  }
}

void App::advance(const Budget& budget) {
  try {
    if (!started_) {
      experiment_->reset(params_, seed_);
      started_ = true;
    }
    if (computing_on_workers() && state_ == RunState::Running) {
      // The workers compute; this thread posts units, absorbs partials and redraws what changed.
      pool_->resize(threads());
      if (!pool_->ready()) return;  // still starting (a failure falls back on the next frame)
      if (!scheduler_.active())
        scheduler_.start({{experiment_.get(), UnitScheduler::spec_json(*experiment_, params_, seed_, data_text_)}});
      if (!scheduler_.tick(*pool_).empty()) results_ = experiment_->results(), ++results_version_;
    } else {
      // On this thread; if the workers all failed mid-run, the units they had not returned are
      // computed here (step() runs every unit not yet absorbed).
      if (scheduler_.active()) stop_workers();
      experiment_->step(budget);
      results_ = experiment_->results();
      ++results_version_;
    }
    if (experiment_->progress().finished()) state_ = RunState::Done;
  } catch (const std::exception& e) {
    error_ = e.what();
    state_ = RunState::Failed;
  }
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

std::string App::run_blocked() const {
  const std::string field = controls_.first_error();
  if (!field.empty()) return "A field shows a value that was refused (" + field + "): correct it first";
  if (in_story_ && story_.awaiting_prediction()) return "Make your prediction first (under the question)";
  return "";
}

void App::run() {
  if (state_ != RunState::Paused && !run_blocked().empty()) return;  // the buttons say why
  if (state_ == RunState::Done || state_ == RunState::Failed) reset();
  preview_.stop();
  state_ = RunState::Running;
}

void App::step_once() {
  if (state_ != RunState::Paused && !run_blocked().empty()) return;
  if (state_ == RunState::Done || state_ == RunState::Failed) reset();
  preview_.stop();
  Budget b;
  b.seconds = 0.05;
  state_ = RunState::Paused;
  advance(b);
}

double App::progress() const {
  if (view_ == View::Reproduction && reproduction_.started()) return reproduction_.progress();
  if (scheduler_.active()) return scheduler_.progress();
  return started_ ? experiment_->progress().fraction() : 0.0;
}

std::string App::csv() const { return started_ ? to_csv(make_record(*experiment_, params_, preset_, seed_)) : ""; }
std::string App::json() const { return started_ ? to_json(make_record(*experiment_, params_, preset_, seed_)) : "{}"; }

std::string App::status_text() const {
  if (start_page_) return "Attention Lab: the start page, four papers as guided stories, and the free lab";
  if (view_ == View::Reproduction && reproduction_.started())
    return reproduction_.status_text() + (batch_running() ? ". " + compute_text() : std::string());
  // Said when something changes that a listener needs: the state, each further tenth of the
  // progress, and, once the run stops, its key numbers (the first notes, kept short).
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %s, %d%% done", experiment_->info().title.c_str(), to_string(state_),
                10 * static_cast<int>(10.0 * progress() + 1e-9));
  std::string s = buf;
  const bool stopped = state_ != RunState::Running;
  const std::vector<std::string>& notes = view_ == View::Inspector ? inspector_.results().notes : results_.notes;
  if (view_ == View::Inspector) s += ". Inspector, sweep point " + std::to_string(inspector_.point()) + ", trial " +
                                     std::to_string(inspector_.trial());
  for (std::size_t i = 0; stopped && i < notes.size() && i < 3 && s.size() < 400; ++i)
    s += (s.back() == '.' ? " " : ". ") + notes[i];
  if (in_story_) s = story_.story().id + " story, step " + std::to_string(story_.step_index() + 1) + " of " +
                    std::to_string(story_.story().steps.size()) + ": " + story_.step().title + ". " + s;
  if (showing_preview() && preview_.has_results())
    s += ". Showing a preview (" + std::to_string(static_cast<int>(100.0 * preview_.fraction())) +
         "% of the run, computed on opening); press Run for the full run";
  if (!error_.empty()) s += ". Error: " + error_;
  if (state_ == RunState::Running) s += ". " + compute_text();
  if (!scheduler_.rerun_text().empty()) s += ". " + scheduler_.rerun_text();
  return s;
}

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
  const Params opened = experiment_->make_params(step.settings.preset, step.settings.params);
  KeyValues changed;
  for (const auto& spec : experiment_->schema().specs())
    if (experiment_->schema().format(params_, spec.key) != experiment_->schema().format(opened, spec.key))
      changed.emplace_back(spec.key, experiment_->schema().format(params_, spec.key));
  return encode_story_hash({story_.story().id, story_.step_index()}, step, changed, seed_, page_flags(embed, run));
}

std::string App::hash_with(const EmbedOptions& embed, bool run) const {
  if (in_story_) return story_hash(embed, run);
  if (start_page_) {
    std::string out;
    for (const auto& [k, v] : page_flags(embed, run)) out += (out.empty() ? "" : "&") + k + "=" + percent_encode(v);
    return out;
  }
  HashState st;
  st.experiment = experiment_->info().id;
  st.preset = preset_;  // its name (and description); the parameters below are applied after it
  st.params = experiment_->schema().to_key_values(params_);
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
  for (const auto& s : experiment_->schema().specs())
    if (!embed_.hides_param(s.key)) keys.push_back(s.key);
  return keys;
}

ThemeChoice App::theme_shown() const {
  return embed_.theme != ThemeChoice::Default ? embed_.theme : preferred_theme_;
}

namespace {
// A small non-negative integer from a link ("point", "trial"); throws ParamError.
int link_index(const HashState& st, const std::string& key) {
  const std::string v = st.flag(key);
  if (v.empty()) return 0;
  const std::optional<long long> n = parse_digits(v, 7);
  if (!n) throw ParamError("link: '" + key + "=" + v + "' is not allowed; allowed: integer in [0, 9999999]");
  return static_cast<int>(*n);
}
}  // namespace

namespace {
// A link's threads=: -1 when absent; throws ParamError beyond kMaxThreads.
int link_threads(const HashState& st) {
  const std::string threads = st.flag("threads");
  const int count = threads.empty() ? -1 : link_index(st, "threads");
  if (count > kMaxThreads)
    throw ParamError("link: 'threads=" + threads + "' is not allowed; allowed: integer in [0, " +
                     std::to_string(kMaxThreads) + "] (0 computes on the page's main thread)");
  return count;
}

// A link's view=: true for the text view; throws ParamError for a view the page does not have.
bool link_text_view(const HashState& st) {
  const std::string view = st.flag("view");
  if (!view.empty() && view != "results" && view != "inspector" && view != "text")
    throw ParamError("link: 'view=" + view + "' is not allowed; allowed: results, inspector or text");
  return view == "text";
}
}  // namespace

void App::show_start_page(const HashState& st) {
  // Parameters, a preset or a seed belong to an experiment: without one they would be lost.
  const std::string lost = !st.preset.empty() ? "preset" : st.has_seed ? "seed" : !st.params.empty() ? st.params[0].first : "";
  if (!lost.empty())
    throw ParamError("link: '" + lost + "' needs an experiment or a story; allowed: exp=ID or story=ID with it");
  EmbedOptions embed = parse_embed_options(st, experiment_->schema());
  embed.embed = false;  // the start page is never an embed
  const int thread_count = link_threads(st);
  const bool text = link_text_view(st);
  reset();
  text_view_ = text;
  embed_ = embed;
  previewing_ = false;
  start_page_ = true;
  in_story_ = false;
  threads_ = thread_count;
}

std::string App::load_hash(const std::string& hash) {
  try {
    const HashState st = decode_hash(hash);
    const std::optional<StoryPosition> at = parse_story_position(st, stories());
    if (!at && st.experiment.empty()) {
      show_start_page(st);
      return "";
    }
    // A story's step opens its settings; the link's parameters are the student's changes to them.
    const StoryStep* step = at ? &story(at->story).steps[at->step] : nullptr;
    std::unique_ptr<Experiment> e = make_experiment(step ? step->settings.experiment : st.experiment);
    KeyValues values = step ? step->settings.params : KeyValues{};
    values.insert(values.end(), st.params.begin(), st.params.end());
    Params p = e->make_params(step ? step->settings.preset : st.preset, values);  // validates everything first
    const EmbedOptions embed = parse_embed_options(st, e->schema());
    const std::string view = st.flag("view");
    const bool text = link_text_view(st);
    const int point = link_index(st, "point"), trial = link_index(st, "trial");
    const int thread_count = link_threads(st);
    select_experiment(e->info().id);
    experiment_ = std::move(e);
    params_ = p;
    preset_ = step ? step->settings.preset : st.preset;
    embed_ = embed;
    previewing_ = false;
    start_page_ = false;
    in_story_ = step != nullptr;
    if (step) story_.open(story(at->story), at->step);
    if (st.has_seed) seed_ = st.seed;
    else if (step) seed_ = step->settings.seed;
    threads_ = thread_count;
    text_view_ = text;
    std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
    controls_.forget_edits();
    reset();
    inspector_.select(point, trial);
    show(view == "inspector" && has_inspector_ ? View::Inspector : View::Results);
    // Students without a Run button get a running experiment; so do steps that start by themselves.
    if (st.flag("run") == "1" || embed_.hides("run") || (step && step->run && !step->prediction)) run();
    return "";
  } catch (const std::exception& ex) {
    start_page_ = false;  // the lab shows why the link was refused
    salvage_embed(hash);
    error_ = std::string("link not applied: ") + ex.what();
    return ex.what();
  }
}

void App::salvage_embed(const std::string& hash) {
  try {
    const HashState st = decode_hash(hash);
    if (st.flag("embed") != "1") return;
    const auto& ids = experiment_ids();
    if (std::find(ids.begin(), ids.end(), st.experiment) != ids.end() && st.experiment != experiment_->info().id)
      select_experiment(st.experiment);
    embed_ = salvage_embed_options(st, experiment_->schema());
    previewing_ = false;
  } catch (const std::exception&) {
    // Not even decodable: nothing to keep.
  }
}

std::string App::compute_text() const {
  if (!pool_ || threads() == 0) return "Computing on the page's main thread";
  if (pool_->failed()) return "Computing on the page's main thread: Web Workers could not start here";
  if (!pool_->ready()) return "Starting " + std::to_string(threads()) + " worker" + (threads() == 1 ? "" : "s");
  return "Computing on " + pool_->memory_text();
}

void App::compute(double slice_seconds) {
  if (start_page_) return start_.compute(slice_seconds);
  update_preview();
  if (showing_preview()) preview_.advance(slice_seconds);
  if (state_ != RunState::Running && scheduler_.active()) stop_workers();  // paused or stopped
  if (state_ == RunState::Running) {
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
  return (std::uint64_t(results_version_) << 24) ^ (std::uint64_t(state_) << 16) ^ (std::uint64_t(view_) << 12) ^
         permille ^ (std::uint64_t(error_.size()) << 40) ^ (std::uint64_t(preview_.version()) << 48) ^ (page << 32) ^
         (std::uint64_t(start_page_) << 63);
}

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
  bool any_control = shows("info") || in_story_ || (experiment_->accepts_data() && open_picker_ && shows("data"));
  for (const auto& s : experiment_->schema().specs()) any_control = any_control || !embed_.hides_param(s.key);
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
  const ExperimentInfo& info = experiment_->info();
  if (in_story_) {
    if (story_.draw(results_, state_ == RunState::Done, next_story_title()) == StoryPanel::Action::NextStory)
      pending_story_ = next_story_id();
    // The step's own controls only: the others stay as the step set them.
    EmbedOptions shown = embed_;
    for (const auto& s : experiment_->schema().specs())
      if (std::find(story_.step().shows.begin(), story_.step().shows.end(), s.key) == story_.step().shows.end())
        shown.hidden.insert(s.key);
    if (!story_.step().shows.empty()) ImGui::Separator();
    if (controls_.draw(experiment_->schema(), params_, shown)) {
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
      text_wrapped_at_spaces(experiment_->preset(preset_).title, theme().heading);
      text_wrapped_at_spaces(experiment_->preset(preset_).description);
    }
  }
  if (experiment_->accepts_data() && open_picker_ && shows("data")) {
    if (ImGui::Button("Load data file...")) open_picker_();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A JSON data file for this experiment (see the README), then the data parameter switches to it.");
    if (!data_status_.empty()) ImGui::TextWrapped("%s", data_status_.c_str());
  }
  ImGui::Separator();
  if (controls_.draw(experiment_->schema(), params_, embed_)) {
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
      inspector_.draw(*experiment_, params_, preset_, seed_);
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
    inspector_.draw(*experiment_, params_, preset_, seed_);
    ImGui::EndTabItem();
  }
  if (!reproduction_name_.empty() && tab("Reproduce the paper", View::Reproduction)) {
    draw_reproduction();
    ImGui::EndTabItem();
  }
  select_tab_ = false;
  ImGui::EndTabBar();
}

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
  // Before Run: the preview, marked as such on the plots and above them.
  const bool preview = results_.plots.empty() && showing_preview() && preview_.has_results();
  const Results& results = preview ? preview_.results() : results_;
  if (results.plots.empty()) {
    ImGui::TextDisabled(in_story_ && story_.awaiting_prediction()
                            ? "Make your prediction on the left, then press Run."
                            : "Press Run to start; the curves grow as trials finish.");
    return;
  }
  const int percent = static_cast<int>(100.0 * preview_.fraction());
  if (preview) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme().warning);
    ImGui::TextWrapped("Preview: %d%% of the run, computed on opening. Press Run for the full run; downloads and "
                       "Share hold the real run only.", percent);
    ImGui::PopStyleColor();
  }
  ImGui::Checkbox("log x", &log_x_);
  ImGui::SameLine();
  ImGui::Checkbox("log y", &log_y_);
  draw_notes(results.notes);
  // The plots share the height left, but each keeps at least 10 lines for its data area plus its
  // legend's rows (a narrow frame stacks a long legend), and then the panel scrolls.
  const float font = ImGui::GetFontSize();
  const float share = ImGui::GetContentRegionAvail().y / static_cast<float>(results.plots.size()) -
                      ImGui::GetStyle().ItemSpacing.y;
  const auto text_width = [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; };
  for (std::size_t i = 0; i < results.plots.size(); ++i) {
    Plot plot = results.plots[i];
    if (preview) plot.title = "PREVIEW (" + std::to_string(percent) + "% of the run): " + plot.title;
    plot.log_x = plot.log_x || log_x_;
    plot.log_y = plot.log_y || log_y_;
    const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);  // as draw_plot takes it
    const int legend_rows = plot_frame(plot, width, 0.0, font, text_width).legend_rows;
    draw_plot(std::to_string(i).c_str(), plot, std::max(font * (12.0f + 1.3f * static_cast<float>(legend_rows)), share));
  }
  const float side = std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 30.0f);
  for (std::size_t i = 0; i < results.heatmaps.size(); ++i)
    heatmaps_.draw(static_cast<int>(i), results.heatmaps[i], results_version_ + (preview ? preview_.version() << 16 : 0u),
                   ImVec2(side, side), false);
}

}  // namespace attnlab::ui

namespace attnlab::ui {

std::string App::page_json() const {
  const char* page = start_page_ ? "start" : in_story_ ? "story" : "lab";
  std::string out = std::string("{\"page\":\"") + page + "\",\"story\":" +
                    (in_story_ ? story_.json(results_, state_ == RunState::Done) : "null") + ",\"preview\":";
  out += showing_preview() && preview_.has_results() ? format_number(preview_.fraction()) : "null";
  out += ",\"runBlocked\":" + json_escape(state_ == RunState::Running || state_ == RunState::Paused ? "" : run_blocked());
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
