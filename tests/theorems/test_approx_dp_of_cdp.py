"""approx_dp_of_cdp: proved by the kernel; the variant without the factor 2 under the root fails."""

from __future__ import annotations

import time

import mpmath
import sympy as sp

import cdpsym.verify  # noqa: F401  (attaches Theorem.verify)
from cdpsym.expr import delta, mu, tau
from cdpsym.mechanisms import Gaussian
from cdpsym.proof import symbolic_check
from theorems.approx_dp_of_cdp import EPSILON, mutants, theorem


def test_statement_and_notion():
    assert theorem.notion == "CDP(mu, tau) implies DP(mu + tau*sqrt(2*log(1/delta)), delta)"
    assert [h.name for h in theorem.hypotheses] == ["cdp_mean", "cdp_subgaussian"]
    assert len(theorem.parts) == 1
    assert sp.simplify(EPSILON - (mu + tau * sp.sqrt(2 * sp.log(1 / delta)))) == 0


def test_proved_by_the_kernel_quickly():
    start = time.perf_counter()
    result = symbolic_check(theorem)
    assert result.status == "proved"
    assert time.perf_counter() - start < 10


def test_verify_proved_with_numeric_and_property_checks():
    report = theorem.verify(property_examples=20)
    assert report.verdict == "proved"
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"
    methods = [s["method"] for s in report.checks["symbolic"]["steps"]]
    assert methods[:2] == ["by:tail_condition", "by:markov_exponential"]
    assert "by:cdp_subgaussian" in methods and "by:cdp_mean" in methods and "specialize" in methods


def test_missing_factor_two_fails_symbolically_and_numerically():
    mutant = dict(mutants())["ε = μ + τ√(log(1/δ)): the 2 under the root dropped"]
    report = mutant.verify(property_examples=20)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"


def test_gaussian_ground_truth_below_delta():
    # Gaussian mechanism, tau = Delta/sigma, mu = tau^2/2 (exact profile) at the claimed epsilon
    with mpmath.workdps(50):
        for t, d in (("1", "1e-6"), ("0.3", "1e-3"), ("2", "1e-10")):
            t, d = mpmath.mpf(t), mpmath.mpf(d)
            e = t ** 2 / 2 + t * mpmath.sqrt(2 * mpmath.log(1 / d))
            assert Gaussian(sensitivity=sp.Float(t, 60), sigma=1).delta(e, dps=50) <= d
        # without the 2 the claim is false for the same Gaussian
        t, d = mpmath.mpf(1), mpmath.mpf("1e-6")
        e = t ** 2 / 2 + t * mpmath.sqrt(mpmath.log(1 / d))
        assert Gaussian(sensitivity=1, sigma=1).delta(e, dps=50) > d


def test_statement_is_read_back_by_the_claim_checker():
    from cdpsym.claims import semantics
    from cdpsym.claims.language import parse_claim

    claim = parse_claim(theorem.notion)
    schema = semantics.Schema(theorem, claim.subject, claim.target, dict(theorem.variables))
    assert semantics.statement_mismatch(schema) is None
