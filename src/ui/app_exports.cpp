// The App's exports: CSV / JSON downloads, figures (plots as SVG or PNG, heatmaps as PNG) and
// the share link. Files are named after the experiment, preset and seed.
#include <string>

#include "lab/heatmap_image.hpp"
#include "lab/plot_svg.hpp"
#include "lab/run_record.hpp"
#include "ui/app.hpp"

namespace attnlab::ui {

std::string App::export_name(const char* extension, const std::string& what) const {
  return experiment_->info().id + "-" + (preset_.empty() ? std::string("custom") : preset_) + "-seed" +
         std::to_string(seed_) + (what.empty() ? "" : "-" + what) + "." + extension;
}

void App::download(const std::string& kind) const {
  if (!download_ || !started_) return;
  if (kind == "json") download_(export_name("json").c_str(), "application/json", json().c_str());
  else download_(export_name("csv").c_str(), "text/csv", csv().c_str());
}

bool App::inspector_figures() const { return view_ == View::Inspector && has_inspector_; }

const Results& App::figure_results() const { return inspector_figures() ? inspector_.results() : results_; }

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
    const double gamma = inspector_figures() ? inspector_.gamma() : 1.0;  // as on screen
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

}  // namespace attnlab::ui
