r"""Group CDP for the Gaussian mechanism: for datasets at distance k it is :math:`((k\Delta/\sigma)^2/2,\ k\Delta/\sigma)`-CDP.

.. math::
    \mathbb E[L]\le\frac{(k\Delta/\sigma)^2}{2},\qquad
    \mathbb E\big[e^{\lambda(L-\mathbb E L)}\big]\le e^{\lambda^2(k\Delta/\sigma)^2/2}
    \quad\text{for every real }\lambda,

for the pair :math:`P=M(x)=N(\mu,\sigma^2)`, :math:`Q=M(x')=N(\nu,\sigma^2)` of datasets
:math:`x,x'` that differ in :math:`k` entries.

Parameterization: as :mod:`theorems.gaussian_cdp` (``M(x) = f(x) + N(0, σ²)``, ``sensitivity``
is the sensitivity Δ of f, L the privacy loss of (P, Q) at the output
:math:`y=\mu+\sigma Z`), with the group size ``k``.  The hypothesis ``group_shift`` is the
*group sensitivity* :math:`(\mu-\nu)^2\le(k\Delta)^2`: datasets differing in k entries are
joined by a chain of k neighbours, so :math:`|f(x)-f(x')|\le k\Delta` by the triangle
inequality; that step is taken as the hypothesis (R-B9: "group sensitivity ≤ sΔ"), not
derived here.  REFERENCE and DR16 call the group size s; here it is ``k``.

Correct form: DR16 print the second parameter as ":math:`s\Delta f`" (missing the division
by σ, R-H27); the statement here is the corrected :math:`k\Delta/\sigma`.  The printed form is
false whenever σ < 1 (a mutant below checks that it fails).

Proof: ``gaussian_cdp`` (both parts) at sensitivity :math:`k\Delta` -- its hypothesis
``sensitivity`` at that value is ``group_shift`` -- then algebra.

Tight: both bounds are equalities when :math:`|f(x)-f(x')|=k\Delta` (the loss is
:math:`N(\rho_k,2\rho_k)`, :math:`\rho_k=(k\Delta)^2/(2\sigma^2)`).

References
----------
* Dwork & Rothblum 2016, Cor 3.3, arXiv:1603.01887v2 (printed with the typo of R-H27).
* REFERENCE.md R-B9, R-H27.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import L, k, lam, mu, naturals, nu, positive, real, sensitivity, sigma
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le
from theorems.gaussian_cdp import gaussian_pair
from theorems.gaussian_cdp import theorem as gaussian_cdp

__all__ = ["theorem", "make", "mutants", "group_shift", "MEAN", "TAU"]

TAU = k * sensitivity / sigma
MEAN = TAU ** 2 / 2

group_shift = Hypothesis(
    name="group_shift",
    title="datasets at distance k: the outputs' means differ by at most k times the sensitivity",
    relation=le((mu - nu) ** 2, (k * sensitivity) ** 2),
)

_CENTRED = Expect(sp.exp(lam * (L - Expect(L))))


def _at_group_sensitivity(v):
    import importlib

    module = importlib.import_module("theorems.gaussian_cdp")
    w = dict(v)
    w[sensitivity] = v[k] * v[sensitivity]
    return module, w


def _mean_truth(v, dps):
    module, w = _at_group_sensitivity(v)
    return module._mean_truth(w, dps)  # Arb quadrature of E_P[log p/q] for the pair clipped to |μ-ν| <= kΔ


def _subgaussian_truth(v, dps):
    module, w = _at_group_sensitivity(v)
    return module._subgaussian_truth(w, dps)


def make(mean: sp.Expr = MEAN, tau_: sp.Expr = TAU) -> Theorem:
    """Group CDP with claimed parameters ``(mean, tau_)`` (mutants change them)."""
    inst = {"Delta": k * sensitivity, "sigma": sigma, "mu": mu, "nu": nu}
    mean_proof = (
        Chain(Expect(L))
        .le((k * sensitivity) ** 2 / (2 * sigma ** 2), by(gaussian_cdp.part("mean"), **inst))
        .eq(mean, algebra())
    )
    sub_proof = (
        Chain(_CENTRED)
        .le(sp.exp(lam ** 2 * (k * sensitivity / sigma) ** 2 / 2), by(gaussian_cdp.part("subgaussian"), lam=lam, **inst))
        .eq(sp.exp(lam ** 2 * tau_ ** 2 / 2), algebra())
    )
    return Theorem(
        name="gaussian_group_cdp",
        reference="R-B9",
        source="Dwork & Rothblum 2016, Cor 3.3, arXiv:1603.01887v2 (second parameter corrected, R-H27)",
        title="the Gaussian mechanism is CDP for groups of k datasets, with k times the sensitivity",
        variables={k: naturals(sample_lo=1, sample_hi=50),
                   sensitivity: positive(sample_lo=0.01, sample_hi=3),
                   sigma: positive(sample_lo=0.1, sample_hi=30),
                   mu: real(sample_lo=-5, sample_hi=5),
                   nu: real(sample_lo=-5, sample_hi=5),
                   lam: real(sample_lo=-3, sample_hi=3)},
        hypotheses=(group_shift, gaussian_pair),
        parts=(Part("mean", le(Expect(L), mean), proof=mean_proof, ground_truth=_mean_truth),
               Part("subgaussian", le(_CENTRED, sp.exp(lam ** 2 * tau_ ** 2 / 2)), proof=sub_proof,
                    ground_truth=_subgaussian_truth)),
        numeric_points=({"k": "3", "Delta": "0.5", "sigma": "0.7", "mu": "0", "nu": "1.5", "lam": "1.1"},
                        {"k": "2", "Delta": "1", "sigma": "3", "mu": "1", "nu": "-1", "lam": "-2"},
                        {"k": "5", "Delta": "0.2", "sigma": "0.5", "mu": "0.3", "nu": "-0.2", "lam": "0.6"},
                        {"k": "1", "Delta": "1.3", "sigma": "0.7", "mu": "0", "nu": "1.3", "lam": "1.9"}),
        property_examples=20,
        tight="both bounds are equalities when |f(x) - f(x')| = kΔ.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("DR16's printed standard kΔ (no division by σ, R-H27)", make(tau_=k * sensitivity)),
        ("standard without the group size, Δ/σ", make(tau_=sensitivity / sigma)),
        ("mean growing like k instead of k²", make(mean=k * sensitivity ** 2 / (2 * sigma ** 2))),
    ]
