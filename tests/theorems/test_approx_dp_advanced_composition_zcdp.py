"""approx_dp_advanced_composition_zcdp (R-F5): proved via zCDP; two wrong constants fail."""

from __future__ import annotations

import mpmath

from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.approx_dp_advanced_composition_zcdp import mutants
from theorems.approx_dp_advanced_composition_zcdp import theorem



def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check((mutant)).status, numeric_check(mutant).status


def test_proved_with_all_checks():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    methods = [s["method"] for s in report.checks["symbolic"]["steps"]]
    assert methods == ["by:tail_condition_composed", "by:markov_exponential", "by:zcdp_composition", "algebra",
                       "specialize", "algebra"]


def test_factor_two_under_the_root_dropped_fails():
    symbolic, numeric = _checks(dict(mutants())["ε' = kε²/2 + √(k log(1/δ))ε: the 2 under the root dropped"])
    assert symbolic == "failed"
    assert numeric == "failed"


def test_halved_quadratic_term_fails():
    symbolic, numeric = _checks(dict(mutants())["ε' = kε²/4 + √(2k log(1/δ))ε: the quadratic term halved"])
    assert symbolic == "failed"
    assert numeric == "failed"


def test_matches_reference_n19():
    # R-F5 / N19: k = 100, eps = 0.1, delta = 1e-6 gives 5.7565
    with mpmath.workdps(30):
        value = 100 * mpmath.mpf("0.01") / 2 + mpmath.sqrt(200 * mpmath.log(mpmath.mpf(10) ** 6)) * mpmath.mpf("0.1")
        assert mpmath.nstr(value, 5) == "5.7565"


def test_the_report_lists_every_cited_theorem():
    cites = theorem.verify(property_examples=1).checks["symbolic"]["cites"]
    assert "zcdp_of_pure_dp" in cites
