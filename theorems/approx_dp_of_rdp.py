r"""(α, ε)-RDP implies :math:`(\varepsilon + \log(1/\delta)/(\alpha-1), \delta)`-DP.

.. math::
    \delta_{P\|Q}\Big(\varepsilon + \frac{\log(1/\delta)}{\alpha-1}\Big) \le \delta
    \quad\text{for every pair } P = M(x), Q = M(x') \text{ with } D_\alpha(P\|Q) \le \varepsilon.

Parameterization: (α, ε)-RDP (R-A10) at the single order α > 1 in the MGF form
``rdp``: :math:`\mathbb E_P[e^{(\alpha-1)L}] \le e^{(\alpha-1)\varepsilon}`, L the
privacy loss of (P, Q) — the same statement as :math:`D_\alpha(P\|Q) =
\frac{1}{\alpha-1}\log\mathbb E_P[e^{(\alpha-1)L}] \le \varepsilon` (Mironov's Def 3
with :math:`p^\alpha q^{1-\alpha} = p\,(p/q)^{\alpha-1}`); (ε', δ)-DP in the
hockey-stick form (R-A6).  Mironov writes the RDP parameter as ε, as here;
δ ∈ (0, 1), ε > 0.

Proof: the hockey-stick divergence is at most the tail :math:`\Pr[L > \varepsilon']`
(the tail condition, R-A6); **Markov's inequality** on :math:`e^{(\alpha-1)L}`;
the RDP bound; :math:`e^{(\alpha-1)(\varepsilon-\varepsilon')} = e^{-\log(1/\delta)} = \delta`.
(Mironov's own proof goes through probability preservation, Prop 10 / R-D6, with
two cases; the tail route is the one of BS16 Lemma 3.5 at a fixed order and
gives the same ε'.)  Every order α is one instance, so the best conversion
minimises ε' over the orders a mechanism is known at (as R-A11 does for tCDP).

Not tight: the improved conversion of Canonne, Kamath & Steinke (R-E1) is
smaller by exactly :math:`\frac{\log\alpha}{\alpha-1} - \log(1-\frac1\alpha) > 0`.
Witnesses of the numeric checks: the Gaussian mechanism with shift μ,
:math:`D_\alpha = \alpha\mu^2/2`, at :math:`\mu^2 = 2\varepsilon/\alpha` (exactly
(α, ε)-RDP; its δ(ε') by the exact profile, BW18 / R-E4, and by quadrature of
the definition), and a two-point pair with :math:`D_\alpha = \varepsilon` chosen to
make δ(ε') large — e.g. α = 2, ε = 0.5, δ = 1e-6: the Gaussian gives 8.2e-90, the
two-point pair 9.7e-8; with ε' = ε + log(1/δ)/(2(α−1)) the pair gives 9.8e-5 > δ.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Proposition 3, arXiv:1702.07476v3.
* Bun & Steinke 2016, Lemma 3.5 (the tail route), arXiv:1605.02065.
* Balle & Wang 2018, Thm 8, arXiv:1805.06530v2 (the exact Gaussian profile, ground truth).
"""

from __future__ import annotations

import math

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, delta, eps, greater_than, open_unit, positive
from cdpsym.expr.operators import Expect, HockeyStick, P, Prob, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le
from theorems.foundations import markov_exponential, tail_condition

__all__ = ["theorem", "make", "mutants", "rdp", "EPSILON", "gaussian_hockey_stick", "binary_hockey_stick",
           "binary_witness"]

EPSILON = eps + sp.log(1 / delta) / (alpha - 1)

rdp = Hypothesis(
    name="rdp",
    title="the mechanism is (α, ε)-RDP: E[e^{(α−1)L}] ≤ e^{(α−1)ε}, i.e. D_α(P‖Q) ≤ ε (Mironov Def 3/4)",
    relation=le(Expect(sp.exp((alpha - 1) * L)), sp.exp((alpha - 1) * eps)),
)


# -- ground truth -------------------------------------------------------------------------------------------

