#!/usr/bin/env python3
"""bench_loadtxt.py FILE: the numpy script the benchmark compares `expmech sample --sampler float
-n 1 FILE` with, timed as a whole process by mk/bench.sh (figure numpy_loadtxt_sample).
Reads the same `label,utility` CSV with numpy.loadtxt, one draw by the seeds' recipe
(eps = 1, sensitivity 1, standard variant: weights exp(u / 2)), prints the label."""
import sys

import numpy as np

rows = np.loadtxt(sys.argv[1], delimiter=",", dtype=[("label", "U32"), ("u", "f8")])
z = 0.5 * rows["u"]
p = np.exp(z - z.max())
p /= p.sum()
print(rows["label"][np.random.default_rng().choice(len(p), p=p)])
