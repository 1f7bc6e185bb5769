"""The heterogeneous forms (a parameter per step): zcdp_composition_heterogeneous (R-C7),
rdp_composition_heterogeneous (R-D4), subgaussian_sum_heterogeneous (R-B5),
pure_dp_basic_composition_heterogeneous (R-F1), cdp_composition_heterogeneous (R-B10).

Proved by the same chains as the homogeneous theorems; tight for independent Gaussian steps; every mutant
fails; the per-step hypothesis is read at the step it names and nowhere else.
"""

from __future__ import annotations

import importlib

import pytest
import sympy as sp

from cdpsym.expr import L, i, k, lam, naturals, positive
from cdpsym.expr.operators import ClassLoss, Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, by, le, symbolic_check
from theorems.foundations_composition import C, CondMGF, condition, conditional_mgf_bound

MODULES = ["zcdp_composition_heterogeneous", "rdp_composition_heterogeneous", "subgaussian_sum_heterogeneous",
           "pure_dp_basic_composition_heterogeneous", "cdp_composition_heterogeneous"]
zh = importlib.import_module("theorems.zcdp_composition_heterogeneous")


@pytest.mark.parametrize("name", MODULES)
def test_proved_by_all_three_checks_and_tight(name):
    mod = importlib.import_module(f"theorems.{name}")
    report = mod.theorem.verify(property_examples=6)
    assert report.verdict == "proved", report
    assert report.checks["symbolic"]["kernel_rules"][0] == "induction"
    comps = report.checks["numeric"]["comparisons"]
    # the independent-Gaussian witness attains the bound at every point
    assert any(c["digits"] is not None and c["digits"] >= 45 for c in comps)
    assert report.checks["property"]["status"] == "passed"


@pytest.mark.parametrize("name", MODULES)
def test_every_mutant_fails_numerically(name):
    mod = importlib.import_module(f"theorems.{name}")
    for label, mutant in mod.mutants():
        report = mutant.verify(property_examples=6)
        assert report.verdict == "failed", label
        assert report.checks["numeric"]["status"] == "failed" or report.checks["property"]["status"] == "failed"
        assert report.checks["symbolic"]["status"] != "proved", label


def test_the_statement_is_a_sum_over_the_steps():
    (part,) = zh.theorem.parts
    assert part.relation.rhs == sp.exp(lam * (lam + 1) * sp.Sum(zh.rho_step(i), (i, 1, k)))
    (h,) = zh.theorem.hypotheses
    assert h.variables == {i: naturals()} and h.relation.lhs.has(ClassLoss(i))


# -- adversarial: the class of step i is read at step i only ---------------------------------------------------------

def _one_step(target_step, read_at, index):
    """ess sup E[e^{λC_n} | F_{n-1}] <= e^{λ(λ+1)ρ_index}, from the per-step hypothesis read at ``read_at``."""
    bound = sp.exp(lam * (lam + 1) * zh.rho_step(index))
    why = by(conditional_mgf_bound, Y_1=C(target_step), lam=lam, i=target_step, c=bound,
             given={condition(conditional_mgf_bound): by(zh.zcdp_per_step, i=index, at_step=read_at)})
    rel = le(CondMGF(C(target_step), lam, target_step), bound)
    return Theorem(name="adversarial_step", reference="-", source="-", title="-",
                   variables={k: naturals(), lam: positive()}, hypotheses=(zh.zcdp_per_step,),
                   parts=(Part("main", rel, proof=Chain(rel.lhs).le(rel.rhs, why)),))


def test_the_class_of_step_i_is_read_at_step_i():
    assert symbolic_check(_one_step(k + 1, k + 1, k + 1)).status == "proved"  # the harness is sound
    # step k + 1 priced with ρ_k (the class of another step), or the class of step k read at step k + 1
    assert symbolic_check(_one_step(k + 1, k + 1, k)).status != "proved"
    assert symbolic_check(_one_step(k + 1, k, k)).status != "proved"
    assert symbolic_check(_one_step(2, 2, 1)).status != "proved"


def test_the_per_step_hypothesis_is_not_a_statement_about_the_canonical_pair():
    # E[e^{λL}] <= e^{λ(λ+1)ρ_1} does not follow: L is a pair of the class of no step in particular
    rel = le(Expect(sp.exp(lam * L)), sp.exp(lam * (lam + 1) * zh.rho_step(1)))
    thm = Theorem(name="adversarial_pair", reference="-", source="-", title="-", variables={lam: positive()},
                  hypotheses=(zh.zcdp_per_step,), parts=(Part("main", rel, proof=Chain(rel.lhs).le(
                      rel.rhs, by(zh.zcdp_per_step, i=1))),))
    assert symbolic_check(thm).status != "proved"


def test_two_classes_in_one_fact_are_refused():
    mixed = Hypothesis("mixed", title="E[L L^(i)] <= 1", relation=le(Expect(L * ClassLoss(i)), 1),
                       variables={i: naturals()})
    from cdpsym.expr.operators import CondExpect, Prob

    target = Prob(sp.StrictGreaterThan(CondExpect(C(1) * C(1), 1), 1))
    thm = Theorem(name="adversarial_mixed", reference="-", source="-", title="-", variables={},
                  hypotheses=(mixed,), parts=(Part("main", le(target, 0), proof=Chain(target).le(
                      0, by(mixed, i=1, at_step=1))),))
    assert symbolic_check(thm).status != "proved"
