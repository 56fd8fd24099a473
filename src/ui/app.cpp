#include "ui/app.hpp"

#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "imgui.h"
#include "lab/heatmap_image.hpp"
#include "lab/plot_svg.hpp"
#include "lab/plot_ticks.hpp"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"
#include "ui/theme.hpp"
#include "ui/wrapped_text.hpp"

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
  // Hidden parameter keys belong to the previous experiment's schema; the groups stay.
  for (auto it = embed_.hidden.begin(); it != embed_.hidden.end();) {
    const bool group = std::any_of(control_groups().begin(), control_groups().end(),
                                   [&](const ControlGroup& g) { return *it == g.key; });
    it = group || experiment_->schema().find(*it) ? std::next(it) : embed_.hidden.erase(it);
  }
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
  if (!error_.empty()) s += ". Error: " + error_;
  return s;
}

std::string App::export_name(const char* extension, const std::string& what) const {
  return experiment_->info().id + "-" + (preset_.empty() ? std::string("custom") : preset_) + "-seed" +
         std::to_string(seed_) + (what.empty() ? "" : "-" + what) + "." + extension;
}

void App::download(const std::string& kind) const {
  if (!download_ || !started_) return;
  if (kind == "json") download_(export_name("json").c_str(), "application/json", json().c_str());
  else download_(export_name("csv").c_str(), "text/csv", csv().c_str());
}

const Results& App::figure_results() const {
  return view_ == View::Inspector && has_inspector_ ? inspector_.results() : results_;
}

std::string App::figure_prefix() const {
  if (&figure_results() == &results_) return "";
  return "inspect-p" + std::to_string(inspector_.point()) + "-t" + std::to_string(inspector_.trial()) + "-";
}

std::string App::plot_svg(int index) const {
  const Results& r = figure_results();
  if (index < 0 || index >= static_cast<int>(r.plots.size())) return "";
  Plot plot = r.plots[static_cast<std::size_t>(index)];
  if (&r == &results_) {  // the log toggles, as on screen
    plot.log_x = plot.log_x || log_x_;
    plot.log_y = plot.log_y || log_y_;
  }
  return plot_to_svg(plot);
}

std::string App::plots_json() const {
  const Results& r = figure_results();
  std::string out = "{\"plots\":[";
  for (std::size_t i = 0; i < r.plots.size(); ++i) {
    out += std::string(i ? "," : "") + "{\"title\":" + json_escape(r.plots[i].title) + ",\"series\":[";
    for (std::size_t k = 0; k < r.plots[i].series.size(); ++k)
      out += std::string(k ? "," : "") + json_escape(r.plots[i].series[k].name);
    out += "]}";
  }
  out += "],\"heatmaps\":[";
  for (std::size_t i = 0; i < r.heatmaps.size(); ++i)
    out += std::string(i ? "," : "") + json_escape(r.heatmaps[i].title);
  return out + "]}";
}

std::string App::export_figure(const std::string& kind, int index) const {
  const Results& r = figure_results();
  const int plots = static_cast<int>(r.plots.size()), maps = static_cast<int>(r.heatmaps.size());
  if (kind == "svg" || kind == "png") {
    if (index < 0 || index >= plots)
      return "figure: plot " + std::to_string(index) + " does not exist; allowed: 0 to " + std::to_string(plots - 1);
    const std::string name = export_name(kind.c_str(), figure_prefix() + "plot" + std::to_string(index + 1));
    if (kind == "svg" && download_) download_(name.c_str(), "image/svg+xml", plot_svg(index).c_str());
    if (kind == "png" && svg_as_png_) svg_as_png_(name.c_str(), plot_svg(index).c_str());
    return "";
  }
  if (kind == "heatmap") {
    if (index < 0 || index >= maps)
      return "figure: heatmap " + std::to_string(index) + " does not exist; allowed: 0 to " + std::to_string(maps - 1);
    const double gamma = &r == &results_ ? 1.0 : inspector_.gamma();  // as on screen
    const std::string png = heatmap_to_png(r.heatmaps[static_cast<std::size_t>(index)], gamma);
    const std::string name = export_name("png", figure_prefix() + "heatmap" + std::to_string(index + 1));
    if (download_bytes_) download_bytes_(name.c_str(), "image/png", png.data(), static_cast<int>(png.size()));
    return "";
  }
  return "figure: kind '" + kind + "' is not allowed; allowed: svg, png or heatmap";
}

void App::share() const {
  if (copy_text_) copy_text_((page_url_ + "#" + hash()).c_str(), "Link");
}

