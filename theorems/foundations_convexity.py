"""Trusted base, continued: convexity, linearity, Gibbs, finite KL.

Axioms cited by ``hoeffding_lemma``, ``kl_of_pure_dp``, ``antipodal_kl``,
``cdp_of_pure_dp_hoeffding`` and ``zcdp_of_pure_dp``.  Each is a textbook fact
or a definition from REFERENCE.md, with its citation.

Main facts
----------
* ``exp_chord_bound`` — the **chord bound**: x ↦ e^{λx} is convex, so on
  [a, b] it lies below its chord; take expectations (monotonicity of E).
  This one inequality is both the first step of **Hoeffding's lemma** and the
  rounding argument of Steinke 2024 (mean-preserving two-point rounding onto
  the endpoints increases E f for convex f).
* ``expectation_affine`` — linearity of expectation, E[aX + b] = a E[X] + b,
  for *any* random variable X (``X`` is one of its variables, so it can be
  instantiated at ``L`` or at ``exp(λL)``).
* ``kl_nonnegative`` — **Gibbs' inequality**, D_KL(P‖Q) >= 0.
* ``kl_three_atom_definition`` — the definition of D_KL (R-A2) written out for
  two distributions on three atoms whose third atom has the same mass r in
  both (its term r log(r/r) vanishes, also for r = 0 by 0·log(0/0) := 0).

References
----------
* Hoeffding 1963, *Probability inequalities for sums of bounded random variables*, JASA 58, eq. (4.16).
* Dwork & Rothblum 2016, Def 2.1, Lemma 3.6 (proof), arXiv:1603.01887v2.
* Steinke 2024, *Tight RDP & zCDP Bounds from Pure DP*, DifferentialPrivacy.org (rounding argument).
* Cover & Thomas 2006, *Elements of Information Theory*, 2nd ed., Thm 2.6.3 (Gibbs' inequality).
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import X, a, b, greater_than, lam, nonnegative, positive, r, real
from cdpsym.expr.operators import KL, Expect, P, Prob, Q
from cdpsym.proof import Axiom, eq, le

__all__ = ["exp_chord_bound", "expectation_affine", "kl_nonnegative", "kl_three_atom_definition",
           "in_range", "AXIOMS"]


def in_range(lo: sp.Expr, var: sp.Expr, hi: sp.Expr) -> sp.And:
    """The event ``lo <= var <= hi`` (the kernel canonicalizes it to ``lo - var <= 0 and var - hi <= 0``)."""
    return sp.And(sp.Le(lo, var), sp.Le(var, hi))


exp_chord_bound = Axiom(
    name="exp_chord_bound",
    title="the **chord bound** for the convex function exp(λx) of x on [a, b], in expectation",
    reference="R-B12",
    citation="convexity of exp and monotonicity of E; Hoeffding 1963, eq. (4.16); "
             "Dwork & Rothblum 2016, proof of Lemma 3.6, arXiv:1603.01887v2; Steinke 2024 (rounding)",
    relation=le(Expect(sp.exp(lam * X)),
                Expect(((b - X) * sp.exp(lam * a) + (X - a) * sp.exp(lam * b)) / (b - a))),
    variables={lam: real(), a: real(), b: greater_than(a), X: real()},
    conditions=(eq(Prob(in_range(a, X, b)), 1),),
)
# No ground truth: both sides are expectations (the numeric kernel evaluates the right side of a
# statement from the statement itself).  tests/theorems/test_foundations_convexity.py checks it on
# random finite distributions instead.

expectation_affine = Axiom(
    name="expectation_affine",
    title="linearity of expectation: E[aX + b] = a E[X] + b, for every random variable X",
    citation="e.g. Feller, Vol. I, §IX.2",
    relation=eq(Expect(a * X + b), a * Expect(X) + b),
    variables={a: real(), b: real(), X: real()},
)

kl_nonnegative = Axiom(
    name="kl_nonnegative",
    title="**Gibbs' inequality**: the KL divergence is non-negative",
    reference="R-A2",
    citation="Cover & Thomas 2006, Thm 2.6.3",
    relation=le(0, KL(P, Q)),
)

# Bound variables of the three-atom definition (not canonical symbols: they only live in this axiom).
p1, p2, q1, q2 = sp.symbols("p1 p2 q1 q2", positive=True)

kl_three_atom_definition = Axiom(
    name="kl_three_atom_definition",
    title="definition of the KL divergence on three atoms, the third with equal mass r in both",
    reference="R-A2",
    citation="Dwork & Rothblum 2016, Def 2.1, arXiv:1603.01887v2; the common atom contributes r log(r/r) = 0",
    relation=eq(KL(sp.Tuple(p1, p2, r), sp.Tuple(q1, q2, r)),
                p1 * sp.log(p1 / q1) + p2 * sp.log(p2 / q2)),
    variables={p1: positive(), p2: positive(), q1: positive(), q2: positive(), r: nonnegative()},
    conditions=(eq(p1 + p2 + r, 1), eq(q1 + q2 + r, 1)),
)


AXIOMS = [exp_chord_bound, expectation_affine, kl_nonnegative, kl_three_atom_definition]
