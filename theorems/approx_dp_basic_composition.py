r"""k-fold adaptive composition of (ε, δ)-DP mechanisms is (kε, kδ)-DP, and with step i (ε_i, δ_i)-DP it is
(Σε_i, Σδ_i)-DP (basic composition; proved).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(k\varepsilon)\ \le\ k\delta,
    \qquad
    \delta_{P^{(k)}\|Q^{(k)}}\Big(\sum_{i=1}^k\varepsilon_i\Big)\ \le\ \sum_{i=1}^k\delta_i .

Statement (R-F2; DR14 Thm 3.16 as REFERENCE gives it, number not checked): :math:`M_i`
:math:`(\varepsilon_i,\delta_i)`-DP for :math:`i=1..k` implies that the adaptive composition is
:math:`(\sum_i\varepsilon_i,\ \sum_i\delta_i)`-DP.  Two theorems:

* ``approx_dp_basic_composition_heterogeneous`` (listed before it, in ``LEMMAS``): the statement as REFERENCE gives
  it.  The per-step parameters are sequences of numbers (``eps_dp_step``, ``delta_dp_step``; the kernel treats
  their terms as arbitrary reals, so the proof holds for every sequence); every pair the adversary may choose at
  step i is a pair ``(P_i, Q_i)`` of class i with :math:`\delta_{P_i\|Q_i}(\varepsilon_i)\le\delta_i` (hypothesis
  ``approx_dp_per_step``, quantified over i).
* ``approx_dp_basic_composition`` (this theorem): homogeneous, k steps, every step's pair with
  :math:`\delta_{P\|Q}(\varepsilon)\le\delta` (the hypothesis ``step_approx_dp`` of
  :mod:`theorems.approx_dp_optimal_composition_homogeneous`, on the canonical pair ``(P, Q)`` that stands for
  every pair the adversary may choose at any step); ``delta0`` ∈ (0, 1) (δ = 0 is pure basic composition, R-F1,
  proved in :mod:`theorems.pure_dp_basic_composition`).

(ε, δ)-DP is the hockey-stick bound in both directions (R-A6).  Each theorem proves one direction from the same
direction of the steps: applied to the swapped game (the class of neighbouring pairs is closed under swapping) it
gives the other, so the two together are R-F2.

Proof (the privacy-loss proof of DR14 Thm 3.16, written with the likelihood ratio, which stays finite where an
(ε, δ)-DP pair puts mass the other side lacks):

1. **Ratio form** (a definition, ``hockey_stick_ratio_form*`` in :mod:`theorems.foundations_composition`):
   :math:`\delta_{P\|Q}(c)=\sup_S P(S)-e^cQ(S)=\int(p-e^cq)_+=\mathbb E_P[(1-e^cR)_+]` with :math:`R=q/p`; for the
   composed pair :math:`R` is :math:`\Lambda_k=R_1\cdots R_k`, the product of the steps' ratios (the adversary's
   coins cancel, as for the privacy loss).
2. **Each step** (part ``step_mean``): a pair of the class has :math:`\mathbb E[(1-e^{\varepsilon}R)_+]\le\delta`
   (the ratio form and the hypothesis).  The class-member rule reads it at the pair of step n, given every
   prefix; the tower rule (``tower_mean_bound``) gives :math:`\mathbb E[(1-e^{\varepsilon}R_n)_+]\le\delta`.
3. **Induction on k** (part ``ratio_mean``): at every outcome
   :math:`(1-ab)_+\le(1-a)_+ + (1-b)_+` for :math:`a,b\ge0` (``positive_part_of_product``, proved by the cases
   :math:`a, b \lessgtr 1`), here with :math:`a=e^{k\varepsilon}\Lambda_k`, :math:`b=e^{\varepsilon}R_{k+1}`; the
   means of the two non-negative terms add (``expectation_sum_nonnegative``), the first is at most :math:`k\delta`
   (induction hypothesis), the second at most δ (step 2).
4. ``main``: :math:`\delta_{P^{(k)}\|Q^{(k)}}(k\varepsilon)=\mathbb E[(1-e^{k\varepsilon}\Lambda_k)_+]\le k\delta`.

The per-step form is the same proof with :math:`\varepsilon_{k+1}`, :math:`\delta_{k+1}` at step k + 1 and the sums
split at their last term.  Axioms used: the ratio forms, the product of the step ratios, the tower rule,
additivity of expectation for non-negative variables -- definitions and textbook facts; no DP-specific statement.

Ground truth (independent of the statement: no binomial or closed formula), at 50 digits: exact hockey-stick
divergences :math:`\sum_y(P(y)-e^{\varepsilon'}Q(y))_+` at the claimed ε', by enumeration of explicit finite
compositions -- the product of KOV15's four-atom pairs
:math:`P=(\delta,0,(1-\delta)\frac{e^\varepsilon}{1+e^\varepsilon},(1-\delta)\frac{1}{1+e^\varepsilon})`,
:math:`Q=(0,\delta,(1-\delta)\frac{1}{1+e^\varepsilon},(1-\delta)\frac{e^\varepsilon}{1+e^\varepsilon})`
at each step's (ε_j, δ_j) (the worst case: by KOV15 Thm 3.3 / MV16 it attains the optimal composition), products
of randomized responses, products of random (ε_j, δ_j)-DP pairs (a random ε_j-DP pair with weight 1 − δ_j, an
arbitrary pair on three extra atoms with weight δ_j; each step's two hockey-stick divergences are checked ≤ δ_j
by enumeration), and an adaptive composition (the pair of a step chosen from the previous outputs).

Tight: no, for k ≥ 2 as soon as two of the δ_j are positive.  At ε' = Σε_j the least δ' is
1 − Π_j(1 − δ_j) (R-F7, R-F8; attained by the four-atom product), so Σδ_j exceeds it by δ1δ2 for two mechanisms
and by kδ − 1 + (1 − δ)^k homogeneously: with δ1 = δ2 = 0.1 the optimum is 0.19 < 0.2; with k = 10, δ = 0.01 it
is 0.0956179249911955 < 0.1.  With a single positive δ_j the bound is attained (1 − Π(1 − δ_j) = δ_j), and with
δ_j = 0 it is pure basic composition (R-F1), attained by randomized response.

References
----------
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, FnT-TCS 9(3–4), Thm 3.16
  (theorem number as REFERENCE gives it, not checked).
* Dwork, Rothblum & Vadhan 2010, *Boosting and Differential Privacy*, FOCS (the adaptive composition game).
* Balle, Barthe & Gaboardi 2018, NeurIPS, arXiv:1807.01647, §2 (the hockey-stick divergence as an f-divergence).
* Kairouz, Oh & Viswanath 2015, ICML, Thm 3.3, arXiv:1311.0776 (the four-atom pair; the optimum, R-F7).
* Murtagh & Vadhan 2016, TCC, arXiv:1507.03113 (heterogeneous optimum, R-F8).
* REFERENCE.md R-F2 (statement), R-F1, R-F7, R-F8, R-A6.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from dataclasses import replace

from cdpsym.expr import eps, i, k, naturals, nonnegative, positive
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import (ClassP, ClassQ, ClassRatio, ComposedRatio, Expect, HockeyStick, P, Q,
                                   StepRatio)
from cdpsym.expr.symbols import R, delta0, sequence
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le, sign, split
from cdpsym.proof.kernel import By
from theorems.approx_dp_optimal_composition_homogeneous import four_atom_pair, rr_pair, step_approx_dp
from theorems.foundations_composition import (Pk, Qk, composed_ratio_start, composed_ratio_step, condition,
                                              hockey_stick_ratio_form, hockey_stick_ratio_form_class,
                                              hockey_stick_ratio_form_composed, tower_mean_bound)
from theorems.kl_of_pure_dp import random_pure_dp_pairs
from theorems.subgaussian_variance import expectation_sum_nonnegative

__all__ = ["theorem", "make", "make_heterogeneous", "make_positive_part", "mutants", "LEMMAS",
           "positive_part_of_product", "positive_part", "approx_dp_basic_composition_heterogeneous",
           "approx_dp_per_step", "eps_step", "delta_step", "EPS_SUM", "DELTA_SUM",
           "EPS_TOTAL", "DELTA_TOTAL", "random_approx_dp_pairs", "approx_dp_parameters", "adaptive_composition",
           "witnesses"]

EPS_TOTAL = k * eps
DELTA_TOTAL = k * delta0

_UNIT = Interval(sp.S.Zero, sp.S.One, False, True, sample_lo=0, sample_hi=0.2)  # a per-step δ in [0, 1)
_POSITIVE_UNIT = Interval(sp.S.Zero, sp.S.One, True, True, sample_lo=1e-6, sample_hi=0.2)  # δ in (0, 1)


# -- ground truth: explicit compositions, enumerated -------------------------------------------------------------

def _hockey_stick(pp, qq, e):
    """``Σ_y (P(y) − e^ε Q(y))_+`` over the atoms (lists of equal length)."""
    w = mpmath.exp(e)
    return mpmath.fsum(max(mpmath.mpf(0), x - w * y) for x, y in zip(pp, qq))


def approx_dp_parameters(pp, qq, e):
    """``max(δ_{P‖Q}(ε), δ_{Q‖P}(ε))`` by enumeration: the least δ for which the pair is (ε, δ)-DP."""
    return max(_hockey_stick(pp, qq, e), _hockey_stick(qq, pp, e))


def random_approx_dp_pairs(e, d, count=3, seed=20261124):
    """``count`` random (ε, δ)-DP pairs: a random ε-DP pair with weight 1 − δ, and with weight δ a random pair on
    three extra atoms, ``u = (u_0, 0, u_2)``, ``v = (0, v_1, v_2)`` (its hockey-stick divergences are at most 1, so
    the mixture's are at most δ, and positive when δ > 0: the first two extra atoms reveal the dataset).
    Each pair's two divergences are checked by enumeration; a pair that fails is dropped."""
    rng = random.Random(seed)
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 5))
    out = []
    for pp, qq in random_pure_dp_pairs(e, count=count, seed=seed):
        u = [mpmath.mpf(rng.random()) + mpmath.mpf("0.01"), mpmath.mpf(0), mpmath.mpf(rng.random())]
        v = [mpmath.mpf(0), mpmath.mpf(rng.random()) + mpmath.mpf("0.01"), mpmath.mpf(rng.random())]
        u, v = [x / mpmath.fsum(u) for x in u], [x / mpmath.fsum(v) for x in v]
        pair = ([(1 - d) * x for x in pp] + [d * x for x in u], [(1 - d) * x for x in qq] + [d * x for x in v])
        if approx_dp_parameters(*pair, e) <= d + tol:
            out.append(pair)
    return out


