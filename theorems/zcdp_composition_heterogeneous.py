r"""Adaptive composition of :math:`\rho_i`-zCDP mechanisms is :math:`(\sum_i\rho_i)`-zCDP: the general form of R-C7.

.. math::
    \mathbb E\big[e^{\lambda L_k}\big]\le e^{\lambda(\lambda+1)\sum_{i=1}^{k}\rho_i}
    \quad\text{whenever, for every } i,\quad
    \mathbb E\big[e^{\lambda L^{(i)}}\big]\le e^{\lambda(\lambda+1)\rho_i},

with :math:`L_k=C_1+\dots+C_k` the privacy loss of the adaptive composition and :math:`L^{(i)}` the loss of any
pair the adversary may choose at step :math:`i` (the class of step :math:`i`).

Parameterization: as ``zcdp_composition`` (ρ-zCDP in the MGF form of R-A9 at one fixed order
:math:`\lambda>0`), with a **sequence** of parameters :math:`\rho_1,\rho_2,\dots` instead of one ρ: the
hypothesis ``zcdp_per_step`` is on ``L^{(i)}``, the loss of a pair of the class of step i, for every i; the
kernel's class-member rule reads it at the pair of step n with i = n (``by(zcdp_per_step, i=n, at_step=n)``,
docs/kernel.md).  The kernel treats the terms :math:`\rho_i` as arbitrary real numbers, so the proof holds for
every real sequence (for :math:`\rho_i<0` the class of step i is empty); the numeric and property checks draw
them from :math:`[10^{-3},1]`.  ``zcdp_composition`` is the case :math:`\rho_i=\rho`, proved by the same chain
(``zcdp_composition.mgf_induction``).

Proof (BS16 Lemma 1.7, iterated): **induction on k** with the **tower rule**, as in ``zcdp_composition``:
:math:`\mathbb E e^{\lambda L_{k+1}}\le\operatorname{ess\,sup}\mathbb E[e^{\lambda C_{k+1}}\mid\mathcal F_k]\,
\mathbb E e^{\lambda L_k}\le e^{\lambda(\lambda+1)\rho_{k+1}}\,e^{\lambda(\lambda+1)\sum_{i\le k}\rho_i}`; the
last sum is split by the kernel (a finite sum with upper limit :math:`k+1` is its first :math:`k` terms plus the
last).

Tight: independent Gaussian mechanisms with :math:`\Delta_i^2/(2\sigma_i^2)=\rho_i` (:math:`L_k\sim
N(\sum\rho_i,2\sum\rho_i)`, equality at every order); the ground truth is that composition and an adaptive one,
each step's moment generating function by Arb quadrature.

References
----------
* Bun & Steinke 2016, Lemma 1.7 (composition, with :math:`\rho_1+\rho_2`) and Definition 1.1, arXiv:1605.02065.
* Mironov 2017, Prop. 1, arXiv:1702.07476v3.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import i, k, lam, naturals, positive
from cdpsym.expr.operators import ClassLoss, Expect
from cdpsym.expr.symbols import sequence
from cdpsym.proof import Hypothesis, Part, Theorem, le
from theorems.foundations_composition import L_k
from theorems.zcdp_composition import _halves, mgf_induction

__all__ = ["theorem", "make", "mutants", "rho_step", "zcdp_per_step", "RHO_SUM", "gaussian_steps", "adaptive_steps"]

rho_step = sequence("rho_step", r"\rho")  # ρ_i: the zCDP parameter of step i
RHO_SUM = sp.Sum(rho_step(i), (i, 1, k))

zcdp_per_step = Hypothesis(
    name="zcdp_per_step",
    title="every pair the adversary may choose at step i is ρ_i-zCDP at this order (R-A9)",
    relation=le(Expect(sp.exp(lam * ClassLoss(i))), sp.exp(lam * (lam + 1) * rho_step(i))),
    variables={i: naturals()},
)


# -- ground truths: E e^{λ L_k} for compositions whose step i is ρ_i-zCDP ---------------------------------------------

def _step_halves(r, ll):
    """(E[e^{λC}; y < 0], E[e^{λC}; y >= 0]) for the Gaussian step N(0, 1) vs N(√(2ρ), 1) (exactly ρ-zCDP)."""
    t_g = mpmath.sqrt(2 * r)
    return _halves(lambda u, t_, l_: (l_ * (t_ * t_ / 2 - t_ * u)).exp(), -ll * t_g, t_g, ll)


def _rhos(v):
    kk = int(v[k])
    return kk, [v[rho_step(sp.Integer(j))] for j in range(1, kk + 1)]


def gaussian_steps(v, dps=None):
    """k independent Gaussian steps, step i exactly ρ_i-zCDP: the product of the steps' MGFs (quadrature)."""
    kk, rhos = _rhos(v)
    return mpmath.fprod(sum(_step_halves(r, v[lam])) for r in rhos)


def adaptive_steps(v, dps=None):
    """Step 1 Gaussian (ρ_1); steps 2..k Gaussian (ρ_i) only if the first output is < 0, else a constant (0-zCDP)."""
    kk, rhos = _rhos(v)
    below, above = _step_halves(rhos[0], v[lam])
    return below * mpmath.fprod(sum(_step_halves(r, v[lam])) for r in rhos[1:]) + above


def _witnesses(v, dps):
    return [("k independent Gaussian steps (ρ_i), one quadrature per step", gaussian_steps(v)),
            ("adaptive: Gaussian steps 2..k only if the first output is < 0", adaptive_steps(v))]


# -- the theorem ------------------------------------------------------------------------------------------------------

def make(total: sp.Expr = RHO_SUM) -> Theorem:
    """The composition with the claimed total ``total`` (tests build mutants with a wrong one)."""
    bound = sp.exp(lam * (lam + 1) * total)
    proof = mgf_induction(lam, lambda n: sp.exp(lam * (lam + 1) * rho_step(n)), bound, zcdp_per_step)
    return Theorem(
        name="zcdp_composition_heterogeneous",
        reference="R-C7",
        source="Bun & Steinke 2016, Lemma 1.7, arXiv:1605.02065",
        title="adaptive composition of zCDP with a parameter per step",
        variables={k: naturals(sample_lo=1, sample_hi=8), lam: positive(sample_lo=0.01, sample_hi=4)},
        sequences={rho_step: positive(sample_lo=1e-3, sample_hi=1, log_scale=True)},
        hypotheses=(zcdp_per_step,),
        parts=(Part("main", le(Expect(sp.exp(lam * L_k(k))), bound), proof=proof, ground_truth=_witnesses),),
        numeric_points=({"k": "1", "lam": "1", "rho_step": "0.5"},
                        {"k": "3", "lam": "1", "rho_step": "0.5 0.01 2"},
                        {"k": "5", "lam": "0.3", "rho_step": "0.01 0.2 0.05 1 0.3"},
                        {"k": "4", "lam": "3", "rho_step": "0.001 0.002 0.5 0.004"}),
        property_examples=10,
        tight="equality at every order for independent Gaussian mechanisms.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Σρ_i/2: halved", make(RHO_SUM / 2)),
        ("Σ_{i<k} ρ_i: the last step dropped", make(sp.Sum(rho_step(i), (i, 1, k - 1)))),
        ("kρ_1: every step priced as the first", make(k * rho_step(1))),
    ]
