#!/usr/bin/env bash
# tests/test_gate.sh: the proof gate's own tests (make gate-test, part of make check).
#
# A gate that cannot fail is worthless, so each case plants one defect in a private copy of
# spec/, src/, proofs/ and runs the real proofs/verify.sh there: it must exit 1 with the
# message that names the defect.  A control run of the untouched copy must pass (exit 3,
# "PARTIAL": EM_VERIFY_ONLY restricts the run to one small job, which is never the gate
# itself), so a failure below is caused by the plant, not by the copy; the step's proofs and
# its smoke tests are separate jobs, and the controls check each, and the theorem files the
# cases plant in.  The WP cases use the step 'score-misc' (155 goals, a few seconds); the
# planted contracts are false, so no prover can prove them however long it runs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/em-gate.XXXXXX")
trap 'rm -rf "$work"' EXIT
# Each case gets only the job its defect breaks (EM_VERIFY_ONLY=score-misc.proofs, .smoke, or
# theorems.FILE: proofs/verify.sh) and a copy of its own, so the cases run EM_GATE_JOBS at a
# time (default 2: two cores); their reports are printed in the order below.
gate_jobs=${EM_GATE_JOBS:-2}
names=()

fresh() { # a new copy of what the gate reads, in $tree, with the proof caches the case's
  # jobs read ($1: its EM_VERIFY_ONLY words): a WP step's session copied (the case may write
  # it), the theorems' prover cache linked (a replay only reads it); copying every cache for
  # every case was most of the stage's system time
  local w
  rm -rf "$tree"; mkdir -p "$tree/proofs/wp-session" "$tree/proofs/theorems"
  cp -a "$root/spec" "$root/src" "$root/README.md" "$tree/"
  for w in "$root"/proofs/*; do
    [ "${w##*/}" = wp-session ] || [ "${w##*/}" = theorems ] || cp -a "$w" "$tree/proofs/"
  done
  for w in "$root"/proofs/theorems/*; do
    [ "${w##*/}" = cache ] || cp -a "$w" "$tree/proofs/theorems/"
  done
  for w in $1; do
    case $w in
      theorems*) [ -e "$tree/proofs/theorems/cache" ] || cp -al "$root/proofs/theorems/cache" "$tree/proofs/theorems/" ;;
      *) [ -e "$tree/proofs/wp-session/${w%%.*}" ] || cp -a "$root/proofs/wp-session/${w%%.*}" "$tree/proofs/wp-session/" ;;
    esac
  done
}

# expect NAME RC PATTERN -- command...: run in the copy, check exit status and output
expect() {
  local name=$1 want=$2 pat=$3; shift 4
  local out="$work/$name.out" rc=0
  (cd "$tree" && "$@") >"$out" 2>&1 || rc=$?
  if [ "$rc" = "$want" ] && grep -qE -- "$pat" "$out"; then
    echo "gate-test: ok    $name (exit $rc: $(grep -oE -m1 -- "$pat" "$out"))"
  else
    echo "gate-test: FAIL  $name: expected exit $want and /$pat/, got exit $rc; output:"
    sed 's/^/    /' "$out" | tail -15
    return 1
  fi
}

plant() { # file perl-substitution: edit the copy, and insist that the edit happened
  local f="$tree/$1"
  cp "$f" "$f.orig"
  perl -0pi -e "$2" "$f"
  if cmp -s "$f" "$f.orig"; then echo "gate-test: FAIL  the plant '$2' did not change $1"; return 1; fi
}

# gate_case NAME SETUP EXPECT-ARGS...: in the background, a fresh copy ($work/NAME/tree), the
# function SETUP (plants the defect; `true` for none), then expect NAME EXPECT-ARGS...
gate_case() {
  local name=$1 setup=$2; shift 2
  while [ "$(jobs -rp | wc -l)" -ge "$gate_jobs" ]; do wait -n; done
  names+=("$name")
  local only; only=$(printf '%s\n' "$@" | sed -n 's/^EM_VERIFY_ONLY=//p')
  ( tree=$work/$name/tree; fresh "$only" && $setup && expect "$name" "$@"
    echo $? >"$work/$name.rc" ) >"$work/$name.log" 2>&1 &
}

