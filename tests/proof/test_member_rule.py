"""The kernel's class-member rule, ``by(fact, at_step=i)``: adversarial chains it must never prove, and true
ones it must keep proving.

In a scope, the canonical pair ``(P, Q)`` with loss ``L`` stands for every pair of the class its hypotheses
describe; by the definition of the adaptive composition game, the pair of step ``i`` given any prefix is such a
pair, with loss ``C_i``.  The rule reads a fact ``A <= B`` (or ``A = B``, or ``B <= A`` with ``flip=True`` for an
equation) at that member: ``Pr[T(A) > T(B)] <= 0``, ``T`` mapping ``L`` to ``C_i``, ``E[Y]`` to ``E[T(Y) | F_{i-1}]``
and ``Pr[A]`` to ``E[1[T(A)] | F_{i-1}]``.

A FALSE statement must never be *proved*.  The attacks below try the wrong relation, the wrong step, a step that
is not a positive integer, a fact about another random variable (whose joint law with the member's loss is not
the pair's), a divergence, a game object, and the bridges of ``foundations_composition`` at a mismatched step.
"""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import L, X, k, lam, mu, naturals, positive, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import KL, CondExpect, Expect, Indicator, P, Prob, Q, StepLoss
from cdpsym.proof import Chain, Hypothesis, Part, Rel, Theorem, algebra, by, eq, le, sign, symbolic_check
from cdpsym.proof.core import KERNEL_RULES
from theorems.foundations_composition import (C, CondMGF, condition, conditional_mgf_bound, tower_mean_bound)

HOLDS = ("proved", "certified")
mean_bound = Hypothesis("mean_bound", title="every pair of the class has E[L] <= mu", relation=le(Expect(L), mu))


def _status(lhs, op, rhs, chain, variables=None, hypotheses=(mean_bound,)):
    try:
        thm = Theorem(name="member_test", reference="", source="test", title="t",
                      variables=dict(variables or {mu: real(), k: naturals()}),
                      hypotheses=tuple(hypotheses), parts=(Part(name="t", relation=Rel(lhs, op, rhs), proof=chain),))
        return symbolic_check(thm).status
    except ProofError:
        return "refused"


def _exceeds(n, bound=mu):
    """Pr[E[C_n | F_{n-1}] > bound]."""
    return Prob(sp.StrictGreaterThan(CondExpect(C(n), n), bound))


def test_rule_is_listed_and_the_step_loss_is_the_kernels():
    assert "member" in KERNEL_RULES
    assert C is StepLoss


# -- TRUE: proved ---------------------------------------------------------------------------------------------------

def test_a_mean_bound_holds_at_every_step_given_every_prefix():
    for n in (1, k + 1):
        ch = Chain(_exceeds(n)).le(0, by(mean_bound, at_step=n))
        assert _status(_exceeds(n), "<=", 0, ch) == "proved"


def test_the_tower_rule_turns_it_into_the_steps_mean():
    ch = Chain(Expect(C(k))).le(mu, by(tower_mean_bound, Y_1=C(k), i=k, c=mu,
                                       given={condition(tower_mean_bound): by(mean_bound, at_step=k)}))
    assert _status(Expect(C(k)), "<=", mu, ch) == "proved"


def test_an_equation_read_in_both_directions():
    exact = Hypothesis("exact", title="E[L] = mu", relation=eq(Expect(L), mu))
    below = Prob(sp.StrictGreaterThan(mu, CondExpect(C(2), 2)))
    ch = Chain(below).le(0, by(exact, at_step=2, flip=True))
    assert _status(below, "<=", 0, ch, hypotheses=(exact,)) == "proved"
    ch = Chain(_exceeds(2)).le(0, by(exact, at_step=2))
    assert _status(_exceeds(2), "<=", 0, ch, hypotheses=(exact,)) == "proved"


def test_nested_expectations_and_probabilities_are_conditioned_on_the_same_prefix():
    centred = Hypothesis("centred", title="centred MGF", relation=le(Expect(sp.exp(lam * (L - Expect(L)))), 2))
    target = Prob(sp.StrictGreaterThan(CondExpect(sp.exp(lam * (C(3) - CondExpect(C(3), 3))), 3), 2))
    ch = Chain(target).le(0, by(centred, at_step=3))
    assert _status(target, "<=", 0, ch, {lam: real()}, (centred,)) == "proved"
    tail = Hypothesis("tail", title="tail", relation=le(Prob(sp.StrictGreaterThan(L, mu)), sp.Rational(1, 10)))
    target = Prob(sp.StrictGreaterThan(CondExpect(Indicator(sp.StrictGreaterThan(C(1), mu)), 1), sp.Rational(1, 10)))
    ch = Chain(target).le(0, by(tail, at_step=1))
    assert _status(target, "<=", 0, ch, {mu: real()}, (tail,)) == "proved"


# -- FALSE: never proved --------------------------------------------------------------------------------------------

def test_wrong_direction_is_not_proved():
    # E[L] <= mu says nothing about E[C_1 | F_0] >= mu
    below = Prob(sp.StrictGreaterThan(mu, CondExpect(C(1), 1)))
    ch = Chain(below).le(0, by(mean_bound, at_step=1))
    assert _status(below, "<=", 0, ch) not in HOLDS


def test_flip_of_an_inequality_is_refused():
    below = Prob(sp.StrictGreaterThan(mu, CondExpect(C(1), 1)))
    ch = Chain(below).le(0, by(mean_bound, at_step=1, flip=True))
    assert _status(below, "<=", 0, ch) not in HOLDS


def test_flip_without_a_step_is_refused():
    ch = Chain(mu).le(Expect(L), by(mean_bound, flip=True))
    assert _status(mu, "<=", Expect(L), ch) not in HOLDS


def test_the_rule_gives_no_equation():
    ch = Chain(_exceeds(1)).eq(0, by(mean_bound, at_step=1))
    assert _status(_exceeds(1), "=", 0, ch) not in HOLDS


def test_wrong_step_is_not_proved():
    ch = Chain(_exceeds(1)).le(0, by(mean_bound, at_step=2))
    assert _status(_exceeds(1), "<=", 0, ch) not in HOLDS
    mixed = Prob(sp.StrictGreaterThan(CondExpect(C(2), 1), mu))  # C_2 conditioned on step 1's prefix
    for n in (1, 2):
        ch = Chain(mixed).le(0, by(mean_bound, at_step=n))
        assert _status(mixed, "<=", 0, ch) not in HOLDS


