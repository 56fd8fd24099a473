#include "page/story_frame.hpp"

#include <exception>
#include <memory>

#include "experiments/registry.hpp"

namespace attnlab::page {

Plot empty_frame(const std::string& title, const Results& skeleton) {
  for (const Plot& p : skeleton.plots)
    if (p.title == title) {
      Plot frame = Plot::titled(p.title).x(p.x_label).y(p.y_label).log_x_axis(p.log_x).log_y_axis(p.log_y);
      frame.x_flags = p.x_flags, frame.y_flags = p.y_flags;
      return frame;
    }
  for (const Heatmap& h : skeleton.heatmaps)
    if (h.title == title) return Plot::titled(h.title).x(h.x_label).y(h.y_label);
  return Plot::titled(title);
}

Plot step_frame(const StoryStep& step) {
  if (step.plot.empty()) return Plot{};
  try {
    std::unique_ptr<Experiment> e = make_experiment(step.settings.experiment);
    e->reset(e->make_params(step.settings.preset, step.settings.params), step.settings.seed);
    return empty_frame(step.plot, e->results());
  } catch (const std::exception&) {  // settings that cannot run: Run says why; the title still shows
    return Plot::titled(step.plot);
  }
}

}  // namespace attnlab::page
