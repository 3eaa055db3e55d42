#!/usr/bin/python3
"""A correct sampler for every kind of the conformance battery, in numpy (Debian's
python3-numpy), written as another library's author would: independent of expmech, with
the care the hard cases need.

    numpy_sampler.py CASE.json N SEED        (conformance/README.md: the protocol)

- The exponential mechanism: P(r) ~ m_r exp(c u_r), c = eps/(2 Delta) (standard) or
  eps/Delta (monotone).  Every exponent is formed exactly (fractions) relative to the best
  candidate before it becomes a float, so utilities of 1e300 neither overflow nor lose
  their differences, and weights below the smallest double are not all lost at once.
- Permute-and-flip: report-noisy-max with exponential noise, argmax_r c u_r + E_r with
  E_r ~ Exp(1), which has permute-and-flip's law (Ding, Kifer et al. 2021).
- Continuous pieces: a piece by its mass (in logarithms), then the inverse of its CDF in
  forms that neither overflow nor cancel (expm1, log1p).
- The quantile: diffprivlib's algorithm (the gaps between the clipped, sorted data; utility
  -|i - alpha n|, Delta 1; the gap's length as base measure; uniform inside), in logs.
- Laplace: f + Laplace(scale 1/c) = Laplace(2 Delta_f / eps).
Invalid input (eps <= 0 or NaN, a NaN utility, nothing of positive mass, a ray whose
integral diverges) raises ValueError: the protocol's refusal.

The class Sampler keeps each step in a method of its own, so that the planted-bug samplers
(planted/*.py) change one step each.
"""
import math
import os
import sys
from fractions import Fraction

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import protocol  # noqa: E402


def is_num(x):
    return isinstance(x, Fraction)


def to_float(q):
    """A Fraction as a float, -inf/inf beyond the range of doubles."""
    try:
        return float(q)
    except OverflowError:
        return -math.inf if q < 0 else math.inf


def log_of(m):
    """log of a Fraction > 0, also beyond the range of doubles."""
    return math.log(m.numerator) - math.log(m.denominator)


