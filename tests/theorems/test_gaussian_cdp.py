"""gaussian_cdp (R-B8): the loss is linear in the noise; (Δ²/(2σ²), Δ/σ)-CDP; halved parameters fail."""

from __future__ import annotations

from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.gaussian_cdp import mutants, privacy_loss
from theorems.gaussian_cdp import theorem



def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check((mutant)).status, numeric_check(mutant).status


def test_privacy_loss_lemma_is_proved():
    assert privacy_loss.verify(property_examples=10).verdict == "proved"


def test_proved_with_all_checks_and_tight():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    assert report.checks["symbolic"]["cites"] == ["gaussian_privacy_loss"]
    assert "gaussian_mgf" not in report.checks["symbolic"]["trusted_axioms"]
    # the first numeric point has |μ - ν| = Δ: both bounds are equalities
    first = [c for c in report.checks["numeric"]["comparisons"] if c["point"]["nu"] == "1.3"]
    assert first and all(c["digits"] is not None and c["digits"] >= 38 for c in first)


def test_halved_mean_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["mean Δ²/(4σ²): halved"])
    assert symbolic == "failed"
    assert numeric == "failed"


def test_halved_standard_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["standard Δ/(2σ): halved"])
    assert symbolic == "failed"
    assert numeric == "failed"
