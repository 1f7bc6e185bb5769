r"""Adaptive composition of :math:`\varepsilon_i`-DP mechanisms is :math:`(\sum_i\varepsilon_i)`-DP: the general form
of basic composition (R-F1).

.. math::
    \Pr\Big[-\sum_{i=1}^{k}\varepsilon_i \le L_k \le \sum_{i=1}^{k}\varepsilon_i\Big] = 1
    \quad\text{whenever, for every } i,\quad
    \Pr\big[-\varepsilon_i \le L^{(i)} \le \varepsilon_i\big] = 1,

with :math:`L_k=C_1+\dots+C_k` the privacy loss of the adaptive composition and :math:`L^{(i)}` the loss of any
pair the adversary may choose at step :math:`i`.

Parameterization: as ``pure_dp_basic_composition`` (ε-DP of a pair as :math:`|L|\le\varepsilon` almost surely,
R-A5), with a **sequence** :math:`\varepsilon_1,\varepsilon_2,\dots` of real numbers: the hypothesis
``pure_dp_per_step`` is on ``L^{(i)}``, read at step n with i = n by the kernel's class-member rule.  For
:math:`\varepsilon_i<0` the class of step i is empty and the statement vacuous; the checks draw the terms from
:math:`[10^{-3}, 3]`.  ``pure_dp_basic_composition`` is the case :math:`\varepsilon_i=\varepsilon`.

Proof (DR14 Thm 3.16, in the privacy-loss form): **induction on k** as in ``pure_dp_basic_composition``:
:math:`L_{k+1}=L_k+C_{k+1}`, :math:`|C_{k+1}|\le\varepsilon_{k+1}` almost surely (the hypothesis read at step
k + 1, then the tower rule), and almost-sure bounds add; the kernel splits the last term off the sum.

Tight: randomized response with parameter :math:`\varepsilon_i` at step i reaches :math:`L_k=\sum_i\varepsilon_i`
(all answers truthful) with positive probability; the ground truth enumerates the :math:`2^k` answer patterns.

References
----------
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 3.16.
* Dwork, Rothblum & Vadhan 2010, §III (the adaptive composition game).
* REFERENCE.md R-F1.
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from cdpsym.expr import i, k, naturals, positive
from cdpsym.expr.operators import ClassLoss, Prob
from cdpsym.expr.symbols import sequence
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, by, eq, induction
from theorems.foundations_composition import (C, L_k, composed_loss_start, composed_loss_step, condition,
                                              tower_almost_sure)
from theorems.foundations_convexity import in_range
from theorems.pure_dp_basic_composition import _STEP_BOUND, _inside, _rr, almost_sure_bound_sum

__all__ = ["theorem", "make", "mutants", "eps_step", "pure_dp_per_step", "EPS_SUM", "randomized_response_steps"]

eps_step = sequence("eps_dp_step", r"\varepsilon")  # ε_i: the pure-DP parameter of step i
EPS_SUM = sp.Sum(eps_step(i), (i, 1, k))

pure_dp_per_step = Hypothesis(
    name="pure_dp_per_step",
    title="every pair the adversary may choose at step i has |L| <= ε_i almost surely (R-A5)",
    relation=eq(Prob(in_range(-eps_step(i), ClassLoss(i), eps_step(i))), 1),
    variables={i: naturals()},
)


def randomized_response_steps(eps_list, bound):
    """Step i is RR_{ε_i}: Pr_P[|L_k| <= bound], enumerating which steps answer truthfully."""
    total = mpmath.mpf(0)
    steps = [_rr(e) for e in eps_list]
    for pattern in itertools.product((True, False), repeat=len(steps)):
        prob, loss = mpmath.mpf(1), mpmath.mpf(0)
        for truthful, ((p_yes, p_no), (q_yes, q_no)) in zip(pattern, steps):
            prob *= p_yes if truthful else p_no
            loss += mpmath.log(p_yes / q_yes) if truthful else mpmath.log(p_no / q_no)
        if _inside(loss, bound):
            total += prob
    return total


def _ground_truth(total: sp.Expr):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        bound = evaluate(total, v, MPContext(dps))
        eps_list = [v[eps_step(sp.Integer(j))] for j in range(1, int(v[k]) + 1)]
        return [("randomized response RR_{eps_i} at step i, enumeration of the answers",
                 randomized_response_steps(eps_list, bound))]
    return truth


def _at_step(n, bound):
    """|C_n| <= bound a.s.: the class of step n read at step n (the class-member rule), then the tower rule."""
    return by(tower_almost_sure, Y_1=C(n), i=n, c=eps_step(n), s=bound,
              given={condition(tower_almost_sure): by(pure_dp_per_step, i=n, at_step=n, flip=True)})


def make(total: sp.Expr = EPS_SUM) -> Theorem:
    """Basic composition with the claimed total ``total`` (tests build mutants with a wrong one)."""
    at = lambda n: total.xreplace({k: n})  # noqa: E731
    bounded = lambda n: Prob(in_range(-at(n), L_k(n), at(n)))  # noqa: E731
    base = (
        Chain(bounded(1))
        .eq(Prob(in_range(-at(1), L_k(0) + C(1), at(1))), by(composed_loss_step, i=1))
        .eq(Prob(in_range(-at(1), C(1), at(1))), by(composed_loss_start))
        .eq(1, _at_step(1, at(1)))
    )
    step_k1 = Chain(Prob(in_range(-eps_step(k + 1), C(k + 1), eps_step(k + 1)))).eq(1, _at_step(k + 1, eps_step(k + 1)))
    step = (
        Chain(bounded(k + 1))
        .eq(Prob(in_range(-at(k + 1), L_k(k) + C(k + 1), at(k + 1))), by(composed_loss_step, i=k + 1))
        .eq(1, by(almost_sure_bound_sum, Y_1=L_k(k), Y_2=C(k + 1), a=total, b=eps_step(k + 1), s=at(k + 1),
                  given={_STEP_BOUND: step_k1}))
    )  # the first condition, |L_k| <= total a.s., is the induction hypothesis (in scope, matched by content)
    proof = Chain(bounded(k)).eq(1, induction(k, base, step))
    return Theorem(
        name="pure_dp_basic_composition_heterogeneous",
        reference="R-F1",
        source="Dwork & Roth 2014, Thm 3.16; Dwork, Rothblum & Vadhan 2010",
        title="basic composition of pure DP with a parameter per step",
        variables={k: naturals(sample_lo=1, sample_hi=8)},
        sequences={eps_step: positive(sample_lo=1e-3, sample_hi=3, log_scale=True)},
        hypotheses=(pure_dp_per_step,),
        parts=(Part("main", eq(bounded(k), 1), proof=proof, ground_truth=_ground_truth(total)),),
        numeric_points=({"k": "1", "eps_dp_step": "1"}, {"k": "3", "eps_dp_step": "0.5 2 0.01"},
                        {"k": "6", "eps_dp_step": "0.1 0.2 0.3 1.5 0.05 0.7"}),
        property_examples=10,
        tight="randomized response RR_{ε_i} at step i reaches |L_k| = Σε_i with positive probability.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Σ_{i<k} ε_i: the last step dropped", make(sp.Sum(eps_step(i), (i, 1, k - 1)))),
        ("Σε_i/2: halved", make(EPS_SUM / 2)),
        ("kε_1: every step priced as the first", make(k * eps_step(1))),
    ]