def gaussian_hockey_stick(shift, e):
    r"""δ(e) of P = N(0, 1), Q = N(shift, 1) by quadrature of the definition :math:`\int(p - e^{e}q)_+`.

    :math:`p(y) > e^{e}q(y)` iff :math:`y < y_0 = \text{shift}/2 - e/\text{shift}` (here :math:`y_0 < 0`,
    since :math:`\text{shift}^2 = 2\varepsilon/\alpha < 2e`), so with :math:`y = y_0 - v/s`,
    :math:`s = \max(1, |y_0|)`, the integral is
    :math:`\frac{\varphi(y_0)}{s}\int_0^\infty e^{y_0 v/s - v^2/(2s^2)}\,(1 - e^{-\text{shift}\cdot v/s})\,dv`:
    nothing cancels, the integrand decays on the scale 1, and mpmath's tanh-sinh quadrature reaches the
    working precision.
    """
    y0 = shift / 2 - e / shift
    if y0 >= 0:
        raise ValueError(f"the witness needs y0 < 0, got y0={y0}")
    s = max(1, -y0)
    g = lambda v: mpmath.exp(y0 * (v / s) - (v / s) ** 2 / 2) * -mpmath.expm1(-shift * v / s)
    return mpmath.npdf(y0) * mpmath.quad(g, [0, 1, 4, 16, 64, 256, mpmath.inf]) / s


def _log_q(a, e, lp, log=mpmath.log, exp=mpmath.exp, log1p=mpmath.log1p, solve=None):
    """``log q`` for the two-point pair P = (p, 1−p), Q = (q, 1−q), ``p = e^lp``, with
    :math:`p^a q^{1-a} + (1-p)^a (1-q)^{1-a} = e^{(a-1)e}`: the pair is then exactly (a, e)-RDP.

    The left side decreases from +oo (q → 0) to 1 (q = p) on (0, p), so the root is unique; it lies in
    ``[a/(a−1)·lp − e, lp]`` (where :math:`p^a q^{1-a}` alone reaches the target).  In floats
    (``math``) by bisection for the search, in mpmath by the secant method from a float start.
    """
    target = (a - 1) * e
    log1m_p = log1p(-exp(lp))

    def excess(lq):  # log E_P[(P/Q)^{a-1}] - (a-1)e, as a function of log q
        x, y = a * lp + (1 - a) * lq, a * log1m_p + (1 - a) * log1p(-exp(lq))
        top = max(x, y)
        return top + log(exp(x - top) + exp(y - top)) - target

    if solve is not None:
        return solve(excess)
    lo, hi = a / (a - 1) * lp - e, lp
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if excess(mid) > 0 else (lo, mid)
    return hi  # excess(hi) <= 0: D_a <= e


def binary_hockey_stick(p, q, e):
    r"""δ(e) of P = (p, 1−p), Q = (q, 1−q) from the definition :math:`\sum_y (P(y) - e^{e}Q(y))_+`."""
    return sum(max(0, x - mpmath.exp(e) * y) for x, y in ((p, q), (1 - p, 1 - q)))


def binary_witness(a, e, e_prime, d):
    """A two-point (a, e)-RDP pair with a large δ(e_prime), and that δ: ``(p, q, δ)``.

    The Gaussian is far from the bound (its Rényi divergence is below ``e`` at every other order); a
    two-point pair that meets ``D_a = e`` exactly comes within a factor 3–50 of δ at the numeric points, so
    it is the witness that refutes a wrong ε'.  ``p`` is chosen in floats (a grid in ``log p``, then
    golden-section search); any ``p`` gives a valid witness.  The pair is then rebuilt at the working
    precision, its Rényi divergence checked to be at most ``e``, and its δ computed from the definition.
    """
    af, ef, epf = float(a), float(e), float(e_prime)

    def score(lp):  # log δ(e') of the pair, in floats (the second atom never counts: 1 − p < 1 − q)
        lq = _log_q(af, ef, lp, math.log, math.exp, math.log1p)
        gap = epf + lq - lp
        return lp + math.log(-math.expm1(gap)) if gap < 0 else -math.inf

    log_inv = float(mpmath.log(1 / d))
    grid = sorted({-j / 40 * log_inv for j in range(1, 61)} | {-j / 4 * math.log(10) for j in range(1, 41)})
    best = max(range(len(grid)), key=lambda i: score(grid[i]))
    lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, len(grid) - 1)]
    g = (math.sqrt(5) - 1) / 2
    for _ in range(60):  # golden section on [lo, hi] (the score is unimodal there in practice)
        x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
        lo, hi = (x1, hi) if score(x1) < score(x2) else (lo, x2)
    lp = max((lo, grid[best]), key=score)
    lp_mp = mpmath.mpf(lp)
    start = _log_q(af, ef, lp, math.log, math.exp, math.log1p)
    lq = _log_q(a, e, lp_mp, solve=lambda f: mpmath.findroot(f, mpmath.mpf(start)))
    lq += mpmath.mpf(10) ** (-mpmath.mp.dps + 8)  # a larger q only lowers D_a: stay inside the class
    p, q = mpmath.exp(lp_mp), mpmath.exp(lq)
    renyi = mpmath.log(p ** a * q ** (1 - a) + (1 - p) ** a * (1 - q) ** (1 - a)) / (a - 1)
    if renyi > e:
        raise ValueError(f"the two-point witness is not (alpha, eps)-RDP: D_alpha = {renyi} > {e}")
    return p, q, binary_hockey_stick(p, q, e_prime)


