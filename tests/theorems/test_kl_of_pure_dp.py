"""kl_of_pure_dp: both bounds proved with all three checks; randomized response is extremal; mutants fail."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps
import importlib

from cdpsym.proof import symbolic_check

kl = importlib.import_module("theorems.kl_of_pure_dp")  # the module (theorems.<name> may be the Theorem)
make = kl.make


@pytest.fixture(scope="module")
def report():
    return kl.theorem.verify(property_examples=30)


def test_kl_of_pure_dp_is_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    checks = report.checks
    assert checks["symbolic"]["status"] == "proved"
    assert [p["status"] for p in checks["symbolic"]["parts"]] == ["proved", "proved"]
    assert set(checks["symbolic"]["trusted_axioms"]) == {"exp_chord_bound", "expectation_affine", "kl_is_mean_loss"}
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"


def test_randomized_response_attains_the_sharp_bound(report):
    sharp = [c for c in report.checks["numeric"]["comparisons"]
             if c["part"] == "kl_of_pure_dp.sharp" and c["witness"] == "randomized response"]
    assert sharp and all(c["digits"] is not None and c["digits"] >= 40 for c in sharp)


def test_the_sharp_value_is_eps_tanh_eps_over_2():
    assert sp.simplify((kl.SHARP - eps * sp.tanh(eps / 2)).rewrite(sp.exp)) == 0


def test_random_pure_dp_pairs_are_eps_dp_and_below_the_sharp_bound():
    # REFERENCE N24: random eps-DP pairs stay below eps tanh(eps/2); the ratio is < 1 except for RR
    with mpmath.workdps(30):
        for e in (mpmath.mpf("0.1"), mpmath.mpf("0.5"), mpmath.mpf(1), mpmath.mpf(2)):
            for pp, qq in kl.random_pure_dp_pairs(e, count=25, seed=7):
                assert abs(mpmath.fsum(pp) - 1) < mpmath.mpf("1e-25") and abs(mpmath.fsum(qq) - 1) < mpmath.mpf("1e-25")
                law = kl.loss_law(pp, qq)
                assert all(-e - mpmath.mpf("1e-25") <= l <= e + mpmath.mpf("1e-25") for _, l in law)  # pure_dp
                assert abs(mpmath.fsum(w * mpmath.exp(-l) for w, l in law) - 1) < mpmath.mpf("1e-25")  # same_support
                assert mpmath.fsum(w * l for w, l in law) <= e * mpmath.tanh(e / 2)


def test_randomized_response_agrees_with_the_mechanism_module():
    module = pytest.importorskip("cdpsym.mechanisms.randomized_response")
    with mpmath.workdps(50):
        for e in ("0.3", "1", "2.5"):
            pp, qq = kl.randomized_response(mpmath.mpf(e))
            direct = mpmath.fsum(w * l for w, l in kl.loss_law(pp, qq))
            closed = mpmath.mpf(str(sp.N(module.RandomizedResponse(eps=sp.Rational(e)).kl(), 60)))
            assert abs(direct - closed) < mpmath.mpf(10) ** -45


def test_the_dr16_bound_is_not_attained():
    # ratio (e^eps + 1)/2 > 1 between the two bounds (R-H28)
    assert sp.simplify(kl.DR16 / kl.SHARP - (sp.exp(eps) + 1) / 2) == 0


@pytest.mark.parametrize("label, mutant", kl.mutants(), ids=[x for x, _ in kl.mutants()])
def test_smaller_bounds_fail_symbolically_and_numerically(label, mutant):
    assert symbolic_check(mutant).status == "failed"
    report = mutant.verify(property_examples=15)
    assert report.verdict == "failed"
    assert report.checks["numeric"]["status"] == "failed"


def test_same_support_is_needed():
    # P = delta_0, Q = (delta_0 + delta_1)/2 satisfies pure_dp with eps = log 2, yet KL(P||Q) = log 2
    e = mpmath.log(2)
    law = kl.loss_law([mpmath.mpf(1)], [mpmath.mpf(1) / 2])
    assert all(abs(l) <= e for _, l in law)
    assert mpmath.fsum(w * l for w, l in law) > e * mpmath.tanh(e / 2)
    assert mpmath.fsum(w * mpmath.exp(-l) for w, l in law) == mpmath.mpf(1) / 2  # same_support fails


def test_a_chain_cannot_cite_a_hypothesis_the_theorem_does_not_have():
    # drop same_support: both parts cite it, and a hypothesis is citable only where it is in scope
    one_sided = kl.theorem.with_changes(name="kl_one_sided", hypotheses=(kl.pure_dp,))
    result = symbolic_check(one_sided)
    assert result.status == "failed"
    for part in result.parts:
        bad = [s for s in part.steps if s.status == "failed"]
        assert [s.method for s in bad] == ["by:same_support"], part
        assert "'same_support' is not a hypothesis in scope here" in bad[0].detail
