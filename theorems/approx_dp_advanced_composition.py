r"""Advanced composition with the halved mean term (Dwork–Rothblum Theorem 1.1).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le\delta',\qquad
    \varepsilon'=\sqrt{2k\log(1/\delta')}\;\varepsilon+\frac{k\,\varepsilon\,(e^{\varepsilon}-1)}{2},

for the two views :math:`P^{(k)}, Q^{(k)}` of every k-fold adaptive composition of
ε-DP mechanisms: the composition is :math:`(\varepsilon',\delta')`-DP.

Parameterization: ε-DP of every pair the adversary may choose is the two
hypotheses of ``kl_of_pure_dp`` on the canonical pair (``pure_dp``:
:math:`|L|\le\varepsilon` a.s.; ``same_support``: :math:`\mathbb E e^{-L}=1`) —
in the composition theorems the canonical pair ``(P, Q)`` stands for any
step's pair, and the composed pair is :math:`(P^{(k)},Q^{(k)})` with privacy
loss :math:`L_k` (:mod:`theorems.foundations_composition`).  (ε',δ')-DP is the
hockey-stick form (R-A6).  Names follow DRV10/DR14: per-mechanism
:math:`\delta_0`, slack :math:`\delta'\in(0,1)` (DR16 swap the roles of δ and δ′).

What is proved: the **pure case** :math:`\delta_0=0`.  DR16's statement for
:math:`(\varepsilon,\delta_0)`-DP mechanisms, :math:`(\varepsilon',k\delta_0+\delta')`,
follows by DRV10's reduction of each :math:`(\varepsilon,\delta_0)`-DP step to an
ε-DP one up to an event of probability :math:`\delta_0` (union bound over the
k steps); that reduction is not encoded.

Proof (DR16's: Thm 3.5, Thm 3.4, Cor 3.1, the tail condition), in the
adaptive form of ``cdp_composition``:

1. the hockey-stick divergence of the composition is at most the tail
   :math:`\Pr[L_k>\varepsilon']` (tail condition, R-A6);
2. :math:`L_k=D_k+S_k` (compensator plus martingale part) and the **union
   bound**: :math:`\Pr[L_k>k\mu+t\sqrt k\varepsilon]\le\Pr[D_k>k\mu]+\Pr[S_k>t\sqrt k\varepsilon]`
   with :math:`\mu=\varepsilon(e^\varepsilon-1)/2`, :math:`t=\sqrt{2\log(1/\delta')}`;
3. every step is :math:`(\mu,\varepsilon)`-CDP (``cdp_of_pure_dp_hoeffding``), so
   :math:`D_k\le k\mu` a.s. and :math:`S_k` is :math:`\sqrt k\varepsilon`-subgaussian
   (``cdp_composition``);
4. **subgaussian concentration** (``subgaussian_concentration``):
   :math:`\Pr[S_k>t\sqrt k\varepsilon]\le e^{-t^2/2}=\delta'`.

Not tight: the exact optimum is the k-fold randomized-response profile
(R-F7, KOV15), which is the ground truth here; e.g. k = 100, ε = 0.1,
δ' = 1e-6: optimum 4.7746, this theorem 5.7824 (R-B1, ✓N19).  The mean term
cannot be halved again: with :math:`k\varepsilon(e^\varepsilon-1)/4` the claim is
false (k = 200, ε = 0.7, δ' = 1e-6: the exact δ at that ε' is 1.9e-6; k = 1500,
ε = 0.6, δ' = 0.1: 0.88), because the true mean loss per step,
:math:`\varepsilon\tanh(\varepsilon/2)`, exceeds :math:`\varepsilon(e^\varepsilon-1)/4`
for ε < log 3, and the mean term dominates for large k.

References
----------
* Dwork & Rothblum 2016, Thm 1.1 (with Thms 3.4, 3.5 and Cor 3.1), arXiv:1603.01887v2.
* Dwork, Rothblum & Vadhan 2010, Thm III.3 (the original, with mean term kε(e^ε−1)).
* Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776 (the exact optimum, ground truth).
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import L, delta_p, eps, k, lam, naturals, open_unit, positive, real
from cdpsym.expr.operators import Expect, HockeyStick, Prob
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le
from theorems.cdp_composition import compensated_losses
from theorems.cdp_composition import theorem as cdp_composition
from theorems.cdp_of_pure_dp_hoeffding import theorem as cdp_of_pure_dp
from theorems.foundations_composition import D, L_k, Pk, Qk, S, tail_condition_composed, union_bound
from theorems.kl_of_pure_dp import pure_dp, same_support
from theorems.subgaussian_concentration import theorem as subgaussian_concentration

__all__ = ["theorem", "make", "mutants", "composition_proof", "EPS_PRIME", "MEAN_TERM"]

MU = eps * (sp.exp(eps) - 1) / 2  # DR16 Thm 3.5: the mean of an ε-DP step
MEAN_TERM = k * MU
EPS_PRIME = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + MEAN_TERM


def _cdp_given(mean: Chain | None = None):
    """Every step is (μ, ε)-CDP: cdp_composition's class hypotheses, from cdp_of_pure_dp_hoeffding.

    ``mean``: a chain ``E[L] <= μ`` for another per-step mean μ (default: μ = ε(e^ε − 1)/2).
    """
    if mean is None:
        mean = Chain(Expect(L)).le(MU, by(cdp_of_pure_dp.part("mean"), eps=eps))
    return {
        "cdp_mean": mean,
        "cdp_subgaussian": Chain(Expect(sp.exp(lam * (L - Expect(L))))).le(
            sp.exp(lam ** 2 * eps ** 2 / 2), by(cdp_of_pure_dp.part("subgaussian"), eps=eps, lam=lam)),
    }


def _ground_truth(statement_eps):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import optimal_composition_delta

        e_prime = evaluate(statement_eps, v, MPContext(dps))
        kk = int(v[k])
        return [("k-fold randomized response: the exact optimum (KOV15, R-F7)",
                 optimal_composition_delta(e_prime, [v[eps]] * kk, dps=dps))]
    return truth


def composition_proof(eps_prime: sp.Expr, mu: sp.Expr = MU, mean: Chain | None = None) -> Chain:
    """DR16's chain ``δ_{P^(k)‖Q^(k)}(ε') <= ... = δ'`` for steps that are (μ, ε)-CDP.

    ``mean`` is a chain ``E[L] <= mu`` (default: cdp_of_pure_dp_hoeffding's, μ = ε(e^ε − 1)/2); the last
    (algebra) step closes only when ``ε' = √(2k log(1/δ'))ε + kμ``.
    """
    mean_term = k * mu
    start = HockeyStick(eps_prime, Pk(k), Qk(k))
    cdp = dict(k=k, mu=mu, tau=eps)
    subgaussian_sk = (
        Chain(Expect(sp.exp(lam * S(k))), variables={lam: real()})
        .le(sp.exp(k * lam ** 2 * eps ** 2 / 2),
            by(cdp_composition.part("subgaussian"), lam=lam, given=_cdp_given(mean), **cdp))
    )
    margin = eps_prime - mean_term  # = t·√k·ε with t = √(2 log(1/δ')) for the stated ε'
    proof = (
        Chain(start)
        .le(Prob(sp.StrictGreaterThan(L_k(k), eps_prime)), by(tail_condition_composed, eps=eps_prime, k=k))
        .eq(Prob(sp.StrictGreaterThan(D(k) + S(k), eps_prime)),
            by(cdp_composition.part("decomposition"), given=_cdp_given(mean),
               inside=lambda w: Prob(sp.StrictGreaterThan(w, eps_prime)), **cdp))
        .le(Prob(sp.StrictGreaterThan(D(k), mean_term)) + Prob(sp.StrictGreaterThan(S(k), margin)),
            by(union_bound, Y_1=D(k), Y_2=S(k), a=mean_term, b=margin))
        .le(Prob(sp.StrictGreaterThan(S(k), margin)),
            by(cdp_composition.part("drift"), given=_cdp_given(mean),
               inside=lambda w: w + Prob(sp.StrictGreaterThan(S(k), margin)), **cdp))
        .le(sp.exp(-(margin / (sp.sqrt(k) * eps)) ** 2 / 2),
            by(subgaussian_concentration.part("upper"), X=S(k), tau=sp.sqrt(k) * eps, t=margin / (sp.sqrt(k) * eps),
               given={"subgaussian": subgaussian_sk}))
        .eq(delta_p, algebra("t = √(2 log(1/δ')): e^{-t²/2} = δ'"))
    )
    return proof


def make(mean_term: sp.Expr = MEAN_TERM) -> Theorem:
    """The theorem with the claimed mean term (tests build the mutant with kε(e^ε−1)/4)."""
    eps_prime = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + mean_term
    start = HockeyStick(eps_prime, Pk(k), Qk(k))
    proof = composition_proof(eps_prime)
    return Theorem(
        name="approx_dp_advanced_composition",
        reference="R-B1",
        source="Dwork & Rothblum 2016, Thm 1.1, arXiv:1603.01887v2 (pure case δ0 = 0)",
        title="advanced composition (Dwork–Rothblum)",
        notion="compose(k=k, DP(eps)) is DP(sqrt(2*k*log(1/delta_p))*eps + k*eps*(exp(eps)-1)/2, delta_p)",
        variables={k: naturals(sample_lo=1, sample_hi=300),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta_p: open_unit(sample_lo=1e-15, sample_hi=0.9, log_scale=True)},
        hypotheses=(pure_dp, same_support, compensated_losses),
        parts=(Part("main", le(start, delta_p), proof=proof, ground_truth=_ground_truth(eps_prime)),),
        numeric_points=({"k": "100", "eps": "0.1", "delta_p": "1e-6"}, {"k": "20", "eps": "0.1", "delta_p": "1e-5"},
                        {"k": "50", "eps": "0.5", "delta_p": "1e-6"}, {"k": "10", "eps": "1", "delta_p": "1e-3"},
                        {"k": "200", "eps": "0.7", "delta_p": "1e-6"}, {"k": "1500", "eps": "0.6", "delta_p": "0.1"},
                        {"k": "1", "eps": "2", "delta_p": "0.5"}),
        property_examples=30,
        tight="not tight: k = 100, ε = 0.1, δ' = 1e-6 gives 5.7824, the exact optimum is 4.7746 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("mean term kε(e^ε − 1)/4: halved", make(k * eps * (sp.exp(eps) - 1) / 4)),
        ("mean term kε²/4: e^ε − 1 linearised and halved", make(k * eps ** 2 / 4)),
    ]
