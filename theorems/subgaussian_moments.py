r"""A :math:`\tau`-subgaussian variable has :math:`\mathbb E[X^k]\le c!\,2^{c+1}\tau^k`, :math:`c=\lceil k/2\rceil`.

.. math::
    \mathbb E[X^k]\;\le\;\big(\lceil k/2\rceil!\big)\,2^{\lceil k/2\rceil+1}\,\tau^k
    \qquad\text{for every integer } k\ge1,

whenever :math:`\mathbb E[e^{\lambda X}]\le e^{\lambda^2\tau^2/2}` for every real :math:`\lambda`.

Parameterization: :math:`X` is :math:`\tau`-subgaussian in the sense of Dwork–Rothblum (R-A7), the hypothesis
``subgaussian`` of :mod:`theorems.subgaussian_concentration` (DR16 call the variable :math:`Y`).  The
statement is split by the parity of :math:`k`, so that :math:`\lceil k/2\rceil` is a plain integer; the three parts
cover every :math:`k\ge1` exactly once and each is the item's formula at that :math:`k`:

* ``first`` (:math:`k=1`): :math:`\mathbb E[X]\le 1!\,2^2\,\tau`;
* ``even`` (:math:`k=2m`, :math:`m\ge1`): :math:`\mathbb E[X^{2m}]\le m!\,2^{m+1}\tau^{2m}`;
* ``odd`` (:math:`k=2m+1`, :math:`m\ge1`): :math:`\mathbb E[X^{2m+1}]\le (m+1)!\,2^{m+2}\tau^{2m+1}`.

:math:`m!` is written :math:`\prod_{j=1}^m j` (the kernel reasons about finite products, not ``factorial``).

Proof (all proved; not the tail-integral route of BK00/Riv12 that REFERENCE sketches -- integrating the tail
bound :math:`\Pr[|X|>t]\le2e^{-t^2/2\tau^2}` of ``subgaussian_concentration`` needs monotonicity of an integral in
its integrand, which the kernel has no rule for -- but the same Chernoff idea applied to the moment itself):

* ``even``: for every real x, :math:`e|x|/(2m)\le e^{|x|/(2m)}` (the tangent of exp at 1), raised to the power
  :math:`2m`, and :math:`e^{|x|}\le e^x+e^{-x}` give :math:`x^{2m}\le(2m/e)^{2m}(e^x+e^{-x})` (lemma
  ``even_power_exp_bound``).  At :math:`x=\eta X`, in expectation (**monotonicity of expectation**, a kernel rule),
  with the hypothesis at :math:`\lambda=\pm\eta`:
  :math:`\mathbb E[X^{2m}]\le2(2m/(e\eta))^{2m}e^{\eta^2\tau^2/2}` for every :math:`\eta>0`; at
  :math:`\eta=\sqrt{2m}/\tau` this is :math:`\mathbb E[X^{2m}]\le2(2m/e)^m\tau^{2m}` (lemma
  ``subgaussian_even_moments``), and :math:`m^m\le e^m m!` (lemma ``factorial_lower_bound``, by induction with
  :math:`(1+1/m)^m\le e`) turns it into :math:`m!\,2^{m+1}\tau^{2m}`.
* ``odd``: :math:`x^{2m+1}\le\frac12(x^{2m+2}/\tau+\tau x^{2m})` (lemma ``odd_power_am_gm``: the difference is
  :math:`x^{2m}(x-\tau)^2/(2\tau)`), in expectation, and ``subgaussian_even_moments`` with ``factorial_lower_bound``
  at :math:`m+1` and at :math:`m`:
  :math:`\frac12\big((m+1)!\,2^{m+2}+m!\,2^{m+1}\big)\tau^{2m+1}\le(m+1)!\,2^{m+2}\tau^{2m+1}` (the gap is
  :math:`m!\,2^m(2m+1)\tau^{2m+1}\ge0`).
* ``first``: :math:`\mathbb E[X]\le0` (``subgaussian_variance``, part ``mean_upper``) :math:`\le4\tau`.

The item is loose: since :math:`2(2m/e)^m\le m!\,2^m`, :math:`m!\,2^m\tau^{2m}` (the factor 2 of
:math:`2^{\lceil k/2\rceil+1}` dropped) is a *true* bound for even k; and the same Chernoff argument on
:math:`|X|^k` gives :math:`\mathbb E|X|^k\le2(k/e)^{k/2}\tau^k\le\lfloor k/2\rfloor!\,2^{\lfloor k/2\rfloor+1}\tau^k`
for odd k (checked numerically for k < 800, ratio about 0.57; not proved here), so :math:`\lfloor k/2\rfloor` in
place of :math:`\lceil k/2\rceil` is true as well.  Neither can serve as a mutant (see :func:`mutants`).

Not tight: :math:`N(0,\tau^2)` has :math:`\mathbb E[X^4]=3\tau^4` against :math:`16\tau^4`.  The ground truth computes
:math:`\mathbb E[X^k]` of five :math:`\tau`-subgaussian laws from their definitions: :math:`N(0,\tau^2)` by
quadrature, :math:`\tau` times a Rademacher sign, the uniform law on :math:`[-\sqrt3\tau,\sqrt3\tau]`, the two-point
law :math:`\{-\tau/2: 3/4,\ 3\tau/2: 1/4\}` (mean 0, range :math:`2\tau`: **Hoeffding's lemma**), and a centred
Bernoulli(p) scaled to its optimal subgaussian constant :math:`\sigma_p^2=(1-2p)/(2\log((1-p)/p))`
(Kearns–Saul), whose odd moments are large: the skewed laws are what an odd-moment mutant must be caught by.

Axiom added here: ``exp_abs_bound`` (:math:`e^{|x|}\le e^x+e^{-x}`, at every outcome: :math:`|x|` is :math:`x` or
:math:`-x`).  The kernel cannot split cases on a random variable, so this elementary fact is taken as given.

References
----------
* Dwork & Rothblum 2016, Fact 2.2, arXiv:1603.01887v2 (proof by reference to Buldygin–Kozachenko 2000 and
  Rivasplata 2012).
* Kearns & Saul 1998, *Large deviation methods for approximate probabilistic inference*, UAI; Buldygin &
  Moskvichova 2013, *The sub-Gaussian norm of a binary random variable* (the Bernoulli witness).
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from cdpsym.expr import X, naturals, positive, real, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, le, sign
from cdpsym.proof.kernel import Specialize, induction
from theorems.foundations_composition import Y1
from theorems.foundations_convexity import expectation_affine
from theorems.subgaussian_concentration import subgaussian
from theorems.subgaussian_variance import exp_tangent_bound, expectation_sum_nonnegative
from theorems.subgaussian_variance import theorem as subgaussian_variance

__all__ = ["theorem", "make", "mutants", "LEMMAS", "AXIOMS", "exp_abs_bound", "even_power_exp_bound",
           "factorial_lower_bound", "odd_power_am_gm", "subgaussian_even_moments", "SHARP", "moment_bound",
           "factorial", "m", "eta", "witnesses"]

#: k = 2m (even part), k = 2m + 1 (odd part)
m = sp.Symbol("m", positive=True, integer=True)
#: the Chernoff parameter of the even part (a chain variable, specialised to sqrt(2m)/τ)
eta = sp.Symbol("eta", positive=True)
_j = sp.Symbol("j", positive=True, integer=True)


def factorial(n: sp.Expr) -> sp.Expr:
    """``n!`` as the finite product ``j = 1 .. n`` (the kernel's form of a factorial)."""
    return sp.Product(_j, (_j, 1, n))


def moment_bound(k: sp.Expr, c: sp.Expr) -> sp.Expr:
    """The item's bound ``c! 2^(c+1) τ^k`` with ``c = ⌈k/2⌉``."""
    return factorial(c) * 2 ** (c + 1) * tau ** k


# -- the axiom ---------------------------------------------------------------------------------------------------------

exp_abs_bound = Axiom(
    name="exp_abs_bound",
    title="e^{|Y_1|} ≤ e^{Y_1} + e^{−Y_1}, at every outcome",
    citation="|x| is x or −x (definition of the absolute value, Rudin, *Principles of Mathematical Analysis*, 3rd "
             "ed., §1.33), so e^{|x|} is one of the two positive terms e^x, e^{−x} (Rudin, Thm 8.6: exp > 0); it "
             "holds for all real values, hence at every outcome",
    relation=le(sp.exp(sp.Abs(Y1)), sp.exp(Y1) + sp.exp(-Y1)),
    variables={Y1: real(sample_lo=-30, sample_hi=30)},
    ground_truth=lambda v, dps: [("mpmath", mpmath.exp(abs(v[Y1])))],
    numeric_points=({"Y_1": "0"}, {"Y_1": "2.5"}, {"Y_1": "-7"}),
)

AXIOMS = [exp_abs_bound]


# -- lemmas ------------------------------------------------------------------------------------------------------------

def _closing(chain: Chain, proved: sp.Expr, claimed: sp.Expr) -> Chain:
    """The chain, with a last identity step only when the claimed bound is not the one proved (a mutant)."""
    return chain if claimed == proved else chain.eq(claimed, algebra())


_FACT_RHS = sp.E ** m * factorial(m)


def make_factorial_lemma(bound: sp.Expr = _FACT_RHS) -> Theorem:
    """``1 + X <= e^X``, ``0 <= m!`` and ``m^m <= bound`` for integers m >= 1 (the library lemma has ``e^m m!``)."""
    rhs = lambda n: sp.E ** n * factorial(n)  # noqa: E731
    tangent = Part("tangent", le(1 + X, sp.exp(X)),
                   proof=Chain(1 + X).le(sp.exp(X), by(exp_tangent_bound.part("main"), X=X, inside=lambda w: w + 1)),
                   ground_truth=lambda v, dps: [("mpmath", 1 + v[X])])
    positive_proof = Chain(sp.S.Zero).le(factorial(m), induction(
        m, Chain(sp.S.Zero).le(factorial(1), sign("1! = 1")),
        Chain(sp.S.Zero).le(factorial(m + 1), by(Hypothesis("ih", le(0, factorial(m))), inside=lambda w: (m + 1) * w))))
    ih = Hypothesis("ih", le(m ** m, rhs(m)))
    step = (Chain((m + 1) ** (m + 1)).eq((m + 1) * m ** m * (1 + 1 / m) ** m, algebra())
            .le((m + 1) * m ** m * sp.exp(1 / m) ** m,
                by(tangent, X=1 / m, inside=lambda w: (m + 1) * m ** m * w ** m))
            .eq((m + 1) * sp.E * m ** m, algebra())
            .le((m + 1) * sp.E * rhs(m), by(ih, inside=lambda w: (m + 1) * sp.E * w))
            .eq(rhs(m + 1), algebra("(m+1)! = m! (m+1)")))
    proof = Chain(m ** m).le(_FACT_RHS, induction(m, Chain(sp.S.One).le(rhs(1), sign("1 <= e")), step))
    return Theorem(
        name="factorial_lower_bound", reference="R-B4",
        source="m! >= (m/e)^m, e.g. from Stirling's formula with bounds (Feller 1968, *An Introduction to "
               "Probability Theory and Its Applications*, Vol. I, 3rd ed., §II.9); proved here by induction on m "
               "with (1 + 1/m)^m <= e",
        title="a lower bound on the factorial",
        variables={X: real(sample_lo=-40, sample_hi=40), m: naturals(sample_hi=60)},
        parts=(tangent, Part("positive", le(0, factorial(m)), proof=positive_proof,
                    ground_truth=lambda v, dps: [("exact", mpmath.mpf(0))]),
               Part("main", le(m ** m, bound), proof=_closing(proof, _FACT_RHS, bound),
                    ground_truth=lambda v, dps: [("exact", mpmath.mpf(int(v[m])) ** int(v[m]))])),
        numeric_points=({"X": "0", "m": "1"}, {"X": "-3", "m": "2"}, {"X": "1.5", "m": "7"}, {"X": "20", "m": "40"}),
        property_examples=15,
        tight="no: m^m / (e^m m!) is largest at m = 1, where it is 1/e.",
    )


factorial_lower_bound = make_factorial_lemma()

_C2M = (2 * m / sp.E) ** (2 * m)
_EVEN_POINTWISE = _C2M * (sp.exp(X) + sp.exp(-X))


def make_even_lemma(bound: sp.Expr = _EVEN_POINTWISE) -> Theorem:
    """``X^(2m) <= bound`` at every outcome (the library lemma has ``(2m/e)^(2m) (e^X + e^-X)``)."""
    scaled = Part("scaled_tangent", le(sp.E * X, sp.exp(X)),
                  proof=Chain(sp.E * X).le(sp.exp(X), by(factorial_lower_bound.part("tangent"), X=X - 1,
                                                          inside=lambda w: sp.E * w)),
                  ground_truth=lambda v, dps: [("mpmath", mpmath.e * v[X])])
    u = sp.Abs(X) / (2 * m)
    main = (Chain(X ** (2 * m))
            .eq(_C2M * (sp.E * u) ** (2 * m), algebra("|X|^(2m) = X^(2m)"))
            .le(_C2M * sp.exp(u) ** (2 * m), by(scaled, X=u, inside=lambda w: _C2M * w ** (2 * m)))
            .eq(_C2M * sp.exp(sp.Abs(X)), algebra())
            .le(_EVEN_POINTWISE, by(exp_abs_bound, Y_1=X, inside=lambda w: _C2M * w)))
    return Theorem(
        name="even_power_exp_bound", reference="R-B4",
        source="the tangent of the convex function exp at 1, e x <= e^x (Rudin 1976, *Principles of Mathematical "
               "Analysis*, §8.6), raised to the power 2m; e^|x| <= e^x + e^-x",
        title="exponential majorant of an even power",
        variables={X: real(sample_lo=-40, sample_hi=40), m: naturals(sample_hi=12)},
        parts=(scaled,
               Part("main", le(X ** (2 * m), bound), proof=_closing(main, _EVEN_POINTWISE, bound),
                    ground_truth=lambda v, dps: [("mpmath", v[X] ** (2 * int(v[m])))])),
        numeric_points=({"X": "2", "m": "1"}, {"X": "10", "m": "5"}, {"X": "-0.3", "m": "2"}, {"X": "-24", "m": "12"}),
        property_examples=15,
        tight="at X = ±2m up to e^(-4m): X^(2m) e^(-|X|) is largest at |X| = 2m.",
    )


even_power_exp_bound = make_even_lemma()

_ODD_POINTWISE = (X ** (2 * m + 2) / tau + tau * X ** (2 * m)) / 2


def make_odd_lemma(bound: sp.Expr = _ODD_POINTWISE) -> Theorem:
    """``X^(2m+1) <= bound`` at every outcome (the library lemma has ``(X^(2m+2)/τ + τ X^(2m))/2``)."""
    proof = (Chain(X ** (2 * m + 1))
             .le(X ** (2 * m + 1) + X ** (2 * m) * (X - tau) ** 2 / (2 * tau), sign("X^(2m) (X - τ)² >= 0"))
             .eq(_ODD_POINTWISE, algebra()))
    return Theorem(
        name="odd_power_am_gm", reference="R-B4",
        source="the inequality of arithmetic and geometric means, ab <= (a² + b²)/2 (e.g. Hardy, Littlewood & "
               "Pólya 1934, *Inequalities*, §2.5), at a = X^(m+1)/√τ, b = √τ X^m",
        title="AM–GM bound for an odd power",
        # checked numerically at X >= 0 only: cdpsym.expr.evaluate computes a power with a symbolic exponent as
        # exp(e log X), complex at X < 0 (where the left side is negative and the right side is not)
        variables={X: real(sample_lo=0, sample_hi=20), tau: positive(sample_lo=0.05, sample_hi=20, log_scale=True),
                   m: naturals(sample_hi=12)},
        parts=(Part("main", le(X ** (2 * m + 1), bound), proof=_closing(proof, _ODD_POINTWISE, bound),
                    ground_truth=lambda v, dps: [("mpmath", v[X] ** (2 * int(v[m]) + 1))]),),
        numeric_points=({"X": "1", "tau": "1", "m": "1"}, {"X": "3", "tau": "3", "m": "4"},
                        {"X": "2", "tau": "0.5", "m": "2"}, {"X": "0", "tau": "2", "m": "3"}),
        property_examples=15,
        tight="at X = τ.",
    )


odd_power_am_gm = make_odd_lemma()

# -- ground truth ------------------------------------------------------------------------------------------------------

def _bernoulli_proxy(p):
    """The optimal subgaussian constant σ_p of a centred Bernoulli(p), p < 1/2 (Kearns–Saul)."""
    return mpmath.sqrt((1 - 2 * p) / (2 * mpmath.log((1 - p) / p)))


@functools.lru_cache(maxsize=128)
def _standard_normal_moment(kk, dps):
    """E[Z^k], Z ~ N(0, 1), by quadrature of z^k φ(z) (N(0, τ²) is τZ, so its moment is τ^k E[Z^k]).  φ is even:
    the integral over the negative half-line is (-1)^k times the one over the positive half-line."""
    if kk % 2:
        return mpmath.mpf(0)
    with mpmath.workdps(dps + 10):
        phi = lambda z: mpmath.exp(-z ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
        return 2 * mpmath.quad(lambda z: z ** kk * phi(z), [0, mpmath.inf])


@functools.lru_cache(maxsize=256)
def _witnesses_at(tt, kk, dps):
    with mpmath.workdps(dps + 10):
        gauss = tt ** kk * _standard_normal_moment(kk, dps)
        a = mpmath.sqrt(3) * tt  # uniform on [-a, a]: MGF sinh(aλ)/(aλ) <= e^{λ²a²/6}
        uniform = (a ** kk / (kk + 1)) if kk % 2 == 0 else mpmath.mpf(0)
        moment = lambda law: mpmath.fsum(q * x ** kk for x, q in law)  # noqa: E731
        signs = moment([(-tt, mpmath.mpf(1) / 2), (tt, mpmath.mpf(1) / 2)])
        skew = moment([(-tt / 2, mpmath.mpf(3) / 4), (3 * tt / 2, mpmath.mpf(1) / 4)])
        p = min(mpmath.mpf(1) / 4, mpmath.exp(-mpmath.mpf(kk) / 4))  # the heavier odd moments for larger k
        c = tt / _bernoulli_proxy(p)
        bern = moment([(c * (1 - p), p), (-c * p, 1 - p)])
        return (("N(0, tau^2), quadrature", +gauss), ("uniform on [-sqrt(3) tau, sqrt(3) tau], exact", +uniform),
                ("tau * Rademacher, exact", +signs), ("{-tau/2: 3/4, 3tau/2: 1/4}, exact", +skew),
                (f"centred Bernoulli({mpmath.nstr(p, 5)}) scaled to tau (Kearns-Saul), exact", +bern))


def witnesses(tt, kk: int):
    """(name, E[X^k]) of τ-subgaussian laws, computed from their definitions (quadrature, sums)."""
    return list(_witnesses_at(mpmath.mpf(tt), int(kk), mpmath.mp.dps))


# -- the Chernoff bound on an even moment (a lemma with the hypothesis) ------------------------------------------------

#: E[X^(2m)] <= 2 (2m/e)^m τ^(2m): what the Chernoff argument gives, sharper than the item
SHARP = 2 * (2 * m / sp.E) ** m * tau ** (2 * m)
_VARIABLES = {tau: positive(sample_lo=0.05, sample_hi=20, log_scale=True), X: real(sample_lo=-1, sample_hi=1),
              m: naturals(sample_hi=12)}
_POINTS = ({"tau": "1", "m": "1"}, {"tau": "0.3", "m": "2"}, {"tau": "7", "m": "1"}, {"tau": "1", "m": "5"},
           {"tau": "2.5", "m": "12"})


def make_sharp_lemma(bound: sp.Expr = SHARP) -> Theorem:
    """``E[X^(2m)] <= bound`` for τ-subgaussian X (the library lemma has ``2 (2m/e)^m τ^(2m)``)."""
    mgf = sp.exp(eta ** 2 * tau ** 2 / 2)
    plus, minus = Expect(sp.exp(eta * X)), Expect(sp.exp(-eta * X))
    chain = (
        Chain(Expect(X ** (2 * m)), variables={eta: positive()})
        .eq(Expect(eta ** (2 * m) * X ** (2 * m)) / eta ** (2 * m),
            by(expectation_affine, a=eta ** (2 * m), b=0, X=X ** (2 * m)))
        .le(Expect(_C2M * (sp.exp(eta * X) + sp.exp(-eta * X))) / eta ** (2 * m),
            by(even_power_exp_bound.part("main"), X=eta * X, m=m, inside=lambda w: Expect(w) / eta ** (2 * m)))
        .eq(_C2M * Expect(sp.exp(eta * X) + sp.exp(-eta * X)) / eta ** (2 * m),
            by(expectation_affine, a=_C2M, b=0, X=sp.exp(eta * X) + sp.exp(-eta * X)))
        .eq(_C2M * (plus + minus) / eta ** (2 * m),
            by(expectation_sum_nonnegative, Y_1=sp.exp(eta * X), Y_2=sp.exp(-eta * X)))
        .le(_C2M * (mgf + minus) / eta ** (2 * m),
            by(subgaussian, lam=eta, inside=lambda w: _C2M * (w + minus) / eta ** (2 * m)))
        .le(_C2M * (2 * mgf) / eta ** (2 * m),
            by(subgaussian, lam=-eta, inside=lambda w: _C2M * (mgf + w) / eta ** (2 * m)))
        .eq(SHARP, Specialize(eta, sp.sqrt(2 * m) / tau))  # any η > 0 would do; this one minimises
    )
    return Theorem(
        name="subgaussian_even_moments", reference="R-B4",
        source="the Chernoff argument on the moment: x^(2m) <= (2m/(eη))^(2m) (e^(ηx) + e^(-ηx)), in expectation, "
               "at η = sqrt(2m)/τ (cf. Vershynin 2018, *High-Dimensional Probability*, Prop. 2.5.2)",
        title="even moments of a subgaussian variable, Chernoff form",
        variables=dict(_VARIABLES),
        hypotheses=(subgaussian,),
        parts=(Part("main", le(Expect(X ** (2 * m)), bound), proof=_closing(chain, SHARP, bound),
                    ground_truth=lambda v, dps: witnesses(v[tau], 2 * int(v[m]))),),
        numeric_points=_POINTS,
        property_examples=20,
        tight="not quite: N(0, τ²) has (2m − 1)!! τ^(2m) ~ sqrt(2) (2m/e)^m τ^(2m), a factor sqrt(2) below the bound.",
    )


subgaussian_even_moments = make_sharp_lemma()

LEMMAS = [factorial_lower_bound, even_power_exp_bound, odd_power_am_gm, subgaussian_even_moments]


# -- the theorem -------------------------------------------------------------------------------------------------------

def _factorial_step(n: sp.Expr, context):
    """``2 (2n/e)^n τ^(2n) <= n! 2^(n+1) τ^(2n)`` inside ``context``: m^m <= e^m m! at m = n."""
    return by(factorial_lower_bound.part("main"), m=n,
              inside=lambda w: context(2 ** (n + 1) * sp.exp(-n) * tau ** (2 * n) * w))


def make(first: sp.Expr | None = None, even: sp.Expr | None = None, odd: sp.Expr | None = None) -> Theorem:
    """The statement with the claimed bounds (tests build mutants with wrong ones)."""
    first_rhs, even_rhs, odd_rhs = moment_bound(1, 1), moment_bound(2 * m, m), moment_bound(2 * m + 1, m + 1)
    first, even, odd = (first_rhs if first is None else first, even_rhs if even is None else even,
                        odd_rhs if odd is None else odd)
    sharp = lambda n: SHARP.subs(m, n)  # noqa: E731
    even_chain = (Chain(Expect(X ** (2 * m))).le(SHARP, by(subgaussian_even_moments))
                  .le(even_rhs, _factorial_step(m, lambda w: w)))

    hi, lo = Expect(X ** (2 * m + 2)), Expect(X ** (2 * m))
    odd_end = (moment_bound(2 * m + 2, m + 1) / tau + tau * even_rhs) / 2
    odd_chain = (
        Chain(Expect(X ** (2 * m + 1)))
        .le(Expect(_ODD_POINTWISE), by(odd_power_am_gm, X=X, tau=tau, m=m, inside=lambda w: Expect(w)))
        .eq(Expect(X ** (2 * m + 2) / tau + tau * X ** (2 * m)) / 2,
            by(expectation_affine, a=sp.S.Half, b=0, X=X ** (2 * m + 2) / tau + tau * X ** (2 * m)))
        .eq((Expect(X ** (2 * m + 2) / tau) + Expect(tau * X ** (2 * m))) / 2,
            by(expectation_sum_nonnegative, Y_1=X ** (2 * m + 2) / tau, Y_2=tau * X ** (2 * m)))
        .eq((hi / tau + Expect(tau * X ** (2 * m))) / 2, by(expectation_affine, a=1 / tau, b=0, X=X ** (2 * m + 2)))
        .eq((hi / tau + tau * lo) / 2, by(expectation_affine, a=tau, b=0, X=X ** (2 * m)))
        .le((sharp(m + 1) / tau + tau * lo) / 2,
            by(subgaussian_even_moments, m=m + 1, inside=lambda w: (w / tau + tau * lo) / 2))
        .le((sharp(m + 1) / tau + tau * SHARP) / 2,
            by(subgaussian_even_moments, m=m, inside=lambda w: (sharp(m + 1) / tau + tau * w) / 2))
        .le((moment_bound(2 * m + 2, m + 1) / tau + tau * SHARP) / 2,
            _factorial_step(m + 1, lambda w: (w / tau + tau * SHARP) / 2))
        .le(odd_end, _factorial_step(m, lambda w: (moment_bound(2 * m + 2, m + 1) / tau + tau * w) / 2))
        .le(odd_rhs, by(factorial_lower_bound.part("positive"), m=m,  # the gap is m! 2^m (2m + 1) τ^(2m+1)
                        inside=lambda w: odd_end + 2 ** m * (2 * m + 1) * tau ** (2 * m + 1) * w))
    )
    first_chain = (Chain(Expect(X)).le(sp.S.Zero, by(subgaussian_variance.part("mean_upper")))
                   .le(first_rhs, sign("τ > 0")))
    return Theorem(
        name="subgaussian_moments",
        reference="R-B4",
        source="Dwork & Rothblum 2016, Fact 2.2, arXiv:1603.01887v2",
        title="subgaussian moments",
        variables=dict(_VARIABLES),
        hypotheses=(subgaussian,),
        parts=(Part("first", le(Expect(X), first), proof=_closing(first_chain, first_rhs, first),
                    ground_truth=lambda v, dps: witnesses(v[tau], 1)),
               Part("even", le(Expect(X ** (2 * m)), even), proof=_closing(even_chain, even_rhs, even),
                    ground_truth=lambda v, dps: witnesses(v[tau], 2 * int(v[m]))),
               Part("odd", le(Expect(X ** (2 * m + 1)), odd), proof=_closing(odd_chain, odd_rhs, odd),
                    ground_truth=lambda v, dps: witnesses(v[tau], 2 * int(v[m]) + 1))),
        numeric_points=_POINTS,
        property_examples=20,
        tight="no: N(0, τ²) has E[X⁴] = 3τ⁴ against 16τ⁴; the lemma subgaussian_even_moments gives 2(2m/e)^m τ^(2m).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail.

    The natural mutants "2^⌈k/2⌉ (the factor 2 dropped)" and "⌊k/2⌋ for ⌈k/2⌉" are true statements
    (E[X^(2m)] <= 2(2m/e)^m τ^(2m) <= m! 2^m τ^(2m); E|X|^k <= 2(k/e)^(k/2) τ^k <= ⌊k/2⌋! 2^(⌊k/2⌋+1) τ^k for odd k),
    so the mutants below are sharper: each is violated by one of the ground-truth laws at a numeric point."""
    return [
        ("E[X^(2m)] <= 2^(m+1) τ^(2m): the factorial dropped", make(even=2 ** (m + 1) * tau ** (2 * m))),
        ("E[X^(2m)] <= 2 m! τ^(2m): the power of 2 dropped", make(even=2 * factorial(m) * tau ** (2 * m))),
        ("E[X^(2m)] <= m! 2^(m+1) τ^m: τ^k read as τ^(k/2)", make(even=factorial(m) * 2 ** (m + 1) * tau ** m)),
        ("E[X^(2m+1)] <= 2^(m+2) τ^(2m+1): the factorial dropped", make(odd=2 ** (m + 2) * tau ** (2 * m + 1))),
        ("E[X^(2m+1)] <= (m+1)! 2^(m+2) τ^m: τ^k read as τ^(k/2)",
         make(odd=factorial(m + 1) * 2 ** (m + 2) * tau ** m)),
        ("E[X] <= −τ/10: a negative mean", make(first=-tau / 10)),
        ("E[X^(2m)] <= (2m/e)^m τ^(2m): the Chernoff bound halved", make_sharp_lemma(SHARP / 2)),
        ("X^(2m) <= (2m/e)^(2m) (e^X + e^−X)/2: halved", make_even_lemma(_EVEN_POINTWISE / 2)),
        ("m^m <= m!: the e^m dropped", make_factorial_lemma(factorial(m))),
        ("X^(2m+1) <= (X^(2m+2)/τ + τ X^(2m))/4: halved", make_odd_lemma(_ODD_POINTWISE / 2)),
    ]
