"""Gaussian mechanism: closed forms against quadrature of the definitions (50 digits, >= 40 agreeing).

Checks N1, N2, N5, N9 of REFERENCE.md; R-B8, R-C1, R-C2, R-E4, R-E7.
"""

from __future__ import annotations

import pytest
import sympy as sp
from mpmath import mp

from cdpsym.expr import symbols
from cdpsym.mechanisms import Gaussian, hockey_stick_by_quadrature, kl_by_quadrature

R = sp.Rational
DPS = 50


# -- R-E4: the exact profile = ∫ (p - e^ε q)_+ (N5) ----------------------------------------------------

N5 = [  # (eps, sensitivity, sigma)
    (1, 1, 1),
    (R(1, 2), 1, 2),
    (3, 2, R(9, 10)),
]


@pytest.mark.parametrize("eps, sensitivity, sigma", N5)
def test_profile_matches_quadrature_of_the_definition(eps, sensitivity, sigma, assert_agree):
    g = Gaussian(sensitivity, sigma)
    assert_agree(g.delta(eps, dps=DPS), g.densities().hockey_stick(eps, dps=DPS), 40)


def test_profile_first_reference_value():
    with mp.workdps(30):
        assert mp.nstr(Gaussian(1, 1).delta(1), 18) == "0.126936737506643946"


@pytest.mark.parametrize("eps, sensitivity, sigma", N5)
def test_profile_matches_expectation_over_the_privacy_loss(eps, sensitivity, sigma, assert_agree):
    """R-A6 expectation form with L ~ N(mean, variance) taken from R-B8: E[(1 - e^{ε-L})_+]."""
    g = Gaussian(sensitivity, sigma)
    with mp.workdps(DPS + 10):
        mean = mp.mpf(sp.N(g.privacy_loss_mean, DPS + 20))
        sd = mp.sqrt(mp.mpf(sp.N(g.privacy_loss_variance, DPS + 20)))
        e = mp.mpf(sp.N(sp.sympify(eps), DPS + 20))
        value = mp.quad(lambda z: mp.npdf(z, mean, sd) * -mp.expm1(e - z), [e, e + 1, mp.inf])
    assert_agree(g.delta(eps, dps=DPS), value, 40)


def test_profile_sympy_expression_matches_numeric(assert_agree):
    g = Gaussian(2, R(9, 10))
    expr = g.privacy_profile(symbols.eps)
    assert expr.free_symbols == {symbols.eps}
    with mp.workdps(DPS):
        assert_agree(mp.mpf(sp.N(expr.subs(symbols.eps, 3), DPS + 10)), g.delta(3, dps=DPS), 40)


def test_profile_at_negative_eps_matches_quadrature(assert_agree):
    g = Gaussian(1, R(3, 2))
    assert_agree(g.delta(R(-1, 2), dps=DPS), g.densities().hockey_stick(R(-1, 2), dps=DPS), 40)


# -- R-B8, R-C1: privacy loss moments and Rényi divergence (N1, N2) ------------------------------------

@pytest.mark.parametrize("sensitivity, sigma, alpha", [
    (R(13, 10), R(7, 10), R(5, 2)),   # N1: (mu, nu, sigma, alpha) = (0, 1.3, 0.7, 2.5)
    (R(11, 10), R(11, 10), 7),        # N1: (0.2, -0.9, 1.1, 7), shifted to (0, 1.1)
])
def test_renyi_closed_form_matches_quadrature(sensitivity, sigma, alpha, assert_agree):
    g = Gaussian(sensitivity, sigma)
    closed = g.renyi_divergence(alpha)
    assert closed == alpha * sensitivity ** 2 / (2 * sigma ** 2)
    with mp.workdps(DPS):
        assert_agree(mp.mpf(sp.N(closed, DPS + 10)), g.densities().renyi(alpha, dps=DPS), 40)


def test_privacy_loss_mean_and_variance_match_quadrature(assert_agree):
    """N2: Δ = 1.7, σ = 2.3; E[L] = KL = ρ and Var[L] = 2ρ by quadrature of the definition."""
    g = Gaussian(R(17, 10), R(23, 10))
    p, q = g.densities()
    with mp.workdps(DPS + 10):
        mean = kl_by_quadrature(p, q, dps=DPS)
        second = mp.quad(lambda y: p(y) * (mp.log(p(y) / q(y)) - mean) ** 2, [-mp.inf, 0, mp.inf])
        closed_mean = mp.mpf(sp.N(g.privacy_loss_mean, DPS + 10))
        closed_variance = mp.mpf(sp.N(g.privacy_loss_variance, DPS + 10))
    assert_agree(mean, closed_mean, 40)
    assert_agree(second, closed_variance, 40)
    assert g.kl() == g.rho == R(17, 10) ** 2 / (2 * R(23, 10) ** 2)


def test_renyi_endpoints_and_symbolic_order():
    g = Gaussian(symbols.sensitivity, symbols.sigma)
    assert g.rho == symbols.sensitivity ** 2 / (2 * symbols.sigma ** 2)
    assert sp.simplify(g.renyi_divergence(symbols.alpha) - symbols.alpha * g.rho) == 0
    assert g.renyi_divergence(1) == g.kl()
    assert g.renyi_divergence(sp.oo) is sp.oo
    assert g.privacy_loss_variance == 2 * g.rho


