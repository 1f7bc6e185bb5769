r"""Under ρ-zCDP the privacy loss has a Gaussian-like upper tail: :math:`\Pr[L>t]\le e^{-(t-\rho)^2/(4\rho)}` for t > ρ.

.. math::
    \Pr_P[L>t]\le\exp\Big(-\frac{(t-\rho)^2}{4\rho}\Big)\quad(t>\rho);\qquad
    (\xi,\rho)\text{-zCDP}:\ \Pr_P[L>t]\le\exp\Big(-\frac{(t-\xi-\rho)^2}{4\rho}\Big)\quad(t>\xi+\rho).

Parameterization: ρ-zCDP in the MGF form of R-A9, :math:`\mathbb E_P[e^{\lambda L}]\le e^{\lambda(\lambda+1)\rho}`
for every λ > 0 (the hypothesis ``zcdp`` of :mod:`theorems.approx_dp_of_zcdp`, the same object);
:math:`(\xi,\rho)`-zCDP, :math:`D_\alpha(P\|Q)\le\xi+\rho\alpha`, is in the same form
:math:`\mathbb E_P[e^{\lambda L}]\le e^{\lambda(\xi+(\lambda+1)\rho)}` (λ = α − 1).  L is the privacy
loss of (P, Q) under P.  The (ξ, ρ) form is the lemma ``loss_tail_of_zcdp_xi`` (listed before this
theorem); this theorem is its ξ = 0 case, proved on its own so that it rests on the ρ-zCDP
hypothesis alone.

How this differs from ``approx_dp_of_zcdp.delta_of_eps``: that part bounds the hockey-stick
divergence :math:`\delta_{P\|Q}(\varepsilon)`, which is at most the tail; this one states the
tail itself (BS16 use it as the "bad event" bound, seed 000).

Proof (BS16 §3, proof of Lemma 3.5): **Markov's inequality** on :math:`e^{(\alpha-1)L}`; the zCDP bound
at λ = α − 1; the exponent :math:`(\alpha-1)(\alpha\rho-t)` is minimised at :math:`\alpha^*=\frac{t+\rho}{2\rho}`,
which exceeds 1 because t > ρ, with value :math:`-\frac{(t-\rho)^2}{4\rho}`.  With ξ: the exponent
:math:`(\alpha-1)(\xi+\alpha\rho-t)`, minimised at :math:`\alpha^*=\frac{t-\xi+\rho}{2\rho}`.

Tight in the exponent: the Gaussian mechanism with :math:`\sigma=\Delta/\sqrt{2\rho}` has
:math:`L\sim N(\rho,2\rho)` and :math:`\Pr[L>t]=\bar\Phi\big((t-\rho)/\sqrt{2\rho}\big)`; the prefactor is not
tight (✓N12).  The ground truths are exact tails of mechanisms: the Gaussian one, and for (ξ, ρ) the
product of randomized response :math:`\mathrm{RR}_\xi` (ξ-DP, hence :math:`(\xi,0)`-zCDP) and that
Gaussian, which is :math:`(\xi,\rho)`-zCDP because Rényi divergences add over products.

References
----------
* Bun & Steinke 2016, §3 (proof of Lemma 3.5) and Def 1.1 ((ξ, ρ)-zCDP), arXiv:1605.02065.
* REFERENCE.md R-C3, R-A9.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, greater_than, lam, nonnegative, positive, rho, t, xi
from cdpsym.expr.operators import Expect, Prob
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le, specialize
from theorems.approx_dp_of_zcdp import zcdp
from theorems.foundations import markov_exponential

__all__ = ["theorem", "make", "make_xi", "mutants", "xi_zcdp", "xi_theorem", "TAIL", "TAIL_XI"]

TAIL = sp.exp(-(t - rho) ** 2 / (4 * rho))
TAIL_XI = sp.exp(-(t - xi - rho) ** 2 / (4 * rho))

xi_zcdp = Hypothesis(
    name="xi_zcdp",
    title="the mechanism is (ξ, ρ)-zCDP (MGF form, R-A9 with ξ)",
    relation=le(Expect(sp.exp(lam * L)), sp.exp(lam * (xi + (lam + 1) * rho))),
    variables={lam: positive()},
)


# -- ground truths: exact tails of mechanisms that are (ξ,) ρ-zCDP ----------------------------------------------

def _gaussian_tail(level, r):
    """Pr[L > level] for L ~ N(r, 2r): the loss of the Gaussian mechanism with Δ/σ = √(2r) (BS16 Prop 1.6)."""
    return mpmath.ncdf(-(level - r) / mpmath.sqrt(2 * r))


def _tail_truth(v, dps):
    return [("Gaussian mechanism, sensitivity/sigma = sqrt(2 rho): L ~ N(rho, 2 rho), exact tail",
             _gaussian_tail(v[t], v[rho]))]


def _tail_xi_truth(v, dps):
    e, r, level = v[xi], v[rho], v[t]
    heads = mpmath.exp(e) / (1 + mpmath.exp(e))  # RR_xi answers truthfully: loss +xi, else -xi
    return [("RR_xi x Gaussian(rho): loss ±xi + N(rho, 2 rho), exact tail",
             heads * _gaussian_tail(level - e, r) + (1 - heads) * _gaussian_tail(level + e, r))]


# -- the statements --------------------------------------------------------------------------------------------

def make_xi(bound: sp.Expr = TAIL_XI) -> Theorem:
    """The (ξ, ρ)-zCDP tail bound with the claimed ``bound`` (mutants change it)."""
    exponent = (alpha - 1) * (xi + alpha * rho - t)
    proof = (
        Chain(Prob(sp.StrictGreaterThan(L, t)), variables={alpha: greater_than(1)})
        .le(sp.exp(-(alpha - 1) * t) * Expect(sp.exp((alpha - 1) * L)),
            by(markov_exponential, lam=alpha - 1, t=t, X=L))
        .le(sp.exp(-(alpha - 1) * t) * sp.exp((alpha - 1) * (xi + alpha * rho)),
            by(xi_zcdp, lam=alpha - 1, inside=lambda w: sp.exp(-(alpha - 1) * t) * w))
        .eq(sp.exp(exponent), algebra())
        .eq(TAIL_XI, specialize(alpha=(t - xi + rho) / (2 * rho), minimizes=exponent))
    )
    if bound != TAIL_XI:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="loss_tail_of_zcdp_xi",
        reference="R-C3",
        source="Bun & Steinke 2016, §3 (proof of Lemma 3.5), arXiv:1605.02065",
        title="tail of the privacy loss under (xi, rho)-zCDP",
        variables={rho: positive(sample_lo=1e-4, sample_hi=20, log_scale=True),
                   xi: nonnegative(sample_lo=0, sample_hi=3),
                   t: greater_than(xi + rho, sample_hi=80)},
        hypotheses=(xi_zcdp,),
        parts=(Part("main", le(Prob(sp.StrictGreaterThan(L, t)), bound), proof=proof,
                    ground_truth=_tail_xi_truth),),
        numeric_points=({"rho": "0.5", "xi": "0.3", "t": "3"}, {"rho": "0.1", "xi": "1", "t": "2.5"},
                        {"rho": "2", "xi": "0", "t": "12"}, {"rho": "0.01", "xi": "0.05", "t": "0.07"}),
        property_examples=30,
        tight="the exponent is tight as ξ → 0 (Gaussian mechanism); the prefactor is not.",
    )


def make(bound: sp.Expr = TAIL) -> Theorem:
    """The ρ-zCDP tail bound with the claimed ``bound`` (mutants change it)."""
    exponent = (alpha - 1) * (alpha * rho - t)
    proof = (
        Chain(Prob(sp.StrictGreaterThan(L, t)), variables={alpha: greater_than(1)})
        .le(sp.exp(-(alpha - 1) * t) * Expect(sp.exp((alpha - 1) * L)),
            by(markov_exponential, lam=alpha - 1, t=t, X=L))
        .le(sp.exp(-(alpha - 1) * t) * sp.exp((alpha - 1) * alpha * rho),
            by(zcdp, lam=alpha - 1, inside=lambda w: sp.exp(-(alpha - 1) * t) * w))
        .eq(sp.exp(exponent), algebra())
        .eq(TAIL, specialize(alpha=(t + rho) / (2 * rho), minimizes=exponent))
    )
    if bound != TAIL:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="loss_tail_of_zcdp",
        reference="R-C3",
        source="Bun & Steinke 2016, §3 (proof of Lemma 3.5), arXiv:1605.02065",
        title="tail of the privacy loss under zCDP",
        variables={rho: positive(sample_lo=1e-4, sample_hi=20, log_scale=True),
                   t: greater_than(rho, sample_hi=80)},
        hypotheses=(zcdp,),
        parts=(Part("main", le(Prob(sp.StrictGreaterThan(L, t)), bound), proof=proof, ground_truth=_tail_truth),),
        numeric_points=({"rho": "0.5", "t": "3"}, {"rho": "0.1", "t": "1.5"}, {"rho": "2", "t": "12"},
                        {"rho": "0.01", "t": "0.0101"}, {"rho": "1e-6", "t": "0.05"}),
        property_examples=30,
        tight="the exponent is tight for the Gaussian mechanism (L ~ N(ρ, 2ρ)); the prefactor is not.",
    )


xi_theorem = make_xi()
theorem = make()
LEMMAS = [xi_theorem]


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement and of the (ξ, ρ) lemma (each keeps the name of the theorem it mutates);
    tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("exponent with 2ρ instead of 4ρ", make(sp.exp(-(t - rho) ** 2 / (2 * rho)))),
        ("the shift by ρ dropped", make(sp.exp(-t ** 2 / (4 * rho)))),
        ("(ξ, ρ): the shift by ξ dropped", make_xi(sp.exp(-(t - rho) ** 2 / (4 * rho)))),
        ("(ξ, ρ): exponent with 2ρ instead of 4ρ", make_xi(sp.exp(-(t - xi - rho) ** 2 / (2 * rho)))),
    ]
