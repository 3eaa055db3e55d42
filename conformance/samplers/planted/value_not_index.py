#!/usr/bin/python3
"""Planted bug (value_not_index): the drawn candidate's utility written where its label (index) was due.

The reference sampler (../numpy_sampler.py) with one step changed; expmech conform must
reject it and name this mistake."""
import math
import os
import sys
from fractions import Fraction

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import numpy_sampler  # noqa: E402
import protocol  # noqa: E402

EXPECT = "value_not_index"

class Planted(numpy_sampler.Sampler):
    def __call__(self, case, n, seed):
        draws = super().__call__(case, n, seed)
        if not case.finite:
            return draws
        return [repr(float(case.utilities[i])) for i in draws]


sample = Planted()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
