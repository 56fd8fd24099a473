#!/usr/bin/env python3
"""Bad input through the CLI: values at and beyond every kind of bound, NaN, Inf,
1e400 and -0 in numbers and files, huge arrays and files, deep nesting, bad UTF-8, 100 KB values,
duplicated keys. Each case must end with the expected exit code (0: accepted, 2: refused) and, when
refused, one line that names what is wrong, as valid UTF-8, at most 2100 characters long, quickly
(no case may read a huge file into memory: each runs under a 512 MB address-space limit).

usage: tests/bad_input.py ATTNLAB [--markdown] [--no-memory-limit]
  --markdown: print the table (for a closing note); --no-memory-limit: for sanitizer builds, whose
  shadow memory does not fit an address-space limit
"""
import json
import os
import resource
import subprocess
import sys
import tempfile

CLI = os.path.abspath(sys.argv[1])
MARKDOWN = "--markdown" in sys.argv
TMP = tempfile.mkdtemp(prefix="attnlab-bad-input-")


def path(name, content, size=None):
    """A file in TMP with `content` (bytes or str); `size` makes it that long (sparse)."""
    p = os.path.join(TMP, name)
    with open(p, "wb") as f:
        f.write(content.encode() if isinstance(content, str) else content)
        if size is not None:
            f.truncate(size)
    return p


SMALL = ["--set", "trials=10", "--sweep", "m=1", "--quiet"]  # a quick separation.toy run
MIRROR_SMALL = ["--set", "seeds=1", "--set", "iterations_rule=fixed", "--set", "iterations=3", "--set", "sweep=none",
                "--quiet"]
PROBLEM = {"A": [[1, 0], [0, 1], [1, 1]], "b": [0.1, 0.2, 0.3], "w": 1}


def problem(**changes):
    doc = dict(PROBLEM)
    doc.update(changes)
    return json.dumps(doc)


def deep(levels):
    return "[" * levels + "]" * levels


