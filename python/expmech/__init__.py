"""expmech: exact answers about the exponential mechanism, for other libraries' test suites.

A ctypes binding over libexpmech (the C library of this project); standard library only.
Every number that must be exact is passed to the library exactly: utilities that are
all floats, ints of at most 53 bits or None as doubles (em_scn_new's utilities_d),
anything else as exact text.  So a float utility means its exact binary value (``0.1`` is
0x1.999999999999ap-4, not 1/10; pass ``"0.1"``, ``Fraction(1, 10)`` or ``Decimal("0.1")``
for one tenth).  Results are
correctly rounded ``decimal.Decimal`` values.  Every error the library reports raises
``ValueError`` with its message.

    >>> import expmech
    >>> expmech.probs([0, 1], 2, digits=5)
    [Decimal('0.26894'), Decimal('0.73106')]

The library is found through, in order: the environment variable ``EXPMECH_LIB`` (a
path to libexpmech.so), the build directory of the checkout this module sits in
(``build/libexpmech.so.1``, after ``make``), the directory ``make install`` recorded,
and the dynamic linker's search path.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import dataclasses
import decimal
import fractions
import math
import numbers
import os
import warnings
from typing import Iterable, List, Optional, Sequence, Tuple, Union

from . import _lib
from ._lib import lib, Error

__all__ = [
    "__version__", "probs", "log_probs", "sample", "check", "compare", "audit", "utility",
    "cdf", "density", "quantile", "sample_continuous", "check_continuous",
    "CheckResult", "CheckRow", "CompareResult", "Exact", "Utility", "Piece",
    "conform", "Case", "ConformReport", "ConformCase",
]

__version__: str = lib.em_version().decode()

Exact = Union[int, float, fractions.Fraction, decimal.Decimal, str]
Utility = Optional[Exact]          # None: an excluded candidate (utility -inf)
Piece = Tuple[Exact, Exact, Exact, Exact]   # (lo, hi, a, b): u(r) = a + b r on [lo, hi]

_VARIANTS = {"standard": 0, "monotone": 1, "pf": 2, "permute-and-flip": 2}
_SAMPLERS = {"exact": 0, "float": 1}


def _text(x: Exact, what: str) -> str:
    """The exact value of x as text the library parses (src/num/em_rational.h)."""
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, str):
        if "\x00" in x:
            # C reads up to the NUL: "1\x00999" would be 1
            raise ValueError(f"{what}: {x!r} holds a NUL character")
        return x
    if isinstance(x, fractions.Fraction):
        return f"{x.numerator}/{x.denominator}"
    if isinstance(x, decimal.Decimal):
        if x.is_nan():
            return "nan"
        if x.is_infinite():
            return "-inf" if x < 0 else "inf"
        return str(x)
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Real):
        f = float(x)  # numpy float32/float64 and float: exact in a double
        if not isinstance(x, float) and not (math.isnan(f) or f == x):
            # numpy.longdouble and the like: a double would round it
            raise ValueError(f"{what}: a {type(x).__name__} is not exactly a double; "
                             f"pass it as a str or a Fraction")
        if math.isnan(f):
            return "nan"
        if math.isinf(f):
            return "-inf" if f < 0 else "inf"
        return f.hex()
    raise TypeError(f"{what}: expected int, float, Fraction, Decimal or str, got {type(x).__name__}")


def _texts(xs: Iterable, what: str, allow_none: bool = False) -> list:
    out = []
    for i, x in enumerate(xs):
        if x is None and allow_none:
            out.append(None)
        elif x is None:
            raise ValueError(f"{what}[{i}] is None")
        else:
            out.append(_text(x, f"{what}[{i}]").encode())
    return out


def _dec(s: str, what: str) -> decimal.Decimal:
    """A library result as a Decimal; one beyond Decimal's exponent range is a ValueError."""
    try:
        return decimal.Decimal(s)
    except decimal.InvalidOperation:
        raise ValueError(f"{what}: the result {s[:40]}... has an exponent beyond what "
                         f"decimal.Decimal holds; rescale the utilities") from None


_EXACT_INT = 2 ** 53


