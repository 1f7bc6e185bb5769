r"""Group privacy for RDP (Mironov 2017, Prop 2): an (α, ε)-RDP mechanism is (α/2^c, 3^c ε)-RDP on inputs at
distance 2^c when α ≥ 2^{c+1}, for every c ≥ 1.

.. math::
    \mathbb E\big[e^{(\alpha/2^c-1)\,G_{2^c}}\big]\ \le\ e^{(\alpha/2^c-1)\,3^c\varepsilon},
    \quad\text{i.e.}\quad D_{\alpha/2^c}\big(M(x_0)\,\|\,M(x_{2^c})\big)\le 3^c\varepsilon
    \qquad(c\ge1,\ \alpha\ge 2^{c+1}),

whenever every neighbouring pair satisfies :math:`\mathbb E_P[e^{(\alpha-1)L}]\le e^{(\alpha-1)\varepsilon}`
(hypothesis ``rdp`` of ``rdp_composition``: :math:`D_\alpha(P\|Q)\le\varepsilon`, Mironov Def 3/4).

Parameterization: as ``zcdp_group_privacy``.  "f is (α, ε)-RDP and g is 2^c-stable" means: the two inputs
:math:`g(D), g(D')` of f are joined by a chain :math:`x_0\simeq x_1\simeq\dots\simeq x_{2^c}` of neighbouring
inputs of f (a shorter chain is padded with repeated inputs: a pair (x, x) has D_α = 0 ≤ ε).  ``ell(j)`` is the
loss :math:`\log\frac{m_{j-1}}{m_j}(Y)` of the link j and ``G(k)`` the group loss :math:`\log\frac{m_0}{m_k}(Y)`,
both at :math:`Y\sim M(x_0)`, so :math:`\mathbb E[e^{(\beta-1)G_k}]=e^{(\beta-1)D_\beta(M(x_0)\|M(x_k))}`.
The canonical pair ``(P, Q)`` of the hypothesis stands for every link (the kernel's class-member rule,
``by(fact, at_link=j)``).

Parts:

* ``lower_order`` -- monotonicity of Rényi divergence in its order (van Erven & Harremoës 2014, Thm 3), in the
  form needed: :math:`\mathbb E[e^{\frac{\alpha-1}{1+s}L}]\le e^{\frac{\alpha-1}{1+s}\varepsilon}` for s > 0,
  i.e. :math:`D_\beta\le\varepsilon` for :math:`1<\beta<\alpha`.  **Proved**, not assumed: it is Hölder/Lyapunov,
  :math:`\mathbb E[X^{1/p}]\le(\mathbb E X)^{1/p}` at :math:`X=e^{(\alpha-1)L}`, p = 1 + s, through **Young's
  inequality** in expectation (``young_expectation``) with a free scale t specialised at the minimiser.
* ``group`` -- for every integer k with 1 ≤ k < α: :math:`\mathbb E[e^{(\alpha/k-1)G_k}]\le
  e^{(\alpha-(k+1)/2)\varepsilon}`, i.e. :math:`D_{\alpha/k}(M(x_0)\|M(x_k))\le\frac{k(\alpha-(k+1)/2)}{\alpha-k}
  \varepsilon`.  **Proved by induction on k** over the integers of [1, α) (the kernel's induction on a bounded
  range: the step runs over k < α − 1, where the link's order α − k exceeds 1).  The base is the hypothesis at
  the first link; the step from k to k + 1 is Mironov's **weak triangle inequality** (Prop 11) at order
  :math:`\alpha/(k+1)` with Hölder exponent p = (k+1)/k, re-derived in the chain's measure (relative to
  :math:`m_0`) as in ``zcdp_group_privacy`` -- ``renyi_weak_triangle`` states it for three distributions under
  the middle one, which the chain does not name, so it is not cited: :math:`e^{(\alpha/(k+1)-1)G_{k+1}}` is the
  product of :math:`e^{\frac{\alpha-k}{k+1}G_k}` and :math:`e^{-G_k/(k+1)+(\frac{\alpha}{k+1}-1)\ell_{k+1}}`;
  Young with a free scale, the induction hypothesis for the first factor, the change of measure
  ``chain_change_of_measure`` and ``lower_order`` at the link k + 1 (order α − k) for the second, t at the
  minimiser :math:`e^{-k\varepsilon/(2(k+1))}`.
* ``order`` -- the algebra :math:`\alpha-k-1=\frac{\alpha-1}{1+s}` at :math:`s=\frac{k}{\alpha-k-1}` that puts the
  link's order in the form of ``lower_order``.
* ``exponent`` -- :math:`\alpha-(2^c+1)/2\le(\alpha/2^c-1)3^c` for α ≥ 2^{c+1}:
  :math:`\alpha-(2^c+1)/2\le\frac32(\alpha-2^c)\le(\frac32)^c(\alpha-2^c)`, by the lemma
  ``three_halves_power_growth`` (:math:`(3/2)^c\ge3/2`, by induction on c), and ``main``: ``group`` at k = 2^c
  (an integer below α ≥ 2^{c+1}).

For c = 1 this *is* Mironov's proof: one step, p = 2, :math:`D_{\alpha/2}(P\|R)\le\frac{\alpha-1}{\alpha-2}
D_\alpha(P\|Q)+D_{\alpha-1}(Q\|R)\le\frac{2\alpha-3}{\alpha-2}\varepsilon\le3\varepsilon` (monotonicity for the
second term; the bound is the sharper (2α − 3)/(α − 2) ε ≤ 5ε/2 for α ≥ 4).  For c ≥ 2 the chain is walked
link by link (the weak triangle inequality 2^c − 1 times, with p = (k+1)/k) instead of Mironov's midpoint split
(c times, p = 2): the kernel's chain of inputs has the group loss from :math:`x_0` only, and the midpoint split
needs the loss of the second half, :math:`\log m_{2^{c-1}}/m_{2^c}` under :math:`M(x_{2^{c-1}})`.
The link-by-link bound is
:math:`D_{\alpha/K}\le\frac{K(\alpha-(K+1)/2)}{\alpha-K}\varepsilon` at K = 2^c, which is at most 3^c ε for
α ≥ 2^{c+1} (part ``exponent``); at c = 1 it is Mironov's intermediate bound.

Tight: no (Mironov does not claim it).  The Gaussian mechanism attains :math:`D_{\alpha/2^c}=2^c\varepsilon`
at distance 2^c; the binary mechanism :math:`\Pr[1\mid x_j]=\sigma(j\theta)` (randomized response on a counting
query, logistic link) can exceed :math:`2^c\varepsilon` (c = 1, α = 4, ε = 1: :math:`D_2\approx2.19\,\varepsilon`),
so the factor cannot be 2^c.  The ground truths are these two mechanisms with every link's :math:`D_\alpha` at
most ε (the worst link exactly ε): the Gaussian one by Arb quadrature of :math:`\mathbb E_{M(x_0)}[e^{(\beta-1)G_K}]
=\int m_0^\beta m_K^{1-\beta}`, the binary one by enumeration.

No axiom is added: ``young_expectation``, ``expectation_affine`` and the chain's measure theory
(``group_loss_one``, ``group_loss_step``, ``chain_base_measure``, ``chain_change_of_measure`` of
``pure_dp_group_privacy``) are reused.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Proposition 2 (group privacy) and Proposition 11 (weak triangle
  inequality), arXiv:1702.07476v3.
* van Erven & Harremoës 2014, *Rényi Divergence and Kullback–Leibler Divergence*, Thm 3 (monotonicity in the
  order), IEEE Trans. Inf. Theory 60(7), arXiv:1206.2459.
* REFERENCE.md R-D8, R-A4, R-C8.
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, at_least, eps, k, naturals, positive, s, t
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect, ExpectAt
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, induction, le, sign, specialize
from theorems.foundations_composition import normal_expectation
from theorems.foundations_convexity import expectation_affine
from theorems.pure_dp_group_privacy import G, chain_base_measure, chain_change_of_measure, ell, group_loss_one, \
    group_loss_step
from theorems.rdp_composition import rdp
from theorems.rdp_probability_preservation import young_expectation

__all__ = ["theorem", "make", "make_growth", "mutants", "LEMMAS", "three_halves_power_growth", "c",
           "gaussian_chain_mgf", "binary_chain_mgf", "binary_chain_theta"]


# -- ground truths: two mechanisms whose links have D_α = ε exactly --------------------------------------------------

def _sigmoid(z):
    return 1 / (1 + mpmath.exp(-z))


def _binary_log_mgf(order, th, i, j):
    """log Σ_y m_i(y)^β m_j(y)^{1−β} for the binary mechanism Pr[1 | x_n] = σ(nθ), by enumeration of y ∈ {0, 1}."""
    pi, pj = _sigmoid(i * th), _sigmoid(j * th)
    return mpmath.log(pi ** order * pj ** (1 - order) + (1 - pi) ** order * (1 - pj) ** (1 - order))


@functools.lru_cache(maxsize=64)
def _binary_theta(a, e, kk, prec):
    with mpmath.workprec(prec):
        return binary_chain_theta(a, e, kk)


def binary_chain_theta(a, e, kk):
    r"""A θ of the binary mechanism :math:`\Pr[1\mid x_n]=\sigma(n\theta)` whose worst link among the first kk
    has :math:`D_a=e`, by bisection on θ (links computed by enumeration).  The bisection keeps the lower end ``lo``
    with every link's :math:`D_a\le e` (θ = 0 has D_a = 0): the returned ``lo`` satisfies the hypothesis up to
    rounding whatever the shape of the worst link's D_a in θ, and the worst link is at e where it crosses e."""
    target = (a - 1) * e
    worst = lambda th: max(_binary_log_mgf(a, th, n, n + 1) for n in range(kk))
    lo, hi = mpmath.mpf(0), e + 1
    while worst(hi) <= target:
        hi *= 2
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if worst(mid) <= target else (lo, mid)
    return lo


