"""rdp_probability_preservation (R-D6, M17 Prop 10): proved from Young's inequality at the optimal scaling."""

from __future__ import annotations

import dataclasses
import importlib
import random

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, eps, q
from cdpsym.expr.operators import Expect, Indicator, Prob
from cdpsym.proof import Chain, Part, Theorem, by, le, register_axioms, specialize, symbolic_check

pp = importlib.import_module("theorems.rdp_probability_preservation")  # the module (theorems.<name> is the Theorem)
make, beta, EVENT = pp.make, pp.beta, pp.EVENT

register_axioms(*pp.AXIOMS)  # a no-op once the module is listed in theorems.MODULES


@pytest.fixture(scope="module")
def report():
    return pp.theorem.verify(property_examples=30)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    sym = report.checks["symbolic"]
    assert [p["status"] for p in sym["parts"]] == ["proved", "proved"]
    assert set(sym["trusted_axioms"]) == {"young_expectation", "probability_is_expected_indicator",
                                          "indicator_power", "expectation_affine"}
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    rel = pp.theorem.part("main").relation
    assert rel.lhs == Prob(EVENT) and rel.op == "<="
    # (e^ε q)^{(α−1)/α} with α = 1 + β
    for b, e, qq in ((1, 0.5, 1e-3), (0.3, 2.0, 0.5), (20, 0.1, 0.9)):
        a = 1 + b
        assert float(rel.rhs.subs({beta: b, eps: e, q: qq})) == pytest.approx((mpmath.exp(e) * qq) ** ((a - 1) / a))
    assert [h.name for h in pp.theorem.hypotheses] == ["rdp", "event_mass"]
    assert pp.rdp.relation.lhs == Expect(sp.exp(beta * L))
    assert pp.event_mass.relation.lhs == Expect(Indicator(EVENT) * sp.exp(-L))


def test_the_optimal_scaling_gives_the_bound():
    with mpmath.workdps(40):
        b, e, qq = mpmath.mpf("0.7"), mpmath.mpf("1.3"), mpmath.mpf("0.02")
        a = 1 + b
        g = lambda tt: tt ** a / a * mpmath.exp(b * e) + b / a * tt ** (-a / b) * qq
        ts = float(pp.T_STAR.subs({beta: 0.7, eps: 1.3, q: 0.02}))
        tstar = (qq * mpmath.exp(-b * e)) ** (b / a ** 2)
        assert abs(tstar - ts) < 1e-12
        assert abs(g(tstar) - (mpmath.exp(e) * qq) ** (b / a)) < mpmath.mpf(10) ** -35
        assert g(tstar * mpmath.mpf("1.01")) > g(tstar) and g(tstar * mpmath.mpf("0.99")) > g(tstar)


# -- the axioms on random finite distributions ----------------------------------------------------------------------

def _random_law(rng, n):
    w = [rng.random() + 0.01 for _ in range(n)]
    s = sum(w)
    return [mpmath.mpf(x) / s for x in w]


def test_young_expectation_on_random_finite_distributions():
    rng = random.Random(7)
    with mpmath.workdps(30):
        for _ in range(200):
            n = rng.randint(1, 6)
            w = _random_law(rng, n)
            xs = [mpmath.mpf(rng.uniform(-5, 5)) for _ in range(n)]
            ys = [mpmath.mpf(rng.uniform(-5, 5)) for _ in range(n)]
            p_ = mpmath.mpf(1) + mpmath.mpf(rng.random()) * 5
            lhs = mpmath.fsum(wi * abs(x * y) for wi, x, y in zip(w, xs, ys))
            rhs = (mpmath.fsum(wi * abs(x) ** p_ for wi, x in zip(w, xs)) / p_
                   + (p_ - 1) / p_ * mpmath.fsum(wi * abs(y) ** (p_ / (p_ - 1)) for wi, y in zip(w, ys)))
            assert lhs <= rhs * (1 + mpmath.mpf(10) ** -25)


def test_indicator_axioms_pointwise():
    for z in (-1.5, 0, 2.0):
        ind = 1 if z > 0 else 0
        for c in (0.1, 1, 2.5):
            assert ind ** c == ind


# -- the witnesses are what they claim ----------------------------------------------------------------------------

