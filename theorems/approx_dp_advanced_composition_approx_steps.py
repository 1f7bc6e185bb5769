r"""Dwork–Rothblum Theorem 1.1 in full: k-fold composition of (ε, δ0)-DP is (ε', kδ0 + δ')-DP (*supported*: it rests on the Kairouz–Oh–Viswanath closed form).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le k\delta_0+\delta',\qquad
    \varepsilon'=\sqrt{2k\log(1/\delta')}\;\varepsilon+\frac{k\,\varepsilon\,(e^{\varepsilon}-1)}{2},

for the two views :math:`P^{(k)}, Q^{(k)}` of every k-fold adaptive composition of (ε, δ0)-DP mechanisms,
ε > 0, δ0 ∈ [0, 1], δ' ∈ (0, 1), k ≥ 1 (R-B1 with δ0 > 0 allowed; the pure case δ0 = 0 is
``approx_dp_advanced_composition``, proved).

Parameterization: as ``approx_dp_advanced_composition_kov15`` -- every step's pair is (ε, δ0)-DP in both
directions (hypotheses ``step_approx_dp`` and ``step_approx_dp_reverse``), per-step δ0, slack δ'.

Proof (every step checked by the kernel; the one cited result that is not proved is KOV15's closed form):

1. the hockey-stick divergence is non-increasing in its order (``hockey_stick_antitone``, proved: the ratio form
   :math:`\delta(c)=\mathbb E[(1-e^cR)_+]` and the pointwise ``positive_part_antitone``
   :math:`(1-e^{b+t}r)_+\le(1-e^br)_+`, t, r ≥ 0, under the mean);
2. :math:`\tilde\varepsilon\le\varepsilon'` for KOV15's :math:`\tilde\varepsilon` (the minimum of three branches),
   since its third branch has the smaller mean :math:`\tanh(\varepsilon/2)\le(e^\varepsilon-1)/2`;
3. **KOV15's closed form** (``approx_dp_advanced_composition_kov15``, R-F4, *supported*: checked at 50 digits
   against the exact optimum, not proved) at :math:`\tilde\varepsilon`:
   :math:`\delta(\tilde\varepsilon)\le1-(1-\delta_0)^k(1-\delta')`;
4. :math:`1-(1-\delta_0)^k(1-\delta')\le k\delta_0+\delta'` by **Bernoulli's inequality**
   (``bernoulli_inequality``, proved by induction on k).

So the status is KOV15's, *supported*; the kernel checks everything else.  DR16 prove the statement by DRV10's
reduction of each (ε, δ0)-DP step to an ε-DP one up to mass δ0, then their chain for the pure case (R-B1's proof
sketch); that reduction is an existence statement about distributions the kernel has no objects for.  Ground truth,
independent of every bound: the exact optimum (KOV15 Thm 3.3, R-F7) -- the hockey-stick divergence at ε' of the
k-fold four-atom product, by the randomized-response binomial law and, for k ≤ 20, by summing over atom types.

Not tight: the total δ is at least KOV15's :math:`1-(1-\delta_0)^k(1-\delta')`, and ε' has the mean term
:math:`k\varepsilon(e^\varepsilon-1)/2` where :math:`k\varepsilon\tanh(\varepsilon/2)` suffices (R-F4); e.g. k = 10,
ε = 1, δ0 = δ' = 1e-3: ε' = 20.35 ≥ kε, where the exact δ is :math:`1-(1-\delta_0)^{10}=0.00996`, against the bound
0.011.

References
----------
* Dwork & Rothblum 2016, *Concentrated Differential Privacy*, Thm 1.1, arXiv:1603.01887v2.
* Kairouz, Oh & Viswanath 2015, ICML, Thm 3.4 (closed form) and Thm 3.3 (the exact optimum), arXiv:1311.0776.
* Bernoulli's inequality, e.g. Hardy, Littlewood & Pólya 1934.
* Balle, Barthe & Gaboardi 2018, arXiv:1807.01647, §2 (the ratio form of the hockey-stick divergence).
* REFERENCE.md R-B1 (statement), R-F4, R-F7, R-A6.
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from cdpsym.expr import delta0, delta_p, eps, k, naturals, nonnegative, open_unit, positive, real
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import ComposedRatio, Expect, HockeyStick
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le, monotone, sign, split
from theorems.approx_dp_advanced_composition import EPS_PRIME, MEAN_TERM
from theorems.approx_dp_advanced_composition_kov15 import DELTA_TOTAL as KOV_DELTA
from theorems.approx_dp_advanced_composition_kov15 import EPS_TILDE, exact_optimum_truth
from theorems.approx_dp_advanced_composition_kov15 import theorem as kov15
from theorems.approx_dp_optimal_composition_homogeneous import step_approx_dp, step_approx_dp_reverse
from theorems.foundations_composition import Pk, Qk, hockey_stick_ratio_form_composed

__all__ = ["theorem", "make", "mutants", "LEMMAS", "make_bernoulli", "bernoulli_inequality",
           "positive_part_antitone", "hockey_stick_antitone", "make_positive_part_antitone", "VARIABLES", "NUMERIC_POINTS",
           "make_hockey_stick_antitone", "antitone_step", "DELTA_TOTAL", "UNIT_CLOSED"]

DELTA_TOTAL = k * delta0 + delta_p
UNIT_CLOSED = Interval(sp.S.Zero, sp.S.One, False, False, sample_lo=0, sample_hi=0.2)  # δ0 in [0, 1]


# -- lemma: Bernoulli's inequality in the form 1 − (1 − δ)^k ≤ kδ --------------------------------------------

def _power_truth(v, dps):
    base, n = 1 - v[delta0], int(v[k])
    value = mpmath.mpf(1)
    for _ in range(n):
        value *= base
    return [("product of k factors 1 − δ", value)]


def _bernoulli_truth(v, dps):
    d, n = v[delta0], int(v[k])
    rows = [("telescoping: δ Σ_{j<k} (1 − δ)^j", d * mpmath.fsum((1 - d) ** j for j in range(n)))]
    if n <= 12:  # Pr[at least one of k independent events of probability δ], over the 2^k outcomes
        total = mpmath.fsum(mpmath.fprod(d if bit else 1 - d for bit in bits)
                            for bits in itertools.product((0, 1), repeat=n) if any(bits))
        rows.append(("union of k independent Bernoulli(δ) events, enumerated", total))
    return rows


def make_bernoulli(factor: sp.Expr = sp.S.One) -> Theorem:
    """``1 − (1 − δ)^k ≤ factor·kδ`` for δ ∈ [0, 1], k ≥ 1 (the library lemma has factor 1)."""
    w = 1 - delta0
    base1 = Chain(w).le(1, sign("δ ≥ 0"))
    step1 = (Chain(w ** (k + 1)).eq(w ** k * w, algebra())
             .le(w, by(Hypothesis("ih", le(w ** k, 1)), inside=lambda z: z * w))
             .le(1, sign("δ ≥ 0")))
    power = Part("power_le_one", le(w ** k, 1), title="(1 − δ)^k ≤ 1",
                 proof=Chain(w ** k).le(1, induction(k, base1, step1)), ground_truth=_power_truth)
    gap = lambda n: 1 - w ** n  # noqa: E731
    base2 = Chain(gap(1)).eq(delta0, algebra())
    step2 = (Chain(gap(k + 1)).eq(gap(k) + delta0 * w ** k, algebra())
             .le(k * delta0 + delta0 * w ** k,
                 by(Hypothesis("ih", le(gap(k), k * delta0)), inside=lambda z: z + delta0 * w ** k))
             .le(k * delta0 + delta0, by(power, k=k, inside=lambda z: k * delta0 + delta0 * z))
             .eq((k + 1) * delta0, algebra()))
    proof = Chain(gap(k)).le(k * delta0, induction(k, base2, step2))
    if factor != 1:
        proof = proof.eq(factor * k * delta0, algebra())
    return Theorem(
        name="bernoulli_inequality",
        reference="R-B1",
        source="Bernoulli's inequality, (1 + x)^k >= 1 + kx for x >= -1 (e.g. Hardy, Littlewood & Pólya 1934), "
               "at x = -δ; proved here by induction on k",
        title="Bernoulli's inequality",
        variables={k: naturals(sample_lo=1, sample_hi=40), delta0: UNIT_CLOSED},
        parts=(power, Part("main", le(gap(k), factor * k * delta0), proof=proof, ground_truth=_bernoulli_truth)),
        numeric_points=({"k": "1", "delta0": "0.3"}, {"k": "2", "delta0": "0.1"}, {"k": "10", "delta0": "0.01"},
                        {"k": "40", "delta0": "0.999"}, {"k": "7", "delta0": "0"}, {"k": "3", "delta0": "1"}),
        property_examples=30,
        tight="equality at k = 1 or δ = 0; for k ≥ 2 and δ > 0 strict.",
    )


bernoulli_inequality = make_bernoulli()


# -- lemma: the hockey-stick divergence is non-increasing in its order -------------------------------------------

_s = sp.Symbol("s", real=True)
_u = sp.Symbol("u", real=True)
_b = sp.Symbol("b", real=True)
_t = sp.Symbol("t", real=True)
_AT_LEAST_ONE = Interval(sp.S.One, sp.S.Infinity, False, True, sample_lo=1, sample_hi=20)


def _positive_part(x: sp.Expr) -> sp.Expr:
    return sp.Max(0, 1 - x)


def _antitone_truth(v, dps):
    """``(1 − s·u)_+`` as the hockey-stick divergence of a two-atom pair, by its atoms: P = (1, 0) against
    Q = (u/m, 1 − u/m), m = max(1, u), at the order log(s·m) (so that e^{log(s m)}·u/m = s·u)."""
    s, u = v[_s], v[_u]
    m = max(mpmath.mpf(1), u)
    w = s * m
    atoms = [(mpmath.mpf(1), u / m), (mpmath.mpf(0), 1 - u / m)]
    return [("two-atom pair, sum of positive parts", mpmath.fsum(max(mpmath.mpf(0), x - w * y) for x, y in atoms))]


def make_positive_part_antitone(weight: sp.Expr = sp.S.One) -> Theorem:
    """``(1 − s·u)_+ <= weight·(1 − u)_+`` for s >= 1, u >= 0 (the library lemma has weight 1)."""
    lhs, rhs = _positive_part(_s * _u), weight * _positive_part(_u)
    return Theorem(
        name="positive_part_antitone",
        reference="R-B1",
        source="elementary: x ↦ (1 − x)_+ is non-increasing, and s·u ≥ u for s ≥ 1, u ≥ 0 (proved here by cases); "
               "applied to the ratio form of the hockey-stick divergence (Balle, Barthe & Gaboardi 2018, "
               "arXiv:1807.01647)",
        title="monotonicity of the positive part",
        variables={_s: _AT_LEAST_ONE, _u: nonnegative(sample_lo=0, sample_hi=3)},
        parts=(Part("main", le(lhs, rhs),
                    proof=Chain(lhs).le(rhs, split(_u, 1, sign("1 − s·u ≤ 1 − u, as u(s − 1) ≥ 0; and 0 ≤ 1 − u"),
                                                   sign("1 − s·u ≤ 1 − u ≤ 0"))),
                    ground_truth=_antitone_truth),),
        numeric_points=({"s": "1", "u": "0.5"}, {"s": "1.5", "u": "0.2"}, {"s": "20", "u": "2"}, {"s": "2.7", "u": "0"},
                        {"s": "1.1", "u": "1"}, {"s": "1", "u": "3"}),
        property_examples=40,
        tight="equality at s = 1, at u = 0, and where u ≥ 1 (both sides 0); strict otherwise.",
    )


positive_part_antitone = make_positive_part_antitone()


def _hockey(c: sp.Expr) -> sp.Expr:
    return HockeyStick(c, Pk(k), Qk(k))


def _ratio_mean(c: sp.Expr) -> sp.Expr:
    return Expect(_positive_part(sp.exp(c) * ComposedRatio(k)))


def _antitone_pairs_truth(upper: sp.Expr):
    """Both sides on explicit compositions, the left at the statement's order ``upper`` (the right side's divergence
    given for each witness's own law): the products and an adaptive composition of (0.5, 0.01)-DP steps
    (``approx_dp_basic_composition.witnesses``), and the k-fold four-atom product of (0.3, 0.05)-DP steps summed by
    atom type."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms.profile import hockey_stick_discrete
        from theorems.approx_dp_advanced_composition_kov15 import four_atom_product_delta
        from theorems.approx_dp_basic_composition import witnesses

        steps, lo, hi = int(v[k]), v[_b], evaluate(upper, v, MPContext(dps + 10))
        rows = []
        for name, pp, qq in witnesses(mpmath.mpf("0.5"), mpmath.mpf("0.01"), steps, dps + 10):
            rows.append((name, hockey_stick_discrete(pp, qq, hi, dps=dps + 10),
                         {_hockey(_b): hockey_stick_discrete(pp, qq, lo, dps=dps + 10)}))
        e, d = mpmath.mpf("0.3"), mpmath.mpf("0.05")
        rows.append(("k-fold four-atom product, by atom type", four_atom_product_delta(e, d, steps, hi),
                     {_hockey(_b): four_atom_product_delta(e, d, steps, lo)}))
        return rows

    return truth


