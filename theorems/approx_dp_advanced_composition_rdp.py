r"""RDP advanced composition (Mironov Cor. 1): k-fold composition of ε-DP is
:math:`(4\varepsilon\sqrt{2k\log(1/\delta)},\delta)`-DP when :math:`\log(1/\delta)\ge\varepsilon^2k`.

.. math::
    \mathbb E_P\big[e^{(\alpha-1)L}\big]\le e^{(\alpha-1)\,2\alpha\varepsilon^2}\ \ (\text{Lemma 1}),\qquad
    \delta_{P^{(k)}\|Q^{(k)}}\big(4\varepsilon\sqrt{2k\log(1/\delta)}\big)\le\delta\quad
    \text{for } 0<\delta\le e^{-k\varepsilon^2},

for every ε-DP pair (part ``lemma1``, every α > 1) and the two views :math:`P^{(k)},Q^{(k)}` of every k-fold
adaptive composition of ε-DP mechanisms (part ``main``).  M17 writes n for k.

Parameterization: ε-DP of every pair the adversary may choose is the hypotheses ``pure_dp`` and
``same_support`` of ``kl_of_pure_dp`` (as in ``approx_dp_advanced_composition_zcdp``); (α, ε)-RDP is the MGF
form of R-A10; (ε', δ)-DP the hockey-stick form (R-A6) for the composed pair with loss :math:`L_k`
(:mod:`theorems.foundations_composition`).  Cor. 1's condition :math:`\log(1/\delta)\ge\varepsilon^2k` is the
domain of δ.

Proof (REFERENCE R-D9 and its remark).  M17 proves Lemma 1 with the constant 2 and notes that BS16 Prop. 3.3
improves it to ½; REFERENCE's remark shows that with the constant 2 the printed proof of Prop. 4 breaks
when :math:`\log(1/Q)>4k\varepsilon^2` although the statements are true, and that the R-C6 constant repairs
it.  So both parts are proved from ``zcdp_of_pure_dp`` (R-C6: every step is :math:`(\alpha,\alpha\varepsilon^2/2)`-RDP):

* ``lemma1``: :math:`\alpha\varepsilon^2/2\le2\alpha\varepsilon^2` (Lemma 1 as printed, with its weaker constant);
* ``main`` (Mironov's route with R-C6's constant): per-step :math:`(\alpha,\alpha\varepsilon^2/2)`-RDP,
  **RDP composition** (``rdp_composition``, M17 Prop. 1) gives :math:`(\alpha,\alpha k\varepsilon^2/2)`-RDP of the
  composition, and the conversion of ``approx_dp_of_rdp`` (M17 Prop. 3 by the tail route: the tail condition,
  **Markov's inequality** on :math:`e^{(\alpha-1)L_k}`) gives
  :math:`\delta(\varepsilon'')\le e^{(\alpha-1)(\alpha\rho-\varepsilon'')}`, :math:`\rho=k\varepsilon^2/2`.  That
  theorem is stated for the canonical pair, which here is one step, so its three steps are written out for the
  composed pair (the kernel cannot instantiate a theorem at another pair; ``approx_dp_advanced_composition_zcdp``
  does the same).  At the order :math:`\alpha=1+\sqrt{\log(1/\delta)/\rho}` the exponent is
  :math:`\sqrt{\rho\log(1/\delta)}-7\log(1/\delta)\le-\log(1/\delta)`, because
  :math:`36\log(1/\delta)\ge\rho` (here :math:`\log(1/\delta)\ge2\rho`).

Mironov's Prop. 4 (the probability form :math:`\Pr[f(D)\in S]\le e^{2\varepsilon\sqrt{k\log(1/Q)}}Q`) is **not**
encoded here: it needs probability preservation (R-D6, ``rdp_probability_preservation``) for the composed pair,
whose chain would have to be written out again for :math:`L_k`.

Not tight: e.g. k = 1000, ε = 0.03, δ = 1e−3 gives ε' = 14.1, where the exact δ (the KOV15 optimum, the
ground truth) is 1.8e−50; ε' = 3.53 already has exact δ = 1.2e−4 < 1e−3; R-F5
(``approx_dp_advanced_composition_zcdp``) gives :math:`k\varepsilon^2/2+\varepsilon\sqrt{2k\log(1/\delta)}`,
smaller whenever Cor. 1's condition holds.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Lemma 1, Prop. 1, Prop. 3, Prop. 4, Cor. 1, arXiv:1702.07476v3.
* Bun & Steinke 2016, Prop. 3.3 (the constant ½), arXiv:1605.02065.
* Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776 (the exact optimum, ground truth).
* REFERENCE.md R-D9 (with its remark), R-C6, R-D4, R-D5.

The third-party transcription with ε under the root (:math:`4\sqrt{2\varepsilon k\log(1/\delta)}`, REFERENCE
R-D9) is larger than Cor. 1 for ε <= 1, so it is not an unsafe mutant there; the mutants shrink the constant
or drop √k.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, delta, eps, greater_than, k, naturals, open_unit
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect, HockeyStick, Prob
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, sign, specialize
from theorems.foundations import markov_exponential
from theorems.foundations_composition import L_k, Pk, Qk, tail_condition_composed
from theorems.kl_of_pure_dp import loss_law, pure_dp, same_support, witness_pairs
from theorems.rdp_composition import theorem as rdp_composition
from theorems.zcdp_of_pure_dp import theorem as zcdp_of_pure_dp

__all__ = ["theorem", "make", "mutants", "EPS_PRIME", "LEMMA1"]

LOG_INV = sp.log(1 / delta)
EPS_PRIME = 4 * eps * sp.sqrt(2 * k * LOG_INV)
LEMMA1 = 2 * alpha * eps ** 2  # Mironov's Lemma 1: D_alpha <= 2 alpha eps^2
RHO = k * eps ** 2 / 2


def _lemma1_truth(v, dps):
    """E_P[e^{(α−1)L}] of ε-DP pairs (randomized response, the extremal one, and random pairs), summed."""
    lm = v[alpha] - 1
    return [(name, mpmath.fsum(w * mpmath.exp(lm * l) for w, l in loss_law(pp, qq)))
            for name, pp, qq in witness_pairs(v[eps])]


def _ground_truth(statement_eps):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import optimal_composition_delta

        e_prime = evaluate(statement_eps, v, MPContext(dps))
        return [("k-fold composition of eps-DP: the exact optimum (KOV15, R-F7)",
                 optimal_composition_delta(e_prime, [v[eps]] * int(v[k]), dps=dps))]
    return truth


def make(eps_prime: sp.Expr = EPS_PRIME, lemma1: sp.Expr = LEMMA1) -> Theorem:
    """Cor. 1 with the claimed ε' and Lemma 1 with the claimed curve (tests build mutants with wrong ones)."""
    lam_ = alpha - 1
    lemma1_proof = (
        Chain(Expect(sp.exp(lam_ * L)))
        .le(sp.exp(lam_ * alpha * eps ** 2 / 2), by(zcdp_of_pure_dp.part("main"), eps=eps, lam=lam_))
        .le(sp.exp(lam_ * alpha * eps ** 2 / 2)
            + 2 * sp.exp(lam_ * (alpha * eps ** 2 / 2 + LEMMA1) / 2)
            * sp.sinh(lam_ * (LEMMA1 - alpha * eps ** 2 / 2) / 2),
            sign("α ε²/2 <= 2 α ε² and α − 1 > 0"))
        .eq(sp.exp(lam_ * lemma1), algebra("e^a + 2e^{(a+b)/2} sinh((b−a)/2) = e^b"))
    )
    step_rdp = (  # every step is (α, αε²/2)-RDP: rdp_composition's hypothesis at eps := αε²/2
        Chain(Expect(sp.exp(lam_ * L)))
        .le(sp.exp(lam_ * (lam_ + 1) * eps ** 2 / 2), by(zcdp_of_pure_dp.part("main"), eps=eps, lam=lam_))
        .eq(sp.exp(lam_ * (alpha * eps ** 2 / 2)), algebra())
    )
    a_star = 1 + sp.sqrt(LOG_INV) / sp.sqrt(RHO)
    gap = sp.sqrt(LOG_INV) * (36 * LOG_INV - RHO) / (6 * sp.sqrt(LOG_INV) + sp.sqrt(RHO))  # 6ℓ − √(ℓρ) >= 0
    at_star = sp.sqrt(RHO) * sp.sqrt(LOG_INV) - 7 * LOG_INV
    exponent = Part("exponent", le((a_star - 1) * (a_star * RHO - EPS_PRIME), -LOG_INV),
                    title="the exponent at α* = 1 + √(log(1/δ)/ρ) is at most −log(1/δ)",
                    proof=Chain((a_star - 1) * (a_star * RHO - EPS_PRIME))
                    .eq(at_star, algebra("(α*−1)²ρ = log(1/δ), (α*−1)ε' = 8 log(1/δ)"))
                    .eq(-LOG_INV - gap, algebra("6ℓ − √(ρℓ) = √ℓ(36ℓ − ρ)/(6√ℓ + √ρ)"))
                    .le(-LOG_INV, sign("36 log(1/δ) − ρ >= 0, as ε² <= log(1/δ)/k")))
    start = HockeyStick(eps_prime, Pk(k), Qk(k))
    proof = (
        Chain(start, variables={alpha: greater_than(1)})
        .le(Prob(sp.StrictGreaterThan(L_k(k), eps_prime)), by(tail_condition_composed, eps=eps_prime, k=k))
        .le(sp.exp(-lam_ * eps_prime) * Expect(sp.exp(lam_ * L_k(k))),
            by(markov_exponential, lam=lam_, t=eps_prime, X=L_k(k)))
        .le(sp.exp(-lam_ * eps_prime) * sp.exp(lam_ * k * (alpha * eps ** 2 / 2)),
            by(rdp_composition, k=k, alpha=alpha, eps=alpha * eps ** 2 / 2, given={"rdp": step_rdp},
               inside=lambda w: sp.exp(-lam_ * eps_prime) * w))
        .eq(sp.exp(lam_ * (alpha * RHO - eps_prime)), algebra())
        .eq(sp.exp((a_star - 1) * (a_star * RHO - eps_prime)), specialize(alpha=a_star))
    )
    proof = (proof
             .le(sp.exp(-LOG_INV), by(exponent, inside=sp.exp))
             .eq(delta, algebra()))
    return Theorem(
        name="approx_dp_advanced_composition_rdp",
        reference="R-D9",
        source="Mironov 2017, Lemma 1 and Cor. 1, arXiv:1702.07476v3 (with the constant of Bun & Steinke 2016, "
               "Prop. 3.3)",
        title="advanced composition via Rényi DP",
        notion="compose(k=k, DP(eps)) is DP(4*eps*sqrt(2*k*log(1/delta)), delta) FOR eps <= sqrt(log(1/delta)/k)",
        variables={k: naturals(sample_lo=1, sample_hi=200),
                   delta: open_unit(sample_lo=1e-30, sample_hi=0.9, log_scale=True),
                   eps: Interval(sp.S.Zero, sp.sqrt(LOG_INV / k), True, False, sample_lo=0.005, sample_hi=1,
                                 log_scale=True)},
        hypotheses=(pure_dp, same_support),
        parts=(Part("lemma1", le(Expect(sp.exp(lam_ * L)), sp.exp(lam_ * lemma1)), variables={alpha: greater_than(
                    1, sample_lo=1.01, sample_hi=50, log_scale=True)},
                    title="Lemma 1: an ε-DP pair is (α, 2αε²)-RDP", proof=lemma1_proof, ground_truth=_lemma1_truth),
               exponent,
               Part("main", le(start, delta), proof=proof, ground_truth=_ground_truth(eps_prime))),
        # where 32 log(1/δ) >= k, ε' >= kε and the exact δ(ε') is 0; the last three points are not of that kind
        numeric_points=({"k": "100", "eps": "0.01", "delta": "1e-6", "alpha": "2"},
                        {"k": "1", "eps": "1", "delta": "0.3", "alpha": "3"},
                        {"k": "200", "eps": "0.05", "delta": "1e-9", "alpha": "40"},
                        {"k": "1000", "eps": "0.01", "delta": "0.5", "alpha": "1.5"},
                        {"k": "400", "eps": "0.02", "delta": "0.1", "alpha": "10"},
                        {"k": "1000", "eps": "0.03", "delta": "1e-3", "alpha": "1.01"}),
        property_examples=20,
        tight="not tight (REFERENCE R-D9; R-F5 is smaller under Cor. 1's condition).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("the constant 4 shrunk to 1/2", make(eps_prime=eps * sp.sqrt(2 * k * LOG_INV) / 2)),
            ("sqrt(k) dropped: 4 eps sqrt(2 log(1/delta))", make(eps_prime=4 * eps * sp.sqrt(2 * LOG_INV))),
            ("Lemma 1 with the constant 1/4: alpha eps^2/4", make(lemma1=alpha * eps ** 2 / 4))]