def binary_chain_mgf(order, th, kk):
    """E_{M(x_0)}[e^{(β−1)G_k}] = Σ_y m_0^β m_k^{1−β} for the binary mechanism, by enumeration."""
    return mpmath.exp(_binary_log_mgf(order, th, 0, kk))


def gaussian_chain_mgf(order, a, e, kk):
    r""":math:`\mathbb E_{M(x_0)}[e^{(\beta-1)G_k}]` for the Gaussian mechanism :math:`M(x_j)=N(j\Delta,1)` with
    :math:`a\Delta^2/2=e` (every link has D_a = e), by Arb quadrature under :math:`M(x_0)`: the group loss at output u
    is :math:`\log\frac{m_0}{m_k}(u)=((u-k\Delta)^2-u^2)/2`.  The integrand peaks at :math:`u=-(\beta-1)k\Delta`;
    outside ±w of it the mass is below :math:`10^{-(dps+8)}`."""
    shift = kk * mpmath.sqrt(2 * e / a)
    lam = order - 1
    peak = -lam * shift
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    return normal_expectation(lambda u, d, l_: (l_ * (((u - d) * (u - d) - u * u) / 2)).exp(), peak - w, peak + w,
                              shift, lam)


def _lower_truth(v, dps):
    a, e = v[alpha], v[eps]
    lam = (a - 1) / (1 + v[s])
    th = _binary_theta(a, e, 1, mpmath.mp.prec)
    return [("binary pair σ(0), σ(θ) with D_α = ε, enumeration", binary_chain_mgf(1 + lam, th, 1))]


