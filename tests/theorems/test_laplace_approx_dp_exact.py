"""laplace_approx_dp_exact (R-E5): supported (a numeric step; no kernel proof), checked against the
definition and the law of the loss; smaller profiles fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import b, eps, sensitivity
from cdpsym.expr.operators import HockeyStick
from cdpsym.mechanisms import Laplace
from cdpsym.proof import Chain, Part, algebra, symbolic_check
from cdpsym.verify.numeric import numeric_check
from cdpsym.verify.property import property_check

la = importlib.import_module("theorems.laplace_approx_dp_exact")
LHS = HockeyStick(eps, la.Lap(0, b), la.Lap(sensitivity, b))


def test_supported_never_proved():
    report = la.theorem.verify(property_examples=10)
    assert report.verdict == "supported", report
    assert [s["method"] for s in report.checks["symbolic"]["steps"]] == ["numeric"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    (part,) = la.theorem.parts
    assert part.relation.op == "=" and part.relation.lhs == LHS
    assert part.relation.rhs == sp.Max(0, 1 - sp.exp((eps - sensitivity / b) / 2))
    assert la.theorem.hypotheses == () and la.theorem.notion == ""


@pytest.mark.parametrize("name,thm", la.mutants(), ids=[m[0] for m in la.mutants()])
def test_mutants_fail_numerically(name, thm):
    assert numeric_check(thm).status == "failed"
    assert property_check(thm, examples=10).status == "failed"
    assert symbolic_check(thm).status != "proved"


def test_algebra_cannot_prove_it():
    thm = la.theorem.with_changes(parts=(Part("main", la.theorem.parts[0].relation,
                                               proof=Chain(LHS).eq(la.PROFILE, algebra("by fiat"))),))
    assert symbolic_check(thm).status != "proved"


@pytest.mark.parametrize("d,s,e", [("1", "1", "0.3"), ("1.2", "0.5", "1.1"), ("1", "2", "0"), ("1", "1", "1"),
                                   ("1", "1", "0.999999"), ("2", "1", "5")])
def test_two_computations_agree_with_each_other_and_with_the_formula(d, s, e):
    # ✓N6 of REFERENCE; at eps = eps0 and beyond the profile is exactly 0 (pure eps0-DP)
    with mpmath.workdps(50):
        v = {sensitivity: mpmath.mpf(d), b: mpmath.mpf(s), eps: mpmath.mpf(e)}
        (_, direct), (_, law) = la._ground_truth(v, 50)
        exact = Laplace(sensitivity=sp.Rational(d), scale=sp.Rational(s)).delta(sp.Rational(e), dps=50)
        for value in (direct, law):
            assert abs(value - exact) <= abs(exact) * mpmath.mpf(10) ** -40
        if mpmath.mpf(e) >= mpmath.mpf(d) / mpmath.mpf(s):
            assert direct == law == 0


def test_the_opaque_law_is_registered_and_untyped():
    from cdpsym.proof.core import _OPAQUE_TYPES

    assert la.Lap in _OPAQUE_TYPES
    term = la.Lap(0, b)
    assert term.is_positive is None and term.is_real is None  # no typing to trust
