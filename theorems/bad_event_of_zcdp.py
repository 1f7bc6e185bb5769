r"""The bad-event bound of ρ-zCDP, at a fixed order and optimised over the order.

.. math::
    \Pr[M(x)\in S]\ \le\ e^{(\alpha-1)\rho}\,q^{1-1/\alpha}\quad(\alpha>1),
    \qquad
    \Pr[M(x)\in S]\ \le\ \exp\!\Big(-\big(\sqrt{\log(1/q)}-\sqrt\rho\big)^2\Big)\quad(\log(1/q)>\rho),

for a ρ-zCDP mechanism, neighbours x ≃ x', any event S with :math:`\Pr[M(x')\in S]\le q`.

Parameterization: as in ``rdp_probability_preservation`` (R-D6), whose
hypothesis ``event_mass`` this theorem shares: the event is :math:`A=\{W>0\}`
for an arbitrary random variable W, and its Q-mass :math:`\mathbb E_P[e^{-L}\mathbf 1_A]`
(= Q(A) under identical supports, at most Q(A) in general) is at most q ∈ (0, 1].
The order is written α = 1 + β, β > 0 (R-D6 explains why the kernel prefers β);
so the first bound reads :math:`e^{\beta\rho}q^{\beta/(1+\beta)}`.  ρ-zCDP is the
MGF form of R-A9 (hypothesis ``zcdp`` of ``approx_dp_of_zcdp``:
:math:`\mathbb E_P[e^{\lambda L}]\le e^{\lambda(\lambda+1)\rho}` for every λ > 0).
The optimum is stated for :math:`q<e^{-\rho}`, i.e. :math:`\log(1/q)>\rho` strictly
(REFERENCE allows equality, where the bound is :math:`e^0=1` and trivial, and
the minimiser α* = 1 is outside α > 1).

Proof.  Lemma ``bad_event_of_zcdp_at_order`` (the slide's statement, seed 000
"Proposition [M17]"): ρ-zCDP at λ = β is :math:`(1+\beta,(1+\beta)\rho)`-RDP, and
**probability preservation** (``rdp_probability_preservation``, M17 Prop 10)
gives :math:`(e^{(1+\beta)\rho}q)^{\beta/(1+\beta)}=e^{\beta\rho}q^{\beta/(1+\beta)}`.
Theorem: the lemma holds for every β > 0; writing it as
:math:`\exp(g(\beta))`, :math:`g(\beta)=\beta\rho-\frac{\beta}{1+\beta}\log\frac1q`, the
minimiser is :math:`\beta^*=\sqrt{\log(1/q)/\rho}-1=\frac{\log(1/q)-\rho}{\rho+\sqrt{\rho\log(1/q)}}`
(:math:`g'(\beta^*)=\rho-\log(1/q)/(1+\beta^*)^2=0`,
:math:`g''=2\log(1/q)/(1+\beta)^3>0`; the kernel checks both), where
:math:`g(\beta^*)=-(\sqrt{\log(1/q)}-\sqrt\rho)^2`.  No new axiom.

Not tight (R-D6 is not).  REFERENCE ✓N14/✓N15: q = 1e−10, ρ = ½: α = 2 gives
:math:`1.65\times10^{-5}`, α = 10 gives :math:`9.0\times10^{-8}`, the optimum
(α* = 6.786) :math:`5.37\times10^{-8}`; the Gaussian mechanism's exact value for
the worst threshold event is :math:`4.13\times10^{-8}`.  Ground truth: the
Gaussian mechanism with ρ = Δ²/(2σ²) (the extremal ρ-zCDP pair) and the
threshold event with Q-mass exactly q, by the normal tail.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Prop. 10 and §III, arXiv:1702.07476v3.
* Bun & Steinke 2016, Def. 1.1 (zCDP), arXiv:1605.02065; seed 000 slide "Smooth control of bad events".
* REFERENCE.md R-D7, R-D6, N14, N15.
"""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import L, q, rho
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect, Prob
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq, le, sign
from cdpsym.proof.kernel import Specialize
from theorems.approx_dp_of_zcdp import zcdp

