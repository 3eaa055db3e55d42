#!/usr/bin/env python3
"""bench_peers.py: the peers of the benchmark, one figure per process, on the same
inputs as stats/bench_speed.c (`make bench` runs it through mk/bench.sh; never a test).

    bench_peers.py FIGURE N     prints {"name": FIGURE, "value": V, "unit": "us", "n": N}

V is microseconds per operation: the median of several timed batches after one warm-up
operation, in CPU time (BENCH_CLOCK=wall: wall time), the method of bench_speed (details
on standard error).  Utilities: n = 7 the
marital counts / 1000 (seed 000), otherwise u_i = -i/1000; eps = 1, sensitivity 1, the
standard variant, so every weight is exp(u_i / 2) up to the normalisation.

    numpy_oneshot        the seeds' recipe, vectorised: p = exp(c u - max), p /= sum,
                         rng.choice(n, p=p) (numpy.random.default_rng, PCG64)
    numpy_many           one draw of rng.choice(n, size=10^6, p=p), p prepared once
    diffprivlib_oneshot  diffprivlib's Exponential mechanism, constructed and asked for one
                         draw (see DiffprivlibExponential below)

The fourth peer, numpy_loadtxt_sample, is a whole process (stats/bench_loadtxt.py), timed
by mk/bench.sh like `expmech sample`.  Standard library + Debian's python3-numpy only.
"""
import json
import os
import re
import secrets
import sys
import time
from numbers import Real

import numpy as np



def marital_counts():
    """seed 000's counts, read from where the C code has them (typed once)"""
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "api",
                       "em_seeds.c")
    with open(src, encoding="utf-8") as f:
        m = re.search(r"em_marital_counts\[EM_MARITAL_N\]\s*=\s*\{([^}]*)\}", f.read())
    return [int(x) for x in m.group(1).split(",")]


def utilities(n):
    counts = marital_counts()
    if n == len(counts):
        return np.array(counts, dtype=float) / 1000.0
    return -np.arange(n, dtype=float) / 1000.0


class DiffprivlibExponential:
    """diffprivlib.mechanisms.Exponential (IBM's differential-privacy-library, 0.6), its
    algorithm reimplemented here because diffprivlib is not packaged in Debian and the
    project installs nothing with pip.  Step for step as the library does it, including
    the costs a user pays:
      - construction checks that the utility is a list of finite reals (a Python loop),
        then computes, with the largest utility subtracted, exp(scale u) with
        scale = eps / sensitivity / (2 - monotonic), divides by the sum and keeps the
        cumulative sum;
      - every randomise() checks the parameters and the whole list again, draws one
        uniform double from secrets.SystemRandom (the library's default random_state
        None with secure=True) and returns the first index whose cumulative
        probability is >= it (np.argmax over the comparison vector).
    """

    def __init__(self, *, epsilon, sensitivity, utility, monotonic=False, candidates=None,
                 measure=None):
        self._check_epsilon_delta(epsilon, 0.0)
        self.epsilon, self.delta = float(epsilon), 0.0
        self.sensitivity = self._check_sensitivity(sensitivity)
        self.utility, self.candidates, self.measure = self._check_ucm(utility, candidates,
                                                                      measure)
        self.monotonic = bool(monotonic)
        self._rng = secrets.SystemRandom()
        self._probabilities = self._find_probabilities(self.epsilon, self.sensitivity,
                                                       self.utility, self.monotonic,
                                                       self.measure)

    @staticmethod
    def _check_epsilon_delta(epsilon, delta):
        if not isinstance(epsilon, Real) or not isinstance(delta, Real):
            raise TypeError("Epsilon and delta must be numeric")
        if epsilon < 0:
            raise ValueError("Epsilon must be non-negative")
        if not 0 <= delta <= 1:
            raise ValueError("Delta must be in [0, 1]")
        if epsilon + delta == 0:
            raise ValueError("Epsilon and Delta cannot both be zero")
        if delta != 0:
            raise ValueError("Delta must be zero")

    @staticmethod
    def _check_sensitivity(sensitivity):
        if not isinstance(sensitivity, Real):
            raise TypeError("Sensitivity must be numeric")
        if sensitivity < 0:
            raise ValueError("Sensitivity must be non-negative")
        return float(sensitivity)

    @staticmethod
    def _check_ucm(utility, candidates, measure):
        if not isinstance(utility, list):
            raise TypeError("Utility must be a list")
        if not all(isinstance(u, Real) for u in utility):
            raise TypeError("Utility must be a list of real-valued numbers.")
        if len(utility) < 1:
            raise ValueError("Utility must have at least one element.")
        if np.isinf(utility).any():
            raise ValueError("Utility must be a list of finite numbers.")
        if candidates is not None and len(candidates) != len(utility):
            raise ValueError("candidates and utility differ in length")
        if measure is not None:
            raise ValueError("no measure in this benchmark")
        return utility, candidates, measure

    @staticmethod
    def _find_probabilities(epsilon, sensitivity, utility, monotonic, measure):
        scale = epsilon / sensitivity / (2 - monotonic) if sensitivity / epsilon > 0 \
            else float("inf")
        utility = np.array(utility) - max(utility)
        if np.isinf(scale):
            probabilities = np.isclose(utility, 0).astype(float)
        else:
            probabilities = np.exp(scale * utility)
        probabilities *= np.array(measure) if measure else 1
        probabilities /= probabilities.sum()
        return np.cumsum(probabilities)

    def randomise(self, value=None):
        self._check_epsilon_delta(self.epsilon, self.delta)
        self._check_sensitivity(self.sensitivity)
        self._check_ucm(self.utility, self.candidates, self.measure)
        if value is not None:
            raise ValueError("Value to be randomised must be None.")
        rand = self._rng.random()
        if np.any(rand <= self._probabilities):
            idx = np.argmax(rand <= self._probabilities)
        elif np.isclose(rand, self._probabilities[-1]):
            idx = len(self._probabilities) - 1
        else:
            raise RuntimeError("Can't find a candidate to return.")
        return self.candidates[idx] if self.candidates else idx


