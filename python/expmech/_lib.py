"""Loading libexpmech and declaring the C API for ctypes (src/include/em_*.h).

The structures mirror the public headers: the prefix of each that is read here, and the
whole of em_check_row (an array: its size is the stride).  python/tests/test_layout.py
compiles the headers and compares every size and offset, so a header change that is not
mirrored here fails ``make check``."""
from __future__ import annotations

import ctypes
import ctypes.util
import os

_SONAME = "libexpmech.so.1"


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


class ScnInfo(ctypes.Structure):
    _fields_ = [("size", ctypes.c_size_t), ("pieces", ctypes.c_size_t), ("continuous", ctypes.c_int),
                ("has_measure", ctypes.c_int), ("name", ctypes.c_char_p)]


class WriteOpts(ctypes.Structure):
    _fields_ = [("format", ctypes.c_int), ("sweep_i", ctypes.c_size_t), ("sweep_n", ctypes.c_size_t),
                ("epsilon", ctypes.c_char_p), ("terminal", ctypes.c_int),
                ("comments", ctypes.POINTER(ctypes.c_char_p)), ("n_comments", ctypes.c_size_t),
                ("notes", ctypes.c_void_p), ("draws", ctypes.c_uint64),
                ("done", ctypes.POINTER(ctypes.c_uint64)), ("dir", ctypes.c_char_p),
                ("points", ctypes.c_void_p), ("law", ctypes.c_int)]


WRITE_JSON = 2


class ScnSpec(ctypes.Structure):
    _fields_ = [("n", ctypes.c_size_t), ("utilities", ctypes.POINTER(ctypes.c_char_p)),
                ("labels", ctypes.POINTER(ctypes.c_char_p)),
                ("measure", ctypes.POINTER(ctypes.c_char_p)),
                ("utilities_d", ctypes.POINTER(ctypes.c_double)),
                ("measure_d", ctypes.POINTER(ctypes.c_double)),
                ("lo", ctypes.POINTER(ctypes.c_char_p)), ("hi", ctypes.POINTER(ctypes.c_char_p)),
                ("a", ctypes.POINTER(ctypes.c_char_p)), ("b", ctypes.POINTER(ctypes.c_char_p)),
                ("path", ctypes.c_char_p), ("text", ctypes.c_char_p), ("len", ctypes.c_size_t),
                ("name", ctypes.c_char_p)]


class Draw(ctypes.Structure):
    _fields_ = [("index", ctypes.c_size_t), ("value", ctypes.c_double)]


class Draws(ctypes.Structure):
    _fields_ = [("draw", ctypes.POINTER(Draw)), ("n", ctypes.c_size_t),
                ("counts", ctypes.POINTER(ctypes.c_uint64)), ("path", ctypes.c_char_p),
                ("samples_are", ctypes.c_int)]


def draws(arr, n):
    """An em_draws of the n draws in arr (an array of Draw)."""
    d = Draws()
    d.draw = ctypes.cast(arr, ctypes.POINTER(Draw))
    d.n = n
    return d


class CheckOpts(ctypes.Structure):
    _fields_ = [("alpha", ctypes.c_double), ("min_expected", ctypes.c_double),
                ("skip_diagnosis", ctypes.c_int)]


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
                ("nrows", ctypes.c_size_t), ("rows", ctypes.POINTER(CheckRow)),
                # the rest of em_check_result, to reach its diagnosis (NULL when it passed)
                ("min_expected", ctypes.c_double), ("reasons", ctypes.c_uint),
                ("ncells", ctypes.c_size_t), ("pearson_x2", ctypes.c_double),
                ("max_std_resid", ctypes.c_double), ("tail_p", ctypes.c_double),
                ("cand_p", ctypes.c_double), ("cand_index", ctypes.c_size_t),
                ("cand_alpha", ctypes.c_double), ("ncand", ctypes.c_size_t),
                ("nzero", ctypes.c_size_t), ("cell_of", ctypes.POINTER(ctypes.c_size_t)),
                ("support_index", ctypes.c_size_t), ("support_count", ctypes.c_uint64),
                ("nbreak", ctypes.c_size_t), ("nquantile", ctypes.c_size_t),
                ("quantile_bins", ctypes.c_int), ("first_outside", ctypes.c_size_t),
                ("outside_value", ctypes.c_double), ("outside_line", ctypes.c_ulong),
                ("ks_d", ctypes.c_double), ("ks_x", ctypes.c_double), ("ks_side", ctypes.c_int),
                ("ks_n", ctypes.c_uint64), ("ks_p", ctypes.c_double),
                ("ks_p_upper", ctypes.c_double), ("ks_approximate", ctypes.c_int),
                ("ks_method", ctypes.c_char_p), ("diagnosis", ctypes.c_void_p)]


