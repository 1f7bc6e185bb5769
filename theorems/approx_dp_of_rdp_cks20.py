r"""(α, ε)-RDP implies :math:`\big(\varepsilon+\log\frac{\alpha-1}{\alpha}-\frac{\log\delta+\log\alpha}{\alpha-1},\ \delta\big)`-DP
(the CKS20 conversion) — *supported*.

.. math::
    \delta_{P\|Q}\Big(\varepsilon+\log\frac{\alpha-1}{\alpha}-\frac{\log\delta+\log\alpha}{\alpha-1}\Big)\le\delta
    \quad\text{for every pair with } D_\alpha(P\|Q)\le\varepsilon,

equivalently (R-E1) :math:`\delta_{P\|Q}(\varepsilon')\le\frac{e^{(\alpha-1)(\varepsilon-\varepsilon')}}{\alpha-1}(1-\frac1\alpha)^{\alpha}`.

Parameterization: as :mod:`theorems.approx_dp_of_rdp` (the same hypothesis object ``rdp``: the MGF form
:math:`\mathbb E_P[e^{(\alpha-1)L}]\le e^{(\alpha-1)\varepsilon}`, Mironov's RDP parameter written ε);
α > 1, ε > 0, 0 < δ < 1.  For ρ-zCDP take ε = αρ and optimise α (R-E1; the optimised ε is compared with the
other conversions in :mod:`theorems.zcdp_conversion_ordering`).

Verdict: **supported, not proved.**  CKS20's proof needs the expectation form of the hockey-stick divergence,
:math:`\delta_{P\|Q}(\varepsilon')=\mathbb E_P[(1-e^{\varepsilon'-L})_+]` (R-A6, CKS20 §2.3), or at least its
"≤" half.  The library's trusted base has only the weaker tail form (``tail_condition``:
:math:`\delta\le\Pr[L>\varepsilon']`), which loses exactly CKS20's improvement; the expectation form is a DP
lemma, which a theorem module may not add as an axiom.  The rest of the proof is within reach of the kernel:
the pointwise bound :math:`(1-e^{\varepsilon'-z})_+\le c\,e^{(\alpha-1)z}` with
:math:`c=e^{-(\alpha-1)\varepsilon'}(1-1/\alpha)^{\alpha}/(\alpha-1)` (weighted AM–GM), monotonicity and
linearity of expectation, and the RDP bound.  So the chain is one ``numeric`` step (evidence only) and
the statement is checked at 50 digits on the witnesses of :mod:`theorems.approx_dp_of_rdp`: the Gaussian
mechanism with :math:`D_\alpha=\varepsilon` (exact profile, BW18, and quadrature of the definition) and a
two-point pair with :math:`D_\alpha=\varepsilon` exactly, chosen to make :math:`\delta(\varepsilon')` large
(it comes within a small factor of δ: the conversion is nearly tight for two-point pairs).

Tight: optimal among bounds of the form :math:`\delta\le c\,e^{(\alpha-1)\varepsilon}` (step (2) of R-E1 is
exact); improves Mironov's Prop 3 (R-D5) by exactly :math:`\frac{\log\alpha}{\alpha-1}-\log(1-\frac1\alpha)`
(proved in :mod:`theorems.zcdp_conversion_ordering`, part ``cks20_lt_mironov``).

References
----------
* Canonne, Kamath & Steinke 2020, *The Discrete Gaussian for Differential Privacy*, Prop 12, arXiv:2004.00010v4.
* Balle, Barthe, Gaboardi, Hsu & Sato 2020, Thm 21, arXiv:1905.09982 (the same bound).
* REFERENCE.md R-E1, R-A6; ✓N10, ✓N11.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import alpha, delta, eps, greater_than, open_unit, positive
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.proof import Chain, Part, Theorem, le, numeric
from theorems.approx_dp_of_rdp import _witness, rdp

__all__ = ["theorem", "make", "mutants", "EPSILON"]

EPSILON = eps + sp.log((alpha - 1) / alpha) - (sp.log(delta) + sp.log(alpha)) / (alpha - 1)


def make(epsilon: sp.Expr = EPSILON) -> Theorem:
    """The conversion with the ε' it claims (tests build mutants with a smaller one)."""
    lhs = HockeyStick(epsilon, P, Q)
    return Theorem(
        name="approx_dp_of_rdp_cks20",
        reference="R-E1",
        source="Canonne, Kamath & Steinke 2020, Prop 12, arXiv:2004.00010v4",
        title="RDP to approximate DP (CKS20)",
        variables={alpha: greater_than(1, sample_lo=1.5, sample_hi=64, log_scale=True),
                   eps: positive(sample_lo=1e-2, sample_hi=10, log_scale=True),
                   delta: open_unit(sample_lo=1e-12, sample_hi=1e-2, log_scale=True)},
        hypotheses=(rdp,),
        parts=(Part("main", le(lhs, delta), proof=Chain(lhs).le(delta, numeric()), ground_truth=_witness(epsilon)),),
        numeric_points=({"alpha": "2", "eps": "0.5", "delta": "1e-6"}, {"alpha": "32", "eps": "1", "delta": "1e-5"},
                        {"alpha": "5.9", "eps": "2.95", "delta": "1e-6"}),
        property_examples=6,
        tight="optimal among bounds c·e^{(α−1)ε} (R-E1 step (2) is exact); not tight for a given mechanism.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("the log(1/δ)/(α − 1) term halved",
         make(eps + sp.log((alpha - 1) / alpha) - (sp.log(delta) / 2 + sp.log(alpha)) / (alpha - 1))),
        ("ε' − 1: one nat less", make(EPSILON - 1)),
    ]
