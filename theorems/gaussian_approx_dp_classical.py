r"""The classical Gaussian calibration σ = cΔ/ε, :math:`c^2=2\log(1.25/\delta)`, against the exact profile: valid
for ε < 1, and where it fails — *certified* on stated boxes.

.. math::
    \delta_{\mathcal G}\Big(\varepsilon;\ \Delta,\ \sigma=\frac{c\,\Delta}{\varepsilon}\Big)\ \le\ \tfrac54\,e^{-c^2/2}
    \quad\text{for } \varepsilon\in(0,1),\ c\in\big(\sqrt{2\log(5/4)},\,12\big],

where :math:`\delta_{\mathcal G}(\varepsilon;\Delta,\sigma)=\Phi(\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}{\Delta})
-e^{\varepsilon}\Phi(-\frac{\Delta}{2\sigma}-\frac{\varepsilon\sigma}{\Delta})` is the exact privacy profile of
the Gaussian mechanism (BW18 Thm 8; :mod:`theorems.gaussian_approx_dp_exact`, R-E4), and
:math:`\tfrac54e^{-c^2/2}` is the δ with :math:`c^2=2\log(1.25/\delta)`.  With σ = cΔ/ε the ratio
Δ/σ = ε/c, so Δ drops out of the statement.

Parameterization.  DR14's hypotheses are ε ∈ (0, 1), δ ∈ (0, 1), :math:`c^2>2\log(1.25/\delta)`,
σ ≥ cΔ/ε.  For a given c the least δ they allow is :math:`\delta(c)=\frac54e^{-c^2/2}` (the boundary;
δ < 1 iff :math:`c>\sqrt{2\log(5/4)}=0.668`), and :math:`\delta_{\mathcal G}\le\delta(c)\le\delta` for every
admissible δ, so the statement at the boundary is DR14's conclusion at σ = cΔ/ε — the seeds' form
:math:`\sigma=\sqrt{2\log(1.25/\delta)}\,\Delta/\varepsilon`, written in c so that no logarithm of δ
(whose sign the kernel would have to prove on every box) appears.  The box stops at c = 12, i.e.
δ ≥ 1.25e^-72 ≈ 6.9e-32.  *Not* encoded: σ > cΔ/ε (the profile decreases in σ — REFERENCE R-E4's
proof — but that monotonicity is not a part here).

Parts
-----
* ``main`` (DR14 Thm 3.22's range): the inequality above on the whole box.
* ``beyond_one``: at δ = 1e-5 (c = √(2 log 125000)) it still holds for ε' ∈ [1, 8.375] — the hypothesis
  ε < 1 is sufficient, not necessary (REFERENCE: the threshold is ε*(1e-5) = 8.420).
* ``fails_above``: at δ = 1e-5 it fails for every ε'' ∈ [8.4375, 20]:
  :math:`\delta-\delta_{\mathcal G}<0` there (REFERENCE's counterexample ε = 10, where
  :math:`\delta_{\mathcal G}=2.26537\times10^{-5}`, lies inside).  The seeds that drop the hypothesis
  ε < 1 state a false theorem.

Verdict: **certified** (kernel rule ``interval``: Arb branch-and-bound over boxes that cover the declared
domains).  What is certified is the inequality between closed forms; that the left side *is* the
mechanism's hockey-stick divergence is R-E4, which is only *supported* (see
:mod:`theorems.gaussian_approx_dp_exact`).  So "the classical mechanism is (ε, δ)-DP" rests on R-E4 as
evidence; the kernel does not prove it.  (DR14's own proof bounds the tail Pr[|L| > ε] ≤ δ by the
Gaussian tail and uses ε < 1 in its algebra; it is not reproduced.)

Ground truth (each part's left side): quadrature of the hockey-stick divergence of
:math:`\mathcal N(0,\sigma^2)` and :math:`\mathcal N(\Delta,\sigma^2)` from the densities
(``gaussian_approx_dp_exact.definition_by_quadrature``), never the closed form.

References
----------
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 3.22 and Appendix A (Thm A.1).
* Balle & Wang 2018, Thm 1 (the classical statement) and Thm 8 (the exact profile), arXiv:1805.06530v2.
* REFERENCE.md R-G2 (statement, counterexample, thresholds ε*(δ)), R-E4, ✓N8.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import eps, eps_p, positive, sensitivity
from cdpsym.expr.domains import Interval
from cdpsym.proof import Chain, Part, Theorem, interval, le, lt
from theorems.gaussian_approx_dp_exact import definition_by_quadrature, profile

__all__ = ["theorem", "make", "mutants", "c", "eps_hi", "SIGMA", "DELTA_OF_C", "C_LO", "C_HI", "DELTA_FIXED"]

c = sp.Symbol("c", positive=True)  # DR14's constant: sigma = c Delta / eps
eps_hi = sp.Symbol("eps_hi", positive=True)  # the variable of the failure part (distinct from eps_p)

SIGMA = c * sensitivity / eps  # DR14's calibration
DELTA_OF_C = sp.Rational(5, 4) * sp.exp(-c ** 2 / 2)  # the delta with c^2 = 2 log(1.25/delta)
C_LO = sp.sqrt(2 * sp.log(sp.Rational(5, 4)))  # delta < 1  <=>  c > C_LO
C_HI = 12  # delta >= 1.25 e^-72 = 6.9e-32
C_BOX_LO = sp.Rational(171, 256)  # dyadic, just below C_LO = 0.668047...: the box contains the domain
DELTA_FIXED = sp.Rational(1, 10 ** 5)  # REFERENCE's counterexample delta
C_FIXED = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / DELTA_FIXED))
EPS_BEYOND = sp.Rational(67, 8)  # 8.375 < eps*(1e-5) = 8.420 (dyadic box ends: Arb encloses them exactly)
EPS_FAIL = sp.Rational(135, 16)  # 8.4375 > eps*(1e-5)


def _number(x):
    from cdpsym.expr.evaluate import MPContext, evaluate

    return evaluate(sp.sympify(x), {}, MPContext(mpmath.mp.dps))


def _truth(sigma_expr: sp.Expr, e_sym: sp.Symbol, c_value, difference: bool = False):
    """The part's left side from the quadrature of the hockey-stick divergence of N(0, sigma^2), N(Delta, sigma^2)
    (sigma evaluated from the calibration rule at the point), never from the profile formula."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        values = dict(v)
        values[c] = v[c] if c_value is None else _number(c_value)
        values[eps] = v[e_sym]
        s = evaluate(sigma_expr, values, MPContext(dps + 20))
        with mpmath.workdps(dps + 20):
            value = definition_by_quadrature(v[sensitivity], s, v[e_sym])
        what = "quadrature of int (p - e^eps q)_+ for N(0, sigma^2) vs N(Delta, sigma^2), sigma by the calibration"
        if difference:
            return [("1e-5 minus the " + what, +(_number(DELTA_FIXED) - value))]
        return [(what, +value)]

    return truth


