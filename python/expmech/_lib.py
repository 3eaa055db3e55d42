"""Loading libexpmech and declaring the C API for ctypes (src/include/em_*.h).

The structures mirror the public headers: the prefix of each that is read here, and the
whole of em_check_row (an array: its size is the stride).  python/tests/test_layout.py
compiles the headers and compares every size and offset, so a header change that is not
mirrored here fails ``make check``."""
from __future__ import annotations

import ctypes
import ctypes.util
import os

_SONAME = "libexpmech.so.0"


def _candidates():
    env = os.environ.get("EXPMECH_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    # a checkout: python/expmech/ beside build/
    yield os.path.join(here, "..", "..", "build", _SONAME)
    try:
        from . import _config  # written by `make install`
        yield os.path.join(_config.LIBDIR, _SONAME)
    except ImportError:
        pass
    yield _SONAME
    found = ctypes.util.find_library("expmech")
    if found:
        yield found


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
    raise ImportError("expmech: cannot load libexpmech (run `make`, or set EXPMECH_LIB); tried: "
                      + "; ".join(tried))


lib = _load()

ERRLEN = 512
EM_ERR_NOMEM = 11


class Error(ctypes.Structure):
    _fields_ = [("status", ctypes.c_int), ("msg", ctypes.c_char * ERRLEN)]


class Opts(ctypes.Structure):
    _fields_ = [("epsilon", ctypes.c_char_p), ("sensitivity", ctypes.c_char_p),
                ("variant", ctypes.c_int), ("force", ctypes.c_int), ("digits", ctypes.c_int)]


class Prob(ctypes.Structure):
    _fields_ = [("prob", ctypes.c_char_p), ("logprob", ctypes.c_char_p),
                ("prob_d", ctypes.c_double), ("logprob_d", ctypes.c_double),
                ("flags", ctypes.c_uint)]


class SampleOpts(ctypes.Structure):
    _fields_ = [("seed", ctypes.c_uint64), ("seeded", ctypes.c_int), ("sampler", ctypes.c_int),
                ("timing", ctypes.c_int)]


class CheckOpts(ctypes.Structure):
    _fields_ = [("alpha", ctypes.c_double), ("min_expected", ctypes.c_double)]


class CheckRow(ctypes.Structure):
    _fields_ = [("first", ctypes.c_size_t), ("last", ctypes.c_size_t),
                ("observed", ctypes.c_uint64), ("expected", ctypes.c_double),
                ("probability", ctypes.c_double), ("std_resid", ctypes.c_double),
                ("count", ctypes.c_size_t), ("pool", ctypes.c_size_t),
                ("lo", ctypes.c_double), ("hi", ctypes.c_double),
                ("from_breakpoint", ctypes.c_int)]


class CheckResult(ctypes.Structure):
    _fields_ = [("verdict", ctypes.c_int), ("statistic", ctypes.c_double),
                ("p_value", ctypes.c_double), ("min_detectable", ctypes.c_double),
                ("alpha", ctypes.c_double), ("df", ctypes.c_size_t), ("n", ctypes.c_uint64),
                ("nrows", ctypes.c_size_t), ("rows", ctypes.POINTER(CheckRow))]


class CompareOpts(ctypes.Structure):
    _fields_ = [("rtol", ctypes.c_double), ("atol", ctypes.c_double)]


class CompareResult(ctypes.Structure):
    _fields_ = [("passed", ctypes.c_int), ("max_abs_error", ctypes.c_double),
                ("max_rel_error", ctypes.c_double), ("worst", ctypes.c_size_t),
                ("nfail", ctypes.c_size_t)]


class AuditResult(ctypes.Structure):
    _fields_ = [("loss", ctypes.c_char_p), ("loss_d", ctypes.c_double), ("within", ctypes.c_int)]


class UtilityResult(ctypes.Structure):
    _fields_ = [("opt", ctypes.c_char_p), ("expected_utility", ctypes.c_char_p),
                ("expected_loss", ctypes.c_char_p), ("sd_loss", ctypes.c_char_p),
                ("p_best", ctypes.c_char_p)]


_P = ctypes.c_void_p
_S = ctypes.c_char_p
_E = ctypes.POINTER(Error)
_SZ = ctypes.c_size_t
_STRS = ctypes.POINTER(ctypes.c_char_p)

_PROTOS = {
    "em_version": (_S, []),
    "em_free": (None, [_P]),
    "em_scn_new": (ctypes.c_int, [_SZ, _STRS, _STRS, _STRS, ctypes.POINTER(_P), _E]),
    "em_scn_new_d": (ctypes.c_int, [_SZ, ctypes.POINTER(ctypes.c_double),
                                    ctypes.POINTER(ctypes.c_double), ctypes.POINTER(_P), _E]),
    "em_probs_text": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                                     ctypes.POINTER(_SZ), _E]),
    "em_scn_new_pieces": (ctypes.c_int, [_SZ, _STRS, _STRS, _STRS, _STRS, ctypes.POINTER(_P), _E]),
    "em_scn_declare": (ctypes.c_int, [_P, _S, ctypes.c_int, _E]),
    "em_scn_free": (None, [_P]),
    "em_scn_size": (_SZ, [_P]),
    "em_mech_new": (ctypes.c_int, [_P, ctypes.POINTER(Opts), ctypes.POINTER(_P), _E]),
    "em_mech_free": (None, [_P]),
    "em_probs_get": (ctypes.c_int, [_P, _SZ, ctypes.POINTER(Prob), _E]),
    "em_sample": (ctypes.c_int, [_P, ctypes.POINTER(SampleOpts), _SZ, ctypes.POINTER(_SZ), _E]),
    "em_sample_cont": (ctypes.c_int, [_P, ctypes.POINTER(SampleOpts), _SZ,
                                      ctypes.POINTER(ctypes.c_double), _E]),
    "em_cdf": (ctypes.c_int, [_P, _S, ctypes.POINTER(_P), _E]),
    "em_density": (ctypes.c_int, [_P, _S, ctypes.POINTER(_P), _E]),
    "em_quantile": (ctypes.c_int, [_P, _S, ctypes.POINTER(_P), _E]),
    "em_check": (ctypes.c_int, [_P, ctypes.POINTER(_SZ), _SZ, ctypes.POINTER(CheckOpts),
                                ctypes.POINTER(ctypes.POINTER(CheckResult)), _E]),
    "em_check_cont": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_double), _SZ,
                                     ctypes.POINTER(CheckOpts),
                                     ctypes.POINTER(ctypes.POINTER(CheckResult)), _E]),
    "em_check_result_free": (None, [ctypes.POINTER(CheckResult)]),
    "em_compare": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_double), _SZ,
                                  ctypes.POINTER(CompareOpts),
                                  ctypes.POINTER(ctypes.POINTER(CompareResult)), _E]),
    "em_compare_result_free": (None, [ctypes.POINTER(CompareResult)]),
    "em_audit": (ctypes.c_int, [_P, _P, ctypes.POINTER(ctypes.POINTER(AuditResult)), _E]),
    "em_audit_result_free": (None, [ctypes.POINTER(AuditResult)]),
    "em_utility": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.POINTER(UtilityResult)), _E]),
    "em_utility_result_free": (None, [ctypes.POINTER(UtilityResult)]),
    "em_loss_tail": (ctypes.c_int, [_P, _S, ctypes.POINTER(_P), _E]),
    "em_loss_bounds": (ctypes.c_int, [_P, _S, ctypes.POINTER(_P), ctypes.POINTER(_P), _E]),
}

for _name, (_res, _args) in _PROTOS.items():
    try:
        _f = getattr(lib, _name)
    except AttributeError:  # an older library: the function raises when called
        continue
    _f.restype = _res
    _f.argtypes = _args


def call(fn, *args):
    """Call fn(*args, &err); raise ValueError (MemoryError when out of memory) with the
    library's message unless it returns EM_OK."""
    err = Error()
    st = fn(*args, ctypes.byref(err))
    if st != 0:
        msg = err.msg.decode("utf-8", "replace") or f"expmech: status {st}"
        raise (MemoryError if st == EM_ERR_NOMEM else ValueError)(msg)


def new(fn, ctype, *args):
    """Call a constructor fn(*args, &out, &err) and return out."""
    out = ctype()
    call(fn, *args, ctypes.byref(out))
    return out
