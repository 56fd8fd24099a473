#!/usr/bin/env python3
"""Every list that names the registry's papers, experiments, presets, stories or parameters by hand
agrees with the registry, as the CLI reports it (`attnlab papers`, `list`, `help ID`, `stories`):

  README.md       the link key story= names every story; a link to a step of every story; the
                  layout names every paper's folder under src/experiments/; the docs list links
                  every paper's page
  docs/design.md  its list of folders, one per paper, names exactly the papers' folders; the table of
                  pictures before a run names exactly the experiments; the data selectors named
                  are exactly those of the experiments that take data
  tests/fuzz/     both dictionaries hold every experiment id and every parameter key ("key=");
                  the corpus has every experiment's and every preset's settings and link, and
                  every story's first step (tests/fuzz/make_corpus.sh writes them from the CLI)
  bench/reduced_counts.json  (the reduced counts of slow presets, read by bench/preset_tables.sh
                  and tests/node/cli_equal.test.cjs) names existing experiments, presets and keys

  src/experiments/  every <x>_experiment.cpp has its template beside it (docs/design.md "The shape of
                  the code"): <x>_schema, <x>_unit, <x>_results, <x>_inputs (.hpp and .cpp), <x>_run.hpp
(README's tables of papers and presets: tests/readme_papers.sh, tests/readme_presets.sh.)
Prints one line per disagreement and exits 1 on any. Usage: registry_lists.py ATTNLAB_CLI REPO_ROOT
"""
import json
import os
import re
import subprocess
import sys


def cli(*args):
    return subprocess.run([sys.argv[1], *args], check=True, capture_output=True, text=True).stdout


def registry():
    papers = re.findall(r"^([a-z0-9_]+): ", cli("papers"), re.M)
    experiments = [line.split()[0] for line in cli("list").splitlines() if line.strip()]
    presets, keys, data = {}, {}, {}
    for e in experiments:
        text = cli("help", e)
        presets[e] = re.findall(r"^  ([a-z0-9_]+) ", text.split("\npresets", 1)[1], re.M) if "\npresets" in text else []
        keys[e] = re.findall(r"^  ([A-Za-z0-9_]+)\s{2,}", text.split("\npresets", 1)[0], re.M)
        m = re.search(r"--data FILE\.json, which sets ([a-z_0-9]+)=([a-z_0-9]+)", text)
        if m:
            data[e] = (m.group(1), m.group(2))
    stories = sorted(set(re.findall(r"#story=([a-z0-9_]+)&step=", cli("stories"))))
    return papers, experiments, presets, keys, data, stories


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def compare(problems, where, listed, registered, what):
    for x in sorted(set(registered) - set(listed)):
        problems.append(f"{where} does not name the {what} {x}")
    for x in sorted(set(listed) - set(registered)):
        problems.append(f"{where} names {x}, which is no {what} of the registry")


def check_readme(root, papers, stories, problems):
    readme = read(root, "README.md")
    m = re.search(r"^\| `story=ID` \| a guided story \(([^)]*)\)", readme, re.M)
    compare(problems, "README.md's link key story=", re.findall(r"`([a-z0-9_]+)`", m.group(1)) if m else [],
            stories, "story")
    compare(problems, "README.md's links to story steps", re.findall(r"#story=([a-z0-9_]+)&step=", readme),
            stories, "story")
    layout = readme[readme.index("\nsrc/experiments/ "):]
    layout = layout[:layout.index("\nsrc/cli/")]
    compare(problems, "README.md's layout of src/experiments/", re.findall(r"^ +([a-z0-9_]+)/:", layout, re.M),
            papers, "paper")
    docs = readme[readme.index("## Documentation and measurements"):]
    pages = re.findall(r"\[docs/([a-z0-9_]+)\.md\]\(docs/\1\.md\)", docs)
    compare(problems, "README.md's docs list", [p for p in pages if p not in ("design", "toolchain")], papers,
            "paper's page")


