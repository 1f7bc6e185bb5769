"""approx_dp_group_privacy (R-G6): the geometric-sum group δ proved by induction; kδ and other mutants fail."""

from __future__ import annotations

import dataclasses
import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import delta, eps, k, naturals, positive
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.proof import Chain, Part, Theorem, by, le, monotone, register_axioms, symbolic_check

group = importlib.import_module("theorems.approx_dp_group_privacy")  # the module (theorems.<name> is the Theorem)
make, p_S = group.make, group.p_S

register_axioms(*group.AXIOMS)  # a no-op once the module is listed in theorems.MODULES


@pytest.fixture(scope="module")
def report():
    return group.theorem.verify(property_examples=30)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    sym = report.checks["symbolic"]
    assert [p["status"] for p in sym["parts"]] == ["proved", "proved"]
    assert set(sym["trusted_axioms"]) == {"lift_approx_dp_chain"}
    assert "induction" in sym["kernel_rules"] and "monotone" in sym["kernel_rules"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_the_lemma_is_proved_without_axioms():
    rep = group.geometric_sum_bound.verify(property_examples=20)
    assert rep.verdict == "proved", rep
    assert rep.checks["symbolic"]["trusted_axioms"] == []


def test_statement_shape_and_hypotheses():
    thm = group.theorem
    main = thm.part("main").relation
    assert main.lhs == p_S(0) - sp.exp(k * eps) * p_S(k) and main.op == "<="
    # the group δ is δ(e^{kε} − 1)/(e^ε − 1) = δ Σ_{j<k} e^{jε}
    for kk, e in ((1, 0.3), (4, 1.0), (9, 0.05)):
        got = float(main.rhs.subs({k: kk, eps: e, delta: 1}))
        assert got == pytest.approx(sum(mpmath.exp(j * e) for j in range(kk)), rel=1e-12)
    assert thm.part("folklore").relation.rhs == k * sp.exp((k - 1) * eps) * delta
    assert [h.name for h in thm.hypotheses] == ["approx_dp"]
    assert thm.hypotheses[0].relation.lhs == HockeyStick(eps, P, Q)
    assert thm.variables[k].describe() == naturals().describe()


def test_the_tight_chain_is_approx_dp_and_attains_the_bound():
    # REFERENCE N21: ε = 1, k = 3, δ = 1e-3: p_0 = 0.0111073 > kδ = 0.003
    with mpmath.workdps(50):
        e, d = mpmath.mpf(1), mpmath.mpf("0.001")
        ps = group.tight_chain(e, 3, d)
        assert group.chain_is_approx_dp(ps, e, d)
        assert mpmath.nstr(ps[0], 6) == "0.0111073" and ps[-1] == 0
        assert abs(ps[0] - d * (mpmath.exp(3 * e) - 1) / (mpmath.exp(e) - 1)) < mpmath.mpf(10) ** -45
        assert not group.chain_is_approx_dp(ps, e, d / 2)  # the witness uses all of δ


def test_randomized_response_chain_is_pure_dp():
    with mpmath.workdps(30):
        for e in ("0.1", "1", "2"):
            truth = group._ground_truth({eps: mpmath.mpf(e), k: mpmath.mpf(5), delta: mpmath.mpf(0)}, 30)
            assert any("randomized-response" in name for name, _ in truth)


def test_mutants_fail_symbolically_and_numerically():
    for name, mutant in group.mutants():
        assert symbolic_check(mutant).status == "failed", name
        rep = mutant.verify(property_examples=10)
        assert rep.verdict == "failed", name
        assert rep.checks["numeric"]["status"] == "failed", name


# -- adversarial ---------------------------------------------------------------------------------------------------

def test_without_the_hypothesis_nothing_is_proved():
    assert symbolic_check(group.theorem.with_changes(hypotheses=())).status != "proved"


def test_a_smaller_delta_per_link_is_refused():
    # δ/2 per link: the lift's condition H_ε(P||Q) <= δ/2 is not in scope
    gap = lambda n: p_S(0) - sp.exp(n * eps) * p_S(n)
    half = delta / 2
    thm = Theorem(name="adversarial_group", reference="-", source="-", title="adversarial",
                  variables=dict(group.theorem.variables), hypotheses=group.theorem.hypotheses,
                  parts=(Part("main", le(gap(1), half),
                              proof=Chain(gap(1)).le(half, by(group.lift_approx_dp_chain, i=1, c=eps, delta0=half))),))
    assert symbolic_check(thm).status != "proved"


def test_a_bound_naming_the_pair_is_refused():
    gap = lambda n: p_S(0) - sp.exp(n * eps) * p_S(n)
    hs = HockeyStick(eps, P, Q)
    thm = Theorem(name="adversarial_group", reference="-", source="-", title="adversarial",
                  variables=dict(group.theorem.variables), hypotheses=group.theorem.hypotheses,
                  parts=(Part("main", le(gap(1), hs),
                              proof=Chain(gap(1)).le(hs, by(group.lift_approx_dp_chain, i=1, c=eps, delta0=hs))),))
    result = symbolic_check(thm)
    assert result.status == "failed" and "must be free of" in result.parts[0].steps[0].detail


def test_an_unregistered_copy_of_the_lift_is_not_trusted():
    copy = dataclasses.replace(group.lift_approx_dp_chain)
    gap = lambda n: p_S(0) - sp.exp(n * eps) * p_S(n)
    thm = Theorem(name="adversarial_group", reference="-", source="-", title="adversarial",
                  variables=dict(group.theorem.variables), hypotheses=group.theorem.hypotheses,
                  parts=(Part("main", le(gap(1), delta), proof=Chain(gap(1)).le(delta, by(copy, i=1, c=eps,
                                                                                             delta0=delta))),))
    assert symbolic_check(thm).status == "supported"


def test_naive_k_delta_by_induction_is_refused():
    # the step would need p_0 − e^{(k+1)ε}p_{k+1} <= kδ + e^{kε}δ = (k+1)δ: false
    thm = make(total=k * delta)
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert result.parts[0].steps[0].method == "induction"


def test_the_geometric_lemma_reversed_is_refused():
    # k e^{(k−1)ε}(e^ε − 1) <= e^{kε} − 1 is false for k >= 2
    lhs, rhs = group._G_RHS, group._G_LHS
    thm = Theorem(name="adversarial_geometric", reference="-", source="-", title="adversarial",
                  variables={k: naturals(), eps: positive()},
                  parts=(Part("main", le(lhs, rhs), proof=Chain(lhs).le(rhs, monotone(eps))),))
    assert symbolic_check(thm).status == "failed"
