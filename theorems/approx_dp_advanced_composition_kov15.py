r"""The Kairouz–Oh–Viswanath closed form: k-fold composition of (ε, δ0)-DP is (ε̃, 1 − (1 − δ0)^k(1 − δ'))-DP, ε̃ the minimum of three branches (*supported*, not proved).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\tilde\varepsilon)\ \le\ 1-(1-\delta_0)^k(1-\delta'),\qquad
    \tilde\varepsilon=\min\Big\{k\varepsilon,\ \
    k\varepsilon\tfrac{e^\varepsilon-1}{e^\varepsilon+1}+\varepsilon\sqrt{2k\log\big(e+\sqrt{k\varepsilon^2}/\delta'\big)},\ \
    k\varepsilon\tfrac{e^\varepsilon-1}{e^\varepsilon+1}+\varepsilon\sqrt{2k\log(1/\delta')}\Big\},

for the two views :math:`P^{(k)}, Q^{(k)}` (``Pk(k)``, ``Qk(k)`` of
:mod:`theorems.foundations_composition`) of every k-fold adaptive composition
of (ε, δ0)-DP mechanisms, :math:`0<\delta'<1`.

Parameterization (R-F4): ``delta0`` is the per-step δ ∈ [0, 1] and ``delta_p``
the slack δ'; :math:`\tfrac{e^\varepsilon-1}{e^\varepsilon+1}=\tanh(\varepsilon/2)` (written as tanh, as
``approx_dp_advanced_composition_sharp``, whose ε' is the third branch).
Every step's pair is (ε, δ0)-DP in both directions (hypotheses
``step_approx_dp`` and ``step_approx_dp_reverse`` of
``approx_dp_optimal_composition_homogeneous``, stated for the pair ``(P, Q)``
of the class).  KOV15 allow δ' ∈ (0, 1]; δ' = 1 (total δ = 1) is trivial and
left out, so that every branch is defined on an open domain.

Status: **supported**.  The proof chain is one ``numeric`` step.  The
statement is checked at 50 digits against the exact optimum: the hockey-stick
divergence at ε̃ of the k-fold product of KOV15's four-atom (ε, δ0)-DP pair
(which dominates every adaptive composition of (ε, δ0)-DP mechanisms, KOV15
Thm 3.3, R-F7), computed (1) by ``cdpsym.mechanisms.optimal_composition_delta``
(a sum of positive parts over the binomial law of k-fold randomized response,
with the revealing atoms), and, for k ≤ 20, (2) by summing positive parts over
the atoms of the product itself, grouped by how many coordinates fall on each
of the four atoms (multinomial weights; no binomial or closed form); for k ≤ 5
also (3) the explicit products of ``approx_dp_optimal_composition_homogeneous``
(four-atom pair, randomized response, random ε-DP pairs).

What the kernel does prove: the third branch in the pure case δ0 = 0,
:math:`(k\varepsilon\tanh(\varepsilon/2)+\varepsilon\sqrt{2k\log(1/\delta')},\delta')`, is
``approx_dp_advanced_composition_sharp`` (DR16's chain with the sharp mean).
The rest -- the middle branch (KOV15's own concentration argument for the
k-fold randomized response), the minimum (the first branch is basic
composition), and δ0 > 0 (the total δ :math:`1-(1-\delta_0)^k(1-\delta')` comes
from KOV15's reduction of an (ε, δ0)-DP pair to the four-atom pair, a
post-processing/simulation argument over arbitrary pairs) -- needs rules the
kernel does not carry.

Not tight: e.g. k = 100, ε = 0.1, δ' = 1e-6: ε̃ = 5.7561, the exact optimum is
4.7746; k = 1000, ε = 0.05, δ' = 1e-9: branches 11.5409 and 11.4290, optimum
10.2799 (✓N19, ✓N46).

Not encoded: KOV15's heterogeneous closed form (Thm 3.5 as REFERENCE gives it: Σε_i·tanh(ε_i/2), Σε_i², Σε_i in
place of the homogeneous terms), because the statement language has no indexed parameters (a list ε_1..ε_k is
neither a variable nor a numeric point); the homogeneous form is the one stated here.

References
----------
* Kairouz, Oh & Viswanath 2015, *The Composition Theorem for Differential Privacy*, ICML, Theorem 3.4
  (homogeneous closed form) and Theorem 3.3 (the exact optimum, ground truth), arXiv:1311.0776 (theorem
  numbers as REFERENCE.md gives them, not checked against the paper).
* REFERENCE.md R-F4 (statement), R-F7 (ground truth), R-A6 (hockey-stick form), ✓N19, ✓N46.
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

from cdpsym.expr import delta0, delta_p, eps, k, naturals, open_unit, positive
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import HockeyStick
from cdpsym.proof import Chain, Part, Theorem, le, numeric
from theorems.approx_dp_optimal_composition_homogeneous import (four_atom_pair, product_witnesses, step_approx_dp,
                                                                 step_approx_dp_reverse)
from theorems.approx_dp_advanced_composition_sharp import EPS_PRIME as THIRD
from theorems.approx_dp_advanced_composition_sharp import MEAN_TERM
from theorems.foundations_composition import Pk, Qk

__all__ = ["theorem", "make", "mutants", "EPS_TILDE", "DELTA_TOTAL", "BASIC", "MIDDLE", "THIRD",
           "four_atom_product_delta", "exact_optimum_truth"]

BASIC = k * eps
MIDDLE = MEAN_TERM + eps * sp.sqrt(2 * k * sp.log(sp.E + sp.sqrt(k * eps ** 2) / delta_p))
# THIRD = kε tanh(ε/2) + ε√(2k log(1/δ')): the statement of approx_dp_advanced_composition_sharp
EPS_TILDE = sp.Min(BASIC, MIDDLE, THIRD)
DELTA_TOTAL = 1 - (1 - delta0) ** k * (1 - delta_p)

_TYPE_ENUMERATION_MAX_K = 20  # C(k + 3, 3) atom types: 1771 at k = 20


# -- ground truth: the exact optimum, by enumeration ----------------------------------------------------------------

def four_atom_product_delta(e, d0, steps, eps_t):
    """``Σ_y (P^k(y) − e^{ε̃} Q^k(y))_+`` over the atoms of the k-fold product of the four-atom pair.

    Atoms with the same number of coordinates on each of the four atoms have the same masses, so the sum
    runs over the counts ``(a, b, c, d)``, ``a + b + c + d = k``, with multinomial multiplicities.
    """
    pp, qq = four_atom_pair(e, d0)
    w = mpmath.exp(eps_t)
    terms = []
    for a in range(steps + 1):
        for b in range(steps + 1 - a):
            for c in range(steps + 1 - a - b):
                d = steps - a - b - c
                p = pp[0] ** a * pp[1] ** b * pp[2] ** c * pp[3] ** d
                q = qq[0] ** a * qq[1] ** b * qq[2] ** c * qq[3] ** d
                gap = p - w * q
                if gap > 0:
                    count = math.comb(steps, a) * math.comb(steps - a, b) * math.comb(steps - a - b, c)
                    terms.append(count * gap)
    return mpmath.fsum(terms)


def exact_optimum_truth(eps_expr: sp.Expr):
    """Ground truth for ``δ_{P^(k)‖Q^(k)}(eps_expr)`` over (ε, δ0)-DP steps: the exact optimum (KOV15 Thm 3.3, R-F7)
    by the binomial law, for k ≤ 20 by atom types, for k ≤ 5 by explicit products."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import optimal_composition_delta
        from cdpsym.mechanisms.profile import hockey_stick_discrete

        rows = []
        with mpmath.workdps(dps + 20):
            point = {key: mpmath.mpf(x) for key, x in v.items()}
            e, d0, steps = point[eps], point[delta0], int(point[k])
            eps_t = evaluate(eps_expr, point, MPContext(dps + 20))
            rows.append(("exact optimum (KOV15 Thm 3.3, R-F7): k-fold four-atom pair via the RR binomial law",
                         optimal_composition_delta(eps_t, [e] * steps, [d0] * steps, dps=dps + 20)))
            if steps <= _TYPE_ENUMERATION_MAX_K:
                rows.append((f"{steps}-fold product of the four-atom pair, positive parts summed by atom type",
                             four_atom_product_delta(e, d0, steps, eps_t)))
            for name, pp, qq in product_witnesses(e, d0, steps, dps + 20):
                rows.append((name + ": sum of positive parts at eps~", hockey_stick_discrete(pp, qq, eps_t,
                                                                                              dps=dps + 20)))
        return rows

    return truth


