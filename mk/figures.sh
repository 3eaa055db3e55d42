#!/usr/bin/env bash
# mk/figures.sh [--data-only] OUTDIR: the README's figures.  Their data (CSV tables that
# expmech writes, nothing else computes a number) go to OUTDIR/data/, the SVGs drawn from
# them by `expmech plot` (gnuplot) to OUTDIR/.  `make figures` runs it on docs/figures;
# tests/test_figures.c runs it with --data-only on a temporary directory and compares
# the tables byte for byte with the committed ones.  $EXPMECH: the program (default
# build/expmech).  Every command below is printed in docs/figures.md.
set -euo pipefail

data_only=0
if [ "${1:-}" = --data-only ]; then
  data_only=1
  shift
fi
if [ $# -ne 1 ]; then
  echo "usage: mk/figures.sh [--data-only] OUTDIR" >&2
  exit 2
fi
out=$1
E=${EXPMECH:-build/expmech}
case $E in /*) ;; *) E=$PWD/$E ;; esac
mkdir -p "$out/data"
d=$out/data
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Provenance lines on standard error ("variant standard (default) ...") are not data:
# shown only when the command fails.
em() {
  local err
  err=$(mktemp -p "$tmp")
  "$E" "$@" 2>"$err" || { cat "$err" >&2; return 1; }
}

# A table with a first column NAME = VALUE on every row (the header gets NAME): the
# frontier's variants in one table, one curve each.
label() { sed "1s/^/$1,/;2,\$s/^/$2,/"; }

# seed 003's continuous pricing scenario: revenue of a posted price on [0, 3.5].
printf '# output: continuous\n# sensitivity: 3.5\n0,1,0,4\n1,3.01,0,1\n3.01,3.5,0,0\n' \
  >"$tmp/pricing.scn"
# seed 000's marital counts as a count score (proven monotone): the frontier's scenario.
em example marital-raw | grep -v '^#' >"$tmp/marital.agg"
cut -d, -f1 "$tmp/marital.agg" >"$tmp/marital.cand"
em score count --aggregated --data "$tmp/marital.agg" --candidates "$tmp/marital.cand" \
  >"$tmp/count.scn"

# a. seed 000 and 004: the exact distribution over the candidates at three epsilons.
em example marital | em probs --epsilon 0.1,1,10 >"$d/marital_probs.csv"
em example occupation | em probs --epsilon 0.1,1,10 >"$d/occupation_probs.csv"
# b. seed 003: the price density; the mean revenue loss on a fine grid and, at the
# seed's epsilons (np.arange(0.001, 100, 10)), beside its 10^4-draw Monte Carlo estimate;
# randomized response's output distribution (x = 1: output 1 is a positive).
em density --epsilon 0.01,1,5 --grid 0:3.5:701 "$tmp/pricing.scn" >"$d/pricing_density.csv"
em utility --epsilon 0.001:90.001:91 "$tmp/pricing.scn" >"$d/pricing_loss.csv"
em utility --epsilon 0.001:90.001:10 --mc 10000 --seed 3 "$tmp/pricing.scn" \
  >"$d/pricing_loss_mc.csv"
em score rr --x 1 | em probs --epsilon 0.001:90.001:91 >"$d/rr_probs.csv"
# c. seed 001: per group (30 Blue socks, 1 violent; 70 Red, 9 violent), with epsilon split
# by the group's share of the rows (0.3 and 0.7), P(the output is the true mode).
{
  echo sock_color,scary
  for n in "Blue,Violent 1" "Blue,NonViolent 29" "Red,Violent 9" "Red,NonViolent 61"; do
    for ((i = 0; i < ${n#* }; i++)); do echo "${n% *}"; done
  done
} >"$tmp/socks.csv"
printf 'Violent\nNonViolent\n' >"$tmp/socks.cand"
em groups --epsilon 0.2:20:100 --split proportional --sensitivity 1 --data "$tmp/socks.csv" \
  --column scary --group-by sock_color --candidates "$tmp/socks.cand" >"$d/socks_groups.csv"
# d. the privacy-utility frontier: standard, monotone, permute-and-flip, same scenario.
frontier() {
  em utility --variant "$1" --epsilon-log 0.0001:0.01:41 "$tmp/count.scn" | label variant "$1"
}
frontier standard >"$d/frontier.csv"
for v in monotone pf; do frontier $v | tail -n +2; done >>"$d/frontier.csv"

[ $data_only = 1 ] && exit 0

plot() { "$E" plot "$@"; }
plot --x label --y probability --series epsilon --style bars --logy \
  --title 'seed 000: marital status, score count/1000: exact P(r)' \
  --output "$out/marital_probs.svg" "$d/marital_probs.csv"
plot --x label --y probability --series epsilon --style bars --logy \
  --title 'seed 004: occupation, score count/max count: exact P(r)' \
  --output "$out/occupation_probs.svg" "$d/occupation_probs.csv"
plot --x x --y density --series epsilon --xlabel 'price' \
  --title 'seed 003: exact density of the posted price' \
  --output "$out/pricing_density.svg" "$d/pricing_density.csv"
plot --x epsilon --y expected_loss --ylabel 'mean revenue loss' \
  --overlay "$d/pricing_loss_mc.csv:epsilon:mc_expected_loss:Monte Carlo, 10^4 draws (seed 3)" \
  --title 'seed 003: exact mean revenue loss' \
  --output "$out/pricing_loss.svg" "$d/pricing_loss.csv"
plot --x epsilon --y probability --series label --ylabel 'P(output)' \
  --title 'seed 003: randomized response, true bit 1 (label 1: the fraction of positives)' \
  --output "$out/rr_probs.svg" "$d/rr_probs.csv"
plot --x epsilon --y p_true_mode --series group --ylabel 'P(output = the true mode)' \
  --title 'seed 001: per group, epsilon split by share (Blue 0.3, Red 0.7)' \
  --output "$out/socks_groups.svg" "$d/socks_groups.csv"
plot --x epsilon --y expected_loss --series variant --logx --logy \
  --title 'privacy-utility frontier: marital counts (score count, monotone)' \
  --output "$out/frontier.svg" "$d/frontier.csv"
