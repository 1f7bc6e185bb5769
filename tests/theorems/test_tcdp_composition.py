"""tcdp_composition (R-A11 / R-F9): proved by citing rdp_composition at ε = ρα; the hypothesis is needed."""

from __future__ import annotations

import importlib

import pytest
import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import alpha, k, omega, rho
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import L_k
from theorems.rdp_composition import theorem as rdp_composition

tc = importlib.import_module("theorems.tcdp_composition")


def test_proved_with_all_checks():
    report = tc.theorem.verify(property_examples=5)
    assert report.verdict == "proved", report
    assert report.checks["numeric"]["status"] == "passed"
    assert all(c["digits"] is not None and c["digits"] >= 45 for c in report.checks["numeric"]["comparisons"])


def test_statement_shape():
    (part,) = tc.theorem.parts
    assert part.relation.lhs == Expect(sp.exp((alpha - 1) * L_k(k)))
    assert part.relation.rhs == sp.exp((alpha - 1) * k * rho * alpha)
    assert tc.theorem.variables[alpha] == Interval.open(1, omega, sample_lo=1.01, sample_hi=1.09)
    (hyp,) = tc.theorem.hypotheses
    assert hyp.name == "tcdp" and set(hyp.variables) == {alpha}


def test_mutants_fail_symbolically_and_numerically():
    for name, thm in tc.mutants():
        assert symbolic_check(thm).status == "failed", name
        assert numeric_check(thm).status == "failed", name


def test_without_the_hypothesis_the_proof_fails():
    assert symbolic_check(tc.theorem.with_changes(hypotheses=())).status == "failed"


def test_orders_beyond_omega_are_refused():
    """The hypothesis covers α in (1, ω) only: a statement at every α > 1 cannot cite it."""
    from cdpsym.expr import greater_than

    thm = tc.theorem.with_changes(variables={**tc.theorem.variables, alpha: greater_than(1)})
    assert symbolic_check(thm).status != "proved"


def test_a_hypothesis_with_a_smaller_order_range_is_refused():
    narrow = Hypothesis(name="tcdp", title="only alpha in (1, omega/2)... ",
                        relation=tc.tcdp.relation, variables={alpha: Interval.open(1, omega / 2)})
    # refused where the theorem is built: (1, omega/2) is empty for omega <= 2, and a hypothesis's range is
    # checked like every declaration
    with pytest.raises(ProofError):
        tc.theorem.with_changes(hypotheses=(narrow,))
    # a non-empty narrower range is accepted as a declaration, and the proof does not go through with it
    narrow = Hypothesis(name="tcdp", title="only alpha in (1, 1 + (omega - 1)/2)... ",
                        relation=tc.tcdp.relation, variables={alpha: Interval.open(1, 1 + (omega - 1) / 2)})
    assert symbolic_check(tc.theorem.with_changes(hypotheses=(narrow,))).status != "proved"


def test_sign_cannot_replace_the_citation():
    lhs = Expect(sp.exp((alpha - 1) * L_k(k)))
    rhs = sp.exp((alpha - 1) * k * rho * alpha)
    thm = tc.theorem.with_changes(parts=(Part("main", le(lhs, rhs), proof=Chain(lhs).le(rhs, sign())),))
    assert symbolic_check(thm).status != "proved"


def test_cites_rdp_composition():
    steps = symbolic_check(tc.theorem).parts[0].steps
    assert steps[0].method == f"by:{rdp_composition.name}"
