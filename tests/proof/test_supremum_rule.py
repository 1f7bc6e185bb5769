"""The kernel's supremum rule, ``by(fact, over_chains=True)``: adversarial chains it must never prove, and true
ones it must keep proving.

In a scope, a chain of inputs ``x_0 ~ x_1 ~ ...`` (``ell_j``, ``G_k``, ``M(x_j)``) stands for *every* chain whose
consecutive pairs are pairs of the class, as the canonical pair stands for every pair.  The rule reads a bound
``E[G_m] <= c`` proved of that chain as a bound on the supremum over all of them,
``sup_{x,x' in X^m} D_KL(M(x)||M(x')) <= c`` (``KLDiameter(m)``): ``E[G_m]`` is ``D_KL(M(x_0)||M(x_m))`` and any two
inputs of m entries are the ends of a chain of m links.

A FALSE statement must never be *proved*.  The attacks below try a scope that singles out one chain (a hypothesis,
a local condition of a ``given`` discharge, an induction hypothesis), a bound that names the pair or the chain, a
chain length that is not a positive integer, the wrong quantity (a link, a multiple, an impostor ``G``), a strict
bound, and a theorem proved by the rule fed a local condition.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import L, X, k, mu, naturals, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect, ExpectAt, GroupLoss, KLDiameter, LinkLoss
from cdpsym.proof import Chain, Hypothesis, Part, Rel, Theorem, by, le, sign, symbolic_check
from cdpsym.proof.core import KERNEL_RULES
from theorems.pure_dp_group_privacy import G, chain_base_measure, ell, group_loss_one

HOLDS = ("proved", "certified")
mean_bound = Hypothesis("mean_bound", title="every pair of the class has E[L] <= mu", relation=le(Expect(L), mu))
_V = sp.Symbol("v", real=True)


def _thm(name, rel, chain, hypotheses=(mean_bound,), variables=None, parts=()):
    return Theorem(name=name, reference="", source="test", title="t",
                   variables=dict(variables or {mu: real(), k: naturals()}), hypotheses=tuple(hypotheses),
                   parts=tuple(parts) + (Part(name="main", relation=rel, proof=chain),))


def _status(rel, chain, hypotheses=(mean_bound,), variables=None, parts=()):
    try:
        return symbolic_check(_thm("supremum_test", rel, chain, hypotheses, variables, parts)).status
    except ProofError:
        return "refused"


def _one_link(bound=mu, hyp=mean_bound):
    """E[G_1] <= bound: G_1 = ell_1, under M(x_0), read at the first link from ``hyp`` (E[L] <= bound)."""
    return (Chain(Expect(G(1))).eq(Expect(ell(1)), by(group_loss_one))
            .eq(ExpectAt(ell(1), 0), by(chain_base_measure, Y_1=ell(1)))
            .le(bound, by(hyp, at_link=1)))


_LINK = Part(name="link", relation=le(Expect(G(1)), mu), proof=_one_link())


def test_rule_is_listed_and_the_objects_are_the_kernels():
    assert "supremum" in KERNEL_RULES
    assert G is GroupLoss and ell is LinkLoss


# -- TRUE: proved -----------------------------------------------------------------------------------------------------

def test_a_bound_on_every_neighbouring_pair_bounds_the_diameter_of_one_entry():
    # every pair of the class has D_KL <= mu, so any two inputs of one entry (neighbours) are at most mu apart
    rel = le(KLDiameter(1), mu)
    assert _status(rel, Chain(KLDiameter(1)).le(mu, by(_LINK, over_chains=True)), parts=(_LINK,)) == "proved"


def test_the_library_uses_it_for_the_mutual_information_bound():
    import importlib

    mi = importlib.import_module("theorems.mutual_information_of_zcdp")
    main = next(p for p in symbolic_check(mi.theorem).parts if p.name.endswith(".main"))
    assert main.status == "proved" and "supremum" in main.rules


# -- FALSE or unjustified: never proved ---------------------------------------------------------------------------

def test_a_hypothesis_on_the_chain_singles_it_out():
    # "E[G_1] <= 0" holds of a chain of repeated inputs, not of every chain: sup D_KL <= 0 is false
    short = Hypothesis("short", title="the scope's chain is short", relation=le(Expect(G(1)), 0))
    chain = Chain(KLDiameter(1)).le(0, by(short, over_chains=True))
    assert _status(le(KLDiameter(1), 0), chain, hypotheses=(mean_bound, short)) not in HOLDS
    # ... and a true chain fact is not read over every chain beside it either (conservative)
    chain = Chain(KLDiameter(1)).le(mu, by(_LINK, over_chains=True))
    assert _status(le(KLDiameter(1), mu), chain, hypotheses=(mean_bound, short), parts=(_LINK,)) not in HOLDS


def test_a_quantified_hypothesis_about_the_chain_is_still_about_this_chain():
    h = Hypothesis("h", title="for every v >= 0: E[G_1] <= v", relation=le(Expect(G(1)), _V), variables={_V: real()})
    chain = Chain(KLDiameter(1)).le(0, by(h, v=0, over_chains=True))
    assert _status(le(KLDiameter(1), 0), chain, hypotheses=(mean_bound, h)) not in HOLDS


def test_a_local_condition_is_not_read_over_every_chain():
    # Hq: for every v >= E[G_1] (of the scope's chain), sup D_KL <= v.  T0 (sup D_KL <= E[G_1]) is valid under Hq.
    hq = Hypothesis("Hq", title="for every v >= E[G_1]: sup <= v", relation=le(KLDiameter(1), _V),
                    variables={_V: real()}, conditions=(le(Expect(G(1)), _V),))
    t0 = _thm("T0", le(KLDiameter(1), Expect(G(1))), Chain(KLDiameter(1)).le(Expect(G(1)), by(hq, v=Expect(G(1)))),
              (mean_bound, hq))
    assert symbolic_check(t0).status == "supported"  # valid; only E[G_1] is not shown finite
    # discharging Hq by the rule under its own local condition would prove sup D_KL <= E[G_1]: false (x_1 = x_0)
    cond = Hypothesis("condition 1", title="local", relation=le(Expect(G(1)), _V))
    prove_hq = Chain(KLDiameter(1)).le(_V, by(cond, over_chains=True))
    chain = Chain(KLDiameter(1)).le(Expect(G(1)), by(t0, given={"Hq": prove_hq}))
    result = symbolic_check(_thm("T1", le(KLDiameter(1), Expect(G(1))), chain))
    assert result.status == "failed"  # refused, not merely unproved like T0
    assert "local condition" in result.parts[0].steps[0].detail


def test_a_theorem_proved_by_the_rule_is_not_fed_a_local_condition():
    class_mean = Hypothesis("class_mean", title="every pair has E[L] <= v", relation=le(Expect(L), _V))
    link = Part(name="link", relation=le(Expect(G(1)), _V), proof=_one_link(_V, class_mean))
    t_sup = _thm("T_sup", le(KLDiameter(1), _V), Chain(KLDiameter(1)).le(_V, by(link, over_chains=True)),
                 (class_mean,), {_V: real()}, (link,))
    assert symbolic_check(t_sup).status == "proved"  # valid: a bound on every pair bounds the diameter
    # Hq: for every v >= E[L] (of the canonical pair): sup D_KL <= v; under it sup D_KL <= E[L] is valid
    hq = Hypothesis("Hq", title="for every v >= E[L]: sup <= v", relation=le(KLDiameter(1), _V),
                    variables={_V: real()}, conditions=(le(Expect(L), _V),))
    t0 = _thm("T0", le(KLDiameter(1), Expect(L)), Chain(KLDiameter(1)).le(Expect(L), by(hq, v=Expect(L))),
              (mean_bound, hq))
    assert symbolic_check(t0).status == "proved"
    # Hq discharged by T_sup, its hypothesis met by the local condition E[L] <= v of the canonical pair alone:
    # sup D_KL <= E[L] is false (a class {KL 0, KL mu}, the canonical pair the first)
    prove_hq = Chain(KLDiameter(1)).le(_V, by(t_sup.part("main"), v=_V))
    chain = Chain(KLDiameter(1)).le(Expect(L), by(t0, given={"Hq": prove_hq}))
    assert _status(le(KLDiameter(1), Expect(L)), chain) not in HOLDS
    # T_sup's number v instantiated with the pair's mean, its hypothesis E[L] <= E[L] by a sign argument
    chain = Chain(KLDiameter(1)).le(Expect(L), by(t_sup.part("main"), v=Expect(L), given={"class_mean": sign()}))
    assert _status(le(KLDiameter(1), Expect(L)), chain) not in HOLDS


def test_the_bound_must_be_a_constant_of_the_class():
    # every random X has E[X] <= E[L] + E[G_2] (a vacuous hypothesis): its bound names the pair and the chain
    for bound in (Expect(L), Expect(G(2)), Expect(X), Expect(L) + mu):
        h = Hypothesis("h", title="vacuous", relation=le(Expect(X), bound), variables={X: real()})
        chain = Chain(KLDiameter(1)).le(bound, by(h, X=G(1), over_chains=True))
        assert _status(le(KLDiameter(1), bound), chain, hypotheses=(mean_bound, h)) not in HOLDS, bound
    # a number is a constant of the class: the vacuous hypothesis "every E[X] <= mu" gives sup <= mu (valid)
    h = Hypothesis("h", title="vacuous", relation=le(Expect(X), mu), variables={X: real()})
    chain = Chain(KLDiameter(1)).le(mu, by(h, X=G(1), over_chains=True))
    assert _status(le(KLDiameter(1), mu), chain, hypotheses=(mean_bound, h)) == "proved"


def test_the_chain_length_is_a_positive_integer():
    h = Hypothesis("h", title="vacuous", relation=le(Expect(X), mu), variables={X: real()})
    for m in (sp.S(0), sp.Rational(1, 2), k - 1, -k, sp.Symbol("r", real=True)):
        variables = {mu: real(), k: naturals(), sp.Symbol("r", real=True): real()}
        chain = Chain(KLDiameter(m)).le(mu, by(h, X=G(m), over_chains=True))
        assert _status(le(KLDiameter(m), mu), chain, (mean_bound, h), variables) not in HOLDS, m
    chain = Chain(KLDiameter(k)).le(mu, by(h, X=G(k), over_chains=True))  # k >= 1: valid (vacuous hypothesis)
    assert _status(le(KLDiameter(k), mu), chain, (mean_bound, h)) == "proved"


def test_only_the_mean_of_the_group_loss_bounds_the_diameter():
    h = Hypothesis("h", title="vacuous", relation=le(Expect(X), mu), variables={X: real()})
    impostor = sp.Function("G", real=True)  # same name, not the kernel's group loss
    for value in (LinkLoss(1), 2 * G(1), G(1) ** 2, impostor(1), ExpectAt(G(1), 1)):
        chain = Chain(KLDiameter(1)).le(mu, by(h, X=value, over_chains=True))
        assert _status(le(KLDiameter(1), mu), chain, (mean_bound, h)) not in HOLDS, value
    # E[G_1] <= mu about the chain does not bound the diameter of inputs of two entries
    chain = Chain(KLDiameter(2)).le(mu, by(_LINK, over_chains=True))
    assert _status(le(KLDiameter(2), mu), chain, parts=(_LINK,)) not in HOLDS


def test_a_strict_bound_gives_only_a_weak_one_over_the_chains():
    strict = Hypothesis("h", title="vacuous", relation=Rel(Expect(X), "<", mu), variables={X: real()})
    chain = Chain(KLDiameter(1)).lt(mu, by(strict, X=G(1), over_chains=True))
    assert _status(Rel(KLDiameter(1), "<", mu), chain, (mean_bound, strict)) not in HOLDS


def test_the_rule_is_not_mixed_with_the_member_rule_or_given_a_non_boolean():
    chain = Chain(KLDiameter(1)).le(mu, by(mean_bound, at_link=1, over_chains=True))
    assert _status(le(KLDiameter(1), mu), chain) not in HOLDS
    chain = Chain(KLDiameter(1)).le(mu, by(_LINK, over_chains="yes"))
    assert _status(le(KLDiameter(1), mu), chain, parts=(_LINK,)) not in HOLDS


def test_without_the_rule_a_chain_fact_does_not_bound_the_diameter():
    chain = Chain(KLDiameter(1)).le(mu, by(_LINK))
    assert _status(le(KLDiameter(1), mu), chain, parts=(_LINK,)) not in HOLDS


def test_a_quantified_hypothesis_range_is_checked_like_any_declaration():
    # found by the review of the rule: a hypothesis "for every v in [E[L], oo)" was accepted although a range
    # with an end that may be infinite is refused everywhere else ([E[X^2], oo) is empty where E[X^2] = oo)
    import pytest

    hq = Hypothesis("Hq", title="for every v >= E[L]: sup <= v", relation=le(KLDiameter(1), _V),
                    variables={_V: Interval.closed(Expect(L), sp.oo)})
    with pytest.raises(ProofError):
        _thm("T0", le(KLDiameter(1), Expect(L)), Chain(KLDiameter(1)).le(Expect(L), by(hq, v=Expect(L))),
             (mean_bound, hq))
