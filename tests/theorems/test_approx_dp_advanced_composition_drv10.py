"""approx_dp_advanced_composition_drv10 (R-F3, DRV10 Thm III.3, pure case): proved from R-B1 at a smaller slack
δ'' plus a comparison of the bounds; lowered mean terms fail; N19 value; the comparison steps are honest."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import delta_p, eps, k
from cdpsym.expr.operators import HockeyStick
from cdpsym.mechanisms import optimal_composition_delta
from cdpsym.proof import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk

mod = importlib.import_module("theorems.approx_dp_advanced_composition_drv10")


@pytest.fixture(scope="module")
def report():
    return mod.theorem.verify(property_examples=10)


def test_proved_by_all_three_checks_citing_r_b1(report):
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert "approx_dp_advanced_composition" in symbolic["cites"]
    assert [p["status"] for p in symbolic["parts"]] == ["proved"] * 5
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_is_reference_r_f3():
    main = mod.theorem.part("main").relation
    expected = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + k * eps * (sp.exp(eps) - 1)
    assert main.lhs == HockeyStick(expected, Pk(k), Qk(k)) and main.op == "<=" and main.rhs == delta_p
    assert [h.name for h in mod.theorem.hypotheses] == ["pure_dp", "same_support", "compensated_losses"]


def test_the_smaller_slack_is_below_delta_prime():
    with mpmath.workdps(30):
        for kk, e, d in ((1, "0.01", "0.9"), (100, "0.1", "1e-6"), (300, "3", "1e-15")):
            from cdpsym.expr.evaluate import MPContext, evaluate

            v = {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta_p: mpmath.mpf(d)}
            assert 0 < evaluate(mod._SMALLER_SLACK, v, MPContext(30)) < v[delta_p]


def test_reference_n19_value():
    # N19: k = 100, eps = 0.1, delta' = 1e-6: DRV10 gives 6.3082, the optimum is 4.7746
    with mpmath.workdps(30):
        e, d = mpmath.mpf("0.1"), mpmath.mpf("1e-6")
        e_prime = mpmath.sqrt(200 * mpmath.log(1 / d)) * e + 100 * e * mpmath.expm1(e)
        assert mpmath.nstr(e_prime, 5) == "6.3082"
        assert optimal_composition_delta(e_prime, [e] * 100, dps=30) < d


@pytest.mark.parametrize("label, mutant", mod.mutants(), ids=[m[0] for m in mod.mutants()])
def test_mutants_fail_symbolically_and_numerically(label, mutant):
    assert symbolic_check(mutant).status == "failed"
    bad = [c for c in numeric_check(mutant).comparisons if not c.ok]
    # the guarantee itself is refuted by the exact optimum, not only the identity step
    assert any(c.part.endswith("main") for c in bad)


def test_the_comparison_needs_the_smaller_slack():
    # citing R-B1 directly at delta' (no comparison) cannot give the DRV10 argument: the step is refused
    from cdpsym.proof import Chain, Part, Theorem, by, le
    from theorems.approx_dp_advanced_composition import theorem as rb1

    start = mod.theorem.part("main").relation.lhs
    chain = Chain(start).le(delta_p, by(rb1, k=k, eps=eps, delta_p=delta_p))
    bogus = Theorem(name="drv10_direct", reference="R-F3", source="test", title="test",
                    variables=dict(mod.theorem.variables), hypotheses=mod.theorem.hypotheses,
                    parts=(Part("main", le(start, delta_p), proof=chain),))
    assert symbolic_check(bogus).status != "proved"


def test_exp_at_most_one_needs_a_nonnegative_argument():
    # the auxiliary step exp(-x) <= 1 is false for x < 0: widening its domain must not be proved
    from cdpsym.expr.domains import real

    from cdpsym.proof import Chain, Part, Theorem, le, monotone

    x = sp.Symbol("x", real=True)  # the module's x is a nonnegative symbol: a real domain is refused outright

    wide = Theorem(name="exp_le_one_wide", reference="R-F3", source="test", title="test", variables={},
                   parts=(Part("main", le(sp.exp(-x), 1), variables={x: real()},
                               proof=Chain(sp.exp(-x)).le(1, monotone(x))),))
    assert symbolic_check(wide).status == "failed"
