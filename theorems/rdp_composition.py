r"""k-fold adaptive composition of (α, ε)-RDP mechanisms is (α, kε)-RDP.

.. math::
    \mathbb E\big[e^{(\alpha-1)L_k}\big]\le e^{(\alpha-1)k\varepsilon}
    \quad\text{whenever every step satisfies}\quad
    \mathbb E_P\big[e^{(\alpha-1)L}\big]\le e^{(\alpha-1)\varepsilon},

with :math:`L_k=C_1+\dots+C_k` the privacy loss of the adaptive composition
(:mod:`theorems.foundations_composition`).

Parameterization: (α, ε)-RDP (R-A10) at the single order α > 1 in the MGF form
of ``approx_dp_of_rdp``: :math:`D_\alpha(P\|Q)=\frac{1}{\alpha-1}\log\mathbb E_P[e^{(\alpha-1)L}]`
(Mironov's Def 3, with :math:`p^\alpha q^{1-\alpha}=p\,(p/q)^{\alpha-1}`), so
:math:`D_\alpha\le\varepsilon` iff :math:`\mathbb E_P[e^{(\alpha-1)L}]\le e^{(\alpha-1)\varepsilon}`.
Mironov writes the RDP parameter as ε, as here.  The hypothesis ``rdp`` is on
the canonical pair ``(P, Q)``, which stands for **every** pair the adversary may
choose at any step of the DRV10 game (adaptively: M17 Prop 1 lets the second
mechanism depend on the first output); the kernel's class-member rule reads it
at the conditional law of each step (``by(rdp, at_step=i)``, docs/kernel.md).  The conclusion is the same statement
for the composed pair :math:`(P^{(k)},Q^{(k)})` at :math:`k\varepsilon`, i.e.
:math:`D_\alpha(P^{(k)}\|Q^{(k)})\le k\varepsilon`.  Homogeneous (every step
ε); heterogeneous steps give :math:`\sum_i\varepsilon_i` with the same proof.
This is the order-by-order statement behind ``zcdp_composition`` (R-C7).

Proof (M17 Prop 1, iterated): **induction on k** with the **tower rule**, as
in ``zcdp_composition`` with :math:`\lambda=\alpha-1`:
:math:`\mathbb E e^{(\alpha-1)L_{k+1}}=\mathbb E\big[e^{(\alpha-1)L_k}\,
\mathbb E[e^{(\alpha-1)C_{k+1}}\mid\text{prefix}]\big]\le e^{(\alpha-1)\varepsilon}\,
\mathbb E e^{(\alpha-1)L_k}`; Mironov's two nested integrals are this tower rule.

Tight: Rényi divergences of product distributions add, so k independent
copies of a mechanism with :math:`D_\alpha=\varepsilon` have exactly
:math:`D_\alpha=k\varepsilon` — the Gaussian mechanism (shift τ with
:math:`\alpha\tau^2/2=\varepsilon`) and randomized response (flip rate chosen so
that :math:`D_\alpha=\varepsilon`) are the witnesses of the numeric checks.

References
----------
* Mironov 2017, *Rényi Differential Privacy*, Proposition 1 (composition) and Definitions 3, 4,
  arXiv:1702.07476v3.
* Bun & Steinke 2016, Lemma 1.7 (the zCDP form), arXiv:1605.02065.
* REFERENCE.md R-D4.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, alpha, eps, greater_than, k, naturals, positive
from cdpsym.expr.operators import Expect
from cdpsym.proof import Hypothesis, Part, Theorem, le
from theorems.foundations_composition import L_k, normal_expectation
from theorems.zcdp_composition import mgf_induction

__all__ = ["theorem", "make", "mutants", "rdp", "EPS_TOTAL", "gaussian_mgf", "randomized_response_order_eps",
           "randomized_response_mgf"]

EPS_TOTAL = k * eps

rdp = Hypothesis(
    name="rdp",
    title="every pair (P, Q) of the class is (α, ε)-RDP, i.e. D_α(P‖Q) ≤ ε (Mironov 2017, Def 4), in the moment "
          "form",
    relation=le(Expect(sp.exp((alpha - 1) * L)), sp.exp((alpha - 1) * eps)),
)


# -- ground truths ---------------------------------------------------------------------------------------
#
# E_P[e^{(α−1)L_k}] for k independent copies of a mechanism that is exactly (α, ε)-RDP: the composed
# expectation is computed from the k-fold product (a k-th power of a one-step quadrature; an enumeration of
# the 2^k outputs by their number of truthful answers), never from a Rényi divergence formula.

def gaussian_mgf(a, e):
    r""":math:`\mathbb E_P[e^{(a-1)L}]` for P = N(0, 1), Q = N(τ, 1) with :math:`a\tau^2/2 = e` (so D_a = e),
    by Arb quadrature of the definition: the loss at output y is :math:`\tau^2/2 - \tau y`."""
    tau = mpmath.sqrt(2 * e / a)
    lam = a - 1
    peak = -lam * tau  # e^{λ(τ²/2 − τu)} e^{−u²/2} peaks at u = −λτ
    w = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    points = [peak - w, peak, peak + w]
    return mpmath.fsum(normal_expectation(lambda u, t_, l_: (l_ * (t_ * t_ / 2 - t_ * u)).exp(), lo, hi, tau, lam)
                       for lo, hi in zip(points, points[1:]))


def randomized_response_order_eps(a, e):
    r"""The ε0 of randomized response ``RR_ε0`` (P = (p, 1−p), Q = (1−p, p), p = e^{ε0}/(1+e^{ε0})) with
    :math:`D_a(P\|Q) = e` exactly, by bisection in log space.

    :math:`E_P[(P/Q)^{a-1}] = (e^{a\varepsilon_0} + e^{-(a-1)\varepsilon_0})/(1 + e^{\varepsilon_0})` increases in
    ε0; the root lies in [e, e + log 2/(a − 1)] (D_a <= D_∞ = ε0, and the first term alone reaches the target
    at the upper end).  The returned ε0 is the lower end of the final bracket: D_a <= e up to rounding.
    """
    target = (a - 1) * e

    def log_mgf(e0):  # log E_P[(P/Q)^{a-1}], from the distributions
        p = 1 / (1 + mpmath.exp(-e0))
        return mpmath.log(p ** a * (1 - p) ** (1 - a) + (1 - p) ** a * p ** (1 - a))

    lo, hi = e, e + mpmath.log(2) / (a - 1)
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if log_mgf(mid) <= target else (lo, mid)
    return lo


def randomized_response_mgf(a, e0, kk):
    r""":math:`\mathbb E_P[e^{(a-1)L_k}]` for k-fold ``RR_ε0`` by enumeration: j truthful answers have
    probability :math:`\binom kj p^j(1-p)^{k-j}` and loss :math:`j\log\frac p{1-p}+(k-j)\log\frac{1-p}p`."""
    p = 1 / (1 + mpmath.exp(-e0))
    up, down = mpmath.log(p / (1 - p)), mpmath.log((1 - p) / p)
    return mpmath.fsum(mpmath.binomial(kk, j) * p ** j * (1 - p) ** (kk - j)
                       * mpmath.exp((a - 1) * (j * up + (kk - j) * down)) for j in range(kk + 1))


def _witnesses(v, dps):
    """E_P e^{(α−1)L_k} for k-fold compositions of mechanisms that are exactly (α, ε)-RDP."""
    kk, a, e = int(v[k]), v[alpha], v[eps]
    e0 = randomized_response_order_eps(a, e)
    return [("k independent Gaussian steps with D_alpha = eps, one-step quadrature", gaussian_mgf(a, e) ** kk),
            ("k-fold randomized response with D_alpha = eps, enumeration", randomized_response_mgf(a, e0, kk))]


def make(eps_total: sp.Expr = EPS_TOTAL) -> Theorem:
    """The composition with the claimed total ``eps_total`` (tests build mutants with a wrong one)."""
    lam = alpha - 1
    bound = sp.exp(lam * eps_total)
    proof = mgf_induction(lam, sp.exp(lam * eps), bound, rdp)  # the proof of zCDP composition, at order alpha
    return Theorem(
        name="rdp_composition",
        reference="R-D4",
        source="Mironov 2017, Prop. 1, arXiv:1702.07476v3",
        title="adaptive composition of RDP",
        notion="compose(k=k, RDP(alpha, eps)) is RDP(alpha, k*eps)",
        variables={k: naturals(sample_lo=1, sample_hi=40),
                   alpha: greater_than(1, sample_lo=1.01, sample_hi=64, log_scale=True),
                   eps: positive(sample_lo=1e-4, sample_hi=4, log_scale=True)},
        hypotheses=(rdp,),
        parts=(Part("main", le(Expect(sp.exp(lam * L_k(k))), bound), proof=proof, ground_truth=_witnesses),),
        numeric_points=({"k": "1", "alpha": "2", "eps": "0.5"}, {"k": "10", "alpha": "32", "eps": "0.01"},
                        {"k": "3", "alpha": "1.5", "eps": "2"}, {"k": "100", "alpha": "8", "eps": "0.001"},
                        {"k": "5", "alpha": "200", "eps": "1"}),
        property_examples=30,
        tight="equality at every k for k independent copies of a Gaussian or randomized-response step with D_α = ε.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("(k − 1)ε: one step removed", make((k - 1) * eps)),
        ("√k ε: k replaced by √k", make(sp.sqrt(k) * eps)),
        ("kε/2: halved", make(k * eps / 2)),
    ]
