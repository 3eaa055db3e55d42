#!/usr/bin/python3
"""Planted bug (delta_ignored): the sensitivity taken as 1.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "delta_ignored"

class Planted(numpy_sampler.Sampler):
    def coef(self, case):
        return case.epsilon if case.variant == "monotone" else case.epsilon / 2


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
