"""pure_dp_basic_composition (R-F1, DR14 Thm 3.14): proved by induction; (k-1)ε, √k·ε, kε/2 fail."""

from __future__ import annotations

import importlib
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, k
from cdpsym.expr.operators import Prob
from cdpsym.mechanisms import optimal_composition_delta
from cdpsym.proof import register_axioms, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import L_k
from theorems.foundations_convexity import in_range

basic = importlib.import_module("theorems.pure_dp_basic_composition")  # the module, not the Theorem
make = basic.make

# the library registers a module's AXIOMS when it is listed in theorems.MODULES; registering the same objects
# again is a no-op, so this also runs before the module is listed
register_axioms(*basic.AXIOMS)


def test_proved_with_all_checks():
    report = basic.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["induction"]
    assert set(symbolic["trusted_axioms"]) == {"composed_loss_step", "composed_loss_start", "tower_almost_sure",
                                               "almost_sure_bound_sum"}
    assert symbolic["kernel_rules"] == ["induction", "member"]
    assert report.checks["numeric"]["status"] == "passed"
    assert all(c["digits"] == 50 for c in report.checks["numeric"]["comparisons"])


def test_statement_and_notion():
    thm = basic.theorem
    assert thm.notion == "compose(k=k, DP(eps)) is DP(k*eps)"
    (part,) = thm.parts
    assert part.relation.op == "="
    assert part.relation.lhs == Prob(sp.And(L_k(k) <= k * eps, -k * eps <= L_k(k)))
    assert part.relation.lhs == Prob(in_range(-k * eps, L_k(k), k * eps))
    assert part.relation.rhs == 1
    assert [h.name for h in thm.hypotheses] == ["pure_dp"]


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("label, thm", basic.mutants(), ids=[label for label, _ in basic.mutants()])
def test_smaller_total_fails_symbolically_and_numerically(label, thm):
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "not met" in result.parts[0].steps[0].detail  # a refuted side condition c <= s or a + b <= s
    assert numeric_check(thm).status == "failed"  # randomized response reaches |L_k| = kε


def test_k_minus_one_fails_verification():
    report = dict(basic.mutants())["(k − 1)ε: one step's ε removed"].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["property"]["status"] == "failed"


def test_larger_total_is_still_proved():
    assert symbolic_check(make((k + 1) * eps)).status == "proved"  # a weaker claim follows by the same chain


def test_largest_loss_of_k_fold_randomized_response_is_exactly_k_eps():
    with mpmath.workdps(50):
        e, kk = mpmath.mpf("0.3"), 5
        p = mpmath.exp(e) / (1 + mpmath.exp(e))
        assert basic.randomized_response_witness(e, kk, kk * e) == 1
        below = basic.randomized_response_witness(e, kk, kk * e * (1 - mpmath.mpf(10) ** -30))
        assert abs(below - (1 - p ** kk - (1 - p) ** kk)) < mpmath.mpf(10) ** -45
        # the same through the exact profile of cdpsym.mechanisms (KOV15): δ(kε) = 0, δ just below kε > 0
        assert optimal_composition_delta(kk * e, [e] * kk, dps=50) == 0
        assert optimal_composition_delta(kk * e * (1 - mpmath.mpf(10) ** -6), [e] * kk, dps=50) > 0
        assert basic.adaptive_witness(e, kk, kk * e) == 1
        assert basic.adaptive_witness(e, kk, (kk - 1) * e) < 1
