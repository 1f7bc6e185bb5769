"""zcdp_of_pure_dp_sharp (R-C6 sharp): ε-DP ⇒ ε tanh(ε/2)-zCDP proved with the monotone rule; mutants fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, eps, lam, positive, t, u
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, by, le, monotone, symbolic_check

sharp = importlib.import_module("theorems.zcdp_of_pure_dp_sharp")  # the module (theorems.<name> is the Theorem)
make, th = sharp.make, sharp.th


@pytest.fixture(scope="module")
def report():
    return sharp.theorem.verify(property_examples=30)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    checks = report.checks
    assert [p["status"] for p in checks["symbolic"]["parts"]] == ["proved"] * 3
    assert set(checks["symbolic"]["trusted_axioms"]) == {"exp_chord_bound", "expectation_affine", "kl_is_mean_loss"}
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"


@pytest.mark.parametrize("lemma", ["tanh_sublinear", "randomized_response_log_mgf_sharp"])
def test_the_lemmas_are_proved_with_the_monotone_rule_and_no_axiom(lemma):
    thm = getattr(sharp, lemma)
    rep = thm.verify(property_examples=20)
    assert rep.verdict == "proved", rep
    assert rep.checks["symbolic"]["trusted_axioms"] == []
    result = symbolic_check(thm)
    methods = {s.method for p in result.parts for s in p.steps}
    assert "monotone" in methods


def test_the_lemmas_are_registered_before_the_theorem():
    import theorems

    names = [x.name for x in theorems.LIBRARY]
    i = names.index("zcdp_of_pure_dp_sharp")
    assert names[i - 2:i] == ["tanh_sublinear", "randomized_response_log_mgf_sharp"]
    assert names.index("zcdp_of_pure_dp") < i and names.index("kl_of_pure_dp") < i


def test_statement_is_the_zcdp_mgf_form_with_rho_eps_tanh():
    rel = sharp.theorem.part("main").relation
    assert rel.lhs == Expect(sp.exp(lam * L)) and rel.op == "<="
    want = sp.exp(lam * (lam + 1) * eps * sp.tanh(eps / 2))
    for e, lm in ((0.3, 0.7), (2.0, 5.0), (6.0, 0.01)):
        assert abs(float(rel.rhs.subs({eps: e, lam: lm})) - float(want.subs({eps: e, lam: lm}))) < 1e-9 * float(
            want.subs({eps: e, lam: lm}))
    assert [h.name for h in sharp.theorem.hypotheses] == ["pure_dp", "same_support"]
    assert sharp.theorem.variables[lam].describe() == positive().describe()


def test_the_notion_text_ties_to_the_statement():
    from cdpsym.claims import semantics
    from cdpsym.claims.language import parse_claim

    thm = sharp.theorem
    claim = parse_claim(thm.notion)
    assert semantics.statement_mismatch(semantics.Schema(thm, claim.subject, claim.target, dict(thm.variables))) is None


def test_randomized_response_is_tight_as_lambda_goes_to_zero():
    # log E e^{λL} / (λ(λ+1)ρ*) -> 1 as λ -> 0 for randomized response: no smaller ρ works (R-C6, N47)
    with mpmath.workdps(40):
        for e in ("0.1", "1", "4"):
            e = mpmath.mpf(e)
            rho_star = e * mpmath.tanh(e / 2)
            lm = mpmath.mpf(10) ** -12
            log_mgf = sharp._rr_log_mgf_truth({eps: e, lam: lm}, 40)[0][1]
            assert abs(log_mgf / (lm * (lm + 1) * rho_star) - 1) < mpmath.mpf(10) ** -10


def test_mutants_fail_symbolically_and_numerically():
    for name, mutant in sharp.mutants():
        result = symbolic_check(mutant)
        assert result.status == "failed", name
        rep = mutant.verify(property_examples=10)
        assert rep.verdict == "failed", name
        assert rep.checks["numeric"]["status"] == "failed", name


# -- adversarial: the monotone rule must not prove false one-variable inequalities --------------------------------

def _lemma(relation, proof, variables):
    return Theorem(name="adversarial_tanh", reference="-", source="-", title="adversarial", variables=variables,
                   parts=(Part("main", relation, proof=proof),))


def test_tanh_superlinear_direction_is_refused():
    # u tanh(t) <= tanh(ut) is false for u > 1
    bad = _lemma(le(u * th(t), th(u * t)), Chain(u * th(t)).le(th(u * t), monotone(t)),
                 {t: positive(), u: sharp._U_DOMAIN[u]})
    assert symbolic_check(bad).status != "proved"


def test_the_sublinear_lemma_for_u_below_one_is_refused():
    # for 0 < u < 1 the inequality reverses: the lemma's domain u >= 1 is required
    from cdpsym.expr import Interval

    bad = _lemma(le(th(u * t), u * th(t)),
                 Chain(th(u * t)).le(u * th(t), monotone(t, by(sharp.tanh_sublinear.part("increasing"), u=u, t=t,
                                                               inside=lambda w: u * (w - th(t)) * (w + th(t))))),
                 {t: positive(), u: Interval(sp.Rational(1, 10), sp.S.One, False, True)})
    assert symbolic_check(bad).status != "proved"


def test_the_kearns_saul_slope_cannot_be_cited_for_a_smaller_rho():
    G = sharp.G
    rho = sharp.RHO_STAR * sp.Rational(9, 10)
    bad = Theorem(name="adversarial_rr", reference="-", source="-", title="adversarial",
                  variables={eps: positive(), lam: positive()},
                  parts=(Part("main", le(G, lam * (lam + 1) * rho),
                              proof=Chain(G).le(lam * (lam + 1) * rho,
                                                monotone(lam, by(sharp.randomized_response_log_mgf_sharp
                                                                 .part("slope"))))),))
    assert symbolic_check(bad).status == "failed"


def test_without_the_hypotheses_nothing_is_proved():
    for drop in ("pure_dp", "same_support"):
        thm = sharp.theorem.with_changes(
            hypotheses=tuple(h for h in sharp.theorem.hypotheses if h.name != drop))
        assert symbolic_check(thm).status != "proved", drop


def test_the_sharp_constant_is_below_bs16():
    with mpmath.workdps(30):
        for e in ("0.001", "0.5", "3", "20"):
            e = mpmath.mpf(e)
            assert e * mpmath.tanh(e / 2) <= e ** 2 / 2
