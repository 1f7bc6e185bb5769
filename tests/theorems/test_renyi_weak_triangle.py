"""renyi_weak_triangle (M17 Prop 11, bounded form): proved from Young's inequality; the R-C8 instance is tight."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import a, alpha, b, s
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, by, le, specialize, symbolic_check
from cdpsym.verify.numeric import compare_part

wt = importlib.import_module("theorems.renyi_weak_triangle")  # the module (theorems.<name> is the Theorem)
make, L_PQ, L_QR = wt.make, wt.L_PQ, wt.L_QR


@pytest.fixture(scope="module")
def report():
    return wt.theorem.verify(property_examples=10)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    sym = report.checks["symbolic"]
    assert set(sym["trusted_axioms"]) == {"young_expectation", "expectation_affine"}
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_is_mironov_prop_11():
    rel = wt.theorem.main.relation
    assert rel.lhs == Expect(sp.exp(alpha * L_PQ + (alpha - 1) * L_QR))
    p_, q_ = 1 + s, (1 + s) / s
    # (α − 1) × [(α − 1/p)/(α − 1) a + b]
    want = (alpha - 1) * ((alpha - 1 / p_) / (alpha - 1) * a + b)
    assert sp.simplify(sp.log(rel.rhs) - want) == 0
    assert wt.renyi_pq.relation.lhs == Expect(sp.exp(p_ * alpha * L_PQ))
    assert sp.simplify(wt.renyi_qr.relation.lhs.args[0].args[0] - q_ * (alpha - 1) * L_QR) == 0
    assert [h.name for h in wt.theorem.hypotheses] == ["renyi_pq", "renyi_qr"]


def test_the_group_privacy_instance_is_tight():
    # R-C8 with k = 2: p = (2α − 1)/α (s = (α − 1)/α); links are Gaussians with shift μ (ρ = μ²/2):
    # a = D_{2α−1}(P‖Q) = (2α − 1)μ²/2, b = D_{2α}(Q‖R) = αμ²; the bound 2αμ² is D_α of the shift 2μ
    with mpmath.workdps(50):
        al, mu = mpmath.mpf(9) / 5, mpmath.mpf(7) / 10
        point = {alpha: al, s: (al - 1) / al, a: (2 * al - 1) * mu ** 2 / 2, b: al * mu ** 2}
        comps = compare_part(wt.theorem.main, point, 50)
    tight = [c for c in comps if "bounds" in c.witness]
    assert tight and tight[0].ok and tight[0].digits is not None and tight[0].digits >= 40
    with mpmath.workdps(50):
        assert abs(mpmath.log(wt.gaussian_triple(al, mu, mu)) - (al - 1) * al * (2 * mu) ** 2 / 2) \
            < mpmath.mpf(10) ** -40


def test_mutants_fail_symbolically_and_numerically():
    for name, mutant in wt.mutants():
        assert symbolic_check(mutant).status == "failed", name
        rep = mutant.verify(property_examples=5)
        assert rep.verdict == "failed", name
        assert rep.checks["numeric"]["status"] == "failed", name


# -- adversarial ---------------------------------------------------------------------------------------------------

def test_without_a_hypothesis_nothing_is_proved():
    for drop in ("renyi_pq", "renyi_qr"):
        thm = wt.theorem.with_changes(hypotheses=tuple(h for h in wt.theorem.hypotheses if h.name != drop))
        assert symbolic_check(thm).status != "proved", drop


def test_specialising_at_a_wrong_scaling_is_refused():
    proof = wt.theorem.main.proof
    bad = Chain(proof.start, proof.steps[:5], dict(proof.variables)).eq(sp.exp(wt.BOUND_EXPONENT), specialize(t=1))
    thm = Theorem(name="adversarial_wt", reference="-", source="-", title="adversarial",
                  variables=dict(wt.theorem.variables), hypotheses=wt.theorem.hypotheses,
                  parts=(Part("main", le(proof.start, sp.exp(wt.BOUND_EXPONENT)), proof=bad),))
    assert symbolic_check(thm).status == "failed"


def test_young_at_the_wrong_exponent_does_not_match():
    # Young with p = 2 gives weights 1/2, 1/2 and exponents 2, 2: not the hypotheses' orders unless s = 1
    proof = Chain(Expect(sp.exp(alpha * L_PQ + (alpha - 1) * L_QR))).le(
        Expect(sp.exp(2 * alpha * L_PQ)) / 2 + Expect(sp.exp(2 * (alpha - 1) * L_QR)) / 2,
        by(wt.young_expectation, X=sp.exp(alpha * L_PQ), Y=sp.exp((alpha - 1) * L_QR), p_H=3))
    thm = Theorem(name="adversarial_wt", reference="-", source="-", title="adversarial",
                  variables=dict(wt.theorem.variables), hypotheses=wt.theorem.hypotheses,
                  parts=(Part("main", le(proof.start, proof.end), proof=proof),))
    assert symbolic_check(thm).status != "proved"  # the instance names other expectations: not a match
