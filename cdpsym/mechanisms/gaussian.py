r"""The Gaussian mechanism ``M(x) = f(x) + N(0, sigma^2)``: privacy loss, Rényi divergence, exact profile.

For sensitivity ``Δ`` and noise ``σ`` write ``τ = Δ/σ`` and ``ρ = Δ²/(2σ²) = τ²/2``.
On the worst neighbouring pair ``P = N(0, σ²)``, ``Q = N(Δ, σ²)``:

* the privacy loss is Gaussian (R-B8):

  .. math:: L\sim N(\rho,\,2\rho),\qquad \rho=\frac{\Delta^2}{2\sigma^2};

* the Rényi divergence is linear in the order (R-C1, R-D1), so the mechanism
  is ``ρ``-zCDP (R-C2):

  .. math:: D_\alpha(P\|Q)=\frac{\alpha\Delta^2}{2\sigma^2}=\alpha\rho;

* the privacy profile is exact (R-E4, the "analytic Gaussian mechanism"):

  .. math:: \delta(\varepsilon)=\Phi\Big(\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}{\Delta}\Big)
            -e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}{\Delta}\Big).

Parameterization: ``sigma`` is the standard deviation (Mironov 2017 writes
"standard deviation σ²" and means the variance); Dwork–Rothblum's CDP
parameter is ``tau = Δ/σ``.  The profile formula holds for every real ``ε``.

Numerics: the two terms of ``δ(ε)`` nearly cancel when ``ε ≫ τ²`` (the loss
is about ``log10(ε/τ²)`` digits); :meth:`Gaussian.delta` evaluates them with
``erfc`` and raises the working precision until the difference has the
requested digits, so it is accurate down to ``δ ≈ 1e-300`` and beyond.
:meth:`Gaussian.epsilon` inverts the profile by a bracketed Illinois
iteration on ``log δ(ε)``, bracketed by ``[0, ρ + 2√(ρ log(1/δ))]`` (an
upper bound by Bun–Steinke Prop. 1.3; R-C4).

References: Dwork & Rothblum 2016, Thm 3.2, arXiv:1603.01887v2;
Bun & Steinke 2016, Prop. 1.6 and §2 (Rényi divergence of Gaussians), arXiv:1605.02065;
Mironov 2017, Prop. 7, arXiv:1702.07476v3;
Balle & Wang 2018, Thm 8, arXiv:1805.06530v2.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mp

from cdpsym.errors import InvalidParameter
from cdpsym.expr import symbols
from cdpsym.mechanisms._common import (GUARD, LatexMixin, check_dps, escalate, fmt, latex_of,
                                       mpf_parameter, order, parameter, require_numeric, round_to, solve_decreasing,
                                       to_mpf)
from cdpsym.mechanisms.profile import DensityPair

__all__ = ["Gaussian"]


def _phi(x: sp.Expr) -> sp.Expr:
    """The standard normal CDF, ``Φ(x) = erfc(-x/√2)/2`` (R-0.1)."""
    return sp.erfc(-x / sp.sqrt(2)) / 2


def gaussian_profile_terms(tau: mpmath.mpf, eps: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf]:
    """``(δ(ε), Φ(τ/2 - ε/τ))`` at the current precision: the profile and its larger term."""
    root2 = mp.sqrt(2)
    first = mp.erfc((eps / tau - tau / 2) / root2) / 2
    second = mp.exp(eps) * mp.erfc((eps / tau + tau / 2) / root2) / 2
    return first - second, first


def gaussian_delta(tau: sp.Expr, eps: object, dps: int) -> mpmath.mpf:
    """The Gaussian privacy profile at ``tau = Δ/σ``, to *dps* significant digits."""
    tau_value = mpf_parameter(tau, "tau")

    def kernel(w: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        return gaussian_profile_terms(tau_value(), to_mpf(eps, "eps"))

    return escalate(kernel, dps, "the Gaussian privacy profile")


def gaussian_epsilon(tau: sp.Expr, delta: object, dps: int) -> mpmath.mpf:
    """The least ``ε >= 0`` with ``δ(ε) <= delta`` for ``tau = Δ/σ``, to *dps* digits."""
    w = dps + GUARD
    with mp.workdps(w):
        target = to_mpf(delta, "delta")
        if not 0 <= target <= 1:
            raise InvalidParameter(f"delta must be in [0, 1], got delta={fmt(delta)}")
        if target == 0:
            return mp.inf
        if gaussian_delta(tau, 0, w) <= target:
            return mp.zero
        rho = to_mpf(tau, "tau") ** 2 / 2
        log_target = mp.log(target)

        def g(e: mpmath.mpf) -> mpmath.mpf:
            return mp.log(gaussian_delta(tau, e, w)) - log_target

        hi = rho + 2 * mp.sqrt(rho * -log_target)  # Bun–Steinke Prop 1.3: δ(hi) <= target
        while g(hi) > 0:
            hi *= 2
        root = solve_decreasing(g, mp.zero, hi, mp.mpf(10) ** (-(dps + 3)))
    return round_to(root, dps)


@dataclass(frozen=True, init=False, repr=False)
class Gaussian(LatexMixin):
    """The Gaussian mechanism ``f(x) + N(0, sigma^2)`` for ``f`` of (ℓ2-)sensitivity ``sensitivity``.

    >>> g = Gaussian(sensitivity=1, sigma=2)
    >>> g
    Gaussian(sensitivity=1, sigma=2)
    >>> g.rho, g.renyi_divergence(3)
    (1/8, 3/8)
    >>> mp.nstr(Gaussian(1, 1).delta(1), 18)
    '0.126936737506643946'
    >>> mp.nstr(Gaussian(1, 1).epsilon(1e-6), 12)
    '4.88655411746'
    """

    sensitivity: sp.Expr
    sigma: sp.Expr

    def __init__(self, sensitivity: object, sigma: object) -> None:
        object.__setattr__(self, "sensitivity", parameter("sensitivity", sensitivity, positive=True))
        object.__setattr__(self, "sigma", parameter("sigma", sigma, positive=True))

    # -- printing ----------------------------------------------------------------------------------
    def __repr__(self) -> str:
        return f"Gaussian(sensitivity={fmt(self.sensitivity)}, sigma={fmt(self.sigma)})"

    def latex(self) -> str:
        return (rf"\mathrm{{Gaussian}}\left(\Delta={latex_of(self.sensitivity)},\ "
                rf"\sigma={latex_of(self.sigma)}\right)")

    @property
    def parameters(self) -> dict[str, sp.Expr]:
        """The constructor arguments by name (as sympy expressions)."""
        return {"sensitivity": self.sensitivity, "sigma": self.sigma}

    # -- closed forms (sympy) ------------------------------------------------------------------------
    @property
    def tau(self) -> sp.Expr:
        """Dwork–Rothblum's parameter ``Δ/σ`` (the mechanism is ``(τ²/2, τ)``-CDP, R-B8)."""
        return self.sensitivity / self.sigma

    @property
    def rho(self) -> sp.Expr:
        """``Δ²/(2σ²)``: the mechanism is exactly ``ρ``-zCDP (R-C2)."""
        return self.sensitivity ** 2 / (2 * self.sigma ** 2)

    @property
    def privacy_loss_mean(self) -> sp.Expr:
        """``E[L] = ρ`` (R-B8; it is also the KL divergence, R-A1)."""
        return self.rho

    @property
    def privacy_loss_variance(self) -> sp.Expr:
        """``Var[L] = 2ρ = τ²`` (R-B8)."""
        return 2 * self.rho

    def renyi_divergence(self, alpha: object) -> sp.Expr:
        """``D_α(P||Q) = α Δ²/(2σ²)`` for ``α`` in ``[1, oo]`` (R-C1; ``oo`` at ``α = oo``)."""
        a = order(alpha)
        return sp.oo if a is sp.oo else a * self.rho

    def kl(self) -> sp.Expr:
        """``D_KL(P||Q) = ρ``."""
        return self.rho

    def privacy_profile(self, eps: object = symbols.eps) -> sp.Expr:
        """The exact profile ``δ(ε)`` (R-E4) as a sympy expression in *eps*."""
        e = parameter("eps", eps)
        a = self.sensitivity / (2 * self.sigma)
        b = e * self.sigma / self.sensitivity
        return _phi(a - b) - sp.exp(e) * _phi(-a - b)

    # -- numbers (mpmath) ----------------------------------------------------------------------------
    def delta(self, eps: object, dps: int = 50) -> mpmath.mpf:
        """The exact ``δ(ε)`` (R-E4), an ``mpf`` with *dps* correct significant digits (any real *eps*)."""
        check_dps(dps)
        require_numeric(self, **self.parameters)
        return gaussian_delta(self.tau, eps, dps)

    def epsilon(self, delta: object, dps: int = 50) -> mpmath.mpf:
        """The least ``ε >= 0`` with ``δ(ε) <= delta`` (``0`` if ``δ(0) <= delta``; ``inf`` if ``delta = 0``)."""
        check_dps(dps)
        require_numeric(self, **self.parameters)
        return gaussian_epsilon(self.tau, delta, dps)

    def densities(self) -> DensityPair:
        """The worst neighbouring pair ``P = N(0, σ²)``, ``Q = N(Δ, σ²)`` as mpmath density callables."""
        sigma, shift = mpf_parameter(self.sigma, "sigma"), mpf_parameter(self.sensitivity, "sensitivity")

        def p(y: mpmath.mpf) -> mpmath.mpf:
            s = sigma()
            return mp.exp(-(y / s) ** 2 / 2) / (s * mp.sqrt(2 * mp.pi))

        def q(y: mpmath.mpf) -> mpmath.mpf:
            s = sigma()
            return mp.exp(-((y - shift()) / s) ** 2 / 2) / (s * mp.sqrt(2 * mp.pi))

        width = 60 * self.sigma
        return DensityPair(p, q, kinks=(), search=(-width, self.sensitivity + width),
                           description=f"N(0, sigma^2) || N(Delta, sigma^2) of {self!r}")


symbols.describe(Gaussian, r"$\mathcal{M}_{\mathrm{Gauss}}(\Delta, \sigma)$ is the Gaussian mechanism "
                           r"$x \mapsto f(x) + \mathcal{N}(0, \sigma^2)$ for a query $f$ of sensitivity $\Delta$", 5)
