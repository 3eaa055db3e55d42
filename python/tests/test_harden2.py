"""pytest: the binding refuses what it cannot pass exactly, warns where privacy is weaker
than the default, and names the argument and its range, as the command line does.
Expected values are written here (closed forms, or the behaviour asked for)."""
import decimal
import fractions
import numbers
import warnings

import pytest

import expmech


def test_nul_in_a_string_is_refused():
    # C would read "1\x00999" as 1
    with pytest.raises(ValueError, match="NUL"):
        expmech.probs(["1\x00999", "0"], 1)
    with pytest.raises(ValueError, match="NUL"):
        expmech.probs(["1", "0"], "1\x002")


def test_a_real_that_is_not_a_double_is_refused():
    # numbers.Real other than float whose value a double would round (numpy.longdouble's
    # case): ValueError, not a silently rounded utility
    with pytest.raises(ValueError, match="not exactly a double"):
        expmech.probs([_RealNotFloat(fractions.Fraction(1, 3)), 0], 1)
    # an exact one passes
    assert expmech._text(_RealNotFloat(fractions.Fraction(1, 2)), "u") == "0x1.0000000000000p-1"


class _RealNotFloat:
    """numbers.Real registered below: float() rounds, == compares the exact value."""

    def __init__(self, q):
        self.q = q

    def __float__(self):
        return float(self.q)

    def __eq__(self, other):
        return fractions.Fraction(other) == self.q if isinstance(other, float) else NotImplemented

    def __hash__(self):
        return hash(self.q)


numbers.Real.register(_RealNotFloat)


def test_beyond_decimal_range_is_valueerror():
    # P(second) = 1/(1 + e^(5e19)): an exponent beyond decimal.Decimal's; ValueError
    with pytest.raises(ValueError, match="decimal.Decimal"):
        expmech.probs(["1e20", "0"], 1)
    try:
        expmech.probs(["1e20", "0"], 1)
    except decimal.InvalidOperation:  # pragma: no cover - the old behaviour
        pytest.fail("decimal.InvalidOperation leaked")
    except ValueError:
        pass


def test_float_sampler_warns():
    with pytest.warns(UserWarning, match="float path can break pure epsilon-DP"):
        expmech.sample([1, 0], 1, 3, sampler="float")


def test_seed_warns_reproducible():
    with pytest.warns(UserWarning, match="reproducible by anyone who knows the seed"):
        expmech.sample([1, 0], 1, 3, seed=1)
    with pytest.warns(UserWarning, match="reproducible"):
        expmech.sample_continuous([(0, 1, 0, 0)], 1, 2, seed=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        expmech.sample([1, 0], 1, 3)  # the OS's random source: no warning


def test_sample_zero_is_empty():
    assert expmech.sample([1, 0], 1, 0) == []
    assert expmech.sample_continuous([(0, 1, 0, 0)], 1, 0) == []


def test_quantile_names_p_and_its_range():
    for p in (1.5, "-0.25", "1.0000001"):
        with pytest.raises(ValueError, match=r"quantile\(p=.*\): p must be in \[0, 1\]"):
            expmech.quantile([(0, 1, 0, 0)], 1, p)
    # uniform law on [0, 1]: the median is 1/2
    assert expmech.quantile([(0, 1, 0, 0)], 1, "0.5") == decimal.Decimal("0.50000000000000000")


def test_continuous_draw_beyond_dbl_max_is_inf():
    # uniform on [0, 1e400]: P(draw <= DBL_MAX) < 1e-92; the nearest double is inf
    assert expmech.sample_continuous([(0, "1e400", 0, 0)], 1, 3) == [float("inf")] * 3
    assert expmech.sample_continuous([("-1e400", 0, 0, 0)], 1, 2) == [float("-inf")] * 2


class _ArrayLike:
    """What matters of a numpy array here: iterable, with ndim, not a list."""

    ndim = 1

    def __init__(self, xs):
        self.xs = list(xs)

    def __iter__(self):
        return iter(self.xs)

    def __len__(self):
        return len(self.xs)


def test_an_array_is_taken_where_a_list_is():
    # uniform law on [0, 1]: F(x) = x
    got = expmech.cdf([(0, 1, 0, 0)], 1, _ArrayLike(["0.25", "0.5"]))
    assert got == [decimal.Decimal("0.25000000000000000"), decimal.Decimal("0.50000000000000000")]
    assert expmech.quantile([(0, 1, 0, 0)], 1, _ArrayLike(["0.5"])) == [decimal.Decimal("0.50000000000000000")]
    assert expmech.probs(_ArrayLike(["1", "1"]), 1) == [decimal.Decimal("0.50000000000000000")] * 2
