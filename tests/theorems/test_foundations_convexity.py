"""foundations_convexity: the new axioms hold on independent computations."""

from __future__ import annotations

import random

import mpmath
import sympy as sp
import importlib

fc = importlib.import_module("theorems.foundations_convexity")


def test_every_axiom_is_cited_and_checked():
    assert {ax.name for ax in fc.AXIOMS} == {"exp_chord_bound", "expectation_affine", "kl_nonnegative",
                                            "kl_three_atom_definition"}
    assert all(ax.citation for ax in fc.AXIOMS)


def test_the_chord_bound_on_random_finite_distributions():
    rng = random.Random(5)
    with mpmath.workdps(30):
        for _ in range(200):
            lo = mpmath.mpf(rng.uniform(-3, 2))
            hi = lo + mpmath.mpf(rng.uniform(0.01, 4))
            lm = mpmath.mpf(rng.uniform(-5, 5))
            xs = [lo + (hi - lo) * mpmath.mpf(rng.random()) for _ in range(rng.randint(1, 6))]
            ws = [mpmath.mpf(rng.random()) + mpmath.mpf("0.01") for _ in xs]
            ws = [w / mpmath.fsum(ws) for w in ws]
            lhs = mpmath.fsum(w * mpmath.exp(lm * x) for x, w in zip(xs, ws))
            chord = mpmath.fsum(w * ((hi - x) * mpmath.exp(lm * lo) + (x - lo) * mpmath.exp(lm * hi)) / (hi - lo)
                                for x, w in zip(xs, ws))
            assert lhs <= chord * (1 + mpmath.mpf("1e-25"))


def test_the_three_atom_definition_matches_the_general_sum():
    with mpmath.workdps(30):
        pp, qq, rr = [mpmath.mpf("0.5"), mpmath.mpf("0.2")], [mpmath.mpf("0.1"), mpmath.mpf("0.6")], mpmath.mpf("0.3")
        general = mpmath.fsum(x * mpmath.log(x / y) for x, y in zip(pp + [rr], qq + [rr]))
        values = dict(zip((fc.p1, fc.p2, fc.q1, fc.q2), pp + qq))
        stated = fc.kl_three_atom_definition.relation.rhs.subs({k: sp.Float(str(v), 30) for k, v in values.items()})
        assert abs(general - mpmath.mpf(str(sp.N(stated, 30)))) < mpmath.mpf("1e-25")


def test_in_range_is_the_pure_dp_event():
    from cdpsym.expr import L, eps
    from theorems.kl_of_pure_dp import pure_dp

    assert pure_dp.relation.lhs.args[0] == fc.in_range(-eps, L, eps)
