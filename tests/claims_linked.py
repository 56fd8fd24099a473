#!/usr/bin/env python3
"""Every claim row of docs/ is linked to the tests that check it, and every such link to a row.

Each paper page of docs/ ends with a table "Claims the lab states" whose first column is the row's
id (sep-01, reg-07, mir-03, mh-12). The test that checks a row carries the id:
  - a Catch2 case (tests/*.cpp) as a tag in its tag string: TEST_CASE("name", "[x][claim:sep-01]");
  - a node or browser test (tests/node, web/e2e, web/e2e-engines) in its name: test("... [claim:sep-01]").
Fails, one line each, on: a row without an id or with a repeated one; a row whose id no test
carries; a test carrying an id that no row has; a test carrying an id whose row does not name it
(the row's test column quotes the case's name, so what the row says is what runs).
Usage: claims_linked.py [REPO_ROOT]
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
ID = re.compile(r"^(sep|reg|mir|mh)-\d\d$")
TAG = re.compile(r"\[claim:([a-z]+-\d\d)\]")
# A Catch2 case: its name (adjacent literals joined) and its tag string.
CATCH_CASE = re.compile(r'TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+),\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\)', re.S)
# A node:test / browser test: test("name", ...), it('name', ...), with `[claim:ID]` in the name.
NODE_CASE = re.compile(r"""\b(?:test|it)\(\s*(["'`])((?:(?!\1).)*?\[claim:[^\]]+\](?:(?!\1).)*)\1""", re.S)


def literal(text):
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text)).replace('\\"', '"')


def claim_rows():
    """(file, line number, id, test column) of every row of every claims table."""
    rows = []
    docs = os.path.join(ROOT, "docs")
    for name in sorted(os.listdir(docs)):
        if not name.endswith(".md"):
            continue
        in_table = False
        with open(os.path.join(docs, name), encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if line.startswith("## "):
                    in_table = line.startswith("## Claims the lab states")
                    continue
                if not in_table or not line.startswith("|"):
                    continue
                cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]
                if cells[0] in ("id", "claim") or set(cells[0]) <= set("-: "):
                    if cells[0] == "claim":
                        rows.append((name, number, "", ""))  # a table without the id column
                    continue
                rows.append((name, number, cells[0], cells[-1]))
    return rows


def tagged_tests():
    """(file, name, id) of every test that carries a claim id."""
    found = []
    for folder, pattern in (("tests", CATCH_CASE), ("tests/node", NODE_CASE), ("web/e2e", NODE_CASE),
                            ("web/e2e-engines", NODE_CASE)):
        path = os.path.join(ROOT, folder)
        if not os.path.isdir(path):
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith((".cpp", ".mjs", ".cjs", ".js")) or (pattern is CATCH_CASE) != name.endswith(".cpp"):
                continue
            with open(os.path.join(path, name), encoding="utf-8") as f:
                text = f.read()
            for m in pattern.finditer(text):
                if pattern is CATCH_CASE:
                    test_name, tags = literal(m.group(1)), literal(m.group(2))
                else:
                    test_name = tags = m.group(2)
                for claim in TAG.findall(tags):
                    found.append((os.path.join(folder, name), test_name, claim))
    return found


def main():
    problems = []
    rows = claim_rows()
    by_id = {}
    for doc, number, claim, tests in rows:
        where = f"docs/{doc}:{number}"
        if not ID.match(claim):
            problems.append(f"{where}: the row has no id (first column sep-NN, reg-NN, mir-NN or mh-NN): '{claim}'")
            continue
        if claim in by_id:
            problems.append(f"{where}: id {claim} is also the id of {by_id[claim][0]}")
            continue
        by_id[claim] = (where, tests)
    linked = set()
    for test_file, test_name, claim in tagged_tests():
        if claim not in by_id:
            problems.append(f"{test_file}: '{test_name}' carries [claim:{claim}], which no claims row has")
            continue
        linked.add(claim)
        where, tests = by_id[claim]
        if f'"{test_name}"' not in tests:
            problems.append(f"{where}: row {claim} does not name \"{test_name}\" ({test_file}), which carries its id")
    for claim, (where, _) in sorted(by_id.items()):
        if claim not in linked:
            problems.append(f"{where}: no test carries [claim:{claim}]")
    for p in problems:
        print(p)
    print(f"{len(by_id)} claim rows, {len(linked)} linked to tests; {len(problems)} problems")
    return 1 if problems or not by_id else 0


if __name__ == "__main__":
    sys.exit(main())
