"""The conformance suite from Python: ``conform(sampler)`` runs a sampler on every case of
the battery (conformance/cases/) through the library's harness (em_conform_run): the same
cases, levels, verdicts and diagnosis as ``expmech conform``.

    import expmech
    def my_sampler(case, n, seed):        # n draws of the case's law
        ...
    assert expmech.conform(my_sampler, kinds={"finite"})

``sampler`` is a callable ``sampler(case, n, seed)`` returning n draws: candidate indices
(ints) or labels (str) for the kinds finite, weighted and pf, numbers for continuous,
quantile and laplace; raising ``NotImplementedError`` skips the case, raising
``ValueError`` refuses it (what a correct sampler does on the cases whose ``expect`` is
"error"; on another case a refusal is a crash).  ``sampler`` may also be a command (a
string, or a list of words) speaking the protocol of ``expmech conform``.
"""
from __future__ import annotations

import ctypes
import dataclasses
import math
import numbers
import os
import time
import traceback
from fractions import Fraction
from typing import Callable, Iterable, List, Optional, Sequence, Union

from . import _lib
from ._lib import lib

__all__ = ["conform", "Case", "ConformReport", "ConformCase", "KINDS", "MISTAKES"]

KINDS = ("finite", "weighted", "pf", "continuous", "quantile", "laplace")
# the identifiers of em_conform.h's EM_MISTAKE_* (checked against the library by the tests)
MISTAKES = ("eps_not_halved", "eps_doubled", "delta_ignored", "measure_ignored", "pf_for_em",
            "em_for_pf", "negated", "uniform", "argmax", "laplace_scale", "uniform_in_pieces")
_FAILURES = {"reject", "impossible draw", "crash", "timeout", "malformed output",
             "accepted invalid input"}
_RUN_EXITED, _RUN_EXCEPTION = 0, 5
_VARIANTS = {0: "standard", 1: "monotone", 2: "pf"}


def _exact(text: bytes):
    """An exact number of a case as a Fraction; -inf, inf and nan as floats."""
    t = text.decode().strip().lower()
    if t in ("-inf", "-infinity"):
        return -math.inf
    if t in ("inf", "+inf", "infinity"):
        return math.inf
    if t == "nan":
        return math.nan
    if "0x" in t:
        return Fraction(float.fromhex(t))
    try:
        return Fraction(t)
    except (ValueError, ZeroDivisionError):
        return math.nan


def _strs(arr, n) -> list:
    return [arr[i].decode("utf-8", "surrogateescape") for i in range(n)] if arr else []


@dataclasses.dataclass
class Case:
    """One case of the battery, with its numbers exact (``Fraction``; ``-inf`` for an
    excluded candidate or a ray's end, ``nan`` only in cases a sampler must refuse)."""
    id: str
    title: str
    kind: str
    expect: str                  # "law", or "error": a correct sampler refuses the case
    epsilon: object
    sensitivity: object          # Delta (Delta_f for laplace)
    variant: str                 # "standard", "monotone" or "pf"
    labels: List[str]
    utilities: list
    measure: Optional[list]
    pieces: list                 # (lo, hi, a, b): u = a + b r on [lo, hi]; for quantile and
                                 # laplace the pieces of the law
    data: list
    alpha: object
    bounds: Optional[tuple]
    f: object
    catches: List[str]           # the mistakes the case is made to expose
    path: Optional[str]

    @property
    def finite(self) -> bool:
        return self.kind in ("finite", "weighted", "pf")

    @classmethod
    def _from_c(cls, c) -> "Case":
        def num(b):
            return _exact(b) if b else None

        def nums(arr, n):
            return [_exact(arr[i]) for i in range(n)] if arr else []

        pieces = list(zip(nums(c.lo, c.npieces), nums(c.hi, c.npieces), nums(c.a, c.npieces),
                          nums(c.b, c.npieces)))
        return cls(
            id=c.id.decode(), title=c.title.decode(), kind=KINDS[c.kind],
            expect="error" if c.expect_error else "law",
            epsilon=num(c.epsilon), sensitivity=num(c.sensitivity),
            variant=_VARIANTS.get(c.variant, str(c.variant)),
            labels=_strs(c.labels, c.n), utilities=nums(c.utilities, c.n),
            measure=nums(c.measure, c.n) if c.measure else None, pieces=pieces,
            data=nums(c.data, c.ndata), alpha=num(c.alpha),
            bounds=(num(c.bound_lo), num(c.bound_hi)) if c.bound_lo else None,
            f=num(c.f),
            catches=[lib.em_conform_name(_lib.NAME_MISTAKE, c.catches[k]).decode() for k in range(c.ncatches)],
            path=c.file.decode() if c.file else None)


