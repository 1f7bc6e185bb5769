"""pure_dp_group_privacy (R-G5, DR14 Thm 2.2): proved by induction; (k-1)ε, √k·ε, kε/2 fail; bad proofs refused."""

from __future__ import annotations

import dataclasses
import importlib
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, eps, k
from cdpsym.expr.operators import Expect, Prob
from cdpsym.mechanisms import Laplace
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, by, eq, induction, le, register_axioms, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_convexity import in_range
from theorems.foundations_composition import condition, tower_almost_sure

group = importlib.import_module("theorems.pure_dp_group_privacy")  # the module, not the Theorem
make, G, ell = group.make, group.G, group.ell

# the library registers a module's AXIOMS when it is listed in theorems.MODULES; registering the same objects
# again is a no-op, so this also runs before the module is listed
register_axioms(*group.AXIOMS)

AXIOMS = {"group_loss_one", "group_loss_step", "chain_base_probability", "chain_null_sets", "almost_sure_bound_sum"}


def test_proved_with_all_checks():
    report = group.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["induction"]
    assert set(symbolic["trusted_axioms"]) == AXIOMS
    assert symbolic["kernel_rules"] == ["induction", "member"]
    assert report.checks["numeric"]["status"] == "passed"
    assert all(c["digits"] == 50 for c in report.checks["numeric"]["comparisons"])
    assert report.checks["property"]["status"] == "passed"


def test_statement_and_notion():
    thm = group.theorem
    assert thm.name == "pure_dp_group_privacy" and thm.reference == "R-G5"
    assert thm.notion == "group(size=k, DP(eps)) is DP(k*eps)"
    (part,) = thm.parts
    assert part.relation.op == "="
    assert part.relation.lhs == Prob(sp.And(G(k) <= k * eps, -k * eps <= G(k)))
    assert part.relation.rhs == 1
    assert str(G(k).func) == "G" and isinstance(G(k), sp.core.function.AppliedUndef)
    assert [h.name for h in thm.hypotheses] == ["pure_dp"]
    assert thm.hypotheses[0].relation.lhs == Prob(in_range(-eps, L, eps))


def test_statement_is_read_back_by_the_claim_checker():
    from cdpsym.claims import semantics
    from cdpsym.claims.language import parse_claim

    thm = group.theorem
    claim = parse_claim(thm.notion)
    schema = semantics.Schema(thm, claim.subject, claim.target, dict(thm.variables))
    assert semantics.statement_mismatch(schema) is None


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("label, thm", group.mutants(), ids=[label for label, _ in group.mutants()])
def test_smaller_group_parameter_fails_symbolically_and_numerically(label, thm):
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "not met" in result.parts[0].steps[0].detail  # a refuted side condition c <= s or a + b <= s
    assert numeric_check(thm).status == "failed"  # the Laplace mechanism reaches |G_k| = kε


@pytest.mark.parametrize("label", ["(k − 1)ε: one link removed", "√k ε: k replaced by √k"])
def test_unsafe_mutants_fail_verification(label):
    report = dict(group.mutants())[label].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"
    assert report.checks["property"]["status"] == "failed"


def test_larger_group_parameter_is_still_proved():
    assert symbolic_check(make((k + 1) * eps)).status == "proved"  # a weaker claim follows by the same chain


# -- adversarial: a wrong bound, or a right bound by a wrong argument, is never proved ----------------------

def _theorem(proof_of, total=k * eps, hypotheses=None):
    """A one-part theorem ``Pr[|G_k| <= total] = 1`` whose proof is ``proof_of(bounded)``."""
    bounded = lambda n: Prob(in_range(-total.xreplace({k: n}), G(n), total.xreplace({k: n})))
    return Theorem(name="adversarial_group", reference="-", source="-", title="-",
                   variables=dict(group.theorem.variables),
                   hypotheses=(group.theorem.hypotheses if hypotheses is None else hypotheses),
                   parts=(Part("main", eq(bounded(k), 1), proof=proof_of(bounded)),))


(PURE_DP,) = group.theorem.hypotheses


def _null_sets(n, c_, a_):
    """|ℓ_n| <= c_ a.s. under M(x_0), from the hypothesis read at the link n and |G_{n-1}| <= a_."""
    return by(group.chain_null_sets, i=n - 1, Y_1=ell(n), a=a_, c=c_,
              given={group._condition(group.chain_null_sets, 1): by(PURE_DP, at_link=n)})


