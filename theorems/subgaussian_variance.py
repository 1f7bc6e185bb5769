r"""A :math:`\tau`-subgaussian variable has mean 0 and variance at most :math:`\tau^2`.

.. math::
    \mathbb E[X]=0,\qquad \operatorname{Var}(X)=\mathbb E[X^2]\le\tau^2
    \qquad\text{whenever}\quad \mathbb E[e^{\lambda X}]\le e^{\lambda^2\tau^2/2}\ \text{for every real }\lambda .

Parameterization: :math:`X` is :math:`\tau`-subgaussian in the sense of Dwork–Rothblum (R-A7), the hypothesis
``subgaussian`` of :mod:`theorems.subgaussian_concentration`.  The mean is stated as the two parts
:math:`\mathbb E[X]\le0` and :math:`-\mathbb E[X]\le0`; the variance
as :math:`\mathbb E[X^2]\le\tau^2` (part ``second_moment``): with the mean 0 this is
:math:`\operatorname{Var}(X)=\mathbb E[X^2]-(\mathbb E X)^2\le\tau^2`.  (The kernel does not combine the two mean parts
into an equation, and cannot show :math:`(\mathbb E X)^2\ge0` for an expectation that may be infinite, so the
subtraction is left to the reader.)

Proof (DR16 expand the MGF bound at :math:`\lambda\to0`; here without series, as inequalities valid for every
:math:`\eta\in(0,1)` and one passage to the limit):

* ``second_moment``: :math:`x^2\le e^x+e^{-x}-2` for every real x (lemma ``cosh_quadratic_bound``, by Taylor's
  bound), at :math:`x=\eta X`, in expectation (**monotonicity of expectation**, a kernel rule);
  **additivity of expectation** for non-negative variables; the hypothesis at :math:`\lambda=\eta` and
  :math:`\lambda=-\eta`: :math:`\mathbb E[X^2]\le 2(e^{u}-1)/\eta^2=\tau^2(e^u-1)/u` with :math:`u=\eta^2\tau^2/2`;
  :math:`e^u-1\le ue^u` for :math:`u\ge0` (lemma ``expm1_bound``, by monotonicity) gives
  :math:`\mathbb E[X^2]\le\tau^2e^{\eta^2\tau^2/2}` for every :math:`\eta\in(0,1)`, and
  :math:`\eta\to0` (the kernel rule ``limit``: the bound is continuous at 0) gives :math:`\tau^2`.
* ``mean_upper``: :math:`x\le e^x-1` (lemma ``exp_tangent_bound``) at :math:`x=\eta X`:
  :math:`\eta\,\mathbb E[X]\le e^{\eta^2\tau^2/2}-1`, so
  :math:`\mathbb E[X]\le(\eta\tau^2/2)e^{\eta^2\tau^2/2}\to0`; ``mean_lower`` the same at :math:`-X`.

Tight: :math:`N(0,\tau^2)`, :math:`\tau` times a Rademacher sign, and the uniform law on
:math:`[-\sqrt3\tau,\sqrt3\tau]` (whose MGF :math:`\sinh(a\lambda)/(a\lambda)\le e^{\lambda^2a^2/6}`) all have
:math:`\mathbb E[X^2]=\tau^2`.  The ground truth computes their moments by quadrature and exact sums.

Axiom added here: ``expectation_sum_nonnegative`` (additivity of expectation for non-negative random variables,
in :math:`[0,\infty]`).

References
----------
* Dwork & Rothblum 2016, Fact 2.1, arXiv:1603.01887v2.
* Billingsley, *Probability and Measure*, 3rd ed., §16 (the integral of non-negative functions is additive and
  monotone).
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from cdpsym.expr import X, nonnegative, positive, real, tau
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect
from cdpsym.proof import Axiom, Chain, Part, Theorem, algebra, by, eq, le, limit, monotone, taylor
from theorems.foundations_composition import Y1, Y2
from theorems.foundations_convexity import expectation_affine
from theorems.subgaussian_concentration import subgaussian

__all__ = ["theorem", "make", "mutants", "LEMMAS", "AXIOMS", "expectation_sum_nonnegative", "cosh_quadratic_bound",
           "exp_tangent_bound", "expm1_bound"]

u = sp.Symbol("u", nonnegative=True)
#: the chain variable of the passage to the limit (positive, so that dividing by it is seen to be allowed)
lam = sp.Symbol("eta", positive=True)

expectation_sum_nonnegative = Axiom(
    name="expectation_sum_nonnegative",
    title="**additivity of expectation** for non-negative random variables: E[Y_1 + Y_2] = E[Y_1] + E[Y_2]",
    citation="Billingsley, *Probability and Measure*, 3rd ed., §16 (linearity of the integral of non-negative "
             "functions, values in [0, ∞])",
    relation=eq(Expect(Y1 + Y2), Expect(Y1) + Expect(Y2)),
    variables={Y1: real(), Y2: real()},
    conditions=(le(0, Y1), le(0, Y2)),
)
# No ground truth: a statement about arbitrary random variables; tests check it on random finite laws.

AXIOMS = [expectation_sum_nonnegative]


# -- three elementary lemmas -------------------------------------------------------------------------------------------

_C = X ** 2 - sp.exp(X) - sp.exp(-X)  # g(X) for Taylor: g(0) = -2, g'(0) = 0, g'' = 2 - e^X - e^-X <= 0
_COSH = sp.exp(X) + sp.exp(-X) - 2
_T = X - sp.exp(X)  # g(0) = -1, g'(0) = 0, g'' = -e^X <= 0
_POINTS_X = ({"X": "0.7"}, {"X": "-2"}, {"X": "1e-3"})
_TAYLOR = "Taylor's theorem with the Lagrange remainder (Rudin 1976, Thm 5.15)"


def _closing(chain: Chain, proved: sp.Expr, claimed: sp.Expr) -> Chain:
    """The chain, with a last identity step only when the claimed bound is not the one proved (a mutant)."""
    return chain if claimed == proved else chain.eq(claimed, algebra())


def _at_x(f):
    """A ground truth: the left side at the point, evaluated by mpmath from its definition."""
    return lambda v, dps: [("mpmath", f(v[X]))]


def make_cosh_lemma(bound: sp.Expr = _COSH) -> Theorem:
    """``X² <= bound`` (the library lemma has ``e^X + e^-X - 2``)."""
    taylor_part = Part("taylor", le(_C, -2),
                       proof=Chain(_C).le(sp.S(-2), taylor(lambda h: h ** 2 - sp.exp(h) - sp.exp(-h), X, 0)),
                       ground_truth=_at_x(lambda x: x ** 2 - 2 * mpmath.cosh(x)))
    return Theorem(
        name="cosh_quadratic_bound", reference="R-B3", source=_TAYLOR,
        title="quadratic lower bound of the hyperbolic cosine",
        variables={X: real(sample_lo=-8, sample_hi=8)},
        parts=(taylor_part,
               Part("main", le(X ** 2, bound),
                    proof=_closing(Chain(X ** 2).le(_COSH, by(taylor_part,
                                                                 inside=lambda w: w + sp.exp(X) + sp.exp(-X))),
                                   _COSH, bound),
                    ground_truth=_at_x(lambda x: x ** 2))),
        numeric_points=_POINTS_X, property_examples=20,
    )


def make_tangent_lemma(bound: sp.Expr = sp.exp(X) - 1) -> Theorem:
    """``X <= bound`` (the library lemma has ``e^X - 1``)."""
    taylor_part = Part("taylor", le(_T, -1), proof=Chain(_T).le(sp.S(-1), taylor(lambda h: h - sp.exp(h), X, 0)),
                       ground_truth=_at_x(lambda x: x - mpmath.exp(x)))
    return Theorem(
        name="exp_tangent_bound", reference="R-B3", source=_TAYLOR,
        title="the tangent of the exponential at zero lies below it",
        variables={X: real(sample_lo=-8, sample_hi=8)},
        parts=(taylor_part,
               Part("main", le(X, bound),
                    proof=_closing(Chain(X).le(sp.exp(X) - 1, by(taylor_part, inside=lambda w: w + sp.exp(X))),
                                   sp.exp(X) - 1, bound),
                    ground_truth=_at_x(lambda x: x))),
        numeric_points=_POINTS_X, property_examples=20,
    )


def make_expm1_lemma(bound: sp.Expr = u * sp.exp(u)) -> Theorem:
    """``e^u - 1 <= bound`` for u >= 0 (the library lemma has ``u e^u``)."""
    return Theorem(
        name="expm1_bound", reference="R-B3",
        source="the mean value theorem (Rudin 1976, Thm 5.10)",
        title="the exponential minus one is at most u times the exponential",
        variables={u: nonnegative(sample_hi=20)},
        parts=(Part("main", le(sp.exp(u) - 1, bound), proof=Chain(sp.exp(u) - 1).le(bound, monotone(u)),
                    ground_truth=lambda v, dps: [("mpmath expm1", mpmath.expm1(v[u]))]),),
        numeric_points=({"u": "0"}, {"u": "0.5"}, {"u": "7"}),
        property_examples=20,
    )


cosh_quadratic_bound = make_cosh_lemma()
exp_tangent_bound = make_tangent_lemma()
expm1_bound = make_expm1_lemma()
LEMMAS = [cosh_quadratic_bound, exp_tangent_bound, expm1_bound]


# -- the theorem ---------------------------------------------------------------------------------------------------------

#: λ ranges over (0, 1): every bound below holds there, and λ -> 0 is the passage to the limit
_LAM = {lam: Interval.open(0, 1)}
_U = lam ** 2 * tau ** 2 / 2
_MGF = sp.exp(_U)


def _mean_chain(sgn: int, limit_value: sp.Expr) -> Chain:
    """``sgn E[X] <= 0`` (sgn = ±1): x <= e^x - 1 at x = sgn λX, the hypothesis at sgn λ, λ -> 0."""
    start = sgn * Expect(X)
    other = Expect(sp.exp(sgn * lam * X))
    return (Chain(start, variables=dict(_LAM))
            .eq(Expect(sgn * lam * X) / lam, by(expectation_affine, a=sgn * lam, b=0, X=X))
            .le(Expect(sp.exp(sgn * lam * X) - 1) / lam,
                by(exp_tangent_bound.part("main"), X=sgn * lam * X, inside=lambda w: Expect(w) / lam))
            .eq((other - 1) / lam, by(expectation_affine, a=1, b=-1, X=sp.exp(sgn * lam * X)))
            .le((_MGF - 1) / lam, by(subgaussian, lam=sgn * lam, inside=lambda w: (w - 1) / lam))
            .eq(lam * tau ** 2 / 2 * ((sp.exp(_U) - 1) / _U), algebra())
            .le(lam * tau ** 2 / 2 * sp.exp(_U),
                by(expm1_bound, u=_U, inside=lambda w: lam * tau ** 2 / 2 * w / _U))
            .le(limit_value, limit(lam)))


def make(second_moment: sp.Expr = tau ** 2, mean: sp.Expr = sp.S.Zero) -> Theorem:
    """The statement with the claimed bounds (tests build mutants with wrong ones)."""
    plus, minus = Expect(sp.exp(lam * X)), Expect(sp.exp(-lam * X))
    second = (
        Chain(Expect(X ** 2), variables=dict(_LAM))
        .eq(Expect(lam ** 2 * X ** 2) / lam ** 2, by(expectation_affine, a=lam ** 2, b=0, X=X ** 2))
        .le(Expect(sp.exp(lam * X) + sp.exp(-lam * X) - 2) / lam ** 2,
            by(cosh_quadratic_bound.part("main"), X=lam * X, inside=lambda w: Expect(w) / lam ** 2))
        .eq((Expect(sp.exp(lam * X) + sp.exp(-lam * X)) - 2) / lam ** 2,
            by(expectation_affine, a=1, b=-2, X=sp.exp(lam * X) + sp.exp(-lam * X)))
        .eq((plus + minus - 2) / lam ** 2,
            by(expectation_sum_nonnegative, Y_1=sp.exp(lam * X), Y_2=sp.exp(-lam * X)))
        .le((_MGF + minus - 2) / lam ** 2, by(subgaussian, lam=lam, inside=lambda w: (w + minus - 2) / lam ** 2))
        .le((2 * _MGF - 2) / lam ** 2, by(subgaussian, lam=-lam, inside=lambda w: (_MGF + w - 2) / lam ** 2))
        .eq(tau ** 2 * ((sp.exp(_U) - 1) / _U), algebra())
        .le(tau ** 2 * sp.exp(_U), by(expm1_bound, u=_U, inside=lambda w: tau ** 2 * w / _U))
        .le(tau ** 2, limit(lam))
        .eq(second_moment, algebra())
    )
    second_part = Part("second_moment", le(Expect(X ** 2), second_moment), proof=second,
                       ground_truth=lambda v, dps: [(n, m2) for n, _, m2 in _witnesses(v[tau])])
    return Theorem(
        name="subgaussian_variance",
        reference="R-B3",
        source="Dwork & Rothblum 2016, Fact 2.1, arXiv:1603.01887v2",
        title="subgaussian mean and variance",
        variables={tau: positive(sample_lo=0.05, sample_hi=20, log_scale=True), X: real(sample_lo=-1, sample_hi=1)},
        hypotheses=(subgaussian,),
        parts=(Part("mean_upper", le(Expect(X), mean), proof=_mean_chain(1, sp.S.Zero).eq(mean, algebra()),
                    ground_truth=lambda v, dps: [(n, m1) for n, m1, _ in _witnesses(v[tau])]),
               Part("mean_lower", le(-Expect(X), mean), proof=_mean_chain(-1, sp.S.Zero).eq(mean, algebra()),
                    ground_truth=lambda v, dps: [(n, -m1) for n, m1, _ in _witnesses(v[tau])]),
               second_part),
        numeric_points=({"tau": "1"}, {"tau": "0.3"}, {"tau": "7.5"}),
        property_examples=25,
        tight="E[X²] = τ² for N(0, τ²), a Rademacher sign times τ, and the uniform law on [−√3τ, √3τ].",
    )


def _witnesses(tt):
    """(name, E[X], E[X²]) of τ-subgaussian laws, computed from their definitions (quadrature, sums)."""
    return _witnesses_at(mpmath.mpf(tt), mpmath.mp.dps)


@functools.lru_cache(maxsize=64)
def _witnesses_at(tt, dps):  # the three parts share one computation per point

    phi = lambda x: mpmath.exp(-x ** 2 / (2 * tt ** 2)) / (mpmath.sqrt(2 * mpmath.pi) * tt)  # noqa: E731
    gauss = (mpmath.quad(lambda x: x * phi(x), [-mpmath.inf, 0, mpmath.inf]),
             mpmath.quad(lambda x: x ** 2 * phi(x), [-mpmath.inf, 0, mpmath.inf]))
    a = mpmath.sqrt(3) * tt
    uniform = (mpmath.quad(lambda x: x / (2 * a), [-a, a]), mpmath.quad(lambda x: x ** 2 / (2 * a), [-a, a]))
    signs = [(-tt, mpmath.mpf(1) / 2), (tt, mpmath.mpf(1) / 2)]
    skew = [(-tt / 2, mpmath.mpf(3) / 4), (3 * tt / 2, mpmath.mpf(1) / 4)]  # mean 0, range 2τ: τ-subgaussian
    moments = lambda law: (mpmath.fsum(p * x for x, p in law), mpmath.fsum(p * x ** 2 for x, p in law))  # noqa
    return [("N(0, tau^2), quadrature", *gauss), ("uniform on [-sqrt(3) tau, sqrt(3) tau], quadrature", *uniform),
            ("tau * Rademacher, exact", *moments(signs)), ("{-tau/2: 3/4, 3tau/2: 1/4}, exact", *moments(skew))]


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("E[X²] <= τ²/2: the variance bound halved", make(second_moment=tau ** 2 / 2)),
        ("E[X²] <= τ: the square dropped", make(second_moment=tau)),
        ("E[X] <= −τ/10: a negative mean", make(mean=-tau / 10)),
        ("X² <= (e^X + e^−X − 2)/2: the cosh bound halved", make_cosh_lemma(_COSH / 2)),
        ("X <= (e^X − 1)/2: the tangent bound halved", make_tangent_lemma((sp.exp(X) - 1) / 2)),
        ("e^u − 1 <= u e^u/2: halved", make_expm1_lemma(u * sp.exp(u) / 2)),
    ]
