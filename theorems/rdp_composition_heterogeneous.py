r"""Adaptive composition of :math:`(\alpha,\varepsilon_i)`-RDP mechanisms is :math:`(\alpha,\sum_i\varepsilon_i)`-RDP:
the general form of R-D4.

.. math::
    \mathbb E\big[e^{(\alpha-1)L_k}\big]\le e^{(\alpha-1)\sum_{i=1}^{k}\varepsilon_i}
    \quad\text{whenever, for every } i,\quad
    \mathbb E\big[e^{(\alpha-1)L^{(i)}}\big]\le e^{(\alpha-1)\varepsilon_i},

i.e. :math:`D_\alpha(P^{(k)}\|Q^{(k)})\le\sum_i\varepsilon_i` when every pair the adversary may choose at step
:math:`i` has :math:`D_\alpha\le\varepsilon_i` (Mironov's Proposition 1 is stated for two mechanisms,
:math:`\varepsilon_1+\varepsilon_2`; iterated, this).

Parameterization: as ``rdp_composition`` (the MGF form of :math:`D_\alpha` at one order α > 1), with a
**sequence** :math:`\varepsilon_1,\varepsilon_2,\dots` instead of one ε; the hypothesis ``rdp_per_step`` is on
``L^{(i)}``, the loss of a pair of the class of step i, read at step n with i = n by the kernel's class-member
rule.  The kernel treats the :math:`\varepsilon_i` as arbitrary reals; the checks draw them from
:math:`[10^{-3}, 2]`.  ``rdp_composition`` is the case :math:`\varepsilon_i=\varepsilon`.

Proof: **induction on k** with the **tower rule** (``zcdp_composition.mgf_induction`` at
:math:`\lambda=\alpha-1`).

Tight: Rényi divergences of product distributions add: independent Gaussian steps with
:math:`\alpha\tau_i^2/2=\varepsilon_i` attain the bound; the ground truth is their product of one-step
quadratures.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Proposition 1, arXiv:1702.07476v3.
* REFERENCE.md R-D4.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import alpha, greater_than, i, k, naturals, positive
from cdpsym.expr.operators import ClassLoss, Expect
from cdpsym.expr.symbols import sequence
from cdpsym.proof import Hypothesis, Part, Theorem, le
from theorems.foundations_composition import L_k
from theorems.rdp_composition import gaussian_mgf
from theorems.zcdp_composition import mgf_induction

__all__ = ["theorem", "make", "mutants", "eps_step", "rdp_per_step", "EPS_SUM"]

eps_step = sequence("eps_step", r"\varepsilon")  # ε_i: the RDP parameter of step i at the order α
EPS_SUM = sp.Sum(eps_step(i), (i, 1, k))

rdp_per_step = Hypothesis(
    name="rdp_per_step",
    title="every pair the adversary may choose at step i is (α, ε_i)-RDP (Mironov Def 3/4)",
    relation=le(Expect(sp.exp((alpha - 1) * ClassLoss(i))), sp.exp((alpha - 1) * eps_step(i))),
    variables={i: naturals()},
)


def _witnesses(v, dps):
    """E_P e^{(α−1)L_k} for k independent Gaussian steps with D_α = ε_i exactly (a quadrature per step)."""
    kk = int(v[k])
    steps = [gaussian_mgf(v[alpha], v[eps_step(sp.Integer(j))]) for j in range(1, kk + 1)]
    return [("k independent Gaussian steps with D_alpha = eps_i, one quadrature per step", mpmath.fprod(steps))]


def make(total: sp.Expr = EPS_SUM) -> Theorem:
    """The composition with the claimed total ``total`` (tests build mutants with a wrong one)."""
    lam = alpha - 1
    bound = sp.exp(lam * total)
    proof = mgf_induction(lam, lambda n: sp.exp(lam * eps_step(n)), bound, rdp_per_step)
    return Theorem(
        name="rdp_composition_heterogeneous",
        reference="R-D4",
        source="Mironov 2017, Prop. 1, arXiv:1702.07476v3",
        title="adaptive composition of RDP with a parameter per step",
        variables={k: naturals(sample_lo=1, sample_hi=8),
                   alpha: greater_than(1, sample_lo=1.01, sample_hi=64, log_scale=True)},
        sequences={eps_step: positive(sample_lo=1e-3, sample_hi=2, log_scale=True)},
        hypotheses=(rdp_per_step,),
        parts=(Part("main", le(Expect(sp.exp(lam * L_k(k))), bound), proof=proof, ground_truth=_witnesses),),
        numeric_points=({"k": "1", "alpha": "2", "eps_step": "0.5"},
                        {"k": "3", "alpha": "32", "eps_step": "0.01 0.5 0.002"},
                        {"k": "4", "alpha": "1.5", "eps_step": "2 0.1 0.3 1"}),
        property_examples=10,
        tight="equality for independent Gaussian steps with D_α = ε_i.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Σε_i/2: halved", make(EPS_SUM / 2)),
        ("Σ_{i<k} ε_i: the last step dropped", make(sp.Sum(eps_step(i), (i, 1, k - 1)))),
        ("kε_1: every step priced as the first", make(k * eps_step(1))),
    ]
