r"""The Gaussian mechanism is :math:`(\alpha, \alpha\Delta^2/(2\sigma^2))`-RDP for every α > 1.

.. math::
    \mathbb E_P\big[e^{(\alpha-1)L}\big]\ \le\ e^{(\alpha-1)\,\alpha\Delta^2/(2\sigma^2)},
    \qquad\text{i.e.}\qquad D_\alpha(P\|Q)\le\frac{\alpha\Delta^2}{2\sigma^2},

for the pair :math:`P=\mathcal N(\mu,\sigma^2)`, :math:`Q=\mathcal N(\nu,\sigma^2)`,
:math:`|\mu-\nu|\le\Delta`, with L its privacy loss at the output :math:`y=\mu+\sigma Z\sim P`.

Parameterization: ``sensitivity`` is the (ℓ2-)sensitivity Δ of ``f``,
``M(x) = f(x) + N(0, σ²)`` (Mironov's :math:`\mathcal G_\sigma f`; M17 writes
"standard deviation σ²" and means variance σ², R-D1), μ = f(x), ν = f(x')
(hypotheses ``sensitivity`` of ``gaussian_zcdp`` and ``gaussian_pair`` of
``gaussian_cdp``).  (α, ε)-RDP is stated in the MGF form of R-A10 used by
``approx_dp_of_rdp`` and ``rdp_composition`` (hypothesis ``rdp``), so this
theorem discharges their hypothesis for the Gaussian mechanism; Mironov's
sensitivity-1 statement (Cor 3, :math:`\alpha/(2\sigma^2)`) is Δ = 1.

Proof: the **bridge** of ``gaussian_renyi`` turns the MGF into
:math:`e^{(\alpha-1)D_\alpha}`, and ``gaussian_zcdp`` (R-C2) bounds
:math:`D_\alpha\le\alpha\Delta^2/(2\sigma^2)`; :math:`w\mapsto e^{(\alpha-1)w}` is
increasing.  No new axiom.

Tight: equality at every α for the pair with :math:`|\mu-\nu|=\Delta`; the RDP
curve is a straight line in α (M17 §VI).

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Prop. 7 and Cor. 3, arXiv:1702.07476v3.
* Bun & Steinke 2016, Prop. 1.6, arXiv:1605.02065 (the zCDP form).
* REFERENCE.md R-D1, R-C1, R-C2.
"""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import alpha, greater_than, mu, nu, positive, real, sensitivity, sigma
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le
from theorems.gaussian_cdp import gaussian_pair
from theorems.gaussian_renyi import MGF, RENYI
from theorems.gaussian_zcdp import RHO, shift
from theorems.gaussian_zcdp import theorem as gaussian_zcdp

__all__ = ["theorem", "make", "EPS_ALPHA"]

EPS_ALPHA = alpha * sensitivity ** 2 / (2 * sigma ** 2)

_renyi = importlib.import_module("theorems.gaussian_renyi")


def _truth(v, dps):
    """E_P[e^{(α−1)L}] by quadrature of the definition, at the point's pair (ν clipped to the sensitivity ball)
    and at the worst pair |μ − ν| = Δ."""
    v = dict(v)
    if abs(v[mu] - v[nu]) > v[sensitivity]:
        v[nu] = v[mu] + mpmath.sign(v[nu] - v[mu]) * v[sensitivity]
    worst = dict(v)
    worst[nu] = v[mu] + v[sensitivity]
    (name, given), = _renyi._mgf_truth(v, dps)
    (_, tight), = _renyi._mgf_truth(worst, dps)
    return [(name, given), ("worst pair |mu - nu| = Delta, " + name, tight)]


def make(eps_alpha: sp.Expr = EPS_ALPHA) -> Theorem:
    """The Gaussian RDP bound with the claimed ε(α) ``eps_alpha`` (tests build mutants with a wrong one)."""
    lam_ = alpha - 1
    bound = sp.exp(lam_ * eps_alpha)
    proof = (
        Chain(MGF)
        .eq(sp.exp(lam_ * RENYI), by(_renyi.theorem.part("bridge")))
        .le(sp.exp(lam_ * alpha * RHO), by(gaussian_zcdp, inside=lambda w: sp.exp(lam_ * w)))
        .eq(bound, algebra())
    )
    return Theorem(
        name="gaussian_rdp",
        reference="R-D1",
        source="Mironov 2017, Prop. 7 and Cor. 3, arXiv:1702.07476v3",
        title="Rényi DP of the Gaussian mechanism",
        notion="Gaussian(sensitivity=Delta, sigma=sigma) is RDP(alpha, alpha*Delta^2/(2*sigma^2))",
        variables={sensitivity: positive(sample_lo=0.01, sample_hi=5),
                   sigma: positive(sample_lo=0.2, sample_hi=10),
                   alpha: greater_than(1, sample_lo=1.0001, sample_hi=30),
                   mu: real(sample_lo=-5, sample_hi=5),
                   nu: real(sample_lo=-5, sample_hi=5)},
        hypotheses=(shift, gaussian_pair),
        parts=(Part("main", le(MGF, bound), proof=proof, ground_truth=_truth),),
        numeric_points=({"Delta": "1", "sigma": "1", "alpha": "2", "mu": "0", "nu": "1"},
                        {"Delta": "2", "sigma": "1", "alpha": "3", "mu": "0", "nu": "2"},
                        {"Delta": "1.3", "sigma": "0.7", "alpha": "2.5", "mu": "0", "nu": "0.4"},
                        {"Delta": "0.5", "sigma": "4", "alpha": "30", "mu": "1", "nu": "1.5"}),
        property_examples=6,
        tight="equality at every α when |f(x) − f(x')| = Δ.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("Delta instead of Delta**2", make(alpha * sensitivity / (2 * sigma ** 2))),
            ("the factor alpha dropped", make(sensitivity ** 2 / (2 * sigma ** 2))),
            ("4 sigma**2 in the denominator", make(alpha * sensitivity ** 2 / (4 * sigma ** 2)))]
