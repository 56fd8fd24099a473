#!/usr/bin/env python3
"""The code's shape, as docs/design.md ("The shape of the code") states it:
  - no file in src/experiments/ over 400 lines, except the declarative tables (stories, presets);
  - no function in src/ over 80 lines, except a story's data (make_story);
  - no call with two bare booleans side by side ("true, false"): name them (docs/design.md);
  - in src/experiments/, a string compared with == only inside a ChoiceTable (choices are decoded
    by the one table that declares them);
  - every file in src/ over 300 lines opens with an index of its sections: in its opening comment
    a line "// Index of this file", then at least two lines "// [SECTION] X"; every X of the index
    starts a section further down with the same line "// [SECTION] X", and every "// [SECTION]"
    line further down is in the index;
  - no comment in the code (src, tests, web, bench, scripts, cmake) points at an issue ("issue 13")
    or at "the spec": a pointer says where in docs/ the thing lives, which stays true.
Exits 1 with one line per offence. Usage: code_shape.py [REPO_ROOT]
"""
import os
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")).resolve()
MAX_FILE_LINES = 400
MAX_FUNCTION_LINES = 80
INDEXED_FILE_LINES = 300
INDEX_HEADING = "// Index of this file"
SECTION = re.compile(r"^\s*//\s*\[SECTION\]\s*(.*?)\s*$")
TABLE_FILES = re.compile(r"_(story|presets)\.cpp$")
DATA_FUNCTIONS = {"make_story"}
CONTROL = re.compile(r"^\s*(if|for|while|switch|catch|do|else|try)\b")
CONTAINER = re.compile(r"\b(namespace|class|struct|enum|union)\b[^()]*$")


def strip_comments_and_strings(src):
    """The source with comments, string and character literals blanked (line breaks kept)."""
    out, i, n = [], 0, len(src)
    while i < n:
        c = src[i]
        if src.startswith("//", i):
            j = src.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif src.startswith("/*", i):
            j = src.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", src[i:j]))
            i = j
        elif src.startswith('R"', i) and (i == 0 or not (src[i - 1].isalnum() or src[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', src[i:])
            end = src.find(")" + m.group(1) + '"', i) + len(m.group(1)) + 2
            out.append(re.sub(r"[^\n]", " ", src[i:end]))
            i = end
        elif c in "\"'":
            j = i + 1
            while j < n and src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(c + re.sub(r"[^\n]", " ", src[i + 1:j]) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(first line, last line, name) of every function definition, by brace matching."""
    stack, last = [], 0
    for k, c in enumerate(text):
        if c == "{":
            header = text[last:k].strip()
            parent = stack[-1][0] if stack else "container"
            if parent in ("function", "other"):
                kind = "other"
            elif CONTAINER.search(header) or header.startswith("extern"):
                kind = "container"
            elif ")" in header and not CONTROL.match(header) and "=" not in header.split("(")[0]:
                kind = "function"
            else:
                kind = "other"
            start = last + len(text[last:k]) - len(text[last:k].lstrip())
            stack.append((kind, start, header))
            last = k + 1
        elif c == "}":
            kind, start, header = stack.pop()
            if kind == "function":
                name = re.split(r"\s+", header.split("(")[0].strip())[-1]
                yield text.count("\n", 0, start) + 1, text.count("\n", 0, k) + 1, name
            last = k + 1
        elif c == ";":
            last = k + 1


def section_index_offences(rel, src):
    """What is wrong with the index of sections at the top of a file and the sections it names."""
    raw = src.split("\n")
    opening = 0  # the opening comment: the lines before the first line of code
    while opening < len(raw) and (raw[opening].strip() == "" or raw[opening].lstrip().startswith("//")):
        opening += 1
    heading = next((k for k in range(opening) if raw[k].strip() == INDEX_HEADING), None)
    if heading is None:
        return [f"{rel}: {src.count(chr(10))} lines and no index of its sections at the top "
                f"(over {INDEXED_FILE_LINES} lines: '{INDEX_HEADING}', then a '// [SECTION] X' line per section)"]
    index, k = [], heading + 1
    while k < len(raw) and SECTION.match(raw[k]):
        index.append(SECTION.match(raw[k]).group(1))
        k += 1
    offences = []
    if len(index) < 2:
        offences.append(f"{rel}:{heading + 1}: the index of sections names {len(index)} section(s) (at least 2)")
    markers = {}
    for number in range(k + 1, len(raw) + 1):
        m = SECTION.match(raw[number - 1])
        if m:
            markers.setdefault(m.group(1), number)
    for name in index:
        if name not in markers:
            offences.append(f"{rel}:{heading + 1}: section '{name}' is in the index but no line "
                            f"'// [SECTION] {name}' starts it further down")
    for name, number in markers.items():
        if name not in index:
            offences.append(f"{rel}:{number}: section '{name}' is missing from the index at the top")
    return offences


ROTTING = re.compile(r"\b(issues? \d+|the spec\b(?!tral))", re.I)
CODE_FOLDERS = ("src", "tests", "web", "bench", "scripts", "cmake")
CODE_SUFFIXES = (".cpp", ".hpp", ".h", ".js", ".mjs", ".cjs", ".py", ".sh", ".cmake", ".html", ".css")


def rotting_pointers():
    """Lines of the code that cite an issue or "the spec" (docs/design.md: code comments cite docs/)."""
    found = []
    for folder in CODE_FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in CODE_SUFFIXES or "node_modules" in path.parts or path.name == "code_shape.py":
                continue
            rel = path.relative_to(ROOT)
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").split("\n"), 1):
                m = ROTTING.search(line)
                if m:
                    found.append(f"{rel}:{number}: '{m.group(0)}' in the code: cite docs/ instead (it stays true)")
    return found


def main():
    offences = []
    for path in sorted((ROOT / "src").rglob("*")):
        if path.suffix not in (".cpp", ".hpp", ".h"):
            continue
        rel = path.relative_to(ROOT)
        src = path.read_text(encoding="utf-8")
        text = strip_comments_and_strings(src)
        lines = src.count("\n")
        in_experiments = rel.parts[:2] == ("src", "experiments")
        if in_experiments and lines > MAX_FILE_LINES and not TABLE_FILES.search(path.name):
            offences.append(f"{rel}: {lines} lines (at most {MAX_FILE_LINES}: split it by job)")
        for first, last, name in functions(text):
            if last - first + 1 > MAX_FUNCTION_LINES and name.split("::")[-1] not in DATA_FUNCTIONS:
                offences.append(f"{rel}:{first}: {name} is {last - first + 1} lines (at most {MAX_FUNCTION_LINES})")
        for number, line in enumerate(text.split("\n"), 1):
            if re.search(r"\b(true|false),\s*(true|false)\b", line):
                offences.append(f"{rel}:{number}: two bare booleans side by side: name them")
        if lines > INDEXED_FILE_LINES:
            offences.extend(section_index_offences(rel, src))
        if in_experiments:
            raw = src.split("\n")
            for number, line in enumerate(raw, 1):
                if re.search(r'== "[a-z_]+"', line):
                    offences.append(f"{rel}:{number}: a choice compared as a string: decode it with its ChoiceTable")
    offences.extend(rotting_pointers())
    for o in offences:
        print(o)
    return 1 if offences else 0


if __name__ == "__main__":
    sys.exit(main())