def test_a_step_that_is_not_a_positive_integer_is_refused():
    for n in (0, -1, sp.Rational(1, 2), mu):
        ch = Chain(_exceeds(n)).le(0, by(mean_bound, at_step=n))
        assert _status(_exceeds(n), "<=", 0, ch) not in HOLDS, n
    ch = Chain(_exceeds(C(1))).le(0, by(mean_bound, at_step=C(1)))  # a random step
    assert _status(_exceeds(C(1)), "<=", 0, ch) not in HOLDS


def test_a_fact_about_another_random_variable_is_refused():
    # E[X] <= mu for a random variable X says nothing of E[X | F_0] (X may depend on the prefix)
    other = Hypothesis("other", title="E[X] <= mu", relation=le(Expect(X), mu))
    target = Prob(sp.StrictGreaterThan(CondExpect(X, 1), mu))
    ch = Chain(target).le(0, by(other, at_step=1))
    assert _status(target, "<=", 0, ch, hypotheses=(other,)) not in HOLDS
    joint = Hypothesis("joint", title="E[L X] <= mu", relation=le(Expect(L * X), mu))
    target = Prob(sp.StrictGreaterThan(CondExpect(C(1) * X, 1), mu))
    ch = Chain(target).le(0, by(joint, at_step=1))
    assert _status(target, "<=", 0, ch, hypotheses=(joint,)) not in HOLDS


def test_a_divergence_or_a_game_object_is_refused():
    kl = Hypothesis("kl", title="KL <= mu", relation=le(KL(P, Q), mu))
    target = Prob(sp.StrictGreaterThan(KL(P, Q), mu))
    ch = Chain(target).le(0, by(kl, at_step=1))
    assert _status(target, "<=", 0, ch, hypotheses=(kl,)) not in HOLDS
    game = Hypothesis("game", title="E[L] <= E[C_1]", relation=le(Expect(L), Expect(C(1))))
    target = Prob(sp.StrictGreaterThan(CondExpect(C(2), 2), CondExpect(C(1), 2)))
    ch = Chain(target).le(0, by(game, at_step=2))
    assert _status(target, "<=", 0, ch, hypotheses=(game,)) not in HOLDS


def test_the_ess_sup_bridge_at_a_mismatched_step_is_not_proved():
    # sup E[e^{λC_2} | F_1] <= c needs the bound given F_1, not given F_0: the member rule at step 1 never
    # speaks of C_2, and at step 2 it speaks of F_1
    mgf = Hypothesis("mgf", title="E[e^{λL}] <= 2", relation=le(Expect(sp.exp(lam * L)), 2))
    for n, at in ((1, 1), (1, 2), (2, 1)):
        ch = Chain(CondMGF(C(2), lam, n)).le(2, by(conditional_mgf_bound, Y_1=C(2), lam=lam, i=n, c=2,
                                                   given={condition(conditional_mgf_bound): by(mgf, at_step=at)}))
        assert _status(CondMGF(C(2), lam, n), "<=", 2, ch, {lam: positive()}, (mgf,)) not in HOLDS, (n, at)
    ch = Chain(CondMGF(C(2), lam, 2)).le(2, by(conditional_mgf_bound, Y_1=C(2), lam=lam, i=2, c=2,
                                               given={condition(conditional_mgf_bound): by(mgf, at_step=2)}))
    assert _status(CondMGF(C(2), lam, 2), "<=", 2, ch, {lam: positive()}, (mgf,)) == "proved"


def test_a_conditional_expectation_is_not_a_number():
    # CondExpect is a random variable: a number variable may not be instantiated with it
    ch = Chain(Expect(C(1))).le(CondExpect(C(1), 1), by(tower_mean_bound, Y_1=C(1), i=1, c=CondExpect(C(1), 1)))
    assert _status(Expect(C(1)), "<=", CondExpect(C(1), 1), ch) not in HOLDS


# -- links of a chain of inputs (group privacy): at_link=j ----------------------------------------------------------

def _link_status(target, why, hypotheses, variables=None):
    return _status(target.lhs, target.op, target.rhs, Chain(target.lhs).le(target.rhs, why) if target.op != "="
                   else Chain(target.lhs).eq(target.rhs, why), variables, hypotheses)


def test_a_link_reads_the_pair_as_the_links_distributions():
    from cdpsym.expr.operators import ExpectAt, HockeyStick, LinkLoss, Output

    hs = Hypothesis("hs", title="H_eps(P||Q) <= mu", relation=le(HockeyStick(lam, P, Q), mu))
    target = le(HockeyStick(lam, Output(k), Output(k + 1)), mu)
    assert _link_status(target, by(hs, at_link=k + 1), (hs,), {mu: real(), lam: positive(), k: naturals()}) == "proved"
    swapped = le(HockeyStick(lam, Output(k + 1), Output(k)), mu)  # the reversed link is not what the fact says
    assert _link_status(swapped, by(hs, at_link=k + 1), (hs,), {mu: real(), lam: positive(), k: naturals()}) \
        not in HOLDS
    # the mean of the link's loss is under the link's first distribution, M(x_{j-1})
    target = le(ExpectAt(LinkLoss(2), 1), mu)
    assert _link_status(target, by(mean_bound, at_link=2), (mean_bound,)) == "proved"
    for wrong in (le(ExpectAt(LinkLoss(2), 2), mu), le(ExpectAt(LinkLoss(1), 1), mu), le(Expect(LinkLoss(2)), mu)):
        assert _link_status(wrong, by(mean_bound, at_link=2), (mean_bound,)) not in HOLDS, wrong


