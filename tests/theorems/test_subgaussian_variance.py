"""subgaussian_variance (R-B3): mean 0 and E[X²] <= τ² proved (monotonicity of expectation, one passage to the
limit); halving the bound, dropping the square or a negative mean fail; the proof cannot be bent to a false one."""

from __future__ import annotations

import random

import sympy as sp

from cdpsym.expr import X, tau
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, by, le, limit, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems import subgaussian_variance as theorem
from theorems.subgaussian_variance import (LEMMAS, _MGF, _U, cosh_quadratic_bound, expectation_sum_nonnegative,
                                           expm1_bound, lam, make, mutants)
from theorems.subgaussian_concentration import subgaussian


def test_proved_with_all_checks():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    methods = [s["method"] for s in report.checks["symbolic"]["steps"]]
    assert methods.count("limit") == 3  # one passage to the limit per part
    assert {"limit", "monotone", "taylor"} <= set(report.checks["symbolic"]["kernel_rules"])
    assert sorted(report.checks["symbolic"]["trusted_axioms"]) == ["expectation_affine", "expectation_sum_nonnegative"]


def test_lemmas_proved():
    for lemma in LEMMAS:
        assert symbolic_check(lemma).status == "proved", lemma.name


def test_statement_is_the_item():
    parts = {p.name.split(".")[-1]: p.relation for p in theorem.parts}
    assert parts["mean_upper"].lhs == Expect(X) and parts["mean_upper"].rhs == 0
    assert parts["mean_lower"].lhs == -Expect(X) and parts["mean_lower"].rhs == 0
    assert parts["second_moment"].lhs == Expect(X ** 2) and parts["second_moment"].rhs == tau ** 2
    assert theorem.reference == "R-B3"
    assert theorem.hypotheses == (subgaussian,)


def test_mutants_fail_numerically():
    for name, mutant in mutants():
        assert symbolic_check(mutant).status == "failed", name
        assert numeric_check(mutant).status == "failed", name


def test_the_additivity_axiom_on_random_finite_laws():
    rng = random.Random(7)
    for _ in range(50):
        n = rng.randint(1, 6)
        w = [rng.random() for _ in range(n)]
        probs = [x / sum(w) for x in w]
        y1 = [rng.random() * 5 for _ in range(n)]
        y2 = [rng.random() * 5 for _ in range(n)]
        lhs = sum(p * (a + b) for p, a, b in zip(probs, y1, y2))
        rhs = sum(p * a for p, a in zip(probs, y1)) + sum(p * b for p, b in zip(probs, y2))
        assert abs(lhs - rhs) < 1e-12
    assert expectation_sum_nonnegative.conditions  # it is stated for non-negative variables only


def test_no_proof_without_the_hypothesis():
    bare = Theorem(name="t", reference="", source="t", title="t", variables=dict(theorem.variables),
                   hypotheses=(), parts=(Part("second_moment", theorem.part("second_moment").relation,
                                              proof=theorem.part("second_moment").proof),))
    assert symbolic_check(bare).status not in ("proved", "certified")


def test_the_limit_cannot_skip_the_continuous_majorant():
    # stop at τ²(e^u - 1)/u and "let η -> 0": 0/0 at the end -- the rule must refuse
    from cdpsym.proof import algebra
    from theorems.foundations_convexity import expectation_affine
    ch = (Chain(Expect(X ** 2), variables={lam: Interval.open(0, 1)})
          .eq(Expect(lam ** 2 * X ** 2) / lam ** 2, by(expectation_affine, a=lam ** 2, b=0, X=X ** 2))
          .le(Expect(sp.exp(lam * X) + sp.exp(-lam * X) - 2) / lam ** 2,
              by(cosh_quadratic_bound.part("main"), X=lam * X, inside=lambda w: Expect(w) / lam ** 2)))
    steps = theorem.part("second_moment").proof.steps
    # reuse the proof's own middle, then jump to the limit before the majorant
    for st in steps[2:6]:
        ch = getattr(ch, {"=": "eq", "<=": "le", "<": "lt"}[st.op])(st.expr, st.why)
    ch = ch.le(tau ** 2, limit(lam))
    thm = Theorem(name="t", reference="", source="t", title="t", variables=dict(theorem.variables),
                  hypotheses=(subgaussian,), parts=(Part("m", le(Expect(X ** 2), tau ** 2), proof=ch),))
    assert symbolic_check(thm).status not in ("proved", "certified")


def test_the_limit_cannot_give_a_smaller_value():
    thm = make(second_moment=tau ** 2 / 2)
    assert symbolic_check(thm).status == "failed"


def test_expm1_bound_needs_nonnegative_u():
    # e^u - 1 <= u e^u is true for every real u, but the lemma is stated (and cited) for u >= 0 only
    assert expm1_bound.variables[sp.Symbol("u", nonnegative=True)].lo == 0
    assert _U.has(lam) and _MGF == sp.exp(_U)