class CompareOpts(ctypes.Structure):
    _fields_ = [("rtol", ctypes.c_double), ("atol", ctypes.c_double)]


class CompareResult(ctypes.Structure):
    _fields_ = [("passed", ctypes.c_int), ("max_abs_error", ctypes.c_double),
                ("max_rel_error", ctypes.c_double), ("worst", ctypes.c_size_t),
                ("nfail", ctypes.c_size_t)]


_S = ctypes.c_char_p


class AuditBlock(ctypes.Structure):  # em_audit_block (src/include/em_judge.h)
    _fields_ = [("computed", ctypes.c_int), ("beyond_range", ctypes.c_int), ("verdict", ctypes.c_int),
                ("equal", ctypes.c_int), ("infinite", ctypes.c_int), ("where", ctypes.c_size_t),
                ("loss", _S), ("loss_lo", _S), ("loss_hi", _S),
                ("delta_xy", _S), ("delta_xy_lo", _S), ("delta_xy_hi", _S),
                ("delta_yx", _S), ("delta_yx_lo", _S), ("delta_yx_hi", _S),
                ("width", _S), ("width_lo", _S), ("width_hi", _S)]


class AuditDir(ctypes.Structure):  # em_audit_dir
    _fields_ = [("infinite", ctypes.c_int), ("reason", ctypes.c_int), ("value", _S),
                ("atom", ctypes.c_size_t), ("at", _S), ("at_approx", _S), ("at_inf", ctypes.c_int),
                ("side", ctypes.c_int), ("everywhere", ctypes.c_int), ("lo_inf", ctypes.c_int),
                ("hi_inf", ctypes.c_int), ("lo", _S), ("lo_approx", _S), ("hi", _S), ("hi_approx", _S)]


class AuditResult(ctypes.Structure):  # em_audit_result: every field, in order
    _fields_ = [("loss", _S), ("loss_d", ctypes.c_double), ("within", ctypes.c_int),
                ("verdict", ctypes.c_int), ("continuous", ctypes.c_int), ("exact", ctypes.c_int),
                ("d", AuditDir * 2), ("worst", ctypes.c_int), ("ideal", AuditBlock), ("fp", AuditBlock),
                ("empirical", ctypes.c_int), ("nx", ctypes.c_uint64), ("ny", ctypes.c_uint64),
                ("confidence", ctypes.c_double), ("eps_lower", ctypes.c_double),
                ("eps_lower_xy", ctypes.c_double), ("eps_lower_yx", ctypes.c_double),
                ("event_xy", ctypes.c_size_t), ("event_yx", ctypes.c_size_t),
                ("empirical_violation", ctypes.c_int), ("ev_cells", ctypes.c_size_t),
                ("ev_xy_lo", ctypes.c_double), ("ev_xy_hi", ctypes.c_double),
                ("ev_yx_lo", ctypes.c_double), ("ev_yx_hi", ctypes.c_double),
                ("width", _S), ("width_d", ctypes.c_double), ("width_exact", ctypes.c_int),
                ("rho", _S), ("rho_d", ctypes.c_double)]


class UtilityResult(ctypes.Structure):
    _fields_ = [("opt", ctypes.c_char_p), ("expected_utility", ctypes.c_char_p),
                ("expected_loss", ctypes.c_char_p), ("sd_loss", ctypes.c_char_p),
                ("p_best", ctypes.c_char_p), ("opt_d", ctypes.c_double),
                ("expected_utility_d", ctypes.c_double), ("expected_loss_d", ctypes.c_double),
                ("sd_loss_d", ctypes.c_double), ("p_best_d", ctypes.c_double),
                ("expected_loss_bound", ctypes.c_char_p), ("nt", ctypes.c_size_t),
                ("t", ctypes.POINTER(ctypes.c_char_p)),
                ("p_loss_gt", ctypes.POINTER(ctypes.c_char_p)),
                ("p_bound", ctypes.POINTER(ctypes.c_char_p))]


