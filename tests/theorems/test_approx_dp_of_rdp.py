"""approx_dp_of_rdp (R-D5, Mironov 2017 Prop. 3): proved; a halved (or otherwise smaller) ε' fails."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import alpha, delta, eps
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.mechanisms import Gaussian
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

rdp = importlib.import_module("theorems.approx_dp_of_rdp")  # the module (theorems.<name> may be the Theorem)
make = rdp.make


def test_proved_with_all_checks_including_delta_1e_300():
    report = rdp.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["by:tail_condition", "by:markov_exponential", "by:rdp",
                                                         "algebra"]
    assert set(symbolic["trusted_axioms"]) == {"tail_condition", "markov_exponential"}
    assert symbolic["kernel_rules"] == []
    points = [c["point"] for c in report.checks["numeric"]["comparisons"]]
    assert any(p.get("delta") == "1.0e-300" for p in points)


def test_statement_and_notion_are_linked():
    thm = rdp.theorem
    assert thm.notion == "RDP(alpha, eps) implies DP(eps + log(1/delta)/(alpha - 1), delta)"
    (part,) = thm.parts
    assert part.relation.op == "<="
    assert part.relation.lhs == HockeyStick(eps + sp.log(1 / delta) / (alpha - 1), P, Q)
    assert part.relation.rhs == delta
    assert [h.name for h in thm.hypotheses] == ["rdp"]


def test_symbolic_check_is_fast():
    import time

    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("label, thm", rdp.mutants(), ids=[label for label, _ in rdp.mutants()])
def test_smaller_epsilon_fails_symbolically_and_numerically(label, thm):
    assert symbolic_check(thm).status == "failed"
    assert numeric_check(thm).status == "failed"  # the two-point witness exceeds delta


def test_halved_mutant_fails_verification():
    report = dict(rdp.mutants())["ε' = ε + log(1/δ)/(2(α − 1)): the log term halved"].verify(property_examples=10)
    assert report.verdict == "failed"
    bad = {(c["point"]["alpha"], c["point"]["delta"]) for c in report.checks["numeric"]["comparisons"]
           if not c["ok"]}
    assert ("2.0", "1.0e-6") in bad


def test_gaussian_witness_two_ways_agree():
    # alpha = 2, eps = 0.5: shift 1/sqrt(2), eps' = 0.5 + log(1e6); BW18 closed form vs quadrature of (p - e^eps' q)_+
    with mpmath.workdps(50):
        shift = mpmath.sqrt(mpmath.mpf("0.5"))
        e_prime = mpmath.mpf("0.5") + mpmath.log(mpmath.mpf(10) ** 6)
        exact = Gaussian(sensitivity=1, sigma=1 / shift).delta(e_prime, dps=50)
        quad = rdp.gaussian_hockey_stick(shift, e_prime)
        assert abs(quad - exact) <= abs(exact) * mpmath.mpf(10) ** -40
        # the Gaussian is (2, 1/2)-RDP: D_2 = 2·shift²/2 = 1/2
        assert Gaussian(sensitivity=1, sigma=sp.sqrt(2)).renyi_divergence(2) == sp.Rational(1, 2)


def test_two_point_witness_is_rdp_and_comes_close_to_the_bound():
    with mpmath.workdps(50):
        a, e, d = mpmath.mpf(2), mpmath.mpf("0.5"), mpmath.mpf("1e-6")
        p, q, value = rdp.binary_witness(a, e, e + mpmath.log(1 / d) / (a - 1), d)
        renyi = mpmath.log(p ** a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)
        assert renyi <= e and e - renyi < mpmath.mpf(10) ** -40  # exactly (2, 1/2)-RDP
        assert d / 20 < value <= d  # within a factor 20 of the bound, never above it
