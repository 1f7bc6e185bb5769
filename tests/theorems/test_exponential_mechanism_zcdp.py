"""exponential_mechanism_zcdp (R-G3, CR21): supported (numeric step); ε²/16 and ε²/10 fail numerically."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import L, eps, lam
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check

emz = importlib.import_module("theorems.exponential_mechanism_zcdp")
em = importlib.import_module("theorems.exponential_mechanism_pure_dp")


def test_supported_not_proved():
    report = emz.theorem.verify(property_examples=10)
    assert report.verdict == "supported", report
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"
    assert [s.method for s in symbolic_check(emz.theorem).parts[0].steps] == ["numeric"]


def test_statement_and_hypotheses():
    thm = emz.theorem
    (part,) = thm.parts
    assert part.relation.lhs == Expect(sp.exp(lam * L))
    assert part.relation.rhs == sp.exp(lam * (lam + 1) * eps ** 2 / 8)
    assert part.relation.op == "<="
    # the hypotheses are exponential_mechanism_pure_dp's own objects
    assert thm.hypotheses == (em.exponential_pair, em.normaliser, em.score_sensitivity)


def test_mutants_fail_numerically():
    muts = emz.mutants()
    assert muts
    for name, thm in muts:
        assert numeric_check(thm).status == "failed", name
        assert thm.verify(property_examples=10).verdict == "failed", name


def test_bound_is_nearly_attained_as_eps_tends_to_zero():
    """Two candidates, S = ±1, p = 1/2: log E e^{λL} / (λ(λ+1)ε²) → 1/8."""
    f, g = emz.two_point_instances()[0]
    with mpmath.workdps(40):
        e, lm = mpmath.mpf("0.01"), mpmath.mpf(1)
        mgf = mpmath.fsum(w * mpmath.exp(lm * l) for w, l in em.loss_law(f, g, e))
        ratio = mpmath.log(mgf) / (lm * (lm + 1) * e ** 2)
    assert mpmath.mpf("0.1249") < ratio <= mpmath.mpf("0.125")


def test_pure_dp_constant_is_not_needed():
    """The bound ε²/8 is strictly below ε²/2 (R-C6): the ground truth separates them only from above."""
    assert numeric_check(emz.make(eps ** 2 / 2)).status == "passed"


def test_a_sign_step_cannot_prove_it():
    start = Expect(sp.exp(lam * L))
    bound = sp.exp(lam * (lam + 1) * eps ** 2 / 8)
    thm = emz.theorem.with_changes(parts=(Part("main", le(start, bound), proof=Chain(start).le(bound, sign())),))
    assert symbolic_check(thm).status != "proved"
