r"""Advanced composition with the sharp mean term: k-fold composition of ε-DP is (kε·tanh(ε/2) + ε√(2k log(1/δ')), δ')-DP.

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le\delta',\qquad
    \varepsilon'=k\,\varepsilon\,\frac{e^{\varepsilon}-1}{e^{\varepsilon}+1}+\varepsilon\sqrt{2k\log(1/\delta')}
    =k\,\varepsilon\tanh(\varepsilon/2)+\varepsilon\sqrt{2k\log(1/\delta')},

for the two views :math:`P^{(k)}, Q^{(k)}` of every k-fold adaptive composition of
ε-DP mechanisms, :math:`0<\delta'<1`: the composition is :math:`(\varepsilon',\delta')`-DP.
This is the third branch of the Kairouz–Oh–Viswanath closed form (R-F4) in
the pure case :math:`\delta_0=0`; the whole closed form (minimum of three
branches, :math:`\delta_0>0`) is ``approx_dp_advanced_composition_kov15``
(supported only).

Parameterization: as ``approx_dp_advanced_composition`` (R-B1): ε-DP of every
pair the adversary may choose is the hypotheses ``pure_dp`` (:math:`|L|\le\varepsilon`
a.s.) and ``same_support`` (:math:`\mathbb E e^{-L}=1`) of ``kl_of_pure_dp`` on
the canonical pair, which stands for any step's pair; the composed pair is
:math:`(P^{(k)},Q^{(k)})` with privacy loss :math:`L_k`
(:mod:`theorems.foundations_composition`).  (ε',δ')-DP is the hockey-stick form
(R-A6).  ``kl_of_pure_dp`` writes the sharp mean as
:math:`\varepsilon(e^\varepsilon-1)/(e^\varepsilon+1)` (``SHARP``); the chain turns it into
:math:`\varepsilon\tanh(\varepsilon/2)` by one algebra step.

Proof: DR16 Theorem 1.1's chain (``approx_dp_advanced_composition.composition_proof``,
reused, not copied) with the per-step mean :math:`\mu=\varepsilon\tanh(\varepsilon/2)`
in place of :math:`\varepsilon(e^\varepsilon-1)/2` (R-F4 [D]):

1. tail condition (R-A6): :math:`\delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le\Pr[L_k>\varepsilon']`;
2. :math:`L_k=D_k+S_k` and the **union bound** at :math:`k\mu` and
   :math:`t\sqrt k\,\varepsilon`, :math:`t=\sqrt{2\log(1/\delta')}`;
3. every step is :math:`(\mu,\varepsilon)`-CDP: the mean
   :math:`\mathbb E[L]=D_{\mathrm{KL}}(P\|Q)\le\varepsilon\tanh(\varepsilon/2)` (R-A1 and
   ``kl_of_pure_dp``, part ``sharp``), the centred loss ε-subgaussian
   (**Hoeffding's lemma**, ``cdp_of_pure_dp_hoeffding``); hence
   :math:`D_k\le k\mu` a.s. and :math:`S_k` is :math:`\sqrt k\varepsilon`-subgaussian
   (``cdp_composition``);
4. **subgaussian concentration**: :math:`\Pr[S_k>t\sqrt k\varepsilon]\le e^{-t^2/2}=\delta'`.

Every step is checked by the kernel; no numeric step.  The per-step
reduction of (ε, δ0)-DP to ε-DP (DRV10; total δ :math:`1-(1-\delta_0)^k(1-\delta')`
in KOV15) is not encoded.

Not tight: the exact optimum is the k-fold randomized-response profile (R-F7,
KOV15 Thm 3.3), the ground truth here; e.g. k = 100, ε = 0.1, δ' = 1e-6:
optimum 4.7746, this theorem 5.7561, DR16 Thm 1.1 5.7824 (R-B1, ✓N19, ✓N46).
The mean term cannot be halved: :math:`k\varepsilon\tanh(\varepsilon/2)` is the exact
mean of the composed loss of randomized response, and with half of it the
claim fails (k = 200, ε = 0.7, δ' = 1e-6).

References
----------
* Kairouz, Oh & Viswanath 2015, *The Composition Theorem for Differential Privacy*, ICML, Theorem 3.4
  (homogeneous closed form, third branch), arXiv:1311.0776 (theorem number as REFERENCE.md gives it,
  not checked against the paper).
* Dwork & Rothblum 2016, Thm 1.1 (the chain) and Lemma 3.8, arXiv:1603.01887v2.
* REFERENCE.md R-F4 (statement), R-B1, R-B14 (sharp mean), R-F7 (ground truth), ✓N19, ✓N46.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import L, delta_p, eps, k, naturals, open_unit, positive
from cdpsym.expr.operators import KL, Expect, HockeyStick, P, Q
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le
from theorems.approx_dp_advanced_composition import composition_proof
from theorems.cdp_composition import compensated_losses
from theorems.foundations import kl_is_mean_loss
from theorems.foundations_composition import Pk, Qk
from theorems.kl_of_pure_dp import SHARP, pure_dp, same_support
from theorems.kl_of_pure_dp import theorem as kl_of_pure_dp

__all__ = ["theorem", "make", "mutants", "EPS_PRIME", "MU", "MEAN_TERM", "SQRT_TERM"]

MU = eps * sp.tanh(eps / 2)  # the sharp mean of an ε-DP step (R-B14), = kl_of_pure_dp.SHARP
MEAN_TERM = k * MU
SQRT_TERM = eps * sp.sqrt(2 * k * sp.log(1 / delta_p))
EPS_PRIME = MEAN_TERM + SQRT_TERM


def _mean_chain() -> Chain:
    """``E[L] = D_KL(P‖Q) <= ε tanh(ε/2)``: every step's mean, from kl_of_pure_dp's sharp part."""
    return (Chain(Expect(L))
            .eq(KL(P, Q), by(kl_is_mean_loss))
            .le(SHARP, by(kl_of_pure_dp.part("sharp"), eps=eps))
            .eq(MU, algebra("(e^ε − 1)/(e^ε + 1) = tanh(ε/2)")))


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
    return Theorem(
        name="approx_dp_advanced_composition_sharp",
        reference="R-F4",
        source="Kairouz, Oh & Viswanath 2015, Thm 3.4 (third branch, δ0 = 0), arXiv:1311.0776; "
               "proof: Dwork & Rothblum 2016, Thm 1.1, arXiv:1603.01887v2, with the sharp mean (R-B14)",
        title="advanced composition with the sharp mean term",
        notion="compose(k=k, DP(eps)) is DP(k*eps*tanh(eps/2) + eps*sqrt(2*k*log(1/delta_p)), delta_p)",
        variables={k: naturals(sample_lo=1, sample_hi=300),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta_p: open_unit(sample_lo=1e-15, sample_hi=0.9, log_scale=True)},
        hypotheses=(pure_dp, same_support, compensated_losses),
        parts=(Part("main", le(start, delta_p), proof=composition_proof(eps_prime, MU, _mean_chain()),
                    ground_truth=_ground_truth(eps_prime)),),
        numeric_points=({"k": "20", "eps": "0.1", "delta_p": "1e-5"}, {"k": "100", "eps": "0.1", "delta_p": "1e-6"},
                        {"k": "50", "eps": "0.5", "delta_p": "1e-6"}, {"k": "10", "eps": "1", "delta_p": "1e-3"},
                        {"k": "1000", "eps": "0.05", "delta_p": "1e-9"}, {"k": "5", "eps": "0.3", "delta_p": "0.05"},
                        {"k": "200", "eps": "0.7", "delta_p": "1e-6"}, {"k": "1", "eps": "2", "delta_p": "0.5"}),
        property_examples=30,
        tight="not tight: k = 100, ε = 0.1, δ' = 1e-6 gives 5.7561, the exact optimum is 4.7746 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("mean term kε tanh(ε/2)/2: halved", make(MEAN_TERM / 2 + SQRT_TERM)),
        ("ε√(k log(1/δ')): the 2 under the root dropped",
         make(MEAN_TERM + eps * sp.sqrt(k * sp.log(1 / delta_p)))),
    ]
