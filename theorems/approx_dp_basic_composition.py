r"""k-fold adaptive composition of (ε, δ)-DP mechanisms is (kε, kδ)-DP, and of an (ε1, δ1)- and an (ε2, δ2)-DP mechanism (ε1 + ε2, δ1 + δ2)-DP (basic composition; *supported*, not proved).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(k\varepsilon)\ \le\ 1-(1-\delta)^k\ \le\ k\delta,
    \qquad
    \delta_{P^{(2)}\|Q^{(2)}}(\varepsilon_1+\varepsilon_2)\ \le\ 1-(1-\delta_1)(1-\delta_2)\ \le\ \delta_1+\delta_2 .

Statement (R-F2; DR14 Thm 3.16 as REFERENCE gives it, number not checked): :math:`M_j` :math:`(\varepsilon_j,\delta_j)`-DP for
:math:`j=1..k` implies that the (adaptive) composition is
:math:`(\sum_j\varepsilon_j,\ \sum_j\delta_j)`-DP.  The statement language has no
indexed parameters (a list :math:`\varepsilon_1..\varepsilon_k` cannot be a
variable, nor a numeric point), so the module states the two forms it can carry:

* ``approx_dp_basic_composition`` (this theorem): **homogeneous**, k steps, every
  step's pair (ε, δ)-DP in both directions (the hypotheses ``step_approx_dp`` and
  ``step_approx_dp_reverse`` of :mod:`theorems.approx_dp_optimal_composition_homogeneous`,
  on the canonical pair ``(P, Q)`` that stands for every pair the adversary may
  choose at any step); conclusion on the composed pair ``Pk(k), Qk(k)``.
* ``approx_dp_basic_composition_two_mechanisms`` (listed before it, in ``LEMMAS``):
  **heterogeneous**, two steps; every pair the adversary may choose at step j
  (``P_step(j), Q_step(j)``, given any prefix) is (ε_j, δ_j)-DP in both
  directions; conclusion at (ε1 + ε2, δ1 + δ2).

The conclusion is one direction of (ε', δ')-DP (R-A6); the other is the same
theorem for the swapped game (the class of neighbouring pairs is closed under
swapping).  Parameter names: ``delta0`` ∈ (0, 1) (homogeneous) and ``delta_1``,
``delta_2`` ∈ [0, 1) (two mechanisms) are the per-step δ (cdpsym's ``delta`` is
reserved for targets).  δ = 1 is left out (it makes the statement vacuous); homogeneous δ = 0 is pure basic composition, R-F1, proved in
:mod:`theorems.pure_dp_basic_composition` (the claim language reads the generated
statement with δ > 0, so the homogeneous theorem keeps that domain).

Each theorem has two parts:

* ``optimum``: the hockey-stick divergence at Σε_j is at most 1 − Π_j(1 − δ_j).
  This is the optimal composition at ε' = Σε_j: KOV15 Thm 3.3 at i = 0 (R-F7,
  :mod:`theorems.approx_dp_optimal_composition_homogeneous`) and MV16 (R-F8,
  :mod:`theorems.approx_dp_optimal_composition`), where every term of the
  randomized-response sum vanishes at ε' = Σε_j.  It is restated here in closed
  form because the kernel cannot cite those modules at this point: their
  statements carry a sum (empty at i = 0) that the kernel treats as an opaque,
  possibly infinite term, and MV16's module encodes both groups' hypotheses on
  one pair.  Proof chain: one ``numeric`` step (**supported**).
* ``main``: the basic-composition bound, by the ``optimum`` part and arithmetic
  that **is proved**: ``bernoulli_inequality`` (1 − (1 − δ)^k ≤ kδ, by induction,
  a lemma listed before this theorem) for the homogeneous form, and
  δ1 + δ2 − (1 − (1 − δ1)(1 − δ2)) = δ1δ2 ≥ 0 (``sign``) for the two-mechanism form.
  The verdict is the weakest step's: **supported**.

Why not proved: the textbook proof (REFERENCE R-F2's sketch of DR14 Thm 3.16) conditions
on the first output y, bounds :math:`P_2(S_y)\le\min(1,e^{\varepsilon_2}P_2'(S_y))+\delta_2`
for every section :math:`S_y=\{z:(y,z)\in S\}`, and then applies the first
mechanism's guarantee to the [0, 1]-valued function
:math:`y\mapsto\min(1,e^{\varepsilon_2}P_2'(S_y))` ((ε, δ)-DP extends from events
to [0, 1]-valued tests) and integrates (Fubini).  The kernel has no
function-valued variables, no rule that instantiates a hypothesis on a class of
pairs at the sections :math:`S_y`, and no hockey-stick calculus for products or
mixtures; those steps are DP-specific lemmas, which may not be axioms.  So the
DP content is checked numerically, not proved.

Ground truth (independent of the statement: no binomial or closed formula), at
50 digits: exact hockey-stick divergences :math:`\sum_y(P(y)-e^{\varepsilon'}Q(y))_+`
at the claimed ε', by enumeration of explicit finite compositions --
the product of KOV15's four-atom pairs
:math:`P=(\delta,0,(1-\delta)\frac{e^\varepsilon}{1+e^\varepsilon},(1-\delta)\frac{1}{1+e^\varepsilon})`,
:math:`Q=(0,\delta,(1-\delta)\frac{1}{1+e^\varepsilon},(1-\delta)\frac{e^\varepsilon}{1+e^\varepsilon})`
at each step's (ε_j, δ_j) (the worst case: by KOV15 Thm 3.3 / MV16 it attains
the optimal composition, so it dominates every other (ε_j, δ_j)-DP pair; the
``optimum`` part is an equality for it), products of randomized responses, products
of random (ε_j, δ_j)-DP pairs (a random ε_j-DP pair with weight 1 − δ_j, an arbitrary
pair on three extra atoms with weight δ_j; each step's two hockey-stick divergences
are checked ≤ δ_j by enumeration), and an adaptive composition (the pair of a step
chosen from the previous outputs).

Tight: no, for k ≥ 2 as soon as two of the δ_j are positive.  At ε' = Σε_j the
least δ' is 1 − Π_j(1 − δ_j) (attained by the four-atom product), so Σδ_j exceeds
it by δ1δ2 for two mechanisms and by kδ − 1 + (1 − δ)^k homogeneously: with
δ1 = δ2 = 0.1 the optimum is 0.19 < 0.2; with k = 10, δ = 0.01 it is
0.0956179249911955 < 0.1.  With a single positive δ_j the bound is attained
(1 − Π(1 − δ_j) = δ_j), and with δ_j = 0 it is pure basic composition
(R-F1, :mod:`theorems.pure_dp_basic_composition`, proved), attained by
randomized response.

References
----------
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, FnT-TCS 9(3–4), Thm 3.16
  (theorem number as REFERENCE gives it, not checked).
* Dwork, Rothblum & Vadhan 2010, *Boosting and Differential Privacy*, FOCS (the adaptive composition game).
* Kairouz, Oh & Viswanath 2015, *The Composition Theorem for Differential Privacy*, ICML, Thm 3.3,
  arXiv:1311.0776 (the four-atom pair; the optimum, R-F7; numbering to be checked, as REFERENCE says).
* Murtagh & Vadhan 2016, TCC, arXiv:1507.03113 (heterogeneous optimum, R-F8; theorem number not checked).
* REFERENCE.md R-F2 (statement), R-F1, R-F7, R-F8, R-A6.
"""

