r"""The ordering of the closed-form zCDP → (ε, δ) conversions (R-E7): CKS20 ≤ BS16 Prop 1.3 ≤ Mironov at any
order, BS16 Lemma 3.6 ≤ BS16 Prop 1.3, CKS20 < Mironov at every order — the parts that are inequalities
between closed forms, *proved*.

For a ρ-zCDP guarantee (ρ > 0), ε > ρ, 0 < δ < 1 and an order α > 1:

.. math::
    \underbrace{\frac{e^{(\alpha-1)(\alpha\rho-\varepsilon)}}{\alpha-1}\Big(1-\frac1\alpha\Big)^{\alpha}}_{\text{CKS20, R-E1}}
    \le e^{(\alpha-1)(\alpha\rho-\varepsilon)},\qquad
    \delta_{\mathrm{CKS20}}\Big(\alpha^*=\frac{\varepsilon+\rho}{2\rho}\Big)\le e^{-(\varepsilon-\rho)^2/(4\rho)}
    \ (\text{BS16 Prop 1.3}),

.. math::
    \underbrace{e^{-\frac{(\varepsilon-\rho)^2}{4\rho}}\min\Big\{\sqrt{\pi\rho},\frac1{1+a},
    \frac{2}{1+a+\sqrt{(1+a)^2+\frac4{\pi\rho}}}\Big\}}_{\text{BS16 Lemma 3.6, R-C5 at }\xi=0,\ a=\frac{\varepsilon-\rho}{2\rho}}
    \le e^{-\frac{(\varepsilon-\rho)^2}{4\rho}},

and in the ε-for-δ forms, with :math:`\ell=\log(1/\delta)`,

.. math::
    \underbrace{\alpha\rho+\log\frac{\alpha-1}{\alpha}-\frac{\log\delta+\log\alpha}{\alpha-1}}_{\varepsilon_{\mathrm{CKS20}}(\alpha)}
    <\underbrace{\alpha\rho+\frac{\ell}{\alpha-1}}_{\varepsilon_{\mathrm{M17}}(\alpha)},\qquad
    \underbrace{\rho+2\sqrt{\rho\,\ell}}_{\varepsilon_{\mathrm{BS16}}}\le\varepsilon_{\mathrm{M17}}(\alpha).

Parts: ``log_step`` and ``power_le_base`` (steps: :math:`(1-1/\alpha)^\alpha\le1-1/\alpha`), ``cks20_le_tail`` (CKS20's δ
is at most the Markov/tail bound of BS16 Lemma 3.5 at the same order), ``cks20_le_prop13`` (at
α*, hence the CKS20 δ optimised over α is at most Prop 1.3's δ: the CKS20 ε is at most
:math:`\rho+2\sqrt{\rho\ell}`), ``lemma36_le_prop13``, ``cks20_lt_mironov`` (the gap is
:math:`\frac{\log\alpha}{\alpha-1}-\log(1-\frac1\alpha)>0`, REFERENCE R-D5/✓N11), ``prop13_le_mironov``
(**AM–GM**: the difference is the square :math:`(\sqrt{(\alpha-1)\rho}-\sqrt{\ell/(\alpha-1)})^2`).

What is *not* here: "exact ≤ CKS20" (it needs the validity of CKS20, R-E1, and the exact Gaussian
profile, R-E4 — neither is kernel-proved: :mod:`theorems.gaussian_approx_dp_exact` is *supported*)
and "CKS20 ≤ Lemma 3.6" (REFERENCE checks it at four points, ✓N9; no proof is claimed).  That each
formula *is* a valid conversion is a separate theorem (R-C4: :mod:`theorems.approx_dp_of_zcdp`,
proved; R-D5: :mod:`theorems.approx_dp_of_rdp`, proved; R-E1 and R-C5: not encoded).

Axiom added here: ``min_le_argument`` (min{x, y, z} ≤ y: the definition of the minimum).

Ground truths (each part's left side, not from its formula): CKS20's constant
:math:`c=\max_z(1-e^{\varepsilon-z})e^{-(\alpha-1)z}` by numerical maximisation over z (a root of the
numerical derivative), and its ε by bisection on :math:`c(\varepsilon')e^{(\alpha-1)\alpha\rho}=\delta`;
Lemma 3.6 from REFERENCE's proof variable :math:`x=(\varepsilon+\rho)/\sqrt{2\rho}` and its three
Mills-ratio bounds; BS16's ε by bisection on :math:`e^{-(\varepsilon-\rho)^2/(4\rho)}=\delta`.

References
----------
* Canonne, Kamath & Steinke 2020, Prop 12, arXiv:2004.00010v4 (CKS20).
* Bun & Steinke 2016, Prop 1.3, Lemma 3.5 and Lemma 3.6, arXiv:1605.02065.
* Mironov 2017, Prop 3, arXiv:1702.07476v3.
* REFERENCE.md R-E7 (the chain and its table, ✓N9), R-E1, R-C4, R-C5, R-D5 (✓N11).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import alpha, delta, eps, greater_than, open_unit, positive, real
from cdpsym.expr.symbols import rho
from cdpsym.proof import Axiom, Chain, Part, Theorem, algebra, by, le, lt, sign
from theorems.zcdp_rho_calibration import conversion_eps

__all__ = ["theorem", "make", "mutants", "cks20_delta", "cks20_eps", "mironov_eps", "prop13_eps", "lemma36_delta",
           "min_le_argument", "AXIOMS"]


def cks20_delta(a=alpha, r=rho, e=eps):
    """CKS20's δ at order ``a`` for ρ-zCDP (τ = aρ): ``exp((a-1)(a r - e))/(a-1) * (1 - 1/a)**a``."""
    return sp.exp((a - 1) * (a * r - e)) / (a - 1) * (1 - 1 / a) ** a


