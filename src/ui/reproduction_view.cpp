#include "ui/reproduction_view.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

#include "experiments/registry.hpp"
#include "experiments/reproduction_figures.hpp"
#include "experiments/reproductions.hpp"
#include "imgui.h"
#include "lab/clock.hpp"
#include "lab/figure_grid.hpp"
#include "lab/run_record.hpp"
#include "ui/plot_widget.hpp"

namespace attnlab::ui {

void ReproductionView::start(const std::string& name, bool paper_trials, std::uint64_t seed) {
  std::vector<Panel> panels;
  const KeyValues overrides{{"paper_trials", paper_trials ? "true" : "false"}};
  const Reproduction& declared = reproduction(name);
  for (const attnlab::Panel& p : declared.panels) {
    Panel panel{p.name, p.experiment, p.preset, "", {}, 0.0, false};
    std::unique_ptr<Experiment> run = make_experiment(p.experiment);
    panel.title = run->preset(p.preset).title;
    const Params params = run->make_params(p.preset, overrides);
    panel.run.open(std::move(run), params, seed);
    panel.run.prepare();
    panels.push_back(std::move(panel));
  }
  panels_ = std::move(panels);
  scheduler_ = UnitScheduler();
  name_ = name;
  summary_column_ = declared.summary_column;
  paper_trials_ = paper_trials;
  seed_ = seed;
  current_ = 0;
  paused_ = false;
  wall_start_ = now_seconds();
  wall_end_ = 0.0;
}

void ReproductionView::note_finished_panels() {
  for (Panel& p : panels_)
    if (!p.done && p.run.finished()) p.done = true;
  while (current_ < panels_.size() && panels_[current_].done) ++current_;
  if (finished() && wall_end_ == 0.0) wall_end_ = now_seconds();
}

void ReproductionView::advance(double seconds, WorkerPool* pool, int threads) {
  if ((paused_ || finished()) && scheduler_.active()) scheduler_.stop(pool);
  if (paused_ || finished()) return;
  if (pool && !pool->failed()) {
    const auto changed = scheduler_.drive(*pool, threads, [&] {
      std::vector<UnitScheduler::Run> runs;
      for (Panel& p : panels_)
        runs.push_back({&p.run.experiment(), UnitScheduler::spec_json(p.run.experiment(), p.run.params(), seed_, "")});
      return runs;
    });
    for (std::size_t i : changed.value_or(std::vector<std::size_t>{})) {
      panels_[i].run.advance([](Experiment&) { return true; });  // units absorbed: new results
      panels_[i].seconds = scheduler_.compute_seconds(i);
    }
    if (changed) note_finished_panels();
    return;
  }
  if (scheduler_.active()) scheduler_.stop(pool);  // the workers all failed: the rest runs here
  const double deadline = now_seconds() + seconds;
  while (!finished()) {
    Panel& p = panels_[current_];
    const double t0 = now_seconds();
    Budget b;
    b.seconds = deadline - t0;
    p.run.step(b);
    p.seconds += now_seconds() - t0;
    p.run.rethrow_error();  // a failed slice reaches the frame, as a step that throws always did
    if (p.run.finished()) {
      p.done = true;
      ++current_;
      if (finished()) wall_end_ = now_seconds();
    }
    if (now_seconds() >= deadline) break;
  }
}

double ReproductionView::progress() const {
  if (panels_.empty()) return 0.0;
  double done = 0.0;
  for (const Panel& p : panels_) done += p.done ? 1.0 : p.run.has_experiment() ? p.run.fraction() : 0.0;
  return done / static_cast<double>(panels_.size());
}

std::string ReproductionView::status_text() const {
  double compute = 0.0;
  std::size_t done = 0;
  for (const Panel& p : panels_) compute += p.seconds, done += p.done;
  char buf[200];
  if (finished())
    std::snprintf(buf, sizeof buf, "Reproduction finished: %zu panels in %.1f s of computing (%.1f s on the clock)",
                  panels_.size(), compute, wall_end_ - wall_start_);
  else
    std::snprintf(buf, sizeof buf, "Reproducing: %zu of %zu panels done, %.0f%% of the work", done, panels_.size(),
                  100.0 * progress());
  const std::string reruns = scheduler_.rerun_text();
  return reruns.empty() ? std::string(buf) : std::string(buf) + ". " + reruns;
}

std::string ReproductionView::json() const {
  using Json = nlohmann::ordered_json;
  const auto number = [](double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); };
  double compute = 0.0;
  for (const Panel& p : panels_) compute += p.seconds;
  const double wall = (finished() ? wall_end_ : now_seconds()) - wall_start_;
  Json panels = Json::array();
  for (const Panel& p : panels_) {
    const Table& t = p.run.results().table;
    const int column = t.column(summary_column_);
    Json values = Json::array();
    for (const auto& row : t.rows)
      if (column >= 0) values.push_back(number(row[static_cast<std::size_t>(column)]));
    panels.push_back({{"panel", p.name}, {"experiment", p.experiment}, {"preset", p.preset}, {"done", p.done},
                      {"seconds", number(p.seconds)}, {"points", t.rows.size()}, {"summary", values}});
  }
  return Json{{"name", name_}, {"paper_trials", paper_trials_}, {"seed", seed_}, {"finished", finished()},
              {"compute_seconds", number(compute)}, {"wall_seconds", number(wall)}, {"summary_column", summary_column_},
              {"panels", panels}}
      .dump();
}

