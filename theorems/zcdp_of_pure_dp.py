r"""ε-DP implies ½ε²-zCDP.

.. math::
    \mathbb E_P\big[e^{\lambda L}\big]\ \le\ e^{\lambda(\lambda+1)\varepsilon^2/2}
    \qquad\text{for every }\lambda>0\text{ and every pair } P = M(x),\ Q = M(x')
    \text{ of an } \varepsilon\text{-DP mechanism},

i.e. ρ-zCDP with ρ = ε²/2 in the MGF form of R-A9 (the hypothesis ``zcdp``
of ``approx_dp_of_zcdp``; equivalently ``D_α(P‖Q) <= αρ`` for all α > 1,
with λ = α − 1).  Cite it as ``by(theorem.part("main"), lam=…)``.

Parameterization: ε-DP of the ordered pair is the hypotheses ``pure_dp``
(``|L| <= ε`` a.s.) and ``same_support`` (``E e^{−L} = 1``) of
``kl_of_pure_dp``, which see for why both are needed.  Bun–Steinke state
zCDP with ρ; the seed talk writes "√(2ρ)-DP ⇒ ρ-zCDP" (R-C6), the same
statement with ε = √(2ρ).

Proof — the bounded-range route of R-C6, with the mean handled by the
rounding argument instead of Hoeffding at λ = −1:

1. the **chord bound** for the convex e^{λx} on [−ε, ε] in expectation, and
   linearity: ``E e^{λL} <= cosh(λε) + (E[L]/ε) sinh(λε)``;
2. ``E[L] = D_KL(P‖Q) <= ε tanh(ε/2)`` (``kl_of_pure_dp``, part ``sharp``);
   the chord is increasing in the mean for λ > 0, so ``E e^{λL}`` is at most
   the MGF of randomized response, ``(e^{(λ+1)ε} + e^{−λε})/(1 + e^ε) = e^{G(λ)}``;
3. ``G`` is a log-MGF with ``G(0) = G(−1) = 0`` and ``G'' <= ε²``: **Taylor's
   theorem** at 0 and at −1 (parts ``rr_at_zero``, ``rr_at_minus_one``) gives
   two quadratic bounds with slopes ``±ε tanh(ε/2)``; their combination with
   weights ``(λ+1)/(2λ+1)`` and ``λ/(2λ+1)`` cancels the slopes and leaves
   ``λ(λ+1)ε²/2`` — the quadratic with the same two zeros as G and
   curvature ε², as in the bounded-range argument of R-C6 (part ``main``).

BS16's own route uses **Hoeffding's lemma** in uncentred form at the mean
E[L] and then λ = −1; the kernel cannot instantiate a lemma at a point whose
domain membership (−ε < E[L] < ε) is a proved fact rather than a sign fact,
which this route avoids (no bridge axiom is used here).

Tight: only as ε → 0.  The sharp constant is ρ* = ε tanh(ε/2) < ε²/2
(R-C6, attained by randomized response); it is not proved by this route — its
proof needs the Kearns–Saul bound on the optimal sub-Gaussian proxy of a
Bernoulli variable, which a uniform bound on G'' cannot give (G''(−½) = ε²) —
but by :mod:`theorems.zcdp_of_pure_dp_sharp` (the mean value theorem in λ).
The ground truth includes randomized response, the extremal pair.

References
----------
* Bun & Steinke 2016, Prop 1.4 (statement) and Prop 3.3 (proof), arXiv:1605.02065.
* Steinke 2024, *Tight RDP & zCDP Bounds from Pure DP*, DifferentialPrivacy.org (rounding argument).
* REFERENCE.md R-C6, R-A9, R-G4.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, eps, lam, positive
from cdpsym.expr.operators import KL, Expect, P, Q
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, taylor
from theorems.kl_of_pure_dp import SHARP, loss_law, pure_dp, randomized_response, same_support, witness_pairs
from theorems.kl_of_pure_dp import theorem as kl_of_pure_dp
from theorems.foundations import kl_is_mean_loss
from theorems.foundations_convexity import exp_chord_bound, expectation_affine

__all__ = ["theorem", "make", "mutants", "RHO", "RR_MGF"]

RHO = eps ** 2 / 2

# -- randomized response: its log-MGF is below λ(λ+1)ε²/2 --------------------------------------------------------

_E = sp.exp(eps)


def _g0(v: sp.Expr) -> sp.Expr:
    """log E e^{vL/ε} for randomized response: the log-MGF at λ = v/ε (expansion point λ = 0)."""
    return sp.log((sp.exp(eps + v) + sp.exp(-v)) / (1 + _E))


def _g1(v: sp.Expr) -> sp.Expr:
    """The same function, shifted: ``_g1(v) = _g0(v − ε)`` (expansion point λ = −1)."""
    return sp.log((sp.exp(v) + sp.exp(eps - v)) / (1 + _E))


RR_MGF = (sp.exp(eps + lam * eps) + sp.exp(-lam * eps)) / (1 + _E)  # E e^{λL} for randomized response
G = sp.log(RR_MGF)
_t = sp.tanh(eps / 2)
AT_ZERO = _t * lam * eps + lam ** 2 * eps ** 2 / 2
AT_MINUS_ONE = -_t * (lam + 1) * eps + (lam + 1) ** 2 * eps ** 2 / 2


def _rr_log_mgf_truth(v, dps):
    pp, qq = randomized_response(v[eps])
    mgf = mpmath.fsum(w * mpmath.exp(v[lam] * l) for w, l in loss_law(pp, qq))
    return [("randomized response, log E exp(λL) summed", mpmath.log(mgf))]


# -- ε-DP ⇒ ε²/2-zCDP ---------------------------------------------------------------------------------------------

_h = lam * eps
_c1 = (sp.exp(_h) - sp.exp(-_h)) / (2 * eps)  # sinh(λε)/ε: the chord's slope in the mean
_c0 = (sp.exp(_h) + sp.exp(-_h)) / 2  # cosh(λε)
_CHORD = Expect(((eps - L) * sp.exp(-_h) + (L + eps) * sp.exp(_h)) / (2 * eps))
_w = (lam + 1) / (2 * lam + 1)  # weight of the expansion at 0; λ/(2λ+1) for the one at −1


def _zcdp_truth(v, dps):
    e, lm = v[eps], v[lam]
    return [(name, mpmath.fsum(w * mpmath.exp(lm * l) for w, l in loss_law(pp, qq)))
            for name, pp, qq in witness_pairs(e)]


def make(rho: sp.Expr = RHO) -> Theorem:
    """ε-DP ⇒ ρ-zCDP with the claimed ``rho`` (tests build mutants with a wrong ``rho``)."""
    at_zero = Part("rr_at_zero", le(G, AT_ZERO), title="randomized response: Taylor at λ = 0 (G'' <= ε²)",
                   proof=Chain(G).le(AT_ZERO, taylor(_g0, lam * eps, 1)), ground_truth=_rr_log_mgf_truth)
    at_minus_one = Part("rr_at_minus_one", le(G, AT_MINUS_ONE), title="randomized response: Taylor at λ = −1",
                        proof=Chain(G).le(AT_MINUS_ONE, taylor(_g1, (lam + 1) * eps, 1)),
                        ground_truth=_rr_log_mgf_truth)
    start = Expect(sp.exp(lam * L))
    bound = sp.exp(lam * (lam + 1) * rho)
    proof = (
        Chain(start)
        .le(_CHORD, by(exp_chord_bound, a=-eps, b=eps, X=L))
        .eq(_c1 * Expect(L) + _c0, by(expectation_affine, a=_c1, b=_c0, X=L))
        .eq(_c1 * KL(P, Q) + _c0, by(kl_is_mean_loss))
        .le(_c1 * SHARP + _c0, by(kl_of_pure_dp.part("sharp"), inside=lambda w: _c1 * w + _c0))
        .eq(RR_MGF, algebra("the MGF of randomized response"))
        .eq(sp.exp(_w * G + (1 - _w) * G), algebra("G = wG + (1 - w)G with w = (lam + 1)/(2 lam + 1)"))
        .le(sp.exp(_w * AT_ZERO + (1 - _w) * G), by(at_zero, inside=lambda u: sp.exp(_w * u + (1 - _w) * G)))
        .le(sp.exp(_w * AT_ZERO + (1 - _w) * AT_MINUS_ONE),
            by(at_minus_one, inside=lambda u: sp.exp(_w * AT_ZERO + (1 - _w) * u)))
        .eq(sp.exp(lam * (lam + 1) * RHO), algebra("the slopes eps tanh(eps/2) and -eps tanh(eps/2) cancel"))
    )
    if rho != RHO:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="zcdp_of_pure_dp",
        reference="R-C6",
        source="Bun & Steinke 2016, Prop 1.4 and Prop 3.3, arXiv:1605.02065",
        title="pure DP to zCDP",
        notion="PureDP(eps) implies zCDP(rho=eps^2/2)",
        variables={eps: positive(sample_lo=0.01, sample_hi=5), lam: positive(sample_lo=0.01, sample_hi=20)},
        hypotheses=(pure_dp, same_support),
        parts=(at_zero, at_minus_one, Part("main", le(start, bound), proof=proof, ground_truth=_zcdp_truth)),
        numeric_points=({"eps": "1", "lam": "0.5"}, {"eps": "0.1", "lam": "3"}, {"eps": "2", "lam": "10"},
                        {"eps": "0.01", "lam": "0.01"}, {"eps": "3", "lam": "0.5"}),
        property_examples=30,
        tight="only as ε → 0; the sharp constant ε tanh(ε/2) (randomized response) is zcdp_of_pure_dp_sharp.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ρ = ε²/4: the constant 1/2 scaled to 1/4", make(rho=eps ** 2 / 4)),
        ("ρ = ε tanh(ε/2)/2: the sharp constant halved", make(rho=eps * sp.tanh(eps / 2) / 2)),
        ("ρ = ε/2: the square on ε dropped", make(rho=eps / 2)),
    ]