def test_a_link_refuses_what_the_step_refuses():
    from cdpsym.expr.operators import ExpectAt, LinkLoss, PrivacyLoss

    other = Hypothesis("other", title="E[X] <= mu", relation=le(Expect(X), mu))
    assert _link_status(le(ExpectAt(X, 0), mu), by(other, at_link=1), (other,)) not in HOLDS
    loss = Hypothesis("loss", title="E[L_{P||Q}] <= mu", relation=le(Expect(PrivacyLoss(P, Q)), mu))
    assert _link_status(le(ExpectAt(LinkLoss(1), 0), mu), by(loss, at_link=1), (loss,)) not in HOLDS
    for n in (0, sp.Rational(3, 2), mu):
        assert _link_status(le(ExpectAt(LinkLoss(n), n - 1), mu), by(mean_bound, at_link=n), (mean_bound,)) \
            not in HOLDS, n
    exact = Hypothesis("exact", title="E[L] = mu", relation=eq(Expect(L), mu))
    assert _link_status(le(mu, ExpectAt(LinkLoss(1), 0)), by(exact, at_link=1, flip=True), (exact,)) not in HOLDS
    assert _link_status(le(ExpectAt(LinkLoss(1), 0), mu), by(mean_bound, at_link=1, at_step=1), (mean_bound,)) \
        not in HOLDS


# -- red-team regressions (a hostile review of the rule found each of these proved) -----------------------------------

def _thm(name, rel, chain, hypotheses, variables=None):
    return Theorem(name=name, reference="", source="test", title="t", variables=dict(variables or {mu: real()}),
                   hypotheses=tuple(hypotheses), parts=(Part(name="main", relation=rel, proof=chain),))


_V = sp.Symbol("v", real=True)
_H_NONNEG = Hypothesis("kl_nonneg", title="0 <= E[L]", relation=le(0, Expect(L)))
# for every v >= E[L] (of the canonical pair): E[C_1] <= v.  Its condition holds of one pair, not of the class.
_HQ = Hypothesis("Hq", title="for every v >= E[L]: E[C_1] <= v", relation=le(Expect(C(1)), _V), variables={_V: real()},
                 conditions=(le(Expect(L), _V),))
_T0 = _thm("T0", Rel(Expect(C(1)), "<=", Expect(L)), Chain(Expect(C(1))).le(Expect(L), by(_HQ, v=Expect(L))),
           (mean_bound, _H_NONNEG, _HQ))


def test_a_local_condition_is_not_read_at_a_member():
    # E[C_1] <= E[L] is false: a class {KL 0, KL mu}, the canonical pair the first, the adversary picks the second
    assert symbolic_check(_T0).status == "proved"  # T0 is valid: its hypothesis Hq is strong
    cond = Hypothesis("condition 1", title="local", relation=le(Expect(L), _V))
    prove_hq = Chain(Expect(C(1))).le(_V, by(tower_mean_bound, Y_1=C(1), i=1, c=_V,
                                             given={condition(tower_mean_bound): by(cond, at_step=1)}))
    t1 = _thm("T1", Rel(Expect(C(1)), "<=", Expect(L)),
              Chain(Expect(C(1))).le(Expect(L), by(_T0, given={"Hq": prove_hq})), (mean_bound, _H_NONNEG))
    assert symbolic_check(t1).status not in HOLDS


def test_a_class_theorem_is_not_fed_a_local_condition_or_a_pair_value():
    class_hyp = Hypothesis("class_mean", title="every pair has E[L] <= v", relation=le(Expect(L), _V))
    t2 = _thm("T2", Rel(Expect(C(1)), "<=", _V),
              Chain(Expect(C(1))).le(_V, by(tower_mean_bound, Y_1=C(1), i=1, c=_V,
                                            given={condition(tower_mean_bound): by(class_hyp, at_step=1)})),
              (class_hyp,), {_V: real()})
    assert symbolic_check(t2).status == "proved"  # valid: a bound on the whole class bounds every step
    # its hypothesis met by the local condition of a quantified need
    prove_hq = Chain(Expect(C(1))).le(_V, by(t2, v=_V))
    t1 = _thm("T1", Rel(Expect(C(1)), "<=", Expect(L)),
              Chain(Expect(C(1))).le(Expect(L), by(_T0, given={"Hq": prove_hq})), (mean_bound, _H_NONNEG))
    assert symbolic_check(t1).status not in HOLDS
    # its number v instantiated with the canonical pair's mean, the hypothesis E[L] <= E[L] by a sign argument
    t3 = _thm("T3", Rel(Expect(C(1)), "<=", Expect(L)),
              Chain(Expect(C(1))).le(Expect(L), by(t2, v=Expect(L), given={"class_mean": sign()})), (mean_bound,))
    assert symbolic_check(t3).status not in HOLDS


def test_the_conditional_mean_definition_needs_it_finite():
    # 0 < e^{-E[C_1 | F_0]} fails where the adversary picks a pair of infinite divergence
    from theorems.foundations_composition import M, conditional_mean_definition

    ce = CondExpect(C(1), 1)
    ch = Chain(sp.S(0)).lt(sp.exp(-M(1)), sign()).eq(sp.exp(-ce), by(conditional_mean_definition, i=1, c=mu))
    assert _status(sp.S(0), "<", sp.exp(-ce), ch, hypotheses=()) not in HOLDS
    # with the class's mean bound read at the step, the definition applies
    ch = Chain(sp.S(0)).lt(sp.exp(-M(1)), sign()).eq(sp.exp(-ce), by(
        conditional_mean_definition, i=1, c=mu, given={condition(conditional_mean_definition): by(mean_bound, at_step=1)}))
    assert _status(sp.S(0), "<", sp.exp(-ce), ch) == "proved"


def test_a_possibly_infinite_term_does_not_cancel():
    from theorems.foundations_composition import Z

    # E[L] + 1 <= E[L] holds in the extended reals when every pair has infinite divergence
    infinite = Hypothesis("infinite_kl", title="E[L] + 1 <= E[L]", relation=le(Expect(L) + 1, Expect(L)))
    ch = Chain(Expect(sp.exp(Z))).le(-1, by(tower_mean_bound, Y_1=sp.exp(Z), i=1, c=-1,
                                            given={condition(tower_mean_bound): by(infinite, at_step=1)}))
    assert _status(Expect(sp.exp(Z)), "<=", -1, ch, hypotheses=(infinite,)) not in HOLDS
    # the older context rule: F(w) = w - E[L] turns the hypothesis into 1 <= 0
    ch = Chain(sp.S(1)).le(0, by(infinite, inside=lambda w: w - Expect(L)))
    assert _status(sp.S(1), "<=", 0, ch, hypotheses=(infinite,)) not in HOLDS


