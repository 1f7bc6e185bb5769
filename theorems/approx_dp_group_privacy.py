r"""Group privacy for approximate DP: an (ε, δ)-DP mechanism is (kε, δ(e^{kε} − 1)/(e^ε − 1))-DP for datasets at distance k.

.. math::
    \Pr[M(x_0)\in S]-e^{k\varepsilon}\Pr[M(x_k)\in S]\ \le\ \delta\,\frac{e^{k\varepsilon}-1}{e^{\varepsilon}-1}
    =\delta\sum_{j=0}^{k-1}e^{j\varepsilon}\ \le\ k\,e^{(k-1)\varepsilon}\,\delta

for every event S and every chain :math:`x_0\simeq x_1\simeq\dots\simeq x_k` of neighbouring datasets,
whenever every neighbouring pair satisfies :math:`H_\varepsilon(P\|Q)\le\delta` (R-A6).

Parts: ``main`` (the geometric-sum bound, REFERENCE R-G6's correct statement) and ``folklore`` (the
weaker ``k e^{(k−1)ε} δ``); the lemma ``geometric_sum_bound`` (``e^{kε} − 1 <= k e^{(k−1)ε}(e^ε − 1)``,
calculus) is listed before the theorem.

Parameterization: ``p_S(i)`` is :math:`\Pr[M(x_i)\in S]` for a fixed event S and a fixed chain (both
arbitrary); (ε, δ)-DP of a pair is the hypothesis ``approx_dp``, ``HockeyStick(ε, P, Q) <= δ``, on the
canonical pair ``(P, Q)``, which stands for **every** ordered neighbouring pair.  Datasets differing in k
entries are joined by such a chain of length k, changing one entry at a time; the reverse inequality is the
same theorem for the reversed chain.  δ > 0 and ε > 0 (the closed form divides by e^ε − 1, written
``e^{ε/2}(e^{ε/2} − e^{−ε/2})`` so that the kernel sees its sign).

Proof: **induction on k**.  The hockey-stick divergence is a supremum over events
(``hockey_stick_event_bound``) and the hypothesis holds of the link :math:`(x_{i-1}, x_i)`, a neighbouring pair
(the kernel's class-member rule, ``by(approx_dp, at_link=i)``); together they give
:math:`p_{i-1}\le e^\varepsilon p_i+\delta`; then
:math:`p_0-e^{(k+1)\varepsilon}p_{k+1}=(p_0-e^{k\varepsilon}p_k)+e^{k\varepsilon}(p_k-e^\varepsilon p_{k+1})
\le\delta S_k+e^{k\varepsilon}\delta=\delta S_{k+1}`.  ``geometric_sum_bound`` is the kernel's
**monotone** rule in ε (at ε = 0 both sides vanish; the derivative of the difference is
:math:`k(k-1)e^{(k-1)\varepsilon}(e^\varepsilon-1)\ge0`, by ``sign`` once e^ε − 1 is written
2e^{ε/2} sinh(ε/2)).

Correct form: DR16 §1 quote the folklore bound as :math:`(s\varepsilon, se^{s-1}\delta)` (R-H26), with
:math:`e^{s-1}` for :math:`e^{(s-1)\varepsilon}`; the exact geometric sum is the statement here.

Tight: ``main`` is an equality for the two-output chain of REFERENCE R-G6: :math:`p_k=0`,
:math:`p_j=e^\varepsilon p_{j+1}+\delta` (every adjacent pair (ε, δ)-DP; checked in the ground truth by
exact hockey-stick divergences in both directions); the number :math:`k\delta` of the naive "δ adds up"
reading is false for it (N21).

Axiom added here: ``hockey_stick_event_bound`` (the definition of the hockey-stick divergence as a supremum
over events).

References
----------
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 2.2 (group privacy, pure DP)
  and Def 2.4; the approximate case is folklore (REFERENCE R-G6 derives the exact constant).
* Dwork & Rothblum 2016, §1, arXiv:1603.01887v2 (the folklore quote, R-H26).
* REFERENCE.md R-G6 (the correct statement, derived there), N21.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import delta, delta0, eps, i, k, naturals, positive, t
from cdpsym.expr.operators import HockeyStick, Output, P, Q
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, induction, le, monotone, sign
from theorems.foundations_composition import c

__all__ = ["theorem", "make", "mutants", "make_geometric_lemma", "geometric_sum_bound", "LEMMAS", "EXPM1", "p_S", "approx_dp", "hockey_stick_event_bound", "AXIOMS", "DELTA_GROUP",
           "tight_chain", "chain_is_approx_dp"]

p_S = sp.Function("p_S", real=True)  # p_S(i) = Pr[M(x_i) ∈ S] for the fixed event S and chain x_0, ..., x_k

approx_dp = Hypothesis(
    name="approx_dp",
    title="(ε, δ)-DP: the hockey-stick divergence of every neighbouring pair is at most δ (R-A6)",
    relation=le(HockeyStick(eps, P, Q), delta),
)

hockey_stick_event_bound = Axiom(
    name="hockey_stick_event_bound",
    title="definition of the hockey-stick divergence as a supremum over events, at the event S",
    citation=("H_c(P||Q) = sup_S P(S) - e^c Q(S) (its definition; Dwork & Rothblum 2016, Def 2.4, arXiv:1603.01887v2), here for the output distributions M(x_{i-1}), M(x_i) of the "
              "chain and the fixed event S, p_S(i) = Pr[M(x_i) ∈ S]"),
    relation=le(p_S(i - 1) - sp.exp(c) * p_S(i), HockeyStick(c, Output(i - 1), Output(i))),
    variables={i: naturals(), c: positive()},
)

AXIOMS = [hockey_stick_event_bound]

#: e^ε − 1, written e^{ε/2}(e^{ε/2} − e^{−ε/2}) so that the kernel sees that it is positive (it decides the sign of
#: e^{ε/2} − e^{−ε/2}, not that of e^ε − 1)
EXPM1 = sp.exp(eps / 2) * (sp.exp(eps / 2) - sp.exp(-eps / 2))
_SINH2 = 2 * sp.sinh(eps / 2)
DELTA_GROUP = delta * (sp.exp(k * eps) - 1) / EXPM1
FOLKLORE = k * sp.exp((k - 1) * eps) * delta

# -- lemma: e^{kε} − 1 <= k e^{(k−1)ε}(e^ε − 1) (each of the k terms e^{jε} of the geometric sum is <= e^{(k−1)ε}) ------

_G_LHS = sp.exp(k * eps) - 1
_G_RHS = k * sp.exp((k - 1) * eps) * (sp.exp(eps) - 1)
_G_SLOPE = sp.diff(_G_RHS - _G_LHS, eps)  # the derivative the monotone rule computes


def _geometric_truth(v, dps):
    e, kk = v[eps], int(v[k])
    return [("telescoping sum of (e^ε − 1) e^{jε}, j < k", mpmath.fsum((mpmath.exp(e) - 1) * mpmath.exp(j * e)
                                                                     for j in range(kk)))]


def _sinh_truth(v, dps):
    return [("mpmath.sinh", 2 * mpmath.sinh(v[t]))]


_E_HALF = sp.exp(eps / 2) - sp.exp(-eps / 2)  # = 2 sinh(ε/2) > 0
sinh_double = Part("sinh", eq(2 * sp.sinh(t), sp.exp(t) - sp.exp(-t)), title="definition of sinh",
                   variables={t: positive(sample_lo=1e-3, sample_hi=10)}, proof=Chain(2 * sp.sinh(t)).eq(sp.exp(t) - sp.exp(-t), algebra()),
                   ground_truth=_sinh_truth)
_COEFF = k * (k - 1) * sp.exp((k - sp.Rational(1, 2)) * eps)
_slope = Part("slope", le(0, _G_SLOPE), title="the derivative in ε of the difference is k(k−1)e^{(k−1)ε}(e^ε − 1)",
              proof=(Chain(sp.S.Zero)
                     .le(_COEFF * 2 * sp.sinh(eps / 2), sign("k >= 1 and sinh(ε/2) > 0"))
                     .eq(_COEFF * _E_HALF, by(sinh_double, t=eps / 2, inside=lambda w: _COEFF * w))
                     .eq(_G_SLOPE, algebra())))
def make_geometric_lemma(factor: sp.Expr = sp.S.One) -> Theorem:
    """``e^{kε} − 1 <= factor·k e^{(k−1)ε}(e^ε − 1)`` (the library lemma has factor 1)."""
    return Theorem(
        name="geometric_sum_bound",
        reference="R-G6",
        source="the mean value theorem (Rudin 1976, Thm 5.10); REFERENCE.md R-G6",
        title="geometric sum bound",
        variables={k: naturals(sample_lo=1, sample_hi=40), eps: positive(sample_lo=1e-3, sample_hi=5, log_scale=True)},
        parts=(sinh_double, _slope,
               Part("main", le(_G_LHS, factor * _G_RHS), proof=Chain(_G_LHS).le(_G_RHS, monotone(eps, by(_slope))),
                    ground_truth=_geometric_truth)),
        numeric_points=({"k": "1", "eps": "1", "t": "0.5"}, {"k": "3", "eps": "0.001", "t": "0.001"},
                        {"k": "40", "eps": "2", "t": "7"}),
        property_examples=30,
        tight="equality at k = 1 and as ε → 0.",
    )


geometric_sum_bound = make_geometric_lemma()

LEMMAS = [geometric_sum_bound]


# -- witnesses -------------------------------------------------------------------------------------------------------

def tight_chain(e, kk, d):
    """``[p_0, ..., p_k]``: p_k = 0, p_j = min(1, e^ε p_{j+1} + δ) (the extremal two-output chain, REFERENCE R-G6)."""
    ps = [mpmath.mpf(0)]
    for _ in range(kk):
        ps.append(min(mpmath.mpf(1), mpmath.exp(e) * ps[-1] + d))
    return ps[::-1]


def _hockey_stick(pp, qq, e):
    """H_ε(P‖Q) = Σ_y max(0, P(y) − e^ε Q(y)), by enumeration of the outputs."""
    return mpmath.fsum(max(mpmath.mpf(0), x - mpmath.exp(e) * y) for x, y in zip(pp, qq))


def chain_is_approx_dp(ps, e, d):
    """Is every adjacent pair of the two-output chain (ε, δ)-DP, in both directions (exact hockey stick)?"""
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 8))
    dists = [[x, 1 - x] for x in ps]
    return all(_hockey_stick(a, b, e) <= d + tol and _hockey_stick(b, a, e) <= d + tol
               for a, b in zip(dists, dists[1:]))


def _ground_truth(v, dps):
    e, kk, d = v[eps], int(v[k]), v[delta]
    out = []
    ps = tight_chain(e, kk, d)
    if chain_is_approx_dp(ps, e, d):
        out.append(("two-output chain p_j = e^ε p_{j+1} + δ (clipped at 1), enumerated",
                    ps[0] - mpmath.exp(kk * e) * ps[-1]))
    # p_j = 1/(1 + e^{-(k-j)ε}): every link is ε-DP (δ = 0 suffices); not extremal
    rr = [mpmath.exp((kk - j) * e / 2) / (mpmath.exp((kk - j) * e / 2) + mpmath.exp(-(kk - j) * e / 2))
          for j in range(kk + 1)]
    if chain_is_approx_dp(rr, e, d):
        out.append(("chain of randomized-response-like links (pure ε-DP), enumerated",
                    rr[0] - mpmath.exp(kk * e) * rr[-1]))
    return out


# -- the theorem -------------------------------------------------------------------------------------------------------

def make(total: sp.Expr = DELTA_GROUP, folklore: sp.Expr = FOLKLORE) -> Theorem:
    """Group privacy with the claimed group δ ``total`` (mutants use a smaller one) and the folklore bound."""
    at = lambda n: total.xreplace({k: n})
    gap = lambda n: p_S(0) - sp.exp(n * eps) * p_S(n)
    link = lambda n: p_S(n) - sp.exp(eps) * p_S(n + 1)  # the link (x_n, x_{n+1})
    base = (Chain(gap(1))
            .le(HockeyStick(eps, Output(0), Output(1)), by(hockey_stick_event_bound, i=1, c=eps))
            .le(delta, by(approx_dp, at_link=1))
            .eq(at(1), algebra()))
    step = (Chain(gap(k + 1))
            .eq(gap(k) + sp.exp(k * eps) * link(k), algebra("telescoping"))
            .le(at(k) + sp.exp(k * eps) * link(k),
                by(Hypothesis("ih", le(gap(k), at(k))), inside=lambda w: w + sp.exp(k * eps) * link(k)))
            .le(at(k) + sp.exp(k * eps) * HockeyStick(eps, Output(k), Output(k + 1)),
                by(hockey_stick_event_bound, i=k + 1, c=eps, inside=lambda w: at(k) + sp.exp(k * eps) * w))
            .le(at(k) + sp.exp(k * eps) * delta,
                by(approx_dp, at_link=k + 1, inside=lambda w: at(k) + sp.exp(k * eps) * w))
            .eq(at(k + 1), algebra("the geometric sum grows by e^{kε}")))
    main = Part("main", le(gap(k), total), proof=Chain(gap(k)).le(total, induction(k, base, step)),
                ground_truth=_ground_truth)
    folk_proof = (Chain(gap(k))
                  .le(DELTA_GROUP, by(main))
                  .eq(delta * sp.exp(-eps / 2) * _G_LHS / _SINH2, by(sinh_double, t=eps / 2))
                  .le(delta * sp.exp(-eps / 2) * _G_RHS / _SINH2,
                      by(geometric_sum_bound.part("main"), inside=lambda w: delta * sp.exp(-eps / 2) * w / _SINH2))
                  .eq(delta * sp.exp(-eps / 2) * _G_RHS / _E_HALF,
                      by(sinh_double, t=eps / 2, inside=lambda w: delta * sp.exp(-eps / 2) * _G_RHS / w))
                  .eq(FOLKLORE, algebra()))
    if folklore != FOLKLORE:
        folk_proof = folk_proof.eq(folklore, algebra())
    return Theorem(
        name="approx_dp_group_privacy",
        reference="R-G6",
        source="folklore, derived in REFERENCE.md R-G6 [D]; Dwork & Roth 2014, Thm 2.2 (the pure case)",
        title="group privacy for approximate DP",
        variables={k: naturals(sample_lo=1, sample_hi=12),
                   eps: positive(sample_lo=1e-3, sample_hi=2, log_scale=True),
                   delta: positive(sample_lo=1e-9, sample_hi=1e-2, log_scale=True)},
        hypotheses=(approx_dp,),
        parts=(main, Part("folklore", le(gap(k), folklore), proof=folk_proof, ground_truth=_ground_truth)),
        numeric_points=({"k": "3", "eps": "1", "delta": "0.001"}, {"k": "10", "eps": "0.5", "delta": "1e-6"},
                        {"k": "1", "eps": "0.3", "delta": "0.01"}, {"k": "2", "eps": "0.01", "delta": "1e-5"},
                        {"k": "25", "eps": "0.1", "delta": "1e-8"},
                        {"k": "3", "eps": "2", "delta": "0.001"}),
        property_examples=30,
        tight="main: equality for the two-output chain p_j = e^ε p_{j+1} + δ, p_k = 0; folklore: only at k = 1.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("geometric sum bound with the factor k e^{(k−1)ε} halved", make_geometric_lemma(sp.Rational(1, 2))),
        ("kδ: the naive sum, e^{jε} factors dropped", make(total=k * delta)),
        ("δ(e^{kε} − 1)/(e^ε − 1) with k − 1 for k: one link dropped",
         make(total=delta * (sp.exp((k - 1) * eps) - 1) / (sp.exp(eps) - 1))),
        ("δ(e^{kε} − 1)/(2(e^ε − 1)): halved", make(total=DELTA_GROUP / 2)),
        ("folklore k e^{k−1} δ: ε dropped from the exponent (R-H26; unsafe for ε > 1)",
         make(folklore=k * sp.exp(k - 1) * delta)),
    ]
