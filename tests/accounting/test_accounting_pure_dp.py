"""Certified optimal pure-DP composition (randomized response, R-F7/R-F8) against independent ground truths.

Small k: explicit enumeration of the product distributions (``2**k`` atoms) and
the definition of the hockey-stick divergence.  Larger k: the mpmath engine of
:mod:`cdpsym.mechanisms` at 100 digits.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from accounting_truth import DPS, check_encloses, check_zero, to_fraction

from cdpsym.accounting import Certified, delta, epsilon
from cdpsym.accounting.certified import arb_to_fraction
from cdpsym.mechanisms import Laplace, RandomizedResponse, compose, hockey_stick_discrete
from cdpsym.errors import ResourceLimit

R = sp.Rational


def rr(eps: object, k: int = 1):  # type: ignore[no-untyped-def]
    return compose(RandomizedResponse(eps), k=k)


def enumerated_delta(mechanism, eps: Fraction):  # type: ignore[no-untyped-def]
    P, Q = mechanism.distributions(dps=DPS)
    return hockey_stick_discrete(P, Q, eps, dps=DPS)


SMALL = {
    "RR(2/5)^7": rr(R(2, 5), 7),
    "RR(1)^10": rr(1, 10),
    "RR(0.1)^9": rr(0.1, 9),
    "RR(2)^3": rr(2, 3),
    "hetero(3/10,7/10,11/10)": compose(RandomizedResponse(R(3, 10)), RandomizedResponse(R(7, 10)),
                                       RandomizedResponse(R(11, 10))),
    "hetero grid": compose(rr(R(1, 10), 3), rr(R(1, 5), 2), rr(R(1, 3), 2), RandomizedResponse(1)),
}


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("eps", ["0", "1/2", "6/5", "2"])
def test_delta_small_k_against_enumeration(name: str, eps: str) -> None:
    mechanism = SMALL[name]
    got = delta(mechanism, eps=eps)
    assert got.quantity == "delta" and got.exact
    truth = enumerated_delta(mechanism, Fraction(eps))
    if truth == 0:
        check_zero(got)
    else:
        check_encloses(got, truth)


@pytest.mark.parametrize("name", sorted(SMALL))
@pytest.mark.parametrize("target", ["1e-3", "1e-1", "0.3", "0.6"])
def test_epsilon_small_k_against_enumeration(name: str, target: str) -> None:
    """The least ε: δ_enum(rounded) <= δ <= δ_enum(ball lower end) (enumeration), and the 100-digit root."""
    mechanism = SMALL[name]
    got = epsilon(mechanism, delta=target)
    d = Fraction(target)
    if got.rounded == "0":
        check_zero(got)
        assert to_fraction(enumerated_delta(mechanism, Fraction(0))) <= d
        return
    assert to_fraction(enumerated_delta(mechanism, Fraction(got.rounded))) <= d
    assert to_fraction(enumerated_delta(mechanism, arb_to_fraction(got.ball.lower()))) > d
    check_encloses(got, mechanism.epsilon(d, dps=DPS))


LARGE = [
    (R(1, 10), 100, "1e-6"),
    (R(1, 10), 1000, "1e-6"),
    (R(1, 100), 1000, "1e-10"),
    (R(1, 10), 1000, "1e-300"),  # the root is within 1e-20 of k eps0: δ(ε) = p^k (1 - e^{ε - kε0})
    (R(1, 100), 1000, "0.1256"),  # just below δ(0) = 0.12560…: a tiny positive ε
    (R(1, 100), 1000, "0.1257"),  # just above δ(0): ε = 0
    (5, 1000, "1e-6"),
    (R(1, 10), 1001, "0.5"),
    (sp.log(3), 50, "1e-5"),  # irrational eps0 (RandomizedResponse.from_p(3/4))
]


@pytest.mark.parametrize("eps0, k, target", LARGE)
def test_epsilon_homogeneous_against_mpmath(eps0, k, target) -> None:  # type: ignore[no-untyped-def]
    mechanism = rr(eps0, k)
    got = epsilon(mechanism, delta=target)
    assert isinstance(got, Certified) and got.exact
    truth = mechanism.epsilon(Fraction(target), dps=DPS)
    if truth == 0:
        check_zero(got)
    else:
        check_encloses(got, truth)


@pytest.mark.parametrize("eps0, k, eps", [
    (R(1, 10), 1000, "2"),
    (R(1, 10), 1000, "0"),
    (R(1, 10), 999, "1/10"),  # exactly a loss value: the kink, where the term's weight is 0
    (R(1, 10), 1000, "100"),  # k eps0: δ = 0 exactly
    (R(1, 10), 1000, "1999/20"),  # δ ≈ 6.8e-282
    (R(1, 100), 1000, "3"),  # δ ≈ 8e-23
    (sp.log(3), 50, "7"),
])
def test_delta_homogeneous_against_mpmath(eps0, k, eps) -> None:  # type: ignore[no-untyped-def]
    mechanism = rr(eps0, k)
    got = delta(mechanism, eps=eps)
    truth = mechanism.delta(Fraction(eps), dps=DPS)
    if truth == 0:
        check_zero(got)
    else:
        check_encloses(got, truth)


@pytest.mark.slow
@pytest.mark.parametrize("eps0, target", [(R(1, 100), "1e-6"), (R(1, 1000), "1e-10"), (R(1, 10000), "1e-300")])
def test_epsilon_k_1e7_against_mpmath(eps0, target) -> None:  # type: ignore[no-untyped-def]
    mechanism = rr(eps0, 10 ** 7)
    got = epsilon(mechanism, delta=target)
    check_encloses(got, mechanism.epsilon(Fraction(target), dps=DPS))


@pytest.mark.slow
@pytest.mark.parametrize("eps", ["0", "650"])
def test_delta_k_1e7_against_mpmath(eps: str) -> None:
    mechanism = rr(R(1, 100), 10 ** 7)
    got = delta(mechanism, eps=eps)
    check_encloses(got, mechanism.delta(Fraction(eps), dps=DPS))


def test_k_1e7_runs_quickly_and_is_consistent() -> None:
    """k = 10^7 (default run): the answer is inside [0, k eps0] and δ there is certified below the target."""
    mechanism = rr(R(1, 100), 10 ** 7)
    got = epsilon(mechanism, delta="1e-6")
    assert Fraction(600) < Fraction(got.rounded) < Fraction(700)
    at = delta(mechanism, eps=got.rounded)
    assert arb_to_fraction(at.ball.upper()) <= Fraction(1, 10 ** 6)


def test_heterogeneous_limit_is_refused_clearly() -> None:
    mechanism = compose(*[RandomizedResponse(R(1, p)) for p in (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41,
                                                                  43, 47, 53, 59, 61)])
    # a cost limit on a well-posed query (exit 2 on the command line), not a domain error
    with pytest.raises(ResourceLimit, match="distinct privacy losses, beyond the limit.*coarser common grid"):
        epsilon(mechanism, delta="1e-6")


def test_fair_coins_are_perfectly_private() -> None:
    check_zero(epsilon(rr(0, 5), delta="1e-9"))
    check_zero(delta(rr(0, 5), eps=0))


@pytest.mark.parametrize("eps0, eps", [(1, "0"), (1, "1/2"), (R(1, 3), "1/4"), (2, "2"), (2, "3")])
def test_single_laplace_exact_profile(eps0, eps) -> None:  # type: ignore[no-untyped-def]
    mechanism = Laplace(sensitivity=1, scale=1 / sp.sympify(eps0))
    got = delta(mechanism, eps=eps)
    truth = mechanism.delta(Fraction(eps), dps=DPS)
    if truth == 0:
        check_zero(got)
    else:
        check_encloses(got, truth)


@pytest.mark.parametrize("target", ["1e-6", "0.1", "0.5"])
def test_single_laplace_epsilon(target: str) -> None:
    mechanism = Laplace(sensitivity=1, scale=R(1, 2))
    got = epsilon(mechanism, delta=target)
    truth = mechanism.epsilon(Fraction(target), dps=DPS)
    if truth == 0:
        check_zero(got)
    else:
        check_encloses(got, truth)
