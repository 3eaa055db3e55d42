#!/usr/bin/env bash
# bench.sh: issue 15's side-by-side benchmark, the first thing `make bench` does.
#
#   bash mk/bench.sh [BUILD_DIR]       (default build; needs BUILD_DIR/stats/bench_speed
#                                       and BUILD_DIR/expmech)
#
# Every figure runs in its own process, one at a time (the machine may be shared: two
# figures at once would time each other): stats/bench_speed (expmech's library and the
# physical-limit loops), stats/bench_peers.py (numpy's recipe, diffprivlib's algorithm),
# and two whole processes timed from here over the same 10^6-line CSV, written once to a
# temporary directory: `expmech sample --sampler float -n 1 FILE` and the numpy script
# stats/bench_loadtxt.py; the Python binding (stats/bench_py.py, in-process) beside the same
# jobs through `expmech probs|sample|check` on 10^5 candidates.  Each whole-process figure is the median of 5 runs after one
# warm-up run (the file then sits in the page cache for both).  Times are CPU time (user +
# system) by default: the machine may be shared, and wall time would also count the time
# other processes hold the CPU; BENCH_CLOCK=wall measures wall time.
# mk/bench_report.py assembles BUILD_DIR/bench.json, fails when a required figure is
# missing, and prints the table with the issue's targets; `make bench-doc` copies it
# into docs/speed.md.
set -euo pipefail
cd "$(dirname "$0")/.."
B=${1:-build}
PY=${PYTHON:-/usr/bin/python3}
SPEED=$B/stats/bench_speed
for f in "$SPEED" "$B/expmech"; do
    if [ ! -x "$f" ]; then
        echo "bench: $f is missing (make $f)" >&2
        exit 1
    fi
done
dir=$(mktemp -d /tmp/em_bench_XXXXXX)
trap 'rm -rf "$dir"' EXIT
N=1000000
csv=$dir/u$N.csv
# the CSV bench_speed's cli_parse builds in memory: u_i = -i/1000 as a three-decimal number
awk -v n=$N 'BEGIN{for(i=0;i<n;i++) printf "c%d,%s%d.%03d\n", i, (i?"-":""), int(i/1000), i%1000}' >"$csv"
: >"$dir/figures.jsonl"
: >"$dir/peers.jsonl"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
t_start=$(date +%s)

# run NAME N KIND PROGRAM...: one figure's process; its JSON line goes to KIND.jsonl
run() {
    local name=$1 n=$2 kind=$3
    shift 3
    local rc=0
    "$@" "$name" "$n" >>"$dir/$kind.jsonl" 2>"$dir/err" || rc=$?
    if [ $rc -eq 3 ]; then # a variant this CPU cannot run (bench_speed says which)
        sed 's/^/  (skipped) /' "$dir/err" >&2
        return 0
    fi
    if [ $rc -ne 0 ]; then
        echo "bench: $name $n failed (exit $rc):" >&2
        cat "$dir/err" >&2
        exit 1
    fi
    sed 's/^/  /' "$dir/err" >&2
}

# whole NAME N KIND COMMAND...: a whole process's figure (mk/bench_report.py whole)
whole() {
    local name=$1 n=$2 kind=$3
    shift 3
    "$PY" mk/bench_report.py whole "$name" "$n" -- "$@" >>"$dir/$kind.jsonl" || exit 1
}

echo "== bench: issue 15's figures, one process each (medians; details below)"
# the exact path's goal is "within 3x of the float path at every n from 7 to 10^6": two
# more sizes between the issue's three
for n in 7 1000 10000 100000 $N; do run float_oneshot "$n" figures "$SPEED"; done
run float_many 7 figures "$SPEED"
for n in 7 1000 10000 100000 $N; do run exact_oneshot "$n" figures "$SPEED"; done
run exact_oneshot_kept $N figures "$SPEED"
for n in 7 1000 $N; do run exact_oneshot_q "$n" figures "$SPEED"; done
run oracle_probs_40d $N figures "$SPEED"
# permute-and-flip's exact law (every probability and log-probability, 17 digits), and
# the O(n^2) brute force it replaced at 4096 candidates (one run of about half a minute)
for n in 4096 100000 $N; do run pf_probs "$n" figures "$SPEED"; done
run pf_probs_old 4096 figures "$SPEED"
run cli_parse $N figures "$SPEED"
whole cli_sample_float $N figures "$B/expmech" sample --sampler float --epsilon 1 -n 1 "$csv"
# The Python binding beside the same jobs through the command line: 10^5 candidates,
# u_i = -i/1000 as doubles (hex floats in the file, so both read the same rationals);
# check tests 10^5 draws of the float sampler (seed 1), the same draws in both.
NP=100000
hex=$dir/u$NP.hex.csv
"$PY" -c 'import sys; sys.stdout.write("".join("%d,%s\n" % (i, (-i / 1000).hex()) for i in range(int(sys.argv[1]))))' $NP >"$hex"
"$B/expmech" sample --epsilon 1 --sampler float --seed 1 -n $NP "$hex" >"$dir/draws" 2>/dev/null
whole cli_probs $NP figures "$B/expmech" probs --epsilon 1 "$hex"
whole cli_sample $NP figures "$B/expmech" sample --epsilon 1 -n 1000 --seed 1 "$hex"
whole cli_check $NP figures "$B/expmech" check --epsilon 1 --samples "$dir/draws" "$hex"
lib=$(cd "$B" && pwd)/libexpmech.so.1
for f in py_probs py_sample py_check; do
    run "$f" $NP figures env EXPMECH_LIB="$lib" "$PY" stats/bench_py.py
done
for f in limit_scalar limit_vector limit_vector_sse2 limit_vector_avx512 limit_memory; do
    run "$f" $N figures "$SPEED"
done
for n in 7 1000 $N; do run numpy_oneshot "$n" peers "$PY" stats/bench_peers.py; done
run numpy_many 7 peers "$PY" stats/bench_peers.py
for n in 7 1000 $N; do run diffprivlib_oneshot "$n" peers "$PY" stats/bench_peers.py; done
whole numpy_loadtxt_sample $N peers "$PY" stats/bench_loadtxt.py "$csv"
# the conformance suite against the numpy reference sampler (wall time: one process at a time)
PYTHON="$PY" "$PY" mk/bench_conform.py "$B" >>"$dir/figures.jsonl" || exit 1

# check_wall: not timed here (it takes minutes) but read from the last passing `make check` of
# this build directory ($B/check-wall.json, mk/stage.sh), when there is one: its wall time.
if [ -f "$B/check-wall.json" ]; then
    "$PY" -c 'import json, sys; d = json.load(open(sys.argv[1]))
if d.get("ok"): print(json.dumps({"name": "check_wall", "value": round(d["wall_s"] * 1e6), "unit": "us", "n": 1}))' \
        "$B/check-wall.json" >>"$dir/figures.jsonl"
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
CC=${CC:-gcc} "$PY" mk/bench_report.py assemble --figures "$dir/figures.jsonl" \
    --peers "$dir/peers.jsonl" --out "$B/bench.json" --load-before "$load_before" \
    --load-after "$load_after" --seconds $(($(date +%s) - t_start))
