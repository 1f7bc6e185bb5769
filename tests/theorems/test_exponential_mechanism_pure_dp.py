"""exponential_mechanism_pure_dp (R-G3, MT07; DR14 Thm 3.10): proved; ε/2 and 0.9ε fail; every hypothesis needed."""

from __future__ import annotations

import importlib
import random
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, eps
from cdpsym.expr.operators import Expect, Prob
from cdpsym.proof import Chain, Hypothesis, Part, by, eq, le, register_axioms, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_convexity import in_range

em = importlib.import_module("theorems.exponential_mechanism_pure_dp")  # the module, not the Theorem
register_axioms(*em.AXIOMS)
S, ZETA = em.S, em.ZETA


def test_proved_with_all_checks():
    report = em.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert set(symbolic["trusted_axioms"]) == {"expectation_at_most", "expectation_at_least", "sure_bound",
                                               "almost_sure_bound_sum"}
    assert symbolic["kernel_rules"] == []
    assert report.checks["numeric"]["status"] == "passed"


def test_statement_and_hypotheses():
    thm = em.theorem
    main = thm.part("main")
    assert main.relation.lhs == Prob(sp.And(sp.Le(-eps, L), sp.Le(L, eps)))
    assert (main.relation.op, main.relation.rhs) == ("=", 1)
    assert [h.name for h in thm.hypotheses] == ["exponential_pair", "normaliser", "score_sensitivity"]
    pair, norm, sens = thm.hypotheses
    assert pair.relation.rhs == -eps * S / 2 + sp.log(ZETA)
    assert norm.relation.rhs == Expect(sp.exp(eps * S / 2))
    assert (sens.relation.lhs, sens.relation.op, sens.relation.rhs) == (S ** 2, "<=", 1)
    assert set(thm.variables) == {eps, ZETA}
    assert thm.notion == ""  # the claim language has no exponential mechanism


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(em.make()).status == "proved"
    assert time.perf_counter() - t0 < 3


def test_mutants_fail_symbolically_and_numerically():
    muts = em.mutants()
    assert muts
    for name, thm in muts:
        assert symbolic_check(thm).status == "failed", name
        assert numeric_check(thm).status == "failed", name  # the near-extremal instance has |L| close to eps


def test_larger_bound_is_still_proved():
    assert symbolic_check(em.make(2 * eps)).status == "proved"


def test_ground_truth_near_extremal_instance_exceeds_0_95_eps():
    f, g = em.instances()[0]
    with mpmath.workdps(30):
        worst = max(abs(l) for _, l in em.loss_law(f, g, mpmath.mpf(1)))
    assert mpmath.mpf("0.95") < worst < 1


def test_ground_truth_detects_a_sensitivity_violation():
    """A score pair with |f − f'| = 2 > C = 1 breaks ε-DP: the enumeration sees |L| > ε."""
    f = [mpmath.mpf(2)] + [mpmath.mpf(0)] * 49
    g = [mpmath.mpf(0)] + [mpmath.mpf(2)] * 49
    with mpmath.workdps(30):
        assert max(abs(l) for _, l in em.loss_law(f, g, mpmath.mpf(1))) > 1


# -- adversarial ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("drop", ["exponential_pair", "normaliser", "score_sensitivity"])
def test_every_hypothesis_is_needed(drop):
    thm = em.theorem.with_changes(hypotheses=tuple(h for h in em.theorem.hypotheses if h.name != drop))
    assert symbolic_check(thm).status == "failed"


def test_weaker_sensitivity_hypothesis_fails():
    loose = Hypothesis(name="score_sensitivity", title="S^2 <= 4", relation=le(S ** 2, 4))
    hyps = tuple(loose if h.name == "score_sensitivity" else h for h in em.theorem.hypotheses)
    assert symbolic_check(em.theorem.with_changes(hypotheses=hyps)).status == "failed"


def test_a_tighter_normaliser_bound_is_refused():
    """e^{ε/4} is not an upper bound of the normaliser ratio: the pointwise chain cannot close."""
    bad = Part("normaliser_upper", le(ZETA, sp.exp(eps / 4)),
               proof=Chain(ZETA).eq(em.NORMALISER, by(em.normaliser))
               .le(sp.exp(eps / 4), by(em.expectation_at_most, X=sp.exp(eps * S / 2), c=sp.exp(eps / 4))))
    thm = em.theorem.with_changes(parts=(bad,))
    assert symbolic_check(thm).status == "failed"


def test_sign_cannot_close_the_main_step():
    event = Prob(in_range(-eps, L, eps))
    bad = Part("main", eq(event, 1), proof=Chain(event).eq(1, sign()))
    assert symbolic_check(em.theorem.with_changes(parts=(bad,))).status != "proved"


# -- the two axioms on random finite distributions ----------------------------------------------------------

def test_expectation_axioms_on_random_finite_laws():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(1, 6)
        w = [rng.random() + 1e-3 for _ in range(n)]
        tot = sum(w)
        xs = [rng.uniform(-5, 5) for _ in range(n)]
        mean = sum(wi * xi for wi, xi in zip(w, xs)) / tot
        assert min(xs) - 1e-12 <= mean <= max(xs) + 1e-12
