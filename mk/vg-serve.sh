#!/usr/bin/env bash
# mk/vg-serve.sh BUILD COMMAND...: run COMMAND (make valgrind's tests) with the program's
# server under memcheck (mk/vg-serve.c) for the runs mk/valgrind-expmech sends it; its
# reports go to this script's standard error.  Exit: COMMAND's status, or 96 when the
# server did not start or did not last to the end.
set -uo pipefail
b=$1; shift
dir=$(mktemp -d /tmp/em-vg.XXXXXX) || exit 96
export EM_VG_SOCK=$dir/sock EM_VG_SERVE=$PWD/$b/vg-serve
valgrind -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite \
  --show-leak-kinds=definite "$EM_VG_SERVE" --serve "$EM_VG_SOCK" &
srv=$!
for _ in $(seq 600); do [ -S "$EM_VG_SOCK" ] && break; kill -0 $srv 2>/dev/null || break; sleep 0.05; done
if [ ! -S "$EM_VG_SOCK" ]; then
  echo "vg-serve: the server did not start" >&2; kill $srv 2>/dev/null; rm -rf "$dir"; exit 96
fi
env "$@"; rc=$?
if ! kill -0 $srv 2>/dev/null; then echo "vg-serve: the server died during the tests" >&2; rc=96; fi
kill -TERM $srv 2>/dev/null; wait $srv 2>/dev/null
rm -rf "$dir"
exit $rc