def adaptive_composition(choose, steps, max_atoms=4096):
    """``(P, Q)`` as dicts over output prefixes: at each step ``choose(prefix)`` gives the step's pair (lists),
    the same function on both sides (the adversary sees the output, not the dataset).  None if too large."""
    layer = {(): (mpmath.mpf(1), mpmath.mpf(1))}
    for _ in range(steps):
        nxt = {}
        for prefix, (p, q) in layer.items():
            pp, qq = choose(prefix)
            for a, (x, y) in enumerate(zip(pp, qq)):
                nxt[prefix + (a,)] = (p * x, q * y)
        if len(nxt) > max_atoms:
            return None
        layer = nxt
    return {key: pq[0] for key, pq in layer.items()}, {key: pq[1] for key, pq in layer.items()}


def _compositions(steps, dps):
    """``[(name, P, Q)]`` for explicit compositions of the given ``[(ε_j, δ_j)]`` steps (small enough)."""
    from cdpsym.mechanisms.profile import product_distribution

    def product(pairs):
        return (product_distribution(*[pp for pp, _ in pairs], dps=dps),
                product_distribution(*[qq for _, qq in pairs], dps=dps))

    n = len(steps)
    out = []
    if 4 ** n <= 1024:
        out.append(("product of the four-atom pairs (KOV15)", *product([four_atom_pair(e, d) for e, d in steps])))
    if 2 ** n <= 1024:
        out.append(("product of randomized responses", *product([rr_pair(e) for e, _ in steps])))
    rng = random.Random(20261124 + 31 * n)
    randoms = [random_approx_dp_pairs(e, d, count=3, seed=20261124 + 7 * j) for j, (e, d) in enumerate(steps)]
    chosen = [pairs[rng.randrange(len(pairs))] for pairs in randoms]
    size = 1
    for pp, _ in chosen:
        size *= len(pp)
    if size <= 2048:
        out.append(("product of random (eps_j, delta_j)-DP pairs", *product(chosen)))

    def choose(prefix):  # four-atom pair after an even sum of atom indices, else a random (eps_j, delta_j) pair
        j = len(prefix)
        e, d = steps[j]
        return four_atom_pair(e, d) if sum(prefix) % 2 == 0 else randoms[j][len(prefix) % len(randoms[j])]

    adaptive = adaptive_composition(choose, n)
    if adaptive is not None:
        out.append(("adaptive: four-atom or random pair by the parity of the previous outputs", *adaptive))
    return out


