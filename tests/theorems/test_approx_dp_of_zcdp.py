"""approx_dp_of_zcdp: proved; the factor-2-dropped variant (REFERENCE R-C4) fails."""

from __future__ import annotations

import mpmath

from cdpsym.mechanisms import Gaussian
from theorems import approx_dp_of_zcdp
from theorems.approx_dp_of_zcdp import mutants


def test_proved_with_all_checks_including_delta_1e_300():
    report = approx_dp_of_zcdp.verify(property_examples=20)
    assert report.verdict == "proved"
    points = [c["point"] for c in report.checks["numeric"]["comparisons"]]
    assert any(p.get("delta") == "1.0e-300" for p in points)
    steps = report.checks["symbolic"]["steps"]
    assert [s["method"] for s in steps][:5] == ["by:tail_condition", "by:markov_exponential", "by:zcdp", "algebra",
                                                  "specialize"]


def test_factor_two_dropped_fails_symbolically_and_numerically():
    mutant = dict(mutants())["ε = ρ + √(ρ log(1/δ)): the constant 2 dropped"]
    report = mutant.verify(property_examples=20)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"


def test_refutation_witness_matches_reference_n43():
    # REFERENCE R-C4 / N43: Gaussian(1, 1), rho = 1/2, delta = 1e-6: eps = 3.12826..., exact delta = 1.0334e-3
    with mpmath.workdps(50):
        eps = mpmath.mpf("0.5") + mpmath.sqrt(mpmath.mpf("0.5") * mpmath.log(mpmath.mpf(10) ** 6))
        assert mpmath.nstr(eps, 6) == "3.12826"
        d = Gaussian(sensitivity=1, sigma=1).delta(eps, dps=50)
        assert mpmath.nstr(d, 5) == "0.0010334"
