r"""The Rényi divergence of two Gaussians with equal variance, and its MGF form.

.. math::
    D_\alpha\big(\mathcal N(\mu,\sigma^2)\,\|\,\mathcal N(\nu,\sigma^2)\big)=\frac{\alpha(\mu-\nu)^2}{2\sigma^2},
    \qquad
    \mathbb E_P\big[e^{(\alpha-1)L}\big]=e^{(\alpha-1)\alpha(\mu-\nu)^2/(2\sigma^2)},
    \qquad
    e^{(\alpha-1)D_\alpha(\mathcal N(\mu,\sigma^2)\|\mathcal N(\nu,\sigma^2))}=\mathbb E_P\big[e^{(\alpha-1)L}\big]

for every α > 1 (REFERENCE R-C1 allows α = 1, the KL limit ρ' = (μ − ν)²/(2σ²); it is not encoded here),
μ, ν real, σ > 0, where L is the privacy loss of the pair
:math:`P=\mathcal N(\mu,\sigma^2)`, :math:`Q=\mathcal N(\nu,\sigma^2)` at the output
:math:`y=\mu+\sigma Z\sim P` (hypothesis ``gaussian_pair`` of :mod:`theorems.gaussian_cdp`).

The third part is the **bridge** between the two forms in which the library
states Rényi guarantees: the Rényi form :math:`D_\alpha\le\varepsilon` (``gaussian_zcdp``)
and the MGF form :math:`\mathbb E_P[e^{(\alpha-1)L}]\le e^{(\alpha-1)\varepsilon}` (the
hypotheses ``rdp`` / ``zcdp`` of ``approx_dp_of_rdp``, ``rdp_composition``,
``approx_dp_of_zcdp``).  For a general pair it is Mironov's Def 3 with
:math:`p^\alpha q^{1-\alpha}=p\,(p/q)^{\alpha-1}`; here it is *proved* for the
Gaussian pair, by computing both sides, so that a result needing the MGF form
cites ``gaussian_zcdp`` through it (``gaussian_rdp``, R-D1) instead of
re-deriving the divergence.

Proofs (both without sympy's integrator):

* part ``renyi`` (R-C1, the density route): the lemma ``gaussian_renyi_divergence`` of ``gaussian_zcdp``
  (expand the definition, **complete the square** in the exponent, pull the
  constant out, the **Gaussian integral** is 1), cited.
* part ``mgf`` (the loss route, REFERENCE R-C1 "equivalently"): the loss is
  linear in the noise, :math:`L=\frac{(\mu-\nu)^2}{2\sigma^2}+\frac{\mu-\nu}{\sigma}Z`
  (``gaussian_privacy_loss``); **linearity of expectation** and the **standard
  normal MGF** give :math:`e^{(\alpha-1)\rho'+(\alpha-1)^2\rho'}=e^{(\alpha-1)\alpha\rho'}`,
  :math:`\rho'=(\mu-\nu)^2/(2\sigma^2)`.
* part ``bridge``: the two agree.

Exact (identities).  Ground truths: Arb quadrature of the definition
:math:`\int p^\alpha q^{1-\alpha}` (part ``renyi``) and of :math:`\mathbb E_P[(p/q)^{\alpha-1}]`
from the two densities (part ``mgf``); the bridge has a divergence on its
right side, which the numeric kernel cannot evaluate, so it is checked only
through the two parts it chains.

References
----------
* Bun & Steinke 2016, §2 (Gaussian Rényi divergence), arXiv:1605.02065.
* Mironov 2017, *Rényi Differential Privacy*, Prop. 7 and Def. 3, arXiv:1702.07476v3.
* REFERENCE.md R-C1, R-A4.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, greater_than, mu, nu, positive, real, sigma
from cdpsym.expr.operators import Expect, Normal, Renyi
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq
from theorems.foundations_composition import Z, normal_expectation, standard_normal_mgf
from theorems.foundations_convexity import expectation_affine
from theorems.gaussian_cdp import A0, C0, LINEAR, gaussian_pair, privacy_loss
from theorems.gaussian_zcdp import DIVERGENCE as GAUSSIAN_DIVERGENCE
from theorems.gaussian_zcdp import renyi_truth as _renyi_truth
from theorems.gaussian_zcdp import gaussian_renyi_divergence

__all__ = ["theorem", "make", "DIVERGENCE", "RENYI", "MGF"]

DIVERGENCE = GAUSSIAN_DIVERGENCE
RENYI = Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma))
MGF = Expect(sp.exp((alpha - 1) * L))


def _mgf_truth(v, dps):
    r""":math:`\mathbb E_P[e^{(\alpha-1)\log p/q}]` for P = N(μ, σ²), Q = N(ν, σ²), by Arb quadrature over the
    output y = μ + σu of P, with the log-ratio taken from the two log-densities (no closed form)."""
    a, m1, m2, s = v[alpha], v[mu], v[nu], v[sigma]
    lam_ = a - 1

    def g(u, m1_, m2_, s_, l_):
        yy = m1_ + s_ * u
        return (l_ * ((yy - m2_) ** 2 - (yy - m1_) ** 2) / (2 * s_ * s_)).exp()

    peak = lam_ * (m1 - m2) / s  # e^{λ·loss}·φ(u) peaks there
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    points = [peak - w, peak, peak + w]
    value = mpmath.fsum(normal_expectation(g, lo, hi, m1, m2, s, lam_) for lo, hi in zip(points, points[1:]))
    return [("Gaussian pair, quadrature of E_P[(p/q)^(alpha-1)]", value)]


def make(divergence: sp.Expr = DIVERGENCE) -> Theorem:
    """The three parts with the claimed divergence ``divergence`` (tests build mutants with a wrong one)."""
    renyi_proof = (
        Chain(RENYI)
        .eq(GAUSSIAN_DIVERGENCE, by(gaussian_renyi_divergence))
        .eq(divergence, algebra())
    )
    renyi = Part("renyi", eq(RENYI, divergence), title="the Rényi divergence of two Gaussians with equal variance",
                 proof=renyi_proof, ground_truth=_renyi_truth)
    lam_ = alpha - 1
    mgf_proof = (
        Chain(MGF)
        .eq(Expect(sp.exp(lam_ * LINEAR)), by(privacy_loss, inside=lambda w: Expect(sp.exp(lam_ * w))))
        .eq(Expect(sp.exp(lam_ * C0) * sp.exp(lam_ * A0 * Z)), algebra())
        .eq(sp.exp(lam_ * C0) * Expect(sp.exp(lam_ * A0 * Z)),
            by(expectation_affine, a=sp.exp(lam_ * C0), b=0, X=sp.exp(lam_ * A0 * Z)))
        .eq(sp.exp(lam_ * C0) * sp.exp(lam_ ** 2 * A0 ** 2 / 2),
            by(standard_normal_mgf, lam=lam_ * A0, inside=lambda w: sp.exp(lam_ * C0) * w))
        .eq(sp.exp(lam_ * divergence), algebra("where ρ' = (μ − ν)²/(2σ²); then (α−1)ρ' + (α−1)²ρ' = (α−1)αρ'"))
    )
    mgf = Part("mgf", eq(MGF, sp.exp(lam_ * divergence)), title="the MGF of the Gaussian privacy loss at order α",
               proof=mgf_proof, ground_truth=_mgf_truth)
    bridge_proof = (
        Chain(sp.exp(lam_ * RENYI))
        .eq(sp.exp(lam_ * divergence), by(renyi, inside=lambda w: sp.exp(lam_ * w)))
        .eq(MGF, by(mgf))
    )
    bridge = Part("bridge", eq(sp.exp(lam_ * RENYI), MGF),
                  title="the MGF form of the Rényi divergence of the Gaussian pair: e^{(α−1)D_α} = E_P[e^{(α−1)L}]",
                  proof=bridge_proof)
    return Theorem(
        name="gaussian_renyi",
        reference="R-C1",
        source="Bun & Steinke 2016, §2, arXiv:1605.02065; Mironov 2017, Prop. 7, arXiv:1702.07476v3",
        title="Rényi divergence of two Gaussians with equal variance, and its moment generating function form",
        variables={alpha: greater_than(1, sample_lo=1.0001, sample_hi=30),
                   mu: real(sample_lo=-5, sample_hi=5),
                   nu: real(sample_lo=-5, sample_hi=5),
                   sigma: positive(sample_lo=0.2, sample_hi=10)},
        hypotheses=(gaussian_pair,),
        parts=(renyi, mgf, bridge),
        numeric_points=({"alpha": "2.5", "mu": "0", "nu": "1.3", "sigma": "0.7"},
                        {"alpha": "7", "mu": "0.2", "nu": "-0.9", "sigma": "1.1"},
                        {"alpha": "1.01", "mu": "3", "nu": "3", "sigma": "2"},
                        {"alpha": "30", "mu": "-1", "nu": "0.5", "sigma": "4"}),
        property_examples=10,
        tight="identities.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("the factor 2 dropped: alpha*(mu - nu)**2/sigma**2 is too large",
             make(alpha * (mu - nu) ** 2 / sigma ** 2)),
            ("alpha - 1 for alpha: too small", make((alpha - 1) * (mu - nu) ** 2 / (2 * sigma ** 2)))]