@pytest.mark.parametrize("a, e, qq", [("2", "0.5", "1e-6"), ("1.5", "1", "0.01"), ("10", "0.1", "0.3")])
def test_the_witnesses_have_renyi_divergence_eps_and_q_mass_q(a, e, qq):
    with mpmath.workdps(30):
        a, e, qq = mpmath.mpf(a), mpmath.mpf(e), mpmath.mpf(qq)
        # Gaussian: D_α by quadrature of the definition, Q(A) by the tail
        mu = mpmath.sqrt(2 * e / a)
        dens = lambda y, m: mpmath.exp(-(y - m) ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)
        integral = mpmath.quad(lambda y: dens(y, mu) ** a * dens(y, 0) ** (1 - a), [-mpmath.inf, 0, mu, mpmath.inf])
        assert abs(mpmath.log(integral) / (a - 1) - e) < mpmath.mpf(10) ** -20
        thr = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * qq)
        assert abs(mpmath.erfc(thr / mpmath.sqrt(2)) / 2 - qq) < mpmath.mpf(10) ** -25 * max(1, 1 / qq) * qq
        # two-point pair
        x = pp.two_point_witness(a, e, qq)
        assert x >= qq
        if x < 1:
            assert abs(pp._renyi_two_point(a, x, qq) - e) < mpmath.mpf(10) ** -20


def test_mutants_fail_symbolically_and_numerically():
    for name, mutant in pp.mutants():
        assert symbolic_check(mutant).status == "failed", name
        rep = mutant.verify(property_examples=10)
        assert rep.verdict == "failed", name
        assert rep.checks["numeric"]["status"] == "failed", name


# -- adversarial ---------------------------------------------------------------------------------------------------

def test_without_a_hypothesis_nothing_is_proved():
    for drop in ("rdp", "event_mass"):
        thm = pp.theorem.with_changes(hypotheses=tuple(h for h in pp.theorem.hypotheses if h.name != drop))
        assert symbolic_check(thm).status != "proved", drop


def _adversarial(proof, bound=pp.BOUND):
    return Theorem(name="adversarial_pp", reference="-", source="-", title="adversarial",
                   variables=dict(pp.theorem.variables), hypotheses=pp.theorem.hypotheses,
                   parts=(Part("main", le(Prob(EVENT), bound), proof=proof),))


def test_young_below_exponent_one_is_refused():
    # p = 1/2 is outside Young's domain p > 1
    bad = Chain(Prob(EVENT)).eq(Expect(Indicator(EVENT)), by(pp.probability_is_expected_indicator)).le(
        pp.BOUND, by(pp.young_expectation, X=sp.exp(L), Y=Indicator(EVENT) * sp.exp(-L), p_H=sp.Rational(1, 2)))
    assert symbolic_check(_adversarial(bad)).status != "proved"


def test_specialising_at_a_wrong_scaling_does_not_give_the_bound():
    proof = pp.theorem.part("main").proof
    wrong = Chain(proof.start, proof.steps[:-1], dict(proof.variables)).eq(pp.BOUND, specialize(t=1))
    assert symbolic_check(_adversarial(wrong)).status == "failed"


def test_a_smaller_bound_than_the_proof_gives_is_refused():
    result = symbolic_check(make(pp.BOUND * sp.Rational(9, 10)))
    assert result.status == "failed"


def test_an_unregistered_copy_of_young_is_not_trusted():
    copy = dataclasses.replace(pp.young_expectation)
    proof = pp.theorem.part("main").proof
    st = proof.steps[1]
    fake = dataclasses.replace(st, why=dataclasses.replace(st.why, fact=copy))
    chain = Chain(proof.start, (proof.steps[0], fake, *proof.steps[2:]), dict(proof.variables))
    assert symbolic_check(_adversarial(chain)).status == "supported"


def test_the_event_is_not_about_the_standard_normal_z():
    """Red-team finding: Z's law is fixed by the standard-normal axioms, so an assumption about "an arbitrary Z"
    contradicts them (e^4.5 <= e^3 followed).  The event uses a random variable of its own."""
    import importlib

    from theorems.foundations_composition import Z

    pp = importlib.import_module("theorems.rdp_probability_preservation")
    assert Z not in pp.EVENT.free_symbols
    for h in pp.theorem.hypotheses:
        assert Z not in h.relation.lhs.free_symbols | h.relation.rhs.free_symbols, h.name
