#!/usr/bin/env bash
# tests/test_gate.sh: the proof gate's own tests (make gate-test, part of make check).
#
# A gate that cannot fail is worthless, so each case plants one defect in a private copy of
# spec/, src/, proofs/ and runs the real proofs/verify.sh there: it must exit 1 with the
# message that names the defect.  A control run of the untouched copy must pass (exit 3,
# "PARTIAL": EM_VERIFY_ONLY restricts the run to one small step, which is never the gate
# itself), so a failure below is caused by the plant, not by the copy; the step's proofs and
# its smoke tests are separate runs, and the control checks both.  The WP cases use the
# step 'score-misc' (155 goals, a few seconds); the planted contracts are false, so no prover
# can prove them however long it runs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/em-gate.XXXXXX")
trap 'rm -rf "$work"' EXIT
pass=0 failed=0

fresh() { # a new copy of what the gate reads
  rm -rf "$work/tree"; mkdir -p "$work/tree"
  cp -a "$root/spec" "$root/src" "$root/proofs" "$root/README.md" "$work/tree/"
}

# expect NAME RC PATTERN -- command...: run in the copy, check exit status and output
expect() {
  local name=$1 want=$2 pat=$3; shift 4
  local out="$work/$name.out" rc=0
  (cd "$work/tree" && "$@") >"$out" 2>&1 || rc=$?
  if [ "$rc" = "$want" ] && grep -qE -- "$pat" "$out"; then
    echo "gate-test: ok    $name (exit $rc: $(grep -oE -m1 -- "$pat" "$out"))"
    pass=$((pass + 1))
  else
    echo "gate-test: FAIL  $name: expected exit $want and /$pat/, got exit $rc; output:"
    sed 's/^/    /' "$out" | tail -15
    failed=$((failed + 1))
  fi
}

plant() { # file perl-substitution: edit the copy, and insist that the edit happened
  local f="$work/tree/$1"
  cp "$f" "$f.orig"
  perl -0pi -e "$2" "$f"
  if cmp -s "$f" "$f.orig"; then echo "gate-test: FAIL  the plant '$2' did not change $1"; exit 1; fi
}

only_misc=(env EM_VERIFY_ONLY=score-misc bash proofs/verify.sh)

# 0. control: the untouched copy passes the step (exit 3 = partial run passed)
fresh
expect control 3 "score-misc': 128/128 goals proved" -- "${only_misc[@]}" replay
expect control-smoke 3 "score-misc': 27/27 smoke tests passed" -- "${only_misc[@]}" replay

# 1. broken code against its contract (update: the provers run on the changed goals)
fresh
plant src/core/em_score_rr.c 's/x == 0 \? beta : gamma/x == 0 ? gamma : beta/'
expect broken-contract 1 "goals not proved|goal is not proved" -- "${only_misc[@]}" update

# 2. a false lemma (update)
fresh
plant proofs/lemmas/ScoreMisc_lemmas.h 's/== \\abs\(beta - gamma\);/== \\abs(beta - gamma) + 1;/'
expect false-lemma 1 "goals not proved|goal is not proved" -- "${only_misc[@]}" update

# 3. an inconsistent precondition: every goal is then provable, only the smoke test sees it
fresh
plant src/core/em_score_rr.h 's/(requires valid_u:[^;]*;)/$1\n    requires planted: x > 0 \&\& x < 0;/'
expect smoke-test 1 "smoke test failed" -- "${only_misc[@]}" update

# 4. a stale cache: a lemma changed into a weaker, still true one (df >= 1 for df >= 0) has
#    no cached proof, and a replay runs no prover
fresh
plant proofs/lemmas/ScoreMisc_lemmas.h 's/Laplace_Tight: \\forall integer f, df; df >= 0 ==>/Laplace_Tight: \\forall integer f, df; df >= 1 ==>/'
expect stale-cache 1 "not in the WP cache|goals not proved" -- "${only_misc[@]}" replay

# 5. a cache emptied of its entries
fresh
rm -f "$work/tree/proofs/wp-session/score-misc/cache/"*.json
expect empty-cache 1 "not in the WP cache|goals not proved" -- "${only_misc[@]}" replay

# 5b. proof scripts only choose which prover a replay asks: without them the replay asks
#     every prover of the step and still passes (exit 3), and a script that carries a tactic
#     (which would change the goal) is refused before any prover runs
fresh
rm -rf "$work/tree/proofs/wp-session/score-misc/script"
expect control-no-scripts 3 "score-misc': 128/128 goals proved" -- "${only_misc[@]}" replay
fresh
s=$(ls "$work/tree/proofs/wp-session/score-misc/script/"*.json | head -1)
printf '[ { "header": "Split", "tactic": "Wp.split", "params": {}, "select": {}, "subgoals": [] } ]\n' >"$s"
expect planted-tactic 1 "not a list of prover verdicts" -- "${only_misc[@]}" replay
# a cold run reads the scripts too (which prover proves each goal first): the same check, before
# any cache is emptied (EM_VERIFY_ONLY makes a cold run that got past it stop at once)
expect planted-tactic-cold 1 "not a list of prover verdicts" -- "${only_misc[@]}" cold

