"""gaussian_zcdp: proved with all three checks; mutants fail symbolically and numerically."""

from __future__ import annotations

import mpmath

from cdpsym.expr import sigma
from theorems import gaussian_zcdp
from theorems.gaussian_zcdp import mutants


def test_gaussian_zcdp_is_proved_by_all_three_checks():
    report = gaussian_zcdp.verify(property_examples=20)
    assert report.verdict == "proved"
    checks = report.checks
    assert checks["symbolic"]["status"] == "proved"
    assert checks["symbolic"]["steps_checked"] == 2  # the divergence (the cited lemma), then the sensitivity
    assert [s["method"] for s in checks["symbolic"]["steps"]] == ["by:gaussian_renyi_divergence", "by:sensitivity"]
    assert set(checks["symbolic"]["trusted_axioms"]) == {"gaussian_integral", "renyi_divergence_definition"}
    assert checks["numeric"]["status"] == "passed"
    # tight at the sensitivity: quadrature of the definition agrees with the bound to ~50 digits
    tight = [c for c in checks["numeric"]["comparisons"] if c["digits"] is not None]
    assert tight and min(c["digits"] for c in tight) >= 40
    assert checks["property"]["status"] == "passed"


def test_the_divergence_lemma_is_proved_with_its_own_checks():
    from theorems.gaussian_zcdp import gaussian_renyi_divergence

    report = gaussian_renyi_divergence.verify(property_examples=5)
    assert report.verdict == "proved"
    assert report.checks["symbolic"]["steps_checked"] == 5
    assert set(report.checks["symbolic"]["trusted_axioms"]) == {"gaussian_integral", "renyi_divergence_definition"}


def test_gaussian_renyi_quadrature_matches_the_published_value():
    # REFERENCE N1: (mu, nu, sigma, alpha) = (0, 1.3, 0.7, 2.5): alpha (mu-nu)^2 / (2 sigma^2)
    from theorems.gaussian_zcdp import _renyi_by_quadrature
    from cdpsym.expr import alpha, mu, nu

    with mpmath.workdps(50):
        v = {alpha: mpmath.mpf("2.5"), mu: mpmath.mpf(0), nu: mpmath.mpf("1.3"), sigma: mpmath.mpf("0.7")}
        (_, value), = _renyi_by_quadrature(v, 50)
        assert abs(value - mpmath.mpf("2.5") * mpmath.mpf("1.69") / (2 * mpmath.mpf("0.49"))) < mpmath.mpf(10) ** -45


def test_delta_instead_of_delta_squared_fails():
    mutant = dict(mutants())["ρ = Δ/(2σ²): the square on Δ dropped"]
    report = mutant.verify(property_examples=20)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed" or report.checks["property"]["status"] == "failed"


def test_a_too_small_rho_fails_numerically_with_a_counterexample():
    mutant = dict(mutants())["ρ = Δ²/(3σ²): the constant 1/2 scaled to 1/3"]
    report = mutant.verify(property_examples=30)
    assert report.verdict == "failed"
    assert report.checks["numeric"]["status"] == "failed"
    assert report.checks["property"]["status"] == "failed"
    assert report.checks["property"]["counterexample"]
