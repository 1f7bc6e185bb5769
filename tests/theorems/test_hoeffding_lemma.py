"""hoeffding_lemma: proved with all three checks; a wrong constant fails symbolically; the bridge is not vacuous."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import importlib

from cdpsym.expr import a, b, lam
from cdpsym.proof import symbolic_check

hoeffding_lemma = importlib.import_module("theorems.hoeffding_lemma")  # the module (theorems.<name> may be the Theorem)
make = hoeffding_lemma.make


def _assert_proved(report, axioms):
    assert report.verdict == "proved", report
    checks = report.checks
    assert checks["symbolic"]["status"] == "proved"
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"
    assert set(checks["symbolic"]["trusted_axioms"]) == axioms


@pytest.fixture(scope="module")
def report():
    return hoeffding_lemma.theorem.verify(property_examples=30)


def test_hoeffding_lemma_is_proved_by_all_three_checks(report):
    _assert_proved(report, {"exp_chord_bound", "expectation_affine", "taylor_lagrange"})
    parts = report.checks["symbolic"]["parts"]
    assert [p["name"] for p in parts] == ["hoeffding_lemma." + n for n in ("exponent", "two_point", "main")]
    assert all(p["status"] == "proved" for p in parts)
    # per point: the exponent and two-point parts (one witness each), the main part (three laws)
    assert len(report.checks["numeric"]["comparisons"]) == 5 * len(hoeffding_lemma.theorem.numeric_points)


def test_the_taylor_step_proves_the_second_derivative_bound():
    exponent = symbolic_check(hoeffding_lemma.theorem).parts[0]
    (step,) = exponent.steps
    assert step.method == "taylor" and step.status == "proved"
    assert "g'' <= 1/4 proved" in step.detail


def test_the_later_parts_cite_the_earlier_ones():
    result = symbolic_check(hoeffding_lemma.theorem)
    assert [s.method for s in result.parts[1].steps] == ["algebra", "by:hoeffding_lemma.exponent", "algebra"]
    assert "by:hoeffding_lemma.two_point" in [s.method for s in result.parts[2].steps]


def test_the_endpoint_hypotheses_form_is_proved_from_the_bridge_axiom():
    report = hoeffding_lemma.with_endpoint_hypotheses.verify(property_examples=20)
    _assert_proved(report, {"exp_chord_bound", "expectation_affine", "two_point_hoeffding_conditional"})


def test_without_the_endpoint_hypotheses_the_bridge_cannot_be_used():
    h = hoeffding_lemma
    bare = h.with_endpoint_hypotheses.with_changes(name="hoeffding_bare", hypotheses=(h.mean_zero, h.in_interval))
    result = symbolic_check(bare)
    assert result.status == "failed"
    assert "condition" in result.parts[0].steps[-1].detail


@pytest.mark.parametrize("constant", [sp.Rational(1, 9), sp.Rational(1, 16)])
def test_a_smaller_constant_fails_symbolically_and_numerically(constant):
    mutant = make(constant=constant)
    report = mutant.verify(property_examples=20)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"


def test_the_two_point_law_is_extremal_and_the_constant_is_attained_as_lambda_vanishes():
    # REFERENCE N28: X in {-1, 3} with mean 0; Rademacher: log E e^{lam X} / (lam^2/2) -> 1 as lam -> 0
    with mpmath.workdps(40):
        lo, hi = mpmath.mpf(-1), mpmath.mpf(3)
        for lm in (mpmath.mpf("0.5"), mpmath.mpf(-2), mpmath.mpf(3)):
            laws = hoeffding_lemma._laws(lo, hi)
            values = [hoeffding_lemma._mgf(law, lm) for _, law in laws]
            assert values[0] == max(values)  # the two-point law dominates (chord bound)
            assert values[0] <= mpmath.exp(lm ** 2 * (hi - lo) ** 2 / 8)
        small = mpmath.mpf("1e-8")
        rademacher = hoeffding_lemma._mgf(hoeffding_lemma._two_point_law(mpmath.mpf(-1), mpmath.mpf(1)), small)
        assert abs(mpmath.log(rademacher) / (small ** 2 * 4 / 8) - 1) < mpmath.mpf("1e-10")


def test_three_point_laws_have_mean_zero_and_stay_in_the_interval():
    with mpmath.workdps(30):
        for lo, hi in ((-4, 0.1), (-0.1, 4), (-1, 1)):
            for _, law in hoeffding_lemma._laws(mpmath.mpf(lo), mpmath.mpf(hi)):
                assert abs(mpmath.fsum(w for _, w in law) - 1) < mpmath.mpf("1e-25")
                assert abs(mpmath.fsum(w * x for x, w in law)) < mpmath.mpf("1e-25")
                assert all(w >= 0 and lo <= x <= hi for x, w in law)


def test_the_statement_is_the_classical_one():
    rel = hoeffding_lemma.theorem.part("main").relation
    assert rel.op == "<=" and rel.rhs == sp.exp(lam ** 2 * (b - a) ** 2 / 8)
