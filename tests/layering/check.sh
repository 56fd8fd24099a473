#!/usr/bin/env bash
# The layering is enforced by include paths (cmake/layers.cmake); this checks the enforcement:
# each layering_* target compiles one file with exactly the include paths of one library, and
# must fail on the header it names (not for any other reason), except the control, which must
# compile. usage: tests/layering/check.sh BUILD_DIR TARGET=HEADER|ok ...
set -uo pipefail
build=$1; shift
status=0
for case in "$@"; do
  target=${case%%=*} expect=${case#*=}
  out=$(cmake --build "$build" --target "$target" 2>&1); rc=$?
  if [ "$expect" = ok ]; then
    [ $rc -eq 0 ] || { echo "FAILED: $target should compile:"; echo "$out"; status=1; }
  elif [ $rc -eq 0 ]; then
    echo "FAILED: $target compiled, but its library must not see $expect"; status=1
  elif ! grep -Eq "$expect.*(No such file|not found)" <<<"$out"; then
    echo "FAILED: $target did not fail on $expect:"; echo "$out"; status=1
  else
    echo "ok: $target cannot include $expect"
  fi
done
exit $status
