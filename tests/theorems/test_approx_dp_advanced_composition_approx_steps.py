"""DR16 Thm 1.1 (R-B1) and DRV10 Thm III.3 (R-F3) with δ0 > 0: supported -- every step kernel-checked except the cited
KOV15 closed form -- and the three lemmas they rest on, proved: Bernoulli's inequality, the positive part's
monotonicity, the hockey-stick divergence non-increasing in its order.  Attacks: the lemmas in the wrong direction,
on the wrong domain, at a negative shift; the reduction with an ε' below KOV15's; mutants fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import delta0, delta_p, eps, k, naturals, nonnegative, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.expr.operators import ComposedRatio, Expect, HockeyStick
from cdpsym.mechanisms.composition import optimal_composition_delta
from cdpsym.proof import Chain, Part, Theorem, by, le, monotone, sign, symbolic_check
from theorems.foundations_composition import Pk, Qk

mod = importlib.import_module("theorems.approx_dp_advanced_composition_approx_steps")
drv = importlib.import_module("theorems.approx_dp_advanced_composition_drv10_approx_steps")
kov15 = importlib.import_module("theorems.approx_dp_advanced_composition_kov15")
dr16_pure = importlib.import_module("theorems.approx_dp_advanced_composition")
drv10_pure = importlib.import_module("theorems.approx_dp_advanced_composition_drv10")

_s, _u = sp.Symbol("s", real=True), sp.Symbol("u", real=True)
_b, _t = sp.Symbol("b", real=True), sp.Symbol("t", real=True)


def _hockey(c):
    return HockeyStick(c, Pk(k), Qk(k))


def _status(relation, proof, variables, name="attack", hypotheses=()):
    th = Theorem(name=name, reference="R-B1", source="attack", title="attack", variables=variables,
                 hypotheses=hypotheses, parts=(Part("main", relation, proof=proof),))
    return symbolic_check(th).status


@pytest.fixture(scope="module")
def reports():
    lemmas = [t.verify(property_examples=4) for t in mod.LEMMAS]
    return lemmas, mod.theorem.verify(property_examples=4), drv.theorem.verify(property_examples=4)


def test_the_lemmas_are_proved_and_the_theorems_supported_by_kov15_alone(reports):
    lemmas, dr16, drv10 = reports
    for rep in lemmas:
        assert rep.verdict == "proved", rep
    for rep in (dr16, drv10):
        assert rep.verdict == "supported"
        assert rep.checks["numeric"]["status"] == "passed" and rep.checks["property"]["status"] == "passed"
        weak = [s for s in rep.checks["symbolic"]["steps"] if s["status"] != "proved"]
        assert len(weak) == 1 and weak[0]["status"] == "supported", weak  # the one cited supported theorem
    assert [s["method"] for s in dr16.checks["symbolic"]["steps"] if s["status"] != "proved"] == \
        ["by:approx_dp_advanced_composition_kov15"]
    assert [s["method"] for s in drv10.checks["symbolic"]["steps"] if s["status"] != "proved"] == \
        ["by:approx_dp_advanced_composition_approx_steps.main"]
    antitone = lemmas[[t.name for t in mod.LEMMAS].index("hockey_stick_antitone")]
    assert set(antitone.checks["symbolic"]["trusted_axioms"]) == {"hockey_stick_ratio_form_composed"}


def test_statements_are_the_reference_items():
    main = mod.theorem.part("main").relation
    assert main.lhs == _hockey(sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + k * eps * (sp.exp(eps) - 1) / 2)
    assert main.rhs == k * delta0 + delta_p and main.op == "<="
    d = drv.theorem.parts[0].relation
    assert d.lhs == _hockey(sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + k * eps * (sp.exp(eps) - 1))
    assert d.rhs == k * delta0 + delta_p
    for th in (mod.theorem, drv.theorem):
        assert th.variables[delta0].contains(sp.S.One) and th.variables[delta0].contains(sp.S.Zero)
        assert [h.name for h in th.hypotheses] == ["step_approx_dp", "step_approx_dp_reverse"]
    assert (mod.theorem.reference, drv.theorem.reference) == ("R-B1", "R-F3")


@pytest.mark.parametrize("kk,e,d0,dp", [(10, "1", "1e-3", "1e-3"), (3, "1", "0.1", "0.1"), (40, "0.2", "1e-4", "1e-5"),
                                        (200, "0.7", "1e-10", "1e-6")])
def test_the_bounds_lie_above_the_exact_optimum(kk, e, d0, dp):
    """The exact optimum (R-F7) at each ε' is at most kδ0 + δ', and DR16's ε' is at most DRV10's."""
    with mpmath.workdps(40):
        pt = {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta0: mpmath.mpf(d0), delta_p: mpmath.mpf(dp)}
        bound = evaluate(mod.DELTA_TOTAL, pt, MPContext(40))
        e16 = evaluate(dr16_pure.EPS_PRIME, pt, MPContext(40))
        e10 = evaluate(drv10_pure.EPS_PRIME, pt, MPContext(40))
        assert e16 <= e10
        for at in (e16, e10):
            opt = optimal_composition_delta(at, [sp.Rational(e)] * kk, [sp.Rational(d0)] * kk, dps=40)
            assert opt <= bound


