#!/usr/bin/env python3
"""bench_py.py: the Python binding's figures of the benchmark, one per process, beside the
same jobs through the command line (`make bench` runs it through mk/bench.sh; never a test).

    bench_py.py FIGURE N     prints {"name": FIGURE, "value": V, "unit": "us", "n": N}

V is microseconds for one call: the median of 5 calls after one warm-up call, in CPU time
(BENCH_CLOCK=wall: wall time) of this process, the interpreter and the module already
loaded (as a caller of the binding has them).  Utilities u_i = -i/1000 as Python floats,
eps = 1, sensitivity 1, the standard variant:

    py_probs    expmech.probs(u, 1): every probability to 17 digits, as Decimals
    py_sample   expmech.sample(u, 1, 1000, seed=1): 1000 exact draws
    py_check    expmech.check(s, u, 1) of N draws s of the float sampler (seed 1)

mk/bench.sh times the command line on the same doubles (written as hex floats, so both
read the same rationals): cli_probs, cli_sample, cli_check.  The module is the checkout's
(python/expmech) over EXPMECH_LIB.  Standard library only.
"""
import json
import os
import resource
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import expmech  # noqa: E402

SAMPLE_K = 1000


def clock():
    if (os.environ.get("BENCH_CLOCK") or "cpu") == "wall":
        return time.perf_counter()
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main(argv):
    if len(argv) != 3 or not argv[2].isdigit() or int(argv[2]) < 1:
        sys.stderr.write(__doc__)
        return 2
    name, n = argv[1], int(argv[2])
    u = [-i / 1000 for i in range(n)]
    if name == "py_probs":
        def op():
            return expmech.probs(u, 1)
    elif name == "py_sample":
        def op():
            return expmech.sample(u, 1, SAMPLE_K, seed=1)
    elif name == "py_check":
        draws = expmech.sample(u, 1, n, seed=1, sampler="float")

        def op():
            return expmech.check(draws, u, 1)
    else:
        sys.stderr.write(__doc__)
        return 2
    op()  # warm-up
    times = []
    for _ in range(5):
        t0 = clock()
        op()
        times.append((clock() - t0) * 1e6)
    times.sort()
    sys.stderr.write("bench_py: %-18s n = %-8d median %.4g us (%s) of 5 calls (min %.4g, max %.4g)\n"
                     % (name, n, times[2], os.environ.get("BENCH_CLOCK") or "cpu", times[0],
                        times[-1]))
    print(json.dumps({"name": name, "value": round(times[2], 1), "unit": "us", "n": n}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
