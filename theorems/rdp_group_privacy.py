r"""Group privacy for RDP (Mironov 2017, Prop 2), for a fixed c: an (α, ε)-RDP mechanism is
(α/2^c, 3^c ε)-RDP on inputs at distance 2^c when α ≥ 2^{c+1}.

.. math::
    \mathbb E\big[e^{(\alpha/2^c-1)\,G_{2^c}}\big]\ \le\ e^{(\alpha/2^c-1)\,3^c\varepsilon},
    \quad\text{i.e.}\quad D_{\alpha/2^c}\big(M(x_0)\,\|\,M(x_{2^c})\big)\le 3^c\varepsilon
    \qquad(\alpha\ge 2^{c+1}),

whenever every neighbouring pair satisfies :math:`\mathbb E_P[e^{(\alpha-1)L}]\le e^{(\alpha-1)\varepsilon}`
(hypothesis ``rdp`` of ``rdp_composition``: :math:`D_\alpha(P\|Q)\le\varepsilon`, Mironov Def 3/4).

**What is proved, and for which c.**  Mironov's statement is for every c ≥ 1; this module proves it for **one
fixed c at a time**: ``make(c)`` builds the theorem for that c (``theorem`` is ``make(1)``, the case Mironov's
proof rests on; the tests also check ``make(2)`` and ``make(3)``), with the chain unrolled into 2^c proved parts.
The statement for *every* c at once is **not claimed**: see "Why not every c" below.

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
* ``group_k`` (k = 1, ..., 2^c) -- :math:`\mathbb E[e^{(\alpha/k-1)G_k}]\le e^{(\alpha-(k+1)/2)\varepsilon}`,
  i.e. :math:`D_{\alpha/k}(M(x_0)\|M(x_k))\le\frac{k(\alpha-(k+1)/2)}{\alpha-k}\varepsilon`.  ``group_1`` is the
  hypothesis at the first link; ``group_{k+1}`` follows from ``group_k`` by Mironov's **weak triangle inequality**
  (Prop 11) at order :math:`\alpha/(k+1)` with Hölder exponent p = (k+1)/k, re-derived in the chain's measure
  (relative to :math:`m_0`) as in ``zcdp_group_privacy`` -- ``renyi_weak_triangle`` states it for three
  distributions under the middle one, which the chain does not name, so it is not cited:
  :math:`e^{(\alpha/(k+1)-1)G_{k+1}}` is the product of :math:`e^{\frac{\alpha-k}{k+1}G_k}` and
  :math:`e^{-G_k/(k+1)+(\frac{\alpha}{k+1}-1)\ell_{k+1}}`; Young with a free scale,
  ``group_k`` for the first factor, the change of measure ``chain_change_of_measure`` and ``lower_order`` at the
  link k + 1 (order α − k) for the second, t at the minimiser :math:`e^{-k\varepsilon/(2(k+1))}`.
* ``order_k`` (k = 2, ..., 2^c) -- the algebra :math:`\alpha-k=\frac{\alpha-1}{1+s}` at :math:`s=\frac{k-1}{\alpha-k}`
  that puts the link's order in the form of ``lower_order``.
* ``exponent`` -- :math:`\alpha-(2^c+1)/2\le(\alpha/2^c-1)3^c` for α ≥ 2^{c+1} (a sign argument), and ``main``.

For c = 1 this *is* Mironov's proof: one step, p = 2, :math:`D_{\alpha/2}(P\|R)\le\frac{\alpha-1}{\alpha-2}
D_\alpha(P\|Q)+D_{\alpha-1}(Q\|R)\le\frac{2\alpha-3}{\alpha-2}\varepsilon\le3\varepsilon` (monotonicity for the
second term; the bound is the sharper (2α − 3)/(α − 2) ε ≤ 5ε/2 for α ≥ 4).  For c ≥ 2 the chain is walked
link by link (the weak triangle inequality 2^c − 1 times, with p = (k+1)/k) instead of Mironov's midpoint split
(c times, p = 2): the kernel's chain of inputs has the group loss from :math:`x_0` only, and the midpoint split
needs the loss of the second half, :math:`\log m_{2^{c-1}}/m_{2^c}` under :math:`M(x_{2^{c-1}})`.
The link-by-link bound is
:math:`D_{\alpha/K}\le\frac{K(\alpha-(K+1)/2)}{\alpha-K}\varepsilon` at K = 2^c, which is at most 3^c ε for
α ≥ 2^{c+1} (part ``exponent``); at c = 1 it is Mironov's intermediate bound.

**Why not every c.**  Neither induction can be run by the kernel's ``induction`` rule: (i) the midpoint split
(induction on c) needs the induction hypothesis read on the *second half* of the chain, a chain that starts at
:math:`x_{2^{c-1}}` -- the kernel's class-member rule reads a fact about the canonical pair at a link
(``at_link``), but there is no rule reading a fact about *every chain of length n* (the group loss ``G(n)``) at a
sub-chain :math:`x_i\simeq\dots\simeq x_{i+n}`; (ii) the link-by-link induction on k keeps α fixed while the order
α/k and the condition α > k move with k: the rule refuses a domain that depends on the induction variable
(α > k), drops hypotheses that mention it, and gives the induction hypothesis at the same values of the other
variables only (an instantiable, quantified ``ih`` -- or a domain "α > k" carried along the induction -- would
be needed).  Either capability would let ``make`` state the theorem for a variable c.

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

from cdpsym.expr import L, alpha, at_least, eps, positive, s, t
from cdpsym.expr.operators import Expect, ExpectAt
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq, le, sign, specialize
from theorems.foundations_composition import normal_expectation
from theorems.foundations_convexity import expectation_affine
from theorems.pure_dp_group_privacy import G, chain_base_measure, chain_change_of_measure, ell, group_loss_one, \
    group_loss_step
from theorems.rdp_composition import rdp
from theorems.rdp_probability_preservation import young_expectation

__all__ = ["theorem", "make", "mutants", "gaussian_chain_mgf", "binary_chain_mgf", "binary_chain_theta"]


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


def _group_truth(order: sp.Expr, kk: int):
    """E[e^{(β−1)G_kk}] at the order β the statement names (evaluated from it), for two mechanisms whose every link
    has D_α = ε: the Gaussian mechanism (σ = 1, shift Δ with αΔ²/2 = ε) and the binary one."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        b = evaluate(order, v, MPContext(dps))
        a, e = v[alpha], v[eps]
        return [("Gaussian mechanism, f(x_j) = jΔ, αΔ²/2 = ε, ∫ m_0^β m_K^(1−β) by quadrature",
                 gaussian_chain_mgf(b, a, e, kk)),
                ("binary mechanism Pr[1 | x_j] = σ(jθ), worst link D_α = ε, enumeration",
                 binary_chain_mgf(b, _binary_theta(a, e, kk, mpmath.mp.prec), kk))]

    return truth


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
             .eq(sp.exp(_LAM * eps), algebra("both terms are e^{(α−1)ε/p}, and 1/p + s/p = 1")))
    return Part("lower_order", le(Expect(sp.exp(_LAM * L)), sp.exp(_LAM * eps)),
                variables={s: positive(sample_lo=0.05, sample_hi=20, log_scale=True)},
                title="monotonicity in the order: D_β <= ε for 1 < β = 1 + (α − 1)/(1 + s) < α",
                proof=proof, ground_truth=_lower_truth)


