"""approx_dp_of_rdp_cks20 (R-E1, CKS20 Prop 12): supported (a numeric step; the expectation form of R-A6 is not
in the trusted base); checked on the Gaussian and the extremal two-point witnesses; smaller eps' fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import alpha, delta, eps
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.proof import Chain, Part, algebra, by, le, symbolic_check
from cdpsym.verify.numeric import numeric_check

ck = importlib.import_module("theorems.approx_dp_of_rdp_cks20")
rdp_mod = importlib.import_module("theorems.approx_dp_of_rdp")


def test_supported_never_proved():
    report = ck.theorem.verify(property_examples=5)
    assert report.verdict == "supported", report
    assert [s["method"] for s in report.checks["symbolic"]["steps"]] == ["numeric"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape_and_the_delta_form():
    (part,) = ck.theorem.parts
    assert part.relation.op == "<=" and part.relation.rhs == delta
    assert part.relation.lhs == HockeyStick(ck.EPSILON, P, Q)
    assert ck.theorem.hypotheses == (rdp_mod.rdp,)  # the very hypothesis object of R-D5
    # R-E1's delta form at eps' = EPSILON gives back delta
    delta_form = sp.exp((alpha - 1) * (eps - ck.EPSILON)) / (alpha - 1) * (1 - 1 / alpha) ** alpha
    for a, e, d in ((2, sp.Rational(1, 2), sp.Rational(1, 10 ** 6)), (sp.Rational(37, 10), 1, sp.Rational(1, 100))):
        assert abs(sp.N(delta_form.subs({alpha: a, eps: e, delta: d}) - d, 40)) < 1e-35


@pytest.mark.parametrize("name,thm", ck.mutants(), ids=[m[0] for m in ck.mutants()])
def test_mutants_fail_numerically(name, thm):
    assert numeric_check(thm).status == "failed"
    assert symbolic_check(thm).status != "proved"


def test_the_tail_condition_alone_does_not_prove_it():
    # Markov through the tail condition gives only Mironov's eps' (R-D5); at CKS20's smaller eps' it cannot close
    from theorems.foundations import markov_exponential, tail_condition
    from cdpsym.expr import L
    from cdpsym.expr.operators import Expect, Prob
    e1 = ck.EPSILON
    proof = (Chain(HockeyStick(e1, P, Q))
             .le(Prob(sp.StrictGreaterThan(L, e1)), by(tail_condition, eps=e1))
             .le(sp.exp(-(alpha - 1) * e1) * Expect(sp.exp((alpha - 1) * L)),
                 by(markov_exponential, lam=alpha - 1, t=e1, X=L))
             .le(sp.exp(-(alpha - 1) * e1) * sp.exp((alpha - 1) * eps),
                 by(rdp_mod.rdp, inside=lambda w: sp.exp(-(alpha - 1) * e1) * w))
             .le(delta, algebra()))
    thm = ck.theorem.with_changes(parts=(Part("main", le(HockeyStick(e1, P, Q), delta), proof=proof),))
    assert symbolic_check(thm).status == "failed"


def test_the_two_point_witness_comes_close():
    # alpha = 2, eps = 0.5, delta = 1e-6: the extremal two-point pair reaches a constant fraction of delta
    with mpmath.workdps(50):
        a, e, d = mpmath.mpf(2), mpmath.mpf("0.5"), mpmath.mpf("1e-6")
        e1 = e + mpmath.log((a - 1) / a) - (mpmath.log(d) + mpmath.log(a)) / (a - 1)
        p, q, value = rdp_mod.binary_witness(a, e, e1, d)
        assert d / 10 < value <= d
