"""gaussian_approx_dp_classical (R-G2, DR14 Thm 3.22): certified on its boxes against the exact profile; the
failure region above eps*(1e-5) is certified too; unsafe calibrations and wider domains fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, eps_p, sensitivity
from cdpsym.expr.domains import Interval
from cdpsym.mechanisms import Gaussian
from cdpsym.proof import Chain, Part, interval, le, lt, symbolic_check
from cdpsym.verify.numeric import numeric_check
from cdpsym.verify.property import property_check

gc = importlib.import_module("theorems.gaussian_approx_dp_classical")
c = gc.c


def test_certified_with_all_checks():
    report = gc.theorem.verify(property_examples=10)
    assert report.verdict == "certified", report
    symbolic = report.checks["symbolic"]
    assert [s["method"] for s in symbolic["steps"]] == ["interval"] * 3
    assert symbolic["kernel_rules"] == ["interval"] and symbolic["trusted_axioms"] == []
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    main = gc.theorem.part("main")
    assert main.relation.op == "<=" and main.relation.rhs == sp.Rational(5, 4) * sp.exp(-c ** 2 / 2)
    assert main.relation.lhs.free_symbols == {eps, c}  # Delta cancels: the profile depends on Delta/sigma = eps/c
    dom = gc.theorem.variables[eps]
    assert (dom.lo, dom.hi, dom.left_open, dom.right_open) == (0, 1, True, True)  # DR14: 0 < eps < 1
    cdom = gc.theorem.variables[c]
    assert sp.simplify(cdom.lo - sp.sqrt(2 * sp.log(sp.Rational(5, 4)))) == 0 and cdom.left_open  # delta < 1
    fails = gc.theorem.part("fails_above")
    assert fails.relation.op == "<" and fails.relation.rhs == 0
    assert gc.theorem.notion == ""


def test_the_boundary_delta_is_the_classical_one():
    # c^2 = 2 log(1.25/delta)  <=>  delta = 1.25 exp(-c^2/2)
    d = sp.Symbol("d", positive=True)
    assert sp.simplify(gc.DELTA_OF_C.subs(c, sp.sqrt(2 * sp.log(sp.Rational(5, 4) / d))) - d) == 0


@pytest.mark.parametrize("name,thm", gc.mutants(), ids=[m[0] for m in gc.mutants()])
def test_mutants_fail(name, thm):
    assert symbolic_check(thm).status == "failed"
    assert numeric_check(thm).status == "failed"


def test_a_mutant_fails_verification_and_property():
    thm = gc.mutants()[0][1]
    assert property_check(thm, examples=10).status == "failed"
    assert thm.verify(property_examples=5).verdict == "failed"


# -- adversarial ---------------------------------------------------------------------------------------------

def _main_with(variables=None, box=None):
    thm = gc.theorem
    main = thm.part("main")
    proof = Chain(main.relation.lhs).le(main.relation.rhs, interval(box or {eps: (0, 1), c: (gc.C_BOX_LO, 12)}))
    parts = (Part("main", main.relation, proof=proof, ground_truth=main.ground_truth),)
    changes = {"parts": parts}
    if variables is not None:
        changes["variables"] = variables
    return thm.with_changes(**changes)


def test_dropping_eps_below_one_is_refuted():
    # the seeds' statement without eps < 1: false at eps = 10, delta = 1e-5 (c = 4.84)
    variables = dict(gc.theorem.variables)
    variables[eps] = Interval.open(0, 12)
    result = symbolic_check(_main_with(variables, {eps: (0, 12), c: (gc.C_BOX_LO, 12)}))
    assert result.status not in ("proved", "certified")
    # on a box around REFERENCE's counterexample the branch-and-bound finds the violation
    variables[eps] = Interval.closed(9, 11)
    variables[c] = Interval.closed(4, 6)
    assert symbolic_check(_main_with(variables, {eps: (9, 11), c: (4, 6)})).status == "failed"


def test_a_box_that_misses_part_of_the_domain_is_not_a_certificate():
    assert symbolic_check(_main_with(box={eps: (0, 1), c: (1, 12)})).status != "certified"
    assert symbolic_check(_main_with(box={eps: (sp.Rational(1, 2), 1), c: (gc.C_BOX_LO, 12)})).status != "certified"


def test_the_failure_cannot_be_claimed_below_the_threshold():
    fixed = gc.theorem.part("fails_above").relation.lhs.subs(gc.eps_hi, eps_p)
    part = Part("fails_above", lt(fixed, 0), variables={eps_p: Interval.closed(8, 20)},
                proof=Chain(fixed).lt(0, interval({eps_p: (8, 20)})))
    thm = gc.theorem.with_changes(parts=(part,))
    assert symbolic_check(thm).status == "failed"  # at eps' = 8 < 8.420 the calibration still holds


def test_the_validity_cannot_be_claimed_above_the_threshold():
    beyond = gc.theorem.part("beyond_one").relation
    part = Part("beyond_one", le(beyond.lhs, beyond.rhs), variables={eps_p: Interval.closed(1, 9)},
                proof=Chain(beyond.lhs).le(beyond.rhs, interval({eps_p: (1, 9)})))
    assert symbolic_check(gc.theorem.with_changes(parts=(part,))).status == "failed"


def test_reference_counterexample_values():
    # REFERENCE R-G2 / ✓N8: Delta = 1, delta = 1e-5, eps = 10: sigma = 0.4844805, delta_G = 2.26537e-5
    with mpmath.workdps(50):
        sigma = mpmath.sqrt(2 * mpmath.log(mpmath.mpf("1.25e5"))) / 10
        assert mpmath.nstr(sigma, 7) == "0.4844805"
        v = {sensitivity: mpmath.mpf(1), gc.eps_hi: mpmath.mpf(10)}
        (_, diff), = gc.theorem.part("fails_above").ground_truth(v, 50)
        assert mpmath.nstr(mpmath.mpf("1e-5") - diff, 6) == "2.26537e-5"
        exact = Gaussian(sensitivity=1, sigma=sp.Float(mpmath.nstr(sigma, 60), 60)).delta(10, dps=40)
        assert abs((mpmath.mpf("1e-5") - diff) - exact) < exact * mpmath.mpf(10) ** -35
