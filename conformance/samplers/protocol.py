"""The conformance protocol for a sampler written in Python (standard library only).

A sampler program is run as ``PROGRAM CASE.json N SEED`` and writes N draws to standard
output, one a line: a label of the case for the kinds finite, weighted and pf, a number for
continuous, quantile and laplace (conformance/README.md).  ``main(sample)`` does all of that
around a function ``sample(case, n, seed)`` that returns the draws (candidate indices or
labels for the finite kinds, floats for the others); raising ``NotImplementedError`` skips
the case (exit 77), raising ``ValueError`` refuses it (exit 1: what a correct sampler does
on the cases whose "expect" is "error").

``Case`` exposes the case as exact numbers: ``fractions.Fraction`` where the case has an
exact number, ``float('-inf')`` for an excluded candidate (and the ends of a ray),
``float('nan')`` for a NaN (only in cases a sampler must refuse).
"""
import json
import math
import sys
from fractions import Fraction


def exact(text):
    """An exact number of a case: decimal, C99 hex float, a/b, or -inf/inf/nan."""
    t = text.strip().lower()
    if t in ("-inf", "-infinity"):
        return -math.inf
    if t in ("inf", "+inf", "infinity"):
        return math.inf
    if t == "nan":
        return math.nan
    if "0x" in t:
        return Fraction(float.fromhex(t))
    return Fraction(t)


class Case:
    """One case of the battery (schema expmech-conformance-1)."""

    def __init__(self, d, path=None):
        self.path = path
        self.id = d["id"]
        self.title = d["title"]
        self.kind = d["kind"]
        self.expect = d["expect"]
        self.epsilon = exact(d["epsilon"])
        self.sensitivity = exact(d["sensitivity"])
        self.variant = d["variant"]
        sc = d["scenario"]
        self.utilities = [exact(u) for u in sc.get("utilities", [])]
        self.labels = sc.get("labels") or [str(i) for i in range(len(self.utilities))]
        self.measure = [exact(m) for m in sc["measure"]] if "measure" in sc else None
        self.pieces = [tuple(exact(p[k]) for k in ("lo", "hi", "a", "b"))
                       for p in sc.get("pieces", [])]
        self.data = [exact(x) for x in sc.get("data", [])]
        self.alpha = exact(sc["alpha"]) if "alpha" in sc else None
        self.bounds = tuple(exact(b) for b in sc["bounds"]) if "bounds" in sc else None
        self.f = exact(sc["f"]) if "f" in sc else None
        self.catches = [c["mistake"] for c in d.get("catches", [])]

    @classmethod
    def load(cls, path):
        with open(path, encoding="utf-8") as f:
            return cls(json.load(f), path)

    @property
    def finite(self):
        return self.kind in ("finite", "weighted", "pf")


def write(case, draws, out):
    """The draws as protocol lines: a label per candidate index (or label) for the finite
    kinds, repr() of each number otherwise."""
    if case.finite:
        labels = case.labels
        lines = [labels[d] if not isinstance(d, str) else d for d in draws]
    else:
        lines = [repr(float(x)) for x in draws]
    out.write("\n".join(lines))
    if lines:
        out.write("\n")


def main(sample, argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3:
        sys.stderr.write("usage: SAMPLER CASE.json N SEED\n")
        return 2
    case = Case.load(argv[0])
    n, seed = int(argv[1]), int(argv[2])
    try:
        draws = sample(case, n, seed)
    except NotImplementedError as e:
        sys.stderr.write(f"{case.id}: not done here ({e})\n")
        return 77
    except ValueError as e:
        sys.stderr.write(f"{case.id}: refused: {e}\n")
        return 1
    write(case, list(draws) if case.finite else draws, sys.stdout)
    sys.stdout.flush()
    return 0
