r"""A sum of k conditionally τ-subgaussian variables is :math:`\sqrt k\,\tau`-subgaussian.

.. math::
    \mathbb E\big[e^{\lambda S_k}\big]\le e^{k\lambda^2\tau^2/2}
    \quad\text{whenever}\quad
    \sup_{\text{prefix}}\mathbb E\big[e^{\lambda X_i}\,\big|\,\text{prefix}\big]\le e^{\lambda^2\tau^2/2}
    \ \ (i=1,\dots,k),\qquad S_k=X_1+\dots+X_k .

Parameterization: :math:`X_1,\dots,X_k` are jointly distributed and
adapted (each :math:`X_i` comes after a prefix of which :math:`S_{i-1}` is
a function); the hypothesis is DR16's "for every prefix, :math:`X_i` given
the prefix is :math:`\tau_i`-subgaussian", written with the largest
conditional MGF over prefixes (``CondMGF``, :mod:`theorems.foundations_composition`).
This module proves the **homogeneous** case :math:`\tau_i=\tau`
(:math:`\sqrt{\sum_i\tau_i^2}=\sqrt k\,\tau`); ``subgaussian_sum_heterogeneous`` proves
:math:`\tau=\sqrt{\sum_i\tau_i^2}` with the same chain (``sum_induction``).  The variable
:math:`\lambda` is fixed throughout (the hypothesis is used at the same
:math:`\lambda` only), so the theorem holds for each real :math:`\lambda`
separately — a stronger statement than the one with "for all λ" on both sides.

Proof (DR16): **induction on k** with the **tower rule**,
:math:`\mathbb E e^{\lambda S_{k+1}}=\mathbb E\big[e^{\lambda S_k}\,
\mathbb E[e^{\lambda X_{k+1}}\mid\text{prefix}]\big]\le e^{\lambda^2\tau^2/2}\,\mathbb E e^{\lambda S_k}`;
the base case is the same step from :math:`S_0=0`.

Tight: independent :math:`N(0,\tau^2)` variables (equality).

References
----------
* Dwork & Rothblum 2016, Lemma 2.2, arXiv:1603.01887v2.
* Williams, *Probability with Martingales*, 1991, §9.7 (tower property).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import i, k, lam, naturals, positive, real, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le
from theorems.foundations_convexity import expectation_affine
from theorems.foundations_composition import (CondMGF, S, X, normal_expectation, partial_sums_start,
                                              partial_sums_step, tower_mgf_partial_sums)

__all__ = ["theorem", "make", "mutants", "conditionally_subgaussian", "BOUND", "sum_induction"]

BOUND = sp.exp(k * lam ** 2 * tau ** 2 / 2)

conditionally_subgaussian = Hypothesis(
    name="conditionally_subgaussian",
    title="for every prefix, X_i given the prefix is τ-subgaussian (at this λ)",
    relation=le(CondMGF(X(i), lam, i), sp.exp(lam ** 2 * tau ** 2 / 2)),
    variables={i: naturals()},
)


def _rademacher_iid(k_, lam_, tau_):
    """τ·(sum of k fair signs): E e^{λS} by enumerating the binomial distribution of the sum."""
    total = mpmath.mpf(0)
    for j in range(k_ + 1):
        total += mpmath.binomial(k_, j) * mpmath.exp(lam_ * tau_ * (2 * j - k_))
    return total / mpmath.mpf(2) ** k_


def _rademacher_adaptive(k_, lam_, tau_):
    """X_i = τ·sign_i while S_{i-1} >= 0, (τ/2)·sign_i after: exact dynamic programming over S (units τ/2)."""
    dist = {0: mpmath.mpf(1)}
    for _ in range(k_):
        nxt: dict[int, mpmath.mpf] = {}
        for s_units, pr in dist.items():
            step = 2 if s_units >= 0 else 1
            for sgn in (-1, 1):
                key = s_units + sgn * step
                nxt[key] = nxt.get(key, mpmath.mpf(0)) + pr / 2
        dist = nxt
    return sum(pr * mpmath.exp(lam_ * tau_ * s_units / 2) for s_units, pr in dist.items())


def _gaussian_iid(k_, lam_, tau_):
    """k independent N(0, τ²): (E e^{λX})^k, the one-variable MGF by Arb quadrature over X = τu, u ~ N(0, 1).

    The integrand e^{λτu}φ(u) peaks at u = λτ; it is integrated on λτ ± w with e^{-w²/2} below the
    working precision, so the truncation error is negligible.
    """
    s_ = lam_ * tau_
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    return normal_expectation(lambda u, c: (c * u).exp(), s_ - w, s_ + w, s_) ** k_


def _ground_truth(v, dps):
    k_, lam_, tau_ = int(v[k]), v[lam], v[tau]
    return [("tau * (k fair signs), exact enumeration", _rademacher_iid(k_, lam_, tau_)),
            ("adaptive signs (scale tau, then tau/2 once S < 0), exact", _rademacher_adaptive(k_, lam_, tau_)),
            ("k independent N(0, tau^2), quadrature", _gaussian_iid(k_, lam_, tau_))]


def sum_induction(one_step, bound: sp.Expr, hypothesis: Hypothesis) -> Chain:
    """``E[e^{λS_k}] <= bound`` by induction on k with the tower rule, from ``hypothesis``: the conditional MGF
    of X_n is at most ``one_step(n)`` (the homogeneous and the heterogeneous statement share it)."""
    def mgf(n):
        return Expect(sp.exp(lam * S(n)))

    base = (
        Chain(mgf(1))
        .eq(Expect(sp.exp(lam * (S(0) + X(1)))), by(partial_sums_step, i=1))
        .eq(Expect(sp.exp(lam * S(0)) * sp.exp(lam * X(1))), algebra())
        .le(CondMGF(X(1), lam, 1) * mgf(0), by(tower_mgf_partial_sums, i=1, lam=lam))
        .le(one_step(1) * mgf(0), by(hypothesis, i=1, inside=lambda w: w * mgf(0)))
        .eq(one_step(1) * Expect(sp.S.One), by(partial_sums_start))
        .eq(one_step(1), by(expectation_affine, a=0, b=1))
        .eq(bound.xreplace({k: 1}), algebra())
    )
    ih = Hypothesis("ih", title="induction hypothesis", relation=le(mgf(k), bound))
    step = (
        Chain(mgf(k + 1))
        .eq(Expect(sp.exp(lam * (S(k) + X(k + 1)))), by(partial_sums_step, i=k + 1))
        .eq(Expect(sp.exp(lam * S(k)) * sp.exp(lam * X(k + 1))), algebra())
        .le(CondMGF(X(k + 1), lam, k + 1) * mgf(k), by(tower_mgf_partial_sums, i=k + 1, lam=lam))
        .le(one_step(k + 1) * mgf(k), by(hypothesis, i=k + 1, inside=lambda w: w * mgf(k)))
        .le(one_step(k + 1) * bound, by(ih, inside=lambda w: one_step(k + 1) * w))
        .eq(bound.xreplace({k: k + 1}), algebra())
    )
    return Chain(mgf(k)).le(bound, induction(k, base, step))


def make(bound: sp.Expr = BOUND) -> Theorem:
    """The statement with the claimed MGF ``bound`` (tests build mutants with a wrong one)."""
    start = Expect(sp.exp(lam * S(k)))
    proof = sum_induction(lambda n: sp.exp(lam ** 2 * tau ** 2 / 2), bound, conditionally_subgaussian)
    return Theorem(
        name="subgaussian_sum",
        reference="R-B5",
        source="Dwork & Rothblum 2016, Lemma 2.2, arXiv:1603.01887v2",
        title="sum of conditionally subgaussian variables",
        variables={k: naturals(sample_lo=1, sample_hi=40),
                   tau: positive(sample_lo=0.05, sample_hi=3),
                   lam: real(sample_lo=-4, sample_hi=4)},
        hypotheses=(conditionally_subgaussian,),
        parts=(Part("main", le(start, bound), proof=proof, ground_truth=_ground_truth),),
        numeric_points=({"k": "1", "tau": "1", "lam": "0.7"}, {"k": "5", "tau": "0.5", "lam": "-2"},
                        {"k": "30", "tau": "1.3", "lam": "1.1"}, {"k": "100", "tau": "0.1", "lam": "3"}),
        property_examples=30,
        tight="equality for independent N(0, τ²) steps.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("e^{kλ²τ²/4}: the constant 1/2 scaled to 1/4", make(sp.exp(k * lam ** 2 * tau ** 2 / 4))),
        ("e^{λ²τ²/2}: the factor k dropped", make(sp.exp(lam ** 2 * tau ** 2 / 2))),
        ("e^{(k − 1)λ²τ²/2}: one step removed", make(sp.exp((k - 1) * lam ** 2 * tau ** 2 / 2))),
    ]
