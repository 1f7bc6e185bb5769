r"""(μ,τ)-CDP implies :math:`(\mu + \tau\sqrt{2\log(1/\delta)}, \delta)`-DP.

.. math::
    \delta_{P\|Q}\big(\mu + \tau\sqrt{2\log(1/\delta)}\big) \le \delta
    \quad\text{for every pair } P = M(x), Q = M(x') \text{ of a } (\mu,\tau)\text{-CDP mechanism}.

Parameterization: (μ,τ)-CDP is Dwork–Rothblum's (R-A8), with the same two
hypotheses as ``cdp_composition``: :math:`\mathbb E L\le\mu` (``cdp_mean``) and
:math:`\mathbb E[e^{\lambda(L-\mathbb E L)}]\le e^{\lambda^2\tau^2/2}` for every
real :math:`\lambda` (``cdp_subgaussian``), L the privacy loss of (P, Q);
(ε,δ)-DP in the hockey-stick form (R-A6).

Proof (DR16 Cor 3.1 with the tail condition): the hockey-stick divergence is at
most the tail Pr[L > ε] (**tail condition**, R-A6); that event is
:math:`\{L-\mathbb E L>\varepsilon-\mathbb E L\}`, so **Markov's inequality** on
:math:`e^{\lambda(L-\mathbb E L)}` and the subgaussian bound give
:math:`e^{\lambda^2\tau^2/2-\lambda(\varepsilon-\mathbb E L)}`; the mean bound
replaces :math:`\mathbb E L` by μ (the bound increases with :math:`\mathbb E L`
as λ > 0); the exponent :math:`\lambda^2\tau^2/2-\lambda(\varepsilon-\mu)` is
minimised at :math:`\lambda=(\varepsilon-\mu)/\tau^2>0`, giving
:math:`e^{-(\varepsilon-\mu)^2/(2\tau^2)}=\delta` at the claimed ε.  (This is
DR16 Cor 3.1, i.e. R-B2 applied to the centred loss, with the strict event the
tail condition needs.)

Not tight: for the Gaussian mechanism (μ = τ²/2) the exact profile at this ε
is well below δ (e.g. μ = 1/2, τ = 1, δ = 1e-6: ε = 5.7565, exact δ(ε) = 1.1e-8).

References
----------
* Dwork & Rothblum 2016, Cor 3.1 and Lemma 2.1, arXiv:1603.01887v2.
* Bun & Steinke 2016, §3 (tail condition, R-A6), arXiv:1605.02065.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, delta, lam, mu, open_unit, positive, real, tau
from cdpsym.expr.operators import Expect, HockeyStick, P, Prob, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le, specialize
from theorems.foundations import markov_exponential, tail_condition
from theorems.foundations_convexity import expectation_affine

__all__ = ["theorem", "make", "mutants", "cdp_mean", "cdp_subgaussian", "EPSILON", "class_witnesses"]

EPSILON = mu + tau * sp.sqrt(2 * sp.log(1 / delta))

cdp_mean = Hypothesis(
    name="cdp_mean",
    title="the pair has mean loss E[L] ≤ μ (R-A8)",
    relation=le(Expect(L), mu),
)

cdp_subgaussian = Hypothesis(
    name="cdp_subgaussian",
    title="the centred loss L − E[L] is τ-subgaussian: E[e^{λ(L−E L)}] ≤ e^{λ²τ²/2} for every real λ (R-A8)",
    relation=le(Expect(sp.exp(lam * (L - Expect(L)))), sp.exp(lam ** 2 * tau ** 2 / 2)),
    variables={lam: real()},
)


def _rr_eps(m, t):
    """The largest ε0 <= t with ε0 tanh(ε0/2) <= m: randomized response with this ε0 is (m, t)-CDP
    (mean loss ε0 tanh(ε0/2) = KL; the loss lies in [-ε0, ε0], so its centring is ε0-subgaussian by
    Hoeffding's lemma, R-B12)."""
    f = lambda e: e * mpmath.tanh(e / 2) - m
    if f(t) <= 0:
        return t
    lo, hi = mpmath.mpf(0), mpmath.mpf(t)
    for _ in range(mpmath.mp.prec + 10):  # bisection, keeping f(lo) <= 0
        mid = (lo + hi) / 2
        if f(mid) <= 0:
            lo = mid
        else:
            hi = mid
    return lo


def class_witnesses(m, t):
    """Two (m, t)-CDP mechanisms: the Gaussian with τ_G = min(t, √(2m)) ((τ_G²/2, τ_G)-CDP, R-B8) and
    randomized response with ε0 = ``_rr_eps(m, t)``."""
    from cdpsym.mechanisms import Gaussian, RandomizedResponse

    t_g = min(t, mpmath.sqrt(2 * m))
    e0 = _rr_eps(m, t)
    prec = mpmath.mp.dps + 10
    return [("Gaussian(sensitivity=min(tau, sqrt(2*mu)), sigma=1)", Gaussian(sensitivity=sp.Float(t_g, prec), sigma=1)),
            ("RandomizedResponse(eps0), eps0*tanh(eps0/2) <= mu, eps0 <= tau", RandomizedResponse(sp.Float(e0, prec)))]


def _witness(epsilon: sp.Expr):
    """Exact privacy profiles of (μ,τ)-CDP mechanisms at the ε the statement claims."""
    from cdpsym.expr.evaluate import MPContext, evaluate

    def truth(v, dps):
        e = evaluate(epsilon, v, MPContext(dps))
        return [(name, mech.delta(e, dps=dps)) for name, mech in class_witnesses(v[mu], v[tau])]

    return truth


def make(epsilon: sp.Expr = EPSILON) -> Theorem:
    """The conversion with the ε it claims (tests build mutants with a wrong ε)."""
    exponent = lam ** 2 * tau ** 2 / 2 - lam * (epsilon - mu)
    EL = Expect(L)
    centred = Expect(sp.exp(lam * (L - EL)))
    g = sp.exp(lam ** 2 * tau ** 2 / 2)
    # the same ε written so that sympy sees it is real (log(1/δ) = |log δ| for 0 < δ < 1): the context
    # of the subgaussian step then has a slope sympy knows is non-negative in the extended reals
    eps_real = epsilon.xreplace({sp.log(1 / delta): sp.Abs(sp.log(delta))})
    proof = (
        Chain(HockeyStick(epsilon, P, Q), variables={lam: positive()})
        .le(Prob(sp.StrictGreaterThan(L, epsilon)), by(tail_condition, eps=epsilon))
        .le(sp.exp(-lam * epsilon) * Expect(sp.exp(lam * L)), by(markov_exponential, lam=lam, t=epsilon, X=L))
        .eq(sp.exp(-lam * eps_real) * Expect(sp.exp(lam * EL) * sp.exp(lam * (L - EL))), algebra())
        .eq(sp.exp(-lam * eps_real) * sp.exp(lam * EL) * centred,
            by(expectation_affine, a=sp.exp(lam * EL), b=0, X=sp.exp(lam * (L - EL)),
               inside=lambda w: sp.exp(-lam * eps_real) * w))
        .le(sp.exp(-lam * eps_real) * sp.exp(lam * EL) * g,
            by(cdp_subgaussian, lam=lam, inside=lambda w: sp.exp(-lam * eps_real) * sp.exp(lam * EL) * w))
        .le(sp.exp(-lam * epsilon) * sp.exp(lam * mu) * g,
            by(cdp_mean, inside=lambda w: sp.exp(-lam * epsilon) * sp.exp(lam * w) * g))
        .eq(sp.exp(exponent), algebra())
        .eq(sp.exp(-(epsilon - mu) ** 2 / (2 * tau ** 2)),
            specialize(lam=(epsilon - mu) / tau ** 2, minimizes=exponent))
        .eq(delta, algebra())
    )
    return Theorem(
        name="approx_dp_of_cdp",
        reference="R-B7",
        source="Dwork & Rothblum 2016, Cor 3.1, arXiv:1603.01887v2; tail condition R-A6 "
               "(Bun & Steinke 2016, §3, arXiv:1605.02065)",
        title="mean-concentrated DP to approximate DP",
        notion="CDP(mu, tau) implies DP(mu + tau*sqrt(2*log(1/delta)), delta)",
        variables={mu: positive(sample_lo=1e-4, sample_hi=10, log_scale=True),
                   tau: positive(sample_lo=0.01, sample_hi=10, log_scale=True),
                   delta: open_unit(sample_lo=1e-300, sample_hi=0.5, log_scale=True)},
        hypotheses=(cdp_mean, cdp_subgaussian),
        parts=(Part("main", le(HockeyStick(epsilon, P, Q), delta), proof=proof,
                    ground_truth=_witness(epsilon)),),
        numeric_points=({"mu": "0.5", "tau": "1", "delta": "1e-6"},
                        {"mu": "0.005", "tau": "0.1", "delta": "1e-9"},
                        {"mu": "2", "tau": "2", "delta": "1e-5"},
                        {"mu": "0.125", "tau": "0.5", "delta": "0.4"},
                        {"mu": "1", "tau": "0.3", "delta": "1e-3"},
                        {"mu": "0.01", "tau": "3", "delta": "1e-300"}),
        tight="not tight; the exact Gaussian profile at this ε is smaller (R-E7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε = μ + τ√(log(1/δ)): the 2 under the root dropped", make(mu + tau * sp.sqrt(sp.log(1 / delta)))),
        ("ε = τ√(2 log(1/δ)): the term μ removed", make(tau * sp.sqrt(2 * sp.log(1 / delta)))),
    ]
