"""randomized_response_pure_dp (R-G4, Warner 1965, DR14 §3.2): proved; ε/2, 0.99ε, log(1+ε) fail."""

from __future__ import annotations

import importlib
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.claims import parse_claim
from cdpsym.expr import L, eps
from cdpsym.expr.operators import Prob
from cdpsym.mechanisms import RandomizedResponse
from cdpsym.proof import Chain, Hypothesis, Part, algebra, by, eq, register_axioms, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_convexity import in_range

rr = importlib.import_module("theorems.randomized_response_pure_dp")  # the module, not the Theorem
make = rr.make
B = rr.B

# the library registers a module's AXIOMS when it is listed in theorems.MODULES; registering the same objects
# again is a no-op, so this also runs before the module is listed
register_axioms(*rr.AXIOMS)

CONDITION = f"condition {rr.sure_bound.conditions[0].plain()}"


def _event(bound, x):
    return Prob(in_range(-bound, x, bound))


def _with_proof(proof, hypotheses=None):
    thm = rr.theorem
    part = Part("main", thm.parts[0].relation, proof=proof, ground_truth=thm.parts[0].ground_truth)
    changes = {"parts": (part,)}
    if hypotheses is not None:
        changes["hypotheses"] = hypotheses
    return thm.with_changes(**changes)


def test_proved_with_all_checks():
    report = rr.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["by:randomized_response_pair", "by:sure_bound"]
    assert set(symbolic["trusted_axioms"]) == {"sure_bound"}
    assert symbolic["kernel_rules"] == []
    assert report.checks["numeric"]["status"] == "passed"
    assert all(c["digits"] == 50 for c in report.checks["numeric"]["comparisons"])
    assert report.checks["property"]["status"] == "passed"


def test_statement_hypotheses_and_notion():
    thm = rr.theorem
    assert thm.notion == "RandomizedResponse(eps) is DP(eps)"
    assert str(parse_claim(thm.notion).target.eps) == "eps"
    (part,) = thm.parts
    assert part.relation.op == "="
    assert part.relation.lhs == Prob(sp.And(L <= eps, -eps <= L))
    assert part.relation.rhs == 1
    assert [h.name for h in thm.hypotheses] == ["randomized_response_pair", "binary_output"]
    pair, bit = thm.hypotheses
    assert (pair.relation.lhs, pair.relation.op) == (L, "=")
    assert sp.simplify(pair.relation.rhs.subs(B, 1) - eps) == 0  # the truthful answer: loss +eps
    assert sp.simplify(pair.relation.rhs.subs(B, 0) + eps) == 0  # the flipped answer: loss -eps
    assert (bit.relation.lhs, bit.relation.op, bit.relation.rhs) == (B ** 2, "=", B)
    assert set(thm.variables) == {eps}
    assert rr.P_TRUTH == RandomizedResponse(eps).p


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("label, thm", rr.mutants(), ids=[label for label, _ in rr.mutants()])
def test_smaller_bound_fails_symbolically_and_numerically(label, thm):
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "not met" in result.parts[0].steps[1].detail  # the kernel's sign check refutes eps**2 <= bound**2
    assert numeric_check(thm).status == "failed"  # both outputs have |L| = eps


def test_half_bound_fails_verification():
    report = dict(rr.mutants())["ε/2: halved"].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["property"]["status"] == "failed"


def test_larger_bound_is_still_proved():
    assert symbolic_check(make(2 * eps)).status == "proved"


# -- adversarial ---------------------------------------------------------------------------------------------

def test_without_the_bit_hypothesis_the_proof_fails():
    thm = rr.theorem.with_changes(hypotheses=(rr.randomized_response_pair,))
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "'binary_output' is not a hypothesis in scope" in result.parts[0].steps[1].detail


def test_a_bit_with_three_values_is_refuted():
    # "B**3 = B" allows B = -1 (loss -3 eps): the honest chain cannot use it
    loose = Hypothesis(name="binary_output", relation=eq(B ** 3, B))
    assert symbolic_check(rr.theorem.with_changes(
        hypotheses=(rr.randomized_response_pair, loose))).status == "failed"


def test_randomized_response_at_twice_eps_is_not_eps_dp():
    # the pair of RR_{2 eps} with the claim eps: the loss is ±2eps, the chain must fail
    p2 = sp.exp(2 * eps) / (1 + sp.exp(2 * eps))
    loss = sp.log(p2 ** B * (1 - p2) ** (1 - B) / ((1 - p2) ** B * p2 ** (1 - B)))
    wrong = Hypothesis(name="randomized_response_pair", relation=eq(L, loss))
    condition = (Chain(loss ** 2)
                 .eq(eps ** 2 * (2 * B - 1) ** 2, algebra())
                 .eq(eps ** 2 * (4 * (B ** 2 - B) + 1), algebra())
                 .eq(eps ** 2, by(rr.binary_output)))
    proof = (Chain(_event(eps, L)).eq(_event(eps, loss), by(wrong))
             .eq(1, by(rr.sure_bound, X=loss, c=eps, given={CONDITION: condition})))
    assert symbolic_check(_with_proof(proof, hypotheses=(wrong, rr.binary_output))).status == "failed"


def test_the_condition_must_be_proved():
    proof = (Chain(_event(eps, L)).eq(_event(eps, rr.LOSS), by(rr.randomized_response_pair))
             .eq(1, by(rr.sure_bound, X=rr.LOSS, c=eps)))
    assert symbolic_check(_with_proof(proof)).status != "proved"


def test_the_probability_is_not_one_by_fiat():
    assert symbolic_check(_with_proof(Chain(_event(eps, L)).eq(1, algebra()))).status != "proved"
    assert symbolic_check(_with_proof(Chain(_event(eps, L)).eq(1, sign()))).status == "failed"


# -- the ground truth -----------------------------------------------------------------------------------------

def test_loss_law_and_profile():
    with mpmath.workdps(50):
        for e in ("0.3", "1", "4"):
            pp, qq = RandomizedResponse(eps=sp.Rational(e)).distributions(dps=60)
            ee = mpmath.mpf(e)
            losses = sorted(mpmath.log(pp[o] / qq[o]) for o in pp)
            assert abs(losses[0] + ee) < mpmath.mpf(10) ** -45 and abs(losses[1] - ee) < mpmath.mpf(10) ** -45
            assert rr.loss_probability(pp, qq, ee) == pytest.approx(1, abs=1e-45)
            assert rr.loss_probability(pp, qq, ee * (1 - mpmath.mpf(10) ** -20)) == 0  # both outputs reach ±eps
            assert RandomizedResponse(eps=sp.Rational(e)).delta(sp.Rational(e), dps=50) == 0  # R-E6
            assert RandomizedResponse(eps=sp.Rational(e)).delta(sp.Rational(e) / 2, dps=50) > 0
