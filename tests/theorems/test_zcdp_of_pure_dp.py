"""zcdp_of_pure_dp: proved with all three checks, in the MGF form of approx_dp_of_zcdp's hypothesis."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from cdpsym.proof import le

from cdpsym.expr import L, eps, lam
from cdpsym.expr.operators import Expect
import importlib

from cdpsym.proof import symbolic_check

zcdp = importlib.import_module("theorems.zcdp_of_pure_dp")  # the module (theorems.<name> may be the Theorem)
make = zcdp.make


@pytest.fixture(scope="module")
def report():
    return zcdp.theorem.verify(property_examples=30)


def test_zcdp_of_pure_dp_is_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    checks = report.checks
    assert checks["symbolic"]["status"] == "proved"
    assert set(checks["symbolic"]["cites"]) == {"kl_of_pure_dp"}
    assert [p["status"] for p in checks["symbolic"]["parts"]] == ["proved"] * 3
    assert set(checks["symbolic"]["trusted_axioms"]) == {"exp_chord_bound", "expectation_affine", "kl_is_mean_loss",
                                                         }  # no bridge axiom
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"


def test_the_randomized_response_parts_are_two_taylor_steps():
    result = symbolic_check(zcdp.theorem)
    for part in result.parts[:2]:
        (step,) = part.steps
        assert step.method == "taylor" and step.status == "proved" and "g'' <= 1 proved" in step.detail


def test_the_statement_is_the_zcdp_hypothesis_of_approx_dp_of_zcdp_with_rho_eps_squared_over_two():
    from cdpsym.expr import rho
    from theorems.approx_dp_of_zcdp import zcdp as zcdp_hypothesis

    rel = zcdp.theorem.part("main").relation
    hyp = zcdp_hypothesis.relation
    want = le(hyp.lhs.xreplace({rho: eps ** 2 / 2}), hyp.rhs.xreplace({rho: eps ** 2 / 2}))
    assert rel.lhs == want.lhs == Expect(sp.exp(lam * L)) and sp.simplify(rel.rhs - want.rhs) == 0
    assert zcdp.theorem.variables[lam].describe() == zcdp_hypothesis.variables[lam].describe()


def test_randomized_response_is_below_eps_squared_over_two_and_even_eps_tanh():
    # R-C6 / REFERENCE N47: RR is eps tanh(eps/2)-zCDP (not proved here; checked numerically)
    with mpmath.workdps(30):
        for e in (mpmath.mpf("0.05"), mpmath.mpf("0.5"), mpmath.mpf(3)):
            rho_star = e * mpmath.tanh(e / 2)
            for i in range(1, 200):
                lm = mpmath.mpf(i) / 5
                log_mgf = zcdp._rr_log_mgf_truth({eps: e, lam: lm}, 30)[0][1]
                assert log_mgf <= lm * (lm + 1) * rho_star * (1 + mpmath.mpf("1e-20"))
                assert lm * (lm + 1) * rho_star <= lm * (lm + 1) * e ** 2 / 2


@pytest.mark.parametrize("label", ["ρ = ε²/4: the constant 1/2 scaled to 1/4",
                                   "ρ = ε tanh(ε/2)/2: the sharp constant halved"])
def test_a_too_small_rho_fails_symbolically_and_numerically(label):
    mutant = dict(zcdp.mutants())[label]
    result = symbolic_check(mutant)
    assert result.status == "failed" and result.parts[-1].steps[-1].status == "failed"
    report = mutant.verify(property_examples=15)
    assert report.verdict == "failed"
    assert report.checks["numeric"]["status"] == "failed"
