r"""ε-DP implies (ε(e^ε − 1)/2, ε)-CDP (Dwork–Rothblum mean-concentrated DP).

.. math::
    \mathbb E[L]\le\frac{\varepsilon(e^\varepsilon-1)}{2},\qquad
    \mathbb E\big[e^{\lambda(L-\mathbb E[L])}\big]\le e^{\lambda^2\varepsilon^2/2}
    \ \ \text{for every }\lambda\in\mathbb R,

for the privacy loss L of every pair P = M(x), Q = M(x') of an ε-DP
mechanism.  Parts: ``mean`` (condition 1 of R-A8 with μ = ε(e^ε − 1)/2) and
``subgaussian`` (condition 2: the centred loss is τ-subgaussian, τ = ε).

Parameterization: (μ, τ)-CDP is Dwork–Rothblum's (R-A8), *not* Bun–Steinke's
ρ-zCDP (which the seed slides also call "ρ-CDP").  ε-DP of the ordered pair
is the hypotheses ``pure_dp`` (``|L| <= ε`` a.s.) and ``same_support``
(``E e^{−L} = 1``) of ``kl_of_pure_dp``, which explains why both are needed.

Proof (DR16 Thm 3.5):

* ``mean`` — ``E[L] = D_KL(P‖Q)`` (R-A1) ``<= ε(e^ε − 1)/(e^ε + 1) = ε tanh(ε/2)``
  (``kl_of_pure_dp``, part ``sharp``) ``<= ε(e^ε − 1)/2`` (a sign argument).
* ``subgaussian`` — **Hoeffding's lemma** for ``X = L − E[L]``, which has mean 0
  (linearity of expectation) and lies in ``[a, b] = [−ε − E[L], ε − E[L]]``
  (the hypothesis ``pure_dp``; the kernel matches the two events after
  canonicalization), an interval of length 2ε: ``E e^{λX} <= e^{λ²(2ε)²/8}``.
  Hoeffding's lemma has the variable domains ``a < 0 < b``, i.e.
  ``−ε < E[L] < ε``; the citation discharges them with chains from proved
  facts (``given={"a": …, "b": …}``): ``−ε − E[L] = −ε − D_KL <= −ε < 0`` by
  **Gibbs' inequality** ``D_KL >= 0`` (with ``E[L] = D_KL``, R-A1), and
  ``0 < ε − ε tanh(ε/2) <= ε − D_KL = ε − E[L]`` by ``kl_of_pure_dp``.

Tight: τ = ε is asymptotically tight as ε → 0 (randomized response:
``Var L = ε²(1 − tanh²(ε/2))``).  The mean bound is not attained: the sharp
mean is ε tanh(ε/2) (R-B14), so the mechanism is in fact
(ε tanh(ε/2), ε)-CDP — the chain proves that bound on the way.

References
----------
* Dwork & Rothblum 2016, Thm 3.5, Lemmas 3.6 and 3.8, arXiv:1603.01887v2.
* REFERENCE.md R-B11, R-A8, R-B12, R-B14.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, eps, lam, positive, real
from cdpsym.expr.operators import KL, Expect, P, Q
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, sign
from theorems.hoeffding_lemma import theorem as hoeffding_lemma
from theorems.kl_of_pure_dp import SHARP, loss_law, pure_dp, same_support, witness_pairs
from theorems.kl_of_pure_dp import theorem as kl_of_pure_dp
from theorems.foundations import kl_is_mean_loss
from theorems.foundations_convexity import expectation_affine, kl_nonnegative

__all__ = ["theorem", "make", "mutants", "MU", "TAU"]

MU = eps * (sp.exp(eps) - 1) / 2
TAU = eps

_EL = Expect(L)
_KL = KL(P, Q)
_SHARP = kl_of_pure_dp.part("sharp")


def _mean_truth(v, dps):
    return [(name, mpmath.fsum(w * l for w, l in loss_law(pp, qq))) for name, pp, qq in witness_pairs(v[eps])]


def _subgaussian_truth(v, dps):
    out = []
    for name, pp, qq in witness_pairs(v[eps]):
        law = loss_law(pp, qq)
        mean = mpmath.fsum(w * l for w, l in law)
        mgf = mpmath.fsum(w * mpmath.exp(v[lam] * (l - mean)) for w, l in law)
        out.append((name + ", E exp(λ(L − E L)) summed", mgf))
    return out


_HOEFFDING = hoeffding_lemma.part("main")

# Hoeffding's lemma at X = L − E[L], a = −ε − E[L], b = ε − E[L]: its hypothesis 'mean_zero', and the
# domains a ∈ (−∞, 0), b ∈ (0, ∞) of its variables a and b, by chains from proved facts
# ('range' is discharged automatically: it is the local hypothesis pure_dp after canonicalization)
_GIVEN = {
    "mean_zero": Chain(Expect(L - _EL)).eq(0, by(expectation_affine, a=1, b=-_EL, X=L)),
    "a": (Chain(-eps - _EL)  # a < 0: Gibbs' inequality E[L] = D_KL >= 0 (E[L] is finite: |L| <= eps)
          .le(_KL - eps - _EL, by(kl_nonnegative, inside=lambda w: w - eps - _EL))
          .eq(_EL - eps - _EL, by(kl_is_mean_loss))
          .eq(-eps, algebra())
          .lt(0, sign())),
    "b": (Chain(sp.S.Zero)  # 0 < b: E[L] = D_KL <= eps tanh(eps/2) < eps
          .lt(eps - SHARP, sign("eps tanh(eps/2) is less than eps"))
          .le(eps - _KL, by(_SHARP, inside=lambda w: w + eps - SHARP - _KL))
          .eq(eps - _EL, by(kl_is_mean_loss))),
}


def make(mu: sp.Expr = MU, tau: sp.Expr = TAU) -> Theorem:
    """The conversion with the claimed ``mu`` and ``tau`` (tests build mutants with wrong constants)."""
    mean = (Chain(_EL)
            .eq(_KL, by(kl_is_mean_loss))
            .le(SHARP, by(_SHARP))
            .le(mu, sign("the difference is eps (exp(eps) - 1)**2 / (2 (exp(eps) + 1))")))
    start = Expect(sp.exp(lam * (L - _EL)))
    subgaussian = Chain(start).le(
        sp.exp(lam ** 2 * eps ** 2 / 2),
        by(_HOEFFDING, X=L - _EL, a=-eps - _EL, b=eps - _EL, given=_GIVEN))
    bound = sp.exp(lam ** 2 * tau ** 2 / 2)
    if tau != TAU:
        subgaussian = subgaussian.eq(bound, algebra())
    return Theorem(
        name="cdp_of_pure_dp_hoeffding",
        reference="R-B11",
        source="Dwork & Rothblum 2016, Thm 3.5, arXiv:1603.01887v2",
        title="pure DP to mean-concentrated DP, via Hoeffding's lemma",
        notion="PureDP(eps) implies MeanConcentratedDP(mu=eps*(exp(eps)-1)/2, tau=eps)",
        variables={eps: positive(sample_lo=0.01, sample_hi=5), lam: real(sample_lo=-10, sample_hi=10)},
        hypotheses=(pure_dp, same_support),
        parts=(Part("mean", le(_EL, mu), proof=mean, ground_truth=_mean_truth),
               Part("subgaussian", le(start, bound), proof=subgaussian, ground_truth=_subgaussian_truth)),
        numeric_points=({"eps": "0.3", "lam": "2"}, {"eps": "1.5", "lam": "-3"}, {"eps": "0.01", "lam": "40"},
                        {"eps": "4", "lam": "0.5"}, {"eps": "1", "lam": "0"}),
        property_examples=30,
        tight="τ = ε as ε → 0; the mean is at most ε tanh(ε/2) < ε(e^ε − 1)/2 (R-B14).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("μ = ε(e^ε − 1)/4: the constant 1/2 scaled to 1/4", make(mu=eps * (sp.exp(eps) - 1) / 4)),
        ("τ = ε/2: halved", make(tau=eps / 2)),
        ("μ = ε²/4: e^ε − 1 linearised and the constant halved", make(mu=eps ** 2 / 4)),
    ]