misc() { echo env EM_VERIFY_ONLY=score-misc.$1 bash proofs/verify.sh; }
# the cases whose planted contract is false and proved again (update): the provers' limit
# lowered to 3 s (EM_WP_TIMEOUT, partial runs only), since no prover proves them at any limit
# and WP restricted to the one function or lemma the plant breaks (EM_WP_FCT, EM_WP_PROP,
# partial runs only): the rest of the step is no part of what the case shows
misc3() { echo env EM_WP_TIMEOUT=3 EM_VERIFY_ONLY=score-misc.$1 bash proofs/verify.sh; }
only() { echo env EM_WP_$1=$2; }
thm() { echo env EM_VERIFY_ONLY=theorems.$1 bash proofs/verify.sh; }
# a planted false theorem is in no cache entry: its provers get 3 s (EM_WP_TIMEOUT in a
# partial run: proofs/why3/cached-prover's limit on a miss), as no limit would prove it
thm3() { echo env EM_WP_TIMEOUT=3 EM_VERIFY_ONLY=theorems.$1 bash proofs/verify.sh; }

# 0. controls: the untouched copy passes each job the cases below use (exit 3 = partial run
#    passed), so a failure below is caused by the plant, not by the copy or the partial run
gate_case control true 3 "score-misc': 128/128 goals proved" -- $(misc proofs) replay
gate_case control-smoke true 3 "score-misc': 27/27 smoke tests passed" -- $(misc smoke) replay
gate_case control-theorems true 3 "theorems: [0-9]+/[0-9]+ goals proved" -- \
  env "EM_VERIFY_ONLY=theorems.Shift theorems.Bridge.AcslScores" bash proofs/verify.sh replay

# 1. broken code against its contract (update: the provers run on the changed goals)
p_contract() { plant src/core/em_score_rr.c 's/x == 0 \? beta : gamma/x == 0 ? gamma : beta/'; }
gate_case broken-contract p_contract 1 "goals not proved|goal is not proved" -- $(only FCT em_score_rr) $(misc3 proofs) update

# 2. a false lemma (update)
p_lemma() { plant proofs/lemmas/ScoreMisc_lemmas.h 's/== \\abs\(beta - gamma\);/== \\abs(beta - gamma) + 1;/'; }
gate_case false-lemma p_lemma 1 "goals not proved|goal is not proved" -- $(only PROP RR_Tight) $(misc3 proofs) update
# a selection that names nothing proves nothing, and fails: a property WP does not find, a
# function Frama-C does not know
gate_case select-no-goal true 1 "the report has no goals" -- $(only PROP No_Such_Lemma) $(misc proofs) replay
gate_case select-no-function true 1 "no report build/proof-report/wp-score-misc.json" -- $(only FCT no_such_function) $(misc proofs) replay

# 3. an inconsistent precondition: every goal is then provable, only the smoke test sees it
p_pre() { plant src/core/em_score_rr.h 's/(requires valid_u:[^;]*;)/$1\n    requires planted: x > 0 \&\& x < 0;/'; }
gate_case smoke-test p_pre 1 "smoke test failed" -- $(misc smoke) update

# 4. a stale cache: a lemma changed into a weaker, still true one (df >= 1 for df >= 0) has
#    no cached proof, and a replay runs no prover
p_stale() { plant proofs/lemmas/ScoreMisc_lemmas.h 's/Laplace_Tight: \\forall integer f, df; df >= 0 ==>/Laplace_Tight: \\forall integer f, df; df >= 1 ==>/'; }
gate_case stale-cache p_stale 1 "not in the WP cache|goals not proved" -- $(misc proofs) replay

# 5. a cache emptied of its entries
p_empty() { rm -f "$tree/proofs/wp-session/score-misc/cache/"*.json; }
gate_case empty-cache p_empty 1 "not in the WP cache|goals not proved" -- $(misc proofs) replay

# 5b. proof scripts only choose which prover a replay asks: without them the replay asks
#     every prover of the step and still passes (exit 3), and a script that carries a tactic
#     (which would change the goal) is refused before any prover runs
p_noscripts() { rm -rf "$tree/proofs/wp-session/score-misc/script"; }
gate_case control-no-scripts p_noscripts 3 "score-misc': 128/128 goals proved" -- $(misc proofs) replay
p_tactic() {
  local s; s=$(ls "$tree/proofs/wp-session/score-misc/script/"*.json | head -1)
  printf '[ { "header": "Split", "tactic": "Wp.split", "params": {}, "select": {}, "subgoals": [] } ]\n' >"$s"
}
gate_case planted-tactic p_tactic 1 "not a list of prover verdicts" -- $(misc proofs) replay
# a cold run reads the scripts too (which prover proves each goal first): the same check, before
# any cache is emptied (EM_VERIFY_ONLY makes a cold run that got past it stop at once)
gate_case planted-tactic-cold p_tactic 1 "not a list of prover verdicts" -- $(misc proofs) cold