def witnesses(e, d, steps, dps):
    """``[(name, P^(k), Q^(k))]``: explicit compositions of ``steps`` (ε, δ)-DP steps."""
    return _compositions([(e, d)] * steps, dps)


def _below_precision(value, dps):
    """0 below the working precision: with δ = 0 the positive parts at Σε_j vanish exactly (randomized response
    is tight), and a rounding residue must not read as a violation of a bound of 0 (20 guard digits)."""
    return mpmath.mpf(0) if abs(value) < mpmath.mpf(10) ** (-(dps + 10)) else value


def _ground_truth(eps_p_expr: sp.Expr, build, grouped=None):
    """The hockey-stick divergence at the statement's ε' (read from the statement) of every witness; ``grouped``:
    a further witness for large k, the k-fold four-atom product summed over its atom-type counts."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms.profile import hockey_stick_discrete

        rows = []
        with mpmath.workdps(dps + 20):
            point = {key: mpmath.mpf(x) for key, x in v.items()}
            eps_p = evaluate(eps_p_expr, point, MPContext(dps + 20))
            for name, pp, qq in build(point, dps + 20):
                rows.append((f"{name}: sum of positive parts at eps'",
                             _below_precision(hockey_stick_discrete(pp, qq, eps_p, dps=dps + 20), dps)))
            if grouped is not None:
                rows += grouped(point, eps_p, dps)
        return rows

    return truth


# -- lemma: the positive part of a product ------------------------------------------------------------------------

_a = sp.Symbol("a", real=True)
_b = sp.Symbol("b", real=True)


def positive_part(x: sp.Expr) -> sp.Expr:
    """``(1 − x)_+ = max(0, 1 − x)``."""
    return sp.Max(0, 1 - x)


def _product_truth(v, dps):
    """``(1 − ab)_+`` as the hockey-stick divergence of a two-point pair, by its two atoms: P = (1, 0) against
    Q = (ab, 1 − ab) for ab <= 1 (the sum of positive parts at ε = 0), and 0 for ab > 1 (Q has more mass)."""
    x = v[_a] * v[_b]
    if x > 1:
        return [("two-atom pair, sum of positive parts", mpmath.mpf(0))]
    return [("two-atom pair, sum of positive parts", _hockey_stick([1, 0], [x, 1 - x], 0))]


def make_positive_part(weight: sp.Expr = sp.S.One) -> Theorem:
    """``(1 − ab)_+ <= (1 − a)_+ + weight·(1 − b)_+`` for a, b >= 0 (the library lemma has weight 1)."""
    rhs = positive_part(_a) + weight * positive_part(_b)
    lhs = positive_part(_a * _b)
    proof = Chain(lhs).le(rhs, split(_a, 1, split(_b, 1, sign("the gap to (1 − a) + (1 − b) is (1 − a)(1 − b) ≥ 0"),
                                                     sign("1 − a·b ≤ 1 − a, as a(b − 1) ≥ 0")),
                                        sign("1 − a·b ≤ 1 − b, as b(a − 1) ≥ 0")))
    return Theorem(
        name="positive_part_of_product",
        reference="R-F2",
        source="elementary: (1 − a·b)_+ ≤ (1 − a)_+ + (1 − b)_+ for a ≥ 0 and b ≥ 0, by cases on a ≤ 1 or a ≥ 1 "
               "and b ≤ 1 or b ≥ 1 (proved here); applied to the ratio form of the hockey-stick divergence (Balle, Barthe & Gaboardi "
               "2018, arXiv:1807.01647)",
        title="the positive part of a product",
        variables={_a: nonnegative(sample_lo=0, sample_hi=3), _b: nonnegative(sample_lo=0, sample_hi=3)},
        parts=(Part("main", le(lhs, rhs), proof=proof, ground_truth=_product_truth),),
        numeric_points=({"a": "0.3", "b": "0.5"}, {"a": "0.5", "b": "3"}, {"a": "2", "b": "0.1"}, {"a": "2", "b": "3"},
                        {"a": "0", "b": "0"}, {"a": "1", "b": "1"}),
        property_examples=40,
        tight="equality when a ≥ 1 and b ≥ 1 (both sides 0), when a = 1 or b = 1, and when one of the two is 0 "
              "and the other ≥ 1; strict otherwise (for a < 1 and b < 1 the gap is (1 − a)(1 − b) > 0).",
    )


positive_part_of_product = make_positive_part()

LEMMAS = [positive_part_of_product]


# -- the proof: the hockey-stick divergence as a mean of the likelihood ratio, by induction on k ----------------------
#
# δ_{P^(k)||Q^(k)}(c) = E[(1 − e^c Λ_k)_+] (the ratio form), Λ_{k+1} = Λ_k R_{k+1}, and
# (1 − e^{c + e}Λ_k R_{k+1})_+ <= (1 − e^c Λ_k)_+ + (1 − e^e R_{k+1})_+ at every outcome (the lemma): the means add,
# the first is at most the induction hypothesis's bound, the second at most δ_{k+1} given every prefix (the step's
# pair is a pair of the class, read by the class-member rule; the tower rule takes the mean).

def _ratio_mean(c: sp.Expr, ratio: sp.Expr) -> sp.Expr:
    return Expect(positive_part(sp.exp(c) * ratio))


def _step_bound(step_mean: Part, n: sp.Expr, e: sp.Expr, d: sp.Expr, inst: dict, inside=None) -> By:
    """``E[(1 − e^e R_n)_+] <= d``: ``step_mean`` read at the pair of step n, then the tower rule."""
    return by(tower_mean_bound, Y_1=positive_part(sp.exp(e) * StepRatio(n)), i=n, c=d, inside=inside,
              given={condition(tower_mean_bound): by(step_mean, at_step=n, **inst)})


def _composition_proof(step_mean: Part, eps_at, delta_at, step_eps, step_delta, inst) -> Chain:
    """``E[(1 − e^{eps_at(k)} Λ_k)_+] <= delta_at(k)`` by induction on k; ``step_eps(n)``, ``step_delta(n)``: step
    n's parameters; ``inst(n)``: the instantiation of ``step_mean`` at step n."""
    claim = lambda n: _ratio_mean(eps_at(n), ComposedRatio(n))  # noqa: E731
    base = (Chain(claim(1))
            .eq(_ratio_mean(eps_at(1), ComposedRatio(0) * StepRatio(1)), by(composed_ratio_step, i=1))
            .eq(_ratio_mean(step_eps(1), StepRatio(1)), by(composed_ratio_start))
            .le(step_delta(1), _step_bound(step_mean, 1, step_eps(1), step_delta(1), inst(1))))
    n = k + 1
    first, second = sp.exp(eps_at(k)) * ComposedRatio(k), sp.exp(step_eps(n)) * StepRatio(n)
    tail = Expect(positive_part(second))
    step = (Chain(claim(n))
            .eq(_ratio_mean(eps_at(n), ComposedRatio(k) * StepRatio(n)), by(composed_ratio_step, i=n))
            .eq(Expect(positive_part(first * second)), algebra("e^{x + y} = e^x e^y"))
            .le(Expect(positive_part(first) + positive_part(second)),
                by(positive_part_of_product, a=first, b=second, inside=lambda w: Expect(w)))
            .eq(Expect(positive_part(first)) + tail,
                by(expectation_sum_nonnegative, Y_1=positive_part(first), Y_2=positive_part(second)))
            .le(delta_at(k) + tail, by(Hypothesis("ih", le(claim(k), delta_at(k))), inside=lambda w: w + tail))
            .le(delta_at(k) + step_delta(n), _step_bound(step_mean, n, step_eps(n), step_delta(n), inst(n),
                                                         inside=lambda w: delta_at(k) + w))
            .eq(delta_at(n), algebra()))
    return Chain(claim(k)).le(delta_at(k), induction(k, base, step))