def test_the_pair_may_not_be_bound_in_the_fact():
    bound_l = Hypothesis("bound_l", title="integral", relation=le(sp.Integral(L, (L, 0, 1)), mu))
    target = Prob(sp.StrictGreaterThan(sp.Integral(C(1), (C(1), 0, 1)), mu))
    ch = Chain(target).le(0, by(bound_l, at_step=1))
    assert _status(target, "<=", 0, ch, hypotheses=(bound_l,)) not in HOLDS


# -- red-team regressions, second review -------------------------------------------------------------------------------

def test_the_pair_cannot_be_declared_as_a_variable():
    import pytest

    from cdpsym.errors import ProofError
    from cdpsym.expr.operators import P, Q

    for sym in (L, P, Q):
        with pytest.raises(ProofError, match="canonical pair"):
            Theorem(name="rename", reference="", source="t", title="t", variables={sym: real()},
                    parts=(Part("main", le(mu, mu), proof=Chain(mu).le(mu, sign())),))


def test_an_event_with_a_possibly_infinite_term_on_both_sides_is_not_read_at_a_member():
    # 2E[L] <= E[L] + 1 holds where E[L] = +oo; it is not E[L] <= 1 there
    h = Hypothesis("kl_small_or_infinite", title="2E[L] <= E[L] + 1", relation=le(2 * Expect(L), Expect(L) + 1))
    ch = Chain(Expect(C(1))).le(1, by(tower_mean_bound, Y_1=C(1), i=1, c=1,
                                      given={condition(tower_mean_bound): by(h, at_step=1)}))
    assert _status(Expect(C(1)), "<=", 1, ch, hypotheses=(h,)) not in HOLDS
    # nor is such an event identified with another one by canonical forms
    from cdpsym.expr.operators import KL, P, Q

    d = KL(P, Q)
    e1, e2 = Prob(sp.StrictGreaterThan(2 * d, d + 1)), Prob(sp.StrictGreaterThan(d, 1))
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), hypotheses=()) not in HOLDS


def test_a_random_variable_is_not_instantiated_with_a_possibly_infinite_value():
    from cdpsym.expr import X, Y
    from cdpsym.expr.domains import greater_than
    from cdpsym.expr.operators import KL, P, Q

    d = KL(P, Q)
    t_lt = Theorem(name="t_lt", reference="", source="t", title="t", variables={X: real(), Y: greater_than(X)},
                   parts=(Part("main", Rel(X, "<", Y), proof=Chain(X).lt(Y, sign())),))
    assert symbolic_check(t_lt).status == "proved"
    # KL < KL + 1 is false where KL = +oo
    assert _status(d, "<", d + 1, Chain(d).lt(d + 1, by(t_lt, X=d, Y=d + 1)), hypotheses=()) not in HOLDS


def test_a_rewrite_does_not_cancel_a_possibly_infinite_term():
    from cdpsym.expr.operators import KL, P, Q
    from theorems.foundations import kl_is_mean_loss

    lhs = Expect(L) + 1 - KL(P, Q)  # undefined where KL = E[L] = +oo
    assert _status(lhs, "=", 1, Chain(lhs).eq(1, by(kl_is_mean_loss)), hypotheses=()) not in HOLDS


def test_an_induction_hypothesis_beside_a_local_condition_is_not_read_at_a_member():
    from cdpsym.proof.algebra import Context
    from cdpsym.proof.core import check_step

    target = Prob(sp.StrictGreaterThan(CondExpect(C(1), 1), _V))
    cond = Hypothesis("condition 1", title="local", relation=le(Expect(L), 2 * _V))
    ih = Hypothesis("ih", title="local", relation=le(Expect(L), _V))
    ctx = Context({_V: real()}, (cond, ih))
    assert check_step(by(ih, at_step=1), target, "<=", sp.S(0), ctx, Chain(target)).status not in HOLDS
    alone = Context({_V: real()}, (ih,))  # an induction hypothesis of the theorem itself holds for the class
    assert check_step(by(ih, at_step=1), target, "<=", sp.S(0), alone, Chain(target)).status == "proved"


def test_a_fact_tying_two_classes_together_blocks_the_member_rule():
    from cdpsym.expr.operators import ClassLoss

    mixed = Hypothesis("mixed", title="E L5 <= E L7 + 1", relation=le(Expect(ClassLoss(5)), Expect(ClassLoss(7)) + 1))
    empty = Hypothesis("empty7", title="E L7 <= -1", relation=le(Expect(ClassLoss(7)), -1))
    lemma = Part("lemma", le(Expect(ClassLoss(5)), 0), proof=Chain(Expect(ClassLoss(5)))
                 .le(Expect(ClassLoss(7)) + 1, by(mixed)).le(0, by(empty, inside=lambda w: w + 1)))
    target = Prob(sp.StrictGreaterThan(CondExpect(C(5), 5), 0))
    step5 = Part("step5", le(target, 0), proof=Chain(target).le(0, by(lemma, at_step=5)))
    thm = Theorem(name="cross_class", reference="", source="t", title="t", variables={},
                  hypotheses=(mixed, empty), parts=(lemma, step5))
    assert [p.status for p in symbolic_check(thm).parts][-1] not in HOLDS


# -- red-team regressions, fourth review -------------------------------------------------------------------------------

def _kl_events():
    from cdpsym.expr.operators import KL, P, Q

    d = KL(P, Q)
    return d, Prob(sp.StrictGreaterThan(d, 1)), Prob(sp.StrictGreaterThan(2 * d, d + 1))


def test_a_sign_argument_does_not_cancel_a_term_shared_by_an_events_sides():
    # where KL = +oo the first event holds and the second is not even defined
    d, small, doubled = _kl_events()
    assert _status(small, "<=", doubled, Chain(small).le(doubled, sign()), hypotheses=()) not in HOLDS
    assert _status(doubled, "<=", small, Chain(doubled).le(small, sign()), hypotheses=()) not in HOLDS


def test_a_rewrite_inside_an_event_does_not_cancel_across_its_sides():
    from theorems.foundations import kl_is_mean_loss

    d, small, _ = _kl_events()
    mixed = Prob(sp.StrictGreaterThan(2 * d, Expect(L) + 1))  # E[L] -> KL makes it 2 KL > KL + 1
    assert _status(mixed, "=", small, Chain(mixed).eq(small, by(kl_is_mean_loss)), hypotheses=()) not in HOLDS


