r"""The Gaussian mechanism is :math:`\Delta^2/(2\sigma^2)`-zCDP.

.. math::
    D_\alpha\big(\mathcal N(\mu,\sigma^2)\,\|\,\mathcal N(\nu,\sigma^2)\big)
    = \frac{\alpha(\mu-\nu)^2}{2\sigma^2} \le \alpha\,\frac{\Delta^2}{2\sigma^2}
    \quad\text{for every } \alpha > 1 .

Parameterization: ``sensitivity`` is the ℓ2-sensitivity Δ of ``f``;
``M(x) = f(x) + N(0, σ²)``; μ = f(x), ν = f(x') for neighbours x ≃ x', so
|μ − ν| ≤ Δ.  zCDP is Bun–Steinke's (R-A9): D_α ≤ ρα for all α > 1.

The Rényi divergence of two Gaussians (R-C1) is derived in the chain, not
asserted: expand the definition, **complete the square** in the exponent,
pull the constant out of the integral, and use the **Gaussian integral**.
No call to sympy's integrator is made (it takes ~22 s on this integral).

Tight: equality at every α for the pair with |f(x) − f(x')| = Δ.

References
----------
* Bun & Steinke 2016, Prop 1.6 and §2 (Gaussian Rényi lemma), arXiv:1605.02065.
* Mironov 2017, Prop 7 / Cor 3, arXiv:1702.07476v3 (same divergence, RDP form).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import alpha, greater_than, mu, nu, positive, real, sensitivity, sigma, y
from cdpsym.expr.operators import Normal, Renyi, normal_density
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, le
from theorems.foundations import gaussian_integral, renyi_gaussian_definition

__all__ = ["theorem", "make", "mutants", "RHO", "DIVERGENCE", "LEMMAS", "gaussian_renyi_divergence", "renyi_truth", "make_renyi_lemma"]

RHO = sensitivity ** 2 / (2 * sigma ** 2)

shift = Hypothesis(
    name="sensitivity",
    title="neighbouring outputs differ by at most the sensitivity",
    relation=le((mu - nu) ** 2, sensitivity ** 2),
)


def _renyi_by_quadrature(v, dps):
    """D_α of the two Gaussians by quadrature of the definition (independent of the closed form).

    With Y ~ N(ν, σ²) = ν + σU and d = (μ − ν)/σ, the likelihood ratio is p/q = e^{Ud − d²/2}, so
    D_α = log E_U[e^{α(Ud − d²/2)}] / (α − 1), integrated by Arb's rigorous quadrature over
    U ∈ αd ± 40 (the mass outside is below e^{−800}).
    """
    from theorems.foundations_composition import normal_expectation

    a, m1, m2, s = v[alpha], v[mu], v[nu], v[sigma]
    d = (m1 - m2) / s
    centre = a * d
    moment = normal_expectation(lambda u, aa, dd: (aa * (u * dd - dd * dd / 2)).exp(), centre - 40, centre + 40, a, d)
    return [("Gaussian pair, quadrature", mpmath.log(moment) / (a - 1))]


def renyi_truth(v, dps):
    """The quadrature of the definition, with enough extra digits that a divergence of size
    (μ − ν)² keeps ``dps`` significant ones (the moment is 1 + O((μ − ν)²), its log cancels)."""
    gap = abs(v[mu] - v[nu]) / v[sigma]
    extra = 20 + (min(4000, int(-2 * mpmath.log10(gap)) + 10) if 0 < gap < 1 else 0)
    with mpmath.workdps(dps + extra):
        (name, value), = _renyi_by_quadrature(v, dps + extra)
    return [(name, +value)]


#: the exact Rényi divergence of two Gaussians with equal variance (part ``renyi``)
DIVERGENCE = alpha * (mu - nu) ** 2 / (2 * sigma ** 2)


def make_renyi_lemma(divergence: sp.Expr = DIVERGENCE) -> Theorem:
    """``D_α(N(μ, σ²) ‖ N(ν, σ²)) = α(μ − ν)²/(2σ²)``: the definition, the square completed, the Gaussian integral."""
    D = Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma))
    centre = alpha * mu + (1 - alpha) * nu
    c = alpha * (alpha - 1) * (mu - nu) ** 2 / (2 * sigma ** 2)
    inf = sp.oo
    proof = (
        Chain(D)
        .eq(sp.log(sp.Integral(normal_density(y, mu, sigma) ** alpha * normal_density(y, nu, sigma) ** (1 - alpha),
                               (y, -inf, inf))) / (alpha - 1),
            by(renyi_gaussian_definition))
        .eq(sp.log(sp.Integral(sp.exp(c) * normal_density(y, centre, sigma), (y, -inf, inf))) / (alpha - 1),
            algebra("complete the square in y"))
        .eq(sp.log(sp.exp(c) * sp.Integral(normal_density(y, centre, sigma), (y, -inf, inf))) / (alpha - 1),
            algebra("a constant factor leaves the integral"))
        .eq(sp.log(sp.exp(c)) / (alpha - 1), by(gaussian_integral, m=centre, s=sigma))
        .eq(divergence, algebra())
    )
    return Theorem(
        name="gaussian_renyi_divergence",
        reference="R-C1",
        source="Mironov 2017, Prop 7, arXiv:1702.07476v3 (the density route)",
        title="Rényi divergence of two Gaussians with equal variance",
        variables={sigma: positive(sample_lo=0.1, sample_hi=10), alpha: greater_than(1, sample_lo=1.0001, sample_hi=30),
                   mu: real(sample_lo=-5, sample_hi=5), nu: real(sample_lo=-5, sample_hi=5)},
        parts=(Part("main", eq(D, divergence), proof=proof, ground_truth=renyi_truth),),
        numeric_points=({"sigma": "0.7", "alpha": "2.5", "mu": "0", "nu": "1.3"},
                        {"sigma": "3", "alpha": "1.5", "mu": "0.5", "nu": "-0.5"}),
        property_examples=10,
        tight="an identity.",
    )


gaussian_renyi_divergence = make_renyi_lemma()
LEMMAS = [gaussian_renyi_divergence]


def make(rho: sp.Expr = RHO) -> Theorem:
    """The theorem with the zCDP parameter ``rho`` (tests build mutants with a wrong ``rho``)."""
    D = Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma))
    proof = (
        Chain(D)
        .eq(DIVERGENCE, by(gaussian_renyi_divergence))
        .le(alpha * rho, by(shift, inside=lambda w: alpha * w / (2 * sigma ** 2)))
    )
    return Theorem(
        name="gaussian_zcdp",
        reference="R-C2",
        source="Bun & Steinke 2016, Prop 1.6, arXiv:1605.02065",
        title="Gaussian mechanism, zCDP",
        notion="Gaussian(sensitivity=Delta, sigma=sigma) is zCDP(rho=Delta^2/(2*sigma^2))",
        variables={
            sensitivity: positive(sample_lo=0.01, sample_hi=10),
            sigma: positive(sample_lo=0.1, sample_hi=10),
            alpha: greater_than(1, sample_lo=1.0001, sample_hi=30),
            mu: real(sample_lo=-5, sample_hi=5),
            nu: real(sample_lo=-5, sample_hi=5),
        },
        hypotheses=(shift,),
        parts=(Part("main", le(D, alpha * rho), proof=proof, ground_truth=_ground_truth(rho)),),
        numeric_points=(
            {"Delta": "1.3", "sigma": "0.7", "alpha": "2.5", "mu": "0", "nu": "1.3"},
            {"Delta": "1.1", "sigma": "1.1", "alpha": "7", "mu": "0.2", "nu": "-0.9"},
            {"Delta": "2", "sigma": "3", "alpha": "1.5", "mu": "0.5", "nu": "-0.5"},
        ),
        property_examples=30,
        tight="equality for every α when |f(x) − f(x′)| = Δ.",
    )


def _ground_truth(rho):
    def truth(v, dps):
        # only pairs allowed by the hypothesis |mu - nu| <= Delta: clip nu to the sensitivity ball
        v = dict(v)
        if abs(v[mu] - v[nu]) > v[sensitivity]:
            v[nu] = v[mu] + mpmath.sign(v[nu] - v[mu]) * v[sensitivity]
        return _renyi_by_quadrature(v, dps)
    return truth


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ρ = Δ²/(3σ²): the constant 1/2 scaled to 1/3", make(rho=sensitivity ** 2 / (3 * sigma ** 2))),
        ("ρ = Δ/(2σ²): the square on Δ dropped", make(rho=sensitivity / (2 * sigma ** 2))),
        ("ρ = Δ²/(2σ): the square on σ dropped", make(rho=sensitivity ** 2 / (2 * sigma))),
        ("D_α = α(μ − ν)²/(4σ²): the divergence halved", make_renyi_lemma(alpha * (mu - nu) ** 2 / (4 * sigma ** 2))),
        ("D_α = (μ − ν)²/(2σ²): the factor α dropped", make_renyi_lemma((mu - nu) ** 2 / (2 * sigma ** 2))),
    ]
