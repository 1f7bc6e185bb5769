r"""The trusted base of the composition theorems: the composition game, the tower rule, a few facts.

These are the statements the composition results (``subgaussian_sum``,
``cdp_composition``, ``zcdp_composition``, the advanced composition
theorems) take without a proof chain, in the style of :mod:`theorems.foundations`:
each is a definition or a classical fact, with its citation.

Vocabulary (the objects every composition module shares)
---------------------------------------------------------
* ``X(i)``, ``S(k)`` — an adapted sequence and its partial sums
  :math:`S_k=X_1+\dots+X_k`, :math:`S_0=0` (DR16 Lemma 2.2).  "Adapted" means
  each :math:`X_i` is revealed after a *prefix* (the history up to step
  :math:`i-1`), and :math:`S_{i-1}` is a function of that prefix.
* ``CondExpect(Y, i)`` — :math:`\mathbb E[Y\mid\mathcal F_{i-1}]`, where the *prefix*
  :math:`\mathcal F_{i-1}` is the whole history before step :math:`i`: the
  adversary's coins and the outputs of steps :math:`1,\dots,i-1` (the view of
  DRV10).  Given it, the pair of step :math:`i` is fixed, so the conditional law
  of step :math:`i` is that of one pair of the class.
* ``CondMGF(Y, lam, i)`` — for a step-:math:`i` quantity :math:`Y`, the largest
  conditional moment generating function over prefixes,
  :math:`\operatorname{ess\,sup}_{\text{prefix}}\mathbb E[e^{\lambda Y}\mid\text{prefix}]`
  (a number in :math:`(0,\infty]`).  "For every prefix, :math:`X_i` given the
  prefix is :math:`\tau`-subgaussian" is ``CondMGF(X(i), lam, i) <= exp(lam**2*tau**2/2)``.
* The DRV10 composition game (DR16 §3.1): at step :math:`i` the adversary
  picks, from the prefix, a mechanism and a neighbouring pair; ``C(i)`` is
  the privacy loss of that step's pair at its output, ``L_k(k)`` the composed
  loss, ``M(i)`` = :math:`\mathbb E[C_i\mid\text{prefix}]` the step's
  conditional mean (a random variable), ``D(k)`` = :math:`M_1+\dots+M_k` the
  compensator, and ``Pk(k)``, ``Qk(k)`` the two views of the whole game
  (the composed neighbouring pair).
* ``Z`` — a standard normal random variable, :math:`Z\sim N(0,1)`.

The canonical pair ``(P, Q)`` with loss ``L`` denotes, in a scope, **any**
pair of the class its hypotheses describe: a hypothesis on it ("E[L] <= mu")
is a hypothesis on the whole class.  The kernel's **class-member rule**
(``by(fact, at_step=i)``, docs/kernel.md) applies such a fact -- a hypothesis,
or a one-pair theorem such as ``cdp_of_pure_dp_hoeffding`` or
``zcdp_of_pure_dp`` instantiated from them -- to the pair the adversary picks
at step ``i`` given any prefix: it yields "almost surely, T(A) <= T(B)", with
``L`` read as ``C_i`` and expectations and probabilities conditional on the
prefix (``CondExpect``).  Textbook facts about conditional expectations turn
that into what the proofs use: the tower rule (``tower_mean_bound``,
``tower_almost_sure``), the definition of the essential supremum
(``conditional_mgf_bound``) and of the conditional mean ``M_i``
(``conditional_mean_definition``).  No DP-specific statement is assumed.

Trusted facts: the **tower rule** for conditional expectations in two
forms (partial sums, composed loss), additivity of expectation, the **union
bound**, the tail condition for the composed pair (R-A6), the mean and the
moment generating function of a standard normal variable, and the
definitions above.  (Affine linearity of expectation with the random
variable as a variable is ``foundations_convexity.expectation_affine``.)

References
----------
* Dwork & Rothblum 2016, §3.1 and proofs of Lemma 2.2, Thm 3.4, arXiv:1603.01887v2.
* Dwork, Rothblum & Vadhan 2010 (the composition game; the composed loss is the sum of the step losses).
* Bun & Steinke 2016, proof of Lemma 2.3 (composition), arXiv:1605.02065.
* Williams, *Probability with Martingales*, 1991, §9.7 (tower property, taking out what is known).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, a, b, eps, i, k, lam, naturals, real, s
from cdpsym.expr.symbols import declare_random, describe
from cdpsym.expr.operators import (ClassP, ClassQ, ClassRatio, ComposedRatio, CondExpect, Expect, HockeyStick,
                                   Indicator, Opaque, P, Prob, Q, StepLoss, StepRatio)
from cdpsym.expr.symbols import R
from cdpsym.proof import Axiom, eq, le, register_opaque

__all__ = ["Z", "X", "S", "C", "L_k", "M", "D", "Pk", "Qk", "CondMGF", "c", "Y1", "Y2",
           "partial_sums_start", "partial_sums_step", "tower_mgf_partial_sums",
           "composed_loss_start", "composed_loss_step", "compensator_start", "compensator_step",
           "tower_mgf_composed", "conditional_mean_definition", "tower_mean_bound", "conditional_mgf_bound",
           "tower_almost_sure", "condition",
           "union_bound", "tail_condition_composed", "expectation_additive", "hockey_stick_ratio_form",
           "hockey_stick_ratio_form_class", "hockey_stick_ratio_form_composed", "composed_ratio_start",
           "composed_ratio_step",
           "standard_normal_mean", "standard_normal_mgf", "AXIOMS", "normal_expectation", "to_arb"]


def _in_range(lo: sp.Expr, var: sp.Expr, hi: sp.Expr) -> sp.And:
    """The event ``lo <= var <= hi`` (as ``foundations_convexity.in_range``)."""
    return sp.And(sp.Le(lo, var), sp.Le(var, hi))


def _sequence(name: str, tex_name: str) -> sp.FunctionClass:
    """A real-valued sequence ``name(i)`` printed as ``tex_name_{i}``."""
    return sp.Function(name, real=True,
                       _latex=lambda self, printer, exp=None: (r"%s_{%s}" % (tex_name, printer._print(self.args[0]))
                                                               + (f"^{{{exp}}}" if exp else "")))


def _view(name: str) -> sp.FunctionClass:
    return sp.Function(name, _latex=lambda self, printer, exp=None: r"%s^{(%s)}" % (name[0],
                                                                                   printer._print(self.args[0])))


Z = sp.Symbol("Z", real=True)  # a standard normal random variable
X = _sequence("X", "X")  # an adapted sequence (in the composition theorems: the compensated step losses)
S = _sequence("S", "S")  # its partial sums
C = StepLoss  # the privacy loss of step i of the composition game (the kernel's class-member rule reads L as C_i)
L_k = _sequence("L", "L")  # the composed privacy loss after k steps
M = _sequence("M", "M")  # E[C_i | prefix], the conditional mean of step i
D = _sequence("D", "D")  # the compensator D_k = M_1 + ... + M_k
Pk = _view("Pk")  # the view of the k-step game on x
Qk = _view("Qk")  # ... and on the neighbour x'
c = sp.Symbol("c", real=True)  # a bound
Y1 = sp.Symbol("Y_1", real=True)  # random variables in linearity / union-bound statements
Y2 = sp.Symbol("Y_2", real=True)
declare_random(Z, Y1, Y2)

describe(Z, r"$Z \sim \mathcal{N}(0, 1)$ is a standard normal random variable", 4)
describe(Pk, r"$P^{(k)}, Q^{(k)}$ are the output distributions of the $k$-fold (adaptive) composition", 10)
describe(C, r"$C_i$ is the privacy loss of step $i$ of a composition, on the outputs of steps $1, \dots, i-1$ "
            r"(the \emph{prefix}) chosen by the adversary", 11)
describe(L_k, r"$L_k = C_1 + \dots + C_k$ is the privacy loss of the $k$-fold composition", 12)
describe(M, r"$M_i = \mathbb{E}[C_i \mid \mathrm{prefix}]$ is the conditional mean of step $i$'s loss; "
            r"$D_k = M_1 + \dots + M_k$", 13)
describe(X, r"$X_i = C_i - M_i$ is the compensated loss of step $i$; $S_k = X_1 + \dots + X_k$", 14)


class CondMGF(Opaque):
    r"""``CondMGF(Y, lam, i)``: :math:`\operatorname{ess\,sup}\mathbb E[e^{\lambda Y}\mid\mathcal F_{i-1}]`, the largest
    conditional moment generating function of ``Y`` over the prefixes of step ``i``.

    Never evaluated; in (0, +oo] (it bounds a conditional expectation of a
    positive variable, and may be infinite).  Only the tower rule and the
    definition of the essential supremum (``conditional_mgf_bound``) relate it
    to other quantities.
    """

    nargs = 3

    def _eval_is_extended_positive(self):
        return True

    def _latex(self, printer, exp=None):
        y, l, n = self.args
        body = (r"\operatorname{ess\,sup}\,\mathbb{E}\left[e^{%s}\,\middle|\,\mathcal{F}_{%s}\right]"
                % (printer._print(sp.Mul(l, y)), printer._print(n - 1)))  # the exponent as sympy prints it
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)


register_opaque(CondMGF)  # its typing (in (0, +oo]) is part of the trusted base
describe(CondMGF, r"$\operatorname{ess\,sup}\, \mathbb{E}[\,\cdot \mid \mathcal{F}_{i-1}]$ is the largest "
                  r"conditional expectation over the prefixes of step $i$ the adversary can produce", 83)

_SOURCE_GAME = "Dwork & Rothblum 2016, §3.1, arXiv:1603.01887v2; Dwork, Rothblum & Vadhan 2010, §III"
_SOURCE_TOWER = ("tower rule: Williams 1991, §9.7 (i), (j); "
                 "Dwork & Rothblum 2016, proof of Lemma 2.2, arXiv:1603.01887v2")

# -- partial sums (DR16 Lemma 2.2) -------------------------------------------------------------------

partial_sums_start = Axiom(
    name="partial_sums_start",
    title="definition: the empty partial sum is 0",
    citation="definition (Dwork & Rothblum 2016, Lemma 2.2, arXiv:1603.01887v2)",
    relation=eq(S(0), 0),
)

partial_sums_step = Axiom(
    name="partial_sums_step",
    title="definition: S_i = S_{i-1} + X_i",
    citation="definition (Dwork & Rothblum 2016, Lemma 2.2, arXiv:1603.01887v2)",
    relation=eq(S(i), S(i - 1) + X(i)),
    variables={i: naturals()},
)

tower_mgf_partial_sums = Axiom(
    name="tower_mgf_partial_sums",
    title="the **tower rule**: E[e^{λS_{i-1}} e^{λX_i}] ≤ sup_prefix E[e^{λX_i} | prefix] · E[e^{λS_{i-1}}]",
    citation=_SOURCE_TOWER,
    relation=le(Expect(sp.exp(lam * S(i - 1)) * sp.exp(lam * X(i))),
                CondMGF(X(i), lam, i) * Expect(sp.exp(lam * S(i - 1)))),
    variables={i: naturals(), lam: real()},
)

# -- the composition game ----------------------------------------------------------------------------

composed_loss_start = Axiom(
    name="composed_loss_start",
    title="definition: the empty composition has privacy loss 0",
    citation=_SOURCE_GAME,
    relation=eq(L_k(0), 0),
)

composed_loss_step = Axiom(
    name="composed_loss_step",
    title="the composed privacy loss is the sum of the step losses (the adversary's coins cancel)",
    citation=_SOURCE_GAME + "; proof of Thm 3.4",
    relation=eq(L_k(i), L_k(i - 1) + C(i)),
    variables={i: naturals()},
)

compensator_start = Axiom(
    name="compensator_start",
    title="definition: the empty compensator is 0",
    citation="definition (Doob decomposition; Williams 1991, §12.11)",
    relation=eq(D(0), 0),
)

compensator_step = Axiom(
    name="compensator_step",
    title="definition: D_i = D_{i-1} + M_i, M_i = E[C_i | prefix]",
    citation="definition (Doob decomposition; Williams 1991, §12.11)",
    relation=eq(D(i), D(i - 1) + M(i)),
    variables={i: naturals()},
)

tower_mgf_composed = Axiom(
    name="tower_mgf_composed",
    title="the **tower rule**: E[e^{λL_{i-1}} e^{λC_i}] ≤ sup_prefix E[e^{λC_i} | prefix] · E[e^{λL_{i-1}}]",
    citation=_SOURCE_TOWER + "; Bun & Steinke 2016, proof of Lemma 2.3, arXiv:1605.02065",
    relation=le(Expect(sp.exp(lam * L_k(i - 1)) * sp.exp(lam * C(i))),
                CondMGF(C(i), lam, i) * Expect(sp.exp(lam * L_k(i - 1)))),
    variables={i: naturals(), lam: real()},
)

#: the bridges between the class-member rule's conclusions (``by(fact, at_step=i)``: a fact about every pair of
#: the class holds, for every prefix, of step i's conditional law -- docs/kernel.md) and the quantities the
#: composition proofs use: textbook facts about conditional expectations, each for any random variable Y_1

_QUASI = ("for Y_1 whose conditional expectation exists (E[max(-Y_1, 0)] or E[max(Y_1, 0)] finite; a privacy loss "
          "has E[max(-L, 0)] <= E[e^{-L}] <= 1)")

conditional_mean_definition = Axiom(
    name="conditional_mean_definition",
    title="definition: M_i is the conditional mean of step i's loss given the prefix, where that is finite",
    citation="definition (Doob decomposition; Williams 1991, §12.11).  M_i is a real random variable, so the "
             "definition needs E[C_i | F_{i-1}] finite almost surely.  It is never −∞, since "
             "E[max(-C_i, 0) | F_{i-1}] <= E[e^{-C_i} | F_{i-1}] <= 1 for a privacy loss, and it is at most c almost "
             "surely by the condition",
    relation=eq(M(i), CondExpect(C(i), i)),
    variables={i: naturals(), c: real()},
    conditions=(le(Prob(sp.StrictGreaterThan(CondExpect(C(i), i), c)), 0),),
)

tower_mean_bound = Axiom(
    name="tower_mean_bound",
    title="the **tower rule** with monotonicity: a conditional mean at most c almost surely bounds the mean",
    citation="Williams 1991, §9.7 (a) E[E[Y | F]] = E[Y] and (d) monotonicity, " + _QUASI,
    relation=le(Expect(Y1), c),
    variables={Y1: real(), i: naturals(), c: real()},
    conditions=(le(Prob(sp.StrictGreaterThan(CondExpect(Y1, i), c)), 0),),
)

conditional_mgf_bound = Axiom(
    name="conditional_mgf_bound",
    title="definition of the essential supremum: a conditional MGF at most c almost surely bounds its supremum",
    citation="definition of ess sup (e.g. Williams 1991, §6.11 and §9.7); the supremum over prefixes of "
             "E[e^{λ Y_1} | prefix] is the essential supremum of the conditional expectation given F_{i-1}",
    relation=le(CondMGF(Y1, lam, i), c),
    variables={Y1: real(), lam: real(), i: naturals(), c: real()},
    conditions=(le(Prob(sp.StrictGreaterThan(CondExpect(sp.exp(lam * Y1), i), c)), 0),),
)

tower_almost_sure = Axiom(
    name="tower_almost_sure",
    title="the **tower rule** for an event: conditional probability 1 almost surely gives probability 1",
    citation="Williams 1991, §9.7 (a): Pr[A] = E[E[1_A | F]] >= 1 and Pr[A] <= 1; {|Y_1| <= c} ⊆ {|Y_1| <= s} "
             "for c <= s",
    relation=eq(Prob(_in_range(-s, Y1, s)), 1),
    # c < 0: the event |Y_1| <= c is empty, its conditional probability 0, so the condition fails: vacuous
    variables={Y1: real(), i: naturals(), c: real(), s: real()},
    conditions=(le(Prob(sp.StrictGreaterThan(1, CondExpect(Indicator(_in_range(-c, Y1, c)), i))), 0), le(c, s)),
)


def condition(fact, n: int = 0) -> str:
    """The ``given=`` key of ``fact``'s ``n``-th condition."""
    return f"condition {fact.conditions[n].plain()}"