from __future__ import annotations

import itertools
import random

import mpmath
import sympy as sp

from cdpsym.expr import eps, k, naturals, positive
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import HockeyStick
from cdpsym.expr.symbols import delta0
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, algebra, by, induction, le, numeric, sign
from theorems.approx_dp_optimal_composition import delta1, delta2, eps1, eps2
from theorems.approx_dp_optimal_composition_homogeneous import (four_atom_pair, rr_pair, step_approx_dp,
                                                                step_approx_dp_reverse)
from theorems.foundations_composition import Pk, Qk
from theorems.kl_of_pure_dp import random_pure_dp_pairs

__all__ = ["theorem", "make", "make_two", "make_bernoulli", "mutants", "LEMMAS", "bernoulli_inequality",
           "approx_dp_basic_composition_two_mechanisms", "P_step", "Q_step", "first_step_dp", "second_step_dp",
           "EPS_TOTAL", "DELTA_TOTAL", "DELTA_OPT", "EPS_TOTAL_TWO", "DELTA_TOTAL_TWO", "DELTA_OPT_TWO",
           "random_approx_dp_pairs", "approx_dp_parameters", "adaptive_composition", "witnesses",
           "witnesses_two"]

EPS_TOTAL = k * eps
DELTA_TOTAL = k * delta0
DELTA_OPT = 1 - (1 - delta0) ** k  # the optimal δ' at ε' = kε (KOV15 Thm 3.3, i = 0)

EPS_TOTAL_TWO = eps1 + eps2
DELTA_TOTAL_TWO = delta1 + delta2
DELTA_OPT_TWO = 1 - (1 - delta1) * (1 - delta2)  # the optimal δ' at ε' = ε1 + ε2 (MV16)

_UNIT = Interval(sp.S.Zero, sp.S.One, False, True, sample_lo=0, sample_hi=0.2)  # a per-step δ in [0, 1)
_POSITIVE_UNIT = Interval(sp.S.Zero, sp.S.One, True, True, sample_lo=1e-6, sample_hi=0.2)  # δ in (0, 1)


