#include "cli/figure_files.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "lab/figure_grid.hpp"
#include "lab/heatmap_image.hpp"
#include "lab/heatmap_svg.hpp"
#include "lab/plot_svg.hpp"

namespace attnlab::cli {

namespace {

void write_file(const std::filesystem::path& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary);
  if (!(f << bytes).flush()) throw std::runtime_error("option --figures: cannot write '" + path.string() + "'");
}

}  // namespace

void prepare_figure_dir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    throw std::runtime_error("option --figures: cannot create the directory '" + dir + "'");
}

std::vector<std::string> write_figures(const std::string& dir, const std::string& experiment, const std::string& preset,
                                       std::uint64_t seed, const Results& results) {
  const std::string stem = experiment + "-" + (preset.empty() ? std::string("custom") : preset) + "-seed" +
                           std::to_string(seed);
  std::vector<std::string> written;
  for (std::size_t k = 0; k < results.plots.size(); ++k) {
    const auto path = std::filesystem::path(dir) / (stem + "-plot" + std::to_string(k + 1) + ".svg");
    write_file(path, plot_to_svg(results.plots[k]));
    written.push_back(path.string());
  }
  for (std::size_t k = 0; k < results.heatmaps.size(); ++k) {
    const Heatmap& h = results.heatmaps[k];
    if (h.rows < 1 || h.cols < 1) continue;  // nothing to draw
    const std::string name = stem + "-heatmap" + std::to_string(k + 1);
    const auto svg = std::filesystem::path(dir) / (name + ".svg");
    write_file(svg, heatmap_to_svg(h));
    written.push_back(svg.string());
    const auto png = std::filesystem::path(dir) / (name + ".png");
    write_file(png, heatmap_to_png(h));
    written.push_back(png.string());
  }
  return written;
}

std::vector<std::string> write_reproduction_figures(const std::string& dir, const Reproduction& r,
                                                    const PanelResults& results, std::uint64_t seed) {
  std::vector<std::string> written;
  for (std::size_t k = 0; k < r.figures.size(); ++k) {
    const auto path = std::filesystem::path(dir) / reproduction_figure_file(r, k, seed, "svg");
    write_file(path, figure_grid_to_svg(reproduction_figure(r, k, results, seed)));
    written.push_back(path.string());
  }
  return written;
}

}  // namespace attnlab::cli
