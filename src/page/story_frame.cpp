#include "page/story_frame.hpp"

#include <algorithm>
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

namespace {

// Indices of `titles`: those titled `named`, then those titled each of `shown` in turn, then the rest
// as listed.
std::vector<std::size_t> titles_in_order(const std::vector<std::string>& titles, const std::string& named,
                                         const std::vector<std::string>& shown) {
  std::vector<std::size_t> order;
  const auto take = [&](const std::string& title) {
    for (std::size_t i = 0; i < titles.size(); ++i)
      if (!title.empty() && titles[i] == title && std::find(order.begin(), order.end(), i) == order.end())
        order.push_back(i);
  };
  take(named);
  for (const std::string& title : shown) take(title);
  for (std::size_t i = 0; i < titles.size(); ++i)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  return order;
}

template <class Figure>
std::vector<std::string> titles_of(const std::vector<Figure>& figures) {
  std::vector<std::string> titles;
  for (const Figure& f : figures) titles.push_back(f.title);
  return titles;
}

}  // namespace

std::vector<std::size_t> plots_in_order(const std::vector<Plot>& plots, const std::string& named,
                                        const std::vector<std::string>& shown) {
  return titles_in_order(titles_of(plots), named, shown);
}

std::vector<std::size_t> maps_in_order(const std::vector<Heatmap>& maps, const std::string& named) {
  return titles_in_order(titles_of(maps), named, {});
}

std::size_t plots_shown_open(const std::vector<Plot>& plots, const std::string& named,
                             const std::vector<std::string>& shown) {
  std::size_t open = 0;
  for (const Plot& p : plots)
    if ((!named.empty() && p.title == named) || std::find(shown.begin(), shown.end(), p.title) != shown.end()) ++open;
  return open;
}

}  // namespace attnlab::page
