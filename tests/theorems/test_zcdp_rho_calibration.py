"""zcdp_rho_calibration (R-F6, S22b footnote 2): ρ = ε²/(4 log(1/δ) + 4ε) is sufficient (strictly), the exact
inverse (√(log(1/δ) + ε) − √log(1/δ))² gives ε exactly; unsafe choices of ρ fail; N20 values."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import delta, eps
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

mod = importlib.import_module("theorems.zcdp_rho_calibration")


@pytest.fixture(scope="module")
def report():
    return mod.theorem.verify(property_examples=15)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    assert [p["status"] for p in report.checks["symbolic"]["parts"]] == ["proved"] * 3
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"
    assert report.checks["symbolic"]["trusted_axioms"] == []  # pure algebra


def test_statement_is_reference_r_f6():
    ell = sp.log(1 / delta)
    names = [p.name.split(".")[-1] for p in mod.theorem.parts]
    assert names == ["sqrt_gap", "sufficient", "exact_inverse"]
    suff = mod.theorem.part("sufficient").relation
    assert suff.op == "<" and suff.rhs == eps
    assert sp.simplify(mod.RHO_S22B - eps ** 2 / (4 * ell + 4 * eps)) == 0
    exact = mod.theorem.part("exact_inverse").relation
    assert exact.op == "=" and exact.rhs == eps
    assert mod.RHO_EXACT == (sp.sqrt(ell + eps) - sp.sqrt(ell)) ** 2


def test_exact_inverse_is_exact(report):
    exact = [c for c in report.checks["numeric"]["comparisons"] if c["part"].endswith("exact_inverse")]
    assert exact and all(c["digits"] is not None and c["digits"] >= 35 for c in exact)


def test_reference_n20_values():
    # R-F6: eps = 1, delta = 1e-6: 0.016874 (footnote) vs 0.017469 (exact inverse); eps = 10, delta = 1e-3
    with mpmath.workdps(30):
        for e, d, s22b, exact in (("1", "1e-6", "0.016874", "0.017469"), ("10", "1e-3", "1.4786", "2.2012")):
            e, d = mpmath.mpf(e), mpmath.mpf(d)
            ell = mpmath.log(1 / d)
            r1 = e ** 2 / (4 * ell + 4 * e)
            r2 = (mpmath.sqrt(ell + e) - mpmath.sqrt(ell)) ** 2
            assert abs(r1 / mpmath.mpf(s22b) - 1) < mpmath.mpf("1e-4")
            assert abs(r2 / mpmath.mpf(exact) - 1) < mpmath.mpf("1e-4")
            assert r1 < r2
            assert mod.conversion_eps(r1, d) < e
            assert abs(mod.conversion_eps(r2, d) - e) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("label, mutant", mod.mutants(), ids=[m[0] for m in mod.mutants()])
def test_mutants_fail_symbolically_and_numerically(label, mutant):
    assert symbolic_check(mutant).status == "failed"
    bad = [c for c in numeric_check(mutant).comparisons if not c.ok]
    assert any(c.part.endswith("sufficient") for c in bad)


def test_the_exact_inverse_is_not_sufficient_with_strict_inequality():
    # claiming rho* itself satisfies the strict '<' is false (it gives exactly eps): the kernel must refuse
    strict = mod.make(rho_s22b=mod.RHO_EXACT)
    result = symbolic_check(strict)
    assert result.status != "proved"
    assert any(s.status != "proved" for p in result.parts if p.name.endswith("sufficient") for s in p.steps)


def test_a_larger_rho_than_the_exact_inverse_fails():
    over = mod.make(rho_s22b=mod.RHO_EXACT * sp.Rational(101, 100))
    assert symbolic_check(over).status == "failed"
    assert numeric_check(over).status == "failed"