def cks20_eps(a=alpha, r=rho, d=delta):
    """CKS20's ε at order ``a`` for ρ-zCDP: ``a r + log((a-1)/a) - (log d + log a)/(a-1)``."""
    return a * r + sp.log((a - 1) / a) - (sp.log(d) + sp.log(a)) / (a - 1)


def mironov_eps(a=alpha, r=rho, d=delta):
    """Mironov's Prop 3 at order ``a`` for ρ-zCDP: ``a r + log(1/d)/(a-1)``."""
    return a * r + sp.log(1 / d) / (a - 1)


def prop13_eps(r=rho, d=delta):
    """BS16 Prop 1.3: ``r + 2 sqrt(r log(1/d))``."""
    return r + 2 * sp.sqrt(r * sp.log(1 / d))


_A = (eps - rho) / (2 * rho)


def lemma36_delta(r=rho, e=eps):
    """BS16 Lemma 3.6 (R-C5) at ξ = 0."""
    a = (e - r) / (2 * r)
    return sp.exp(-(e - r) ** 2 / (4 * r)) * sp.Min(sp.sqrt(sp.pi * r), 1 / (1 + a),
                                                  2 / (1 + a + sp.sqrt((1 + a) ** 2 + 4 / (sp.pi * r))))


# -- the axiom: the minimum is at most each of its arguments ----------------------------------------------------

_x, _y, _z = sp.symbols("x_1 x_2 x_3", real=True)

min_le_argument = Axiom(
    name="min_le_argument",
    title="the minimum of three reals is at most its second argument",
    citation="the definition of the minimum (the greatest lower bound of a finite set is one of its elements and "
             "below each of them); e.g. Rudin, *Principles of Mathematical Analysis*, 3rd ed., Def 1.8",
    relation=le(sp.Min(_x, _y, _z), _y),
    variables={_x: real(sample_lo=-5, sample_hi=5), _y: real(sample_lo=-5, sample_hi=5),
               _z: real(sample_lo=-5, sample_hi=5)},
    ground_truth=lambda v, dps: [("min of the three values (mpmath)", min(v[_x], v[_y], v[_z]))],
    numeric_points=({"x_1": "0.3", "x_2": "-1", "x_3": "2"}, {"x_1": "-4", "x_2": "1", "x_3": "0.5"}),
)

AXIOMS = [min_le_argument]


# -- ground truths ----------------------------------------------------------------------------------------------

def _cks_constant(a, e):
    r"""max_z (1 - e^{e-z}) e^{-(a-1) z}: the smallest c with (1 - e^{e-z})_+ <= c e^{(a-1)z} for all z (R-E1's
    step (2)), numerically.  With z = e + u (only u > 0 counts), the logarithm
    :math:`\log(1-e^{-u})-(a-1)(e+u)` is concave in u with derivative :math:`1/(e^u-1)-(a-1)`, decreasing
    from +oo to -(a-1): its root is bracketed (halving and doubling) and found by the Illinois method."""
    slope = lambda u: 1 / mpmath.expm1(u) - (a - 1)  # noqa: E731
    lo, hi = mpmath.mpf(1), mpmath.mpf(1)
    while slope(lo) <= 0:
        lo /= 2
    while slope(hi) >= 0:
        hi *= 2
    u = mpmath.findroot(slope, (lo, hi), solver="illinois")
    return mpmath.exp(mpmath.log(-mpmath.expm1(-u)) - (a - 1) * (e + u))