def _witness(epsilon: sp.Expr):
    """Two (α, ε)-RDP witnesses at the ε' the statement claims (evaluated from it): the Gaussian mechanism,
    by its exact profile and by quadrature, and the extremal two-point pair."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms import Gaussian

        e = evaluate(epsilon, v, MPContext(dps))
        shift = mpmath.sqrt(2 * v[eps] / v[alpha])  # D_α(N(0,1) ‖ N(shift,1)) = α·shift²/2 = ε
        g = Gaussian(sensitivity=1, sigma=1 / shift)
        p, q, two_point = binary_witness(v[alpha], v[eps], e, v[delta])
        return [("Gaussian(sensitivity=1, sigma=sqrt(alpha/(2*eps))), exact profile (BW18)", g.delta(e, dps=dps)),
                ("Gaussian(sensitivity=1, sigma=sqrt(alpha/(2*eps))), quadrature of (p - e^eps' q)_+",
                 gaussian_hockey_stick(shift, e)),
                (f"two-point pair P = (p, 1-p), Q = (q, 1-q), p = {mpmath.nstr(p, 6)}, D_alpha = eps", two_point)]

    return truth


def make(epsilon: sp.Expr = EPSILON) -> Theorem:
    """The conversion with the ε' it claims (tests build mutants with a wrong ε')."""
    proof = (
        Chain(HockeyStick(epsilon, P, Q))
        .le(Prob(sp.StrictGreaterThan(L, epsilon)), by(tail_condition, eps=epsilon))
        .le(sp.exp(-(alpha - 1) * epsilon) * Expect(sp.exp((alpha - 1) * L)),
            by(markov_exponential, lam=alpha - 1, t=epsilon, X=L))
        .le(sp.exp(-(alpha - 1) * epsilon) * sp.exp((alpha - 1) * eps),
            by(rdp, inside=lambda w: sp.exp(-(alpha - 1) * epsilon) * w))
        .eq(delta, algebra("at the claimed parameter ε + log(1/δ)/(α − 1) the exponent is −log(1/δ)"))
    )
    return Theorem(
        name="approx_dp_of_rdp",
        reference="R-D5",
        source="Mironov 2017, Prop. 3, arXiv:1702.07476v3",
        title="RDP to approximate DP",
        notion="RDP(alpha, eps) implies DP(eps + log(1/delta)/(alpha - 1), delta)",
        # δ is drawn from [1e-30, 0.5]: the kernel compares sample values with an absolute tolerance of 1e-20,
        # so a wrong ε' (δ^{1/2} for δ) is refuted only where δ is not minute; 1e-300 is a numeric point
        variables={alpha: greater_than(1, sample_lo=1.01, sample_hi=100, log_scale=True),
                   eps: positive(sample_lo=1e-4, sample_hi=20, log_scale=True),
                   delta: open_unit(sample_lo=1e-30, sample_hi=0.5, log_scale=True)},
        hypotheses=(rdp,),
        parts=(Part("main", le(HockeyStick(epsilon, P, Q), delta), proof=proof, ground_truth=_witness(epsilon)),),
        numeric_points=({"alpha": "2", "eps": "0.5", "delta": "1e-6"}, {"alpha": "32", "eps": "1", "delta": "1e-5"},
                        {"alpha": "1.5", "eps": "0.01", "delta": "1e-3"}, {"alpha": "10", "eps": "5", "delta": "0.5"},
                        {"alpha": "1.01", "eps": "1e-4", "delta": "1e-300"},
                        {"alpha": "200", "eps": "2", "delta": "1e-9"}),
        property_examples=30,
        tight="not tight; the CKS20 conversion (R-E1) is smaller by log(α)/(α−1) − log(1 − 1/α).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε' = ε + log(1/δ)/(2(α − 1)): the log term halved", make(eps + sp.log(1 / delta) / (2 * (alpha - 1)))),
        ("ε' = ε + log(1/δ)/α: α for α − 1", make(eps + sp.log(1 / delta) / alpha)),
        ("ε' = 9ε/10 + log(1/δ)/(α − 1): the RDP parameter shrunk",
         make(eps * sp.Rational(9, 10) + sp.log(1 / delta) / (alpha - 1))),
    ]