def _step_view(name: str) -> sp.FunctionClass:
    """``P_step(j)``: the output law, on x, of the mechanism the adversary picks at step j (any prefix)."""
    return sp.Function(f"{name}_step", _latex=lambda self, printer, exp=None: r"%s_{%s}" % (
        name, printer._print(self.args[0])))


P_step = _step_view("P")
Q_step = _step_view("Q")  # ... and on the neighbour x'


def _step_dp(j: int, e: sp.Symbol, d: sp.Symbol) -> Hypothesis:
    return Hypothesis(
        name=("first" if j == 1 else "second") + "_step_dp",
        title=f"every pair the adversary may choose at step {j} is (ε_{j}, δ_{j})-DP: "
              f"δ_{{P_{j}‖Q_{j}}}(ε_{j}) ≤ δ_{j} and δ_{{Q_{j}‖P_{j}}}(ε_{j}) ≤ δ_{j}",
        relation=le(sp.Max(HockeyStick(e, P_step(j), Q_step(j)), HockeyStick(e, Q_step(j), P_step(j))), d),
    )


first_step_dp = _step_dp(1, eps1, delta1)
second_step_dp = _step_dp(2, eps2, delta2)


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


def witnesses_two(e1, d1, e2, d2, dps):
    """``[(name, P^(2), Q^(2))]``: explicit compositions of an (ε1, δ1)- and an (ε2, δ2)-DP step."""
    return _compositions([(e1, d1), (e2, d2)], dps)


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
    """``1 − (1 − δ)^k ≤ factor·kδ`` for δ ∈ [0, 1), k ≥ 1 (the library lemma has factor 1)."""
    w = 1 - delta0
    base1 = Chain(w).le(1, sign("δ ≥ 0"))
    step1 = (Chain(w ** (k + 1)).eq(w ** k * w, algebra())
             .le(w, by(Hypothesis("ih", le(w ** k, 1)), inside=lambda z: z * w))
             .le(1, sign("δ ≥ 0")))
    power = Part("power_le_one", le(w ** k, 1), title="(1 − δ)^k ≤ 1",
                 proof=Chain(w ** k).le(1, induction(k, base1, step1)), ground_truth=_power_truth)
    gap = lambda n: 1 - w ** n
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
        reference="R-F2",
        source="Bernoulli's inequality, (1 + x)^k >= 1 + kx for x >= -1 (e.g. Hardy, Littlewood & Pólya 1934), "
               "at x = -δ; proved here by induction on k",
        title="Bernoulli's inequality",
        variables={k: naturals(sample_lo=1, sample_hi=40),
                   delta0: Interval(sp.S.Zero, sp.S.One, False, True, sample_lo=0, sample_hi=1)},
        parts=(power, Part("main", le(gap(k), factor * k * delta0), proof=proof, ground_truth=_bernoulli_truth)),
        numeric_points=({"k": "1", "delta0": "0.3"}, {"k": "2", "delta0": "0.1"}, {"k": "10", "delta0": "0.01"},
                        {"k": "40", "delta0": "0.999"}, {"k": "7", "delta0": "0"}),
        property_examples=30,
        tight="equality at k = 1 or δ = 0; for k ≥ 2 and δ > 0 strict.",
    )


bernoulli_inequality = make_bernoulli()


# -- the two-mechanism (heterogeneous) form -----------------------------------------------------------------------

def _build_two(point, dps):
    return witnesses_two(point[eps1], point[delta1], point[eps2], point[delta2], dps)


