r"""k-fold adaptive composition of :math:`(\mu,\tau)`-CDP mechanisms: mean :math:`k\mu`, standard :math:`\sqrt k\,\tau`.

.. math::
    \mathbb E[L_k]\le k\mu,\qquad
    \Pr[D_k>k\mu]=0,\qquad
    \mathbb E\big[e^{\lambda S_k}\big]\le e^{k\lambda^2\tau^2/2},\qquad
    L_k=D_k+S_k,

where :math:`L_k=C_1+\dots+C_k` is the privacy loss of the composition (:math:`C_i`
the loss of step :math:`i` given the prefix), :math:`D_k=\sum_i\mathbb E[C_i\mid\text{prefix}]`
its compensator and :math:`S_k=\sum_i X_i`, :math:`X_i=C_i-\mathbb E[C_i\mid\text{prefix}]`,
its martingale part.

Parameterization: :math:`(\mu,\tau)`-CDP is Dwork–Rothblum's (R-A8):
:math:`\mathbb E L\le\mu` and :math:`L-\mathbb E L` is :math:`\tau`-subgaussian.
The hypotheses are on the canonical pair ``(P, Q)``, which stands for **every**
pair the adversary may choose at any step (the class); the kernel's
class-member rule (``by(cdp_mean, at_step=i)``, docs/kernel.md) reads them at the
conditional law of step i given every prefix, and the tower rule and the
definition of the essential supremum (:mod:`theorems.foundations_composition`)
turn that into the bounds each step needs.  The
subgaussian hypothesis and conclusion are at one fixed real :math:`\lambda`
(so the theorem holds for each :math:`\lambda`), and :math:`\mu` ranges over
the reals (for :math:`\mu<0` the class is empty, since :math:`\mathbb E L=D_{\mathrm{KL}}\ge0`).  Homogeneous: every step
:math:`(\mu,\tau)`; the heterogeneous statement (:math:`\sum_i\mu_i`,
:math:`\sqrt{\sum_i\tau_i^2}`) has the same proof.

**A correction to DR16 Theorem 3.4.** DR16 state that the composed loss is
:math:`(k\mu,\sqrt k\tau)`-CDP, i.e. that :math:`L_k-\mathbb E L_k` is
:math:`\sqrt k\tau`-subgaussian.  Their proof shows this for the martingale
part :math:`S_k=L_k-D_k`; it is :math:`L_k-\mathbb E L_k` only when the
compensator :math:`D_k` is deterministic, e.g. for non-adaptive composition.
Under adaptive composition the literal statement is false: step 1 a Gaussian
mechanism with :math:`\tau=2`, step 2 the same Gaussian if the first loss is
above its mean and a constant otherwise (both :math:`(2,2)`-CDP) gives
:math:`\operatorname{Var}L_2\approx10.19>(\sqrt2\cdot2)^2=8`, impossible for a
:math:`2\sqrt2`-subgaussian variable (R-B3).  What the advanced composition
theorem needs — and what is proved here — is the decomposition
:math:`L_k=D_k+S_k` with :math:`D_k\le k\mu` almost surely and :math:`S_k`
:math:`\sqrt k\tau`-subgaussian (``subgaussian_sum``).  For non-adaptive
composition :math:`D_k=\mathbb E L_k` and this *is* DR16's statement.

Proof: the mean and the drift by **induction on k** (linearity of
expectation, the step's mean bound); the subgaussian part is
``subgaussian_sum`` applied to the compensated losses, whose conditional
MGF the class hypothesis bounds; the decomposition by induction from the
definitions.

Tight: for Gaussian mechanisms the composed loss is exactly
:math:`N(k\tau^2/2, k\tau^2)`.

References
----------
* Dwork & Rothblum 2016, Thm 3.4 and Lemma 2.2, arXiv:1603.01887v2.
* Bun & Steinke 2016, §4 (relating (μ,τ)-CDP and zCDP), arXiv:1605.02065.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, i, k, lam, mu, naturals, positive, real, tau
from cdpsym.expr.operators import CondExpect, Expect, Prob
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, eq, induction, le
from theorems.foundations_composition import (C, CondMGF, D, L_k, M, S, X, compensator_start, compensator_step,
                                              composed_loss_start, composed_loss_step, condition,
                                              conditional_mean_definition, conditional_mgf_bound,
                                              expectation_additive, normal_expectation, tower_mean_bound, partial_sums_start, partial_sums_step,
                                              union_bound)
from theorems.subgaussian_sum import theorem as subgaussian_sum

__all__ = ["theorem", "make", "mutants", "cdp_mean", "cdp_subgaussian", "compensated_losses", "MEAN", "TAU",
           "gaussian_witness", "adaptive_witness", "adaptive_centred_mgf"]

MEAN = k * mu
TAU = sp.sqrt(k) * tau

cdp_mean = Hypothesis(
    name="cdp_mean",
    title="every pair the adversary may choose has mean loss E[L] ≤ μ (R-A8)",
    relation=le(Expect(L), mu),
)

cdp_subgaussian = Hypothesis(
    name="cdp_subgaussian",
    title="every pair the adversary may choose has τ-subgaussian centred loss, at this λ (R-A8)",
    relation=le(Expect(sp.exp(lam * (L - Expect(L)))), sp.exp(lam ** 2 * tau ** 2 / 2)),
)

compensated_losses = Hypothesis(
    name="compensated_losses",
    title="X_i = C_i − E[C_i | prefix] is the compensated privacy loss of step i",
    relation=eq(X(i), C(i) - M(i)),
    variables={i: naturals()},
)


# -- ground truths -------------------------------------------------------------------------------------
#
# The witness step is the Gaussian pair N(0, 1) vs N(τ_G, 1) with τ_G = min(τ, √(2μ)), which is
# (τ_G²/2, τ_G)-CDP, hence in the class.  Its mean loss comes from cdpsym.mechanisms (exact); every
# moment generating function is a quadrature over the step's output.

def _exceeds(x, bound):
    """``x > bound`` beyond rounding at the working precision."""
    return x > bound + mpmath.mpf(10) ** (-(mpmath.mp.dps - 8)) * max(1, abs(bound))


def _halves(g, cut, *constants):
    """(E[g(U); U < 0], E[g(U); U >= 0]) for U ~ N(0, 1) by Arb quadrature, split at 0 and at the peak ``cut``.

    g is e^{linear}, so g(u)e^{-u²/2} peaks at ``cut``; the range is cut ± w with e^{-w²/2} below the
    working precision, so the truncation is negligible.
    """
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    points = sorted({cut - w, cut, cut + w} | ({mpmath.mpf(0)} if abs(cut) < w else set()))
    pieces = [(lo, normal_expectation(g, lo, hi, *constants)) for lo, hi in zip(points, points[1:])]
    return sum(x for lo, x in pieces if lo < 0), sum(x for lo, x in pieces if lo >= 0)


_MEMO: dict = {}  # one-step quantities shared by the witnesses and parts at one parameter point


def _memo(key, compute):
    if key not in _MEMO:
        if len(_MEMO) > 512:
            _MEMO.clear()
        _MEMO[key] = compute()
    return _MEMO[key]


def _step(v):
    """(τ_G, its loss y -> log p(y)/q(y), E[loss]) for the witness step; the mean from cdpsym.mechanisms."""
    from cdpsym.mechanisms import Gaussian

    t_g = min(v[tau], mpmath.sqrt(2 * v[mu]))
    loss = lambda y: t_g ** 2 / 2 - t_g * y
    kl = _memo(("kl", t_g, mpmath.mp.prec), lambda: mpmath.mpf(0) if t_g == 0 else mpmath.mpf(
        sp.N(Gaussian(sensitivity=sp.Float(t_g, mpmath.mp.dps + 10), sigma=1).kl(), mpmath.mp.dps + 5)))
    return t_g, loss, kl


def _centred_halves(v):
    """E[e^{λ(C - E C)}; y < 0] and E[e^{λ(C - E C)}; y >= 0] for one witness step with output y."""
    t_g, loss, kl = _step(v)
    ll = v[lam]
    if t_g == 0:
        return mpmath.mpf(1) / 2, mpmath.mpf(1) / 2
    centred = lambda u, t_, l_, kl_: (l_ * (t_ * t_ / 2 - t_ * u - kl_)).exp()  # e^{λ(loss(u) - E loss)}
    return _memo(("halves", t_g, ll, mpmath.mp.prec), lambda: _halves(centred, -ll * t_g, t_g, ll, kl))


def gaussian_witness(v, dps, what, drift_bound=None):
    """k independent Gaussian steps (non-adaptive): E L_k, Pr[D_k > drift_bound] (default kμ) or E e^{λ S_k}."""
    kk = int(v[k])
    t_g, loss, kl = _step(v)
    if what == "mean":  # the exact KL of the k-fold composition (cdpsym.mechanisms.compose)
        from cdpsym.mechanisms import Gaussian, compose

        if t_g == 0:
            return mpmath.mpf(0)
        composed = compose(Gaussian(sensitivity=sp.Float(t_g, mpmath.mp.dps + 10), sigma=1), k=kk)
        return mpmath.mpf(sp.N(composed.kl(), mpmath.mp.dps + 5))
    if what == "drift":  # D_k = k·E[C] deterministically
        limit = kk * v[mu] if drift_bound is None else drift_bound
        return mpmath.mpf(1) if _exceeds(kk * kl, limit) else mpmath.mpf(0)
    below, above = _centred_halves(v)
    return (below + above) ** kk


def adaptive_witness(v, dps, what, drift_bound=None):
    """Step 1 Gaussian; steps 2..k the same Gaussian if C_1 > E C_1 (output y < 0), a constant output otherwise.

    Every step is in the class.  With B = 1[y < 0] (Pr[B] = 1/2): E L_k = E C (1 + (k-1)/2);
    D_k = E C (1 + (k-1) B); S_k = X_1 + B (X_2 + ... + X_k), whose MGF is
    E[e^{λX_1}; y < 0] (E e^{λX})^{k-1} + E[e^{λX_1}; y >= 0] (quadrature over y).  The drift is compared
    with ``drift_bound`` (default kμ); D_k is largest, k·E C, when B = 1.
    """
    kk = int(v[k])
    t_g, loss, kl = _step(v)
    if what == "mean":
        return kl * (1 + mpmath.mpf(kk - 1) / 2)
    if what == "drift":
        limit = kk * v[mu] if drift_bound is None else drift_bound
        return mpmath.mpf(1) / 2 if _exceeds(kl * kk, limit) else mpmath.mpf(0)
    below, above = _centred_halves(v)
    return below * (below + above) ** (kk - 1) + above


def adaptive_centred_mgf(v, dps):
    """E e^{λ(L_k - E L_k)} for the adaptive witness: DR16's literal statement, which fails (see the docstring)."""
    kk = int(v[k])
    t_g, loss, kl = _step(v)
    ll = v[lam]
    mean = kl * (1 + mpmath.mpf(kk - 1) / 2)
    below, above = _halves(lambda u, t_, l_: (l_ * (t_ * t_ / 2 - t_ * u)).exp(), -ll * t_g, t_g, ll)  # E e^{λC}
    return (below * (below + above) ** (kk - 1) + above) * mpmath.exp(-ll * mean)


