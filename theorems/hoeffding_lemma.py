r"""**Hoeffding's lemma**: a mean-zero variable with values in [a, b] is (b − a)/2-subgaussian.

.. math::
    \mathbb E X = 0,\ \ \Pr[a\le X\le b]=1
    \quad\Longrightarrow\quad
    \mathbb E\big[e^{\lambda X}\big]\le e^{\lambda^2(b-a)^2/8}\qquad\text{for every }\lambda\in\mathbb R .

Parameterization: ``X`` is any real random variable (a variable of the
theorem, so a citing proof may instantiate it, e.g. at a centred privacy loss
``L - E[L]``); ``a < 0 < b`` are the variable domains.  The degenerate cases
are excluded only for the proof's sake: ``a = 0`` or ``b = 0`` with
``E X = 0`` forces ``X = 0`` a.s., where the bound is ``1 <= e^{…}``.
"Subgaussian" is Dwork–Rothblum's (R-A7): ``E e^{λX} <= e^{λ²τ²/2}`` with
``τ = (b − a)/2``.

Proof (DR16 Lemma 3.6; Hoeffding 1963): the **chord bound** for the convex
x ↦ e^{λx} on [a, b], in expectation; linearity of expectation and
``E X = 0`` leave the MGF of the mean-zero two-point law on {a, b},
``(b e^{λa} − a e^{λb})/(b − a)``.  With ``h = λ(b − a)`` and
``p = −a/(b − a) ∈ (0, 1)`` this is ``e^{φ(h)}``,
``φ(v) = −pv + log(1 − p + pe^v)``, and **Taylor's theorem** with
``φ(0) = φ'(0) = 0`` and ``φ'' = p(1−p)e^v/(1−p+pe^v)² <= 1/4`` (the kernel
proves the last bound symbolically) gives ``φ(h) <= h²/8``.

Parts of ``theorem`` (later parts cite earlier ones):

* ``exponent`` — ``φ(h) <= h²/8`` (the Taylor step);
* ``two_point`` — ``(b e^{λa} − a e^{λb})/(b − a) <= e^{λ²(b−a)²/8}``, the
  lemma for the extremal two-point law;
* ``main`` — Hoeffding's lemma (R-B12); cite it as
  ``by(theorem.part("main"), X=…, a=…, b=…, lam=…)``.

The domains ``a < 0 < b`` are discharged at a citation like any other
obligation: by a sign argument, or by a chain from proved facts passed as
``given={"a": chain, "b": chain}`` (``cdp_of_pure_dp_hoeffding`` cites the
lemma at ``X = L − E[L]``, ``a = −ε − E[L]``, ``b = ε − E[L]`` and proves
``a < 0 < b`` from Gibbs' inequality and ``kl_of_pure_dp``).

Tight: the two-point law on {a, b} is extremal for the chord step; the
constant 1/8 is attained as λ → 0 for the symmetric law on {−c, c}
(Rademacher, R-B12).

References
----------
* Dwork & Rothblum 2016, Lemma 3.6, arXiv:1603.01887v2.
* Hoeffding 1963, *Probability inequalities for sums of bounded random variables*, JASA 58, eq. (4.16).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import X, a, b, lam, positive, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect, Prob
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, taylor
from theorems.foundations_convexity import exp_chord_bound, expectation_affine, in_range

__all__ = ["theorem", "make", "mutants", "mean_zero", "in_interval", "phi", "TWO_POINT_MGF"]

SOURCE = "Dwork & Rothblum 2016, Lemma 3.6, arXiv:1603.01887v2 (Hoeffding 1963, eq. 4.16)"

# -- the real-variable core -----------------------------------------------------------------------

_p = -a / (b - a)  # the weight of b in the mean-zero law on {a, b}
_h = lam * (b - a)


def phi(v: sp.Expr) -> sp.Expr:
    """``φ(v) = −pv + log(1 − p + pe^v)``, ``p = −a/(b−a)``: the two-point log-MGF at ``λ = v/(b−a)``."""
    return -v * _p + sp.log(1 - _p + _p * sp.exp(v))


TWO_POINT_MGF = (b * sp.exp(lam * a) - a * sp.exp(lam * b)) / (b - a)
BOUND = sp.exp(lam ** 2 * (b - a) ** 2 / 8)


def _domains() -> dict:
    return {lam: real(sample_lo=-6, sample_hi=6),
            a: Interval(sp.S.NegativeInfinity, sp.S.Zero, True, True, sample_lo=-4, sample_hi=-0.01),
            b: positive(sample_lo=0.01, sample_hi=4)}


def _two_point_law(lo, hi):
    """Atoms and weights of the mean-zero law on {lo, hi}."""
    w_hi = -lo / (hi - lo)
    return [(lo, 1 - w_hi), (hi, w_hi)]


def _three_point_law(lo, hi, c, w_c):
    """Atoms and weights of the mean-zero law on {lo, c, hi} with weight ``w_c`` at ``c``."""
    # w_lo + w_hi = 1 - w_c and w_lo*lo + w_hi*hi = -w_c*c
    w_hi = (-w_c * c - (1 - w_c) * lo) / (hi - lo)
    law = [(lo, 1 - w_c - w_hi), (c, w_c), (hi, w_hi)]
    assert all(w >= 0 for _, w in law) and abs(sum(w * x for x, w in law)) < mpmath.mpf(10) ** (-mpmath.mp.dps + 5)
    return law


def _mgf(law, lm):
    return mpmath.fsum(w * mpmath.exp(lm * x) for x, w in law)


def _laws(lo, hi):
    """Mean-zero laws on [lo, hi]: the two-point law (extremal) and two three-point laws."""
    mid = (lo + hi) / 2
    room = -lo if mid > 0 else hi  # keeps the three-point weights non-negative
    return [("two-point law on {a, b}", _two_point_law(lo, hi)),
            ("three-point law on {a, 0, b}, weight 1/2 at 0",
             _three_point_law(lo, hi, mpmath.mpf(0), mpmath.mpf(1) / 2)),
            ("three-point law on {a, (a+b)/2, b}", _three_point_law(lo, hi, mid, room / (room + abs(mid)) / 2))]


# -- Hoeffding's lemma ----------------------------------------------------------------------------------------

mean_zero = Hypothesis(name="mean_zero", title="X has mean zero", relation=eq(Expect(X), 0))
in_interval = Hypothesis(name="range", title="X ∈ [a, b] almost surely", relation=eq(Prob(in_range(a, X, b)), 1))

# the chord of exp(λx) on [a, b], written as c1*X + c0 for linearity of expectation
_c1 = (sp.exp(lam * b) - sp.exp(lam * a)) / (b - a)
_c0 = TWO_POINT_MGF
_CHORD = Expect(((b - X) * sp.exp(lam * a) + (X - a) * sp.exp(lam * b)) / (b - a))


def _chord_steps(start: sp.Expr) -> Chain:
    """E e^{λX} <= E[chord] = c1 E[X] + c0 = c0: the chord bound, linearity and E X = 0."""
    return (Chain(start)
            .le(_CHORD, by(exp_chord_bound))
            .eq(_c1 * Expect(X) + _c0, by(expectation_affine, a=_c1, b=_c0))
            .eq(_c0, by(mean_zero)))


def _exponent_truth(v, dps):
    return [("log E exp(λX), two-point law on {a, b}", mpmath.log(_mgf(_two_point_law(v[a], v[b]), v[lam])))]


def _two_point_truth(v, dps):
    return [("two-point law on {a, b}, E exp(λX) summed", _mgf(_two_point_law(v[a], v[b]), v[lam]))]


def _hoeffding_truth(v, dps):
    lo, hi, lm = v[a], v[b], v[lam]
    if not lo < 0 < hi:  # no mean-zero law lives on [a, b]: the statement is vacuous there
        return []
    return [(name, _mgf(law, lm)) for name, law in _laws(lo, hi)]


_POINTS = ({"lam": "1.3", "a": "-1", "b": "3"}, {"lam": "-4", "a": "-0.2", "b": "0.7"},
           {"lam": "0.001", "a": "-2", "b": "2"}, {"lam": "25", "a": "-0.5", "b": "0.1"})


def make(constant: sp.Expr = sp.Rational(1, 8)) -> Theorem:
    """Hoeffding's lemma with ``constant`` in ``e^{constant·λ²(b−a)²}`` (tests build mutants).

    Parts: ``exponent`` (the Taylor step), ``two_point`` (the lemma for the extremal two-point law) and
    ``main`` (the lemma); the later parts cite the earlier ones.
    """
    exponent = Part("exponent", le(phi(_h), _h ** 2 / 8),
                    title="the exponent: phi(h) <= h²/8 (Taylor's theorem, phi'' <= 1/4)",
                    proof=Chain(phi(_h)).le(_h ** 2 / 8, taylor(phi, _h, sp.Rational(1, 4))),
                    ground_truth=_exponent_truth)
    two_point = Part("two_point", le(TWO_POINT_MGF, BOUND),
                     title="Hoeffding's lemma for the mean-zero two-point law on {a, b}",
                     proof=(Chain(TWO_POINT_MGF)
                            .eq(sp.exp(phi(_h)),
                                algebra("exp(lam a) (1 - p + p exp(h)) with h = lam (b - a), p = -a/(b - a)"))
                            .le(sp.exp(_h ** 2 / 8), by(exponent, inside=sp.exp))
                            .eq(BOUND, algebra())),
                     ground_truth=_two_point_truth)
    start = Expect(sp.exp(lam * X))
    bound = sp.exp(constant * lam ** 2 * (b - a) ** 2)
    main = Part("main", le(start, bound),
                proof=_chord_steps(start).le(BOUND, by(two_point)).eq(bound, algebra()),
                ground_truth=_hoeffding_truth)
    return Theorem(
        name="hoeffding_lemma",
        reference="R-B12",
        source=SOURCE,
        title="Hoeffding's lemma",
        variables={**_domains(), X: real()},
        hypotheses=(mean_zero, in_interval),
        parts=(exponent, two_point, main),
        numeric_points=_POINTS,
        property_examples=40,
        tight="the two-point law on {a, b} is extremal for the chord step; 1/8 is attained as λ → 0 for a = −b.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("constant 1/16 for 1/8", make(constant=sp.Rational(1, 16))),
        ("constant 1/9 for 1/8", make(constant=sp.Rational(1, 9))),
        ("exponent λ²(b − a)/8: the square on b − a dropped", make(constant=1 / (8 * (b - a)))),
    ]