def _doubles(xs):
    """xs as a C array of doubles when every element is a float (or numpy float), None
    (-inf), or an int of at most 53 bits (a double holds it exactly); else None, and the
    exact text path takes it.  A list of floats is converted by ctypes in C."""
    if isinstance(xs, (str, bytes)):
        return None
    try:
        n = len(xs)
    except TypeError:
        return None
    if n == 0:
        return None
    if type(xs) is list and all(type(x) is float for x in xs):
        return (ctypes.c_double * n)(*xs)
    out = (ctypes.c_double * n)()
    for i, x in enumerate(xs):
        if x is None:
            out[i] = -math.inf
        elif isinstance(x, bool):
            out[i] = 1.0 if x else 0.0
        elif isinstance(x, numbers.Integral):
            if not -_EXACT_INT <= int(x) <= _EXACT_INT:
                return None
            out[i] = float(int(x))
        elif isinstance(x, float) or (isinstance(x, numbers.Real) and
                                      type(x).__module__ == "numpy"):
            f = float(x)
            if f != x:      # numpy.longdouble: not a double; the text path refuses it
                return None
            out[i] = f      # numpy float32/float64: exact in a double
        else:
            return None
    return out


def _carray(items: list):
    arr = (ctypes.c_char_p * max(len(items), 1))()
    for i, b in enumerate(items):
        arr[i] = b
    return arr


class _Scenario:
    """An em_scn and an em_mech over it, freed when the object goes (also when the
    constructor raises: __del__ still runs for the half-made object)."""

    def __init__(self, scn, opts: dict):
        self.scn = scn
        self.mech = None
        o = _lib.Opts()
        eps = _text(opts["epsilon"], "epsilon").encode()
        sens = _text(opts["sensitivity"], "sensitivity").encode()
        o.epsilon, o.sensitivity = eps, sens
        variant = opts.get("variant", "standard")
        if variant not in _VARIANTS:
            raise ValueError(f"variant {variant!r}: expected one of {sorted(_VARIANTS)}")
        o.variant = _VARIANTS[variant]
        o.force = 1 if opts.get("force") else 0
        digits = opts.get("digits", 17)
        if not isinstance(digits, numbers.Integral) or isinstance(digits, bool):
            raise TypeError("digits: expected an int")
        if not 1 <= digits <= 1000:
            raise ValueError(f"digits {digits}: expected 1 to 1000")
        o.digits = int(digits)
        if opts.get("monotone"):
            _lib.call(lib.em_scn_declare, scn, None, 1)
        self.mech = _lib.new(lib.em_mech_new, ctypes.c_void_p, scn, ctypes.byref(o))

    def __del__(self):
        if getattr(self, "mech", None):
            lib.em_free(self.mech)
            self.mech = None
        if getattr(self, "scn", None):
            lib.em_free(self.scn)
            self.scn = None

    @classmethod
    def finite(cls, utilities: Sequence[Utility], measure=None, **opts) -> "_Scenario":
        d = _doubles(utilities) if measure is None else None
        if d is not None:
            # binary: each double, or integer a double holds, is passed as its exact value
            spec = _lib.ScnSpec(n=len(d), utilities_d=d)
            scn = _lib.new(lib.em_scn_new, ctypes.c_void_p, ctypes.byref(spec))
            return cls(scn, opts)  # owns scn from here, even if it raises
        u = _texts(utilities, "utilities", allow_none=True)
        if not u:
            raise ValueError("no candidates (utilities is empty)")
        m = None
        if measure is not None:
            m = _texts(measure, "measure")
            if len(m) != len(u):
                raise ValueError(f"measure has {len(m)} entries for {len(u)} utilities")
        spec = _lib.ScnSpec(n=len(u), utilities=_carray(u),
                            measure=_carray(m) if m is not None else None)
        scn = _lib.new(lib.em_scn_new, ctypes.c_void_p, ctypes.byref(spec))
        return cls(scn, opts)  # owns scn from here, even if it raises

    @classmethod
    def pieces(cls, pieces: Sequence[Piece], **opts) -> "_Scenario":
        cols = [[], [], [], []]
        for j, p in enumerate(pieces):
            if len(p) not in (3, 4):
                raise ValueError(f"pieces[{j}]: expected (lo, hi, a) or (lo, hi, a, b)")
            for k, x in enumerate(tuple(p) + ((0,) if len(p) == 3 else ())):
                cols[k].append(_text(x, f"pieces[{j}]").encode())
        if not cols[0]:
            raise ValueError("no pieces")
        lo, hi, a, b = (_carray(c) for c in cols)
        spec = _lib.ScnSpec(n=len(cols[0]), lo=lo, hi=hi, a=a, b=b)
        scn = _lib.new(lib.em_scn_new, ctypes.c_void_p, ctypes.byref(spec))
        return cls(scn, opts)  # owns scn from here, even if it raises

    def size(self) -> int:
        return lib.em_scn_get(self.scn).size