def clock():
    """CPU time of this process, as bench_speed (BENCH_CLOCK=wall: wall time)"""
    which = os.environ.get("BENCH_CLOCK") or "cpu"
    if which not in ("cpu", "wall"):
        raise SystemExit("bench_peers.py: BENCH_CLOCK must be cpu or wall, not '%s'" % which)
    return time.process_time if which == "cpu" else time.perf_counter


def measure(op):
    """Median seconds per op (the method of bench_speed.c: warm-up, batches of >= 20 ms,
    11 batches, or 5 / 3 when a batch takes over 0.1 s / 1 s)."""
    now = clock()
    t0 = now()
    op()
    batch = now() - t0
    iters = 1
    while batch < 0.02:
        iters = iters * 16 if batch <= 0 else int(iters * 0.025 / batch) + 1
        t0 = now()
        for _ in range(iters):
            op()
        batch = now() - t0
    reps = 3 if batch > 1.0 else 5 if batch > 0.1 else 11
    times = []
    for _ in range(reps):
        t0 = now()
        for _ in range(iters):
            op()
        times.append((now() - t0) / iters)
    times.sort()
    return times[reps // 2], times[0], times[-1], reps, iters


def main(argv):
    if len(argv) != 3 or not argv[2].isdigit() or int(argv[2]) < 1:
        sys.stderr.write("usage: bench_peers.py numpy_oneshot|numpy_many|diffprivlib_oneshot N\n")
        return 2
    name, n = argv[1], int(argv[2])
    u = utilities(n)
    c = 0.5  # eps / (2 sensitivity)
    rng = np.random.default_rng(1)
    sink = [0]  # the results are kept (and printed): nothing is computed for nothing
    per = 1
    if name == "numpy_oneshot":
        def op():
            z = c * u
            p = np.exp(z - z.max())
            p /= p.sum()
            sink[0] += int(rng.choice(n, p=p))
    elif name == "numpy_many":
        z = c * u
        p = np.exp(z - z.max())
        p /= p.sum()
        per = 1000000

        def op():
            sink[0] += int(rng.choice(n, size=per, p=p).sum())
    elif name == "diffprivlib_oneshot":
        ulist = u.tolist()  # the library takes a list; building it is the caller's

        def op():
            m = DiffprivlibExponential(epsilon=1.0, sensitivity=1.0, utility=ulist)
            sink[0] += int(m.randomise())
    else:
        sys.stderr.write("bench_peers.py: unknown figure '%s'\n" % name)
        return 2
    med, lo, hi, reps, iters = measure(op)
    med, lo, hi = med / per, lo / per, hi / per
    sys.stderr.write("bench_peers: %-19s n = %-8d median %.4g us of %d batches x %d "
                     "(min %.4g, max %.4g)  checksum %d\n"
                     % (name, n, med * 1e6, reps, iters, lo * 1e6, hi * 1e6, sink[0] % 1000003))
    print(json.dumps({"name": name, "value": float("%.6g" % (med * 1e6)), "unit": "us", "n": n}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
