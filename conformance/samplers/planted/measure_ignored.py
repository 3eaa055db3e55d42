#!/usr/bin/python3
"""Planted bug (measure_ignored): the base measure dropped: each candidate, each interval of a quantile and each piece weighted as if of measure 1 (diffprivlib's quantile without its interval lengths).

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "measure_ignored"

class Planted(numpy_sampler.Sampler):
    def measure(self, case):
        return None

    def piece_log_mass(self, c, lo, hi, a, b):
        # the piece as a point: exp(c u) at its middle (a ray: at its end)
        x = hi if lo == -math.inf else lo if hi == math.inf else (lo + hi) / 2
        return numpy_sampler.to_float(c * (a + b * x))


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