def _truth(what, mean=None):
    """The witnesses' side of part ``what``; the drift event's threshold is read from the statement's ``mean``."""
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        bound = None if mean is None else evaluate(mean, v, MPContext(dps))
        return [("k independent Gaussian steps", gaussian_witness(v, dps, what, bound)),
                ("adaptive: Gaussian steps 2..k only if C_1 > E[C_1]", adaptive_witness(v, dps, what, bound))]
    return truth


# -- the theorem ----------------------------------------------------------------------------------------

def _read(hypothesis: Hypothesis, n):
    """The class hypothesis read at the pair of step n (a hypothesis on the class of step i, ``L^{(i)}``, at i = n)."""
    return by(hypothesis, at_step=n, **({"i": n} if hypothesis.variables else {}))


def composition_proofs(mean: sp.Expr, mu_at, tau_at, mean_hyp: Hypothesis, subgaussian_hyp: Hypothesis,
                       sum_theorem, sum_hypothesis: str, sum_bound: sp.Expr, **sum_inst):
    """The chains of the mean, drift and subgaussian parts: step n's pair has mean at most ``mu_at(n)`` and a
    ``tau_at(n)``-subgaussian centred loss (``mean_hyp``, ``subgaussian_hyp``, read at step n); ``sum_theorem``
    (``subgaussian_sum`` or its heterogeneous form, hypothesis ``sum_hypothesis``) bounds the martingale part by
    ``sum_bound``.  The homogeneous and the heterogeneous theorem share them."""
    def mean_at(n):  # M_n = E[C_n | F_{n-1}], finite because the class hypothesis read at step n bounds it
        return by(conditional_mean_definition, i=n, c=mu_at(n),
                  given={condition(conditional_mean_definition): _read(mean_hyp, n)})

    # mean: E[L_k] <= the sum of the steps' means
    ih_mean = Hypothesis("ih", title="induction hypothesis", relation=le(Expect(L_k(k)), mean))
    mean_proof = Chain(Expect(L_k(k))).le(mean, induction(
        k,
        Chain(Expect(L_k(1)))
        .eq(Expect(L_k(0) + C(1)), by(composed_loss_step, i=1))
        .eq(Expect(C(1)), by(composed_loss_start))
        .le(mu_at(1), by(tower_mean_bound, Y_1=C(1), i=1, c=mu_at(1),
                         given={condition(tower_mean_bound): _read(mean_hyp, 1)}))
        .eq(mean.xreplace({k: 1}), algebra()),
        Chain(Expect(L_k(k + 1)))
        .eq(Expect(L_k(k) + C(k + 1)), by(composed_loss_step, i=k + 1))
        .eq(Expect(L_k(k)) + Expect(C(k + 1)), by(expectation_additive, i=k + 1))
        .le(Expect(L_k(k)) + mu_at(k + 1),
            by(tower_mean_bound, Y_1=C(k + 1), i=k + 1, c=mu_at(k + 1), inside=lambda w: Expect(L_k(k)) + w,
               given={condition(tower_mean_bound): _read(mean_hyp, k + 1)}))
        .le(mean + mu_at(k + 1), by(ih_mean, inside=lambda w: w + mu_at(k + 1)))
        .eq(mean.xreplace({k: k + 1}), algebra())))

    # drift: Pr[D_k > the sum of the means] = 0
    drift_event = lambda n: Prob(sp.StrictGreaterThan(D(n), mean.xreplace({k: n})))  # noqa: E731
    beyond = lambda n: Prob(sp.StrictGreaterThan(M(n), mu_at(n)))  # noqa: E731
    ih_drift = Hypothesis("ih", title="induction hypothesis", relation=le(drift_event(k), 0))
    drift_proof = Chain(drift_event(k)).le(0, induction(
        k,
        Chain(drift_event(1))
        .eq(Prob(sp.StrictGreaterThan(D(0) + M(1), mean.xreplace({k: 1}))), by(compensator_step, i=1))
        .eq(beyond(1), by(compensator_start))
        .eq(Prob(sp.StrictGreaterThan(CondExpect(C(1), 1), mu_at(1))), mean_at(1))
        .le(0, _read(mean_hyp, 1)),
        Chain(drift_event(k + 1))
        .eq(Prob(sp.StrictGreaterThan(D(k) + M(k + 1), mean.xreplace({k: k + 1}))), by(compensator_step, i=k + 1))
        .eq(Prob(sp.StrictGreaterThan(D(k) + M(k + 1), mean + mu_at(k + 1))), algebra())
        .le(drift_event(k) + beyond(k + 1), by(union_bound, Y_1=D(k), Y_2=M(k + 1), a=mean, b=mu_at(k + 1)))
        .le(beyond(k + 1), by(ih_drift, inside=lambda w: w + beyond(k + 1)))
        .eq(Prob(sp.StrictGreaterThan(CondExpect(C(k + 1), k + 1), mu_at(k + 1))), mean_at(k + 1))
        .le(0, _read(mean_hyp, k + 1))))

    # subgaussian: the martingale part S_k, by the sum theorem
    step_bound = sp.exp(lam ** 2 * tau_at(i) ** 2 / 2)
    centred = lambda m: Prob(sp.StrictGreaterThan(CondExpect(sp.exp(lam * (C(i) - m)), i), step_bound))  # noqa: E731
    at_the_step = (  # the class hypothesis at the pair of step i, given every prefix
        Chain(centred(M(i)))
        .eq(centred(CondExpect(C(i), i)), mean_at(i))
        .le(0, _read(subgaussian_hyp, i))
    )
    conditional = (
        Chain(CondMGF(X(i), lam, i), variables={i: naturals()})
        .eq(CondMGF(C(i) - M(i), lam, i), by(compensated_losses, i=i))
        .le(step_bound, by(conditional_mgf_bound, Y_1=C(i) - M(i), lam=lam, i=i, c=step_bound,
                           given={condition(conditional_mgf_bound): at_the_step}))
    )
    mgf = Expect(sp.exp(lam * S(k)))
    sub_proof = Chain(mgf).le(sum_bound, by(sum_theorem, k=k, lam=lam, given={sum_hypothesis: conditional},
                                            **sum_inst))
    return mean_proof, drift_proof, sub_proof


