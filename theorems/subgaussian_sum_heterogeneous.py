r"""A sum of conditionally :math:`\tau_i`-subgaussian variables is :math:`\sqrt{\sum_i\tau_i^2}`-subgaussian: R-B5
as stated.

.. math::
    \mathbb E\big[e^{\lambda S_k}\big]\le e^{\lambda^2\sum_{i=1}^{k}\tau_i^2/2}
    \quad\text{whenever}\quad
    \operatorname{ess\,sup}\mathbb E\big[e^{\lambda X_i}\,\big|\,\mathcal F_{i-1}\big]\le e^{\lambda^2\tau_i^2/2}
    \ \ (i=1,\dots,k),\qquad S_k=X_1+\dots+X_k .

Parameterization: as ``subgaussian_sum`` (adapted :math:`X_i`, the hypothesis at one fixed real λ), with a
**sequence** :math:`\tau_1,\tau_2,\dots` (``cdpsym.expr.symbols.sequence``): the kernel treats its terms as
arbitrary reals, so the proof holds for every real sequence; the checks draw them from :math:`[0.05, 3]`.
``subgaussian_sum`` is the case :math:`\tau_i=\tau`.

Proof (DR16 Lemma 2.2): **induction on k** with the **tower rule** (``subgaussian_sum.sum_induction``), the
step's factor :math:`e^{\lambda^2\tau_{k+1}^2/2}` joining the sum by the kernel's split of a finite sum.

Tight: independent :math:`N(0,\tau_i^2)` variables (equality); the ground truth is their product of one-step
quadratures, and an exact enumeration of :math:`\sum_i\tau_i\,\mathrm{sign}_i` over the :math:`2^k` sign patterns.

References
----------
* Dwork & Rothblum 2016, Lemma 2.2, arXiv:1603.01887v2.
* Williams, *Probability with Martingales*, 1991, §9.7 (tower property).
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from cdpsym.expr import i, k, lam, naturals, positive, real
from cdpsym.expr.operators import Expect
from cdpsym.expr.symbols import sequence
from cdpsym.proof import Hypothesis, Part, Theorem, le
from theorems.foundations_composition import CondMGF, S, X, normal_expectation
from theorems.subgaussian_sum import sum_induction

__all__ = ["theorem", "make", "mutants", "tau_step", "conditionally_subgaussian_per_step", "VARIANCE_SUM"]

tau_step = sequence("tau_step", r"\tau")  # τ_i: the subgaussian parameter of step i
VARIANCE_SUM = sp.Sum(tau_step(i) ** 2, (i, 1, k))

conditionally_subgaussian_per_step = Hypothesis(
    name="conditionally_subgaussian_per_step",
    title="for every prefix, X_i given the prefix is τ_i-subgaussian (at this λ)",
    relation=le(CondMGF(X(i), lam, i), sp.exp(lam ** 2 * tau_step(i) ** 2 / 2)),
    variables={i: naturals()},
)


def _taus(v):
    return [v[tau_step(sp.Integer(j))] for j in range(1, int(v[k]) + 1)]


def _signs(v, dps):
    """Σ τ_i sign_i with independent fair signs: E e^{λS} by enumerating the 2^k sign patterns."""
    taus, ll = _taus(v), v[lam]
    total = mpmath.fsum(mpmath.exp(ll * mpmath.fsum(s_ * t_ for s_, t_ in zip(signs, taus)))
                        for signs in itertools.product((-1, 1), repeat=len(taus)))
    return total / mpmath.mpf(2) ** len(taus)


def _gaussians(v, dps):
    """Independent N(0, τ_i²): the product of the one-variable MGFs, each by Arb quadrature around its peak."""
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    out = mpmath.mpf(1)
    for t_ in _taus(v):
        s_ = v[lam] * t_
        out *= normal_expectation(lambda u, c: (c * u).exp(), s_ - w, s_ + w, s_)
    return out


def _ground_truth(v, dps):
    return [("sum of tau_i * fair sign_i, exact enumeration", _signs(v, dps)),
            ("independent N(0, tau_i^2), quadrature per step", _gaussians(v, dps))]


def make(variance: sp.Expr = VARIANCE_SUM) -> Theorem:
    """The statement with the claimed variance proxy ``variance`` (tests build mutants with a wrong one)."""
    bound = sp.exp(lam ** 2 * variance / 2)
    start = Expect(sp.exp(lam * S(k)))
    proof = sum_induction(lambda n: sp.exp(lam ** 2 * tau_step(n) ** 2 / 2), bound, conditionally_subgaussian_per_step)
    return Theorem(
        name="subgaussian_sum_heterogeneous",
        reference="R-B5",
        source="Dwork & Rothblum 2016, Lemma 2.2, arXiv:1603.01887v2",
        title="sum of conditionally subgaussian variables with a parameter per step",
        variables={k: naturals(sample_lo=1, sample_hi=8), lam: real(sample_lo=-4, sample_hi=4)},
        sequences={tau_step: positive(sample_lo=0.05, sample_hi=3)},
        hypotheses=(conditionally_subgaussian_per_step,),
        parts=(Part("main", le(start, bound), proof=proof, ground_truth=_ground_truth),),
        numeric_points=({"k": "1", "lam": "0.7", "tau_step": "1"},
                        {"k": "3", "lam": "-2", "tau_step": "0.5 2 0.1"},
                        {"k": "6", "lam": "1.1", "tau_step": "1.3 0.2 0.7 0.05 2.5 1"}),
        property_examples=10,
        tight="equality for independent N(0, τ_i²) steps.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Στ_i²/2: halved", make(VARIANCE_SUM / 2)),
        ("(Στ_i)²/k: the mean square of τ_i replaced by the square of the mean", make(sp.Sum(tau_step(i), (i, 1, k)) ** 2 / k)),
        ("Σ_{i<k} τ_i²: the last step dropped", make(sp.Sum(tau_step(i) ** 2, (i, 1, k - 1)))),
    ]
