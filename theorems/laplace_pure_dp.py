r"""The Laplace mechanism with sensitivity Δ and scale b is (Δ/b)-DP.

.. math::
    L=\frac{|Y-\nu|-|Y-\mu|}{b},\qquad (\mu-\nu)^2\le\Delta^2
    \quad\Longrightarrow\quad
    \Pr\Big[-\frac{\Delta}{b}\le L\le\frac{\Delta}{b}\Big]=1 .

Parameterization: ``sensitivity`` is the (ℓ1-)sensitivity Δ of a real-valued
``f``; ``M(x) = f(x) + Lap(b)`` with ``scale = b`` (density
:math:`\frac1{2b}e^{-|z|/b}`); :math:`P=\mathrm{Lap}(\mu,b)`, :math:`Q=\mathrm{Lap}(\nu,b)`
with :math:`\mu=f(x)`, :math:`\nu=f(x')`, so :math:`|\mu-\nu|\le\Delta` (hypothesis
``sensitivity``, in the squared form of ``gaussian_zcdp``).  The output is the
random variable ``Y`` (under :math:`P`, :math:`Y\sim\mathrm{Lap}(\mu,b)`), and
the privacy loss :math:`L=\log\frac{p(Y)}{q(Y)}` is, after the normalising
constants :math:`\frac1{2b}` cancel, the hypothesis ``laplace_pair``.  ε-DP is
the statement form of ``pure_dp`` (R-A5, :mod:`theorems.kl_of_pure_dp`):
:math:`|L|\le\varepsilon` almost surely, here with :math:`\varepsilon=\Delta/b`.
It is the half of ε-DP that bounds :math:`P` by :math:`Q`; the other half is
the same theorem with :math:`\mu` and :math:`\nu` exchanged (the hypotheses
are symmetric).  DR14 state it for :math:`b=\Delta/\varepsilon`; Mironov's
``λ`` is ``b`` at Δ = 1.  The vector (ℓ1) version is the same argument
coordinate by coordinate.

Proof (DR14 Thm 3.6): at every output the **reverse triangle inequality**
gives :math:`\big||Y-\nu|-|Y-\mu|\big|\le|\mu-\nu|`, so
:math:`L^2\le(\mu-\nu)^2/b^2\le\Delta^2/b^2`; an event that holds at every
outcome has probability 1.  In the chain: rewrite ``L`` by ``laplace_pair``
inside the probability, and cite ``sure_bound`` with its condition
:math:`L^2\le(\Delta/b)^2` proved for every real value of ``Y`` (squares,
so that every context is non-decreasing).

Tight: the bound is attained with positive probability, :math:`L=\Delta/b` for every
output :math:`Y\le\min(\mu,\nu)` when :math:`\nu-\mu=\Delta` (R-E5: the profile
:math:`\delta(\varepsilon)` vanishes exactly at :math:`\varepsilon\ge\Delta/b`).

Axioms added here: ``reverse_triangle_inequality`` and ``sure_bound`` (both
textbook facts, also used by :mod:`theorems.randomized_response_pure_dp`).

References
----------
* Dwork, McSherry, Nissim & Smith 2006, *Calibrating Noise to Sensitivity in Private Data Analysis*, TCC,
  Prop. 1 (the **Laplace mechanism**).
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 3.6.
* REFERENCE.md R-G1 (statement), R-E5 (exact profile), R-A5 (ε-DP as an almost-sure loss bound).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, X, Y, b, mu, nu, nonnegative, positive, real, sensitivity
from cdpsym.expr.operators import Prob
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, sign
from theorems.foundations_composition import Y1, Y2
from theorems.foundations_convexity import in_range
from theorems.gaussian_zcdp import shift

__all__ = ["theorem", "make", "mutants", "EPS", "laplace_pair", "sensitivity_bound", "reverse_triangle_inequality",
           "sure_bound", "AXIOMS", "loss_probability"]

EPS = sensitivity / b

# the hypothesis ``sensitivity`` of gaussian_zcdp: (mu - nu)**2 <= Delta**2 (the same object, same name and form)
sensitivity_bound = shift

LOSS = (sp.Abs(Y - nu) - sp.Abs(Y - mu)) / b

laplace_pair = Hypothesis(
    name="laplace_pair",
    title="(P, Q) = (Lap(μ, b), Lap(ν, b)): the loss at the output Y is log p(Y)/q(Y) "
          "= (|Y − ν| − |Y − μ|)/b",
    relation=eq(L, LOSS),
)

# -- axioms (the trusted base this theorem adds; theorems/__init__ registers a module's AXIOMS) -------------
#
# A relation between random quantities outside Pr[.] and E[.] holds at every outcome (as the hypotheses
# ``laplace_pair`` and ``gaussian_pair`` do); the random variables Y_1, Y_2 and X below are instantiated
# pointwise.

reverse_triangle_inequality = Axiom(
    name="reverse_triangle_inequality",
    title="the **reverse triangle inequality** ||Y_1| − |Y_2|| ≤ |Y_1 − Y_2|, at every outcome",
    citation="the triangle inequality (Rudin, *Principles of Mathematical Analysis*, 3rd ed., Thm 1.33(e)) "
             "applied twice: |Y_1| <= |Y_1 - Y_2| + |Y_2| and |Y_2| <= |Y_2 - Y_1| + |Y_1|; it holds for all real "
             "values, hence at every outcome",
    relation=le(sp.Abs(sp.Abs(Y1) - sp.Abs(Y2)), sp.Abs(Y1 - Y2)),
    variables={Y1: real(), Y2: real()},
)

c_bound = sp.Symbol("c", nonnegative=True)  # a bound (a number: not a random symbol)

sure_bound = Axiom(
    name="sure_bound",
    title="a random variable with X² ≤ c² at every outcome lies in [−c, c] almost surely",
    citation="for c >= 0, {X^2 <= c^2} = {-c <= X <= c}; an event that is the whole sample space has "
             "probability 1 (Kolmogorov 1933, the normalisation axiom P(Ω) = 1; e.g. Billingsley, *Probability "
             "and Measure*, 3rd ed., §2)",
    relation=eq(Prob(in_range(-c_bound, X, c_bound)), 1),
    variables={X: real(), c_bound: nonnegative()},
    conditions=(le(X ** 2, c_bound ** 2),),
)

AXIOMS = [reverse_triangle_inequality, sure_bound]


# -- ground truth: the probability under P of the event, from the two densities ------------------------------

def _inside(loss, bound):
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)) * max(1, abs(bound))
    return -bound - tol <= loss <= bound + tol


def loss_probability(p, q, kinks, bound):
    """``Pr_{y ~ p}[-bound <= log p(y)/q(y) <= bound]`` for a pair of densities with log-affine pieces.

    Between consecutive ``kinks`` (and on the two rays outside them) both log-densities are affine, so the
    loss is monotone there: each piece is split at the points where the loss crosses ``±bound`` (bisection
    on the loss computed from the densities), the event is decided at the midpoint of every sub-interval,
    and the mass of ``p`` on the sub-intervals in the event is summed by quadrature.
    """
    loss = lambda y: mpmath.log(p(y) / q(y))  # noqa: E731
    kinks = sorted(set(kinks))
    cuts = list(kinks)
    for lo, hi in zip(kinks, kinks[1:]):
        for level in (bound, -bound):
            f = lambda y: loss(y) - level  # noqa: E731
            flo, fhi = f(lo), f(hi)
            if flo * fhi < 0:
                a_, b_ = lo, hi
                for _ in range(int(mpmath.mp.prec) + 10):
                    mid = (a_ + b_) / 2
                    if f(mid) * flo > 0:
                        a_ = mid
                    else:
                        b_ = mid
                cuts.append((a_ + b_) / 2)
    points = [-mpmath.inf] + sorted(cuts) + [mpmath.inf]
    total = mpmath.mpf(0)
    for lo, hi in zip(points, points[1:]):
        if lo == hi:
            continue
        if lo == -mpmath.inf:
            probe = hi - 1
        elif hi == mpmath.inf:
            probe = lo + 1
        else:
            probe = (lo + hi) / 2
        if _inside(loss(probe), bound):
            total += mpmath.quad(p, [lo, hi])
    return total


def _laplace_density(centre, scale):
    return lambda y: mpmath.exp(-abs(y - centre) / scale) / (2 * scale)


def _ground_truth(bound_expr: sp.Expr):
    """Pr_P[|L| <= bound] for the pair at the point (ν clipped to the sensitivity ball) and the worst pair."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import Laplace

        bound = evaluate(bound_expr, v, MPContext(dps))
        m1, m2, s, d = v[mu], v[nu], v[b], v[sensitivity]
        if abs(m1 - m2) > d:
            m2 = m1 + mpmath.sign(m2 - m1) * d
        given = loss_probability(_laplace_density(m1, s), _laplace_density(m2, s), (m1, m2), bound)
        worst = Laplace(sensitivity=sp.Float(str(d), dps + 10), scale=sp.Float(str(s), dps + 10)).densities()
        kinks = [evaluate(k_, {}, MPContext(dps)) for k_ in worst.kinks]
        tight = loss_probability(worst.p, worst.q, kinks, bound)
        return [("Lap(mu, b) vs Lap(nu, b), quadrature over the outputs where |log p/q| <= bound", given),
                ("worst pair of cdpsym.mechanisms.Laplace (|mu - nu| = Delta), same quadrature", tight)]

    return truth


