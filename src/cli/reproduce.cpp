#include "cli/reproduce.hpp"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "cli/figure_files.hpp"
#include "experiments/registry.hpp"
#include "experiments/reproductions.hpp"
#include "lab/clock.hpp"
#include "lab/run_record.hpp"
#include "lab/thread_pool_runner.hpp"

namespace attnlab::cli {

namespace {

struct PanelRun {
  Panel panel;
  std::unique_ptr<Experiment> experiment;
  Params params;
  double seconds = 0.0;  // compute time over every thread
  std::string error;
};

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary);
  if (!(f << text).flush()) throw std::runtime_error("cannot write '" + path.string() + "'");
}

std::string csv_text(const std::string& s) {  // quoted when it holds a comma or a quote
  if (s.find_first_of(",\"") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// "success_rate 0.012..0.996": the range of the reproduction's summary column over the points.
std::string summary_range(const Table& t, const std::string& column) {
  const int c = t.column(column);
  if (c < 0 || t.rows.empty()) return "";
  double low = t.rows[0][static_cast<std::size_t>(c)], high = low;
  for (const auto& row : t.rows) {
    low = std::min(low, row[static_cast<std::size_t>(c)]);
    high = std::max(high, row[static_cast<std::size_t>(c)]);
  }
  char buf[96];
  std::snprintf(buf, sizeof buf, "  %s %.3g..%.3g", column.c_str(), low, high);
  return buf;
}

// Every panel's experiment, made and reset with its preset and the options' settings (cheap:
// refuses impossible runs before any work).
std::vector<PanelRun> prepare_panels(const Reproduction& declared, const ReproduceOptions& o) {
  std::vector<PanelRun> runs;
  for (const Panel& panel : declared.panels) {
    PanelRun r{panel, make_experiment(panel.experiment), {}, 0.0, ""};
    try {
      r.params = r.experiment->make_params(panel.preset, o.sets);
      r.experiment->reset(r.params, o.seed);
    } catch (const ParamError& e) {
      throw ParamError("panel " + panel.name + ": " + e.what());
    }
    runs.push_back(std::move(r));
  }
  return runs;
}

void make_directory(const std::string& name) {
  std::error_code ec;
  std::filesystem::create_directories(name, ec);
  if (ec || !std::filesystem::is_directory(name)) throw std::runtime_error("cannot create the directory '" + name + "'");
}

// Runs every unit of every panel in one queue (all threads stay busy until the last unit); each
// panel's CSV is written, and its line printed, as soon as its last unit is done.
void run_panels(const Reproduction& declared, const ReproduceOptions& o, const std::filesystem::path& dir,
                double start, std::vector<PanelRun>& runs) {
  std::vector<Experiment*> experiments;
  for (PanelRun& r : runs) experiments.push_back(r.experiment.get());
  std::vector<std::int64_t> units_left;
  for (Experiment* e : experiments) units_left.push_back(e->unit_count());
  std::size_t finished = 0;
  auto report_panel = [&](std::size_t i) {
    PanelRun& r = runs[i];
    std::string summary;
    if (r.error.empty()) {
      try {
        const RunRecord record = make_record(*r.experiment, r.params, r.panel.preset, o.seed);
        write_file(dir / (r.panel.name + ".csv"), to_csv(record));
        summary = summary_range(record.results.table, declared.summary_column);
      } catch (const std::exception& e) {
        r.error = e.what();
      }
    }
    ++finished;
    if (!o.quiet)
      std::fprintf(stderr, "[%2zu/%zu] %-6s %-18s done at %6.2f s%s%s%s\n", finished, runs.size(),
                   r.panel.name.c_str(), r.panel.experiment.c_str(), now_seconds() - start, summary.c_str(),
                   r.error.empty() ? "" : "  FAILED: ", r.error.c_str());
  };
  const ThreadedRunReport threaded =
      run_units_on_threads(experiments, all_units(experiments), o.jobs, [&](const UnitRef& ref, const Partial&) {
        if (--units_left[ref.run] == 0) report_panel(ref.run);
      });
  for (std::size_t i = 0; i < runs.size(); ++i) {
    runs[i].seconds = threaded.seconds[i];
    if (!threaded.errors[i].empty() && runs[i].error.empty()) {
      runs[i].error = threaded.errors[i];
      report_panel(i);
    }
  }
}

// index.csv: one line per panel (its size, trials per point, compute time and file).
std::string index_csv(const Reproduction& declared, const std::vector<PanelRun>& runs) {
  std::string index = "panel,experiment,preset,title,points,trials_per_point,compute_seconds,file\n";
  for (const PanelRun& r : runs) {
    const Table t = r.experiment->results().table;
    const int trials_column = t.column(declared.trials_column);
    char numbers[96];
    std::snprintf(numbers, sizeof numbers, "%zu,%.0f,%.3f", t.rows.size(),
                  t.rows.empty() || trials_column < 0 ? 0.0 : t.rows[0][static_cast<std::size_t>(trials_column)],
                  r.seconds);
    index += r.panel.name + "," + r.panel.experiment + "," + r.panel.preset + "," +
             csv_text(r.experiment->preset(r.panel.preset).title) + "," + numbers + "," +
             (r.error.empty() ? r.panel.name + ".csv" : std::string()) + "\n";
  }
  return index;
}

// The paper's figures of the panels that did not fail, into the options' figure directory.
void write_figures(const Reproduction& declared, const ReproduceOptions& o, const std::vector<PanelRun>& runs) {
  std::vector<Results> results;
  for (const PanelRun& r : runs) results.push_back(r.experiment->results());
  const auto written = write_reproduction_figures(
      o.figures, declared,
      [&](const Panel& panel) -> const Results* {
        for (std::size_t i = 0; i < runs.size(); ++i)
          if (runs[i].panel.name == panel.name && runs[i].error.empty()) return &results[i];
        return nullptr;
      },
      o.seed);
  if (!o.quiet) std::fprintf(stderr, "wrote %zu figures to %s\n", written.size(), o.figures.c_str());
}

}  // namespace

int reproduce(const ReproduceOptions& o) {
  const Reproduction& declared = reproduction(o.name);
  std::vector<PanelRun> runs = prepare_panels(declared, o);
  const std::filesystem::path dir(o.out_dir);
  make_directory(o.out_dir);
  if (!o.figures.empty()) prepare_figure_dir(o.figures);
  const double start = now_seconds();
  run_panels(declared, o, dir, start, runs);
  const double total = now_seconds() - start;
  write_file(dir / "index.csv", index_csv(declared, runs));
  if (!o.figures.empty()) write_figures(declared, o, runs);
  if (!o.quiet)
    std::fprintf(stderr, "%zu panels in %.1f s on %d thread%s; index: %s\n", runs.size(), total, o.jobs,
                 o.jobs == 1 ? "" : "s", (dir / "index.csv").string().c_str());
  int failures = 0;
  for (const PanelRun& r : runs) failures += !r.error.empty();
  return failures ? 1 : 0;
}

}  // namespace attnlab::cli
