#!/usr/bin/python3
"""Planted bug (eps_not_halved): exp(eps u / Delta) whatever the variant: the factor 1/2 of the standard variant forgotten.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "eps_not_halved"

class Planted(numpy_sampler.Sampler):
    def coef(self, case):
        return case.epsilon / case.sensitivity


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
