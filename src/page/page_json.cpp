#include "page/page_json.hpp"

#include <cmath>
#include <nlohmann/json.hpp>

#include "lab/plot_looks.hpp"
#include "lab/text.hpp"
#include "lab/plot_map_frame.hpp"
#include "page/story_frame.hpp"

namespace attnlab::page {

namespace {
using Json = nlohmann::ordered_json;

Json number(double x) { return std::isfinite(x) ? Json(x) : Json(nullptr); }

Json numbers(const std::vector<double>& v) {
  Json out = Json::array();
  for (double x : v) out.push_back(number(x));
  return out;
}

Json parsed_or_null(const std::string& text) { return text.empty() ? Json(nullptr) : Json::parse(text); }

// Where a path starts or ends, and the ring it lies on when there is one (walk 18: "from x_1 = 0.5857,
// x_2 = 1.47 to x_1 = 0.4135, x_2 = -1.432" did not say that the path runs from x0 to -x*).
std::string path_end(const Heatmap& h, double row, double col) {
  const std::string place = point_place(h, row, col);
  for (const Heatmap::Mark& m : h.marks)
    if (std::isfinite(m.at_row) && std::isfinite(m.at_col) && std::hypot(m.at_row - row, m.at_col - col) < 0.5)
      return m.label + " (" + place + ")";
  return place;
}
}  // namespace

std::string plots_json(const Results& r, const std::vector<std::string>& reproduction_titles) {
  Json plots = Json::array(), heatmaps = Json::array();
  for (const Plot& p : r.plots) {
    Json series = Json::array();
    for (const Series& s : p.series) series.push_back(s.name);
    plots.push_back({{"title", p.title}, {"series", series}});
  }
  for (const Heatmap& h : r.heatmaps) heatmaps.push_back(h.title);
  return Json{{"plots", plots}, {"heatmaps", heatmaps}, {"reproduction", reproduction_titles}}.dump();
}

std::string twin_figures_json(const Results& r, bool inputs, const Plot* pending, const std::string& named,
                              const std::vector<std::string>& shown) {
  Json plots = Json::array(), heatmaps = Json::array();
  for (std::size_t i : plots_in_order(r.plots, named, shown)) {
    const Plot& p = r.plots[i];
    Json series = Json::array();
    for (const Series& s : p.series) {
      Json one = {{"name", s.name}, {"x", numbers(s.x)}, {"y", numbers(s.y)}};
      if (s.flags & SeriesFlags_Level) one["level"] = true;  // drawn across the plot at its first y
      series.push_back(one);
    }
    plots.push_back({{"index", i}, {"title", p.title}, {"x_label", p.x_label}, {"y_label", p.y_label}, {"series", series},
                     {"x_name", axis_short_name(p.x_label, "x")}, {"y_name", axis_short_name(p.y_label, "y")},
                     {"band", p.rounding_level > 0.0 ? rounding_band_label(p.rounding_level) : ""}});
  }
  for (std::size_t i : maps_in_order(r.heatmaps, named)) {
    const Heatmap& h = r.heatmaps[i];
    Json marks = Json::array();
    for (const Heatmap::Mark& m : h.marks) {
      const std::size_t at = static_cast<std::size_t>(m.row) * static_cast<std::size_t>(h.cols) + static_cast<std::size_t>(m.col);
      const bool exact = std::isfinite(m.at_row) && std::isfinite(m.at_col);  // a point, not a cell
      marks.push_back({{"row", m.row}, {"col", m.col}, {"label", m.label},
                       {"place", exact ? point_place(h, m.at_row, m.at_col) : cell_place(h, m.row, m.col)},
                       {"value", at < h.values.size() ? number(h.values[at]) : Json(nullptr)}, {"point", exact}});
    }
    Json paths = Json::array();  // each path's length and where it starts and ends (a solver's iterates, a line)
    for (const Heatmap::Path& p : h.paths)
      if (!p.rows.empty() && p.rows.size() == p.cols.size())
        paths.push_back({{"label", p.label}, {"points", p.rows.size()}, {"first", path_end(h, p.rows.front(), p.cols.front())},
                         {"last", path_end(h, p.rows.back(), p.cols.back())}});
    heatmaps.push_back({{"index", i}, {"extent", map_extent(h)}, {"named", !named.empty() && h.title == named},
                        {"title", h.title}, {"rows", h.rows}, {"cols", h.cols}, {"low", number(h.low)},
                        {"high", number(h.high)}, {"x_label", h.x_label}, {"y_label", h.y_label},
                        {"value_label", h.value_label}, {"note", h.note}, {"marks", marks},
                        {"paths", paths}});
  }
  const Json frame = pending ? Json{{"title", pending->title}, {"x_label", pending->x_label}, {"y_label", pending->y_label},
                                    {"note", kDrawnAtRun}}
                             : Json(nullptr);
  return Json{{"inputs", inputs}, {"pending", frame}, {"plots", plots}, {"heatmaps", heatmaps}}.dump();
}

std::string twin_params_json(const TwinControls& c) {
  Json params = Json::object(), shows = Json::object();
  for (const auto& [key, value] : c.experiment->schema().to_key_values(*c.params)) params[key] = value;
  for (const auto& [group, shown] : c.shows) shows[group] = shown;
  return Json{{"experiment", c.experiment->info().id}, {"preset", c.preset}, {"seed", std::to_string(c.seed)},
              {"params", params}, {"visible", c.visible}, {"shows", shows}, {"embed", c.embed}, {"error", c.error}}
      .dump();
}

std::string page_json(const std::string& page, const std::string& story_json, const Results* inputs,
                      const std::string& run_blocked, const std::string& cards_json) {
  Json titles = nullptr;
  if (inputs) {
    titles = Json::array();
    for (const Plot& p : inputs->plots) titles.push_back(p.title);
    for (const Heatmap& h : inputs->heatmaps) titles.push_back(h.title);
  }
  return Json{{"page", page}, {"story", parsed_or_null(story_json)}, {"inputs", titles}, {"runBlocked", run_blocked},
              {"cards", parsed_or_null(cards_json)}}
      .dump();
}

}  // namespace attnlab::page
