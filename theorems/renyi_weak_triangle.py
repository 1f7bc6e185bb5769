r"""The weak triangle inequality for Rényi divergence (Mironov 2017, Prop 11), in bounded form.

.. math::
    D_{p\alpha}(P\|Q)\le a,\ \ D_{q(\alpha-1/p)}(Q\|R)\le b
    \ \Longrightarrow\ D_\alpha(P\|R)\le\frac{\alpha-1/p}{\alpha-1}\,a+b,
    \qquad \alpha>1,\ p=1+s>1,\ \tfrac1p+\tfrac1q=1 .

Parameterization: three distributions P, Q, R; the random variables ``L_PQ`` :math:`=\log\frac pq(Y)` and
``L_QR`` :math:`=\log\frac qr(Y)` at one output :math:`Y\sim Q` (every expectation here is under Q).  Rényi
divergences are written through their definition (R-A4) as expectations under Q:
:math:`e^{(\gamma-1)D_\gamma(P\|Q)}=\mathbb E_Q[e^{\gamma L_{PQ}}]`,
:math:`e^{(\beta-1)D_\beta(Q\|R)}=\mathbb E_Q[e^{(\beta-1)L_{QR}}]` and
:math:`e^{(\alpha-1)D_\alpha(P\|R)}=\int p^\alpha r^{1-\alpha}=\mathbb E_Q[e^{\alpha L_{PQ}+(\alpha-1)L_{QR}}]`;
the losses are real-valued (P ≪ Q ≪ R; otherwise :math:`D_{p\alpha}(P\|Q)` or :math:`D_\beta(Q\|R)` is +∞ and there
is nothing to prove).  So the hypotheses ``renyi_pq`` and ``renyi_qr`` are :math:`D_{p\alpha}(P\|Q)\le a` and
:math:`D_\beta(Q\|R)\le b` with :math:`\beta-1=q(\alpha-1)`, i.e. :math:`\beta=q(\alpha-1/p)`, and the conclusion is
:math:`(\alpha-1)D_\alpha(P\|R)\le(\alpha-1/p)a+(\alpha-1)b`.  With a, b the two divergences (when finite) this is
Prop 11.  The exponent is written p = 1 + s, q = (1 + s)/s, s > 0 (the kernel sees that (1 + s)/s > 0).

Proof: **Young's inequality** in expectation (``young_expectation`` of ``rdp_probability_preservation``) at
:math:`X=te^{\alpha L_{PQ}}`, :math:`Y=t^{-1}e^{(\alpha-1)L_{QR}}`, exponent p, for a free t > 0; linearity; the two
hypotheses; t specialised at the minimiser :math:`t^*=(B/A)^{s/(1+s)^2}`, :math:`A=e^{(p\alpha-1)a}`,
:math:`B=e^{q(\alpha-1)b}`, where the bound is :math:`A^{1/p}B^{1/q}` -- **Hölder's inequality** with exponents
p and q, applied to :math:`p^\alpha r^{1-\alpha}=[p^\alpha q^{-(\alpha-1/p)}][q^{\alpha-1/p}r^{1-\alpha}]`, as in M17.

This is the tool of R-C8 (group privacy for zCDP, p = (kα−1)/((k−1)α)) and R-D8 (RDP group privacy, p = 2);
``zcdp_group_privacy`` uses the same split, written relative to the density of the chain's first element.

Tight: Hölder's equality case -- Gaussian triples with collinear means in a ratio fixed by p (REFERENCE N44, the
R-C8 instance), with a, b their divergences; not at every (a, b).  The ground truth integrates
:math:`\int p^\alpha r^{1-\alpha}` for Gaussian triples N(μ₁+μ₂), N(μ₂), N(0) that satisfy the hypotheses (one
with both hypotheses at equality).

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Proposition 11, arXiv:1702.07476v3.
* Rudin, *Real and Complex Analysis*, 3rd ed., Thm 3.5 (Hölder's inequality).
* REFERENCE.md R-A4 (Prop 11), R-C8, N44.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import a, alpha, b, greater_than, nonnegative, positive, s, t
from cdpsym.expr.operators import Expect
from cdpsym.expr.symbols import declare_random
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le, specialize
from theorems.foundations_convexity import expectation_affine
from theorems.rdp_probability_preservation import young_expectation

__all__ = ["theorem", "make", "mutants", "L_PQ", "L_QR", "renyi_pq", "renyi_qr", "BOUND_EXPONENT", "gaussian_triple"]

L_PQ = sp.Symbol("L_PQ", real=True)  # log p/q at Y ~ Q
L_QR = sp.Symbol("L_QR", real=True)  # log q/r at Y ~ Q
declare_random(L_PQ, L_QR)

P_EXP = 1 + s  # Hölder's p
Q_EXP = (1 + s) / s  # its conjugate q

renyi_pq = Hypothesis(
    name="renyi_pq",
    title="D_{pα}(P‖Q) <= a: E_Q[e^{pα L_PQ}] <= e^{(pα − 1)a} (R-A4)",
    relation=le(Expect(sp.exp(P_EXP * alpha * L_PQ)), sp.exp((P_EXP * alpha - 1) * a)),
)
renyi_qr = Hypothesis(
    name="renyi_qr",
    title="D_β(Q‖R) <= b with β − 1 = q(α − 1): E_Q[e^{q(α−1) L_QR}] <= e^{q(α−1)b} (R-A4)",
    relation=le(Expect(sp.exp(Q_EXP * (alpha - 1) * L_QR)), sp.exp(Q_EXP * (alpha - 1) * b)),
)

BOUND_EXPONENT = (P_EXP * alpha - 1) / P_EXP * a + (alpha - 1) * b  # (α − 1) × ((α − 1/p)/(α − 1) a + b)


# -- ground truth: Gaussian triples --------------------------------------------------------------------------------

def gaussian_triple(al, m1, m2):
    """The triple P = N(μ₁+μ₂, 1), Q = N(μ₂, 1), R = N(0, 1): ∫ p^α r^{1−α} (= e^{(α−1)D_α(P‖R)}) by quadrature of
    the densities (p^α r^{1−α} = exp(α log p + (1 − α) log r)).  The integrand is a unit-variance Gaussian bump
    centred at α(μ₁+μ₂): integrated over ±20 of it (the rest is below e^{-200})."""
    mp_ = m1 + m2
    log_dens = lambda y, m: -(y - m) ** 2 / 2 - mpmath.log(2 * mpmath.pi) / 2
    c = al * mp_
    return mpmath.quad(lambda y: mpmath.exp(al * log_dens(y, mp_) + (1 - al) * log_dens(y, 0)), [c - 20, c, c + 20])


def _truth(v, dps):
    al, ss = v[alpha], v[s]
    pe = 1 + ss
    beta = (1 + ss) / ss * (al - 1) + 1
    out = []
    # collinear means with D_{pα}(P‖Q) = a and D_β(Q‖R) = b exactly, by the Gaussian Rényi divergence
    # D_γ(N(μ), N(0)) = γμ²/2 (gaussian_renyi); the left side itself is integrated
    m1, m2 = mpmath.sqrt(2 * v[a] / (pe * al)), mpmath.sqrt(2 * v[b] / beta)
    out.append(("Gaussian triple at the hypotheses' bounds, ∫p^α r^(1−α) by quadrature", gaussian_triple(al, m1, m2)))
    m1, m2 = mpmath.mpf("1"), mpmath.mpf("-0.5")  # a non-collinear triple, where it satisfies the hypotheses
    if pe * al * m1 ** 2 / 2 <= v[a] and beta * m2 ** 2 / 2 <= v[b]:
        out.append(("Gaussian triple N(0.5), N(−0.5), N(0), ∫p^α r^(1−α) by quadrature", gaussian_triple(al, m1, m2)))
    return out


# -- the theorem ---------------------------------------------------------------------------------------------------

_X = t * sp.exp(alpha * L_PQ)
_Y = sp.exp((alpha - 1) * L_QR) / t
_A = sp.exp((P_EXP * alpha - 1) * a)
_B = sp.exp(Q_EXP * (alpha - 1) * b)
T_STAR = sp.exp(s / (1 + s) ** 2 * (Q_EXP * (alpha - 1) * b - (P_EXP * alpha - 1) * a))  # (B/A)^{s/(1+s)²}


def make(exponent: sp.Expr = BOUND_EXPONENT) -> Theorem:
    """The weak triangle inequality with the claimed exponent (mutants use a smaller one)."""
    start = Expect(sp.exp(alpha * L_PQ + (alpha - 1) * L_QR))
    w1, w2 = t ** P_EXP / P_EXP, s / P_EXP * t ** (-Q_EXP)
    objective = w1 * _A + w2 * _B
    proof = (Chain(start, variables={t: positive()})
             .le(Expect(sp.Abs(_X) ** P_EXP) / P_EXP + s / P_EXP * Expect(sp.Abs(_Y) ** Q_EXP),
                 by(young_expectation, X=_X, Y=_Y, p_H=P_EXP))
             .eq(w1 * Expect(sp.exp(P_EXP * alpha * L_PQ)) + s / P_EXP * Expect(sp.Abs(_Y) ** Q_EXP),
                 by(expectation_affine, a=t ** P_EXP, b=0, X=sp.exp(P_EXP * alpha * L_PQ)))
             .eq(w1 * Expect(sp.exp(P_EXP * alpha * L_PQ)) + w2 * Expect(sp.exp(Q_EXP * (alpha - 1) * L_QR)),
                 by(expectation_affine, a=t ** (-Q_EXP), b=0, X=sp.exp(Q_EXP * (alpha - 1) * L_QR)))
             .le(w1 * _A + w2 * Expect(sp.exp(Q_EXP * (alpha - 1) * L_QR)),
                 by(renyi_pq, inside=lambda w: w1 * w + w2 * Expect(sp.exp(Q_EXP * (alpha - 1) * L_QR))))
             .le(objective, by(renyi_qr, inside=lambda w: w1 * _A + w2 * w))
             .eq(objective.subs(t, T_STAR), specialize(t=T_STAR))
             .eq(sp.powsimp(objective.subs(t, T_STAR)), algebra("collect the exponentials"))
             .eq((1 / P_EXP + s / P_EXP) * sp.exp(BOUND_EXPONENT), algebra("both terms are A^{1/p} B^{1/q}"))
             .eq(sp.exp(BOUND_EXPONENT), algebra("1/p + 1/q = 1")))
    if exponent != BOUND_EXPONENT:
        proof = proof.eq(sp.exp(exponent), algebra())
    return Theorem(
        name="renyi_weak_triangle",
        reference="R-A4",
        source="Mironov 2017, Prop 11, arXiv:1702.07476v3",
        title="weak triangle inequality",
        variables={alpha: greater_than(1, sample_lo=1.05, sample_hi=20),
                   s: positive(sample_lo=0.05, sample_hi=20, log_scale=True),
                   a: nonnegative(sample_lo=0, sample_hi=10), b: nonnegative(sample_lo=0, sample_hi=10)},
        hypotheses=(renyi_pq, renyi_qr),
        parts=(Part("main", le(start, sp.exp(exponent)), proof=proof, ground_truth=_truth),),
        numeric_points=({"alpha": "2", "s": "1", "a": "1", "b": "1"}, {"alpha": "1.5", "s": "0.5", "a": "2", "b": "3"},
                        {"alpha": "4", "s": "3", "a": "5", "b": "2"}, {"alpha": "1.1", "s": "10", "a": "8", "b": "8"}),
        property_examples=10,
        tight="Hölder's equality case: Gaussian triples with collinear means in a ratio fixed by p (N44).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("the plain triangle inequality (α − 1)(a + b)", make((alpha - 1) * (a + b))),
        ("the factor (α − 1/p)/(α − 1) dropped on a", make((alpha - 1) * a + (alpha - 1) * b)),
        ("b dropped", make((P_EXP * alpha - 1) / P_EXP * a)),
    ]
