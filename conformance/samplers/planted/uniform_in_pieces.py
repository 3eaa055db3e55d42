#!/usr/bin/python3
"""Planted bug (uniform_in_pieces): each piece drawn with its right mass, but uniformly inside it (the density inside a piece ignored).

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "uniform_in_pieces"

class Planted(numpy_sampler.Sampler):
    def piece_draw(self, c, lo, hi, a, b, U):
        if lo == -math.inf or hi == math.inf:
            return super().piece_draw(c, lo, hi, a, b, U)
        return float(lo) + U * float(hi - lo)


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
