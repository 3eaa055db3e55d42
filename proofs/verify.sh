#!/usr/bin/env bash
# The proof gate.  `verify.sh replay` (make verify, CI) replays every WP goal
# from the committed cache and every Why3 theorem; `verify.sh update` (make
# prove) runs the provers and refreshes the cache.  Exit 0 only if every goal
# of every step is proved, no smoke test fails, every prover is present, no
# goal is missing from the cache, no forbidden construct appears, and the
# README status table matches the report.
set -euo pipefail
mode=${1:-replay}
# cold (make prove-cold): update after emptying every WP and Why3 cache, so every goal is
# proved again by a prover and the caches keep only live entries; each WP goal is given first
# to the prover its committed proof script names (the others only if that one fails).  Its
# timing is README's "cold prove".  scratch (make prove-scratch): cold without the proof
# scripts either, every goal's provers racing as in `update`.  floor (make proof-floor): not
# a gate but a measurement: every WP job generates and simplifies its goals (Qed only, no
# prover, no cache), the least any WP run of these goals can cost; it exits 3.
case "$mode" in replay) cache=offline; wppar=${EM_WP_PAR:-32} ;;
  update|cold|scratch) cache=update; wppar=${EM_WP_PAR:-2} ;;
  floor) cache=none; wppar=${EM_WP_PAR:-32} ;;
  *) echo "usage: verify.sh replay|update|cold|scratch|floor" >&2; exit 2 ;; esac

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
# A replay (make verify, make check) writes its reports and logs under build/ and compares
# them with the committed ones at the end, so that a check leaves the tree as it found it;
# the proving runs (prove, prove-cold, prove-scratch) write the committed reports.
committed=proofs/report
report=$committed
[ "$mode" = replay ] && report=build/proof-report
export EM_REPORT_DIR="$root/$report"
mkdir -p "$report" build
fail() { echo "verify: FAIL: $*" >&2; exit 1; }

# --- provers: a missing one is a failure, never a silent skip
for tool in frama-c why3 z3 cvc4 cvc5 python3 ocamlopt; do
  command -v "$tool" >/dev/null || fail "'$tool' is not installed (run make deps)"
done
sed "s#@DRIVERS_DIR@#$root/proofs/why3#g" proofs/why3/why3.conf.in > build/why3.conf
export WHY3CONFIG="$root/build/why3.conf"
provers=$(why3 config list-provers 2>/dev/null)
for p in "Z3local 4.8.12" "CVC4local 1.8" "CVC5 1.0.3"; do
  grep -qF "$p" <<<"$provers" || fail "prover '$p' not found by why3 (WHY3CONFIG=$WHY3CONFIG)"
done

# Frama-C's garbage-collector settings, replaced for WP (proofs/wp_gc.ml: 22% less CPU
# on the float step), and its task scheduler's 50 ms pause between passes cut to 1 ms.
# Built against the installed OCaml and Frama-C's own interfaces, as its plugins are.
gcdir=build/wp-gc; mkdir -p "$gcdir"; cp proofs/wp_gc.ml "$gcdir/"
(cd "$gcdir" && ocamlopt -shared -I "$(frama-c -print-libpath)" -o wp_gc.cmxs wp_gc.ml) >"$gcdir/build.log" 2>&1 \
  || fail "cannot build proofs/wp_gc.ml ($gcdir/build.log)"