# (what was tried, argv after the command name, expected exit code, a fragment the message must have)
CASES = [
    ("number at its upper bound", ["run", "separation.toy", "--set", "tau=0.5", *SMALL], 0, ""),
    ("number just beyond its bound", ["run", "separation.toy", "--set", "tau=0.50001", *SMALL], 2,
     "parameter 'tau': '0.50001' is out of range; allowed: number in [0.01, 0.5]"),
    ("integer at its lower bound", ["run", "separation.toy", "--set", "trials=1", "--sweep", "m=1", "--quiet"], 0, ""),
    ("integer below its bound", ["run", "separation.toy", "--set", "trials=0", *SMALL[2:]], 2, "'trials': '0' is out of range"),
    ("integer with a fraction", ["run", "separation.toy", "--set", "trials=2.5", *SMALL[2:]], 2, "is not an integer"),
    ("integer beyond int64", ["run", "separation.toy", "--set", "trials=1e20", *SMALL[2:]], 2, "'1e20' is out of range"),
    ("nan", ["run", "separation.toy", "--set", "tau=nan", *SMALL], 2, "'nan' is not a number"),
    ("inf", ["run", "separation.toy", "--set", "tau=inf", *SMALL], 2, "'inf' is not a number"),
    ("1e400 (beyond a double)", ["run", "separation.toy", "--set", "tau=1e400", *SMALL], 2, "is beyond the range of a double"),
    ("1e-400 (below a double)", ["run", "separation.toy", "--set", "tau=1e-400", *SMALL], 2, "'1e-400' is out of range"),
    ("-0 where 0 is allowed", ["run", "mirror", "--set", "init_std=-0", *MIRROR_SMALL], 0, ""),
    ("hex, spaces", ["run", "separation.toy", "--set", "tau=0x10", *SMALL], 2, "'0x10' is not a number"),
    ("100 KB value", ["run", "separation.toy", "--set", "tau=0." + "9" * 100000, *SMALL], 2,
     "...' (100002 characters) is out of range"),
    ("bad UTF-8 in a key", ["run", "separation.toy", "--set", b"ta\xffu=1".decode("utf-8", "surrogateescape"), *SMALL], 2,
     "unknown parameter 'ta\\xFFu'"),
    ("bad UTF-8 in a choice", ["run", "separation.toy", "--set", b"m_rule=\xc3".decode("utf-8", "surrogateescape"), *SMALL],
     2, "'\\xC3' is not a valid choice"),
    ("parameter given twice", ["run", "separation.toy", "--set", "tau=0.3", "--set", "tau=0.2", *SMALL], 2,
     "parameter 'tau' is given twice"),
    ("--sweep and --set sweep", ["run", "separation.toy", "--set", "sweep=m=1", *SMALL], 2, "parameter 'sweep' is given twice"),
    ("sweep of 10001 points", ["run", "separation.toy", "--sweep", "n=2:10002:1", "--set", "trials=10", "--quiet"], 2,
     "has 10001 points; at most 10000 are allowed"),
    ("run too large to finish", ["run", "separation.toy", "--set", "trials=1000000", "--sweep", "n=99000:100000:50", "--quiet"],
     2, "would take hours"),
    ("unknown experiment", ["run", "nope"], 2, "unknown experiment 'nope'"),
    ("seed beyond 32 bits", ["run", "separation.toy", "--seed", "4294967296", *SMALL], 2, "allowed: integer in [0, 4294967295]"),
    ("problem file: NaN literal", ["run", "regression", "--data", path("nan.json", '{"A": NaN}'), "--quiet"], 2,
     "problem file: not valid JSON"),
    ("problem file: 1e400", ["run", "regression", "--data", path("big.json", problem().replace("0.1", "1e400", 1)), "--quiet"],
     2, "problem file: not valid JSON"),
    ("problem file: -0 entries", ["run", "regression", "--data", path("negzero.json", problem(x0=[-0.0, 0.0])),
                                  "--set", "max_iterations=3", "--quiet"], 0, ""),
    ("problem file: duplicated key", ["run", "regression", "--data", path("dup.json", '{"A": [[1]], "b": [0.1], "b": [0.2], "w": 1}'),
                                      "--quiet"], 2, "the key 'b' appears twice in one object"),
    ("problem file: nested 100000 deep", ["run", "regression", "--data", path("deep.json", deep(100000)), "--quiet"], 2,
     "nested deeper than 32 levels"),
    ("problem file: bad UTF-8", ["run", "regression", "--data", path("utf8.json", b'{"function": "\xff"}'), "--quiet"], 2,
     "problem file: not valid JSON"),
    ("problem file: 10^7 rows (sparse A)", ["run", "regression", "--data",
                                            path("rows.json", '{"A": {"rows": 10000000, "cols": 2, "entries": []}, "b": 0, "w": 1}'),
                                            "--quiet"], 2, "b must be an array"),
    ("problem file: 200 MB (10^7 rows)", ["run", "regression", "--data", path("huge.json", b"[", size=200 << 20), "--quiet"], 2,
     "bytes is more than the 64 MB a data file may have"),
    ("data file: ragged X", ["run", "mirror", "--data", path("ragged.json", '{"X": [[[1, 2]], [[1]]], "Y": [1, -1]}'),
                             *MIRROR_SMALL], 2, "data file:"),
    ("data file: Y = 0", ["run", "mirror", "--data", path("y0.json", '{"X": [[[1, 2], [3, 4]]], "Y": [0]}'), *MIRROR_SMALL], 2,
     "data file:"),
    ("data file to an experiment without data", ["run", "separation.toy", "--data", path("any.json", "{}"), *SMALL], 2,
     "takes no data file"),
    ("missing data file", ["run", "regression", "--data", os.path.join(TMP, "absent.json"), "--quiet"], 2, "cannot read"),
    ("merge: not JSON", ["merge", path("part-1.json", "a,b\n1,2\n")], 2, "not valid JSON"),
    ("merge: 2 GB shard", ["merge", path("part-2.json", b"{", size=2 << 30)], 2, "(is it a shard file?)"),
    ("merge: duplicated key", ["merge", path("part-3.json", '{"attnlab_shard": 1, "attnlab_shard": 1}')], 2,
     "the key 'attnlab_shard' appears twice"),
    ("--shard 0/3", ["run", "separation.toy", "--shard", "0/3", *SMALL], 2, "shard"),
    ("--jobs 257", ["run", "separation.toy", "--jobs", "257", *SMALL], 2, "allowed: integer in [0, 256]"),
    # The option table (src/cli/option_table.cpp): an option a command does not take is refused.
    ("link with --out", ["link", "separation.toy", "--out", path("link.txt", "")], 2,
     "--out is not an option of link; link takes: --preset, --set, --sweep, --seed"),
    ("link with --jobs", ["link", "separation.toy", "--jobs", "2"], 2, "--jobs is not an option of link"),
    ("link with --format", ["link", "separation.toy", "--format", "json"], 2, "--format is not an option of link"),
    ("link with --data", ["link", "separation.toy", "--data", path("link.json", "{}")], 2,
     "--data is not an option of link"),
    ("inspect with --shard", ["inspect", "separation.toy", "--shard", "1/2"], 2, "--shard is not an option of inspect"),
    ("merge with --seed", ["merge", path("part-4.json", "{}"), "--seed", "2"], 2, "--seed is not an option of merge"),
    ("list with an argument", ["list", "extra"], 2, "list takes no arguments; 'extra' is one too many"),
    ("unknown option", ["run", "separation.toy", "--nope", *SMALL], 2, "unknown option '--nope'; run takes: --preset"),
    ("--format xml", ["run", "separation.toy", "--format", "xml", *SMALL], 2,
     "option --format: 'xml' is not allowed; allowed: csv or json"),
    ("bench --format csv", ["bench", "--format", "csv"], 2, "option --format: 'csv' is not allowed; allowed: text or json"),
    ("an option given twice", ["run", "separation.toy", "--seed", "1", "--seed", "2", *SMALL], 2,
     "option --seed is given twice; give it once"),
    ("an option without its value", ["run", "separation.toy", "--out"], 2, "option --out needs a value (FILE)"),
]


