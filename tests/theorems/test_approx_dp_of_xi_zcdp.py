"""approx_dp_of_xi_zcdp (R-C4, BS16 Lemma 3.5 in its (ξ, ρ) form): (ξ, ρ)-zCDP implies
(ξ + ρ + 2√(ρ log(1/δ)), δ)-DP; the exact profile of RR_ξ × Gaussian(ρ) as ground truth; the mutants, a dropped
hypothesis and a slack in the tail bound's domain fail."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import delta, rho, xi
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, symbolic_check
from cdpsym.verify.numeric import numeric_check

mod = importlib.import_module("theorems.approx_dp_of_xi_zcdp")


def test_proved_by_all_three_checks_from_the_xi_tail_lemma():
    report = mod.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    methods = [s["method"] for s in report.checks["symbolic"]["steps"]]
    assert methods == ["by:tail_condition", "by:loss_tail_of_zcdp_xi", "algebra"]
    assert report.checks["numeric"]["status"] == "passed"


def test_at_xi_zero_it_is_the_rho_zcdp_conversion():
    from theorems.approx_dp_of_zcdp import EPSILON

    assert sp.simplify(mod.EPSILON_XI.subs(xi, 0) - EPSILON) == 0


def test_the_ground_truth_is_the_product_profile_and_not_the_bound():
    """At ξ = 0 the product's profile is the Gaussian's; at ξ > 0 it is strictly below δ (not tight), and it
    grows with ξ at a fixed ε (the randomized response adds privacy loss)."""
    from cdpsym.mechanisms import Gaussian

    truth = mod._product_profile(sp.Float(3))
    at0 = truth({rho: mpmath.mpf("0.5"), xi: mpmath.mpf(0), delta: mpmath.mpf("1e-3")}, 30)[0][1]
    assert mpmath.almosteq(at0, Gaussian(sensitivity=1, sigma=1).delta(3, dps=30), 1e-25)
    at1 = truth({rho: mpmath.mpf("0.5"), xi: mpmath.mpf(1), delta: mpmath.mpf("1e-3")}, 30)[0][1]
    assert at1 > at0


def test_every_mutant_fails_numerically():
    for label, mutant in mod.mutants():
        assert symbolic_check(mutant).status != "proved", label
        assert numeric_check(mutant).status == "failed", label


def test_without_the_hypothesis_it_is_not_proved():
    t = mod.theorem
    bare = Theorem(name=t.name, reference=t.reference, source=t.source, title=t.title, variables=dict(t.variables),
                   hypotheses=(), parts=t.parts)
    assert symbolic_check(bare).status not in ("proved", "certified")


def test_a_weaker_target_than_the_tail_bound_gives_is_not_proved():
    """The last step closes only at (ε − ξ − ρ)² = 4ρ log(1/δ): claiming δ/2 is refused."""
    from cdpsym.expr.operators import HockeyStick, P, Prob, Q
    from cdpsym.expr.symbols import L
    from theorems.foundations import tail_condition
    from theorems.loss_tail_of_zcdp import xi_theorem

    eps = mod.EPSILON_XI
    chain = (Chain(HockeyStick(eps, P, Q)).le(Prob(sp.StrictGreaterThan(L, eps)), by(tail_condition, eps=eps))
             .le(sp.exp(-(eps - xi - rho) ** 2 / (4 * rho)), by(xi_theorem, t=eps)).eq(delta / 2, algebra()))
    t = mod.theorem
    half = Theorem(name=t.name, reference=t.reference, source=t.source, title=t.title, variables=dict(t.variables),
                   hypotheses=t.hypotheses, parts=(Part("main", le(HockeyStick(eps, P, Q), delta / 2), proof=chain),))
    assert symbolic_check(half).status == "failed"
