r"""The exact privacy profile of the Laplace mechanism — *supported*.

.. math::
    \delta_{\mathrm{Lap}(0,b)\|\mathrm{Lap}(\Delta,b)}(\varepsilon)
    =\max\Big(0,\ 1-e^{(\varepsilon-\varepsilon_0)/2}\Big),\qquad \varepsilon_0=\frac{\Delta}{b}.

Parameterization: real-valued ``f`` with sensitivity ``sensitivity`` = Δ > 0,
``M(x) = f(x) + Lap(b)`` with scale ``b`` > 0 (density :math:`\frac1{2b}e^{-|z|/b}`),
target ``eps`` = ε > 0 (REFERENCE: the formula holds for every ε ≥ −ε0; this
theorem states it for ε > 0).  The pair is the worst neighbouring pair
:math:`P=\mathrm{Lap}(0,b)`, :math:`Q=\mathrm{Lap}(\Delta,b)` (a pair at distance
Δ; that nearer pairs have smaller profiles is not encoded).  ``Lap(m, b)`` is an
opaque distribution symbol registered here (no typing is attached to it).

Verdict: **supported, not proved.**  As for the Gaussian profile
(:mod:`theorems.gaussian_approx_dp_exact`), the kernel cannot split the
integral :math:`\int(p-e^{\varepsilon}q)_+` where its integrand changes sign,
and interval arithmetic cannot evaluate the opaque divergence; the chain is one
``numeric`` step (evidence, never a proof).  The statement is checked at 50
digits against two computations that do not use the formula:

* quadrature of the definition :math:`\int(p-e^{\varepsilon}q)_+` from the two
  densities, split at their kinks 0 and Δ and at the crossing located by
  bisection;
* the expectation form :math:`\mathbb E_P[(1-e^{\varepsilon-L})_+]` (R-A6) from
  the law of the loss under :math:`P`: :math:`L=\varepsilon_0` with probability
  ½ (outputs :math:`y\le0`), :math:`L=(\Delta-2y)/b` for :math:`0<y<\Delta`
  (quadrature against the density of :math:`P`), :math:`L=-\varepsilon_0` beyond.

(:meth:`cdpsym.mechanisms.Laplace.delta` evaluates the formula itself and is
not used as ground truth.)

Proof sketch (REFERENCE R-E5, not kernel-checked): :math:`\{\ell>\varepsilon\}=(-\infty,y^{\ast})`
with :math:`y^{\ast}=(\Delta-\varepsilon b)/2`; :math:`P(y<y^{\ast})=1-\frac12e^{-(\varepsilon_0-\varepsilon)/2}`,
:math:`e^{\varepsilon}Q(y<y^{\ast})=\frac12e^{(\varepsilon-\varepsilon_0)/2}`; subtract.

Tight: exact; :math:`\delta(\varepsilon)=0` iff :math:`\varepsilon\ge\varepsilon_0` (pure ε0-DP, :mod:`theorems.laplace_pure_dp`).

References
----------
* Dwork, McSherry, Nissim & Smith 2006 (the Laplace mechanism); Dwork & Roth 2014, Thm 3.6.
* REFERENCE.md R-E5 (statement, derived there), R-A6 (hockey-stick forms), ✓N6.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import b, eps, positive, sensitivity
from cdpsym.expr.operators import HockeyStick, Opaque
from cdpsym.proof import Chain, Part, Theorem, eq, numeric, register_opaque
from theorems.gaussian_approx_dp_exact import arb_integral

__all__ = ["theorem", "make", "mutants", "PROFILE", "Lap", "definition_by_quadrature", "expectation_form"]


class Lap(Opaque):
    r"""``Lap(m, b)`` is the distribution :math:`\mathrm{Lap}(m, b)` (density :math:`\frac1{2b}e^{-|y-m|/b}`), an
    argument of divergences; like :class:`~cdpsym.expr.operators.Normal` it is never evaluated."""

    nargs = 2

    def _latex(self, printer):
        m, s = self.args
        return r"\mathrm{Lap}\left(%s, %s\right)" % (printer._print(m), printer._print(s))


register_opaque(Lap)  # an uninterpreted distribution symbol: no typing is trusted

EPS0 = sensitivity / b
PROFILE = sp.Max(0, 1 - sp.exp((eps - EPS0) / 2))


# -- ground truths ------------------------------------------------------------------------------------------

def _below_precision(value, dps):
    """0 for a value below the working precision (the masses are at most 1): at ε = ε0 the density difference
    vanishes on a half-line, and rounding must not leave a residue that an equality check reads as non-zero."""
    return mpmath.mpf(0) if abs(value) < mpmath.mpf(10) ** (-(dps + 10)) else value


def definition_by_quadrature(delta_, scale, e):
    r""":math:`\int(p-e^{e}q)_+` for :math:`p=\mathrm{Lap}(0,b)`, :math:`q=\mathrm{Lap}(\Delta,b)` from the densities.

    The log-ratio is non-increasing in ``y``; the crossing with ``e`` is located by bisection on [0, Δ]
    (none when ``e`` is outside the range of the log-ratio).  Left of it the integrand is ``p - e^e q``,
    analytic between the kinks 0 and Δ; it is integrated piecewise with Arb, the ray (−∞, 0] in closed
    form of its two exponentials (∫_{-∞}^0 e^{y/b} dy = b).
    """
    d, s = mpmath.mpf(delta_), mpmath.mpf(scale)
    w = mpmath.exp(e)
    log_ratio = lambda y: (abs(y - d) - abs(y)) / s  # noqa: E731  log p(y)/q(y)
    if log_ratio(0) <= e:  # p <= e^e q everywhere
        return mpmath.mpf(0)
    lo, hi = mpmath.mpf(0), d
    if log_ratio(d) > e:
        cross = d  # cannot happen for e >= -eps0; kept for completeness
    else:
        for _ in range(mpmath.mp.prec + 20):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if log_ratio(mid) > e else (lo, mid)
        cross = (lo + hi) / 2
    # on y < 0: p = e^{y/b}/(2b), q = e^{(y-Δ)/b}/(2b); their integrals over (-oo, 0] are 1/2 and e^{-Δ/b}/2
    ray = (1 - w * mpmath.exp(-d / s)) / 2
    f = lambda y, ss, dd, ww: ((-y / ss).exp() - ww * ((y - dd) / ss).exp()) / (2 * ss)  # noqa: E731  0 < y < Δ
    middle = arb_integral(f, mpmath.mpf(0), cross, s, d, w)
    return ray + middle


def expectation_form(delta_, scale, e):
    r""":math:`\mathbb E_P[(1-e^{e-L})_+]` from the law of the loss under :math:`P=\mathrm{Lap}(0,b)`."""
    d, s = mpmath.mpf(delta_), mpmath.mpf(scale)
    e0 = d / s
    atom = max(mpmath.mpf(0), 1 - mpmath.exp(e - e0)) / 2  # L = eps0 on y <= 0, probability 1/2
    # 0 < y < Δ: L = (Δ - 2y)/b > e iff y < (Δ - e b)/2
    top = min(d, max(mpmath.mpf(0), (d - e * s) / 2))
    g = lambda y, ss, dd, ee: (1 - (ee - (dd - 2 * y) / ss).exp()) * (-y / ss).exp() / (2 * ss)  # noqa: E731
    middle = arb_integral(g, mpmath.mpf(0), top, s, d, e) if top > 0 else mpmath.mpf(0)
    return atom + middle  # the third piece, L = -eps0 <= e, contributes nothing for e >= -eps0


def _ground_truth(v, dps):
    d, s, e = v[sensitivity], v[b], v[eps]
    with mpmath.workdps(dps + 20):
        d, s, e = mpmath.mpf(d), mpmath.mpf(s), mpmath.mpf(e)
        direct = definition_by_quadrature(d, s, e)
        tilted = expectation_form(d, s, e)
    return [("quadrature of the definition int (p - e^eps q)_+, p = Lap(0, b), q = Lap(Delta, b)",
             _below_precision(direct, dps)),
            ("E_P[(1 - e^(eps - L))_+] from the law of the loss (atom eps0 w.p. 1/2, quadrature on (0, Delta))",
             _below_precision(tilted, dps))]


# -- the theorem -------------------------------------------------------------------------------------------

def make(claimed: sp.Expr = PROFILE) -> Theorem:
    """The profile as claimed by ``claimed`` (tests build mutants with a smaller one)."""
    lhs = HockeyStick(eps, Lap(0, b), Lap(sensitivity, b))
    proof = Chain(lhs).eq(claimed, numeric())  # evidence only: see the module docstring
    return Theorem(
        name="laplace_approx_dp_exact",
        reference="R-E5",
        source="REFERENCE R-E5 (derived); Dwork & Roth 2014, Thm 3.6 (the mechanism)",
        title="the exact privacy profile of the Laplace mechanism",
        variables={sensitivity: positive(sample_lo=0.05, sample_hi=5),
                   b: positive(sample_lo=0.1, sample_hi=5),
                   eps: positive(sample_lo=1e-3, sample_hi=8)},
        parts=(Part("main", eq(lhs, claimed), proof=proof, ground_truth=_ground_truth),),
        numeric_points=({"Delta": "1", "b": "1", "eps": "0.3"}, {"Delta": "1.2", "b": "0.5", "eps": "1.1"},
                        {"Delta": "1", "b": "2", "eps": "1e-9"}, {"Delta": "2", "b": "1", "eps": "2"},
                        {"Delta": "1", "b": "0.1", "eps": "9.999"}, {"Delta": "1", "b": "1", "eps": "3"}),
        property_examples=20,
        tight="exact: this is the privacy profile of the pair at distance Δ.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("the profile halved", make(PROFILE / 2)),
        ("(ε − ε0)/4 for (ε − ε0)/2", make(sp.Max(0, 1 - sp.exp((eps - EPS0) / 4)))),
        ("ε0/2 for ε0: the sensitivity halved", make(sp.Max(0, 1 - sp.exp((eps - EPS0 / 2) / 2)))),
    ]
