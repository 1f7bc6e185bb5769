r"""Certified, exact privacy accounting (issue 5; the contract is ``docs/accounting-api.md``).

Every number is a python-flint ``arb`` ball *proved* to contain the exact
value, with a decimal rounded in the safe direction and its certified digits
stated (:class:`Certified`); where only two-sided bounds are known (k-fold
Laplace) the answer is a :class:`CertifiedBounds`.

>>> from fractions import Fraction
>>> from cdpsym.mechanisms import Gaussian, RandomizedResponse, compose
>>> epsilon(compose(Gaussian(sensitivity=1, sigma=2), k=1000), delta="1e-10").rounded
'224.7417230'
>>> delta(compose(RandomizedResponse(eps=Fraction(1, 10)), k=1000), eps=2).rounded
'0.7289907903'
>>> zcdp_epsilon(rho="0.5", delta="1e-6")["bs16"].rounded
'5.756521770'

What is exact, and how (each module's docstring has the details):

========================================  =========================================  =========
mechanism                                 method                                     ``exact``
========================================  =========================================  =========
``Gaussian``, any composition of them     analytic Gaussian profile, μ = √Σ(Δ/σ)²    True
``RandomizedResponse`` and compositions   optimal composition (R-F7 / R-F8)          True
``Laplace``                               exact profile (R-E5)                       True
``compose(Laplace(...), k=k)``            two-sided bounds (``cdpsym.accounting.laplace``)  —
========================================  =========================================  =========

``epsilon(mechanism, delta=...)`` is the least ``ε >= 0`` with ``δ(ε) <= delta``;
``delta(mechanism, eps=...)`` the exact ``δ(ε)``.  Both take ``digits=``
(significant digits to certify, default 10).  Inputs: int, Fraction, sympy
Rational, decimal string (exact), or float (its exact binary value).
"""

from __future__ import annotations

import sympy as sp
from flint import fmpq

from cdpsym.accounting.calibrate import calibrate_eps0, calibrate_sigma
from cdpsym.accounting.certified import (DEFAULT_DIGITS, Certified, CertifiedBounds, Query, Real, check_digits,
                                         exact_input, real_input, require_nonnegative, require_open_unit, text)
from cdpsym.accounting.conversions import rdp_epsilon, zcdp_epsilon
from cdpsym.accounting.gaussian import gaussian_delta, gaussian_epsilon
from cdpsym.accounting.pure_dp import laplace_single_delta, laplace_single_epsilon, rr_delta, rr_epsilon
from cdpsym.errors import InvalidParameter

__all__ = [
    "Certified",
    "CertifiedBounds",
    "epsilon",
    "delta",
    "calibrate_sigma",
    "calibrate_eps0",
    "zcdp_epsilon",
    "rdp_epsilon",
]


def _real(value: sp.Expr, name: str) -> Real:
    return real_input(value, name)


def _gaussian_mu2(mechanism: object) -> Real | None:
    """``μ² = Σ count (Δ/σ)²`` for a Gaussian or a composition of Gaussians, else ``None``."""
    from cdpsym.mechanisms import ComposedGaussian, Gaussian

    if isinstance(mechanism, Gaussian):
        parts = [(mechanism, 1)]
    elif isinstance(mechanism, ComposedGaussian):
        parts = mechanism.counts()
    else:
        return None
    values = [(_real(g.sensitivity, "sensitivity"), _real(g.sigma, "sigma"), c) for g, c in parts]
    if all(isinstance(s, fmpq) and isinstance(t, fmpq) for s, t, _ in values):
        total = fmpq(0)
        for s, t, c in values:
            total += c * (s / t) ** 2
        return total
    expr = sp.Add(*(c * (g.sensitivity / g.sigma) ** 2 for g, c in parts))
    return _real(expr, "mu^2")


