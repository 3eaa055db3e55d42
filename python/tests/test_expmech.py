"""pytest tests of the Python binding (python/expmech): every function against values
computed here independently (Python's decimal module: exp and ln correctly rounded at a
working precision far above the digits compared), bad input raising ValueError with the
library's message, and the binding agreeing with the command line on the same input."""
import decimal
import fractions
import math
import os
import re
import subprocess

import pytest

import expmech

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
D = decimal.Decimal
WORK = decimal.Context(prec=80)


def ref_probs(us, eps, sens=1, c_factor=2, measure=None):
    """P_i = m_i exp(c u_i) / sum_j m_j exp(c u_j), c = eps / (c_factor * sens), at 80 digits."""
    c = WORK.divide(D(eps), WORK.multiply(D(c_factor), D(sens)))
    m = measure or [1] * len(us)
    w = [WORK.multiply(D(mi), WORK.exp(WORK.multiply(c, D(u)))) if u is not None else D(0)
         for u, mi in zip(us, m)]
    tot = D(0)
    for x in w:
        tot = WORK.add(tot, x)     # the default context would round the sum to 28 digits
    return [WORK.divide(x, tot) for x in w]


def rounded(x, digits):
    return decimal.Context(prec=digits, rounding=decimal.ROUND_HALF_EVEN).plus(x)


def test_version_is_the_headers():
    hdr = open(os.path.join(ROOT, "src", "include", "expmech.h")).read()
    assert expmech.__version__ == re.search(r'EM_VERSION_STRING "([0-9.]+)"', hdr).group(1)


@pytest.mark.parametrize("digits", [5, 17, 40])
def test_probs_are_correctly_rounded(digits):
    us = ["0", "1", "2.5", "7", "-3"]
    got = expmech.probs(us, "1.5", digits=digits)
    want = [rounded(p, digits) for p in ref_probs(us, "1.5")]
    assert got == want
    assert all(isinstance(p, decimal.Decimal) for p in got)


def test_log_probs_are_correctly_rounded():
    us = [0, 1, 2, 10]
    got = expmech.log_probs(us, 1, sensitivity=2, digits=25)
    want = [rounded(WORK.ln(p), 25) for p in ref_probs(us, 1, sens=2)]
    assert got == want


def test_every_exact_type_means_its_exact_value():
    tenth = [fractions.Fraction(1, 10), D("0.1"), "0.1", "1/10"]
    results = [expmech.probs([0, t], 1, digits=30) for t in tenth]
    assert all(r == results[0] for r in results)
    # the float 0.1 is 0x1.999999999999ap-4, a little more than 1/10: visible at 30 digits
    as_float = expmech.probs([0, 0.1], 1, digits=30)
    assert as_float != results[0]
    assert as_float == expmech.probs([0, (0.1).hex()], 1, digits=30)
    assert as_float == [rounded(p, 30) for p in ref_probs([0, D(0.1)], 1)]


def test_floats_and_ints_passed_as_binary_mean_their_exact_values():
    # floats, None and ints of at most 53 bits go to the library as doubles
    # (em_scn_new_d); the same values as exact text must give the same answers
    us = [0.1, None, 3, -2.5, 1e-300, -700.25, 1 / 3, float("-inf"), True, -(2 ** 53)]
    text = [x.hex() if isinstance(x, float) else None if x is None else str(int(x))
            for x in us]
    assert expmech.probs(us, 1, digits=25) == expmech.probs(text, 1, digits=25)
    assert expmech.log_probs(us, 1, digits=25) == expmech.log_probs(text, 1, digits=25)
    assert expmech.sample(us, 3, 40, seed=5) == expmech.sample(text, 3, 40, seed=5)
    near = [2 ** 53, 2 ** 53 - 1, 2 ** 53 - 2]
    assert expmech.probs(near, 1) == expmech.probs([str(x) for x in near], 1)
    # an int a double cannot hold takes the text path, exactly
    big = [2 ** 80 + 1, 2 ** 80]
    assert expmech.probs(big, 1, digits=30) == expmech.probs([str(x) for x in big], 1, digits=30)
    try:
        import numpy
    except ImportError:
        return
    a = numpy.array([0.25, -1.5, 7.0])
    assert expmech.probs(a, 2) == expmech.probs([0.25, -1.5, 7.0], 2)
    assert expmech.probs(a.astype(numpy.float32), 2) == expmech.probs([0.25, -1.5, 7.0], 2)