def test_terms_equal_only_in_canonical_form_are_shared_too():
    same = Expect(L * (X + 1) - L * X)  # the canonical form of E[L]
    e1, e2 = Prob(sp.StrictGreaterThan(2 * Expect(L), same + 1)), Prob(sp.StrictGreaterThan(Expect(L), 1))
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), {}, ()) not in HOLDS


def test_a_term_shown_finite_in_scope_may_cancel_across_an_events_sides():
    bounded = Hypothesis("bounded", title="E[L] <= mu", relation=le(Expect(L), mu))
    e1 = Prob(sp.StrictGreaterThan(2 * Expect(L), Expect(L) + 1))
    e2 = Prob(sp.StrictGreaterThan(Expect(L), 1))
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), {mu: real()}, (bounded,)) == "proved"
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), {mu: real()}, ()) not in HOLDS


def _tie_through(mixed, empty, lemma_chain):
    """A theorem whose lemma E[L] <= 0 rests on a fact tying the canonical class to class 7 (empty), read at
    step 1: the class-member rule must refuse it."""
    lemma = Part("lemma", le(Expect(L), 0), proof=lemma_chain)
    target = Prob(sp.StrictGreaterThan(CondExpect(C(1), 1), 0))
    step = Part("step", le(target, 0), proof=Chain(target).le(0, by(lemma, at_step=1)))
    thm = Theorem(name="tie", reference="", source="t", title="t", variables={}, hypotheses=(mixed, empty),
                  parts=(lemma, step))
    lemma_status, step_status = [p.status for p in symbolic_check(thm).parts]
    assert lemma_status == "proved"  # the lemma holds in the scope: only the reading at a member is wrong
    return step_status


def test_a_divergence_of_the_pair_names_its_class():
    from cdpsym.expr.operators import KL, ClassLoss, P, Q
    from theorems.foundations import kl_is_mean_loss

    mixed = Hypothesis("mixed", title="t", relation=le(KL(P, Q), Expect(ClassLoss(7)) + 1))
    empty = Hypothesis("empty7", title="t", relation=le(Expect(ClassLoss(7)), -1))
    chain = Chain(Expect(L)).eq(KL(P, Q), by(kl_is_mean_loss)).le(Expect(ClassLoss(7)) + 1, by(mixed)) \
        .le(0, by(empty, inside=lambda w: w + 1))
    assert _tie_through(mixed, empty, chain) not in HOLDS


def test_a_tie_in_a_condition_or_a_domain_is_a_tie():
    from cdpsym.expr.domains import Interval
    from cdpsym.expr.operators import ClassLoss

    empty = Hypothesis("empty7", title="t", relation=le(Expect(ClassLoss(7)), -1))
    in_condition = Hypothesis("mixed", title="t", relation=le(Expect(L), lam), variables={lam: real()},
                              conditions=(le(Expect(ClassLoss(7)) + 1, lam),))
    discharge = {condition(in_condition): Chain(Expect(ClassLoss(7)) + 1).le(0, by(empty, inside=lambda w: w + 1))}
    chain = Chain(Expect(L)).le(0, by(in_condition, lam=0, given=discharge))
    assert _tie_through(in_condition, empty, chain) not in HOLDS
    from cdpsym.proof.core import _class_tokens

    in_domain = Hypothesis("mixed", title="t", relation=le(Expect(L), lam),
                           variables={lam: Interval.closed(Expect(ClassLoss(7)) + 1, sp.oo)})
    assert len(_class_tokens(in_domain)) == 2
    assert len(_class_tokens(Hypothesis("one", title="t", relation=le(Expect(L), lam), variables={lam: real()}))) == 1


# -- red-team regressions, fifth review --------------------------------------------------------------------------------

def _doubled_and_single():
    """Pr[2E[L] > E[L] + 1] and Pr[E[L] > 1]: 0 and 1 where E[L] = +oo."""
    return Prob(sp.StrictGreaterThan(2 * Expect(L), Expect(L) + 1)), Prob(sp.StrictGreaterThan(Expect(L), 1))


@pytest.mark.parametrize("bound, variables", [
    (sp.oo, {}),  # a literal infinity bounds nothing
    (-sp.log(sp.Symbol("m", nonnegative=True)), {sp.Symbol("m", nonnegative=True): Interval.closed(0, 1)}),  # +oo at m = 0
])
def test_a_bound_that_may_be_infinite_does_not_make_a_term_finite(bound, variables):
    h = Hypothesis("h", title="E[L] <= bound", relation=le(Expect(L), bound))
    e1, e2 = _doubled_and_single()
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), variables, (h,)) not in HOLDS


def test_a_random_range_does_not_bound_a_variable():
    h = Hypothesis("h", title="L = X a.s.", relation=eq(Prob(sp.And(sp.Le(X, L), sp.Le(L, X))), 1))
    e1, e2 = _doubled_and_single()
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), {}, (h,)) not in HOLDS


def test_two_names_of_one_infinite_value_on_the_two_sides_of_an_event():
    from cdpsym.expr.operators import KL, P, Q
    from theorems.foundations import kl_is_mean_loss

    d = KL(P, Q)  # = E[L]: 2 KL > E[L] + 1 is not 2 KL - E[L] > 1 where both are +oo
    e1, mid, e2 = (Prob(sp.StrictGreaterThan(2 * d, Expect(L) + 1)), Prob(sp.StrictGreaterThan(2 * d - Expect(L), 1)),
                   Prob(sp.StrictGreaterThan(d, 1)))
    assert _status(e1, "=", e2, Chain(e1).eq(mid, algebra()).eq(e2, by(kl_is_mean_loss)), {}, ()) not in HOLDS


def test_a_rewrite_does_not_merge_a_term_with_its_own_value():
    from cdpsym.expr.operators import KL, P, Q
    from theorems.foundations import kl_is_mean_loss

    d = KL(P, Q)
    assert _status(2 * d - Expect(L), "=", d, Chain(2 * d - Expect(L)).eq(d, by(kl_is_mean_loss)), {}, ()) \
        not in HOLDS  # oo - oo where KL = E[L] = +oo
    inner = Prob(sp.StrictGreaterThan(2 * d - Expect(L), 1))  # the same, inside an event
    single = Prob(sp.StrictGreaterThan(d, 1))
    assert _status(inner, "=", single, Chain(inner).eq(single, by(kl_is_mean_loss)), {}, ()) not in HOLDS


