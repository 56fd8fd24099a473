#include "ui/app.hpp"

#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "imgui.h"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"

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
  params_ = experiment_->schema().defaults();
  preset_.clear();
  controls_.forget_edits();
  reset();
  has_inspector_ = InspectorView::available(*experiment_);
  reproduction_name_ = reproduction_of(id);
  if ((view_ == View::Inspector && !has_inspector_) || (view_ == View::Reproduction && reproduction_name_.empty()))
    show(View::Results);
}

std::string App::load_data(const std::string& json) {
  try {
    experiment_->set_data(json);
    // The parameter that selects the loaded data: regression's source=data, mirror's data=file.
    if (experiment_->schema().find("source")) experiment_->schema().set(params_, "source", "data");
    else if (experiment_->schema().find("data")) experiment_->schema().set(params_, "data", "file");
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

void App::show(View v) {
  view_ = v;
  select_tab_ = true;
}

void App::start_reproduction(bool paper_trials) {
  try {
    if (reproduction_name_.empty()) throw ParamError("experiment '" + experiment_->info().id + "' has no paper reproduction");
    paper_trials_ = paper_trials;
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

void App::reset() {
  started_ = false;
  state_ = RunState::Idle;
  error_.clear();
  results_ = Results{};
}

void App::advance(const Budget& budget) {
  try {
    if (!started_) {
      experiment_->reset(params_, seed_);
      started_ = true;
    }
    experiment_->step(budget);
    results_ = experiment_->results();
    ++results_version_;
    if (experiment_->progress().finished()) state_ = RunState::Done;
  } catch (const std::exception& e) {
    error_ = e.what();
    state_ = RunState::Failed;
  }
}

void App::run() {
  if (state_ == RunState::Done || state_ == RunState::Failed) reset();
  state_ = RunState::Running;
}

void App::step_once() {
  if (state_ == RunState::Done || state_ == RunState::Failed) reset();
  Budget b;
  b.seconds = 0.05;
  state_ = RunState::Paused;
  advance(b);
}

double App::progress() const {
  if (view_ == View::Reproduction && reproduction_.started()) return reproduction_.progress();
  return started_ ? experiment_->progress().fraction() : 0.0;
}

std::string App::csv() const { return started_ ? to_csv(make_record(*experiment_, params_, preset_, seed_)) : ""; }
std::string App::json() const { return started_ ? to_json(make_record(*experiment_, params_, preset_, seed_)) : "{}"; }

std::string App::status_text() const {
  if (view_ == View::Reproduction && reproduction_.started()) return reproduction_.status_text();
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s: %s, %.0f%% done", experiment_->info().title.c_str(), to_string(state_),
                100.0 * progress());
  std::string s = buf;
  for (const auto& note : results_.notes) s += ". " + note;
  if (!error_.empty()) s += ". Error: " + error_;
  return s;
}

std::string App::export_name(const char* extension) const {
  return experiment_->info().id + "-" + (preset_.empty() ? std::string("custom") : preset_) + "-seed" +
         std::to_string(seed_) + "." + extension;
}

void App::download(const std::string& kind) const {
  if (!download_ || !started_) return;
  if (kind == "json") download_(export_name("json").c_str(), "application/json", json().c_str());
  else download_(export_name("csv").c_str(), "text/csv", csv().c_str());
}

std::string App::hash() const {
  HashState st;
  st.experiment = experiment_->info().id;
  st.params = experiment_->schema().to_key_values(params_);
  st.has_seed = true;
  st.seed = seed_;
  if (view_ == View::Inspector)
    st.flags = {{"view", "inspector"}, {"point", std::to_string(inspector_.point())},
                {"trial", std::to_string(inspector_.trial())}};
  return encode_hash(st);
}

namespace {
// A small non-negative integer from a link ("point", "trial"); throws ParamError.
int link_index(const HashState& st, const std::string& key) {
  const std::string v = st.flag(key);
  if (v.empty()) return 0;
  const bool digits = v.size() <= 7 && v.find_first_not_of("0123456789") == std::string::npos;
  if (!digits) throw ParamError("link: '" + key + "=" + v + "' is not allowed; allowed: integer in [0, 9999999]");
  return std::stoi(v);
}
}  // namespace

std::string App::load_hash(const std::string& hash) {
  try {
    const HashState st = decode_hash(hash);
    std::unique_ptr<Experiment> e = make_experiment(st.experiment.empty() ? experiment_ids().front() : st.experiment);
    Params p = e->make_params(st.preset, st.params);  // validates everything before anything changes
    const std::string view = st.flag("view");
    if (!view.empty() && view != "results" && view != "inspector")
      throw ParamError("link: 'view=" + view + "' is not allowed; allowed: results or inspector");
    const int point = link_index(st, "point"), trial = link_index(st, "trial");
    select_experiment(e->info().id);
    experiment_ = std::move(e);
    params_ = p;
    preset_ = st.preset;
    if (st.has_seed) seed_ = st.seed;
    std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
    controls_.forget_edits();
    reset();
    inspector_.select(point, trial);
    show(view == "inspector" && has_inspector_ ? View::Inspector : View::Results);
    if (st.flag("run") == "1") run();
    return "";
  } catch (const std::exception& ex) {
    error_ = std::string("link not applied: ") + ex.what();
    return ex.what();
  }
}

void App::frame(float width, float height, double slice_seconds) {
  if (state_ == RunState::Running) {
    Budget b;
    b.seconds = slice_seconds;
    advance(b);
  }
  if (reproduction_.started()) reproduction_.advance(slice_seconds);
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, height));
  ImGui::Begin("Attention Lab", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoBringToFrontOnFocus);
  draw_toolbar();
  ImGui::Separator();
  const bool narrow = width < ImGui::GetFontSize() * 50.0f;  // phones: stack the panels
  const float panel = narrow ? -1.0f : std::max(ImGui::GetFontSize() * 24.0f, width * 0.3f);
  ImGui::BeginChild("controls", ImVec2(panel, narrow ? height * 0.45f : 0.0f), true);
  draw_controls();
  ImGui::EndChild();
  if (!narrow) ImGui::SameLine();
  ImGui::BeginChild("results", ImVec2(0, 0), true);
  draw_results();
  ImGui::EndChild();
  ImGui::End();
}

namespace {

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

void App::draw_toolbar() {
  const float em = ImGui::GetFontSize();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Attention Lab");
  flow(em * 16.0f);
  ImGui::SetNextItemWidth(em * 16.0f);
  if (ImGui::BeginCombo("##experiment", experiment_->info().title.c_str())) {
    for (const auto& id : experiment_ids()) {
      auto e = make_experiment(id);
      if (ImGui::Selectable(e->info().title.c_str(), id == experiment_->info().id)) select_experiment(id);
    }
    ImGui::EndCombo();
  }
  flow(em * 12.0f);
  ImGui::SetNextItemWidth(em * 12.0f);
  const std::string preset_label = preset_.empty() ? "preset..." : experiment_->preset(preset_).title;
  if (ImGui::BeginCombo("##preset", preset_label.c_str())) {
    for (const auto& p : experiment_->presets()) {
      if (ImGui::Selectable(p.title.c_str(), p.name == preset_)) {
        params_ = experiment_->make_params(p.name, {});
        preset_ = p.name;
        controls_.forget_edits();
        params_changed();
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.description.c_str());
    }
    ImGui::EndCombo();
  }
  const char* run_label = state_ == RunState::Running ? "Pause" : state_ == RunState::Paused ? "Resume" : "Run";
  flow(button_width(run_label) + button_width("Step") + button_width("Reset") + 2.0f * ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::Button(run_label)) state_ == RunState::Running ? pause() : run();
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  run_button_rect_[0] = lo.x, run_button_rect_[1] = lo.y, run_button_rect_[2] = hi.x - lo.x, run_button_rect_[3] = hi.y - lo.y;
  ImGui::SameLine();
  if (ImGui::Button("Step")) step_once();
  ImGui::SameLine();
  if (ImGui::Button("Reset")) reset();
  if (share_) {
    flow(button_width("Share") + button_width("CSV") + button_width("JSON") + 2.0f * ImGui::GetStyle().ItemSpacing.x);
    if (ImGui::Button("Share")) share();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy a link to this exact state (experiment, parameters, seed).");
    ImGui::SameLine();
    ImGui::BeginDisabled(!started_ || !download_);
    if (ImGui::Button("CSV")) download("csv");
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
      ImGui::SetTooltip("Download the results table with every parameter, the seed and the version.");
    ImGui::SameLine();
    if (ImGui::Button("JSON")) download("json");
    ImGui::EndDisabled();
  }
  flow(em * 9.0f);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("seed");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(em * 6.0f);
  ImGui::InputText("##seed", seed_text_, sizeof seed_text_, ImGuiInputTextFlags_CharsDecimal);
  if (ImGui::IsItemDeactivatedAfterEdit()) {
    try {
      seed_ = parse_seed(seed_text_);
      params_changed();
    } catch (const ParamError& e) {
      std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
      error_ = e.what();
    }
  }
  flow(em * 10.0f);
  char overlay[64];
  const bool reproducing = view_ == View::Reproduction && reproduction_.started();
  const char* state = !reproducing ? to_string(state_)
                      : reproduction_.finished() ? "reproduced"
                      : reproduction_.paused()   ? "paused"
                                                 : "reproducing";
  std::snprintf(overlay, sizeof overlay, "%s %.0f%%", state, 100.0 * progress());
  ImGui::ProgressBar(static_cast<float>(progress()), ImVec2(-1.0f, 0.0f), overlay);
}

void App::draw_controls() {
  const ExperimentInfo& info = experiment_->info();
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(info.summary.c_str());
  ImGui::TextDisabled("%s", info.paper.c_str());
  if (!preset_.empty()) {
    ImGui::Spacing();
    ImGui::TextColored(ImVec4(0.55f, 0.8f, 1.0f, 1.0f), "%s", experiment_->preset(preset_).title.c_str());
    ImGui::TextUnformatted(experiment_->preset(preset_).description.c_str());
  }
  ImGui::PopTextWrapPos();
  if (experiment_->accepts_data() && open_picker_) {
    if (ImGui::Button("Load data file...")) open_picker_();
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("A JSON data file for this experiment (see the README), then the data parameter switches to it.");
    if (!data_status_.empty()) ImGui::TextWrapped("%s", data_status_.c_str());
  }
  ImGui::Separator();
  if (controls_.draw(experiment_->schema(), params_)) {
    preset_.clear();
    params_changed();
  }
}

void App::draw_results() {
  if (!error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, IM_COL32(255, 120, 110, 255));
    ImGui::TextWrapped("%s", error_.c_str());
    ImGui::PopStyleColor();
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
  const int open = reproduction_.draw();
  if (open >= 0) open_panel(open);
}

void App::draw_sweep_results() {
  if (results_.plots.empty()) {
    ImGui::TextDisabled("Press Run to start; the curves grow as trials finish.");
    return;
  }
  ImGui::Checkbox("log x", &log_x_);
  ImGui::SameLine();
  ImGui::Checkbox("log y", &log_y_);
  // Notes: conditions and states. "OK:" green, "FAILS:" and errors red, "Warning:" amber.
  ImGui::PushTextWrapPos(0.0f);
  for (const auto& note : results_.notes) {
    ImU32 colour = 0;
    if (note.rfind("OK: ", 0) == 0) colour = IM_COL32(110, 200, 120, 255);
    else if (note.rfind("FAILS: ", 0) == 0) colour = IM_COL32(240, 120, 110, 255);
    else if (note.rfind("Warning: ", 0) == 0) colour = IM_COL32(230, 180, 80, 255);
    if (colour) ImGui::PushStyleColor(ImGuiCol_Text, colour);
    ImGui::TextUnformatted(note.c_str());
    if (colour) ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  const float plots_height = ImGui::GetContentRegionAvail().y;
  const float each = std::max(ImGui::GetFontSize() * 12.0f,
                              plots_height / static_cast<float>(results_.plots.size()) - ImGui::GetStyle().ItemSpacing.y);
  for (std::size_t i = 0; i < results_.plots.size(); ++i) {
    Plot plot = results_.plots[i];
    plot.log_x = plot.log_x || log_x_;
    plot.log_y = plot.log_y || log_y_;
    draw_plot(std::to_string(i).c_str(), plot, each);
  }
  const float side = std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 30.0f);
  for (std::size_t i = 0; i < results_.heatmaps.size(); ++i)
    heatmaps_.draw(static_cast<int>(i), results_.heatmaps[i], results_version_, ImVec2(side, side), false);
}

}  // namespace attnlab::ui
