"""Certified Gaussian accounting against the mpmath ground truth (cdpsym.mechanisms at 100 digits)."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from accounting_truth import DPS, check_encloses, check_zero, to_fraction

from cdpsym.accounting import Certified, delta, epsilon
from cdpsym.accounting.certified import arb_to_fraction
from cdpsym.mechanisms import Gaussian, compose

R = sp.Rational

MECHANISMS = {
    "G(1,1)": Gaussian(1, 1),
    "G(1,2)^1000": compose(Gaussian(1, 2), k=1000),
    "G(1,2)": Gaussian(1, 2),
    "G(1,2)^1e7": compose(Gaussian(1, 2), k=10 ** 7),
    "rho=5e-13": Gaussian(R(1, 10 ** 6), 1),
    "G(1,0.3 float)": Gaussian(1, 0.3),
    "heterogeneous": compose(Gaussian(1, 1), Gaussian(2, 3), Gaussian(sp.sqrt(2), 5), Gaussian(R(1, 2), R(7, 3))),
    "G(sqrt2,1)^3": compose(Gaussian(sp.sqrt(2), 1), k=3),
}

#: the ground truth of a float parameter is computed at the float's exact binary value (the accounting contract);
#: the mechanisms' own mpmath profile would read sympy's Float(0.3) as a 15-digit decimal (1e-17 apart)
TRUTH = {"G(1,0.3 float)": Gaussian(1, R(*(0.3).as_integer_ratio()))}

EPSILON_CASES = [
    ("G(1,1)", "1e-6"),
    ("G(1,1)", "0.3"),
    ("G(1,2)^1000", "1e-10"),
    ("G(1,2)", "1e-300"),
    ("G(1,2)^1e7", "1e-10"),
    ("G(1,2)^1e7", "1e-300"),
    ("rho=5e-13", "1e-10"),
    ("rho=5e-13", "1e-300"),
    ("G(1,0.3 float)", "1e-6"),
    ("heterogeneous", "1e-8"),
    ("G(sqrt2,1)^3", "1e-6"),
]


@pytest.mark.parametrize("name, target", EPSILON_CASES)
def test_epsilon_encloses_the_ground_truth(name: str, target: str) -> None:
    mechanism = MECHANISMS[name]
    got = epsilon(mechanism, delta=target)
    assert isinstance(got, Certified) and got.quantity == "epsilon" and got.direction == "up" and got.exact
    assert got.digits == 10
    truth = TRUTH.get(name, mechanism).epsilon(Fraction(target), dps=DPS)
    check_encloses(got, truth)


def test_r_e7_exact_value() -> None:
    """ρ = 1/2, δ = 1e-6: the exact Gaussian ε is 4.886554117… (R-E7, BW18)."""
    got = epsilon(Gaussian(sensitivity=1, sigma=1), delta="1e-6")
    assert got.rounded == "4.886554118"  # 4.88655411746… rounded up


@pytest.mark.parametrize("name, eps", [
    ("G(1,1)", "1"),
    ("G(1,1)", "0"),
    ("G(1,1)", "40"),  # δ ≈ 1e-215: the two terms cancel to 15 digits; escalation recovers them
    ("G(1,2)^1000", "224.7417229961"),
    ("G(1,2)^1e7", "1260057"),
    ("rho=5e-13", "1e-5"),
    ("heterogeneous", "3"),
])
def test_delta_encloses_the_ground_truth(name: str, eps: str) -> None:
    mechanism = MECHANISMS[name]
    got = delta(mechanism, eps=eps)
    assert got.quantity == "delta" and got.direction == "up" and got.exact
    truth = TRUTH.get(name, mechanism).delta(Fraction(eps), dps=DPS)
    check_encloses(got, truth)


def test_delta_of_known_value() -> None:
    """δ(1) of Gaussian(1, 1) is 0.12693673750664394…, rounded up at 10 digits."""
    assert delta(Gaussian(1, 1), eps=1).rounded == "0.1269367376"


def test_epsilon_is_zero_when_delta_exceeds_total_variation() -> None:
    """δ(0) = erf(μ/(2√2)); for μ = 1/2 that is 0.1974…, so any δ above it gives ε = 0 exactly."""
    got = epsilon(Gaussian(1, 2), delta="0.2")
    check_zero(got)
    assert "delta(0)" in got.method


def test_more_digits_on_request() -> None:
    mechanism = compose(Gaussian(1, 2), k=1000)
    got = epsilon(mechanism, delta="1e-10", digits=40)
    assert got.digits == 40
    check_encloses(got, mechanism.epsilon(Fraction(1, 10 ** 10), dps=DPS))


def test_inverse_consistency() -> None:
    """δ at the rounded-up ε is at most the target, and δ at the ball's lower end is above it."""
    mechanism = compose(Gaussian(1, 3), k=50)
    got = epsilon(mechanism, delta="1e-9")
    assert to_fraction(mechanism.delta(Fraction(got.rounded), dps=DPS)) <= Fraction(1, 10 ** 9)
    lower = arb_to_fraction(got.ball.lower())
    assert to_fraction(mechanism.delta(lower, dps=DPS)) > Fraction(1, 10 ** 9)


def test_composition_cost_does_not_depend_on_k() -> None:
    """k = 10^7 Gaussians is one Gaussian: same answer as the equivalent single mechanism."""
    big = epsilon(compose(Gaussian(1, 2), k=10 ** 7), delta="1e-10")
    single = epsilon(Gaussian(sensitivity=sp.sqrt(10 ** 7), sigma=2), delta="1e-10")
    assert big.rounded == single.rounded