def test_the_per_step_delta_is_needed():
    """At ε' >= kε the optimum is 1 − (1 − δ0)^k > δ': without kδ0 the statement is false (k = 10, ε = 1)."""
    with mpmath.workdps(30):
        e16 = evaluate(dr16_pure.EPS_PRIME, {k: 10, eps: 1, delta_p: mpmath.mpf("1e-3")}, MPContext(30))
        opt = optimal_composition_delta(e16, [1] * 10, [sp.Rational(1, 1000)] * 10, dps=30)
        assert opt > mpmath.mpf("1e-3") and abs(opt - (1 - (1 - mpmath.mpf("1e-3")) ** 10)) < mpmath.mpf(10) ** -25


# -- attacks on the lemmas -------------------------------------------------------------------------------------

def test_the_positive_part_lemma_fails_for_a_factor_below_one():
    """(1 − s u)_+ <= (1 − u)_+ is false for s < 1 (s = 1/2, u = 1/2): the same proof must not go through."""
    below = Interval(sp.S.Zero, sp.S.One, False, True)
    lhs, rhs = sp.Max(0, 1 - _s * _u), sp.Max(0, 1 - _u)
    from cdpsym.proof import split
    assert _status(le(lhs, rhs), Chain(lhs).le(rhs, split(_u, 1, sign(), sign())),
                   {_s: below, _u: nonnegative()}) == "failed"


def test_the_hockey_stick_lemma_at_a_negative_shift_is_refused():
    """t = −1: e^t >= 1 fails, so s = e^t is outside the lemma's domain -- not a proof of δ(b − 1) <= δ(b)."""
    lhs = mod._ratio_mean(_b - 1)
    proof = Chain(lhs).le(mod._ratio_mean(_b), by(mod.positive_part_antitone, s=sp.exp(-1),
                                                    u=sp.exp(_b) * ComposedRatio(k), inside=lambda w: Expect(w)))
    assert _status(le(lhs, mod._ratio_mean(_b)), proof, {k: naturals(), _b: real()}) != "proved"


def test_the_hockey_stick_lemma_with_a_real_shift_is_not_proved():
    """t ranging over all reals: the monotone proof of e^t >= 1 needs t >= 0."""
    proof = Chain(_hockey(_b + _t)).le(_hockey(_b), by(mod.hockey_stick_antitone, k=k, b=_b, t=_t))
    assert _status(le(_hockey(_b + _t), _hockey(_b)), proof, {k: naturals(), _b: real(), _t: real()}) != "proved"
    given = by(mod.hockey_stick_antitone, k=k, b=_b, t=_t, given={"t": Chain(1).le(sp.exp(_t), monotone(_t))})
    assert _status(le(_hockey(_b + _t), _hockey(_b)), Chain(_hockey(_b + _t)).le(_hockey(_b), given),
                   {k: naturals(), _b: real(), _t: real()}) != "proved"


def test_the_antitone_lemma_in_the_wrong_direction_is_not_proved():
    """δ(b) <= δ(b + t) is false (randomized response): citing the lemma for it is no proof (the opaque sides
    cannot be evaluated, so the kernel says *supported* at most, never proved)."""
    proof = Chain(_hockey(_b)).le(_hockey(_b + _t), by(mod.hockey_stick_antitone, k=k, b=_b, t=_t))
    assert _status(le(_hockey(_b), _hockey(_b + _t)), proof,
                   {k: naturals(), _b: real(), _t: nonnegative()}) != "proved"


def test_the_reduction_needs_eps_prime_above_kov15():
    """With the mean term kε tanh(ε/2)/2 the claimed ε' lies below KOV15's third branch at some points: the gap
    step that feeds the antitone lemma is not proved, and the theorem is not even supported."""
    weak = mod.make(sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + k * eps * sp.tanh(eps / 2) / 2)
    res = symbolic_check(weak)
    assert res.status == "failed" or res.status == "supported"
    gap_steps = [s for p in res.parts for s in p.steps if s.method == "by:hockey_stick_antitone"]
    assert gap_steps and all(s.status != "proved" for s in gap_steps)


def test_bernoulli_on_the_wrong_side_fails():
    """1 − (1 − δ)^k >= kδ is false for k >= 2, δ > 0: the induction does not prove it (mutant factor 1/2)."""
    assert symbolic_check(mod.make_bernoulli(sp.Rational(1, 2))).status != "proved"
