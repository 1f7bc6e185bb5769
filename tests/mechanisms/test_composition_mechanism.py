"""Composition: exact profiles against explicit products and independent integrals.

Checks N17, N18, N19, N46 of REFERENCE.md; R-F7, R-F8, R-C7, R-D4.
"""

from __future__ import annotations

import itertools

import pytest
import sympy as sp
from mpmath import mp

from cdpsym.mechanisms import (ComposedGaussian, ComposedRandomizedResponse, Composition, Gaussian, Laplace,
                               RandomizedResponse, compose, hockey_stick_by_quadrature, hockey_stick_discrete,
                               optimal_composition_delta, optimal_composition_epsilon, renyi_discrete)

R = sp.Rational
DPS = 50


def mpf(value: object) -> mp.mpf:
    with mp.workdps(DPS + 20):
        return mp.mpf(sp.N(sp.sympify(value), DPS + 20))


# -- R-F7: k-fold randomized response = binomial sum (N18) ---------------------------------------------------

HOMOGENEOUS = [(7, R(2, 5)), (10, R(1, 10))]


@pytest.mark.parametrize("k, eps", HOMOGENEOUS)
def test_homogeneous_profile_matches_product_enumeration(k, eps, assert_agree):
    c = compose(RandomizedResponse(eps), k=k)
    P, Q = c.distributions(dps=DPS + 10)
    assert len(P) == 2 ** k
    kinks = [(k - 2 * i) * eps for i in (1, 2, 3)]
    for eps_p in [0, R(3, 10), R(23, 20), R(-1, 2), *kinks]:
        truth = hockey_stick_discrete(P, Q, eps_p, dps=DPS)
        assert_agree(c.delta(eps_p, dps=DPS), truth, 40)


def kov_delta_i(k: int, eps: object, i: int) -> mp.mpf:
    """Kairouz–Oh–Viswanath's δ_i (R-F7, first form), straight from the formula."""
    with mp.workdps(DPS + 20):
        e = mpf(eps)
        total = mp.fsum(mp.binomial(k, l) * (mp.exp((k - l) * e) - mp.exp((k - 2 * i + l) * e)) for l in range(i))
        return total / (1 + mp.exp(e)) ** k


@pytest.mark.parametrize("k, eps", HOMOGENEOUS)
@pytest.mark.parametrize("i", [1, 2, 3])
def test_kov_delta_i_equals_the_binomial_sum_at_kinks(k, eps, i, assert_agree):
    """N18, and KOV's approximate-DP form 1 - (1-δ)^k (1-δ_i) through the (ε_i, δ_i) function."""
    assert_agree(compose(RandomizedResponse(eps), k=k).delta((k - 2 * i) * eps, dps=DPS), kov_delta_i(k, eps, i), 40)
    d = R(1, 1000)
    with mp.workdps(DPS + 20):
        expected = 1 - (1 - mpf(d)) ** k * (1 - kov_delta_i(k, eps, i))
    assert_agree(optimal_composition_delta((k - 2 * i) * eps, [eps] * k, [d] * k, dps=DPS), expected, 40)


@pytest.mark.parametrize("k, eps, delta, published", [
    (100, R(1, 10), R(1, 10 ** 6), "4.7746"),    # N19
    (1000, R(1, 20), R(1, 10 ** 9), "10.2799"),  # N46
])
def test_homogeneous_epsilon_matches_published_optimum(k, eps, delta, published):
    value = compose(RandomizedResponse(eps), k=k).epsilon(delta)
    assert abs(value - mp.mpf(published)) < mp.mpf("5e-5")
    assert value == optimal_composition_epsilon(delta, [eps] * k)


@pytest.mark.parametrize("k, eps", [(7, R(2, 5)), (200, R(1, 20)), (3000, R(1, 100))])
@pytest.mark.parametrize("delta", [R(1, 10), R(1, 10 ** 6), 1e-12])
def test_homogeneous_epsilon_round_trip(k, eps, delta, assert_agree):
    c = compose(RandomizedResponse(eps), k=k)
    e = c.epsilon(delta)
    with mp.workdps(DPS + 10):
        target = mp.mpf(delta) if isinstance(delta, float) else mp.mpf(delta.p) / delta.q
    if e == 0:
        assert c.delta(0) <= target
    else:
        assert_agree(c.delta(e), target, 40)


def test_binomial_path_matches_loss_distribution_path(assert_agree):
    """The truncated binomial sum (fast path) = E_P[(1 - e^{ε'-L})_+] over the full loss distribution."""
    c = compose(RandomizedResponse(R(1, 20)), k=400)
    pld = c.privacy_loss_distribution(dps=DPS + 10)
    assert len(pld) == 401
    for eps_p in [0, R(1, 2), 2, R(47, 10), 9]:
        with mp.workdps(DPS + 20):
            e = mpf(eps_p)
            truth = mp.fsum(prob * -mp.expm1(e - mpf(loss)) for loss, prob in pld.items() if mpf(loss) > e)
        assert_agree(c.delta(eps_p, dps=DPS), truth, 40)