@dataclasses.dataclass(frozen=True)
class ConformCase:
    """The verdict on one case."""
    id: str
    title: str
    kind: Optional[str]
    expect: str
    verdict: str            # pass, reject, impossible draw, crash, timeout, malformed output,
                            # accepted invalid input, skipped, undecided, bad case file
    draws: int
    p_value: float
    power: float
    message: str
    diagnosis: Optional[str]
    mistake: Optional[str]  # the known mistake whose law the draws fit best, if any
    stderr: str

    @property
    def failed(self) -> bool:
        return self.verdict in _FAILURES

    def __str__(self) -> str:
        what = self.diagnosis if self.diagnosis else self.message
        return f"{self.id} {self.verdict}" + (f": {what}" if what else "")


class ConformReport:
    """The suite's result: truthy when every case run passed; prints as the table."""

    def __init__(self, cases, table, summary, diagnosis, suspects, exit_status, counts):
        self.cases: List[ConformCase] = cases
        self.table: str = table
        self.summary: str = summary
        self.diagnosis: str = diagnosis
        self.suspects: List[str] = suspects
        self.exit_status: int = exit_status
        self.counts: dict = counts

    @property
    def failures(self) -> List[ConformCase]:
        return [c for c in self.cases if c.failed]

    def __bool__(self) -> bool:
        return self.exit_status == 0

    def __str__(self) -> str:
        return self.table

    __repr__ = __str__


def _default_cases() -> str:
    env = os.environ.get("EXPMECH_CASES")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for d in (os.path.join(here, "..", "..", "conformance", "cases"),
              os.path.join(here, "conformance", "cases"), os.path.join("conformance", "cases")):
        if os.path.isdir(d):
            return os.path.normpath(d)
    raise ValueError("cases: no battery found (give cases=DIR, or set EXPMECH_CASES)")


def _draws_text(case: Case, draws) -> bytes:
    if hasattr(draws, "tolist"):  # a numpy array: plain ints and floats, at once
        draws = draws.tolist()
    draws = list(draws)
    out = None
    if case.finite:
        labels, n = case.labels, len(case.labels)
        if all(type(d) is int for d in draws) and (not draws or (min(draws) >= 0 and max(draws) < n)):
            out = [labels[d] for d in draws]
        else:
            out = []
            for d in draws:
                if isinstance(d, str):
                    out.append(d)
                elif isinstance(d, bytes):
                    out.append(d.decode("utf-8", "surrogateescape"))
                elif isinstance(d, numbers.Integral) and not isinstance(d, bool) and 0 <= d < n:
                    out.append(labels[int(d)])
                else:
                    out.append(str(d))
    else:
        try:
            out = list(map(repr, map(float, draws)))
        except (TypeError, ValueError):
            out = [repr(float(x)) if isinstance(x, numbers.Real) else str(x) for x in draws]
    text = "\n".join(out)
    return (text + "\n" if out else "").encode("utf-8", "surrogateescape")


def _opts(cases, kinds, quick, max_draws, timeout, seed, alpha):
    o = _lib.ConformOpts()
    o.cases = (cases if cases is not None else _default_cases()).encode()
    mask = 0
    for k in (kinds or ()):
        if k not in KINDS:
            raise ValueError(f"kinds: unknown kind {k!r} (expected some of {', '.join(KINDS)})")
        mask |= 1 << KINDS.index(k)
    o.kinds = mask
    o.quick = 1 if quick else 0
    if not isinstance(max_draws, numbers.Integral) or not 1 <= max_draws <= 2 ** 32:
        raise ValueError(f"max_draws {max_draws!r}: expected an integer from 1 to 2^32")
    o.max_draws = int(max_draws)
    o.timeout = float(timeout)
    o.seed = int(seed)
    o.alpha = float(alpha)
    return o


