#!/usr/bin/env python3
"""The test runs make valgrind repeats under valgrind, and the check that it did.

  valgrind-select.py choose COVDIR OUT   from the sanitized tests' coverage (COVDIR/RUN.PID, one
                                         file per process, mk/em-cov.c: its CPU time and a
                                         bitmap of the program's edges; RUN names one call of
                                         run(), tests/em_cli_util.h), the cheapest runs whose
                                         processes together reach every edge any run reaches:
                                         a weighted greedy set cover (the run adding the most
                                         edges not yet reached per second it would cost under
                                         valgrind, ties to the first run in name order),
                                         written one name a line to OUT
  valgrind-select.py seen OUT SEEN       every run of OUT ran under valgrind (SEEN: the names
                                         mk/valgrind-expmech wrote), else exit 1

A run's cost under valgrind is estimated as VG_START seconds a process (a fork of the
program's server under memcheck, mk/vg-serve.c, and the translation of the code the run
executes that the server's warm-up did not: 0.07 s for `probs` on a short file here, more
for a path the warm-up does not take) plus VG_SLOW times the CPU time the process took
under ASan.  Weighted greedy cover is within a
factor ln(edges) of the cheapest cover, and deterministic: the same coverage gives the same
choice.  It is computed in each build from that build's tests, never
committed, so it cannot go stale.
"""
import os
import sys


VG_START = 0.15
VG_SLOW = 10.0


def choose(covdir, out):
    runs, cost = {}, {}
    for name in os.listdir(covdir):
        run, _, pid = name.rpartition(".")
        if not run or not pid.isdigit():
            continue
        with open(os.path.join(covdir, name), "rb") as f:
            data = f.read()
        cpu = int.from_bytes(data[:8], "little") / 1e6
        runs[run] = runs.get(run, 0) | int.from_bytes(data[8:], "little")
        cost[run] = cost.get(run, 0.0) + VG_START + VG_SLOW * cpu
    if not runs:
        sys.exit(f"valgrind-select: no coverage in {covdir} (run make sanitize)")
    every = 0
    for b in runs.values():
        every |= b
    total = every.bit_count()
    left, chosen = every, []
    order = sorted(runs)
    while left:
        best, score = None, 0.0
        for r in order:
            g = (runs[r] & left).bit_count()
            if g and g / cost[r] > score:
                best, score = r, g / cost[r]
        chosen.append(best)
        left &= ~runs[best]
    got = 0
    for r in chosen:
        got |= runs[r]
    assert got & every == every
    with open(out, "w") as f:
        f.writelines(r + "\n" for r in sorted(chosen))
    tests = len({r.split(".")[0] for r in runs})
    print(f"valgrind-select: {len(runs)} test runs of {tests} CLI test programs reach {total} edges of "
          f"the program; {len(chosen)} runs reach all {got.bit_count()}, about "
          f"{sum(cost[r] for r in chosen):.0f} s under valgrind (all: {sum(cost.values()):.0f} s) ({out})")


def seen(out, seenfile):
    with open(out) as f:
        want = {l.strip() for l in f if l.strip()}
    got = set()
    if os.path.exists(seenfile):
        with open(seenfile) as f:
            got = {l.strip() for l in f if l.strip()}
    missing = sorted(want - got)
    if missing:
        print(f"valgrind-select: FAIL: {len(missing)} of the {len(want)} chosen runs did not run under "
              f"valgrind (the tests changed since make sanitize chose them?): {' '.join(missing[:10])}")
        sys.exit(1)
    print(f"valgrind: the {len(want)} chosen runs ran under valgrind (every edge the sanitized tests reach)")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "choose":
        choose(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 4 and sys.argv[1] == "seen":
        seen(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
