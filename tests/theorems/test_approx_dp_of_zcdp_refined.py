"""approx_dp_of_zcdp_refined (R-C5, BS16 Lemma 3.6 at xi = 0): supported (a numeric step; the integral form of
R-A6 is not in the trusted base); checked on the Gaussian witness; smaller bounds fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.expr.symbols import rho
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

rf = importlib.import_module("theorems.approx_dp_of_zcdp_refined")
zo = importlib.import_module("theorems.zcdp_conversion_ordering")
zc = importlib.import_module("theorems.approx_dp_of_zcdp")


def test_supported_never_proved():
    report = rf.theorem.verify(property_examples=8)
    assert report.verdict == "supported", report
    assert [s["method"] for s in report.checks["symbolic"]["steps"]] == ["numeric"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    (part,) = rf.theorem.parts
    assert part.relation.lhs == HockeyStick(eps, P, Q) and part.relation.op == "<="
    assert part.relation.rhs == zo.theorem.part("lemma36_le_prop13").relation.lhs  # one formula, two theorems
    a = (eps - rho) / (2 * rho)
    expected = sp.exp(-(eps - rho) ** 2 / (4 * rho)) * sp.Min(sp.sqrt(sp.pi * rho), 1 / (1 + a),
                                                           2 / (1 + a + sp.sqrt((1 + a) ** 2 + 4 / (sp.pi * rho))))
    assert part.relation.rhs == expected
    assert rf.theorem.hypotheses == (zc.zcdp,)
    dom = rf.theorem.variables[eps]
    assert dom.lo == rho and dom.left_open


@pytest.mark.parametrize("name,thm", rf.mutants(), ids=[m[0] for m in rf.mutants()])
def test_mutants_fail_numerically(name, thm):
    assert numeric_check(thm).status == "failed"
    assert symbolic_check(thm).status != "proved"


def test_reference_integral_identity_n35():
    # REFERENCE ✓N35 at rho = 0.5, eps = 4: int_eps^oo e^{eps - z} e^{-(z - rho)^2/(4 rho)} dz over the Gaussian
    # factor is 0.21257, below the minimum of the three terms, 0.21564
    with mpmath.workdps(30):
        r, e = mpmath.mpf("0.5"), mpmath.mpf(4)
        g = mpmath.exp(-(e - r) ** 2 / (4 * r))
        integral = mpmath.quad(lambda z: mpmath.exp(e - z - (z - r) ** 2 / (4 * r)), [e, mpmath.inf])
        bound = sp.N(rf.DELTA.subs({rho: sp.Rational(1, 2), eps: 4}), 30)
        assert mpmath.nstr(integral / g, 5) == "0.21257"
        assert mpmath.nstr(mpmath.mpf(str(bound)) / g, 5) == "0.21564"
        assert integral <= mpmath.mpf(str(bound))
