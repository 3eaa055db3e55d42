#!/usr/bin/python3
"""Planted bug (pf_for_em): permute-and-flip drawn where the exponential mechanism was asked.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "pf_for_em"

class Planted(numpy_sampler.Sampler):
    def em_finite(self, case, n, rng):
        if case.measure is None:
            return self.pf(case, n, rng)
        return super().em_finite(case, n, rng)


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
