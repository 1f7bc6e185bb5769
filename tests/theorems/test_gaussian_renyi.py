"""gaussian_renyi (R-C1): the Gaussian Rényi divergence, its MGF form and the bridge are proved; wrong
divergences fail; the bridge is not available without the Gaussian pair, nor outside α > 1."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, alpha, mu, nu, positive, real, sigma
from cdpsym.expr.operators import Expect, Normal, Renyi
from cdpsym.proof import Chain, Part, Theorem, by, eq, le, symbolic_check
from cdpsym.verify.numeric import numeric_check

gr = importlib.import_module("theorems.gaussian_renyi")
make = gr.make
D = Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma))
MGF = Expect(sp.exp((alpha - 1) * L))


def test_proved_with_all_checks():
    report = gr.theorem.verify(property_examples=5)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert set(symbolic["trusted_axioms"]) == {"renyi_divergence_definition", "gaussian_integral",
                                               "expectation_affine", "standard_normal_mgf"}
    assert symbolic["kernel_rules"] == []
    assert report.checks["numeric"]["status"] == "passed"
    # exact: the quadratures agree with the closed forms to the working precision
    assert all(c["digits"] is not None and c["digits"] >= 38 for c in report.checks["numeric"]["comparisons"])


def test_statement_shape():
    thm = gr.theorem
    assert thm.reference == "R-C1" and thm.notion == ""
    assert [p.name for p in thm.parts] == ["gaussian_renyi.renyi", "gaussian_renyi.mgf", "gaussian_renyi.bridge"]
    renyi, mgf, bridge = thm.parts
    assert renyi.relation.op == mgf.relation.op == bridge.relation.op == "="
    assert renyi.relation.lhs == D and renyi.relation.rhs == alpha * (mu - nu) ** 2 / (2 * sigma ** 2)
    assert mgf.relation.lhs == MGF
    assert bridge.relation.lhs == sp.exp((alpha - 1) * D) and bridge.relation.rhs == MGF
    assert [h.name for h in thm.hypotheses] == ["gaussian_pair"]
    dom = thm.variables[alpha]
    assert dom.lo == 1 and dom.left_open and dom.hi == sp.oo


def test_published_values():
    # REFERENCE N1: (mu, nu, sigma, alpha) = (0, 1.3, 0.7, 2.5) and (0.2, -0.9, 1.1, 7)
    with mpmath.workdps(50):
        for m1, m2, s, a in (("0", "1.3", "0.7", "2.5"), ("0.2", "-0.9", "1.1", "7")):
            v = {mu: mpmath.mpf(m1), nu: mpmath.mpf(m2), sigma: mpmath.mpf(s), alpha: mpmath.mpf(a)}
            closed = v[alpha] * (v[mu] - v[nu]) ** 2 / (2 * v[sigma] ** 2)
            (_, r), = gr._renyi_truth(v, 50)
            (_, g), = gr._mgf_truth(v, 50)
            assert abs(r - closed) < mpmath.mpf(10) ** -45
            assert abs(mpmath.log(g) / (v[alpha] - 1) - closed) < mpmath.mpf(10) ** -44


def test_tiny_gap_keeps_its_digits():
    with mpmath.workdps(30):
        v = {mu: mpmath.mpf("1e-40"), nu: mpmath.mpf(0), sigma: mpmath.mpf(1), alpha: mpmath.mpf(2)}
        (_, r), = gr._renyi_truth(v, 30)
        assert abs(r / mpmath.mpf("1e-80") - 1) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("name, mutant", gr.mutants())
def test_mutants_fail_symbolically_and_numerically(name, mutant):
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


def test_mutants_fail_verification():
    for _, mutant in gr.mutants():
        report = mutant.verify(property_examples=5)
        assert report.verdict == "failed"
        assert report.checks["numeric"]["status"] == "failed" or report.checks["property"]["status"] == "failed"


# -- adversarial -------------------------------------------------------------------------------------------

def test_mgf_needs_the_gaussian_pair():
    result = symbolic_check(gr.theorem.with_changes(hypotheses=()))
    parts = {p.name.split(".")[-1]: p.status for p in result.parts}
    assert parts["renyi"] == "proved"  # the density route needs no hypothesis
    assert parts["mgf"] != "proved" and parts["bridge"] != "proved"


def _citing(statement, why, variables=None, hypotheses=None):
    return Theorem(name="adversarial_gaussian_renyi", reference="-", source="-", title="-",
                   variables=variables or dict(gr.theorem.variables),
                   hypotheses=gr.theorem.hypotheses if hypotheses is None else hypotheses,
                   parts=(Part("main", statement, proof=Chain(statement.lhs).eq(statement.rhs, why)),))


def test_bridge_cited_honestly_is_proved():
    thm = _citing(eq(MGF, sp.exp((alpha - 1) * D)), by(gr.theorem.part("bridge")))
    assert symbolic_check(thm).status == "proved"


def test_bridge_cited_without_the_pair_is_not_proved():
    thm = _citing(eq(MGF, sp.exp((alpha - 1) * D)), by(gr.theorem.part("bridge")), hypotheses=())
    assert symbolic_check(thm).status != "proved"


def test_bridge_at_an_order_below_one_is_refused():
    # at α = 1/2 the definition's 1/(α − 1) changes sign: the parts are only stated for α > 1
    half = sp.Rational(1, 2)
    lhs = Expect(sp.exp((half - 1) * L))
    rhs = sp.exp((half - 1) * Renyi(half, Normal(mu, sigma), Normal(nu, sigma)))
    variables = {mu: real(), nu: real(), sigma: positive()}
    thm = _citing(eq(lhs, rhs), by(gr.theorem.part("bridge"), alpha=half), variables=variables)
    assert symbolic_check(thm).status != "proved"


def test_a_wrong_relation_is_not_proved():
    # E e^{(α−1)L} <= e^{(α−1)D_α/2}: false for μ ≠ ν
    thm = _citing(le(MGF, sp.exp((alpha - 1) * D / 2)), by(gr.theorem.part("bridge")))
    assert symbolic_check(thm).status != "proved"


def test_renyi_part_with_unequal_variances_is_not_an_instance():
    other = Renyi(alpha, Normal(mu, sigma), Normal(nu, 2 * sigma))
    thm = _citing(eq(other, alpha * (mu - nu) ** 2 / (2 * sigma ** 2)), by(gr.theorem.part("renyi")))
    assert symbolic_check(thm).status != "proved"