def _opts(epsilon, sensitivity, variant, digits, monotone, force) -> dict:
    return dict(epsilon=epsilon, sensitivity=sensitivity, variant=variant, digits=digits,
                monotone=monotone, force=force)


def _probs(utilities, epsilon, sensitivity, variant, digits, measure, monotone, force, log):
    sc = _Scenario.finite(utilities, measure,
                          **_opts(epsilon, sensitivity, variant, digits, monotone, force))
    buf, size = ctypes.c_void_p(), ctypes.c_size_t()
    _lib.call(lib.em_probs_text, sc.mech, 1 if log else 0, ctypes.byref(buf), ctypes.byref(size))
    try:
        text = ctypes.string_at(buf, size.value).decode()
    finally:
        lib.em_free(buf)
    lines = text.split("\n")[:-1]
    try:
        return list(map(decimal.Decimal, lines))
    except decimal.InvalidOperation:
        return [_dec(s, f"candidate {i}") for i, s in enumerate(lines)]


def probs(utilities: Sequence[Utility], epsilon: Exact, *, sensitivity: Exact = 1,
          variant: str = "standard", digits: int = 17, measure: Optional[Sequence[Exact]] = None,
          monotone: bool = False, force: bool = False) -> List[decimal.Decimal]:
    """Exact probabilities of the exponential mechanism, correctly rounded.

    P(r) = m_r exp(c u_r) / sum_j m_j exp(c u_j) with c = epsilon / (2 sensitivity)
    (variant "standard") or epsilon / sensitivity ("monotone": only with
    ``monotone=True``, which declares the score monotone, or ``force=True``); variant
    "pf" is permute-and-flip.  ``measure`` is an optional base measure (m_r >= 0).
    Each probability is rounded to nearest at ``digits`` significant digits; 0 and 1
    appear only when exact.  A probability below 1 that would round to 1 is returned as
    ``digits`` nines (its log-probability gives the distance).
    """
    return _probs(utilities, epsilon, sensitivity, variant, digits, measure, monotone, force, False)


def log_probs(utilities: Sequence[Utility], epsilon: Exact, *, sensitivity: Exact = 1,
              variant: str = "standard", digits: int = 17,
              measure: Optional[Sequence[Exact]] = None, monotone: bool = False,
              force: bool = False) -> List[decimal.Decimal]:
    """Natural logarithms of the probabilities of ``probs``, correctly rounded
    (``Decimal('-Infinity')`` for an excluded candidate)."""
    return _probs(utilities, epsilon, sensitivity, variant, digits, measure, monotone, force, True)


def _sample_opts(seed: Optional[int], sampler: str):
    o = _lib.SampleOpts()
    if seed is not None:
        if not isinstance(seed, numbers.Integral) or not 0 <= int(seed) < 2 ** 64:
            raise ValueError(f"seed {seed!r}: expected an integer from 0 to 2^64 - 1")
        o.seed, o.seeded = int(seed), 1
    if sampler not in _SAMPLERS:
        raise ValueError(f"sampler {sampler!r}: expected 'exact' or 'float'")
    o.sampler = _SAMPLERS[sampler]
    # the words of the command line's stderr, as warnings
    if sampler == "float":
        warnings.warn("sampler='float': the float path can break pure epsilon-DP (weights "
                      "that round to 0 on one neighbour only: infinite privacy loss); the "
                      "exact sampler (the default) does not", stacklevel=3)
    if seed is not None:
        warnings.warn(f"seed={int(seed)}: the draws are reproducible by anyone who knows the "
                      f"seed (for tests); leave seed out for private output", stacklevel=3)
    return o