# -- lower_order: D_β <= D_α for β < α, from Young's inequality ------------------------------------------------------

_P = 1 + s  # Young's p; the order's λ is (α − 1)/p
_LAM = (alpha - 1) / _P
_U = (t * sp.exp((alpha - 1) * L)) ** (1 / _P)
_V = t ** (-1 / _P)


def _lower_order() -> Part:
    a_ = sp.exp((alpha - 1) * eps)
    w1, w2 = t / _P, s / _P * t ** (-1 / s)
    objective = w1 * a_ + w2
    t_star = sp.exp(-s * (alpha - 1) * eps / _P)
    at_star = objective.subs(t, t_star)
    proof = (Chain(Expect(sp.exp(_LAM * L)), variables={t: positive()})
             .le(Expect(sp.Abs(_U) ** _P) / _P + s / _P * Expect(sp.Abs(_V) ** (_P / s)),
                 by(young_expectation, X=_U, Y=_V, p_H=_P))
             .eq(w1 * Expect(sp.exp((alpha - 1) * L)) + s / _P * Expect(sp.Abs(_V) ** (_P / s)),
                 by(expectation_affine, a=t, b=0, X=sp.exp((alpha - 1) * L)))
             .eq(w1 * Expect(sp.exp((alpha - 1) * L)) + w2,
                 by(expectation_affine, a=0, b=t ** (-1 / s), X=L))
             .le(objective, by(rdp, inside=lambda w: w1 * w + w2))
             .eq(at_star, specialize(t=t_star))
             .eq(sp.exp(_LAM * eps), algebra("at the minimiser both terms are e^{(α−1)ε/(s+1)}, with weights 1/(s + 1) + s/(s + 1) = 1")))
    return Part("lower_order", le(Expect(sp.exp(_LAM * L)), sp.exp(_LAM * eps)),
                variables={s: positive(sample_lo=0.05, sample_hi=20, log_scale=True)},
                title="monotonicity in the order: D_β <= ε for 1 < β = 1 + (α − 1)/(1 + s) < α",
                proof=proof, ground_truth=_lower_truth)