def _cks_delta_truth(at_star: bool):
    def truth(v, dps):
        r, e = v[rho], v[eps]
        a = (e + r) / (2 * r) if at_star else v[alpha]
        with mpmath.workdps(dps + 15):
            value = _cks_constant(a, e) * mpmath.exp((a - 1) * a * r)
        return [("max_z (1 - e^(eps - z)) e^(-(alpha - 1) z) found numerically, times e^((alpha - 1) alpha rho)",
                 +value)]
    return truth


def _cks_eps_truth(v, dps):
    a, r, d = v[alpha], v[rho], v[delta]
    with mpmath.workdps(dps + 15):
        # log c(e') is linear in e' with slope -(a - 1) (c(e') = c(0) e^{-(a-1)e'}, found numerically at two
        # points): the root of log c(e') + (a-1) a r = log d is then explicit in the two numerical values
        c0, c1 = mpmath.log(_cks_constant(a, 0)), mpmath.log(_cks_constant(a, 1))
        value = (mpmath.log(d) - (a - 1) * a * r - c0) / (c1 - c0)
    return [("the eps' with max_z(...)·e^((alpha-1) alpha rho) = delta (the maximum found numerically)", +value)]


def _lemma36_truth(v, dps):
    r, e = v[rho], v[eps]
    with mpmath.workdps(dps + 15):
        x = (e + r) / mpmath.sqrt(2 * r)  # REFERENCE R-C5's x = (1 + a) sqrt(2 rho)
        root = mpmath.sqrt(2 * mpmath.pi)
        mills = min(mpmath.mpf(1) / 2, 1 / (x * root), 2 / (root * (x + mpmath.sqrt(x * x + 8 / mpmath.pi))))
        value = mpmath.sqrt(4 * mpmath.pi * r) * mpmath.exp(-(e - r) ** 2 / (4 * r)) * mills
    return [("sqrt(4 pi rho) e^(-(eps-rho)^2/(4 rho)) times the least of the three Mills-ratio bounds at x", +value)]


def _prop13_truth(v, dps):
    with mpmath.workdps(dps + 15):
        value = conversion_eps(v[rho], v[delta])
    return [("the eps > rho with e^(-(eps - rho)^2/(4 rho)) = delta, by bisection", +value)]


# -- the theorem ------------------------------------------------------------------------------------------------