# 6. a planted axiom in the ACSL (static check, before any prover)
p_axiom() { printf '/*@ axiomatic Planted { axiom planted_false: \\false; } */\n' >>"$tree/spec/ScoreRR.acsl"; }
gate_case planted-axiom p_axiom 1 "axiom/admit/assume in the verified core" -- $(misc proofs) replay

# 7. a planted admit in a WhyML theorem (the theorems' static check)
p_admit() { plant proofs/theorems/Shift.mlw 's/(\n\s*end\s*)$/\n  let lemma planted_admit () ensures { 1 = 2 } = admit ()$1/'; }
gate_case planted-admit p_admit 1 "forbidden construct|unexpected meta" -- $(thm Shift) replay

# 7b. a false theorem: its prover input is in no cache entry, so even a replay runs the prover
#     on it (proofs/why3/cached-prover), which cannot prove it
p_false() { plant proofs/theorems/Shift.mlw 's/(\n\s*end\s*)$/\n  let lemma planted_false (x: int) ensures { x * x = x + 1 } = ()$1/'; }
gate_case false-theorem p_false 1 "UNPROVED" -- $(thm3 Shift) replay

# 8. a literal this Frama-C misreads (1e6 read as 1.6)
p_literal() { printf '/* a bound of 1e6 */\n' >>"$tree/spec/ScoreRR.acsl"; }
gate_case float-literal p_literal 1 "ambiguous float literal" -- $(misc proofs) replay

# 9. a missing prover: z3 absent from PATH
mkdir -p "$work/bin"
for t in /usr/bin/*; do
  b=$(basename "$t"); [ "$b" = z3 ] || ln -sf "$t" "$work/bin/$b"
done
nopath=$(tr ':' '\n' <<<"$PATH" | grep -vxE '/usr/bin|/bin|/usr/local/bin' | paste -sd: -)
if PATH="$work/bin:$nopath" command -v z3 >/dev/null; then
  echo "gate-test: FAIL  could not hide z3 from PATH" >"$work/missing-prover.log"
  echo 1 >"$work/missing-prover.rc"; names+=(missing-prover)
else
  gate_case missing-prover true 1 "'z3' is not installed" -- env PATH="$work/bin:$nopath" $(misc proofs) replay
fi

# 10. a prover why3 does not know (the project configuration lost CVC5)
p_unknown() { plant proofs/why3/why3.conf.in 's/\[prover\][^\[]*?version = "1\.0\.3"[^\[]*//s'; }
gate_case unknown-prover p_unknown 1 "prover 'CVC5 1.0.3' not found" -- $(misc proofs) replay

# 11. the ACSL definitions and the theorems' reading of them (proofs/acsl/Acsl.mlw, the Why3
#     text WP generates from spec/): CountGe's >= becomes >.  Without regenerating, the replay
#     fails before any prover, naming the definition; regenerated (as make prove would, with
#     the copy's Why3 configuration), the WhyML count_ge no longer equals it and the induction
#     that proves count_ge_acsl fails
p_countge() { plant spec/Revenue.acsl 's/\(a\[n - 1\] >= p \? 1 : 0\)/(a[n - 1] > p ? 1 : 0)/'; }
gate_case acsl-stale p_countge 1 "differs from what WP generates from spec/ \(definitions: [^)]*l_CountGe" -- $(thm Bridge.AcslScores) replay
# a module named for a partial run that is not there must not pass by proving nothing
gate_case missing-module true 1 "no module 'NoSuchModule'" -- $(thm Bridge.NoSuchModule) replay
p_countge_gen() {
  p_countge || return 1
  mkdir -p "$tree/build"
  sed "s#@DRIVERS_DIR@#$tree/proofs/why3#g" "$tree/proofs/why3/why3.conf.in" >"$tree/build/why3.conf"
  (cd "$tree" && WHY3CONFIG="$tree/build/why3.conf" python3 proofs/acsl/gen.py write >/dev/null)
}
gate_case acsl-divergence p_countge_gen 1 "UNPROVED Bridge.mlw AcslScores.count_ge_eq" -- $(thm3 Bridge.AcslScores) replay

