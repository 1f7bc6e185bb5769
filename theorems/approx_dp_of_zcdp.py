r"""ρ-zCDP implies :math:`(\rho + 2\sqrt{\rho\log(1/\delta)}, \delta)`-DP.

.. math::
    \delta_{P\|Q}\big(\rho + 2\sqrt{\rho\log(1/\delta)}\big) \le \delta
    \quad\text{for every pair } P = M(x), Q = M(x') \text{ of a } \rho\text{-zCDP mechanism}.

Parameterization: ρ-zCDP in the MGF form of R-A9 — for all λ > 0,
E_P[e^{λL}] ≤ e^{λ(λ+1)ρ}, L the privacy loss of (P, Q); (ε,δ)-DP in the
hockey-stick form (R-A6).

Proof (BS16 Lemma 3.5): the hockey-stick divergence is at most the tail
Pr[L > ε]; **Markov's inequality** on e^{(α−1)L}; the zCDP bound at
λ = α − 1; the exponent (α−1)(αρ − ε) is minimised at α* = (ε+ρ)/(2ρ),
which exceeds 1 because ε > ρ, giving e^{−(ε−ρ)²/(4ρ)} = δ.

Not tight: for the Gaussian mechanism with ρ = 1/2, δ = 1e-6 this gives
ε = 5.7565, the exact value is 4.8866 (R-E7).

References
----------
* Bun & Steinke 2016, Prop 1.3 and Lemma 3.5, arXiv:1605.02065.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, delta, eps, greater_than, lam, open_unit, positive, rho
from cdpsym.expr.operators import Expect, HockeyStick, P, Prob, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le, specialize
from theorems.foundations import markov_exponential, tail_condition

__all__ = ["theorem", "make", "mutants", "EPSILON"]

EPSILON = rho + 2 * sp.sqrt(rho * sp.log(1 / delta))

zcdp = Hypothesis(
    name="zcdp",
    title="the mechanism is ρ-zCDP (MGF form, R-A9)",
    relation=le(Expect(sp.exp(lam * L)), sp.exp(lam * (lam + 1) * rho)),
    variables={lam: positive()},
)


def _gaussian_witness(epsilon: sp.Expr):
    """Exact privacy profile of the Gaussian mechanism with this ρ (BW18), the tight zCDP witness,
    at the ε the statement claims (evaluated from the statement, not restated)."""
    from cdpsym.expr.evaluate import MPContext, evaluate
    from cdpsym.mechanisms import Gaussian

    def truth(v, dps):
        e = evaluate(epsilon, v, MPContext(dps))
        g = Gaussian(sensitivity=1, sigma=1 / mpmath.sqrt(2 * v[rho]))
        return [("Gaussian(sensitivity=1, sigma=1/sqrt(2*rho)), exact profile", g.delta(e, dps=dps))]

    return truth


def make(epsilon: sp.Expr = EPSILON) -> Theorem:
    """The conversion with the ε it claims (tests build mutants with a wrong ε)."""
    exponent = (alpha - 1) * (alpha * rho - eps)
    tail = (
        Chain(HockeyStick(eps, P, Q), variables={alpha: greater_than(1)})
        .le(Prob(sp.StrictGreaterThan(L, eps)), by(tail_condition))
        .le(sp.exp(-(alpha - 1) * eps) * Expect(sp.exp((alpha - 1) * L)),
            by(markov_exponential, lam=alpha - 1, t=eps, X=L))
        .le(sp.exp(-(alpha - 1) * eps) * sp.exp((alpha - 1) * alpha * rho),
            by(zcdp, lam=alpha - 1, inside=lambda w: sp.exp(-(alpha - 1) * eps) * w))
        .eq(sp.exp(exponent), algebra())
        .eq(sp.exp(-(eps - rho) ** 2 / (4 * rho)),
            specialize(alpha=(eps + rho) / (2 * rho), minimizes=exponent))
    )
    delta_of_eps = Part("delta_of_eps", le(HockeyStick(eps, P, Q), sp.exp(-(eps - rho) ** 2 / (4 * rho))),
                        variables={eps: greater_than(rho, sample_hi=60)}, proof=tail,
                        ground_truth=_gaussian_witness_at_eps)
    main = (
        Chain(HockeyStick(epsilon, P, Q))
        .le(sp.exp(-(epsilon - rho) ** 2 / (4 * rho)), by(delta_of_eps, eps=epsilon))
        .eq(delta, algebra())
    )
    return Theorem(
        name="approx_dp_of_zcdp",
        reference="R-C4",
        source="Bun & Steinke 2016, Prop 1.3 and Lemma 3.5, arXiv:1605.02065",
        title="zCDP to approximate DP",
        notion="zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)",
        variables={rho: positive(sample_lo=1e-6, sample_hi=20, log_scale=True),
                   delta: open_unit(sample_lo=1e-300, sample_hi=0.5, log_scale=True)},
        hypotheses=(zcdp,),
        parts=(delta_of_eps,
               Part("eps_of_delta", le(HockeyStick(epsilon, P, Q), delta), proof=main,
                    ground_truth=_gaussian_witness(epsilon))),
        numeric_points=({"rho": "0.5", "delta": "1e-6", "eps": "4"}, {"rho": "0.01", "delta": "1e-9", "eps": "0.5"},
                        {"rho": "2", "delta": "1e-5", "eps": "11"}, {"rho": "0.125", "delta": "1e-3", "eps": "0.2"},
                        {"rho": "1e-12", "delta": "1e-300", "eps": "1e-5"}),
        tight="not tight; the exact Gaussian value is smaller (R-E7).",
    )


def _gaussian_witness_at_eps(v, dps):
    from cdpsym.mechanisms import Gaussian

    g = Gaussian(sensitivity=1, sigma=1 / mpmath.sqrt(2 * v[rho]))
    return [("Gaussian(sensitivity=1, sigma=1/sqrt(2*rho)), exact profile", g.delta(v[eps], dps=dps))]


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε = ρ + √(ρ log(1/δ)): the constant 2 dropped", make(rho + sp.sqrt(rho * sp.log(1 / delta)))),
        ("ε = 2√(ρ log(1/δ)): the term ρ removed", make(2 * sp.sqrt(rho * sp.log(1 / delta)))),
    ]
