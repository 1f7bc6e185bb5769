r"""The Laplace mechanism ``M(x) = f(x) + Lap(b)``: Rényi divergence, KL, exact privacy profile.

For real-valued ``f`` of sensitivity ``Δ`` and scale ``b`` write
``ε0 = Δ/b``; the mechanism is ``ε0``-DP (R-G1).  On the worst pair
``P = Lap(0, b)``, ``Q = Lap(Δ, b)``:

* Rényi divergence (R-D2; Mironov 2017, Prop. 6), for ``α > 1``:

  .. math:: D_\alpha(P\|Q)=\frac{1}{\alpha-1}\log\Big[\frac{\alpha}{2\alpha-1}e^{(\alpha-1)\varepsilon_0}
            +\frac{\alpha-1}{2\alpha-1}e^{-\alpha\varepsilon_0}\Big],

  with limits ``ε0 + e^{-ε0} - 1`` (KL, ``α → 1``) and ``ε0`` (``α → ∞``);

* exact privacy profile (R-E5), valid for ``ε >= -ε0``:

  .. math:: \delta(\varepsilon)=\max\big(0,\ 1-e^{(\varepsilon-\varepsilon_0)/2}\big),

  and ``δ(ε) = 1 - e^ε`` for ``ε < -ε0`` (every outcome has loss above ``ε``).

Parameterization: Mironov writes the scale as ``λ`` with sensitivity 1;
here ``scale = b`` and ``ε0 = sensitivity/scale``.  ``1 - e^x`` is evaluated
as ``-expm1(x)``, so the profile has full relative precision near ``ε0``.

References: Mironov 2017, Prop. 6 and Cor. 2, arXiv:1702.07476v3;
Harrison & Manurangsi 2025, arXiv:2510.25746 (the KL limit is the best zCDP
constant); Dwork & Roth 2014, Thm 3.6.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mp

from cdpsym.errors import InvalidParameter
from cdpsym.expr import symbols
from cdpsym.mechanisms._common import (GUARD, LatexMixin, check_dps, escalate, fmt, latex_of,
                                       mpf_parameter, order, parameter, require_numeric, round_to, to_mpf)
from cdpsym.mechanisms.profile import DensityPair

__all__ = ["Laplace"]


@dataclass(frozen=True, init=False, repr=False)
class Laplace(LatexMixin):
    """The Laplace mechanism ``f(x) + Lap(scale)`` for real ``f`` of sensitivity ``sensitivity``.

    >>> lap = Laplace(sensitivity=1, scale=2)
    >>> lap
    Laplace(sensitivity=1, scale=2)
    >>> lap.eps0, lap.kl()
    (1/2, -1/2 + exp(-1/2))
    >>> mp.nstr(lap.delta(0), 15)
    '0.221199216928595'
    """

    sensitivity: sp.Expr
    scale: sp.Expr

    def __init__(self, sensitivity: object, scale: object) -> None:
        object.__setattr__(self, "sensitivity", parameter("sensitivity", sensitivity, positive=True))
        object.__setattr__(self, "scale", parameter("scale", scale, positive=True))

    def __repr__(self) -> str:
        return f"Laplace(sensitivity={fmt(self.sensitivity)}, scale={fmt(self.scale)})"

    def latex(self) -> str:
        return rf"\mathrm{{Laplace}}\left(\Delta={latex_of(self.sensitivity)},\ b={latex_of(self.scale)}\right)"

    @property
    def parameters(self) -> dict[str, sp.Expr]:
        """The constructor arguments by name (as sympy expressions)."""
        return {"sensitivity": self.sensitivity, "scale": self.scale}

    # -- closed forms (sympy) ------------------------------------------------------------------------
    @property
    def eps0(self) -> sp.Expr:
        """``Δ/b``: the mechanism is exactly ``ε0``-DP."""
        return self.sensitivity / self.scale

    def renyi_divergence(self, alpha: object) -> sp.Expr:
        """``D_α(P||Q)`` for ``α`` in ``[1, oo]`` (R-D2; KL at ``1``, ``ε0`` at ``oo``)."""
        a = order(alpha)
        e0 = self.eps0
        if a is sp.oo:
            return e0
        if a == 1:
            return self.kl()
        inner = a / (2 * a - 1) * sp.exp((a - 1) * e0) + (a - 1) / (2 * a - 1) * sp.exp(-a * e0)
        return sp.log(inner) / (a - 1)

    def kl(self) -> sp.Expr:
        """``D_KL(P||Q) = ε0 + e^{-ε0} - 1`` (the ``α → 1`` limit of R-D2)."""
        e0 = self.eps0
        return e0 + sp.exp(-e0) - 1

    def privacy_profile(self, eps: object = symbols.eps) -> sp.Expr:
        """``max(0, 1 - exp((ε - ε0)/2))`` (R-E5; valid for ``ε >= -ε0``)."""
        e = parameter("eps", eps)
        return sp.Max(0, 1 - sp.exp((e - self.eps0) / 2))

    # -- numbers (mpmath) ----------------------------------------------------------------------------
    def delta(self, eps: object, dps: int = 50) -> mpmath.mpf:
        """The exact ``δ(ε)`` (R-E5) as an ``mpf`` with *dps* digits, for any real *eps*."""
        check_dps(dps)
        require_numeric(self, **self.parameters)
        with mp.workdps(dps + GUARD):
            e0 = to_mpf(self.eps0, "eps0")
            e = to_mpf(eps, "eps")
            if e >= e0:
                value = mp.zero
            elif e >= -e0:
                value = -mp.expm1((e - e0) / 2)
            else:
                value = -mp.expm1(e)
        return round_to(value, dps)

    def epsilon(self, delta: object, dps: int = 50) -> mpmath.mpf:
        """The least ``ε >= 0`` with ``δ(ε) <= delta``: ``max(0, ε0 + 2 log(1 - delta))``."""
        check_dps(dps)
        require_numeric(self, **self.parameters)

        def kernel(w: int) -> tuple[mpmath.mpf, mpmath.mpf]:
            e0 = to_mpf(self.eps0, "eps0")
            d = to_mpf(delta, "delta")
            if not 0 <= d <= 1:
                raise InvalidParameter(f"delta must be in [0, 1], got delta={fmt(delta)}")
            if d >= -mp.expm1(-e0 / 2):
                return mp.zero, mp.zero
            shift = 2 * mp.log1p(-d)
            return e0 + shift, e0 + abs(shift)

        return escalate(kernel, dps, "the Laplace epsilon")

    def densities(self) -> DensityPair:
        """The worst pair ``P = Lap(0, b)``, ``Q = Lap(Δ, b)``; the densities have kinks at ``0`` and ``Δ``."""
        b, shift = mpf_parameter(self.scale, "scale"), mpf_parameter(self.sensitivity, "sensitivity")

        def p(y: mpmath.mpf) -> mpmath.mpf:
            s = b()
            return mp.exp(-abs(y) / s) / (2 * s)

        def q(y: mpmath.mpf) -> mpmath.mpf:
            s = b()
            return mp.exp(-abs(y - shift()) / s) / (2 * s)

        width = 60 * self.scale
        return DensityPair(p, q, kinks=(sp.Integer(0), self.sensitivity),
                           search=(-width, self.sensitivity + width),
                           description=f"Lap(0, b) || Lap(Delta, b) of {self!r}")


symbols.describe(Laplace, r"$\mathcal{M}_{\mathrm{Lap}}(\Delta, b)$ is the Laplace mechanism "
                          r"$x \mapsto f(x) + \mathrm{Lap}(b)$ for a query $f$ of sensitivity $\Delta$", 6)
