#!/usr/bin/env bash
# bench_memory.sh: peak memory (maximum resident set size) and wall time of `expmech probs`
# and `expmech sample` on a generated scenario of N candidates (the target: at most 1 GB at
# 10^7).  Run by `make bench-all`, never by the tests: the numbers depend on the machine.
#
#   bash stats/bench_memory.sh [EXPMECH]        (default build/expmech)
#   BENCH_MEMORY_N=1000000                      candidates (default 10^7)
#   BENCH_MEMORY_KINDS="decimal integer long"   utility syntaxes (default: decimal)
#   BENCH_MEMORY_GB=1                           the target; a run above it prints OVER
#
# Kinds: decimal 'c123,142.857143' (%.6f of (i mod 1000)/7), integer 'c123,123' (i mod
# 1000), long 'c123,123.000974037012881667' (21 digits: beyond an int64 mantissa, stored as limbs).
# Runs one at a time (the machine may be shared); the generated file is removed after.
set -uo pipefail
E=${1:-build/expmech}
N=${BENCH_MEMORY_N:-10000000}
KINDS=${BENCH_MEMORY_KINDS:-decimal}
GB=${BENCH_MEMORY_GB:-1}
TIME=/usr/bin/time
if [ ! -x "$TIME" ]; then
    echo "bench_memory: $TIME (GNU time) is needed for the peak resident set size" >&2
    exit 1
fi
dir=$(mktemp -d /tmp/em_bench_memory_XXXXXX)
trap 'rm -rf "$dir"' EXIT
limit_kb=$((GB * 1024 * 1024))
status=0
printf '%-8s %-52s %12s %10s  %s\n' kind command "peak RSS MB" "wall s" exit
for kind in $KINDS; do
    f=$dir/$kind.txt
    case $kind in
    decimal) awk -v n="$N" 'BEGIN{for(i=0;i<n;i++) printf "c%d,%.6f\n", i, (i%1000)/7.0}' >"$f" ;;
    integer) awk -v n="$N" 'BEGIN{for(i=0;i<n;i++) printf "c%d,%d\n", i, i%1000}' >"$f" ;;
    long) awk -v n="$N" 'BEGIN{for(i=0;i<n;i++) printf "c%d,%d.%09d%09d\n", i, i%1000, (i*7919)%1000000000, (i*104729)%1000000000}' >"$f" ;;
    *) echo "bench_memory: unknown kind '$kind'" >&2; exit 1 ;;
    esac
    for cmd in "probs --epsilon 1" "sample --epsilon 1 -n 10 --seed 1" \
               "sample --epsilon 1 -n 10 --seed 1 --sampler float"; do
        # shellcheck disable=SC2086
        "$TIME" -f '%M %e %x' -o "$dir/time.txt" "$E" $cmd "$f" >/dev/null 2>"$dir/err.txt"
        read -r kb wall rc <"$dir/time.txt"
        over=""
        [ "$kb" -gt "$limit_kb" ] && { over="  OVER ${GB} GB"; status=1; }
        [ "$rc" != 0 ] && { over="$over  ($(head -c 200 "$dir/err.txt"))"; status=1; }
        printf '%-8s %-52s %12.1f %10s  %s%s\n' "$kind" "$cmd" "$(echo "$kb / 1024" | bc -l)" "$wall" "$rc" "$over"
    done
    rm -f "$f"
done
echo "bench_memory: N = $N candidates per file ($E)"
exit $status
