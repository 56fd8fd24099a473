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
templates=$root/scripts/new-paper  # the new files, with @ID@ for the id
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
write "src/experiments/$id/${id}_schema.hpp" <"$templates/ID_schema.hpp.in"
write "src/experiments/$id/${id}_schema.cpp" <"$templates/ID_schema.cpp.in"
write "src/experiments/$id/${id}_run.hpp" <"$templates/ID_run.hpp.in"
write "src/experiments/$id/${id}_unit.hpp" <"$templates/ID_unit.hpp.in"
write "src/experiments/$id/${id}_unit.cpp" <"$templates/ID_unit.cpp.in"
write "src/experiments/$id/${id}_results.hpp" <"$templates/ID_results.hpp.in"
write "src/experiments/$id/${id}_results.cpp" <"$templates/ID_results.cpp.in"
write "src/experiments/$id/${id}_inputs.hpp" <"$templates/ID_inputs.hpp.in"
write "src/experiments/$id/${id}_inputs.cpp" <"$templates/ID_inputs.cpp.in"
write "src/experiments/$id/${id}_experiment.hpp" <"$templates/ID_experiment.hpp.in"
write "src/experiments/$id/${id}_experiment.cpp" <"$templates/ID_experiment.cpp.in"

# ---- the story ----------------------------------------------------------------------------------
write "src/experiments/$id/${id}_story.hpp" <"$templates/ID_story.hpp.in"
write "src/experiments/$id/${id}_story.cpp" <"$templates/ID_story.cpp.in"

# ---- the paper's page and its own test ---------------------------------------------------------
write "docs/$id.md" <"$templates/ID.md.in"
write "tests/test_$id.cpp" <"$templates/test_ID.cpp.in"

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
keys = re.findall(r"^\"[A-Za-z0-9_]+=\"$", s, re.M)  # the keys; the parameters come last
after(keys[-1], "".join(f"\"{k}=\"\n" for k in ("blocks", "flips", "p") if f"\"{k}=\"" not in keys), last=True)
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
