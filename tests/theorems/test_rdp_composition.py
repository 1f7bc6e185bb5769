"""rdp_composition (R-D4, Mironov 2017 Prop. 1): proved by induction; (k-1)ε, √k·ε, kε/2 fail; bad proofs refused."""

from __future__ import annotations

import dataclasses
import importlib
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, alpha, eps, k
from cdpsym.expr.operators import Expect
from cdpsym.mechanisms import Gaussian, RandomizedResponse
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import (C, CondMGF, L_k, composed_loss_start, composed_loss_step, condition,
                                              conditional_mgf_bound, tower_mgf_composed)
from theorems.foundations_convexity import expectation_affine

rdp = importlib.import_module("theorems.rdp_composition")  # the module, not the Theorem
make = rdp.make

LAM = alpha - 1
MGF = lambda n: Expect(sp.exp(LAM * L_k(n)))


def test_proved_with_all_checks():
    report = rdp.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["induction"]
    assert set(symbolic["trusted_axioms"]) == {"composed_loss_step", "composed_loss_start", "tower_mgf_composed",
                                               "conditional_mgf_bound", "expectation_affine"}
    assert symbolic["kernel_rules"] == ["induction", "member"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_and_notion():
    thm = rdp.theorem
    assert thm.name == "rdp_composition" and thm.reference == "R-D4"
    assert thm.notion == "compose(k=k, RDP(alpha, eps)) is RDP(alpha, k*eps)"
    (part,) = thm.parts
    assert part.relation.op == "<="
    assert part.relation.lhs == Expect(sp.exp((alpha - 1) * L_k(k)))
    assert part.relation.rhs == sp.exp((alpha - 1) * k * eps)
    assert [h.name for h in thm.hypotheses] == ["rdp"]
    (h,) = thm.hypotheses
    assert h.relation.op == "<="
    assert h.relation.lhs == Expect(sp.exp((alpha - 1) * L)) and h.relation.rhs == sp.exp((alpha - 1) * eps)


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("label, thm", rdp.mutants(), ids=[label for label, _ in rdp.mutants()])
def test_smaller_total_fails_symbolically_and_numerically(label, thm):
    assert symbolic_check(thm).status == "failed"
    assert numeric_check(thm).status == "failed"  # k-fold Gaussian / randomized response attain kε exactly


def test_k_minus_one_fails_verification():
    report = dict(rdp.mutants())["(k − 1)ε: one step removed"].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"
    assert report.checks["property"]["status"] == "failed"


def test_witnesses_are_tight():
    comparisons = rdp.theorem.verify(property_examples=1).checks["numeric"]["comparisons"]
    assert comparisons and all(c["digits"] is not None and c["digits"] >= 40 for c in comparisons)


# -- adversarial: a wrong bound, or a right bound by a wrong argument, is never proved ----------------------

def _theorem(step_bound, hypotheses=None, total=k * eps, bridge=conditional_mgf_bound):
    """The composition theorem whose chain lifts the per-step bound ``step_bound`` (≠ the hypothesis's
    e^{(α−1)ε} in the adversarial cases) to the claimed total, reading the hypothesis ``rdp`` at each step
    with the class-member rule."""
    bound = sp.exp(LAM * total)

    def lift(n):
        return by(bridge, Y_1=C(n), lam=LAM, i=n, c=step_bound, inside=lambda w: w * MGF(n - 1),
                  given={condition(bridge): by(rdp.rdp, at_step=n)})

    base = (
        Chain(MGF(1))
        .eq(Expect(sp.exp(LAM * (L_k(0) + C(1)))), by(composed_loss_step, i=1))
        .eq(Expect(sp.exp(LAM * L_k(0)) * sp.exp(LAM * C(1))), algebra())
        .le(CondMGF(C(1), LAM, 1) * MGF(0), by(tower_mgf_composed, i=1, lam=LAM))
        .le(step_bound * MGF(0), lift(1))
        .eq(step_bound * Expect(sp.S.One), by(composed_loss_start))
        .eq(step_bound, by(expectation_affine, a=0, b=1))
        .eq(bound.xreplace({k: 1}), algebra())
    )
    ih = Hypothesis("ih", title="induction hypothesis", relation=le(MGF(k), bound))
    step = (
        Chain(MGF(k + 1))
        .eq(Expect(sp.exp(LAM * (L_k(k) + C(k + 1)))), by(composed_loss_step, i=k + 1))
        .eq(Expect(sp.exp(LAM * L_k(k)) * sp.exp(LAM * C(k + 1))), algebra())
        .le(CondMGF(C(k + 1), LAM, k + 1) * MGF(k), by(tower_mgf_composed, i=k + 1, lam=LAM))
        .le(step_bound * MGF(k), lift(k + 1))
        .le(step_bound * bound, by(ih, inside=lambda w: step_bound * w))
        .eq(bound.xreplace({k: k + 1}), algebra())
    )
    return Theorem(name="adversarial_rdp", reference="-", source="-", title="-",
                   variables=dict(rdp.theorem.variables),
                   hypotheses=rdp.theorem.hypotheses if hypotheses is None else hypotheses,
                   parts=(Part("main", le(MGF(k), bound), proof=Chain(MGF(k)).le(bound, induction(k, base, step))),))


def test_the_honest_chain_rebuilt_here_is_proved():
    assert symbolic_check(_theorem(sp.exp(LAM * eps))).status == "proved"  # the harness itself is sound


def test_a_step_bound_below_the_hypothesis_is_refused():
    # each step at ε/2 would give kε/2: the hypothesis read at the step bounds the conditional MGF by
    # e^{(α−1)ε}, not by e^{(α−1)ε/2}, so the bridge's condition is not shown
    result = symbolic_check(_theorem(sp.exp(LAM * eps / 2), total=k * eps / 2))
    assert result.status != "proved"
    assert "condition Prob(CondExpect(exp(Y_1*lam), i) > c) <= 0" in result.parts[0].steps[0].detail


def test_the_order_is_fixed():
    # the hypothesis at the order 2α − 1 (λ = 2(α − 1)) does not give the composition at α
    other = Hypothesis("rdp", title="RDP at another order",
                       relation=le(Expect(sp.exp(2 * LAM * L)), sp.exp(2 * LAM * eps)))
    result = symbolic_check(_theorem(sp.exp(LAM * eps), hypotheses=(other,)))
    assert result.status != "proved"
    assert "is not a hypothesis in scope" in result.parts[0].steps[0].detail


def test_without_the_rdp_hypothesis_nothing_is_proved():
    assert symbolic_check(rdp.theorem.with_changes(hypotheses=())).status != "proved"
    assert symbolic_check(_theorem(sp.exp(LAM * eps), hypotheses=())).status != "proved"


def test_a_bound_naming_the_pair_is_refused():
    # c := E[e^{(α−1)L}] names the pair (it is the pair's own MGF, not a bound on the class): the member rule
    # reads every occurrence of the pair at the step, so the hypothesis never yields a bound by the pair's MGF
    result = symbolic_check(_theorem(Expect(sp.exp(LAM * L))))
    assert result.status != "proved"


def test_an_unregistered_copy_of_the_bridge_is_not_trusted():
    copy = dataclasses.replace(conditional_mgf_bound)
    result = symbolic_check(_theorem(sp.exp(LAM * eps), bridge=copy))
    assert result.status == "supported"


# -- the ground truth: Rényi divergences of product distributions add exactly ------------------------------

@pytest.mark.parametrize("a, e, kk", [("2", "0.5", 3), ("32", "0.01", 10), ("1.5", "2", 4), ("200", "1", 5)])
def test_k_fold_witnesses_attain_k_eps(a, e, kk):
    with mpmath.workdps(50):
        a, e = mpmath.mpf(a), mpmath.mpf(e)
        target = mpmath.exp((a - 1) * kk * e)
        e0 = rdp.randomized_response_order_eps(a, e)
        # the randomized-response step is exactly (α, ε)-RDP, by the closed form of cdpsym.mechanisms
        closed = RandomizedResponse(eps=sp.Float(mpmath.nstr(e0, 60), 60)).renyi_divergence(sp.Float(str(a), 60))
        assert abs(sp.N(closed, 50) - e) < 1e-40
        for value in (rdp.gaussian_mgf(a, e) ** kk, rdp.randomized_response_mgf(a, e0, kk)):
            assert abs(value / target - 1) < mpmath.mpf(10) ** -40


def test_gaussian_witness_matches_the_closed_form_renyi_divergence():
    # D_α(N(0,1) ‖ N(τ,1)) = ατ²/2 (cdpsym.mechanisms): the one-step quadrature gives e^{(α−1)D_α}
    with mpmath.workdps(50):
        a, e = mpmath.mpf(3), mpmath.mpf("0.4")
        tau = mpmath.sqrt(2 * e / a)
        g = Gaussian(sensitivity=1, sigma=1 / sp.Float(mpmath.nstr(tau, 60), 60))
        d = sp.N(g.renyi_divergence(3), 50)
        assert abs(d - e) < 1e-40
        assert abs(mpmath.log(rdp.gaussian_mgf(a, e)) / (a - 1) - e) < mpmath.mpf(10) ** -45


def test_composition_of_randomized_response_is_not_better_than_k_eps():
    # (k−1)ε would be violated by k-fold randomized response: its D_α is exactly kε > (k−1)ε
    with mpmath.workdps(50):
        a, e, kk = mpmath.mpf(4), mpmath.mpf("0.3"), 6
        e0 = rdp.randomized_response_order_eps(a, e)
        d_k = mpmath.log(rdp.randomized_response_mgf(a, e0, kk)) / (a - 1)
        assert abs(d_k - kk * e) < mpmath.mpf(10) ** -40
        assert d_k > (kk - 1) * e
