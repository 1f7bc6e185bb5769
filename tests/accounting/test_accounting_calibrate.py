"""Certified calibration: the rounded σ (up) / ε0 (down) is safe, and one unit further is not."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from accounting_truth import DPS, to_fraction

from cdpsym.accounting import calibrate_eps0, calibrate_sigma
from cdpsym.mechanisms import Gaussian, RandomizedResponse, compose


def _unit(rounded: str, digits: int) -> Fraction:
    value = Fraction(rounded)
    e = len(str(int(value))) - 1 if value >= 1 else -len(rounded.split(".")[1].lstrip("0")) + len(
        rounded.split(".")[1].rstrip("0")) - len(rounded.split(".")[1].rstrip("0").lstrip("0"))
    # exponent of the leading digit
    e = 0
    while Fraction(10) ** (e + 1) <= value:
        e += 1
    while Fraction(10) ** e > value:
        e -= 1
    return Fraction(10) ** (e - digits + 1)


@pytest.mark.parametrize("eps, delta, k, sensitivity", [
    (1, "1e-6", 1, 1),
    (1, "1e-6", 500, 1),
    ("0.5", "1e-10", 1000, 2),
    (0, "0.1", 1, 1),
    (5, "1e-300", 10, 1),
    (1, "1e-6", 10 ** 7, "0.5"),
])
def test_sigma_is_the_smallest_safe_noise(eps, delta, k, sensitivity) -> None:  # type: ignore[no-untyped-def]
    got = calibrate_sigma(eps=eps, delta=delta, k=k, sensitivity=sensitivity)
    assert got.quantity == "sigma" and got.direction == "up" and got.exact
    e, d, s = Fraction(str(eps)), Fraction(delta), Fraction(str(sensitivity))
    sigma = Fraction(got.rounded)
    safe = compose(Gaussian(sp.Rational(s.numerator, s.denominator), sp.Rational(sigma.numerator,
                                                                                  sigma.denominator)), k=k)
    assert to_fraction(safe.delta(e, dps=DPS)) <= d
    below = sigma - _unit(got.rounded, got.digits)
    unsafe = compose(Gaussian(sp.Rational(s.numerator, s.denominator), sp.Rational(below.numerator,
                                                                                    below.denominator)), k=k)
    assert to_fraction(unsafe.delta(e, dps=DPS)) > d


def test_sigma_known_value() -> None:
    """Balle–Wang's analytic calibration: ε = 1, δ = 1e-6, Δ = 1 needs σ = 4.2246788…"""
    assert calibrate_sigma(eps=1, delta="1e-6", k=1, sensitivity=1).rounded == "4.224678890"


@pytest.mark.parametrize("eps, delta, k", [(1, "1e-6", 500), (1, "1e-6", 1), (2, "1e-10", 1000), ("0.5", "1e-3", 10)])
def test_eps0_is_the_largest_safe_budget(eps, delta, k) -> None:  # type: ignore[no-untyped-def]
    got = calibrate_eps0(eps=eps, delta=delta, k=k)
    assert got.quantity == "eps0" and got.direction == "down" and got.exact
    e, d = Fraction(str(eps)), Fraction(delta)
    eps0 = Fraction(got.rounded)
    safe = compose(RandomizedResponse(sp.Rational(eps0.numerator, eps0.denominator)), k=k)
    assert to_fraction(safe.delta(e, dps=DPS)) <= d
    above = eps0 + _unit(got.rounded, got.digits)
    unsafe = compose(RandomizedResponse(sp.Rational(above.numerator, above.denominator)), k=k)
    assert to_fraction(unsafe.delta(e, dps=DPS)) > d