def _count(n, what="n") -> int:
    if not isinstance(n, numbers.Integral) or isinstance(n, bool) or n < 0:
        raise ValueError(f"{what} {n!r}: expected an integer >= 0")
    return int(n)


def _draw(sc, o, k: int):
    """k >= 1 draws of sc's mechanism with sampler options o (one sampler, freed here)."""
    sp = _lib.new(lib.em_sampler_new, ctypes.c_void_p, sc.mech, ctypes.byref(o))
    try:
        out = (_lib.Draw * k)()
        _lib.call(lib.em_sampler_draw, sp, ctypes.c_size_t(k), out)
    finally:
        lib.em_free(sp)
    return out


def sample(utilities: Sequence[Utility], epsilon: Exact, n: int, *, seed: Optional[int] = None,
           sensitivity: Exact = 1, variant: str = "standard", sampler: str = "exact",
           measure: Optional[Sequence[Exact]] = None, monotone: bool = False,
           force: bool = False) -> List[int]:
    """n draws (0-based candidate indices) from the mechanism.

    The default sampler is exact (each draw has exactly the probability ``probs``
    gives); ``sampler="float"`` is the fast double-precision path.  With ``seed`` the
    draws are reproducible (ChaCha20 keyed by the seed, the same as ``expmech sample
    --seed``); without it they come from the operating system's CSPRNG, as privacy needs.
    """
    k = _count(n)
    sc = _Scenario.finite(utilities, measure,
                          **_opts(epsilon, sensitivity, variant, 17, monotone, force))
    o = _sample_opts(seed, sampler)
    if k == 0:
        return []  # as `expmech sample -n 0`: nothing asked, nothing drawn
    out = _draw(sc, o, k)
    return [d.index for d in out[:k]]


@dataclasses.dataclass(frozen=True)
class CheckRow:
    """One cell of the goodness-of-fit table: candidates first..last (0-based, inclusive;
    for a continuous check, the cell index), observed and expected counts."""
    first: int
    last: int
    observed: int
    expected: float


_VERDICTS = {0: "pass", 1: "reject", 2: "insufficient"}


@dataclasses.dataclass(frozen=True)
class CheckResult:
    """The verdict of a goodness-of-fit test of samples against the exact law.

    ``passed`` is true only for the verdict "pass"; "insufficient" means the draws were
    too few for the test to detect anything (``min_detectable`` says how large a
    departure would be detected with the stated power).  Truthiness is ``passed``.  On a
    reject, ``diagnosis`` says which known mistake's law the draws fit (``mistake``, with
    the p-value under that law ``mistake_p``), as ``expmech check`` does; the result prints
    as one sentence."""
    verdict: str
    statistic: float
    p_value: float
    df: int
    alpha: float
    min_detectable: float
    n: int
    table: List[CheckRow]
    diagnosis: Optional[str] = None
    mistake: Optional[str] = None
    mistake_p: Optional[float] = None

    @property
    def passed(self) -> bool:
        return self.verdict == "pass"

    def __bool__(self) -> bool:
        return self.passed

    def __str__(self) -> str:
        s = (f"{self.verdict} at alpha = {self.alpha:g}: G = {self.statistic:.4g} "
             f"(df {self.df}), p = {self.p_value:.3g}, {self.n} draws")
        return s + (f"; {self.diagnosis}" if self.diagnosis else "")


def _check_result(ptr) -> CheckResult:
    try:
        r = ptr.contents
        rows = [CheckRow(int(r.rows[i].first), int(r.rows[i].last), int(r.rows[i].observed),
                         float(r.rows[i].expected)) for i in range(r.nrows)]
        d = ctypes.cast(r.diagnosis, ctypes.POINTER(_lib.Diagnosis))
        diag = mistake = mp = None
        if d:
            d = d.contents
            diag = d.sentence.decode("utf-8", "replace")
            if d.best >= 0:
                mistake = lib.em_conform_name(_lib.NAME_MISTAKE, d.best).decode()
                mp = d.best_p
        return CheckResult(_VERDICTS.get(r.verdict, str(r.verdict)), r.statistic, r.p_value,
                           int(r.df), r.alpha, r.min_detectable, int(r.n), rows, diag, mistake,
                           mp)
    finally:
        lib.em_free(ptr)


