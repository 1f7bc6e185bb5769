r"""A KL bound gives :math:`(0,\sqrt{1-e^{-\rho}})`-DP (Bretagnolle–Huber) and :math:`(0,\sqrt{\rho/2})`-DP
(Pinsker): the KL/total-variation route of R-E3, stated for the square of δ(0).

.. math::
    D_{\mathrm{KL}}(P\|Q)\le\rho\ \Longrightarrow\
    \delta_{P\|Q}(0)^2=\mathrm{TV}(P,Q)^2\le1-e^{-D_{\mathrm{KL}}(P\|Q)}\le1-e^{-\rho},
    \qquad \delta_{P\|Q}(0)^2\le D_{\mathrm{KL}}(P\|Q)/2\le\rho/2.

Squares, not square roots: the kernel takes a square root only of a base it shows positive, and
:math:`D_{\mathrm{KL}}` may be 0; since :math:`\delta_{P\|Q}(0)\ge0`, the squared statements are
REFERENCE's :math:`\delta(0)\le\sqrt{1-e^{-\rho}}` and :math:`\delta(0)\le\sqrt{\rho/2}`, and the
squared Bretagnolle–Huber inequality is the form its proof gives
(:math:`1-\mathrm{TV}^2\ge(\int\sqrt{pq})^2\ge e^{-\mathrm{KL}}`).

Parameterization: ``kl_bound`` is the hypothesis :math:`D_{\mathrm{KL}}(P\|Q)\le\rho` on the pair
:math:`(P,Q)=(M(x),M(x'))`, ρ > 0.  :math:`\delta_{P\|Q}(0)=\sup_S P(S)-Q(S)` is the total variation
distance (the hockey-stick divergence at ε = 0, R-A6).  Since :math:`e^{\varepsilon}Q(S)\ge Q(S)`,
:math:`(0,\delta)`-DP is :math:`(\varepsilon,\delta)`-DP for every ε ≥ 0 (REFERENCE's
:math:`\delta(\varepsilon)\le\delta(0)`); that monotonicity is the definition read at two values of ε
and is not a separate part here.

Scope, said plainly: REFERENCE R-E3 states the route *under ρ-zCDP*, using
:math:`D_{\mathrm{KL}}\le\rho`.  That implication (BS16: the limit α → 1 of :math:`D_\alpha\le\alpha\rho`)
is **not** proved in this library — the kernel has no limit rule — so this theorem takes
:math:`D_{\mathrm{KL}}\le\rho` as its hypothesis.  With it, the statement is **proved** from two textbook
inequalities (axioms of this module).

Proof: **Bretagnolle–Huber** (resp. **Pinsker**), then the hypothesis inside the increasing maps
:math:`w\mapsto1-e^{-w}` and :math:`w\mapsto w/2`.

Not tight in general; Bretagnolle–Huber beats Pinsker exactly when
:math:`1-e^{-\rho}<\rho/2` (ρ > 1.59).  Witnesses of the numeric checks (pairs with KL exactly ρ): the
Gaussian pair :math:`\mathcal N(0,1)`, :math:`\mathcal N(\sqrt{2\rho},1)` (TV by quadrature of
:math:`\int(p-q)_+`; REFERENCE ✓N45: TV = 2Φ(√(2ρ)/2) − 1) and the randomized-response pair with
:math:`\varepsilon\tanh(\varepsilon/2)=\rho` (TV = tanh(ε/2), by enumeration).

Axioms added here: ``bretagnolle_huber`` and ``pinsker`` (textbook; numerically checked on those pairs).

References
----------
* Bretagnolle & Huber 1979, *Estimation des densités : risque minimax*, Z. Wahrsch. verw. Gebiete 47,
  119–137; Tsybakov 2009, *Introduction to Nonparametric Estimation*, Lemma 2.6 (and its proof);
  Canonne 2022, *A short note on an inequality between KL and TV*, arXiv:2202.07198.
* Pinsker 1964; Tsybakov 2009, Lemma 2.5 (i).
* dp_accounting, ``rdp_privacy_accountant.py`` ("delta <= sqrt(1-exp(-KL))"); REFERENCE.md R-E3, ✓N45.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import positive
from cdpsym.expr.operators import KL, HockeyStick, P, Q
from cdpsym.expr.symbols import rho
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, by, le

__all__ = ["theorem", "make", "mutants", "kl_bound", "bretagnolle_huber", "pinsker", "AXIOMS", "witnesses"]

TV = HockeyStick(0, P, Q)

kl_bound = Hypothesis(
    name="kl_bound",
    title="the pair has KL divergence at most ρ (implied by ρ-zCDP, BS16; not proved here)",
    relation=le(KL(P, Q), rho),
)


# -- witnesses: pairs with KL exactly rho, their total variation from the definition ---------------------------

def witnesses(r, dps):
    """``[(name, TV)]`` for two pairs with KL(P||Q) = r: a Gaussian shift (quadrature of ∫(p - q)_+) and the
    randomized-response pair with ε tanh(ε/2) = r (enumeration of Σ(P - Q)_+)."""
    from cdpsym.mechanisms import RandomizedResponse
    from cdpsym.mechanisms.profile import hockey_stick_discrete
    from theorems.gaussian_approx_dp_exact import definition_by_quadrature

    with mpmath.workdps(dps + 20):
        r = mpmath.mpf(r)
        shift = mpmath.sqrt(2 * r)  # KL(N(0,1) || N(s,1)) = s^2/2
        gauss = definition_by_quadrature(shift, mpmath.mpf(1), mpmath.mpf(0))
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while hi * mpmath.tanh(hi / 2) < r:
            hi *= 2
        e0 = mpmath.findroot(lambda e: e * mpmath.tanh(e / 2) - r, (lo, hi), solver="illinois")
        pp, qq = RandomizedResponse(eps=sp.Float(mpmath.nstr(e0, dps + 25), dps + 25)).distributions(dps=dps + 20)
        rr = hockey_stick_discrete(pp, qq, 0, dps=dps + 20)
    return [("N(0,1) vs N(sqrt(2 rho),1) (KL = rho), quadrature of int (p - q)_+", +gauss),
            ("randomized response with eps tanh(eps/2) = rho (KL = rho), enumeration", +rr)]


def _tv_truth(v, dps):
    """δ(0)² of the two witnesses (each part's left side)."""
    return [(name + ", squared", tv ** 2) for name, tv in witnesses(v[rho], dps)]


# -- axioms -----------------------------------------------------------------------------------------------------

bretagnolle_huber = Axiom(
    name="bretagnolle_huber",
    title="the **Bretagnolle–Huber inequality** TV(P, Q)² ≤ 1 − e^{−KL(P‖Q)} (TV = δ_{P‖Q}(0))",
    citation="Bretagnolle & Huber 1979, Z. Wahrsch. verw. Gebiete 47, 119-137; Tsybakov 2009, *Introduction to "
             "Nonparametric Estimation*, Lemma 2.6 and its proof (with the Bhattacharyya coefficient BC: 1 - TV^2 >= BC^2 >= e^{-KL}); "
             "Canonne 2022, arXiv:2202.07198; delta_{P||Q}(0) = sup_S P(S) - Q(S) is the total variation distance "
             "(R-A6 at eps = 0)",
    relation=le(TV ** 2, 1 - sp.exp(-KL(P, Q))),
)

pinsker = Axiom(
    name="pinsker",
    title="**Pinsker's inequality** TV(P, Q)² ≤ KL(P‖Q)/2 (TV = δ_{P‖Q}(0))",
    citation="Pinsker 1964; Tsybakov 2009, *Introduction to Nonparametric Estimation*, Lemma 2.5 (i); "
             "Cover & Thomas 2006, Lemma 11.6.1; delta_{P||Q}(0) = sup_S P(S) - Q(S) is the total variation "
             "distance (R-A6 at eps = 0)",
    relation=le(TV ** 2, KL(P, Q) / 2),
)

AXIOMS = [bretagnolle_huber, pinsker]


# -- the theorem ------------------------------------------------------------------------------------------------

def make(bh_bound: sp.Expr = 1 - sp.exp(-rho), pinsker_bound: sp.Expr = rho / 2) -> Theorem:
    """The two bounds on δ(0)² as claimed (tests build mutants with smaller ones)."""
    bh = (Chain(TV ** 2)
          .le(1 - sp.exp(-KL(P, Q)), by(bretagnolle_huber))
          .le(bh_bound, by(kl_bound, inside=lambda w: 1 - sp.exp(-w))))
    pk = (Chain(TV ** 2)
          .le(KL(P, Q) / 2, by(pinsker))
          .le(pinsker_bound, by(kl_bound, inside=lambda w: w / 2)))
    return Theorem(
        name="approx_dp_of_kl",
        reference="R-E3",
        source="Bretagnolle & Huber 1979; Pinsker 1964; Tsybakov 2009, Lemmas 2.5 and 2.6",
        title="KL divergence to approximate DP (total variation route)",
        variables={rho: positive(sample_lo=1e-3, sample_hi=10, log_scale=True)},
        hypotheses=(kl_bound,),
        parts=(Part("bretagnolle_huber_bound", le(TV ** 2, bh_bound), proof=bh, ground_truth=_tv_truth),
               Part("pinsker_bound", le(TV ** 2, pinsker_bound), proof=pk, ground_truth=_tv_truth)),
        numeric_points=({"rho": "0.045"}, {"rho": "0.5"}, {"rho": "4.5"}, {"rho": "1e-4"}, {"rho": "1.6"}),
        property_examples=15,
        tight="not tight; e.g. rho = 0.5: Gaussian TV = 0.3829 <= 0.6273 = sqrt(1 - e^-0.5) (BH) and 0.5 (Pinsker).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("1 − e^(−ρ/4): ρ shrunk", make(bh_bound=1 - sp.exp(-rho / 4))),
        ("(1 − e^(−ρ))²: the bound on δ(0), not on its square", make(bh_bound=(1 - sp.exp(-rho)) ** 2)),
        ("ρ/8 for ρ/2", make(pinsker_bound=rho / 8)),
    ]
