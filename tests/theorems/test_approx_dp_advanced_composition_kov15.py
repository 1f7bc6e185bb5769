"""approx_dp_advanced_composition_kov15 (R-F4, KOV15 closed form): supported against the exact optimum; mutants fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import delta0, delta_p, eps, k
from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.expr.operators import HockeyStick
from cdpsym.mechanisms import optimal_composition_delta, optimal_composition_epsilon
from cdpsym.mechanisms.profile import hockey_stick_discrete, product_distribution
from cdpsym.proof import Chain, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk

kov = importlib.import_module("theorems.approx_dp_advanced_composition_kov15")
sharp = importlib.import_module("theorems.approx_dp_advanced_composition_sharp")
homogeneous = importlib.import_module("theorems.approx_dp_optimal_composition_homogeneous")

N19_N46 = [(20, "0.1", "1e-5"), (100, "0.1", "1e-6"), (50, "0.5", "1e-6"), (10, "1", "1e-3"),
           (1000, "0.05", "1e-9"), (5, "0.3", "0.05")]


def _at(expr, kk, e, d0, dp, dps=40):
    with mpmath.workdps(dps):
        return evaluate(expr, {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta0: mpmath.mpf(d0),
                               delta_p: mpmath.mpf(dp)}, MPContext(dps))


def test_supported_with_a_numeric_step_only():
    report = kov.theorem.verify(property_examples=6)
    assert report.verdict == "supported"
    assert [st.method for st in symbolic_check(kov.theorem).parts[0].steps] == ["numeric"]
    comps = report.checks["numeric"]["comparisons"]
    assert comps and all(c["ok"] for c in comps)
    points = {(c["point"]["k"], c["point"]["delta0"]) for c in comps}
    assert any(float(d0) > 0 for _, d0 in points)  # the δ0 > 0 statement is exercised


def test_statement_shape():
    (part,) = kov.theorem.parts
    assert part.relation.op == "<="
    assert part.relation.lhs == HockeyStick(kov.EPS_TILDE, Pk(k), Qk(k))
    assert part.relation.rhs == 1 - (1 - delta0) ** k * (1 - delta_p)
    assert kov.EPS_TILDE == sp.Min(k * eps, kov.MIDDLE, kov.THIRD)
    assert kov.THIRD == sharp.EPS_PRIME  # the proved branch is the same expression
    middle = sp.sympify("k*eps*tanh(eps/2) + eps*sqrt(2*k*log(E + sqrt(k*eps**2)/delta_p))",
                        locals={"k": k, "eps": eps, "delta_p": delta_p})
    assert sp.expand(kov.MIDDLE - middle) == 0
    assert [h.name for h in kov.theorem.hypotheses] == ["step_approx_dp", "step_approx_dp_reverse"]
    assert kov.theorem.reference == sharp.theorem.reference == "R-F4"


@pytest.mark.parametrize("kk,e,d0,eps_t", [(3, "1", "0.1", "1.2"), (7, "0.4", "0.02", "0.9"),
                                           (12, "0.3", "0", "1.5"), (20, "0.1", "1e-4", "0.5"),
                                           (1, "2", "0.05", "0.5")])
def test_type_enumeration_agrees_with_the_binomial_optimum(kk, e, d0, eps_t):
    with mpmath.workdps(60):
        ours = kov.four_atom_product_delta(mpmath.mpf(e), mpmath.mpf(d0), kk, mpmath.mpf(eps_t))
        theirs = optimal_composition_delta(mpmath.mpf(eps_t), [sp.Rational(e)] * kk, [sp.Rational(d0)] * kk, dps=55)
        assert abs(ours - theirs) < mpmath.mpf(10) ** -50


def test_type_enumeration_agrees_with_the_explicit_product():
    with mpmath.workdps(60):
        e, d0, e_t = mpmath.mpf("0.7"), mpmath.mpf("0.03"), mpmath.mpf("0.4")
        pp, qq = homogeneous.four_atom_pair(e, d0)
        p4, q4 = product_distribution(*[pp] * 4, dps=60), product_distribution(*[qq] * 4, dps=60)
        explicit = hockey_stick_discrete(p4, q4, e_t, dps=55)
        assert abs(kov.four_atom_product_delta(e, d0, 4, e_t) - explicit) < mpmath.mpf(10) ** -50


def test_reference_n19_n46_every_branch_is_above_the_optimum():
    # ✓N46: k = 1000, eps = 0.05, delta' = 1e-9: branches 11.5409 / 11.4290, optimum 10.2799
    assert mpmath.nstr(_at(kov.MIDDLE, 1000, "0.05", 0, "1e-9"), 6) == "11.5409"
    assert mpmath.nstr(_at(kov.THIRD, 1000, "0.05", 0, "1e-9"), 6) == "11.429"
    assert mpmath.nstr(_at(kov.EPS_TILDE, 100, "0.1", 0, "1e-6"), 5) == "5.7561"
    for kk, e, d in N19_N46:
        with mpmath.workdps(40):
            opt = optimal_composition_epsilon(mpmath.mpf(d), [sp.Rational(e)] * kk, dps=40)
            for branch in (k * eps, kov.MIDDLE, kov.THIRD):
                assert _at(branch, kk, e, 0, d) >= opt


def test_total_delta_is_needed_when_delta0_is_positive():
    # with δ0 > 0 the exact optimum exceeds 1 − (1 − δ0)^k wherever ε̃ < kε, far above δ'
    with mpmath.workdps(40):
        e_t = _at(kov.EPS_TILDE, 100, "0.1", "1e-4", "1e-6")
        assert e_t < 10
        exact = optimal_composition_delta(e_t, [sp.Rational(1, 10)] * 100, [sp.Rational(1, 10000)] * 100, dps=40)
        assert exact > 1 - mpmath.mpf("0.9999") ** 100 > mpmath.mpf("1e-6")
        assert exact <= _at(kov.DELTA_TOTAL, 100, "0.1", "1e-4", "1e-6")


def test_mutants_fail_numerically():
    muts = dict(kov.mutants())
    assert len(muts) >= 3
    for name, thm in muts.items():
        assert numeric_check(thm).status == "failed", name
    # dropping δ0 from the total is caught exactly at the points with δ0 > 0
    failures = numeric_check(muts["total δ = δ' (the per-step δ0 dropped)"]).failures
    assert failures and all(float(c.point["delta0"]) > 0 for c in failures)


def test_the_kernel_does_not_prove_it():
    lhs = HockeyStick(kov.EPS_TILDE, Pk(k), Qk(k))
    thm = kov.theorem.with_changes(parts=(Part("main", le(lhs, kov.DELTA_TOTAL),
                                               proof=Chain(lhs).le(kov.DELTA_TOTAL, sign())),))
    assert symbolic_check(thm).status not in ("proved", "certified")


def test_claiming_total_delta_below_basic_composition_is_refuted():
    """A δ total below 1 − (1 − δ0)^k is false at every ε̃ < ∞: the ground truth refutes it."""
    bad = kov.make(kov.EPS_TILDE, 1 - (1 - delta0) ** k)
    assert numeric_check(bad).status == "failed"