def make(sigma_expr: sp.Expr = SIGMA, delta_of_c: sp.Expr = DELTA_OF_C) -> Theorem:
    """The calibration ``sigma_expr`` (in c, Delta, eps) with the claimed ``delta_of_c`` (tests build mutants)."""
    lhs = profile(sensitivity, sigma_expr, eps)
    fixed = lambda e: profile(sensitivity, sigma_expr.subs({c: C_FIXED, eps: e}), e)  # noqa: E731
    main = Part("main", le(lhs, delta_of_c),
                proof=Chain(lhs).le(delta_of_c, interval({eps: (0, 1), c: (C_BOX_LO, C_HI)})),
                ground_truth=_truth(sigma_expr, eps, None))
    beyond = Part("beyond_one", le(fixed(eps_p), DELTA_FIXED),
                  variables={eps_p: Interval.closed(1, EPS_BEYOND)},
                  proof=Chain(fixed(eps_p)).le(DELTA_FIXED, interval({eps_p: (1, EPS_BEYOND)})),
                  ground_truth=_truth(sigma_expr, eps_p, C_FIXED))
    fails = Part("fails_above", lt(DELTA_FIXED - fixed(eps_hi), 0),
                 variables={eps_hi: Interval.closed(EPS_FAIL, 20)},
                 proof=Chain(DELTA_FIXED - fixed(eps_hi)).lt(0, interval({eps_hi: (EPS_FAIL, 20)})),
                 ground_truth=_truth(sigma_expr, eps_hi, C_FIXED, difference=True))
    return Theorem(
        name="gaussian_approx_dp_classical",
        reference="R-G2",
        source="Dwork & Roth 2014, Thm 3.22 and Thm A.1; Balle & Wang 2018, Thm 1 and Thm 8, arXiv:1805.06530v2",
        title="classical calibration of the Gaussian mechanism",
        variables={eps: Interval.open(0, 1, sample_lo=1e-3, sample_hi=0.999),
                   c: Interval(C_LO, sp.Integer(C_HI), True, False, sample_lo=0.67, sample_hi=12),
                   sensitivity: positive(sample_lo=0.1, sample_hi=10)},
        parts=(main, beyond, fails),
        numeric_points=({"eps": "0.999", "c": "4.8448048", "Delta": "1", "eps_p": "8.375", "eps_hi": "10"},
                        {"eps": "0.5", "c": "4.8448048", "Delta": "2", "eps_p": "5", "eps_hi": "8.4375"},
                        {"eps": "0.1", "c": "12", "Delta": "1", "eps_p": "1", "eps_hi": "20"},
                        {"eps": "0.999", "c": "0.67", "Delta": "0.3", "eps_p": "2", "eps_hi": "12"},
                        {"eps": "0.999", "c": "1.3", "Delta": "1", "eps_p": "8", "eps_hi": "9"}),
        property_examples=20,
        tight="not tight where it holds (e.g. at ε = 1, δ = 1e-5 the exact δ of the calibrated mechanism is "
              "δ_G = 4.11e-8); at δ = 1e-5 it fails exactly above ε ≈ 8.420 (REFERENCE R-G2).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("σ = cΔ/(2ε): half the noise", make(SIGMA / 2)),
        ("δ = 1.25 e^(-c²): the claimed δ squared-down", make(SIGMA, sp.Rational(5, 4) * sp.exp(-c ** 2))),
        ("c² = log(1.25/δ) for 2 log(1.25/δ): the factor 2 dropped", make(SIGMA / sp.sqrt(2))),
    ]
