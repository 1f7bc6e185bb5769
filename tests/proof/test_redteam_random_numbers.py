"""Regression tests from the hostile review of the ``limit`` and expectation-monotonicity rules: false statements
that were *proved* by mixing numbers and random quantities, and must now be refused.

* a number variable whose domain names a random symbol, then ``limit``/``specialize`` to that end: "E[X] = 1/2
  implies 1/2 <= X at every outcome", and from it an anti-Jensen inequality;
* ``split`` on a random variable: the cases "X <= 0 everywhere" and "X >= 0 everywhere" do not cover a random X;
* ``specialize`` of a number variable at a random value;
* indicators and privacy losses are random variables, not numbers (``deterministic``);
* a dict subclass that lies about a chain variable's domain when the rule reads it.
"""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import X, Y
from cdpsym.expr.domains import Interval, real
from cdpsym.expr.operators import Expect, Indicator, P, PrivacyLoss, Prob, Q
from cdpsym.proof import Chain, Hypothesis, Part, Rel, Theorem, algebra, by, eq, le, limit, sign, split, symbolic_check
from cdpsym.proof.core import deterministic
from cdpsym.proof.kernel import Specialize
from theorems.foundations_convexity import expectation_affine, in_range

S = sp.S
HOLDS = ("proved", "certified")
v = sp.Symbol("v", real=True)


def _thm(name, relation, proof, variables=None, hypotheses=()):
    return Theorem(name=name, reference="", source="t", title="t", variables=variables or {},
                   hypotheses=tuple(hypotheses), parts=(Part("main", relation, proof=proof),))


def test_a_number_variable_cannot_range_up_to_a_random_symbol():
    with pytest.raises(ProofError, match="random quantity"):
        _thm("below", le(X, v), Chain(X).le(v, sign()), {X: real(), v: Interval.open(X, X + 1)})
    res = symbolic_check(_thm("c", le(S.Zero, S.One), Chain(S.Zero, variables={v: Interval.open(X, X + 1)})
                              .le(S.One, sign()), {X: real()}))
    assert res.status == "failed" and "random quantity" in res.parts[0].detail


def test_limit_to_a_random_end_is_refused():
    # the same attack with a chain variable: the scope refuses the declaration, or the rule the end
    ch = Chain(S.Zero, variables={v: Interval.open(Y, Y + 1)}).le(v - Y, sign()).le(S.Zero, limit(v))
    try:
        status = symbolic_check(_thm("t", le(S.Zero, S.Zero), ch, {Y: real()})).status
    except ProofError:
        status = "refused"
    assert status not in HOLDS


def test_split_on_a_random_variable_is_refused():
    mean0 = Hypothesis("mean0", relation=eq(Expect(X), 0))
    neg = Interval(-sp.oo, S.Zero, True, False)
    pos = Interval(S.Zero, sp.oo, False, True)
    abs_neg = _thm("abs_neg", eq(sp.Abs(X), -X), Chain(sp.Abs(X)).eq(-X, algebra()), {X: neg})
    abs_pos = _thm("abs_pos", eq(sp.Abs(X), X), Chain(sp.Abs(X)).eq(X, algebra()), {X: pos})
    t_neg = _thm("mean_abs_neg", le(Expect(sp.Abs(X)), S.Zero),
                 Chain(Expect(sp.Abs(X))).eq(Expect(-X), by(abs_neg, X=X, inside=lambda w: Expect(w)))
                 .eq(-Expect(X), by(expectation_affine, a=-1, b=0, X=X)).eq(S.Zero, by(mean0)),
                 {X: neg}, (mean0,))
    t_pos = _thm("mean_abs_pos", le(Expect(sp.Abs(X)), S.Zero),
                 Chain(Expect(sp.Abs(X))).eq(Expect(X), by(abs_pos, X=X, inside=lambda w: Expect(w)))
                 .eq(S.Zero, by(mean0)), {X: pos}, (mean0,))
    assert symbolic_check(t_neg).status == "proved" and symbolic_check(t_pos).status == "proved"  # each case holds
    both = _thm("mean_abs_zero", le(Expect(sp.Abs(X)), S.Zero),
                Chain(Expect(sp.Abs(X))).le(S.Zero, split(X, 0, by(t_neg, X=X), by(t_pos, X=X))),
                {X: real()}, (mean0,))
    assert symbolic_check(both).status not in HOLDS  # E|X| = 1 for a random sign


def test_specialize_a_number_at_a_random_value_is_refused():
    bounded = Hypothesis("bounded", relation=eq(Prob(in_range(0, Y, 1)), 1))
    ch = (Chain(S.Zero, variables={v: real()})
          .eq(v * Expect(Y) - Expect(v * Y), by(expectation_affine, a=v, b=0, X=Y, inside=lambda w: w - Expect(v * Y)))
          .eq(Y * Expect(Y) - Expect(Y ** 2), Specialize(v, Y)))
    t = _thm("specialize_random", Rel(S.Zero, "=", Y * Expect(Y) - Expect(Y ** 2)), ch, {Y: real()}, (bounded,))
    assert symbolic_check(t).status not in HOLDS


def test_indicators_and_privacy_losses_are_random():
    ind = Indicator(sp.StrictGreaterThan(X, 0))
    assert not deterministic(ind) and not deterministic(2 * ind + 1)
    assert not deterministic(PrivacyLoss(P, Q))
    assert deterministic(Expect(ind * X)) and deterministic(Expect(PrivacyLoss(P, Q)))
    mean0 = Hypothesis("mean0", relation=eq(Expect(X), 0))
    ch = Chain(Expect(ind * X)).eq(ind * Expect(X), by(expectation_affine, a=ind, b=0, X=X)).eq(ind * 0, by(mean0))
    t = _thm("positive_part", Rel(Expect(ind * X), "=", S.Zero), ch, {X: real()}, (mean0,))
    assert symbolic_check(t).status not in HOLDS  # E[X 1[X > 0]] = 1/2 for a random sign
    pl = PrivacyLoss(P, Q)
    t2 = _thm("loss_is_its_mean", Rel(pl, "<=", Expect(pl)),
              Chain(pl).eq(Expect(pl), by(expectation_affine, a=0, b=pl, X=X)))
    assert symbolic_check(t2).status not in HOLDS


class _Lying(dict):
    def __getitem__(self, key):
        return Interval.open(-1, 0)


@pytest.mark.parametrize("rule", ["limit", "specialize"])
def test_a_lying_mapping_of_chain_variables(rule):
    if rule == "limit":
        ch = Chain(S.Zero, variables=_Lying({v: Interval.open(0, 1)})).le(v, sign()).le(S(-1), limit(v))
    else:
        ch = Chain(S.Zero, variables=_Lying({v: Interval.open(0, 1)})).lt(v, sign()).eq(S(-1) / 2,
                                                                                      Specialize(v, S(-1) / 2))
    try:
        status = symbolic_check(_thm("z", Rel(S.Zero, "<=", S(-1) if rule == "limit" else S(-1) / 2), ch)).status
    except ProofError:
        status = "refused"
    assert status not in HOLDS
