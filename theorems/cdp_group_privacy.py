r"""Group privacy for an arbitrary CDP mechanism (Dwork–Rothblum, Theorem 4.1): **supported**, not proved.

.. math::
    \mathbb E[G_{2^m}]\le\frac{(2^m\tau)^2}{2}+\alpha_0\,(2^m\tau)^{2.5}m^{4.5},\qquad
    \mathbb E\big[e^{\lambda(G_{2^m}-\mathbb E G_{2^m})}\big]\le e^{\lambda^2\tau_m^2/2},\quad
    \tau_m=2^m\tau+\alpha_0\,(2^m m^3\tau)^{1.5},\quad \alpha_0=2\cdot34^{4.5},

for every real λ, whenever every neighbouring pair is :math:`(\mu,\tau)`-CDP (R-A8: mean loss at most μ, centred
loss τ-subgaussian) with :math:`\mu\le\tau^2/2`, and :math:`34^3\,\tau\,2^m m^3\le1/2`.

Parameterization: the group is :math:`s=2^m` (the paper's induction doubles it), :math:`m\ge1`; ``G(k)`` is the group
loss :math:`\log\frac{p_{x_0}}{p_{x_k}}(Y)`, :math:`Y\sim M(x_0)`, of a chain of :math:`k` neighbouring inputs, as in
:mod:`theorems.pure_dp_group_privacy`.  The item's smallness condition :math:`34^3\tau s\log^3s\le1/2` is read with
:math:`\log_2 s=m`, which the proof's closed forms use (their :math:`m^3`, :math:`m^{4.5}`); since
:math:`\log_2 s\ge\ln s` this is the stronger hypothesis, so the statement encoded is the weaker one.  It is a
domain: :math:`\tau\le1/(2\cdot34^3\,2^m m^3)`.  (:math:`m=0`, a group of one, is the hypothesis itself.)

Status -- **supported**: the statement is checked against exact computations on concrete mechanisms, not proved.
The paper's proof is an induction on m over a midpoint input: **Lemma 4.2** bounds the mean loss of the doubled
chain through Lemma 2.3 (:mod:`theorems.subgaussian_exponential_product`, R-B6, proved) under a change of measure
between three outputs; **Lemma 4.3** shows the centred loss of the doubled chain is
:math:`(2\tau+34\tau^{1.5})`-subgaussian, from moment bounds on a sum of two *dependent* subgaussian losses; and the
recursion :math:`\tau_{m+1}\le2\tau_m+34\tau_m^{1.5}`,
:math:`\mu_{m+1}\le2\mu_m+\tau_m^2+3.5\tau_m^3+1.5\tau_m^4` is solved in closed form.  The kernel has the chain
(``G``, ``ell``, change of measure) but not yet the moment calculus of Lemma 4.3, and the closed forms need sign
arguments with powers :math:`x^{1.5}` beyond its sign prover.  Each statement step is therefore ``numeric``: evidence,
never proof.

Evidence (the ground truth, from the definitions): at every numeric point, two mechanisms whose every neighbouring
pair is :math:`(\mu,\tau)`-CDP, with the exact law of their group loss --

* the Gaussian mechanism with :math:`\Delta/\sigma=\tau'=\min(\tau,\sqrt{2\mu})`, a :math:`(\tau'^2/2,\tau')`-CDP
  pair; its group loss is :math:`N((s\tau')^2/2,(s\tau')^2)`, integrated by quadrature;
* randomized response on s bits with :math:`\varepsilon=\tau'`: each link loss is :math:`\pm\varepsilon`
  (mean :math:`\varepsilon\tanh(\varepsilon/2)\le\varepsilon^2/2\le\mu`, :math:`\varepsilon`-subgaussian by
  Hoeffding's lemma), the links are independent under :math:`M(x_0)`, and the group loss's mean and centred MGF are
  exact sums.

Nearly tight (REFERENCE R-B17): the Gaussian attains :math:`((s\tau)^2/2, s\tau)`; the :math:`\alpha_0` terms are the
price of arbitrary mechanisms.  The paper's introduction also claims :math:`(s^2\mu,s\tau)` for "good" mechanisms
(R-H33); that is not proved there and is not encoded.

References
----------
* Dwork & Rothblum 2016, Theorem 4.1 with Lemmas 4.2 and 4.3, arXiv:1603.01887v2.
* REFERENCE.md R-B17, R-H30 (Lemma 4.2's :math:`3\tau_1^2\tau_2`), R-H33.
"""