def _check_opts(alpha, min_expected):
    o = _lib.CheckOpts()
    o.alpha, o.min_expected = float(alpha), float(min_expected)
    return o


def check(samples: Iterable[int], utilities: Sequence[Utility], epsilon: Exact, *,
          alpha: float = 1e-6, min_expected: float = 20, sensitivity: Exact = 1,
          variant: str = "standard", measure: Optional[Sequence[Exact]] = None,
          monotone: bool = False, force: bool = False) -> CheckResult:
    """Test samples (0-based candidate indices, e.g. from your own sampler) against the
    exact law: chi-square goodness of fit at significance ``alpha`` with cells merged
    until each expects ``min_expected`` draws.  Returns a CheckResult (truthy when passed).
    """
    sc = _Scenario.finite(utilities, measure,
                          **_opts(epsilon, sensitivity, variant, 17, monotone, force))
    size = sc.size()
    s = list(samples)
    arr = (_lib.Draw * max(len(s), 1))()
    for i, x in enumerate(s):
        if not isinstance(x, numbers.Integral) or isinstance(x, bool) or not 0 <= int(x) < size:
            raise ValueError(f"samples[{i}] = {x!r}: expected a candidate index from 0 to {size - 1}")
        arr[i].index = int(x)
    ptr = ctypes.POINTER(_lib.CheckResult)()
    _lib.call(lib.em_draws_check, sc.mech, ctypes.byref(_lib.draws(arr, len(s))),
              ctypes.byref(_check_opts(alpha, min_expected)), ctypes.byref(ptr))
    return _check_result(ptr)


@dataclasses.dataclass(frozen=True)
class CompareResult:
    """Claimed probabilities against the exact ones: ``passed`` when every one is within
    max(rtol * exact, atol); the worst candidate and the largest errors.  Truthiness is
    ``passed``."""
    passed: bool
    max_abs_error: float
    max_rel_error: float
    worst: int
    failures: int

    def __bool__(self) -> bool:
        return self.passed


def compare(probabilities: Sequence[float], utilities: Sequence[Utility], epsilon: Exact, *,
            rtol: float = 1e-9, atol: float = 2.0 ** -1074, sensitivity: Exact = 1,
            variant: str = "standard", measure: Optional[Sequence[Exact]] = None,
            monotone: bool = False, force: bool = False) -> CompareResult:
    """Compare another implementation's probabilities (doubles) with the exact ones."""
    sc = _Scenario.finite(utilities, measure,
                          **_opts(epsilon, sensitivity, variant, 17, monotone, force))
    given = [float(x) for x in probabilities]
    arr = (ctypes.c_double * max(len(given), 1))(*given)
    o = _lib.CompareOpts()
    o.rtol, o.atol = float(rtol), float(atol)
    ptr = ctypes.POINTER(_lib.CompareResult)()
    _lib.call(lib.em_compare, sc.mech, arr, ctypes.c_size_t(len(given)), None, ctypes.byref(o),
              ctypes.byref(ptr))
    try:
        r = ptr.contents
        return CompareResult(bool(r.passed), r.max_abs_error, r.max_rel_error, int(r.worst),
                             int(r.nfail))
    finally:
        lib.em_free(ptr)


class AuditLoss(decimal.Decimal):
    """The exact privacy loss (a Decimal: compares and computes as one) with the pair's
    bounded-range report beside it: ``width`` (sup ln(P/P') + sup ln(P'/P), a Decimal,
    ``Decimal('Infinity')`` when infinite), ``width_exact`` (True: correctly rounded as the
    loss is; False: the upper end of an enclosure, as for permute-and-flip) and ``rho``
    (width^2/8, the zCDP parameter the width implies for the exponential mechanism by
    Cesar and Rogers 2021, a published result not proven here; None for permute-and-flip,
    which is not bounded-range, and when the width is infinite)."""
    width: decimal.Decimal
    width_exact: bool
    rho: Optional[decimal.Decimal]


