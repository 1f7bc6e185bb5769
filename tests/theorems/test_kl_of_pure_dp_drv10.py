"""kl_of_pure_dp_drv10 (R-B13, DRV10 Lemma III.2 / DR16 Lemma 3.7, outer inequality): proved from the sharp
bound plus a sign step; lowered bounds fail; the proof needs both halves of ε-DP."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps
from cdpsym.expr.operators import KL, P, Q
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

mod = importlib.import_module("theorems.kl_of_pure_dp_drv10")
kl = importlib.import_module("theorems.kl_of_pure_dp")


@pytest.fixture(scope="module")
def report():
    return mod.theorem.verify(property_examples=15)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert "kl_of_pure_dp" in symbolic["cites"]
    assert [s["method"] for s in symbolic["steps"]] == ["by:kl_of_pure_dp.sharp", "sign"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    (part,) = mod.theorem.parts
    assert part.relation.lhs == KL(P, Q) and part.relation.op == "<="
    assert part.relation.rhs == eps * (sp.exp(eps) - 1)
    assert mod.theorem.hypotheses == (kl.pure_dp, kl.same_support)


def test_symmetric_sum_of_random_pairs_is_below_the_drv10_bound():
    # R-B13 / N24 for the part that is not claimed symbolically: J = KL(P||Q) + KL(Q||P) <= eps (e^eps - 1)
    with mpmath.workdps(30):
        for e in (mpmath.mpf("0.1"), mpmath.mpf(1), mpmath.mpf(2)):
            for pp, qq in kl.random_pure_dp_pairs(e, count=20, seed=3):
                j = mpmath.fsum((x - y) * mpmath.log(x / y) for x, y in zip(pp, qq))
                assert j <= e * mpmath.expm1(e)
                assert j <= 2 * e * mpmath.tanh(e / 2) * (1 + mpmath.mpf(10) ** -20)  # the sharp form


@pytest.mark.parametrize("label, mutant", mod.mutants(), ids=[m[0] for m in mod.mutants()])
def test_mutants_fail_symbolically_and_numerically(label, mutant):
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


@pytest.mark.parametrize("keep", ["pure_dp", "same_support"])
def test_both_halves_of_pure_dp_are_needed(keep):
    hyps = tuple(h for h in mod.theorem.hypotheses if h.name == keep)
    one_sided = mod.theorem.with_changes(name=f"kl_drv10_only_{keep}", hypotheses=hyps)
    assert symbolic_check(one_sided).status != "proved"
