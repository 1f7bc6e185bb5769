"""Notions: validated value objects that print themselves."""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.errors import InvalidParameter
from cdpsym.expr import eps, rho
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, PureDP


def test_repr_pastes_back():
    assert repr(ZCDP(rho=sp.Rational(1, 2))) == "ZCDP(rho=1/2)"
    assert repr(ApproxDP(eps=1, delta=sp.Rational(1, 10 ** 6))) == "ApproxDP(eps=1, delta=1/1000000)"
    assert ZCDP(rho=rho).rho is rho


def test_latex():
    assert MeanConcentratedDP(eps * (sp.exp(eps) - 1) / 2, eps).latex().endswith(r"\text{-CDP}")
    assert r"\varepsilon" in PureDP(eps).latex()
    assert ZCDP(rho=1)._repr_latex_() == r"$1\text{-zCDP}$"


@pytest.mark.parametrize("make, message", [
    (lambda: ZCDP(rho=-1), "rho must be non-negative, got rho=-1"),
    (lambda: PureDP(eps=-sp.Rational(1, 2)), "eps must be non-negative, got eps=-1/2"),
    (lambda: ApproxDP(eps=1, delta=2), "delta must be in [0, 1], got delta=2"),
    (lambda: RDP(alpha=sp.Rational(1, 2), eps=1), "alpha must be >= 1, got alpha=1/2"),
    (lambda: TCDP(rho=1, omega=1), "omega must be > 1, got omega=1"),
    (lambda: MeanConcentratedDP(mu=1, tau=-1), "tau must be non-negative, got tau=-1"),
    (lambda: ZCDP(rho="1/2"), "expected a number or a sympy expression"),
])
def test_invalid_parameters_raise_with_the_value(make, message):
    with pytest.raises(InvalidParameter) as info:
        make()
    assert message in str(info.value)
