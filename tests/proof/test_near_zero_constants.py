"""Constants zero or within 1e-20 of it defeat sympy's sign queries (which evaluate them at low precision): sympy
has called ``y + ((1 + √2)² − 3 − 2√2)`` positive for y >= 0 (the constant is 0) and ``log(1 − e^-100)`` positive
(it is −3.7e-44).  The sign prover does not ask sympy about such expressions: they are undecided, or refuted by a
confirmed sample -- never proved.  (Found by a hostile review; the checker proved all four claims below before.)"""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.claims.checker import check
from cdpsym.expr.domains import nonnegative, positive
from cdpsym.proof.algebra import Context, _near_zero_constant, prove_sign

y = sp.Symbol("y", nonnegative=True)
e = sp.Symbol("e", positive=True)
ZERO = (1 + sp.sqrt(2)) ** 2 - 3 - 2 * sp.sqrt(2)  # exactly 0, not simplified by sympy's constructors


@pytest.mark.parametrize("claim", [
    "forall eps > 0: eps + log(1 - exp(-100)) > 0",
    "forall y >= 0: 0 < y + (1+sqrt(2))^2 - 3 - 2*sqrt(2)",
    "forall k >= 1 integer: log(k + (1+sqrt(2))^2 - 3 - 2*sqrt(2)) > 0",
    "forall y >= 0: log(1 + y + (1+sqrt(2))^2 - 3 - 2*sqrt(2) - exp(-1000)) >= 0",
])
def test_false_claims_with_near_zero_constants_are_not_proved(claim):
    assert check(claim).verdict not in ("proved", "certified")


def test_the_kernel_does_not_trust_sympy_near_zero():
    assert prove_sign(y + ZERO, Context({y: nonnegative()}), strict=True).ok is not True
    assert prove_sign(e + sp.log(1 - sp.exp(-100)), Context({e: positive()}), strict=True).ok is not True
    assert _near_zero_constant(y + ZERO) is not None and _near_zero_constant(y + sp.exp(-1000)) is not None


def test_ordinary_constants_are_still_trusted():
    assert _near_zero_constant(y + sp.sqrt(2) - 1) is None and _near_zero_constant(y * sp.log(2) + sp.pi) is None
    assert prove_sign(y + sp.sqrt(2) - 1, Context({y: nonnegative()}), strict=True).ok is True
    assert check("forall y >= 0: 0 < y + sqrt(2) - 1").verdict == "proved"