class Sampler:
    # ------------------------------------------------------------- parameters
    def coef(self, case):
        """c = eps / (2 Delta), or eps / Delta for the monotone variant."""
        c = case.epsilon / case.sensitivity
        return c if case.variant == "monotone" else c / 2

    def utilities(self, case):
        return case.utilities

    def measure(self, case):
        return case.measure

    def validate(self, case):
        for name, v in (("epsilon", case.epsilon), ("sensitivity", case.sensitivity)):
            if not is_num(v) or v <= 0:
                raise ValueError(f"{name} must be a number > 0, not {v}")
        if case.finite:
            if not case.utilities:
                raise ValueError("no candidates")
            if any(isinstance(u, float) and math.isnan(u) for u in case.utilities):
                raise ValueError("a utility is NaN")
            m = case.measure or [1] * len(case.utilities)
            if not any(is_num(u) and w > 0 for u, w in zip(case.utilities, m)):
                raise ValueError("no candidate has positive mass")
        if case.kind == "continuous":
            if not case.pieces:
                raise ValueError("no pieces")
            for lo, hi, a, b in case.pieces:
                if (lo == -math.inf and not b > 0) or (hi == math.inf and not b < 0):
                    raise ValueError("a ray whose integral diverges")
        if case.kind == "quantile":
            if not case.data or not 0 < case.alpha < 1 or not case.bounds[0] < case.bounds[1]:
                raise ValueError("a quantile needs data, 0 < alpha < 1 and bounds lo < hi")

    # ------------------------------------------------------------- finite
    def log_weights(self, case):
        """log of m_r exp(c u_r) up to a constant, as floats (-inf: no mass)."""
        c = self.coef(case)
        u = self.utilities(case)
        m = self.measure(case) or [Fraction(1)] * len(u)
        live = [i for i in range(len(u)) if is_num(u[i]) and m[i] > 0]
        if not live:
            raise ValueError("no candidate has positive mass")
        # exact exponents relative to the best: c (u_r - u_best) + log m_r
        best = max(live, key=lambda i: c * u[i] + Fraction(log_of(m[i])))
        lw = np.full(len(u), -math.inf)
        for i in live:
            lw[i] = to_float(c * (u[i] - u[best])) + log_of(m[i]) - log_of(m[best])
        return lw

    def choose(self, lw, n, rng):
        p = np.exp(lw - np.max(lw))
        p /= p.sum()
        return rng.choice(len(p), size=n, p=p)

    def em_finite(self, case, n, rng):
        return self.choose(self.log_weights(case), n, rng)

    def pf(self, case, n, rng):
        """Permute-and-flip as report-noisy-max with Exp(1) noise on c u."""
        c = self.coef(case)
        u = self.utilities(case)
        live = [i for i in range(len(u)) if is_num(u[i])]
        best = max(u[i] for i in live)
        d = np.array([to_float(c * (x - best)) if is_num(x) else -math.inf for x in u])
        out = np.empty(n, dtype=np.int64)
        chunk = max(1, 2_000_000 // len(d))
        for s in range(0, n, chunk):
            k = min(chunk, n - s)
            out[s:s + k] = np.argmax(d + rng.exponential(1.0, size=(k, len(d))), axis=1)
        return out

    # ------------------------------------------------------------- continuous
    def piece_log_mass(self, c, lo, hi, a, b):
        """log of the integral of exp(c (a + b x)) over [lo, hi]."""
        if lo == hi:
            return -math.inf
        s = to_float(c * b)
        if s == 0:
            return to_float(c * a) + math.log(to_float(hi - lo))
        if hi == math.inf:  # s < 0: exp(c u(lo)) / (-s)
            return to_float(c * (a + b * lo)) - math.log(-s)
        if lo == -math.inf:  # s > 0: exp(c u(hi)) / s
            return to_float(c * (a + b * hi)) - math.log(s)
        w = to_float(hi - lo)
        if s > 0:
            return to_float(c * (a + b * hi)) + math.log(-math.expm1(-s * w)) - math.log(s)
        return to_float(c * (a + b * lo)) + math.log(-math.expm1(s * w)) - math.log(-s)

    def piece_draw(self, c, lo, hi, a, b, U):
        """k draws of the piece's conditional law from k uniforms in [0, 1)."""
        s = to_float(c * b)
        if lo == hi:
            return np.full(len(U), to_float(lo))
        V = 1.0 - U  # in (0, 1]
        if hi == math.inf:
            return to_float(lo) + np.log(V) / s
        if lo == -math.inf:
            return to_float(hi) + np.log(V) / s
        l, h, w = to_float(lo), to_float(hi), to_float(hi - lo)
        if s == 0:
            x = l + U * w
        elif s > 0:
            x = h + np.log1p(V * math.expm1(-s * w)) / s
        else:
            x = l + np.log1p(U * math.expm1(s * w)) / s
        return np.clip(x, l, h)

    def continuous(self, case, pieces, n, rng):
        c = self.coef(case)
        lm = np.array([self.piece_log_mass(c, *p) for p in pieces])
        if not np.isfinite(lm).any():
            raise ValueError("no piece has positive mass")
        j = self.choose(lm, n, rng)
        out = np.empty(n)
        for k in np.unique(j):
            sel = j == k
            out[sel] = self.piece_draw(c, *pieces[k], rng.random(int(sel.sum())))
        return out

    def quantile_pieces(self, case):
        """diffprivlib's gaps: the data clipped to the bounds and sorted, with the bounds;
        gap i has utility -|i - alpha n| and its length as measure."""
        lo, hi = case.bounds
        x = sorted(min(max(v, lo), hi) for v in case.data)
        edges = [lo] + x + [hi]
        k = len(x)
        return [(edges[i], edges[i + 1], -abs(i - case.alpha * k), Fraction(0))
                for i in range(k + 1)]

    def quantile(self, case, n, rng):
        return self.continuous(case, self.quantile_pieces(case), n, rng)

    def laplace(self, case, n, rng):
        return rng.laplace(to_float(case.f), to_float(1 / self.coef(case)), n)

    # ------------------------------------------------------------- entry
    def __call__(self, case, n, seed):
        self.validate(case)
        rng = np.random.default_rng(seed)
        if case.kind in ("finite", "weighted"):
            return self.em_finite(case, n, rng)
        if case.kind == "pf":
            return self.pf(case, n, rng)
        if case.kind == "continuous":
            return self.continuous(case, case.pieces, n, rng)
        if case.kind == "quantile":
            return self.quantile(case, n, rng)
        if case.kind == "laplace":
            if not is_num(case.f):
                raise ValueError("f must be a number")
            return self.laplace(case, n, rng)
        raise NotImplementedError(case.kind)


sample = Sampler()

if __name__ == "__main__":
    sys.exit(protocol.main(sample))