_pp = importlib.import_module("theorems.rdp_probability_preservation")
EVENT, beta, event_mass = _pp.EVENT, _pp.beta, _pp.event_mass

__all__ = ["theorem", "make", "make_at_order", "at_order", "AT_ORDER", "OPTIMUM", "BETA_STAR", "mutants", "q_in_unit"]

AT_ORDER = sp.exp(beta * rho) * q ** (beta / (1 + beta))
ELL = sp.log(1 / q)
# √(log(1/q)/ρ) − 1, rationalised so that its sign is that of log(1/q) − ρ (which the kernel decides)
BETA_STAR = (ELL - rho) / (rho + sp.sqrt(rho) * sp.sqrt(ELL))
OPTIMUM = sp.exp(-(sp.sqrt(ELL) - sp.sqrt(rho)) ** 2)


def _gaussian_event(a, r, qq):  # the order a is not used: the pair is ρ-zCDP at every order
    """P(A) for the Gaussian pair with ρ = τ²/2 (P = N(τ, 1), Q = N(0, 1): D_α = αρ for every α, exactly ρ-zCDP)
    and the threshold event A = [t, ∞) with Q(A) = q, by the normal tails."""
    extra = 20 + max(0, int(-mpmath.log10(qq)))  # 1 − 2q must keep its digits for tiny q
    with mpmath.workdps(mpmath.mp.dps + extra):
        tau = mpmath.sqrt(2 * r)
        thr = mpmath.sqrt(2) * mpmath.erfinv(1 - 2 * mpmath.mpf(qq))  # erfc(thr/√2)/2 = q
        value = mpmath.erfc((thr - tau) / mpmath.sqrt(2)) / 2
    return +value


def _truth_at_order(v, dps):
    return [("Gaussian pair with rho = tau^2/2, threshold event with Q(A) = q (normal tails)",
             _gaussian_event(1 + v[beta], v[rho], v[q]))]


def _truth_optimum(v, dps):
    return [("Gaussian pair with rho = tau^2/2, threshold event with Q(A) = q (normal tails)",
             _gaussian_event(None, v[rho], v[q]))]


def make_at_order(bound: sp.Expr = AT_ORDER) -> Theorem:
    """The bound at the order α = 1 + β as claimed by ``bound`` (mutants use a smaller one)."""
    rdp_at_order = (
        Chain(Expect(sp.exp(beta * L)))
        .le(sp.exp(beta * (beta + 1) * rho), by(zcdp, lam=beta))
        .eq(sp.exp(beta * ((1 + beta) * rho)), algebra())
    )
    proof = (
        Chain(Prob(EVENT))
        .le((sp.exp((1 + beta) * rho) * q) ** (beta / (1 + beta)),
            by(_pp.theorem.part("main"), eps=(1 + beta) * rho, given={"rdp": rdp_at_order}))
        .eq(AT_ORDER, algebra("(e^{αρ} q)^{(α−1)/α} = e^{(α−1)ρ} q^{1−1/α}"))
    )
    if bound != AT_ORDER:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="bad_event_of_zcdp_at_order",
        reference="R-D7",
        source="Mironov 2017, Prop. 10 and §III, arXiv:1702.07476v3; seed 000 (Proposition [M17])",
        title="bad-event bound of zCDP at a fixed order",
        variables={beta: _pp.theorem.variables[beta],
                   rho: Interval(sp.S.Zero, sp.oo, True, True, sample_lo=1e-3, sample_hi=5, log_scale=True),
                   q: _pp.theorem.variables[q]},
        hypotheses=(zcdp, event_mass),
        parts=(Part("main", le(Prob(EVENT), bound), proof=proof, ground_truth=_truth_at_order),),
        numeric_points=({"beta": "1", "rho": "0.1", "q": "1e-10"}, {"beta": "9", "rho": "0.1", "q": "1e-10"},
                        {"beta": "1", "rho": "0.5", "q": "1e-10"}, {"beta": "0.3", "rho": "2", "q": "0.5"},
                        {"beta": "20", "rho": "0.01", "q": "1"}),
        property_examples=20,
        tight="no: probability preservation is not tight (M17 §VIII).",
    )