def audit(utilities: Sequence[Utility], utilities_neighbour: Sequence[Utility], epsilon: Exact,
          *, sensitivity: Exact = 1, variant: str = "standard", digits: int = 17,
          measure: Optional[Sequence[Exact]] = None, monotone: bool = False,
          force: bool = False) -> AuditLoss:
    """The exact privacy loss max_r |ln P(r) - ln P'(r)| between the mechanism on a
    dataset (``utilities``) and on a neighbour (``utilities_neighbour``), correctly rounded;
    the mechanism is epsilon-DP on this pair iff the loss is at most epsilon.  The result is
    a Decimal with the bounded-range ``width``, ``width_exact`` and ``rho`` (AuditLoss)."""
    o = _opts(epsilon, sensitivity, variant, digits, monotone, force)
    x = _Scenario.finite(utilities, measure, **o)
    y = _Scenario.finite(utilities_neighbour, measure, **o)
    ptr = ctypes.POINTER(_lib.AuditResult)()
    _lib.call(lib.em_audit, x.mech, y.mech, None, None, ctypes.c_double(0), ctypes.byref(ptr))
    try:
        r = ptr.contents
        out = AuditLoss(_dec(r.loss.decode(), "audit"))
        out.width = _dec(r.width.decode(), "audit width")
        out.width_exact = bool(r.width_exact)
        out.rho = _dec(r.rho.decode(), "audit rho") if r.rho else None
        return out
    finally:
        lib.em_free(ptr)


def utility(utilities: Sequence[Utility], epsilon: Exact, *, loss_at=(),
            sensitivity: Exact = 1, variant: str = "standard", digits: int = 17,
            measure: Optional[Sequence[Exact]] = None, monotone: bool = False,
            force: bool = False) -> dict:
    """The exact utility report of the mechanism (as ``expmech utility``), correctly rounded:
    ``opt`` (the largest utility), ``expected_utility``, ``expected_loss`` (opt - E[u]),
    ``sd_loss``, ``p_best`` (P(u = opt); below 1 but rounding to 1: ``digits`` nines), and
    the accuracy theorem's ``expected_loss_bound``.  For each threshold T in ``loss_at``,
    ``p_loss_gt`` and ``bound_p_loss_gt`` map T (as given) to P(loss > T) and to its bound
    min(1, |R|/|R_OPT| e^(-cT)).  Variants: standard, monotone, pf."""
    sc = _Scenario.finite(utilities, measure,
                          **_opts(epsilon, sensitivity, variant, digits, monotone, force))
    loss_at = list(loss_at)
    ts = (ctypes.c_char_p * max(len(loss_at), 1))(*[_text(t, "loss_at").encode()
                                                    for t in loss_at])
    o = _lib.UtilityOpts(len(loss_at), ts, 0, None)
    ptr = ctypes.POINTER(_lib.UtilityResult)()
    _lib.call(lib.em_utility, sc.mech, ctypes.byref(o), ctypes.byref(ptr))
    try:
        r = ptr.contents
        out = {k: _dec(getattr(r, k).decode(), k)
               for k in ("opt", "expected_utility", "expected_loss", "sd_loss", "p_best",
                         "expected_loss_bound")}
        out["p_loss_gt"] = {t: _dec(r.p_loss_gt[i].decode(), "p_loss_gt")
                            for i, t in enumerate(loss_at)}
        out["bound_p_loss_gt"] = {t: _dec(r.p_bound[i].decode(), "bound_p_loss_gt")
                                  for i, t in enumerate(loss_at)}
    finally:
        lib.em_free(ptr)
    return out


def _scalar(x) -> bool:
    """One point, or several: a list, a tuple, a numpy array or any other iterable (a
    0-d numpy array and a str are one point)."""
    if isinstance(x, (str, bytes)) or not hasattr(x, "__iter__"):
        return True
    return getattr(x, "ndim", 1) == 0


# em_law_at's kinds (src/include/em_law.h)
_LAW_CDF, _LAW_DENSITY, _LAW_QUANTILE = 0, 1, 2


