#!/usr/bin/python3
"""Planted bug (crash_on_underflow): weights exp(c u) formed without subtracting the best first: when every weight underflows to 0 (or one overflows) the normalisation divides by 0 and the program dies.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "crash_on_underflow"

class Planted(numpy_sampler.Sampler):
    def log_weights(self, case):
        c = float(self.coef(case))
        m = self.measure(case) or [1] * len(case.utilities)
        w = [math.exp(c * float(u)) * float(k) if numpy_sampler.is_num(u) else 0.0
             for u, k in zip(self.utilities(case), m)]
        total = sum(w)
        p = [x / total for x in w]  # ZeroDivisionError when every weight underflowed
        return numpy_sampler.np.array([math.log(x) if x > 0 else -math.inf for x in p])

    def continuous(self, case, pieces, n, rng):
        if case.kind != "quantile":
            return super().continuous(case, pieces, n, rng)
        # diffprivlib's way: weights exp(c u) times the interval's length, summed as doubles
        c = float(self.coef(case))
        w = [math.exp(c * float(a)) * float(hi - lo) for lo, hi, a, b in pieces]
        total = sum(w)
        p = [x / total for x in w]
        j = rng.choice(len(p), size=n, p=p)
        lo = numpy_sampler.np.array([float(x[0]) for x in pieces])[j]
        hi = numpy_sampler.np.array([float(x[1]) for x in pieces])[j]
        return lo + rng.random(n) * (hi - lo)


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
