"""approx_dp_of_kl (R-E3): delta(0)^2 <= 1 - e^-rho and <= rho/2 under KL <= rho, proved from the
Bretagnolle-Huber and Pinsker axioms; smaller bounds fail; the hypothesis is needed."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr.operators import KL, HockeyStick, P, Q
from cdpsym.expr.symbols import rho
from cdpsym.mechanisms import Gaussian
from cdpsym.proof import Chain, Part, by, le, register_axioms, symbolic_check
from cdpsym.verify.numeric import numeric_check

kl = importlib.import_module("theorems.approx_dp_of_kl")
register_axioms(*kl.AXIOMS)  # a no-op once the module is listed in theorems.MODULES
TV = HockeyStick(0, P, Q)


def test_proved_with_all_checks():
    report = kl.theorem.verify(property_examples=8)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert set(symbolic["trusted_axioms"]) == {"bretagnolle_huber", "pinsker"}
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    bh, pk = kl.theorem.parts
    assert (bh.relation.lhs, bh.relation.op, bh.relation.rhs) == (TV ** 2, "<=", 1 - sp.exp(-rho))
    assert (pk.relation.lhs, pk.relation.op, pk.relation.rhs) == (TV ** 2, "<=", rho / 2)
    assert [h.name for h in kl.theorem.hypotheses] == ["kl_bound"]
    assert kl.kl_bound.relation.lhs == KL(P, Q) and kl.kl_bound.relation.rhs == rho
    assert kl.theorem.notion == ""


@pytest.mark.parametrize("name,thm", kl.mutants(), ids=[m[0] for m in kl.mutants()])
def test_mutants_fail(name, thm):
    assert symbolic_check(thm).status == "failed"
    assert numeric_check(thm).status == "failed"


def test_without_the_kl_hypothesis_the_proof_fails():
    assert symbolic_check(kl.theorem.with_changes(hypotheses=())).status == "failed"


def test_the_hypothesis_cannot_be_used_backwards():
    # KL <= rho does not give 1 - e^{-KL} >= 1 - e^{-rho}: a decreasing context is refused
    proof = (Chain(TV ** 2).le(1 - sp.exp(-KL(P, Q)), by(kl.bretagnolle_huber))
             .le(sp.exp(-rho), by(kl.kl_bound, inside=lambda w: sp.exp(-w))))
    thm = kl.theorem.with_changes(parts=(Part("main", le(TV ** 2, sp.exp(-rho)), proof=proof),))
    assert symbolic_check(thm).status != "proved"


@pytest.mark.parametrize("r", ["0.045", "0.5", "4.5"])
def test_axioms_hold_on_the_witnesses_and_bh_beats_pinsker_above_1_59(r):
    # REFERENCE ✓N45: Gaussian pairs, exact TV = 2 Phi(Delta/2) - 1, Delta = sqrt(2 rho)
    with mpmath.workdps(40):
        rr = mpmath.mpf(r)
        (_, gauss), (_, rand) = kl.witnesses(rr, 40)
        delta_ = mpmath.sqrt(2 * rr)
        assert abs(gauss - (2 * mpmath.ncdf(delta_ / 2) - 1)) < mpmath.mpf(10) ** -35
        assert abs(gauss - Gaussian(sensitivity=sp.Float(mpmath.nstr(delta_, 50), 50), sigma=1).delta(0, dps=40)) \
            < mpmath.mpf(10) ** -35
        for tv in (gauss, rand):
            assert tv ** 2 <= 1 - mpmath.exp(-rr) and tv ** 2 <= rr / 2
        assert (1 - mpmath.exp(-rr) < rr / 2) == (rr > mpmath.mpf("1.6"))
