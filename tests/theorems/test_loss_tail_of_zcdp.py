"""loss_tail_of_zcdp (R-C3, BS16 §3): Pr[L > t] <= exp(-(t-ρ)²/(4ρ)) for t > ρ under ρ-zCDP, and the (ξ, ρ)
lemma; exact Gaussian tails as ground truth (N12); unsafe variants, a dropped hypothesis and t <= ρ fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import L, rho, t, xi
from cdpsym.expr.domains import greater_than, positive
from cdpsym.expr.operators import Prob
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check

mod = importlib.import_module("theorems.loss_tail_of_zcdp")


@pytest.fixture(scope="module")
def report():
    return mod.theorem.verify(property_examples=15)


def test_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    steps = report.checks["symbolic"]["steps"]
    assert [s["method"] for s in steps] == ["by:markov_exponential", "by:zcdp", "algebra", "specialize"]
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_xi_lemma_is_proved():
    assert mod.xi_theorem.verify(property_examples=15).verdict == "proved"


def test_statement_shape_and_hypothesis_is_the_conversion_one():
    from theorems.approx_dp_of_zcdp import zcdp

    (part,) = mod.theorem.parts
    assert part.relation.lhs == Prob(sp.StrictGreaterThan(L, t)) and part.relation.op == "<="
    assert part.relation.rhs == sp.exp(-(t - rho) ** 2 / (4 * rho))
    assert mod.theorem.hypotheses == (zcdp,)  # the same object approx_dp_of_zcdp assumes
    assert mod.theorem.variables[t].lo == rho and mod.theorem.variables[t].left_open


def test_reference_n12_values():
    # R-C3 / N12: (rho, t) = (0.5, 3): exact Gaussian tail 0.00621 <= bound 0.0439
    with mpmath.workdps(30):
        (_, truth), = mod._tail_truth({rho: mpmath.mpf("0.5"), t: mpmath.mpf(3)}, 30)
        assert mpmath.nstr(truth, 3) == "0.00621"
        assert mpmath.nstr(mpmath.exp(-mpmath.mpf("2.5") ** 2 / 2), 3) == "0.0439"


def test_gaussian_witness_is_the_exact_tail_of_the_mechanism():
    # the ground truth's Φ̄((t-ρ)/√(2ρ)) against a quadrature of the loss law of N(0,1) vs N(Δ,1), Δ = √(2ρ)
    with mpmath.workdps(30):
        r, level = mpmath.mpf("0.3"), mpmath.mpf("1.7")
        d = mpmath.sqrt(2 * r)
        loss = lambda y: ((y - d) ** 2 - y ** 2) / 2  # log φ(y)/φ(y - Δ) at y ~ N(0, 1): P = N(0,1), Q = N(Δ,1)
        cut = mpmath.findroot(lambda y: loss(y) - level, -3)
        quad = mpmath.quad(lambda y: mpmath.npdf(y), [-mpmath.inf, cut])  # the loss decreases in y
        (_, truth), = mod._tail_truth({rho: r, t: level}, 30)
        assert abs(quad - truth) < mpmath.mpf(10) ** -25


@pytest.mark.parametrize("label, mutant", mod.mutants(), ids=[m[0] for m in mod.mutants()])
def test_mutants_fail_symbolically_and_numerically(label, mutant):
    assert mutant.name in (mod.theorem.name, mod.xi_theorem.name)
    assert symbolic_check(mutant).status == "failed"
    assert numeric_check(mutant).status == "failed"


def test_the_lemma_has_its_own_mutants():
    assert sum(m.name == mod.xi_theorem.name for _, m in mod.mutants()) == 2


def test_the_hypothesis_is_needed():
    bare = mod.theorem.with_changes(name="loss_tail_no_zcdp", hypotheses=())
    result = symbolic_check(bare)
    assert result.status == "failed"
    bad = [s for p in result.parts for s in p.steps if s.status == "failed"]
    assert [s.method for s in bad] == ["by:zcdp"]


def test_the_domain_t_greater_than_rho_is_needed():
    # for t <= rho the minimiser alpha* = (t + rho)/(2 rho) is not > 1: the specialisation is refused
    wide = mod.theorem.with_changes(name="loss_tail_wide", variables={rho: mod.theorem.variables[rho],
                                                                          t: positive(sample_hi=80)})
    result = symbolic_check(wide)
    assert result.status in ("failed", "supported")
    assert any(s.method == "specialize" and s.status != "proved" for p in result.parts for s in p.steps)
    # and the widened statement is false: rho = 2, t = 0.1, Gaussian tail 0.83 > exp(-(1.9)^2/8) = 0.64
    with mpmath.workdps(30):
        (_, truth), = mod._tail_truth({rho: mpmath.mpf(2), t: mpmath.mpf("0.1")}, 30)
        assert truth > mpmath.exp(-mpmath.mpf("1.9") ** 2 / 8)


def test_xi_variant_needs_t_above_xi_plus_rho():
    lem = mod.xi_theorem
    wide = lem.with_changes(name="loss_tail_xi_wide", variables={rho: lem.variables[rho], xi: lem.variables[xi],
                                                                 t: greater_than(rho)})
    result = symbolic_check(wide)
    assert result.status in ("failed", "supported")
    assert any(s.method == "specialize" and s.status != "proved" for p in result.parts for s in p.steps)
