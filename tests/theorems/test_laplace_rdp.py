"""laplace_rdp (R-D2, Mironov Prop. 6 / Cor. 2): supported (one numeric step after two proved steps); the
curve matches quadrature of the definition to 50 digits at the worst pair; mutants fail numerically."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, alpha, b, sensitivity
from cdpsym.expr.operators import Expect
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

lr = importlib.import_module("theorems.laplace_rdp")
make = lr.make


def test_supported_not_proved():
    report = lr.theorem.verify(property_examples=5)
    assert report.verdict == "supported", report
    symbolic = report.checks["symbolic"]
    assert symbolic["status"] == "supported"
    assert [s["method"] for s in symbolic["steps"]] == ["by:laplace_pair", "by:laplace_output", "numeric"]
    assert [s["status"] for s in symbolic["steps"]] == ["proved", "proved", "supported"]
    worst = [c for c in report.checks["numeric"]["comparisons"] if c["witness"].startswith("worst")]
    assert worst and all(c["digits"] is not None and c["digits"] >= 38 for c in worst)  # exact at |mu - nu| = Delta
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    thm = lr.theorem
    (part,) = thm.parts
    assert part.relation.op == "<=" and part.relation.lhs == Expect(sp.exp((alpha - 1) * L))
    e0 = sensitivity / b
    inner = alpha / (2 * alpha - 1) * sp.exp((alpha - 1) * e0) + (alpha - 1) / (2 * alpha - 1) * sp.exp(-alpha * e0)
    assert sp.simplify(part.relation.rhs - inner) == 0
    assert [h.name for h in thm.hypotheses] == ["sensitivity", "laplace_pair", "laplace_output"]


def test_published_values_and_limits():
    # REFERENCE N3: (b, Delta, alpha) = (1.5, 1, 3), (0.8, 1.3, 1.7): the closed form vs the quadrature
    f = sp.lambdify((sensitivity, b, alpha), lr.EPS_ALPHA, "mpmath")
    with mpmath.workdps(40):
        for s, d, a in (("1.5", "1", "3"), ("0.8", "1.3", "1.7")):
            s, d, a = mpmath.mpf(s), mpmath.mpf(d), mpmath.mpf(a)
            quad = mpmath.log(lr.renyi_mgf_by_quadrature(a, mpmath.mpf(0), d, s)) / (a - 1)
            assert abs(quad - f(d, s, a)) < mpmath.mpf(10) ** -30
        e0 = 1 / mpmath.mpf("1.5")
        assert abs(f(1, mpmath.mpf("1.5"), 1 + mpmath.mpf(10) ** -15) - (e0 + mpmath.exp(-e0) - 1)) < 1e-12  # KL
        assert abs(f(1, mpmath.mpf("1.5"), mpmath.mpf(10) ** 8) - e0) < 1e-6  # pure DP


def test_nearer_pairs_have_smaller_divergence():
    # the statement covers |mu - nu| < Delta through this monotonicity (numeric evidence only)
    with mpmath.workdps(30):
        values = [lr.renyi_mgf_by_quadrature(mpmath.mpf(3), mpmath.mpf(0), mpmath.mpf(d) / 10, mpmath.mpf(1))
                  for d in range(11)]
        assert all(x < y for x, y in zip(values, values[1:]))


@pytest.mark.parametrize("name, mutant", lr.mutants())
def test_mutants_fail_numerically(name, mutant):
    assert symbolic_check(mutant).status != "proved"
    assert numeric_check(mutant).status == "failed"


def test_mutant_fails_verification():
    report = lr.mutants()[0][1].verify(property_examples=5)
    assert report.verdict == "failed"


def test_without_the_output_law_the_integral_step_is_refused():
    hyps = tuple(h for h in lr.theorem.hypotheses if h.name != "laplace_output")
    result = symbolic_check(lr.theorem.with_changes(hypotheses=hyps))
    steps = result.parts[0].steps
    assert steps[1].status not in ("proved", "certified", "supported")