# -- the heterogeneous form: step i is (ε_i, δ_i)-DP -------------------------------------------------------------

eps_step = sequence("eps_dp_step", r"\varepsilon")  # ε_i: the DP parameter ε of step i
delta_step = sequence("delta_dp_step", r"\delta")  # δ_i: the DP parameter δ of step i
EPS_SUM = sp.Sum(eps_step(i), (i, 1, k))
DELTA_SUM = sp.Sum(delta_step(i), (i, 1, k))

approx_dp_per_step = Hypothesis(
    name="approx_dp_per_step",
    title="every pair the adversary may choose at step i is (ε_i, δ_i)-DP (R-A6)",
    relation=le(HockeyStick(eps_step(i), ClassP(i), ClassQ(i)), delta_step(i)),
    variables={i: naturals()},
)
_CLASS_MEAN = Part(
    "step_mean", le(_ratio_mean(eps_step(i), ClassRatio(i)), delta_step(i)), variables={i: naturals()},
    title="a pair of class i: the mean of (1 − e^{ε_i} R^{(i)})_+ is at most δ_i",
    proof=(Chain(_ratio_mean(eps_step(i), ClassRatio(i)))
           .eq(HockeyStick(eps_step(i), ClassP(i), ClassQ(i)), by(hockey_stick_ratio_form_class, c=eps_step(i), i=i))
           .le(delta_step(i), by(approx_dp_per_step, i=i))))


