"""Red-team of the kernel rule ``split``: false statements it must never prove (all currently refused)."""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import eps
from cdpsym.expr.domains import Interval
from cdpsym.proof import Chain, Part, Rel, Theorem, interval, monotone, sign, split, symbolic_check

HALF = sp.Rational(1, 2)
OPEN01 = {eps: Interval(sp.S.Zero, sp.S.One, True, True)}
HALFOPEN01 = {eps: Interval(sp.S.Zero, sp.S.One, True, False)}


def verdict(lhs, op, rhs, domains, why) -> str:
    chain = Chain(lhs)
    chain = chain.le(rhs, why) if op == "<=" else chain.lt(rhs, why)
    thm = Theorem(name="t", reference="", source="", title="t", variables=domains,
                  parts=(Part(name="t", relation=Rel(lhs, op, rhs), proof=chain),))
    return symbolic_check(thm).status


def test_cut_equal_to_closed_end_written_as_an_unsimplified_identity():
    # cos(pi/7) - cos(2pi/7) + cos(3pi/7) + 1/2 == 1 exactly; eps < 1 is false at eps = 1
    one = sp.cos(sp.pi / 7) - sp.cos(2 * sp.pi / 7) + sp.cos(3 * sp.pi / 7) + HALF
    assert verdict(eps, "<", sp.S.One, HALFOPEN01, split(eps, one, sign(), sign())) not in ("proved", "certified")


def test_float_cut_that_rounds_onto_the_closed_end():
    cut = sp.Float("0.99999999999999999999999", 30)
    why = split(eps, cut, sign(), interval({eps: (cut, 1)}))
    assert verdict(eps, "<", sp.S.One, HALFOPEN01, why) not in ("proved", "certified")


def test_nested_split_whose_inner_case_is_false():
    why = split(eps, HALF, sign(), split(eps, sp.Rational(3, 4), sign(), sign()))
    assert verdict(eps, "<=", HALF, OPEN01, why) not in ("proved", "certified")


def test_monotone_on_each_side_of_a_maximum_cannot_prove_a_false_bound():
    # eps(1-eps) peaks at 1/4 > 1/5
    why = split(eps, HALF, monotone(eps), monotone(eps))
    assert verdict(eps * (1 - eps), "<=", sp.Rational(1, 5), OPEN01, why) not in ("proved", "certified")


def test_strict_bound_false_only_at_the_cut_point():
    # (eps - 1/2)^2 < 10^-30 fails away from 1/2; enclosures on both halves must not close it
    why = split(eps, HALF, interval({eps: (0, HALF)}), interval({eps: (HALF, 1)}))
    assert verdict((eps - HALF) ** 2, "<", sp.Rational(1, 10 ** 30), OPEN01, why) not in ("proved", "certified")
