r"""The KL divergence of an ε-DP pair is at most ε·tanh(ε/2), hence at most ε(e^ε − 1)/2.

.. math::
    D_{\mathrm{KL}}(P\,\|\,Q)\ \le\ \varepsilon\tanh(\varepsilon/2)
    =\varepsilon\,\frac{e^\varepsilon-1}{e^\varepsilon+1}\ \le\ \frac{\varepsilon(e^\varepsilon-1)}{2}
    \qquad\text{for every pair } P = M(x),\ Q = M(x') \text{ of an } \varepsilon\text{-DP mechanism}.

Parts: ``sharp`` (the first inequality, R-B14 [D]) and ``dr16`` (the paper's
bound, DR16 Lemma 3.8).

Parameterization: ε-DP for the ordered pair (P, Q) is the two hypotheses

* ``pure_dp`` — ``Pr[-ε <= L <= ε] = 1``, L the privacy loss of (P, Q)
  (R-A5: ``|L| <= ε`` a.s.; in particular P ≪ Q);
* ``same_support`` — ``E[e^{-L}] = 1``, i.e. ``Q(supp P) = 1`` (R-A1), so Q ≪ P.

The second is needed and is not implied by the first: P = δ₀,
Q = ½δ₀ + ½δ₁ has ``L = log 2`` P-a.s., so ``pure_dp`` holds with ε = log 2,
but ``D_KL(P‖Q) = log 2 > ε tanh(ε/2)``.  DR16 build it into the definition
of L (their Def 3.1 requires equal supports); ε-DP in both directions
(R-A5, ``Δ∞(P, Q) <= ε`` of R-B14) implies both hypotheses.

Proof (the rounding argument of Steinke 2024 in its dual form, at α → 1):
``D_KL = E[L]`` (R-A1); add ``K·(E[e^{-L}] − 1) = 0`` with ``K = ε/sinh ε``;
the **chord bound** for the convex e^{-x} on [−ε, ε] replaces ``E[e^{-L}]`` by
the chord ``cosh ε − (E[L]/ε) sinh ε`` — the value for the two-point law with
the same mean, i.e. randomized response; linearity of expectation; the
``E[L]`` terms cancel and ``K(cosh ε − 1) = ε tanh(ε/2)`` remains.  No
splitting lemma (DR16 Lemma 3.9) is needed.  ``dr16`` adds the sign step
``ε(e^ε − 1)/2 − ε tanh(ε/2) = ε(e^ε − 1)²/(2(e^ε + 1)) >= 0``.

Tight: ``sharp`` is attained by randomized response, ``P = Bern(e^ε/(1+e^ε))``,
``Q = Bern(1/(1+e^ε))`` (R-B14, R-G4); ``dr16`` only as ε → 0 (ratio
``(e^ε + 1)/2``, R-H28).

References
----------
* Dwork & Rothblum 2016, Lemma 3.8, arXiv:1603.01887v2 (the ``dr16`` bound).
* Steinke 2024, *Tight RDP & zCDP Bounds from Pure DP*, DifferentialPrivacy.org (rounding argument; the
  sharp bound is its α → 1 limit).
* REFERENCE.md R-B14 (sharp statement and proof), R-A1, R-A5.
"""

from __future__ import annotations

import functools
import random

import mpmath
import sympy as sp

from cdpsym.expr import L, eps, positive
from cdpsym.expr.operators import KL, Expect, P, Prob, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, sign
from theorems.foundations import kl_is_mean_loss
from theorems.foundations_convexity import exp_chord_bound, expectation_affine, in_range

__all__ = ["theorem", "make", "mutants", "pure_dp", "same_support", "SHARP", "DR16", "randomized_response",
           "random_pure_dp_pairs", "witness_pairs", "loss_law"]

SHARP = eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1)  # = ε tanh(ε/2), written with exp (sympy is fast on it)
DR16 = eps * (sp.exp(eps) - 1) / 2

pure_dp = Hypothesis(
    name="pure_dp",
    title="|L| <= ε almost surely (R-A5)",
    relation=eq(Prob(in_range(-eps, L, eps)), 1),
)
same_support = Hypothesis(
    name="same_support",
    title="E[exp(−L)] = Q(supp P) = 1 (R-A1): Q is absolutely continuous w.r.t. P, the other half of ε-DP",
    relation=eq(Expect(sp.exp(-L)), 1),
)

# -- witnesses (independent of every closed form: distributions, then sums) -------------------------------------


def randomized_response(e):
    """``RR_ε`` on one bit: ``P = (p, 1-p)``, ``Q = (1-p, p)``, ``p = e^ε/(1+e^ε)``."""
    p = mpmath.exp(e) / (1 + mpmath.exp(e))
    return [p, 1 - p], [1 - p, p]


