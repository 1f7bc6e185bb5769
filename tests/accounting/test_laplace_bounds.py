"""Certified k-fold Laplace bounds (cdpsym.accounting.laplace) against independent ground truths.

* k = 1: the exact profile R-E5 (``Laplace.delta`` / ``Laplace.epsilon`` at 100 digits);
* k = 2, 3: two independent mpmath computations at 40 digits — a multinomial
  sum over (atom +ε0, atom -ε0, continuous) with the continuous part's
  density written as a tilted Irwin–Hall B-spline, integrated by quadrature;
  and, for k = 2, the hockey-stick integral in y-space (Laplace CDFs inside,
  quadrature outside), which shares nothing with the first but the definition;
* the k-fold randomized response of R-F7 (Laplace(ε0) is ε0-DP, so its
  composition is dominated by RR's);
* structure: lower <= upper, refinement N -> 2N moves both bounds inward
  (Hermite–Hadamard is monotone under refinement), second-order gap decay,
  ε- and δ-bounds consistent with each other, invalid inputs.
"""

from __future__ import annotations

import time
from fractions import Fraction
from math import comb, factorial

import mpmath
import pytest
import sympy as sp
from flint import arb, ctx
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mp

from cdpsym.accounting.certified import CertifiedBounds
from cdpsym.accounting.laplace import _factor, laplace_delta_bounds, laplace_epsilon_bounds
from cdpsym.errors import InvalidParameter
from cdpsym.mechanisms import Laplace, RandomizedResponse, compose

# -- independent references (mpmath) ---------------------------------------------------------------------------


def _mpf(x: object) -> mpmath.mpf:
    f = Fraction(str(x))
    return mp.mpf(f.numerator) / f.denominator


def reference_delta(eps0: object, k: int, eps: object) -> mpmath.mpf:
    """``δ_k(ε)`` by a multinomial sum over the atoms and the continuous part of the per-step loss.

    Under ``P`` one loss is ``+ε0`` w.p. ½, ``-ε0`` w.p. ½e^{-ε0}, and has density
    ``c e^{t/2}`` on ``(-ε0, ε0)`` with ``c = ¼ e^{-ε0/2}``; ``m`` continuous parts sum
    to the density ``c^m e^{t/2} (2ε0)^{m-1} IH_m((t + mε0)/(2ε0))`` (Irwin–Hall).
    """
    e0, e = _mpf(eps0), _mpf(eps)

    def g(x: mpmath.mpf) -> mpmath.mpf:
        return max(mp.zero, -mp.expm1(e - x))

    c = mp.exp(-e0 / 2) / 4
    total = mp.zero
    for m in range(k + 1):
        for a in range(k - m + 1):
            b = k - m - a
            multinomial = mp.mpf(factorial(k)) / (factorial(a) * factorial(b) * factorial(m))
            weight = multinomial / 2 ** (a + b) * mp.exp(-b * e0)
            x = (a - b) * e0
            if m == 0:
                total += weight * g(x)
                continue

            def density(t: mpmath.mpf, m: int = m) -> mpmath.mpf:
                u = (t + m * e0) / (2 * e0)
                ih = sum((-1) ** j * comb(m, j) * (u - j) ** (m - 1) for j in range(int(mp.floor(u)) + 1))
                return c ** m * mp.exp(t / 2) * (2 * e0) ** (m - 1) * ih / factorial(m - 1)

            knots = [-m * e0 + 2 * j * e0 for j in range(m + 1)]
            if -m * e0 < e - x < m * e0:
                knots.append(e - x)
            total += weight * mp.quad(lambda t: density(t) * g(x + t), sorted(set(knots)))
    return total


