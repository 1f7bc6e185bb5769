"""approx_dp_advanced_composition_rdp (R-D9, Mironov Lemma 1 / Cor. 1 with the R-C6 constant): proved through
rdp_composition and zcdp_of_pure_dp; a smaller constant or a dropped √k fails against the exact optimum;
Cor. 1's condition log(1/δ) >= kε² and the ε-DP hypotheses are needed."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import alpha, delta, eps, k, open_unit, positive
from cdpsym.expr.operators import HockeyStick
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk

ac = importlib.import_module("theorems.approx_dp_advanced_composition_rdp")
make = ac.make


def test_proved_citing_rdp_composition():
    report = ac.theorem.verify(property_examples=5)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    methods = {s["method"] for s in symbolic["steps"]}
    assert {"by:rdp_composition", "by:tail_condition_composed", "by:markov_exponential", "specialize"} <= methods
    assert symbolic["kernel_rules"] == ["induction", "member", "taylor"]  # rdp_composition: induction, member; zcdp_of_pure_dp: taylor
    # the ground truth is non-trivial at the last three points (exact δ > 0)
    main = [c for c in report.checks["numeric"]["comparisons"] if c["part"].endswith("main")]
    assert sum(1 for c in main if float(c["truth"]) > 0) >= 3


def test_statement_and_notion():
    main = ac.theorem.part("main")
    assert main.relation.lhs == HockeyStick(4 * eps * sp.sqrt(2 * k * sp.log(1 / delta)), Pk(k), Qk(k))
    assert main.relation.rhs == delta
    assert ac.theorem.variables[eps].hi == sp.sqrt(sp.log(1 / delta) / k)  # Cor. 1's condition
    lemma1 = ac.theorem.part("lemma1")
    assert sp.simplify(lemma1.relation.rhs - sp.exp((alpha - 1) * 2 * alpha * eps ** 2)) == 0
    assert [h.name for h in ac.theorem.hypotheses] == ["pure_dp", "same_support"]
    from cdpsym.claims.semantics import schema_mismatches
    assert "approx_dp_advanced_composition_rdp" not in schema_mismatches()


def test_condition_and_cor1_against_the_exact_optimum():
    from cdpsym.mechanisms import optimal_composition_delta

    with mpmath.workdps(30):
        kk, e, d = 1000, mpmath.mpf("0.03"), mpmath.mpf("1e-3")
        assert mpmath.log(1 / d) >= kk * e ** 2
        ep = 4 * e * mpmath.sqrt(2 * kk * mpmath.log(1 / d))
        assert optimal_composition_delta(ep, [e] * kk, dps=30) <= d
        # the unsafe constant 1/2 is refuted there
        assert optimal_composition_delta(ep / 8, [e] * kk, dps=30) > d


@pytest.mark.parametrize("name, mutant", ac.mutants())
def test_mutants_fail(name, mutant):
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


def test_without_cor1_condition_it_is_not_proved():
    # ε free of the condition log(1/δ) >= kε²: the exponent bound needs 36 log(1/δ) >= kε²/2
    variables = dict(ac.theorem.variables)
    variables[eps] = positive()
    variables[delta] = open_unit()
    result = symbolic_check(ac.theorem.with_changes(variables=variables))
    assert result.status != "proved"


@pytest.mark.parametrize("drop", ["pure_dp", "same_support"])
def test_the_epsilon_dp_hypotheses_are_needed(drop):
    hyps = tuple(h for h in ac.theorem.hypotheses if h.name != drop)
    assert symbolic_check(ac.theorem.with_changes(hypotheses=hyps)).status != "proved"
