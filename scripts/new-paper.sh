#!/usr/bin/env bash
# Adds a new, minimal paper ID to this tree, the way docs/design.md "How to add a paper" says: one
# experiment `ID` in the template (ID_schema, ID_run, ID_unit, ID_results, ID_inputs, a thin
# ID_experiment: a coin flipped in blocks, one unit per block), a guided story, the paper's docs
# page and test, and its registration everywhere the registry's lists are kept (the table of
# papers, the build, the README, docs/design.md, the fuzz dictionaries and corpus). What it writes
# is a skeleton to replace with the paper's model; that it builds and passes the suite's
# registry-wide tests is checked by the ctest `native:new_paper_scaffold`
# (tests/new_paper_scaffold.sh). Prints the files it touched, one per line.
# usage: scripts/new-paper.sh ID    (ID: lower-case letters and digits, a letter first)
set -euo pipefail
id=${1:?usage: scripts/new-paper.sh ID}
root=$(cd "$(dirname "$0")/.." && pwd)
if ! [[ $id =~ ^[a-z][a-z0-9]*$ ]]; then
  echo "new-paper.sh: ID '$id' must be lower-case letters and digits, starting with a letter" >&2; exit 2
fi
folder=$root/src/experiments/$id
if [ -e "$folder" ] || [ -e "$root/docs/$id.md" ]; then
  echo "new-paper.sh: $id exists already (src/experiments/$id or docs/$id.md)" >&2; exit 2
fi
mkdir -p "$folder"
touched=()
write() {  # write RELATIVE_PATH < text ; @ID@ becomes the paper's id
  mkdir -p "$(dirname "$root/$1")"
  sed "s/@ID@/$id/g" >"$root/$1"
  touched+=("$1")
}
edit() {  # edit RELATIVE_PATH PYTHON_CODE: `s` is the file's text; the code changes it and asserts
  python3 - "$root/$1" "$id" "$2" <<'PY'
import sys
path, id, code = sys.argv[1], sys.argv[2], sys.argv[3]
s = open(path, encoding="utf-8").read()
def after(anchor, text, last=False):
    """Insert text right after the line containing anchor (its first or last occurrence)."""
    global s
    i = s.rindex(anchor) if last else s.index(anchor)
    j = s.index("\n", i) + 1
    s = s[:j] + text + s[j:]
def before(anchor, text):
    global s
    i = s.index(anchor)
    i = s.rindex("\n", 0, i) + 1
    s = s[:i] + text + s[i:]
def table_end(header, row):
    """Add row after the last row of the markdown table whose header line starts with header."""
    global s
    i = s.index(header)
    lines = s[i:].split("\n")
    n = 0
    while n < len(lines) and lines[n].startswith("|"):
        n += 1
    j = i + sum(len(l) + 1 for l in lines[:n])
    s = s[:j] + row + s[j:]
def replace(old, new):
    global s
    assert old in s, f"{path}: '{old}' not found"
    s = s.replace(old, new, 1)
exec(code.replace("@ID@", id))
open(path, "w", encoding="utf-8").write(s)
PY
  touched+=("$1")
}

# ---- the experiment, in the template (docs/design.md "The shape of the code") ------------------
write "src/experiments/$id/${id}_schema.hpp" <<'EOF'
// `@ID@`'s parameters (docs/@ID@.md s.1): the schema and the presets.
#pragma once
#include <vector>

#include "lab/experiment.hpp"