# 6. a planted axiom in the ACSL (static check, before any prover)
fresh
printf '/*@ axiomatic Planted { axiom planted_false: \\false; } */\n' >>"$work/tree/spec/ScoreRR.acsl"
expect planted-axiom 1 "axiom/admit/assume in the verified core" -- "${only_misc[@]}" replay

# 7. a planted admit in a WhyML theorem (the theorems' static check)
fresh
plant proofs/theorems/Shift.mlw 's/(\n\s*end\s*)$/\n  let lemma planted_admit () ensures { 1 = 2 } = admit ()$1/'
expect planted-admit 1 "forbidden construct|unexpected meta" -- env EM_VERIFY_ONLY=theorems bash proofs/verify.sh replay

# 7b. a false theorem: its prover input is in no cache entry, so even a replay runs the prover
#     on it (proofs/why3/cached-prover), which cannot prove it
fresh
plant proofs/theorems/Shift.mlw 's/(\n\s*end\s*)$/\n  let lemma planted_false (x: int) ensures { x * x = x + 1 } = ()$1/'
expect false-theorem 1 "UNPROVED" -- env EM_VERIFY_ONLY=theorems bash proofs/verify.sh replay

# 8. a literal this Frama-C misreads (1e6 read as 1.6)
fresh
printf '/* a bound of 1e6 */\n' >>"$work/tree/spec/ScoreRR.acsl"
expect float-literal 1 "ambiguous float literal" -- "${only_misc[@]}" replay

# 9. a missing prover: z3 absent from PATH
fresh
mkdir -p "$work/bin"
for t in /usr/bin/*; do
  b=$(basename "$t"); [ "$b" = z3 ] || ln -sf "$t" "$work/bin/$b"
done
nopath=$(tr ':' '\n' <<<"$PATH" | grep -vxE '/usr/bin|/bin|/usr/local/bin' | paste -sd: -)
if PATH="$work/bin:$nopath" command -v z3 >/dev/null; then
  echo "gate-test: FAIL  could not hide z3 from PATH"; failed=$((failed + 1))
else
  expect missing-prover 1 "'z3' is not installed" -- env PATH="$work/bin:$nopath" "${only_misc[@]}" replay
fi

# 10. a prover why3 does not know (the project configuration lost CVC5)
fresh
plant proofs/why3/why3.conf.in 's/\[prover\][^\[]*?version = "1\.0\.3"[^\[]*//s'
expect unknown-prover 1 "prover 'CVC5 1.0.3' not found" -- "${only_misc[@]}" replay

# 11. the ACSL definitions and the theorems' reading of them (proofs/acsl/Acsl.mlw, the Why3
#     text WP generates from spec/): CountGe's >= becomes >.  Without regenerating, the replay
#     fails before any prover, naming the definition; regenerated (as make prove would), the
#     WhyML count_ge no longer equals it and the induction that proves count_ge_acsl fails
fresh
plant spec/Revenue.acsl 's/\(a\[n - 1\] >= p \? 1 : 0\)/(a[n - 1] > p ? 1 : 0)/'
expect acsl-stale 1 "differs from what WP generates from spec/ \(definitions: [^)]*l_CountGe" -- env EM_VERIFY_ONLY=theorems bash proofs/verify.sh replay
(cd "$work/tree" && WHY3CONFIG="$root/build/why3.conf" python3 proofs/acsl/gen.py write >/dev/null)
expect acsl-divergence 1 "UNPROVED Bridge.mlw AcslScores.count_ge_eq" -- env EM_VERIFY_ONLY=theorems bash proofs/verify.sh replay

# 12. the decision of correct rounding (step 'round-decide'): its control, then a rounding
#     that sends ties away from zero instead of to even, and a decision that says "decided"
#     when the ends round apart; both contracts are false, so no prover can prove them
only_round=(env EM_VERIFY_ONLY=round-decide bash proofs/verify.sh)
fresh
expect round-control 3 "round-decide': 23/23 goals proved" -- "${only_round[@]}" replay
expect round-control-smoke 3 "round-decide': 7/7 smoke tests passed" -- "${only_round[@]}" replay
plant src/core/em_round_decide.c 's/if \(r < 2 \|\| \(r == 2 && q % 2 == 0\)\)/if (r < 2)/'
expect round-ties-away 1 "goals not proved|goal is not proved" -- "${only_round[@]}" update
fresh
plant src/core/em_round_decide.c 's/return ma == mb;/return ma <= mb;/'
expect round-always-decided 1 "goals not proved|goal is not proved" -- "${only_round[@]}" update

echo "gate-test: $pass passed, $failed failed"
[ "$failed" -eq 0 ]
