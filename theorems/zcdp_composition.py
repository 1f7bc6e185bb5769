r"""k-fold adaptive composition of ρ-zCDP mechanisms is kρ-zCDP.

.. math::
    \mathbb E\big[e^{\lambda L_k}\big]\le e^{\lambda(\lambda+1)k\rho}
    \quad\text{whenever every step satisfies}\quad
    \mathbb E_P\big[e^{\lambda L}\big]\le e^{\lambda(\lambda+1)\rho},

with :math:`L_k=C_1+\dots+C_k` the privacy loss of the adaptive composition.

Parameterization: ρ-zCDP in the MGF form of R-A9 (Bun–Steinke, with
:math:`\lambda=\alpha-1`: :math:`D_\alpha\le\rho\alpha` for all :math:`\alpha>1`
iff :math:`\mathbb E_P e^{\lambda L}\le e^{\lambda(\lambda+1)\rho}` for all
:math:`\lambda>0`), the same form as the ``zcdp`` hypothesis of
``approx_dp_of_zcdp``.  The hypothesis is on the canonical pair ``(P, Q)``,
which stands for **every** pair the adversary may choose at any step of the
DRV10 game (adaptively); the kernel's class-member rule (``by(zcdp_at_order,
at_step=i)``, docs/kernel.md) reads it at the conditional law of step i given
every prefix, and the definition of the essential supremum
(``conditional_mgf_bound``) turns that into the bound the tower rule needs.  The order :math:`\lambda>0` is fixed throughout — the proof uses
the hypothesis at the same :math:`\lambda` only — so the theorem holds order
by order, which gives the zCDP statement for all :math:`\lambda` at once.
Homogeneous (every step ρ); heterogeneous steps give :math:`\sum_i\rho_i`
with the same proof.

Proof (BS16 Lemma 1.7 via the RDP composition of M17 Prop 1): **induction on
k** with the **tower rule**:
:math:`\mathbb E e^{\lambda L_{k+1}}=\mathbb E\big[e^{\lambda L_k}\,
\mathbb E[e^{\lambda C_{k+1}}\mid\text{prefix}]\big]\le e^{\lambda(\lambda+1)\rho}\,\mathbb E e^{\lambda L_k}`.

Tight: Gaussian mechanisms (:math:`L_k\sim N(k\rho,2k\rho)`, equality at every order).

References
----------
* Bun & Steinke 2016, Lemma 1.7 (composition) and Definition 1.1, arXiv:1605.02065.
* Mironov 2017, Prop. 1, arXiv:1702.07476v3.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, k, lam, naturals, positive, rho
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le
from theorems.foundations_convexity import expectation_affine
from theorems.foundations_composition import (C, CondMGF, L_k, composed_loss_start, composed_loss_step, condition,
                                              conditional_mgf_bound, normal_expectation, tower_mgf_composed)

__all__ = ["theorem", "make", "mutants", "mgf_induction", "zcdp_at_order", "RHO_TOTAL"]

RHO_TOTAL = k * rho

zcdp_at_order = Hypothesis(
    name="zcdp_at_order",
    title="every pair the adversary may choose is ρ-zCDP at this order: E[e^{λL}] ≤ e^{λ(λ+1)ρ} (R-A9)",
    relation=le(Expect(sp.exp(lam * L)), sp.exp(lam * (lam + 1) * rho)),
)


# -- ground truths ---------------------------------------------------------------------------------------

def _halves(g, cut, *constants):
    """(E[g(U); U < 0], E[g(U); U >= 0]) for U ~ N(0, 1) by Arb quadrature, split at 0 and at the peak ``cut``.

    g is e^{linear}, so g(u)e^{-u²/2} peaks at ``cut``; the range is cut ± w with e^{-w²/2} below the
    working precision, so the truncation is negligible.
    """
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    points = sorted({cut - w, cut, cut + w} | ({mpmath.mpf(0)} if abs(cut) < w else set()))
    pieces = [(lo, normal_expectation(g, lo, hi, *constants)) for lo, hi in zip(points, points[1:])]
    return sum(x for lo, x in pieces if lo < 0), sum(x for lo, x in pieces if lo >= 0)


def _witnesses(v, dps):
    """E_P e^{λ L_k} for three compositions whose every step is ρ-zCDP."""
    kk, r, ll = int(v[k]), v[rho], v[lam]
    t_g = mpmath.sqrt(2 * r)  # Gaussian N(0,1) vs N(τ,1) with τ²/2 = ρ; loss at output y: τ²/2 - τy
    below, above = _halves(lambda u, t_, l_: (l_ * (t_ * t_ / 2 - t_ * u)).exp(), -ll * t_g, t_g, ll)
    one = below + above
    gaussian = one ** kk
    # adaptive: steps 2..k run the Gaussian only if the first output y < 0, otherwise output a constant
    adaptive = below * one ** (kk - 1) + above
    # k-fold randomized response with ε = √(2ρ) (ε-DP, hence ε²/2 = ρ-zCDP, BS16 Prop 1.4): enumerate
    e = mpmath.sqrt(2 * r)
    p = 1 / (1 + mpmath.exp(-e))
    rr = mpmath.fsum(mpmath.binomial(kk, j) * p ** j * (1 - p) ** (kk - j) * mpmath.exp(ll * e * (2 * j - kk))
                     for j in range(kk + 1))
    return [("k independent Gaussian steps, one-step quadrature", gaussian),
            ("adaptive: Gaussian steps 2..k only if the first output is < 0, quadrature", adaptive),
            ("k-fold randomized response, eps = sqrt(2 rho), enumeration", rr)]


def mgf_induction(lam_: sp.Expr, step_bound, bound: sp.Expr, per_pair: Hypothesis):
    """``E[e^{lam L_k}] <= bound`` by induction on k with the tower rule, from the hypothesis ``per_pair``,
    ``E[e^{lam L}] <= step_bound`` for every pair of the class, read at each step by the class-member rule:
    the proof zCDP and RDP composition share (``bound`` at ``k = 1`` must equal the first step's bound, and
    ``step_bound(k + 1) * bound(k) = bound(k + 1)``).  Heterogeneous: ``step_bound`` a function of the step n and
    ``per_pair`` a hypothesis on the pair of class ``i`` (``L^{(i)}``), read at step n with ``i = n``."""
    mgf = lambda n: Expect(sp.exp(lam_ * L_k(n)))  # noqa: E731
    at = step_bound if callable(step_bound) else (lambda n: step_bound)  # noqa: E731
    indexed = {"i": None} if callable(step_bound) else {}

    def step(n):  # ess sup E[e^{λC_n} | F_{n-1}] <= step_bound(n): the hypothesis at the pair of step n
        per_step = by(per_pair, at_step=n, **{name: n for name in indexed})
        return by(conditional_mgf_bound, Y_1=C(n), lam=lam_, i=n, c=at(n), inside=lambda w: w * mgf(n - 1),
                  given={condition(conditional_mgf_bound): per_step})

    base = (
        Chain(mgf(1))
        .eq(Expect(sp.exp(lam_ * (L_k(0) + C(1)))), by(composed_loss_step, i=1))
        .eq(Expect(sp.exp(lam_ * L_k(0)) * sp.exp(lam_ * C(1))), algebra())
        .le(CondMGF(C(1), lam_, 1) * mgf(0), by(tower_mgf_composed, i=1, lam=lam_))
        .le(at(1) * mgf(0), step(1))
        .eq(at(1) * Expect(sp.S.One), by(composed_loss_start))
        .eq(at(1), by(expectation_affine, a=0, b=1))
        .eq(bound.xreplace({k: 1}), algebra())
    )
    ih = Hypothesis("ih", title="induction hypothesis", relation=le(mgf(k), bound))
    step_k = (
        Chain(mgf(k + 1))
        .eq(Expect(sp.exp(lam_ * (L_k(k) + C(k + 1)))), by(composed_loss_step, i=k + 1))
        .eq(Expect(sp.exp(lam_ * L_k(k)) * sp.exp(lam_ * C(k + 1))), algebra())
        .le(CondMGF(C(k + 1), lam_, k + 1) * mgf(k), by(tower_mgf_composed, i=k + 1, lam=lam_))
        .le(at(k + 1) * mgf(k), step(k + 1))
        .le(at(k + 1) * bound, by(ih, inside=lambda w: at(k + 1) * w))
        .eq(bound.xreplace({k: k + 1}), algebra())
    )
    return Chain(mgf(k)).le(bound, induction(k, base, step_k))


def make(rho_total: sp.Expr = RHO_TOTAL) -> Theorem:
    """The composition with the claimed total ``rho_total`` (tests build mutants with a wrong one)."""
    bound = sp.exp(lam * (lam + 1) * rho_total)
    proof = mgf_induction(lam, sp.exp(lam * (lam + 1) * rho), bound, zcdp_at_order)
    return Theorem(
        name="zcdp_composition",
        reference="R-C7",
        source="Bun & Steinke 2016, Lemma 1.7, arXiv:1605.02065",
        title="adaptive composition of zCDP",
        notion="compose(k=k, zCDP(rho)) is zCDP(k*rho)",
        variables={k: naturals(sample_lo=1, sample_hi=40),
                   rho: positive(sample_lo=1e-4, sample_hi=2, log_scale=True),
                   lam: positive(sample_lo=0.01, sample_hi=6)},
        hypotheses=(zcdp_at_order,),
        parts=(Part("main", le(Expect(sp.exp(lam * L_k(k))), bound), proof=proof, ground_truth=_witnesses),),
        numeric_points=({"k": "1", "rho": "0.5", "lam": "1"}, {"k": "10", "rho": "0.01", "lam": "5"},
                        {"k": "3", "rho": "2", "lam": "0.25"}, {"k": "100", "rho": "0.001", "lam": "20"}),
        property_examples=30,
        tight="equality at every order for Gaussian mechanisms.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("kρ/2: halved", make(k * rho / 2)),
        ("(k − 1)ρ: one step removed", make((k - 1) * rho)),
        ("√k ρ: k replaced by √k", make(sp.sqrt(k) * rho)),
    ]
