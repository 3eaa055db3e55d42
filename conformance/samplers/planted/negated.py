#!/usr/bin/python3
"""Planted bug (negated): the utilities negated (argmin): exp(-c u).

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "negated"

class Planted(numpy_sampler.Sampler):
    def utilities(self, case):
        return [-u if numpy_sampler.is_num(u) else u for u in case.utilities]

    def continuous(self, case, pieces, n, rng):
        if any(p[0] == -math.inf or p[1] == math.inf for p in pieces):
            raise NotImplementedError("exp(-c u) has no finite integral on a ray")
        flipped = [(lo, hi, -a, -b) for lo, hi, a, b in pieces]
        return super().continuous(case, flipped, n, rng)

    def laplace(self, case, n, rng):
        raise NotImplementedError("exp(+c |f - r|) has no finite integral")


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