tail_condition_composed = Axiom(
    name="tail_condition_composed",
    title="the hockey-stick divergence of the composed pair is at most the tail of the composed loss",
    reference="R-A6",
    citation="Bun & Steinke 2016, §3, arXiv:1605.02065 (the tail condition, for the pair (P^(k), Q^(k)) "
             "whose privacy loss is L_k); " + _SOURCE_GAME,
    relation=le(HockeyStick(eps, Pk(k), Qk(k)), Prob(sp.StrictGreaterThan(L_k(k), eps))),
    variables={eps: real(), k: naturals()},
)

# -- the likelihood ratio: the hockey-stick divergence as an expectation (approximate DP) --------------------------
#
# An (ε, δ)-DP pair may put mass where the other has none, so its privacy loss may be +oo; the likelihood ratio
# R = q/p (at an output drawn from P; 0 where q vanishes) is a non-negative real at every outcome, and the
# hockey-stick divergence is the mean of a bounded function of it.  These are definitions, stated for the three
# kinds of pair the composition theorems speak of: the canonical pair, a pair of class i, the composed pair.

_SOURCE_HOCKEY = ("the hockey-stick divergence as an f-divergence: sup_S P(S) − e^c Q(S) = ∫ (p − e^c q)_+ "
                  "(attained at S = {p > e^c q}; Barthe & Olmedo 2013, ICALP; Balle, Barthe & Gaboardi 2018, NeurIPS, §2, "
                  "arXiv:1807.01647), and ∫ (p − e^c q)_+ = E_P[(1 − e^c q/p)_+] since the "
                  "integrand vanishes where p = 0")

