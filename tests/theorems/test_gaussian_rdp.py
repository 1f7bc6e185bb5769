"""gaussian_rdp (R-D1, Mironov Prop. 7 / Cor. 3): proved through gaussian_renyi's bridge and gaussian_zcdp;
a dropped square, a dropped α or a larger denominator fail; the sensitivity hypothesis is needed."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, alpha, mu, nu, sensitivity, sigma
from cdpsym.expr.operators import Expect
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

gr = importlib.import_module("theorems.gaussian_rdp")
make = gr.make


def test_proved_citing_gaussian_zcdp_and_the_bridge():
    report = gr.theorem.verify(property_examples=5)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["by:gaussian_renyi.bridge", "by:gaussian_zcdp", "algebra"]
    assert symbolic["kernel_rules"] == []
    tight = [c for c in report.checks["numeric"]["comparisons"] if c["witness"].startswith("worst")]
    assert tight and all(c["digits"] is not None and c["digits"] >= 38 for c in tight)


def test_statement_and_notion():
    thm = gr.theorem
    (part,) = thm.parts
    assert part.relation.op == "<="
    assert part.relation.lhs == Expect(sp.exp((alpha - 1) * L))
    assert part.relation.rhs == sp.exp((alpha - 1) * alpha * sensitivity ** 2 / (2 * sigma ** 2))
    assert [h.name for h in thm.hypotheses] == ["sensitivity", "gaussian_pair"]
    from cdpsym.claims.semantics import schema_mismatches, schemas
    assert "gaussian_rdp" not in schema_mismatches()
    assert any(s.name == "gaussian_rdp" for s in schemas())


def test_witness_values():
    # REFERENCE N43: Delta = 2, sigma = 1, alpha = 3: D_alpha = 6
    with mpmath.workdps(50):
        v = {sensitivity: mpmath.mpf(2), sigma: mpmath.mpf(1), alpha: mpmath.mpf(3), mu: mpmath.mpf(0),
             nu: mpmath.mpf(5)}
        (_, clipped), (_, worst) = gr._truth(v, 50)
        assert abs(mpmath.log(worst) / 2 - 6) < mpmath.mpf(10) ** -40
        assert abs(clipped - worst) < mpmath.mpf(10) ** -40  # nu is clipped to mu + Delta


@pytest.mark.parametrize("name, mutant", gr.mutants())
def test_mutants_fail_symbolically_and_numerically(name, mutant):
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


def test_mutant_fails_verification_with_a_counterexample():
    _, mutant = gr.mutants()[1]  # alpha dropped
    report = mutant.verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["property"]["status"] == "failed"


def test_without_the_sensitivity_hypothesis_it_is_not_proved():
    hyps = tuple(h for h in gr.theorem.hypotheses if h.name != "sensitivity")
    assert symbolic_check(gr.theorem.with_changes(hypotheses=hyps)).status != "proved"


def test_without_the_gaussian_pair_it_is_not_proved():
    hyps = tuple(h for h in gr.theorem.hypotheses if h.name != "gaussian_pair")
    assert symbolic_check(gr.theorem.with_changes(hypotheses=hyps)).status != "proved"


def test_a_smaller_curve_is_false_at_the_worst_pair():
    # alpha*Delta**2/(2*sigma**2) is attained: 0.99 times it is refuted by the quadrature
    assert numeric_check(make(sp.Rational(99, 100) * alpha * sensitivity ** 2 / (2 * sigma ** 2))).status == "failed"
