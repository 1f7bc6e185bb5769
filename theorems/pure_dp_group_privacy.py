r"""Group privacy for pure DP: an ε-DP mechanism is kε-DP for datasets at distance k.

.. math::
    \Pr\big[-k\varepsilon \le G_k \le k\varepsilon\big] = 1
    \quad\text{whenever every neighbouring pair satisfies}\quad
    \Pr\big[-\varepsilon \le L \le \varepsilon\big] = 1,

with :math:`G_k=\log\frac{p_{x_0}(Y)}{p_{x_k}(Y)}`, :math:`Y\sim M(x_0)`, the privacy
loss between the two ends of a chain :math:`x=x_0\simeq x_1\simeq\dots\simeq x_k=x'`
of neighbouring datasets.

Parameterization: ε-DP of a pair is ``pure_dp`` of ``kl_of_pure_dp``,
:math:`|L|\le\varepsilon` almost surely (R-A5), on the canonical pair ``(P, Q)``,
which stands for **every** neighbouring pair :math:`(M(x), M(x'))`.  The chain
is a sequence of datasets, each a neighbour of the next; ``ell(i)`` is the
privacy loss :math:`\ell_i=\log\frac{p_{x_{i-1}}(Y)}{p_{x_i}(Y)}` of the
:math:`i`-th link and ``G(k)`` the group loss between :math:`x_0` and
:math:`x_k`, both evaluated at :math:`Y\sim M(x_0)`.  "Datasets at distance
:math:`k`" (differing in :math:`k` entries) are joined by such a chain of
length :math:`k`, changing one entry at a time.  The conclusion is the pure-DP
statement for the pair :math:`(M(x_0), M(x_k))` at :math:`k\varepsilon`, i.e.
:math:`\Pr[M(x)\in S]\le e^{k\varepsilon}\Pr[M(x')\in S]` for every event
:math:`S` (DR14 Thm 2.2); the other direction is the same theorem for the
reversed chain.

Proof (DR14 Thm 2.2, "multiply along the chain", in the privacy-loss form):
**induction on k**.  The group loss is the log of a telescoping product of
density ratios, :math:`G_{k+1}=G_k+\ell_{k+1}` and :math:`G_1=\ell_1`
(``group_loss_one``, ``group_loss_step``: the definition); each link is a
neighbouring pair, so the hypothesis holds of it (the kernel's class-member
rule, ``by(pure_dp, at_link=j)``): :math:`|\ell_j|\le\varepsilon` almost surely
under :math:`M(x_{j-1})`.  Under :math:`M(x_0)` that follows by absolute
continuity: the induction hypothesis bounds :math:`G_k=\log m_0/m_k`, so
:math:`M(x_0)` has a bounded density with respect to :math:`M(x_k)` and every
:math:`M(x_k)`-null event is :math:`M(x_0)`-null (``chain_null_sets``; the base case is the
definition of the chain's measure, ``chain_base_probability``).  Almost-sure
bounds add (``almost_sure_bound_sum`` of :mod:`theorems.pure_dp_basic_composition`).

Tight: the Laplace mechanism :math:`f(x)+\mathrm{Lap}(1/\varepsilon)` on a
counting query (sensitivity 1) with :math:`f(x_j)=j`: the group loss is
:math:`G_k(y)=\varepsilon(|y-k|-|y|)`, equal to :math:`k\varepsilon` for every
:math:`y\le0`, an event of probability 1/2 under :math:`M(x_0)` (R-G5).  The
geometric (discrete Laplace) mechanism behaves alike.

Axioms added here: ``group_loss_one`` and ``group_loss_step`` (the definition
of the group loss) and the textbook measure theory of the chain:
``chain_base_measure``, ``chain_base_probability`` (the chain's quantities are
evaluated at an output of :math:`M(x_0)`), ``chain_change_of_measure`` and
``chain_null_sets`` (Radon–Nikodym).  None is specific to privacy.

References
----------
* Dwork, McSherry, Nissim & Smith 2006, *Calibrating Noise to Sensitivity in Private Data Analysis*, TCC
  (ε-indistinguishability degrades linearly in the number of changed entries).
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 2.2 (group privacy) and
  Def 2.4; the privacy loss, §3.5.1.
* Dwork & Rothblum 2016, Def 3.1 (privacy loss random variable), arXiv:1603.01887v2.
* REFERENCE.md R-G5.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, a, eps, i, k, naturals, nonnegative, positive, real, s
from cdpsym.expr.operators import Expect, ExpectAt, GroupLoss, Indicator, LinkLoss, P, Prob, Q
from cdpsym.expr.symbols import describe
from cdpsym.proof import Axiom, Chain, Part, Theorem, by, eq, induction, le
from theorems.foundations_composition import Y1, c
from theorems.foundations_convexity import in_range
from theorems.kl_of_pure_dp import pure_dp
from theorems.pure_dp_basic_composition import almost_sure_bound_sum

__all__ = ["theorem", "make", "mutants", "EPS_GROUP", "G", "ell", "group_loss_one", "group_loss_step",
           "chain_base_measure", "chain_base_probability", "chain_change_of_measure", "chain_null_sets", "AXIOMS", "laplace_witness", "geometric_witness", "laplace_group_loss"]

EPS_GROUP = k * eps


G = GroupLoss  # the group loss between x_0 and x_k (a kernel object: the supremum rule reads E[G_k] as a KL)
ell = LinkLoss  # the loss of the link (x_{i-1}, x_i), at an output of M(x_0) (the kernel's class-member rule reads L
#                 as ell_j at the link j)
describe(G, r"$G_k$ is the privacy loss between the outputs on two inputs at distance $k$, the sum of the losses "
            r"$\ell_i$ of the links of a chain of neighbouring inputs joining them", 20)

# -- axioms (the trusted base this theorem adds; theorems/__init__ registers a module's AXIOMS) -------------

_SOURCE_LOSS = ("definition of the privacy loss (Dwork & Rothblum 2016, Def 3.1, arXiv:1603.01887v2; "
                "Dwork & Roth 2014, §3.5.1): log p_{x_0}/p_{x_k} is the sum over i of log p_{x_{i-1}}/p_{x_i}, the log "
                "of a telescoping product of density ratios (Dwork & Roth 2014, proof of Thm 2.2)")

group_loss_one = Axiom(
    name="group_loss_one",
    title="definition: a chain of one link has the loss of that link, G_1 = ℓ_1",
    citation=_SOURCE_LOSS,
    relation=eq(G(1), ell(1)),
)

group_loss_step = Axiom(
    name="group_loss_step",
    title="definition: the group loss telescopes, G_{i+1} = G_i + ℓ_{i+1}",
    citation=_SOURCE_LOSS,
    relation=eq(G(i + 1), G(i) + ell(i + 1)),
    variables={i: naturals()},
)

_MEASURE = ("G_i = log m_0/m_i is the log density ratio of M(x_0) to M(x_i) at the chain's output "
            "(Radon–Nikodym; e.g. Billingsley, *Probability and Measure*, 3rd ed., §32, Thm 32.2 and (16.11))")

chain_base_measure = Axiom(
    name="chain_base_measure",
    title="definition: the chain's expectations are taken at an output of M(x_0)",
    citation="definition of the group loss's setting (Dwork & Roth 2014, proof of Thm 2.2): G_k and ℓ_i are "
             "evaluated at Y ~ M(x_0), so E_{M(x_0)}[·] is the plain expectation",
    relation=eq(ExpectAt(Y1, 0), Expect(Y1)),
    variables={Y1: real()},
)

chain_base_probability = Axiom(
    name="chain_base_probability",
    title="the chain's probabilities are taken at an output of M(x_0): an event of probability 1 under M(x_0) has "
          "probability 1, and so has every larger event",
    citation="as chain_base_measure, with Pr[A] = E[1[A]] (e.g. Billingsley, §16, (16.1)); {|Y_1| <= c} ⊆ "
             "{|Y_1| <= s} for c <= s",
    relation=eq(Prob(in_range(-s, Y1, s)), 1),
    variables={Y1: real(), c: nonnegative(), s: real()},
    conditions=(eq(ExpectAt(Indicator(in_range(-c, Y1, c)), 0), 1), le(c, s)),
)

chain_change_of_measure = Axiom(
    name="chain_change_of_measure",
    title="change of measure along the chain, for a non-negative variable",
    citation=_MEASURE + ": E_{M(x_0)}[e^{-G_i} Y_1] is the integral of m_i Y_1 over {m_0 > 0}, at most "
                        "E_{M(x_i)}[Y_1] for Y_1 >= 0",
    relation=le(Expect(sp.exp(-G(i)) * Y1), ExpectAt(Y1, i)),
    variables={i: naturals(), Y1: nonnegative()},
)

chain_null_sets = Axiom(
    name="chain_null_sets",
    title="absolute continuity along the chain: an event almost sure under M(x_i) is almost sure under M(x_0) "
          "when the group loss G_i is bounded",
    citation=_MEASURE + ": with |G_i| <= a M(x_0)-a.s., M(x_0)(B) = ∫_B e^{G_i} dM(x_i) <= e^a M(x_i)(B) for "
                        "every event B, so M(x_i)(B) = 0 gives M(x_0)(B) = 0",
    relation=eq(Prob(in_range(-c, Y1, c)), 1),
    variables={i: naturals(), Y1: real(), a: nonnegative(), c: nonnegative()},
    conditions=(eq(Prob(in_range(-a, G(i), a)), 1), eq(ExpectAt(Indicator(in_range(-c, Y1, c)), i), 1)),
)

AXIOMS = [group_loss_one, group_loss_step, chain_base_measure, chain_base_probability, chain_change_of_measure,
          chain_null_sets]


# -- ground truths -----------------------------------------------------------------------------------------
#
# The left side, Pr_{M(x_0)}[|G_k| <= bound], for mechanisms on a counting query with f(x_j) = j (every link is
# a neighbouring pair, sensitivity 1): the group loss is computed from the two end densities,
# log p_{x_0}(y) - log p_{x_k}(y), never from the chain or a closed form; the event is decided at the working
# precision up to a relative 10^-(dps-10) (the extreme loss kε is attained exactly, up to rounding).

def _inside(loss, bound):
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)) * max(1, abs(bound))
    return -bound - tol <= loss <= bound + tol


def _laplace_density(y, centre, e):
    return e / 2 * mpmath.exp(-e * abs(y - centre))


def laplace_group_loss(y, e, kk):
    """G_k at output ``y`` of the Laplace mechanism Lap(1/ε) on a counting query: log p_{x_0}(y)/p_{x_k}(y)."""
    return mpmath.log(_laplace_density(y, 0, e)) - mpmath.log(_laplace_density(y, kk, e))


def _crossing(f, lo, hi):
    """The point of [lo, hi] where the non-increasing ``f`` changes sign (f(lo) > 0 >= f(hi)), by bisection."""
    for _ in range(mpmath.mp.prec + 20):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        lo, hi = (mid, hi) if f(mid) > 0 else (lo, mid)
    return (lo + hi) / 2


def laplace_witness(e, kk, bound):
    """Pr_{M(x_0)}[|G_k| <= bound] for the Laplace mechanism, by quadrature of the density of M(x_0).

    The line is cut at the centres 0 and k (the kinks of the densities) and at the points of (0, k) where the
    loss crosses ±bound (bisection on the loss computed from the densities; outside [0, k] the loss is flat);
    the event is constant on each piece, decided at an inner point, and the density integrated over it.
    """
    loss = lambda y: laplace_group_loss(y, e, kk)
    cuts = {mpmath.mpf(0), mpmath.mpf(kk)}
    for level in (bound, -bound):
        f = lambda y, level=level: loss(y) - level
        if f(mpmath.mpf(0)) > 0 >= f(mpmath.mpf(kk)):
            cuts.add(_crossing(f, mpmath.mpf(0), mpmath.mpf(kk)))
    points = [-mpmath.inf] + sorted(cuts) + [mpmath.inf]
    total = mpmath.mpf(0)
    for lo, hi in zip(points, points[1:]):
        if lo == hi:
            continue
        inner = hi - 1 if lo == -mpmath.inf else (lo + 1 if hi == mpmath.inf else (lo + hi) / 2)
        if _inside(loss(inner), bound):
            total += mpmath.quad(lambda y: _laplace_density(y, 0, e), [lo, hi])
    return total


def geometric_witness(e, kk, bound):
    """Pr_{M(x_0)}[|G_k| <= bound] for the geometric (discrete Laplace) mechanism, P(y) ∝ e^{-ε|y - j|}, y ∈ Z.

    Enumeration over y in [-1, k + 1], the two tails y < -1 and y > k + 1 as geometric series of the
    probability mass function (the loss is computed at the first and at a far point of each tail, and must
    agree: the densities' ratio is constant there).
    """
    r = mpmath.exp(-e)
    norm = (1 - r) / (1 + r)
    pmf = lambda y, centre: norm * r ** abs(y - centre)
    loss = lambda y: mpmath.log(pmf(y, 0)) - mpmath.log(pmf(y, kk))
    total = mpmath.fsum(pmf(y, 0) for y in range(-1, kk + 2) if _inside(loss(y), bound))
    for first, far, mass in ((-2, -2 - 10 ** 6, pmf(-2, 0) / (1 - r)), (kk + 2, kk + 2 + 10 ** 6,
                                                                        pmf(kk + 2, 0) / (1 - r))):
        inside = _inside(loss(first), bound)
        if inside != _inside(loss(far), bound):
            raise ValueError("the loss is not constant on a tail")
        total += mass if inside else 0
    return total


def _ground_truth(total: sp.Expr):
    """Pr[|G_k| <= total] for two ε-DP mechanisms on a counting query, at the total the statement claims."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        bound = evaluate(total, v, MPContext(dps))
        e, kk = v[eps], int(v[k])
        return [("Laplace mechanism Lap(1/eps) on a counting query, f(x_j) = j, quadrature",
                 laplace_witness(e, kk, bound)),
                ("geometric mechanism (discrete Laplace, e^{-eps|y-j|}) on a counting query, enumeration",
                 geometric_witness(e, kk, bound))]

    return truth


# -- the theorem -------------------------------------------------------------------------------------------

_STEP_BOUND = f"condition {almost_sure_bound_sum.conditions[1].plain()}"


def _condition(fact, n: int = 0) -> str:
    return f"condition {fact.conditions[n].plain()}"


def make(total: sp.Expr = EPS_GROUP) -> Theorem:
    """Group privacy with the claimed group parameter ``total`` (tests build mutants with a wrong one)."""
    at = lambda n: total.xreplace({k: n})
    bounded = lambda n: Prob(in_range(-at(n), G(n), at(n)))
    base = (
        Chain(bounded(1))
        .eq(Prob(in_range(-at(1), ell(1), at(1))), by(group_loss_one))
        .eq(1, by(chain_base_probability, Y_1=ell(1), c=eps, s=at(1),
                  given={_condition(chain_base_probability): by(pure_dp, at_link=1)}))
    )
    # |ℓ_{k+1}| <= ε almost surely under M(x_k) (the hypothesis at the link (x_k, x_{k+1})), hence under M(x_0):
    # the induction hypothesis bounds G_k, so M(x_0) has a bounded density with respect to M(x_k)
    link = Chain(Prob(in_range(-eps, ell(k + 1), eps))).eq(1, by(
        chain_null_sets, i=k, Y_1=ell(k + 1), a=total, c=eps,
        given={_condition(chain_null_sets, 1): by(pure_dp, at_link=k + 1)}))
    step = (
        Chain(bounded(k + 1))
        .eq(Prob(in_range(-at(k + 1), G(k) + ell(k + 1), at(k + 1))), by(group_loss_step, i=k))
        .eq(1, by(almost_sure_bound_sum, Y_1=G(k), Y_2=ell(k + 1), a=total, b=eps, s=at(k + 1),
                  given={_STEP_BOUND: link}))
    )  # the first condition, |G_k| <= total a.s., is the induction hypothesis (in scope, matched by content)
    proof = Chain(bounded(k)).eq(1, induction(k, base, step))
    return Theorem(
        name="pure_dp_group_privacy",
        reference="R-G5",
        source="Dwork & Roth 2014, Thm 2.2; Dwork, McSherry, Nissim & Smith 2006",
        title="group privacy for pure DP",
        notion="group(size=k, DP(eps)) is DP(k*eps)",
        variables={k: naturals(sample_lo=1, sample_hi=60),
                   eps: positive(sample_lo=1e-3, sample_hi=5, log_scale=True)},
        hypotheses=(pure_dp,),
        parts=(Part("main", eq(bounded(k), 1), proof=proof, ground_truth=_ground_truth(total)),),
        numeric_points=({"k": "1", "eps": "1"}, {"k": "2", "eps": "0.5"}, {"k": "10", "eps": "0.1"},
                        {"k": "100", "eps": "0.01"}, {"k": "7", "eps": "3"}, {"k": "300", "eps": "0.7"}),
        property_examples=30,
        tight="the Laplace mechanism on a counting query attains G_k = kε on y <= 0 (probability 1/2).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("(k − 1)ε: one link removed", make((k - 1) * eps)),
        ("√k ε: k replaced by √k", make(sp.sqrt(k) * eps)),
        ("kε/2: halved", make(k * eps / 2)),
        ("(k − 1/2)ε: half a link removed", make((k - sp.Rational(1, 2)) * eps)),
    ]