def reference_delta_y2(eps0: object, eps: object) -> mpmath.mpf:
    """``δ_2(ε) = ∫∫ (p(y1)p(y2) - e^ε q(y1)q(y2))_+`` for ``P = Lap(0,1)``, ``Q = Lap(ε0,1)``.

    For fixed ``y1`` the set of ``y2`` with a positive integrand is ``{ℓ(y2) > ε - ℓ(y1)}``,
    a half-line ``y2 < c``, so the inner integral is a difference of Laplace CDFs.
    """
    e0, e = _mpf(eps0), _mpf(eps)

    def p(y):  # noqa: ANN001, ANN202
        return mp.exp(-abs(y)) / 2

    def q(y):  # noqa: ANN001, ANN202
        return mp.exp(-abs(y - e0)) / 2

    def cdf(y):  # noqa: ANN001, ANN202
        return mp.exp(y) / 2 if y < 0 else 1 - mp.exp(-y) / 2

    def loss(y):  # noqa: ANN001, ANN202
        return min(e0, max(-e0, e0 - 2 * y))

    def inner(y1):  # noqa: ANN001, ANN202
        r = e - loss(y1)
        if r >= e0:
            return mp.zero
        if r < -e0:
            return p(y1) - mp.exp(e) * q(y1)
        cut = (e0 - r) / 2
        return p(y1) * cdf(cut) - mp.exp(e) * q(y1) * cdf(cut - e0)

    points = {-mp.inf, mp.inf, mp.zero, e0, (2 * e0 - e) / 2, -e / 2}
    return mp.quad(inner, sorted(points))


def enclosed(bounds: CertifiedBounds, value: mpmath.mpf) -> bool:
    return _mpf(bounds.lower.rounded) <= value <= _mpf(bounds.upper.rounded)


def relative_gap(bounds: CertifiedBounds) -> mpmath.mpf:
    lo, up = _mpf(bounds.lower.rounded), _mpf(bounds.upper.rounded)
    return (up - lo) / up if up else mp.zero


# -- the references agree with each other and with R-E5 ---------------------------------------------------------

def test_references_agree():
    with mp.workdps(40):
        for eps0, eps in [("0.5", "0.3"), ("1.3", "-0.2"), ("0.1", "0.05")]:
            exact = Laplace(_mpf(eps0), 1).delta(_mpf(eps), dps=40)
            assert abs(reference_delta(eps0, 1, eps) - exact) < mp.mpf(10) ** -35
        for eps0, eps in [("0.5", "0"), ("0.5", "0.7"), ("0.5", "-0.4"), ("1.7", "1.1"), ("0.2", "-0.5")]:
            a, b = reference_delta(eps0, 2, eps), reference_delta_y2(eps0, eps)
            assert abs(a - b) <= mp.mpf(10) ** -33 * abs(a), (eps0, eps, a, b)


# -- (1) k = 1 against the exact profile R-E5 ----------------------------------------------------------------------

K1_CASES = [("0.5", "0.3"), ("0.5", "0"), ("0.5", "-0.2"), ("0.5", "0.49"), ("1", "0.999"), ("2.5", "1"),
            ("0.01", "0.005"), ("3", "-2"), (Fraction(1, 3), Fraction(1, 7))]


@pytest.mark.parametrize("eps0, eps", K1_CASES)
def test_k1_encloses_exact_profile(eps0, eps):
    bounds = laplace_delta_bounds(eps0, 1, eps)
    with mp.workdps(100):
        exact = Laplace(_mpf(eps0), 1).delta(_mpf(eps), dps=100)
        assert enclosed(bounds, exact), (bounds, exact)
        assert relative_gap(bounds) <= mp.mpf("2e-4")
    assert bounds.lower.direction == "down" and bounds.upper.direction == "up"
    assert not bounds.lower.exact and not bounds.upper.exact


@pytest.mark.parametrize("eps0, delta", [("0.5", "0.01"), ("1", "1e-6"), ("2", "0.3"), ("0.1", "0.049")])
def test_k1_epsilon_encloses_exact(eps0, delta):
    bounds = laplace_epsilon_bounds(eps0, 1, delta)
    with mp.workdps(100):
        exact = Laplace(_mpf(eps0), 1).epsilon(_mpf(delta), dps=100)
        assert enclosed(bounds, exact), (bounds, exact)


