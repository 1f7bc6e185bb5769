r"""A :math:`\tau`-subgaussian variable has Gaussian tails: :math:`\Pr[X>t\tau]\le e^{-t^2/2}`.

.. math::
    \Pr[X>t\tau]\le e^{-t^2/2},\qquad \Pr[X<-t\tau]\le e^{-t^2/2}
    \qquad\text{for every } t>0,

whenever :math:`\mathbb E[e^{\lambda X}]\le e^{\lambda^2\tau^2/2}` for every real :math:`\lambda`.

Parameterization: :math:`X` is :math:`\tau`-subgaussian in the sense of
Dwork–Rothblum (R-A7, Kahane): the MGF bound for all real :math:`\lambda`
(which forces :math:`\mathbb E X=0`).  ``X`` is a variable of the theorem so
that other results can apply it to any random variable (``subgaussian_sum``'s
:math:`S_k`, in ``approx_dp_advanced_composition``).

What is proved exactly: the tails with the **strict** events
:math:`\{X>t\tau\}` and :math:`\{X<-t\tau\}`, because the trusted
**Markov's inequality** (``markov_exponential``) is stated for strict events
— that is the form the tail condition of (ε,δ)-DP needs.  DR16 state the
closed events :math:`\{X\ge t\tau\}`; that version needs Markov for closed
events, which is not in the trusted base (the two differ only by
:math:`\Pr[X=t\tau]`, zero for continuous :math:`X`).

Proof (DR16): **Markov's inequality** on :math:`e^{\lambda X}`, the
subgaussian bound, and the exponent :math:`\lambda^2\tau^2/2-\lambda t\tau`
is minimised at :math:`\lambda=t/\tau`.  Lower tail: the same for
:math:`-X` with the subgaussian bound at :math:`-\lambda`.

Tight in the exponent (Gaussian :math:`N(0,\tau^2)`, where
:math:`\Pr[X>t\tau]=\bar\Phi(t)\sim\varphi(t)/t`), not in the prefactor.

References
----------
* Dwork & Rothblum 2016, Lemma 2.1 and Definition 2.5, arXiv:1603.01887v2.
* Boucheron, Lugosi & Massart 2013, §2.3 (the Cramér–Chernoff method).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import X, lam, positive, real, t, tau
from cdpsym.expr.operators import Expect, Prob
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, le, specialize
from theorems.foundations import markov_exponential

__all__ = ["theorem", "make", "mutants", "subgaussian", "BOUND"]

BOUND = sp.exp(-t ** 2 / 2)

subgaussian = Hypothesis(
    name="subgaussian",
    title="X is τ-subgaussian: E[e^{λX}] ≤ e^{λ²τ²/2} for every real λ (R-A7)",
    relation=le(Expect(sp.exp(lam * X)), sp.exp(lam ** 2 * tau ** 2 / 2)),
    variables={lam: real()},
)


def _witnesses(v, dps, lower):
    """Exact tails of three τ-subgaussian variables (each checked against the bound)."""
    tt = v[t]
    gaussian = mpmath.erfc(tt / mpmath.sqrt(2)) / 2  # N(0, τ²): both tails are Φ̄(t)
    rademacher = mpmath.mpf(1) / 2 if tt < 1 else mpmath.mpf(0)  # ±τ, 1-subgaussian since cosh x <= e^{x²/2}
    # (τ/2)·Y, Y = -1 w.p. 3/4, 3 w.p. 1/4: mean 0, range 4, so τ-subgaussian by Hoeffding's lemma (R-B12)
    if lower:
        skewed = mpmath.mpf(3) / 4 if 2 * tt < 1 else mpmath.mpf(0)
    else:
        skewed = mpmath.mpf(1) / 4 if 2 * tt < 3 else mpmath.mpf(0)
    return [("N(0, tau^2), exact erfc", gaussian), ("tau * Rademacher, exact", rademacher),
            ("(tau/2) * {-1: 3/4, 3: 1/4}, exact", skewed)]


def make(bound: sp.Expr = BOUND) -> Theorem:
    """Both tails with the claimed ``bound`` (tests build mutants with a wrong one)."""
    exponent = lam ** 2 * tau ** 2 / 2 - lam * t * tau
    upper_event = Prob(sp.StrictGreaterThan(X, t * tau))
    upper = (
        Chain(upper_event, variables={lam: positive()})
        .le(sp.exp(-lam * t * tau) * Expect(sp.exp(lam * X)), by(markov_exponential, lam=lam, t=t * tau, X=X))
        .le(sp.exp(-lam * t * tau) * sp.exp(lam ** 2 * tau ** 2 / 2),
            by(subgaussian, lam=lam, inside=lambda w: sp.exp(-lam * t * tau) * w))
        .eq(sp.exp(exponent), algebra())
        .eq(sp.exp(-t ** 2 / 2), specialize(lam=t / tau, minimizes=exponent))
        .eq(bound, algebra())
    )
    lower_event = Prob(sp.StrictLessThan(X, -t * tau))
    lower = (
        Chain(lower_event, variables={lam: positive()})
        .le(sp.exp(-lam * t * tau) * Expect(sp.exp(-lam * X)),
            by(markov_exponential, lam=lam, t=t * tau, X=-X))  # {X < -tτ} is {-X > tτ}
        .le(sp.exp(-lam * t * tau) * sp.exp(lam ** 2 * tau ** 2 / 2),
            by(subgaussian, lam=-lam, inside=lambda w: sp.exp(-lam * t * tau) * w))
        .eq(sp.exp(exponent), algebra())
        .eq(sp.exp(-t ** 2 / 2), specialize(lam=t / tau, minimizes=exponent))
        .eq(bound, algebra())
    )
    return Theorem(
        name="subgaussian_concentration",
        reference="R-B2",
        source="Dwork & Rothblum 2016, Lemma 2.1, arXiv:1603.01887v2",
        title="subgaussian concentration",
        variables={tau: positive(sample_lo=0.05, sample_hi=20, log_scale=True),
                   t: positive(sample_lo=0.01, sample_hi=12),
                   X: real(sample_lo=-1, sample_hi=1)},
        hypotheses=(subgaussian,),
        parts=(Part("upper", le(upper_event, bound), proof=upper,
                    ground_truth=lambda v, dps: _witnesses(v, dps, lower=False)),
               Part("lower", le(lower_event, bound), proof=lower,
                    ground_truth=lambda v, dps: _witnesses(v, dps, lower=True))),
        numeric_points=({"tau": "1", "t": "0.5"}, {"tau": "2.5", "t": "1"}, {"tau": "0.3", "t": "3"},
                        {"tau": "1", "t": "0.999"}, {"tau": "7", "t": "10"}),
        property_examples=40,
        tight="in the exponent (Gaussian), not in the prefactor: Φ̄(t) ~ φ(t)/t.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("e^{−t²}: the constant 1/2 in the exponent dropped", make(sp.exp(-t ** 2))),
        ("e^{−t²/2}/2: a prefactor 1/2", make(sp.exp(-t ** 2 / 2) / 2)),
    ]
