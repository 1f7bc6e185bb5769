"""approx_dp_optimal_composition (R-F8, MV16, two groups): supported; tight witness; independent cross-check."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps_p
from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.expr.operators import HockeyStick
from cdpsym.mechanisms.composition import optimal_composition_delta
from cdpsym.mechanisms.profile import hockey_stick_discrete
from cdpsym.proof import Chain, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk

mv = importlib.import_module("theorems.approx_dp_optimal_composition")


def _rhs(n1, e1, d1, n2, e2, d2, ep, dps=40):
    vals = {mv.k1: n1, mv.eps1: e1, mv.delta1: d1, mv.k2: n2, mv.eps2: e2, mv.delta2: d2, eps_p: ep}
    with mpmath.workdps(dps):
        return evaluate(mv.DELTA_PRIME, {key: mpmath.mpf(x) for key, x in vals.items()}, MPContext(dps))


def test_supported_and_tight():
    report = mv.theorem.verify(property_examples=4)
    assert report.verdict == "supported", report
    comps = report.checks["numeric"]["comparisons"]
    four = [c for c in comps if c["witness"].startswith("product of the four-atom pairs")]
    assert four and all(c["digits"] is not None and c["digits"] >= 45 for c in four)
    assert [st.method for st in symbolic_check(mv.theorem).parts[0].steps] == ["numeric"]


def test_statement_shape():
    (part,) = mv.theorem.parts
    assert part.relation.lhs == HockeyStick(eps_p, Pk(mv.k1 + mv.k2), Qk(mv.k1 + mv.k2))
    assert [h.name for h in mv.theorem.hypotheses] == ["first_group_dp", "second_group_dp"]


@pytest.mark.parametrize("n1,e1,d1,n2,e2,d2,ep", [
    (2, "0.3", "0", 1, "0.7", "0", "0.5"),
    (6, "0.1", "0", 0, "1", "0", "0.2"),
    (2, "1", "0.01", 2, "0.2", "0.001", "0.8"),
    (3, "0.4", "0", 2, "1.2", "0.1", "0.05"),
])
def test_cross_check_with_the_library_engine(n1, e1, d1, n2, e2, d2, ep):
    """cdpsym.mechanisms.composition computes the optimum from the privacy-loss distribution (independently)."""
    with mpmath.workdps(40):
        theirs = optimal_composition_delta(mpmath.mpf(ep), [sp.Rational(e1)] * n1 + [sp.Rational(e2)] * n2,
                                           [sp.Rational(d1)] * n1 + [sp.Rational(d2)] * n2, dps=40)
        assert abs(_rhs(n1, e1, d1, n2, e2, d2, ep) - theirs) < mpmath.mpf(10) ** -35


def test_n17_three_mechanisms_by_direct_enumeration():
    """✓N17 first instance, (0.3, 0.7, 1.1) at ε' = 0.5, is outside the two-group form; the two-group formula
    agrees with direct enumeration on (0.3, 0.3, 0.7) instead."""
    with mpmath.workdps(40):
        wit = mv.product_witnesses(mpmath.mpf("0.3"), mpmath.mpf(0), 2, mpmath.mpf("0.7"), mpmath.mpf(0), 1, 40)
        name, pp, qq = wit[1]
        assert name == "product of randomized responses"
        direct = hockey_stick_discrete(pp, qq, mpmath.mpf("0.5"), dps=40)
        assert abs(direct - _rhs(2, "0.3", "0", 1, "0.7", "0", "0.5")) < mpmath.mpf(10) ** -35


def test_reduces_to_the_homogeneous_theorem():
    kov = importlib.import_module("theorems.approx_dp_optimal_composition_homogeneous")
    from cdpsym.expr import eps, i, k
    from cdpsym.expr.symbols import delta0

    with mpmath.workdps(40):
        for kk, e, d, ii in ((7, "0.4", "0", 2), (5, "0.5", "0.001", 1)):
            hom = evaluate(kov.DELTA_PRIME, {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta0: mpmath.mpf(d),
                                             i: mpmath.mpf(ii)}, MPContext(40))
            het = _rhs(kk, e, d, 0, "1", "0", (kk - 2 * ii) * mpmath.mpf(e))
            assert abs(hom - het) < mpmath.mpf(10) ** -35


def test_mutants_fail_numerically():
    muts = mv.mutants()
    assert len(muts) >= 1
    for name, thm in muts:
        assert numeric_check(thm).status == "failed", name


def test_a_sign_step_cannot_prove_it():
    lhs = HockeyStick(eps_p, Pk(mv.k1 + mv.k2), Qk(mv.k1 + mv.k2))
    thm = mv.theorem.with_changes(parts=(Part("main", le(lhs, mv.DELTA_PRIME),
                                              proof=Chain(lhs).le(mv.DELTA_PRIME, sign())),))
    assert symbolic_check(thm).status != "proved"