# -- the theorem -------------------------------------------------------------------------------------------------

def make(eps_tilde: sp.Expr = EPS_TILDE, delta_total: sp.Expr = DELTA_TOTAL) -> Theorem:
    """The KOV15 closed form with the claimed (``eps_tilde``, ``delta_total``) (tests build mutants)."""
    lhs = HockeyStick(eps_tilde, Pk(k), Qk(k))
    return Theorem(
        name="approx_dp_advanced_composition_kov15",
        reference="R-F4",
        source="Kairouz, Oh & Viswanath 2015, Thm 3.4, arXiv:1311.0776",
        title="advanced composition, Kairouz–Oh–Viswanath closed form",
        variables={k: naturals(sample_lo=1, sample_hi=300),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta0: Interval(sp.S.Zero, sp.S.One, False, False, sample_lo=0, sample_hi=0.2),
                   delta_p: open_unit(sample_lo=1e-15, sample_hi=0.9, log_scale=True)},
        hypotheses=(step_approx_dp, step_approx_dp_reverse),
        parts=(Part("main", le(lhs, delta_total), proof=Chain(lhs).le(delta_total, numeric()),
                    ground_truth=exact_optimum_truth(eps_tilde)),),
        numeric_points=(
            # ✓N19 / ✓N46, pure steps
            {"k": "20", "eps": "0.1", "delta0": "0", "delta_p": "1e-5"},
            {"k": "100", "eps": "0.1", "delta0": "0", "delta_p": "1e-6"},
            {"k": "50", "eps": "0.5", "delta0": "0", "delta_p": "1e-6"},
            {"k": "10", "eps": "1", "delta0": "0", "delta_p": "1e-3"},
            {"k": "1000", "eps": "0.05", "delta0": "0", "delta_p": "1e-9"},
            {"k": "5", "eps": "0.3", "delta0": "0", "delta_p": "0.05"},
            {"k": "200", "eps": "0.7", "delta0": "0", "delta_p": "1e-6"},
            # δ0 > 0
            {"k": "10", "eps": "1", "delta0": "1e-3", "delta_p": "1e-3"},
            {"k": "5", "eps": "0.3", "delta0": "0.01", "delta_p": "0.05"},
            {"k": "3", "eps": "1", "delta0": "0.1", "delta_p": "0.1"},
            {"k": "20", "eps": "0.1", "delta0": "1e-4", "delta_p": "1e-5"},
            {"k": "100", "eps": "0.1", "delta0": "1e-8", "delta_p": "1e-6"},
            {"k": "1", "eps": "2", "delta0": "0.05", "delta_p": "0.5"},
            {"k": "16", "eps": "0.4", "delta0": "0.02", "delta_p": "1e-4"}),
        property_examples=20,
        tight="not tight: k = 100, ε = 0.1, δ' = 1e-6 gives 5.7561, the exact optimum is 4.7746 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    half = MEAN_TERM / 2
    return [
        ("mean term kε tanh(ε/2)/2 in both concentration branches: halved",
         make(sp.Min(BASIC, MIDDLE - half, THIRD - half))),
        ("2k -> k under both roots",
         make(sp.Min(BASIC, MEAN_TERM + eps * sp.sqrt(k * sp.log(sp.E + sp.sqrt(k * eps ** 2) / delta_p)),
                     MEAN_TERM + eps * sp.sqrt(k * sp.log(1 / delta_p))))),
        ("basic-composition branch kε -> (k − 1)ε", make(sp.Min((k - 1) * eps, MIDDLE, THIRD))),
        ("total δ = δ' (the per-step δ0 dropped)", make(EPS_TILDE, delta_p)),
    ]
