r"""Choosing :math:`\rho=\varepsilon^2/(4\log(1/\delta)+4\varepsilon)` makes the zCDP conversion give at most ε; the exact inverse is larger.

.. math::
    \rho_{\mathrm{S22b}}=\frac{\varepsilon^2}{4\log(1/\delta)+4\varepsilon}:\quad
    \rho_{\mathrm{S22b}}+2\sqrt{\rho_{\mathrm{S22b}}\log(1/\delta)}<\varepsilon;\qquad
    \rho^{*}=\big(\sqrt{\log(1/\delta)+\varepsilon}-\sqrt{\log(1/\delta)}\big)^2:\quad
    \rho^{*}+2\sqrt{\rho^{*}\log(1/\delta)}=\varepsilon .

Parts: ``sqrt_gap`` (a step: :math:`\sqrt{\ell+\varepsilon}-\sqrt\ell=\varepsilon/s`), ``sufficient`` (Steinke's footnote: the choice is sufficient -- proved with ``<``, which
REFERENCE states as ``<=``) and ``exact_inverse`` (the ρ that makes the conversion of
``approx_dp_of_zcdp``, R-C4, give exactly ε).  ε > 0, 0 < δ < 1.  Since the conversion
:math:`\rho\mapsto\rho+2\sqrt{\rho\log(1/\delta)}` is increasing, the two parts together say that the
footnote's choice is strictly below the exact inverse :math:`\rho^*` ("not the exact inverse", R-F6):
it is sufficient but wastes privacy budget.

Use (S22b, footnote 2): adding :math:`\mathrm{Lap}(\sqrt{k/(2\rho)})` to each of k sensitivity-1
queries makes each :math:`\varepsilon_j=\sqrt{2\rho/k}`-DP, :math:`\sum_j\varepsilon_j^2=2\rho`, and the
composition is then :math:`(\varepsilon,\delta)`-DP by R-F5 (``approx_dp_advanced_composition_zcdp``)
because of ``sufficient``.  That chain of mechanisms is not restated here: this module is the algebra.

Proof: with :math:`\ell=\log(1/\delta)>0`, :math:`v=\sqrt{\ell/(\ell+\varepsilon)}\in(0,1)` and
:math:`w=\varepsilon/(\ell+\varepsilon)=1-v^2`, the left side of ``sufficient`` is
:math:`\varepsilon\big(\frac{1-v^2}{4}+v\big)=\varepsilon-\frac{\varepsilon(1-v)(3-v)}{4}`, and
:math:`1-v=\frac{w}{1+v}>0`, :math:`3-v=2+\frac{w}{1+v}>0` (REFERENCE's proof with :math:`u=v^2`).
``exact_inverse``: :math:`\sqrt{\ell+\varepsilon}-\sqrt\ell=\varepsilon/s` with
:math:`s=\sqrt{\ell+\varepsilon}+\sqrt\ell`, so :math:`\rho^*+2\sqrt{\rho^*\ell}=\varepsilon(\varepsilon+2\sqrt\ell\,s)/s^2=\varepsilon`.

Ground truth: the ε that the zCDP conversion (R-C4) gives for this ρ, found by bisection on its
δ-for-ε form :math:`e^{-(\varepsilon-\rho)^2/(4\rho)}=\delta` (a root found numerically, not the closed
form), at the ρ each part chooses.

References
----------
* Steinke 2022, *Composition Basics*, DifferentialPrivacy.org, 1 Nov 2022, footnote 2 (seed 002).
* Bun & Steinke 2016, Prop 1.3, arXiv:1605.02065 (the conversion being inverted).
* REFERENCE.md R-F6 (proof [D]), R-C4 (exact inverse), R-H16, ✓N20.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import delta, eps, open_unit, positive
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq, lt, sign

__all__ = ["theorem", "make", "mutants", "RHO_S22B", "RHO_EXACT", "conversion_eps"]

_ell = sp.log(1 / delta)
RHO_S22B = eps ** 2 / (4 * _ell + 4 * eps)
RHO_EXACT = (sp.sqrt(_ell + eps) - sp.sqrt(_ell)) ** 2  # REFERENCE R-C4's exact inverse


def conversion(rho_: sp.Expr) -> sp.Expr:
    """The ε of R-C4 for ρ-zCDP at this δ."""
    return rho_ + 2 * sp.sqrt(rho_ * _ell)


# -- ground truths ----------------------------------------------------------------------------------------------

def _bisect(f, lo, hi):
    """The root of the increasing ``f`` on [lo, hi] (f(lo) < 0 < f(hi)), to the working precision."""
    for _ in range(mpmath.mp.prec + 10):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if f(mid) < 0 else (lo, mid)
    return (lo + hi) / 2


def conversion_eps(r, d):
    """The ε > ρ with exp(−(ε − ρ)²/(4ρ)) = δ (R-C4 in its δ-for-ε form), by bisection on log δ(ε)."""
    target = mpmath.log(d)
    g = lambda e: target + (e - r) ** 2 / (4 * r)  # increasing on (ρ, ∞): 0 at the root
    hi = r + 1
    while g(hi) < 0:
        hi = r + 2 * (hi - r)
    return _bisect(g, r, hi)


def _conversion_truth(rho_claimed: sp.Expr):
    """The conversion's ε at the ρ the statement chooses (evaluated from the statement, then bisection)."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        r = evaluate(rho_claimed, v, MPContext(dps))
        return [("the zCDP conversion's ε at the chosen ρ, by bisection on its δ-for-ε form",
                 conversion_eps(r, v[delta]))]

    return truth


