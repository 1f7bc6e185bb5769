"""The ground truths themselves, on pairs whose answers are known without any cdpsym closed form."""

from __future__ import annotations

import sympy as sp
from mpmath import mp

from cdpsym.mechanisms import (find_crossings, hockey_stick_by_quadrature, hockey_stick_discrete, kl_discrete,
                               product_distribution, renyi_by_quadrature, renyi_discrete)

DPS = 50


def test_two_crossings_are_found_for_unequal_variances(assert_agree):
    """N(0,1) vs N(0,4): p > e^ε q on (-c, c); δ = (2Φ(c)-1) - e^ε (2Φ(c/2)-1) with c from the equation."""
    p = lambda y: mp.npdf(y, 0, 1)  # noqa: E731
    q = lambda y: mp.npdf(y, 0, 2)  # noqa: E731
    eps = mp.mpf(1) / 5
    crossings = find_crossings(p, q, eps, search=(-10, 10), dps=DPS)
    assert len(crossings) == 2
    with mp.workdps(DPS + 10):
        # p(c) = e^ε q(c)  <=>  c² (1 - 1/4)/2 = log 2 - ε
        c = mp.sqrt((mp.log(2) - eps) * 8 / 3)
        assert_agree(crossings[1], c, 45)
        exact = (2 * mp.ncdf(c) - 1) - mp.exp(eps) * (2 * mp.ncdf(c / 2) - 1)
    assert_agree(hockey_stick_by_quadrature(p, q, eps, dps=DPS), exact, 40)


def test_gaussian_divergences_by_quadrature_against_textbook_values(assert_agree):
    """D_3(N(0,1)||N(1,1)) = 3/2 is a textbook value, not a cdpsym formula (KL: see the doctest)."""
    p = lambda y: mp.npdf(y, 0, 1)  # noqa: E731
    q = lambda y: mp.npdf(y, 1, 1)  # noqa: E731
    assert_agree(renyi_by_quadrature(p, q, 3, dps=40), mp.mpf(3) / 2, 38)


def test_total_variation_of_uniform_densities(assert_agree):
    """U[0,1] vs U[1/2, 3/2]: TV = 1/2, exactly; kinks passed as breakpoints."""
    p = lambda y: mp.one if 0 <= y <= 1 else mp.zero  # noqa: E731
    q = lambda y: mp.one if mp.mpf(1) / 2 <= y <= mp.mpf(3) / 2 else mp.zero  # noqa: E731
    value = hockey_stick_by_quadrature(p, q, 0, dps=DPS, breakpoints=[0, sp.Rational(1, 2), 1, sp.Rational(3, 2)],
                                       find=False)
    assert_agree(value, mp.mpf(1) / 2, 45)


def test_tiny_integrals_are_relative_not_absolute(assert_agree):
    """An integral of size e^-800 is computed to full relative precision (mpmath's tolerance is absolute)."""
    with mp.workdps(DPS + 10):
        shift = mp.mpf(40)
        exact = mp.ncdf(-shift)
    p = lambda y: mp.npdf(y, 0, 1)  # noqa: E731
    q = lambda y: mp.zero  # noqa: E731
    tail = hockey_stick_by_quadrature(lambda y: p(y) if y < -40 else mp.zero, q, 0, dps=DPS,
                                      breakpoints=[-40], find=False)
    assert_agree(tail, exact, 40)


def test_discrete_divergences():
    P, Q = {"a": sp.Rational(3, 4), "b": sp.Rational(1, 4)}, {"a": sp.Rational(1, 4), "b": sp.Rational(3, 4)}
    with mp.workdps(60):
        assert abs(hockey_stick_discrete(P, Q, 0) - mp.mpf(1) / 2) < mp.mpf(10) ** -49
        assert abs(renyi_discrete(P, Q, sp.oo) - mp.log(3)) < mp.mpf(10) ** -49
        assert abs(kl_discrete(P, Q) - mp.log(3) / 2) < mp.mpf(10) ** -49
        assert abs(renyi_discrete(P, Q, 2) - mp.log(mp.mpf(7) / 3)) < mp.mpf(10) ** -49  # Σ P²/Q = 9/4 + 1/12
    assert kl_discrete({0: 1}, {1: 1}) == mp.inf
    assert hockey_stick_discrete([1, 0], [0, 1], 5) == 1  # sequences, disjoint supports


def test_product_distribution_masses():
    pair = product_distribution({0: 0.5, 1: 0.5}, {0: sp.Rational(1, 3), 1: sp.Rational(2, 3)}, {"x": 1})
    assert len(pair) == 4
    assert abs(sum(pair.values()) - 1) < mp.mpf(10) ** -50
    with mp.workdps(60):
        assert abs(pair[(1, 1, "x")] - mp.mpf(1) / 3) < mp.mpf(10) ** -55


def test_global_precision_is_never_changed():
    before = (mp.prec, mp.dps)
    p = lambda y: mp.npdf(y, 0, 1)  # noqa: E731
    q = lambda y: mp.npdf(y, 1, 1)  # noqa: E731
    hockey_stick_by_quadrature(p, q, 1, dps=30)
    renyi_discrete([0.5, 0.5], [0.25, 0.75], 2, dps=80)
    assert (mp.prec, mp.dps) == before
