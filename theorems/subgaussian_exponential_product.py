r"""The expected product with the exponential of a subgaussian variable (Dwork–Rothblum, Lemma 2.3).

.. math::
    \mathbb E[Xe^Y]\;\le\;\mathbb E[X]+\sqrt{\mathbb E[X^2]}\,(\tau+3\tau^2)
    \qquad\text{for } X, Y \text{ on one probability space, } Y\ \tau\text{-subgaussian}, \ \tau\le 1/3.

Parameterization: :math:`Y` is :math:`\tau`-subgaussian in the sense of Dwork–Rothblum (R-A7),
:math:`\mathbb E[e^{\lambda Y}]\le e^{\lambda^2\tau^2/2}` for every real :math:`\lambda`; nothing is assumed of
the joint law of :math:`(X, Y)`.  :math:`X` has a finite, non-zero second moment: the hypotheses name its
moments, :math:`\mathbb E[X]=\mu` and :math:`\mathbb E[X^2]=s^2` with :math:`s>0`, and the statement reads
:math:`\mathbb E[Xe^Y]\le\mathbb E[X]+s(\tau+3\tau^2)`, :math:`s=\sqrt{\mathbb E[X^2]}`.  Outside these hypotheses
the item says nothing new: :math:`\mathbb E[X^2]=0` means :math:`X=0` almost surely (both sides are 0), and
:math:`\mathbb E[X^2]=\infty` makes the right side :math:`+\infty`.  The item's second form, with
:math:`\sigma_X+|\mathbb E X|` (:math:`\sigma_X=\sqrt{\operatorname{Var}X}`, hypothesis ``variance``:
:math:`s^2=\mu^2+\sigma_X^2`) in place of :math:`s`, is the part ``variance_form``, from
:math:`s\le\sigma_X+|\mu|` (part ``root_bound``: :math:`\sigma_X+|\mu|-s=2\sigma_X|\mu|/(\sigma_X+|\mu|+s)`).  It
has :math:`|\mathbb E X|` where the paper prints :math:`\mathbb E[X]` (R-H31): the printed form fails for
:math:`\mathbb E[X]<0` (a mutant below).

Proof (the paper sums the Taylor series of :math:`e^Y` term by term; here the remainder is bounded at once, which
needs no power series):

* at every outcome, :math:`Xe^Y = X + XY + XR` with :math:`R=e^Y-1-Y`; by :math:`ab\le t^2a^2/2+b^2/(2t^2)`
  (lemma ``product_am_gm``) twice, :math:`Xe^Y\le X + t_1^2X^2/2+Y^2/(2t_1^2) + t_2^2X^2/2+R^2/(2t_2^2)`;
* :math:`R^2\le\frac14\big(u^2Y^8/2+(e^{4Y}+e^{-4Y})/(2u^2)\big)` (lemma ``exp_remainder_square``: Taylor's
  remainder :math:`|R|\le Y^2e^{|Y|}/2`, the same AM–GM, and :math:`e^{4|Y|}\le e^{4Y}+e^{-4Y}`);
* in expectation (**monotonicity of expectation**, a kernel rule), the sum splits into :math:`\mathbb E[X]` (finite)
  and expectations of non-negative terms (axiom ``expectation_additive_square_integrable``, then additivity for
  non-negative terms);
* :math:`\mathbb E[Y^2]\le\tau^2` (``subgaussian_variance``), :math:`\mathbb E[Y^8]\le2(8/e)^4\tau^8`
  (``subgaussian_even_moments`` at m = 4), :math:`\mathbb E[e^{\pm4Y}]\le e^{8\tau^2}` (the hypothesis at
  :math:`\lambda=\pm4`);
* at the minimising :math:`u, t_1, t_2` the bound is :math:`\mathbb E[X]+s\tau+sB` with
  :math:`B=\frac{8}{e\sqrt2}\tau^2e^{2\tau^2}` (so :math:`\sqrt{\mathbb E R^2}\le B`), and
  :math:`\frac{8}{e\sqrt2}e^{2\tau^2}\le\frac{8}{e\sqrt2}e^{2/9}\approx2.599\le3` for :math:`\tau\le1/3` (part
  ``constant``).

Tight in the first order: with :math:`X=e^Y-\mathbb E e^Y` (Cauchy–Schwarz is then an equality) and
:math:`Y\sim N(0,\tau^2)`, :math:`\mathbb E[Xe^Y]-\mathbb E[X]=\sqrt{\mathbb EX^2}\,\sqrt{e^{2\tau^2}-e^{\tau^2}}`
and :math:`\sqrt{e^{2\tau^2}-e^{\tau^2}}=\tau+O(\tau^3)`; the constant 3 is loose.  The ground truth computes both
sides for :math:`X=\mu+\sigma g(Y)` (:math:`g` a standardised :math:`e^Y`, :math:`Y` or :math:`\mathbf 1[Y>0]`) under
four :math:`\tau`-subgaussian laws of :math:`Y` -- :math:`N(0,\tau^2)` by quadrature, :math:`\tau` times a
Rademacher sign, the two-point law :math:`\{-\tau/2: 3/4,\ 3\tau/2: 1/4\}` (Hoeffding's lemma) and a centred
Bernoulli(1/4) scaled to its optimal subgaussian constant (Kearns–Saul) -- each expectation summed or integrated
from the law.

Axioms added here: ``exp_taylor_remainder`` (Taylor's theorem with Lagrange's remainder for exp) and
``expectation_additive_square_integrable`` (linearity of the integral when one term is square-integrable and the
other non-negative).

References
----------
* Dwork & Rothblum 2016, Lemma 2.3, arXiv:1603.01887v2.
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from cdpsym.expr import Interval, X, Y, lam, mu, positive, real, s, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, sign
from cdpsym.proof.kernel import Specialize
from theorems.foundations_composition import Y1, Y2, c
from theorems.foundations_convexity import expectation_affine
from theorems.subgaussian_moments import _bernoulli_proxy, _closing, exp_abs_bound, subgaussian_even_moments
from theorems.subgaussian_variance import expectation_sum_nonnegative
from theorems.subgaussian_variance import theorem as subgaussian_variance

__all__ = ["theorem", "make", "mutants", "LEMMAS", "AXIOMS", "exp_taylor_remainder",
           "expectation_additive_square_integrable", "product_am_gm", "exp_remainder_square", "witnesses"]

#: the AM-GM weight (a chain variable of the lemmas) and the two weights of the main chain
u = sp.Symbol("u", positive=True)
t1 = sp.Symbol("t_1", positive=True)
t2 = sp.Symbol("t_2", positive=True)
_THIRD = sp.Rational(1, 3)

# -- the axioms --------------------------------------------------------------------------------------------------------

exp_taylor_remainder = Axiom(
    name="exp_taylor_remainder",
    title="|e^{Y_1} − 1 − Y_1| ≤ Y_1² e^{|Y_1|}/2, at every outcome",
    citation="Taylor's theorem with Lagrange's remainder (Rudin, *Principles of Mathematical Analysis*, 3rd ed., "
             "Thm 5.15): e^x = 1 + x + e^ξ x²/2 for some ξ between 0 and x, and e^ξ ≤ e^{|x|} (exp is increasing, "
             "Rudin Thm 8.6); it holds for all real values, hence at every outcome",
    relation=le(sp.Abs(sp.exp(Y1) - 1 - Y1), Y1 ** 2 * sp.exp(sp.Abs(Y1)) / 2),
    variables={Y1: real(sample_lo=-30, sample_hi=30)},
    ground_truth=lambda v, dps: [("mpmath", abs(mpmath.expm1(v[Y1]) - v[Y1]))],
    numeric_points=({"Y_1": "0"}, {"Y_1": "1e-8"}, {"Y_1": "2.5"}, {"Y_1": "-7"}),
)

expectation_additive_square_integrable = Axiom(
    name="expectation_additive_square_integrable",
    title="**additivity of expectation** when one term is square-integrable and the other non-negative: "
          "E[Y_1 + Y_2] = E[Y_1] + E[Y_2] if E[Y_1²] ≤ c < ∞ and Y_2 ≥ 0",
    citation="Billingsley, *Probability and Measure*, 3rd ed., §16 (linearity of the integral for integrable "
             "functions, and for non-negative ones with values in [0, ∞]); E[Y_1²] finite makes Y_1 integrable "
             "(E|Y_1| ≤ (1 + E[Y_1²])/2), so both sides lie in (−∞, ∞] and agree",
    relation=eq(Expect(Y1 + Y2), Expect(Y1) + Expect(Y2)),
    variables={Y1: real(), Y2: real(), c: real()},
    conditions=(le(0, Y2), le(Expect(Y1 ** 2), c)),
)
# No ground truth: a statement about arbitrary random variables; tests check it on random finite laws.

AXIOMS = [exp_taylor_remainder, expectation_additive_square_integrable]

# -- lemmas ------------------------------------------------------------------------------------------------------------

_AM_GM = u ** 2 * Y1 ** 2 / 2 + Y2 ** 2 / (2 * u ** 2)


def make_am_gm(bound: sp.Expr = _AM_GM) -> Theorem:
    """``Y_1 Y_2 <= bound`` at every outcome (the library lemma has ``u² Y_1²/2 + Y_2²/(2u²)``)."""
    chain = (Chain(Y1 * Y2).eq(_AM_GM - (u * Y1 - Y2 / u) ** 2 / 2, algebra())
             .le(_AM_GM, sign("a square is non-negative")))
    chain = _closing(chain, _AM_GM, bound)
    return Theorem(
        name="product_am_gm", reference="R-B6",
        source="the inequality of arithmetic and geometric means, ab <= (a² + b²)/2 at a = u Y_1, b = Y_2/u "
               "(Hardy, Littlewood & Pólya 1934, *Inequalities*, §2.5)",
        title="a weighted inequality of arithmetic and geometric means",
        variables={Y1: real(sample_lo=-20, sample_hi=20), Y2: real(sample_lo=-20, sample_hi=20),
                   u: positive(sample_lo=0.01, sample_hi=100, log_scale=True)},
        parts=(Part("main", le(Y1 * Y2, bound), proof=chain,
                    ground_truth=lambda v, dps: [("product", v[Y1] * v[Y2])]),),
        numeric_points=({"Y_1": "1", "Y_2": "1", "u": "1"}, {"Y_1": "3", "Y_2": "-2", "u": "0.5"},
                        {"Y_1": "2", "Y_2": "8", "u": "2"}),
        property_examples=20,
        tight="at u Y_1 = Y_2/u.",
    )


product_am_gm = make_am_gm()

_R = sp.exp(Y) - 1 - Y  # the Taylor remainder of exp after the linear term
_REMAINDER_BOUND = (u ** 2 * Y ** 8 / 2 + (sp.exp(4 * Y) + sp.exp(-4 * Y)) / (2 * u ** 2)) / 4


def make_remainder_lemma(bound: sp.Expr = _REMAINDER_BOUND) -> Theorem:
    """``(e^Y - 1 - Y)² <= bound`` at every outcome (the library lemma has ``_REMAINDER_BOUND``)."""
    chain = (Chain(_R ** 2)
             .eq(sp.Abs(_R) ** 2, algebra())
             .le((Y ** 2 * sp.exp(sp.Abs(Y)) / 2) ** 2, by(exp_taylor_remainder, Y_1=Y, inside=lambda w: w ** 2))
             .eq(Y ** 4 * sp.exp(2 * sp.Abs(Y)) / 4, algebra())
             .le((u ** 2 * Y ** 8 / 2 + sp.exp(4 * sp.Abs(Y)) / (2 * u ** 2)) / 4,
                 by(product_am_gm, Y_1=Y ** 4, Y_2=sp.exp(2 * sp.Abs(Y)), u=u, inside=lambda w: w / 4))
             .le(_REMAINDER_BOUND, by(exp_abs_bound, Y_1=4 * Y,
                                      inside=lambda w: (u ** 2 * Y ** 8 / 2 + w / (2 * u ** 2)) / 4)))
    chain = _closing(chain, _REMAINDER_BOUND, bound)
    return Theorem(
        name="exp_remainder_square", reference="R-B6",
        source="Taylor's remainder |e^y − 1 − y| <= y² e^{|y|}/2 (Rudin 1976, Thm 5.15), squared, then "
               "ab <= u²a²/2 + b²/(2u²) and e^{|x|} <= e^x + e^{−x}",
        title="the squared Taylor remainder of the exponential",
        variables={Y: real(sample_lo=-10, sample_hi=10), u: positive(sample_lo=0.01, sample_hi=100, log_scale=True)},
        parts=(Part("main", le(_R ** 2, bound), proof=chain,
                    ground_truth=lambda v, dps: [("mpmath expm1", (mpmath.expm1(v[Y]) - v[Y]) ** 2)]),),
        # (0.5, 6.5): u near its balancing value e^{|Y|}/Y², where the bound is within a factor 2 of the square
        numeric_points=({"Y": "0.5", "u": "1"}, {"Y": "0.5", "u": "6.5"}, {"Y": "-3", "u": "0.2"},
                        {"Y": "6", "u": "30"}),
        property_examples=20,
        tight="within a factor 2 near Y = 0 at the balancing u = e^{|Y|}/Y² (e^{4|Y|} <= e^{4Y} + e^{-4Y} loses it).",
    )


exp_remainder_square = make_remainder_lemma()

LEMMAS = [product_am_gm, exp_remainder_square]

# -- the hypotheses ----------------------------------------------------------------------------------------------------

subgaussian_y = Hypothesis(
    name="subgaussian",
    title="Y is τ-subgaussian: E[e^{λY}] ≤ e^{λ²τ²/2} for every real λ (R-A7)",
    relation=le(Expect(sp.exp(lam * Y)), sp.exp(lam ** 2 * tau ** 2 / 2)),
    variables={lam: real()},
)
mean = Hypothesis(name="mean", title="X has mean μ", relation=eq(Expect(X), mu))
second_moment = Hypothesis(name="second_moment", title="X has second moment s²", relation=eq(Expect(X ** 2), s ** 2))
#: the standard deviation of X, sqrt(Var X) = sqrt(s² − μ²)
sigma_x = sp.Symbol("sigma_X", nonnegative=True)
variance = Hypothesis(name="variance", title="X has standard deviation σ_X: s² = μ² + σ_X²",
                      relation=eq(s ** 2, mu ** 2 + sigma_x ** 2))

# -- the theorem -------------------------------------------------------------------------------------------------------

FACTOR = tau + 3 * tau ** 2
#: the constant of the remainder: sqrt(E[R²]) <= B
_B = 8 * tau ** 2 * sp.exp(2 * tau ** 2) / (sp.E * sp.sqrt(2))
_K = _B / tau ** 2
_E8 = 2 * (8 / sp.E) ** 4 * tau ** 8  # subgaussian_even_moments at m = 4
_MGF4 = sp.exp(8 * tau ** 2)  # the hypothesis at λ = ±4


def _constant_part() -> Part:
    tau_square = Part("tau_square", le(tau ** 2, _THIRD ** 2), proof=Chain(tau ** 2).le(_THIRD ** 2, sign("τ <= 1/3")))
    at_third = _K.subs(tau, _THIRD)
    proof = (Chain(_K).le(at_third, by(tau_square, inside=lambda w: _K.subs(tau ** 2, w)))
             .le(sp.S(3), sign("8 e^{2/9}/(e sqrt 2) = 2.599...")))
    truth = lambda v, dps: [("mpmath", 8 * mpmath.exp(2 * v[tau] ** 2 - 1) / mpmath.sqrt(2))]  # noqa: E731
    return tau_square, Part("constant", le(_K, 3), proof=proof, ground_truth=truth)


def _main_chain() -> Chain:
    ex, ex2 = Expect(X), Expect(X ** 2)
    p1 = t1 ** 2 * X ** 2 / 2 + Y ** 2 / (2 * t1 ** 2)
    q = _REMAINDER_BOUND / (2 * t2 ** 2)
    rest = p1 + t2 ** 2 * X ** 2 / 2 + q
    squares = (t1 ** 2 + t2 ** 2) * X ** 2 / 2
    rest1 = Y ** 2 / (2 * t1 ** 2) + q
    pair = sp.exp(4 * Y) + sp.exp(-4 * Y)
    plus, minus = Expect(sp.exp(4 * Y)), Expect(sp.exp(-4 * Y))
    w8 = u ** 2 / (16 * t2 ** 2)  # the weight of Y^8 in q
    we = 1 / (16 * u ** 2 * t2 ** 2)  # the weight of e^{±4Y} in q
    head = ex + (t1 ** 2 + t2 ** 2) * s ** 2 / 2
    base = head + tau ** 2 / (2 * t1 ** 2)
    condition = "condition " + le(Expect(Y1 ** 2), c).plain()
    return (
        Chain(Expect(X * sp.exp(Y)), variables={t1: positive(), t2: positive(), u: positive()})
        .eq(Expect(X + X * Y + X * _R), algebra("X e^Y = X + XY + XR at every outcome"))
        .le(Expect(X + p1 + X * _R), by(product_am_gm, Y_1=X, Y_2=Y, u=t1, inside=lambda w: Expect(X + w + X * _R)))
        .le(Expect(X + p1 + t2 ** 2 * X ** 2 / 2 + _R ** 2 / (2 * t2 ** 2)),
            by(product_am_gm, Y_1=X, Y_2=_R, u=t2, inside=lambda w: Expect(X + p1 + w)))
        .le(Expect(X + rest), by(exp_remainder_square, Y=Y, u=u,
                                 inside=lambda w: Expect(X + p1 + t2 ** 2 * X ** 2 / 2 + w / (2 * t2 ** 2))))
        .eq(ex + Expect(rest), by(expectation_additive_square_integrable, Y_1=X, Y_2=rest, c=s ** 2,
                                  given={condition: Chain(ex2).eq(s ** 2, by(second_moment))}))
        .eq(ex + Expect(squares) + Expect(rest1),
            by(expectation_sum_nonnegative, Y_1=squares, Y_2=rest1, inside=lambda w: ex + w))
        .eq(ex + (t1 ** 2 + t2 ** 2) * ex2 / 2 + Expect(rest1),
            by(expectation_affine, a=(t1 ** 2 + t2 ** 2) / 2, b=0, X=X ** 2, inside=lambda w: ex + w + Expect(rest1)))
        .eq(head + Expect(rest1),
            by(second_moment, inside=lambda w: ex + (t1 ** 2 + t2 ** 2) * w / 2 + Expect(rest1)))
        .eq(head + Expect(Y ** 2 / (2 * t1 ** 2)) + Expect(q),
            by(expectation_sum_nonnegative, Y_1=Y ** 2 / (2 * t1 ** 2), Y_2=q, inside=lambda w: head + w))
        .eq(head + Expect(Y ** 2) / (2 * t1 ** 2) + Expect(q),
            by(expectation_affine, a=1 / (2 * t1 ** 2), b=0, X=Y ** 2, inside=lambda w: head + w + Expect(q)))
        .le(base + Expect(q),
            by(subgaussian_variance.part("second_moment"), X=Y, inside=lambda w: head + w / (2 * t1 ** 2) + Expect(q)))
        .eq(base + Expect(w8 * Y ** 8) + Expect(we * pair),
            by(expectation_sum_nonnegative, Y_1=w8 * Y ** 8, Y_2=we * pair, inside=lambda w: base + w))
        .eq(base + w8 * Expect(Y ** 8) + Expect(we * pair),
            by(expectation_affine, a=w8, b=0, X=Y ** 8, inside=lambda w: base + w + Expect(we * pair)))
        .le(base + w8 * _E8 + Expect(we * pair),
            by(subgaussian_even_moments, X=Y, m=4, inside=lambda w: base + w8 * w + Expect(we * pair)))
        .eq(base + w8 * _E8 + we * Expect(pair),
            by(expectation_affine, a=we, b=0, X=pair, inside=lambda w: base + w8 * _E8 + w))
        .eq(base + w8 * _E8 + we * (plus + minus),
            by(expectation_sum_nonnegative, Y_1=sp.exp(4 * Y), Y_2=sp.exp(-4 * Y),
               inside=lambda w: base + w8 * _E8 + we * w))
        .le(base + w8 * _E8 + we * (_MGF4 + minus),
            by(subgaussian_y, lam=4, inside=lambda w: base + w8 * _E8 + we * (w + minus)))
        .le(base + w8 * _E8 + we * 2 * _MGF4,
            by(subgaussian_y, lam=-4, inside=lambda w: base + w8 * _E8 + we * (_MGF4 + w)))
        .eq(base + _B ** 2 / (2 * t2 ** 2), Specialize(u, sp.E * sp.exp(2 * tau ** 2) / (8 * tau ** 2)))
        .eq(ex + t2 ** 2 * s ** 2 / 2 + s * tau + _B ** 2 / (2 * t2 ** 2), Specialize(t1, sp.sqrt(tau / s)))
        .eq(ex + s * tau + s * _B, Specialize(t2, sp.sqrt(_B / s)))
    )


def make(bound: sp.Expr | None = None, second: sp.Expr | None = None) -> Theorem:
    """The statement ``E[X e^Y] <= bound`` (the item: ``E[X] + s (τ + 3τ²)`` with ``s = sqrt(E[X²])``) and its second
    form ``E[X e^Y] <= second`` (the item: ``E[X] + (σ_X + |μ|)(τ + 3τ²)``, σ_X = sqrt(Var X))."""
    claimed = Expect(X) + s * FACTOR if bound is None else bound
    tau_square, constant = _constant_part()
    proof = _main_chain().le(Expect(X) + s * FACTOR,
                             by(constant, inside=lambda w: Expect(X) + s * tau + s * tau ** 2 * w))
    if bound is not None:
        proof = proof.eq(bound, algebra())
    main = Part("main", le(Expect(X * sp.exp(Y)), claimed), proof=proof, ground_truth=_truth)
    # the item's second form: sqrt(E[X²]) <= sqrt(Var X) + |E X| (R-H31: |E X|, not E X)
    spread = sigma_x + sp.Abs(mu)  # sqrt(Var X) + |E X|
    root = Part("root_bound", le(s, spread),
                proof=(Chain(s).eq(spread - (spread ** 2 - s ** 2) / (spread + s), algebra("A − (A² − s²)/(A + s)"))
                       .eq(spread - (spread ** 2 - mu ** 2 - sigma_x ** 2) / (spread + s),
                           by(variance, inside=lambda w: spread - (spread ** 2 - w) / (spread + s)))
                       .eq(spread - 2 * sigma_x * sp.Abs(mu) / (spread + s), algebra("|μ|² = μ²"))
                       .le(spread, sign("σ_X, |μ| >= 0 and s > 0"))))
    second_form = Expect(X) + spread * FACTOR
    second_proof = (Chain(Expect(X * sp.exp(Y))).le(claimed, by(main))
                    .le(second_form, by(root, inside=lambda w: Expect(X) + w * FACTOR)))
    if second is not None:
        second_proof = second_proof.eq(second, algebra())
    variance_form = Part("variance_form", le(Expect(X * sp.exp(Y)), second_form if second is None else second),
                         proof=second_proof, ground_truth=_variance_truth)
    return Theorem(
        name="subgaussian_exponential_product",
        reference="R-B6",
        source="Dwork & Rothblum 2016, Lemma 2.3, arXiv:1603.01887v2",
        title="expected product with the exponential of a subgaussian variable",
        variables={tau: Interval(sp.S.Zero, _THIRD, True, False, sample_lo=1e-3, sample_hi=_THIRD, log_scale=True),
                   s: positive(sample_lo=1e-3, sample_hi=1e3, log_scale=True), mu: real(sample_lo=-10, sample_hi=10),
                   sigma_x: Interval(sp.S.Zero, sp.S.Infinity, False, True, sample_lo=0, sample_hi=1e3),
                   X: real(), Y: real()},
        hypotheses=(subgaussian_y, mean, second_moment, variance),
        parts=(tau_square, constant, main, root, variance_form),
        numeric_points=({"tau": "1/3", "s": "1", "mu": "0", "sigma_X": "1"},
                        {"tau": "0.1", "s": "2", "mu": "1.2", "sigma_X": "1.6"},
                        {"tau": "0.01", "s": "1", "mu": "-0.6", "sigma_X": "0.8"},
                        {"tau": "0.3", "s": "0.001", "mu": "-0.0006", "sigma_X": "0.0008"}),
        property_examples=8,
        tight="in the first order: X = e^Y − E[e^Y], Y ~ N(0, τ²) gives E[X e^Y] − E[X] = sqrt(E[X²]) (τ + O(τ³)); "
              "the 3τ² is loose.",
    )


# -- ground truth ------------------------------------------------------------------------------------------------------

def _laws(tt):
    """τ-subgaussian laws of Y: (name, E[f(Y)] as a function of f)."""
    half, quarter = mpmath.mpf(1) / 2, mpmath.mpf(1) / 4

    def discrete(atoms):
        return lambda f: mpmath.fsum(q * f(y) for y, q in atoms)

    def gauss(f):
        density = lambda y: mpmath.exp(-(y / tt) ** 2 / 2) / (tt * mpmath.sqrt(2 * mpmath.pi))  # noqa: E731
        return mpmath.quad(lambda y: f(y) * density(y), [-mpmath.inf, 0, mpmath.inf])

    cks = tt / _bernoulli_proxy(quarter)
    return (("Y ~ N(0, tau^2), quadrature", gauss),
            ("Y = tau * Rademacher, exact", discrete([(-tt, half), (tt, half)])),
            ("Y in {-tau/2: 3/4, 3tau/2: 1/4}, exact", discrete([(-tt / 2, 3 * quarter), (3 * tt / 2, quarter)])),
            ("Y = centred Bernoulli(1/4) scaled to tau (Kearns-Saul), exact",
             discrete([(cks * (1 - quarter), quarter), (-cks * quarter, 1 - quarter)])))


_SHAPES = (("e^Y", mpmath.exp), ("Y", lambda y: y), ("1[Y > 0]", lambda y: mpmath.mpf(1) if y > 0 else mpmath.mpf(0)))


@functools.lru_cache(maxsize=64)
def _law_moments(tt, dps):
    """Per law and shape h: E[e^Y], E[h], E[h²], E[h e^Y] (sums, or quadrature for the Gaussian)."""
    out = []
    with mpmath.workdps(dps + 15):
        for law_name, expect in _laws(tt):
            e1 = expect(mpmath.exp)
            for shape_name, h in _SHAPES:
                out.append((law_name, shape_name, +e1, +expect(h), +expect(lambda y: h(y) ** 2),
                            +expect(lambda y: h(y) * mpmath.exp(y))))
    return tuple(out)


def _witnesses_at(tt, ss, mm, dps):
    """X = μ + σ (h(Y) − E h)/sd(h): E[X] = μ and E[X²] = μ² + σ² = s² by construction, and
    E[X e^Y] = μ E[e^Y] + σ (E[h e^Y] − E[h] E[e^Y])/sd(h) by linearity, from the law's own expectations."""
    if not abs(mm) < ss:
        return ()  # only X = ±s, constant, has |E[X]| = sqrt(E[X²]); |μ| > s is no law at all
    sigma = mpmath.sqrt(ss ** 2 - mm ** 2)
    out = []
    for law_name, shape_name, e1, m1, m2, mh in _law_moments(tt, dps):
        sd = mpmath.sqrt(m2 - m1 ** 2)
        if not sd > 0:
            continue
        lhs = mm * e1 + sigma * (mh - m1 * e1) / sd
        out.append((f"{law_name}; X = mu + sigma * standardised {shape_name}", lhs,
                    {Expect(X): mm, Expect(X ** 2): ss ** 2}))
    return tuple(out)