def test_k1_epsilon_zero_when_delta_at_least_delta0():
    # δ_1(0) = 1 - e^{-ε0/2} ≈ 0.3935 for ε0 = 1: any δ above it needs ε = 0
    bounds = laplace_epsilon_bounds(1, 1, "0.4")
    assert bounds.lower.rounded == bounds.upper.rounded == "0" and bounds.upper.exact


# -- (2) k = 2, 3 against the independent references -----------------------------------------------------------------

@pytest.mark.parametrize("eps0, k, eps", [
    ("0.5", 2, "0"), ("0.5", 2, "0.7"), ("0.5", 2, "-0.4"), ("0.5", 2, "0.99"), ("1.7", 2, "1.1"),
    ("0.1", 2, "0.05"), ("0.7", 3, "1.1"), ("0.7", 3, "0"), ("0.7", 3, "2.05"), ("2", 3, "-1"), ("0.3", 3, "0.45"),
])
def test_k2_k3_enclose_reference(eps0, k, eps):
    bounds = laplace_delta_bounds(eps0, k, eps)
    with mp.workdps(40):
        ref = reference_delta(eps0, k, eps)
        assert enclosed(bounds, ref), (bounds, ref)
        assert relative_gap(bounds) <= mp.mpf("1e-3")


@pytest.mark.parametrize("eps0, eps", [("0.5", "0.7"), ("1.7", "-0.3")])
def test_k2_encloses_y_space_integral(eps0, eps):
    bounds = laplace_delta_bounds(eps0, 2, eps)
    with mp.workdps(40):
        assert enclosed(bounds, reference_delta_y2(eps0, eps))


@pytest.mark.parametrize("eps0, k, delta", [("0.5", 2, "0.01"), ("0.7", 3, "1e-4"), ("0.2", 3, "0.1")])
def test_k2_k3_epsilon_encloses_reference_root(eps0, k, delta):
    bounds = laplace_epsilon_bounds(eps0, k, delta)
    with mp.workdps(40):
        target = _mpf(delta)
        # the reference profile decreases in ε: it is above δ at the lower bound and below at the upper one
        assert reference_delta(eps0, k, bounds.lower.rounded) >= target
        assert reference_delta(eps0, k, bounds.upper.rounded) <= target


# -- (3) lower <= upper; refinement; second order ----------------------------------------------------------------------

@pytest.mark.parametrize("eps0, k, eps", [("0.5", 3, "0.4"), ("1", 10, "4"), ("0.1", 40, "1.5")])
def test_refinement_moves_both_bounds_inward(eps0, k, eps):
    # N -> 2N: the trapezoid rule on a refined grid is smaller, the midpoint rule larger (Jensen per cell)
    gaps, previous = [], None
    for grid in (4, 8, 16, 32):
        bounds = laplace_delta_bounds(eps0, k, eps, grid=grid, digits=15)
        lo, up = _mpf(bounds.lower.rounded), _mpf(bounds.upper.rounded)
        assert lo <= up
        if previous is not None:
            tolerance = mp.mpf(10) ** -13 * up
            assert lo >= previous[0] - tolerance and up <= previous[1] + tolerance
        previous = (lo, up)
        gaps.append(up - lo)
    # second order: the gap shrinks about fourfold per doubling (for small k the kink's position in its
    # cell makes the ratio alternate, e.g. 2.8 and 5.6 at k = 3), so ask for 10x per two doublings
    assert all(later <= earlier / 10 for earlier, later in zip(gaps, gaps[2:]))


@settings(max_examples=25, deadline=None)
@given(eps0=st.fractions(min_value=Fraction(1, 20), max_value=3, max_denominator=50),
       k=st.integers(min_value=1, max_value=12),
       position=st.fractions(min_value=Fraction(-11, 10), max_value=Fraction(11, 10), max_denominator=40),
       grid=st.sampled_from([2, 4, 6, 10]))
def test_lower_below_upper(eps0, k, position, grid):
    eps = position * k * eps0
    bounds = laplace_delta_bounds(eps0, k, eps, grid=grid)
    assert Fraction(bounds.lower.rounded) <= Fraction(bounds.upper.rounded)
    assert 0 <= Fraction(bounds.lower.rounded) and Fraction(bounds.upper.rounded) <= 1


