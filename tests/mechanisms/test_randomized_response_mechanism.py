"""Randomized response: closed forms against direct sums over the two outcomes (N4, N7, N25; R-D3, R-E6)."""

from __future__ import annotations

import pytest
import sympy as sp
from mpmath import mp

from cdpsym.mechanisms import RandomizedResponse, hockey_stick_discrete, kl_discrete, renyi_discrete

R = sp.Rational
DPS = 50


def numeric(expr: sp.Expr) -> mp.mpf:
    with mp.workdps(DPS + 10):
        return mp.mpf(sp.N(expr, DPS + 20))


@pytest.mark.parametrize("eps0, eps", [(1, R(2, 5)), (2, 0), (R(7, 10), R(7, 10))])  # N7
def test_profile_matches_enumeration(eps0, eps, assert_agree):
    rr = RandomizedResponse(eps0)
    P, Q = rr.distributions(dps=DPS + 10)
    truth = hockey_stick_discrete(P, Q, eps, dps=DPS)
    if truth == 0:
        assert rr.delta(eps) == 0
    else:
        assert_agree(rr.delta(eps, dps=DPS), truth, 40)
        assert_agree(numeric(rr.privacy_profile(eps)), truth, 40)


@pytest.mark.parametrize("eps", [R(-1, 2), -3])
def test_profile_at_negative_eps_matches_enumeration(eps, assert_agree):
    rr = RandomizedResponse(1)
    assert_agree(rr.delta(eps, dps=DPS), hockey_stick_discrete(*rr.distributions(DPS + 10), eps, dps=DPS), 40)


def test_renyi_and_kl_match_two_point_sums(assert_agree):
    """N4: p = 0.7, α = 4; KL = (2p-1) log(p/(1-p)) = ε tanh(ε/2) (R-D3, R-B14)."""
    rr = RandomizedResponse.from_p(R(7, 10))
    assert sp.simplify(rr.p - R(7, 10)) == 0
    P, Q = rr.distributions(dps=DPS + 10)
    assert_agree(numeric(rr.renyi_divergence(4)), renyi_discrete(P, Q, 4, dps=DPS), 40)
    assert_agree(numeric(rr.kl()), kl_discrete(P, Q, dps=DPS), 40)
    assert_agree(numeric(rr.kl()), numeric((2 * R(7, 10) - 1) * sp.log(R(7, 3))), 40)
    assert_agree(numeric(rr.renyi_divergence(sp.oo)), renyi_discrete(P, Q, sp.oo, dps=DPS), 40)


@pytest.mark.parametrize("eps", [R(1, 2), 2])  # N25
def test_kl_is_eps_tanh(eps, assert_agree):
    rr = RandomizedResponse(eps)
    assert_agree(numeric(rr.kl()), kl_discrete(*rr.distributions(DPS + 10), dps=DPS), 40)
    assert_agree(numeric(rr.kl()), numeric(eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1)), 40)


@pytest.mark.parametrize("delta", [R(1, 10), R(1, 10 ** 3), 1e-6])
def test_epsilon_round_trip(delta, assert_agree):
    rr = RandomizedResponse(3)
    eps = rr.epsilon(delta)
    with mp.workdps(DPS + 10):
        target = mp.mpf(delta) if isinstance(delta, float) else mp.mpf(delta.p) / delta.q
    assert_agree(rr.delta(eps), target, 40)


def test_epsilon_at_tiny_delta_needs_the_digits_to_show_it(assert_agree):
    """ε(1e-300) = ε0 - O(1e-300): visible only at more than 300 digits, and then it round-trips."""
    rr = RandomizedResponse(3)
    assert rr.epsilon(1e-300) == 3  # to 50 digits
    eps = rr.epsilon(1e-300, dps=400)
    assert_agree(rr.delta(eps, dps=400), mp.mpf(1e-300), 40)


def test_epsilon_edge_cases():
    rr = RandomizedResponse(1)
    assert rr.epsilon(0) == 1
    assert rr.epsilon(1) == 0
    with mp.workdps(60):
        tv = mp.tanh(mp.mpf(1) / 2)  # δ(0) = TV = tanh(ε/2)
        assert rr.epsilon(tv * (1 + mp.mpf(10) ** -40)) == 0
        assert 0 < rr.epsilon(tv * (1 - mp.mpf(10) ** -40)) < mp.mpf(10) ** -39
    coin = RandomizedResponse(0)
    assert coin.delta(0) == 0 and coin.epsilon(0) == 0 and coin.renyi_divergence(3) == 0


def test_symbolic_renyi_and_repr():
    e = sp.Symbol("eps", positive=True)
    rr = RandomizedResponse(e)
    assert rr.renyi_divergence(sp.oo) == e
    assert repr(RandomizedResponse(R(1, 2))) == "RandomizedResponse(eps=1/2)"
    assert eval(repr(RandomizedResponse(0.25))) == RandomizedResponse(0.25)
    assert r"\varepsilon" in RandomizedResponse(1).latex()
