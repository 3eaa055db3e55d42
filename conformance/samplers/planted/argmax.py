#!/usr/bin/python3
"""Planted bug (argmax): no noise: the best output every time (ties shared evenly).

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "argmax"

import numpy as np  # noqa: E402


class Planted(numpy_sampler.Sampler):
    def em_finite(self, case, n, rng):
        u = case.utilities
        live = [i for i in range(len(u)) if numpy_sampler.is_num(u[i])]
        top = max(u[i] for i in live)
        best = [i for i in live if u[i] == top]
        return np.array(best)[rng.integers(0, len(best), n)]

    pf = em_finite

    def continuous(self, case, pieces, n, rng):
        ends = [(x, a + b * x) for lo, hi, a, b in pieces for x in (lo, hi)
                if numpy_sampler.is_num(x)]
        top = max(v for _, v in ends)
        flat = [(lo, hi) for lo, hi, a, b in pieces if b == 0 and a == top and hi > lo]
        if flat:  # the best pieces, uniformly by length
            w = np.array([float(hi - lo) for lo, hi in flat])
            j = rng.choice(len(flat), size=n, p=w / w.sum())
            lo = np.array([float(p[0]) for p in flat])[j]
            hi = np.array([float(p[1]) for p in flat])[j]
            return lo + rng.random(n) * (hi - lo)
        points = sorted({float(x) for x, v in ends if v == top})
        return np.array(points)[rng.integers(0, len(points), n)]

    def laplace(self, case, n, rng):
        return np.full(n, float(case.f))


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
