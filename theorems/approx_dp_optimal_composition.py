r"""Optimal heterogeneous composition (Murtagh–Vadhan), for two groups of mechanisms: the least δ' at every ε' (*supported*, not proved).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\ \le\ 1-(1-\delta_1)^{k_1}(1-\delta_2)^{k_2}\Big(1-
    \frac{\sum_{u=0}^{k_1}\sum_{v=0}^{k_2}\binom{k_1}{u}\binom{k_2}{v}
    \max\big(0,\ e^{u\varepsilon_1+v\varepsilon_2}-e^{\varepsilon'}e^{(k_1-u)\varepsilon_1+(k_2-v)\varepsilon_2}\big)}
    {(1+e^{\varepsilon_1})^{k_1}(1+e^{\varepsilon_2})^{k_2}}\Big),\qquad k=k_1+k_2,

for the two views :math:`P^{(k)}, Q^{(k)}` of every adaptive composition of
``k1`` (ε1, δ1)-DP mechanisms and ``k2`` (ε2, δ2)-DP mechanisms (in any order).

*As encoded*, the two hypotheses ``first_group_dp`` and ``second_group_dp`` constrain the same generic pair
(P, Q), so every step is assumed to satisfy **both** guarantees: the encoded statement is true but weaker than
MV16's (a red-team review pointed this out); the kernel has no per-step parameters yet.

Parameterization (R-F8): MV16 state the result for arbitrary
:math:`(\varepsilon_j,\delta_j)_{j\le k}` as a sum over the subsets
:math:`S\subseteq[k]` of
:math:`\max\{0,e^{\sum_{j\in S}\varepsilon_j}-e^{\varepsilon'}e^{\sum_{j\notin S}\varepsilon_j}\}`
divided by :math:`\prod_j(1+e^{\varepsilon_j})`, and "(ε', δ')-DP **iff**
that sum is at most :math:`1-(1-\delta')/\prod_j(1-\delta_j)`"; solving the
iff for δ' gives the right side above.  Here the mechanisms come in two
groups of equal parameters, so the subsets are counted by how many of each
group they contain (``u`` of the first, ``v`` of the second) -- the binomial
form; a statement over an arbitrary list of ε_j needs indexed parameters,
which the statement language does not have.  ``k2 = 0`` is the homogeneous
pure profile of R-F7 at every ε'.  ``C(n, r)`` is written as a product
(:func:`theorems.approx_dp_optimal_composition_homogeneous.binomial`).
Hypotheses: each step of the first group is (ε1, δ1)-DP, each of the second
(ε2, δ2)-DP, both directions (R-A6).

Status: **supported**.  The proof chain is one ``numeric`` step; the
statement is checked at 50 digits against exact hockey-stick divergences of
explicit product distributions, enumerated atom by atom (no binomial or
subset formula): the product of KOV15's four-atom pairs at (ε1, δ1) and
(ε2, δ2), which attains the bound (MV16's witness), the product of randomized
responses, and products of random ε-DP pairs.  MV16's proof rests on KOV15's
reduction of an (ε, δ)-DP pair to the four-atom pair (post-processing),
which the kernel does not carry.

Tight: exact (the product of four-atom pairs attains it); computing the
optimal ε' for arbitrary heterogeneous ε_j is #P-complete (MV16).

References
----------
* Murtagh & Vadhan 2016, *The Complexity of Computing the Optimal Composition of Differential Privacy*, TCC,
  Theorem 1.5, arXiv:1507.03113 (theorem number as REFERENCE.md gives it, [C]).
* Kairouz, Oh & Viswanath 2015, arXiv:1311.0776 (the four-atom pair; homogeneous case).
* REFERENCE.md R-F8 (statement), R-F7, ✓N17.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from cdpsym.expr import eps_p, naturals, positive
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, le, numeric
from theorems.approx_dp_optimal_composition_homogeneous import binomial, four_atom_pair, rr_pair
from theorems.foundations_composition import Pk, Qk
from theorems.kl_of_pure_dp import random_pure_dp_pairs

__all__ = ["theorem", "make", "mutants", "RR_SUM", "DELTA_PRIME", "k1", "k2", "eps1", "eps2", "delta1", "delta2",
           "first_group_dp", "second_group_dp", "product_witnesses"]

k1 = sp.Symbol("k_1", integer=True, positive=True)
k2 = sp.Symbol("k_2", integer=True, nonnegative=True)
eps1 = sp.Symbol("eps_1", positive=True)
eps2 = sp.Symbol("eps_2", positive=True)
delta1 = sp.Symbol("delta_1", nonnegative=True)
delta2 = sp.Symbol("delta_2", nonnegative=True)
_u = sp.Symbol("u_", integer=True, nonnegative=True)
_v = sp.Symbol("v_", integer=True, nonnegative=True)

RR_SUM = sp.Sum(binomial(k1, _u) * sp.Sum(binomial(k2, _v)
                                           * sp.Max(0, sp.exp(_u * eps1 + _v * eps2)
                                                    - sp.exp(eps_p) * sp.exp((k1 - _u) * eps1 + (k2 - _v) * eps2)),
                                           (_v, 0, k2)),
                (_u, 0, k1)) / ((1 + sp.exp(eps1)) ** k1 * (1 + sp.exp(eps2)) ** k2)
DELTA_PRIME = 1 - (1 - delta1) ** k1 * (1 - delta2) ** k2 * (1 - RR_SUM)

first_group_dp = Hypothesis(
    name="first_group_dp",
    title="each step of the first group is (ε1, δ1)-DP: δ_{P‖Q}(ε1) ≤ δ1 and δ_{Q‖P}(ε1) ≤ δ1",
    relation=le(sp.Max(HockeyStick(eps1, P, Q), HockeyStick(eps1, Q, P)), delta1),
)
second_group_dp = Hypothesis(
    name="second_group_dp",
    title="each step of the second group is (ε2, δ2)-DP: δ_{P‖Q}(ε2) ≤ δ2 and δ_{Q‖P}(ε2) ≤ δ2",
    relation=le(sp.Max(HockeyStick(eps2, P, Q), HockeyStick(eps2, Q, P)), delta2),
)


# -- ground truth: explicit products, enumerated -----------------------------------------------------------------

def product_witnesses(e1, d1, n1, e2, d2, n2, dps):
    """``[(name, P^(k), Q^(k))]``: explicit products of n1 pairs at (e1, d1) and n2 at (e2, d2)."""
    from cdpsym.mechanisms.profile import product_distribution

    def product(pairs):
        return (product_distribution(*[pp for pp, _ in pairs], dps=dps),
                product_distribution(*[qq for _, qq in pairs], dps=dps))

    out = []
    if 4 ** (n1 + n2) <= 1024:
        out.append(("product of the four-atom pairs (KOV15)",
                    *product([four_atom_pair(e1, d1)] * n1 + [four_atom_pair(e2, d2)] * n2)))
    if 2 ** (n1 + n2) <= 1024:
        out.append(("product of randomized responses", *product([rr_pair(e1)] * n1 + [rr_pair(e2)] * n2)))
    rng = random.Random(20261124 + 7 * n1 + n2)
    first, second = random_pure_dp_pairs(e1, count=4), random_pure_dp_pairs(e2, count=4)
    chosen = [first[rng.randrange(4)] for _ in range(n1)] + [second[rng.randrange(4)] for _ in range(n2)]
    size = 1
    for pp, _ in chosen:
        size *= len(pp)
    if size <= 1024:
        out.append(("product of random eps_j-DP pairs", *product(chosen)))
    return out


def _below_precision(value, dps):
    """0 below the working precision (a rounding residue must not read as a violation of a bound of 0)."""
    return mpmath.mpf(0) if abs(value) < mpmath.mpf(10) ** (-(dps + 10)) else value


def _ground_truth(v, dps):
    from cdpsym.mechanisms.profile import hockey_stick_discrete

    rows = []
    with mpmath.workdps(dps + 20):
        pt = {key: mpmath.mpf(x) for key, x in v.items()}
        for name, pp, qq in product_witnesses(pt[eps1], pt[delta1], int(pt[k1]), pt[eps2], pt[delta2], int(pt[k2]),
                                              dps + 20):
            rows.append((f"{name}: sum of positive parts at eps'",
                         _below_precision(hockey_stick_discrete(pp, qq, pt[eps_p], dps=dps + 20), dps)))
    return rows


# -- the theorem -------------------------------------------------------------------------------------------------

def make(delta_prime: sp.Expr = DELTA_PRIME) -> Theorem:
    """MV16 for two groups with the claimed ``delta_prime`` (tests build mutants)."""
    lhs = HockeyStick(eps_p, Pk(k1 + k2), Qk(k1 + k2))
    unit = dict(sample_lo=0, sample_hi=0.1)
    return Theorem(
        name="approx_dp_optimal_composition",
        reference="R-F8",
        source="Murtagh & Vadhan 2016, Thm 1.5, arXiv:1507.03113",
        title="optimal heterogeneous composition (MV16)",
        variables={k1: naturals(sample_lo=1, sample_hi=3),
                   k2: Interval(sp.S.Zero, sp.S.Infinity, False, True, integer=True, sample_lo=0, sample_hi=2),
                   eps1: positive(sample_lo=0.01, sample_hi=2), eps2: positive(sample_lo=0.01, sample_hi=2),
                   delta1: Interval(sp.S.Zero, sp.S.One, False, True, **unit),
                   delta2: Interval(sp.S.Zero, sp.S.One, False, True, **unit),
                   eps_p: positive(sample_lo=0.01, sample_hi=3)},
        hypotheses=(first_group_dp, second_group_dp),
        parts=(Part("main", le(lhs, delta_prime), proof=Chain(lhs).le(delta_prime, numeric()),
                    ground_truth=_ground_truth),),
        numeric_points=(
            {"k_1": "6", "eps_1": "0.1", "delta_1": "0", "k_2": "0", "eps_2": "1", "delta_2": "0", "eps_p": "0.2"},
            {"k_1": "2", "eps_1": "0.3", "delta_1": "0", "k_2": "1", "eps_2": "0.7", "delta_2": "0", "eps_p": "0.5"},
            {"k_1": "1", "eps_1": "1.1", "delta_1": "0", "k_2": "2", "eps_2": "0.7", "delta_2": "0", "eps_p": "0.5"},
            {"k_1": "2", "eps_1": "1", "delta_1": "0.01", "k_2": "2", "eps_2": "0.2", "delta_2": "0.001",
             "eps_p": "0.8"},
            {"k_1": "1", "eps_1": "2", "delta_1": "0.05", "k_2": "3", "eps_2": "0.5", "delta_2": "0", "eps_p": "1.5"},
            {"k_1": "3", "eps_1": "0.4", "delta_1": "0", "k_2": "2", "eps_2": "1.2", "delta_2": "0.1",
             "eps_p": "0.05"}),
        property_examples=6,
        tight="exact: the product of KOV15's four-atom pairs attains it.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("the randomized-response sum halved", make(1 - (1 - delta1) ** k1 * (1 - delta2) ** k2 * (1 - RR_SUM / 2))),
            ("the per-step deltas dropped", make(RR_SUM)),
            ("e^{eps'} doubled inside the max", make(DELTA_PRIME.subs(sp.exp(eps_p), 2 * sp.exp(eps_p))))]


theorem = make()
