#!/usr/bin/env python3
"""Every citation of our docs names a file and a heading that exist in this repository.

Scans the code (src, tests, web, cmake, scripts, bench, CMakeLists.txt) for
  docs/<file>.md s.N            (also s.N-s.M, s.N, s.M)  -> a heading "## s.N ..." exists
  docs/<file>.md "Heading"      (also docs/<file>.md, "Heading") -> a heading starting with it exists
  docs/<file>.md                -> the file exists
and refuses citations of files outside the repository (the working spec, DESIGN.md, TOOLCHAIN.md).
Exits 1 with one line per broken citation. Usage: docs_citations.py [REPO_ROOT]
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
SCAN = ["src", "tests", "web", "cmake", "scripts", "bench", "CMakeLists.txt"]
EXTENSIONS = (".cpp", ".hpp", ".h", ".mjs", ".cjs", ".js", ".ts", ".cmake", ".txt", ".sh", ".py", ".html")
OUTSIDE = re.compile(r"\b(spec/[a-z_]+\.md|DESIGN\.md|TOOLCHAIN\.md|shared/(?:spec|seeds)/)")
CITATION = re.compile(r'docs/([a-z_]+)\.md(?:,?\s*(?:"([^"\n]+)"|((?:s\.\d+(?:\s*(?:-|,|and)\s*(?:s\.)?\d+)*))))?')
SELF = os.path.join("tests", "docs_citations.py")


def headings(path):
    with open(path, encoding="utf-8") as f:
        return [line.lstrip("#").strip() for line in f if line.startswith("#")]


def section_numbers(spec):
    numbers = [int(n) for n in re.findall(r"\d+", spec)]
    if "-" in spec and len(numbers) == 2:
        return list(range(numbers[0], numbers[1] + 1))
    return numbers


def files():
    for entry in SCAN:
        path = os.path.join(ROOT, entry)
        if os.path.isfile(path):
            yield path
            continue
        for folder, _, names in os.walk(path):
            for name in names:
                if name.endswith(EXTENSIONS):
                    yield os.path.join(folder, name)


def main():
    problems = []
    cache = {}
    checked = 0
    for path in files():
        rel = os.path.relpath(path, ROOT)
        if rel == SELF:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        for number, line in enumerate(lines, 1):
            where = f"{rel}:{number}"
            for m in OUTSIDE.finditer(line):
                problems.append(f"{where}: cites '{m.group(1)}', which is not in this repository (cite docs/)")
            for m in CITATION.finditer(line):
                checked += 1
                doc = os.path.join(ROOT, "docs", m.group(1) + ".md")
                if not os.path.isfile(doc):
                    problems.append(f"{where}: cites docs/{m.group(1)}.md, which does not exist")
                    continue
                heads = cache.setdefault(doc, headings(doc))
                quoted, sections = m.group(2), m.group(3)
                if quoted and not any(h.startswith(quoted) for h in heads):
                    problems.append(f'{where}: docs/{m.group(1)}.md has no heading "{quoted}"')
                if sections:
                    for n in section_numbers(sections):
                        if not any(h.startswith(f"s.{n} ") or h == f"s.{n}" for h in heads):
                            problems.append(f"{where}: docs/{m.group(1)}.md has no section s.{n}")
    for p in problems:
        print(p)
    print(f"{checked} citations of docs/ checked, {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