def test_excluded_candidates_and_exact_values():
    p = expmech.probs([None, 3, float("-inf")], 1)
    assert p[0] == 0 and p[2] == 0 and p[1] == 1
    lp = expmech.log_probs([None, 3], 1)
    assert lp[0] == D("-Infinity") and lp[1] == 0


def test_monotone_needs_a_declaration():
    with pytest.raises(ValueError, match="monotone"):
        expmech.probs([0, 1], 1, variant="monotone")
    got = expmech.probs([0, 1], 1, variant="monotone", monotone=True, digits=20)
    assert got == [rounded(p, 20) for p in ref_probs([0, 1], 1, c_factor=1)]


def test_base_measure():
    got = expmech.probs([0, 1, 2], 2, measure=[3, "1/2", 0], digits=20)
    assert got == [rounded(p, 20) for p in ref_probs([0, 1, 2], 2, measure=[3, D("0.5"), 0])]


def test_permute_and_flip_pmf():
    # two candidates, u = (0, d): PF returns the best with probability 1 - q/2 where
    # q = exp(-eps d / 2) (McKenna & Sheldon 2020), exactly
    got = expmech.probs([0, 1], 2, variant="pf", digits=25)
    q = WORK.exp(D(-1))
    half = WORK.divide(q, 2)
    assert got == [rounded(half, 25), rounded(WORK.subtract(1, half), 25)]


def test_sample_is_reproducible_and_is_the_command_lines(tmp_path):
    us = [0, 1, 2, 3, 4, 5]
    a = expmech.sample(us, 1, 50, seed=7)
    assert a == expmech.sample(us, 1, 50, seed=7)
    assert a != expmech.sample(us, 1, 50, seed=8)
    assert all(0 <= x < len(us) for x in a)
    f = tmp_path / "s.csv"
    f.write_text("".join(f"{i},{u}\n" for i, u in enumerate(us)))
    exe = os.environ.get("EXPMECH_BIN", os.path.join(ROOT, "build", "expmech"))
    cli = subprocess.run([exe, "sample", "--epsilon", "1",
                          "--seed", "7", "-n", "50", str(f)], capture_output=True, text=True,
                         check=True)
    assert [int(x) for x in cli.stdout.split()] == a


def test_sample_has_the_exact_law():
    us = [0, 1, 2, 3]
    draws = expmech.sample(us, 1, 20000, seed=11)
    r = expmech.check(draws, us, 1)
    assert r.passed and r and r.verdict == "pass"
    assert sum(row.observed for row in r.table) == 20000


# ---- the worked example a library author would paste: test your own sampler --------------

def my_numpy_sampler(utilities, epsilon, n, rng, sensitivity=1.0):
    """A user's exponential mechanism in numpy (the seeds' recipe, max-shifted)."""
    import numpy as np
    u = np.asarray(utilities, dtype=float)
    w = np.exp(epsilon * (u - u.max()) / (2 * sensitivity))
    return rng.choice(len(u), size=n, p=w / w.sum())


def test_check_a_numpy_sampler():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(2026)       # fixed seed: CI is reproducible
    utilities = [12, 9, 7, 3, 0]
    draws = my_numpy_sampler(utilities, 1.0, 50_000, rng)
    result = expmech.check(draws.tolist(), utilities, 1.0, alpha=1e-6)
    assert result, f"sampler rejected: p = {result.p_value}"
    # the test's power: a departure of this total-variation size would be detected
    assert result.min_detectable < 0.02