def random_pure_dp_pairs(e, count=4, seed=20261122):
    """``count`` random pairs on 2–7 atoms with ``e^{-ε} <= P/Q <= e^ε`` atom by atom (deterministic seed).

    Ratios are drawn in ``[e^{-ε}, e^ε]`` and pulled towards one endpoint until ``E_Q[ratio] = 1``.
    """
    rng = random.Random(seed)
    lo, hi = mpmath.exp(-e), mpmath.exp(e)
    pairs = []
    for _ in range(count):
        n = rng.randint(2, 7)
        q = [mpmath.mpf(rng.random()) + mpmath.mpf("0.01") for _ in range(n)]
        total = mpmath.fsum(q)
        q = [x / total for x in q]
        z = [lo + (hi - lo) * mpmath.mpf(rng.random()) for _ in range(n)]
        mean = mpmath.fsum(qi * zi for qi, zi in zip(q, z))
        end = lo if mean > 1 else hi
        theta = (1 - end) / (mean - end)  # z -> end + theta (z - end) has E_Q = 1, theta in (0, 1]
        z = [end + theta * (zi - end) for zi in z]
        pairs.append(([qi * zi for qi, zi in zip(q, z)], q))
    return pairs


def witness_pairs(e, count=4):
    """Randomized response (the extremal pair) and ``count`` random ε-DP pairs (cached per ε and precision)."""
    return _witness_pairs(e, count, mpmath.mp.prec)


@functools.lru_cache(maxsize=256)
def _witness_pairs(e, count, prec):
    return [("randomized response", *randomized_response(e))] + [
        (f"random ε-DP pair #{i + 1} ({len(pp)} atoms)", pp, qq)
        for i, (pp, qq) in enumerate(random_pure_dp_pairs(e, count))]


def loss_law(pp, qq):
    """The law of the privacy loss under P: ``[(P(y), log P(y)/Q(y))]``."""
    return [(x, mpmath.log(x / y)) for x, y in zip(pp, qq)]


def _kl_truth(v, dps):
    return [(name, mpmath.fsum(w * l for w, l in loss_law(pp, qq))) for name, pp, qq in witness_pairs(v[eps])]


# -- the proof --------------------------------------------------------------------------------------------------

_EL = Expect(L)
_K = 2 * eps / (sp.exp(eps) - sp.exp(-eps))  # ε/sinh ε > 0
# chord of exp(-x) on [-ε, ε] at x = L, written c1*L + c0
_c1 = (sp.exp(-eps) - sp.exp(eps)) / (2 * eps)
_c0 = (sp.exp(eps) + sp.exp(-eps)) / 2
_CHORD = Expect(((eps - L) * sp.exp(eps) + (L + eps) * sp.exp(-eps)) / (2 * eps))


def sharp_chain() -> Chain:
    """``D_KL(P‖Q) <= ε tanh(ε/2)`` under ``pure_dp`` and ``same_support``."""
    return (Chain(KL(P, Q))
            .eq(_EL, by(kl_is_mean_loss))
            .eq(_EL + _K * (Expect(sp.exp(-L)) - 1),
                by(same_support, inside=lambda w: _EL + _K * (Expect(sp.exp(-L)) - w)))
            .le(_EL + _K * (_CHORD - 1),
                by(exp_chord_bound, lam=-1, a=-eps, b=eps, X=L, inside=lambda w: _EL + _K * (w - 1)))
            .eq(_EL + _K * (_c1 * _EL + _c0 - 1),
                by(expectation_affine, a=_c1, b=_c0, X=L, inside=lambda w: _EL + _K * (w - 1)))
            .eq(SHARP, algebra("the E[L] terms cancel; (cosh(eps) - 1)/sinh(eps) = (exp(eps) - 1)/(exp(eps) + 1)")))


def make(sharp: sp.Expr = SHARP, dr16: sp.Expr = DR16) -> Theorem:
    """The two bounds as stated (tests build mutants with wrong constants)."""
    sharp_proof = sharp_chain()
    if sharp != SHARP:
        sharp_proof = sharp_proof.eq(sharp, algebra())
    return Theorem(
        name="kl_of_pure_dp",
        reference="R-B14",
        source="Dwork & Rothblum 2016, Lemma 3.8, arXiv:1603.01887v2; sharp form: Steinke 2024 (rounding), R-B14",
        title="KL divergence of a pure-DP pair",
        variables={eps: positive(sample_lo=0.01, sample_hi=6)},
        hypotheses=(pure_dp, same_support),
        parts=(Part("sharp", le(KL(P, Q), sharp), proof=sharp_proof, ground_truth=_kl_truth),
               Part("dr16", le(KL(P, Q), dr16),
                    proof=sharp_chain().le(dr16, sign("the difference is eps (exp(eps) - 1)**2 / (2 (exp(eps) + 1))")),
                    ground_truth=_kl_truth)),
        numeric_points=({"eps": "0.1"}, {"eps": "0.5"}, {"eps": "1"}, {"eps": "2"}, {"eps": "7.5"}),
        property_examples=30,
        tight="sharp: equality for randomized response; dr16: only as ε → 0.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("sharp bound ε tanh(ε/2)/2: halved", make(sharp=eps * sp.tanh(eps / 2) / 2)),
        ("DR16 bound ε(e^ε − 1)/4: the constant 1/2 scaled to 1/4", make(dr16=eps * (sp.exp(eps) - 1) / 4)),
        ("sharp bound ε²/4: tanh(ε/2) linearised and halved", make(sharp=eps ** 2 / 4)),
    ]