def _pointwise(what, pieces, epsilon, at, sensitivity, digits, monotone, force):
    sc = _Scenario.pieces(pieces, **_opts(epsilon, sensitivity, "standard", digits, monotone, force))
    single = _scalar(at)
    pts = [at] if single else list(at)
    out = []
    for k, x in enumerate(pts):
        ptr = ctypes.c_void_p()
        # no y (an interval's), no log density (NULL)
        _lib.call(lib.em_law_at, sc.mech, what, _text(x, f"at[{k}]").encode(), None,
                  ctypes.byref(ptr), None)
        try:
            out.append(_dec(ctypes.cast(ptr, ctypes.c_char_p).value.decode(), f"at[{k}]"))
        finally:
            lib.em_free(ptr)
    return out[0] if single else out


def cdf(pieces: Sequence[Piece], epsilon: Exact, at, *, sensitivity: Exact = 1, digits: int = 17,
        monotone: bool = False, force: bool = False):
    """P(X <= at) for the mechanism over a continuous range, correctly rounded.  ``pieces``
    are (lo, hi, a, b) with utility a + b r on [lo, hi], tiling the range (lo of the first
    may be "-inf", hi of the last "inf").  ``at``: one point (-> Decimal) or a list."""
    return _pointwise(_LAW_CDF, pieces, epsilon, at, sensitivity, digits, monotone, force)


def density(pieces: Sequence[Piece], epsilon: Exact, at, *, sensitivity: Exact = 1,
            digits: int = 17, monotone: bool = False, force: bool = False):
    """The density of the output at ``at`` (one point or a list), correctly rounded."""
    return _pointwise(_LAW_DENSITY, pieces, epsilon, at, sensitivity, digits, monotone, force)


def quantile(pieces: Sequence[Piece], epsilon: Exact, p, *, sensitivity: Exact = 1,
             digits: int = 17, monotone: bool = False, force: bool = False):
    """The p-quantile of the output (p in (0, 1); one value or a list), correctly rounded."""
    for x in ([p] if _scalar(p) else p):
        try:
            f = fractions.Fraction(x) if not isinstance(x, bool) else None
        except (TypeError, ValueError):
            f = None  # a form only the library reads (hex): it says what is wrong
        if f is not None and not 0 <= f <= 1:
            raise ValueError(f"quantile(p={x!r}): p must be in [0, 1]")
    return _pointwise(_LAW_QUANTILE, pieces, epsilon, p, sensitivity, digits, monotone, force)


def sample_continuous(pieces: Sequence[Piece], epsilon: Exact, n: int, *,
                      seed: Optional[int] = None, sensitivity: Exact = 1,
                      sampler: str = "exact", monotone: bool = False,
                      force: bool = False) -> List[float]:
    """n draws from the mechanism over a continuous range, as floats."""
    k = _count(n)
    sc = _Scenario.pieces(pieces, **_opts(epsilon, sensitivity, "standard", 17, monotone, force))
    o = _sample_opts(seed, sampler)
    if k == 0:
        return []
    out = _draw(sc, o, k)
    return [d.value for d in out[:k]]


def check_continuous(samples: Iterable[float], pieces: Sequence[Piece], epsilon: Exact, *,
                     alpha: float = 1e-6, min_expected: float = 20, sensitivity: Exact = 1,
                     monotone: bool = False, force: bool = False) -> CheckResult:
    """Test draws from your sampler over a continuous range against the exact law."""
    sc = _Scenario.pieces(pieces, **_opts(epsilon, sensitivity, "standard", 17, monotone, force))
    s = [float(x) for x in samples]
    arr = (_lib.Draw * max(len(s), 1))()
    for i, x in enumerate(s):
        arr[i].value = x
    ptr = ctypes.POINTER(_lib.CheckResult)()
    _lib.call(lib.em_draws_check, sc.mech, ctypes.byref(_lib.draws(arr, len(s))),
              ctypes.byref(_check_opts(alpha, min_expected)), ctypes.byref(ptr))
    return _check_result(ptr)


from ._conform import conform, Case, ConformReport, ConformCase  # noqa: E402
