#!/usr/bin/env bash
# Run every statistical test program in the given mode (quick: fixed seeds, the
# CI set; full: adds fresh seeds and larger N).  One closing line for all.
set -uo pipefail
mode=$1; shift
pass=0; fail=0
for t in "$@"; do
  echo "== $(basename "$t") ($mode)"
  out=$("$t" "$mode" 2>&1); rc=$?
  echo "$out" | grep -v '^stats: '
  line=$(echo "$out" | sed -nE 's/^stats: ([0-9]+) passed, ([0-9]+) failed$/\1 \2/p' | tail -1)
  if [ -z "$line" ]; then echo "FAILED: $t printed no summary (exit $rc)"; fail=$((fail+1)); continue; fi
  read -r p f <<<"$line"
  pass=$((pass+p)); fail=$((fail+f))
  [ $rc -ne 0 ] && [ "$f" -eq 0 ] && fail=$((fail+1))
done
echo "stats: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
