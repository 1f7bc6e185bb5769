"""The kernel pieces that prove basic composition of approximate DP (R-F2): the likelihood ratios ``R``, ``R_i``,
``R^{(i)}``, ``Λ_k`` (typed non-negative by the kernel), the class-member rule reading ``R`` at a step, the sign
prover's cases on ``max``/``min``, and the instantiation of a *pointwise* fact's number variable with a random
quantity.

A FALSE statement must never be *proved*.  The attacks: a max/min rule applied the wrong way round, strictly, or
where an average sits; a pointwise instance whose fact speaks of an average, rests on hypotheses, ranges over
integers, or lies outside its domain; a ratio read at a link, at another class's step, next to a class ratio, or
under a look-alike function; a ratio claimed positive.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import L, X, k, naturals, nonnegative, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import (ClassRatio, ComposedRatio, CondExpect, Expect, Prob, StepLoss, StepRatio)
from cdpsym.expr.symbols import R
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, by, le, lt, sign, split, symbolic_check
from cdpsym.proof.core import foreign

HOLDS = ("proved", "certified")
a, b = sp.Symbol("a", real=True), sp.Symbol("b", real=True)
_d = sp.Symbol("d", real=True)


def _status(rel, chain, variables=None, hypotheses=(), parts=()):
    try:
        thm = Theorem(name="ratio_test", reference="", source="test", title="t",
                      variables=dict(variables if variables is not None else {a: nonnegative(), b: nonnegative()}),
                      hypotheses=tuple(hypotheses), parts=tuple(parts) + (Part("main", rel, proof=chain),))
        return symbolic_check(thm).status
    except ProofError:
        return "refused"


def _sign(lhs, rhs, strict=False, variables=None):
    rel = (lt if strict else le)(lhs, rhs)
    chain = Chain(lhs).lt(rhs, sign()) if strict else Chain(lhs).le(rhs, sign())
    return _status(rel, chain, variables)


# -- the sign prover's cases on max and min --------------------------------------------------------------------------

def test_max_min_true_statements_are_proved():
    assert _sign(sp.Max(a, b) + sp.Min(a, b), a + b) == "proved"  # -max: every argument in turn
    assert _sign(sp.Min(a, b), a) == "proved"
    assert _sign(a, sp.Max(a, b)) == "proved"  # +max: one argument suffices
    assert _sign(a - 1, sp.Max(0, sp.Max(a, b) - 1)) == "proved"  # nested


def test_max_min_false_statements_are_not_proved():
    pp = lambda x: sp.Max(0, 1 - x)  # noqa: E731
    for lhs, rhs in [(sp.Max(a, b), a), (a, sp.Min(a, b)), (sp.Max(a, b), a + b - sp.Rational(1, 10)),
                     (pp(a * b), pp(a)), (pp(a) + pp(b), pp(a * b)), (sp.Max(1, a) - sp.Max(1, b), a - b),
                     (sp.Min(a, b), a * b)]:
        assert _sign(lhs, rhs) not in HOLDS, (lhs, rhs)
        cases = Chain(lhs).le(rhs, split(a, 1, split(b, 1, sign(), sign()), sign()))
        assert _status(le(lhs, rhs), cases) not in HOLDS, (lhs, rhs)


def test_max_is_not_strictly_above_its_argument():
    # max(a, b) > a is false where b <= a: replacing max by b must not count as "one argument suffices" strictly
    assert _sign(a, sp.Max(a, b), strict=True) not in HOLDS
    assert _sign(sp.Min(a, b), b, strict=True) not in HOLDS


def test_no_max_cases_where_an_average_sits():
    # max(E[X], 0) >= E[X] holds, but E[X] may be +oo, where max(E[X], 0) - E[X] is undefined: not by this rule
    assert _sign(Expect(X), sp.Max(Expect(X), 0), variables={}) not in HOLDS


# -- a number variable of a pointwise fact at a random value ----------------------------------------------------------

def _lemma(rel, proof, variables, hypotheses=()):
    return Theorem(name="pointwise_lemma", reference="", source="test", title="t", variables=variables,
                   hypotheses=hypotheses, parts=(Part("main", rel, proof=proof),))


AM_GM = _lemma(le(2 * a, a ** 2 + 1), Chain(2 * a).le(a ** 2 + 1, sign()), {a: real()})


def test_a_pointwise_lemma_at_a_random_value_is_proved():
    c = StepLoss(1)
    lhs, rhs = Expect(2 * c), Expect(c ** 2 + 1)
    chain = Chain(lhs).le(rhs, by(AM_GM, a=c, inside=lambda w: Expect(w)))
    assert _status(le(lhs, rhs), chain, variables={}) == "proved"


def test_a_lemma_resting_on_hypotheses_is_not_pointwise():
    hyp = Hypothesis("h", relation=le(Expect(L), 1))
    lemma = _lemma(le(0, a ** 2), Chain(sp.S.Zero).le(a ** 2, sign()), {a: real()}, hypotheses=(hyp,))
    rhs = Expect(StepLoss(1) ** 2)
    chain = Chain(sp.S.Zero).le(rhs, by(lemma, a=StepLoss(1), inside=lambda w: Expect(w)))
    assert _status(le(0, rhs), chain, variables={}, hypotheses=(hyp,)) not in HOLDS


def test_a_fact_about_an_average_is_not_pointwise():
    # E[a X] = a E[X] holds for a number a, not for a = X (E[X^2] != E[X]^2): the instance must be refused
    from theorems.foundations_convexity import expectation_affine

    number = next(v for v in expectation_affine.variables if str(v) not in ("X", "Y_1", "Y"))
    lhs = Expect(X * X)
    chain = Chain(lhs).le(Expect(X) * X, by(expectation_affine, **{str(number): X}))
    assert _status(le(lhs, Expect(X) * X), chain, variables={}) not in HOLDS


def test_an_integer_variable_takes_no_random_value():
    lemma = _lemma(le(1, k), Chain(sp.S.One).le(k, sign()), {k: naturals()})
    chain = Chain(sp.S.One).le(StepRatio(1), by(lemma, k=StepRatio(1)))
    assert _status(le(1, StepRatio(1)), chain, variables={}) not in HOLDS


def test_a_random_value_outside_the_domain_is_refused():
    # sqrt(a)^2 = a only for a >= 0: a = C_1 - 5 may be negative
    lemma = _lemma(le(a, sp.sqrt(a) ** 2), Chain(a).le(sp.sqrt(a) ** 2, sign()), {a: nonnegative()})
    v = StepLoss(1) - 5
    rhs = Expect(sp.sqrt(v) ** 2)
    chain = Chain(Expect(v)).le(rhs, by(lemma, a=v, inside=lambda w: Expect(w)))
    assert _status(le(Expect(v), rhs), chain, variables={}) not in HOLDS


# -- the ratios: typing, and the class-member rule -----------------------------------------------------------------

def test_ratios_are_non_negative_not_positive():
    for ratio in (R, StepRatio(2), ClassRatio(1), ComposedRatio(k)):
        assert _sign(sp.S.Zero, ratio, variables={k: naturals()}) == "proved", ratio
        assert _sign(sp.S.Zero, ratio, strict=True, variables={k: naturals()}) not in HOLDS, ratio  # R = 0 where q = 0


def test_a_look_alike_ratio_is_foreign():
    fake = sp.Function("Rs", positive=True)
    assert foreign(fake(1)) and not foreign(StepRatio(1))
    assert _sign(sp.S.Zero, fake(1), strict=True, variables={}) not in HOLDS


_MEAN = Hypothesis("ratio_mean", relation=le(Expect(sp.Max(0, 1 - R)), _d))


def _at_step_status(fact, n, hypotheses, parts=(), **inst):
    y = sp.Max(0, 1 - StepRatio(n))
    rel = le(Prob(sp.StrictGreaterThan(CondExpect(y, n), _d, evaluate=False)), 0)
    chain = Chain(rel.lhs).le(0, by(fact, at_step=n, **inst))
    return _status(rel, chain, variables={_d: real()}, hypotheses=hypotheses, parts=parts)


def test_the_pairs_ratio_is_read_at_a_step():
    assert _at_step_status(_MEAN, 1, (_MEAN,)) == "proved"


def test_the_ratio_is_not_read_at_a_link():
    from cdpsym.expr.operators import ExpectAt

    rel = le(ExpectAt(sp.Max(0, 1 - R), 0), _d)
    chain = Chain(rel.lhs).le(_d, by(_MEAN, at_link=1))
    assert _status(rel, chain, variables={_d: real()}, hypotheses=(_MEAN,)) not in HOLDS


def test_a_class_ratio_is_read_only_at_its_step():
    i = sp.Symbol("i", nonnegative=True, integer=True)
    per_class = Hypothesis("per_class", relation=le(Expect(sp.Max(0, 1 - ClassRatio(i))), _d),
                           variables={i: naturals()})
    assert _at_step_status(per_class, 2, (per_class,), i=2) == "proved"
    assert _at_step_status(per_class, 2, (per_class,), i=3) not in HOLDS


def test_the_pairs_ratio_and_a_class_ratio_are_not_one_pair():
    mixed = Hypothesis("mixed", relation=le(Expect(sp.Max(0, 1 - R)), Expect(sp.Max(0, 1 - ClassRatio(1)))))
    y = sp.Max(0, 1 - StepRatio(1))
    rel = le(Prob(sp.StrictGreaterThan(CondExpect(y, 1), CondExpect(y, 1), evaluate=False)), 0)
    chain = Chain(rel.lhs).le(0, by(mixed, at_step=1))
    assert _status(rel, chain, variables={}, hypotheses=(mixed,)) not in HOLDS


def test_a_game_ratio_is_not_the_pairs():
    # a fact about step 3's ratio read at step 1 would be read as a fact about step 1's pair
    game = Hypothesis("game", relation=le(Expect(sp.Max(0, 1 - StepRatio(3))), _d))
    assert _at_step_status(game, 1, (game,)) not in HOLDS


def test_two_classes_tied_through_ratios_are_refused():
    tie = Hypothesis("tie", relation=le(Expect(sp.Max(0, 1 - R)), Expect(sp.Max(0, 1 - ClassRatio(2))) + _d))
    assert _at_step_status(_MEAN, 1, (_MEAN, tie)) not in HOLDS


def test_the_pairs_ratio_is_not_a_variable():
    import pytest

    with pytest.raises(ProofError, match="likelihood ratio"):
        Theorem(name="r_var", reference="", source="test", title="t", variables={R: nonnegative()},
                parts=(Part("main", le(0, R), proof=Chain(sp.S.Zero).le(R, sign())),))


def test_the_pairs_ratio_cannot_be_declared_a_number():
    """Nineteenth review: with ``R`` declared in [0, 1], the axiom's ratio and the scope's number were one symbol, and
    ``H_0(P||Q) <= E[1 - R]`` (false: p = (1/2, 1/2), q = (1/4, 3/4) give 1/4 > 0) was proved."""
    from cdpsym.expr.operators import HockeyStick, P, Q
    from theorems.foundations_composition import hockey_stick_ratio_form

    t = sp.Symbol("t", nonnegative=True)
    unit = Interval(sp.S.Zero, sp.S.One, False, False)
    lemma = _lemma(le(sp.Max(0, 1 - t), 1 - t), Chain(sp.Max(0, 1 - t)).le(1 - t, sign()), {t: unit})
    lhs = HockeyStick(0, P, Q)
    chain = (Chain(lhs).eq(Expect(sp.Max(0, 1 - R)), by(hockey_stick_ratio_form, c=0))
             .le(Expect(1 - R), by(lemma, t=R, inside=lambda w: Expect(w))))
    assert _status(le(lhs, Expect(1 - R)), chain, variables={R: unit}) == "refused"
    assert _status(le(lhs, Expect(1 - R)), chain, variables={}) not in HOLDS