class UtilityOpts(ctypes.Structure):
    _fields_ = [("nt", ctypes.c_size_t), ("t", ctypes.POINTER(ctypes.c_char_p)),
                ("mc_n", ctypes.c_uint64), ("mc", ctypes.POINTER(SampleOpts))]


class DiagnosisRow(ctypes.Structure):
    _fields_ = [("mistake", ctypes.c_int), ("p_value", ctypes.c_double),
                ("statistic", ctypes.c_double), ("df", ctypes.c_size_t),
                ("loglik", ctypes.c_double), ("fits", ctypes.c_int), ("same_law_as", ctypes.c_int)]


class Diagnosis(ctypes.Structure):
    _fields_ = [("nrows", ctypes.c_size_t), ("rows", ctypes.POINTER(DiagnosisRow)),
                ("best", ctypes.c_int), ("best_p", ctypes.c_double), ("same", ctypes.c_ulong),
                ("closest", ctypes.c_int), ("sentence", ctypes.c_char_p)]


_STRV = ctypes.POINTER(ctypes.c_char_p)


class Case(ctypes.Structure):
    _fields_ = [("file", ctypes.c_char_p), ("id", ctypes.c_char_p), ("title", ctypes.c_char_p),
                ("kind", ctypes.c_int), ("expect_error", ctypes.c_int), ("error", ctypes.c_char_p),
                ("epsilon", ctypes.c_char_p), ("sensitivity", ctypes.c_char_p),
                ("variant", ctypes.c_int), ("n", ctypes.c_size_t), ("labels", _STRV),
                ("utilities", _STRV), ("measure", _STRV), ("npieces", ctypes.c_size_t),
                ("lo", _STRV), ("hi", _STRV), ("a", _STRV), ("b", _STRV),
                ("ndata", ctypes.c_size_t), ("data", _STRV), ("alpha", ctypes.c_char_p),
                ("bound_lo", ctypes.c_char_p), ("bound_hi", ctypes.c_char_p),
                ("f", ctypes.c_char_p), ("ncatches", ctypes.c_size_t),
                ("catches", ctypes.POINTER(ctypes.c_int)),
                ("catches_draws", ctypes.POINTER(ctypes.c_uint64)), ("digits", ctypes.c_int),
                ("probability", _STRV), ("mass", _STRV), ("ncdf", ctypes.c_size_t),
                ("cdf_x", _STRV), ("cdf", _STRV), ("nedges", ctypes.c_size_t), ("edges", _STRV),
                ("quick", ctypes.c_int)]


class RunOutput(ctypes.Structure):
    _fields_ = [("how", ctypes.c_int), ("code", ctypes.c_int), ("out", ctypes.c_void_p),
                ("out_len", ctypes.c_size_t), ("err", ctypes.c_void_p),
                ("err_len", ctypes.c_size_t), ("seconds", ctypes.c_double)]


SamplerFn = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(Case), ctypes.c_uint64,
                             ctypes.c_uint64, ctypes.c_uint64, ctypes.POINTER(RunOutput))


class ConformOpts(ctypes.Structure):
    _fields_ = [("cases", ctypes.c_char_p), ("kinds", ctypes.c_uint), ("quick", ctypes.c_int),
                ("max_draws", ctypes.c_uint64), ("timeout", ctypes.c_double),
                ("seed", ctypes.c_uint64), ("alpha", ctypes.c_double),
                ("progress", ctypes.c_void_p), ("progress_ctx", ctypes.c_void_p)]


class ConformCase(ctypes.Structure):
    _fields_ = [("id", ctypes.c_char_p), ("title", ctypes.c_char_p), ("file", ctypes.c_char_p),
                ("kind", ctypes.c_int), ("expect_error", ctypes.c_int), ("verdict", ctypes.c_int),
                ("n", ctypes.c_uint64), ("seed", ctypes.c_uint64), ("runs", ctypes.c_int),
                ("p_value", ctypes.c_double), ("alpha", ctypes.c_double),
                ("power", ctypes.c_double), ("weakest", ctypes.c_int),
                ("ruled_out", ctypes.c_ulong), ("message", ctypes.c_char_p),
                ("stderr_tail", ctypes.c_char_p), ("check", ctypes.POINTER(CheckResult)),
                ("diagnosis", ctypes.POINTER(Diagnosis)), ("sampler_seconds", ctypes.c_double),
                ("harness_seconds", ctypes.c_double), ("harness_cpu_seconds", ctypes.c_double)]


