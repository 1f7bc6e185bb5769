"""antipodal_kl: the three parts proved with all three checks; a wrong value fails symbolically."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, r
import importlib

from cdpsym.proof import symbolic_check

antipodal_kl = importlib.import_module("theorems.antipodal_kl")  # the module (theorems.<name> may be the Theorem)
kl = importlib.import_module("theorems.kl_of_pure_dp")
make = antipodal_kl.make


@pytest.fixture(scope="module")
def report():
    return antipodal_kl.theorem.verify(property_examples=30)


def test_antipodal_kl_is_proved_by_all_three_checks(report):
    assert report.verdict == "proved", report
    checks = report.checks
    assert [p["status"] for p in checks["symbolic"]["parts"]] == ["proved"] * 3
    assert checks["symbolic"]["trusted_axioms"] == ["kl_three_atom_definition"]
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"


def test_the_value_is_exact_to_fifty_digits(report):
    # an identity: enumeration and the closed form agree to the working precision (REFERENCE N26)
    comps = report.checks["numeric"]["comparisons"]
    assert len(comps) == 2 * len(antipodal_kl.theorem.numeric_points)
    assert all(c["digits"] is not None and c["digits"] >= 45 for c in comps)


def test_the_value_is_one_minus_r_times_eps_tanh():
    assert sp.simplify((antipodal_kl.VALUE - (1 - r) * eps * sp.tanh(eps / 2)).rewrite(sp.exp)) == 0


def test_the_masses_are_antipodal_distributions():
    m, m_prime = antipodal_kl.M, antipodal_kl.M_PRIME
    assert sp.simplify(sum(m) - 1) == 0 and sp.simplify(sum(m_prime) - 1) == 0
    assert [sp.simplify(sp.log(x / y)) for x, y in zip(m, m_prime)] == [eps, -eps, 0]


def test_r_zero_is_randomized_response():
    with mpmath.workdps(50):
        e = mpmath.mpf("1.5")
        pp, qq = kl.randomized_response(e)
        m, m_prime = antipodal_kl._masses({eps: e, r: mpmath.mpf(0)})
        assert max(abs(x - y) for x, y in zip(pp, m[:2])) < mpmath.mpf(10) ** -45
        assert abs(antipodal_kl._kl(m, m_prime) - antipodal_kl._kl(pp, qq)) < mpmath.mpf(10) ** -45


_WRONG = [*antipodal_kl.mutants(),
          ("the DR16 bound (1 − r) ε(e^ε − 1)/2", make(value=(1 - r) * eps * (sp.exp(eps) - 1) / 2))]


@pytest.mark.parametrize("label, mutant", _WRONG, ids=[x for x, _ in _WRONG])
def test_a_wrong_value_fails_symbolically_and_numerically(label, mutant):
    assert symbolic_check(mutant).status == "failed"
    report = mutant.verify(property_examples=15)
    assert report.verdict == "failed"
    assert report.checks["numeric"]["status"] == "failed"