# -- group: the chain walked link by link, by induction on the number of links k < α ------------------------------

c = sp.Symbol("c", integer=True, positive=True)  # the group has 2^c links
_K = sp.Integer(2) ** c
_HALF3 = sp.Rational(3, 2)
#: the links k of a group bound at order α/k > 1, and of a step k -> k + 1 (the link's order α − k > 1)
_LINKS = Interval(sp.S.One, alpha, False, True, True)
_STEP_LINKS = Interval(sp.S.One, alpha - 1, False, True, True)


def _group_lhs(kk):
    return Expect(sp.exp((alpha / kk - 1) * G(kk)))


def _group_rhs(kk):
    return sp.exp((alpha - (kk + 1) / sp.Integer(2)) * eps)


def _links(v, name: str = "k") -> int:
    return int(v[k]) if name == "k" else 2 ** int(v[c])


def _group_truth(order: sp.Expr, links: str):
    """E[e^{(β−1)G_K}] at the order β the statement names (evaluated from it) and K = k (``links="k"``) or 2^c, for
    two mechanisms whose every link has D_α = ε: the Gaussian mechanism (σ = 1, shift Δ with αΔ²/2 = ε) and the
    binary one."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        kk = _links(v, links)
        b = evaluate(order, v, MPContext(dps))
        a, e = v[alpha], v[eps]
        return [("Gaussian mechanism, f(x_j) = jΔ, αΔ²/2 = ε, ∫ m_0^β m_K^(1−β) by quadrature",
                 gaussian_chain_mgf(b, a, e, kk)),
                ("binary mechanism Pr[1 | x_j] = σ(jθ), worst link D_α = ε, enumeration",
                 binary_chain_mgf(b, _binary_theta(a, e, kk, mpmath.mp.prec), kk))]

    return truth


def _order() -> Part:
    """α − k − 1 = (α − 1)/(1 + s) at s = k/(α − k − 1): the order of link k + 1 in lower_order's form."""
    link_lam = alpha - k - 1
    return Part("order", eq(link_lam, _LAM.subs(s, k / link_lam)), variables={k: _STEP_LINKS},
                proof=Chain(link_lam).eq(_LAM.subs(s, k / link_lam), algebra()),
                title="α − k − 1 = (α − 1)/(1 + s) at s = k/(α − k − 1): the link's order in lower_order's form")


def _base_chain() -> Chain:
    """group at k = 1: G_1 = ℓ_1 under M(x_0), the hypothesis read at the first link."""
    return (Chain(_group_lhs(1))
            .eq(Expect(sp.exp((alpha - 1) * ell(1))), by(group_loss_one))
            .eq(ExpectAt(sp.exp((alpha - 1) * ell(1)), 0), by(chain_base_measure, Y_1=sp.exp((alpha - 1) * ell(1))))
            .le(_group_rhs(1), by(rdp, at_link=1)))


