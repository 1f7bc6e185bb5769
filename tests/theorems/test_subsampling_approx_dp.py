"""subsampling_approx_dp (R-G7, S25 Thm 1): supported; sε, s²δ and ε'/2 fail numerically; the witnesses are tight."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import delta0, eps, s
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.mechanisms.profile import hockey_stick_discrete
from cdpsym.proof import Chain, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check

sub = importlib.import_module("theorems.subsampling_approx_dp")


def test_supported_with_both_directions():
    report = sub.theorem.verify(property_examples=5)
    assert report.verdict == "supported", report
    assert report.checks["numeric"]["status"] == "passed"
    assert [p.name for p in sub.theorem.parts] == ["subsampling_approx_dp.add", "subsampling_approx_dp.remove"]
    for part in symbolic_check(sub.theorem).parts:
        assert [st.method for st in part.steps] == ["numeric"]


def test_statement_shape():
    add, remove = sub.theorem.parts
    eps_p = sp.log(1 + s * (sp.exp(eps) - 1))
    assert add.relation.lhs == HockeyStick(eps_p, P, Q) and remove.relation.lhs == HockeyStick(eps_p, Q, P)
    assert add.relation.rhs == s * delta0 == remove.relation.rhs
    assert [h.name for h in sub.theorem.hypotheses] == ["mixture", "base_dp", "base_dp_reverse"]


def test_mutants_fail_numerically():
    muts = sub.mutants()
    assert len(muts) >= 1
    for name, thm in muts:
        assert numeric_check(thm).status == "failed", name


def test_witnesses_are_tight():
    """RR on the membership bit has max-divergence exactly ε'; the four-atom pair has δ(ε') = sδ exactly."""
    with mpmath.workdps(40):
        e, d0, rate = mpmath.mpf(1), mpmath.mpf("0.01"), mpmath.mpf("0.3")
        eps_p = mpmath.log(1 + rate * (mpmath.exp(e) - 1))
        (_, p_rr, q_rr), (_, p_kov, q_kov) = sub.witnesses(e, mpmath.mpf(0), rate)[:1] + \
            sub.witnesses(e, d0, rate)[1:2]
        dmax = max(mpmath.log(a / b) for a, b in zip(p_rr, q_rr))
        assert abs(dmax - eps_p) < mpmath.mpf(10) ** -35
        assert abs(hockey_stick_discrete(p_kov, q_kov, eps_p, dps=40) - rate * d0) < mpmath.mpf(10) ** -35
        # a slightly smaller eps' is violated by randomized response even with delta0 = 0
        assert hockey_stick_discrete(p_rr, q_rr, eps_p * mpmath.mpf("0.99"), dps=40) > 0


def test_first_order_approximation_is_below_the_exact_eps():
    with mpmath.workdps(30):
        for e, rate in ((1, "0.01"), (2, "0.3"), (5, "0.05")):
            e, rate = mpmath.mpf(e), mpmath.mpf(rate)
            assert mpmath.log(1 + rate * (mpmath.exp(e) - 1)) > rate * e


def test_witness_base_pairs_satisfy_the_hypotheses():
    with mpmath.workdps(30):
        e, d0 = mpmath.mpf("0.7"), mpmath.mpf("0.05")
        for name, pp, qq in sub.witnesses(e, d0, mpmath.mpf("0.5")):
            p1 = [(a - (1 - mpmath.mpf("0.5")) * b) / mpmath.mpf("0.5") for a, b in zip(pp, qq)]  # undo the mixture
            assert hockey_stick_discrete(p1, qq, e, dps=30) <= d0 + mpmath.mpf(10) ** -25, name
            assert hockey_stick_discrete(qq, p1, e, dps=30) <= d0 + mpmath.mpf(10) ** -25, name


def test_a_sign_step_cannot_prove_it():
    lhs = HockeyStick(sub.EPS_PRIME, P, Q)
    thm = sub.theorem.with_changes(parts=(Part("add", le(lhs, s * delta0), proof=Chain(lhs).le(s * delta0, sign())),))
    assert symbolic_check(thm).status != "proved"