# -- R-E4 inverse: epsilon(delta) ------------------------------------------------------------------------

@pytest.mark.parametrize("rho, delta, published", [  # R-E7 table, exact (BW18) column (N9)
    (R(1, 2), R(1, 10 ** 6), "4.886554117"),
    (R(1, 100), R(1, 10 ** 9), "0.768211713"),
    (2, R(1, 10 ** 5), "9.997256146"),
    (R(1, 8), R(1, 10 ** 3), "1.352276245"),
])
def test_epsilon_matches_published_table(rho, delta, published):
    g = Gaussian(sensitivity=1, sigma=1 / sp.sqrt(2 * rho))
    eps = g.epsilon(delta)
    assert abs(eps - mp.mpf(published)) < mp.mpf("1e-9")
    bs16 = rho + 2 * sp.sqrt(rho * sp.log(1 / delta))  # Bun–Steinke Prop 1.3 is an upper bound (R-E7)
    assert eps < mp.mpf(sp.N(bs16, 30))


@pytest.mark.parametrize("delta", [R(1, 5), R(1, 10 ** 3), 1e-6, R(1, 10 ** 12), 1e-50])
def test_epsilon_round_trip(delta, assert_agree):
    g = Gaussian(2, 3)
    eps = g.epsilon(delta)
    with mp.workdps(DPS + 10):
        target = mp.mpf(delta) if isinstance(delta, float) else mp.mpf(delta.p) / delta.q
    assert_agree(g.delta(eps), target, 40)
    assert_agree(g.epsilon(g.delta(eps)), eps, 40)


def test_epsilon_edge_cases():
    g = Gaussian(1, 1)
    assert g.epsilon(0) == mp.inf
    assert g.epsilon(1) == 0
    with mp.workdps(60):
        above = g.delta(0, dps=60) * (1 + mp.mpf(10) ** -30)
        below = g.delta(0, dps=60) * (1 - mp.mpf(10) ** -30)
    assert g.epsilon(above) == 0  # at or above δ(0): ε = 0
    assert 0 < g.epsilon(below) < mp.mpf(10) ** -29
    tiny = Gaussian(R(1, 10 ** 6), 1)  # δ(0) ≈ 4e-7
    assert tiny.epsilon(R(1, 1000)) == 0
    assert tiny.epsilon(R(1, 10 ** 9)) > 0


def test_tiny_delta_down_to_1e_300(assert_agree):
    g = Gaussian(1, 1)
    eps = g.epsilon(1e-300)
    assert mp.isfinite(eps) and 37 < eps < 38
    assert_agree(g.delta(eps), mp.mpf(1e-300), 30)
    # the profile there is right to 50 digits: against 120-digit evaluation and against quadrature
    assert_agree(g.delta(eps, dps=50), g.delta(eps, dps=120), 48)
    assert_agree(g.delta(eps, dps=50), g.densities().hockey_stick(eps, dps=50), 40)


def test_profile_far_tail_and_small_tau_keep_relative_precision(assert_agree):
    """δ ≈ 1e-2200 (ε = 100) and τ = 1e-6 (cancellation ~ 12 digits) are handled by escalation."""
    g = Gaussian(1, 1)
    value = g.delta(100)
    assert 0 < value < mp.mpf("1e-1000")
    assert_agree(value, g.delta(100, dps=150), 48)
    small = Gaussian(R(1, 10 ** 6), 1)
    assert_agree(small.delta(R(1, 10 ** 6)), small.delta(R(1, 10 ** 6), dps=120), 48)


def test_profile_decreases_and_precision_is_local():
    before = mp.prec
    g = Gaussian(1, R(1, 2))
    values = [g.delta(e) for e in (0, R(1, 2), 1, 2, 4, 8)]
    assert all(a > b > 0 for a, b in zip(values, values[1:]))
    assert mp.prec == before


# -- value object ------------------------------------------------------------------------------------------

def test_repr_is_pasteable_and_latex():
    g = Gaussian(sensitivity=1, sigma=2)
    assert repr(g) == "Gaussian(sensitivity=1, sigma=2)"
    assert eval(repr(g)) == g
    assert repr(Gaussian(2, 0.9)) == "Gaussian(sensitivity=2, sigma=0.9)"
    assert eval(repr(Gaussian(2, 0.9))) == Gaussian(2, 0.9)
    assert r"\sigma" in sp.latex(g) and g._repr_latex_().startswith("$")
    assert hash(g) == hash(Gaussian(1, 2))


def test_densities_do_not_restate_the_closed_form():
    """Sanity of the ground truth itself: the densities integrate to 1 and have the right means."""
    p, q = Gaussian(R(3, 2), R(1, 2)).densities()
    with mp.workdps(30):
        assert abs(mp.quad(p, [-mp.inf, mp.inf]) - 1) < mp.mpf("1e-28")
        assert abs(mp.quad(lambda y: y * q(y), [-mp.inf, mp.inf]) - mp.mpf(3) / 2) < mp.mpf("1e-28")


def test_hockey_stick_quadrature_finds_the_crossing_itself(assert_agree):
    """No breakpoint given: the crossing Δ/2 - σ²ε/Δ is located numerically."""
    g = Gaussian(2, R(9, 10))
    p, q = g.densities()
    assert_agree(hockey_stick_by_quadrature(p, q, 3, dps=DPS), g.delta(3, dps=DPS), 40)