def test_a_variable_is_never_instantiated_at_infinity():
    from theorems.foundations import gaussian_integral

    v = sp.Symbol("v", real=True)
    vacuous = Hypothesis("vacuous", title="exp(-v) = 0 implies 1 <= 0", relation=le(sp.S(1), sp.S(0)),
                         variables={v: real()}, conditions=(eq(sp.exp(-v), 0),))
    assert _status(sp.S(1), "<=", 0, Chain(sp.S(1)).le(0, by(vacuous, v=sp.oo)), {}, (vacuous,)) not in HOLDS
    zero = sp.Integral(sp.S(0), (sp.Symbol("y", real=True), -sp.oo, sp.oo))  # the density at m = oo is 0
    assert _status(zero, "=", 1, Chain(zero).eq(1, by(gaussian_integral, m=sp.oo, s=1)), {}, ()) not in HOLDS


def test_classes_tied_through_a_shared_variable():
    _tied_through(mu, {mu: real()})  # fifth review; the sixth review's number and game object: below


# -- red-team regressions, sixth review --------------------------------------------------------------------------------

def test_a_well_definedness_verdict_does_not_leak_from_a_scope_with_more_facts():
    e = Expect(L)
    s = 1 / (Prob(sp.StrictGreaterThan(2 * e, e + 1)) - Prob(sp.StrictGreaterThan(e, 1)) + 1)  # 1/0 at E[L] = +oo
    finite = Hypothesis("finite", title="E[L] <= mu", relation=le(e, mu))
    assert _status(s, "=", s, Chain(s), {mu: real()}, (finite,)) == "proved"  # E[L] finite: s = 1
    assert _status(s, "=", s, Chain(s), {mu: real()}, ()) not in HOLDS  # the same domains, without the fact


@pytest.mark.parametrize("link", [sp.Integer(5), Expect(C(1))])
def test_classes_tied_through_a_number_or_a_game_object(link):
    _tied_through(link, {})


def _tied_through(link, variables):
    """E[L] <= link <= E[L^(7)] - 1 and E[L^(7)] <= 0 give the lemma E[L] <= -1; read at step 1 it is refused (the
    rule reads one class at a time), whatever the link between the classes."""
    from cdpsym.expr.operators import ClassLoss

    h1 = Hypothesis("h1", title="E[L] <= link", relation=le(Expect(L), link))
    h2 = Hypothesis("h2", title="link <= E[L7] - 1", relation=le(link, Expect(ClassLoss(7)) - 1))
    h3 = Hypothesis("h3", title="E[L7] <= 0", relation=le(Expect(ClassLoss(7)), 0))
    lemma = Part("lemma", le(Expect(L), -1), proof=Chain(Expect(L)).le(link, by(h1)).le(Expect(ClassLoss(7)) - 1, by(h2))
                 .le(-1, by(h3, inside=lambda w: w - 1)))
    target = Prob(sp.StrictGreaterThan(CondExpect(C(1), 1), -1))
    step = Part("step", le(target, 0), proof=Chain(target).le(0, by(lemma, at_step=1)))
    thm = Theorem(name="tied", reference="", source="t", title="t", variables=variables, hypotheses=(h1, h2, h3),
                  parts=(lemma, step))
    assert [p.status for p in symbolic_check(thm).parts] == ["proved", "failed"]


# -- red-team regressions, eighth review -------------------------------------------------------------------------------

def test_a_domain_is_a_set_of_reals_whatever_bracket_closes_it_at_infinity():
    """Interval.closed(0, oo) contained oo; with m there and E[L] <= m, E[L] counted as finite though m = +oo
    made it unbounded.  A domain now never contains +-oo: the proof below is right (m is a real number)."""
    m = sp.Symbol("m", nonnegative=True)
    dom = Interval.closed(0, sp.oo)
    assert dom.right_open and dom.contains(sp.oo) is False and real().contains(-sp.oo) is False
    h = Hypothesis("h", title="E[L] <= m", relation=le(Expect(L), m))
    e1, e2 = _doubled_and_single()
    assert _status(e1, "=", e2, Chain(e1).eq(e2, algebra()), {m: dom}, (h,)) == "proved"


# -- red-team regressions, ninth review --------------------------------------------------------------------------------

def test_a_scope_may_not_capture_the_trusted_bases_standard_normal():
    """standard_normal_mean speaks of the fixed standard normal Z; a theorem that declares a variable Z (any real
    random variable, e.g. Z = 1) may not rest on it, directly or through a theorem that did."""
    from cdpsym.expr.domains import Interval
    from theorems.foundations_composition import Z, standard_normal_mean

    mean = Expect(Z)
    assert _status(mean, "=", 0, Chain(mean).eq(0, by(standard_normal_mean)), {Z: real()}, ()) not in HOLDS
    assert _status(mean, "=", 0, Chain(mean).eq(0, by(standard_normal_mean)), {}, ()) == "proved"
    assert _status(mean, "=", 0, Chain(mean).eq(0, by(standard_normal_mean)), {Z: Interval.closed(1, 2)}, ()) \
        not in HOLDS
    import theorems

    gaussian = theorems.get("gaussian_cdp")
    assert "standard_normal_mean" in symbolic_check(gaussian).axioms
    mean_part = gaussian.part("mean")
    lhs, rhs = mean_part.relation.lhs, mean_part.relation.rhs
    cited = Chain(lhs).le(rhs, by(mean_part))
    assert _status(lhs, "<=", rhs, cited, dict(gaussian.variables), gaussian.hypotheses) == "proved"
    assert _status(lhs, "<=", rhs, cited, {**dict(gaussian.variables), Z: real()}, gaussian.hypotheses) not in HOLDS


# -- red-team regressions, tenth review --------------------------------------------------------------------------------

