#!/usr/bin/env bash
# Regenerate tests/vectors/continuous.json from the oracle (40 digits).  The values are
# cross-checked by tests/test_cont.c against closed forms evaluated independently.
# usage: tests/vectors/gen_continuous.sh [build/expmech] > tests/vectors/continuous.json
set -euo pipefail
E=${1:-build/expmech}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
printf '# output: continuous\n# sensitivity: 3.5\n0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n' > "$T/pricing"
printf '# output: continuous\n# sensitivity: 1\n-inf,3.5,-3.5,1\n3.5,inf,3.5,-1\n' > "$T/laplace"
printf '# output: continuous\n# sensitivity: 2\n0,1,-8\n1,100,-6\n100,102,-4\n102,104,-2\n104,105,-2\n105,200,-4\n200,365,-6\n365,400,-8\n' > "$T/median"
js() { python3 -c 'import json,sys; print(json.dumps(sys.argv[1]))' "$1"; }
pieces() { # file eps
  "$E" probs --epsilon "$2" --digits 40 "$1" | awk -F, 'BEGIN{s=""} {printf "%s{\"lo\": \"%s\", \"hi\": \"%s\", \"probability\": \"%s\", \"log_probability\": \"%s\"}", s, $1, $2, $3, $4; s=", "}'
}
pointwise() { # cmd file eps points
  "$E" "$1" --epsilon "$3" --digits 40 --at "$4" "$2" | awk -F, -v c="$1" 'BEGIN{s=""} {
    if (c == "density") printf "%s{\"x\": \"%s\", \"density\": \"%s\", \"log_density\": \"%s\"}", s, $1, $2, $3;
    else if (c == "quantile") printf "%s{\"p\": \"%s\", \"x\": \"%s\"}", s, $1, $2;
    else printf "%s{\"x\": \"%s\", \"cdf\": \"%s\"}", s, $1, $2; s=", "}'
}
utility() { "$E" utility --epsilon "$2" --digits 40 "$1" | tail -1 | awk -F, '{printf "{\"opt\": \"%s\", \"expected_utility\": \"%s\", \"expected_loss\": \"%s\"}", $2, $3, $4}'; }
case_() { # id comment file eps
  local f=$3 e=$4
  printf '    {"id": "%s", "comment": %s, "epsilon": "%s", "sensitivity": "%s", "variant": "standard",\n' "$1" "$(js "$2")" "$e" "$(sed -n 's/# sensitivity: //p' "$f")"
  printf '     "pieces_in": %s,\n' "$(js "$(grep -v '^#' "$f" | tr '\n' ';')")"
  printf '     "pieces": [%s],\n' "$(pieces "$f" "$e")"
  printf '     "cdf": [%s],\n' "$(pointwise cdf "$f" "$e" "$5")"
  printf '     "density": [%s],\n' "$(pointwise density "$f" "$e" "$5")"
  printf '     "quantile": [%s],\n' "$(pointwise quantile "$f" "$e" "0.001,0.1,0.25,0.5,0.75,0.9,0.999")"
  printf '     "utility": %s}' "$(utility "$f" "$e")"
}
cat <<HDR
{
  "schema": "expmech-test-vectors-continuous-1",
  "family": "continuous",
  "description": "continuous scenarios of the seeds: per-piece probabilities, CDF, density, quantile and expected utility, correctly rounded to 40 digits (pieces_in: lo,hi,a[,b] separated by ';')",
  "digits": 40,
  "cases": [
HDR
sep=""
for e in 0.01 1 5; do
  printf '%s' "$sep"; sep=$',\n'
  case_ "pricing-eps$e" "seed 003: posted price on [0, 3.5], bids {1,1,1,3.01}, revenue u = p #{bids >= p}, Delta = 3.5" "$T/pricing" "$e" "0,0.5,0.99,1,2,3.01,3.25,3.5"
done
printf '%s' "$sep"
case_ "laplace-eps1" "seed 003: the Laplace mechanism as an exponential mechanism over R, u = -|3.5 - r|, Delta = 1: Laplace(3.5, 2)" "$T/laplace" 1 "-20,-3,0,1.25,3.5,7,19.999"
printf ',\n'
case_ "median-eps1" "seed 002: median by rank distance of {1,100,102,104,105,200,365} over [0, 400], Delta = 2" "$T/median" 1 "0,50,101,103,104,104.5,150,399"
printf '\n  ]\n}\n'
