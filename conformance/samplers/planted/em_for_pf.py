#!/usr/bin/python3
"""Planted bug (em_for_pf): the exponential mechanism drawn where permute-and-flip was asked.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "em_for_pf"

class Planted(numpy_sampler.Sampler):
    def pf(self, case, n, rng):
        return self.em_finite(case, n, rng)


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
