#!/usr/bin/env bash
# mk/vg-serve.sh BUILD COMMAND...: run COMMAND (make valgrind's tests) with the program's
# server under memcheck (mk/vg-serve.c) for the runs mk/valgrind-expmech sends it; its
# reports go to this script's standard error.  Exit: COMMAND's status, 97 when memcheck
# found an error in the server itself (its warm-up), or 96 when the server did not start
# or did not last to the end.
set -uo pipefail
b=$1; shift
dir=$(mktemp -d /tmp/em-vg.XXXXXX) || exit 96
export EM_VG_SOCK=$dir/sock EM_VG_SERVE=$PWD/$b/vg-serve
# The server's warm-up (mk/vg-serve.c): each command once in the server, so that the runs,
# forks of it, find most of the program's code translated.  Its inputs are written here
# by the program as built; one command a line, its expected exit status first.
w=$dir/warm
mkdir -p "$w" && (
  e=$PWD/$b/expmech && cd "$w"
  "$e" example marital >m.txt && sed 's/^Divorced,4.443$/Divorced,5.443/' m.txt >m2.txt &&
  printf '# output: continuous\n# sensitivity: 3.5\n0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n' >p.txt &&
  printf 'v\n1\n2\n2\n3\n5\n' >d.csv &&
  "$e" sample --epsilon 1 -n 2000 --seed 5 m.txt >s.txt 2>/dev/null &&
  "$e" sample --epsilon 1 -n 300 --seed 5 p.txt >sp.txt 2>/dev/null &&
  "$e" probs --epsilon 1 m.txt >q.txt 2>/dev/null
) || { echo "vg-serve: cannot write the warm-up's inputs" >&2; rm -rf "$dir"; exit 96; }
sed "s#@W@#$w#g" >"$dir/warm.txt" <<'LIST'
0 demo --draws 10
0 probs --epsilon 1 @W@/m.txt
0 probs --epsilon 1 --digits 40 --format json @W@/m.txt
0 probs --epsilon 1 --variant pf @W@/m.txt
0 probs --epsilon 1 @W@/p.txt
0 sample --epsilon 1 -n 20 --seed 7 @W@/m.txt
0 sample --epsilon 1 -n 20 --seed 7 --sampler float @W@/m.txt
0 sample --epsilon 1 -n 20 --seed 7 --variant pf @W@/m.txt
0 sample --epsilon 1 -n 3 --seed 7 @W@/p.txt
0 cdf --epsilon 1 --grid 0:3.5:8 @W@/p.txt
0 density --epsilon 1 --at 1 @W@/p.txt
0 quantile --epsilon 1 --at 0.5 @W@/p.txt
0 utility --epsilon 1 @W@/m.txt
0 utility --epsilon 1 @W@/p.txt
0 check --epsilon 1 --samples @W@/s.txt @W@/m.txt
0 check --epsilon 1 --samples @W@/sp.txt @W@/p.txt
0 compare --epsilon 1 --probs @W@/q.txt @W@/m.txt
0 audit --epsilon 1 @W@/m.txt @W@/m2.txt
0 score count --data @W@/d.csv --column v --candidates 0:5
0 score median --data @W@/d.csv --column v --range 0:10
0 example --list
2 probs --epsilon 0 @W@/m.txt
2 probs --epsilon 1
LIST
valgrind -q --error-exitcode=97 --leak-check=full --errors-for-leak-kinds=definite \
  --show-leak-kinds=definite "$EM_VG_SERVE" --serve "$EM_VG_SOCK" "$dir/warm.txt" &
srv=$!
# (the warm-up takes about 10 s under memcheck before the socket appears)
for _ in $(seq 1200); do [ -S "$EM_VG_SOCK" ] && break; kill -0 $srv 2>/dev/null || break; sleep 0.05; done
if [ ! -S "$EM_VG_SOCK" ]; then
  echo "vg-serve: the server did not start" >&2; kill $srv 2>/dev/null; rm -rf "$dir"; exit 96
fi
env "$@"; rc=$?
if ! kill -0 $srv 2>/dev/null; then echo "vg-serve: the server died during the tests" >&2; rc=96; fi
kill -TERM $srv 2>/dev/null; wait $srv; src=$?
if [ "$src" = 97 ]; then echo "vg-serve: memcheck found an error in the server (its warm-up): above" >&2; rc=97; fi
rm -rf "$dir"
exit $rc
