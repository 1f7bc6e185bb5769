r"""Binary randomized response ``RR_eps``: report the true bit with probability ``p = e^ε/(1+e^ε)``.

``RR_ε`` is exactly ``ε``-DP, and it is the worst case of the class: every
``ε``-DP pair is a post-processing of its pair (Kairouz–Oh–Viswanath), so its
k-fold products give the optimal composition theorems (R-F7, R-F8; see
:mod:`cdpsym.mechanisms.composition`).  On the pair ``P = (p, 1-p)``,
``Q = (1-p, p)`` over outputs ``(1, 0)``:

* Rényi divergence (R-D3; Mironov 2017, Prop. 5), ``α > 1``:

  .. math:: D_\alpha(P\|Q)=\frac{1}{\alpha-1}
            \log\big[p^\alpha(1-p)^{1-\alpha}+(1-p)^\alpha p^{1-\alpha}\big],

  ``D_1 = (2p-1)\log\frac{p}{1-p} = ε\tanh(ε/2)`` (R-B14), ``D_∞ = ε``;

* exact privacy profile (R-E6), valid for ``ε' >= -ε``:

  .. math:: \delta(\varepsilon')=\max\Big(0,\ \frac{e^{\varepsilon}-e^{\varepsilon'}}{1+e^{\varepsilon}}\Big).

Parameterization: Mironov writes ``RR_p`` with ``p ∈ (1/2, 1)``; here the
mechanism is parameterized by ``eps = log(p/(1-p))`` (use
:meth:`RandomizedResponse.from_p` for the other form).  ``eps = 0`` (a fair
coin, perfectly private) is allowed.

References: Mironov 2017, Prop. 5, arXiv:1702.07476v3; Kairouz, Oh &
Viswanath 2015, Thm 3.3, arXiv:1311.0776.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mp

from cdpsym.errors import InvalidParameter
from cdpsym.expr import symbols
from cdpsym.mechanisms._common import (GUARD, LatexMixin, check_dps, escalate, fmt, latex_of, order,
                                       parameter, require_numeric, round_to, to_mpf)

__all__ = ["RandomizedResponse"]


@dataclass(frozen=True, init=False, repr=False)
class RandomizedResponse(LatexMixin):
    """Binary randomized response with privacy parameter ``eps >= 0``.

    >>> rr = RandomizedResponse(eps=1)
    >>> rr
    RandomizedResponse(eps=1)
    >>> rr.p
    E/(1 + E)
    >>> mp.nstr(rr.delta(0), 15), mp.nstr(mp.tanh(0.5), 15)
    ('0.46211715726001', '0.46211715726001')
    """

    eps: sp.Expr

    def __init__(self, eps: object) -> None:
        object.__setattr__(self, "eps", parameter("eps", eps, nonnegative=True))

    @classmethod
    def from_p(cls, p: object) -> "RandomizedResponse":
        """``RR_p`` of Mironov: keep the bit with probability ``p`` in ``[1/2, 1)``; ``eps = log(p/(1-p))``."""
        value = parameter("p", p)
        if (value - sp.Rational(1, 2)).is_negative or (value - 1).is_nonnegative:
            raise InvalidParameter(f"p must be in [1/2, 1), got p={fmt(value)}")
        return cls(sp.log(value / (1 - value)))

    def __repr__(self) -> str:
        return f"RandomizedResponse(eps={fmt(self.eps)})"

    def latex(self) -> str:
        return rf"\mathrm{{RR}}\left(\varepsilon={latex_of(self.eps)}\right)"

    @property
    def parameters(self) -> dict[str, sp.Expr]:
        """The constructor arguments by name (as sympy expressions)."""
        return {"eps": self.eps}

    # -- closed forms (sympy) ------------------------------------------------------------------------
    @property
    def p(self) -> sp.Expr:
        """``e^ε/(1 + e^ε)``, the probability of reporting the true bit."""
        return sp.exp(self.eps) / (1 + sp.exp(self.eps))

    def renyi_divergence(self, alpha: object) -> sp.Expr:
        """``D_α(P||Q)`` for ``α`` in ``[1, oo]`` (R-D3; KL at ``1``, ``ε`` at ``oo``)."""
        a = order(alpha)
        if a is sp.oo:
            return self.eps
        if a == 1:
            return self.kl()
        p = self.p
        return sp.log(p ** a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a)) / (a - 1)

    def kl(self) -> sp.Expr:
        """``D_KL(P||Q) = (2p - 1) log(p/(1-p)) = ε tanh(ε/2)`` (R-D3, R-B14)."""
        return self.eps * sp.tanh(self.eps / 2)

    def privacy_profile(self, eps: object = symbols.eps) -> sp.Expr:
        """``max(0, (e^ε0 - e^ε)/(1 + e^ε0))`` in the argument *eps*, ``ε0`` the mechanism's (R-E6)."""
        e = parameter("eps", eps)
        e0 = self.eps
        return sp.Max(0, (sp.exp(e0) - sp.exp(e)) / (1 + sp.exp(e0)))

    # -- numbers (mpmath) ----------------------------------------------------------------------------
    def delta(self, eps: object, dps: int = 50) -> mpmath.mpf:
        """The exact ``δ(ε')`` (R-E6) at ``ε' = eps``, any real *eps*, to *dps* digits.

        Evaluated atom by atom as ``p(1 - e^{ε'-ε})_+ + (1-p)(1 - e^{ε'+ε})_+``
        with ``expm1``: no cancellation.
        """
        check_dps(dps)
        require_numeric(self, **self.parameters)
        with mp.workdps(dps + GUARD):
            e0 = to_mpf(self.eps, "eps")
            e = to_mpf(eps, "eps")
            p, q = 1 / (1 + mp.exp(-e0)), 1 / (1 + mp.exp(e0))
            value = p * max(mp.zero, -mp.expm1(e - e0)) + q * max(mp.zero, -mp.expm1(e + e0))
        return round_to(value, dps)

    def epsilon(self, delta: object, dps: int = 50) -> mpmath.mpf:
        """The least ``ε' >= 0`` with ``δ(ε') <= delta``: ``max(0, ε + log(1 - delta/p))``."""
        check_dps(dps)
        require_numeric(self, **self.parameters)

        def kernel(w: int) -> tuple[mpmath.mpf, mpmath.mpf]:
            e0 = to_mpf(self.eps, "eps")
            d = to_mpf(delta, "delta")
            if not 0 <= d <= 1:
                raise InvalidParameter(f"delta must be in [0, 1], got delta={fmt(delta)}")
            p = 1 / (1 + mp.exp(-e0))
            if d >= mp.tanh(e0 / 2):  # δ(0) = p - (1 - p)
                return mp.zero, mp.zero
            shift = mp.log1p(-d / p)
            return e0 + shift, e0 + abs(shift)

        return escalate(kernel, dps, "the randomized-response epsilon")

    def distributions(self, dps: int = 50) -> tuple[dict[int, mpmath.mpf], dict[int, mpmath.mpf]]:
        """The pair ``P = {1: p, 0: 1-p}``, ``Q = {1: 1-p, 0: p}`` (output 1 = the true bit of ``x``)."""
        check_dps(dps)
        require_numeric(self, **self.parameters)
        with mp.workdps(dps + GUARD):
            e0 = to_mpf(self.eps, "eps")
            p, q = 1 / (1 + mp.exp(-e0)), 1 / (1 + mp.exp(e0))
        return {1: p, 0: q}, {1: q, 0: p}


symbols.describe(RandomizedResponse, r"$\mathcal{M}_{\mathrm{RR}}(\varepsilon)$ is randomized response on one bit: "
                                     r"the true bit with probability $e^{\varepsilon}/(1 + e^{\varepsilon})$, else "
                                     r"its negation", 7)
