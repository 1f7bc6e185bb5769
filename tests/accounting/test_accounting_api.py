"""The public surface of cdpsym.accounting (docs/accounting-api.md) and all invalid inputs in one table."""

from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

import cdpsym.accounting as accounting
from cdpsym.accounting import (Certified, CertifiedBounds, calibrate_eps0, calibrate_sigma, delta, epsilon,
                               rdp_epsilon, zcdp_epsilon)
from cdpsym.errors import InvalidParameter
from cdpsym.mechanisms import Gaussian, Laplace, RandomizedResponse, compose

CONTRACT = ["Certified", "CertifiedBounds", "epsilon", "delta", "calibrate_sigma", "calibrate_eps0",
            "zcdp_epsilon", "rdp_epsilon"]


def test_public_names_match_the_contract() -> None:
    assert sorted(accounting.__all__) == sorted(CONTRACT)
    for name in CONTRACT:
        assert hasattr(accounting, name)


def test_certified_fields_match_the_contract() -> None:
    fields = {f.name for f in dataclasses.fields(Certified)}
    assert fields == {"quantity", "ball", "rounded", "direction", "digits", "method", "query", "exact"}
    assert dataclasses.is_dataclass(Certified) and Certified.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert {f.name for f in dataclasses.fields(CertifiedBounds)} == {"lower", "upper"}
    assert isinstance(CertifiedBounds.gap, property)


def test_contract_examples() -> None:
    g = epsilon(compose(Gaussian(sensitivity=1, sigma=2), k=1000), delta="1e-10")
    assert isinstance(g, Certified) and g.direction == "up" and g.quantity == "epsilon"
    assert g.query == {"mechanism": "compose(Gaussian(sensitivity=1, sigma=2), k=1000)", "delta": "1e-10",
                       "digits": "10"}
    d = delta(compose(RandomizedResponse(eps=sp.Rational(1, 10)), k=1000), eps=2)
    assert isinstance(d, Certified) and d.quantity == "delta" and d.direction == "up"
    s = calibrate_sigma(eps=1, delta="1e-6", k=500, sensitivity=1)
    assert s.quantity == "sigma" and s.direction == "up"
    e0 = calibrate_eps0(eps=1, delta="1e-6", k=500)
    assert e0.quantity == "eps0" and e0.direction == "down"
    z = zcdp_epsilon(rho="0.5", delta="1e-6")
    assert set(z) == {"exact_gaussian", "cks20", "bs16"}
    r = rdp_epsilon(alpha=2, rdp_eps="0.5", delta="1e-6")
    assert isinstance(r, Certified) and not r.exact
    for c in (g, d, s, e0, r, *z.values()):
        assert isinstance(c.to_json(), dict) and isinstance(c.float, float)


def test_laplace_composition_dispatches_to_two_sided_bounds() -> None:
    b = epsilon(compose(Laplace(sensitivity=1, scale=1), k=20), delta="1e-6")
    assert isinstance(b, CertifiedBounds)
    assert b.lower.direction == "down" and b.upper.direction == "up"
    from fractions import Fraction
    assert Fraction(b.lower.rounded) <= Fraction(b.upper.rounded)


def test_single_laplace_is_exact() -> None:
    c = epsilon(Laplace(sensitivity=1, scale=1), delta="1e-6")
    assert isinstance(c, Certified) and c.exact


x = sp.Symbol("x", positive=True)

INVALID = [
    # (callable, match)
    (lambda: epsilon(Gaussian(1, 1), delta=0), "delta=0"),  # +infinity: refused, saying so
    (lambda: epsilon(Gaussian(1, 1), delta="-1e-6"), "delta=-1e-6"),
    (lambda: epsilon(Gaussian(1, 1), delta="1.5"), "delta=1.5"),
    (lambda: epsilon(Gaussian(1, 1), delta="abc"), "delta='abc'"),
    (lambda: epsilon(Gaussian(1, 1), delta=float("nan")), "delta=nan"),
    (lambda: epsilon(Gaussian(1, 1), delta=True), "delta=True"),
    (lambda: epsilon(Gaussian(1, 1), delta=None), "delta=None"),
    (lambda: epsilon(Gaussian(1, 1), delta="1e-6", digits=0), "digits=0"),
    (lambda: epsilon(Gaussian(1, 1), delta="1e-6", digits=1001), "digits=1001"),
    (lambda: epsilon(Gaussian(1, 1), delta="1e-6", digits=2.5), "digits=2.5"),
    (lambda: delta(Gaussian(1, 1), eps="x"), "eps='x'"),
    (lambda: epsilon(compose(Gaussian(1, 1), Laplace(1, 1)), delta="1e-6"), "no certified accountant"),
    (lambda: epsilon(object(), delta="1e-6"), "no certified accountant"),
    (lambda: epsilon(Gaussian(1, x), delta="1e-6"), "symbolic"),
    (lambda: epsilon(compose(Gaussian(1, 1), k=x), delta="1e-6"), "k is symbolic"),
    (lambda: epsilon(compose(Laplace(1, 1), Laplace(sp.sqrt(2), 1)), delta="1e-6"), "not rational multiples"),
    (lambda: epsilon(compose(RandomizedResponse(sp.log(2)), RandomizedResponse(1)), delta="1e-6"),
     "rational eps_i"),
    (lambda: zcdp_epsilon(rho=0, delta="1e-6"), "rho=0"),
    (lambda: zcdp_epsilon(rho="-0.5", delta="1e-6"), "rho=-0.5"),
    (lambda: zcdp_epsilon(rho="0.5", delta=2), "delta=2"),
    (lambda: rdp_epsilon(alpha=1, rdp_eps=1, delta="1e-6"), "alpha=1"),
    (lambda: rdp_epsilon(alpha="0.5", rdp_eps=1, delta="1e-6"), "alpha=0.5"),
    (lambda: rdp_epsilon(alpha=2, rdp_eps=-1, delta="1e-6"), "rdp_eps=-1"),
    (lambda: rdp_epsilon(alpha=2, rdp_eps=1, delta=0), "delta=0"),
    (lambda: calibrate_sigma(eps=-1, delta="1e-6"), "eps=-1"),
    (lambda: calibrate_sigma(eps=1, delta=0), "delta=0"),
    (lambda: calibrate_sigma(eps=1, delta="1e-6", k=0), "k=0"),
    (lambda: calibrate_sigma(eps=1, delta="1e-6", k="1.5"), "k=1.5"),
    (lambda: calibrate_sigma(eps=1, delta="1e-6", sensitivity=0), "sensitivity=0"),
    (lambda: calibrate_eps0(eps=1, delta="1e-6", k=0), "k=0"),
    (lambda: calibrate_eps0(eps=1, delta=2, k=10), "delta=2"),
]


@pytest.mark.parametrize("call, match", INVALID, ids=[m for _, m in INVALID])
def test_invalid_inputs_name_the_value(call, match: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidParameter, match=match.replace("(", r"\(").replace(")", r"\)")):
        call()