def decomposition_proof() -> Chain:
    """L_k - D_k - S_k = 0 by induction (every rewrite runs forwards, from a definition's left side)."""
    gap = lambda n: L_k(n) - D(n) - S(n)  # noqa: E731
    ih_dec = Hypothesis("ih", title="induction hypothesis", relation=eq(gap(k), 0))
    dec_proof = Chain(gap(k)).eq(0, induction(
        k,
        Chain(gap(1))
        .eq(L_k(0) + C(1) - D(1) - S(1), by(composed_loss_step, i=1))
        .eq(L_k(0) + C(1) - D(0) - M(1) - S(1), by(compensator_step, i=1))
        .eq(L_k(0) + C(1) - D(0) - M(1) - S(0) - X(1), by(partial_sums_step, i=1))
        .eq(gap(0), by(compensated_losses, i=1))
        .eq(-D(0) - S(0), by(composed_loss_start))
        .eq(-S(0), by(compensator_start))
        .eq(0, by(partial_sums_start)),
        Chain(gap(k + 1))
        .eq(L_k(k) + C(k + 1) - D(k + 1) - S(k + 1), by(composed_loss_step, i=k + 1))
        .eq(L_k(k) + C(k + 1) - D(k) - M(k + 1) - S(k + 1), by(compensator_step, i=k + 1))
        .eq(L_k(k) + C(k + 1) - D(k) - M(k + 1) - S(k) - X(k + 1), by(partial_sums_step, i=k + 1))
        .eq(gap(k), by(compensated_losses, i=k + 1))
        .eq(0, by(ih_dec))))
    return dec_proof


