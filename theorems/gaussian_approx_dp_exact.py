r"""The exact privacy profile of the Gaussian mechanism (the analytic Gaussian mechanism) — *supported*.

.. math::
    \delta_{\mathcal N(0,\sigma^2)\|\mathcal N(\Delta,\sigma^2)}(\varepsilon)
    =\Phi\Big(\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}{\Delta}\Big)
     -e^{\varepsilon}\,\Phi\Big(-\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}{\Delta}\Big),
    \qquad \Phi(x)=\tfrac12\big(1+\operatorname{erf}(x/\sqrt2)\big).

Parameterization: ``sensitivity`` is the ℓ2-sensitivity Δ > 0, ``sigma`` the
standard deviation σ > 0 of the noise, ``eps`` the target ε > 0 (REFERENCE
states ε ≥ 0; the formula is continuous at 0).  The pair is the worst
neighbouring pair :math:`P=\mathcal N(0,\sigma^2)`, :math:`Q=\mathcal N(\Delta,\sigma^2)`
(translation invariance makes every pair at distance Δ the same).  In terms of
:math:`\tau=\Delta/\sigma=\sqrt{2\rho}`:
:math:`\delta=\Phi(\tau/2-\varepsilon/\tau)-e^{\varepsilon}\Phi(-\tau/2-\varepsilon/\tau)`.
BW18 state it as "M is (ε,δ)-DP iff δ ≥ δ_G(ε)"; the "iff" also needs that the
profile increases with the distance of the pair (REFERENCE's proof), which is
*not* encoded here: this theorem is the profile of the pair at distance Δ.

Verdict: **supported, not proved.**  The kernel has no rule that splits an
integral at the point where its integrand changes sign, so it cannot go from
the definition :math:`\int(p-e^{\varepsilon}q)_+` (R-A6) to two normal tails;
an axiom that did so for Gaussians would be the theorem itself (a DP lemma),
which the library does not admit.  Interval arithmetic (``interval``) cannot
evaluate the opaque divergence either.  The chain is therefore one ``numeric``
step (evidence, never a proof), and the statement is checked at 50 digits
against two computations that do not use the formula:

* quadrature of the definition :math:`\int(p-e^{\varepsilon}q)_+` from the two
  densities, with the crossing located by bisection (``definition_by_quadrature``);
* quadrature of the expectation form :math:`\mathbb E_P[(1-e^{\varepsilon-L})_+]`
  (R-A6) with the loss :math:`L=\tau^2/2-\tau Y` of the standardised output
  :math:`Y\sim\mathcal N(0,1)` (R-B8, ``gaussian_privacy_loss``).

(:meth:`cdpsym.mechanisms.Gaussian.delta` evaluates this very formula, so it
is *not* used as ground truth here.)

Proof sketch (BW18 / REFERENCE R-E4, not kernel-checked): :math:`L\sim\mathcal N(\tau^2/2,\tau^2)`;
:math:`\mathbb E[(1-e^{\varepsilon-L})_+]=\Pr[L>\varepsilon]-e^{\varepsilon}\mathbb E[e^{-L}\mathbf 1_{L>\varepsilon}]`
and exponential tilting turns the second term into a normal tail.

Tight: exact (this is the privacy profile).

References
----------
* Balle & Wang 2018, *Improving the Gaussian Mechanism for Differential Privacy: Analytical Calibration and
  Optimal Denoising*, Thm 8 (equation (6)), arXiv:1805.06530v2.
* REFERENCE.md R-E4 (statement), R-A6 (hockey-stick forms), R-B8 (the Gaussian privacy loss), ✓N5.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import eps, positive, sensitivity, sigma
from cdpsym.expr.operators import HockeyStick, Normal
from cdpsym.proof import Chain, Part, Theorem, eq, numeric

__all__ = ["theorem", "make", "mutants", "PROFILE", "phi", "profile", "expectation_form", "definition_by_quadrature", "arb_integral"]


def phi(x: sp.Expr) -> sp.Expr:
    """The standard normal CDF, ``erfc(-x/sqrt(2))/2`` (R-0.1; equal to R-0.5's ``(1 + erf(x/sqrt(2)))/2``, and free
    of its cancellation for negative ``x``)."""
    return sp.erfc(-x / sp.sqrt(2)) / 2


def profile(delta_: sp.Expr = sensitivity, sigma_: sp.Expr = sigma, eps_: sp.Expr = eps) -> sp.Expr:
    """BW18's δ_G(ε) for sensitivity ``delta_`` and noise ``sigma_`` (a sympy expression)."""
    a = delta_ / (2 * sigma_)
    b = eps_ * sigma_ / delta_
    return phi(a - b) - sp.exp(eps_) * phi(-a - b)


