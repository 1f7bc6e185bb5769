"""approx_dp_advanced_composition_sharp (R-F4, third KOV15 branch, δ0 = 0): proved by DR16's chain, sharp mean."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import delta_p, eps, k
from cdpsym.expr.operators import HockeyStick
from cdpsym.mechanisms import optimal_composition_delta, optimal_composition_epsilon
from cdpsym.proof import Part, le, lt, symbolic_check
from theorems.approx_dp_advanced_composition import EPS_PRIME as DR16_EPS_PRIME
from theorems.approx_dp_advanced_composition import composition_proof
from theorems.foundations_composition import Pk, Qk

sharp = importlib.import_module("theorems.approx_dp_advanced_composition_sharp")
theorem = sharp.theorem

N19_N46 = [(20, "0.1", "1e-5"), (100, "0.1", "1e-6"), (50, "0.5", "1e-6"), (10, "1", "1e-3"),
           (1000, "0.05", "1e-9"), (5, "0.3", "0.05")]


def _value(expr, kk, e, d, dps=30):
    with mpmath.workdps(dps):
        return sp.N(expr.subs({k: kk, eps: sp.Rational(e), delta_p: sp.Rational(d)}), dps)


def test_proved_every_step_by_the_kernel():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    symbolic = report.checks["symbolic"]
    assert {"kl_of_pure_dp", "cdp_composition", "cdp_of_pure_dp_hoeffding", "subgaussian_concentration"} \
        <= set(symbolic["cites"])
    assert [s["method"] for s in symbolic["steps"]] == [
        "by:tail_condition_composed", "by:cdp_composition.decomposition", "by:union_bound",
        "by:cdp_composition.drift", "by:subgaussian_concentration.upper", "algebra"]
    assert report.checks["numeric"]["status"] == "passed"
    assert all(c["ok"] for c in report.checks["numeric"]["comparisons"])


def test_statement_shape_is_reference_r_f4_third_branch():
    (part,) = theorem.parts
    assert part.relation.op == "<="
    assert part.relation.lhs == HockeyStick(sharp.EPS_PRIME, Pk(k), Qk(k))
    assert part.relation.rhs == delta_p
    plain = sp.sympify("k*eps*tanh(eps/2) + eps*sqrt(2*k*log(1/delta_p))",
                       locals={"k": k, "eps": eps, "delta_p": delta_p})
    assert sp.expand(sharp.EPS_PRIME - plain) == 0
    assert [h.name for h in theorem.hypotheses] == ["pure_dp", "same_support", "compensated_losses"]
    assert theorem.reference == "R-F4"


def test_sharper_than_dr16():
    # the mean ε tanh(ε/2) is below DR16's ε(e^ε − 1)/2 for every ε > 0
    for kk, e, d in N19_N46:
        assert _value(sharp.EPS_PRIME, kk, e, d) < _value(DR16_EPS_PRIME, kk, e, d)


def test_reference_n19_n46_numbers():
    # ✓N19: k = 100, eps = 0.1, delta' = 1e-6: KOV 5.7561, optimum 4.7746; ✓N46: k = 1000: 11.4290, optimum 10.2799
    assert mpmath.nstr(_value(sharp.EPS_PRIME, 100, "0.1", "1e-6"), 5) == "5.7561"
    assert mpmath.nstr(_value(sharp.EPS_PRIME, 1000, "0.05", "1e-9"), 6) == "11.429"
    with mpmath.workdps(30):
        opt = optimal_composition_epsilon(mpmath.mpf("1e-6"), [sp.Rational(1, 10)] * 100, dps=30)
        assert mpmath.nstr(opt, 5) == "4.7746"
        opt = optimal_composition_epsilon(mpmath.mpf("1e-9"), [sp.Rational(1, 20)] * 1000, dps=30)
        assert mpmath.nstr(opt, 6) == "10.2799"
    for kk, e, d in N19_N46:  # the bound is never below the optimum
        with mpmath.workdps(30):
            exact = optimal_composition_delta(mpmath.mpf(_value(sharp.EPS_PRIME, kk, e, d)), [sp.Rational(e)] * kk,
                                              dps=30)
            assert exact <= mpmath.mpf(d)


def test_mutants_fail_symbolically_and_numerically():
    muts = dict(sharp.mutants())
    assert len(muts) >= 2
    for name, thm in muts.items():
        report = thm.verify(property_examples=10)
        assert report.verdict == "failed", name
        assert report.checks["symbolic"]["status"] == "failed", name
        assert report.checks["numeric"]["status"] == "failed", name
    bad = {(c["point"]["k"], c["point"]["eps"])
           for c in muts["mean term kε tanh(ε/2)/2: halved"].verify(property_examples=0)
           .checks["numeric"]["comparisons"] if not c["ok"]}
    assert ("200.0", "0.7") in bad


def test_dr16_mean_bound_does_not_prove_the_sharp_statement():
    """The default chain (mean ε(e^ε − 1)/2) leaves a margin ≠ √(2k log(1/δ'))ε: the last step fails."""
    thm = theorem.with_changes(parts=(Part("main", le(HockeyStick(sharp.EPS_PRIME, Pk(k), Qk(k)), delta_p),
                                           proof=composition_proof(sharp.EPS_PRIME)),))
    assert symbolic_check(thm).status == "failed"


def test_a_mean_chain_for_another_mu_is_refused():
    """Steps claimed (μ/2, ε)-CDP with the chain that shows E[L] <= μ: the cited hypothesis is not discharged."""
    half = sharp.MEAN_TERM / 2 + sharp.SQRT_TERM
    thm = theorem.with_changes(parts=(Part("main", le(HockeyStick(half, Pk(k), Qk(k)), delta_p),
                                           proof=composition_proof(half, sharp.MU / 2, sharp._mean_chain())),))
    assert symbolic_check(thm).status == "failed"


def test_dropping_same_support_breaks_the_proof():
    thm = theorem.with_changes(hypotheses=tuple(h for h in theorem.hypotheses if h.name != "same_support"))
    assert symbolic_check(thm).status != "proved"


def test_strict_inequality_is_not_proved():
    (part,) = theorem.parts
    thm = theorem.with_changes(parts=(Part("main", lt(part.relation.lhs, delta_p), proof=part.proof),))
    assert symbolic_check(thm).status != "proved"
