r"""Dwork–Rothblum–Vadhan's advanced composition in full: k-fold (ε, δ0)-DP is :math:`(\sqrt{2k\log(1/\delta')}\,\varepsilon+k\varepsilon(e^\varepsilon-1),\ k\delta_0+\delta')`-DP (*supported*: it rests on the Kairouz–Oh–Viswanath closed form).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le k\delta_0+\delta',\qquad
    \varepsilon'=\sqrt{2k\log(1/\delta')}\;\varepsilon+k\,\varepsilon\,(e^{\varepsilon}-1),

for the two views :math:`P^{(k)}, Q^{(k)}` of every k-fold adaptive composition of (ε, δ0)-DP mechanisms,
ε > 0, δ0 ∈ [0, 1], δ' ∈ (0, 1), k ≥ 1, no condition relating k and ε (R-F3 as stated; the pure case δ0 = 0 is
``approx_dp_advanced_composition_drv10``, proved).

Parameterization: as ``approx_dp_advanced_composition_approx_steps`` (DR16 Thm 1.1 with δ0, R-B1): every step's
pair is (ε, δ0)-DP in both directions.

Proof (every step checked by the kernel): DRV10's mean term :math:`k\varepsilon(e^\varepsilon-1)` exceeds DR16's
:math:`k\varepsilon(e^\varepsilon-1)/2` by :math:`k\varepsilon\,e^{\varepsilon/2}\sinh(\varepsilon/2)\ge0`, so ε'
is at least DR16's ε'; the hockey-stick divergence is non-increasing in its order (``hockey_stick_antitone``,
proved), and DR16's bound at its own ε' is ``approx_dp_advanced_composition_approx_steps``.  That theorem is
*supported* (it cites KOV15's closed form, checked against the exact optimum, not proved), and so is this one.

Ground truth: the exact optimum (KOV15 Thm 3.3, R-F7) at ε', as for R-B1.

Not tight: weaker than R-B1 by :math:`k\varepsilon(e^\varepsilon-1)/2` in ε', and the total δ exceeds the exact
optimum at ε' (KOV15, R-F7); e.g. k = 100, ε = 0.1, δ0 = 1e-8, δ' = 1e-6: ε' = 6.3082, the bound kδ0 + δ' = 2e-6,
the exact optimum at ε' 1.00009e-6.

References
----------
* Dwork, Rothblum & Vadhan 2010, *Boosting and Differential Privacy*, FOCS, Thm III.3 (Thm 3.3 of the
  full version).
* Dwork & Roth 2014, Thm 3.20.
* REFERENCE.md R-F3 (statement), R-B1, R-F4, R-F7.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import delta0, delta_p, eps, k
from cdpsym.expr.operators import HockeyStick
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, sign
from theorems.approx_dp_advanced_composition import EPS_PRIME as DR16
from theorems.approx_dp_advanced_composition_approx_steps import (DELTA_TOTAL, NUMERIC_POINTS, VARIABLES,
                                                                   antitone_step)
from theorems.approx_dp_advanced_composition_approx_steps import theorem as dr16_approx_steps
from theorems.approx_dp_advanced_composition_drv10 import EPS_PRIME, MEAN_TERM
from theorems.approx_dp_advanced_composition_kov15 import exact_optimum_truth
from theorems.approx_dp_optimal_composition_homogeneous import step_approx_dp, step_approx_dp_reverse
from theorems.foundations_composition import Pk, Qk

__all__ = ["theorem", "make", "mutants"]


def make(eps_prime: sp.Expr = EPS_PRIME, delta_total: sp.Expr = DELTA_TOTAL) -> Theorem:
    """DRV10 Thm III.3 with the claimed (``eps_prime``, ``delta_total``) (tests build mutants)."""
    lhs = HockeyStick(eps_prime, Pk(k), Qk(k))
    excess = k * eps * sp.exp(eps / 2) * sp.sinh(eps / 2)
    gap = (Chain(0).le(excess, sign("k, ε, e^{ε/2} and sinh(ε/2) are positive"))
           .eq(eps_prime - DR16, algebra("e^{ε/2} sinh(ε/2) = (e^ε − 1)/2")))
    proof = (Chain(lhs)
             .le(HockeyStick(DR16, Pk(k), Qk(k)), antitone_step(DR16, eps_prime, gap))
             .le(DELTA_TOTAL, by(dr16_approx_steps.part("main"), k=k, eps=eps, delta0=delta0, delta_p=delta_p)))
    if delta_total != DELTA_TOTAL:
        proof = proof.eq(delta_total, algebra())
    return Theorem(
        name="approx_dp_advanced_composition_drv10_approx_steps",
        reference="R-F3",
        source="Dwork, Rothblum & Vadhan 2010, Thm III.3; Dwork & Roth 2014, Thm 3.20 (δ0 > 0 allowed); derived "
               "here from Dwork & Rothblum 2016, Thm 1.1, arXiv:1603.01887v2",
        title="advanced composition of approximate DP (DRV10)",
        variables=dict(VARIABLES),
        hypotheses=(step_approx_dp, step_approx_dp_reverse),
        parts=(Part("main", le(lhs, delta_total), proof=proof, ground_truth=exact_optimum_truth(eps_prime)),),
        numeric_points=NUMERIC_POINTS,
        property_examples=20,
        tight="not tight: k = 100, ε = 0.1, δ0 = 1e-8, δ' = 1e-6 gives ε' = 6.3082 and δ = 2e-6, the exact optimum "
              "at that ε' is 1.00009e-6 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    root = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps
    return [
        ("total δ = δ' (the per-step δ0 dropped)", make(EPS_PRIME, delta_p)),
        ("total δ = kδ0/2 + δ'", make(EPS_PRIME, k * delta0 / 2 + delta_p)),
        ("mean term kε(e^ε − 1)/4", make(root + MEAN_TERM / 4)),
    ]
