#!/usr/bin/env python3
"""Every test named in a cost file (tests/ctest-costs/KIND.txt) is a test of the build it is for.

A renamed test keeps its old line, which set_tests_properties ignores: the long test silently
loses its COST and a fresh machine starts it last (docs/toolchain.md, "The test steps apart from
compiling"). Usage: names_exist.py COST_FILE BUILD_DIR
"""
import re
import subprocess
import sys


def main() -> int:
    cost_file, build_dir = sys.argv[1], sys.argv[2]
    listing = subprocess.run(["ctest", "--test-dir", build_dir, "-N"], check=True,
                             capture_output=True, text=True).stdout
    tests = {m.group(1).strip() for m in re.finditer(r"^\s*Test\s+#\d+: (.+)$", listing, re.M)}
    if not tests:
        print(f"ctest -N in {build_dir} listed no tests")
        return 1
    stale = []
    with open(cost_file, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            m = re.match(r"^([0-9.]+) (.+)$", line.rstrip("\n"))
            if not m:
                stale.append(f"{cost_file}:{number}: not 'SECONDS NAME': {line.rstrip()}")
            elif m.group(2) not in tests:
                stale.append(f"{cost_file}:{number}: no test is named '{m.group(2)}'")
    for s in stale:
        print(s)
    if stale:
        print("rename the line or rewrite the file: tests/ctest-costs/update.sh BUILD_DIR KIND")
        return 1
    print(f"{cost_file}: all names are tests of {build_dir} ({len(tests)} tests)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