hockey_stick_ratio_form = Axiom(
    name="hockey_stick_ratio_form",
    title="the hockey-stick divergence is the mean of (1 − e^c R)_+ under P, R = q/p the likelihood ratio",
    reference="R-A6",
    citation=_SOURCE_HOCKEY,
    relation=eq(HockeyStick(c, P, Q), Expect(sp.Max(0, 1 - sp.exp(c) * R))),
    variables={c: real()},
)

hockey_stick_ratio_form_class = Axiom(
    name="hockey_stick_ratio_form_class",
    title="the hockey-stick divergence of a pair of class i is the mean of (1 − e^c R^{(i)})_+ under P_i",
    reference="R-A6",
    citation=_SOURCE_HOCKEY + " (for the pair (P_i, Q_i) of class i, whose likelihood ratio is R^{(i)})",
    relation=eq(HockeyStick(c, ClassP(i), ClassQ(i)), Expect(sp.Max(0, 1 - sp.exp(c) * ClassRatio(i)))),
    variables={c: real(), i: naturals()},
)

hockey_stick_ratio_form_composed = Axiom(
    name="hockey_stick_ratio_form_composed",
    title="the hockey-stick divergence of the composed pair is the mean of (1 − e^c Λ_k)_+, Λ_k its likelihood ratio",
    reference="R-A6",
    citation=_SOURCE_HOCKEY + " (for the composed pair (P^(k), Q^(k)), whose likelihood ratio is Λ_k); " + _SOURCE_GAME,
    relation=eq(HockeyStick(c, Pk(k), Qk(k)), Expect(sp.Max(0, 1 - sp.exp(c) * ComposedRatio(k)))),
    variables={c: real(), k: naturals()},
)