def _steps(point):
    kk = int(point[k])
    return [(point[eps_step(sp.Integer(j))], point[delta_step(sp.Integer(j))]) for j in range(1, kk + 1)]


def make_heterogeneous(eps_total: sp.Expr = EPS_SUM, delta_total: sp.Expr = DELTA_SUM) -> Theorem:
    """Basic composition with step i (ε_i, δ_i)-DP and the claimed (``eps_total``, ``delta_total``) (mutants)."""
    step_mean = replace(_CLASS_MEAN)
    ratio = Part("ratio_mean", le(_ratio_mean(EPS_SUM, ComposedRatio(k)), DELTA_SUM),
                 title="the composed pair: the mean of (1 − e^{Σε_i} Λ_k)_+ is at most Σδ_i",
                 proof=_composition_proof(step_mean, lambda n: EPS_SUM.xreplace({k: n}),
                                          lambda n: DELTA_SUM.xreplace({k: n}), eps_step, delta_step,
                                          lambda n: {"i": n}))
    lhs = HockeyStick(eps_total, Pk(k), Qk(k))
    main = Part("main", le(lhs, delta_total),
                proof=(Chain(lhs)
                       .eq(_ratio_mean(eps_total, ComposedRatio(k)),
                           by(hockey_stick_ratio_form_composed, c=eps_total, k=k))
                       .le(DELTA_SUM, by(ratio))
                       .eq(delta_total, algebra())),
                ground_truth=_ground_truth(eps_total, lambda point, dps: _compositions(_steps(point), dps)))
    return Theorem(
        name="approx_dp_basic_composition_heterogeneous",
        reference="R-F2",
        source="Dwork & Roth 2014, Thm 3.16; Dwork, Rothblum & Vadhan 2010",
        title="basic composition of approximate DP with parameters per step",
        variables={k: naturals(sample_lo=1, sample_hi=5)},
        sequences={eps_step: positive(sample_lo=0.01, sample_hi=2), delta_step: _UNIT},
        hypotheses=(approx_dp_per_step,),
        parts=(step_mean, ratio, main),
        numeric_points=(
            {"k": "1", "eps_dp_step": "0.3", "delta_dp_step": "0.01"},
            {"k": "2", "eps_dp_step": "0.3 0.7", "delta_dp_step": "0 0"},
            {"k": "2", "eps_dp_step": "1 0.2", "delta_dp_step": "0.01 0.001"},
            {"k": "2", "eps_dp_step": "0.5 2", "delta_dp_step": "0.1 0.05"},
            {"k": "3", "eps_dp_step": "0.05 0.05 1", "delta_dp_step": "1e-6 1e-6 0.1"},
            {"k": "4", "eps_dp_step": "3 0.1 0.5 1", "delta_dp_step": "0.3 0 0.01 0.1"}),
        property_examples=6,
        tight="no for two or more positive δ_i: the optimum at Σε_i is 1 − Π(1 − δ_i) (MV16, R-F8), attained by the "
              "product of the four-atom pairs; exact with one positive δ_i.",
    )