def check_design(root, papers, experiments, data, problems):
    design = read(root, "docs/design.md")
    m = re.search(r"one folder per paper \(([^)]*)\)", design)
    compare(problems, "docs/design.md's folder list", re.findall(r"`([a-z0-9_]+)/`", m.group(1)) if m else [],
            papers, "paper")
    table = design[design.index("| experiment | the picture |"):]
    table = table[:table.index("\n\n")]
    listed = [x for row in table.splitlines()[2:] for x in re.findall(r"`([a-z0-9_.]+)`", row.split("|")[1])]
    compare(problems, "docs/design.md's table of pictures before a run", listed, experiments, "experiment")
    named = re.findall(r'`\{"([a-z_0-9]+)", "([a-z_0-9]+)"\}`\s+for\s+`([a-z0-9_.]+)`', design)
    compare(problems, "docs/design.md's data selectors", [f"{e}: {k}={v}" for k, v, e in named],
            [f"{e}: {k}={v}" for e, (k, v) in data.items()], "data selector")


def check_fuzz(root, experiments, presets, keys, stories, problems):
    for name in ("fuzz_params", "fuzz_url_hash"):
        words = re.findall(r'^"([^"]*)"$', read(root, f"tests/fuzz/{name}.dict"), re.M)
        for e in experiments:
            if e not in words:
                problems.append(f"tests/fuzz/{name}.dict does not hold the experiment id \"{e}\"")
        for key in sorted({k for e in experiments for k in keys[e]}):
            if key + "=" not in words:
                problems.append(f"tests/fuzz/{name}.dict does not hold the parameter key \"{key}=\"")
    corpus = os.path.join(root, "tests", "fuzz", "corpus")
    wanted = []
    for e in experiments:
        for target in ("fuzz_params", "fuzz_url_hash"):
            wanted += [f"{target}/{e}"] + [f"{target}/{e}-{p}" for p in presets[e]]
    wanted += [f"fuzz_url_hash/story-{s}-step-1" for s in stories]
    for path in wanted:
        if not os.path.isfile(os.path.join(corpus, path)):
            problems.append(f"tests/fuzz/corpus/{path} is missing (tests/fuzz/make_corpus.sh writes it)")


def check_reduced(root, experiments, presets, keys, problems):
    reduced = json.loads(read(root, "bench/reduced_counts.json"))
    for e, by_preset in reduced.items():
        if e.startswith("_"):
            continue
        if e not in experiments:
            problems.append(f"bench/reduced_counts.json names the experiment {e}, which does not exist")
            continue
        for p, sets in by_preset.items():
            if p not in ("", "*") and p not in presets[e]:
                problems.append(f"bench/reduced_counts.json names the preset {e} {p}, which does not exist")
            for k in sets:
                if k not in keys[e]:
                    problems.append(f"bench/reduced_counts.json sets {k} of {e}, which has no such parameter")


def check_template(root, problems):
    folder = os.path.join(root, "src", "experiments")
    found = 0
    for paper in sorted(os.listdir(folder)):
        here = os.path.join(folder, paper)
        if not os.path.isdir(here):
            continue
        for name in sorted(os.listdir(here)):
            if not name.endswith("_experiment.cpp"):
                continue
            found += 1
            x = name[: -len("_experiment.cpp")]
            for part in [f"{x}_{job}.{ext}" for job in ("schema", "unit", "results", "inputs") for ext in ("hpp", "cpp")] + \
                        [f"{x}_run.hpp", f"{x}_experiment.hpp"]:
                if not os.path.isfile(os.path.join(here, part)):
                    problems.append(f"src/experiments/{paper}/{name} has no {part} beside it (the template)")
    if found == 0:
        problems.append("src/experiments/ has no <x>_experiment.cpp")


def main():
    root = os.path.abspath(sys.argv[2])
    papers, experiments, presets, keys, data, stories = registry()
    problems = []
    if not papers or not experiments or not stories or not any(keys.values()):
        problems.append("the CLI reported no paper, experiment, story or parameter")
    check_readme(root, papers, stories, problems)
    check_design(root, papers, experiments, data, problems)
    check_fuzz(root, experiments, presets, keys, stories, problems)
    check_reduced(root, experiments, presets, keys, problems)
    check_template(root, problems)
    for p in problems:
        print(p)
    print(f"{len(papers)} papers, {len(experiments)} experiments, {sum(map(len, presets.values()))} presets, "
          f"{len(stories)} stories against README.md, docs/design.md, tests/fuzz, bench/reduced_counts.json and the template: "
          f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
