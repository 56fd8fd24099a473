#!/usr/bin/env bash
# README.md's paper table names every paper of the registry (src/experiments/papers.cpp):
# for each paper that `attnlab papers` lists, one row of the table (the lines before the table of
# experiments, "| experiment |") holds the paper's title in italics, each of its experiments in
# backticks and a link to its docs page, which exists.
# usage: tests/readme_papers.sh PATH/TO/attnlab PATH/TO/README.md
set -euo pipefail
cli=$1
readme=$2
table=$(sed -n '1,/^| experiment |/p' "$readme" | grep '^| ' || true)
status=0 count=0
# `attnlab papers`: "ID: TITLE", then "  AUTHORS, arXiv N, DOCS_PAGE", then "  experiments: A, B".
while IFS= read -r line; do
  case "$line" in
    "  experiments: "*)
      experiments=${line#  experiments: }
      row=$(grep -F "*$title*" <<<"$table" || true)
      if [ -z "$row" ]; then
        echo "FAILED: README.md's paper table has no row with the title *$title* ($id)" >&2; status=1; continue
      fi
      for e in ${experiments//,/ }; do
        case "$row" in *"\`$e\`"*) ;; *) echo "FAILED: README.md's row for $id does not name the experiment $e" >&2; status=1 ;; esac
      done
      case "$row" in *"($docs)"*) ;; *) echo "FAILED: README.md's row for $id does not link $docs" >&2; status=1 ;; esac
      [ -f "$(dirname "$readme")/$docs" ] || { echo "FAILED: $id's page $docs does not exist" >&2; status=1; }
      count=$((count + 1)) ;;
    "  "*", arXiv "*) docs=${line##*, } ;;
    "  "*) ;;
    *": "*) id=${line%%: *}; title=${line#*: } ;;
  esac
done < <("$cli" papers)
if [ "$count" -eq 0 ]; then echo "FAILED: attnlab papers listed no paper" >&2; status=1; fi
exit $status