def _rr_groups(mechanism: object) -> list[tuple[Real, int]] | None:
    from cdpsym.mechanisms import ComposedRandomizedResponse, RandomizedResponse

    if isinstance(mechanism, RandomizedResponse):
        return [(_real(mechanism.eps, "eps"), 1)]
    if isinstance(mechanism, ComposedRandomizedResponse):
        return [(_real(base.eps, "eps"), c) for base, c in mechanism.counts()]
    return None


def _laplace(mechanism: object) -> tuple[Real, int] | None:
    """``(ε0, k)`` for a Laplace mechanism or a composition of ``k`` identical ones, else ``None``."""
    from cdpsym.mechanisms import Composition, Laplace

    if isinstance(mechanism, Laplace):
        return _real(mechanism.eps0, "eps0"), 1
    if isinstance(mechanism, Composition):
        counts = mechanism.counts() if all(isinstance(b, Laplace) for b, _ in mechanism.groups) else None
        if counts is None:
            return None
        if len(counts) != 1:
            raise InvalidParameter(f"only compositions of identical Laplace mechanisms are supported, got "
                                   f"{mechanism!r}")
        base, c = counts[0]
        return _real(base.eps0, "eps0"), c
    return None


def _unsupported(mechanism: object) -> InvalidParameter:
    return InvalidParameter(
        f"no certified accountant for {mechanism!r}; supported: Gaussian and compositions of Gaussians, "
        "RandomizedResponse and compositions of them (= optimal pure-DP composition), Laplace and "
        "compositions of identical Laplace mechanisms")


def epsilon(mechanism: object, delta: object, *, digits: int = DEFAULT_DIGITS) -> Certified | CertifiedBounds:
    """The least ``ε >= 0`` with ``δ_M(ε) <= delta`` for *mechanism*, certified and rounded up.

    ``delta`` must be in ``(0, 1)``.  Returns a :class:`CertifiedBounds` for
    compositions of several Laplace mechanisms, a :class:`Certified` otherwise.
    """
    check_digits(digits)
    delta_q = exact_input(delta, "delta")
    require_open_unit(delta_q, "delta", delta)
    query = Query({"mechanism": mechanism.__repr__, "delta": text(delta), "digits": str(digits)})
    mu2 = _gaussian_mu2(mechanism)
    if mu2 is not None:
        return gaussian_epsilon(mu2, delta_q, digits, query)
    groups = _rr_groups(mechanism)
    if groups is not None:
        return rr_epsilon(groups, delta_q, digits, query)
    lap = _laplace(mechanism)
    if lap is not None:
        eps0, k = lap
        if k == 1:
            return laplace_single_epsilon(eps0, delta_q, digits, query)
        from cdpsym.accounting.laplace import laplace_epsilon_bounds

        return laplace_epsilon_bounds(eps0, k, delta_q, digits=digits, query=query)
    raise _unsupported(mechanism)


def delta(mechanism: object, eps: object, *, digits: int = DEFAULT_DIGITS) -> Certified | CertifiedBounds:
    """The exact ``δ_M(ε)`` of *mechanism* at ``eps >= 0``, certified and rounded up.

    Returns a :class:`CertifiedBounds` for compositions of several Laplace
    mechanisms, a :class:`Certified` otherwise.
    """
    check_digits(digits)
    eps_q = exact_input(eps, "eps")
    require_nonnegative(eps_q, "eps", eps)
    query = Query({"mechanism": mechanism.__repr__, "eps": text(eps), "digits": str(digits)})
    mu2 = _gaussian_mu2(mechanism)
    if mu2 is not None:
        return gaussian_delta(mu2, eps_q, digits, query)
    groups = _rr_groups(mechanism)
    if groups is not None:
        return rr_delta(groups, eps_q, digits, query)
    lap = _laplace(mechanism)
    if lap is not None:
        eps0, k = lap
        if k == 1:
            return laplace_single_delta(eps0, eps_q, digits, query)
        from cdpsym.accounting.laplace import laplace_delta_bounds

        return laplace_delta_bounds(eps0, k, eps_q, digits=digits, query=query)
    raise _unsupported(mechanism)

