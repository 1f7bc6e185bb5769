"""laplace_pure_dp (R-G1, DR14 Thm 3.6): proved; its mutants (Δ/(2b), 0.99Δ/b, ...) fail; it needs every hypothesis."""

from __future__ import annotations

import importlib
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.claims import parse_claim
from cdpsym.expr import L, Y, b, mu, nu, sensitivity
from cdpsym.expr.operators import Prob
from cdpsym.mechanisms import Laplace
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, algebra, by, eq, register_axioms, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_convexity import in_range

lap = importlib.import_module("theorems.laplace_pure_dp")  # the module, not the Theorem
make = lap.make

# the library registers a module's AXIOMS when it is listed in theorems.MODULES; registering the same objects
# again is a no-op, so this also runs before the module is listed
register_axioms(*lap.AXIOMS)

EPS = sensitivity / b
CONDITION = f"condition {lap.sure_bound.conditions[0].plain()}"


def _with_proof(proof, hypotheses=None):
    """The theorem with another proof of the same statement (and optionally other hypotheses)."""
    thm = lap.theorem
    part = Part("main", thm.parts[0].relation, proof=proof, ground_truth=thm.parts[0].ground_truth)
    changes = {"parts": (part,)}
    if hypotheses is not None:
        changes["hypotheses"] = hypotheses
    return thm.with_changes(**changes)


def _honest_condition(bound=EPS):
    return (Chain(lap.LOSS ** 2)
            .eq(sp.Abs(sp.Abs(Y - nu) - sp.Abs(Y - mu)) ** 2 / b ** 2, algebra())
            .le(sp.Abs(mu - nu) ** 2 / b ** 2,
                by(lap.reverse_triangle_inequality, Y_1=Y - nu, Y_2=Y - mu, inside=lambda w: w ** 2 / b ** 2))
            .le(sensitivity ** 2 / b ** 2, by(lap.sensitivity_bound, inside=lambda w: w / b ** 2))
            .le(bound ** 2, sign()))


def _event(bound, x):
    return Prob(in_range(-bound, x, bound))


def test_proved_with_all_checks():
    report = lap.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["by:laplace_pair", "by:sure_bound"]
    assert set(symbolic["trusted_axioms"]) == {"reverse_triangle_inequality", "sure_bound"}
    assert symbolic["kernel_rules"] == []
    assert report.checks["numeric"]["status"] == "passed"
    assert all(c["digits"] is not None and c["digits"] >= 38 for c in report.checks["numeric"]["comparisons"])
    assert report.checks["property"]["status"] == "passed"


def test_statement_hypotheses_and_notion():
    thm = lap.theorem
    assert thm.notion == "Laplace(sensitivity=Delta, scale=b) is DP(Delta/b)"
    claim = parse_claim(thm.notion)
    assert str(claim.target.eps) == "Delta/b"
    (part,) = thm.parts
    assert part.relation.op == "="
    assert part.relation.lhs == Prob(sp.And(L <= sensitivity / b, -sensitivity / b <= L))
    assert part.relation.rhs == 1
    assert [h.name for h in thm.hypotheses] == ["sensitivity", "laplace_pair"]
    sens, pair = thm.hypotheses
    assert (sens.relation.lhs, sens.relation.op, sens.relation.rhs) == ((mu - nu) ** 2, "<=", sensitivity ** 2)
    assert sens is importlib.import_module("theorems.gaussian_zcdp").shift  # gaussian_zcdp's hypothesis itself
    assert (pair.relation.lhs, pair.relation.op) == (L, "=")
    assert pair.relation.rhs == (sp.Abs(Y - nu) - sp.Abs(Y - mu)) / b
    assert set(thm.variables) == {sensitivity, b, mu, nu}


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 2


@pytest.mark.parametrize("label, thm", lap.mutants(), ids=[label for label, _ in lap.mutants()])
def test_smaller_bound_fails_symbolically_and_numerically(label, thm):
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "not met" in result.parts[0].steps[1].detail  # the kernel's sign check refutes Delta**2/b**2 <= bound**2
    assert numeric_check(thm).status == "failed"  # the worst pair has |L| = Delta/b with positive probability


def test_half_bound_fails_verification():
    report = dict(lap.mutants())["Δ/(2b): halved"].verify(property_examples=10)
    assert report.verdict == "failed"
    assert report.checks["property"]["status"] == "failed"


def test_larger_bound_is_still_proved():
    assert symbolic_check(make(2 * sensitivity / b)).status == "proved"  # a weaker claim, by the same chain
    assert symbolic_check(make(sensitivity / b + 1)).status == "proved"


# -- adversarial: the proof must not go through without its ingredients -------------------------------------

def test_without_the_sensitivity_hypothesis_the_proof_fails():
    thm = lap.theorem.with_changes(hypotheses=(lap.laplace_pair,))
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "'sensitivity' is not a hypothesis in scope" in result.parts[0].steps[1].detail


