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
``compose(Laplace(...), ...)``            two-sided bounds (``cdpsym.accounting.laplace``)  —
                                          (scales rational multiples of one another)
``DPComposition`` of (ε_i, δ_i)-DP        optimal composition (KOV15 Thm 3.5, MV16)  True
========================================  =========================================  =========

``epsilon(mechanism, delta=...)`` is the least ``ε >= 0`` with ``δ(ε) <= delta``
(``delta`` in ``[0, 1]``: ``ε(1) = 0``; ``ε(0)`` is the largest privacy loss, or
``+∞`` — refused, saying so — when the loss is unbounded);
``delta(mechanism, eps=...)`` the exact ``δ(ε)`` at any real ``eps``.  Both take
``digits=`` (significant digits to certify, default 10).  Inputs: int, Fraction,
sympy Rational, decimal string (exact), or float (its exact binary value).
Queries whose cost is predictably out of reach raise
:class:`~cdpsym.errors.ResourceLimit` at once (a :class:`~cdpsym.errors.PrecisionError`).
"""

from __future__ import annotations

import sympy as sp
from flint import arb, fmpq

from cdpsym.accounting.calibrate import calibrate_eps0, calibrate_sigma
from cdpsym.accounting.certified import (DEFAULT_DIGITS, Certified, CertifiedBounds, Query, Real, check_digits,
                                         exact_input, real_input, require_closed_unit, require_composition_count,
                                         text)
from cdpsym.accounting.conversions import rdp_epsilon, zcdp_epsilon
from cdpsym.accounting.gaussian import check_mu2, gaussian_delta, gaussian_epsilon
from cdpsym.accounting.pure_dp import (DPComposition, approx_dp_delta, approx_dp_epsilon, laplace_single_delta,
                                       laplace_single_epsilon, max_loss, rr_delta, rr_epsilon)
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
        mu2: Real = total
    else:
        mu2 = _real(sp.Add(*(c * (g.sensitivity / g.sigma) ** 2 for g, c in parts)), "mu^2")
    check_mu2(mu2, "mu = sqrt(sum (sensitivity/sigma)^2)" if len(parts) > 1 or parts[0][1] > 1
              else "mu = sensitivity/sigma")
    return mu2


def _rr_groups(mechanism: object) -> list[tuple[Real, int]] | None:
    from cdpsym.mechanisms import ComposedRandomizedResponse, RandomizedResponse

    if isinstance(mechanism, RandomizedResponse):
        return [(_real(mechanism.eps, "eps"), 1)]
    if isinstance(mechanism, ComposedRandomizedResponse):
        groups = [(_real(base.eps, "eps"), c) for base, c in mechanism.counts()]
        require_composition_count(sum(c for _, c in groups), "the optimal pure-DP composition")
        return groups
    return None


def _laplace(mechanism: object) -> list[tuple[Real, int]] | None:
    """``[(ε0_g, c_g)]`` for a Laplace mechanism or a composition of Laplace mechanisms, else ``None``."""
    from cdpsym.mechanisms import Composition, Laplace

    if isinstance(mechanism, Laplace):
        return [(_real(mechanism.eps0, "eps0"), 1)]
    if isinstance(mechanism, Composition):
        if not all(isinstance(b, Laplace) for b, _ in mechanism.groups):
            return None
        return [(_real(base.eps0, "eps0"), c) for base, c in mechanism.counts()]
    return None


def _unsupported(mechanism: object) -> InvalidParameter:
    return InvalidParameter(
        f"no certified accountant for {text_of(mechanism)}; supported: Gaussian and compositions of Gaussians, "
        "RandomizedResponse and compositions of them (= optimal pure-DP composition), Laplace and "
        "compositions of Laplace mechanisms (eps0 = sensitivity/scale rational multiples of one another); "
        "a mixture of kinds is not supported: bound each part by a notion instead (Laplace(sensitivity, scale) "
        "is (sensitivity/scale)-DP, Gaussian(sensitivity, sigma) is (sensitivity^2/(2 sigma^2))-zCDP)")


def text_of(mechanism: object) -> str:
    """``repr(mechanism)``, abbreviated when it is long (or holds numbers too long to print)."""
    try:
        out = repr(mechanism)
    except ValueError:
        return f"<a {type(mechanism).__name__} holding a number too long to print>"
    return out if len(out) <= 300 else f"{out[:200]}...{out[-60:]} ({len(out)} characters)"


def _classify(mechanism: object) -> tuple[str, object]:
    """``(kind, data)`` of a supported mechanism; :class:`InvalidParameter` otherwise."""
    if isinstance(mechanism, DPComposition):
        if all(d == 0 for _, d, _ in mechanism.parts):  # pure DP: the randomized responses
            groups = [(e, c) for e, _, c in mechanism.parts]
            require_composition_count(sum(c for _, c in groups), "the optimal pure-DP composition")
            return "rr", groups
        require_composition_count(sum(c for _, _, c in mechanism.parts), "the optimal (eps, delta)-DP composition")
        return "approx", mechanism.parts
    mu2 = _gaussian_mu2(mechanism)
    if mu2 is not None:
        return "gaussian", mu2
    groups = _rr_groups(mechanism)
    if groups is not None:
        return "rr", groups
    lap = _laplace(mechanism)
    if lap is not None:
        return "laplace", lap
    raise _unsupported(mechanism)


def _zero(query: Query, digits: int, method: str, bounds: bool) -> Certified | CertifiedBounds:
    """The exact answer ``ε = 0`` (as two-sided bounds when the accountant returns bounds)."""
    up = Certified("epsilon", arb(0), "0", "up", digits, method, query, True)
    if bounds:
        return CertifiedBounds(Certified("epsilon", arb(0), "0", "down", digits, method, query, True), up)
    return up


def epsilon(mechanism: object, delta: object, *, digits: int = DEFAULT_DIGITS) -> Certified | CertifiedBounds:
    """The least ``ε >= 0`` with ``δ_M(ε) <= delta`` for *mechanism*, certified and rounded up.

    ``delta`` must be in ``[0, 1]``: ``ε(1) = 0``; ``ε(0)`` is the largest
    privacy loss (``k ε0`` for pure-DP mechanisms) or, for the Gaussian,
    ``+∞`` (refused, saying so).  Returns a :class:`CertifiedBounds` for
    compositions of several Laplace mechanisms, a :class:`Certified` otherwise.
    """
    check_digits(digits)
    delta_q = exact_input(delta, "delta")
    require_closed_unit(delta_q, "delta", delta)
    query = Query({"mechanism": lambda: text_of(mechanism), "delta": text(delta), "digits": str(digits)})
    kind, data = _classify(mechanism)
    bounds = kind == "laplace" and (len(data) > 1 or data[0][1] > 1)  # type: ignore[index, arg-type]
    if delta_q == 1:  # every mechanism is (0, 1)-DP
        return _zero(query, digits, "exact: delta = 1, and every mechanism is (0, 1)-DP", bounds)
    if kind == "gaussian":
        if delta_q == 0:
            raise InvalidParameter(
                "no finite epsilon at delta=0: the Gaussian mechanism's privacy loss is unbounded, so delta(eps) > 0 "
                "for every eps and epsilon(delta=0) = +infinity; ask for a delta > 0")
        return gaussian_epsilon(data, delta_q, digits, query)  # type: ignore[arg-type]
    if kind == "rr":
        if delta_q == 0:
            return max_loss(data, digits, query)  # type: ignore[arg-type]
        return rr_epsilon(data, delta_q, digits, query)  # type: ignore[arg-type]
    if kind == "approx":
        return approx_dp_epsilon(data, delta_q, digits, query)  # type: ignore[arg-type]
    if not bounds:
        eps0 = data[0][0]  # type: ignore[index]
        return laplace_single_epsilon(eps0, delta_q, digits, query)
    from cdpsym.accounting.laplace import laplace_composition_epsilon_bounds, laplace_epsilon_bounds

    if len(data) == 1:  # type: ignore[arg-type]
        eps0, k = data[0]  # type: ignore[index]
        return laplace_epsilon_bounds(eps0, k, delta_q, digits=digits, query=query)
    return laplace_composition_epsilon_bounds(data, delta_q, digits=digits, query=query)


def delta(mechanism: object, eps: object, *, digits: int = DEFAULT_DIGITS) -> Certified | CertifiedBounds:
    """The exact ``δ_M(ε)`` of *mechanism* at any real ``eps``, certified and rounded up.

    (For ``ε < 0`` the profile is ``δ(ε) = 1 - e^ε + e^ε δ(-ε)``: every pair
    here is as private in one direction as in the other.)  Returns a
    :class:`CertifiedBounds` for compositions of several Laplace mechanisms,
    a :class:`Certified` otherwise.
    """
    check_digits(digits)
    eps_q = exact_input(eps, "eps")
    query = Query({"mechanism": lambda: text_of(mechanism), "eps": text(eps), "digits": str(digits)})
    kind, data = _classify(mechanism)
    if kind == "gaussian":
        return gaussian_delta(data, eps_q, digits, query)  # type: ignore[arg-type]
    if kind == "rr":
        return rr_delta(data, eps_q, digits, query)  # type: ignore[arg-type]
    if kind == "approx":
        return approx_dp_delta(data, eps_q, digits, query)  # type: ignore[arg-type]
    if len(data) == 1 and data[0][1] == 1:  # type: ignore[arg-type, index]
        return laplace_single_delta(data[0][0], eps_q, digits, query)  # type: ignore[index]
    from cdpsym.accounting.laplace import laplace_composition_delta_bounds, laplace_delta_bounds

    if len(data) == 1:  # type: ignore[arg-type]
        eps0, k = data[0]  # type: ignore[index]
        return laplace_delta_bounds(eps0, k, eps_q, digits=digits, query=query)
    return laplace_composition_delta_bounds(data, eps_q, digits=digits, query=query)