def _gap_truth(v, dps):
    ell = mpmath.log(1 / v[delta])
    with mpmath.workdps(dps + 10 + max(0, int(mpmath.log10(ell / v[eps] + 1)))):  # the difference cancels digits
        return [("sqrt(log(1/delta) + eps) - sqrt(log(1/delta)), evaluated with guard digits",
                 +(mpmath.sqrt(ell + v[eps]) - mpmath.sqrt(ell)))]


# -- the proof -------------------------------------------------------------------------------------------------

_v = sp.sqrt(_ell / (_ell + eps))
_w = eps / (_ell + eps)
_s = sp.sqrt(_ell + eps) + sp.sqrt(_ell)
_GAP = sp.sqrt(_ell + eps) - sp.sqrt(_ell)


def make(rho_s22b: sp.Expr = RHO_S22B, rho_exact: sp.Expr = RHO_EXACT) -> Theorem:
    """The three parts with the claimed choices of ρ (mutants change them)."""
    sufficient = (
        Chain(conversion(rho_s22b))
        .eq(conversion(RHO_S22B), algebra()) if rho_s22b != RHO_S22B else Chain(conversion(rho_s22b))
    )
    sufficient = (
        sufficient
        .eq(eps ** 2 / (4 * (_ell + eps)) + eps * _v, algebra("where l = log(1/δ) and v = √(l/(l + ε)); then √(ε² l/(4(l + ε))) = (ε/2) v"))
        .eq(eps - eps * (_w / (1 + _v)) * (2 + _w / (1 + _v)) / 4,
            algebra("where w = ε/(l + ε) = 1 − v²; then ε((1 − v²)/4 + v) = ε − ε(1 − v)(3 − v)/4"))
        .lt(eps, sign("the subtracted term is a product of positive factors"))
    )
    gap = Part("sqrt_gap", eq(_GAP, eps / _s), proof=Chain(_GAP).eq(eps / _s, algebra("rationalize")),
               ground_truth=_gap_truth)
    exact = (
        Chain(conversion(rho_exact))
        .eq(_GAP ** 2 + 2 * sp.Abs(_GAP) * sp.sqrt(_ell), algebra("√(x² l) = |x| √l, where l = log(1/δ)"))
        .eq((eps / _s) ** 2 + 2 * sp.Abs(eps / _s) * sp.sqrt(_ell),
            by(gap, inside=lambda g: g ** 2 + 2 * sp.Abs(g) * sp.sqrt(_ell)))
        .eq(eps, algebra("where s = √(l + ε) + √l; then s² = ε + 2s√l"))
    )
    return Theorem(
        name="zcdp_rho_calibration",
        reference="R-F6",
        source="Steinke 2022, Composition Basics (DifferentialPrivacy.org), footnote 2; exact inverse: R-C4",
        title="Steinke's calibration of rho for a target (epsilon, delta)",
        variables={eps: positive(sample_lo=1e-3, sample_hi=30, log_scale=True),
                   delta: open_unit(sample_lo=1e-30, sample_hi=0.9, log_scale=True)},
        parts=(gap,
               Part("sufficient", lt(conversion(rho_s22b), eps), proof=sufficient,
                    ground_truth=_conversion_truth(rho_s22b)),
               Part("exact_inverse", eq(conversion(rho_exact), eps), proof=exact, ground_truth=_conversion_truth(rho_exact))),
        numeric_points=({"eps": "1", "delta": "1e-6"}, {"eps": "0.1", "delta": "1e-9"}, {"eps": "10", "delta": "1e-3"},
                        {"eps": "3", "delta": "0.5"}),
        property_examples=30,
        tight="the sufficient ρ is not tight: the exact ρ* is larger (at ε = 1, δ = 1e-6: 0.016874 against "
              "0.017469); the exact inverse is an identity.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    ell = sp.log(1 / delta)
    return [
        ("the ε term of the denominator dropped, ρ = ε²/(4 log(1/δ))", make(rho_s22b=eps ** 2 / (4 * ell))),
        ("factor 2 instead of 4, ρ = ε²/(2 log(1/δ) + 2ε)", make(rho_s22b=eps ** 2 / (2 * ell + 2 * eps))),
    ]