def _result(ptr) -> ConformReport:
    r = ptr.contents
    cases = []
    for i in range(r.ncases):
        c = r.cases[i]
        d = c.diagnosis.contents if c.diagnosis else None
        cases.append(ConformCase(
            id=c.id.decode("utf-8", "replace"), title=c.title.decode("utf-8", "replace"),
            kind=KINDS[c.kind] if 0 <= c.kind < len(KINDS) else None,
            expect="error" if c.expect_error else "law",
            verdict=lib.em_conform_name(_lib.NAME_VERDICT, c.verdict).decode(), draws=int(c.n),
            p_value=c.p_value, power=c.power, message=c.message.decode("utf-8", "replace"),
            diagnosis=d.sentence.decode("utf-8", "replace") if d else None,
            mistake=MISTAKES[d.best] if d and d.best >= 0 else None,
            stderr=c.stderr_tail.decode("utf-8", "replace")))
    table = _table(ptr)
    counts = {lib.em_conform_name(_lib.NAME_VERDICT, v).decode(): int(r.count[v]) for v in range(10)}
    suspects = [MISTAKES[m] for m in range(len(MISTAKES)) if r.suspects >> m & 1]
    return ConformReport(cases, table, r.summary.decode("utf-8", "replace"),
                         r.diagnosis.decode("utf-8", "replace"), suspects, int(r.exit_status),
                         counts)


def _table(ptr) -> str:
    """The result as em_write writes it as text, through a memory stream."""
    libc = ctypes.CDLL(None)
    libc.open_memstream.restype = ctypes.c_void_p
    libc.open_memstream.argtypes = [ctypes.POINTER(ctypes.c_void_p),
                                    ctypes.POINTER(ctypes.c_size_t)]
    libc.fclose.argtypes = [ctypes.c_void_p]
    libc.free.argtypes = [ctypes.c_void_p]
    buf, size = ctypes.c_void_p(), ctypes.c_size_t()
    f = libc.open_memstream(ctypes.byref(buf), ctypes.byref(size))
    if not f:
        raise MemoryError("out of memory")
    try:
        _lib.call(lib.em_write, ctypes.cast(ptr, ctypes.c_void_p), ctypes.c_void_p(f), None)
    finally:
        libc.fclose(ctypes.c_void_p(f))  # sets buf and size
        text = ctypes.string_at(buf, size.value) if buf else b""
        libc.free(buf)
    return text.decode("utf-8", "replace")


def _write_report(ptr, path: str) -> None:
    libc = ctypes.CDLL(None)
    libc.fopen.restype = ctypes.c_void_p
    libc.fopen.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    libc.fclose.argtypes = [ctypes.c_void_p]
    f = libc.fopen(os.fsencode(path), b"w")
    if not f:
        raise OSError(f"report: cannot open {path}")
    try:
        _lib.call(lib.em_write, ctypes.cast(ptr, ctypes.c_void_p), ctypes.c_void_p(f),
                  ctypes.byref(_lib.WriteOpts(format=_lib.WRITE_JSON)))
    finally:
        if libc.fclose(ctypes.c_void_p(f)) != 0:
            raise OSError(f"report: cannot write {path}")


def _run_command(argv: Sequence[str], o) -> ctypes.POINTER:
    words = [os.fsencode(w) for w in argv] + [None]
    arr = (ctypes.c_char_p * len(words))(*words)
    ptr = ctypes.POINTER(_lib.ConformResult)()
    _lib.call(lib.em_conform_command, ctypes.byref(o), arr, ctypes.byref(ptr))
    return ptr


def _set_output(o, which: str, data: bytes) -> bool:
    """o.out or o.err (which) set to a copy of data that the library frees: malloc'd by the
    C library it is linked with, NUL-terminated (em_run_output, src/include/em_conform.h);
    False when out of memory."""
    libc = ctypes.CDLL(None)
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    buf = libc.malloc(len(data) + 1)
    if not buf:
        return False
    ctypes.memmove(buf, data + b"\0", len(data) + 1)
    libc.free(getattr(o, which))  # a second setting replaces the first
    setattr(o, which, buf)
    setattr(o, which + "_len", len(data))
    return True


