#!/usr/bin/python3
"""Planted bug (laplace_scale): Laplace with scale Delta_f/eps (the Laplace mechanism's) where the exponential mechanism at eps (scale 2 Delta_f/eps) was asked.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "laplace_scale"

class Planted(numpy_sampler.Sampler):
    def laplace(self, case, n, rng):
        return rng.laplace(float(case.f), float(case.sensitivity / case.epsilon), n)


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