def make_hockey_stick_antitone(upper: sp.Expr = _b + _t) -> Theorem:
    """``δ_{P^(k)‖Q^(k)}(upper) <= δ_{P^(k)‖Q^(k)}(b)`` (the library lemma has upper = b + t, t >= 0)."""
    proof = (Chain(_hockey(_b + _t))
             .eq(_ratio_mean(_b + _t), by(hockey_stick_ratio_form_composed, c=_b + _t, k=k))
             .le(_ratio_mean(_b), by(positive_part_antitone, s=sp.exp(_t), u=sp.exp(_b) * ComposedRatio(k),
                                     inside=lambda w: Expect(w), given={"s": Chain(1).le(sp.exp(_t), monotone(_t))}))
             .eq(_hockey(_b), by(hockey_stick_ratio_form_composed, c=_b, k=k)))
    return Theorem(
        name="hockey_stick_antitone",
        reference="R-B1",
        source="the hockey-stick divergence δ(c) = ∫(p − e^c q)_+ is non-increasing in c (e.g. Balle, Barthe & "
               "Gaboardi 2018, arXiv:1807.01647, §2); proved here from its ratio form",
        title="monotonicity of the hockey-stick divergence in its order",
        variables={k: naturals(sample_lo=1, sample_hi=12), _b: real(sample_lo=-3, sample_hi=5),
                   _t: nonnegative(sample_lo=0, sample_hi=5)},
        parts=(Part("main", le(_hockey(upper), _hockey(_b)), proof=proof, ground_truth=_antitone_pairs_truth(upper)),),
        numeric_points=({"k": "1", "b": "0", "t": "0"}, {"k": "2", "b": "0.1", "t": "0.5"},
                        {"k": "3", "b": "-1", "t": "2"}, {"k": "5", "b": "1", "t": "0.01"},
                        {"k": "12", "b": "0.5", "t": "1"}, {"k": "4", "b": "3", "t": "0"}),
        property_examples=20,
        tight="equality at t = 0; strict in general (for randomized response wherever e^b lies below e^{kε}).",
    )


