r"""The Gaussian mechanism is :math:`(\Delta^2/(2\sigma^2),\ \Delta/\sigma)`-CDP; its privacy loss is Gaussian.

.. math::
    L=\frac{(\mu-\nu)^2}{2\sigma^2}+\frac{\mu-\nu}{\sigma}\,Z,\qquad
    \mathbb E[L]\le\frac{\Delta^2}{2\sigma^2},\qquad
    \mathbb E\big[e^{\lambda(L-\mathbb E L)}\big]\le e^{\lambda^2(\Delta/\sigma)^2/2}
    \quad\text{for every real }\lambda .

Parameterization: ``sensitivity`` is the sensitivity Δ of ``f``;
``M(x) = f(x) + N(0, σ²)``; :math:`P=N(\mu,\sigma^2)`, :math:`Q=N(\nu,\sigma^2)`
with :math:`\mu=f(x)`, :math:`\nu=f(x')`, :math:`|\mu-\nu|\le\Delta`.  The output
under :math:`P` is written :math:`y=\mu+\sigma Z` with :math:`Z\sim N(0,1)`,
so the privacy loss :math:`L=\log\frac{\varphi(y;\mu,\sigma)}{\varphi(y;\nu,\sigma)}`
is a random variable that is **linear in** :math:`Z`.  (μ,τ)-CDP is
Dwork–Rothblum's (R-A8): :math:`\mathbb E L\le\mu_{\mathrm{CDP}}` and the
centred loss is :math:`\tau`-subgaussian; here :math:`\mu_{\mathrm{CDP}}=\Delta^2/(2\sigma^2)`
and :math:`\tau=\Delta/\sigma`.  (Do not confuse the mean parameter with the
mean :math:`\mu=f(x)` of :math:`P`.)

Proof (DR16): expand the log-ratio of the two densities (the quadratic
terms cancel); **linearity of expectation** and :math:`\mathbb E Z=0` give the
mean; the centred loss is :math:`\frac{\mu-\nu}{\sigma}Z`, whose moment
generating function is the **Gaussian MGF** :math:`e^{\lambda^2(\mu-\nu)^2/(2\sigma^2)}`;
finally :math:`(\mu-\nu)^2\le\Delta^2`.  The trusted base states the standard
normal MGF for the explicit variable ``Z`` (``standard_normal_mgf``), not
``gaussian_mgf`` of :mod:`theorems.foundations`, whose random variable ``X``
is not tied to its parameters.

Tight: both bounds are equalities for the pair with :math:`|\mu-\nu|=\Delta`
(then :math:`L\sim N(\rho,2\rho)`, :math:`\rho=\Delta^2/(2\sigma^2)`, R-B8).

References
----------
* Dwork & Rothblum 2016, Thm 3.2, arXiv:1603.01887v2.
* Bun & Steinke 2016, Prop. 1.6 (the same loss, zCDP form), arXiv:1605.02065.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, lam, mu, nu, positive, real, sensitivity, sigma
from cdpsym.expr.operators import Expect, normal_density
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, le
from theorems.foundations_composition import Z, normal_expectation, standard_normal_mean, standard_normal_mgf
from theorems.foundations_convexity import expectation_affine
from theorems.gaussian_zcdp import shift

__all__ = ["theorem", "make", "mutants", "make_privacy_loss", "privacy_loss", "gaussian_pair",
           "MEAN", "TAU"]

MEAN = sensitivity ** 2 / (2 * sigma ** 2)
TAU = sensitivity / sigma

gaussian_pair = Hypothesis(
    name="gaussian_pair",
    title="(P, Q) = (N(μ, σ²), N(ν, σ²)): the loss at the output y = μ + σZ ~ P",
    relation=eq(L, sp.log(normal_density(mu + sigma * Z, mu, sigma) / normal_density(mu + sigma * Z, nu, sigma))),
)


# -- ground truths: quadrature of the definitions over the output of P -------------------------------------

def _pair(v):
    """(μ, ν, σ) allowed by the hypothesis |μ - ν| <= Δ (ν clipped to the sensitivity ball)."""
    m1, m2, s = v[mu], v[nu], v[sigma]
    if abs(m1 - m2) > v[sensitivity]:
        m2 = m1 + mpmath.sign(m2 - m1) * v[sensitivity]
    return m1, m2, s


def _log_ratio(u, m1, m2, s):
    """log p(y) - log q(y) at the output y = m1 + s·u of P, from the two log-densities (Arb balls)."""
    y = m1 + s * u
    return ((y - m2) ** 2 - (y - m1) ** 2) / (2 * s * s)  # the normalising constants cancel


def _width():
    return mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))  # e^{-w²/2} below the working precision


_KL: dict = {}


def _kl(v):
    """E_P[log p/q] by Arb quadrature (memoised: both parts use it at the same point)."""
    m1, m2, s = _pair(v)
    key = (m1, m2, s, mpmath.mp.prec)
    if key not in _KL:
        if len(_KL) > 256:
            _KL.clear()
        w = _width()
        _KL[key] = normal_expectation(_log_ratio, -w, w, m1, m2, s)
    return _KL[key]


def _mean_truth(v, dps):
    return [("Gaussian pair, quadrature of E_P[log p/q]", _kl(v))]


def _subgaussian_truth(v, dps):
    m1, m2, s = _pair(v)
    kl, ll, w = _kl(v), v[lam], _width()
    centre = ll * (m1 - m2) / s  # the integrand e^{λ·loss}·φ peaks there
    g = lambda u, m1_, m2_, s_, l_, kl_: (l_ * (_log_ratio(u, m1_, m2_, s_) - kl_)).exp()
    return [("Gaussian pair, quadrature of E_P[exp(λ(L - E L))]",
             normal_expectation(g, centre - w, centre + w, m1, m2, s, ll, kl))]


def _loss_truth(v, dps):
    """log p(y)/q(y) at the output y = μ + σz, from the two densities."""
    m1, m2, s, zz = v[mu], v[nu], v[sigma], v[Z]
    # the ratio is 1 - O(|mu - nu|): take enough extra digits that its log keeps `dps` significant ones
    gap = abs(m1 - m2)
    extra = 20 + (min(4000, int(-2 * mpmath.log10(gap)) + 10) if 0 < gap < 1 else 0)
    with mpmath.workdps(dps + extra):
        y = m1 + s * zz
        density = lambda c: mpmath.exp(-(y - c) ** 2 / (2 * s ** 2)) / mpmath.sqrt(2 * mpmath.pi * s ** 2)
        value = mpmath.log(density(m1) / density(m2))
    return [("log-ratio of the two densities", +value)]


C0 = (mu - nu) ** 2 / (2 * sigma ** 2)  # E[L]
A0 = (mu - nu) / sigma  # the slope of L in Z
LINEAR = C0 + A0 * Z


def make_privacy_loss(linear: sp.Expr = LINEAR) -> Theorem:
    """The lemma with the claimed loss ``linear`` (mutants are built with a wrong one)."""
    return Theorem(
        name="gaussian_privacy_loss",
        reference="R-B8",
        source="Dwork & Rothblum 2016, Thm 3.2 (proof), arXiv:1603.01887v2",
        title="privacy loss of a Gaussian pair",
        variables={mu: real(sample_lo=-5, sample_hi=5), nu: real(sample_lo=-5, sample_hi=5),
                   sigma: positive(sample_lo=0.1, sample_hi=10), Z: real(sample_lo=-8, sample_hi=8)},
        hypotheses=(gaussian_pair,),
        parts=(Part("main", eq(L, linear),
                    proof=Chain(L)
                    .eq(sp.log(normal_density(mu + sigma * Z, mu, sigma) / normal_density(mu + sigma * Z, nu, sigma)),
                        by(gaussian_pair))
                    .eq(linear, algebra("the quadratic terms in Z cancel")),
                    ground_truth=_loss_truth),),
        numeric_points=({"mu": "0", "nu": "1.3", "sigma": "0.7", "Z": "0.4"},
                        {"mu": "2.5", "nu": "-1", "sigma": "3", "Z": "-6"}),
        property_examples=30,
        tight="an identity.",
    )


privacy_loss = make_privacy_loss()


def make(mean: sp.Expr = MEAN, tau_: sp.Expr = TAU) -> Theorem:
    """The Gaussian mechanism with claimed CDP parameters ``(mean, tau_)`` (tests build mutants)."""
    mean_proof = (
        Chain(Expect(L))
        .eq(Expect(LINEAR), by(privacy_loss))
        .eq(A0 * Expect(Z) + C0, by(expectation_affine, X=Z, a=A0, b=C0))
        .eq(C0, by(standard_normal_mean))
        .le(mean, by(shift, inside=lambda w: w / (2 * sigma ** 2)))
    )
    centred = Expect(sp.exp(lam * (L - Expect(L))))
    sub_proof = (
        Chain(centred)
        .eq(Expect(sp.exp(lam * (LINEAR - Expect(LINEAR)))), by(privacy_loss))
        .eq(Expect(sp.exp(lam * (LINEAR - A0 * Expect(Z) - C0))), by(expectation_affine, X=Z, a=A0, b=C0))
        .eq(Expect(sp.exp(lam * A0 * Z)), by(standard_normal_mean))
        .eq(sp.exp(lam ** 2 * (mu - nu) ** 2 / (2 * sigma ** 2)), by(standard_normal_mgf, lam=lam * A0))
        .le(sp.exp(lam ** 2 * sensitivity ** 2 / (2 * sigma ** 2)),
            by(shift, inside=lambda w: sp.exp(lam ** 2 * w / (2 * sigma ** 2))))
        .eq(sp.exp(lam ** 2 * tau_ ** 2 / 2), algebra())
    )
    return Theorem(
        name="gaussian_cdp",
        reference="R-B8",
        source="Dwork & Rothblum 2016, Thm 3.2, arXiv:1603.01887v2",
        title="Gaussian mechanism, mean-concentrated DP",
        notion="Gaussian(sensitivity=Delta, sigma=sigma) is CDP(mu=Delta**2/(2*sigma**2), tau=Delta/sigma)",
        variables={sensitivity: positive(sample_lo=0.01, sample_hi=5),
                   sigma: positive(sample_lo=0.1, sample_hi=10),
                   mu: real(sample_lo=-5, sample_hi=5),
                   nu: real(sample_lo=-5, sample_hi=5),
                   lam: real(sample_lo=-4, sample_hi=4)},
        hypotheses=(shift, gaussian_pair),
        parts=(Part("mean", le(Expect(L), mean), proof=mean_proof, ground_truth=_mean_truth),
               Part("subgaussian", le(centred, sp.exp(lam ** 2 * tau_ ** 2 / 2)), proof=sub_proof,
                    ground_truth=_subgaussian_truth)),
        numeric_points=({"Delta": "1.3", "sigma": "0.7", "mu": "0", "nu": "1.3", "lam": "1.9"},
                        {"Delta": "1.7", "sigma": "2.3", "mu": "0", "nu": "-1.7", "lam": "-3"},
                        {"Delta": "2", "sigma": "3", "mu": "0.5", "nu": "-0.5", "lam": "0.4"}),
        property_examples=30,
        tight="both bounds are equalities when |f(x) - f(x')| = Δ (L ~ N(ρ, 2ρ), ρ = Δ²/(2σ²)).",
    )


theorem = make()
LEMMAS = [privacy_loss]


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement and of the lemma ``gaussian_privacy_loss`` (a mutant keeps the name of the
    theorem it mutates); tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("mean Δ²/(4σ²): halved", make(mean=sensitivity ** 2 / (4 * sigma ** 2))),
        ("standard Δ/(2σ): halved", make(tau_=sensitivity / (2 * sigma))),
        ("mean Δ/(2σ²): the square on Δ dropped", make(mean=sensitivity / (2 * sigma ** 2))),
        ("standard Δ/σ²: a square on σ", make(tau_=sensitivity / sigma ** 2)),
        ("lemma: L = (μ−ν)²/(4σ²) + (μ−ν)Z/σ, the mean term halved", make_privacy_loss(C0 / 2 + A0 * Z)),
        ("lemma: L = (μ−ν)/(2σ²) + (μ−ν)Z/σ, the square on μ − ν dropped",
         make_privacy_loss((mu - nu) / (2 * sigma ** 2) + A0 * Z)),
        ("lemma: L = (μ−ν)²/(2σ²), the noise term removed", make_privacy_loss(C0)),
    ]