composed_ratio_start = Axiom(
    name="composed_ratio_start",
    title="definition: the empty composition has likelihood ratio 1",
    citation=_SOURCE_GAME,
    relation=eq(ComposedRatio(0), 1),
)

composed_ratio_step = Axiom(
    name="composed_ratio_step",
    title="the composed likelihood ratio is the product of the step ratios (the adversary's coins cancel)",
    citation=_SOURCE_GAME + "; the density of the view on x is the adversary's coins' density times "
                            "p_1(y_1 | ·) ... p_k(y_k | prefix), and on x' the same with q_j, so that on the support of "
                            "P^(k) the ratio of the views' densities is the product of the steps' ratios",
    relation=eq(ComposedRatio(i), ComposedRatio(i - 1) * StepRatio(i)),
    variables={i: naturals()},
)

# -- probability and expectation -----------------------------------------------------------------------

union_bound = Axiom(
    name="union_bound",
    title="the **union bound**: Pr[Y_1 + Y_2 > a + b] ≤ Pr[Y_1 > a] + Pr[Y_2 > b]",
    citation="Boole's inequality, {Y_1 + Y_2 > a + b} ⊆ {Y_1 > a} ∪ {Y_2 > b}; e.g. Feller, Vol. I, §IV.1",
    relation=le(Prob(sp.StrictGreaterThan(Y1 + Y2, a + b)),
                Prob(sp.StrictGreaterThan(Y1, a)) + Prob(sp.StrictGreaterThan(Y2, b))),
    variables={Y1: real(), Y2: real(), a: real(), b: real()},
)