std::string App::hash_with(const EmbedOptions& embed, bool run) const {
  HashState st;
  st.experiment = experiment_->info().id;
  st.preset = preset_;  // its name (and description); the parameters below are applied after it
  st.params = experiment_->schema().to_key_values(params_);
  st.has_seed = true;
  st.seed = seed_;
  st.flags = embed.to_flags();
  if (run) st.flags.emplace_back("run", "1");
  if (view_ == View::Inspector)
    st.flags.insert(st.flags.end(), {{"view", "inspector"}, {"point", std::to_string(inspector_.point())},
                                     {"trial", std::to_string(inspector_.trial())}});
  return encode_hash(st);
}

// While the teacher previews, the address keeps the page's own state (a reload leaves the preview).
std::string App::hash() const { return hash_with(previewing_ ? before_preview_ : embed_, false); }

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
    const EmbedOptions embed = parse_embed_options(st, e->schema());
    const std::string view = st.flag("view");
    if (!view.empty() && view != "results" && view != "inspector")
      throw ParamError("link: 'view=" + view + "' is not allowed; allowed: results or inspector");
    const int point = link_index(st, "point"), trial = link_index(st, "trial");
    select_experiment(e->info().id);
    experiment_ = std::move(e);
    params_ = p;
    preset_ = st.preset;
    embed_ = embed;
    previewing_ = false;
    if (st.has_seed) seed_ = st.seed;
    std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
    controls_.forget_edits();
    reset();
    inspector_.select(point, trial);
    show(view == "inspector" && has_inspector_ ? View::Inspector : View::Results);
    // Students without a Run button get a running experiment.
    if (st.flag("run") == "1" || embed_.hides("run")) run();
    return "";
  } catch (const std::exception& ex) {
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
  focused_.clear();
  if (previewing_) draw_preview_banner();
  draw_toolbar();
  ImGui::Separator();
  // An embed may hide every control: the results then fill the frame.
  bool any_control = shows("info") || (experiment_->accepts_data() && open_picker_ && shows("data"));
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

void App::draw_preview_banner() {
  ImGui::PushStyleColor(ImGuiCol_Text, theme().warning);
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("Preview: this is what students see in the embed.");
  ImGui::PopStyleColor();
  ImGui::SameLine();
  if (ImGui::Button("Back to editing")) {
    embed_ = before_preview_;
    previewing_ = false;
  }
  ImGui::Separator();
}

void App::draw_theme_picker() {
  static const char* const labels[] = {"dark", "light", "high contrast"};
  static const ThemeChoice choices[] = {ThemeChoice::Dark, ThemeChoice::Light, ThemeChoice::HighContrast};
  const ThemeChoice shown = theme_shown();
  int current = shown == ThemeChoice::Light ? 1 : shown == ThemeChoice::HighContrast ? 2 : 0;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
  if (ImGui::Combo("##theme", &current, labels, 3)) embed_.theme = choices[current];
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Colour theme (kept in links).");
}

void App::draw_export_buttons() {
  const float spacing = ImGui::GetStyle().ItemSpacing.x;
  flow(button_width("Share") + button_width("CSV") + button_width("JSON") + button_width("Figures...") + 3.0f * spacing);
  if (ImGui::Button("Share")) share();
  note_focus("Share");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Copy a link to this exact state (experiment, parameters, seed).");
  ImGui::SameLine();
  ImGui::BeginDisabled(!started_ || !download_);
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
    ImGui::SetTooltip("Download a plot as SVG (vector, for papers) or PNG, or a heatmap as PNG.");
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
    if (ImGui::SmallButton("PNG")) export_figure("heatmap", static_cast<int>(i));
    ImGui::PopID();
  }
  ImGui::EndPopup();
}

