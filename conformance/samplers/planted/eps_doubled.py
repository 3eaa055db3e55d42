#!/usr/bin/python3
"""Planted bug (eps_doubled): the mechanism at 2 eps (a budget counted twice).

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "eps_doubled"

class Planted(numpy_sampler.Sampler):
    def coef(self, case):
        return 2 * super().coef(case)


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
