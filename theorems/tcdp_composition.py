r"""k-fold adaptive composition of (ρ, ω)-tCDP mechanisms is (kρ, ω)-tCDP.

.. math::
    \mathbb E\big[e^{(\alpha-1)L_k}\big]\le e^{(\alpha-1)\,k\rho\,\alpha}\quad\text{for every }\alpha\in(1,\omega)
    \quad\text{whenever every step satisfies}\quad
    \mathbb E_P\big[e^{(\alpha-1)L}\big]\le e^{(\alpha-1)\rho\alpha}\ \ \text{for every }\alpha\in(1,\omega),

with :math:`L_k=C_1+\dots+C_k` the privacy loss of the adaptive composition
(:mod:`theorems.foundations_composition`).

Parameterization (R-A11): (ρ, ω)-tCDP is :math:`D_\alpha(P\|Q)\le\rho\alpha` for
every :math:`\alpha\in(1,\omega)` (BDRS18), written in the MGF form of
:mod:`theorems.rdp_composition` (:math:`D_\alpha\le\varepsilon` iff
:math:`\mathbb E_P[e^{(\alpha-1)L}]\le e^{(\alpha-1)\varepsilon}`); the hypothesis
``tcdp`` is on the canonical pair ``(P, Q)``, which stands for every pair the
adversary may choose at any step.  ω = ∞ is ρ-zCDP (R-C7).  Homogeneous
steps: R-F9's heterogeneous row :math:`(\sum_i\rho_i,\min_i\omega_i)` has the
same proof order by order (at an order below :math:`\min_i\omega_i` every step
is :math:`(\alpha,\rho_i\alpha)`-RDP), but ``rdp_composition``, which this
theorem cites, is stated for equal steps.

Proof (BDRS18; "same proof as R-D4"): fix α ∈ (1, ω); every step is then
(α, ρα)-RDP (the hypothesis ``tcdp`` at this α), and ``rdp_composition`` at
ε = ρα gives (α, kρα)-RDP for the composition.

Tight: exact for k independent Gaussian steps with :math:`D_\alpha=\rho\alpha`
at every order (the ground truth).

References
----------
* Bun, Dwork, Rothblum & Steinke 2018, *Composable and Versatile Privacy via Truncated CDP*, STOC
  (definition and composition of tCDP; theorem number not checked, REFERENCE.md R-A11 is [C]).
* Mironov 2017, Proposition 1, arXiv:1702.07476v3 (the order-by-order step, via ``rdp_composition``).
* REFERENCE.md R-A11 (definition and composition), R-F9 (summary), R-D4.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import L, alpha, greater_than, k, naturals, omega, positive, rho
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le
from theorems.foundations_composition import L_k
from theorems.rdp_composition import gaussian_mgf
from theorems.rdp_composition import theorem as rdp_composition

__all__ = ["theorem", "make", "mutants", "tcdp", "RHO_TOTAL"]

RHO_TOTAL = k * rho

tcdp = Hypothesis(
    name="tcdp",
    title="every pair the adversary may choose is (ρ, ω)-tCDP: E[e^{(α−1)L}] ≤ e^{(α−1)ρα} for every α in (1, ω)",
    relation=le(Expect(sp.exp((alpha - 1) * L)), sp.exp((alpha - 1) * rho * alpha)),
    variables={alpha: Interval.open(1, omega)},
)


def _witnesses(v, dps):
    """k independent Gaussian steps with D_α = ρα at every order: one-step quadrature, k-th power."""
    kk, a, r = int(v[k]), v[alpha], v[rho]
    return [("k independent Gaussian steps with D_alpha = rho*alpha, one-step quadrature",
             gaussian_mgf(a, r * a) ** kk)]


def make(rho_total: sp.Expr = RHO_TOTAL) -> Theorem:
    """The composition with the claimed total ``rho_total`` (tests build mutants with a smaller one)."""
    lhs = Expect(sp.exp((alpha - 1) * L_k(k)))
    bound = sp.exp((alpha - 1) * rho_total * alpha)
    proof = (Chain(lhs)
             .le(sp.exp((alpha - 1) * k * (rho * alpha)),
                 by(rdp_composition, k=k, alpha=alpha, eps=rho * alpha, given={"rdp": by(tcdp, alpha=alpha)})))
    if rho_total != RHO_TOTAL:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="tcdp_composition",
        reference="R-F9",  # the tCDP row of R-F9's table (the law is stated with R-A11)
        source="Bun, Dwork, Rothblum & Steinke 2018, composition of tCDP; via Mironov 2017, Prop. 1",
        title="adaptive composition of truncated CDP",
        variables={k: naturals(sample_lo=1, sample_hi=20),
                   rho: positive(sample_lo=1e-3, sample_hi=2, log_scale=True),
                   omega: greater_than(1, sample_lo=1.1, sample_hi=50),
                   alpha: Interval.open(1, omega, sample_lo=1.01, sample_hi=1.09)},
        hypotheses=(tcdp,),
        parts=(Part("main", le(lhs, bound), proof=proof, ground_truth=_witnesses),),
        numeric_points=({"k": "1", "rho": "0.5", "omega": "3", "alpha": "2"},
                        {"k": "10", "rho": "0.01", "omega": "100", "alpha": "32"},
                        {"k": "3", "rho": "1", "omega": "1.5", "alpha": "1.2"}),
        property_examples=10,
        tight="exact for k independent Gaussian steps with D_α = ρα at every order.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("(k rho/2, omega): the total halved", make(k * rho / 2)),
            ("(rho, omega): no accumulation", make(rho))]


theorem = make()