def test_a_different_pair_does_not_give_the_bound():
    # a "pair" whose loss is (|Y - nu| + |Y - mu|)/b is unbounded: the same chain must not prove it
    wrong = Hypothesis(name="laplace_pair", relation=eq(L, (sp.Abs(Y - nu) + sp.Abs(Y - mu)) / b))
    loss = (sp.Abs(Y - nu) + sp.Abs(Y - mu)) / b
    condition = (Chain(loss ** 2)
                 .eq(sp.Abs(sp.Abs(Y - nu) - sp.Abs(Y - mu)) ** 2 / b ** 2, algebra())
                 .le(EPS ** 2, sign()))
    proof = (Chain(_event(EPS, L)).eq(_event(EPS, loss), by(wrong))
             .eq(1, by(lap.sure_bound, X=loss, c=EPS, given={CONDITION: condition})))
    assert symbolic_check(_with_proof(proof, hypotheses=(lap.sensitivity_bound, wrong))).status == "failed"


def test_the_condition_must_be_proved():
    no_condition = (Chain(_event(EPS, L)).eq(_event(EPS, lap.LOSS), by(lap.laplace_pair))
                    .eq(1, by(lap.sure_bound, X=lap.LOSS, c=EPS)))
    assert symbolic_check(_with_proof(no_condition)).status != "proved"


def test_skipping_the_triangle_inequality_is_not_a_proof():
    skipped = (Chain(lap.LOSS ** 2)
               .le(sp.Abs(mu - nu) ** 2 / b ** 2, sign("skip the triangle inequality"))
               .le(sensitivity ** 2 / b ** 2, by(lap.sensitivity_bound, inside=lambda w: w / b ** 2)))
    proof = (Chain(_event(EPS, L)).eq(_event(EPS, lap.LOSS), by(lap.laplace_pair))
             .eq(1, by(lap.sure_bound, X=lap.LOSS, c=EPS, given={CONDITION: skipped})))
    assert symbolic_check(_with_proof(proof)).status != "proved"


def test_the_probability_is_not_one_by_fiat():
    assert symbolic_check(_with_proof(Chain(_event(EPS, L)).eq(1, algebra()))).status != "proved"
    assert symbolic_check(_with_proof(Chain(_event(EPS, L)).eq(1, sign()))).status == "failed"


def test_an_unregistered_copy_of_the_axiom_is_only_supported():
    copy = Axiom(name="sure_bound", relation=lap.sure_bound.relation, variables=lap.sure_bound.variables,
                 conditions=lap.sure_bound.conditions, citation="a copy")
    proof = (Chain(_event(EPS, L)).eq(_event(EPS, lap.LOSS), by(lap.laplace_pair))
             .eq(1, by(copy, X=lap.LOSS, c=EPS, given={CONDITION: _honest_condition()})))
    assert symbolic_check(_with_proof(proof)).status == "supported"
    honest = (Chain(_event(EPS, L)).eq(_event(EPS, lap.LOSS), by(lap.laplace_pair))
              .eq(1, by(lap.sure_bound, X=lap.LOSS, c=EPS, given={CONDITION: _honest_condition()})))
    assert symbolic_check(_with_proof(honest)).status == "proved"


def test_a_wrong_bound_cannot_be_proved_by_the_honest_condition():
    half = sensitivity / (2 * b)
    proof = (Chain(_event(half, L)).eq(_event(half, lap.LOSS), by(lap.laplace_pair))
             .eq(1, by(lap.sure_bound, X=lap.LOSS, c=half, given={CONDITION: _honest_condition(EPS)})))
    thm = lap.theorem.with_changes(parts=(Part("main", eq(_event(half, L), 1), proof=proof),))
    assert symbolic_check(thm).status == "failed"


# -- the ground truth -----------------------------------------------------------------------------------------

def test_ground_truth_matches_the_laplace_profile_computation():
    """Pr_P[|L| <= c] on the worst pair is e^{-(eps0-c)/2}/2 - e^{-(eps0+c)/2}/2 for 0 <= c < eps0 (R-E5)."""
    with mpmath.workdps(50):
        for d, s, c in ((1, 1, sp.Rational(1, 2)), (sp.Rational(6, 5), sp.Rational(1, 2), sp.Rational(11, 10)),
                        (2, 1, 0)):
            mech = Laplace(sensitivity=d, scale=s)
            pair = mech.densities()
            kinks = [mpmath.mpf(0), mpmath.mpf(sp.Rational(d).p) / sp.Rational(d).q]
            e0 = mpmath.mpf(sp.Rational(d, s).p) / sp.Rational(d, s).q
            cc = mpmath.mpf(sp.Rational(c).p) / sp.Rational(c).q
            got = lap.loss_probability(pair.p, pair.q, kinks, cc)
            want = (mpmath.exp(-(e0 - cc) / 2) - mpmath.exp(-(e0 + cc) / 2)) / 2
            assert abs(got - want) < mpmath.mpf(10) ** -45
            assert abs(lap.loss_probability(pair.p, pair.q, kinks, e0) - 1) < mpmath.mpf(10) ** -45
            # the exact profile vanishes exactly from eps0 on, and not below (R-E5)
            assert mech.delta(sp.Rational(d, s), dps=50) == 0
            assert mech.delta(c, dps=50) > 0
