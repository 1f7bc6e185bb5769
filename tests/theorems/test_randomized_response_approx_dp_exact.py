"""randomized_response_approx_dp_exact (R-E6): proved from the two-atom hockey-stick definition; smaller
profiles fail symbolically and numerically."""

from __future__ import annotations

import importlib
import time
from dataclasses import replace

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, eps0
from cdpsym.expr.operators import HockeyStick
from cdpsym.mechanisms import RandomizedResponse
from cdpsym.proof import Chain, Part, algebra, by, le, register_axioms, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from cdpsym.verify.property import property_check

rr = importlib.import_module("theorems.randomized_response_approx_dp_exact")
make = rr.make
register_axioms(*rr.AXIOMS)  # a no-op once the module is listed in theorems.MODULES


def test_proved_with_all_checks():
    report = rr.theorem.verify(property_examples=10)
    assert report.verdict == "proved", report
    symbolic = report.checks["symbolic"]
    assert set(symbolic["trusted_axioms"]) == {"hockey_stick_two_atom_definition"}
    assert symbolic["kernel_rules"] == []
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_statement_shape():
    main = rr.theorem.part("main")
    assert main.relation.op == "="
    assert main.relation.lhs == HockeyStick(eps, rr.P_RR, rr.Q_RR)
    assert main.relation.rhs == sp.Max(0, (sp.exp(eps0) - sp.exp(eps)) / (1 + sp.exp(eps0)))
    assert rr.theorem.hypotheses == ()
    assert set(rr.theorem.variables) == {eps, eps0}
    # the pair is RR_eps0: P = (p, 1 - p), Q = (1 - p, p) with p the probability of the truthful report
    p = RandomizedResponse(eps0).p
    assert sp.simplify(rr.P_RR[0] - p) == 0 and sp.simplify(rr.P_RR[1] - (1 - p)) == 0
    assert tuple(rr.Q_RR) == (rr.P_RR[1], rr.P_RR[0])
    assert rr.theorem.notion == ""


def test_symbolic_check_is_fast():
    t0 = time.perf_counter()
    assert symbolic_check(make()).status == "proved"
    assert time.perf_counter() - t0 < 3


@pytest.mark.parametrize("name,thm", rr.mutants(), ids=[m[0] for m in rr.mutants()])
def test_mutants_fail_symbolically_and_numerically(name, thm):
    assert symbolic_check(thm).status == "failed"
    assert numeric_check(thm).status == "failed"
    assert property_check(thm, examples=10).status == "failed"


def test_mutants_fail_verification():
    assert make(rr.PROFILE / 2).verify(property_examples=10).verdict == "failed"


def test_larger_profile_is_not_proved_either():
    # an exact profile: an upper bound that is too large is a false equality, not a weaker truth
    assert symbolic_check(make(rr.PROFILE + sp.exp(-eps0))).status == "failed"


# -- adversarial ---------------------------------------------------------------------------------------------

def _with_main(proof):
    """The theorem with its lemma parts unchanged and the main chain replaced."""
    thm = rr.theorem
    lemmas = tuple(replace(p, name=p.name.split(".", 1)[1],
                           variables={k: d for k, d in p.variables.items() if k not in thm.variables},
                           conditions=(), theorem=None) for p in thm.parts[:-1])
    main = thm.parts[-1]
    return thm.with_changes(parts=lemmas + (Part("main", main.relation, proof=proof, ground_truth=main.ground_truth),))


def test_the_negative_events_cannot_be_dropped_by_fiat():
    first, second, whole = rr._events(eps, tuple(rr.P_RR), tuple(rr.Q_RR))
    proof = (Chain(HockeyStick(eps, rr.P_RR, rr.Q_RR))
             .eq(sp.Max(0, first, second, whole),
                 by(rr.hockey_stick_two_atom_definition, p1=rr.P_RR[0], p2=rr.P_RR[1], q1=rr.Q_RR[0], q2=rr.Q_RR[1]))
             .eq(rr.PROFILE, algebra("drop the events with negative value")))
    assert symbolic_check(_with_main(proof)).status != "proved"


def test_the_definition_needs_probability_distributions():
    # masses that do not sum to one: the axiom's conditions cannot be discharged
    bad = sp.Tuple(rr.P_RR[0], rr.P_RR[1] / 2)
    proof = (Chain(HockeyStick(eps, rr.P_RR, rr.Q_RR))
             .eq(sp.Max(0, *rr._events(eps, tuple(bad), tuple(rr.Q_RR))),
                 by(rr.hockey_stick_two_atom_definition, p1=bad[0], p2=bad[1], q1=rr.Q_RR[0], q2=rr.Q_RR[1])))
    part = _with_main(proof).parts[-1]
    assert symbolic_check(_with_main(proof)).parts[-1].status == "failed", part


def test_the_profile_is_not_zero_by_sign():
    lhs = HockeyStick(eps, rr.P_RR, rr.Q_RR)
    thm = rr.theorem.with_changes(parts=(Part("main", le(lhs, 0), proof=Chain(lhs).le(0, sign())),))
    assert symbolic_check(thm).status != "proved"


def test_boundary_eps_equal_eps0_gives_zero_and_below_gives_tv():
    with mpmath.workdps(50):
        for e0 in ("0.3", "1", "4"):
            v = {eps0: mpmath.mpf(e0), eps: mpmath.mpf(e0)}
            assert all(value == 0 for _, value in rr._ground_truth(v, 50))
            v[eps] = mpmath.mpf(10) ** -40
            tv = mpmath.tanh(mpmath.mpf(e0) / 2)
            assert all(abs(value - tv) < mpmath.mpf(10) ** -38 for _, value in rr._ground_truth(v, 50))


def test_axiom_numeric_check_passes_and_a_wrong_definition_fails():
    ax = rr.hockey_stick_two_atom_definition
    with mpmath.workdps(50):
        for point in ax.numeric_points:
            v = {s: mpmath.mpf(point[str(s)]) for s in ax.variables}
            (_, truth), = ax.ground_truth(v, 50)
            e = mpmath.exp(v[eps])
            events = [v[rr.p1] - e * v[rr.q1], v[rr.p2] - e * v[rr.q2], 1 - e]
            assert abs(max([mpmath.mpf(0)] + events) - truth) < mpmath.mpf(10) ** -45
            # the sup over events is NOT the sum of the two atoms' values (a wrong "definition")
            if all(x < 0 for x in events[1:]) and events[0] > 0:
                assert sum(events) < truth
