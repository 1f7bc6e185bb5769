"""zcdp_composition (R-C7): proved by induction; kρ/2 fails."""

from __future__ import annotations

from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.zcdp_composition import mutants
from theorems.zcdp_composition import theorem



def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check((mutant)).status, numeric_check(mutant).status


def test_proved_with_all_checks():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    assert [s["method"] for s in report.checks["symbolic"]["steps"]] == ["induction"]
    assert "conditional_mgf_bound" in report.checks["symbolic"]["trusted_axioms"]
    assert "member" in report.checks["symbolic"]["kernel_rules"]


def test_half_the_total_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["kρ/2: halved"])
    assert symbolic == "failed"
    assert numeric == "failed"  # Gaussian steps attain kρ at every order


def test_gaussian_witness_is_tight():
    comparisons = theorem.verify(property_examples=1).checks["numeric"]["comparisons"]
    gaussian = [c for c in comparisons if c["witness"].startswith("k independent Gaussian")]
    assert gaussian and all(c["digits"] is not None and c["digits"] >= 38 for c in gaussian)
