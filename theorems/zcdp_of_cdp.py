r"""(μ,τ)-CDP with :math:`\mu\le\tau^2/2` implies :math:`\tfrac12\tau^2`-zCDP.

.. math::
    \mathbb E_P\big[e^{\lambda L}\big]\le e^{\lambda(\lambda+1)\tau^2/2}\qquad\text{for every }\lambda>0,

for every pair P = M(x), Q = M(x') of a (μ,τ)-CDP mechanism with μ ≤ τ²/2.

Parameterization: (μ,τ)-CDP is Dwork–Rothblum's (R-A8), with the same two
hypotheses as ``cdp_composition``: :math:`\mathbb E L\le\mu` (``cdp_mean``) and
:math:`\mathbb E[e^{\lambda(L-\mathbb E L)}]\le e^{\lambda^2\tau^2/2}` for every
real :math:`\lambda` (``cdp_subgaussian``); ρ-zCDP in the MGF form of R-A9
(:math:`\lambda=\alpha-1`) with ρ = τ²/2.

Proof (R-C9.1, derived): **linearity of expectation** splits
:math:`\mathbb E e^{\lambda L}=e^{\lambda\mathbb E L}\,\mathbb E e^{\lambda(L-\mathbb E L)}`;
the subgaussian bound gives :math:`\le e^{\lambda\mathbb E L+\lambda^2\tau^2/2}`, the
mean bound :math:`\le e^{\lambda\mu+\lambda^2\tau^2/2}` (λ > 0), and
:math:`\mu\le\tau^2/2` gives :math:`\le e^{\lambda(\lambda+1)\tau^2/2}`.  (In
general the same chain shows :math:`(\mu-\tau^2/2,\tau^2/2)`-zCDP.)

Tight: equality for every λ for the Gaussian mechanism with μ = τ²/2 (R-B8),
whose loss is :math:`N(\tau^2/2,\tau^2)`.

References
----------
* Bun & Steinke 2016, §4 (relating (μ,τ)-CDP and zCDP), arXiv:1605.02065; REFERENCE R-C9 item 1 (derived).
* Dwork & Rothblum 2016, Def 3.2 and 3.3, arXiv:1603.01887v2.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, Interval, lam, mu, positive, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, sign
from theorems.approx_dp_of_cdp import cdp_mean, cdp_subgaussian, class_witnesses
from theorems.foundations_convexity import expectation_affine

__all__ = ["theorem", "make", "mutants", "RHO"]

RHO = tau ** 2 / 2


def _truth(v, dps):
    """E_P[e^{λL}] = e^{λ D_{λ+1}(P‖Q)} of (μ,τ)-CDP mechanisms, from their exact Rényi divergences:
    the Gaussian with τ_G = √(2μ) ≤ τ (equality in the claim when μ = τ²/2) and randomized response."""
    ll = v[lam]
    out = []
    for name, mech in class_witnesses(v[mu], v[tau]):
        d = mpmath.mpf(sp.N(mech.renyi_divergence(sp.Float(ll + 1, dps + 10)), dps + 5))
        out.append((name, mpmath.exp(ll * d)))
    return out


def make(rho_claim: sp.Expr = RHO) -> Theorem:
    """The conversion with the ρ it claims (tests build mutants with a wrong ρ)."""
    EL = Expect(L)
    centred = Expect(sp.exp(lam * (L - EL)))
    g = sp.exp(lam ** 2 * tau ** 2 / 2)
    A = lam * (lam + 1) * rho_claim  # the claimed exponent
    B = lam * mu + lam ** 2 * tau ** 2 / 2  # the exponent the CDP hypotheses give
    proof = (
        Chain(Expect(sp.exp(lam * L)))
        .eq(Expect(sp.exp(lam * EL) * sp.exp(lam * (L - EL))), algebra())
        .eq(sp.exp(lam * EL) * centred,
            by(expectation_affine, a=sp.exp(lam * EL), b=0, X=sp.exp(lam * (L - EL))))
        .le(sp.exp(lam * EL) * g, by(cdp_subgaussian, lam=lam, inside=lambda w: sp.exp(lam * EL) * w))
        .le(sp.exp(lam * mu) * g, by(cdp_mean, inside=lambda w: sp.exp(lam * w) * g))
        # e^A − e^B = 2 e^{(A+B)/2} sinh((A−B)/2) with (A−B)/2 = λ(τ²/2 − μ)/2 >= 0: the sign of the gap in a form
        # sympy decides (it does not decide e^x − 1 >= 0 for x >= 0)
        .le(sp.exp(lam * mu) * g + 2 * sp.exp((A + B) / 2) * sp.sinh((A - B) / 2),
            sign("sinh of λ(τ²/2 − μ)/2 >= 0, as μ <= τ²/2"))
        .eq(sp.exp(A), algebra("e^B + 2 e^{(A+B)/2} sinh((A−B)/2) = e^A, with A = λ(λ + 1)ρ and B = λμ + λ²τ²/2"))
    )
    return Theorem(
        name="zcdp_of_cdp",
        reference="R-C9",
        source="Bun & Steinke 2016, §4, arXiv:1605.02065 (REFERENCE R-C9.1, derived); "
               "Dwork & Rothblum 2016, Def 3.3, arXiv:1603.01887v2",
        title="mean-concentrated DP to zCDP",
        notion="CDP(mu, tau) implies zCDP(tau^2/2) FOR mu <= tau^2/2",
        variables={tau: positive(sample_lo=0.01, sample_hi=10, log_scale=True),
                   mu: Interval(sp.S.Zero, tau ** 2 / 2, True, False, sample_lo=0, sample_hi=50),
                   lam: positive(sample_lo=0.01, sample_hi=20)},
        hypotheses=(cdp_mean, cdp_subgaussian),
        parts=(Part("main", le(Expect(sp.exp(lam * L)), sp.exp(lam * (lam + 1) * rho_claim)), proof=proof,
                    ground_truth=_truth),),
        numeric_points=({"tau": "1", "mu": "0.5", "lam": "1"},
                        {"tau": "2", "mu": "2", "lam": "0.3"},
                        {"tau": "0.5", "mu": "0.05", "lam": "4"},
                        {"tau": "3", "mu": "1", "lam": "2.5"},
                        {"tau": "0.1", "mu": "0.001", "lam": "10"}),
        property_examples=30,
        tight="equality for every λ for the Gaussian mechanism with μ = τ²/2 (R-B8).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ρ = τ²/4: the constant 1/2 scaled to 1/4", make(tau ** 2 / 4)),
        ("ρ = τ/2: the square on τ dropped", make(tau / 2)),
    ]
