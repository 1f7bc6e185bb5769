r"""Optimal homogeneous composition (Kairouz–Oh–Viswanath): k-fold composition of (ε, δ)-DP is ((k − 2i)ε, 1 − (1 − δ)^k(1 − δ_i))-DP (*supported*, not proved; that no smaller δ holds is KOV15's
optimality, observed numerically on the four-atom pairs, not encoded).

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}\big((k-2i)\varepsilon\big)\ \le\ 1-(1-\delta)^k(1-\delta_i),\qquad
    \delta_i=\frac{\sum_{\ell=0}^{i-1}\binom{k}{\ell}\big(e^{(k-\ell)\varepsilon}-e^{(k-2i+\ell)\varepsilon}\big)}
    {(1+e^{\varepsilon})^k},\qquad i\in\{0,1,\dots,\lfloor k/2\rfloor\},

for the two views :math:`P^{(k)}, Q^{(k)}` (``Pk(k)``, ``Qk(k)`` of
:mod:`theorems.foundations_composition`) of every k-fold adaptive composition
of (ε, δ)-DP mechanisms.

Parameterization (R-F7): ``delta0`` is the per-step δ ∈ [0, 1] (the symbol
``delta`` of cdpsym is reserved for positive targets), ``i`` the index of the
KOV threshold ``ε' = (k − 2i)ε``; ``δ_0 = 0`` (empty sum), so ``i = 0`` is
basic composition ``(kε, 1 − (1 − δ)^k)``.  Every step's pair is (ε, δ)-DP in
both directions (hypotheses ``step_approx_dp`` and ``step_approx_dp_reverse``,
stated for the pair ``(P, Q)`` of the class, as ``pure_dp`` is in the other
composition theorems).

Status: **supported**.  The proof chain is one ``numeric`` step.  The
statement is checked at 50 digits against exact hockey-stick divergences, by
sums of positive parts over the atoms of explicit product distributions
(``cdpsym.mechanisms.profile.product_distribution``; no binomial formula):
the k-fold product of KOV's canonical four-atom (ε, δ)-DP pair (two revealing
atoms of mass δ, randomized response otherwise), the k-fold product of
randomized response, and products of random ε-DP pairs.  KOV15's proof --
(1) every (ε, δ)-DP pair is a post-processing of the four-atom pair, (2)
hence the adaptive composition is dominated by its k-fold product, (3) the
hockey-stick divergence of that product is the binomial sum -- needs a
simulation (post-processing) argument over arbitrary pairs that the kernel
does not carry.

Tight (optimality): exact.  The k-fold product of the four-atom pair attains
the bound (the numeric check shows agreement to the working precision), so no
smaller δ holds at ε' = (k − 2i)ε.  For general ε' (pure case) see R-F8,
:mod:`theorems.approx_dp_optimal_composition`.

References
----------
* Kairouz, Oh & Viswanath 2015, *The Composition Theorem for Differential Privacy*, ICML, Theorem 3.3,
  arXiv:1311.0776 (theorem number as REFERENCE.md gives it, [C]).
* Murtagh & Vadhan 2016, *The Complexity of Computing the Optimal Composition of Differential Privacy*, TCC,
  arXiv:1507.03113 (restatement).
* REFERENCE.md R-F7 (statement), R-A6 (hockey-stick form), ✓N18.
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from cdpsym.expr import eps, i, k, naturals, positive
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.expr.symbols import delta0
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, le, numeric
from theorems.foundations_composition import Pk, Qk
from theorems.kl_of_pure_dp import random_pure_dp_pairs

__all__ = ["theorem", "make", "mutants", "DELTA_I", "EPS_PRIME", "DELTA_PRIME", "step_approx_dp",
           "step_approx_dp_reverse", "binomial", "four_atom_pair", "rr_pair", "product_witnesses"]

_l = sp.Symbol("l", integer=True, nonnegative=True)  # the summation index of delta_i
_j = sp.Symbol("j", integer=True, positive=True)


def binomial(n: sp.Expr, r: sp.Expr) -> sp.Expr:
    """``C(n, r) = prod_{j=1}^{r} (n + 1 - j)/j`` (the kernel reasons about Product, not about sympy's binomial)."""
    return sp.Product((n + 1 - _j) / _j, (_j, 1, r))


DELTA_I = sp.Sum(binomial(k, _l) * (sp.exp((k - _l) * eps) - sp.exp((k - 2 * i + _l) * eps)),
                 (_l, 0, i - 1)) / (1 + sp.exp(eps)) ** k
EPS_PRIME = (k - 2 * i) * eps
DELTA_PRIME = 1 - (1 - delta0) ** k * (1 - DELTA_I)

step_approx_dp = Hypothesis(
    name="step_approx_dp",
    title="every step's pair (P, Q) is (ε, δ₀)-DP",
    relation=le(HockeyStick(eps, P, Q), delta0),
)
step_approx_dp_reverse = Hypothesis(
    name="step_approx_dp_reverse",
    title="every step's pair (Q, P) is (ε, δ₀)-DP (the other direction)",
    relation=le(HockeyStick(eps, Q, P), delta0),
)


# -- ground truth: explicit products, enumerated -----------------------------------------------------------------

def rr_pair(e):
    """Randomized response ``RR_ε``: ``P = (p, 1 − p)``, ``Q = (1 − p, p)``, ``p = e^ε/(1 + e^ε)``."""
    keep = 1 / (1 + mpmath.exp(-e))
    return [keep, 1 - keep], [1 - keep, keep]


def four_atom_pair(e, d):
    """KOV15's canonical (ε, δ)-DP pair: atoms (reveal-x, reveal-x', agree, disagree)."""
    keep = 1 / (1 + mpmath.exp(-e))
    return ([d, mpmath.mpf(0), (1 - d) * keep, (1 - d) * (1 - keep)],
            [mpmath.mpf(0), d, (1 - d) * (1 - keep), (1 - d) * keep])


def product_witnesses(e, d, steps, dps):
    """``[(name, P^(k), Q^(k))]``: explicit k-fold products (as dicts atom -> mass), small enough to enumerate."""
    from cdpsym.mechanisms.profile import product_distribution

    out = []
    if 4 ** steps <= 1024:
        pp, qq = four_atom_pair(e, d)
        out.append((f"{steps}-fold product of the four-atom (eps, delta)-DP pair",
                    product_distribution(*[pp] * steps, dps=dps), product_distribution(*[qq] * steps, dps=dps)))
    if 2 ** steps <= 1024:
        pp, qq = rr_pair(e)
        out.append((f"{steps}-fold product of randomized response",
                    product_distribution(*[pp] * steps, dps=dps), product_distribution(*[qq] * steps, dps=dps)))
    rng = random.Random(20261124 + steps)
    pairs = random_pure_dp_pairs(e, count=6)
    chosen = [pairs[rng.randrange(len(pairs))] for _ in range(steps)]
    size = 1
    for pp, _ in chosen:
        size *= len(pp)
    if size <= 1024:
        out.append((f"product of {steps} random eps-DP pairs",
                    product_distribution(*[pp for pp, _ in chosen], dps=dps),
                    product_distribution(*[qq for _, qq in chosen], dps=dps)))
    return out


def _below_precision(value, dps):
    """0 below the working precision: a tight atom's positive part vanishes exactly, and a rounding residue
    must not read as a violation of a bound of 0 (the masses carry 20 guard digits)."""
    return mpmath.mpf(0) if abs(value) < mpmath.mpf(10) ** (-(dps + 10)) else value


def _ground_truth(eps_p_expr: sp.Expr, reverse: bool = False):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms.profile import hockey_stick_discrete

        rows = []
        with mpmath.workdps(dps + 20):
            point = {key: mpmath.mpf(x) for key, x in v.items()}
            eps_p = evaluate(eps_p_expr, point, MPContext(dps + 20))
            for name, pp, qq in product_witnesses(point[eps], point[delta0], int(point[k]), dps + 20):
                a, b = (qq, pp) if reverse else (pp, qq)
                rows.append((name + ": sum of positive parts at eps'",
                             _below_precision(hockey_stick_discrete(a, b, eps_p, dps=dps + 20), dps)))
        return rows

    return truth


# -- the theorem -------------------------------------------------------------------------------------------------

def make(eps_prime: sp.Expr = EPS_PRIME, delta_prime: sp.Expr = DELTA_PRIME) -> Theorem:
    """The KOV15 statement with the claimed (``eps_prime``, ``delta_prime``) (tests build mutants)."""
    lhs = HockeyStick(eps_prime, Pk(k), Qk(k))
    return Theorem(
        name="approx_dp_optimal_composition_homogeneous",
        reference="R-F7",
        source="Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776",
        title="optimal homogeneous composition (KOV15)",
        variables={k: naturals(sample_lo=1, sample_hi=5),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta0: Interval(sp.S.Zero, sp.S.One, False, False, sample_lo=0, sample_hi=0.2),
                   i: Interval(sp.S.Zero, sp.S.Infinity, False, True, integer=True, sample_lo=0, sample_hi=3)},
        conditions=(le(2 * i, k),),
        hypotheses=(step_approx_dp, step_approx_dp_reverse),
        parts=(Part("main", le(lhs, delta_prime), proof=Chain(lhs).le(delta_prime, numeric()),
                    ground_truth=_ground_truth(eps_prime)),),
        numeric_points=({"k": "7", "eps": "0.4", "delta0": "0", "i": "1"},
                        {"k": "7", "eps": "0.4", "delta0": "0", "i": "3"},
                        {"k": "10", "eps": "0.1", "delta0": "0", "i": "2"},
                        {"k": "3", "eps": "1", "delta0": "0.01", "i": "1"},
                        {"k": "5", "eps": "0.5", "delta0": "0.001", "i": "2"},
                        {"k": "4", "eps": "0.3", "delta0": "0.1", "i": "0"},
                        {"k": "1", "eps": "2", "delta0": "0.05", "i": "0"}),
        property_examples=6,
        tight="exact: the k-fold product of KOV's four-atom (ε, δ)-DP pair attains the bound.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("delta_i halved", make(EPS_PRIME, 1 - (1 - delta0) ** k * (1 - DELTA_I / 2))),
            ("the per-step delta dropped (delta' = delta_i)", make(EPS_PRIME, DELTA_I)),
            ("eps' = (k - 2i - 1) eps at the same delta'", make((k - 2 * i - 1) * eps))]


theorem = make()
