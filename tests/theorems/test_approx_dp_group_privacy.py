"""approx_dp_group_privacy (R-G6): the geometric-sum group δ proved by induction; kδ and other mutants fail."""

from __future__ import annotations

import dataclasses
import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import delta, eps, k, naturals, positive
from cdpsym.expr.operators import HockeyStick, Output, P, Q
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
    assert set(sym["trusted_axioms"]) == {"hockey_stick_event_bound"}
    assert {"induction", "monotone", "member"} <= set(sym["kernel_rules"])
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


def _first_link(bound, at_hockey=None, at_bound=None):
    """p_0 − e^ε p_1 <= H_ε(M(x_0)||M(x_1)) <= bound, the second step by ``at_bound``."""
    gap = p_S(0) - sp.exp(eps) * p_S(1)
    hs = HockeyStick(eps, Output(0), Output(1))
    chain = (Chain(gap).le(hs, at_hockey or by(group.hockey_stick_event_bound, i=1, c=eps))
             .le(bound, at_bound or by(group.approx_dp, at_link=1)))
    return Theorem(name="adversarial_group", reference="-", source="-", title="adversarial",
                   variables=dict(group.theorem.variables), hypotheses=group.theorem.hypotheses,
                   parts=(Part("main", le(gap, bound), proof=chain),))


def test_the_honest_first_link_is_proved():
    assert symbolic_check(_first_link(delta)).status == "proved"  # the harness itself is sound


def test_a_smaller_delta_per_link_is_refused():
    # δ/2 per link: the hypothesis read at the link bounds its hockey stick by δ, not δ/2
    assert symbolic_check(_first_link(delta / 2)).status != "proved"


def test_the_wrong_link_or_member_is_refused():
    assert symbolic_check(_first_link(delta, at_bound=by(group.approx_dp, at_link=2))).status != "proved"
    assert symbolic_check(_first_link(delta, at_bound=by(group.approx_dp, at_step=1))).status != "proved"


def test_a_bound_naming_the_pair_is_not_proved():
    # the member rule reads H_ε(P||Q) at the link too: it never bounds a link by the canonical pair's divergence
    assert symbolic_check(_first_link(HockeyStick(eps, P, Q))).status != "proved"


def test_an_unregistered_copy_of_the_definition_is_not_trusted():
    copy = dataclasses.replace(group.hockey_stick_event_bound)
    assert symbolic_check(_first_link(delta, at_hockey=by(copy, i=1, c=eps))).status == "supported"


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