# -- the theorem -------------------------------------------------------------------------------------------

def make(bound: sp.Expr = EPS) -> Theorem:
    """The Laplace mechanism with the claimed pure-DP parameter ``bound`` (tests build mutants)."""
    condition = (
        Chain(LOSS ** 2)
        .eq(sp.Abs(sp.Abs(Y - nu) - sp.Abs(Y - mu)) ** 2 / b ** 2, algebra("b > 0"))
        .le(sp.Abs(mu - nu) ** 2 / b ** 2,
            by(reverse_triangle_inequality, Y_1=Y - nu, Y_2=Y - mu, inside=lambda w: w ** 2 / b ** 2))
        .le(sensitivity ** 2 / b ** 2, by(sensitivity_bound, inside=lambda w: w / b ** 2))
        .le(bound ** 2, sign("the claimed bound squared is at least Δ²/b²"))
    )
    event = lambda e: Prob(in_range(-bound, e, bound))  # noqa: E731
    proof = (
        Chain(event(L))
        .eq(event(LOSS), by(laplace_pair))
        .eq(1, by(sure_bound, X=LOSS, c=bound, given={f"condition {sure_bound.conditions[0].plain()}": condition}))
    )
    return Theorem(
        name="laplace_pure_dp",
        reference="R-G1",
        source="Dwork & Roth 2014, Thm 3.6; Dwork, McSherry, Nissim & Smith 2006",
        title="Laplace mechanism",
        notion="Laplace(sensitivity=Delta, scale=b) is DP(Delta/b)",
        variables={sensitivity: positive(sample_lo=0.01, sample_hi=5),
                   b: positive(sample_lo=0.05, sample_hi=10),
                   mu: real(sample_lo=-5, sample_hi=5),
                   nu: real(sample_lo=-5, sample_hi=5)},
        hypotheses=(sensitivity_bound, laplace_pair),
        parts=(Part("main", eq(event(L), 1), proof=proof, ground_truth=_ground_truth(bound)),),
        numeric_points=({"Delta": "1", "b": "1", "mu": "0", "nu": "1"},
                        {"Delta": "1.3", "b": "0.7", "mu": "0.2", "nu": "-1.1"},
                        {"Delta": "2", "b": "3", "mu": "-1", "nu": "0.5"},
                        {"Delta": "0.5", "b": "0.05", "mu": "3", "nu": "2.5"}),
        property_examples=30,
        tight="|L| = Δ/b with positive probability when |f(x) − f(x')| = Δ (every output beyond both centres).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Δ/(2b): halved", make(sensitivity / (2 * b))),
        ("0.99Δ/b: shrunk by 1%", make(sp.Rational(99, 100) * sensitivity / b)),
        ("√Δ/b: Δ under a square root", make(sp.sqrt(sensitivity) / b)),
        ("Δ/(b + 1): a term added to the scale", make(sensitivity / (b + 1))),
    ]
