#!/usr/bin/env bash
# Run every Check test program; print one closing line "N passed, N failed".
set -uo pipefail
pass=0; fail=0; failed=()
for t in "$@"; do
  out=$(CK_FORK=yes "$t" 2>&1); rc=$?
  echo "$out" | grep -E '^[0-9]+%: Checks' | sed "s#^#$(basename "$t"): #"
  if [ $rc -ne 0 ]; then echo "$out" | grep -vE '^(Running suite|[0-9]+%: Checks)' | head -40; fi
  p=$(echo "$out" | sed -nE 's/^[0-9]+%: Checks: ([0-9]+), Failures: ([0-9]+), Errors: ([0-9]+).*/\1 \2 \3/p' | tail -1)
  if [ -z "$p" ]; then fail=$((fail+1)); failed+=("$t (no Check summary, exit $rc)"); continue; fi
  read -r n f e <<<"$p"
  pass=$((pass + n - f - e)); fail=$((fail + f + e))
  [ $rc -ne 0 ] && [ $((f+e)) -eq 0 ] && { fail=$((fail+1)); failed+=("$t (exit $rc)"); }
done
for x in "${failed[@]:-}"; do [ -n "$x" ] && echo "FAILED: $x"; done
echo "unit: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
