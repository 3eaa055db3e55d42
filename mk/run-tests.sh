#!/usr/bin/env bash
# Run every Check test program; print one closing line "N passed, N failed".
# The programs are independent (each CLI test works in its own mkdtemp directory), so
# they run EM_TEST_JOBS at a time (default: the number of CPUs) and their reports are
# printed in the order given, as a sequential run would print them.
set -uo pipefail
jobs=${EM_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
i=0
for t in "$@"; do
  i=$((i+1))
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  ( CK_FORK=yes EM_RUN_DIR=$tmp "$t" >"$tmp/$i.out" 2>&1; echo $? >"$tmp/$i.rc" ) &
done
wait
pass=0; fail=0; failed=()
i=0
for t in "$@"; do
  i=$((i+1))
  out=$(cat "$tmp/$i.out"); rc=$(cat "$tmp/$i.rc" 2>/dev/null || echo 255)
  echo "$out" | grep -E '^[0-9]+%: Checks' | sed "s#^#$(basename "$t"): #"
  if [ "$rc" -ne 0 ]; then echo "$out" | grep -vE '^(Running suite|[0-9]+%: Checks)' | head -40; fi
  p=$(echo "$out" | sed -nE 's/^[0-9]+%: Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2 \3/p' | tail -1)
  if [ -z "$p" ]; then fail=$((fail+1)); failed+=("$t (no Check summary, exit $rc)"); continue; fi
  read -r n f e <<<"$p"
  pass=$((pass + n - f - e)); fail=$((fail + f + e))
  [ "$rc" -ne 0 ] && [ $((f+e)) -eq 0 ] && { fail=$((fail+1)); failed+=("$t (exit $rc)"); }
done
for x in "${failed[@]:-}"; do [ -n "$x" ] && echo "FAILED: $x"; done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