namespace attnlab::@ID@ {

Schema @ID@_schema();
std::vector<Preset> @ID@_presets();

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_schema.cpp" <<'EOF'
#include "experiments/@ID@/@ID@_schema.hpp"

namespace attnlab::@ID@ {

namespace {

const char* const kSection = "docs/@ID@.md s.1";

}  // namespace

Schema @ID@_schema() {
  std::vector<ParamSpec> s;
  s.push_back(ParamSpec::real("p", "chance of heads p").range(0.05, 0.95).value("0.5").section(kSection)
                  .help_text("The chance that one flip of the coin shows heads."));
  s.push_back(ParamSpec::integer("flips", "flips per block").range(10, 1000000).value("1000").section(kSection)
                  .help_text("How many times the coin is flipped in each block."));
  s.push_back(ParamSpec::integer("blocks", "blocks").range(1, 100).value("8").section(kSection)
                  .help_text("How many blocks of flips the run makes; each gives one rate."));
  return Schema(std::move(s));
}

std::vector<Preset> @ID@_presets() {
  return {{"fair", "A fair coin", "Heads as often as tails: every block's rate lands near one half.", {{"p", "0.5"}}},
          {"biased", "A biased coin", "Heads four times in five: the rates gather around that chance instead.",
           {{"p", "0.8"}}}};
}

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_run.hpp" <<'EOF'
// The `@ID@` run that prepare() builds and the units and results() read (docs/design.md "The run:
// prepare, units, merge, results").
#pragma once
#include <cstdint>

namespace attnlab::@ID@ {

struct @ID@Run {
  double p = 0.5;           // the chance of heads
  std::int64_t flips = 0;   // per block (unit)
  int blocks = 0;           // units
  std::uint64_t seed = 1;
};

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_unit.hpp" <<'EOF'
// The `@ID@` unit: one block of flips from its own stream (seed, block), in pieces of a few
// thousand flips; its partial holds the block's flips and heads.
#pragma once
#include <cstdint>
#include <memory>

#include "experiments/@ID@/@ID@_run.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::@ID@ {

std::unique_ptr<UnitTask> @ID@_unit(const @ID@Run& run, std::int64_t unit);

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_unit.cpp" <<'EOF'
#include "experiments/@ID@/@ID@_unit.hpp"

#include <algorithm>

#include "core/rng.hpp"

namespace attnlab::@ID@ {

namespace {

constexpr std::int64_t kPiece = 4096;  // flips per piece

}  // namespace

std::unique_ptr<UnitTask> @ID@_unit(const @ID@Run& run, std::int64_t unit) {
  struct State {
    Rng rng;
    std::int64_t heads = 0;
  };
  auto state = std::make_shared<State>(State{Rng::for_stream(run.seed, static_cast<std::uint64_t>(unit))});
  const std::int64_t flips = run.flips;
  const double p = run.p;
  return make_piecewise_task(
      (flips + kPiece - 1) / kPiece,
      [state, flips, p](std::int64_t piece) {
        const std::int64_t last = std::min(flips, (piece + 1) * kPiece);
        for (std::int64_t i = piece * kPiece; i < last; ++i) state->heads += state->rng.uniform() < p;
      },
      [state, flips] {
        Partial out;
        out.put("flips", double(flips));
        out.put("heads", double(state->heads));
        return out;
      });
}

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_results.hpp" <<'EOF'
// The `@ID@` results (docs/@ID@.md s.1): one row per block that came, in unit order, and the rates
// against the chance p.
#pragma once
#include <optional>
#include <vector>

#include "experiments/@ID@/@ID@_run.hpp"
#include "lab/results.hpp"
#include "lab/work_unit.hpp"

namespace attnlab::@ID@ {

// `slots`: per unit, its partial once it came.
Results @ID@_results(const @ID@Run& run, const std::vector<std::optional<Partial>>& slots);

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_results.cpp" <<'EOF'
#include "experiments/@ID@/@ID@_results.hpp"

#include "lab/text.hpp"

namespace attnlab::@ID@ {

Results @ID@_results(const @ID@Run& run, const std::vector<std::optional<Partial>>& slots) {
  Results r;
  r.table.columns = {"block", "flips", "heads", "rate"};
  Plot plot = Plot::titled("Heads rate per block").x("block").y("heads / flips").y_range(0, 1);
  Series rates{"measured rate", SeriesStyle::LineMarkers, {}, {}, {}, {}};
  for (std::size_t u = 0; u < slots.size(); ++u) {
    if (!slots[u]) continue;
    const double flips = slots[u]->value("flips"), heads = slots[u]->value("heads");
    r.table.rows.push_back({double(u + 1), flips, heads, heads / flips});
    rates.x.push_back(double(u + 1)), rates.y.push_back(heads / flips);
  }
  plot.series.push_back(std::move(rates));
  plot.series.push_back({"chance p", SeriesStyle::Reference, {1.0, double(run.blocks)}, {run.p, run.p}, {}, {}});
  r.plots.push_back(std::move(plot));
  if (!r.table.rows.empty())
    r.notes.push_back(printf_text("%.0f of %.0f blocks done.", double(r.table.rows.size()), double(run.blocks)));
  return r;
}

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_inputs.hpp" <<'EOF'
// The picture before a run of `@ID@` (docs/design.md "The picture before a run"): the chance of
// heads each block flips with, from the settings alone.
#pragma once
#include <cstdint>

#include "lab/experiment.hpp"
#include "lab/results.hpp"

namespace attnlab::@ID@ {

Results @ID@_inputs(const Params& params, std::uint64_t seed);

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_inputs.cpp" <<'EOF'
#include "experiments/@ID@/@ID@_inputs.hpp"

namespace attnlab::@ID@ {

Results @ID@_inputs(const Params& params, std::uint64_t /*seed*/) {
  const double p = params.real("p"), blocks = double(params.integer("blocks"));
  Plot plot = Plot::titled("Inputs: the chance of heads in every block").x("block").y("chance p").y_range(0, 1);
  plot.series.push_back({"chance p", SeriesStyle::Line, {1.0, blocks}, {p, p}, {}, {}});
  Results r;
  r.plots.push_back(std::move(plot));
  return r;
}

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_experiment.hpp" <<'EOF'
// `@ID@`: a coin flipped in blocks (docs/@ID@.md), the skeleton scripts/new-paper.sh writes.
#pragma once
#include <memory>

#include "lab/experiment.hpp"

namespace attnlab::@ID@ {

std::unique_ptr<Experiment> make_@ID@_experiment();

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_experiment.cpp" <<'EOF'
// `@ID@` (docs/@ID@.md s.1) as an Experiment: its parameters in @ID@_schema.cpp, its unit in
// @ID@_unit.cpp, its results in @ID@_results.cpp and the picture before a run in @ID@_inputs.cpp.
#include "experiments/@ID@/@ID@_experiment.hpp"
#include "experiments/papers.hpp"

#include <optional>

#include "experiments/@ID@/@ID@_inputs.hpp"
#include "experiments/@ID@/@ID@_results.hpp"
#include "experiments/@ID@/@ID@_run.hpp"
#include "experiments/@ID@/@ID@_schema.hpp"
#include "experiments/@ID@/@ID@_unit.hpp"

namespace attnlab::@ID@ {

namespace {

class @ID@Experiment final : public Experiment {
 public:
  @ID@Experiment() : Experiment(@ID@_schema(), @ID@_presets()) {
    info_ = {"@ID@", "A coin flipped in blocks", paper_citation("@ID@", "Section 1"),
             "A coin with chance p of heads is flipped in blocks; each block's share of heads lands near p, and "
             "closer the more flips a block has."};
  }

