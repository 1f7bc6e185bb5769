"""zcdp_group_privacy (R-C8, BS16 Prop 1.9): k²ρ proved by induction on k at fixed κ = k(α − 1); tight."""

from __future__ import annotations

import dataclasses
import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, k, lam, rho, s
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, by, induction, le, symbolic_check

grp = importlib.import_module("theorems.zcdp_group_privacy")  # the module (theorems.<name> is the Theorem)
make, G, ell, kappa = grp.make, grp.G, grp.ell, grp.kappa




@pytest.fixture(scope="module")
def report():
    return grp.theorem.verify(property_examples=10)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    sym = report.checks["symbolic"]
    assert all(p["status"] == "proved" for p in sym["parts"])
    assert set(sym["trusted_axioms"]) == {"expectation_affine", "group_loss_one", "group_loss_step",
                                          "chain_base_measure", "chain_change_of_measure", "young_expectation"}
    assert sym["kernel_rules"] == ["induction", "member"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_the_gaussian_mechanism_is_tight(report):
    comps = report.checks["numeric"]["comparisons"]
    assert comps and all(c["digits"] is not None and c["digits"] >= 45 for c in comps)


def test_statement_shape():
    main = grp.theorem.part("main").relation
    assert main.lhs == Expect(sp.exp(s * G(k))) and main.op == "<="
    assert sp.simplify(sp.log(main.rhs) - s * (s + 1) * k ** 2 * rho) == 0
    scaled = grp.theorem.part("scaled").relation
    assert scaled.lhs == Expect(sp.exp(kappa * G(k) / k))
    assert [h.name for h in grp.theorem.hypotheses] == ["zcdp"]
    assert grp.theorem.hypotheses[0].relation.lhs == Expect(sp.exp(lam * L))


def test_the_induction_orders_line_up():
    # the step at group size k+1 and order 1 + κ/(k+1) needs order ((k+1)α' − 1)/k = 1 + κ/k at size k
    kk, kap = sp.symbols("kk kap", positive=True)
    alpha_next = 1 + kap / (kk + 1)
    assert sp.simplify(((kk + 1) * alpha_next - 1) / kk - (1 + kap / kk)) == 0
    # Hölder's p times the order is that order; (β − 1) of the link is q(α' − 1) = k + κ
    p_ = grp._P.subs({k: kk, kappa: kap})
    q_ = grp._Q.subs({k: kk, kappa: kap})
    assert sp.simplify(p_ * alpha_next - (1 + kap / kk)) == 0
    assert sp.simplify(q_ * (alpha_next - 1) - (kk + kap)) == 0


def test_mutants_fail_symbolically_and_numerically():
    for name, mutant in grp.mutants():
        assert symbolic_check(mutant).status == "failed", name
        rep = mutant.verify(property_examples=5)
        assert rep.verdict == "failed", name
        assert rep.checks["numeric"]["status"] == "failed", name


def test_linear_group_privacy_is_false_for_the_gaussian():
    # REFERENCE N43: k = 3, α = 2 (s = 1), ρ = 1/2: D_2 = 9 against the linear claim 3
    with mpmath.workdps(30):
        mgf = grp.gaussian_group_mgf(mpmath.mpf(1), 3, mpmath.mpf("0.5"))
        assert abs(mpmath.log(mgf) - 9) < mpmath.mpf(10) ** -20  # (α − 1)D_α = s(s+1)k²ρ = 9


# -- adversarial ---------------------------------------------------------------------------------------------------

def test_without_the_hypothesis_nothing_is_proved():
    assert symbolic_check(grp.theorem.with_changes(hypotheses=())).status != "proved"


def _link_theorem(rhs, why):
    return Theorem(name="adversarial_link", reference="-", source="-", title="adversarial",
                   variables=dict(grp.theorem.variables), hypotheses=grp.theorem.hypotheses,
                   parts=(Part("main", le(grp._AT_LINK, rhs), proof=Chain(grp._AT_LINK).le(rhs, why)),))


def test_the_link_needs_the_hypothesis_at_the_right_order_and_link():
    assert symbolic_check(_link_theorem(grp._B, by(grp.zcdp, lam=k + kappa, at_link=k + 1))).status == "proved"
    # the hypothesis at λ = κ, or read at the link k instead of k + 1, does not bound the link's MGF at λ = k + κ
    assert symbolic_check(_link_theorem(grp._B, by(grp.zcdp, lam=kappa, at_link=k + 1))).status != "proved"
    assert symbolic_check(_link_theorem(grp._B, by(grp.zcdp, lam=k + kappa, at_link=k))).status != "proved"
    # nor the composition game's step k + 1 (a different member)
    assert symbolic_check(_link_theorem(grp._B, by(grp.zcdp, lam=k + kappa, at_step=k + 1))).status != "proved"


def test_a_link_bound_naming_the_pair_is_not_proved():
    bad = Expect(sp.exp(lam * L)).subs(lam, k + kappa)
    assert symbolic_check(_link_theorem(bad, by(grp.zcdp, lam=k + kappa, at_link=k + 1))).status != "proved"


def test_the_change_of_measure_goes_one_way():
    # E_{M(x_k)}[Y] <= E_{M(x_0)}[e^{-G_k} Y] is not the change of measure (mass of M(x_k) off the support of M(x_0))
    y = sp.exp((k + kappa) * ell(k + 1))
    thm = Theorem(name="adversarial_measure", reference="-", source="-", title="adversarial",
                  variables=dict(grp.theorem.variables), hypotheses=grp.theorem.hypotheses,
                  parts=(Part("main", le(grp._AT_LINK, grp._LINK),
                              proof=Chain(grp._AT_LINK).le(grp._LINK, by(grp.chain_change_of_measure, i=k, Y_1=y))),))
    assert symbolic_check(thm).status != "proved"


def test_an_induction_claiming_linear_growth_is_refused():
    # the same step chain cannot close (k+1)κ... with the bound e^{κ(1 + κ)kρ}: the final algebra fails
    lin = lambda n: sp.exp(kappa * (1 + kappa) * n * rho)
    base = grp.theorem.part("scaled").proof.steps[0].why.base
    thm = Theorem(name="adversarial_linear", reference="-", source="-", title="adversarial",
                  variables=dict(grp.theorem.variables), hypotheses=grp.theorem.hypotheses,
                  parts=(Part("main", le(grp._mgf(k), lin(k)),
                              proof=Chain(grp._mgf(k)).le(lin(k), induction(k, base, grp._step()))),))
    assert symbolic_check(thm).status == "failed"


def test_an_unregistered_copy_of_the_change_of_measure_is_not_trusted():
    copy = dataclasses.replace(grp.chain_change_of_measure)
    y = sp.exp((k + kappa) * ell(k + 1))
    thm = Theorem(name="adversarial_measure", reference="-", source="-", title="adversarial",
                  variables=dict(grp.theorem.variables), hypotheses=grp.theorem.hypotheses,
                  parts=(Part("main", le(grp._LINK, grp._AT_LINK),
                              proof=Chain(grp._LINK).le(grp._AT_LINK, by(copy, i=k, Y_1=y))),))
    assert symbolic_check(thm).status == "supported"