class ConformResult(ctypes.Structure):
    _fields_ = [("ncases", ctypes.c_size_t), ("cases", ctypes.POINTER(ConformCase)),
                ("count", ctypes.c_size_t * 10), ("failed", ctypes.c_size_t),
                ("alpha", ctypes.c_double), ("alpha_case", ctypes.c_double),
                ("max_runs", ctypes.c_int), ("quick", ctypes.c_int),
                ("max_draws", ctypes.c_uint64), ("seed", ctypes.c_uint64),
                ("exit_status", ctypes.c_int), ("suspects", ctypes.c_ulong),
                ("diagnosis", ctypes.c_char_p), ("summary", ctypes.c_char_p),
                ("seconds", ctypes.c_double), ("sampler_seconds", ctypes.c_double)]


_P = ctypes.c_void_p
_S = ctypes.c_char_p
_E = ctypes.POINTER(Error)
_SZ = ctypes.c_size_t
_STRS = ctypes.POINTER(ctypes.c_char_p)

# em_conform_name's tables (em_conform.h)
NAME_KIND, NAME_MISTAKE, NAME_VERDICT = 0, 1, 2

_PROTOS = {
    "em_version": (_S, []),
    "em_free": (None, [_P]),
    "em_scn_new": (ctypes.c_int, [ctypes.POINTER(ScnSpec), ctypes.POINTER(_P), _E]),
    "em_write": (ctypes.c_int, [_P, _P, ctypes.POINTER(WriteOpts), _E]),
    "em_probs_text": (ctypes.c_int, [_P, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                                     ctypes.POINTER(_SZ), _E]),
    "em_scn_declare": (ctypes.c_int, [_P, _S, ctypes.c_int, _E]),
    "em_scn_get": (ScnInfo, [_P]),
    "em_mech_new": (ctypes.c_int, [_P, ctypes.POINTER(Opts), ctypes.POINTER(_P), _E]),
    "em_probs_get": (ctypes.c_int, [_P, _SZ, ctypes.POINTER(Prob), _E]),
    "em_sampler_new": (ctypes.c_int, [_P, ctypes.POINTER(SampleOpts), ctypes.POINTER(_P), _E]),
    "em_sampler_draw": (ctypes.c_int, [_P, _SZ, ctypes.POINTER(Draw), _E]),
    "em_law_at": (ctypes.c_int, [_P, ctypes.c_int, _S, _S, ctypes.POINTER(_P),
                                 ctypes.POINTER(_P), _E]),
    "em_draws_check": (ctypes.c_int, [_P, ctypes.POINTER(Draws), ctypes.POINTER(CheckOpts),
                                      ctypes.POINTER(ctypes.POINTER(CheckResult)), _E]),
    "em_compare": (ctypes.c_int, [_P, ctypes.POINTER(ctypes.c_double), _SZ, _S,
                                  ctypes.POINTER(CompareOpts),
                                  ctypes.POINTER(ctypes.POINTER(CompareResult)), _E]),
    "em_audit": (ctypes.c_int, [_P, _P, ctypes.POINTER(Draws), ctypes.POINTER(Draws),
                                ctypes.c_double, ctypes.POINTER(ctypes.POINTER(AuditResult)), _E]),
    "em_utility": (ctypes.c_int, [_P, ctypes.POINTER(UtilityOpts),
                                  ctypes.POINTER(ctypes.POINTER(UtilityResult)), _E]),
    "em_conform_name": (_S, [ctypes.c_int, ctypes.c_int]),
    "em_conform_run": (ctypes.c_int, [ctypes.POINTER(ConformOpts), SamplerFn, _P,
                                      ctypes.POINTER(ctypes.POINTER(ConformResult)), _E]),
    "em_conform_command": (ctypes.c_int, [ctypes.POINTER(ConformOpts), _STRS,
                                          ctypes.POINTER(ctypes.POINTER(ConformResult)), _E]),
    "em_command_split": (ctypes.c_int, [_S, ctypes.POINTER(ctypes.POINTER(_S)), _E]),
    "em_conform_figures": (ctypes.c_int, [ctypes.POINTER(ConformResult), _S, _E]),
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
