r"""ε-DP implies ε·tanh(ε/2)-zCDP, the sharp constant.

.. math::
    \mathbb E_P\big[e^{\lambda L}\big]\ \le\ e^{\lambda(\lambda+1)\,\varepsilon\tanh(\varepsilon/2)}
    \qquad\text{for every }\lambda>0\text{ and every pair } P = M(x),\ Q = M(x')
    \text{ of an } \varepsilon\text{-DP mechanism},

i.e. ρ*-zCDP with ρ* = ε tanh(ε/2) = ε(e^ε − 1)/(e^ε + 1) in the MGF form of
R-A9 (``D_α(P‖Q) <= αρ*`` for all α > 1, with λ = α − 1).  ρ* <= ε²/2, so
this sharpens ``zcdp_of_pure_dp`` (BS16 Prop 1.4); part ``below_bs16``
proves the comparison.

Parts:

* ``rr_dominates`` — ``E e^{λL} <= (e^{(λ+1)ε} + e^{−λε})/(1 + e^ε)``, the MGF of
  randomized response (Steinke 2024 Thm 4, the sharp RDP curve, in MGF form):
  the rounding argument, as in ``zcdp_of_pure_dp``;
* ``main`` — the statement above;
* ``below_bs16`` — ``ε tanh(ε/2) <= ε²/2``.

Parameterization: ε-DP of the ordered pair is the hypotheses ``pure_dp``
(``|L| <= ε`` a.s.) and ``same_support`` (``E e^{−L} = 1``) of
``kl_of_pure_dp``.  Throughout, ``tanh(v)`` is written ``(e^{2v} − 1)/(e^{2v} + 1)``
(sympy decides identities between exponentials much faster than with tanh).

Proof.

1. ``rr_dominates``: the **chord bound** for e^{λx} on [−ε, ε], linearity, and
   ``E[L] = D_KL <= ε tanh(ε/2)`` (``kl_of_pure_dp``, part ``sharp``);
2. the **Kearns–Saul inequality** for randomized response, here proved
   directly (lemma ``randomized_response_log_mgf_sharp``): with
   ``G(λ) = log E e^{λL}`` for RR, ``h(λ) = λ(λ+1)ρ* − G(λ)`` has ``h(0) = 0``
   and ``h'(λ) = (2λ+1)ρ* − ε tanh((2λ+1)ε/2) >= 0`` -- the kernel's
   **monotone** rule (mean value theorem), whose derivative step is the lemma
   ``tanh_sublinear``: ``tanh(ut) <= u tanh(t)`` for ``t > 0, u >= 1``
   (tanh(t)/t is non-increasing; again ``monotone`` in t, whose derivative
   ``u(tanh²(ut) − tanh²(t))`` is non-negative because tanh is increasing,
   ``monotone`` in u with ``sign``).  Only λ > 0 is needed (and proved),
   where the monotone argument runs from λ = 0; Kearns–Saul holds for all
   real λ (REFERENCE N47).
3. ``below_bs16``: ``tanh(t) <= t`` (``monotone``: the derivative of ``t − tanh t``
   is ``tanh² t >= 0``) at t = ε/2, times ε.

No axiom beyond those of ``zcdp_of_pure_dp`` is used; the kernel rule
``monotone`` is taken as given (``cdpsym verify`` reports it).

Tight: yes.  As λ → 0⁺ the statement forces ρ >= E[L] = D_KL, and
randomized response has D_KL = ε tanh(ε/2) (``kl_of_pure_dp``, R-B14), so
no smaller ρ holds for every ε-DP mechanism (R-C6 [D]).  The ground truth
includes randomized response.

References
----------
* Bun & Steinke 2016, Prop 1.4 and Prop 3.3, arXiv:1605.02065 (the ε²/2 constant).
* Steinke 2024, *Tight RDP & zCDP Bounds from Pure DP*, DifferentialPrivacy.org, Thm 4 (sharp RDP curve).
* Kearns & Saul 1998, *Large deviation methods for approximate probabilistic inference*, UAI (the optimal
  sub-Gaussian proxy of a Bernoulli variable; proved here for the case needed).
* REFERENCE.md R-C6 (sharp constant [D]), R-A9, R-B14.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, at_least, eps, lam, positive, t, u
from cdpsym.expr.operators import KL, Expect, P, Q
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, monotone
from theorems.foundations import kl_is_mean_loss
from theorems.foundations_convexity import exp_chord_bound, expectation_affine
from theorems.kl_of_pure_dp import SHARP, loss_law, pure_dp, randomized_response, same_support
from theorems.kl_of_pure_dp import theorem as kl_of_pure_dp
from theorems.zcdp_of_pure_dp import G, RR_MGF, _rr_log_mgf_truth, _zcdp_truth

__all__ = ["theorem", "make", "mutants", "make_tanh_lemma", "make_rr_lemma", "tanh_sublinear",
           "randomized_response_log_mgf_sharp", "LEMMAS",
           "RHO_STAR", "th"]

RHO_STAR = SHARP  # ε tanh(ε/2) = ε(e^ε − 1)/(e^ε + 1)


def th(v: sp.Expr) -> sp.Expr:
    """``tanh(v)`` written with exponentials."""
    return (sp.exp(2 * v) - 1) / (sp.exp(2 * v) + 1)


# -- lemma 1: tanh(ut) <= u tanh(t) (tanh(t)/t non-increasing), and tanh(t) <= t -----------------------------------

def _tanh_truth(v, dps):
    return [("mpmath.tanh", mpmath.tanh(v[u] * v[t]))]


def _tanh_t_truth(v, dps):
    return [("mpmath.tanh", mpmath.tanh(v[t]))]


_U_DOMAIN = {u: at_least(1, sample_lo=1, sample_hi=50)}


def make_tanh_lemma(sublinear: sp.Expr = sp.S.One, identity: sp.Expr = sp.S.One) -> Theorem:
    """``tanh(ut) <= sublinear·u·tanh(t)`` and ``tanh(t) <= identity·t`` (the library lemma has both factors 1)."""
    increasing = Part("increasing", le(th(t), th(u * t)), title="tanh is increasing: tanh(t) <= tanh(ut) for u >= 1",
                      variables=_U_DOMAIN, proof=Chain(th(t)).le(th(u * t), monotone(u)), ground_truth=_tanh_t_truth)
    sub = Part(
        "main", le(th(u * t), sublinear * u * th(t)), title="tanh(ut) <= u tanh(t) for t > 0, u >= 1",
        variables=_U_DOMAIN,
        # h = u tanh t - tanh(ut): h(0) = 0, h' = u (tanh(ut)^2 - tanh(t)^2) = F(tanh(ut)) with
        # F(w) = u (w^2 - tanh(t)^2) non-decreasing for w >= 0, and F(tanh t) = 0
        proof=Chain(th(u * t)).le(u * th(t), monotone(t, by(increasing,
                                                             inside=lambda w: u * (w - th(t)) * (w + th(t))))),
        ground_truth=_tanh_truth)
    below = Part("below_identity", le(th(t), identity * t), title="tanh(t) <= t for t > 0",
                 proof=Chain(th(t)).le(t, monotone(t)), ground_truth=_tanh_t_truth)
    return Theorem(
        name="tanh_sublinear",
        reference="R-C6",
        source="calculus: tanh is increasing and concave on [0, oo) (e.g. Abramowitz & Stegun 1964, §4.5)",
        title="sublinearity of tanh",
        variables={t: positive(sample_lo=1e-3, sample_hi=20, log_scale=True)},
        parts=(increasing, sub, below),
        numeric_points=({"t": "0.001", "u": "1"}, {"t": "0.5", "u": "3"}, {"t": "4", "u": "1.5"},
                        {"t": "30", "u": "40"}),
        property_examples=30,
        tight="equality at u = 1 and as t → 0.",
    )


tanh_sublinear = make_tanh_lemma()

# -- lemma 2: Kearns–Saul for randomized response, λ > 0 ------------------------------------------------------------

_BOUND = lam * (lam + 1) * RHO_STAR
_DH = sp.diff(_BOUND - G, lam)  # the derivative the monotone rule computes for h = _BOUND - G
_U = 2 * lam + 1


def make_rr_lemma(rho: sp.Expr = RHO_STAR) -> Theorem:
    """``log E e^{λL} <= λ(λ+1)ρ`` for randomized response (the library lemma has ρ = ε tanh(ε/2))."""
    bound = lam * (lam + 1) * rho
    slope = Part("slope", le(0, _DH), title="h'(λ) = (2λ+1) ε tanh(ε/2) − ε tanh((2λ+1)ε/2) >= 0",
                 proof=(Chain(sp.S.Zero)
                        .le(eps * (_U * th(eps / 2) - th(_U * eps / 2)),
                            by(tanh_sublinear.part("main"), u=_U, t=eps / 2,
                               inside=lambda w: eps * (w - th(_U * eps / 2))))
                        .eq(_DH, algebra("G'(λ) = ε tanh((2λ+1)ε/2)"))))
    chain = Chain(G).le(_BOUND, monotone(lam, by(slope)))
    if rho != RHO_STAR:
        chain = chain.eq(bound, algebra())
    return Theorem(
        name="randomized_response_log_mgf_sharp",
        reference="R-C6",
        source="Kearns & Saul 1998 (Bernoulli sub-Gaussian proxy); REFERENCE.md R-C6 [D]",
        title="Kearns–Saul bound for randomized response",
        variables={eps: positive(sample_lo=0.01, sample_hi=8), lam: positive(sample_lo=1e-3, sample_hi=40)},
        parts=(slope, Part("main", le(G, bound), proof=chain, ground_truth=_rr_log_mgf_truth)),
        numeric_points=({"eps": "1", "lam": "0.001"}, {"eps": "0.05", "lam": "2"}, {"eps": "3", "lam": "0.5"},
                        {"eps": "8", "lam": "40"}),
        property_examples=30,
        tight="the ratio tends to 1 as λ → 0 (both sides ~ λ ε tanh(ε/2)).",
    )


randomized_response_log_mgf_sharp = make_rr_lemma()

LEMMAS = [tanh_sublinear, randomized_response_log_mgf_sharp]

# -- ε-DP ⇒ ε tanh(ε/2)-zCDP ------------------------------------------------------------------------------------------

_h = lam * eps
_c1 = (sp.exp(_h) - sp.exp(-_h)) / (2 * eps)  # sinh(λε)/ε: the chord's slope in the mean
_c0 = (sp.exp(_h) + sp.exp(-_h)) / 2  # cosh(λε)
_CHORD = Expect(((eps - L) * sp.exp(-_h) + (L + eps) * sp.exp(_h)) / (2 * eps))
_START = Expect(sp.exp(lam * L))


def _rr_kl_truth(v, dps):
    pp, qq = randomized_response(v[eps])
    return [("randomized response, D_KL summed", mpmath.fsum(w * l for w, l in loss_law(pp, qq)))]


def make(rho: sp.Expr = RHO_STAR) -> Theorem:
    """ε-DP ⇒ ρ-zCDP with the claimed ``rho`` (mutants use a smaller one)."""
    dominates = Part(
        "rr_dominates", le(_START, RR_MGF),
        title="the MGF of the loss is at most that of randomized response (Steinke 2024 Thm 4)",
        proof=(Chain(_START)
               .le(_CHORD, by(exp_chord_bound, a=-eps, b=eps, X=L))
               .eq(_c1 * Expect(L) + _c0, by(expectation_affine, a=_c1, b=_c0, X=L))
               .eq(_c1 * KL(P, Q) + _c0, by(kl_is_mean_loss))
               .le(_c1 * SHARP + _c0, by(kl_of_pure_dp.part("sharp"), inside=lambda w: _c1 * w + _c0))
               .eq(RR_MGF, algebra("the MGF of randomized response"))),
        ground_truth=_zcdp_truth)
    bound = sp.exp(lam * (lam + 1) * rho)
    proof = (Chain(_START)
             .le(RR_MGF, by(dominates))
             .eq(sp.exp(G), algebra())
             .le(sp.exp(_BOUND), by(randomized_response_log_mgf_sharp.part("main"), inside=sp.exp)))
    if rho != RHO_STAR:
        proof = proof.eq(bound, algebra())
    below = Part("below_bs16", le(RHO_STAR, eps ** 2 / 2), title="ε tanh(ε/2) <= ε²/2 (BS16's constant)",
                 proof=(Chain(RHO_STAR).eq(eps * th(eps / 2), algebra())
                        .le(eps * (eps / 2), by(tanh_sublinear.part("below_identity"), t=eps / 2,
                                                inside=lambda w: eps * w))
                        .eq(eps ** 2 / 2, algebra())),
                 ground_truth=_rr_kl_truth)
    return Theorem(
        name="zcdp_of_pure_dp_sharp",
        reference="R-C6",
        source="REFERENCE.md R-C6 [D] (sharp constant); Steinke 2024 Thm 4; Bun & Steinke 2016, Prop 1.4, "
               "arXiv:1605.02065",
        title="pure DP to zCDP, sharp constant",
        notion="PureDP(eps) implies zCDP(rho=eps*tanh(eps/2))",
        variables={eps: positive(sample_lo=0.01, sample_hi=6), lam: positive(sample_lo=1e-3, sample_hi=20)},
        hypotheses=(pure_dp, same_support),
        parts=(dominates, below, Part("main", le(_START, bound), proof=proof, ground_truth=_zcdp_truth)),
        numeric_points=({"eps": "1", "lam": "0.001"}, {"eps": "0.1", "lam": "3"}, {"eps": "2", "lam": "10"},
                        {"eps": "0.01", "lam": "0.01"}, {"eps": "5", "lam": "0.05"}),
        property_examples=30,
        tight="yes: as λ → 0 the bound forces ρ >= D_KL, and randomized response has D_KL = ε tanh(ε/2).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("tanh(ut) <= u tanh(t)/2: halved", make_tanh_lemma(sublinear=sp.Rational(1, 2))),
        ("tanh(t) <= t/2: halved", make_tanh_lemma(identity=sp.Rational(1, 2))),
        ("RR log-MGF <= λ(λ+1) ε tanh(ε/2)/2: halved", make_rr_lemma(RHO_STAR / 2)),
        ("RR log-MGF <= λ(λ+1) ε²/4", make_rr_lemma(eps ** 2 / 4)),
        ("ρ = ε tanh(ε/2)/2: halved", make(RHO_STAR / 2)),
        ("ρ = ε tanh(ε/4): the argument halved", make(eps * th(eps / 4))),
        ("ρ = 0.99 ε tanh(ε/2): below the sharp constant", make(sp.Rational(99, 100) * RHO_STAR)),
        ("ρ = ε²/4", make(eps ** 2 / 4)),
    ]
