"""subgaussian_concentration (R-B2): both tails proved; a tail e^{-t²} (exponent doubled) fails."""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import t
from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems import subgaussian_concentration as module
from theorems.subgaussian_concentration import make

theorem = module.theorem


def _fresh(thm):
    """Drop any cached result under ``id(thm)``: the kernel caches symbolic results by ``id`` without keeping
    the theorem alive, so a new theorem can inherit a dead one's verdict (reported; kernel not ours to edit)."""
    from cdpsym.proof import theorem as kernel_theorem

    kernel_theorem._CACHE.pop(id(thm), None)
    return thm


def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check(_fresh(mutant)).status, numeric_check(mutant).status


def test_proved_with_all_checks():
    report = theorem.verify(property_examples=15)
    assert report.verdict == "proved"
    methods = [s["method"] for s in report.checks["symbolic"]["steps"]]
    assert methods[:5] == ["by:markov_exponential", "by:subgaussian", "algebra", "specialize", "algebra"]
    assert report.checks["symbolic"]["trusted_axioms"] == ["markov_exponential"]


def test_doubled_exponent_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(make(sp.exp(-t ** 2)))
    assert symbolic == "failed"
    assert numeric == "failed"  # the Gaussian tail at t = 3 exceeds e^{-9}


def test_the_random_variable_is_a_variable_so_other_theorems_can_apply_it():
    assert "X" in {str(v) for v in theorem.part("upper").variables}
