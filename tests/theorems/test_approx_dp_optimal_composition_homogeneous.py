"""approx_dp_optimal_composition_homogeneous (R-F7, KOV15 Thm 3.3): supported; the witness is tight; mutants fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, i, k
from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.expr.operators import HockeyStick
from cdpsym.expr.symbols import delta0
from cdpsym.mechanisms.composition import optimal_composition_delta
from cdpsym.proof import Chain, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk

kov = importlib.import_module("theorems.approx_dp_optimal_composition_homogeneous")


def _rhs(kk, e, d, ii, dps=40):
    with mpmath.workdps(dps):
        return evaluate(kov.DELTA_PRIME, {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta0: mpmath.mpf(d),
                                          i: mpmath.mpf(ii)}, MPContext(dps))


def test_supported_and_tight():
    report = kov.theorem.verify(property_examples=4)
    assert report.verdict == "supported", report
    comps = report.checks["numeric"]["comparisons"]
    assert all(c["ok"] for c in comps)
    # the four-atom product (and RR when delta = 0) attains the bound to the working precision
    tight = [c for c in comps if c["witness"].startswith(tuple(f"{n}-fold product of the four-atom" for n in range(1, 6)))]
    assert tight and all(c["digits"] is not None and c["digits"] >= 45 for c in tight)


def test_statement_shape():
    (part,) = kov.theorem.parts
    assert part.relation.lhs == HockeyStick((k - 2 * i) * eps, Pk(k), Qk(k))
    assert part.relation.op == "<="
    assert [h.name for h in kov.theorem.hypotheses] == ["step_approx_dp", "step_approx_dp_reverse"]
    assert [c.plain() for c in kov.theorem.conditions] == [kov.theorem.conditions[0].plain()]
    assert [st.method for st in symbolic_check(kov.theorem).parts[0].steps] == ["numeric"]


def test_binomial_as_product():
    with mpmath.workdps(30):
        for n in range(0, 9):
            for r in range(0, n + 1):
                val = evaluate(kov.binomial(k, sp.Symbol("r")), {k: mpmath.mpf(n), sp.Symbol("r"): mpmath.mpf(r)},
                               MPContext(30))
                assert abs(val - int(sp.binomial(n, r))) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("kk,e,ii,expected", [(7, "0.4", 1, None), (10, "0.1", 3, None)])
def test_n18_delta_i_equals_the_mv16_sum(kk, e, ii, expected):
    """✓N18: δ_i is the optimal δ at ε' = (k − 2i)ε, computed independently by cdpsym.mechanisms.composition."""
    with mpmath.workdps(40):
        ours = _rhs(kk, e, 0, ii)
        theirs = optimal_composition_delta((kk - 2 * ii) * mpmath.mpf(e), [sp.Rational(e)] * kk, dps=40)
        assert abs(ours - theirs) < mpmath.mpf(10) ** -35


def test_cross_check_with_per_step_delta():
    with mpmath.workdps(40):
        ours = _rhs(5, "0.5", "0.001", 2)
        theirs = optimal_composition_delta(mpmath.mpf("0.5"), [sp.Rational(1, 2)] * 5, [sp.Rational(1, 1000)] * 5,
                                           dps=40)
        assert abs(ours - theirs) < mpmath.mpf(10) ** -35


def test_i_zero_is_basic_composition():
    with mpmath.workdps(40):
        assert abs(_rhs(4, "0.3", "0.1", 0) - (1 - mpmath.mpf("0.9") ** 4)) < mpmath.mpf(10) ** -35


def test_mutants_fail_numerically():
    muts = kov.mutants()
    assert len(muts) >= 1
    for name, thm in muts:
        assert numeric_check(thm).status == "failed", name


def test_a_sign_step_cannot_prove_it():
    lhs = HockeyStick(kov.EPS_PRIME, Pk(k), Qk(k))
    thm = kov.theorem.with_changes(parts=(Part("main", le(lhs, kov.DELTA_PRIME),
                                               proof=Chain(lhs).le(kov.DELTA_PRIME, sign())),))
    assert symbolic_check(thm).status != "proved"


def test_evaluator_refuses_non_integer_limits():
    from cdpsym.expr.evaluate import NotEvaluable

    with pytest.raises(NotEvaluable):
        evaluate(kov.DELTA_I, {k: mpmath.mpf(5), eps: mpmath.mpf(1), i: mpmath.mpf("1.5")}, MPContext(20))


def test_evaluator_refuses_reversed_limits():
    """sympy reads Sum(f, (l, 0, -3)) by Karr's convention (a negated sum): the evaluator does not guess."""
    from cdpsym.expr.evaluate import NotEvaluable

    l_ = sp.Symbol("l", integer=True)
    assert evaluate(sp.Sum(l_, (l_, 0, -1)), {}, MPContext(20)) == 0  # the empty sum
    with pytest.raises(NotEvaluable):
        evaluate(sp.Sum(l_, (l_, 0, -3)), {}, MPContext(20))
