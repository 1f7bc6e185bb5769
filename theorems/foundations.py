"""The trusted base: definitions and classical facts the library cites.

These are the only statements cdpsym takes without a proof chain.  Each is
a standard textbook fact or a definition from REFERENCE.md, with its
citation; each that can be computed is still checked numerically against
an independent computation (quadrature, enumeration) by ``cdpsym verify``.

Main definitions: Rényi divergence of two Gaussians (R-A4), the KL divergence
as the mean privacy loss (R-A1), the hockey-stick form of (ε,δ)-DP (R-A6).
Main facts: the Gaussian integral, Markov's inequality in exponential form,
linearity of expectation.  (More in ``foundations_convexity`` and
``foundations_composition``.)
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, X, alpha, eps, greater_than, lam, m, mu, nu, positive, real, s, sigma, t, y
from cdpsym.expr.operators import (KL, Expect, HockeyStick, Normal, P, Prob, Q, Renyi, normal_density)
from cdpsym.proof import Axiom, eq, le

__all__ = ["renyi_gaussian_definition", "gaussian_integral", "markov_exponential",
           "tail_condition", "kl_is_mean_loss",
           "AXIOMS"]

oo = sp.oo


def _gaussian_integral_truth(v, dps):
    mm, ss = v[m], v[s]
    f = lambda z: mpmath.exp(-(z - mm) ** 2 / (2 * ss ** 2)) / mpmath.sqrt(2 * mpmath.pi * ss ** 2)
    return [("quadrature", mpmath.quad(f, [-mpmath.inf, mm, mpmath.inf]))]


renyi_gaussian_definition = Axiom(
    name="renyi_divergence_definition",
    title="definition of the Rényi divergence, with the Gaussian densities",
    reference="R-A4",
    citation="Mironov 2017, Def 3, arXiv:1702.07476v3",
    relation=eq(Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma)),
                sp.log(sp.Integral(normal_density(y, mu, sigma) ** alpha * normal_density(y, nu, sigma) ** (1 - alpha),
                                   (y, -oo, oo))) / (alpha - 1)),
    variables={alpha: greater_than(1), mu: real(), nu: real(), sigma: positive()},
)

gaussian_integral = Axiom(
    name="gaussian_integral",
    title="the **Gaussian integral** (a normal density integrates to 1)",
    citation="Gauss; e.g. Feller, Vol. I, §VII.1",
    relation=eq(sp.Integral(normal_density(y, m, s), (y, -oo, oo)), 1),
    variables={m: real(sample_lo=-5, sample_hi=5), s: positive(sample_lo=0.05, sample_hi=20)},
    ground_truth=_gaussian_integral_truth,
    numeric_points=({"m": "0.3", "s": "1.7"}, {"m": "-2", "s": "0.25"}),
)


markov_exponential = Axiom(
    name="markov_exponential",
    title="**Markov's inequality** applied to exp(λX) (the Chernoff bound)",
    citation="Markov 1884; e.g. Boucheron, Lugosi & Massart 2013, §2.1",
    relation=le(Prob(sp.StrictGreaterThan(X, t)), sp.exp(-lam * t) * Expect(sp.exp(lam * X))),
    variables={lam: positive(), t: real(), X: real()},
)

tail_condition = Axiom(
    name="tail_condition",
    title="the hockey-stick divergence is at most the tail of the privacy loss, as (1 − e^(ε−L))₊ ≤ 1[L > ε]",
    reference="R-A6",
    citation="Bun & Steinke 2016, §3, arXiv:1605.02065",
    relation=le(HockeyStick(eps, P, Q), Prob(sp.StrictGreaterThan(L, eps))),
    variables={eps: real()},
)

kl_is_mean_loss = Axiom(
    name="kl_is_mean_loss",
    title="the KL divergence is the mean privacy loss",
    reference="R-A1",
    citation="Dwork & Rothblum 2016, Def 3.1 and §2.1, arXiv:1603.01887v2",
    relation=eq(Expect(L), KL(P, Q)),
)

AXIOMS = [renyi_gaussian_definition, gaussian_integral, markov_exponential, tail_condition,
          kl_is_mean_loss]