def test_the_link_bound_does_not_apply_to_the_group_loss_directly():
    # |ℓ_i| <= c is about one link; citing it for G(k) with c = kε does not match
    thm = _theorem(lambda bounded: Chain(bounded(k)).eq(1, _null_sets(k, k * eps, (k - 1) * eps)))
    assert symbolic_check(thm).status != "proved"


def test_a_link_bound_below_the_hypothesis_is_refused():
    # claiming |ℓ_i| <= ε/2 per link (so kε/2 overall): the hypothesis read at a link gives ε, not ε/2
    half = k * eps / 2

    def proof(bounded):
        at = lambda n: half.xreplace({k: n})
        base = (Chain(bounded(1)).eq(Prob(in_range(-at(1), ell(1), at(1))), by(group.group_loss_one))
                .eq(1, by(group.chain_base_probability, Y_1=ell(1), c=eps / 2, s=at(1),
                          given={group._condition(group.chain_base_probability): by(PURE_DP, at_link=1)})))
        link = Chain(Prob(in_range(-eps / 2, ell(k + 1), eps / 2))).eq(1, _null_sets(k + 1, eps / 2, half))
        step = (Chain(bounded(k + 1))
                .eq(Prob(in_range(-at(k + 1), G(k) + ell(k + 1), at(k + 1))), by(group.group_loss_step, i=k))
                .eq(1, by(group.almost_sure_bound_sum, Y_1=G(k), Y_2=ell(k + 1), a=half, b=eps / 2, s=at(k + 1),
                          given={group._STEP_BOUND: link})))
        return Chain(bounded(k)).eq(1, induction(k, base, step))

    assert symbolic_check(_theorem(proof, total=half)).status != "proved"


def test_null_sets_need_the_group_loss_bounded():
    # without |G_k| <= a a.s. (the induction hypothesis) M(x_0) need not be absolutely continuous w.r.t. M(x_k)
    rel = eq(Prob(in_range(-eps, ell(2), eps)), 1)
    thm = Theorem(name="adversarial_group", reference="-", source="-", title="-",
                  variables=dict(group.theorem.variables), hypotheses=(PURE_DP,),
                  parts=(Part("main", rel, proof=Chain(rel.lhs).eq(1, _null_sets(2, eps, eps))),))
    assert symbolic_check(thm).status != "proved"


def test_without_the_pure_dp_hypothesis_nothing_is_proved():
    thm = group.theorem.with_changes(hypotheses=())
    assert symbolic_check(thm).status != "proved"


def test_a_bound_naming_the_pair_is_read_at_the_link():
    # the member rule reads every occurrence of the pair at the link: a "bound" c := E[|L|] becomes the link's own
    # mean, never the pair's, so it cannot stand for a constant of the class
    tautology = Hypothesis("taut", title="E[L] <= E[L]", relation=le(Expect(L), Expect(L)))
    from cdpsym.expr.operators import ExpectAt
    target = le(ExpectAt(ell(1), 0), Expect(L))
    thm = Theorem(name="adversarial_group", reference="-", source="-", title="-",
                  variables=dict(group.theorem.variables), hypotheses=(tautology,),
                  parts=(Part("main", target, proof=Chain(target.lhs).le(target.rhs, by(tautology, at_link=1))),))
    assert symbolic_check(thm).status != "proved"


def test_the_composition_member_rule_does_not_bound_a_link():
    # the class-member rule reads the pair at a step of the composition game (loss C_i), not at a link of the
    # chain (loss ℓ_i): the tower rule's condition for ℓ_1 is not what it yields
    (pure_dp,) = group.theorem.hypotheses
    thm = _theorem(lambda bounded: Chain(bounded(1))
                   .eq(Prob(in_range(-eps, ell(1), eps)), by(group.group_loss_one))
                   .eq(1, by(tower_almost_sure, Y_1=ell(1), i=1, c=eps, s=eps,
                             given={condition(tower_almost_sure): by(pure_dp, at_step=1, flip=True)})), total=eps)
    result = symbolic_check(thm)
    assert result.status != "proved"
    assert [s.status for s in result.parts[0].steps] == ["proved", "supported"]


