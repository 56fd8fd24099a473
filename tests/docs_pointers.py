#!/usr/bin/env python3
"""Every pointer from README.md and docs/*.md into the code resolves.

Two kinds of pointer, in backticks:
  `file`                 a source, script, test or docs file (src/lab/link.hpp, toy_model.hpp,
                         tests/readme_papers.sh, web/e2e/): it exists. A path is taken from the
                         repository's root, then from the page's folder; a bare file name must be
                         the name of some file of the repository.
  `symbol` in `file`     also: the symbol occurs in the file (for `App::load_hash` or `prepare()`,
                         the last name, load_hash or prepare).
Not pointers: generated files (build/, dist/, the build's attnlab.js and index.html, a SCORM
package's launch.html, the site's embed/ and oembed/ files, CSV, SVG, PNG, JSON), placeholders (<paper>, thing, paper/, ID, *), and
files of other repositories: a line that says "the authors'" or "their" (on it or the line before)
or "not in the repository". Exits 1 with one line per broken pointer. Usage: docs_pointers.py [REPO_ROOT]
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
SOURCE = (".cpp", ".hpp", ".h", ".py", ".sh", ".mjs", ".cjs", ".js", ".ts", ".cmake", ".md", ".html", ".dict",
          ".glsl", ".txt")
SKIP_DIRS = {".git", "build", "dist", "node_modules", "__pycache__"}
FILE = re.compile(r"^[A-Za-z0-9_.\-/]+$")
POINTER = re.compile(r"`([^`\n]+)`(?:\s+in\s+`([^`\n]+)`)?")
PLACEHOLDER = re.compile(r"<|>|\*|thing|\bID\b|\.\.\.|^build/|^dist/|^/|YOUR|\bNAME\b|\bPAPER\b|\bOLD\b|\bNEW\b|"
                         r"(^|/)paper[/_.]")
GENERATED = re.compile(r"^(attnlab(_node|_worker)?\.(js|cjs|wasm)|index\.html|launch\.html|o?embed/|CTestCostData\.txt)")
ELSEWHERE = re.compile(r"the authors'|\btheir\b|not in the repository")


def basenames():
    names = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS]
        for name in files:
            names.setdefault(name, []).append(os.path.join(folder, name))
    return names


def looks_like_file(text):
    if not FILE.match(text) or PLACEHOLDER.search(text) or GENERATED.search(text) or text.startswith(("-", ".")):
        return False
    if text.endswith("/"):
        return "/" in text[:-1] or text[:-1] in ("src", "tests", "web", "docs", "bench", "scripts", "cmake")
    return text.endswith(SOURCE) and not re.match(r"^[0-9.]+$", text)


def resolve(text, page_dir, names):
    """The files a pointer may name: [] when none exists."""
    for base in (ROOT, page_dir):
        path = os.path.normpath(os.path.join(base, text))
        if os.path.exists(path):
            return [path]
    if "/" not in text.rstrip("/"):
        return names.get(text, [])
    # A path relative to a folder the page names before it (docs: `unit_pool.js` of web/workers/):
    # accepted when a file of the repository ends with it.
    return [p for paths in names.values() for p in paths if p.endswith(os.sep + text)]


def symbol_name(symbol):
    name = re.sub(r"\(.*\)$", "", symbol.strip())
    name = name.split("::")[-1].split(".")[-1]
    return name if re.match(r"^[A-Za-z_][A-Za-z0-9_]*$", name) else None


def pages():
    yield os.path.join(ROOT, "README.md")
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if name.endswith(".md"):
            yield os.path.join(docs, name)


def main():
    names = basenames()
    problems, files_checked, symbols_checked = [], 0, 0
    for page in pages():
        rel = os.path.relpath(page, ROOT)
        with open(page, encoding="utf-8") as f:
            lines = f.read().splitlines()
        # Code blocks are not prose: blanked, so that offsets still give line numbers.
        in_code = False
        for k, line in enumerate(lines):
            fence = line.startswith("```")
            if fence or in_code:
                lines[k] = ""
            if fence:
                in_code = not in_code
        text = "\n".join(lines)
        for m in POINTER.finditer(text):
            first, file = m.group(1), m.group(2)
            number = text.count("\n", 0, m.start()) + 1
            where = f"{rel}:{number}"
            context = " ".join(lines[max(0, number - 3):number])
            pointed = first if file is None else file
            if not looks_like_file(pointed) or ELSEWHERE.search(context):
                continue
            files_checked += 1
            found = resolve(pointed, os.path.dirname(page), names)
            if not found:
                problems.append(f"{where}: `{pointed}` names no file of the repository")
                continue
            name = None if file is None or looks_like_file(first) else symbol_name(first)
            if name is None:
                continue
            symbols_checked += 1
            texts = []
            for path in found:
                if os.path.isfile(path):
                    with open(path, encoding="utf-8", errors="replace") as f:
                        texts.append(f.read())
            if not any(re.search(r"\b" + re.escape(name) + r"\b", t) for t in texts):
                problems.append(f"{where}: `{first}` in `{file}`: {name} does not occur in {file}")
    for p in problems:
        print(p)
    print(f"{files_checked} file pointers and {symbols_checked} symbols in README.md and docs/ checked, "
          f"{len(problems)} problems")
    return 1 if problems or files_checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