hockey_stick_antitone = make_hockey_stick_antitone()

LEMMAS = [bernoulli_inequality, positive_part_antitone, hockey_stick_antitone]


def antitone_step(lower: sp.Expr, higher: sp.Expr, gap):
    """``δ(higher) <= δ(lower)`` for the composed pair: ``hockey_stick_antitone`` at b = lower,
    t = higher − lower, with ``gap`` (a chain or a justification) proving ``0 <= higher − lower``."""
    return by(hockey_stick_antitone, k=k, b=lower, t=higher - lower, given={"t": gap})


# -- the theorem -------------------------------------------------------------------------------------------------

def _total_delta() -> Chain:
    """``1 − (1 − δ0)^k (1 − δ') <= kδ0 + δ'``: Bernoulli, and (1 − δ0)^k <= 1."""
    w = (1 - delta0) ** k
    return (Chain(KOV_DELTA)
            .eq(1 - w + delta_p * w, algebra())
            .le(k * delta0 + delta_p * w, by(bernoulli_inequality.part("main"), k=k, delta0=delta0,
                                              inside=lambda z: z + delta_p * w))
            .le(k * delta0 + delta_p, by(bernoulli_inequality.part("power_le_one"), k=k, delta0=delta0,
                                         inside=lambda z: k * delta0 + delta_p * z)))