def test_factor_masses_match_closed_forms():
    with ctx.workprec(128):
        for upper in (True, False):
            for n in (2, 8, 30):
                coeffs, mass = _factor(arb("0.7"), n, upper, n + 1)
                assert abs(sum(coeffs, arb(0)) - mass) < arb(2) ** -100
                # trapezoid over-, midpoint under-integrates the convex e^{-z}: the P-mass brackets 1
                assert (mass > 1) if upper else (mass < 1)


# -- (4) dominated by k-fold randomized response (R-F7) ----------------------------------------------------------------

@pytest.mark.parametrize("eps0, k, eps", [
    ("0.1", 100, "1"), ("0.1", 100, "4.7"), ("1", 10, "4"), ("1", 10, "9.99"), ("0.5", 20, "0"),
    ("0.5", 20, "9.9"), ("2", 4, "5"), ("0.3", 7, "-0.5"),
])
def test_upper_below_randomized_response(eps0, k, eps):
    bounds = laplace_delta_bounds(eps0, k, eps)
    with mp.workdps(40):
        rr = compose(RandomizedResponse(_mpf(eps0)), k=k).delta(_mpf(eps), dps=40)
        assert _mpf(bounds.upper.rounded) <= rr * (1 + mp.mpf(10) ** -9)


@pytest.mark.parametrize("eps0, k, delta", [("0.1", 100, "1e-6"), ("1", 10, "1e-6"), ("0.5", 30, "1e-3")])
def test_epsilon_below_randomized_response(eps0, k, delta):
    bounds = laplace_epsilon_bounds(eps0, k, delta)
    with mp.workdps(40):
        rr = compose(RandomizedResponse(_mpf(eps0)), k=k).epsilon(_mpf(delta), dps=40)
        assert _mpf(bounds.upper.rounded) <= rr


# -- consistency of the two directions, exact regions, inputs ----------------------------------------------------------

@pytest.mark.parametrize("eps0, k, delta", [("0.5", 8, "1e-3"), ("0.1", 50, "1e-6")])
def test_epsilon_and_delta_bounds_agree(eps0, k, delta):
    eps = laplace_epsilon_bounds(eps0, k, delta, grid=20)
    at_upper = laplace_delta_bounds(eps0, k, eps.upper.rounded, grid=20)
    at_lower = laplace_delta_bounds(eps0, k, eps.lower.rounded, grid=20)
    d = Fraction(delta)
    assert Fraction(at_upper.upper.rounded) <= d * (1 + Fraction(1, 10 ** 8))
    assert Fraction(at_lower.lower.rounded) >= d * (1 - Fraction(1, 10 ** 8))


def test_exact_outside_the_loss_range():
    top = laplace_delta_bounds("0.5", 3, "1.5")  # ε = k ε0: δ = 0 (pure 1.5-DP)
    assert top.lower.rounded == top.upper.rounded == "0" and top.upper.exact
    bottom = laplace_delta_bounds("0.5", 3, "-2")  # ε <= -k ε0: δ = 1 - e^ε
    with mp.workdps(40):
        assert enclosed(bottom, -mp.expm1(-2))
    assert bottom.upper.exact and float(bottom.gap) < 1e-9


def test_irrational_eps0_sits_between_rational_neighbours():
    middle = laplace_epsilon_bounds(sp.sqrt(2) / 4, 20, "1e-5")
    below = laplace_epsilon_bounds("0.3535", 20, "1e-5")
    above = laplace_epsilon_bounds("0.3536", 20, "1e-5")
    assert Fraction(below.lower.rounded) <= Fraction(middle.upper.rounded)
    assert Fraction(middle.lower.rounded) <= Fraction(above.upper.rounded)


def test_certified_digits_and_json():
    bounds = laplace_delta_bounds("0.5", 20, 3, digits=25)
    assert bounds.lower.digits == 25 and bounds.upper.digits == 25
    data = bounds.to_json()
    assert data["lower"]["query"] == {"eps0": "0.5", "k": "20", "eps": "3"}
    assert "Hermite-Hadamard" in data["upper"]["method"]