def test_check_rejects_a_broken_numpy_sampler():
    np = pytest.importorskip("numpy")
    rng = np.random.default_rng(2026)
    utilities = [12, 9, 7, 3, 0]
    # the classic bug: epsilon u / sensitivity (the monotone weight) for a non-monotone score
    draws = my_numpy_sampler(utilities, 2.0, 50_000, rng)
    result = expmech.check(draws.tolist(), utilities, 1.0, alpha=1e-6)
    assert not result and result.verdict == "reject" and result.p_value < 1e-6


def test_check_says_insufficient_for_too_few_draws():
    r = expmech.check([0, 1, 0], [0, 1, 2], 1)
    assert r.verdict == "insufficient" and not r


def test_compare():
    us = [0, 1, 2]
    exact = [float(p) for p in expmech.probs(us, 1)]
    assert expmech.compare(exact, us, 1)
    bad = list(exact)
    bad[1] *= 1 + 1e-6
    r = expmech.compare(bad, us, 1)
    assert not r and r.worst == 1 and r.failures >= 1
    assert r.max_rel_error == pytest.approx(1e-6, rel=1e-3)


def test_audit_is_the_exact_privacy_loss():
    x, y = [5, 3, 1], [4, 3, 2]      # counts on neighbouring datasets (sensitivity 1)
    loss = expmech.audit(x, y, 1, digits=20)
    px, py = ref_probs(x, 1), ref_probs(y, 1)
    want = max(abs(WORK.subtract(WORK.ln(a), WORK.ln(b))) for a, b in zip(px, py))
    assert abs(loss - want) <= D("1e-18") * want
    assert loss <= 1
    # the bounded-range width from the same reference: sup ln(px/py) + sup ln(py/px)
    logs = [WORK.subtract(WORK.ln(a), WORK.ln(b)) for a, b in zip(px, py)]
    width = WORK.subtract(max(logs), min(logs))
    assert abs(loss.width - width) <= D("1e-18") * width and loss.width_exact
    assert abs(loss.rho - width * width / 8) <= D("1e-18") * loss.rho


def test_audit_bounded_range_width_and_rho():
    a = expmech.audit([0, 1, 2], [1, 1, 1], 1)        # c = 1/2: ln-ratio c(u - u') + const
    assert a.width == 1 and a.rho == D("0.125") and a.width_exact    # spans c * 2 = 1
    m = expmech.audit([0, 0], [0, 0], 1, measure=[1, 2]) # same law: width 0
    assert m == 0 and m.width == 0 and m.rho == 0
    pf = expmech.audit([0, 0], [1, "-0.999"], 1, variant="pf")
    assert pf <= 1 < pf.width                          # pure 1-DP, width > epsilon: not BR
    assert pf.rho is None and not pf.width_exact
    ex = expmech.audit([0, 1], [0, None], 1)           # an output excluded on one side
    assert ex.is_infinite() and ex.width.is_infinite() and ex.rho is None


LAPLACE = [("-inf", 0, 0, 1), (0, "inf", 0, -1)]     # u(r) = -|r|: density ~ exp(-eps|r|/2)


def test_continuous_cdf_density_quantile():
    assert expmech.cdf(LAPLACE, 2, 0) == D("0.5")
    want = rounded(1 - WORK.exp(D(-1)) / 2, 17)
    assert expmech.cdf(LAPLACE, 2, [1])[0] == want
    assert expmech.density(LAPLACE, 2, 0) == D("0.5")
    assert expmech.quantile(LAPLACE, 2, "0.5") == 0
    uniform = [(0, 1, 0, 0)]
    assert expmech.cdf(uniform, 1, ["0.25", 2, -1]) == [D("0.25"), 1, 0]


def test_continuous_sampling_has_the_exact_law():
    s = expmech.sample_continuous(LAPLACE, 2, 20000, seed=5)
    assert s == expmech.sample_continuous(LAPLACE, 2, 20000, seed=5)
    assert expmech.check_continuous(s, LAPLACE, 2)
    shifted = [x + 0.3 for x in s]
    assert not expmech.check_continuous(shifted, LAPLACE, 2)


