"""gaussian_vector_zcdp (R-C2 in its general form: f with values in R^d, l2 sensitivity, BS16 Prop 1.6): the
Gaussian mechanism on R^d is Δ²/(2σ²)-zCDP, by induction on the dimension with independent coordinates; the
product measure (one quadrature per coordinate) as ground truth; mutants, dropped hypotheses and misread
coordinates fail."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import lam, naturals, positive, real, sensitivity, sigma
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq, le, symbolic_check
from cdpsym.verify.numeric import numeric_check

mod = importlib.import_module("theorems.gaussian_vector_zcdp")
HOLDS = ("proved", "certified")


def _rebuilt(t: Theorem, **changes) -> Theorem:
    fields = dict(name=t.name, reference=t.reference, source=t.source, title=t.title, variables=dict(t.variables),
                  sequences=dict(t.sequences), hypotheses=t.hypotheses, parts=t.parts, numeric_points=t.numeric_points)
    fields.update(changes)
    return Theorem(**fields)


def test_the_lemma_and_the_theorem_are_proved_by_all_three_checks():
    for t in (mod.gaussian_vector_mgf, mod.theorem):
        report = t.verify(property_examples=4)
        assert report.verdict == "proved", report
        assert report.checks["numeric"]["status"] == "passed"
        assert report.checks["property"]["status"] == "passed"
    steps = [s["method"] for s in mod.theorem.verify(property_examples=2).checks["symbolic"]["steps"]]
    assert steps == ["by:gaussian_vector_pair", "by:gaussian_vector_mgf", "by:l2_sensitivity"]


def test_in_one_dimension_it_is_the_scalar_theorem():
    """d = 1: Δ²/(2σ²), the ρ of gaussian_zcdp."""
    from theorems.gaussian_zcdp import RHO

    assert sp.simplify(mod.RHO - RHO) == 0
    assert sp.simplify(mod.loss_sum(1).doit() - (mod.mu_vec(1) - mod.nu_vec(1)) * mod.Z_vec(1) / sigma
                       - (mod.mu_vec(1) - mod.nu_vec(1)) ** 2 / (2 * sigma ** 2)) == 0


def test_the_ground_truth_is_tight_on_the_sensitivity_sphere_and_below_inside():
    point = {mod.dim: mpmath.mpf(3), sensitivity: mpmath.mpf(1), sigma: mpmath.mpf(2), lam: mpmath.mpf("1.5")}
    on = dict(point)
    for j, (m, n) in enumerate([(0.6, 0), (0, 0.8), (0, 0)], start=1):  # ||μ − ν|| = 1 = Δ
        on[mod.mu_vec(sp.Integer(j))], on[mod.nu_vec(sp.Integer(j))] = mpmath.mpf(m), mpmath.mpf(n)
    exact = mpmath.exp(point[lam] * (point[lam] + 1) / (2 * point[sigma] ** 2))
    assert mpmath.almosteq(mod._product_truth(on, 40)[0][1], exact, 1e-30)
    inside = dict(on)
    inside[mod.mu_vec(sp.Integer(1))] = mpmath.mpf("0.3")
    assert mod._product_truth(inside, 40)[0][1] < exact


def test_every_mutant_fails_numerically():
    for label, mutant in mod.mutants():
        assert symbolic_check(mutant).status not in HOLDS, label
        assert numeric_check(mutant).status == "failed", label


def test_without_either_hypothesis_it_is_not_proved():
    for kept in ((mod.gaussian_vector_pair,), (mod.l2_sensitivity,)):
        assert symbolic_check(_rebuilt(mod.theorem, hypotheses=kept)).status not in HOLDS


def test_a_negative_order_is_not_covered_by_the_monotone_step():
    """For -1 < λ < 0 the map w -> e^{λ(λ+1) w/(2σ²)} decreases (and the bound is false inside the ball): the
    sensitivity step needs the theorem's domain λ > 0."""
    lhs, rhs = mod._mgf(mod.dim), sp.exp(lam * (lam + 1) * mod.RHO)
    ch = Chain(lhs).le(rhs, by(mod.l2_sensitivity, inside=lambda w: sp.exp(lam * (lam + 1) * w / (2 * sigma ** 2))))
    for domain, expected in ((real(), False), (positive(), True)):
        t = Theorem(name="order", reference="", source="t", title="t",
                    variables={**mod.theorem.variables, lam: domain}, sequences=dict(mod.theorem.sequences),
                    hypotheses=(mod.l2_sensitivity,), parts=(Part("main", le(lhs, rhs), proof=ch),))
        assert (symbolic_check(t).status in HOLDS) is expected, domain


