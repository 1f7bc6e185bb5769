"""prove_sign on a logarithm: log x >= 0 (> 0) when x - 1 >= 0 (> 0) is seen from its structure and the symbols'
assumptions (which the kernel's domains imply) -- never from a sample, never where x may fall below 1 (or reach 1,
for the strict sign), whatever sympy's own query says."""

from __future__ import annotations

import sympy as sp

from cdpsym.expr.domains import Interval, naturals, nonnegative, open_unit, positive, real
from cdpsym.proof.algebra import Context, prove_sign

x = sp.Symbol("x", positive=True)  # as the library declares them: assumptions that the domains imply
y = sp.Symbol("y", positive=True)
z = sp.Symbol("z", nonnegative=True)
r = sp.Symbol("r", real=True)
n = sp.Symbol("n", integer=True, positive=True)
S = sp.S


def _ctx(**domains):
    return Context(domains={globals()[name]: dom for name, dom in domains.items()})


def test_a_log_above_one_is_decided():
    """log(e + x√n/y) > 0 for x > 0, n >= 1, y in (0, 1): sympy alone cannot tell (KOV15's middle branch)."""
    ctx = _ctx(x=positive(), n=naturals(), y=open_unit())
    e = sp.log(sp.E + x * sp.sqrt(n) / y)
    assert prove_sign(e, ctx, strict=True).ok is True
    assert prove_sign(sp.log(1 + z), _ctx(z=nonnegative())).ok is True


def test_a_log_that_may_be_negative_is_not():
    assert prove_sign(sp.log(x), _ctx(x=open_unit())).ok is not True
    assert prove_sign(sp.log(x), _ctx(x=Interval(S.Half, S.Infinity, True, True))).ok is not True
    assert prove_sign(sp.log(x + y), _ctx(x=positive(), y=positive())).ok is not True
    assert prove_sign(sp.log(2 * r), _ctx(r=real())).ok is not True  # log of a possibly negative number


def test_the_strict_sign_needs_a_gap_at_one():
    """log(1 + z) = 0 at z = 0: non-negative, not positive; log(1 + x) > 0 for x > 0."""
    assert prove_sign(sp.log(1 + z), _ctx(z=nonnegative()), strict=True).ok is not True
    assert prove_sign(sp.log(1 + x), _ctx(x=positive()), strict=True).ok is True
    assert prove_sign(sp.log(S.Half + x), _ctx(x=positive())).ok is not True  # 1/2 + x may be below 1


def test_a_negated_log_is_not_read_as_the_log():
    """-log(1 + x) <= 0: the rule applies to log x itself, never to a multiple of it."""
    assert prove_sign(-sp.log(1 + x), _ctx(x=positive())).ok is not True
    assert prove_sign(sp.log(1 + z) - 1, _ctx(z=nonnegative())).ok is not True
