r"""Adaptive composition of :math:`(\mu_i,\tau_i)`-CDP mechanisms: mean :math:`\sum_i\mu_i`, standard
:math:`\sqrt{\sum_i\tau_i^2}` -- the general form of R-B10 (DR16 Thm 3.4), in its adaptive (compensated) form.

.. math::
    \mathbb E[L_k]\le\sum_{i=1}^{k}\mu_i,\qquad
    \Pr\Big[D_k>\sum_{i=1}^{k}\mu_i\Big]=0,\qquad
    \mathbb E\big[e^{\lambda S_k}\big]\le e^{\lambda^2\sum_{i=1}^{k}\tau_i^2/2},

with :math:`L_k=D_k+S_k` the composed loss, its compensator and its martingale part (``cdp_composition``).

Parameterization: as ``cdp_composition``, with **sequences** :math:`\mu_1,\mu_2,\dots` and
:math:`\tau_1,\tau_2,\dots` (the second is ``subgaussian_sum_heterogeneous``'s): the hypotheses
``cdp_mean_per_step`` (:math:`\mathbb E L^{(i)}\le\mu_i`) and ``cdp_subgaussian_per_step`` (:math:`L^{(i)}-\mathbb
EL^{(i)}` is :math:`\tau_i`-subgaussian at this λ) are on ``L^{(i)}``, the loss of a pair of the class of step i,
read at step n with i = n by the kernel's class-member rule.  The kernel treats the terms as arbitrary reals; the
checks draw :math:`\mu_i\in[0, 2]`, :math:`\tau_i\in[0.05, 3]`.  ``cdp_composition`` is the case
:math:`\mu_i=\mu`, :math:`\tau_i=\tau`, proved by the same chains (``cdp_composition.composition_proofs``).
DR16's literal statement, that :math:`L_k-\mathbb EL_k` itself is :math:`\sqrt{\sum\tau_i^2}`-subgaussian, is false
under adaptive composition (see ``cdp_composition`` and docs/errata.md); the decomposition is the part of
``cdp_composition``, which does not depend on the parameters.

Proof: the mean and the drift by **induction on k** (linearity of expectation, the step's mean read at the
step); the martingale part by ``subgaussian_sum_heterogeneous`` applied to the compensated losses, whose
conditional MGF the class hypothesis of their step bounds.

Tight: independent Gaussian steps with :math:`\mu_i=\tau_i^2/2`; the ground truth is their exact composition
(the mean from the mechanisms' KL, each step's centred MGF by Arb quadrature).

References
----------
* Dwork & Rothblum 2016, Thm 3.4 and Lemma 2.2, arXiv:1603.01887v2.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import i, k, lam, naturals, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import ClassLoss, Expect, Prob
from cdpsym.expr.symbols import sequence
from cdpsym.proof import Hypothesis, Part, Theorem, le
from theorems.cdp_composition import _halves, compensated_losses, composition_proofs
from theorems.foundations_composition import D, L_k, S
from theorems.subgaussian_sum_heterogeneous import VARIANCE_SUM, tau_step
from theorems.subgaussian_sum_heterogeneous import theorem as subgaussian_sum_heterogeneous

__all__ = ["theorem", "make", "mutants", "mu_step", "cdp_mean_per_step", "cdp_subgaussian_per_step", "MEAN_SUM"]

mu_step = sequence("mu_step", r"\mu")  # μ_i: the mean bound of step i
MEAN_SUM = sp.Sum(mu_step(i), (i, 1, k))

cdp_mean_per_step = Hypothesis(
    name="cdp_mean_per_step",
    title="every pair the adversary may choose at step i has mean loss at most μ_i (R-A8)",
    relation=le(Expect(ClassLoss(i)), mu_step(i)),
    variables={i: naturals()},
)

cdp_subgaussian_per_step = Hypothesis(
    name="cdp_subgaussian_per_step",
    title="every pair the adversary may choose at step i has τ_i-subgaussian centred loss, at this λ (R-A8)",
    relation=le(Expect(sp.exp(lam * (ClassLoss(i) - Expect(ClassLoss(i))))), sp.exp(lam ** 2 * tau_step(i) ** 2 / 2)),
    variables={i: naturals()},
)


# -- ground truth: k independent Gaussian steps, step i N(0, 1) vs N(t_i, 1) with t_i = min(τ_i, √(2μ_i)) -----------

def _steps(v):
    kk = int(v[k])
    out = []
    for j in range(1, kk + 1):
        t_g = min(v[tau_step(sp.Integer(j))], mpmath.sqrt(2 * v[mu_step(sp.Integer(j))]))
        out.append((t_g, t_g ** 2 / 2))  # (shift, the step's exact mean loss = KL = t²/2)
    return out


def _truth(what, mean):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        steps = _steps(v)
        if what == "mean":
            value = mpmath.fsum(kl for _, kl in steps)
        elif what == "drift":  # D_k = Σ KL_i, deterministic for independent steps
            bound = evaluate(mean, v, MPContext(dps))
            total = mpmath.fsum(kl for _, kl in steps)
            value = mpmath.mpf(1) if total > bound + mpmath.mpf(10) ** (-(dps - 8)) * max(1, abs(bound)) else mpmath.mpf(0)
        else:  # E e^{λ S_k}: the product of the steps' centred MGFs, each by quadrature
            ll = v[lam]
            value = mpmath.mpf(1)
            for t_g, kl in steps:
                if t_g == 0:
                    continue
                centred = lambda u, t_, l_, kl_: (l_ * (t_ * t_ / 2 - t_ * u - kl_)).exp()  # noqa: E731
                value *= sum(_halves(centred, -ll * t_g, t_g, ll, kl))
        return [("k independent Gaussian steps (t_i = min(tau_i, sqrt(2 mu_i)))", value)]
    return truth


def make(mean: sp.Expr = MEAN_SUM, variance: sp.Expr = VARIANCE_SUM) -> Theorem:
    """The composition with the claimed mean ``mean`` and variance proxy ``variance`` (tests build mutants)."""
    sum_bound = sp.exp(lam ** 2 * VARIANCE_SUM / 2)
    mean_proof, drift_proof, sub_proof = composition_proofs(
        mean, mu_step, tau_step, cdp_mean_per_step, cdp_subgaussian_per_step, subgaussian_sum_heterogeneous,
        "conditionally_subgaussian_per_step", sum_bound)
    bound = sp.exp(lam ** 2 * variance / 2)
    if variance != VARIANCE_SUM:
        from cdpsym.proof import algebra

        sub_proof = sub_proof.eq(bound, algebra())
    mgf = Expect(sp.exp(lam * S(k)))
    return Theorem(
        name="cdp_composition_heterogeneous",
        reference="R-B10",
        source="Dwork & Rothblum 2016, Thm 3.4, arXiv:1603.01887v2 (adaptive form: compensated loss)",
        title="adaptive composition of mean-concentrated DP with parameters per step",
        variables={k: naturals(sample_lo=1, sample_hi=6), lam: real(sample_lo=-3, sample_hi=3)},
        sequences={mu_step: Interval(sp.S.Zero, sp.Integer(2), False, False), tau_step: Interval(sp.Rational(1, 20), sp.Integer(3), False, False)},
        hypotheses=(cdp_mean_per_step, cdp_subgaussian_per_step, compensated_losses),
        parts=(Part("mean", le(Expect(L_k(k)), mean), proof=mean_proof, ground_truth=_truth("mean", mean)),
               Part("drift", le(Prob(sp.StrictGreaterThan(D(k), mean)), 0), proof=drift_proof,
                    ground_truth=_truth("drift", mean)),
               Part("subgaussian", le(mgf, bound), proof=sub_proof, ground_truth=_truth("subgaussian", mean))),
        numeric_points=({"k": "1", "lam": "0.8", "mu_step": "0.5", "tau_step": "1"},
                        {"k": "3", "lam": "0.3", "mu_step": "2 0.02 0.125", "tau_step": "2 1.5 0.5"},
                        {"k": "4", "lam": "-2", "mu_step": "0.1 1 0.3 0.05", "tau_step": "0.3 1.2 0.8 0.2"}),
        property_examples=8,
        tight="equality for independent Gaussian mechanisms with μ_i = τ_i²/2.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Σμ_i/2: the mean halved", make(mean=MEAN_SUM / 2)),
        ("Στ_i²/2: the variance proxy halved", make(variance=VARIANCE_SUM / 2)),
        ("Σ_{i<k} μ_i: the last step's mean dropped", make(mean=sp.Sum(mu_step(i), (i, 1, k - 1)))),
    ]