def test_hundred_thousand_fold_composition_is_finite_and_round_trips(assert_agree):
    c = compose(RandomizedResponse(R(1, 10)), k=10 ** 5)
    e = c.epsilon(1e-6)
    assert 600 < e < 700
    assert_agree(c.delta(e), mp.mpf(1e-6), 40)
    assert c.delta(c.eps) == 0 and c.delta(c.eps - R(1, 10 ** 6)) > 0


@pytest.mark.slow
def test_hundred_thousand_fold_against_the_full_loss_distribution(assert_agree):
    c = compose(RandomizedResponse(R(1, 10)), k=10 ** 5)
    eps_p = 600
    pld = c.privacy_loss_distribution(dps=DPS + 10)
    with mp.workdps(DPS + 20):
        truth = mp.fsum(prob * -mp.expm1(eps_p - mpf(loss)) for loss, prob in pld.items() if loss > eps_p)
    assert_agree(c.delta(eps_p, dps=DPS), truth, 40)


# -- R-F8: heterogeneous randomized response (N17) ----------------------------------------------------------

N17 = [  # (eps_i, eps'): REFERENCE N17's three instances, plus a mixed one
    ([R(3, 10), R(7, 10), R(11, 10)], R(1, 2)),
    ([R(1, 10)] * 6, R(1, 5)),
    ([1, R(1, 5), R(1, 2), R(1, 20)], 0),
    ([R(1, 10)] * 6 + [R(1, 5)], R(1, 5)),
]


def murtagh_vadhan_sum(epsilons: list, eps_p: object) -> mp.mpf:
    """R-F8's left-hand side, literally: a sum over all subsets S of [k]."""
    with mp.workdps(DPS + 20):
        es = [mpf(e) for e in epsilons]
        ep = mpf(eps_p)
        total = mp.zero
        for signs in itertools.product((0, 1), repeat=len(es)):
            inside = mp.fsum(e for e, s in zip(es, signs) if s)
            outside = mp.fsum(e for e, s in zip(es, signs) if not s)
            total += max(mp.zero, mp.exp(inside) - mp.exp(ep + outside))
        return total / mp.fprod(1 + mp.exp(e) for e in es)


@pytest.mark.parametrize("epsilons, eps_p", N17)
def test_heterogeneous_profile_matches_enumeration(epsilons, eps_p, assert_agree):
    c = compose(*(RandomizedResponse(e) for e in epsilons))
    assert isinstance(c, ComposedRandomizedResponse)
    P, Q = c.distributions(dps=DPS + 10)
    assert len(P) == 2 ** len(epsilons)
    truth = hockey_stick_discrete(P, Q, eps_p, dps=DPS)
    assert_agree(c.delta(eps_p, dps=DPS), truth, 40)
    assert_agree(murtagh_vadhan_sum(epsilons, eps_p), truth, 40)
    assert_agree(optimal_composition_delta(eps_p, epsilons, dps=DPS), truth, 40)


@pytest.mark.parametrize("epsilons, eps_p", N17)
@pytest.mark.parametrize("delta", [R(1, 20), R(1, 10 ** 4)])
def test_heterogeneous_epsilon_round_trip(epsilons, eps_p, delta, assert_agree):
    c = compose(*(RandomizedResponse(e) for e in epsilons))
    e = c.epsilon(delta)
    assert 0 < e < c.eps
    assert_agree(c.delta(e), mpf(delta), 40)
    assert_agree(e, optimal_composition_epsilon(delta, epsilons), 45)


def test_heterogeneous_with_float_and_irrational_eps(assert_agree):
    """Floats are taken at their binary value, irrational ε kept exact as sympy keys."""
    for epsilons in ([0.3, 0.7, 0.3], [sp.log(3), sp.log(2), R(1, 2)]):
        c = compose(*(RandomizedResponse(e) for e in epsilons))
        P, Q = c.distributions(dps=DPS + 10)
        assert_agree(c.delta(R(1, 3), dps=DPS), hockey_stick_discrete(P, Q, R(1, 3), dps=DPS), 40)


def test_heterogeneous_renyi_is_additive_on_the_product(assert_agree):
    """R-D4 holds with equality on products: Σ D_α = D_α of the explicit product pair."""
    c = compose(RandomizedResponse(R(3, 10)), RandomizedResponse(R(7, 10)), k=2)
    P, Q = c.distributions(dps=DPS + 10)
    assert_agree(mpf(c.renyi_divergence(R(5, 2))), renyi_discrete(P, Q, R(5, 2), dps=DPS), 40)
    assert_agree(mpf(c.kl()), renyi_discrete(P, Q, 1, dps=DPS), 40)


