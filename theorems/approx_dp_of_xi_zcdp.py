r"""(ξ, ρ)-zCDP implies :math:`(\xi + \rho + 2\sqrt{\rho\log(1/\delta)}, \delta)`-DP.

.. math::
    \delta_{P\|Q}\big(\xi + \rho + 2\sqrt{\rho\log(1/\delta)}\big) \le \delta
    \quad\text{for every pair } P = M(x), Q = M(x') \text{ of a } (\xi, \rho)\text{-zCDP mechanism}.

This is the general form of ``approx_dp_of_zcdp`` (ξ = 0).  Parameterization: (ξ, ρ)-zCDP,
:math:`D_\alpha(P\|Q)\le\xi+\rho\alpha` for every α > 1 (R-A9), in the MGF form
:math:`\mathbb E_P[e^{\lambda L}]\le e^{\lambda(\xi+(\lambda+1)\rho)}` for λ > 0 (λ = α − 1; hypothesis ``xi_zcdp``
of ``loss_tail_of_zcdp``); (ε, δ)-DP in the hockey-stick form (R-A6).

Proof (BS16 Lemma 3.5): the hockey-stick divergence is at most the tail Pr[L > ε] (``tail_condition``); the
(ξ, ρ)-zCDP tail bound :math:`\Pr[L>t]\le e^{-(t-\xi-\rho)^2/(4\rho)}` for t > ξ + ρ (``loss_tail_of_zcdp_xi``,
Markov's inequality on :math:`e^{(\alpha-1)L}` at the minimising α) at
:math:`t=\xi+\rho+2\sqrt{\rho\log(1/\delta)}`, which exceeds ξ + ρ because δ < 1; the exponent is then
:math:`-\log(1/\delta)`.

Not tight.  The ground truth is the exact privacy profile of the product of randomized response with
parameter ξ (ξ-DP, so :math:`D_\alpha\le\xi` at every order: (ξ, 0)-zCDP) and the Gaussian mechanism with
:math:`\Delta/\sigma=\sqrt{2\rho}` (ρ-zCDP): Rényi divergences add over products, so the pair is
(ξ, ρ)-zCDP, and its hockey-stick divergence at ε is
:math:`\sum_{y}r(y)\,\delta_{\mathrm{Gauss}}(\varepsilon-\ell_y)` over the randomized response's two answers
(:math:`\ell_y=\pm\xi`, :math:`r(y)` their probabilities under P), each Gaussian profile exact (BW18).

References
----------
* Bun & Steinke 2016, Lemma 3.5, arXiv:1605.02065 (stated there for (ξ, ρ)-zCDP).
* Balle & Wang 2018, Thm 8, arXiv:1805.06530 (the exact Gaussian profile of the ground truth).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import delta, nonnegative, open_unit, positive, rho, xi
from cdpsym.expr.operators import HockeyStick, P, Prob, Q
from cdpsym.expr.symbols import L
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le
from theorems.foundations import tail_condition
from theorems.loss_tail_of_zcdp import xi_theorem as loss_tail_of_zcdp_xi
from theorems.loss_tail_of_zcdp import xi_zcdp

__all__ = ["theorem", "make", "mutants", "EPSILON_XI"]

EPSILON_XI = xi + rho + 2 * sp.sqrt(rho * sp.log(1 / delta))


def _product_profile(epsilon: sp.Expr):
    """The exact hockey-stick divergence of RR_ξ × Gaussian(ρ) at the ε the statement claims."""
    from cdpsym.expr.evaluate import MPContext, evaluate
    from cdpsym.mechanisms import Gaussian

    def truth(v, dps):
        with mpmath.workdps(dps):
            e = evaluate(epsilon, v, MPContext(dps))
            g = Gaussian(sensitivity=1, sigma=1 / mpmath.sqrt(2 * v[rho]))
            honest = mpmath.exp(v[xi]) / (1 + mpmath.exp(v[xi]))  # RR_ξ's truthful answer: loss +ξ, else −ξ
            value = honest * g.delta(e - v[xi], dps=dps) + (1 - honest) * g.delta(e + v[xi], dps=dps)
        return [("RR_xi x Gaussian(sensitivity=1, sigma=1/sqrt(2*rho)), exact profile", value)]

    return truth


def make(epsilon: sp.Expr = EPSILON_XI) -> Theorem:
    """The conversion with the ε it claims (tests build mutants with a wrong ε)."""
    proof = (
        Chain(HockeyStick(epsilon, P, Q))
        .le(Prob(sp.StrictGreaterThan(L, epsilon)), by(tail_condition, eps=epsilon))
        .le(sp.exp(-(epsilon - xi - rho) ** 2 / (4 * rho)), by(loss_tail_of_zcdp_xi, t=epsilon))
        .eq(delta, algebra("(ε − ξ − ρ)² = 4ρ log(1/δ)"))
    )
    return Theorem(
        name="approx_dp_of_xi_zcdp",
        reference="R-C4",
        source="Bun & Steinke 2016, Lemma 3.5, arXiv:1605.02065",
        title="conversion of (xi, rho)-zCDP to approximate DP",
        variables={rho: positive(sample_lo=1e-6, sample_hi=20, log_scale=True),
                   xi: nonnegative(sample_lo=0, sample_hi=3),
                   delta: open_unit(sample_lo=1e-300, sample_hi=0.5, log_scale=True)},
        hypotheses=(xi_zcdp,),
        parts=(Part("main", le(HockeyStick(epsilon, P, Q), delta), proof=proof,
                    ground_truth=_product_profile(epsilon)),),
        numeric_points=({"rho": "0.5", "xi": "0.3", "delta": "1e-6"}, {"rho": "0.01", "xi": "1", "delta": "1e-9"},
                        {"rho": "2", "xi": "0", "delta": "1e-5"}, {"rho": "0.125", "xi": "0.05", "delta": "1e-3"},
                        {"rho": "1e-8", "xi": "2", "delta": "1e-300"}),
        property_examples=20,
        tight="not tight; at ξ = 0 it is approx_dp_of_zcdp, whose exact Gaussian value is smaller (R-E7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε = ρ + 2√(ρ log(1/δ)): the term ξ removed", make(rho + 2 * sp.sqrt(rho * sp.log(1 / delta)))),
        ("ε = ξ + ρ + √(ρ log(1/δ)): the constant 2 dropped", make(xi + rho + sp.sqrt(rho * sp.log(1 / delta)))),
    ]
