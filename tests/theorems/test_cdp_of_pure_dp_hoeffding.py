"""cdp_of_pure_dp_hoeffding: both parts proved with all three checks; wrong μ or τ fails symbolically;
Hoeffding's lemma is cited directly, its endpoint domains discharged by chains from proved facts."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, eps
import importlib

from cdpsym.expr.operators import KL, Expect, P, Q
from cdpsym.proof import Chain, by, sign, symbolic_check
from theorems.foundations import kl_is_mean_loss

cdp = importlib.import_module("theorems.cdp_of_pure_dp_hoeffding")  # the module (theorems.<name> may be the Theorem)
kl = importlib.import_module("theorems.kl_of_pure_dp")
make = cdp.make


@pytest.fixture(scope="module")
def report():
    return cdp.theorem.verify(property_examples=30)


def test_cdp_of_pure_dp_is_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    checks = report.checks
    assert [p["status"] for p in checks["symbolic"]["parts"]] == ["proved", "proved"]
    assert set(checks["symbolic"]["cites"]) == {"kl_of_pure_dp", "hoeffding_lemma"}
    assert set(checks["symbolic"]["trusted_axioms"]) == {"exp_chord_bound", "expectation_affine", "kl_is_mean_loss",
                                                          "kl_nonnegative"}
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"


def test_hoeffding_is_cited_at_the_centred_loss_with_every_hypothesis_discharged(report):
    (step,) = [s for s in report.checks["symbolic"]["steps"] if s["part"].endswith("subgaussian")]
    assert step["method"] == "by:hoeffding_lemma.main" and step["status"] == "proved"


def test_randomized_response_mean_is_the_sharp_mean():
    with mpmath.workdps(40):
        for e in (mpmath.mpf("0.3"), mpmath.mpf("1.5")):
            value = cdp._mean_truth({eps: e}, 40)[0][1]  # randomized response comes first
            assert abs(value - e * mpmath.tanh(e / 2)) < mpmath.mpf(10) ** -35
            assert value < e * (mpmath.exp(e) - 1) / 2


def test_the_centred_loss_of_randomized_response_is_eps_subgaussian_on_a_grid():
    # REFERENCE N39: eps = 0.3, 1.5; lambda on a grid; max ratio log MGF / (lambda^2 eps^2 / 2) < 1
    from cdpsym.expr import lam

    with mpmath.workdps(30):
        for e in (mpmath.mpf("0.3"), mpmath.mpf("1.5")):
            worst = 0
            for i in range(-40, 41):
                lm = mpmath.mpf(i) / 4
                if lm == 0:
                    continue
                rr = cdp._subgaussian_truth({eps: e, lam: lm}, 30)[0][1]
                worst = max(worst, mpmath.log(rr) / (lm ** 2 * e ** 2 / 2))
            assert 0.8 < worst < 1


def test_a_halved_mean_term_fails_symbolically_and_numerically():
    mutant = dict(cdp.mutants())["μ = ε(e^ε − 1)/4: the constant 1/2 scaled to 1/4"]
    result = symbolic_check(mutant)
    assert result.status == "failed"
    mean = [p for p in result.parts if p.name.endswith("mean")][0]
    assert mean.steps[-1].method == "sign" and mean.steps[-1].status == "failed"
    report = mutant.verify(property_examples=15)
    assert report.verdict == "failed" and report.checks["numeric"]["status"] == "failed"


def test_tau_eps_over_two_fails_symbolically_and_numerically():
    mutant = dict(cdp.mutants())["τ = ε/2: halved"]
    result = symbolic_check(mutant)
    assert result.status == "failed"
    sub = [p for p in result.parts if p.name.endswith("subgaussian")][0]
    assert sub.steps[-1].method == "algebra" and sub.steps[-1].status == "failed"
    report = mutant.verify(property_examples=15)
    assert report.verdict == "failed" and report.checks["numeric"]["status"] == "failed"


def test_the_mean_part_also_proves_the_sharp_mean():
    # the chain passes through E[L] <= eps (e^eps - 1)/(e^eps + 1) = eps tanh(eps/2)
    chain = cdp.theorem.part("mean").proof
    assert chain.steps[1].expr == kl.SHARP


def test_the_trusted_base_lists_gibbs_inequality(report):
    # kl_nonnegative is cited only inside the given= chain for the endpoint a; it is still in the trusted base
    assert "kl_nonnegative" in report.checks["symbolic"]["trusted_axioms"]
    (step,) = symbolic_check(cdp.theorem).parts[1].steps
    assert "kl_nonnegative" in step.axioms


def _hoeffding_step(given):
    """The subgaussian step, citing Hoeffding's lemma with the given proofs ``given``, checked in context."""
    part = cdp.theorem.part("subgaussian")
    el = Expect(L)
    chain = Chain(part.relation.lhs).le(part.relation.rhs,
                                         by(cdp._HOEFFDING, X=L - el, a=-eps - el, b=eps - el, given=given))
    (result,) = chain.check(cdp.theorem.context())
    return result


@pytest.mark.parametrize("endpoint", ["a", "b"])
def test_without_its_chain_an_endpoint_domain_is_not_discharged(endpoint):
    # a < 0 < b at a = -eps - E[L], b = eps - E[L] is not a sign fact: it needs Gibbs / kl_of_pure_dp
    given = {k: v for k, v in cdp._GIVEN.items() if k != endpoint}
    result = _hoeffding_step(given)
    assert result.status != "proved"
    assert result.detail.startswith(f"{endpoint}:")


def test_a_given_chain_with_a_false_step_is_refused():
    # 0 < eps/2 - eps tanh(eps/2) fails for eps > 1.1: the chain has the right ends, the citation still fails
    el, kl_div, sharp = Expect(L), KL(P, Q), cdp.SHARP
    wrong = (Chain(sp.S.Zero)
             .lt(eps / 2 - sharp, sign())
             .le(eps / 2 - kl_div, by(cdp._SHARP, inside=lambda w: w + eps / 2 - sharp - kl_div))
             .lt(eps - kl_div, sign())
             .eq(eps - el, by(kl_is_mean_loss)))
    result = _hoeffding_step({**cdp._GIVEN, "b": wrong})
    assert result.status == "failed"
    assert result.detail.startswith("hypothesis not met — b: the given chain fails")


def test_the_chain_for_one_endpoint_does_not_discharge_the_other():
    result = _hoeffding_step({**cdp._GIVEN, "b": cdp._GIVEN["a"]})
    assert result.status != "proved"
