r"""Probability preservation for RDP: under (α, ε)-RDP, P(A) <= (e^ε Q(A))^{(α−1)/α} for every event A.

.. math::
    P(A)\ \le\ \big(e^{\varepsilon}\,q\big)^{(\alpha-1)/\alpha}
    \qquad\text{whenever } D_\alpha(P\|Q)\le\varepsilon \text{ and } Q(A)\le q,\quad \alpha=1+\beta>1 .

Parameterization.

* The pair (P, Q) with privacy loss L.  (α, ε)-RDP is the hypothesis ``rdp``,
  :math:`\mathbb E_P[e^{\beta L}]\le e^{\beta\varepsilon}` with :math:`\beta=\alpha-1` -- the MGF form of
  :math:`D_\alpha(P\|Q)\le\varepsilon` used by ``approx_dp_of_rdp`` (there written with α − 1).  The theorem is
  stated in β > 0 because the kernel types E[f^c] by sympy's assumptions, which see that (1 + β)/β > 0 but not
  that α/(α − 1) > 0 (with α, the conjugate exponent would leave the expectation possibly −∞).
* The event is :math:`A=\{W>0\}` for an arbitrary random variable W (every event is :math:`\{\mathbf 1_A>0\}`).
  Its Q-mass enters as :math:`\mathbb E_P[e^{-L}\mathbf 1_A]=Q(A\cap\operatorname{supp}P)`, which is
  :math:`Q(A)` under Mironov's hypothesis of identical supports (and at most Q(A) in general), bounded by the
  variable q ∈ (0, 1] (hypothesis ``event_mass``).

So the statement is M17 Prop 10 in its RDP form (M17 §III: :math:`\Pr[f(D)\in S]\le(e^\varepsilon
\Pr[f(D')\in S])^{(\alpha-1)/\alpha}`), and with ε = D_α(P‖Q), q = Q(A) > 0 Prop 10 itself (for Q(A) = 0,
identical supports give P(A) = 0).

Proof (M17 Prop 10 is **Hölder's inequality** with exponents α and α/(α−1) applied to
:math:`\mathbf 1_A=e^{\beta L/\alpha}\cdot\mathbf 1_Ae^{-\beta L/\alpha}`; here Hölder is obtained in its
unnormalised form, because the kernel cannot raise a possibly infinite expectation to a fractional power):
**Young's inequality** in expectation (axiom ``young_expectation``) at :math:`X=te^{\beta L/\alpha}`,
:math:`Y=t^{-1}\mathbf 1_Ae^{-\beta L/\alpha}`, p = α, for a free t > 0, gives
:math:`P(A)\le\frac{t^\alpha}{\alpha}\mathbb E[e^{\beta L}]+\frac{\beta}{\alpha}t^{-\alpha/\beta}
\mathbb E[\mathbf 1_Ae^{-L}]` (indicators: ``probability_is_expected_indicator``, ``indicator_power``;
linearity: ``expectation_affine``); the two hypotheses (linear contexts with positive slopes); then t is
specialised at the minimiser :math:`t^*=(qe^{-\beta\varepsilon})^{\beta/\alpha^2}`, where the bound is
:math:`(e^\varepsilon q)^{\beta/\alpha}` -- Hölder's inequality is Young's at the optimal scaling.

Tight: not as D_α → 0 (M17 §VIII).  The ground truth evaluates two witnesses at exactly
:math:`D_\alpha=\varepsilon` and :math:`Q(A)=q`: a Gaussian pair with a threshold event (REFERENCE N13) and a
two-point pair (D_α by summation, the mass by bisection).

Axioms added here (textbook, no DP content): ``young_expectation`` (Young's inequality, integrated),
``probability_is_expected_indicator`` (the integral of an indicator) and ``indicator_power`` (1_A^c = 1_A).

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Proposition 10 and §III, arXiv:1702.07476v3.
* Rudin, *Real and Complex Analysis*, 3rd ed., Thm 3.5 (Hölder's inequality; its proof is Young's inequality).
* REFERENCE.md R-D6, N13.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, X, Y, eps, greater_than, positive, q, real, t
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect, Indicator, Prob
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, specialize
from theorems.foundations_convexity import expectation_affine
from cdpsym.expr.symbols import declare_random
from theorems.foundations_composition import Z

__all__ = ["theorem", "make", "mutants", "beta", "rdp", "young_expectation", "probability_is_expected_indicator",
           "indicator_power", "event_mass", "AXIOMS", "EVENT", "BOUND", "T_STAR", "gaussian_witness",
           "two_point_witness"]

_p = sp.Symbol("p_H", positive=True)  # Young's exponent (a number)
_c = sp.Symbol("c_I", positive=True)  # an exponent in indicator_power

# The event is {W > 0} for an arbitrary random variable W of its own: not the library's Z, whose law the
# standard-normal axioms fix (a red-team review derived e^4.5 <= e^3 from "Z^2 <= 1" and those axioms).
W = sp.Symbol("W", real=True)
declare_random(W)
EVENT = sp.StrictGreaterThan(W, 0)  # the event A = {W > 0}

young_expectation = Axiom(
    name="young_expectation",
    title="**Young's inequality** in expectation: E|XY| <= E|X|^p / p + ((p − 1)/p) E|Y|^{p/(p−1)} for p > 1",
    citation="W. H. Young 1912: Young's inequality ab <= a^p/p + b^q/q for a, b >= 0 and 1/p + 1/q = 1. It is the "
             "convexity of exp, e^{s/p + t/q} <= e^s/p + e^t/q, the step in the proof of **Hölder's inequality** in "
             "Rudin, *Real and Complex Analysis*, 3rd ed., Thm 3.5. Here at a = |X|, b = |Y|, then monotonicity and "
             "linearity of expectation; scaling X by t and Y by 1/t and minimising over t gives Hölder",
    relation=le(Expect(sp.Abs(X * Y)),
                Expect(sp.Abs(X) ** _p) / _p + (_p - 1) / _p * Expect(sp.Abs(Y) ** (_p / (_p - 1)))),
    variables={X: real(), Y: real(), _p: greater_than(1)},
)

probability_is_expected_indicator = Axiom(
    name="probability_is_expected_indicator",
    title="the probability of an event is the expectation of its indicator",
    citation="definition of the integral of a simple function: Billingsley, *Probability and Measure*, 3rd ed., "
             "§15 (the integral of 1_A is P(A))",
    relation=eq(Prob(sp.StrictGreaterThan(Z, 0)), Expect(Indicator(sp.StrictGreaterThan(Z, 0)))),
    variables={Z: real()},
)

indicator_power = Axiom(
    name="indicator_power",
    title="a positive power of an indicator is the indicator",
    citation="pointwise identity of indicator functions: an indicator takes the values 0 and 1, and 0^c = 0, "
             "1^c = 1 for c > 0; e.g. Billingsley, "
             "*Probability and Measure*, 3rd ed., §13 (indicators and simple functions)",
    relation=eq(Indicator(sp.StrictGreaterThan(Z, 0)) ** _c, Indicator(sp.StrictGreaterThan(Z, 0))),
    variables={Z: real(), _c: positive()},
)

AXIOMS = [young_expectation, probability_is_expected_indicator, indicator_power]

#: β = α − 1 > 0.  The theorem is stated in β: the kernel types E[f^c] by sympy's assumptions, which see that
#: (1 + β)/β > 0 but not that α/(α − 1) > 0, so with α the Hölder conjugate exponent would leave E[...] possibly
#: −∞ and the power undefined.
beta = sp.Symbol("beta", positive=True)
ALPHA = 1 + beta

rdp = Hypothesis(
    name="rdp",
    title="(α, ε)-RDP with α = 1 + β: E[e^{βL}] <= e^{βε}, i.e. D_α(P‖Q) <= ε (Mironov Def 3/4)",
    relation=le(Expect(sp.exp(beta * L)), sp.exp(beta * eps)),
)

event_mass = Hypothesis(
    name="event_mass",
    title="Q(A) <= q: the Q-mass of A on the support of P, E_P[e^{−L} 1_A], is at most q",
    relation=le(Expect(Indicator(EVENT) * sp.exp(-L)), q),
)

# -- witnesses: pairs with D_α(P‖Q) = ε and an event with Q(A) = q exactly; P(A) computed from the pair ------------

def gaussian_witness(a, e, qq):
    """Q = N(0, 1), P = N(μ, 1) with αμ²/2 = ε (so D_α = ε), A = [t, ∞) with Q(A) = q: P(A) by the normal tail."""
    mu = mpmath.sqrt(2 * e / a)
    thr = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * qq)  # Q(Y >= thr) = erfc(thr/√2)/2 = q
    return mpmath.erfc((thr - mu) / mpmath.sqrt(2)) / 2


def _renyi_two_point(a, pa, qa):
    """D_α of P = (pa, 1 − pa) from Q = (qa, 1 − qa), summed."""
    s = pa ** a * qa ** (1 - a) + ((1 - pa) ** a * (1 - qa) ** (1 - a) if pa < 1 else 0)
    return mpmath.log(s) / (a - 1)


def two_point_witness(a, e, qq):
    """Q = (q, 1 − q), P = (x, 1 − x) with x >= q chosen by bisection so that D_α(P‖Q) = ε (x = 1 if even that is
    below ε), A = the first atom: P(A) = x."""
    if qq >= 1:
        return mpmath.mpf(1)
    lo, hi = mpmath.mpf(qq), mpmath.mpf(1)
    if _renyi_two_point(a, hi, qq) <= e:
        return hi
    for _ in range(mpmath.mp.prec + 10):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if _renyi_two_point(a, mid, qq) <= e else (lo, mid)
    return lo


def _truth(v, dps):
    a, e, qq = 1 + v[beta], v[eps], v[q]
    out = [("two-point pair with D_α = ε, A = an atom with Q(A) = q (bisection on the summed D_α)",
            two_point_witness(a, e, qq))]
    if qq < 1:
        out.append(("Gaussian pair N(μ,1), N(0,1) with αμ²/2 = ε, A = [t, ∞) with Q(A) = q (normal tails)",
                    gaussian_witness(a, e, qq)))
    return out


# -- the theorem -------------------------------------------------------------------------------------------------------

_A = Indicator(EVENT)
_MGF = Expect(sp.exp(beta * L))
_QA = Expect(_A * sp.exp(-L))
# Young's inequality at X = t e^{βL/α}, Y = t^{-1} 1_A e^{-βL/α} (XY = 1_A), p = α; t > 0 is free, then optimised
_X_Y = t * sp.exp(beta * L / ALPHA)
_Y_Y = _A * sp.exp(-beta * L / ALPHA) / t
_W1 = t ** ALPHA / ALPHA  # weight of E[e^{βL}]
_W2 = beta / ALPHA * t ** (-ALPHA / beta)  # weight of E[1_A e^{-L}]
BOUND = (sp.exp(eps) * q) ** (beta / ALPHA)
T_STAR = (q * sp.exp(-beta * eps)) ** (beta / ALPHA ** 2)  # the minimiser of the bound over t

# (e^{-βL/α})^{α/β} = e^{-L}, in the form the kernel's canonical expansion leaves inside E[.] (a pointwise identity)
_EXP_POWER = Part("exp_power", eq(sp.exp(-beta * X / ALPHA - X / ALPHA), sp.exp(-X)), variables={X: real()},
                  title="e^{−βX/α − X/α} = e^{−X}",
                  proof=Chain(sp.exp(-beta * X / ALPHA - X / ALPHA)).eq(sp.exp(-X), algebra()))


def make(bound: sp.Expr = BOUND) -> Theorem:
    """Probability preservation with the claimed ``bound`` (mutants use a smaller one)."""
    objective = _W1 * sp.exp(beta * eps) + _W2 * q
    proof = (Chain(Prob(EVENT), variables={t: positive()})
             .eq(Expect(_A), by(probability_is_expected_indicator, Z=W))
             .le(Expect(sp.Abs(_X_Y) ** ALPHA) / ALPHA + beta / ALPHA * Expect(sp.Abs(_Y_Y) ** (ALPHA / beta)),
                 by(young_expectation, X=_X_Y, Y=_Y_Y, p_H=ALPHA))
             .eq(Expect(t ** ALPHA * sp.exp(beta * L)) / ALPHA
                 + beta / ALPHA * Expect(t ** (-ALPHA / beta) * sp.exp(-beta * L / ALPHA - L / ALPHA) * _A),
                 by(indicator_power, Z=W, c_I=1 + 1 / beta))
             .eq(Expect(t ** ALPHA * sp.exp(beta * L)) / ALPHA
                 + beta / ALPHA * Expect(t ** (-ALPHA / beta) * sp.exp(-L) * _A), by(_EXP_POWER, X=L))
             .eq(_W1 * _MGF + beta / ALPHA * Expect(t ** (-ALPHA / beta) * sp.exp(-L) * _A),
                 by(expectation_affine, a=t ** ALPHA, b=0, X=sp.exp(beta * L)))
             .eq(_W1 * _MGF + _W2 * _QA, by(expectation_affine, a=t ** (-ALPHA / beta), b=0, X=_A * sp.exp(-L)))
             .le(_W1 * sp.exp(beta * eps) + _W2 * _QA, by(rdp, inside=lambda w: _W1 * w + _W2 * _QA))
             .le(objective, by(event_mass, inside=lambda w: _W1 * sp.exp(beta * eps) + _W2 * w))
             .eq(BOUND, specialize(t=T_STAR)))
    if bound != BOUND:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="rdp_probability_preservation",
        reference="R-D6",
        source="Mironov 2017, Prop 10 and §III, arXiv:1702.07476v3",
        title="probability preservation for RDP",
        variables={beta: positive(sample_lo=0.01, sample_hi=30, log_scale=True),
                   eps: positive(sample_lo=1e-3, sample_hi=5, log_scale=True),
                   q: Interval(sp.S.Zero, sp.S.One, True, False, sample_lo=1e-12, sample_hi=1, log_scale=True)},
        hypotheses=(rdp, event_mass),
        parts=(_EXP_POWER, Part("main", le(Prob(EVENT), bound), proof=proof, ground_truth=_truth)),
        numeric_points=({"beta": "1", "eps": "0.5", "q": "1e-10"}, {"beta": "0.5", "eps": "1", "q": "0.01"},
                        {"beta": "9", "eps": "0.1", "q": "0.3"}, {"beta": "0.01", "eps": "0.01", "q": "0.5"},
                        {"beta": "31", "eps": "3", "q": "1"}),
        property_examples=30,
        tight="no: not tight as D_α → 0 (M17 §VIII).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("exponent 1 for (α−1)/α: e^ε q", make(sp.exp(eps) * q)),
        ("e^ε dropped: q^{(α−1)/α}", make(q ** (beta / ALPHA))),
        ("exponent inverted: (e^ε q)^{α/(α−1)}", make((sp.exp(eps) * q) ** (ALPHA / beta))),
    ]
