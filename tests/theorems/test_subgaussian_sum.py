"""subgaussian_sum (R-B5): proved by induction; wrong bounds fail; the induction justification is exercised."""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import k, lam, naturals, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le
from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_convexity import expectation_affine
from theorems.foundations_composition import (CondMGF, S, X, partial_sums_start, partial_sums_step,
                                              tower_mgf_partial_sums)
from theorems.subgaussian_sum import conditionally_subgaussian, mutants
from theorems.subgaussian_sum import theorem

STEP = sp.exp(lam ** 2 * tau ** 2 / 2)



def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check((mutant)).status, numeric_check(mutant).status


def test_proved_with_all_checks():
    report = theorem.verify(property_examples=15)
    assert report.verdict == "proved"
    assert [s["method"] for s in report.checks["symbolic"]["steps"]] == ["induction"]
    assert set(report.checks["symbolic"]["trusted_axioms"]) == {
        "expectation_affine", "partial_sums_start", "partial_sums_step", "tower_mgf_partial_sums"}


def test_standard_sqrt_k_over_two_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["e^{kλ²τ²/4}: the constant 1/2 scaled to 1/4"])
    assert symbolic == "failed"
    assert numeric == "failed"  # independent Gaussians attain e^{kλ²τ²/2}


def _induction_theorem(base, step, bound, name):
    proof = Chain(Expect(sp.exp(lam * S(k)))).le(bound, induction(k, base, step))
    return Theorem(name=name, reference="R-test", source="test", title="test",
                   variables={k: naturals(), tau: theorem.variables[tau], lam: theorem.variables[lam]},
                   hypotheses=(conditionally_subgaussian,),
                   parts=(Part("main", le(Expect(sp.exp(lam * S(k))), bound), proof=proof),))


def _base(bound):
    return (Chain(Expect(sp.exp(lam * S(1))))
            .eq(Expect(sp.exp(lam * (S(0) + X(1)))), by(partial_sums_step, i=1))
            .le(CondMGF(X(1), lam, 1) * Expect(sp.exp(lam * S(0))), by(tower_mgf_partial_sums, i=1, lam=lam))
            .le(STEP * Expect(sp.exp(lam * S(0))),
                by(conditionally_subgaussian, i=1, inside=lambda w: w * Expect(sp.exp(lam * S(0)))))
            .eq(STEP * Expect(sp.S.One), by(partial_sums_start))
            .eq(bound.xreplace({k: 1}), by(expectation_affine, a=0, b=1)))


def _step(bound, ih_bound):
    ih = Hypothesis("ih", relation=le(Expect(sp.exp(lam * S(k))), ih_bound))
    return (Chain(Expect(sp.exp(lam * S(k + 1))))
            .eq(Expect(sp.exp(lam * (S(k) + X(k + 1)))), by(partial_sums_step, i=k + 1))
            .le(CondMGF(X(k + 1), lam, k + 1) * Expect(sp.exp(lam * S(k))), by(tower_mgf_partial_sums, i=k + 1, lam=lam))
            .le(STEP * Expect(sp.exp(lam * S(k))),
                by(conditionally_subgaussian, i=k + 1, inside=lambda w: w * Expect(sp.exp(lam * S(k)))))
            .le(STEP * ih_bound, by(ih, inside=lambda w: STEP * w))
            .eq(bound.xreplace({k: k + 1}), algebra()))


def test_induction_accepts_the_lemma_in_isolation():
    bound = sp.exp(k * lam ** 2 * tau ** 2 / 2)
    thm = (_induction_theorem(_base(bound), _step(bound, bound), bound, "t_ind_ok"))
    assert symbolic_check(thm).status == "proved"


def test_induction_rejects_a_step_that_does_not_reach_the_statement_at_k_plus_1():
    bound = sp.exp(k * lam ** 2 * tau ** 2 / 2)
    wrong = sp.exp(k ** 2 * lam ** 2 * tau ** 2 / 2)  # agrees at k = 1 only
    thm = _induction_theorem(_base(wrong), _step(wrong, wrong), wrong, "t_ind_wrong_step")
    assert symbolic_check((thm)).status == "failed"
    # ... and a base case for the wrong statement fails even with a correct step
    thm2 = _induction_theorem(_base(bound), _step(bound, bound), bound * 2, "t_ind_wrong_base")
    assert symbolic_check((thm2)).status == "failed"


def test_the_chain_must_use_induction_on_an_integer_variable():
    bound = sp.exp(k * lam ** 2 * tau ** 2 / 2)
    proof = Chain(Expect(sp.exp(lam * S(k)))).le(bound, induction(tau, _base(bound), _step(bound, bound)))
    thm = Theorem(name="t_ind_tau", reference="R-test", source="test", title="test",
                  variables={k: naturals(), tau: theorem.variables[tau], lam: theorem.variables[lam]},
                  hypotheses=(conditionally_subgaussian,),
                  parts=(Part("main", le(Expect(sp.exp(lam * S(k))), bound), proof=proof),))
    assert symbolic_check((thm)).status == "failed"


# -- the kernel's induction, exercised on its first real user ------------------------------------------------


F = sp.Function("F", real=True)


def test_induction_refuses_hypotheses_that_mention_the_induction_variable():
    decreasing_at_k = Hypothesis("decreasing_at_k", le(F(k + 1), F(k)))  # says nothing about other indices
    ih = Hypothesis("ih", le(F(k) - F(1), 0))
    proof = Chain(F(k) - F(1)).le(0, induction(
        k, Chain(F(1) - F(1)).le(0, algebra()),
        Chain(F(k + 1) - F(1)).le(F(k) - F(1), by(decreasing_at_k, inside=lambda w: w - F(1))).le(0, by(ih))))
    # false: F = (0, 5, 4, ...) satisfies the hypothesis at k = 2 but F(2) - F(1) = 5 > 0
    thm = Theorem(name="t_ind_unsound", reference="R-test", source="test", title="test", variables={k: naturals()},
                  hypotheses=(decreasing_at_k,), parts=(Part("main", le(F(k) - F(1), 0), proof=proof),))
    assert symbolic_check((thm)).status != "proved"


def test_a_hypothesis_out_of_scope_cannot_be_cited():
    """Only the theorem's hypotheses and the induction hypothesis may be cited (the ``ih`` objects above rely on it)."""
    fake = Hypothesis("fake", le(sp.S.One, sp.S.Zero))
    thm = Theorem(name="t_fake_hyp", reference="R-test", source="test", title="test", variables={k: naturals()},
                  parts=(Part("main", le(sp.S.One, sp.S.Zero), proof=Chain(sp.S.One).le(sp.S.Zero, by(fake))),))
    assert symbolic_check((thm)).status == "failed"