def _step_chain(order: Part, lower: Part) -> Chain:
    """group at k + 1 from group at k (the induction hypothesis): the weak triangle inequality at order α/(k+1),
    Hölder exponent p = (k+1)/k, re-derived in the chain's measure."""
    n = k + 1
    p_ = n / k
    q_ = n  # p/(p − 1)
    u_ = t * sp.exp((alpha - k) / n * G(k))
    v_ = sp.exp(-G(k) / n + (alpha / n - 1) * ell(n)) / t
    link_lam = alpha - k - 1  # q(α/(k+1) − 1): the link's order minus 1
    s_link = k / link_lam  # lower_order's s at which (α − 1)/(1 + s) = α − k − 1
    link = Expect(sp.exp(link_lam * ell(n) - G(k)))
    at_link = ExpectAt(sp.exp(link_lam * ell(n)), k)
    w1, w2 = t ** p_ / p_, t ** (-q_) / q_
    a_, b_ = _group_rhs(k), sp.exp(link_lam * eps)
    objective = w1 * a_ + w2 * b_
    t_star = sp.exp(-k * eps / (2 * n))
    ih = Hypothesis("ih", title="induction hypothesis", relation=le(_group_lhs(k), _group_rhs(k)))
    return (Chain(_group_lhs(n), variables={t: positive()})
            .eq(Expect(sp.exp((alpha / n - 1) * (G(k) + ell(n)))), by(group_loss_step, i=k))
            .le(Expect(sp.Abs(u_) ** p_) / p_ + Expect(sp.Abs(v_) ** q_) / q_,  # (p − 1)/p = 1/q
                by(young_expectation, X=u_, Y=v_, p_H=p_))
            .eq(w1 * _group_lhs(k) + Expect(sp.Abs(v_) ** q_) / q_,
                by(expectation_affine, a=t ** p_, b=0, X=sp.exp((alpha / k - 1) * G(k))))
            .eq(w1 * _group_lhs(k) + w2 * link,
                by(expectation_affine, a=t ** (-q_), b=0, X=sp.exp(link_lam * ell(n) - G(k))))
            .le(w1 * a_ + w2 * link, by(ih, inside=lambda w: w1 * w + w2 * link))
            .le(w1 * a_ + w2 * at_link, by(chain_change_of_measure, i=k, Y_1=sp.exp(link_lam * ell(n)),
                                            inside=lambda w: w1 * a_ + w2 * w))
            .eq(w1 * a_ + w2 * ExpectAt(sp.exp(_LAM.subs(s, s_link) * ell(n)), k),
                by(order, k=k, inside=lambda w: w1 * a_ + w2 * ExpectAt(sp.exp(w * ell(n)), k)))
            .le(objective, by(lower, s=s_link, at_link=n, inside=lambda w: w1 * a_ + w2 * w))
            .eq(objective.subs(t, t_star), specialize(t=t_star))
            .eq(_group_rhs(n), algebra("at t* the two terms are equal, with weights k/(k + 1) + 1/(k + 1) = 1")))


def _group(lower: Part) -> tuple[Part, Part]:
    order = _order()
    proof = Chain(_group_lhs(k)).le(_group_rhs(k), induction(k, _base_chain(), _step_chain(order, lower)))
    return order, Part("group", le(_group_lhs(k), _group_rhs(k)), variables={k: _LINKS}, proof=proof,
                       ground_truth=_group_truth(alpha / k, "k"),
                       title="D_{α/k}(M(x_0)‖M(x_k)) <= k(α − (k+1)/2)ε/(α − k) for every k < α, link by link")


# -- (3/2)^c >= 3/2, and the exponent ----------------------------------------------------------------------------

def _growth_truth(bound: sp.Expr):
    def truth(v, dps):
        value = mpmath.mpf(1)
        for _ in range(int(v[c])):
            value *= mpmath.mpf(3) / 2
        return [("the bound minus the product of c factors 3/2", mpmath.mpf(bound.p) / bound.q - value)]

    return truth


def make_growth(bound: sp.Expr = _HALF3) -> Theorem:
    """``bound − (3/2)^c <= 0`` for c >= 1 (the library lemma has bound 3/2), by induction on c."""
    g = _HALF3 ** c
    gap = lambda x: bound - _HALF3 ** x  # noqa: E731
    step = (Chain(gap(c + 1)).eq(_HALF3 * gap(c) + bound - _HALF3 * bound, algebra())
            .le(bound - _HALF3 * bound, by(Hypothesis("ih", le(gap(c), 0)),
                                            inside=lambda w: _HALF3 * w + bound - _HALF3 * bound))
            .le(0, sign()))
    return Theorem(
        name="three_halves_power_growth",
        reference="R-D8",
        source="elementary: (3/2)^c >= 3/2 for c >= 1 (Bernoulli's inequality, e.g. Hardy, Littlewood & Pólya 1934); "
               "proved here by induction on c",
        title="growth of powers of three halves",
        variables={c: naturals(sample_lo=1, sample_hi=30)},
        parts=(Part("main", le(bound - g, 0), proof=Chain(bound - g).le(0, induction(c, sign(), step)),
                    ground_truth=_growth_truth(bound)),),
        numeric_points=({"c": "1"}, {"c": "2"}, {"c": "7"}),
        property_examples=10,
        tight="equality at c = 1.",
    )


