"""Laplace mechanism: closed forms against quadrature of the definitions (N3, N6; R-D2, R-E5)."""

from __future__ import annotations

import pytest
import sympy as sp
from mpmath import mp

from cdpsym.expr import symbols
from cdpsym.mechanisms import Laplace

R = sp.Rational
DPS = 50


def numeric(expr: sp.Expr) -> mp.mpf:
    with mp.workdps(DPS + 10):
        return mp.mpf(sp.N(expr, DPS + 20))


mpf_of = numeric


@pytest.mark.parametrize("scale, sensitivity, eps", [  # N6
    (1, 1, R(3, 10)),
    (R(1, 2), R(6, 5), R(11, 10)),
    (2, 1, 0),
])
def test_profile_matches_quadrature_of_the_definition(scale, sensitivity, eps, assert_agree):
    lap = Laplace(sensitivity, scale)
    assert_agree(lap.delta(eps, dps=DPS), lap.densities().hockey_stick(eps, dps=DPS), 40)
    assert_agree(lap.delta(eps, dps=DPS), numeric(lap.privacy_profile(eps)), 40)


def test_profile_below_minus_eps0_matches_quadrature(assert_agree):
    """For ε < -ε0 every outcome has loss above ε and δ = 1 - e^ε (the extension of R-E5)."""
    lap = Laplace(1, 1)
    assert_agree(lap.delta(-2, dps=DPS), lap.densities().hockey_stick(-2, dps=DPS), 40)


def test_profile_vanishes_from_eps0_on():
    lap = Laplace(R(3, 2), 1)
    assert lap.delta(R(3, 2)) == 0 and lap.delta(5) == 0
    assert lap.delta(R(3, 2) - R(1, 10 ** 30)) > 0


@pytest.mark.parametrize("scale, sensitivity, alpha", [  # N3
    (R(3, 2), 1, 3),
    (R(4, 5), R(13, 10), R(17, 10)),
])
def test_renyi_closed_form_matches_quadrature(scale, sensitivity, alpha, assert_agree):
    lap = Laplace(sensitivity, scale)
    assert_agree(numeric(lap.renyi_divergence(alpha)), lap.densities().renyi(alpha, dps=DPS), 40)


def test_kl_matches_quadrature(assert_agree):
    lap = Laplace(1, R(3, 2))  # N3: KL at b = 1.5
    assert_agree(numeric(lap.kl()), lap.densities().kl(dps=DPS), 40)
    assert lap.renyi_divergence(1) == lap.kl()
    assert lap.renyi_divergence(sp.oo) == lap.eps0 == R(2, 3)


def test_renyi_tends_to_kl_and_to_eps0():
    """R-D2's limits: α → 1 gives the KL form, α → ∞ gives ε0 (evaluated near the ends)."""
    lap = Laplace(1, 2)
    near_one = mpf_of(lap.renyi_divergence(1 + R(1, 10 ** 30)))
    assert abs(near_one - mpf_of(lap.kl())) < mp.mpf(10) ** -28
    assert abs(mpf_of(lap.renyi_divergence(10 ** 6)) - mpf_of(lap.eps0)) < mp.mpf(10) ** -5
    symbolic = Laplace(symbols.sensitivity, symbols.sigma)
    assert symbolic.eps0 == symbols.sensitivity / symbols.sigma
    assert symbolic.renyi_divergence(symbols.alpha).has(symbols.alpha)


@pytest.mark.parametrize("delta", [R(1, 10), R(1, 10 ** 3), 1e-6])
def test_epsilon_round_trip(delta, assert_agree):
    lap = Laplace(2, 1)
    eps = lap.epsilon(delta)
    with mp.workdps(DPS + 10):
        target = mp.mpf(delta) if isinstance(delta, float) else mp.mpf(delta.p) / delta.q
    assert_agree(lap.delta(eps), target, 40)


def test_epsilon_at_tiny_delta_needs_the_digits_to_show_it(assert_agree):
    """ε(1e-300) = ε0 - O(1e-300): visible only at more than 300 digits, and then it round-trips."""
    lap = Laplace(2, 1)
    assert lap.epsilon(1e-300) == 2  # to 50 digits
    eps = lap.epsilon(1e-300, dps=400)
    assert_agree(lap.delta(eps, dps=400), mp.mpf(1e-300), 40)


def test_epsilon_edge_cases():
    lap = Laplace(2, 1)
    assert lap.epsilon(0) == 2  # pure ε0-DP
    assert lap.epsilon(1) == 0
    assert lap.epsilon(lap.delta(0)) < mp.mpf(10) ** -49  # δ(0) to 50 digits: ε = 0 up to rounding
    assert lap.epsilon((1 + lap.delta(0)) / 2) == 0


def test_repr_and_latex():
    lap = Laplace(sensitivity=1, scale=R(1, 2))
    assert repr(lap) == "Laplace(sensitivity=1, scale=1/2)"
    assert eval(repr(Laplace(2, 3)), {"Laplace": Laplace}) == Laplace(2, 3)
    assert "b=" in sp.latex(lap)
