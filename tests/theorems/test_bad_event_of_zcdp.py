"""bad_event_of_zcdp (R-D7): the bound at a fixed order (via rdp_probability_preservation) and its optimum over
the order (specialised at the minimiser, with g' = 0 and g'' > 0 checked) are proved; mutants fail; the
minimiser is not accepted outside its domain; the hypotheses are needed."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import q, rho
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Prob
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, symbolic_check
from cdpsym.proof.kernel import Specialize
from cdpsym.verify.numeric import numeric_check

be = importlib.import_module("theorems.bad_event_of_zcdp")
beta, EVENT = be.beta, be.EVENT


def test_both_proved():
    for thm in (be.at_order, be.theorem):
        report = thm.verify(property_examples=5)
        assert report.verdict == "proved", report
        assert report.checks["symbolic"]["kernel_rules"] == []
        assert report.checks["numeric"]["status"] == "passed"
    methods = [s["method"] for s in be.theorem.verify(property_examples=1).checks["symbolic"]["steps"]]
    assert "specialize" in methods


def test_statements():
    (part,) = be.at_order.parts
    assert part.relation.lhs == Prob(EVENT)
    assert part.relation.rhs == sp.exp(beta * rho) * q ** (beta / (1 + beta))
    main = be.theorem.part("main")
    assert main.relation.rhs == sp.exp(-(sp.sqrt(sp.log(1 / q)) - sp.sqrt(rho)) ** 2)
    assert [h.name for h in be.theorem.hypotheses] == ["zcdp", "event_mass"]
    assert be.theorem.variables[q].hi == sp.exp(-rho)


def test_reference_slide_values():
    # REFERENCE N14/N15: q = 1e-10, rho = 1/2; alpha = 2: e^rho 1e-5; alpha = 10: e^{9 rho} 1e-9; optimum 5.37e-8
    f = sp.lambdify((beta, rho, q), be.AT_ORDER, "mpmath")
    g = sp.lambdify((rho, q), be.OPTIMUM, "mpmath")
    with mpmath.workdps(30):
        qq, r = mpmath.mpf("1e-10"), mpmath.mpf("0.5")
        assert abs(f(1, r, qq) / (mpmath.e ** r * mpmath.mpf("1e-5")) - 1) < 1e-12
        assert abs(f(9, r, qq) / (mpmath.e ** (9 * r) * mpmath.mpf("1e-9")) - 1) < 1e-12
        assert abs(g(r, qq) - mpmath.mpf("5.3707643659913e-8")) < 1e-20
        alpha_star = 1 + sp.lambdify((rho, q), be.BETA_STAR, "mpmath")(r, qq)
        assert abs(alpha_star - mpmath.sqrt(mpmath.log(1 / qq) / r)) < 1e-25 and abs(alpha_star - 6.786) < 1e-3
        # the optimum is below every fixed order on a grid
        assert all(g(r, qq) <= f(mpmath.mpf(b_) / 10, r, qq) for b_ in range(1, 200))
        assert be._gaussian_event(None, r, qq) < g(r, qq)  # 4.13e-8 <= 5.37e-8


@pytest.mark.parametrize("name, mutant", be.mutants())
def test_mutants_fail(name, mutant):
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


@pytest.mark.parametrize("drop", ["zcdp", "event_mass"])
def test_hypotheses_are_needed(drop):
    for thm in (be.at_order, be.theorem):
        hyps = tuple(h for h in thm.hypotheses if h.name != drop)
        assert symbolic_check(thm.with_changes(hypotheses=hyps)).status != "proved"


def _optimum_with(value, q_domain, minimizes=True, rho_domain=None):
    g = beta * rho - beta / (1 + beta) * be.ELL
    target = sp.exp(g.subs(beta, value))
    proof = (Chain(Prob(EVENT), variables={beta: be.at_order.variables[beta]})
             .le(be.AT_ORDER, by(be.at_order, given={"q": be.q_in_unit()}))
             .eq(sp.exp(g), algebra())
             .eq(target, Specialize(beta, value, g if minimizes else None)))
    return Theorem(name="adversarial_bad_event", reference="-", source="-", title="-",
                   variables={rho: rho_domain or be.theorem.variables[rho], q: q_domain},
                   hypotheses=be.theorem.hypotheses,
                   parts=(Part("main", le(Prob(EVENT), target), proof=proof),))


def test_a_wrong_minimiser_is_refused():
    # β = log(1/q)/ρ − 1 is a valid order but not the minimiser: the optimality check g' = 0 fails
    thm = _optimum_with(be.ELL / rho - 1, be.theorem.variables[q])
    result = symbolic_check(thm)
    steps = result.parts[0].steps
    assert [s.status for s in steps[:2]] == ["proved", "proved"]
    assert steps[2].status == "failed" and "optimality" in steps[2].detail


def test_the_minimiser_outside_the_order_domain_is_refused():
    # for q in (1/2, 1) and rho > 1 (so q > e^{-rho}) the minimiser would be an order below 1 (β* < 0)
    from cdpsym.expr import greater_than
    thm = _optimum_with(be.BETA_STAR, Interval(sp.Rational(1, 2), sp.S.One, True, True), rho_domain=greater_than(1))
    result = symbolic_check(thm)
    assert result.status == "failed"
    assert "outside" in result.parts[0].steps[2].detail