def _run_callable(sampler: Callable, o) -> ctypes.POINTER:
    made = {}

    def run(_ctx, cptr, n, seed, _max_bytes, optr):
        o_ = optr.contents
        t0 = time.perf_counter()
        try:
            key = ctypes.addressof(cptr.contents)
            case = made.get(key)
            if case is None:
                made.clear()  # one case at a time: its runs share it
                case = made[key] = Case._from_c(cptr.contents)
            try:
                draws = sampler(case, int(n), int(seed))
                text = _draws_text(case, draws)
                o_.how, o_.code = _RUN_EXITED, 0
                if not _set_output(o_, "out", text):
                    return _lib.EM_ERR_NOMEM
            except NotImplementedError as e:
                o_.how, o_.code = _RUN_EXITED, 77
                msg = f"not done here: {e}".encode("utf-8", "replace")
                _set_output(o_, "err", msg)
            except ValueError as e:  # a refusal
                o_.how, o_.code = _RUN_EXITED, 1
                msg = f"refused: {e}".encode("utf-8", "replace")
                _set_output(o_, "err", msg)
            except MemoryError:
                return _lib.EM_ERR_NOMEM
            except Exception:  # noqa: BLE001 - any other failure is the sampler's crash
                o_.how, o_.code = _RUN_EXCEPTION, 0
                msg = traceback.format_exc().encode("utf-8", "replace")
                _set_output(o_, "err", msg)
        except Exception:  # noqa: BLE001 - never let an exception cross into C
            return _lib.EM_ERR_NOMEM
        o_.seconds = time.perf_counter() - t0
        return 0

    fn = _lib.SamplerFn(run)
    ptr = ctypes.POINTER(_lib.ConformResult)()
    _lib.call(lib.em_conform_run, ctypes.byref(o), fn, None, ctypes.byref(ptr))
    return ptr


def conform(sampler: Union[Callable, str, Sequence[str]], kinds: Optional[Iterable[str]] = None,
            quick: bool = False, max_draws: int = 10 ** 6, *, cases: Optional[str] = None,
            timeout: float = 600, seed: int = 1, alpha: float = 1e-6,
            report: Optional[str] = None, figures: Optional[str] = None) -> ConformReport:
    """Run ``sampler`` on every case of the battery (``cases``: a directory of case files or
    one file; default: the checkout's conformance/cases, or $EXPMECH_CASES) and judge its
    draws: runs of 10^4, 10^5, ... draws up to ``max_draws`` (``quick``: the quick cases,
    one run of 10^4), each case at level ``alpha`` / cases, passing only with power >= 0.99
    against the mistakes it catches.  ``report``: also write the JSON report there;
    ``figures``: a directory, made when missing, for FIGURES/ID.svg of each rejected case
    (em_conform_figures: its expected and observed counts per cell as bars, by gnuplot); a
    figure not drawn is said in the result's ``figures_error`` (else None), as the run stands.
    Returns a ConformReport: truthy when every case run passed, printing as the table,
    with ``.failures`` (the failed cases, each naming its mistake where one fits)."""
    o = _opts(cases, kinds, quick, max_draws, timeout, seed, alpha)
    if isinstance(sampler, (str, bytes)):
        words = ctypes.POINTER(ctypes.c_char_p)()
        _lib.call(lib.em_command_split, os.fsencode(sampler), ctypes.byref(words))
        try:
            argv = []
            while words[len(argv)] is not None:
                argv.append(words[len(argv)].decode("utf-8", "surrogateescape"))
        finally:
            lib.em_free(words)
        ptr = _run_command(argv, o)
    elif callable(sampler):
        ptr = _run_callable(sampler, o)
    elif isinstance(sampler, (list, tuple)) and sampler:
        ptr = _run_command([str(w) for w in sampler], o)
    else:
        raise TypeError("sampler: expected a callable sampler(case, n, seed) or a command")
    try:
        if report:
            _write_report(ptr, report)
        r = _result(ptr)
        r.figures_error = None
        try:
            if figures:
                _lib.call(lib.em_conform_figures, ptr, os.fsencode(figures))
        except ValueError as e:
            r.figures_error = str(e)
        return r
    finally:
        lib.em_free(ptr)