expectation_additive = Axiom(
    name="expectation_additive",
    title="linearity of expectation for the composed and the step privacy loss: E[L_{i-1} + C_i] = E[L_{i-1}] + E[C_i]",
    citation="e.g. Feller, Vol. II, §V.4 (additivity for variables whose negative parts are integrable); a privacy "
             "loss L has E[max(-L, 0)] <= E[e^{-L}] <= 1 (Dwork & Rothblum 2016, §2.1, arXiv:1603.01887v2), so both "
             "expectations exist in (−∞, +∞]",
    relation=eq(Expect(L_k(i - 1) + C(i)), Expect(L_k(i - 1)) + Expect(C(i))),
    variables={i: naturals()},
)

def _std_normal_mgf_truth(v, dps):
    ll = v[lam]
    f = lambda z: mpmath.exp(ll * z - z ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)
    return [("quadrature", mpmath.quad(f, [-mpmath.inf, ll, mpmath.inf]))]


def _std_normal_mean_truth(v, dps):
    f = lambda z: z * mpmath.exp(-z ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)
    return [("quadrature", mpmath.quad(f, [-mpmath.inf, 0, mpmath.inf]))]


standard_normal_mean = Axiom(
    name="standard_normal_mean",
    title="a standard normal variable has mean 0",
    citation="e.g. Feller, Vol. II, §II.1",
    relation=eq(Expect(Z), 0),
    ground_truth=_std_normal_mean_truth,
    numeric_points=({},),
    property_examples=1,
)

