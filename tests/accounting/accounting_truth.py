"""Helpers for the accounting tests: exact comparisons of certified balls with 100-digit ground truths.

Ground truths come from :mod:`cdpsym.mechanisms` (mpmath, ``dps=100``) or from
explicit enumeration; they are independent of the Arb code under test.
A ground truth at 100 digits is within ``10^-95`` (relative) of the exact
value, so "the ball encloses the truth" is checked with that slack, in exact
rational arithmetic.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from mpmath import mp

from cdpsym.accounting.certified import ball_endpoints

DPS = 100
SLACK = Fraction(1, 10 ** 95)


def to_fraction(x: object) -> Fraction:
    """The exact value of an mpmath number (its binary mantissa and exponent)."""
    if not isinstance(x, mpmath.mpf):
        with mp.workdps(DPS + 20):
            x = mp.mpf(x)
    man, exp = x.man_exp
    man, exp = int(man), int(exp)
    return Fraction(man * 2 ** exp) if exp >= 0 else Fraction(man, 2 ** -exp)


def check_encloses(certified: object, truth: object) -> None:
    """The ball of *certified* contains *truth* and ``rounded`` is on the safe side of it."""
    t = to_fraction(truth)
    ball = certified.ball  # type: ignore[attr-defined]
    lo, hi = ball_endpoints(ball)
    slack = abs(t) * SLACK
    assert lo <= t + slack and t - slack <= hi, (
        f"ball {ball.str(30, radius=True)} misses the ground truth {mpmath.nstr(truth, 40)}")
    assert lo >= t - slack - (hi - lo) and hi <= t + slack + (hi - lo)
    rounded = Fraction(certified.rounded)  # type: ignore[attr-defined]
    if certified.direction == "up":  # type: ignore[attr-defined]
        assert rounded >= t - slack, f"rounded {certified.rounded} is below the truth {mpmath.nstr(truth, 40)}"
        bound = t + slack
    else:
        assert rounded <= t + slack, f"rounded {certified.rounded} is above the truth {mpmath.nstr(truth, 40)}"
        bound = t - slack
    # the certified digits: |rounded - truth| <= one unit in the digits-th significant place
    if t != 0 and certified.digits > 0:  # type: ignore[attr-defined]
        e = _exponent10(abs(rounded)) if rounded != 0 else 0
        unit = Fraction(10) ** (e - certified.digits + 1)  # type: ignore[attr-defined]
        assert abs(rounded - bound) <= unit * (1 + Fraction(1, 10 ** 6)), (
            f"{certified.rounded} claims {certified.digits} digits of {mpmath.nstr(truth, 40)}")


def check_zero(certified: object) -> None:
    """A certified exact zero."""
    assert certified.rounded == "0"  # type: ignore[attr-defined]
    assert certified.ball.is_zero()  # type: ignore[attr-defined]


def _exponent10(x: Fraction) -> int:
    e = len(str(x.numerator)) - len(str(x.denominator))
    while Fraction(10) ** e > x:
        e -= 1
    while Fraction(10) ** (e + 1) <= x:
        e += 1
    return e