# 12. the decision of correct rounding (step 'round-decide'): its control, then a rounding
#     that sends ties away from zero instead of to even, and a decision that says "decided"
#     when the ends round apart; both contracts are false, so no prover can prove them
rnd() { echo env EM_VERIFY_ONLY=round-decide.$1 bash proofs/verify.sh; }
rnd3() { echo env EM_WP_TIMEOUT=3 EM_VERIFY_ONLY=round-decide.$1 bash proofs/verify.sh; }
gate_case round-control true 3 "round-decide': 23/23 goals proved" -- $(rnd proofs) replay
gate_case round-control-smoke true 3 "round-decide': 7/7 smoke tests passed" -- $(rnd smoke) replay
p_ties_away() { plant src/core/em_round_decide.c 's/if \(r < 2 \|\| \(r == 2 && q % 2 == 0\)\)/if (r < 2)/'; }
gate_case round-ties-away p_ties_away 1 "goals not proved|goal is not proved" -- $(only FCT round_code) $(rnd3 proofs) update
p_always() { plant src/core/em_round_decide.c 's/return ma == mb;/return ma <= mb;/'; }
gate_case round-always-decided p_always 1 "goals not proved|goal is not proved" -- $(only FCT em_round_decide) $(rnd3 proofs) update

# 13. the exact sampler's enclosures (step 'exact-encl'): its control, then an upper partial
#     sum rounded down (RNDD for the upper end) and F's lower end taken at T's lower bound
#     instead of its upper one; both make a false enclosure, which no prover can prove
encl() { echo env EM_VERIFY_ONLY=exact-encl.$1 bash proofs/verify.sh; }
encl3() { echo env EM_WP_TIMEOUT=3 EM_VERIFY_ONLY=exact-encl.$1 bash proofs/verify.sh; }
gate_case encl-control true 3 "exact-encl': 260/260 goals proved" -- $(encl proofs) replay
gate_case encl-control-smoke true 3 "exact-encl': 72/72 smoke tests passed" -- $(encl smoke) replay
p_sum_down() { plant src/core/em_exact_encl.c 's/em_mpfr_add_ru\(hi, hi, whi\);/em_mpfr_add_rd(hi, hi, whi);/'; }
gate_case encl-sum-rounded-down p_sum_down 1 "goals not proved|goal is not proved" -- $(only FCT em_encl_add) $(encl3 proofs) update
p_ratio_tlo() { plant src/core/em_exact_encl.c 's/ratio_lo\(flo, d, clo, thi\);/ratio_lo(flo, d, clo, tlo);/'; }
gate_case encl-ratio-wrong-end p_ratio_tlo 1 "goals not proved|goal is not proved" -- $(only FCT em_encl_ratio) $(encl3 proofs) update
#     and a block's lower C sum rounded up (RNDU for the lower end), which the loop's
#     invariant that it stays below the exact sum of the lower weight ends must reject
p_block_up() { plant src/core/em_exact_encl.c 's/em_mpfr_add_rd\(clo, clo, wlo \+ k\);/em_mpfr_add_ru(clo, clo, wlo + k);/'; }
gate_case encl-block-sum-rounded-up p_block_up 1 "goals not proved|goal is not proved" -- $(only FCT em_encl_upward) $(encl3 proofs) update
#     and an axiom slipped into the one block allowed to declare a logic symbol (static check)
p_mpfr_axiom() { plant src/trusted/em_mpfr_acsl.h 's/(reads \*x;)\n/$1\n      axiom EmVal_nonneg: \\forall mpfr_srcptr x; EmVal(x) >= 0;\n/'; }
gate_case encl-axiom p_mpfr_axiom 1 "its axiomatic block must hold the one declaration of EmVal" -- $(encl proofs) replay

wait
pass=0 failed=0
for n in "${names[@]}"; do
  cat "$work/$n.log"
  if [ "$(cat "$work/$n.rc" 2>/dev/null)" = 0 ]; then pass=$((pass + 1)); else failed=$((failed + 1)); fi
done
echo "gate-test: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