def make_two(eps_total: sp.Expr = EPS_TOTAL_TWO, delta_total: sp.Expr = DELTA_TOTAL_TWO) -> Theorem:
    """Basic composition of two mechanisms with the claimed (``eps_total``, ``delta_total``) (mutants)."""
    opt_lhs = HockeyStick(EPS_TOTAL_TWO, Pk(2), Qk(2))
    optimum = Part("optimum", le(opt_lhs, DELTA_OPT_TWO), title="the optimal composition at ε1 + ε2 (MV16)",
                   proof=Chain(opt_lhs).le(DELTA_OPT_TWO, numeric()),
                   ground_truth=_ground_truth(EPS_TOTAL_TWO, _build_two))
    lhs = HockeyStick(eps_total, Pk(2), Qk(2))
    main = Part("main", le(lhs, delta_total),
                proof=(Chain(lhs).le(DELTA_OPT_TWO, by(optimum))
                       .le(DELTA_TOTAL_TWO, sign("the gap is δ1δ2 ≥ 0"))
                       .eq(delta_total, algebra())),
                ground_truth=_ground_truth(eps_total, _build_two))
    return Theorem(
        name="approx_dp_basic_composition_two_mechanisms",
        reference="R-F2",
        source="Dwork & Roth 2014, Thm 3.16; Murtagh & Vadhan 2016, arXiv:1507.03113 (the optimum)",
        title="basic composition of two approximate-DP mechanisms",
        variables={eps1: positive(sample_lo=0.01, sample_hi=3), eps2: positive(sample_lo=0.01, sample_hi=3),
                   delta1: _UNIT, delta2: _UNIT},
        hypotheses=(first_step_dp, second_step_dp),
        parts=(optimum, main),
        numeric_points=(
            {"eps_1": "0.3", "delta_1": "0", "eps_2": "0.7", "delta_2": "0"},
            {"eps_1": "1", "delta_1": "0.01", "eps_2": "0.2", "delta_2": "0.001"},
            {"eps_1": "0.5", "delta_1": "0.1", "eps_2": "2", "delta_2": "0.05"},
            {"eps_1": "0.05", "delta_1": "1e-6", "eps_2": "0.05", "delta_2": "1e-6"},
            {"eps_1": "3", "delta_1": "0.3", "eps_2": "0.1", "delta_2": "0"},
            {"eps_1": "1", "delta_1": "0.1", "eps_2": "1", "delta_2": "0.1"}),
        property_examples=6,
        tight="optimum: exact (the product of the four-atom pairs attains it); main: exceeds the optimum by δ1δ2.",
    )


approx_dp_basic_composition_two_mechanisms = make_two()

LEMMAS = [bernoulli_inequality, approx_dp_basic_composition_two_mechanisms]


# -- the homogeneous k-fold form (the theorem) ---------------------------------------------------------------------

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
    opt_lhs = HockeyStick(EPS_TOTAL, Pk(k), Qk(k))
    optimum = Part("optimum", le(opt_lhs, DELTA_OPT), title="the optimal composition at kε (KOV15, i = 0)",
                   proof=Chain(opt_lhs).le(DELTA_OPT, numeric()),
                   ground_truth=_ground_truth(EPS_TOTAL, _build, _grouped))
    lhs = HockeyStick(eps_total, Pk(k), Qk(k))
    main = Part("main", le(lhs, delta_total),
                proof=(Chain(lhs).le(DELTA_OPT, by(optimum))
                       .le(DELTA_TOTAL, by(bernoulli_inequality.part("main"), k=k, delta0=delta0))
                       .eq(delta_total, algebra())),
                ground_truth=_ground_truth(eps_total, _build, _grouped))
    return Theorem(
        name="approx_dp_basic_composition",
        reference="R-F2",
        source="Dwork & Roth 2014, Thm 3.16; Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776 (the optimum)",
        title="basic composition of approximate DP",
        variables={k: naturals(sample_lo=1, sample_hi=20),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta0: _POSITIVE_UNIT},
        hypotheses=(step_approx_dp, step_approx_dp_reverse),
        parts=(optimum, main),
        numeric_points=({"k": "1", "eps": "1", "delta0": "0.01"}, {"k": "2", "eps": "0.5", "delta0": "0.1"},
                        {"k": "3", "eps": "1", "delta0": "0.001"}, {"k": "4", "eps": "0.3", "delta0": "0.0001"},
                        {"k": "5", "eps": "0.1", "delta0": "1e-6"}, {"k": "2", "eps": "2", "delta0": "0.3"},
                        {"k": "10", "eps": "0.2", "delta0": "0.01"}, {"k": "40", "eps": "0.05", "delta0": "0.001"}),
        property_examples=6,
        tight="optimum: exact (the k-fold four-atom product attains it); main: exceeds it by kδ − 1 + (1 − δ)^k, "
              "> 0 for k ≥ 2 and δ > 0.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("Bernoulli with kδ halved", make_bernoulli(sp.Rational(1, 2))),
        ("two mechanisms: (ε1 + ε2, (δ1 + δ2)/2)", make_two(delta_total=DELTA_TOTAL_TWO / 2)),
        ("two mechanisms: (max(ε1, ε2), δ1 + δ2)", make_two(eps_total=sp.Max(eps1, eps2))),
        ("two mechanisms: (ε1 + ε2/2, δ1 + δ2): ε lowered, δ not raised", make_two(eps_total=eps1 + eps2 / 2)),
        ("two mechanisms: (ε1 + ε2, max(δ1, δ2))", make_two(delta_total=sp.Max(delta1, delta2))),
        ("k-fold: (kε, kδ/2)", make(delta_total=k * delta0 / 2)),
        ("k-fold: (kε, δ): δ does not grow", make(delta_total=delta0)),
        ("k-fold: ((k − 1/2)ε, kδ): ε lowered, δ not raised", make(eps_total=(k - sp.Rational(1, 2)) * eps)),
        ("k-fold: (ε, kδ): the largest ε_j instead of the sum", make(eps_total=eps)),
    ]
