r"""Randomized response :math:`\mathrm{RR}_\varepsilon` is ε-DP: its privacy loss takes only the values ±ε.

.. math::
    L=\log\frac{P(B)}{Q(B)},\quad P(B)=p^B(1-p)^{1-B},\quad Q(B)=(1-p)^Bp^{1-B},\quad
    p=\frac{e^\varepsilon}{1+e^\varepsilon},\quad B\in\{0,1\}
    \quad\Longrightarrow\quad
    \Pr\big[-\varepsilon\le L\le\varepsilon\big]=1 .

Parameterization: :math:`\mathrm{RR}_\varepsilon` reports the true bit with
probability :math:`p=e^\varepsilon/(1+e^\varepsilon)` and flips it otherwise
(R-G4).  For neighbours :math:`x,x'` with different bits, the output is
described by the random bit ``B`` = 1 when the report equals the bit of
:math:`x` (so :math:`B\sim\mathrm{Bern}(p)` under :math:`P=M(x)` and
:math:`B\sim\mathrm{Bern}(1-p)` under :math:`Q=M(x')`); the privacy loss at the
output is the log-ratio of the two probability mass functions, hypothesis
``randomized_response_pair``, and hypothesis ``binary_output`` says that
``B`` is a bit (:math:`B^2=B` at every outcome).  Neighbours with equal bits
have :math:`P=Q`, :math:`L=0`.  Mironov's :math:`\mathrm{RR}_p` is the same
mechanism with :math:`\varepsilon=\log\frac p{1-p}`.  ε-DP is the statement
form of ``pure_dp`` (R-A5, :mod:`theorems.kl_of_pure_dp`); the other half of
ε-DP is the same theorem for the swapped pair (exchange ``p`` and ``1 − p``).

Proof (Warner 1965; DR14 §3.2): the ratio of the mass functions is
:math:`(p/(1-p))^{2B-1}=e^{\varepsilon(2B-1)}`, so :math:`L^2=\varepsilon^2(4(B^2-B)+1)=\varepsilon^2`
at every outcome (``binary_output``); an event that holds at every outcome has
probability 1 (``sure_bound`` of :mod:`theorems.laplace_pure_dp`).

Tight: :math:`L=\varepsilon` with probability :math:`p>0` and :math:`L=-\varepsilon`
with probability :math:`1-p>0`; R-E6: the profile :math:`\delta(\varepsilon')`
vanishes exactly for :math:`\varepsilon'\ge\varepsilon`.

References
----------
* Warner 1965, *Randomized Response: A Survey Technique for Eliminating Evasive Answer Bias*, JASA 60.
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, §3.2, Claim 3.5 (randomized
  response is (ln 3)-DP at p = 3/4; the same computation for every p = e^ε/(1+e^ε)).
* REFERENCE.md R-G4 (statement), R-E6 (exact profile), R-A5 (ε-DP as an almost-sure loss bound).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, eps, positive
from cdpsym.expr.operators import Prob
from cdpsym.expr.symbols import declare_random
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, sign
from theorems.foundations_convexity import in_range
from theorems.laplace_pure_dp import sure_bound

__all__ = ["theorem", "make", "mutants", "B", "P_TRUTH", "randomized_response_pair", "binary_output", "AXIOMS",
           "loss_probability"]

B = sp.Symbol("B", real=True)  # the output bit: 1 when the report equals the bit of x
declare_random(B)

P_TRUTH = sp.exp(eps) / (1 + sp.exp(eps))  # the probability of reporting the true bit
_P_MASS = P_TRUTH ** B * (1 - P_TRUTH) ** (1 - B)  # Bern(p) at B: the output law under P = M(x)
_Q_MASS = (1 - P_TRUTH) ** B * P_TRUTH ** (1 - B)  # Bern(1 - p) at B: under Q = M(x')
LOSS = sp.log(_P_MASS / _Q_MASS)

randomized_response_pair = Hypothesis(
    name="randomized_response_pair",
    title="(P, Q) = (Bern(p), Bern(1 − p)), p = e^ε/(1 + e^ε): the loss at the output bit B is log P(B)/Q(B)",
    relation=eq(L, LOSS),
)

binary_output = Hypothesis(
    name="binary_output",
    title="the output B is a bit: B² = B at every outcome",
    relation=eq(B ** 2, B),
)

AXIOMS = [sure_bound]  # the same object as in theorems.laplace_pure_dp (registering it again is a no-op)


# -- ground truth: enumeration of the two outputs -------------------------------------------------------------

def _inside(loss, bound):
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)) * max(1, abs(bound))
    return -bound - tol <= loss <= bound + tol


def loss_probability(pp, qq, bound):
    """``Pr_P[-bound <= log P(y)/Q(y) <= bound]`` for two mass functions given as dicts on the same outputs."""
    return mpmath.fsum(pp[o] for o in pp if _inside(mpmath.log(pp[o] / qq[o]), bound))


def _ground_truth(bound_expr: sp.Expr):
    """Pr_P[|L| <= bound] by enumerating the outputs of RR_eps (``cdpsym.mechanisms``), and of a direct coin."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import RandomizedResponse

        bound = evaluate(bound_expr, v, MPContext(dps))
        e = v[eps]
        pp, qq = RandomizedResponse(eps=sp.Float(str(e), dps + 10)).distributions(dps=dps + 10)
        keep = mpmath.mpf(1) / (1 + mpmath.exp(-e))  # a coin that keeps the bit w.p. e^eps/(1 + e^eps)
        bits = (0, 1)
        p_out = {o: keep if o == 1 else 1 - keep for o in bits}  # x has bit 1
        q_out = {o: keep if o == 0 else 1 - keep for o in bits}  # x' has bit 0
        return [("RandomizedResponse(eps).distributions(), enumeration of the two outputs",
                 loss_probability(pp, qq, bound)),
                ("a coin keeping the bit w.p. e^eps/(1+e^eps), neighbours with bits 1 and 0, enumeration",
                 loss_probability(p_out, q_out, bound))]

    return truth


