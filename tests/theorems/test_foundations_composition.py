"""foundations_composition: the computable axioms pass their checks; the quadrature helper is exact."""

from __future__ import annotations

import mpmath
import pytest

from cdpsym.verify.runner import verify_theorem
from theorems.foundations_composition import AXIOMS, normal_expectation, standard_normal_mean, standard_normal_mgf


@pytest.mark.parametrize("axiom", [standard_normal_mean, standard_normal_mgf], ids=lambda a: a.name)
def test_computable_axioms_pass(axiom):
    report = verify_theorem(axiom, property_examples=5)
    assert report.verdict == "axiom"
    assert report.checks["numeric"]["status"] == "passed"


def test_axiom_names_are_unique_across_the_trusted_base():
    from theorems import foundations, foundations_convexity

    names = [a.name for a in AXIOMS]
    others = {a.name for a in foundations.AXIOMS} | {a.name for a in getattr(foundations_convexity, "AXIOMS", [])}
    assert len(set(names)) == len(names)
    assert not set(names) & others


def test_normal_expectation_matches_closed_forms():
    with mpmath.workdps(40):
        s = mpmath.mpf("1.7")
        w = mpmath.mpf(16)
        assert abs(normal_expectation(lambda u, c: (c * u).exp(), s - w, s + w, s) / mpmath.exp(s ** 2 / 2) - 1) \
            < mpmath.mpf(10) ** -35
        half = normal_expectation(lambda u, c: (c * u).exp(), 0, s + w, s)
        assert abs(half / (mpmath.exp(s ** 2 / 2) * mpmath.ncdf(s)) - 1) < mpmath.mpf(10) ** -35