def test_approximate_dp_parts_and_impossible_targets():
    epsilons, deltas = [R(1, 2), 1], [R(1, 100), R(1, 50)]
    floor = 1 - (1 - mpf(R(1, 100))) * (1 - mpf(R(1, 50)))
    assert optimal_composition_epsilon(floor / 2, epsilons, deltas) == mp.inf
    d = optimal_composition_delta(R(3, 5), epsilons, deltas)
    assert abs(optimal_composition_epsilon(d, epsilons, deltas) - mpf(R(3, 5))) < mp.mpf(10) ** -40
    assert optimal_composition_delta(R(3, 2), epsilons, deltas) == pytest.approx(float(floor), rel=1e-15)


# -- Gaussians compose to a Gaussian (R-B8, R-C7) ------------------------------------------------------------

PARTS = [(1, R(3, 2)), (R(1, 2), R(7, 10)), (2, R(31, 10))]


def test_three_gaussians_match_one_dimensional_quadrature(assert_agree):
    c = compose(*(Gaussian(d, s) for d, s in PARTS))
    assert isinstance(c, ComposedGaussian)
    total = sum((sp.sympify(d) / s) ** 2 for d, s in PARTS)
    assert c.rho == total / 2
    with mp.workdps(DPS + 10):
        shift = mp.sqrt(mpf(total))
    p = lambda y: mp.npdf(y, 0, 1)  # noqa: E731
    q = lambda y: mp.npdf(y, shift, 1)  # noqa: E731
    for eps in (R(1, 2), 2):
        assert_agree(c.delta(eps, dps=DPS), hockey_stick_by_quadrature(p, q, eps, dps=DPS), 40)


def mixed_profile(first: Gaussian, rest, eps: object) -> mp.mpf:
    """δ_{P1×P2 || Q1×Q2}(ε) = E_{y~P1}[δ_{P2||Q2}(ε - ℓ1(y))], ℓ1 = log p1/q1 from the densities.

    Uses only the definition (R-A6) and the one-dimensional profile of *rest*,
    not the composition law being tested.
    """
    p1, q1 = first.densities()
    with mp.workdps(DPS + 10):
        e = mpf(eps)

        def integrand(y):
            loss = mp.log(p1(y) / q1(y))
            return p1(y) * rest.delta(e - loss, dps=DPS + 10)

        return mp.quad(integrand, [-mp.inf, 0, mp.inf])


def test_two_gaussians_by_integrating_one_coordinate_out(assert_agree):
    g1, g2 = Gaussian(*PARTS[0]), Gaussian(*PARTS[1])
    assert_agree(compose(g1, g2).delta(R(3, 2), dps=DPS), mixed_profile(g1, g2, R(3, 2)), 40)


def test_three_gaussians_nested(assert_agree):
    g1, g2, g3 = (Gaussian(d, s) for d, s in PARTS)
    assert_agree(compose(g1, g2, g3).delta(1, dps=DPS), mixed_profile(g1, compose(g2, g3), 1), 40)


def test_gaussian_composition_epsilon_and_symbolic_k(assert_agree):
    c = compose(Gaussian(1, 2), k=10)
    assert c.equivalent == Gaussian(sp.sqrt(10) / 2, 1)
    assert_agree(c.delta(c.epsilon(1e-9)), mp.mpf(1e-9), 40)
    k, sigma = sp.Symbol("k", positive=True, integer=True), sp.Symbol("sigma", positive=True)
    s = compose(Gaussian(1, sigma), k=k)
    assert s.rho == k / (2 * sigma ** 2)
    assert sp.simplify(s.renyi_divergence(3) - 3 * k / (2 * sigma ** 2)) == 0


# -- the compose API -----------------------------------------------------------------------------------------

def test_compose_api_flattens_groups_and_prints():
    a, b = RandomizedResponse(R(1, 2)), RandomizedResponse(1)
    c = compose(compose(a, k=2), b, k=3)
    assert c.groups == ((a, 6), (b, 3))
    assert c.eps == 6
    assert repr(c) == ("compose(compose(RandomizedResponse(eps=1/2), k=2), RandomizedResponse(eps=1), k=3)")
    assert repr(compose(a, b)) == "compose(RandomizedResponse(eps=1/2), RandomizedResponse(eps=1))"
    assert eval(repr(compose(Gaussian(1, 2), k=4))) == compose(Gaussian(1, 2), k=4)
    assert r"\otimes" in sp.latex(c)
    assert compose(a, k=2) == compose(a, k=2) and hash(compose(a, k=2)) == hash(compose(a, k=2))
    assert compose(a, k=2) != compose(b, k=2)


def test_other_compositions_keep_renyi_but_have_no_exact_profile():
    c = compose(Laplace(1, 2), RandomizedResponse(1))
    assert type(c) is Composition
    assert c.renyi_divergence(sp.oo) == R(1, 2) + 1
    assert sp.simplify(c.kl() - Laplace(1, 2).kl() - RandomizedResponse(1).kl()) == 0
