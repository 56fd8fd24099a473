#!/usr/bin/env bash
# The recipe for a new paper is exact: scripts/new-paper.sh writes a minimal paper into a copy of
# this tree, the copy builds, and the suite's registry-wide tests (those that loop over every
# registered paper, experiment and story, and the scripts that check the README, the docs and the
# fuzz corpus against the registry) pass on it; and the files the script touched are exactly those
# of the table in docs/design.md "How to add a paper" (with `thing` for the paper's id).
# The copy and its build live in WORK_DIR/tree and WORK_DIR/tree/build/native and are kept between
# runs, so ninja and ccache (whose base is the source folder: cmake/ccache.cmake) rebuild only what
# the script changed.
# usage: tests/new_paper_scaffold.sh REPO_ROOT WORK_DIR [ID]
set -euo pipefail
root=$(cd "$1" && pwd)
work=$2
id=${3:-coin}
tree=$work/tree
fail() { echo "FAILED: $*" >&2; exit 1; }

# The tree as it is now (build folders, git and node modules left out), over the last run's copy.
mkdir -p "$tree"
find "$tree" -mindepth 1 -maxdepth 1 ! -name build -exec rm -rf {} +
tar -C "$root" --exclude=./build --exclude=./.git --exclude=./dist --exclude=node_modules -cf - . | tar -C "$tree" -xf -

touched=$(bash "$tree/scripts/new-paper.sh" "$id") || fail "scripts/new-paper.sh $id failed"

# The recipe's table lists exactly the files the script touched.
design_md="$tree/docs/design.md"
recipe=$(python3 - "$design_md" "$id" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
section = text[text.index("## How to add a paper"):]
section = section[:section.index("\n## ", 1)]
for line in section.splitlines():
    m = re.match(r"\| \d+ \| `([^`]+)` \|", line)
    if m:
        path = m.group(1).replace("thing", sys.argv[2])
        for preset in (["fair", "biased"] if "PRESET" in path else [""]):  # the script's presets
            print(path.replace("PRESET", preset))
PY
)
if [ "$(sort <<<"$touched")" != "$(sort <<<"$recipe")" ]; then
  echo "FAILED: docs/design.md's recipe and scripts/new-paper.sh differ:" >&2
  diff <(sort <<<"$recipe") <(sort <<<"$touched") | sed 's/^</  only in the recipe:/; s/^>/  only touched by the script:/' | grep only >&2
  exit 1
fi
echo "the recipe lists the $(wc -l <<<"$touched") files the script touched"

build=$tree/build/native
cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null || fail "configure"
cmake --build "$build" -j2 --target attnlab attnlab_tests >"$work/build.log" 2>&1 || { tail -40 "$work/build.log" >&2; fail "build"; }
cli=$build/attnlab
"$cli" list | grep -q "^$id " || fail "attnlab list does not name $id"

# The Catch2 cases that loop over the registry, and the new paper's own.
"$build/tests/attnlab_tests" "[registry],[stories],[words],[inputs],[$id],every experiment*" >"$work/catch.log" 2>&1 ||
  { tail -60 "$work/catch.log" >&2; fail "the registry-wide Catch2 cases"; }
tail -3 "$work/catch.log"
# The checks of the docs, the README and the fuzz corpus against the registry.
python3 "$tree/tests/docs_citations.py" "$tree" >/dev/null || fail "docs_citations.py"
python3 "$tree/tests/docs_pointers.py" "$tree" >/dev/null || fail "docs_pointers.py"
python3 "$tree/tests/claims_linked.py" "$tree" >/dev/null || fail "claims_linked.py"
python3 "$tree/tests/code_shape.py" "$tree" >/dev/null || fail "code_shape.py"
bash "$tree/tests/readme_presets.sh" "$cli" "$tree/README.md" || fail "readme_presets.sh"
bash "$tree/tests/readme_papers.sh" "$cli" "$tree/README.md" || fail "readme_papers.sh"
python3 "$tree/tests/registry_lists.py" "$cli" "$tree" || fail "registry_lists.py"
echo "new paper $id: built, and the registry-wide tests pass"