standard_normal_mgf = Axiom(
    name="standard_normal_mgf",
    title="the moment generating function of a standard normal variable",
    citation="e.g. Feller, Vol. II, §XV.2",
    relation=eq(Expect(sp.exp(lam * Z)), sp.exp(lam ** 2 / 2)),
    variables={lam: real(sample_lo=-6, sample_hi=6)},
    ground_truth=_std_normal_mgf_truth,
    numeric_points=({"lam": "1.9"}, {"lam": "-2.5"}, {"lam": "0"}),
    property_examples=12,
)

# -- a quadrature helper for the ground truths of the composition modules -------------------------------

def to_arb(x):
    """The mpmath number ``x`` as an exact Arb ball (set ``flint.ctx.prec`` first)."""
    import flint

    sign, man, exp, _ = mpmath.mpf(x)._mpf_
    if not man:
        return flint.arb(0)
    m = -int(man) if sign else int(man)
    return flint.arb(flint.fmpz(m) * flint.fmpz(2) ** exp) if exp >= 0 else flint.arb(flint.fmpq(m, 2 ** (-exp)))


def normal_expectation(g, lo, hi, *constants):
    r"""E[g(U, c_1, …); lo < U < hi] for U ~ N(0, 1) by Arb's rigorous quadrature (``acb.integral``), as an mpf.

    ``g(u, *constants)`` takes Arb complex balls (the mpmath ``constants`` are converted exactly at the
    working precision) and must be analytic on the interval (exponentials, polynomials).  The integral
    is computed at the mpmath working precision plus 40 bits and refused (``ValueError``) if its
    enclosure is wider than the working precision (relative, or absolute for values below 1).
    """
    import flint

    old = flint.ctx.prec
    flint.ctx.prec = mpmath.mp.prec + 40
    try:
        args = [to_arb(x) for x in constants]
        integral = flint.acb.integral(lambda u, analytic: g(u, *args) * (-(u * u) / 2).exp(), to_arb(lo), to_arb(hi))
        value = integral.real / (2 * flint.arb.pi()).sqrt()
        man, exp = value.mid().man_exp()
        mid = mpmath.mpf((int(man), int(exp)))
        man_r, exp_r = value.rad().mid().man_exp()
        if man_r and mpmath.mpf((int(man_r), int(exp_r))) > max(abs(mid), 1) * mpmath.mpf(2) ** (-mpmath.mp.prec + 4):
            raise ValueError(f"quadrature did not reach the working precision: {value}")
        return mid
    finally:
        flint.ctx.prec = old


AXIOMS = [partial_sums_start, partial_sums_step, tower_mgf_partial_sums, composed_loss_start, composed_loss_step,
          compensator_start, compensator_step, tower_mgf_composed, conditional_mean_definition, tower_mean_bound,
          conditional_mgf_bound, tower_almost_sure, union_bound, tail_condition_composed, expectation_additive,
          hockey_stick_ratio_form, hockey_stick_ratio_form_class, hockey_stick_ratio_form_composed,
          composed_ratio_start, composed_ratio_step, standard_normal_mean, standard_normal_mgf]
