r"""Randomized response :math:`\mathrm{RR}_p` is :math:`(\alpha, \varepsilon_p(\alpha))`-RDP, exactly.

.. math::
    \mathbb E_P\big[e^{(\alpha-1)L}\big]\ \le\ e^{(\alpha-1)\varepsilon_p(\alpha)},\qquad
    \varepsilon_p(\alpha)=\frac{1}{\alpha-1}\log\big[p^\alpha(1-p)^{1-\alpha}+(1-p)^\alpha p^{1-\alpha}\big]
    \quad(\alpha>1),

and, at α = 1, :math:`D_{\mathrm{KL}}(P\|Q)\le(2p-1)\log\frac{p}{1-p}` — both with equality.

Parameterization (Mironov's): :math:`\mathrm{RR}_p f(D)` reports the predicate
:math:`f(D)\in\{0,1\}` with probability :math:`p\in(\tfrac12,1)` and flips it
otherwise.  For neighbours with different bits the output is described by the
bit ``B`` = 1 when the report equals the bit of x: under :math:`P=M(x)`,
:math:`B\sim\mathrm{Bern}(p)` (hypotheses ``bernoulli_mgf`` — the moment
generating function :math:`\mathbb E e^{cB}=1-p+pe^c` for every real c, which
determines the law — and ``bernoulli_mean``, its derivative at 0, stated
separately because the kernel does not differentiate under E), and the privacy
loss is the log-ratio of the two mass functions
:math:`P(B)=p^B(1-p)^{1-B}`, :math:`Q(B)=(1-p)^Bp^{1-B}` (hypothesis
``rr_pair``).  Neighbours with equal bits have P = Q.  In the ε-parameterization
of ``randomized_response_pure_dp`` (R-G4), :math:`p=e^{\varepsilon}/(1+e^{\varepsilon})`;
:math:`\mathrm{RR}_p` is :math:`\log\frac p{1-p}`-DP.  (α, ε)-RDP is the MGF form
of R-A10 (hypothesis ``rdp`` of ``approx_dp_of_rdp`` / ``rdp_composition``);
the KL form is :math:`D_1`, with :math:`D_{\mathrm{KL}}=\mathbb E_P L` (R-A1).

Proof (M17 Prop 5 is the definition evaluated at a two-point distribution):
the loss is :math:`(2B-1)\ell`, :math:`\ell=\log\frac p{1-p}`, so
:math:`e^{(\alpha-1)L}=e^{-(\alpha-1)\ell}\,e^{2(\alpha-1)\ell B}`; **linearity of
expectation** and the Bernoulli MGF at :math:`c=2(\alpha-1)\ell` give
:math:`e^{-(\alpha-1)\ell}\big(1-p+p\,e^{2(\alpha-1)\ell}\big)=p^\alpha(1-p)^{1-\alpha}+(1-p)^\alpha p^{1-\alpha}`.
For α = 1: :math:`D_{\mathrm{KL}}=\mathbb E L=2\ell\,\mathbb E B-\ell=(2p-1)\ell`.
No new axiom.

Tight: both are equalities (the exact divergences).  Ground truth: exact
enumeration of the two outputs, from ``cdpsym.mechanisms.RandomizedResponse``
and from a direct coin, of :math:`\sum_o P(o)^\alpha Q(o)^{1-\alpha}` and
:math:`\sum_o P(o)\log\frac{P(o)}{Q(o)}`.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Prop. 5, arXiv:1702.07476v3.
* Warner 1965, *Randomized Response*, JASA 60.
* REFERENCE.md R-D3, R-A10, R-G4.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, greater_than, p
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import KL, Expect, P, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, le
from theorems.foundations import kl_is_mean_loss
from theorems.foundations_composition import c
from theorems.foundations_convexity import expectation_affine
from theorems.randomized_response_pure_dp import B

__all__ = ["theorem", "make", "EPS_ALPHA", "KL_BOUND", "rr_pair", "bernoulli_mgf", "bernoulli_mean"]

EPS_ALPHA = sp.log(p ** alpha * (1 - p) ** (1 - alpha) + (1 - p) ** alpha * p ** (1 - alpha)) / (alpha - 1)
ELL = sp.log(p) - sp.log(1 - p)  # log(p/(1 - p)): RR_p is ELL-DP
KL_BOUND = (2 * p - 1) * ELL

_P_MASS = p ** B * (1 - p) ** (1 - B)
_Q_MASS = (1 - p) ** B * p ** (1 - B)

rr_pair = Hypothesis(
    name="rr_pair",
    title="(P, Q) = (Bern(p), Bern(1 − p)): the loss at the output bit B is log P(B)/Q(B)",
    relation=eq(L, sp.log(_P_MASS / _Q_MASS)),
)

bernoulli_mgf = Hypothesis(
    name="bernoulli_mgf",
    title="under P the output bit is Bern(p): E[e^{cB}] = 1 − p + p e^c for every real c",
    relation=eq(Expect(sp.exp(c * B)), 1 - p + p * sp.exp(c)),
    variables={c: Interval()},
)

bernoulli_mean = Hypothesis(
    name="bernoulli_mean",
    title="under P the output bit is Bern(p): E[B] = p",
    relation=eq(Expect(B), p),
)


# -- ground truth: enumeration of the two outputs -------------------------------------------------------------

def _pairs(pp):
    """The pair as mass functions on {0, 1}: from cdpsym.mechanisms (ε = log(p/(1 − p))) and a direct coin."""
    from cdpsym.mechanisms import RandomizedResponse

    e0 = mpmath.log(pp / (1 - pp))
    mech = RandomizedResponse(eps=sp.Float(mpmath.nstr(e0, mpmath.mp.dps + 15), mpmath.mp.dps + 15))
    yield "RandomizedResponse(eps=log(p/(1-p))).distributions(), enumeration", mech.distributions(
        dps=mpmath.mp.dps + 10)
    yield "a coin keeping the bit w.p. p, neighbours with bits 1 and 0, enumeration", (
        {1: pp, 0: 1 - pp}, {1: 1 - pp, 0: pp})


def _mgf_truth(v, dps):
    a = v[alpha]
    return [(name, mpmath.fsum(pm[o] ** a * qm[o] ** (1 - a) for o in pm)) for name, (pm, qm) in _pairs(v[p])]


def _kl_truth(v, dps):
    return [(name, mpmath.fsum(pm[o] * mpmath.log(pm[o] / qm[o]) for o in pm)) for name, (pm, qm) in _pairs(v[p])]


# -- the theorem -----------------------------------------------------------------------------------------------

def make(eps_alpha: sp.Expr = EPS_ALPHA, kl_bound: sp.Expr = KL_BOUND) -> Theorem:
    """RR_p with the claimed RDP curve ``eps_alpha`` and KL bound ``kl_bound`` (tests build mutants)."""
    lam_ = alpha - 1
    loss_proof = (
        Chain(L)
        .eq(rr_pair.relation.rhs, by(rr_pair))
        .eq(sp.log(_P_MASS) - sp.log(_Q_MASS), algebra())
        .eq(B * sp.log(p) + (1 - B) * sp.log(1 - p) - B * sp.log(1 - p) - (1 - B) * sp.log(p), algebra())
        .eq((2 * B - 1) * ELL, algebra())
    )
    loss = Part("loss", eq(L, (2 * B - 1) * ELL), title="the privacy loss of RR_p is ±log(p/(1 − p))",
                proof=loss_proof)
    mgf = Expect(sp.exp(lam_ * L))
    mgf_proof = (
        Chain(mgf)
        .eq(Expect(sp.exp(lam_ * (2 * B - 1) * ELL)), by(loss, inside=lambda w: Expect(sp.exp(lam_ * w))))
        .eq(Expect(sp.exp(-lam_ * ELL) * sp.exp(2 * lam_ * ELL * B)), algebra())
        .eq(sp.exp(-lam_ * ELL) * Expect(sp.exp(2 * lam_ * ELL * B)),
            by(expectation_affine, a=sp.exp(-lam_ * ELL), b=0, X=sp.exp(2 * lam_ * ELL * B)))
        .eq(sp.exp(-lam_ * ELL) * (1 - p + p * sp.exp(2 * lam_ * ELL)),
            by(bernoulli_mgf, c=2 * lam_ * ELL, inside=lambda w: sp.exp(-lam_ * ELL) * w))
        .eq(p ** (1 - alpha) * (1 - p) ** (alpha - 1) * (1 - p + p * p ** (2 * alpha - 2) * (1 - p) ** (2 - 2 * alpha)),
            algebra("e^{ℓ} = p/(1 − p)"))
        .eq(p ** alpha * (1 - p) ** (1 - alpha) + (1 - p) ** alpha * p ** (1 - alpha), algebra())
        .le(sp.exp(lam_ * eps_alpha), algebra())
    )
    kl_proof = (
        Chain(KL(P, Q))
        .eq(Expect(L), by(kl_is_mean_loss))
        .eq(Expect((2 * B - 1) * ELL), by(loss, inside=lambda w: Expect(w)))
        .eq(2 * ELL * Expect(B) - ELL, by(expectation_affine, a=2 * ELL, b=-ELL, X=B))
        .eq(2 * ELL * p - ELL, by(bernoulli_mean, inside=lambda w: 2 * ELL * w - ELL))
        .le(kl_bound, algebra())
    )
    return Theorem(
        name="randomized_response_rdp",
        reference="R-D3",
        source="Mironov 2017, Prop. 5, arXiv:1702.07476v3",
        title="Rényi DP of randomized response",
        variables={p: Interval.open(sp.Rational(1, 2), 1, sample_lo=0.5001, sample_hi=0.9999),
                   alpha: greater_than(1, sample_lo=1.001, sample_hi=50, log_scale=True)},
        hypotheses=(rr_pair, bernoulli_mgf, bernoulli_mean),
        parts=(loss,
               Part("kl", le(KL(P, Q), kl_bound), title="α = 1: the KL divergence of RR_p", proof=kl_proof,
                    ground_truth=_kl_truth),
               Part("main", le(mgf, sp.exp(lam_ * eps_alpha)), proof=mgf_proof, ground_truth=_mgf_truth)),
        numeric_points=({"p": "0.7", "alpha": "4"}, {"p": "0.75", "alpha": "2"}, {"p": "0.51", "alpha": "1.5"},
                        {"p": "0.999", "alpha": "30"}, {"p": "0.6", "alpha": "1.001"}),
        property_examples=20,
        tight="exact: both are equalities.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("the second term of the sum dropped",
             make(eps_alpha=sp.log(p ** alpha * (1 - p) ** (1 - alpha)) / (alpha - 1))),
            ("divided by alpha instead of alpha - 1", make(eps_alpha=(alpha - 1) / alpha * EPS_ALPHA)),
            ("KL without the factor 2p - 1 halved", make(kl_bound=(2 * p - 1) * ELL / 2))]
