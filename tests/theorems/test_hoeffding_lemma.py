"""hoeffding_lemma: proved with all three checks; a wrong constant fails symbolically; citing it discharges
the endpoint domains a < 0 < b by sign arguments or by given chains."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

import importlib

from cdpsym.expr import X, a, b, lam, positive, real, s, t
from cdpsym.expr.operators import Expect, Prob
from cdpsym.proof import Chain, Hypothesis, by, eq, lt, symbolic_check
from cdpsym.proof.algebra import Context
from theorems.foundations_convexity import in_range

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
    _assert_proved(report, {"exp_chord_bound", "expectation_affine"})
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


_T_BELOW_S = Hypothesis(name="t_below_s", title="t < s", relation=lt(t, s))


def _cite_main(a_value, b_value, given=None, facts=()):
    """Cite part ``main`` at X, a = a_value, b = b_value where X has mean 0 and lies in [a_value, b_value]."""
    in_range_here = Hypothesis(name="range_here", relation=eq(Prob(in_range(a_value, X, b_value)), 1))
    ctx = Context({s: positive(), t: positive(), lam: real(), X: real()},
                  (hoeffding_lemma.mean_zero, in_range_here) + tuple(facts))
    bound = sp.exp(lam ** 2 * (b_value - a_value) ** 2 / 8)
    chain = Chain(Expect(sp.exp(lam * X))).le(
        bound, by(hoeffding_lemma.theorem.part("main"), a=a_value, b=b_value, given=given or {}))
    (result,) = chain.check(ctx)
    return result


def test_citing_the_lemma_discharges_the_endpoint_domains_by_sign_arguments():
    assert _cite_main(-s, s).status == "proved"
    wrong = _cite_main(s, 2 * s)  # a = s > 0: outside the domain a < 0
    assert wrong.status == "failed" and wrong.detail.startswith("hypothesis not met — a:")


def test_an_endpoint_domain_may_be_discharged_by_a_given_chain():
    # a = t - s < 0 is no sign fact; it follows from the local hypothesis t < s, cited in a chain
    a_negative = Chain(t - s).lt(0, by(_T_BELOW_S, inside=lambda w: w - s))
    assert _cite_main(t - s, s, facts=(_T_BELOW_S,)).status != "proved"
    assert _cite_main(t - s, s, given={"a": a_negative}, facts=(_T_BELOW_S,)).status == "proved"
    # ... but only where that hypothesis is in scope
    out_of_scope = _cite_main(t - s, s, given={"a": a_negative})
    assert out_of_scope.status == "failed" and "'t_below_s' is not a hypothesis in scope here" in out_of_scope.detail


@pytest.mark.parametrize("label, mutant", hoeffding_lemma.mutants(), ids=[x for x, _ in hoeffding_lemma.mutants()])
def test_a_smaller_constant_fails_symbolically_and_numerically(label, mutant):
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