def limit_memory():
    if "--no-memory-limit" not in sys.argv:
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))


failures = []
rows = []
for what, argv, want_code, fragment in CASES:
    argv_bytes = [a.encode("utf-8", "surrogateescape") for a in argv]
    try:
        run = subprocess.run([CLI.encode(), *argv_bytes], capture_output=True, timeout=120, preexec_fn=limit_memory)
    except subprocess.TimeoutExpired:
        failures.append(f"{what}: no answer within 120 s")
        continue
    err = run.stderr.decode("utf-8", "replace").strip()
    lines = [l for l in err.splitlines() if l.startswith("attnlab:")]
    message = lines[-1] if lines else ""
    problems = []
    if run.returncode != want_code:
        problems.append(f"exit code {run.returncode}, expected {want_code}")
    if want_code != 0:
        try:
            run.stderr.decode("utf-8")
        except UnicodeDecodeError:
            problems.append("the message is not valid UTF-8")
        if fragment not in message:
            problems.append(f"the message lacks {fragment!r}")
        if len(message) > 2100:
            problems.append(f"the message has {len(message)} characters")
    if problems:
        failures.append(f"{what}: " + "; ".join(problems) + f"\n    message: {message[:300]}")
    shown = message[len("attnlab: "):] if message else "(accepted)"
    rows.append((what, run.returncode, shown))

if MARKDOWN:
    print("| input (CLI) | exit | message |")
    print("|---|---|---|")
    for what, code, shown in rows:
        short = shown if len(shown) <= 160 else shown[:157] + "..."
        print(f"| {what} | {code} | {short.replace('|', '/')} |")
for f in failures:
    print("FAIL", f, file=sys.stderr)
print(f"{len(CASES) - len(failures)} of {len(CASES)} bad-input cases behave", file=sys.stderr)
sys.exit(1 if failures else 0)