def witnesses(tt, ss, mm):
    """(name, E[X e^Y], {E[X]: ..., E[X²]: ...}) for joint laws with Y τ-subgaussian, E[X] = μ, E[X²] = s²."""
    return list(_witnesses_at(mpmath.mpf(tt), mpmath.mpf(ss), mpmath.mpf(mm), mpmath.mp.dps))


def _truth(v, dps):
    return witnesses(v[tau], v[s], v[mu])


def _variance_truth(v, dps):
    """The witnesses where σ_X is the standard deviation, s² = μ² + σ_X² (elsewhere the hypotheses name no law)."""
    gap = v[s] ** 2 - v[mu] ** 2 - v[sigma_x] ** 2
    return witnesses(v[tau], v[s], v[mu]) if abs(gap) <= mpmath.mpf(10) ** (12 - dps) * v[s] ** 2 else []


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    ex = Expect(X)
    return [
        ("E[X e^Y] <= E[X] + s τ: the 3τ² dropped", make(ex + s * tau)),
        ("E[X e^Y] <= E[X] + 3 s τ²: the τ dropped", make(ex + s * 3 * tau ** 2)),
        ("E[X e^Y] <= E[X] + E[X²] (τ + 3τ²): the square root dropped", make(ex + Expect(X ** 2) * FACTOR)),
        ("E[X e^Y] <= s (τ + 3τ²): E[X] dropped", make(s * FACTOR)),
        ("E[X e^Y] <= E[X] + (σ_X + E[X])(τ + 3τ²): the printed second form (R-H31)",
         make(second=ex + (sigma_x + mu) * FACTOR)),
        ("ab <= (u²a² + b²/u²)/4: AM-GM halved", make_am_gm(_AM_GM / 2)),
        ("(e^Y − 1 − Y)² <= half the bound", make_remainder_lemma(_REMAINDER_BOUND / 2)),
    ]
