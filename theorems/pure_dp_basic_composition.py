r"""k-fold adaptive composition of ε-DP mechanisms is kε-DP (basic composition).

.. math::
    \Pr\big[-k\varepsilon \le L_k \le k\varepsilon\big] = 1
    \quad\text{whenever every step satisfies}\quad
    \Pr\big[-\varepsilon \le L \le \varepsilon\big] = 1,

with :math:`L_k=C_1+\dots+C_k` the privacy loss of the adaptive composition
(:math:`C_i` the loss of step :math:`i` given the prefix).

Parameterization: ε-DP of a pair is ``pure_dp`` of ``kl_of_pure_dp``,
:math:`|L|\le\varepsilon` almost surely (R-A5), on the canonical pair ``(P, Q)``,
which stands for **every** pair the adversary may choose at any step of the
DRV10 game (adaptively); the composed pair is :math:`(P^{(k)},Q^{(k)})` with
privacy loss :math:`L_k` (:mod:`theorems.foundations_composition`).  The
conclusion is the same statement for the composed pair at :math:`k\varepsilon`.
It is the half of ε-DP that bounds :math:`P^{(k)}` by :math:`Q^{(k)}`; the other
half (the bound on :math:`-L_k` under :math:`Q^{(k)}`) is this theorem for the
swapped game, since the class of neighbouring pairs is closed under swapping.
Homogeneous (every step ε); heterogeneous steps give :math:`\sum_i\varepsilon_i`
with the same proof.  In the hockey-stick form (R-A6) this is
:math:`\delta_{P^{(k)}\|Q^{(k)}}(k\varepsilon)=0`.

Proof (DR14 Thm 3.14, in the privacy-loss form of DRV10): **induction on k**.
The composed loss is the sum of the step losses, :math:`L_{k+1}=L_k+C_{k+1}`;
the step's pair is in the class, so :math:`|C_{k+1}|\le\varepsilon` with conditional
probability 1 given every prefix (the kernel's class-member rule,
``by(pure_dp, at_step=k + 1)``), hence almost surely by the tower rule
(``tower_almost_sure``); and almost-sure bounds add (``almost_sure_bound_sum``:
the intersection of two almost-sure events is almost sure, and on it
:math:`|A+B|\le|A|+|B|`).

Tight: k-fold randomized response, :math:`L_k=\varepsilon(2J-k)` with
:math:`J\sim\mathrm{Bin}(k,e^\varepsilon/(1+e^\varepsilon))`, reaches
:math:`k\varepsilon` with probability :math:`(e^\varepsilon/(1+e^\varepsilon))^k>0`
(R-F1); that probability is what advanced composition (R-B1) trades for δ.

Axiom added here: ``almost_sure_bound_sum`` (a textbook fact about events of
probability 1).

References
----------
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 3.14 (and Thm 3.16).
* Dwork, McSherry, Nissim & Smith 2006, *Calibrating Noise to Sensitivity in Private Data Analysis*, TCC.
* Dwork, Rothblum & Vadhan 2010, §III (the adaptive composition game; the composed loss is the sum).
* REFERENCE.md R-F1.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, a, b, eps, i, k, naturals, positive, real, s
from cdpsym.expr.operators import P, Prob, Q
from cdpsym.proof import Axiom, Chain, Part, Theorem, by, eq, induction, le
from theorems.foundations_composition import (C, L_k, Y1, Y2, composed_loss_start, composed_loss_step, condition,
                                              tower_almost_sure)
from theorems.foundations_convexity import in_range
from theorems.kl_of_pure_dp import pure_dp

__all__ = ["theorem", "make", "mutants", "EPS_TOTAL", "almost_sure_bound_sum", "AXIOMS",
           "randomized_response_witness", "adaptive_witness"]

EPS_TOTAL = k * eps

# -- axioms: one (the trusted base this theorem adds; theorems/__init__ registers a module's AXIOMS) ---------
#
# It states its bound with slack (any s at least the sum of the bounds), so that the deterministic side
# condition -- not a comparison of two opaque events -- carries the arithmetic: a wrong total is then refuted
# by the kernel's sign check instead of being left undecided.

almost_sure_bound_sum = Axiom(
    name="almost_sure_bound_sum",
    title="almost-sure bounds add: |Y_1| ≤ a a.s. and |Y_2| ≤ b a.s. give |Y_1 + Y_2| ≤ s a.s. for every s ≥ a + b",
    citation=("the intersection of two events of probability 1 has probability 1 (Boole's inequality on the "
              "complements; e.g. Feller, Vol. I, §IV.1), and on it |Y_1 + Y_2| <= |Y_1| + |Y_2| <= a + b <= s"),
    relation=eq(Prob(in_range(-s, Y1 + Y2, s)), 1),
    variables={Y1: real(), Y2: real(), a: real(), b: real(), s: real()},  # a < 0: |Y_1| <= a is empty, vacuous
    conditions=(eq(Prob(in_range(-a, Y1, a)), 1), eq(Prob(in_range(-b, Y2, b)), 1), le(a + b, s)),
)

AXIOMS = [almost_sure_bound_sum]


def _at_step(n, bound):
    """|C_n| <= bound a.s.: the hypothesis at the pair of step n (the class-member rule), then the tower rule."""
    return by(tower_almost_sure, Y_1=C(n), i=n, c=eps, s=bound,
              given={condition(tower_almost_sure): by(pure_dp, at_step=n, flip=True)})


# -- ground truths -----------------------------------------------------------------------------------------
#
# The left side, Pr[|L_k| <= bound] under P, for compositions of ε-DP steps: outputs are enumerated by the
# number of steps that answer truthfully (every output with j truthful answers has the same loss), each step's
# loss is computed from its two distributions, log P(y)/Q(y), and the event is decided at the working
# precision up to a relative 10^-(dps-10) (the extreme loss kε is attained exactly, up to rounding).

def _rr(e):
    """Randomized response on one bit: P = (p, 1 − p), Q = (1 − p, p), p = e^ε/(1 + e^ε)."""
    p = mpmath.exp(e) / (1 + mpmath.exp(e))
    return (p, 1 - p), (1 - p, p)


def _inside(loss, bound):
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)) * max(1, abs(bound))
    return -bound - tol <= loss <= bound + tol


def randomized_response_witness(e, kk, bound):
    """k-fold randomized response RR_ε: Pr_P[|L_k| <= bound], enumerating the number j of truthful answers."""
    (p_yes, p_no), (q_yes, q_no) = _rr(e)
    up, down = mpmath.log(p_yes / q_yes), mpmath.log(p_no / q_no)  # the loss of a truthful / a flipped answer
    return mpmath.fsum(mpmath.binomial(kk, j) * p_yes ** j * p_no ** (kk - j)
                       for j in range(kk + 1) if _inside(j * up + (kk - j) * down, bound))


def adaptive_witness(e, kk, bound):
    """Adaptive: step 1 is RR_ε; steps 2..k are RR_ε if the first answer was truthful, and otherwise RR_{ε/2}.

    Every step is ε-DP.  Pr_P[|L_k| <= bound] by enumeration over the first answer and the number of
    truthful answers among the remaining k − 1.
    """
    total = mpmath.mpf(0)
    (p1_yes, p1_no), (q1_yes, q1_no) = _rr(e)
    for first_prob, first_loss, rest in ((p1_yes, mpmath.log(p1_yes / q1_yes), e),
                                         (p1_no, mpmath.log(p1_no / q1_no), e / 2)):
        (p_yes, p_no), (q_yes, q_no) = _rr(rest)
        up, down = mpmath.log(p_yes / q_yes), mpmath.log(p_no / q_no)
        total += first_prob * mpmath.fsum(
            mpmath.binomial(kk - 1, j) * p_yes ** j * p_no ** (kk - 1 - j)
            for j in range(kk) if _inside(first_loss + j * up + (kk - 1 - j) * down, bound))
    return total


def _ground_truth(total: sp.Expr):
    """Pr[|L_k| <= total] for two compositions of ε-DP steps, at the total the statement claims."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        bound = evaluate(total, v, MPContext(dps))
        e, kk = v[eps], int(v[k])
        return [("k-fold randomized response RR_eps, enumeration", randomized_response_witness(e, kk, bound)),
                ("adaptive: RR_eps, then RR_eps or RR_eps/2 by the first answer, enumeration",
                 adaptive_witness(e, kk, bound))]

    return truth


