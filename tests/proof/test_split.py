"""The kernel rule ``split`` (cases on a real variable at a cut): what it proves and what it must refuse."""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.expr import eps, k, rho
from cdpsym.expr.domains import Interval, naturals, positive
from cdpsym.proof import Chain, Part, Rel, Theorem, interval, monotone, numeric, sign, split, symbolic_check

HALF, Q = sp.Rational(1, 2), sp.Rational(3, 8)


def verdict(lhs, op, rhs, domains, why) -> str:
    chain = Chain(lhs)
    chain = chain.le(rhs, why) if op == "<=" else chain.lt(rhs, why)
    thm = Theorem(name="t", reference="", source="", title="t", variables=domains,
                  parts=(Part(name="t", relation=Rel(lhs, op, rhs), proof=chain),))
    return symbolic_check(thm).status


def unit(hi=sp.Rational(5, 4)):
    return {eps: Interval(sp.S.Zero, hi, True, False)}


def test_a_bound_tight_at_zero_and_false_beyond_its_range_is_certified_by_cases():
    # eps*(e^eps - 1)/2 <= eps^2 holds on (0, 1.25] (it fails near 1.26): neither monotonicity nor an
    # enclosure alone covers the range; differentiation below the cut and an enclosure above do
    why = split(eps, Q, monotone(eps, monotone(eps, interval({eps: (0, Q)}))), interval({eps: (Q, sp.Rational(5, 4))}))
    assert verdict(eps * (sp.exp(eps) - 1) / 2, "<=", eps ** 2, unit(), why) == "certified"


@pytest.mark.parametrize("why, reason", [
    (lambda: split(eps, 2, sign(), sign()), "cut outside the domain"),
    (lambda: split(eps, 0, sign(), sign()), "cut at the open end"),
    (lambda: split(eps, sp.Rational(5, 4), sign(), sign()), "cut at the closed end: one case would be a point"),
    (lambda: split(eps, rho, sign(), sign()), "symbolic cut"),
    (lambda: split(eps, Q, numeric(), numeric()), "evidence on both sides is not a proof"),
    (lambda: split(eps, Q, monotone(eps, monotone(eps, interval({eps: (0, Q)}))), numeric()), "one side evidence"),
])
def test_split_never_proves_on_a_bad_cut_or_weak_cases(why, reason):
    assert verdict(eps * (sp.exp(eps) - 1) / 2, "<=", eps ** 2, unit(), why()) not in ("proved", "certified"), reason


def test_a_false_statement_is_not_proved_when_one_case_is_false():
    # on (0, 1.3] the bound fails near 1.3: the case above the cut cannot be closed
    why = split(eps, Q, monotone(eps, monotone(eps, interval({eps: (0, Q)}))),
                interval({eps: (Q, sp.Rational(13, 10) + sp.Rational(1, 2 ** 40))}))
    assert verdict(eps * (sp.exp(eps) - 1) / 2, "<=", eps ** 2, unit(sp.Rational(13, 10)), why) \
        not in ("proved", "certified")


def test_each_case_is_checked_on_its_own_half_only():
    # x <= 1/2 is true below the cut and false above: a proof of the lower case cannot stand for the whole
    dom = {eps: Interval(sp.S.Zero, sp.S.One, True, True)}
    assert verdict(eps, "<=", HALF, dom, split(eps, HALF, sign(), sign())) not in ("proved", "certified")


def test_integer_variables_and_dependent_domains_are_refused():
    assert verdict(k, "<=", k ** 2, {k: naturals()}, split(k, 3, sign(), sign())) == "failed"
    doms = {eps: positive(), rho: Interval(sp.S.Zero, eps, True, True)}
    assert verdict(rho, "<=", eps, doms, split(eps, 1, sign(), sign())) == "failed"


def test_strict_steps_need_strict_cases():
    dom = {eps: Interval(sp.S.Zero, sp.S.One, True, True)}
    # eps^2 < eps on (0,1): the cases must each establish '<'
    assert verdict(eps ** 2, "<", eps, dom, split(eps, HALF, sign(), sign())) == "proved"
    # eps^2 < eps fails at 1 if the range includes it
    closed = {eps: Interval(sp.S.Zero, sp.S.One, True, False)}
    assert verdict(eps ** 2, "<", eps, closed, split(eps, HALF, sign(), sign())) not in ("proved", "certified")