from __future__ import annotations

import functools

import mpmath
import sympy as sp

from cdpsym.expr import Interval, L, lam, mu, naturals, nu, real, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, le, numeric
from theorems.approx_dp_of_cdp import cdp_mean
from theorems.pure_dp_group_privacy import G

__all__ = ["theorem", "make", "mutants", "m", "ALPHA0", "MEAN_M", "TAU_M", "witnesses"]

#: the group is 2^m
m = sp.Symbol("m", positive=True, integer=True)
ALPHA0 = 2 * sp.Integer(34) ** sp.Rational(9, 2)
TAU_M = 2 ** m * tau + ALPHA0 * (2 ** m * m ** 3 * tau) ** sp.Rational(3, 2)
MEAN_M = (2 ** m * tau) ** 2 / 2 + ALPHA0 * (2 ** m * tau) ** sp.Rational(5, 2) * m ** sp.Rational(9, 2)
SMALL = 1 / (2 * sp.Integer(34) ** 3 * 2 ** m * m ** 3)  # the largest τ of the smallness condition

# every neighbouring pair (the canonical pair stands for each) is (μ, τ)-CDP: approx_dp_of_cdp's mean hypothesis, and
# its subgaussian one with the order named ν (λ is this theorem's own variable)
cdp_subgaussian = Hypothesis(
    name="cdp_subgaussian",
    title="every neighbouring pair has τ-subgaussian centred loss: E[e^{ν(L − E[L])}] ≤ e^{ν²τ²/2} for every real ν "
          "(R-A8)",
    relation=le(Expect(sp.exp(nu * (L - Expect(L)))), sp.exp(nu ** 2 * tau ** 2 / 2)),
    variables={nu: real()},
)

_GROUP = G(2 ** m)
_CENTRED = Expect(sp.exp(lam * (_GROUP - Expect(_GROUP))))


# -- ground truth ------------------------------------------------------------------------------------------------------

def _link(tt, mm):
    """The per-link parameter τ' = min(τ, sqrt(2μ)) of the witnesses (each is then (μ, τ)-CDP)."""
    return min(tt, mpmath.sqrt(2 * mm))