void App::draw_toolbar() {
  const float em = ImGui::GetFontSize();
  if (!embed_.embed) {
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
  } else {
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(experiment_->info().title.c_str());
  }
  if (shows("presets")) draw_preset_picker();
  if (shows("run")) draw_run_buttons();
  if (shows("export") && copy_text_) {
    draw_export_buttons();
    if (!embed_.embed) {
      ImGui::SameLine();
      if (ImGui::Button("Embed...")) embed_dialog_.open(embed_);
  note_focus("Embed");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("For teachers: choose the controls students see and copy an iframe for a course page.");
    }
  }
  if (!embed_.embed) {
    const auto hash_for = [this](const EmbedOptions& o, bool run) { return hash_with(o, run); };
    const bool has_tabs = has_inspector_ || !reproduction_name_.empty();
    if (embed_dialog_.draw(experiment_->schema(), experiment_->accepts_data(), has_tabs, experiment_->info().title,
                           page_url_, hash_for, copy_text_)) {
      before_preview_ = embed_;
      embed_ = embed_dialog_.options();
      previewing_ = true;
      if (embed_dialog_.run()) run();
    }
  }
  if (shows("seed")) draw_seed_field();
  if (!embed_.embed) {
    flow(em * 8.0f);
    draw_theme_picker();
  } else if (open_url_) {
    flow(button_width("Open in Attention Lab"));
    if (ImGui::Button("Open in Attention Lab")) {
      EmbedOptions full;
      full.theme = embed_.theme;
      open_url_((page_url_ + "#" + hash_with(full, false)).c_str());
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("This experiment in the full lab, in a new tab, with every control.");
  }
  flow(em * 10.0f);
  draw_progress();
}

void App::draw_preset_picker() {
  const float em = ImGui::GetFontSize();
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
}

void App::draw_run_buttons() {
  const char* run_label = state_ == RunState::Running ? "Pause" : state_ == RunState::Paused ? "Resume" : "Run";
  flow(button_width(run_label) + button_width("Step") + button_width("Reset") + 2.0f * ImGui::GetStyle().ItemSpacing.x);
  if (ImGui::Button(run_label)) state_ == RunState::Running ? pause() : run();
  note_focus("Run");
  const ImVec2 lo = ImGui::GetItemRectMin(), hi = ImGui::GetItemRectMax();
  run_button_rect_[0] = lo.x, run_button_rect_[1] = lo.y, run_button_rect_[2] = hi.x - lo.x, run_button_rect_[3] = hi.y - lo.y;
  ImGui::SameLine();
  if (ImGui::Button("Step")) step_once();
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
      seed_ = parse_seed(seed_text_);
      params_changed();
    } catch (const ParamError& e) {
      std::snprintf(seed_text_, sizeof seed_text_, "%llu", static_cast<unsigned long long>(seed_));
      error_ = e.what();
    }
  }
}

void App::draw_progress() {
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
  const int open = reproduction_.draw();
  if (open >= 0) open_panel(open);
}

void App::draw_notes(const std::vector<std::string>& notes) {
  // Conditions and states: "OK:" green, "FAILS:" and errors red, "Warning:" amber. They take at
  // most a third of the space (then they scroll), so the plots stay in view on small screens.
  const float width = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().ScrollbarSize;
  float needed = 0.0f;
  for (const auto& note : notes) needed += wrapped_height(note, width) + ImGui::GetStyle().ItemSpacing.y;
  if (needed <= 0.0f) return;
  const float most = std::max(ImGui::GetFontSize() * 3.5f, ImGui::GetContentRegionAvail().y * 0.33f);
  ImGui::BeginChild("notes", ImVec2(0.0f, std::min(needed, most)), false, ImGuiWindowFlags_NavFlattened);
  for (const auto& note : notes) {
    ImU32 colour = 0;
    if (note.rfind("OK: ", 0) == 0) colour = theme().ok;
    else if (note.rfind("FAILS: ", 0) == 0) colour = theme().error;
    else if (note.rfind("Warning: ", 0) == 0) colour = theme().warning;
    text_wrapped_at_spaces(note, colour);
  }
  ImGui::EndChild();
}

void App::draw_sweep_results() {
  if (results_.plots.empty()) {
    ImGui::TextDisabled("Press Run to start; the curves grow as trials finish.");
    return;
  }
  ImGui::Checkbox("log x", &log_x_);
  ImGui::SameLine();
  ImGui::Checkbox("log y", &log_y_);
  draw_notes(results_.notes);
  // The plots share the height left, but each keeps at least 10 lines for its data area plus its
  // legend's rows (a narrow frame stacks a long legend), and then the panel scrolls.
  const float font = ImGui::GetFontSize();
  const float share = ImGui::GetContentRegionAvail().y / static_cast<float>(results_.plots.size()) -
                      ImGui::GetStyle().ItemSpacing.y;
  const auto text_width = [](const std::string& text) { return ImGui::CalcTextSize(text.c_str()).x; };
  for (std::size_t i = 0; i < results_.plots.size(); ++i) {
    Plot plot = results_.plots[i];
    plot.log_x = plot.log_x || log_x_;
    plot.log_y = plot.log_y || log_y_;
    const float width = std::max(200.0f, ImGui::GetContentRegionAvail().x);  // as draw_plot takes it
    const int legend_rows = plot_frame(plot, width, 0.0, font, text_width).legend_rows;
    draw_plot(std::to_string(i).c_str(), plot, std::max(font * (12.0f + 1.3f * static_cast<float>(legend_rows)), share));
  }
  const float side = std::min(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 30.0f);
  for (std::size_t i = 0; i < results_.heatmaps.size(); ++i)
    heatmaps_.draw(static_cast<int>(i), results_.heatmaps[i], results_version_, ImVec2(side, side), false);
}

}  // namespace attnlab::ui