# -- the theorem -------------------------------------------------------------------------------------------

def make(bound: sp.Expr = eps) -> Theorem:
    """Randomized response with the claimed pure-DP parameter ``bound`` (tests build mutants)."""
    condition = (
        Chain(LOSS ** 2)
        .eq(eps ** 2 * (2 * B - 1) ** 2, algebra("P(B)/Q(B) = (p/(1 - p))**(2B - 1) = exp(eps (2B - 1))"))
        .eq(eps ** 2 * (4 * (B ** 2 - B) + 1), algebra())
        .eq(eps ** 2, by(binary_output))
        .le(bound ** 2, sign("the claimed bound squared is at least ε²"))
    )
    event = lambda e: Prob(in_range(-bound, e, bound))  # noqa: E731
    proof = (
        Chain(event(L))
        .eq(event(LOSS), by(randomized_response_pair))
        .eq(1, by(sure_bound, X=LOSS, c=bound, given={f"condition {sure_bound.conditions[0].plain()}": condition}))
    )
    return Theorem(
        name="randomized_response_pure_dp",
        reference="R-G4",
        source="Warner 1965; Dwork & Roth 2014, §3.2, Claim 3.5",
        title="randomized response",
        notion="RandomizedResponse(eps) is DP(eps)",
        variables={eps: positive(sample_lo=1e-3, sample_hi=20, log_scale=True)},
        hypotheses=(randomized_response_pair, binary_output),
        parts=(Part("main", eq(event(L), 1), proof=proof, ground_truth=_ground_truth(bound)),),
        numeric_points=({"eps": "1"}, {"eps": "0.1"}, {"eps": "1.0986122886681098"}, {"eps": "7.5"},
                        {"eps": "0.001"}),
        property_examples=30,
        tight="L = ε with probability e^ε/(1+e^ε) > 0 and L = −ε with probability 1/(1+e^ε) > 0.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε/2: halved", make(eps / 2)),
        ("0.99ε: shrunk by 1%", make(sp.Rational(99, 100) * eps)),
        ("log(1 + ε): e^ε replaced by 1 + ε", make(sp.log(1 + eps))),
        ("ε²/(1 + ε): a factor ε/(1 + ε) < 1", make(eps ** 2 / (1 + eps))),
    ]
