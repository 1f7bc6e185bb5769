"""zcdp_of_cdp: proved by the kernel; claiming tau^2/4-zCDP instead of tau^2/2 fails."""

from __future__ import annotations

import time

import mpmath
import sympy as sp

import cdpsym.verify  # noqa: F401  (attaches Theorem.verify)
from cdpsym.expr import L, lam, mu, tau
from cdpsym.expr.operators import Expect
from cdpsym.mechanisms import Gaussian, RandomizedResponse
from cdpsym.proof import symbolic_check
from theorems.zcdp_of_cdp import mutants, theorem


def test_statement_and_notion():
    assert theorem.notion == "CDP(mu, tau) implies zCDP(tau^2/2) FOR mu <= tau^2/2"
    assert [h.name for h in theorem.hypotheses] == ["cdp_mean", "cdp_subgaussian"]
    (part,) = theorem.parts
    assert part.relation.lhs == Expect(sp.exp(lam * L))
    assert sp.simplify(part.relation.rhs - sp.exp(lam * (lam + 1) * tau ** 2 / 2)) == 0
    assert theorem.variables[mu].hi == tau ** 2 / 2 and not theorem.variables[mu].right_open


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


def test_quarter_tau_squared_fails():
    mutant = dict(mutants())["ρ = τ²/4: the constant 1/2 scaled to 1/4"]
    report = mutant.verify(property_examples=20)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"


def test_ground_truth_instances():
    with mpmath.workdps(40):
        # Gaussian, mu = tau^2/2: equality e^{lam D_{lam+1}} = e^{lam(lam+1)tau^2/2}
        for t, l in ((1, 1), (2, sp.Rational(3, 10)), (sp.Rational(1, 2), 4)):
            d = Gaussian(sensitivity=t, sigma=1).renyi_divergence(l + 1)
            assert sp.simplify(l * d - l * (l + 1) * sp.Rational(1, 2) * t ** 2) == 0
        # randomized response eps0: mu = eps0 tanh(eps0/2) <= tau^2/2 with tau = eps0 (tanh x <= x)
        for e0, l in (("0.5", "1"), ("1", "3"), ("2", "0.5")):
            e0, l = mpmath.mpf(e0), mpmath.mpf(l)
            assert e0 * mpmath.tanh(e0 / 2) <= e0 ** 2 / 2
            d = mpmath.mpf(sp.N(RandomizedResponse(sp.Float(e0, 50)).renyi_divergence(sp.Float(l + 1, 50)), 45))
            assert mpmath.exp(l * d) <= mpmath.exp(l * (l + 1) * e0 ** 2 / 2)


def test_statement_is_read_back_by_the_claim_checker():
    from cdpsym.claims import semantics
    from cdpsym.claims.language import parse_claim

    claim = parse_claim(theorem.notion)
    schema = semantics.Schema(theorem, claim.subject, claim.target, dict(theorem.variables))
    assert semantics.statement_mismatch(schema) is None
