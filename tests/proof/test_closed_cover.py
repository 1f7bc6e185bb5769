"""prove_sign on closed finite domains: the rational cover lo + (hi - lo) 4u/(1 + u)^2, u >= 0, takes exactly the
values of [lo, hi], so signs that need both ends are decided, and nothing outside the domain is claimed."""

from __future__ import annotations

import sympy as sp

from cdpsym.expr.domains import Interval, positive
from cdpsym.proof.algebra import Context, prove_sign

a = sp.Symbol("a", real=True)
b = sp.Symbol("b", positive=True)
S = sp.S


def test_the_cover_is_exactly_the_interval():
    u = sp.Symbol("u", nonnegative=True)
    f = 4 * u / (1 + u) ** 2
    assert f.subs(u, 0) == 0 and f.subs(u, 1) == 1 and sp.limit(f, u, sp.oo) == 0
    assert sp.simplify(1 - f - (1 - u) ** 2 / (1 + u) ** 2) == 0  # so 0 <= f <= 1 for every u >= 0


def test_signs_that_need_both_ends():
    unit = Context({a: Interval(S.Zero, S.One, False, False)})
    assert prove_sign(1 - a, unit).ok is True
    assert prove_sign(a * (1 - a), unit).ok is True
    sym = Context({b: positive(), a: Interval(S.Zero, b, False, False)})
    assert prove_sign(b - a, sym).ok is True
    sq = Context({a: Interval(S(-1), S.One, False, False)})
    assert prove_sign(1 - a ** 2, sq).ok is True


def test_nothing_outside_the_interval():
    unit = Context({a: Interval(S.Zero, S.One, False, False)})
    assert prove_sign(a - S.Half, unit).ok is not True
    assert prove_sign(1 - a, unit, strict=True).ok is not True  # 0 at a = 1
    assert prove_sign(S(9) / 10 - a, unit).ok is not True
    sq = Context({a: Interval(S(-1), S.One, False, False)})
    assert prove_sign(a ** 2 - 1, sq).ok is not True
    sym = Context({b: positive(), a: Interval(S.Zero, b, False, False)})
    assert prove_sign(b - 2 * a, sym).ok is not True
