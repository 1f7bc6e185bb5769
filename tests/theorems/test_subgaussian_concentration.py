"""subgaussian_concentration (R-B2): both tails proved; a tail e^{-t²} (exponent doubled) fails."""

from __future__ import annotations

from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems import subgaussian_concentration as theorem  # the Theorem object (the registry exports it)
from theorems.subgaussian_concentration import mutants



def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check((mutant)).status, numeric_check(mutant).status


def test_proved_with_all_checks():
    report = theorem.verify(property_examples=15)
    assert report.verdict == "proved"
    methods = [s["method"] for s in report.checks["symbolic"]["steps"]]
    assert methods[:5] == ["by:markov_exponential", "by:subgaussian", "algebra", "specialize", "algebra"]
    assert report.checks["symbolic"]["trusted_axioms"] == ["markov_exponential"]


def test_doubled_exponent_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["e^{−t²}: the constant 1/2 in the exponent dropped"])
    assert symbolic == "failed"
    assert numeric == "failed"  # the Gaussian tail at t = 3 exceeds e^{-9}


def test_the_random_variable_is_a_variable_so_other_theorems_can_apply_it():
    assert "X" in {str(v) for v in theorem.part("upper").variables}
