#!/usr/bin/python3
"""Planted bug (uniform): the utilities ignored (excluded candidates too): uniform, by the measure where there is one.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "uniform"

class Planted(numpy_sampler.Sampler):
    def coef(self, case):
        return Fraction(0)

    def utilities(self, case):
        return [Fraction(0)] * len(case.utilities)

    def continuous(self, case, pieces, n, rng):
        if any(p[0] == -math.inf or p[1] == math.inf for p in pieces):
            raise NotImplementedError("no uniform law on a ray")
        return super().continuous(case, pieces, n, rng)

    def laplace(self, case, n, rng):
        raise NotImplementedError("no uniform law on the real line")


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