@functools.lru_cache(maxsize=128)
def _witnesses_at(mm_, tt, mu_, ll, dps):
    with mpmath.workdps(dps + 15):
        group = 2 ** int(mm_)
        t1 = _link(tt, mu_)
        # Gaussian: G = c Z + c²/2 with c = s τ', Z ~ N(0, 1), by quadrature
        c = group * t1
        phi = lambda z: mpmath.exp(-z ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
        g_mean = mpmath.quad(lambda z: (c * z + c ** 2 / 2) * phi(z), [-mpmath.inf, 0, mpmath.inf])
        peak = ll * c  # e^{λcz} φ(z) is largest at z = λc
        cuts = [-mpmath.inf] + sorted({mpmath.mpf(0), peak}) + [mpmath.inf]
        g_mgf = mpmath.quad(lambda z: mpmath.exp(ll * c * z) * phi(z), cuts)
        # randomized response on s bits at ε = τ': s independent links, each +ε w.p. e^ε/(1 + e^ε), else −ε
        eps = t1
        p = mpmath.exp(eps) / (1 + mpmath.exp(eps))
        link_mean = p * eps - (1 - p) * eps
        rr_mean = group * link_mean
        link_mgf = p * mpmath.exp(ll * (eps - link_mean)) + (1 - p) * mpmath.exp(ll * (-eps - link_mean))
        rr_mgf = link_mgf ** group
        return ((+g_mean, +g_mgf), (+rr_mean, +rr_mgf))


def witnesses(mm_, tt, mu_, ll):
    """(name, E[G_{2^m}], E[e^{λ(G − E G)}]) for the Gaussian and the randomized-response chains."""
    (gm, gg), (rm, rg) = _witnesses_at(int(mm_), mpmath.mpf(tt), mpmath.mpf(mu_), mpmath.mpf(ll), mpmath.mp.dps)
    return [("Gaussian, Delta/sigma = min(tau, sqrt(2 mu)), quadrature", gm, gg),
            ("randomized response on 2^m bits, eps = min(tau, sqrt(2 mu)), exact", rm, rg)]


def _mean_truth(v, dps):
    return [(name, mean) for name, mean, _ in witnesses(v[m], v[tau], v[mu], 0)]


def _centred_truth(v, dps):
    return [(name, mgf) for name, _, mgf in witnesses(v[m], v[tau], v[mu], v[lam])]


# -- the theorem -------------------------------------------------------------------------------------------------------

def make(mean: sp.Expr = MEAN_M, tau_m: sp.Expr = TAU_M) -> Theorem:
    """Group CDP for groups of 2^m with the claimed parameters ``(mean, tau_m)`` (mutants change them)."""
    mgf_bound = sp.exp(lam ** 2 * tau_m ** 2 / 2)
    mean_proof = Chain(Expect(_GROUP)).le(mean, numeric())  # Lemma 4.2 and the recursion: see the docstring
    centred_proof = Chain(_CENTRED).le(mgf_bound, numeric())  # Lemma 4.3 and the recursion
    return Theorem(
        name="cdp_group_privacy",
        reference="R-B17",
        source="Dwork & Rothblum 2016, Theorem 4.1, arXiv:1603.01887v2",
        title="group privacy for concentrated privacy",
        variables={m: naturals(sample_hi=3),
                   tau: Interval(sp.S.Zero, SMALL, True, False, sample_lo=1e-12, log_scale=True),
                   mu: Interval(sp.S.Zero, tau ** 2 / 2, False, False),
                   lam: real(sample_lo=-1e6, sample_hi=1e6)},
        hypotheses=(cdp_mean, cdp_subgaussian),
        parts=(Part("mean", le(Expect(_GROUP), mean), proof=mean_proof, ground_truth=_mean_truth),
               Part("standard", le(_CENTRED, mgf_bound), proof=centred_proof, ground_truth=_centred_truth)),
        numeric_points=({"m": "1", "tau": "1e-6", "mu": "5e-13", "lam": "1"},
                        {"m": "1", "tau": "1e-6", "mu": "1e-13", "lam": "1e6"},
                        {"m": "2", "tau": "1e-7", "mu": "5e-15", "lam": "-3e7"},
                        {"m": "3", "tau": "2e-8", "mu": "2e-16", "lam": "1e5"}),
        property_examples=6,
        tight="nearly: the Gaussian chain attains ((2^m τ)²/2, 2^m τ); the terms with the constant "
              "α₀ = 2·34^{9/2} = 2672672√34 (DR16 Thm 4.1) are what arbitrary mechanisms may add (DR16 §4).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    linear_mean = (2 ** m * tau) ** 2 / 4
    return [
        ("E[G] <= (2^m τ)²/4: the Gaussian's mean halved, α₀ term dropped", make(mean=linear_mean)),
        ("τ_m = 2^(m−1) τ: the group size halved, α₀ term dropped", make(tau_m=2 ** (m - 1) * tau)),
        ("τ_m = 2^m τ/2 + α₀ (2^m m³ τ)^1.5 / 10^9: both terms shrunk",
         make(tau_m=2 ** m * tau / 2 + ALPHA0 * (2 ** m * m ** 3 * tau) ** sp.Rational(3, 2) / 10 ** 9)),
    ]