at_order = make_at_order()


def q_in_unit() -> list:
    """Proofs that q < e^{−ρ} lies in the lemma's domain (0, 1] (1 − e^{−ρ} = 2e^{−ρ/2} sinh(ρ/2), whose sign
    the kernel decides)."""
    return [Chain(0).lt(q, sign("q > 0")),
            Chain(q).lt(sp.exp(-rho), sign("q < e^{-rho}"))
            .le(sp.exp(-rho) + 2 * sp.exp(-rho / 2) * sp.sinh(rho / 2), sign("sinh(rho/2) >= 0"))
            .eq(1, algebra())]


def make(bound: sp.Expr = OPTIMUM) -> Theorem:
    """The optimised bound as claimed by ``bound`` (mutants use a smaller one)."""
    g = beta * rho - beta / (1 + beta) * ELL  # the exponent, as a function of the order
    at_minimum = 2 * sp.sqrt(rho) * sp.sqrt(ELL) - rho - ELL
    exponent = Part("exponent", eq(g.subs(beta, BETA_STAR), at_minimum),
                    title="the exponent at the minimiser: 1 + β* = √(log(1/q)/ρ)",
                    proof=Chain(g.subs(beta, BETA_STAR)).eq(at_minimum, algebra()))
    proof = (
        Chain(Prob(EVENT), variables={beta: _pp.theorem.variables[beta]})
        .le(AT_ORDER, by(at_order, given={"q": q_in_unit()}))
        .eq(sp.exp(g), algebra("q^x = e^{−x log(1/q)}"))
        # the record of specialize(); specialize() looks its variable up among the canonical symbols, and β is not one
        .eq(sp.exp(g.subs(beta, BETA_STAR)), Specialize(beta, BETA_STAR, g))
        .eq(sp.exp(at_minimum), by(exponent, inside=sp.exp))
        .eq(OPTIMUM, algebra())
    )
    if bound != OPTIMUM:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="bad_event_of_zcdp",
        reference="R-D7",
        source="Mironov 2017, Prop. 10 and §III, arXiv:1702.07476v3; REFERENCE R-D7 (optimum, derived)",
        title="bad-event bound of zCDP, optimised over the order",
        variables={rho: Interval(sp.S.Zero, sp.oo, True, True, sample_lo=1e-3, sample_hi=5, log_scale=True),
                   q: Interval(sp.S.Zero, sp.exp(-rho), True, True, sample_lo=1e-30, sample_hi=0.9, log_scale=True)},
        hypotheses=(zcdp, event_mass),
        parts=(exponent, Part("main", le(Prob(EVENT), bound), proof=proof, ground_truth=_truth_optimum)),
        numeric_points=({"rho": "0.5", "q": "1e-10"}, {"rho": "0.1", "q": "1e-3"}, {"rho": "0.1", "q": "1e-10"},
                        {"rho": "2", "q": "1e-300"}, {"rho": "0.01", "q": "0.9"}),
        property_examples=20,
        tight="no: the Gaussian mechanism's exact value is below it (4.13e-8 vs 5.37e-8 at q = 1e-10, rho = 1/2).",
    )


theorem = make()
LEMMAS = [at_order]


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("optimum: the square root of the exponent dropped (exp(-(sqrt(l) - sqrt(rho))**2) -> q*e^rho)",
             make(q * sp.exp(rho))),
            ("optimum: sqrt(rho) dropped", make(sp.exp(-ELL))),
            ("at order: q**(1 - 1/alpha) -> q", make_at_order(sp.exp(beta * rho) * q)),
            ("at order: e^{(alpha - 1) rho} dropped", make_at_order(q ** (beta / (1 + beta))))]
