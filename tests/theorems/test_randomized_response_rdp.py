"""randomized_response_rdp (R-D3, Mironov Prop. 5): the exact RDP curve and KL of RR_p are proved from the
law of the output bit; a dropped term, a wrong normalisation or a halved KL fail; every hypothesis is needed."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, alpha, p
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import KL, Expect, P, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, by, eq, le, symbolic_check
from cdpsym.verify.numeric import numeric_check

rr = importlib.import_module("theorems.randomized_response_rdp")
make = rr.make
B = rr.B


def test_proved_with_all_checks():
    report = rr.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert set(symbolic["trusted_axioms"]) == {"kl_is_mean_loss", "expectation_affine"}
    assert symbolic["kernel_rules"] == []
    comparisons = report.checks["numeric"]["comparisons"]
    assert comparisons and all(c["digits"] is not None and c["digits"] >= 38 for c in comparisons)  # exact


def test_statement_shape():
    thm = rr.theorem
    assert thm.reference == "R-D3"
    loss, kl, main = thm.parts
    assert kl.relation.lhs == KL(P, Q) and kl.relation.rhs == (2 * p - 1) * (sp.log(p) - sp.log(1 - p))
    assert main.relation.op == "<=" and main.relation.lhs == Expect(sp.exp((alpha - 1) * L))
    curve = p ** alpha * (1 - p) ** (1 - alpha) + (1 - p) ** alpha * p ** (1 - alpha)
    assert sp.simplify(main.relation.rhs - curve) == 0
    assert [h.name for h in thm.hypotheses] == ["rr_pair", "bernoulli_mgf", "bernoulli_mean"]
    dom = thm.variables[p]
    assert dom.lo == sp.Rational(1, 2) and dom.hi == 1 and dom.left_open and dom.right_open


def test_published_values():
    # REFERENCE N4: p = 0.7, alpha = 4; KL = (2p - 1) log(p/(1 - p))
    with mpmath.workdps(50):
        v = {p: mpmath.mpf("0.7"), alpha: mpmath.mpf(4)}
        closed = mpmath.log(mpmath.mpf("0.7") ** 4 * mpmath.mpf("0.3") ** -3 + mpmath.mpf("0.3") ** 4
                            * mpmath.mpf("0.7") ** -3) / 3
        for _, value in rr._mgf_truth(v, 50):
            assert abs(mpmath.log(value) / 3 - closed) < mpmath.mpf(10) ** -40
        for _, value in rr._kl_truth(v, 50):
            assert abs(value - mpmath.mpf("0.4") * mpmath.log(mpmath.mpf(7) / 3)) < mpmath.mpf(10) ** -40


def test_curve_approaches_pure_dp_and_kl():
    # sanity of the closed form against the definitions' limits: alpha -> oo gives log(p/(1-p)), alpha -> 1 KL
    f = sp.lambdify((p, alpha), rr.EPS_ALPHA, "mpmath")
    with mpmath.workdps(40):
        pp = mpmath.mpf("0.8")
        assert abs(f(pp, mpmath.mpf(10) ** 6) - mpmath.log(4)) < 1e-5
        assert abs(f(pp, 1 + mpmath.mpf(10) ** -12) - mpmath.mpf("0.6") * mpmath.log(4)) < 1e-10


@pytest.mark.parametrize("name, mutant", rr.mutants())
def test_mutants_fail_symbolically_and_numerically(name, mutant):
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


def test_a_mutant_fails_verification():
    report = rr.mutants()[0][1].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["property"]["status"] == "failed"


# -- adversarial -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("drop", ["rr_pair", "bernoulli_mgf", "bernoulli_mean"])
def test_each_hypothesis_is_needed(drop):
    hyps = tuple(h for h in rr.theorem.hypotheses if h.name != drop)
    result = symbolic_check(rr.theorem.with_changes(hypotheses=hyps))
    assert result.status != "proved"


def test_a_law_with_another_p_does_not_give_the_curve():
    # the output law Bern(1 - p) (the view of Q) in place of Bern(p): the chain must not close
    other = Hypothesis(name="bernoulli_mgf", title="wrong law", relation=eq(Expect(sp.exp(rr.c * B)),
                                                                               p + (1 - p) * sp.exp(rr.c)),
                       variables={rr.c: Interval()})
    hyps = tuple(other if h.name == "bernoulli_mgf" else h for h in rr.theorem.hypotheses)
    result = symbolic_check(rr.theorem.with_changes(hypotheses=hyps))
    assert result.parts[-1].status != "proved"


def test_outside_the_domain_it_is_not_an_instance():
    # the same hypotheses with p in (0, 1/2): the theorem is only stated for p in (1/2, 1)
    stmt = rr.theorem.part("main").relation
    thm = Theorem(name="adversarial_rr", reference="-", source="-", title="-",
                  variables={p: Interval.open(0, sp.Rational(1, 2)), alpha: rr.theorem.variables[alpha]},
                  hypotheses=rr.theorem.hypotheses,
                  parts=(Part("main", stmt, proof=Chain(stmt.lhs).le(stmt.rhs, by(rr.theorem.part("main")))),))
    result = symbolic_check(thm)
    assert result.status != "proved"


def test_the_order_one_is_not_the_main_part():
    # alpha = 1 is outside alpha > 1 (the formula is 0/0 there): citing main at alpha = 1 is refused
    stmt = le(Expect(sp.exp(0 * L)), 1)
    thm = Theorem(name="adversarial_rr1", reference="-", source="-", title="-",
                  variables={p: rr.theorem.variables[p]}, hypotheses=rr.theorem.hypotheses,
                  parts=(Part("main", stmt, proof=Chain(stmt.lhs).le(stmt.rhs, by(rr.theorem.part("main"), alpha=1))),))
    assert symbolic_check(thm).status != "proved"