# --- static checks on everything WP reads
core_c=$(ls src/core/*.c)
annot_files=$(ls spec/*.acsl src/core/*.[ch] src/trusted/*.h proofs/lemmas/*.[ch] src/include/*.h proofs/acsl/probe.c)
# This Frama-C reads `1e6` as 1.6: reject any exponent literal without a '.'.
if python3 proofs/check_literals.py $annot_files; then :; else fail "ambiguous float literal (write 1.0e6, not 1e6)"; fi
# No assumption may enter except through the ledger (proofs/TRUSTED.md).
# One axiomatic block is allowed (T3(c) of proofs/TRUSTED.md): the real value of an MPFR number
# in src/trusted/em_mpfr_acsl.h, a logic symbol with no definition and no axiom; the three lines
# of the block must be exactly these.
encl_block=$(grep -A2 -F '/*@ axiomatic EmMpfrValue {' src/trusted/em_mpfr_acsl.h || true)
[ "$encl_block" = "/*@ axiomatic EmMpfrValue {
      logic real EmVal{L}(mpfr_srcptr x) reads *x;
    } */" ] || fail "src/trusted/em_mpfr_acsl.h: its axiomatic block must hold the one declaration of EmVal, nothing else"
if grep -nE '\b(axiom|axiomatic|admit|assume)\b' $annot_files \
   | grep -vE '^src/trusted/em_mpfr_acsl\.h:[0-9]+:/\*@ axiomatic EmMpfrValue \{$'; then
  fail "axiom/admit/assume in the verified core or its spec (see proofs/TRUSTED.md)"
fi


# The Why3 theories of spec/*.acsl as WP generates them (proofs/acsl/Acsl.mlw), which the
# theorems of proofs/theorems/Bridge.mlw use: a replay regenerates them and fails on any
# byte of difference (spec/ changed without `make prove`, or an edit by hand); a proving
# run writes them.
if [ "$mode" = replay ]; then
  python3 proofs/acsl/gen.py check || fail "proofs/acsl/ is not what WP generates from spec/ (above)"
elif [ "$mode" != floor ]; then
  python3 proofs/acsl/gen.py write || fail "cannot generate proofs/acsl/ from spec/"
fi

# --- the WP steps.  Each file of src/core is in exactly one.  A step is one
# frama-c run: every ACSL lemma of its files is in the solvers' context of every
# goal of the step, so the score functions (each with its own lemma file) are
# proven in separate steps: smaller contexts, and a new lemma in one concept
# does not slow down, or invalidate the cache of, another.
INT_FILES="src/core/em_count.c src/core/em_select.c src/core/em_uniform.c src/core/em_exact_select.c"
FLOAT_FILES="src/core/em_params.c src/core/em_logweights.c src/core/em_fixed.c"
LEMMA_FILES="proofs/lemmas/Sum_lemmas.c proofs/lemmas/Count_lemmas.c proofs/lemmas/Weights_lemmas.c proofs/lemmas/Law_bridge.c"
# scoring functions (issue 4): name|core files|lemma files
SCORE_STEPS=(
  "score-count|src/core/em_score_count.c|proofs/lemmas/ScoreCount_lemmas.c"
  "score-rank|src/core/em_score_rank.c|proofs/lemmas/ScoreRank_lemmas.c"
  "score-revenue|src/core/em_score_revenue.c|proofs/lemmas/ScoreRevenue_lemmas.c"
  "score-misc|src/core/em_score_rr.c src/core/em_score_laplace.c|proofs/lemmas/ScoreMisc_lemmas.c"
  "score-range|src/core/em_score_range.c|proofs/lemmas/ScoreRange_lemmas.c"
  # and the decision of correct rounding (spec/RoundDecide.acsl), a step of its own likewise
  "round-decide|src/core/em_round_decide.c|"
  # and the exact sampler's enclosures from MPFR's directed rounding (spec/ExactEnclosure.acsl)
  "exact-encl|src/core/em_exact_encl.c|"
)
SCORE_FILES=""
for st in "${SCORE_STEPS[@]}"; do IFS='|' read -r _ c l <<<"$st"; SCORE_FILES="$SCORE_FILES $c $l"; done
for f in $core_c; do
  n=$(grep -ow "$f" <<<"$INT_FILES $FLOAT_FILES $SCORE_FILES" | wc -l)
  [ "$n" -eq 1 ] || fail "$f must be in exactly one WP step of proofs/verify.sh (found in $n)"
done
for f in proofs/lemmas/*.c; do
  n=$(grep -ow "$f" <<<"$LEMMA_FILES $SCORE_FILES" | wc -l)
  [ "$n" -eq 1 ] || fail "$f must be in exactly one WP step of proofs/verify.sh (found in $n)"
done

# Smoke tests pass when a prover fails to prove false, so in a cold run each one costs the
# smoke timeout for every prover that neither proves nor gives up: they were 80% of the prover
# time at 5 s (598 timeouts of 5 s against 360 s of valid proofs).  2 s is WP's own default;
# a planted inconsistency is found in milliseconds (make gate-test).  A replay reuses a cached
# smoke timeout of 5 s as one of 2 s (the longer run subsumes the shorter).
# -wp-no-pruning -wp-no-ground: two of Qed's simplifications, both costly on long paths (Qed
# spent 90 s of CPU on em_lw_setup's 174 goals, 55 s on pieces_of's; with both off the float
# step's Qed time fell from 159 s to 37 s and no goal takes Qed over 0.3 s).  They only
# decide how much of a goal Qed closes before a prover sees it, never what is proved.
# A partial run (EM_VERIFY_ONLY: never the gate, below) may lower the provers' time limit
# (EM_WP_TIMEOUT, seconds): make gate-test's planted false contracts fail the same way at
# 3 s as at 20 s, and no prover can prove them however long it runs.
wp_timeout=20
if [ -n "${EM_VERIFY_ONLY:-}" ] && [ -n "${EM_WP_TIMEOUT:-}" ]; then
  [[ "$EM_WP_TIMEOUT" =~ ^[1-9][0-9]?$ ]] || fail "EM_WP_TIMEOUT='$EM_WP_TIMEOUT': 1 to 99 seconds"
  wp_timeout=$EM_WP_TIMEOUT
fi
# A partial run may also restrict WP to the functions (EM_WP_FCT: -wp-fct) or the properties,
# lemmas included (EM_WP_PROP: -wp-prop), named comma-separated: a gate case whose plant
# breaks one function or one lemma proves that one alone.
wp_sel=()
for v in EM_WP_FCT EM_WP_PROP; do
  [ -n "${EM_VERIFY_ONLY:-}" ] && [ -n "${!v:-}" ] || continue
  [[ "${!v}" =~ ^[A-Za-z_][A-Za-z0-9_]*(,[A-Za-z_][A-Za-z0-9_]*)*$ ]] || fail "$v='${!v}': names, comma-separated"
  wp_sel+=("$([ $v = EM_WP_FCT ] && echo -wp-fct || echo -wp-prop)" "${!v}")
done
common=(-load-module "$gcdir/wp_gc.cmxs" -cpp-extra-args=-Isrc/include -cpp-extra-args=-Isrc -cpp-extra-args=-I.
        -kernel-warn-key annot:missing-spec=abort
        -kernel-warn-key typing:implicit-function-declaration=abort
        -wp -wp-rte -warn-unsigned-overflow -warn-unsigned-downcast -wp-no-pruning -wp-no-ground
        -wp-timeout "$wp_timeout" -wp-smoke-timeout 2 -wp-par "$wppar"
        -wp-cache "$cache"
        -report-unclassified-warning ERROR -report-unclassified-unknown ERROR
        -report-unclassified-invalid ERROR)
then_report=(-then -report-classify -report-unclassified-warning ERROR
             -report-unclassified-unknown ERROR -report-unclassified-invalid ERROR)

# Each WP step is two frama-c runs, run as two jobs: its proof goals (every prover of the
# step racing on each goal) and its smoke tests (-wp-smoke-tests with every property category
# deselected, which leaves the smoke tests only), with one prover: CVC4 (CVC5 in the float
# step, whose float literals CVC4 cannot read).  A smoke test passes when no prover proves
# false, so each costs every prover that neither proves nor gives up its whole timeout: in
# the cold run of 2026-11-25 Z3 timed out 583 times (1166 s, most of the provers' time).  A
# planted inconsistent precondition is found by CVC4 in milliseconds (make gate-test).  Each smoke test is bounded by the
# prover's own step count (-wp-steps, CVC4's and CVC5's --rlimit) as well as by the 2 s
# timeout: no smoke test is ever proved, so every one runs to its limit (all 138 of the
# integer step's took CVC4 the full 2 s), and a step limit is the same search on any machine
# in about 0.3 s instead of 2 s that shrink when the cores are shared.  100000 steps is half
# of the most any proof goal here needed (CVC4, 196801 steps).
SMOKE_STEPS=100000
NO_PROPS=-@lemma,-@requires,-@ensures,-@exits,-@assigns,-@frames,-@assert,-@check,-@invariant
NO_PROPS=$NO_PROPS,-@variant,-@decreases,-@terminates,-@complete_behaviors,-@disjoint_behaviors
NO_PROPS=$NO_PROPS,-@breaks,-@continues,-@returns
run_step() { # name kind(proofs|smoke) provers extra-flags files...
  local name=$1 kind=$2 prv=$3 extra=$4; shift 4
  local tag=$name sel=(-wp-no-smoke-tests)
  if [ "$kind" = smoke ]; then
    tag=$name.smoke; sel=(-wp-smoke-tests "-wp-prop=$NO_PROPS" -wp-steps "$SMOKE_STEPS")
  else
    case "$mode" in
      replay) prv=script,$prv ;;  # each goal asks the prover its script names (below)
      update|scratch|cold)
        # update, scratch: the provers race afresh, no stale script is kept; cold: the committed
        # scripts stay, each naming the prover that proves its goal first (below)
        [ "$mode" = cold ] || rm -rf "proofs/wp-session/$name/script"
        prv=tip,$prv; sel+=(-wp-time-margin 100000) ;;  # a script for every goal a prover proves
    esac
  fi
  local sess=proofs/wp-session/$name log=$report/wp-$tag.log json=$report/wp-$tag.json
  if [ "$mode" = floor ]; then  # a measurement: nothing under proofs/ is read or written
    prv=qed sess=build/floor-session/$name log=build/verify-steps/floor-$tag.log json=build/verify-steps/floor-$tag.json
  fi
  echo "verify: WP step '$name' $kind ($prv; cache $cache): $*"
  rm -f "$json"
  local rc=0
  # shellcheck disable=SC2086
  frama-c "${common[@]}" "${sel[@]}" "${wp_sel[@]}" $extra -wp-prover "$prv" -wp-session "$sess" \
    -wp-report-json "$json" "$@" "${then_report[@]}" >"$log" 2>&1 || rc=$?
  if [ "$mode" = floor ]; then  # Qed leaves goals unproved, which the report counts an error
    grep -q "Proved goals" "$log" || fail "WP step '$name' $kind: no goal generated (log: $log)"
    return 0
  fi
  python3 proofs/wp_report.py check "$name" "$kind" "$json" "$log" "$rc" || fail "WP step '$name' $kind (log: $log)"
  if [ "$mode" = cold ] && [ "$kind" = proofs ]; then  # a goal now gone, or now Qed's, loses its script
    python3 proofs/wp_report.py prune-scripts "proofs/wp-session/$name" "$log" || fail "pruning the proof scripts of '$name'"
  fi
}

# Proof scripts (proofs/wp-session/<step>/script/<goal>.json): WP finds a goal's verdict in its
# cache by a digest of the goal printed in the prover's language, and printing, not the
# lookup, is most of a replay's cost (about 0.2 s a goal in the float step).  Without a
# script a replay prints every goal for every prover of the step; with one it asks the
# prover the script names (the one that proved the goal) and no other, so each goal is
# printed once: the float step's proofs 130 s -> 75 s of CPU.  A script only chooses the
# prover: its verdict is the cache's, and a goal whose script names a prover without a cached
# proof is tried with every prover of the step, offline, so it fails.  `update` and `scratch`
# delete the scripts and race the provers; `tip` with a margin longer than any timeout then
# writes a script for every goal a prover proved.  A cold run keeps them as hints: each goal
# is proved again, first by the prover its script names (the float step's proofs 230 s ->
# 139 s of CPU against the provers racing); the verdict is that prover's, run now, and a goal
# it fails is tried with the others.  The check below, in the two modes that read them, keeps
# them a list of prover verdicts, never a tactic.
if [ "$mode" = replay ] || [ "$mode" = cold ]; then
  python3 proofs/wp_report.py scripts proofs/wp-session || fail "a WP proof script is not a list of prover verdicts"
fi

start=$(date +%s)
# The jobs are independent processes with their own logs and reports: each WP step's
# proofs and its smoke tests, and the Why3 theorems.  They run two at a time (CI has two
# cores), longest first by the last recorded run of the same kind (a replay's order from
# proofs/report/timing-replay.json, a proving run's from timing-prove.json), so
# the longest job starts at once and the short ones fill the other core.  `update` and `cold`
# keep -wp-par 2 for each job: each goal's provers race, and the loser is stopped as soon as
# one proves it (WP trying them one after the other had z3 waiting out 20 s timeouts on goals
# CVC4 proves in 1 s, issue 16).  Sharing the two cores between two jobs leaves every proof
# inside the 20 s limit: the slowest WP goal took 1.5 s so shared, the slowest Why3 one 1.15 s.
jobs=${EM_VERIFY_JOBS:-2}
if [ "$mode" = cold ] || [ "$mode" = scratch ]; then
  [ -z "${EM_VERIFY_ONLY:-}" ] || fail "a $mode run proves every step (unset EM_VERIFY_ONLY)"
  rm -f proofs/wp-session/*/cache/*.json
  rm -rf proofs/theorems/cache
fi
# The theorems' prover cache (proofs/why3/cached-prover): read only in a replay.
export EM_WHY3_CACHE="$root/proofs/theorems/cache"
export EM_WHY3_CACHE_MODE=$([ "$mode" = replay ] && echo ro || echo rw)
out=build/verify-steps; rm -rf "$out"; mkdir -p "$out"
# Integer step: the default float alarms stay on (there is no float code here).
# Float step: contracts use IEEE comparisons (\le_double ...), which WP models
# exactly (Why3 ieee_float), so the non-finite alarms are not needed: every
# NaN/inf path is handled by explicit comparisons.  proofs/TRUSTED.md, "float step".
# name|proof provers|smoke provers|extra flags|files
steps=("float|qed,cvc5,z3l|qed,cvc5|-warn-special-float none|$FLOAT_FILES"
       "integer|qed,z3l,cvc4l|qed,cvc4l||$INT_FILES $LEMMA_FILES")
for st in "${SCORE_STEPS[@]}"; do
  IFS='|' read -r name c l <<<"$st"
  steps+=("$name|qed,z3l,cvc4l|qed,cvc4l||$c $l")
done
[ "${#steps[@]}" -eq $(( ${#SCORE_STEPS[@]} + 2 )) ] || fail "the step list lost a step"
# EM_VERIFY_ONLY="integer float": a developer's partial run of the named steps (to re-prove
# one changed file quickly; "theorems" names the Why3 theorems).  It is never the gate: it
# stops before the table and README checks and exits 3 even when the steps pass; make verify
# / make prove never set it.  A word may also name one job of a step (score-misc.proofs,
# score-misc.smoke) or theorem files (theorems.Shift: that file alone, without the checks
# about every file; tests/test_gate.sh gives each planted defect only what it breaks).
only=${EM_VERIFY_ONLY:-}
only_has() { local w; for w in $only; do [ "$w" = "$1" ] && return 0; done; return 1; }
unset EM_THEOREM_FILES EM_THEOREM_MODULES
joblist=()  # job|step|kind|provers|extra|files
for st in "${steps[@]}"; do
  IFS='|' read -r name pp sp extra files <<<"$st"
  [ -z "$only" ] || only_has "$name" || only_has "$name.proofs" \
    && joblist+=("$name|$name|proofs|$pp|$extra|$files")
  [ -z "$only" ] || only_has "$name" || only_has "$name.smoke" \
    && joblist+=("$name.smoke|$name|smoke|$sp|$extra|$files")
done
if [ -n "$only" ] && ! only_has theorems; then
  # theorems.FILE: that file; theorems.FILE.MODULE: that module of it alone
  for w in $only; do
    [ "${w#theorems.}" = "$w" ] && continue
    w=${w#theorems.}
    EM_THEOREM_FILES="${EM_THEOREM_FILES:-} ${w%%.*}"
    [ "${w%%.*}" = "$w" ] || EM_THEOREM_MODULES="${EM_THEOREM_MODULES:-} ${w#*.}"
  done
  [ -z "${EM_THEOREM_FILES:-}" ] || export EM_THEOREM_FILES
  [ -z "${EM_THEOREM_MODULES:-}" ] || export EM_THEOREM_MODULES
fi
if [ "$mode" != floor ] && { [ -z "$only" ] || only_has theorems || [ -n "${EM_THEOREM_FILES:-}" ]; }; then
  joblist+=("theorems|theorems|||||")
fi
[ "${#joblist[@]}" -gt 0 ] || fail "EM_VERIFY_ONLY='$only' names no step"
mapfile -t joblist < <(printf '%s\n' "${joblist[@]}" | python3 -c '
import json, sys
try:
    t = {x["step"]: x["wall_s"] for x in json.load(open(sys.argv[1]))["steps"]}
except (OSError, ValueError, KeyError):
    t = {}
jobs = [l.rstrip("\n") for l in sys.stdin if l.strip()]
for j in sorted(jobs, key=lambda j: -t.get(j.split("|")[0], 1e9)):
    print(j)' "$committed/timing-$([ "$mode" = replay ] && echo replay || echo prove).json")
for jb in "${joblist[@]}"; do
  IFS='|' read -r job name kind prv extra files <<<"$jb"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
  (
    rc=0
    TIMEFORMAT='%R %U %S'  # wall, user and system seconds of the job and its children
    { time { (
      if [ "$name" = theorems ]; then bash proofs/theorems/replay.sh || fail "Why3 theorems"
      else run_step "$name" "$kind" "$prv" "$extra" $files; fi  # word splitting of $files intended
    ) >"$out/$job.out" 2>&1 ; } ; } 2>"$out/$job.time" || rc=$?
    echo "$rc" >"$out/$job.rc"
  ) &
done
wait
failed=0
for jb in "${joblist[@]}"; do
  IFS='|' read -r job _ <<<"$jb"
  cat "$out/$job.out"
  [ "$(cat "$out/$job.rc" 2>/dev/null)" = 0 ] || failed=1
done
[ "$failed" -eq 0 ] || fail "a step failed (above)"
# Timings of this passing run (wall and CPU per step), for README's "Proof timings": the replay's in
# build/ (make proof-timing copies them to proofs/report/), the cold run's in proofs/report/.
if [ -z "$only" ]; then
  python3 proofs/wp_report.py timing "$mode" "$jobs" "$(( $(date +%s) - start ))" "$out" \
    "$(case $mode in replay) echo build/timing-replay.json ;; update) echo build/timing-prove.json ;;
                     cold) echo "$report/timing-prove.json" ;; scratch) echo "$report/timing-scratch.json" ;;
                     floor) echo "$report/timing-floor.json" ;; esac)"
fi
if [ "$mode" = floor ]; then
  echo "verify: FLOOR measurement (Qed only, no prover, no cache): not the gate" >&2
  exit 3
fi
if [ -n "$only" ]; then
  echo "verify: PARTIAL run (EM_VERIFY_ONLY='$only'): those steps passed; this is not the gate" >&2
  exit 3
fi

# --- the status table (and README's line of totals) is generated from the reports, never typed
python3 proofs/wp_report.py table > "$report/status.md"
if [ "$mode" != replay ]; then
  python3 proofs/wp_report.py readme README.md "$report/status.md"
elif ! diff -u "$committed/status.md" "$report/status.md" >"$report/status.diff"; then
  cat "$report/status.diff" >&2
  fail "this replay's status table ($report/status.md) differs from the committed $committed/status.md: run make prove"
fi
python3 proofs/wp_report.py readme-check README.md "$report/status.md" \
  || fail "README.md's line of totals differs from proofs/report/status.md: run make prove"
echo "verify: all goals proved ($(( $(date +%s) - start )) s)"