def make(factor: sp.Expr = sp.Integer(1), mironov: sp.Expr | None = None) -> Theorem:
    """The ordering with the right sides (the competitors of CKS20 and Lemma 3.6) scaled by ``factor`` and
    Mironov's ε given by ``mironov``: tests build mutants with smaller right sides (an unsafe claim that
    a bound is better than it is)."""
    cks, cks_eps, lemma36, bs16_eps = cks20_delta(), cks20_eps(), lemma36_delta(), prop13_eps()
    mironov = mironov_eps() if mironov is None else mironov
    a_vars = {alpha: greater_than(1, sample_lo=1.01, sample_hi=60, log_scale=True)}
    r_vars = {rho: positive(sample_lo=1e-3, sample_hi=10, log_scale=True)}
    e_vars = {eps: greater_than(rho, sample_hi=40)}
    d_vars = {delta: open_unit(sample_lo=1e-30, sample_hi=0.5, log_scale=True)}
    exponent = (alpha - 1) * (alpha * rho - eps)
    base = 1 - 1 / alpha

    log_step = Part("log_step", le(alpha * sp.log(base), sp.log(base)), variables=a_vars,
                    proof=Chain(alpha * sp.log(base)).le(sp.log(base), sign("(alpha - 1) log(1 - 1/alpha) <= 0")))
    power_le_base = Part(
        "power_le_base", le(base ** alpha, base), variables=a_vars,
        proof=(Chain(base ** alpha)
               .eq(sp.exp(alpha * sp.log(base)), algebra("x^a = e^(a log x), x > 0"))
               .le(sp.exp(sp.log(base)), by(log_step, inside=sp.exp))
               .eq(base, algebra())))
    tail = (Chain(cks)
            .le(sp.exp(exponent) / (alpha - 1) * base, by(power_le_base, inside=lambda w: sp.exp(exponent) / (alpha - 1) * w))
            .eq(sp.exp(exponent) / alpha, algebra())
            .le(factor * sp.exp(exponent), sign("1/alpha <= 1")))
    cks20_le_tail = Part("cks20_le_tail", le(cks, factor * sp.exp(exponent)), variables={**a_vars, **r_vars, **e_vars},
                         proof=tail, ground_truth=_cks_delta_truth(at_star=False))
    star = (eps + rho) / (2 * rho)
    cks_star = cks.subs(alpha, star)
    cks20_le_prop13 = Part(
        "cks20_le_prop13", le(cks_star, factor * sp.exp(-(eps - rho) ** 2 / (4 * rho))),
        variables={**r_vars, **e_vars},
        proof=(Chain(cks_star)
               .le(factor * sp.exp(exponent).subs(alpha, star), by(cks20_le_tail, alpha=star))
               .eq(factor * sp.exp(-(eps - rho) ** 2 / (4 * rho)),
                   algebra("at the order α* = (ε + ρ)/(2ρ); then (α* − 1)(α*ρ − ε) = −(ε − ρ)²/(4ρ)"))),
        ground_truth=_cks_delta_truth(at_star=True))
    a_ = _A
    args = (sp.sqrt(sp.pi * rho), 1 / (1 + a_), 2 / (1 + a_ + sp.sqrt((1 + a_) ** 2 + 4 / (sp.pi * rho))))
    gauss = sp.exp(-(eps - rho) ** 2 / (4 * rho))
    lemma36_le_prop13 = Part(
        "lemma36_le_prop13", le(lemma36, factor * gauss), variables={**r_vars, **e_vars},
        proof=(Chain(lemma36)
               .le(gauss * args[1], by(min_le_argument, x_1=args[0], x_2=args[1], x_3=args[2],
                                       inside=lambda w: gauss * w))
               .le(factor * gauss, sign("1/(1 + a) <= 1 for a >= 0"))),
        ground_truth=_lemma36_truth)
    gap = sp.log(alpha) / (alpha - 1) - sp.log(1 - 1 / alpha)  # R-D5 / ✓N11: the improvement of CKS20 on M17
    cks20_lt_mironov = Part(
        "cks20_lt_mironov", lt(cks_eps, mironov), variables={**a_vars, **r_vars, **d_vars},
        proof=(Chain(cks_eps)
               .eq(mironov_eps() - gap, algebra())
               .lt(mironov, sign("the gap log(alpha)/(alpha-1) - log(1 - 1/alpha) > 0"))),
        ground_truth=_cks_eps_truth)
    ell = sp.log(1 / delta)
    square = (sp.sqrt((alpha - 1) * rho) - sp.sqrt(ell / (alpha - 1))) ** 2
    prop13_le_mironov = Part(
        "prop13_le_mironov", le(bs16_eps, mironov), variables={**a_vars, **r_vars, **d_vars},
        proof=(Chain(bs16_eps)
               .le(prop13_eps() + square, sign("a square is non-negative"))
               .eq(mironov_eps(), algebra("AM-GM, where l = log(1/δ); then (α − 1)ρ + l/(α − 1) − 2√(ρl) is a square"))
               .le(mironov, sign("the claimed Mironov epsilon is at least his"))),
        ground_truth=_prop13_truth)
    return Theorem(
        name="zcdp_conversion_ordering",
        reference="R-E7",
        source="REFERENCE R-E7; Canonne, Kamath & Steinke 2020, Prop 12; Bun & Steinke 2016, Prop 1.3, Lemmas 3.5, "
               "3.6; Mironov 2017, Prop 3",
        title="ordering of the zCDP to approximate DP conversions",
        variables={},
        parts=(log_step, power_le_base, cks20_le_tail, cks20_le_prop13, lemma36_le_prop13, cks20_lt_mironov, prop13_le_mironov),
        numeric_points=({"alpha": "4.73711441", "rho": "0.5", "eps": "4", "delta": "1e-6"},
                        {"alpha": "1.01", "rho": "0.01", "eps": "0.8", "delta": "1e-9"},
                        {"alpha": "3", "rho": "2", "eps": "11", "delta": "1e-5"},
                        {"alpha": "40", "rho": "0.125", "eps": "1.4", "delta": "1e-3"},
                        {"alpha": "1.5", "rho": "3", "eps": "3.5", "delta": "0.4"}),
        property_examples=15,
        tight="the gaps are strict away from degenerate limits; see REFERENCE R-E7's table (✓N9).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    ell = sp.log(1 / delta)
    return [
        ("the competitors' δ divided by e: CKS20 and Lemma 3.6 claimed better than they are", make(factor=1 / sp.E)),
        ("the competitors' δ halved", make(factor=sp.Rational(1, 2))),
        ("Mironov's ε with log(1/δ)/(2(α − 1)): the log term halved", make(mironov=alpha * rho + ell / (2 * (alpha - 1)))),
    ]