def test_the_independence_fact_is_not_read_at_the_first_coordinate():
    """j = 1 would speak of S_0, which nothing defines: the fact is stated for j >= 2 only."""
    u = sp.Symbol("u", real=True)
    start = Expect(sp.exp(u * mod.S_vec(0) + u * mod._coordinate_loss(1)))
    rhs = Expect(sp.exp(u * mod.S_vec(0))) * Expect(sp.exp(u * mod._coordinate_loss(1)))
    ch = Chain(start).eq(rhs, by(mod.independent_coordinate, u=u, j=1, sigma=sigma))
    t = Theorem(name="j1", reference="", source="t", title="t", variables={u: real(), sigma: positive()},
                sequences={mod.mu_vec: real(), mod.nu_vec: real()}, parts=(Part("main", eq(start, rhs), proof=ch),))
    assert symbolic_check(t).status not in HOLDS


def test_a_coordinate_is_not_independent_of_itself():
    """E[e^{2uZ_1}] = E[e^{uZ_1}]^2 is false (e^{2u²} vs e^{u²}); no instance of the independence fact gives it."""
    u = sp.Symbol("u", real=True)
    one = Expect(sp.exp(u * mod._coordinate_loss(1)))
    start = Expect(sp.exp(2 * u * mod._coordinate_loss(1)))
    ch = Chain(start).eq(one ** 2, by(mod.independent_coordinate, u=u, j=1, sigma=sigma))
    t = Theorem(name="self", reference="", source="t", title="t", variables={u: real(), sigma: positive()},
                sequences={mod.mu_vec: real(), mod.nu_vec: real()},
                parts=(Part("main", eq(start, one ** 2), proof=ch),))
    assert symbolic_check(t).status not in HOLDS


def test_a_wrong_exponent_in_the_induction_fails():
    """The lemma with λ² in place of λ(λ + 1): its last algebra step cannot close, and the quadrature refutes it."""
    d = mod.dim
    wrong = sp.exp(lam ** 2 * sp.Sum((mod.mu_vec(sp.Symbol("i", integer=True, positive=True))
                                      - mod.nu_vec(sp.Symbol("i", integer=True, positive=True))) ** 2,
                                     (sp.Symbol("i", integer=True, positive=True), 1, d)) / (2 * sigma ** 2))
    lhs = Expect(sp.exp(lam * mod.loss_sum(d)))
    t = _rebuilt(mod.gaussian_vector_mgf, parts=(Part("main", eq(lhs, wrong), proof=Chain(lhs).eq(wrong, algebra()),
                                                      ground_truth=mod.gaussian_vector_mgf.parts[0].ground_truth),))
    assert symbolic_check(t).status not in HOLDS
    assert numeric_check(t).status == "failed"


def test_the_dimension_is_a_positive_integer():
    assert mod.theorem.variables[mod.dim] == naturals(sample_lo=1, sample_hi=6)
    assert mod.theorem.parts[0].relation == le(Expect(sp.exp(lam * mod.L)), sp.exp(lam * (lam + 1) * mod.RHO))


def test_the_loss_is_a_different_random_variable_at_each_noise_scale():
    """Red-team regression: when σ was a variable of the definitions but not an argument of S, the axioms gave S_1
    two values (a Z_1/σ + a²/(2σ²) at σ = 1 and at σ = 2), and e^{a²} = e^{a²/4} was proved."""
    a = mod.mu_vec(1) - mod.nu_vec(1)

    def mgf_at(s):
        start = Expect(sp.exp(mod.S_vec(1, s)))
        return Part(f"at_{s}", eq(start, sp.exp(a ** 2 / s ** 2)), proof=Chain(start)
                    .eq(Expect(sp.exp(mod._coordinate_loss(1).subs(sigma, s))),
                        by(mod.loss_sum_start, sigma=s, inside=lambda w: Expect(sp.exp(w))))
                    .eq(sp.exp(a ** 2 / s ** 2), by(mod.coordinate_normal_mgf, t=a / s, c=a ** 2 / (2 * s ** 2), j=1)))

    one, two = mgf_at(sp.Integer(1)), mgf_at(sp.Integer(2))
    main = Part("main", eq(sp.exp(a ** 2), sp.exp(a ** 2 / 4)), proof=Chain(sp.exp(a ** 2))
                .eq(Expect(sp.exp(mod.S_vec(1, 1))), by(one)).eq(sp.exp(a ** 2 / 4), by(two)))
    t = Theorem(name="two_scales", reference="", source="t", title="t", variables={},
                sequences={mod.mu_vec: real(), mod.nu_vec: real()}, parts=(one, two, main))
    statuses = [p.status for p in symbolic_check(t).parts]
    assert statuses[:2] == ["proved", "proved"] and statuses[2] not in HOLDS


def test_a_definition_of_a_random_term_must_name_its_variables():
    import pytest

    from cdpsym.errors import ProofError
    from cdpsym.proof import Axiom, register_axioms

    bad = Axiom(name="loose_definition", title="t", citation="t", relation=eq(mod.S_vec(1, 1), mod.Z_vec(1) / sigma),
                variables={sigma: positive()})
    with pytest.raises(ProofError, match="does not name"):
        register_axioms(bad)