std::size_t ReproductionView::figure_count() const { return started() ? reproduction(name_).figures.size() : 0; }

std::string ReproductionView::figure_title(std::size_t figure) const { return reproduction(name_).figures.at(figure).title; }

std::string ReproductionView::figure_svg(std::size_t figure) const {
  const auto results = [&](const attnlab::Panel& declared) -> const Results* {
    for (const Panel& p : panels_)
      if (p.name == declared.name && !p.run.results().plots.empty()) return &p.run.results();
    return nullptr;
  };
  return figure_grid_to_svg(reproduction_figure(reproduction(name_), figure, results, seed_));
}

std::string ReproductionView::figure_file(std::size_t figure, const std::string& extension) const {
  return reproduction_figure_file(reproduction(name_), figure, seed_, extension);
}

std::unique_ptr<Experiment> ReproductionView::take(int panel, Params& params, std::string& preset,
                                                   std::uint64_t& seed) {
  Panel& p = panels_[static_cast<std::size_t>(panel)];
  params = p.run.params();
  preset = p.preset;
  seed = seed_;
  return p.run.take_experiment();
}

int ReproductionView::draw() {
  int open = -1;
  const float em = ImGui::GetFontSize();
  ImGui::TextWrapped("%s. Each panel is one preset with the paper's settings%s. Open a finished panel to see it "
                     "in full (both plots, the table, the inspector).",
                     status_text().c_str(), paper_trials_ ? " and the paper's trial counts" : "");
  const float avail = ImGui::GetContentRegionAvail().x;
  const int columns = std::max(1, static_cast<int>(avail / (em * 22.0f)));
  const float cell = (avail - ImGui::GetStyle().ItemSpacing.x * static_cast<float>(columns - 1)) / static_cast<float>(columns);
  for (std::size_t i = 0; i < panels_.size(); ++i) {
    Panel& p = panels_[i];
    if (i % columns != 0) ImGui::SameLine();
    ImGui::BeginChild(p.name.c_str(), ImVec2(cell, em * 15.0f), true, ImGuiWindowFlags_NoScrollbar);
    ImGui::Text("%s", p.title.c_str());
    if (p.done) {
      ImGui::TextDisabled("%.2f s", p.seconds);
      ImGui::SameLine();
      if (ImGui::SmallButton("Open")) open = static_cast<int>(i);
    } else if (p.run.has_experiment() && p.run.progress().done > 0) {
      ImGui::TextDisabled("running, %.0f%%", 100.0 * p.run.fraction());
    } else {
      ImGui::TextDisabled("waiting");
    }
    if (!p.run.results().plots.empty()) {
      Plot small = p.run.results().plots[0];
      small.title = p.name;
      draw_plot(p.name.c_str(), small, ImGui::GetContentRegionAvail().y);
    }
    ImGui::EndChild();
  }
  return open;
}

}  // namespace attnlab::ui