def test_a_certificate_sees_a_number_sequence_swapped_for_a_random_one_of_the_same_name():
    """srepr prints sequence("aseq")(1) and Function("aseq")(1) alike; a part mutated after its check from the first
    to the second (E[a_1] = a_1 is true for a number, false for a random variable) must lose its certificate."""
    from cdpsym.expr.symbols import sequence
    from cdpsym.proof.core import _fingerprint
    from theorems.foundations_convexity import expectation_affine

    a = sequence("aseq_red10", "a")
    part = Part("p", eq(Expect(a(1)), a(1)), proof=Chain(Expect(a(1))).eq(a(1), by(expectation_affine, a=0, b=a(1))))
    thm = Theorem(name="seq_swap", reference="", source="t", title="t", variables={}, sequences={a: real()},
                  parts=(part,))
    assert symbolic_check(thm).status == "proved"
    before = _fingerprint(thm, part)
    r = sp.Function("aseq_red10", real=True)
    object.__setattr__(part, "relation", Rel(Expect(r(1)), "=", r(1)))
    assert _fingerprint(thm, part) != before
    cite = Theorem(name="cites", reference="", source="t", title="t", variables={},
                   parts=(Part("q", eq(Expect(r(1)), r(1)), proof=Chain(Expect(r(1))).eq(r(1), by(part))),))
    assert symbolic_check(cite).status not in HOLDS


# -- red-team regressions, eleventh review -----------------------------------------------------------------------------

def test_a_chain_variable_is_never_specialised_at_a_value_that_may_be_infinite():
    """0 < e^{-v} for every real v, but not at v = E[Y]: E[Y] = +oo (Y = |Cauchy|) gives 0 < 0; and the identity
    1 = (v + 1)² − v² − 2v is ∞ − ∞ at v = E[Y] = +oo.  Specialize checks the value finite, as `by` does."""
    from cdpsym.expr import Y
    from cdpsym.proof import lt
    from cdpsym.proof.kernel import Specialize

    v = sp.Symbol("v_red11", real=True)
    mean = Expect(Y)

    def status(relation, proof, facts=()):
        thm = Theorem(name="red11", reference="", source="t", title="t", variables={Y: real()},
                      hypotheses=tuple(facts), parts=(Part("main", relation, proof=proof),))
        return symbolic_check(thm).status

    strict = Chain(sp.S.Zero, variables={v: real()}).lt(sp.exp(-v), sign()).eq(sp.exp(-mean), Specialize(v, mean))
    assert status(lt(0, sp.exp(-mean)), strict) not in HOLDS
    g = (v + 1) ** 2 - v ** 2 - 2 * v
    ident = Chain(sp.S.One, variables={v: real()}).eq(g, algebra()).eq(g.subs(v, mean), Specialize(v, mean))
    assert status(eq(1, g.subs(v, mean)), ident) not in HOLDS
    # the control: where a fact shows E[Y] finite, the same chain is a proof
    finite = Hypothesis("finite_mean", eq(mean, mu))
    thm = Theorem(name="red11c", reference="", source="t", title="t", variables={Y: real(), mu: real()},
                  hypotheses=(finite,), parts=(Part("main", lt(0, sp.exp(-mean)), proof=strict),))
    assert symbolic_check(thm).status == "proved"


def test_a_symbol_no_scope_declares_brings_no_hidden_assumptions():
    """sympy reads a symbol with the assumptions it was made with: an undeclared Symbol("z", positive=True) made
    0 < z a theorem, and a bare Symbol("w") (complex) instantiated exp_taylor_remainder at w = iπ (3.72 <= −114).
    Only declared symbols, plain reals and random-variable symbols may occur."""
    from cdpsym.proof import lt
    from theorems.subgaussian_exponential_product import exp_taylor_remainder

    def status(relation, proof, variables=None):
        thm = Theorem(name="red11u", reference="", source="t", title="t", variables=variables or {},
                      parts=(Part("main", relation, proof=proof),))
        return symbolic_check(thm).status

    z = sp.Symbol("z_red11", positive=True)
    assert status(lt(0, z), Chain(sp.S.Zero).lt(z, sign())) not in HOLDS
    shadow = sp.Symbol("tau", negative=True)  # the theorem declares tau > 0; the statement's tau is another symbol
    from cdpsym.expr import tau
    assert status(le(0, -shadow), Chain(sp.S.Zero).le(-shadow, sign()), {tau: positive()}) not in HOLDS
    w = sp.Symbol("w_red11")
    taylor = exp_taylor_remainder.relation
    inst = {sp.Symbol("Y_1", real=True): w}
    rel = Rel(taylor.lhs.xreplace(inst), "<=", taylor.rhs.xreplace(inst))
    assert status(rel, Chain(rel.lhs).le(rel.rhs, by(exp_taylor_remainder, Y_1=w))) not in HOLDS
    # a step through a hidden assumption, between declared ends
    x = sp.Symbol("x_red11", real=True)
    detour = Chain(x).le(x + z, sign()).eq(x + z, algebra()).le(x + z + 1, sign())
    assert status(le(x, x + z + 1), detour, {x: real()}) not in HOLDS
    # the control: a plain real symbol is an arbitrary real wherever it is undeclared
    r = sp.Symbol("r_red11", real=True)
    assert status(le(r, r + 1), Chain(r).le(r + 1, sign())) == "proved"


def test_a_witness_gives_values_of_opaque_terms_only():
    """A ground truth's third element re-bound the parameter mu (E[X] <= mu − 1 passed the numeric check)."""
    from cdpsym.proof import numeric
    from cdpsym.verify.numeric import numeric_check

    mean = Hypothesis(name="mean", title="E[X] = mu", relation=eq(Expect(X), mu))

    def make(values):
        def truth(v, dps):
            return [("X = mu", v[mu], values(v))]
        return Theorem(name="red11w", reference="", source="t", title="t", variables={mu: real(), X: real()},
                       hypotheses=(mean,), numeric_points=({"mu": "0"},),
                       parts=(Part("main", le(Expect(X), mu - 1), proof=Chain(Expect(X)).le(mu - 1, numeric()),
                                   ground_truth=truth),))

    assert numeric_check(make(lambda v: {Expect(X): v[mu]})).status == "failed"
    with pytest.raises(ValueError, match="opaque terms only"):
        numeric_check(make(lambda v: {mu: v[mu] + 1}))
    assert make(lambda v: {mu: v[mu] + 1}).verify(property_examples=2).verdict == "failed"