GAP = L_k(k) - D(k) - S(k)


def make(mean: sp.Expr = MEAN, tau_total: sp.Expr = TAU) -> Theorem:
    """The composition with the claimed mean ``mean`` and standard ``tau_total`` (tests build mutants)."""
    mean_proof, drift_proof, sub_proof = composition_proofs(
        mean, lambda n: mu, lambda n: tau, cdp_mean, cdp_subgaussian, subgaussian_sum, "conditionally_subgaussian",
        sp.exp(k * lam ** 2 * tau ** 2 / 2), tau=tau)
    sub_proof = sub_proof.eq(sp.exp(lam ** 2 * tau_total ** 2 / 2), algebra())
    mgf = Expect(sp.exp(lam * S(k)))
    drift_event = Prob(sp.StrictGreaterThan(D(k), mean))
    return Theorem(
        name="cdp_composition",
        reference="R-B10",
        source="Dwork & Rothblum 2016, Thm 3.4, arXiv:1603.01887v2 (adaptive form: compensated loss)",
        title="adaptive composition of mean-concentrated DP",
        variables={k: naturals(sample_lo=1, sample_hi=30),
                   mu: real(sample_lo=0, sample_hi=4),
                   tau: positive(sample_lo=0.05, sample_hi=3),
                   lam: real(sample_lo=-3, sample_hi=3)},
        hypotheses=(cdp_mean, cdp_subgaussian, compensated_losses),
        parts=(Part("mean", le(Expect(L_k(k)), mean), proof=mean_proof, ground_truth=_truth("mean")),
               Part("drift", le(drift_event, 0), proof=drift_proof, ground_truth=_truth("drift", mean)),
               Part("subgaussian", le(mgf, sp.exp(lam ** 2 * tau_total ** 2 / 2)), proof=sub_proof,
                    ground_truth=_truth("subgaussian")),
               gap := Part("gap", eq(GAP, 0), title="L_k − D_k − S_k = 0", proof=decomposition_proof()),
               Part("decomposition", eq(L_k(k), D(k) + S(k)),
                    proof=Chain(L_k(k)).eq(D(k) + S(k), by(gap, inside=lambda w: w + D(k) + S(k))))),
        numeric_points=({"k": "1", "mu": "0.5", "tau": "1", "lam": "0.8"},
                        {"k": "2", "mu": "2", "tau": "2", "lam": "0.3"},
                        {"k": "10", "mu": "0.02", "tau": "1.5", "lam": "-2"},
                        {"k": "50", "mu": "0.125", "tau": "0.5", "lam": "1.5"}),
        property_examples=30,
        tight="equality for independent Gaussian mechanisms with μ = τ²/2.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("mean kμ/2: halved", make(mean=k * mu / 2)),
        ("standard k^{1/4}τ: √k replaced by its square root", make(tau_total=k ** sp.Rational(1, 4) * tau)),
        ("standard τ: the factor √k dropped", make(tau_total=tau)),
        ("mean (k − 1)μ: one step removed", make(mean=(k - 1) * mu)),
    ]
