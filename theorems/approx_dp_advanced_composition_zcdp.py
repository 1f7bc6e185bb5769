r"""k-fold composition of ε-DP is :math:`(k\varepsilon^2/2+\sqrt{2k\log(1/\delta)}\,\varepsilon,\delta)`-DP, via zCDP.

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le\delta,\qquad
    \varepsilon'=\frac{k\varepsilon^2}{2}+\sqrt{2k\log(1/\delta)}\;\varepsilon,

for the two views :math:`P^{(k)},Q^{(k)}` of every k-fold adaptive composition
of ε-DP mechanisms, :math:`0<\delta<1`.

Parameterization: the homogeneous form of Steinke's theorem (R-F5), whose
general form is :math:`\tfrac12\sum_j\varepsilon_j^2+\sqrt{2\log(1/\delta)\sum_j\varepsilon_j^2}`.
ε-DP of every pair the adversary may choose is the two hypotheses of
``kl_of_pure_dp`` on the canonical pair (``pure_dp``, ``same_support``); the
composed pair is :math:`(P^{(k)},Q^{(k)})` with privacy loss :math:`L_k`
(:mod:`theorems.foundations_composition`).  (ε,δ)-DP in the hockey-stick form (R-A6).

Proof (S22b): ε-DP ⇒ ε²/2-zCDP (``zcdp_of_pure_dp``); composition adds
(``zcdp_composition``: :math:`\rho_k=k\varepsilon^2/2`); ρ-zCDP ⇒
:math:`(\rho+2\sqrt{\rho\log(1/\delta)},\delta)`-DP (BS16 Prop 1.3), and
:math:`\rho_k+2\sqrt{\rho_k\log(1/\delta)}=k\varepsilon^2/2+\sqrt{2k\log(1/\delta)}\,\varepsilon`.
The last step is the chain of ``approx_dp_of_zcdp`` (tail condition,
**Markov's inequality** on :math:`e^{(\alpha-1)L_k}`, the zCDP bound, the
minimising order :math:`\alpha^*=(\varepsilon'+\rho_k)/(2\rho_k)`), written out
for the composed pair: that theorem is stated for the canonical pair, which
here denotes a single step, so it cannot be cited for :math:`(P^{(k)},Q^{(k)})`
(the kernel has no way to instantiate a theorem at another pair).

Not tight (R-F5, ✓N19): e.g. k = 100, ε = 0.1, δ = 1e-6 gives 5.7565, the
exact optimum (R-F7, the ground truth here) is 4.7746.  Asymptotically
equivalent to DR16 Thm 1.1 (``approx_dp_advanced_composition``) as ε → 0.

References
----------
* Steinke 2022, *Composition Basics*, DifferentialPrivacy.org (seed 002), "Advanced Composition Starting
  from Pure DP"; Steinke 2022, arXiv:2210.00597.
* Bun & Steinke 2016, Prop 1.3, Prop 1.4, Lemma 1.7, arXiv:1605.02065.
* Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776 (the exact optimum, ground truth).
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import L, alpha, delta, eps, greater_than, k, naturals, open_unit, positive
from cdpsym.expr.operators import Expect, HockeyStick, Prob
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, specialize
from theorems.foundations import markov_exponential
from theorems.foundations_composition import L_k, Pk, Qk, tail_condition_composed
from theorems.kl_of_pure_dp import pure_dp, same_support
from theorems.zcdp_composition import theorem as zcdp_composition
from theorems.zcdp_of_pure_dp import theorem as zcdp_of_pure_dp

__all__ = ["theorem", "make", "mutants", "EPS_PRIME", "RHO_K"]

RHO_K = k * eps ** 2 / 2  # zCDP of the composition
EPS_PRIME = RHO_K + sp.sqrt(2 * k * sp.log(1 / delta)) * eps


def _ground_truth(statement_eps):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import optimal_composition_delta

        e_prime = evaluate(statement_eps, v, MPContext(dps))
        return [("k-fold randomized response: the exact optimum (KOV15, R-F7)",
                 optimal_composition_delta(e_prime, [v[eps]] * int(v[k]), dps=dps))]
    return truth


def make(eps_prime: sp.Expr = EPS_PRIME) -> Theorem:
    """The theorem with the claimed ε' (tests build mutants with a wrong one)."""
    start = HockeyStick(eps_prime, Pk(k), Qk(k))
    lam_ = alpha - 1
    exponent = lam_ * (alpha * RHO_K - eps_prime)
    step_zcdp = (  # every step is ε²/2-zCDP at the order α: zcdp_composition's hypothesis, by zcdp_of_pure_dp
        Chain(Expect(sp.exp(lam_ * L)))
        .le(sp.exp(lam_ * (lam_ + 1) * eps ** 2 / 2), by(zcdp_of_pure_dp.part("main"), eps=eps, lam=lam_))
    )
    proof = (
        Chain(start, variables={alpha: greater_than(1)})
        .le(Prob(sp.StrictGreaterThan(L_k(k), eps_prime)), by(tail_condition_composed, eps=eps_prime, k=k))
        .le(sp.exp(-lam_ * eps_prime) * Expect(sp.exp(lam_ * L_k(k))),
            by(markov_exponential, lam=lam_, t=eps_prime, X=L_k(k)))
        .le(sp.exp(-lam_ * eps_prime) * sp.exp(lam_ * alpha * RHO_K),
            by(zcdp_composition, k=k, rho=eps ** 2 / 2, lam=lam_, given={"zcdp_at_order": step_zcdp},
               inside=lambda w: sp.exp(-lam_ * eps_prime) * w))
        .eq(sp.exp(exponent), algebra())
        .eq(sp.exp(-(eps_prime - RHO_K) ** 2 / (4 * RHO_K)),
            specialize(alpha=(eps_prime + RHO_K) / (2 * RHO_K), minimizes=exponent))
        .eq(delta, algebra())
    )
    return Theorem(
        name="approx_dp_advanced_composition_zcdp",
        reference="R-F5",
        source="Steinke 2022, Composition Basics (seed 002), homogeneous form; arXiv:2210.00597",
        title="advanced composition via zCDP",
        notion="compose(k=k, DP(eps)) is DP(k*eps**2/2 + sqrt(2*k*log(1/delta))*eps, delta)",
        variables={k: naturals(sample_lo=1, sample_hi=300),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta: open_unit(sample_lo=1e-15, sample_hi=0.9, log_scale=True)},
        hypotheses=(pure_dp, same_support),
        parts=(Part("main", le(start, delta), proof=proof, ground_truth=_ground_truth(eps_prime)),),
        numeric_points=({"k": "100", "eps": "0.1", "delta": "1e-6"}, {"k": "20", "eps": "0.1", "delta": "1e-5"},
                        {"k": "50", "eps": "0.5", "delta": "1e-6"}, {"k": "10", "eps": "1", "delta": "1e-3"},
                        {"k": "200", "eps": "0.7", "delta": "1e-6"}, {"k": "1", "eps": "2", "delta": "0.5"},
                        {"k": "1000", "eps": "0.05", "delta": "1e-9"}),
        property_examples=30,
        tight="not tight: k = 100, ε = 0.1, δ = 1e-6 gives 5.7565, the exact optimum is 4.7746 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε' = kε²/2 + √(k log(1/δ))ε: the 2 under the root dropped",
         make(RHO_K + sp.sqrt(k * sp.log(1 / delta)) * eps)),
        ("ε' = kε²/4 + √(2k log(1/δ))ε: the quadratic term halved",
         make(k * eps ** 2 / 4 + sp.sqrt(2 * k * sp.log(1 / delta)) * eps)),
    ]