PROFILE = profile()


# -- ground truths ------------------------------------------------------------------------------------------

def _width():
    """A half-width ``w`` with ``e^{-w²/2}`` below the working precision (the mass a truncation leaves out)."""
    return mpmath.sqrt(2 * (mpmath.mp.dps + 10) * mpmath.log(10))


def arb_integral(f, lo, hi, *constants):
    """``∫_lo^hi f(y, *constants) dy`` by Arb's rigorous quadrature (``acb.integral``) at the working precision
    plus 40 bits, as an mpf; ``f`` takes Arb balls and must be analytic on the interval."""
    import flint

    from theorems.foundations_composition import to_arb

    old = flint.ctx.prec
    flint.ctx.prec = mpmath.mp.prec + 40
    try:
        args = [to_arb(c) for c in constants]
        value = flint.acb.integral(lambda y, analytic: f(y, *args), to_arb(lo), to_arb(hi)).real
        man, exp = value.mid().man_exp()
        return mpmath.mpf((int(man), int(exp)))
    finally:
        flint.ctx.prec = old


def expectation_form(tau, e):
    r""":math:`\mathbb E_P[(1-e^{e-L})_+]` for :math:`P=\mathcal N(0,1)`, :math:`Q=\mathcal N(\tau,1)`, by quadrature.

    The loss at the output ``u`` is :math:`\log\varphi(u)/\varphi(u-\tau)=\tau^2/2-\tau u`, so
    :math:`(1-e^{e-L})_+ = (1-e^{e-\tau^2/2+\tau u})_+`, positive exactly for :math:`u<c=\tau/2-e/\tau`;
    the expectation is :math:`\int_{-\infty}^{c}\varphi(u)(1-e^{e-\tau^2/2+\tau u})\,du`, truncated
    where the Gaussian mass left out is below the working precision.
    """
    c = tau / 2 - e / tau
    lo = min(c, 0) - _width()
    # φ(u) = φ(c)·e^{(c² - u²)/2}: the factor φ(c) is taken out so that the integrand is not below Arb's
    # absolute tolerance when the profile is tiny
    g = lambda u, t, ee, cc: ((cc * cc - u * u) / 2).exp() * (1 - (ee - t * t / 2 + t * u).exp())  # noqa: E731
    return arb_integral(g, lo, c, tau, e, c) * mpmath.npdf(c)


