"""zcdp_conversion_ordering (R-E7): the closed-form inequalities of the zCDP -> (eps, delta) chain are proved;
competitors claimed better than they are fail symbolically and numerically."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import alpha, delta, eps
from cdpsym.expr.symbols import rho
from cdpsym.mechanisms import Gaussian
from cdpsym.proof import Chain, Part, le, register_axioms, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check

zo = importlib.import_module("theorems.zcdp_conversion_ordering")
register_axioms(*zo.AXIOMS)  # a no-op once the module is listed in theorems.MODULES

PARTS = ["log_step", "power_le_base", "cks20_le_tail", "cks20_le_prop13", "lemma36_le_prop13", "cks20_lt_mironov",
         "prop13_le_mironov"]


def test_proved_with_all_checks():
    report = zo.theorem.verify(property_examples=8)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert set(symbolic["trusted_axioms"]) == {"min_le_argument"}
    assert symbolic["kernel_rules"] == []
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    assert [p.name.split(".")[-1] for p in zo.theorem.parts] == PARTS
    tail = zo.theorem.part("cks20_le_tail").relation
    assert tail.lhs == sp.exp((alpha - 1) * (alpha * rho - eps)) / (alpha - 1) * (1 - 1 / alpha) ** alpha
    assert tail.rhs == sp.exp((alpha - 1) * (alpha * rho - eps))
    m = zo.theorem.part("cks20_lt_mironov").relation
    assert m.op == "<" and m.rhs == alpha * rho + sp.log(1 / delta) / (alpha - 1)
    p13 = zo.theorem.part("prop13_le_mironov").relation
    assert p13.lhs == rho + 2 * sp.sqrt(rho * sp.log(1 / delta))
    dom = zo.theorem.part("cks20_le_prop13").variables[eps]
    assert dom.lo == rho and dom.left_open  # alpha* = (eps + rho)/(2 rho) > 1 needs eps > rho
    assert zo.theorem.notion == ""


@pytest.mark.parametrize("name,thm", zo.mutants(), ids=[m[0] for m in zo.mutants()])
def test_mutants_fail(name, thm):
    assert symbolic_check(thm).status == "failed"
    assert numeric_check(thm).status == "failed"


def test_cks20_beats_mironov_by_exactly_the_gap():
    # REFERENCE R-D5 / ✓N11 at alpha = 3.7: the gap log(a)/(a-1) - log(1 - 1/a)
    a, r, d = sp.Rational(37, 10), sp.Rational(1, 2), sp.Rational(1, 10 ** 6)
    gap = zo.mironov_eps(a, r, d) - zo.cks20_eps(a, r, d)
    assert abs(sp.N(gap - (sp.log(a) / (a - 1) - sp.log(1 - 1 / a)), 40)) < 1e-35


def test_reference_table_values():
    # R-E7's table (✓N9): rho = 0.5, delta = 1e-6: exact 4.886554117 <= CKS20 5.221534445 <= BS16 5.756521770
    with mpmath.workdps(30):
        r, d = mpmath.mpf("0.5"), mpmath.mpf("1e-6")
        bs16 = r + 2 * mpmath.sqrt(r * mpmath.log(1 / d))
        cks = min(zo._cks_eps_truth({alpha: mpmath.mpf(a) / 1000, rho: r, delta: d}, 30)[0][1]
                  for a in range(5800, 6000, 2))  # the optimal order is about 5.9
        exact = Gaussian(sensitivity=1, sigma=1).epsilon(sp.Rational(1, 10 ** 6), dps=20)
        assert mpmath.nstr(bs16, 10) == "5.75652177"
        assert abs(cks - mpmath.mpf("5.221534445")) < 1e-6
        assert exact < cks < bs16


def test_the_ordering_cannot_be_reversed():
    # CKS20's delta is NOT at least the tail bound: the reversed part is refuted
    tail = zo.theorem.part("cks20_le_tail").relation
    part = Part("cks20_le_tail", le(tail.rhs, tail.lhs), variables=dict(zo.theorem.part("cks20_le_tail").variables),
                proof=Chain(tail.rhs).le(tail.lhs, sign()))
    assert symbolic_check(zo.theorem.with_changes(parts=(part,))).status == "failed"


def test_the_order_must_exceed_one():
    # at alpha < 1 the power step is false: (1 - 1/a)^a is not even real; a domain (1/2, 1) is refused or fails
    from cdpsym.expr.domains import Interval
    base = 1 - 1 / alpha
    part = Part("log_step", le(alpha * sp.log(base), sp.log(base)), variables={alpha: Interval.open(sp.Rational(1, 2), 1)},
                proof=Chain(alpha * sp.log(base)).le(sp.log(base), sign()))
    assert symbolic_check(zo.theorem.with_changes(parts=(part,))).status != "proved"