#: the variables and numeric points of DR16 Thm 1.1 and DRV10 Thm III.3 with δ0 (the same parameters)
VARIABLES = {k: naturals(sample_lo=1, sample_hi=300), eps: positive(sample_lo=0.01, sample_hi=3), delta0: UNIT_CLOSED,
             delta_p: open_unit(sample_lo=1e-15, sample_hi=0.9, log_scale=True)}
NUMERIC_POINTS = tuple({"k": kk, "eps": e, "delta0": d0, "delta_p": dp} for kk, e, d0, dp in (
    ("10", "1", "1e-3", "1e-3"), ("100", "0.1", "1e-8", "1e-6"), ("20", "0.1", "1e-4", "1e-5"),
    ("5", "0.3", "0.01", "0.05"), ("3", "1", "0.1", "0.1"), ("16", "0.4", "0.02", "1e-4"), ("1", "2", "0.05", "0.5"),
    ("200", "0.05", "1e-6", "1e-9"), ("50", "0.5", "0", "1e-6"), ("300", "0.05", "0", "1e-9"),
    ("200", "0.7", "1e-10", "1e-6")))  # the last: a mean term a quarter too small fails here


def make(eps_prime: sp.Expr = EPS_PRIME, delta_total: sp.Expr = DELTA_TOTAL) -> Theorem:
    """DR16 Thm 1.1 with the claimed (``eps_prime``, ``delta_total``) (tests build mutants)."""
    gap = sign("ε' is at least the third branch of the minimum, since tanh(ε/2) ≤ (e^ε − 1)/2")
    total = Part("total_delta", le(KOV_DELTA, DELTA_TOTAL), title="KOV15's total δ is at most kδ0 + δ'",
                 proof=_total_delta())
    proof = (Chain(_hockey(eps_prime))
             .le(_hockey(EPS_TILDE), antitone_step(EPS_TILDE, eps_prime, gap))
             .le(KOV_DELTA, by(kov15, k=k, eps=eps, delta0=delta0, delta_p=delta_p))
             .le(DELTA_TOTAL, by(total)))
    if delta_total != DELTA_TOTAL:
        proof = proof.eq(delta_total, algebra())
    return Theorem(
        name="approx_dp_advanced_composition_approx_steps",
        reference="R-B1",
        source="Dwork & Rothblum 2016, Thm 1.1, arXiv:1603.01887v2 (δ0 > 0 allowed); derived here from Kairouz, "
               "Oh & Viswanath 2015, Thm 3.4, arXiv:1311.0776",
        title="advanced composition of approximate DP (Dwork–Rothblum)",
        variables=dict(VARIABLES),
        hypotheses=(step_approx_dp, step_approx_dp_reverse),
        parts=(total, Part("main", le(_hockey(eps_prime), delta_total), proof=proof,
                    ground_truth=exact_optimum_truth(eps_prime)),),
        numeric_points=NUMERIC_POINTS,
        property_examples=20,
        tight="not tight: k = 10, ε = 1, δ0 = δ' = 1e-3 gives δ = 0.011, the exact optimum at that ε' is "
              "1 − (1 − δ0)^10 = 0.00996 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    root = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps
    return [
        ("Bernoulli: 1 − (1 − δ)^k ≤ kδ/2", make_bernoulli(sp.Rational(1, 2))),
        ("positive part: (1 − su)_+ ≤ (1 − u)_+/2", make_positive_part_antitone(sp.Rational(1, 2))),
        ("hockey stick: the order b − t on the left (the wrong direction)", make_hockey_stick_antitone(_b - _t)),
        ("total δ = δ' (the per-step δ0 dropped)", make(EPS_PRIME, delta_p)),
        ("total δ = (k − 1)δ0 + δ'", make(EPS_PRIME, (k - 1) * delta0 + delta_p)),
        ("mean term kε(e^ε − 1)/4", make(root + MEAN_TERM / 2)),
        ("ε√(k log(1/δ')): the 2 under the root dropped", make(eps * sp.sqrt(k * sp.log(1 / delta_p)) + MEAN_TERM)),
    ]