def test_three_reference_cases_fast_enough():
    start = time.perf_counter()
    for eps0, k in [("0.1", 100), ("1", 10)]:
        bounds = laplace_epsilon_bounds(eps0, k, "1e-6")
        assert relative_gap(bounds) < mp.mpf("1e-4")
    assert time.perf_counter() - start < 5


@pytest.mark.slow
def test_k1000_within_seconds():
    start = time.perf_counter()
    eps = laplace_epsilon_bounds("0.5", 1000, "1e-6")
    delta = laplace_delta_bounds("0.5", 1000, eps.upper.rounded)
    assert time.perf_counter() - start < 15
    assert relative_gap(eps) < mp.mpf("2e-4") and relative_gap(delta) < mp.mpf("3e-3")
    assert Fraction(delta.upper.rounded) <= Fraction("1e-6") * (1 + Fraction(1, 10 ** 6))


@pytest.mark.slow
@pytest.mark.parametrize("eps0, eps", [("0.7", "1.1"), ("0.4", "-0.3")])
def test_k3_encloses_nested_y_space_integral(eps0, eps):
    # δ_3(ε) = E_L[δ_2(ε - L)] with δ_2 from the y-space integral: a third, nested computation (~10 s)
    bounds = laplace_delta_bounds(eps0, 3, eps)
    with mp.workdps(30):
        e0, e = _mpf(eps0), _mpf(eps)

        def d2(x: mpmath.mpf) -> mpmath.mpf:
            return reference_delta_y2(eps0, x)

        value = d2(e - e0) / 2 + mp.exp(-e0) * d2(e + e0) / 2
        # δ_2 is smooth between the points ε - t = jε0, j = -2..2
        points = sorted({-e0, e0} | {e - j * e0 for j in range(-2, 3) if -e0 < e - j * e0 < e0})
        value += mp.quad(lambda t: mp.exp((t - e0) / 2) / 4 * d2(e - t), points, method="gauss-legendre")
        assert abs(value - reference_delta(eps0, 3, eps)) < mp.mpf(10) ** -28
        assert enclosed(bounds, value)


INVALID = [
    (laplace_delta_bounds, (0, 3, 1), {}),
    (laplace_delta_bounds, (-1, 3, 1), {}),
    (laplace_delta_bounds, ("abc", 3, 1), {}),
    (laplace_delta_bounds, (1, 0, 1), {}),
    (laplace_delta_bounds, (1, "1.5", 1), {}),
    (laplace_delta_bounds, (1, True, 1), {}),
    (laplace_delta_bounds, (1, 3, "x"), {}),
    (laplace_delta_bounds, (1, 3, float("nan")), {}),
    (laplace_delta_bounds, (1, 3, 1), {"grid": 3}),
    (laplace_delta_bounds, (1, 3, 1), {"grid": 0}),
    (laplace_delta_bounds, (1, 3, 1), {"rel_gap": 0}),
    (laplace_delta_bounds, (1, 3, 1), {"rel_gap": 2}),
    (laplace_delta_bounds, (1, 3, 1), {"max_terms": 1}),
    (laplace_delta_bounds, (1, 3, 1), {"digits": 0}),
    # delta = 0 and delta = 1 have exact answers (k eps0 and 0): tests/accounting/test_hardening.py
    (laplace_epsilon_bounds, (1, 3, "-1e-6"), {}),
    (laplace_epsilon_bounds, (1, 3, "1.5"), {}),
    (laplace_epsilon_bounds, (0, 3, "1e-6"), {}),
    (laplace_epsilon_bounds, (1, -2, "1e-6"), {}),
    (laplace_epsilon_bounds, (1, 3, "1e-6"), {"grid": True}),
]


@pytest.mark.parametrize("function, args, kwargs", INVALID)
def test_invalid_inputs_raise(function, args, kwargs):
    with pytest.raises(InvalidParameter):
        function(*args, **kwargs)
