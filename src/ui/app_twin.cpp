// The App's JSON for its text twin (web/twin.js), browser tests and course pages: what the page
// shows, the controls and the figures (written by page/page_json.hpp).
#include <algorithm>
#include <iterator>

#include <nlohmann/json.hpp>

#include "page/page_json.hpp"
#include "ui/app.hpp"

namespace attnlab::ui {

std::string App::page_json() const {
  const char* page = link_.start_page() ? "start" : link_.in_story() ? "story" : "lab";
  const bool stopped = run_.state() != RunState::Running && run_.state() != RunState::Paused;
  return page::page_json(page, link_.in_story() ? story_.json(run_.results(), run_.state() == RunState::Done, story_settings()) : "",
                         showing_inputs() ? &run_.inputs() : nullptr, stopped ? run_blocked() : "",
                         link_.start_page() ? start_.json() : "");
}

std::string App::plots_json() const {
  std::vector<std::string> titles;
  for (std::size_t i = 0; i < reproduction_.figure_count(); ++i) titles.push_back(reproduction_.figure_title(i));
  return page::plots_json(figure_results(), titles);
}

std::string App::twin_figures_json() const {
  const bool inputs = !inspector_figures() && showing_inputs();
  // In a story the run's figures come in the canvas's order (the named one first).
  const bool ordered = link_.in_story() && !inputs && !inspector_figures();
  return page::twin_figures_json(figure_results(), inputs, inputs ? story_frame() : nullptr,
                                 ordered ? story_.step().plot : "",
                                 ordered ? story_.step().shown_plots : std::vector<std::string>{});
}

std::string App::story_hints_json() const {
  if (!link_.in_story()) return "{}";
  const bool done = run_.state() == RunState::Done;
  return nlohmann::json{{"plot", StoryPanel::plot_hint(story_.step())}, {"run", StoryPanel::run_hint(story_, done, controls_.any_refused())}}.dump();
}

std::string App::twin_params_json() const {
  page::TwinControls c;
  c.experiment = &run_.experiment();
  c.params = &run_.params();
  c.preset = run_.preset();
  c.seed = run_.seed();
  c.visible = visible_params();
  if (link_.in_story()) {  // a story step shows its own controls only (App::draw_controls)
    const std::vector<std::string>& shows = story_.step().shows;
    c.visible.erase(std::remove_if(c.visible.begin(), c.visible.end(),
                                   [&](const std::string& k) { return std::find(shows.begin(), shows.end(), k) == shows.end(); }),
                    c.visible.end());
  }
  for (const char* group : {"presets", "run", "export", "seed", "data"}) c.shows.emplace_back(group, shows(group));
  c.embed = link_.embed().embed;
  c.error = run_.error();
  return page::twin_params_json(c);
}

}  // namespace attnlab::ui
