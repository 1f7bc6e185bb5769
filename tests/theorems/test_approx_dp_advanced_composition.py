"""approx_dp_advanced_composition (R-B1, DR16 Thm 1.1): proved; the mean term halved again fails."""

from __future__ import annotations

import mpmath

from cdpsym.mechanisms import optimal_composition_delta
from theorems.approx_dp_advanced_composition import mutants
from theorems.approx_dp_advanced_composition import theorem



def test_proved_with_all_checks():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    symbolic = report.checks["symbolic"]
    assert {"cdp_composition", "subgaussian_concentration", "subgaussian_sum"} <= set(symbolic["cites"])
    assert [s["method"] for s in symbolic["steps"]] == [
        "by:tail_condition_composed", "by:cdp_composition.decomposition", "by:union_bound",
        "by:cdp_composition.drift", "by:subgaussian_concentration.upper", "algebra"]


def test_mean_term_halved_again_fails_symbolically_and_numerically():
    report = dict(mutants())["mean term kε(e^ε − 1)/4: halved"].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["symbolic"]["status"] == "failed"
    assert report.checks["numeric"]["status"] == "failed"
    bad = {(c["point"]["k"], c["point"]["eps"]) for c in report.checks["numeric"]["comparisons"] if not c["ok"]}
    assert ("200.0", "0.7") in bad and ("1500.0", "0.6") in bad


def test_matches_reference_n19():
    # R-B1 / N19: k = 100, eps = 0.1, delta' = 1e-6: Thm 1.1 gives 5.7824, the optimum 4.7746
    with mpmath.workdps(30):
        e, d = mpmath.mpf("0.1"), mpmath.mpf("1e-6")
        e_prime = mpmath.sqrt(200 * mpmath.log(1 / d)) * e + 100 * e * mpmath.expm1(e) / 2
        assert mpmath.nstr(e_prime, 5) == "5.7824"
        assert optimal_composition_delta(e_prime, [e] * 100, dps=30) < d
        assert optimal_composition_delta(mpmath.mpf("4.7746"), [e] * 100, dps=30) > d * mpmath.mpf("0.99")