# -- group_k: the chain walked link by link --------------------------------------------------------------------------

def _order(kk):
    return alpha / kk


def _group_lhs(kk):
    return Expect(sp.exp((_order(kk) - 1) * G(kk)))


def _group_rhs(kk):
    return sp.exp((alpha - sp.Rational(kk + 1, 2)) * eps)


def _base() -> Part:
    proof = (Chain(_group_lhs(1))
             .eq(Expect(sp.exp((alpha - 1) * ell(1))), by(group_loss_one))
             .eq(ExpectAt(sp.exp((alpha - 1) * ell(1)), 0), by(chain_base_measure, Y_1=sp.exp((alpha - 1) * ell(1))))
             .le(_group_rhs(1), by(rdp, at_link=1)))
    return Part("group_1", le(_group_lhs(1), _group_rhs(1)), proof=proof,
                title="D_α(M(x_0)‖M(x_1)) <= ε: the hypothesis at the first link")


def _step(kk: int, previous: Part, lower: Part) -> tuple[Part, Part]:
    """group_{kk+1} from group_kk: the weak triangle inequality at order α/(kk+1), Hölder exponent p = (kk+1)/kk."""
    n = kk + 1
    p_ = sp.Rational(n, kk)
    q_ = sp.Integer(n)  # p/(p − 1)
    u_ = t * sp.exp((alpha - kk) / n * G(kk))
    v_ = sp.exp(-G(kk) / n + (alpha / n - 1) * ell(n)) / t
    link_lam = alpha - kk - 1  # q(α/(k+1) − 1): the link's order minus 1
    link = Expect(sp.exp(link_lam * ell(n) - G(kk)))
    at_link = ExpectAt(sp.exp(link_lam * ell(n)), kk)
    w1, w2 = t ** p_ / p_, t ** (-q_) / q_
    a_, b_ = _group_rhs(kk), sp.exp(link_lam * eps)
    objective = w1 * a_ + w2 * b_
    t_star = sp.exp(-kk * eps / (2 * n))
    at_star = objective.subs(t, t_star)
    s_link = sp.Integer(kk) / link_lam  # lower_order's s at which (α − 1)/(1 + s) = α − k − 1
    order = Part(f"order_{n}", eq(link_lam, _LAM.subs(s, s_link)),
                 proof=Chain(link_lam).eq(_LAM.subs(s, s_link), algebra()),
                 title=f"α − {n} = (α − 1)/(1 + s) at s = {kk}/(α − {n}): the link's order in lower_order's form")
    proof = (Chain(_group_lhs(n), variables={t: positive()})
             .eq(Expect(sp.exp((_order(n) - 1) * (G(kk) + ell(n)))), by(group_loss_step, i=kk))
             .le(Expect(sp.Abs(u_) ** p_) / p_ + (p_ - 1) / p_ * Expect(sp.Abs(v_) ** q_),
                 by(young_expectation, X=u_, Y=v_, p_H=p_))
             .eq(w1 * _group_lhs(kk) + (p_ - 1) / p_ * Expect(sp.Abs(v_) ** q_),
                 by(expectation_affine, a=t ** p_, b=0, X=sp.exp((_order(kk) - 1) * G(kk))))
             .eq(w1 * _group_lhs(kk) + w2 * link,
                 by(expectation_affine, a=t ** (-q_), b=0, X=sp.exp(link_lam * ell(n) - G(kk))))
             .le(w1 * a_ + w2 * link, by(previous, inside=lambda w: w1 * w + w2 * link))
             .le(w1 * a_ + w2 * at_link, by(chain_change_of_measure, i=kk, Y_1=sp.exp(link_lam * ell(n)),
                                             inside=lambda w: w1 * a_ + w2 * w))
             .eq(w1 * a_ + w2 * ExpectAt(sp.exp(_LAM.subs(s, s_link) * ell(n)), kk),
                 by(order, inside=lambda w: w1 * a_ + w2 * ExpectAt(sp.exp(w * ell(n)), kk)))
             .le(objective, by(lower, s=s_link, at_link=n, inside=lambda w: w1 * a_ + w2 * w))
             .eq(at_star, specialize(t=t_star))
             .eq(_group_rhs(n), algebra("A^{1/p} B^{1/q} with 1/p + 1/q = 1")))
    return order, Part(f"group_{n}", le(_group_lhs(n), _group_rhs(n)), proof=proof,
                       ground_truth=_group_truth(_order(n), n),
                       title=f"D_{{α/{n}}}(M(x_0)‖M(x_{n})) from D_{{α/{kk}}}(M(x_0)‖M(x_{kk})) and the link {n}")


