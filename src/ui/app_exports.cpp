// The App's exports: CSV / JSON downloads, figures (plots and heatmaps as SVG or PNG, the
// reproduction's paper figures as multi-panel SVG or PNG) and the share link. Files are named after
// the experiment, preset and seed (the reproduction's after the paper, figure and seed). PNGs are
// the SVGs drawn by the browser at twice their size.
#include <algorithm>
#include <cmath>
#include <iterator>
#include <string>
#include <vector>

#include "lab/heatmap_svg.hpp"
#include "lab/plot_svg.hpp"
#include "lab/run_record.hpp"
#include "ui/app.hpp"

namespace attnlab::ui {

std::string App::export_name(const char* extension, const std::string& what) const {
  return run_.experiment().info().id + "-" + (preset_.empty() ? std::string("custom") : preset_) + "-seed" +
         std::to_string(seed_) + (what.empty() ? "" : "-" + what) + "." + extension;
}

void App::download(const std::string& kind) const {
  if (!download_ || !run_.prepared()) return;
  const bool as_json = kTableFormats.decode("download kind", kind) == TableFormat::Json;  // unknown: ParamError
  download_(export_name(as_json ? "json" : "csv").c_str(), as_json ? "application/json" : "text/csv",
            (as_json ? json() : csv()).c_str());
}

bool App::inspector_figures() const { return view_ == View::Inspector && has_inspector_; }

const Results& App::figure_results() const {
  if (inspector_figures()) return inspector_.results();
  return showing_inputs() ? inputs_ : run_.results();
}

std::string App::figure_prefix() const {
  if (!inspector_figures()) return "";
  return "inspect-p" + std::to_string(inspector_.point()) + "-t" + std::to_string(inspector_.trial()) + "-";
}

std::string App::plot_svg(int index) const {
  const Results& r = figure_results();
  if (index < 0 || index >= static_cast<int>(r.plots.size())) return "";
  Plot plot = r.plots[static_cast<std::size_t>(index)];
  if (!inspector_figures()) {  // the log toggles, as on screen
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
  out += "],\"reproduction\":[";
  for (std::size_t i = 0; i < reproduction_.figure_count(); ++i)
    out += std::string(i ? "," : "") + json_escape(reproduction_.figure_title(i));
  return out + "]}";
}

namespace {
std::string json_numbers(const std::vector<double>& v) {
  std::string out = "[";
  for (std::size_t i = 0; i < v.size(); ++i)
    out += std::string(i ? "," : "") + (std::isfinite(v[i]) ? format_number(v[i]) : std::string("null"));
  return out + "]";
}
std::string json_number(double x) { return std::isfinite(x) ? format_number(x) : std::string("null"); }
}  // namespace

std::string App::twin_figures_json() const {
  const Results& r = figure_results();
  std::string out = std::string("{\"inputs\":") + (!inspector_figures() && showing_inputs() ? "true" : "false") + ",\"plots\":[";
  for (std::size_t i = 0; i < r.plots.size(); ++i) {
    const Plot& p = r.plots[i];
    out += std::string(i ? "," : "") + "{\"title\":" + json_escape(p.title) + ",\"x_label\":" + json_escape(p.x_label) +
           ",\"y_label\":" + json_escape(p.y_label) + ",\"series\":[";
    for (std::size_t k = 0; k < p.series.size(); ++k)
      out += std::string(k ? "," : "") + "{\"name\":" + json_escape(p.series[k].name) +
             ",\"x\":" + json_numbers(p.series[k].x) + ",\"y\":" + json_numbers(p.series[k].y) + "}";
    out += "]}";
  }
  out += "],\"heatmaps\":[";
  for (std::size_t i = 0; i < r.heatmaps.size(); ++i) {
    const Heatmap& h = r.heatmaps[i];
    out += std::string(i ? "," : "") + "{\"title\":" + json_escape(h.title) + ",\"rows\":" + std::to_string(h.rows) +
           ",\"cols\":" + std::to_string(h.cols) + ",\"low\":" + json_number(h.low) + ",\"high\":" + json_number(h.high) +
           ",\"x_label\":" + json_escape(h.x_label) + ",\"y_label\":" + json_escape(h.y_label) +
           ",\"value_label\":" + json_escape(h.value_label) + ",\"note\":" + json_escape(h.note) + ",\"marks\":[";
    for (std::size_t k = 0; k < h.marks.size(); ++k) {
      const Heatmap::Mark& m = h.marks[k];
      const std::size_t at = static_cast<std::size_t>(m.row) * static_cast<std::size_t>(h.cols) + static_cast<std::size_t>(m.col);
      out += std::string(k ? "," : "") + "{\"row\":" + std::to_string(m.row) + ",\"col\":" + std::to_string(m.col) +
             ",\"label\":" + json_escape(m.label) + ",\"value\":" + json_number(at < h.values.size() ? h.values[at] : NAN) + "}";
    }
    out += "]}";
  }
  return out + "]}";
}

std::string App::twin_params_json() const {
  std::string out = "{\"experiment\":" + json_escape(run_.experiment().info().id) + ",\"preset\":" + json_escape(preset_) +
                    ",\"seed\":" + json_escape(std::to_string(seed_)) + ",\"params\":{";
  const KeyValues values = run_.experiment().schema().to_key_values(params_);
  for (std::size_t i = 0; i < values.size(); ++i)
    out += std::string(i ? "," : "") + json_escape(values[i].first) + ":" + json_escape(values[i].second);
  out += "},\"visible\":[";
  std::vector<std::string> keys = visible_params();
  if (in_story_) {  // a story step shows its own controls only (App::draw_controls)
    const std::vector<std::string>& shows = story_.step().shows;
    keys.erase(std::remove_if(keys.begin(), keys.end(),
                              [&](const std::string& k) { return std::find(shows.begin(), shows.end(), k) == shows.end(); }),
               keys.end());
  }
  for (std::size_t i = 0; i < keys.size(); ++i) out += std::string(i ? "," : "") + json_escape(keys[i]);
  out += "],\"shows\":{";
  const char* groups[] = {"presets", "run", "export", "seed", "data"};
  for (std::size_t i = 0; i < std::size(groups); ++i)
    out += std::string(i ? "," : "") + "\"" + groups[i] + "\":" + (shows(groups[i]) ? "true" : "false");
  out += std::string("},\"embed\":") + (embed_.embed ? "true" : "false");
  return out + ",\"error\":" + json_escape(error_) + "}";
}

std::string App::heatmap_svg(int index) const {
  const Results& r = figure_results();
  if (index < 0 || index >= static_cast<int>(r.heatmaps.size())) return "";
  const Heatmap& h = r.heatmaps[static_cast<std::size_t>(index)];
  if (h.rows < 1 || h.cols < 1) return "";
  return heatmap_to_svg(h, inspector_figures() ? inspector_.gamma() : 1.0);  // the colour scale on screen
}

std::string App::figure_svg(const std::string& kind, int index) const {
  if (kind == "svg" || kind == "png") return plot_svg(index);
  if (kind == "heatmap" || kind == "heatmap-svg") return heatmap_svg(index);
  if ((kind == "reproduction" || kind == "reproduction-svg") && index >= 0 &&
      static_cast<std::size_t>(index) < reproduction_.figure_count())
    return reproduction_.figure_svg(static_cast<std::size_t>(index));
  return "";
}

std::string App::export_figure(const std::string& kind, int index) const {
  const Results& r = figure_results();
  const int plots = static_cast<int>(r.plots.size()), maps = static_cast<int>(r.heatmaps.size());
  const bool as_png = kind == "png" || kind == "heatmap" || kind == "reproduction";
  // Saves the SVG, or the browser's PNG of it.
  auto save = [&](const std::string& svg_name, const std::string& png_name, const std::string& svg) {
    if (!as_png && download_) download_(svg_name.c_str(), "image/svg+xml", svg.c_str());
    if (as_png && svg_as_png_) svg_as_png_(png_name.c_str(), svg.c_str());
  };
  if (kind == "svg" || kind == "png") {
    if (index < 0 || index >= plots)
      return "figure: plot " + std::to_string(index) + " does not exist; allowed: 0 to " + std::to_string(plots - 1);
    const std::string what = figure_prefix() + "plot" + std::to_string(index + 1);
    save(export_name("svg", what), export_name("png", what), plot_svg(index));
    return "";
  }
  if (kind == "heatmap" || kind == "heatmap-svg") {
    if (index < 0 || index >= maps)
      return "figure: heatmap " + std::to_string(index) + " does not exist; allowed: 0 to " + std::to_string(maps - 1);
    const std::string svg = heatmap_svg(index);
    if (svg.empty()) return "figure: heatmap " + std::to_string(index) + " has no cells yet";
    const std::string what = figure_prefix() + "heatmap" + std::to_string(index + 1);
    save(export_name("svg", what), export_name("png", what), svg);
    return "";
  }
  if (kind == "reproduction" || kind == "reproduction-svg") {
    const int figures = static_cast<int>(reproduction_.figure_count());
    if (figures == 0) return "figure: no reproduction has started; start one in the 'Reproduce the paper' tab";
    if (index < 0 || index >= figures)
      return "figure: paper figure " + std::to_string(index) + " does not exist; allowed: 0 to " +
             std::to_string(figures - 1);
    const auto figure = static_cast<std::size_t>(index);
    save(reproduction_.figure_file(figure, "svg"), reproduction_.figure_file(figure, "png"),
         reproduction_.figure_svg(figure));
    return "";
  }
  return "figure: kind '" + kind +
         "' is not allowed; allowed: svg, png (a plot), heatmap-svg, heatmap (its PNG), reproduction-svg, "
         "reproduction (its PNG)";
}

void App::share() const {
  if (copy_text_) copy_text_((page_url_ + "#" + hash()).c_str(), "Link");
}

}  // namespace attnlab::ui