approx_dp_basic_composition_heterogeneous = make_heterogeneous()
LEMMAS.append(approx_dp_basic_composition_heterogeneous)


# -- the homogeneous k-fold form (the theorem) ---------------------------------------------------------------------

_PAIR_MEAN = Part(
    "step_mean", le(_ratio_mean(eps, R), delta0),
    title="a pair of the class: the mean of (1 − e^ε R)_+ is at most δ0",
    proof=(Chain(_ratio_mean(eps, R))
           .eq(HockeyStick(eps, P, Q), by(hockey_stick_ratio_form, c=eps))
           .le(delta0, by(step_approx_dp))))


def _build(point, dps):
    return witnesses(point[eps], point[delta0], int(point[k]), dps)


def _grouped(point, eps_p, dps):
    """The k-fold four-atom product for k up to 60, its atoms grouped by type counts (every k the numeric points
    and the property draws reach, beyond the explicit products of ``witnesses``)."""
    from theorems.approx_dp_advanced_composition_kov15 import four_atom_product_delta

    n = int(point[k])
    if n > 60:
        return []
    value = four_atom_product_delta(point[eps], point[delta0], n, eps_p)
    return [("k-fold four-atom product, grouped by atom-type counts", _below_precision(value, dps))]


def make(eps_total: sp.Expr = EPS_TOTAL, delta_total: sp.Expr = DELTA_TOTAL) -> Theorem:
    """Basic composition of k (ε, δ)-DP mechanisms with the claimed (``eps_total``, ``delta_total``) (mutants)."""
    step_mean = replace(_PAIR_MEAN)
    ratio = Part("ratio_mean", le(_ratio_mean(EPS_TOTAL, ComposedRatio(k)), DELTA_TOTAL),
                 title="the composed pair: the mean of (1 − e^{kε} Λ_k)_+ is at most kδ0",
                 proof=_composition_proof(step_mean, lambda n: n * eps, lambda n: n * delta0, lambda n: eps,
                                          lambda n: delta0, lambda n: {}))
    lhs = HockeyStick(eps_total, Pk(k), Qk(k))
    main = Part("main", le(lhs, delta_total),
                proof=(Chain(lhs)
                       .eq(_ratio_mean(eps_total, ComposedRatio(k)),
                           by(hockey_stick_ratio_form_composed, c=eps_total, k=k))
                       .le(DELTA_TOTAL, by(ratio))
                       .eq(delta_total, algebra())),
                ground_truth=_ground_truth(eps_total, _build, _grouped))
    return Theorem(
        name="approx_dp_basic_composition",
        reference="R-F2",
        source="Dwork & Roth 2014, Thm 3.16; Dwork, Rothblum & Vadhan 2010",
        title="basic composition of approximate DP",
        # no notion text: the claim language reads (kε, kδ)-DP as undefined where kδ > 1, so the claim
        # "compose(k=k, DP(eps, delta0)) is DP(k*eps, k*delta0)" cannot be proved on its whole domain
        variables={k: naturals(sample_lo=1, sample_hi=20),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta0: _POSITIVE_UNIT},
        hypotheses=(step_approx_dp,),
        parts=(step_mean, ratio, main),
        numeric_points=({"k": "1", "eps": "1", "delta0": "0.01"}, {"k": "2", "eps": "0.5", "delta0": "0.1"},
                        {"k": "3", "eps": "1", "delta0": "0.001"}, {"k": "4", "eps": "0.3", "delta0": "0.0001"},
                        {"k": "5", "eps": "0.1", "delta0": "1e-6"}, {"k": "2", "eps": "2", "delta0": "0.3"},
                        {"k": "10", "eps": "0.2", "delta0": "0.01"}, {"k": "40", "eps": "0.05", "delta0": "0.001"}),
        property_examples=6,
        tight="no for k >= 2: the optimum at kε is 1 − (1 − δ)^k (KOV15 Thm 3.3 at i = 0, R-F7), attained by the "
              "k-fold four-atom product, and kδ exceeds it by kδ − 1 + (1 − δ)^k > 0.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    last_eps_dropped = sp.Sum(eps_step(i), (i, 1, k - 1))
    return [
        ("positive part: the second term halved", make_positive_part(sp.Rational(1, 2))),
        ("per step: (Σε_i, Σδ_i/2)", make_heterogeneous(delta_total=DELTA_SUM / 2)),
        ("per step: (Σε_i, Σ_{i<k} δ_i): the last δ dropped", make_heterogeneous(
            delta_total=sp.Sum(delta_step(i), (i, 1, k - 1)))),
        ("per step: (Σ_{i<k} ε_i, Σδ_i): the last ε dropped", make_heterogeneous(eps_total=last_eps_dropped)),
        ("per step: (Σε_i, kδ_1): every δ priced as the first", make_heterogeneous(delta_total=k * delta_step(1))),
        ("k-fold: (kε, kδ/2)", make(delta_total=k * delta0 / 2)),
        ("k-fold: (kε, δ): δ does not grow", make(delta_total=delta0)),
        ("k-fold: ((k − 1/2)ε, kδ): ε lowered, δ not raised", make(eps_total=(k - sp.Rational(1, 2)) * eps)),
        ("k-fold: (ε, kδ): the largest ε_j instead of the sum", make(eps_total=eps)),
    ]