  KeyValues smoke_settings() const override { return {{"flips", "5000"}, {"blocks", "4"}}; }

  std::unique_ptr<UnitTask> start_unit(std::int64_t unit) const override { return @ID@_unit(run_, unit); }

  Results inputs(const Params& params, std::uint64_t seed) const override { return @ID@_inputs(params, seed); }

  Results results() const override { return @ID@_results(run_, slots_); }

 protected:
  std::vector<std::int64_t> prepare(const Params& params, std::uint64_t seed) override {
    run_ = {params.real("p"), params.integer("flips"), static_cast<int>(params.integer("blocks")), seed};
    slots_.assign(static_cast<std::size_t>(run_.blocks), std::nullopt);
    return std::vector<std::int64_t>(static_cast<std::size_t>(run_.blocks), run_.flips);
  }

  void merge(std::int64_t unit, const Partial& partial) override { slots_[static_cast<std::size_t>(unit)] = partial; }

 private:
  @ID@Run run_;
  std::vector<std::optional<Partial>> slots_;
};

}  // namespace

std::unique_ptr<Experiment> make_@ID@_experiment() { return std::make_unique<@ID@Experiment>(); }

}  // namespace attnlab::@ID@
EOF

# ---- the story ----------------------------------------------------------------------------------
write "src/experiments/$id/${id}_story.hpp" <<'EOF'
// The guided story of the paper `@ID@`: its steps as data (lab/story.hpp).
#pragma once
#include "lab/story.hpp"

namespace attnlab::@ID@ {

Story make_story();

}  // namespace attnlab::@ID@
EOF
write "src/experiments/$id/${id}_story.cpp" <<'EOF'
// The paper `@ID@` as a guided story (docs/@ID@.md s.1): the shortest a story may be (4 steps, the
// rule of docs/design.md "How to add a story"), no number in its words.
#include "experiments/@ID@/@ID@_story.hpp"

namespace attnlab::@ID@ {

namespace {

StoryStep step(const char* title, const char* text, const char* preset) {
  StoryStep s;
  s.title = title;
  s.text = text;
  s.question = "Where do the rates of the blocks gather?";
  s.answer = "Around the chance of heads: a block's share of heads is an average of its flips.";
  s.plot = "Heads rate per block";
  s.settings = {"@ID@", preset, {}, 1};
  s.shows = {"p"};
  s.run = true;
  return s;
}

}  // namespace

Story make_story() {
  Story s;
  s.id = "@ID@";
  s.result = "A coin's share of heads settles near its chance of heads.";
  s.figure = {"@ID@", "fair", {}, 1};
  s.figure_plot = 0;
  s.figure_caption = "The share of heads in each block of a fair coin's flips.";
  s.steps.push_back(step("A fair coin", "Press Run: each block of flips gives one share of heads.", "fair"));
  s.steps.push_back(step("A biased coin", "The same blocks, with a coin that favours heads.", "biased"));
  s.steps.push_back(step("Move the chance", "Move the chance of heads and run again.", "fair"));
  s.steps.push_back(step("Back to fair", "The fair coin once more: the rates gather where they did.", "fair"));
  s.summary = "The share of heads in a block follows the coin's chance of heads.";
  return s;
}

}  // namespace attnlab::@ID@
EOF

# ---- the paper's page and its own test ---------------------------------------------------------
write "docs/$id.md" <<'EOF'
# A coin flipped in blocks (@ID@)

The page of the paper `@ID@`, written by `scripts/new-paper.sh`: replace it with the paper's own.

## In the lab

One experiment, `@ID@`: the parameters are `@ID@_schema` in `src/experiments/@ID@/@ID@_schema.cpp`,
a block of flips is `@ID@_unit` in `src/experiments/@ID@/@ID@_unit.cpp`, the table and the plot are
`@ID@_results` in `src/experiments/@ID@/@ID@_results.cpp`; the story is `make_story` in
`src/experiments/@ID@/@ID@_story.cpp`.

## s.1 The model

A coin shows heads with chance p; a block flips it `flips` times from its own random stream, and
its rate is heads / flips.
EOF
write "tests/test_$id.cpp" <<'EOF'
// The paper `@ID@`'s own tests (docs/@ID@.md s.1).
#include <catch2/catch.hpp>

#include "experiments/registry.hpp"
#include "lab/runner.hpp"

using namespace attnlab;

TEST_CASE("@ID@: every block's rate is a share of heads near p", "[@ID@]") {
  auto e = make_experiment("@ID@");
  e->reset(e->make_params("biased", {{"flips", "20000"}}), 1);
  run_to_completion(*e);
  const Results r = e->results();
  REQUIRE(r.table.rows.size() == 8);
  for (const auto& row : r.table.rows) CHECK(std::abs(row[3] - 0.8) < 0.02);
}
EOF

# ---- registration -------------------------------------------------------------------------------
edit src/experiments/papers.cpp '
before("#include \"lab/find_named.hpp\"", "#include \"experiments/@ID@/@ID@_experiment.hpp\"\n#include \"experiments/@ID@/@ID@_story.hpp\"\n")
replace("  };\n  return all;\n}", "      {\"@ID@\", \"A Coin Flipped in Blocks\", \"Anonymous\", \"0000.00000\", \"docs/@ID@.md\",\n       {{\"@ID@\", &@ID@::make_@ID@_experiment}}, &@ID@::make_story, \"\"},\n  };\n  return all;\n}")
'
edit CMakeLists.txt '
files = ["schema", "unit", "results", "inputs", "experiment", "story"]
after("    src/experiments/papers.cpp", "".join(f"    src/experiments/@ID@/@ID@_{f}.cpp\n" for f in files))
'
edit tests/CMakeLists.txt '
after("  test_registry.cpp", "  test_@ID@.cpp\n")
'
edit README.md '
import re
table_end("| paper | experiments | what you see |",
          "| Anonymous, *A Coin Flipped in Blocks* | `@ID@` | a coin flipped in blocks | [docs/@ID@.md](docs/@ID@.md) |\n")
table_end("| experiment | what | presets |", "| `@ID@` | a coin flipped in blocks | `fair`, `biased` |\n")
m = re.search(r"(\| `story=ID` \| a guided story \()([^)]*)\)", s)
s = s[:m.end(2)] + ", `@ID@`" + s[m.end(2):]
m = re.search(r"`#story=[a-z0-9]+&step=\d+` \(`attnlab stories` lists them all\)", s)
s = s[:m.start()] + "`#story=@ID@&step=1`, " + s[m.start():]
before("src/cli/         ", "                 @ID@/: the coin of scripts/new-paper.sh (schema, unit, results, inputs, experiment, story)\n")
replace("): per paper, what the lab", "), [docs/@ID@.md](docs/@ID@.md): per paper, what the lab")
'
edit docs/design.md '
import re
m = re.search(r"one folder per paper \(([^)]*)\)", s)
s = s[:m.end(1)] + ", `@ID@/`" + s[m.end(1):]
table_end("| experiment | the picture |", "| `@ID@` | the chance of heads in every block |\n")
'
for dict in fuzz_params fuzz_url_hash; do
  edit "tests/fuzz/$dict.dict" '
import re
keys = re.findall(r"^\"[A-Za-z0-9_]+=\"$", s, re.M)  # the parameter keys, one sorted block
new = sorted(set(keys) | {"\"p=\"", "\"flips=\"", "\"blocks=\""})
replace("\n".join(keys), "\n".join(new))
ids = re.findall(r"^\"[a-z0-9_]+(?:\.[a-z0-9_]+)?\"$", s, re.M)
after(ids[-1], "\"@ID@\"\n", last=True)
'
done
corpus=tests/fuzz/corpus
write "$corpus/fuzz_params/$id" < <(printf '%s\n' "$id")
write "$corpus/fuzz_url_hash/$id" < <(printf 'exp=%s' "$id")
for preset in fair biased; do
  write "$corpus/fuzz_params/$id-$preset" < <(printf '%s\npreset=%s\n' "$id" "$preset")
  write "$corpus/fuzz_url_hash/$id-$preset" < <(printf 'exp=%s&preset=%s' "$id" "$preset")
done
write "$corpus/fuzz_url_hash/story-$id-step-1" < <(printf 'story=%s&step=1' "$id")
printf '%s\n' "${touched[@]}"