# -- the theorem -------------------------------------------------------------------------------------------

_STEP_BOUND = f"condition {almost_sure_bound_sum.conditions[1].plain()}"


def make(total: sp.Expr = EPS_TOTAL) -> Theorem:
    """Basic composition with the claimed total ``total`` (tests build mutants with a wrong one)."""
    at = lambda n: total.xreplace({k: n})
    bounded = lambda n: Prob(in_range(-at(n), L_k(n), at(n)))
    base = (
        Chain(bounded(1))
        .eq(Prob(in_range(-at(1), L_k(0) + C(1), at(1))), by(composed_loss_step, i=1))
        .eq(Prob(in_range(-at(1), C(1), at(1))), by(composed_loss_start))
        .eq(1, _at_step(1, at(1)))
    )
    step_k1 = Chain(Prob(in_range(-eps, C(k + 1), eps))).eq(1, _at_step(k + 1, eps))
    step = (
        Chain(bounded(k + 1))
        .eq(Prob(in_range(-at(k + 1), L_k(k) + C(k + 1), at(k + 1))), by(composed_loss_step, i=k + 1))
        .eq(1, by(almost_sure_bound_sum, Y_1=L_k(k), Y_2=C(k + 1), a=total, b=eps, s=at(k + 1),
                  given={_STEP_BOUND: step_k1}))
    )  # the first condition, |L_k| <= total a.s., is the induction hypothesis (in scope, matched by content)
    proof = Chain(bounded(k)).eq(1, induction(k, base, step))
    return Theorem(
        name="pure_dp_basic_composition",
        reference="R-F1",
        source="Dwork & Roth 2014, Thm 3.14; Dwork, McSherry, Nissim & Smith 2006",
        title="basic composition of pure DP",
        notion="compose(k=k, DP(eps)) is DP(k*eps)",
        variables={k: naturals(sample_lo=1, sample_hi=60),
                   eps: positive(sample_lo=1e-3, sample_hi=5, log_scale=True)},
        hypotheses=(pure_dp,),
        parts=(Part("main", eq(bounded(k), 1), proof=proof, ground_truth=_ground_truth(total)),),
        numeric_points=({"k": "1", "eps": "1"}, {"k": "2", "eps": "0.5"}, {"k": "10", "eps": "0.1"},
                        {"k": "100", "eps": "0.01"}, {"k": "7", "eps": "3"}, {"k": "300", "eps": "0.7"}),
        property_examples=30,
        tight="k-fold randomized response attains |L_k| = kε with probability (e^ε/(1+e^ε))^k > 0.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("(k − 1)ε: one step's ε removed", make((k - 1) * eps)),
        ("√k ε: k replaced by √k", make(sp.sqrt(k) * eps)),
        ("kε/2: halved", make(k * eps / 2)),
        ("(k − 1/2)ε: half a step removed", make((k - sp.Rational(1, 2)) * eps)),
    ]