def test_a_domain_end_may_not_be_a_possibly_infinite_number():
    """[E[X²], oo) is empty where E[X²] = +oo; such a domain is refused at its declaration."""
    m = sp.Symbol("m_red11", real=True)
    with pytest.raises(ProofError, match="may be infinite"):
        Theorem(name="red11d", reference="", source="t", title="t",
                variables={X: real(), m: Interval(Expect(X ** 2), sp.oo, False, True)},
                parts=(Part("main", le(0, 1), proof=Chain(sp.S.Zero).le(1, sign())),))


def test_a_random_variable_is_a_plain_real_symbol():
    """A random-variable symbol needs no declaration, so it may carry no assumption a domain would have checked:
    declare_random(Symbol("Z", positive=True)) would make 0 < Z a theorem."""
    from cdpsym.expr.symbols import declare_random

    for bad in (sp.Symbol("Z_red11", positive=True), sp.Symbol("Z_red11"), sp.Symbol("Z_red11", integer=True)):
        with pytest.raises(ValueError, match="plain|real=True"):
            declare_random(bad)
    declare_random(sp.Symbol("Z_red11", real=True))  # the control


# -- red-team regressions, twelfth review ------------------------------------------------------------------------------

def test_a_value_a_justification_brings_in_is_real():
    """i entered through specialize (0 <= u² at u = i gave 0 <= −1), through an instance (0 <= x² at x = i r_1) and
    through Taylor's point (cos² has g'' <= 2 on the reals; at h = i p the remainder changes sign): refused."""
    from cdpsym.expr.symbols import sequence
    from cdpsym.proof import taylor
    from cdpsym.proof.kernel import Specialize

    u = sp.Symbol("u_red12", real=True)
    proof = Chain(sp.S.Zero, variables={u: real()}).le(u ** 2, sign()).eq(-1, Specialize(u, sp.I))
    thm = Theorem(name="red12a", reference="", source="t", title="t", variables={},
                  parts=(Part("main", le(0, -1), proof=proof),))
    assert symbolic_check(thm).status not in HOLDS

    r = sequence("r_red12", "r")
    xs = sp.Symbol("x_red12", real=True)
    square = Theorem(name="red12sq", reference="", source="t", title="t", variables={xs: real()},
                     parts=(Part("main", le(0, xs ** 2), proof=Chain(sp.S.Zero).le(xs ** 2, sign())),))
    assert symbolic_check(square).status == "proved"
    value = sp.I * r(1)
    cite = Theorem(name="red12b", reference="", source="t", title="t", variables={}, sequences={r: real()},
                   parts=(Part("main", le(0, -r(1) ** 2), proof=Chain(sp.S.Zero).le(-r(1) ** 2,
                                                                                    by(square, x_red12=value))),))
    assert symbolic_check(cite).status not in HOLDS

    step = Chain(sp.cosh(r(1)) ** 2).le(1 - r(1) ** 2, taylor(lambda v: sp.cos(v) ** 2, sp.I * r(1), 2))
    bent = Theorem(name="red12c", reference="", source="t", title="t", variables={}, sequences={r: real()},
                   parts=(Part("main", le(sp.cosh(r(1)) ** 2, 1 - r(1) ** 2), proof=step),))
    assert symbolic_check(bent).status not in HOLDS


# -- red-team regressions, thirteenth review ---------------------------------------------------------------------------

@pytest.mark.parametrize("end", [sp.I, sp.Integer(-1) ** sp.Rational(1, 4)])
def test_a_domain_end_is_a_real_number(end):
    """v in (i, i + 1) passed the declaration; 0 <= v² there and the limit at the end i gave 0 <= -1."""
    from cdpsym.proof import limit

    v = sp.Symbol("v_red13", real=True)
    chain = Chain(sp.S.Zero, variables={v: Interval.open(end, end + 1)}).le(v ** 4, sign()).le(end ** 4, limit(v, "lo"))
    thm = Theorem(name="red13", reference="", source="t", title="t", variables={},
                  parts=(Part("main", le(0, end ** 4), proof=chain),))
    assert symbolic_check(thm).status not in HOLDS
    with pytest.raises(ProofError, match="not a real"):
        Theorem(name="red13d", reference="", source="t", title="t", variables={v: Interval.open(end, end + 1)},
                parts=(Part("main", le(0, 1), proof=Chain(sp.S.Zero).le(1, sign())),))


def test_a_domain_end_and_a_taylor_point_are_real_where_they_are_defined_only():
    """sqrt(q) with q = (y − 7/3)² − 10⁻⁴⁰ is real except near y = 7/3: as a domain end, a limit there proved
    10⁻⁴⁰ <= (y − 7/3)² for every y; as Taylor's point for g = −(2/5)v⁶, it proved −(2/5)q³ <= 0 for every y."""
    from cdpsym.expr import y
    from cdpsym.proof import limit, taylor

    q = (y - sp.Rational(7, 3)) ** 2 - sp.Rational(1, 10 ** 40)
    end = sp.sqrt(q)
    v = sp.Symbol("v_red13b", real=True)
    tiny = sp.Rational(1, 10 ** 40)
    with pytest.raises(ProofError, match="not shown a real number"):
        Theorem(name="red13e", reference="", source="t", title="t",
                variables={y: real(), v: Interval.open(end, end + 1)},
                parts=(Part("main", le(0, 1), proof=Chain(sp.S.Zero).le(1, sign())),))
    chain = (Chain(tiny, variables={v: Interval.open(end, end + 1)}).le(tiny + v ** 2, sign())
             .le(tiny + end ** 2, limit(v, "lo")))
    thm = Theorem(name="red13f", reference="", source="t", title="t", variables={y: real()},
                  parts=(Part("main", le(tiny, (y - sp.Rational(7, 3)) ** 2), proof=chain),))
    assert symbolic_check(thm).status not in HOLDS
    g = lambda w: -sp.Rational(2, 5) * w ** 6  # noqa: E731 - g'' = -12 w⁴ <= 0 on the reals
    step = Chain(g(end)).le(sp.S.Zero, taylor(g, end, 0))
    bent = Theorem(name="red13g", reference="", source="t", title="t", variables={y: real()},
                   parts=(Part("main", le(g(end), 0), proof=step),))
    assert symbolic_check(bent).status not in HOLDS
