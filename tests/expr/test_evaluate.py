"""cdpsym.expr.evaluate: the numeric evaluator of the checks (mpmath and Arb)."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from cdpsym.expr.evaluate import ArbContext, MPContext, NotEvaluable, evaluate

X = sp.Symbol("X", real=True)
m = sp.Symbol("m", integer=True, positive=True)
r = sp.Symbol("r", positive=True)


def test_a_symbolic_integer_power_of_a_negative_number_is_real():
    """X**(2m + 1) at X = -2, m = 1 is -8 (once computed as exp((2m + 1) log X), complex)."""
    assert evaluate(X ** (2 * m + 1), {X: mpmath.mpf(-2), m: mpmath.mpf(1)}, MPContext(30)) == -8
    assert evaluate(X ** (-m), {X: mpmath.mpf(-2), m: mpmath.mpf(1)}, MPContext(30)) == mpmath.mpf(-0.5)
    arb = ArbContext(100)
    with arb:
        v = evaluate(X ** (2 * m), {X: arb.flint.arb(-3), m: arb.flint.arb(2)}, arb)
        assert v.contains(81) and v.rad() == 0


def test_an_integer_exponent_that_is_not_an_integer_at_the_point_is_not_evaluated():
    with pytest.raises(NotEvaluable):
        evaluate(X ** m, {X: mpmath.mpf(-2), m: mpmath.mpf("1.5")}, MPContext(30))


def test_a_real_exponent_still_goes_through_exp_and_log():
    assert mpmath.almosteq(evaluate(X ** r, {X: mpmath.mpf(4), r: mpmath.mpf("0.25")}, MPContext(30)),
                           mpmath.sqrt(2), 1e-12)