def definition_by_quadrature(delta_, sigma_, e):
    r""":math:`\int(p-e^{e}q)_+\,dy` for :math:`p=\mathcal N(0,\sigma^2)`, :math:`q=\mathcal N(\Delta,\sigma^2)`,
    from the two densities written out, at the current precision.

    The crossing ``y*`` of ``p`` and ``e^e q`` is located by bisection on ``log p - log q - e`` (which
    decreases in ``y``); left of it the integrand is ``p - e^e q``, right of it zero (checked at a few
    points).  The integral is truncated where the Gaussian mass left out is below the working precision.
    """
    d, s = mpmath.mpf(delta_), mpmath.mpf(sigma_)
    log_p = lambda y: -(y / s) ** 2 / 2  # noqa: E731  (the common factor 1/(s sqrt(2 pi)) cancels in the ratio)
    log_q = lambda y: -((y - d) / s) ** 2 / 2  # noqa: E731
    gap = lambda y: log_p(y) - log_q(y) - e  # noqa: E731
    lo, hi = -s, s
    while gap(lo) < 0:
        lo *= 2
    while gap(hi) > 0:
        hi *= 2
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if gap(mid) > 0 else (lo, mid)
    cross = (lo + hi) / 2
    for k in (1, 2, 10):  # right of the crossing p <= e^e q: the positive part vanishes there
        if gap(cross + k * s) > 0:
            raise ValueError("the densities cross twice")
    start = min(cross, mpmath.mpf(0)) - _width() * s
    # the factor p(y*) is taken out, so that the integrand is O(1) near the crossing even when δ is tiny
    top = log_p(cross)
    f = lambda y, ss, dd, ee, tt: ((-(y / ss) ** 2 / 2 - tt).exp()  # noqa: E731
                                   - (ee - ((y - dd) / ss) ** 2 / 2 - tt).exp())
    return arb_integral(f, start, cross, s, d, e, top) * mpmath.exp(top) / (s * mpmath.sqrt(2 * mpmath.pi))


def _ground_truth(v, dps):
    d, s, e = v[sensitivity], v[sigma], v[eps]
    with mpmath.workdps(dps + 20):
        d, s, e = mpmath.mpf(d), mpmath.mpf(s), mpmath.mpf(e)
        direct = definition_by_quadrature(d, s, e)
        tilted = expectation_form(d / s, e)
    return [("quadrature of the definition int (p - e^eps q)_+, p = N(0, sigma^2), q = N(Delta, sigma^2)", +direct),
            ("quadrature of E_P[(1 - e^(eps - L))_+], L = tau^2/2 - tau*Y, Y ~ N(0, 1)", +tilted)]


# -- the theorem -------------------------------------------------------------------------------------------

def make(claimed: sp.Expr = PROFILE) -> Theorem:
    """The profile as claimed by ``claimed`` (tests build mutants with a smaller one)."""
    lhs = HockeyStick(eps, Normal(0, sigma), Normal(sensitivity, sigma))
    proof = Chain(lhs).eq(claimed, numeric())  # evidence only: see the module docstring
    return Theorem(
        name="gaussian_approx_dp_exact",
        reference="R-E4",
        source="Balle & Wang 2018, Thm 8, arXiv:1805.06530v2",
        title="the exact privacy profile of the Gaussian mechanism (analytic Gaussian mechanism)",
        variables={sensitivity: positive(sample_lo=0.05, sample_hi=5),
                   sigma: positive(sample_lo=0.2, sample_hi=5),
                   eps: positive(sample_lo=1e-3, sample_hi=8)},
        parts=(Part("main", eq(lhs, claimed), proof=proof, ground_truth=_ground_truth),),
        numeric_points=({"eps": "1", "Delta": "1", "sigma": "1"}, {"eps": "0.5", "Delta": "1", "sigma": "2"},
                        {"eps": "3", "Delta": "2", "sigma": "0.9"},
                        {"eps": "10", "Delta": "1", "sigma": "0.48448048"},
                        {"eps": "1e-6", "Delta": "0.3", "sigma": "1.5"}),
        property_examples=20,
        tight="exact: this is the privacy profile of the pair at distance Δ.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Δ/(4σ) for Δ/(2σ): the sensitivity halved", make(profile(sensitivity / 2))),
        ("2σ for σ: the noise doubled", make(profile(sensitivity, 2 * sigma))),
        ("e^(2ε) for e^ε in the second term", make(phi(sensitivity / (2 * sigma) - eps * sigma / sensitivity)
                                                    - sp.exp(2 * eps) * phi(-sensitivity / (2 * sigma)
                                                                             - eps * sigma / sensitivity))),
    ]
