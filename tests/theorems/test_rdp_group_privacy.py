"""rdp_group_privacy (R-D8, M17 Prop 2): proved for every c >= 1 (the group bound by induction on the links)."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, alpha, at_least, eps, s
from cdpsym.expr.operators import Expect
from cdpsym.errors import ProofError
from cdpsym.proof import Chain, Part, Theorem, by, le, symbolic_check
from cdpsym.verify.numeric import numeric_check

grp = importlib.import_module("theorems.rdp_group_privacy")  # the module (theorems.<name> is the Theorem)
make, G, ell, rdp, c = grp.make, grp.G, grp.ell, grp.rdp, grp.c

CHAIN_AXIOMS = {"young_expectation", "expectation_affine", "group_loss_one", "group_loss_step", "chain_base_measure",
                "chain_change_of_measure"}


@pytest.fixture(scope="module")
def report():
    return grp.theorem.verify(property_examples=10)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    sym = report.checks["symbolic"]
    assert all(p["status"] == "proved" for p in sym["parts"])
    assert set(sym["trusted_axioms"]) == CHAIN_AXIOMS  # no axiom of its own: monotonicity in the order is proved
    assert sym["kernel_rules"] == ["induction", "member"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_is_mironov_prop_2_for_every_c():
    kk = 2 ** c
    thm = grp.theorem
    main = thm.part("main").relation
    assert main.op == "<="
    assert main.lhs == Expect(sp.exp((alpha / kk - 1) * G(kk)))  # e^{(β−1)D_β} at β = α/2^c, distance 2^c
    assert sp.simplify(sp.log(main.rhs) - (alpha / kk - 1) * 3 ** c * eps) == 0  # D_β <= 3^c ε
    assert thm.variables[c].describe() == grp.naturals().describe()  # every c >= 1, not a fixed one
    dom = thm.variables[alpha]
    assert (dom.lo, dom.left_open, dom.hi) == (2 ** (c + 1), False, sp.oo)  # α >= 2^{c+1}
    assert thm.hypotheses == (rdp,)
    assert rdp.relation.lhs == Expect(sp.exp((alpha - 1) * L)) and rdp.relation.rhs == sp.exp((alpha - 1) * eps)


def test_the_group_bound_is_an_induction_over_the_links_below_alpha():
    group = grp.theorem.part("group")
    k = grp.k
    assert group.variables[k].describe() == grp.Interval(sp.S.One, alpha, False, True, True).describe()
    assert type(group.proof.steps[0].why).__name__ == "Induction"
    # at k = 2 it is Mironov's intermediate bound (2α − 3)/(α − 2) ε, in exponent form (α/2 − 1) D <= (α − 3/2) ε
    rhs = group.relation.rhs.subs(k, 2)
    assert sp.simplify(sp.log(rhs) / (alpha / 2 - 1) - (2 * alpha - 3) / (alpha - 2) * eps) == 0
    # the step's Hölder exponent is (k + 1)/k: p = 2 at the first step, M17's split
    step = group.proof.steps[0].why.step
    young = [st.why for st in step.steps if getattr(st.why, "fact", None) is grp.young_expectation]
    assert len(young) == 1 and sp.simplify(young[0].inst["p_H"].subs(k, 1) - 2) == 0


def test_the_growth_lemma_is_proved():
    res = symbolic_check(grp.three_halves_power_growth)
    assert res.status == "proved" and "induction" in res.rules


def test_mutants_fail_symbolically_and_numerically():
    assert len(grp.mutants()) >= 2
    for name, mutant in grp.mutants():  # (the full mutant.verify() runs in test_mutants, marked slow)
        assert symbolic_check(mutant).status not in ("proved", "certified"), name
        chk = numeric_check(mutant)
        assert chk.status == "failed" and any(not cmp.ok for cmp in chk.comparisons), name


# -- ground truths -------------------------------------------------------------------------------------------------

def test_ground_truths_against_definitions():
    with mpmath.workdps(40):
        a, e, kk = mpmath.mpf(6), mpmath.mpf("0.7"), 4
        b = a / kk
        # Gaussian: the chain's end points are N(0, 1), N(kΔ, 1) with αΔ²/2 = ε; D_β = β(kΔ)²/2 (test-only closed form)
        d2 = kk ** 2 * 2 * e / a
        assert abs(grp.gaussian_chain_mgf(b, a, e, kk) - mpmath.exp((b - 1) * b * d2 / 2)) < mpmath.mpf(10) ** -30
        # binary: every link has D_α <= ε, the worst one = ε
        th = grp.binary_chain_theta(a, e, kk)
        links = [mpmath.log(grp.binary_chain_mgf(a, th, 1)) / (a - 1)]
        p = lambda n: 1 / (1 + mpmath.exp(-n * th))
        for n in range(kk):
            links.append(mpmath.log(p(n) ** a * p(n + 1) ** (1 - a) + (1 - p(n)) ** a * (1 - p(n + 1)) ** (1 - a))
                         / (a - 1))
        assert max(links) <= e * (1 + mpmath.mpf(10) ** -30) and abs(max(links) - e) < mpmath.mpf(10) ** -25


def test_the_binary_mechanism_exceeds_2_eps():
    # why the factor cannot be 2^c: c = 1, α = 4, ε = 1 gives D_2 ≈ 2.19 ε (the docstring's example)
    with mpmath.workdps(30):
        a, e = mpmath.mpf(4), mpmath.mpf(1)
        d2 = mpmath.log(grp.binary_chain_mgf(2, grp.binary_chain_theta(a, e, 2), 2))  # (β − 1) = 1 at β = 2
        assert 2.18 < d2 < 2.2 and d2 > 2 * e


# -- adversarial ---------------------------------------------------------------------------------------------------

def test_without_the_hypothesis_nothing_is_proved():
    assert symbolic_check(grp.theorem.with_changes(hypotheses=())).status != "proved"


def test_dropping_the_order_condition_gives_a_false_statement():
    # α > 1 instead of α >= 2^{c+1}: at c = 1, α = 1.5 (order 3/4) the Gaussian mechanism violates the bound
    with mpmath.workdps(30):
        a, e = mpmath.mpf("1.5"), mpmath.mpf(1)
        assert grp.gaussian_chain_mgf(a / 2, a, e, 2) > mpmath.exp((a / 2 - 1) * 3 * e)
    # and the theorem with that domain is refused where it is built: the links k < α − 1 may be none
    with pytest.raises(ProofError):
        make(alpha_domain=at_least(sp.Rational(11, 10), sample_lo=1.1, sample_hi=64, log_scale=True))


def test_below_alpha_2_to_the_c_plus_1_the_exponent_step_is_refused():
    # at c = 1 the link-by-link bound (2α − 3)/(α − 2) ε exceeds 3ε for α < 3: the sign step must not pass with
    # α >= 2^c + 1/2
    thm = make(alpha_domain=at_least(2 ** c + sp.Rational(1, 2), sample_lo=2.5, sample_hi=64),
               points=({"c": "1", "alpha": "4", "eps": "1", "s": "1", "k": "2"},))
    res = symbolic_check(thm)
    assert res.status not in ("proved", "certified")
    assert [p.name.split(".")[-1] for p in res.parts if p.status != "proved"] == ["exponent", "main"]


def _one_part(relation, proof, name="adversarial_rdp_group"):
    return Theorem(name=name, reference="-", source="-", title="adversarial",
                   variables=dict(grp.theorem.variables), hypotheses=grp.theorem.hypotheses,
                   parts=(Part("main", relation, proof=proof),))


def test_lower_order_is_not_read_above_the_order(report):
    # D_β <= ε for β < α only: s = −1/2 would claim D_{2α−1} <= ε
    lower = grp.theorem.part("lower_order")
    high = (alpha - 1) / (1 + s)
    start = Expect(sp.exp(high.subs(s, -sp.Rational(1, 2)) * L))
    end = sp.exp(high.subs(s, -sp.Rational(1, 2)) * eps)
    thm = _one_part(le(start, end), Chain(start).le(end, by(lower, s=-sp.Rational(1, 2))))
    assert symbolic_check(thm).status == "failed"


def test_a_group_bound_is_not_read_at_a_link(report):
    # the group bound is about the chain (G_2), not about the canonical pair: it cannot be read at a link
    group = grp.theorem.part("group")
    from cdpsym.expr.operators import ExpectAt
    start = ExpectAt(sp.exp((alpha / 2 - 1) * G(2)), 1)
    end = group.relation.rhs.subs(grp.k, 2)
    thm = _one_part(le(start, end), Chain(start).le(end, by(group, k=2, at_link=1)))
    assert symbolic_check(thm).status != "proved"


def test_the_group_bound_does_not_follow_from_one_link_alone(report):
    # citing the first link's bound for the two-link chain: G_2 is not ℓ_1
    group = grp.theorem.part("group")
    start = Expect(sp.exp((alpha - 1) * G(2)))
    end = group.relation.rhs.subs(grp.k, 1)
    thm = _one_part(le(start, end), Chain(start).le(end, by(group, k=1)))
    assert symbolic_check(thm).status != "proved"


def test_the_group_bound_is_not_read_at_or_above_the_order():
    # k < α: at k = α the order α/k is 1 (and the step's link order α − k below 1); at k = ⌈α⌉ beyond it
    group = grp.theorem.part("group")
    for kk in (alpha, 2 ** (c + 1), 2 ** (c + 2)):
        start, end = group.relation.lhs.subs(grp.k, kk), group.relation.rhs.subs(grp.k, kk)
        thm = _one_part(le(start, end), Chain(start).le(end, by(group, k=kk)))
        assert symbolic_check(thm).status not in ("proved", "certified"), kk


def test_the_induction_does_not_run_past_alpha():
    # the same chain over all k >= 1 (no bound k < α) must not be proved: the step needs the link order α − k > 1
    group = grp.theorem.part("group")
    k = grp.k
    bad = Part("group", group.relation, variables={k: grp.naturals()}, proof=group.proof)
    thm = Theorem(name="rdp_group_all_k", reference="-", source="-", title="adversarial",
                  variables=dict(grp.theorem.variables), hypotheses=grp.theorem.hypotheses,
                  parts=(grp.theorem.part("lower_order"), grp.theorem.part("order"), bad))
    res = symbolic_check(thm)
    assert res.status not in ("proved", "certified")