three_halves_power_growth = make_growth()
LEMMAS = [three_halves_power_growth]

_POINTS = ({"c": "1", "alpha": "4", "eps": "1", "s": "1", "k": "2"},
           {"c": "1", "alpha": "5", "eps": "0.1", "s": "0.5", "k": "3"},
           {"c": "2", "alpha": "10", "eps": "8", "s": "3", "k": "4"},
           {"c": "2", "alpha": "64", "eps": "0.01", "s": "10", "k": "7"},
           {"c": "3", "alpha": "16", "eps": "2", "s": "0.2", "k": "8"})


def make(factor: sp.Expr | None = None, order: sp.Expr | None = None, alpha_domain=None, points=None) -> Theorem:
    """R-D8: D_{α/2^c}(M(x_0)‖M(x_{2^c})) <= factor·ε with factor = 3^c, for every c >= 1 and α ≥ 2^{c+1}.

    Mutants pass another ``factor`` or ``order`` (the claimed order, default α/2^c); the tests pass a weaker
    ``alpha_domain`` (with numeric ``points`` in it) to check that the condition α ≥ 2^{c+1} is needed."""
    factor = sp.Integer(3) ** c if factor is None else factor
    order = alpha / _K if order is None else order
    if alpha_domain is None:
        alpha_domain = at_least(sp.Integer(2) ** (c + 1), sample_lo=4, sample_hi=64)
    lower = _lower_order()
    order_part, group = _group(lower)
    bound_exp = (alpha - (_K + 1) / 2) * eps
    claim_exp = (alpha / _K - 1) * factor * eps
    exponent = Part("exponent", le(bound_exp, claim_exp),
                    proof=(Chain(bound_exp).le(_HALF3 * (alpha - _K) * eps, sign("α ≥ 2^{c+1} ≥ 2^{c+1} − 1"))
                           .eq(_HALF3 ** c * (alpha - _K) * eps + (_HALF3 - _HALF3 ** c) * (alpha - _K) * eps,
                               algebra())
                           .le(_HALF3 ** c * (alpha - _K) * eps,
                               by(three_halves_power_growth, c=c,
                                  inside=lambda w: _HALF3 ** c * (alpha - _K) * eps + w * (alpha - _K) * eps))
                           .eq(claim_exp, algebra("(3/2)^c 2^c = 3^c"))),
                    title="α − (2^c + 1)/2 <= (α/2^c − 1) 3^c for α ≥ 2^{c+1}")
    lhs = Expect(sp.exp((order - 1) * G(_K)))
    main_proof = (Chain(_group_lhs(_K))
                  .le(sp.exp(bound_exp), by(group, k=_K))
                  .le(sp.exp(claim_exp), by(exponent, inside=sp.exp)))
    return Theorem(
        name="rdp_group_privacy",
        reference="R-D8",
        source="Mironov 2017, Prop 2, arXiv:1702.07476v3",
        title="group privacy for RDP",
        variables={c: naturals(sample_lo=1, sample_hi=3), alpha: alpha_domain,
                   eps: positive(sample_lo=1e-3, sample_hi=8, log_scale=True)},
        hypotheses=(rdp,),
        parts=(lower, order_part, group, exponent,
               Part("main", le(lhs, sp.exp(claim_exp)), proof=main_proof, ground_truth=_group_truth(order, "2^c"))),
        numeric_points=_POINTS if points is None else points,
        property_examples=10,
        tight="no: the Gaussian mechanism attains 2^c ε at distance 2^c; the binary mechanism σ(jθ) can exceed it.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("2^c ε instead of 3^c ε at the order α/2^c", make(factor=_K)),
        ("the order α instead of α/2^c", make(order=alpha)),
        ("2 − (3/2)^c <= 0: the growth lemma's bound raised", make_growth(sp.Integer(2))),
    ]  # dropping α ≥ 2^{c+1} changes no relation (test_mutants requires one): see the module's tests
