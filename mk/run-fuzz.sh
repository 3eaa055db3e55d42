#!/usr/bin/env bash
# Run each libFuzzer harness for a bounded time: mk/run-fuzz.sh SECONDS TIMEOUT TARGET...
# The corpus grows in build-fuzz/corpus/NAME (seeded from fuzz/corpus/NAME, the committed
# seeds taken from the tests).  Any crash, leak, UB report or input slower than TIMEOUT
# seconds fails the run; the closing line counts executions.  The harnesses run
# EM_FUZZ_JOBS at a time (default: the number of CPUs), each with its own corpus and log.
set -uo pipefail
secs=$1; tmo=$2; shift 2
seed=${FUZZ_SEED:-1}   # fixed in CI (make check); FUZZ_SEED=0 lets libFuzzer pick one
jobs=${EM_FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
mkdir -p build-fuzz/artifacts
for t in "$@"; do
  name=$(basename "$t")
  work=build-fuzz/corpus/$name; mkdir -p "$work"; rm -f "build-fuzz/$name.rc"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  ( "$t" -seed="$seed" -max_total_time="$secs" -timeout="$tmo" -max_len=2048 -rss_limit_mb=4096 \
         -print_final_stats=1 -close_fd_mask=3 -artifact_prefix=build-fuzz/artifacts/"$name"- \
         "$work" "fuzz/corpus/$name" >"build-fuzz/$name.log" 2>&1
    echo $? >"build-fuzz/$name.rc" ) &
done
wait
total=0; fail=0
for t in "$@"; do
  name=$(basename "$t"); log=build-fuzz/$name.log
  rc=$(cat "build-fuzz/$name.rc" 2>/dev/null || echo 255)
  runs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
  echo "fuzz: $name: ${runs:-0} executions in ${secs} s, exit $rc"
  total=$((total + ${runs:-0}))
  if [ "$rc" -ne 0 ]; then fail=$((fail+1)); grep -E "ERROR|runtime error|timeout|SUMMARY" "$log" | head -20; fi
done
echo "fuzz: $total executions, $fail harness(es) failed"
[ "$fail" -eq 0 ]
