r"""ρ-zCDP implies (ε, δ)-DP with the refined δ of BS16 Lemma 3.6 (the √(πρ) factor) — *supported*.

.. math::
    \delta_{P\|Q}(\varepsilon)\le e^{-\frac{(\varepsilon-\rho)^2}{4\rho}}
    \min\Big\{\sqrt{\pi\rho},\ \frac1{1+a},\ \frac{2}{1+a+\sqrt{(1+a)^2+\frac{4}{\pi\rho}}}\Big\},
    \qquad a=\frac{\varepsilon-\rho}{2\rho},\quad \varepsilon>\rho .

Parameterization: ρ-zCDP in the MGF form of R-A9 (the hypothesis object ``zcdp`` of
:mod:`theorems.approx_dp_of_zcdp`), ρ > 0, ε > ρ.  REFERENCE R-C5 states it for (ξ, ρ)-zCDP with
ε ≥ ξ + ρ; this module encodes ξ = 0 (strict ε > ρ).

Verdict: **supported, not proved.**  REFERENCE's derivation needs the integral form of the hockey-stick
divergence, :math:`\delta=\int_\varepsilon^\infty e^{\varepsilon-z}\Pr[L>z]\,dz` (R-A6, integration by
parts of the expectation form), and three Mills-ratio bounds on :math:`\bar\Phi(x)e^{x^2/2}`.  The library's
trusted base has only the tail form (``tail_condition``), and the integral form is a DP lemma that a
theorem module may not add as an axiom; so the chain is one ``numeric`` step (evidence only).  That this
bound lies below BS16 Prop 1.3's :math:`e^{-(\varepsilon-\rho)^2/(4\rho)}` is *proved* in
:mod:`theorems.zcdp_conversion_ordering` (part ``lemma36_le_prop13``).

Checked at 50 digits against the tight zCDP witness, the Gaussian mechanism with
:math:`\Delta^2/(2\sigma^2)=\rho` (its δ(ε) by quadrature of the definition and by BW18's exact profile,
R-E4).  The Gaussian's δ is 7-38% of the bound at the numeric points (e.g. 4.71e-5 vs 4.72e-4 at ρ = 0.5,
ε = 4), so the check catches a bound too small by a factor 3 or a wrong exponent, not a small
relative error: it is evidence for the statement, not a sharp test of its constants.

Not tight in general (it uses only the tail bound of R-C3).

References
----------
* Bun & Steinke 2016, Lemma 3.6, arXiv:1605.02065 (as reproduced in third-party accounting code; re-derived
  in REFERENCE R-C5 [D]).
* REFERENCE.md R-C5 (statement and derivation), R-A6, R-E7; ✓N35, ✓N9.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import eps, greater_than, positive
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.expr.symbols import rho
from cdpsym.proof import Chain, Part, Theorem, le, numeric
from theorems.approx_dp_of_zcdp import zcdp
from theorems.gaussian_approx_dp_exact import definition_by_quadrature
from theorems.zcdp_conversion_ordering import lemma36_delta

__all__ = ["theorem", "make", "mutants", "DELTA"]

DELTA = lemma36_delta()  # the same expression as the ordering theorem's left side (one source of truth)


def _gaussian_witness(v, dps):
    """δ(ε) of the Gaussian mechanism with ρ = Δ²/(2σ²) (Δ = 1): quadrature of the definition, and BW18."""
    from cdpsym.mechanisms import Gaussian

    r, e = v[rho], v[eps]
    with mpmath.workdps(dps + 20):
        sigma = 1 / mpmath.sqrt(2 * r)
        quad = definition_by_quadrature(mpmath.mpf(1), sigma, e)
    exact = Gaussian(sensitivity=1, sigma=sp.Float(mpmath.nstr(sigma, dps + 15), dps + 15)).delta(e, dps=dps)
    return [("Gaussian(sensitivity=1, sigma=1/sqrt(2 rho)), quadrature of int (p - e^eps q)_+", +quad),
            ("Gaussian(sensitivity=1, sigma=1/sqrt(2 rho)), exact profile (BW18)", exact)]


def make(bound: sp.Expr = DELTA) -> Theorem:
    """The conversion with the δ it claims (tests build mutants with a smaller one)."""
    lhs = HockeyStick(eps, P, Q)
    return Theorem(
        name="approx_dp_of_zcdp_refined",
        reference="R-C5",
        source="Bun & Steinke 2016, Lemma 3.6, arXiv:1605.02065",
        title="zCDP to approximate DP, refined (BS16 Lemma)",
        variables={rho: positive(sample_lo=1e-3, sample_hi=5, log_scale=True),
                   eps: greater_than(rho, sample_hi=30)},
        hypotheses=(zcdp,),
        parts=(Part("main", le(lhs, bound), proof=Chain(lhs).le(bound, numeric()), ground_truth=_gaussian_witness),),
        numeric_points=({"rho": "0.5", "eps": "4"}, {"rho": "0.01", "eps": "0.8"}, {"rho": "2", "eps": "11"},
                        {"rho": "0.125", "eps": "1.4"}, {"rho": "3", "eps": "3.1"}),
        property_examples=10,
        tight="not tight; the Gaussian mechanism reaches 7-38% of it at the numeric points.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("the bound divided by 3", make(DELTA / 3)),
        ("e^(−(ε−ρ)²/(2ρ)): the 4 halved in the exponent", make(DELTA * sp.exp(-(eps - rho) ** 2 / (4 * rho)))),
    ]