# -- the theorem -----------------------------------------------------------------------------------------------------

_POINTS = ({"alpha": "4", "eps": "1", "s": "1"}, {"alpha": "5", "eps": "0.1", "s": "0.5"},
           {"alpha": "10", "eps": "8", "s": "3"}, {"alpha": "64", "eps": "0.01", "s": "10"},
           {"alpha": "16", "eps": "2", "s": "0.2"})  # make(c) keeps those with α >= 2^{c+1}


def make(c: int = 1, factor: sp.Expr | None = None, order: sp.Expr | None = None,
         alpha_domain=None, points=None) -> Theorem:
    """R-D8 at the fixed c: D_{α/2^c}(M(x_0)‖M(x_{2^c})) <= factor·ε with factor = 3^c, for α ≥ 2^{c+1}.

    Mutants pass another ``factor`` or ``order`` (the claimed order, default α/2^c); the tests pass a weaker
    ``alpha_domain`` (with numeric ``points`` in it) to check that the condition α ≥ 2^{c+1} is needed."""
    kk = 2 ** c
    factor = sp.Integer(3) ** c if factor is None else factor
    order = alpha / kk if order is None else order
    alpha_domain = at_least(2 * kk, sample_lo=2 * kk, sample_hi=64 * kk, log_scale=True) \
        if alpha_domain is None else alpha_domain
    lower = _lower_order()
    groups, orders = [_base()], []
    for n in range(1, kk):
        order_n, group_n = _step(n, groups[-1], lower)
        orders.append(order_n)
        groups.append(group_n)
    bound_exp = (alpha - sp.Rational(kk + 1, 2)) * eps
    claim_exp = (alpha / kk - 1) * factor * eps
    exponent = Part("exponent", le(bound_exp, claim_exp), proof=Chain(bound_exp).le(claim_exp, sign(
        "(3^c/2^c − 1)α ≥ 3^c − (2^c + 1)/2 for α ≥ 2^{c+1}, and ε > 0")),
                    title="α − (2^c + 1)/2 <= (α/2^c − 1) 3^c for α ≥ 2^{c+1}")
    lhs = Expect(sp.exp((order - 1) * G(kk)))
    main_proof = (Chain(_group_lhs(kk))
                  .le(sp.exp(bound_exp), by(groups[-1]))
                  .le(sp.exp(claim_exp), by(exponent, inside=sp.exp)))
    return Theorem(
        name="rdp_group_privacy",
        reference="R-D8",
        source="Mironov 2017, Prop 2, arXiv:1702.07476v3",
        title="group privacy for RDP",
        variables={alpha: alpha_domain, eps: positive(sample_lo=1e-3, sample_hi=8, log_scale=True)},
        hypotheses=(rdp,),
        parts=(lower, *orders, *groups, exponent,
               Part("main", le(lhs, sp.exp(claim_exp)), proof=main_proof, ground_truth=_group_truth(order, kk))),
        numeric_points=tuple(p for p in _POINTS if float(p["alpha"]) >= 2 * kk) if points is None else points,
        property_examples=10,
        tight="no: the Gaussian mechanism attains 2^c ε at distance 2^c; the binary mechanism σ(jθ) can exceed it.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("2^c ε instead of 3^c ε at the order α/2^c", make(1, factor=sp.Integer(2))),
        ("the order α instead of α/2^c", make(1, order=alpha)),
    ]  # dropping α ≥ 2^{c+1} changes no relation (test_mutants requires one): see the module's tests
