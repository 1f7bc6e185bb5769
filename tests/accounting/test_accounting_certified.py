"""The certified-number plumbing: exact inputs, outward rounding, the value objects, escalation."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest
import sympy as sp
from flint import arb, ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpsym.accounting import Certified, CertifiedBounds
from cdpsym.accounting.certified import (NeedPrecision, ball_endpoints, certify, exact_input, real_input,
                                         round_ball)
from cdpsym.errors import PrecisionError


@pytest.mark.parametrize("value, expected", [
    ("1e-10", Fraction(1, 10 ** 10)),
    ("1e-300", Fraction(1, 10 ** 300)),
    (" 0.5 ", Fraction(1, 2)),
    ("1/3", Fraction(1, 3)),
    (3, Fraction(3)),
    (Fraction(2, 7), Fraction(2, 7)),
    (sp.Rational(5, 9), Fraction(5, 9)),
    (0.1, Fraction(0.1)),  # the exact binary value, not 1/10
    (sp.Float(0.1), Fraction(0.1)),
])
def test_exact_inputs(value: object, expected: Fraction) -> None:
    got = exact_input(value, "x")
    assert Fraction(int(got.p), int(got.q)) == expected


def test_irrational_inputs_stay_symbolic_and_are_enclosed() -> None:
    x = real_input(sp.sqrt(2), "x")
    assert isinstance(x, sp.Expr)
    from cdpsym.accounting.certified import to_arb
    with ctx.workprec(200):
        b = to_arb(x)
        assert (b * b).contains(2) and b.rad() < arb(2) ** -190


@st.composite
def intervals(draw):  # type: ignore[no-untyped-def]
    """A ball given by exact dyadic endpoints over a wide range of magnitudes."""
    man = draw(st.integers(1, 2 ** 80))
    exp = draw(st.integers(-1100, 200))
    width = draw(st.integers(0, 2 ** 40))
    lo = Fraction(man) * Fraction(2) ** exp
    hi = lo + Fraction(width) * Fraction(2) ** (exp - draw(st.integers(0, 90)))
    return lo, hi


@settings(max_examples=300, deadline=None)
@given(intervals(), st.integers(1, 25), st.sampled_from(["up", "down"]))
def test_rounding_is_outward_and_digits_are_honest(bounds, digits, direction) -> None:  # type: ignore[no-untyped-def]
    lo, hi = bounds
    with ctx.workprec(400):
        ball = arb(fmpq(lo.numerator, lo.denominator)).union(arb(fmpq(hi.numerator, hi.denominator)))
    b_lo, b_hi = ball_endpoints(ball)
    assert b_lo <= lo and hi <= b_hi
    value, text, certified = round_ball(ball, digits, direction)
    assert Fraction(text) == value
    if value:
        e = _exponent10(abs(value))
        assert (value / Fraction(10) ** (e - digits + 1)).denominator == 1  # at most `digits` significant digits
    if direction == "up":
        assert value >= b_hi  # above every point of the ball
        error = value - b_lo
    else:
        assert value <= b_lo
        error = b_hi - value
    if certified > 0 and value:
        assert error <= Fraction(10) ** (_exponent10(abs(value)) - certified + 1)


def _exponent10(x: Fraction) -> int:
    e = len(str(x.numerator)) - len(str(x.denominator))
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e


def test_rounding_examples() -> None:
    with ctx.workprec(100):
        third = arb(1) / 3
    assert round_ball(third, 5, "up")[1:] == ("0.33334", 5)
    assert round_ball(third, 5, "down")[1:] == ("0.33333", 5)
    assert round_ball(arb(0), 10, "up")[1:] == ("0", 10)
    assert round_ball(arb(2), 3, "up")[1] == "2.00"
    with ctx.workprec(200):
        assert round_ball(arb(fmpq(123456789, 10 ** 310)), 4, "up")[1] == "1.235e-302"
        assert round_ball(arb(10) ** 30, 4, "down")[1] == "1.000e+30"


def test_certified_value_object() -> None:
    c = certify("delta", lambda prec: arb(1) / 3, digits=12, method="demo", query={"x": "1/3"})
    assert isinstance(c, Certified)
    assert (c.quantity, c.direction, c.digits, c.exact) == ("delta", "up", 12, True)
    assert c.rounded == "0.333333333334"
    assert c.float >= 1 / 3 and Fraction(c.float) >= Fraction(1, 3)
    data = c.to_json()
    json.dumps(data)
    assert set(data) >= {"quantity", "rounded", "direction", "digits", "method", "query", "exact", "ball"}
    with pytest.raises(Exception):
        c.rounded = "1"  # type: ignore[misc]
    down = certify("eps0", lambda prec: arb(2).sqrt(), digits=12, method="demo", query={})
    assert down.direction == "down" and down.float <= math.sqrt(2) and Fraction(down.rounded) <= Fraction(
        math.sqrt(2))


def test_float_is_on_the_safe_side_even_when_tiny() -> None:
    tiny = Certified("delta", arb(0), "1e-330", "up", 1, "demo", {}, True)
    assert tiny.float > 0
    big = Certified("eps0", arb(0), "1e400", "down", 1, "demo", {}, True)
    assert big.float < math.inf


def test_certified_bounds() -> None:
    lo = certify("epsilon", lambda prec: arb(1), digits=5, method="lo", query={}, direction="down")
    hi = certify("epsilon", lambda prec: arb(3) / 2, digits=5, method="hi", query={})
    b = CertifiedBounds(lo, hi)
    assert b.gap == "0.5000" or Fraction(b.gap) == Fraction(1, 2)
    json.dumps(b.to_json())


def test_escalation_raises_a_clear_precision_error() -> None:
    def never(prec: int) -> arb:
        raise NeedPrecision("a comparison that never resolves")

    with pytest.raises(PrecisionError, match="could not certify"):
        certify("epsilon", never, digits=5, method="demo", query={})


def test_escalation_raises_precision() -> None:
    seen = []

    def cancelling(prec: int) -> arb:
        seen.append(prec)
        big = arb(10) ** 40
        return (big + arb(1) / 3) - big  # all digits cancel at low precision

    c = certify("delta", cancelling, digits=10, method="demo", query={})
    assert c.rounded == "0.3333333334" and len(seen) > 1
