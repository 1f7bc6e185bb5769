r"""The exponential mechanism with privacy parameter ε is ε²/8-zCDP (*supported*, not proved).

.. math::
    L=-\frac{\varepsilon}{2}S+\log\zeta,\quad \zeta=\mathbb E_P\big[e^{\varepsilon S/2}\big],\quad S^2\le1
    \quad\Longrightarrow\quad
    \mathbb E_P\big[e^{\lambda L}\big]\le e^{\lambda(\lambda+1)\varepsilon^2/8}\qquad(\lambda>0),

i.e. ρ-zCDP with ρ = ε²/8 in the MGF form of R-A9 (the hypothesis ``zcdp``
of :mod:`theorems.approx_dp_of_zcdp`; ``D_α(P‖Q) <= αρ`` for all α > 1 with
λ = α − 1).

Parameterization: exactly that of :mod:`theorems.exponential_mechanism_pure_dp`
(R-G3), whose hypotheses ``exponential_pair``, ``normaliser`` and
``score_sensitivity`` this theorem declares: ``S = (f(D, U) − f(D', U))/C`` is
the scaled score difference at the output ``U ~ P = M(D)`` and ``ζ`` the
normaliser ratio ``Z(D')/Z(D)``.

Status: **supported**.  The statement is checked against an independent
ground truth (exact enumeration of the Gibbs laws of concrete exponential
mechanisms on finite ranges, including the two-point instances that are
extremal for the bound) at 50 digits and on random draws; its proof chain is
a single ``numeric`` step.  The proof (Cesar & Rogers 2021; Steinke 2024),
which the kernel does not yet carry to the end:

1. ``E e^{λL} = ζ^λ E[e^{−λεS/2}]`` (linearity), and the **chord bound** for
   ``e^{±xε/2}`` on [−1, 1] bounds both ``ζ`` and ``E[e^{−λεS/2}]`` by the
   values for the two-point law on {−1, 1} with the same mean ``m = E[S]``;
2. with ``p = (1 + m)/2`` and ``φ_p(v) = −pv + log(1 − p + pe^v)`` (the
   exponent of **Hoeffding's lemma**), the logarithm of that two-point bound is
   exactly ``λ φ_p(ε) + φ_p(−λε)`` (the linear terms cancel);
3. ``φ_p(v) <= v²/8`` (**Taylor's theorem**, ``φ_p(0) = φ_p'(0) = 0``,
   ``φ_p'' <= 1/4``) gives ``λε²/8 + λ²ε²/8 = λ(λ+1)ε²/8``.

Steps 1–2 are algebra the kernel checks; step 3 needs ``φ_p'' <= 1/4`` for
every ``p`` in the *closed* interval [0, 1] (``m = E[S]`` may be ±1), and the
kernel's sign decider has no parametrization of a closed finite interval
(``hoeffding_lemma`` proves the same bound for ``p`` in the open interval, via
``a < 0 < b``, which a citation at ``m = E[S]`` cannot discharge).

Tight: ε²/8 is the bounded-range constant (R-G3, CR21); it is approached as
ε → 0 by the two-point instance ``S = ±1`` with ``p = 1/2``.  It is better
than the ε²/2 that ε-DP alone gives (R-C6).

References
----------
* Cesar & Rogers 2021, *Bounding, Concentrating, and Truncating: Unifying Privacy Loss Composition for Data
  Analytics*, ALT, arXiv:2004.07223 (bounded range ⇒ ε²/8-zCDP; lemma numbers not checked).
* Steinke 2024, *Tight RDP & zCDP Bounds from Pure DP*, DifferentialPrivacy.org (Lemma 3, Corollary 7).
* Bun & Steinke 2016, Def 1.1 (zCDP), arXiv:1605.02065.
* REFERENCE.md R-G3 (statement), R-A9 (zCDP, MGF form).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, eps, lam, positive
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, le, numeric
from theorems.exponential_mechanism_pure_dp import (ZETA, exponential_pair, instances, loss_law, normaliser,
                                                    score_sensitivity)

__all__ = ["theorem", "make", "mutants", "RHO", "two_point_instances"]

RHO = eps ** 2 / 8


def two_point_instances():
    """Score pairs on two candidates with ``S = f(D, u) − f(D', u) = ±1`` and ``P(S = 1) = p``.

    ``f(D, .) = (0, c)`` gives ``p_D(first) = 1/(1 + e^{−εc/2})``; the second score on ``D'`` moves by −1,
    the first by +1: ``S = (−1, 1)``.  The values of ``c`` give p ≈ 1/2 (the extremal law as ε → 0) and
    skewed laws.
    """
    return [([mpmath.mpf(0), mpmath.mpf(c)], [mpmath.mpf(1), mpmath.mpf(c) - 1]) for c in (0, 1, -3, 6)]


def _truth(v, dps):
    e, lm = v[eps], v[lam]
    rows = []
    for j, (f, g) in enumerate(instances()):
        rows.append((f"exponential mechanism, instance #{j} of exponential_mechanism_pure_dp: "
                     "E_P exp(λL) summed over the candidates",
                     mpmath.fsum(w * mpmath.exp(lm * l) for w, l in loss_law(f, g, e))))
    for j, (f, g) in enumerate(two_point_instances()):
        rows.append((f"two candidates, S = ±1 (instance #{j}): E_P exp(λL) summed",
                     mpmath.fsum(w * mpmath.exp(lm * l) for w, l in loss_law(f, g, e))))
    return rows


def make(rho: sp.Expr = RHO) -> Theorem:
    """The exponential mechanism is ``rho``-zCDP as claimed (tests build mutants with a smaller ``rho``)."""
    start = Expect(sp.exp(lam * L))
    bound = sp.exp(lam * (lam + 1) * rho)
    proof = Chain(start).le(bound, numeric())
    return Theorem(
        name="exponential_mechanism_zcdp",
        reference="R-G3",
        source="Cesar & Rogers 2021, arXiv:2004.07223; Steinke 2024, Lemma 3, Cor 7",
        title="exponential mechanism, zCDP",
        variables={eps: positive(sample_lo=1e-3, sample_hi=8, log_scale=True),
                   lam: positive(sample_lo=0.01, sample_hi=20),
                   ZETA: positive(sample_lo=0.5, sample_hi=2)},
        hypotheses=(exponential_pair, normaliser, score_sensitivity),
        parts=(Part("main", le(start, bound), proof=proof, ground_truth=_truth),),
        numeric_points=({"eps": "1", "lam": "0.5"}, {"eps": "0.1", "lam": "3"}, {"eps": "2", "lam": "10"},
                        {"eps": "0.01", "lam": "1"}, {"eps": "0.8", "lam": "0.01"}, {"eps": "5", "lam": "1"}),
        property_examples=20,
        tight="approached as ε → 0 by two candidates with S = ±1 and equal probabilities.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("eps^2/16-zCDP (the bounded-range constant halved)", make(eps ** 2 / 16)),
            ("eps^2/10-zCDP", make(eps ** 2 / 10))]


theorem = make()