@pytest.mark.parametrize("call, match", [
    (lambda: expmech.probs([], 1), "no candidates"),
    (lambda: expmech.probs([0, 1], 0), "epsilon"),
    (lambda: expmech.probs([0, 1], -1), "epsilon"),
    (lambda: expmech.probs([0, 1], float("nan")), "epsilon"),
    (lambda: expmech.probs([0, 1], float("inf")), "epsilon"),
    (lambda: expmech.probs([0, 1], 1, sensitivity=0), "sensitivity"),
    (lambda: expmech.probs([0, float("nan")], 1), r"utilities\[1\]"),
    (lambda: expmech.probs([0, float("inf")], 1), r"utilities\[1\]"),
    (lambda: expmech.probs([0, "x"], 1), r"utilities\[1\]"),
    (lambda: expmech.probs([None, None], 1), "excluded"),
    (lambda: expmech.probs([0, 1], 1, digits=0), "digits"),
    (lambda: expmech.probs([0, 1], 1, variant="nope"), "variant"),
    (lambda: expmech.probs([0, 1], 1, measure=[1]), "measure"),
    (lambda: expmech.probs([0, 1], 1, measure=[1, -1]), r"measure\[1\]"),
    (lambda: expmech.sample([0, 1], 1, -1), "n"),
    (lambda: expmech.sample([0, 1], 1, 3, seed=-1), "seed"),
    (lambda: expmech.check([0, 5], [0, 1], 1), r"samples\[1\]"),
    (lambda: expmech.compare([0.5], [0, 1], 1), ""),
    (lambda: expmech.cdf([(1, 0, 0, 0)], 1, 0), ""),
    (lambda: expmech.cdf([(0, 1, 0, 0)], 1, "nan"), ""),
    (lambda: expmech.quantile([(0, 1, 0, 0)], 1, 2), ""),
])
def test_bad_input_raises_value_error(call, match):
    with pytest.raises(ValueError, match=match) as e:
        call()
    assert str(e.value)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        expmech.probs([0, object()], 1)
    with pytest.raises(TypeError):
        expmech.probs([0, 1], 1, digits=2.5)


def test_utility_report_against_closed_forms():
    # seed 001's socks: u = (0.1, 0.9), eps = 1, c = 1/2, q = e^(-0.4) the weight ratio
    q = WORK.exp(decimal.Decimal("-0.4"))
    loss_bound = rounded(2 * (WORK.ln(decimal.Decimal(2)) + 1), 17)  # (ln(|R|/|R_OPT|) + 1)/c
    std = expmech.utility(["0.1", "0.9"], 1, loss_at=["0.5"])
    p_best = WORK.divide(1, 1 + q)
    assert std["opt"] == decimal.Decimal("0.9")
    assert std["p_best"] == rounded(p_best, 17)
    assert std["expected_loss"] == rounded(WORK.multiply(decimal.Decimal("0.8"), 1 - p_best), 17)
    assert std["expected_loss_bound"] == loss_bound
    assert std["p_loss_gt"]["0.5"] == rounded(1 - p_best, 17)
    assert std["bound_p_loss_gt"]["0.5"] == 1  # min(1, 2 e^(-1/4))
    # permute-and-flip: P(best) = 1 - q/2, E[loss] = 0.8 q / 2 (McKenna & Sheldon)
    pf = expmech.utility(["0.1", "0.9"], 1, variant="pf")
    assert pf["p_best"] == rounded(1 - q / 2, 17)
    assert pf["expected_loss"] == rounded(WORK.multiply(decimal.Decimal("0.4"), q), 17)
    assert pf["expected_loss"] <= pf["expected_loss_bound"] == loss_bound


def test_utility_p_best_below_one_is_nines():
    r = expmech.utility([10, 0], 20, digits=5)  # P(best) = 1/(1 + e^-100)
    assert str(r["p_best"]) == "0.99999"
    assert expmech.utility([10, None], 20, digits=5)["p_best"] == 1


def test_utility_bad_input():
    with pytest.raises(ValueError):
        expmech.utility(["0.1", "0.9"], 0)
    with pytest.raises(ValueError):
        expmech.utility(["0.1", "0.9"], 1, loss_at=["-1"])
    with pytest.raises(ValueError):
        expmech.utility([], 1)
