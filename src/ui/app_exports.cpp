// The App's exports: CSV / JSON downloads, figures (plots and heatmaps as SVG or PNG, the
// reproduction's paper figures as multi-panel SVG or PNG; the kinds: page/figure_kind.hpp) and the
// share link (the JSON for the text twin: app_twin.cpp). Files are named after the experiment,
// preset and seed (the reproduction's after the paper, figure and seed). PNGs are
// the SVGs drawn by the browser at twice their size.
#include <algorithm>
#include <iterator>
#include <string>
#include <vector>

#include "lab/heatmap_svg.hpp"
#include "lab/plot_svg.hpp"
#include "lab/export_format.hpp"
#include "page/figure_kind.hpp"
#include "ui/app.hpp"

namespace attnlab::ui {

std::string App::export_name(const char* extension, const std::string& what) const {
  return run_.experiment().info().id + "-" + (run_.preset().empty() ? std::string("custom") : run_.preset()) + "-seed" +
         std::to_string(run_.seed()) + (what.empty() ? "" : "-" + what) + "." + extension;
}

void App::download(const std::string& kind) const {
  if (!download_ || !run_.controller().prepared()) return;
  const bool as_json = kTableFormats.decode("download kind", kind) == TableFormat::Json;  // unknown: ParamError
  download_(export_name(as_json ? "json" : "csv").c_str(), as_json ? "application/json" : "text/csv",
            (as_json ? json() : csv()).c_str());
}

bool App::inspector_figures() const { return view_ == View::Inspector && has_inspector_; }

const Results& App::figure_results() const {
  if (inspector_figures()) return inspector_.results();
  return showing_inputs() ? run_.inputs() : run_.results();
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
    apply_log_switches(plot);
  }
  return plot_to_svg(plot);
}

std::string App::heatmap_svg(int index) const {
  const Results& r = figure_results();
  if (index < 0 || index >= static_cast<int>(r.heatmaps.size())) return "";
  const Heatmap& h = r.heatmaps[static_cast<std::size_t>(index)];
  if (h.rows < 1 || h.cols < 1) return "";
  return heatmap_to_svg(h, inspector_figures() ? inspector_.gamma() : 1.0);  // the colour scale on screen
}

std::string App::figure_svg(const std::string& kind, int index) const {
  const auto* row = page::kFigureKinds.find(kind);
  if (!row) return "";
  switch (row->value.of) {
    case page::FigureOf::Plot: return plot_svg(index);
    case page::FigureOf::Heatmap: return heatmap_svg(index);
    case page::FigureOf::Reproduction:
      if (index < 0 || static_cast<std::size_t>(index) >= reproduction_.figure_count()) return "";
      return reproduction_.figure_svg(static_cast<std::size_t>(index));
  }
  return "";
}

std::string App::export_figure(const std::string& kind, int index) const {
  const auto* row = page::kFigureKinds.find(kind);
  if (!row) return page::figure_kind_refused(kind);
  const Results& r = figure_results();
  const int plots = static_cast<int>(r.plots.size()), maps = static_cast<int>(r.heatmaps.size());
  const bool as_png = row->value.png;
  // Saves the SVG, or the browser's PNG of it.
  auto save = [&](const std::string& svg_name, const std::string& png_name, const std::string& svg) {
    if (!as_png && download_) download_(svg_name.c_str(), "image/svg+xml", svg.c_str());
    if (as_png && svg_as_png_) svg_as_png_(png_name.c_str(), svg.c_str());
  };
  switch (row->value.of) {
    case page::FigureOf::Plot: {
      if (index < 0 || index >= plots)
        return "figure: plot " + std::to_string(index) + " does not exist; allowed: 0 to " + std::to_string(plots - 1);
      const std::string what = figure_prefix() + "plot" + std::to_string(index + 1);
      save(export_name("svg", what), export_name("png", what), plot_svg(index));
      return "";
    }
    case page::FigureOf::Heatmap: {
      if (index < 0 || index >= maps)
        return "figure: heatmap " + std::to_string(index) + " does not exist; allowed: 0 to " + std::to_string(maps - 1);
      const std::string svg = heatmap_svg(index);
      if (svg.empty()) return "figure: heatmap " + std::to_string(index) + " has no cells yet";
      const std::string what = figure_prefix() + "heatmap" + std::to_string(index + 1);
      save(export_name("svg", what), export_name("png", what), svg);
      return "";
    }
    case page::FigureOf::Reproduction: {
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
  }
  return page::figure_kind_refused(kind);
}

void App::share() const {
  if (copy_text_) copy_text_((page_url_ + "#" + hash()).c_str(), "Link");
}

}  // namespace attnlab::ui