def test_an_unregistered_copy_of_the_null_set_axiom_is_not_trusted():
    copy = dataclasses.replace(group.chain_null_sets)  # same name and content, never registered
    link = Chain(Prob(in_range(-eps, ell(2), eps))).eq(1, by(
        copy, i=1, Y_1=ell(2), a=eps, c=eps, given={group._condition(copy, 1): by(PURE_DP, at_link=2)}))
    rel = eq(Prob(in_range(-eps, ell(2), eps)), 1)
    hyp = Hypothesis("g1", title="|G_1| <= eps", relation=eq(Prob(in_range(-eps, G(1), eps)), 1))
    thm = Theorem(name="adversarial_group", reference="-", source="-", title="-",
                  variables=dict(group.theorem.variables), hypotheses=(PURE_DP, hyp),
                  parts=(Part("main", rel, proof=link),))
    result = symbolic_check(thm)
    assert result.status == "supported"
    assert "not in the registered trusted base" in result.parts[0].steps[0].detail
    honest = thm.with_changes(parts=(Part("main", rel, proof=Chain(rel.lhs).eq(1, _null_sets(2, eps, eps))),))
    assert symbolic_check(honest).status == "proved"  # the harness itself is sound


def test_an_axiom_admitting_the_claim_unregistered_is_not_trusted():
    fake = Axiom(name="group_privacy", title="-", citation="-", relation=eq(Prob(in_range(-k * eps, G(k), k * eps)), 1),
                 variables={k: group.theorem.variables[k], eps: group.theorem.variables[eps]})
    thm = _theorem(lambda bounded: Chain(bounded(k)).eq(1, by(fake)))
    assert symbolic_check(thm).status != "proved"


# -- the ground truth: largest loss exactly kε, attained with probability 1/2 ------------------------------

@pytest.mark.parametrize("e, kk", [("0.3", 5), ("1", 1), ("0.01", 40), ("2.5", 3)])
def test_largest_group_loss_of_the_laplace_mechanism_is_exactly_k_eps(e, kk):
    with mpmath.workdps(50):
        e = mpmath.mpf(e)
        bound = kk * e
        # the loss from the end densities, at points beyond both centres: exactly ±kε
        for y in (mpmath.mpf(-3), mpmath.mpf(0), -mpmath.mpf(10) ** 6):
            assert abs(group.laplace_group_loss(y, e, kk) - bound) < mpmath.mpf(10) ** -45 * max(1, bound)
        assert abs(group.laplace_group_loss(mpmath.mpf(kk + 2), e, kk) + bound) < mpmath.mpf(10) ** -45 * max(1, bound)
        # so Pr[|G_k| <= kε] = 1; just below kε only the middle (0, k) remains: probability (1 − e^{-kε})/2
        assert group.laplace_witness(e, kk, bound) == pytest.approx(1, abs=1e-45)
        below = group.laplace_witness(e, kk, bound * (1 - mpmath.mpf(10) ** -30))
        assert abs(below - (1 - mpmath.exp(-kk * e)) / 2) < mpmath.mpf(10) ** -25
        # the geometric mechanism: Pr[G_k = kε] = P(y <= 0) = 1/(1 + e^{-ε}) > 0
        assert group.geometric_witness(e, kk, bound) == pytest.approx(1, abs=1e-45)
        tail = group.geometric_witness(e, kk, bound * (1 - mpmath.mpf(10) ** -30))
        assert abs(tail - (1 - 1 / (1 + mpmath.exp(-e)) - mpmath.exp(-kk * e) / (1 + mpmath.exp(-e)))) \
            < mpmath.mpf(10) ** -40


def test_tight_through_the_exact_laplace_profile():
    # the group pair (Lap(0, 1/ε), Lap(k, 1/ε)) is Laplace(sensitivity=k, scale=1/ε): δ(kε) = 0, δ below kε > 0
    e, kk = sp.Rational(3, 10), 4
    lap = Laplace(sensitivity=kk, scale=1 / e)
    assert lap.eps0 == kk * e
    assert lap.delta(kk * e, dps=50) == 0
    assert lap.delta(kk * e * (1 - sp.Rational(1, 10 ** 6)), dps=50) > 0
    assert lap.delta((kk - 1) * e, dps=50) > 0  # (k−1)ε is not enough


def test_the_chain_of_links_adds_up_to_the_group_loss():
    # the definition behind group_loss_step, checked on the witness: Σ_i log p_{i-1}(y)/p_i(y) = log p_0(y)/p_k(y)
    with mpmath.workdps(50):
        e, kk = mpmath.mpf("0.7"), 6
        for y in (mpmath.mpf("-1.5"), mpmath.mpf("2.25"), mpmath.mpf("9")):
            links = mpmath.fsum(group.laplace_group_loss(y - (j - 1), e, 1) for j in range(1, kk + 1))
            assert abs(links - group.laplace_group_loss(y, e, kk)) < mpmath.mpf(10) ** -45
            assert all(abs(group.laplace_group_loss(y - (j - 1), e, 1)) <= e * (1 + mpmath.mpf(10) ** -45)
                       for j in range(1, kk + 1))  # every link is ε-DP
