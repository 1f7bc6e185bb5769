"""Adversarial tests of the proof kernel: false statements it must never call *proved* or *certified*.

Each ``test_<class>_...`` builds a false statement with a proof attempt through the public API and
asserts the verdict is not in {"proved", "certified"}: "failed" and "supported" are fine, and so is a
:class:`cdpsym.errors.ProofError` raised while the attempt is built or checked (a refusal).

Classes (see the module sections):

* A -- the step's relation symbol is not checked (``<`` closed by a rule that only shows ``=`` or ``<=``);
* B -- an interval box not tied to the declared domain;
* C -- non-smooth / singular functions in ``taylor`` and in monotone ``inside=`` contexts;
* D -- domains wider than the symbol's sympy assumptions, and re-declared (shadowed) variables;
* E -- induction: k-dependent domains and hypotheses, re-declared k, user-built induction hypotheses;
* F -- citing hypotheses and theorems (forged copies, dropped conditions, domain text, ``given``);
* G -- variable capture under binders (Integral, Sum);
* H -- integer domains with a symbolic lower bound;
* M -- miscellaneous (unknown ops, inspecting callables, oo/zoo/nan, removable singularities,
  infinite divergences, forged results, mutation after checking).

Tests named ``test_<class>_true_...`` are TRUE counterparts: they must stay provable, so the suite
shows the kernel is not simply refusing everything.
"""

from __future__ import annotations

import dataclasses
import itertools

import pytest
import sympy as sp

import cdpsym.proof as proof
from cdpsym.errors import ProofError
from cdpsym.expr import (Interval, alpha, at_least, eps, greater_than, k, mu, naturals, nonnegative, open_unit,
                         positive, real, rho, s, sigma, u, x, y, X)
from cdpsym.expr.operators import KL, Expect, P, Prob, Q, Renyi, normal_density
from cdpsym.proof import (Axiom, Chain, Hypothesis, Part, Step, StepResult, Theorem, by, eq, induction, interval,
                          le, lt, sign, specialize, symbolic_check, taylor)
from cdpsym.proof import algebra as _algebra_record
from cdpsym.proof.algebra import Context
from cdpsym.proof.kernel import Justification

try:  # the library axiom cited in class G; the library may be mid-rewrite
    from theorems.foundations import gaussian_integral
except Exception:  # noqa: BLE001
    gaussian_integral = None

algebra = _algebra_record  # the justification record (cdpsym.proof.algebra is also a module name)

PROVEN = {"proved", "certified"}

# -- helpers -----------------------------------------------------------------------------------------

_register = getattr(proof, "register_axioms", None)
REGISTRATION_ERRORS: list[str] = []


def register(*axioms: Axiom) -> None:
    """Admit TRUE axioms to the trusted base (a no-op on a kernel without one)."""
    if _register is None:
        return
    for ax in axioms:
        try:
            _register(ax)
        except ProofError as exc:  # already registered under that name by another object: recorded
            REGISTRATION_ERRORS.append(str(exc))


_counter = itertools.count()


def uname(tag: str) -> str:
    """A theorem name unique in the session (results are cached per object, circularity is by name)."""
    return f"adv_{tag}_{next(_counter)}"


def verdict(build) -> str:
    """The kernel's verdict on what ``build()`` returns, or "refused" if building/checking raises ProofError.

    ``build()`` returns a Theorem (verdict: ``symbolic_check(thm).status``) or a ``(chain, ctx)`` pair
    (verdict: the weakest status of the chain's steps checked in ``ctx``).
    """
    try:
        obj = build()
        if isinstance(obj, Theorem):
            return symbolic_check(obj).status
        chain, ctx = obj
        results = chain.check(ctx if ctx is not None else Context())
        if not results:
            return "failed"
        order = {"proved": 3, "certified": 2, "supported": 1, "failed": 0}
        return min((r.status for r in results), key=lambda st: order.get(st, -1))
    except ProofError:
        return "refused"


def refused(build) -> bool:
    """True when the kernel does not report the statement proved or certified."""
    return verdict(build) not in PROVEN


def assert_refused(build) -> None:
    v = verdict(build)
    assert v not in PROVEN, f"the kernel reports a FALSE statement as {v!r}"


def assert_proved(build, want=("proved",)) -> None:
    v = verdict(build)
    assert v in want, f"a TRUE statement is {v!r}, expected {want}"


def thm(tag, relation, chain, variables=None, hypotheses=()) -> Theorem:
    return Theorem(name=uname(tag), reference="R-test", source="test", title="t", variables=dict(variables or {}),
                   hypotheses=tuple(hypotheses), parts=(Part("main", relation, proof=chain),))


# opaque functions and symbols
f = sp.Function("f", real=True)
g = sp.Function("g", real=True)
A = sp.Function("A", real=True)()
B = sp.Function("B", real=True)()
c = sp.Symbol("c", real=True)
j = sp.Symbol("j", integer=True)
n = sp.Symbol("n", integer=True)
mi = sp.Symbol("mi", integer=True)
mr = sp.Symbol("mr", real=True)
half = sp.Rational(1, 2)

# TRUE axioms, registered (unique adv_ names)
ADV_LE_SUCC = Axiom("adv_le_succ", le(x, x + 1), {x: real()}, citation="arithmetic")
ADV_LT_SUCC = Axiom("adv_lt_succ", lt(x, x + 1), {x: real()}, citation="arithmetic")
ADV_POS = Axiom("adv_pos_is_pos", lt(0, x), {x: positive()}, citation="arithmetic")
ADV_SUM_CONST = Axiom("adv_sum_const", eq(sp.Sum(c, (j, 1, k)), k * c), {c: real(), k: naturals()},
                      citation="finite sums")
ADV_GAUSS_SHIFT = Axiom("adv_gauss_shift", eq(sp.Integral(sp.exp(-(y - c) ** 2), (y, -sp.oo, sp.oo)), sp.sqrt(sp.pi)),
                        {c: real()}, citation="Gauss")
S_rec = sp.Function("S_adv", real=True)
ADV_S_STEP = Axiom("adv_s_step", eq(S_rec(k + 1), S_rec(k) + 3), {k: naturals()}, citation="definition")
ADV_S_BASE = Axiom("adv_s_base", eq(S_rec(1), 3), citation="definition")
register(ADV_LE_SUCC, ADV_LT_SUCC, ADV_POS, ADV_SUM_CONST, ADV_GAUSS_SHIFT, ADV_S_STEP, ADV_S_BASE)
if gaussian_integral is not None:
    register(gaussian_integral)

needs_gauss = pytest.mark.skipif(gaussian_integral is None, reason="theorems.foundations not importable")


# =====================================================================================================
# A. The step's relation symbol is not checked
# =====================================================================================================

def test_A_algebra_closes_a_strict_step_x_lt_x():
    assert_refused(lambda: (Chain(x).lt(x, algebra()), Context({x: real()})))


def test_A_algebra_strict_step_in_a_theorem():
    assert_refused(lambda: thm("A_thm_x_lt_x", lt(x, x), Chain(x).lt(x, algebra()), {x: real()}))


def test_A_specialize_closes_a_strict_step_with_an_identity():
    # eps < eps: the substitution alpha=2 changes nothing, so it only shows '='
    assert_refused(lambda: thm("A_spec", lt(eps, eps),
                               Chain(eps, variables={alpha: greater_than(1)}).lt(eps, specialize(alpha=2)),
                               {eps: positive()}))


def test_A_taylor_closes_a_strict_step():
    # x**2 < x**2: Taylor's bound with g = v**2, M = 2 is an equality
    assert_refused(lambda: (Chain(x ** 2).lt(x ** 2, taylor(lambda v: v ** 2, x, 2)), Context({x: real()})))


def test_A_constant_context_turns_a_strict_fact_into_0_lt_0():
    # 1 < 2 inside the non-decreasing (constant) context w -> 0 gives 0 < 0
    assert_refused(lambda: (Chain(sp.S.Zero).lt(sp.S.Zero, by(ADV_LT_SUCC, x=1, inside=lambda w: sp.S.Zero)),
                            Context()))


def test_A_interval_closes_an_equation():
    # rhs - lhs = 1 >= 0 on the box: that is '<=', the step claims x**2 = x**2 + 1
    assert_refused(lambda: (Chain(x ** 2).eq(x ** 2 + 1, interval({x: (0, 1)})),
                            Context({x: Interval.closed(0, 1)})))


def test_A_le_fact_used_for_lt():
    h = Hypothesis("h_le", le(A, B))
    assert_refused(lambda: thm("A_le_for_lt", lt(A, B), Chain(A).lt(B, by(h)), hypotheses=(h,)))


def test_A_le_fact_used_for_eq():
    h = Hypothesis("h_le", le(A, B))
    assert_refused(lambda: thm("A_le_for_eq", eq(A, B), Chain(A).eq(B, by(h)), hypotheses=(h,)))


def test_A_monotone_context_gives_lt_from_le():
    h = Hypothesis("h_le", le(A, B))
    assert_refused(lambda: thm("A_mono_lt", lt(2 * A + 1, 2 * B + 1),
                               Chain(2 * A + 1).lt(2 * B + 1, by(h, inside=lambda w: 2 * w + 1)), hypotheses=(h,)))


def test_A_given_identity_discharges_a_strict_domain_obligation():
    # adv_pos_is_pos: for x > 0, 0 < x.  At x = 0 the obligation 0 < 0 is "proved" by algebra()
    assert_refused(lambda: (Chain(sp.S.Zero).lt(sp.S.Zero, by(ADV_POS, x=0, given={"x": algebra()})), Context()))


def test_A_chain_of_equalities_for_a_strict_statement():
    assert_refused(lambda: thm("A_eqchain", lt(x, x), Chain(x).eq(x, algebra()), {x: real()}))


def test_A_context_constant_in_disguise_for_a_strict_step():
    # w -> sin(w)**2 + cos(w)**2 uses its argument but is constant: 1 < 2 gives 1 < 1
    F = lambda w: sp.sin(w) ** 2 + sp.cos(w) ** 2  # noqa: E731
    assert_refused(lambda: (Chain(sp.S.One).lt(sp.S.One, by(ADV_LT_SUCC, x=1, inside=F)), Context()))


def test_A_true_x_le_x_by_identity():
    assert_proved(lambda: (Chain(x).le(x, algebra()), Context({x: real()})))


def test_A_true_strict_fact_for_a_strict_step():
    assert_proved(lambda: (Chain(x).lt(x + 1, by(ADV_LT_SUCC, x=x)), Context({x: real()})))


@pytest.mark.xfail(strict=False, reason="a strictly increasing context may not be supported for '<'")
def test_A_true_strict_fact_in_a_strictly_increasing_context():
    assert_proved(lambda: (Chain(2 * x + 1).lt(2 * x + 3, by(ADV_LT_SUCC, x=x, inside=lambda w: 2 * w + 1)),
                           Context({x: real()})))


# =====================================================================================================
# B. An interval box not tied to the domain
# =====================================================================================================

def test_B_box_narrower_than_the_real_line():
    # 0 <= x + 1 for every real x: true on the box [0, 1], false at x = -2
    assert_refused(lambda: thm("B_real", le(0, x + 1), Chain(sp.S.Zero).le(x + 1, interval({x: (0, 1)})),
                               {x: real()}))


def test_B_box_narrower_than_the_positive_domain():
    # 0 <= 1 - eps for every eps > 0 (false at eps = 2), boxed to [1/10, 1/2]
    assert_refused(lambda: thm("B_pos", le(0, 1 - eps),
                               Chain(sp.S.Zero).le(1 - eps, interval({eps: (sp.Rational(1, 10), half)})),
                               {eps: positive()}))


def test_B_box_for_a_dependent_domain():
    # eps > rho > 0 does not give eps >= 2 rho (rho = 1, eps = 1.5); the box picks eps in [5, 6]
    assert_refused(lambda: thm("B_dep", le(0, eps - 2 * rho),
                               Chain(sp.S.Zero).le(eps - 2 * rho, interval({rho: (1, 2), eps: (5, 6)})),
                               {rho: positive(), eps: greater_than(rho)}))


def test_B_box_missing_the_symbol_the_domain_depends_on():
    # eps > rho: eps >= 1 is false (rho = 0.1, eps = 0.5); the box names only eps
    assert_refused(lambda: thm("B_missing", le(1, eps), Chain(sp.S.One).le(eps, interval({eps: (2, 3)})),
                               {rho: positive(), eps: greater_than(rho)}))


def test_B_reversed_box():
    # 0 <= x on [-1, 1] is false; the box is given upside down
    assert_refused(lambda: (Chain(sp.S.Zero).le(x, interval({x: (1, -1)})), Context({x: Interval.closed(-1, 1)})))


def test_B_chain_level_box_narrower_than_context():
    assert_refused(lambda: (Chain(sp.S.Zero).le(x + 1, interval({x: (0, 1)})), Context({x: real()})))


def test_B_true_box_covering_a_bounded_domain():
    assert_proved(lambda: thm("B_true", le(0, 2 - x ** 2), Chain(sp.S.Zero).le(2 - x ** 2, interval({x: (0, 1)})),
                              {x: Interval.closed(0, 1)}), want=("certified", "proved"))


# =====================================================================================================
# C. Non-smooth functions: taylor and monotone contexts
# =====================================================================================================

def _relu(v):
    return sp.Piecewise((v, v > 0), (0, True))


def _pabs(v):
    return sp.Piecewise((v, v >= 0), (-v, True))


def test_C_taylor_with_a_kink_relu():
    # g = max(v, 0) written as a Piecewise: g'' = 0 wherever it exists, g(0) = g'(0) = 0 => relu(x) <= 0
    assert_refused(lambda: (Chain(_relu(x)).le(sp.S.Zero, taylor(_relu, x, 0)), Context({x: real()})))


def test_C_taylor_with_a_kink_abs_piecewise():
    # g = |v| as a Piecewise: g'(0) = 1 (right branch), g'' = 0 => |x| <= x
    assert_refused(lambda: (Chain(_pabs(x)).le(x, taylor(_pabs, x, 0)), Context({x: real()})))


def test_C_taylor_with_a_jump():
    # g = floor-like step: Piecewise((1, v > 0), (0, True)): g'' = 0, g(0) = g'(0) = 0 => step(x) <= 0
    step = lambda v: sp.Piecewise((1, v > 0), (0, True))  # noqa: E731
    assert_refused(lambda: (Chain(step(x)).le(sp.S.Zero, taylor(step, x, 0)), Context({x: real()})))


def test_C_taylor_with_a_pole_log():
    # g = log((v-1)**2): g'' = -2/(v-1)**2 <= 0 away from the pole, g(0) = 0, g'(0) = -2 => false at x = 3
    gl = lambda v: sp.log((v - 1) ** 2)  # noqa: E731
    assert_refused(lambda: (Chain(gl(x)).le(-2 * x, taylor(gl, x, 0)), Context({x: real()})))


def test_C_taylor_with_a_pole_reciprocal():
    # g = -1/(v-1)**2: g'' = -6/(v-1)**4 <= 0 off the pole; g(0) = -1, g'(0) = -2; false at x = 2
    gr = lambda v: -1 / (v - 1) ** 2  # noqa: E731
    assert_refused(lambda: (Chain(gr(x)).le(-1 - 2 * x, taylor(gr, x, 0)), Context({x: real()})))


def test_C_taylor_with_abs():
    assert_refused(lambda: (Chain(sp.Abs(x)).le(x, taylor(lambda v: sp.Abs(v), x, 0)), Context({x: real()})))


def test_C_monotone_context_with_a_downward_jump():
    # w -> w (w < 1), w - 5 (w >= 1): derivative 1 everywhere it exists; 1/2 <= 3/2 gives 1/2 <= -7/2
    F = lambda w: sp.Piecewise((w, w < 1), (w - 5, True))  # noqa: E731
    assert_refused(lambda: (Chain(half).le(sp.Rational(-7, 2), by(ADV_LE_SUCC, x=half, inside=F)), Context()))


def test_C_monotone_context_abs():
    # -3 <= -2 inside |.| gives 3 <= 2
    assert_refused(lambda: (Chain(sp.Integer(3)).le(2, by(ADV_LE_SUCC, x=-3, inside=lambda w: sp.Abs(w))),
                            Context()))


def test_C_monotone_context_floor():
    # 1/2 <= 3/2 inside w -> -floor(w) gives 0 <= -1
    assert_refused(lambda: (Chain(sp.S.Zero).le(-1, by(ADV_LE_SUCC, x=half, inside=lambda w: -sp.floor(w))),
                            Context()))


def test_C_monotone_context_with_sign_jump():
    # w - 3 sign(w): increasing off 0, jumps down by 6 at 0; -1/2 <= 1/2 gives 5/2 <= -5/2
    F = lambda w: w - 3 * sp.sign(w)  # noqa: E731
    assert_refused(lambda: (Chain(sp.Rational(5, 2)).le(sp.Rational(-5, 2), by(ADV_LE_SUCC, x=-half, inside=F)),
                            Context()))


def test_C_monotone_context_decreasing_somewhere():
    # w**3 - 3w decreases on (-1, 1): 0 <= 1 gives 0 <= -2
    F = lambda w: w ** 3 - 3 * w  # noqa: E731
    assert_refused(lambda: (Chain(sp.S.Zero).le(-2, by(ADV_LE_SUCC, x=0, inside=F)), Context()))


def test_C_true_taylor_smooth_polynomial():
    assert_proved(lambda: (Chain(x ** 2).le(x ** 2, taylor(lambda v: v ** 2, x, 2)), Context({x: real()})))


@pytest.mark.xfail(strict=False, reason="1 - cos(v) >= 0 may be out of reach of the sign decider")
def test_C_true_taylor_cosine():
    gc = lambda v: -sp.cos(v)  # noqa: E731
    assert_proved(lambda: (Chain(-sp.cos(x)).le(-1 + x ** 2 / 2, taylor(gc, x, 1)), Context({x: real()})))


def test_C_true_monotone_affine_context():
    assert_proved(lambda: (Chain(2 * x + 1).le(2 * x + 3, by(ADV_LE_SUCC, x=x, inside=lambda w: 2 * w + 1)),
                           Context({x: real()})))


# =====================================================================================================
# D. Domains wider than the symbol's sympy assumptions; shadowed variables
# =====================================================================================================

def test_D_positive_symbol_with_real_domain():
    assert_refused(lambda: thm("D_real", lt(0, eps), Chain(sp.S.Zero).lt(eps, sign()), {eps: real()}))


def test_D_positive_symbol_with_at_least_minus_one():
    assert_refused(lambda: thm("D_ge_m1", lt(0, eps), Chain(sp.S.Zero).lt(eps, sign()), {eps: at_least(-1)}))


def test_D_positive_symbol_with_symbolic_lower_bound():
    # eps > rho - 1 admits eps = -1/2 (rho = 1/4)
    assert_refused(lambda: thm("D_symlo", lt(0, eps), Chain(sp.S.Zero).lt(eps, sign()),
                               {rho: positive(), eps: greater_than(rho - 1)}))


def test_D_positive_symbol_with_closed_zero():
    assert_refused(lambda: thm("D_closed0", lt(0, eps), Chain(sp.S.Zero).lt(eps, sign()), {eps: nonnegative()}))


def test_D_part_variable_wider_than_assumptions():
    assert_refused(lambda: Theorem(name=uname("D_partvar"), reference="R-test", source="test", title="t",
                                   variables={}, parts=(Part("main", lt(0, eps), variables={eps: real()},
                                                             proof=Chain(sp.S.Zero).lt(eps, sign())),)))


def test_D_chain_variable_wider_then_specialized():
    # chain variable eps declared real; sign "proves" 0 < eps from eps's positivity; then eps := -1
    assert_refused(lambda: thm("D_chainvar", lt(0, -1),
                               Chain(sp.S.Zero, variables={eps: real()}).lt(eps, sign()).eq(-1, specialize(eps=-1))))


def test_D_context_with_wider_domain():
    assert_refused(lambda: (Chain(sp.S.Zero).lt(eps, sign()), Context({eps: real()})))


def test_D_chain_variable_shadows_theorem_variable_narrower():
    # x real; the chain re-declares x <= 0 and concludes x <= 0 for every real x
    assert_refused(lambda: thm("D_shadow_narrow", le(x, 0),
                               Chain(x, variables={x: Interval(-sp.oo, sp.S.Zero, True, False)}).le(0, sign()),
                               {x: real()}))


def test_D_chain_variable_shadows_theorem_variable_then_specialized():
    # the hypothesis speaks of the theorem's x in (0,1); re-declaring x in the chain and specializing it
    # at 1/2 turns "f(x) >= 0 for this x" into "f(1/2) >= 0"
    h = Hypothesis("h_fx", le(0, f(x)))
    assert_refused(lambda: thm("D_shadow_spec", le(0, f(half)),
                               Chain(sp.S.Zero, variables={x: open_unit()}).le(f(x), by(h)).eq(
                                   f(half), specialize(x=half)),
                               {x: open_unit()}, hypotheses=(h,)))


def test_D_chain_variable_shadows_theorem_variable_wider_then_specialized():
    h = Hypothesis("h_fx", le(0, f(x)))
    assert_refused(lambda: thm("D_shadow_wide", le(0, f(5)),
                               Chain(sp.S.Zero, variables={x: real()}).le(f(x), by(h)).eq(f(5), specialize(x=5)),
                               {x: open_unit()}, hypotheses=(h,)))


def test_D_chain_variable_captures_a_free_symbol_of_a_hypothesis():
    # the hypothesis speaks of one z (a parameter of the theorem, undeclared); declaring z in the chain and
    # specializing it at 5 turns "f(z) >= 0" into "f(5) >= 0"
    z_ = sp.Symbol("z", real=True)
    h = Hypothesis("h_fz", le(0, f(z_)))
    assert_refused(lambda: thm("D_capture_free", le(0, f(5)),
                               Chain(sp.S.Zero, variables={z_: real()}).le(f(z_), by(h)).eq(f(5), specialize(z=5)),
                               hypotheses=(h,)))


def test_D_true_positive_symbol_positive_domain():
    assert_proved(lambda: thm("D_true", lt(0, eps), Chain(sp.S.Zero).lt(eps, sign()), {eps: positive()}))


# =====================================================================================================
# E. Induction
# =====================================================================================================

def test_E_domain_depending_on_k():
    # for k >= 1 and 0 < u < k: 0 <= (k - u - 1)(k - 1)  -- false at k = 2, u = 3/2.
    # The step is checked with u still in (0, k), not (0, k + 1).
    def build():
        base = algebra()  # at k = 1 both sides are 0
        step = Chain(sp.S.Zero).le((k - u) * k, sign())
        return thm("E_dep_dom", le(0, (k - u - 1) * (k - 1)),
                   Chain(sp.S.Zero).le((k - u - 1) * (k - 1), induction(k, base, step)),
                   {k: naturals(), u: Interval.open(0, k)})
    assert_refused(build)


def test_E_step_chain_redeclares_k():
    # 0 <= (k-1)(k-3) is false at k = 2; the step is proved only for k >= 2 by re-declaring k
    def build():
        step = Chain(sp.S.Zero, variables={k: naturals(2)}).le(k * (k - 2), sign())
        return thm("E_redeclare", le(0, (k - 1) * (k - 3)),
                   Chain(sp.S.Zero).le((k - 1) * (k - 3), induction(k, algebra(), step)), {k: naturals()})
    assert_refused(build)


def test_E_hypothesis_mentions_k_only_in_its_bound_domain():
    # H(k): g(w) >= 0 for w in [k, k] (i.e. g(k) >= 0).  Claim: 0 <= (k-1) g(k-1): false (k=2, g(1)=-1, g(2)=0).
    # The step uses H at the old k although the statement at k+1 assumes only H(k+1).
    h = Hypothesis("h_gk", le(0, g(u)), variables={u: Interval.closed(k, k)})

    def build():
        step = Chain(sp.S.Zero).le(k * g(k), by(h, u=k, inside=lambda w: k * w))
        return thm("E_hyp_dom", le(0, (k - 1) * g(k - 1)),
                   Chain(sp.S.Zero).le((k - 1) * g(k - 1), induction(k, algebra(), step)),
                   {k: naturals()}, hypotheses=(h,))
    assert_refused(build)


def test_E_user_ih_quantified_over_k():
    # claim 0 <= (k-1) f(k) (false); a user-made "ih" says it for EVERY k
    ih = Hypothesis("ih", le(0, f(k)), variables={k: naturals()})

    def build():
        step = Chain(sp.S.Zero).le(k * f(k + 1), by(ih, k=k + 1, inside=lambda w: k * w))
        return thm("E_ih_forall", le(0, (k - 1) * f(k)),
                   Chain(sp.S.Zero).le((k - 1) * f(k), induction(k, algebra(), step)), {k: naturals()})
    assert_refused(build)


def test_E_user_ih_is_the_goal():
    # a user-made "ih" that states the statement at k+1
    ih = Hypothesis("ih", le(0, k * f(k + 1)))

    def build():
        step = Chain(sp.S.Zero).le(k * f(k + 1), by(ih))
        return thm("E_ih_goal", le(0, (k - 1) * f(k)),
                   Chain(sp.S.Zero).le((k - 1) * f(k), induction(k, algebra(), step)), {k: naturals()})
    assert_refused(build)


def test_E_user_ih_with_a_stronger_relation():
    # statement f(k) <= k (false); the user's "ih" claims f(k) < k - 1 ... and an equation-form variant
    ih = Hypothesis("ih", eq(f(k), 0))

    def build():
        step = Chain(f(k + 1)).le(k + 1, by(ih))
        return thm("E_ih_stronger", le(f(k), k),
                   Chain(f(k)).le(k, induction(k, Chain(f(1)).le(1, by(ih)), step)), {k: naturals()})
    assert_refused(build)


def test_E_base_case_closed_by_an_identity_for_a_strict_claim():
    # claim k < k for all k (false): base "1 < 1" by algebra(), step "k+1 < k+1" by algebra()
    assert_refused(lambda: thm("E_base_op", lt(k, k),
                               Chain(k).lt(k, induction(k, algebra(), Chain(k + 1).lt(k + 1, algebra()))),
                               {k: naturals()}))


def test_E_true_recurrence():
    ih = Hypothesis("ih", eq(S_rec(k), 3 * k))

    def build():
        return thm("E_true", eq(S_rec(k), 3 * k),
                   Chain(S_rec(k)).eq(3 * k, induction(
                       k, Chain(S_rec(1)).eq(3, by(ADV_S_BASE)),
                       Chain(S_rec(k + 1)).eq(S_rec(k) + 3, by(ADV_S_STEP, k=k)).eq(3 * k + 3, by(ih)))),
                   {k: naturals()})
    assert_proved(build)


# induction over the integers of [1, hi): the step runs over k in [1, hi - 1), so that k + 1 is in the domain

_A_IND = sp.Symbol("a_ind", real=True)


def _bounded(relation, base, step, right_open=True, lo=sp.S.One, left_open=False):
    return thm("E_bounded", relation, Chain(relation.lhs).lt(relation.rhs, induction(k, base, step))
               if relation.op == "<" else Chain(relation.lhs).le(relation.rhs, induction(k, base, step)),
               {_A_IND: at_least(4), k: Interval(lo, _A_IND, left_open, right_open, True)})


def test_E_true_bounded_induction_uses_the_steps_range():
    # 0 < a - k for the integers k of [1, a): the step's k is below a - 1 (with k merely below a, 0 < a - k - 1
    # would not follow)
    assert_proved(lambda: _bounded(lt(0, _A_IND - k), sign(), Chain(sp.S.Zero).lt(_A_IND - k - 1, sign())))
    # closed: k <= a for the integers of [1, a]
    assert_proved(lambda: _bounded(le(k, _A_IND), sign(), Chain(k + 1).le(_A_IND, sign()), right_open=False))


def test_E_bounded_induction_does_not_step_past_the_end():
    # 0 < a - k - 1 on the integers of [1, a): false at a = 9/2, k = 4 (the base 0 < a - 2 holds)
    assert_refused(lambda: _bounded(lt(0, _A_IND - k - 1), sign(), Chain(sp.S.Zero).lt(_A_IND - k - 2, sign())))
    # k < a on the integers of [1, a]: false at k = a = 4; the step's k + 1 <= a is not < a
    assert_refused(lambda: _bounded(lt(k, _A_IND), sign(), Chain(k + 1).lt(_A_IND, sign()), right_open=False))


def test_E_bounded_induction_starts_at_one():
    # 0 <= (k - 1)(k - 3) is false at k = 2, in the integers of (1, a) and of [2, a): the base at k = 1 proves
    # nothing about them
    step = Chain(sp.S.Zero).le(k * (k - 2), sign())
    for lo, left_open in ((sp.S.One, True), (sp.S(2), False)):
        assert_refused(lambda: _bounded(le(0, (k - 1) * (k - 3)), _algebra_record(), step, lo=lo, left_open=left_open))


# =====================================================================================================
# F. Citing hypotheses and theorems
# =====================================================================================================

def test_F_rebuilt_hypothesis_with_a_wider_domain():
    orig = Hypothesis("h_pos", le(0, f(u)), variables={u: positive()})
    fake = Hypothesis("h_pos", le(0, f(u)), variables={u: real()})
    assert_refused(lambda: thm("F_wider", le(0, f(-1)), Chain(sp.S.Zero).le(f(-1), by(fake, u=-1)),
                               hypotheses=(orig,)))


def test_F_rebuilt_hypothesis_without_its_conditions():
    orig = Hypothesis("h_cond", le(0, f(u)), variables={u: real()}, conditions=(lt(0, u),))
    fake = Hypothesis("h_cond", le(0, f(u)), variables={u: real()})
    assert_refused(lambda: thm("F_noconds", le(0, f(-1)), Chain(sp.S.Zero).le(f(-1), by(fake, u=-1)),
                               hypotheses=(orig,)))


def _inner_forall_a():
    # T(a): if f >= 0 everywhere (bound variable named c, like T's own variable), then f(c + 1) >= 0
    H = Hypothesis("H_all", le(0, f(c)), variables={c: real()})
    T = thm("F_inner_all", le(0, f(c + 1)), Chain(sp.S.Zero).le(f(c + 1), by(H, c=c + 1)), {c: real()},
            hypotheses=(H,))
    return T


def test_F_theorem_substitution_captures_a_hypothesis_bound_variable():
    # citing T at c = 5 must discharge "f >= 0 everywhere", not "f(5) >= 0"
    def build():
        T = _inner_forall_a()
        h5 = Hypothesis("h_f5", le(0, f(5)))
        return thm("F_capture", le(0, f(6)),
                   Chain(sp.S.Zero).le(f(6), by(T, c=5, given={"H_all": Chain(sp.S.Zero).le(f(5), by(h5))})),
                   hypotheses=(h5,))
    assert_refused(build)


def test_F_theorem_substitution_captures_bound_variable_local_fact():
    # same, discharged by a (vacuously) quantified local hypothesis "for all c: f(5) >= 0"
    def build():
        T = _inner_forall_a()
        h5 = Hypothesis("h_f5q", le(0, f(5)), variables={c: real()})
        return thm("F_capture_local", le(0, f(6)), Chain(sp.S.Zero).le(f(6), by(T, c=5)), hypotheses=(h5,))
    assert_refused(build)


def test_F_quantified_local_fact_matched_by_domain_text():
    # T(c): if f >= 0 on (c, oo) then f(c+1) >= 0.  Citing T at c = 5 needs f >= 0 on (5, oo); the outer
    # theorem only has f >= 0 on (c, oo) for ITS c (e.g. c = 10): the text "(c, oo)" is the same.
    def build():
        H = Hypothesis("H_tail", le(0, f(u)), variables={u: greater_than(c)})
        T = thm("F_inner_tail", le(0, f(c + 1)), Chain(sp.S.Zero).le(f(c + 1), by(H, u=c + 1)), {c: real()},
                hypotheses=(H,))
        H2 = Hypothesis("H_tail_outer", le(0, f(u)), variables={u: greater_than(c)})
        return thm("F_domtext", le(0, f(6)), Chain(sp.S.Zero).le(f(6), by(T, c=5)), {c: real()}, hypotheses=(H2,))
    assert_refused(build)


def test_F_given_proof_of_quantified_hypothesis_checked_without_its_domain():
    # T: if 0 <= eps for every REAL eps then 0 <= -1/2 (valid).  The given proof of "0 <= eps" is checked
    # where eps is only known by its sympy assumption (positive): a false hypothesis gets discharged.
    def build():
        H = Hypothesis("H_eps", le(0, eps), variables={eps: real()})
        T = thm("F_inner_eps", le(0, -half), Chain(sp.S.Zero).le(-half, by(H, eps=-half)), hypotheses=(H,))
        return thm("F_given_nodom", le(0, -half),
                   Chain(sp.S.Zero).le(-half, by(T, given={"H_eps": Chain(sp.S.Zero).le(eps, sign())})))
    assert_refused(build)


def test_F_given_proof_checked_with_an_outer_variable_of_the_same_name():
    # T: if 0 <= u(1-u) for every real u then 0 <= -2.  The outer theorem has u in (0,1), where the
    # given proof holds -- but the hypothesis quantifies over all real u.
    def build():
        H = Hypothesis("H_u", le(0, u * (1 - u)), variables={u: real()})
        T = thm("F_inner_u", le(0, -2), Chain(sp.S.Zero).le(-2, by(H, u=-1)), hypotheses=(H,))
        return thm("F_given_shadow", le(0, -2),
                   Chain(sp.S.Zero).le(-2, by(T, given={"H_u": Chain(sp.S.Zero).le(u * (1 - u), sign())})),
                   {u: open_unit()})
    assert_refused(build)


def test_F_forged_copy_of_a_theorem_part():
    def build():
        T = thm("F_true_0_le_1", le(0, 1), Chain(sp.S.Zero).le(1, sign()))
        forged = dataclasses.replace(T.main, relation=le(1, 0))
        return thm("F_forged", le(1, 0), Chain(sp.S.One).le(0, by(forged)))
    assert_refused(build)


def test_F_forged_part_with_dropped_hypotheses():
    # T: under h (G >= 1), 1 <= G.  A copy of its part claiming 1 <= G for a theorem without h
    def build():
        G = sp.Function("G_adv", real=True)()
        h = Hypothesis("h_G", le(1, G))
        T = thm("F_true_G", le(1, G), Chain(sp.S.One).le(G, by(h)), hypotheses=(h,))
        forged = dataclasses.replace(T.main, theorem=thm("F_empty", le(0, 1), Chain(sp.S.Zero).le(1, sign())))
        return thm("F_forged_hyp", le(1, G), Chain(sp.S.One).le(G, by(forged)))
    assert_refused(build)


@needs_gauss
def test_F_axiom_built_on_the_spot_with_a_library_name():
    fake = Axiom("gaussian_integral", eq(sp.Integral(normal_density(y, sp.Symbol("m", real=True), s),
                                                    (y, -sp.oo, sp.oo)), 2),
                 {sp.Symbol("m", real=True): real(), s: positive()})
    assert_refused(lambda: (Chain(sp.Integral(normal_density(y, 0, 1), (y, -sp.oo, sp.oo))).eq(
        2, by(fake, m=0, s=1)), Context()))


def test_F_unregistered_false_axiom():
    fake = Axiom("adv_unregistered_false", le(1, 0))
    assert_refused(lambda: thm("F_unreg", le(1, 0), Chain(sp.S.One).le(0, by(fake))))


def test_F_true_citing_a_theorem_with_its_literal_hypothesis():
    def build():
        G = sp.Function("G_adv2", real=True)()
        h = Hypothesis("pos_G", le(0, G))
        inner = thm("F_true_inner", le(1, G + 1), Chain(sp.S.One).le(G + 1, by(h, inside=lambda w: w + 1)),
                    hypotheses=(h,))
        return thm("F_true_outer", le(1, G + 1), Chain(sp.S.One).le(G + 1, by(inner)), hypotheses=(h,))
    assert_proved(build)


def test_F_true_registered_axiom():
    assert_proved(lambda: (Chain(sp.S.Zero).lt(2, by(ADV_POS, x=2)), Context()))


# =====================================================================================================
# G. Variable capture under binders
# =====================================================================================================

@needs_gauss
def test_G_gaussian_integral_instantiated_with_its_bound_variable():
    # m := y captures the integration variable: Integral(1/sqrt(2 pi s^2), (y, -oo, oo)) = 1 is false
    assert_refused(lambda: (Chain(sp.Integral(normal_density(y, y, s), (y, -sp.oo, sp.oo))).eq(
        1, by(gaussian_integral, m=y, s=s)), Context({s: positive()})))


def test_G_shifted_gaussian_with_its_bound_variable():
    assert_refused(lambda: (Chain(sp.Integral(sp.exp(-(y - y) ** 2), (y, -sp.oo, sp.oo))).eq(
        sp.sqrt(sp.pi), by(ADV_GAUSS_SHIFT, c=y)), Context()))


def test_G_hypothesis_rewrites_inside_an_integral_over_the_same_name():
    # under x**2 = 1 (x the theorem's variable), Integral(x**2, (x, 0, 3)) = 9, not 3
    hx = Hypothesis("h_x2", eq(x ** 2, 1))
    assert_refused(lambda: thm("G_rewrite_int", eq(sp.Integral(x ** 2, (x, 0, 3)), sp.Integral(1, (x, 0, 3))),
                               Chain(sp.Integral(x ** 2, (x, 0, 3))).eq(sp.Integral(1, (x, 0, 3)), by(hx)),
                               {x: real()}, hypotheses=(hx,)))


def test_G_hypothesis_rewrites_a_subterm_of_the_bound_variable():
    # under x + 1 = 3 (so x = 2), Integral(x + 1, (x, 0, 1)) = 3/2, not Integral(3, (x, 0, 1)) = 3
    hx = Hypothesis("h_x_plus_1", eq(x + 1, 3))
    assert_refused(lambda: thm("G_rewrite_sub", eq(sp.Integral(x + 1, (x, 0, 1)), sp.Integral(3, (x, 0, 1))),
                               Chain(sp.Integral(x + 1, (x, 0, 1))).eq(sp.Integral(3, (x, 0, 1)), by(hx)),
                               {x: real()}, hypotheses=(hx,)))


def test_G_hypothesis_rewrites_a_bound_variable_to_a_constant():
    # under x = 2, Integral(x, (x, 0, 1)) = 1/2, not Integral(2, (x, 0, 1)) = 2
    hx = Hypothesis("h_x_is_2", eq(x, 2))
    assert_refused(lambda: thm("G_rewrite_var", eq(sp.Integral(x, (x, 0, 1)), sp.Integral(2, (x, 0, 1))),
                               Chain(sp.Integral(x, (x, 0, 1))).eq(sp.Integral(2, (x, 0, 1)), by(hx)),
                               {x: real()}, hypotheses=(hx,)))


def test_G_sum_instantiated_with_its_bound_variable():
    # sum_{j=1}^k c = k c at c := j gives sum_{j=1}^k j = k j (false: k = 2, j = 0)
    assert_refused(lambda: (Chain(sp.Sum(j, (j, 1, k))).eq(k * j, by(ADV_SUM_CONST, c=j, k=k)),
                            Context({k: naturals(), j: real(integer=True)})))


def test_G_rewrite_value_mentions_the_bound_variable_integral():
    # under c = y (y a theorem variable), Integral(c, (y, 0, 1)) = c = y, not Integral(y, (y, 0, 1)) = 1/2
    hc = Hypothesis("h_c_is_y", eq(c, y))
    assert_refused(lambda: thm("G_capture_int", eq(sp.Integral(c, (y, 0, 1)), sp.Integral(y, (y, 0, 1))),
                               Chain(sp.Integral(c, (y, 0, 1))).eq(sp.Integral(y, (y, 0, 1)), by(hc)),
                               {c: real(), y: real()}, hypotheses=(hc,)))


def test_G_rewrite_value_mentions_the_bound_variable_sum():
    # under c = j (j a theorem variable), Sum(c, (j, 1, 3)) = 3 c, not Sum(j, (j, 1, 3)) = 6
    hc = Hypothesis("h_c_is_j", eq(c, j))
    assert_refused(lambda: thm("G_capture_sum", eq(sp.Sum(c, (j, 1, 3)), sp.Sum(j, (j, 1, 3))),
                               Chain(sp.Sum(c, (j, 1, 3))).eq(sp.Sum(j, (j, 1, 3)), by(hc)),
                               {c: real(), j: real(integer=True)}, hypotheses=(hc,)))


@needs_gauss
def test_G_true_gaussian_integral():
    assert_proved(lambda: (Chain(sp.Integral(normal_density(y, mu, sigma), (y, -sp.oo, sp.oo))).eq(
        1, by(gaussian_integral, m=mu, s=sigma)), Context({mu: real(), sigma: positive()})))


def test_G_true_sum_of_a_constant():
    assert_proved(lambda: (Chain(sp.Sum(x, (j, 1, k))).eq(k * x, by(ADV_SUM_CONST, c=x, k=k)),
                           Context({k: naturals(), x: real()})))


# =====================================================================================================
# H. Integer domains with a symbolic lower bound
# =====================================================================================================

def test_H_a_sample_of_an_integer_domain_with_a_symbolic_end_is_an_integer():
    # (k - 1)(k - 2) >= 0 at every integer and < 0 at k = 3/2: a sample k = lo + (hi - lo)U, not an integer, refuted
    # it (a false refutation of a true claim); the samples are integers of the domain at the sampled ends
    import random

    from cdpsym.proof.algebra import prove_sign

    for right_open in (True, False):
        ctx = Context({_A_IND: at_least(4), k: Interval(sp.S.One, _A_IND - 1, False, right_open, True)})
        assert prove_sign((k - 1) * (k - 2), ctx, samples=40).ok is not False
        rng = random.Random(5)
        for _ in range(40):
            v = ctx.sample({k}, rng)
            assert v[k] == int(v[k]) and 1 <= v[k] and (v[k] < v[_A_IND] - 1 if right_open else v[k] <= v[_A_IND] - 1)
    # and the real hull of such a domain proves signs on its integers: a - k - 1 > 0 for k in [1, a - 1)
    ctx = Context({_A_IND: at_least(4), k: Interval(sp.S.One, _A_IND - 1, False, True, True)})
    assert prove_sign(_A_IND - k - 1, ctx, strict=True).ok is True
    assert prove_sign(_A_IND - k - 2, ctx, strict=True).ok is not True  # false at a = 4.5, k = 3


def test_H_an_integer_sample_is_in_the_domain_exactly():
    # fourteenth review: the sampled ends were rounded (15a/7 at a = 7 is 15 + 1e-30 at 30 digits; an end written
    # a(sqrt 3 - sqrt 2)(sqrt 3 + sqrt 2) = a evaluates just below a), and a dependency two levels deep was
    # sampled as "no end": each gave a point outside the domain, which refuted a true claim
    one = (sp.sqrt(3) - sp.sqrt(2)) * (sp.sqrt(3) + sp.sqrt(2))
    a_, j_ = sp.Symbol("a_h", integer=True, positive=True), sp.Symbol("j_h", integer=True, positive=True)
    b_, a2, j2 = sp.Symbol("b_h", real=True), sp.Symbol("a_h2", integer=True), sp.Symbol("j_h2", integer=True)
    cases = [
        (le(a_ + 1, j_), Chain(a_ + 1).le(j_, sign()), {a_: naturals(), j_: Interval(a_ * one, a_ + 2, True, False, True)}),
        (lt(7 * j_, 15 * a_), Chain(7 * j_).lt(15 * a_, sign()),
         {a_: Interval(sp.Integer(7), sp.Integer(7), False, False, True),
          j_: Interval(15 * a_ / 7 - 2, 15 * a_ / 7, True, True, True)}),
        (le(1, j2), Chain(sp.S.One).le(j2, sign()),
         {b_: Interval.closed(0, 1), a2: Interval(b_, sp.Integer(3), False, False, True),
          j2: Interval(a2, sp.Integer(8), True, False, True)}),
    ]
    for relation, chain, variables in cases:
        assert verdict(lambda: thm("H_sample", relation, chain, variables)) != "failed", relation
    import random
    ctx = Context(cases[0][2])
    rng = random.Random(11)
    for _ in range(30):
        v = ctx.sample({j_}, rng)
        if j_ in v:
            assert v[a_] < v[j_] <= v[a_] + 2


def test_H_a_refutation_rests_on_a_point_of_the_domain_and_an_arb_ball():
    # sixteenth review (5 false refutations): constant integer ends sampled at open or rounded ends, a clamp that
    # left a domain narrower than 1e-3, a symbolic width below the working precision, an integer end read just
    # above itself by the cross-check, and a difference lost to cancellation at 30 digits.  Each refuted a true
    # claim; a counterexample must now lie in the domains exactly, its violation enclosed by an Arb ball
    from cdpsym.expr import open_unit
    from cdpsym.proof.algebra import point_in_domains, prove_sign

    kk = sp.Symbol("k_ref", integer=True)
    xx = sp.Symbol("x_ref", real=True)
    for claim, dom in ((kk - 2, Interval(sp.sqrt(2), sp.S(4), False, False, True)),
                       (kk - 1, Interval(sp.Rational(1, 2), sp.S(3), False, False, True)),
                       (kk * (5 - kk), Interval(sp.S(0), sp.S(5), True, True, True))):
        assert prove_sign(claim, Context({kk: dom}), samples=20).ok is not False, claim
    assert prove_sign(xx * (sp.Rational(1, 10000) - xx),
                      Context({xx: Interval.open(0, sp.Rational(1, 10000)).with_sampling(-1, 1)}), samples=20).ok \
        is not False
    aa = sp.Symbol("a_ref", real=True)
    assert verdict(lambda: thm("H_narrow", lt(aa, xx), Chain(aa).lt(xx, sign()),
                               {aa: open_unit(), xx: Interval.open(aa, aa + sp.Integer(10) ** -40)})) != "failed"
    bb = sp.Symbol("b_ref", real=True)
    one = (bb * 10 ** 40 + 1) ** 2 - bb ** 2 * 10 ** 80 - 2 * bb * 10 ** 40
    assert verdict(lambda: thm("H_cancel", lt(0, one), Chain(sp.S.Zero).lt(one, sign()),
                               {bb: Interval.closed(1, 2)})) != "failed"
    root = (sp.sqrt(3) - sp.sqrt(2)) * (sp.sqrt(3) + sp.sqrt(2))
    a2, k2 = sp.Symbol("a_ref2", integer=True, positive=True), sp.Symbol("k_ref2", integer=True, positive=True)
    assert verdict(lambda: thm("H_crosscheck", lt(k2, a2), Chain(k2).lt(a2, sign()),
                               {a2: Interval(sp.S(2), sp.oo, False, True, True),
                                k2: Interval(sp.S.One, a2 * root, False, True, True)})) != "failed"
    # the membership test itself: exact, open ends excluded, integers required
    ctx = Context({kk: Interval(sp.S(0), sp.S(5), True, True, True)})
    import mpmath
    assert point_in_domains({kk: mpmath.mpf(4)}, ctx) and not point_in_domains({kk: mpmath.mpf(5)}, ctx)
    assert not point_in_domains({kk: mpmath.mpf("2.5")}, ctx)


def test_H_closed_integer_bound_strict_claim():
    # n integer >= mi (mi integer): mi < n is false at n = mi
    assert_refused(lambda: thm("H_closed_int", lt(mi, n), Chain(mi).lt(n, sign()),
                               {mi: Interval(integer=True), n: at_least(mi, integer=True)}))


def test_H_closed_real_bound_strict_claim():
    # n integer >= mr (mr real): mr < n is false at mr = n = 3
    assert_refused(lambda: thm("H_closed_real", lt(mr, n), Chain(mr).lt(n, sign()),
                               {mr: real(), n: at_least(mr, integer=True)}))


def test_H_open_real_bound():
    # n integer > mr: mr + 1 <= n is false at mr = 1/2, n = 1
    assert_refused(lambda: thm("H_open_real", le(mr + 1, n), Chain(mr + 1).le(n, sign()),
                               {mr: real(), n: greater_than(mr, integer=True)}))


def test_H_open_integer_bound_off_by_one():
    # n integer > mi: mi + 2 <= n is false at n = mi + 1
    assert_refused(lambda: thm("H_open_int", le(mi + 2, n), Chain(mi + 2).le(n, sign()),
                               {mi: Interval(integer=True), n: greater_than(mi, integer=True)}))


def test_H_closed_half_bound():
    # n integer >= mi/2: mi/2 < n is false at mi = 4, n = 2
    assert_refused(lambda: thm("H_half", lt(mi / 2, n), Chain(mi / 2).lt(n, sign()),
                               {mi: Interval(integer=True), n: at_least(mi / 2, integer=True)}))


def test_H_closed_bound_k():
    # n integer >= k (k positive integer): k < n false at n = k
    assert_refused(lambda: thm("H_k", lt(k, n), Chain(k).lt(n, sign()), {k: naturals(), n: at_least(k, integer=True)}))


def test_H_floor_plus_one_at_a_closed_bound():
    # n integer >= mr: floor(mr) + 1 <= n is false at mr = n = 3 (the least n is ceiling(mr), not floor(mr) + 1)
    assert_refused(lambda: thm("H_floor", le(sp.floor(mr) + 1, n), Chain(sp.floor(mr) + 1).le(n, sign()),
                               {mr: real(), n: at_least(mr, integer=True)}))


def test_H_floor_plus_one_at_a_closed_half_integer_bound():
    # n integer >= mi/2: floor(mi/2) + 1 <= n is false at mi = 4, n = 2
    assert_refused(lambda: thm("H_floor_half", le(sp.floor(mi / 2) + 1, n), Chain(sp.floor(mi / 2) + 1).le(n, sign()),
                               {mi: Interval(integer=True), n: at_least(mi / 2, integer=True)}))


def test_H_ceiling_plus_one_at_an_open_bound():
    # n integer > mr: ceiling(mr) + 1 <= n is false at mr = 1/2, n = 1
    assert_refused(lambda: thm("H_ceil_open", le(sp.ceiling(mr) + 1, n), Chain(sp.ceiling(mr) + 1).le(n, sign()),
                               {mr: real(), n: greater_than(mr, integer=True)}))


@pytest.mark.xfail(strict=False, reason="sample points of a dependent integer domain may be drawn off the integers")
def test_H_true_ceiling_at_a_closed_bound():
    assert_proved(lambda: thm("H_true_ceil", le(sp.ceiling(mr), n), Chain(sp.ceiling(mr)).le(n, sign()),
                              {mr: real(), n: at_least(mr, integer=True)}))


@pytest.mark.xfail(strict=False, reason="sample points of a dependent integer domain may be drawn off the integers")
def test_H_true_open_integer_bound():
    assert_proved(lambda: thm("H_true", le(mi + 1, n), Chain(mi + 1).le(n, sign()),
                              {mi: Interval(integer=True), n: greater_than(mi, integer=True)}))


# =====================================================================================================
# M. Miscellaneous
# =====================================================================================================

def test_M_unknown_step_op_greater():
    # a '>' step closed by a sign argument (that shows x <= x+1), in a chain read as '='
    assert_refused(lambda: thm("M_op_gt", eq(x, x + 1), Chain(x, steps=(Step(">", x + 1, sign()),)), {x: real()}))


def test_M_unknown_step_op_ne():
    assert_refused(lambda: (Chain(x, steps=(Step("!=", x, algebra()),)), Context({x: real()})))


def test_M_step_op_mutated_after_construction():
    def build():
        chain = Chain(x).le(x + 1, sign())
        object.__setattr__(chain.steps[0], "op", "=")
        return thm("M_op_mut", eq(x, x + 1), chain, {x: real()})
    assert_refused(build)


def test_M_inside_callable_inspects_its_argument():
    # the context is the identity on symbols (so "non-decreasing") and negation on numbers: 1 <= 2 gives -1 <= -2
    F = lambda w: w if isinstance(w, sp.Symbol) else -w  # noqa: E731
    assert_refused(lambda: (Chain(sp.Integer(-1)).le(-2, by(ADV_LE_SUCC, x=1, inside=F)), Context()))


def test_M_taylor_g_inspects_its_argument():
    # g is v**2 on a fresh symbol but v**4 on x: the bound is derived for v**2 and applied to x**4
    gi = lambda v: v ** 4 if v == x else v ** 2  # noqa: E731
    assert_refused(lambda: (Chain(x ** 4).le(x ** 2, taylor(gi, x, 2)), Context({x: real()})))


def test_M_nan_equals_nan():
    assert_refused(lambda: (Chain(sp.nan).eq(sp.nan, algebra()), Context()))


def test_M_zoo_equals_zoo():
    assert_refused(lambda: (Chain(sp.zoo).eq(sp.zoo, algebra()), Context()))


def test_M_oo_le_oo_by_sign():
    assert_refused(lambda: (Chain(sp.oo).lt(sp.oo, algebra()), Context()))


def test_M_interval_with_an_infinite_coefficient():
    # oo*x <= 10**200000 x + 1 on [1/2, 1]: the left side is infinite
    assert_refused(lambda: (Chain(sp.oo * x).le(sp.Integer(10) ** 200000 * x + 1, interval({x: (half, 1)})),
                            Context({x: Interval.closed(half, 1)})))


def test_M_removable_singularity():
    # (x**2 - 1)/(x - 1) = x + 1 for every real x: undefined at x = 1
    assert_refused(lambda: thm("M_removable", eq((x ** 2 - 1) / (x - 1), x + 1),
                               Chain((x ** 2 - 1) / (x - 1)).eq(x + 1, algebra()), {x: real()}))


def test_M_x_times_one_over_x():
    lhs = sp.Mul(x, 1 / x, evaluate=False)
    assert_refused(lambda: (Chain(lhs).eq(1, algebra()), Context({x: real()})))


def test_M_log_of_square():
    assert_refused(lambda: thm("M_log_sq", eq(sp.log(x ** 2), 2 * sp.log(x)),
                               Chain(sp.log(x ** 2)).eq(2 * sp.log(x), algebra()), {x: real()}))


def test_M_log_of_square_with_positive_sampling():
    # the domain is all reals; only its sampling range is positive
    assert_refused(lambda: thm("M_log_sq_s", eq(sp.log(x ** 2), 2 * sp.log(x)),
                               Chain(sp.log(x ** 2)).eq(2 * sp.log(x), algebra()),
                               {x: real(sample_lo=0.1, sample_hi=5)}))


def test_M_kl_strictly_below_itself_plus_one():
    # KL(P||Q) may be +oo, and oo < oo + 1 is false
    assert_refused(lambda: (Chain(KL(P, Q)).lt(KL(P, Q) + 1, sign()), Context()))


def test_M_kl_minus_itself():
    assert_refused(lambda: (Chain(sp.Add(KL(P, Q), -KL(P, Q), evaluate=False)).eq(0, algebra()), Context()))


def test_M_kl_over_itself():
    assert_refused(lambda: (Chain(sp.Mul(KL(P, Q), 1 / KL(P, Q), evaluate=False)).eq(1, algebra()), Context()))


def test_M_renyi_strictly_below_itself_plus_one():
    assert_refused(lambda: (Chain(Renyi(alpha, P, Q)).lt(Renyi(alpha, P, Q) + 1, sign()),
                            Context({alpha: greater_than(1)})))


def test_M_expectation_strictly_below_itself_plus_one():
    X_ = sp.Symbol("X", real=True)
    assert_refused(lambda: (Chain(Expect(sp.exp(X_))).lt(Expect(sp.exp(X_)) + 1, sign()), Context()))


class _Forged(Justification):
    method = "algebra"

    def check(self, lhs, op, rhs, ctx, chain):  # noqa: D401
        return StepResult("proved", "algebra", "trust me")


def test_M_forged_step_result_from_a_justification_subclass():
    assert_refused(lambda: thm("M_forged_just", le(1, 0), Chain(sp.S.One).le(0, _Forged())))


def test_M_forged_subclass_of_a_kernel_justification():
    Alg = type(algebra())

    class Sneaky(Alg):
        def check(self, lhs, op, rhs, ctx, chain):  # noqa: D401
            return StepResult("proved", "algebra", "trust me")

    assert_refused(lambda: thm("M_forged_sub", eq(1, 0), Chain(sp.S.One).eq(0, Sneaky())))


def test_M_mutating_a_checked_theorem_then_citing_it():
    def build():
        T = thm("M_mut_inner", le(0, 1), Chain(sp.S.Zero).le(1, sign()))
        assert symbolic_check(T).status == "proved"
        object.__setattr__(T.main, "relation", le(1, 0))
        return thm("M_mut_outer", le(1, 0), Chain(sp.S.One).le(0, by(T)))
    assert_refused(build)


def test_M_mutating_a_checked_theorem_itself():
    def build():
        T = thm("M_mut_self", le(0, 1), Chain(sp.S.Zero).le(1, sign()))
        symbolic_check(T)
        object.__setattr__(T.main, "relation", le(1, 0))
        object.__setattr__(T.main, "proof", Chain(sp.S.One).le(0, sign()))
        return T
    assert_refused(build)


def test_M_divergent_integral_strictly_below_itself_plus_one():
    I = sp.Integral(1, (y, 0, sp.oo))  # = +oo
    assert_refused(lambda: (Chain(I).lt(I + 1, sign()), Context()))


def test_M_divergent_integral_minus_itself():
    I = sp.Integral(1, (y, 0, sp.oo))
    assert_refused(lambda: (Chain(sp.Add(I, -I, evaluate=False)).eq(0, algebra()), Context()))


def test_M_log_of_an_integral_over_an_empty_range():
    # Integral(exp(y), (y, oo, oo)) = 0, so its log is -oo and -oo < -oo + 1 is false
    I = sp.Integral(sp.exp(y), (y, sp.oo, sp.oo))
    assert_refused(lambda: (Chain(sp.log(I)).lt(sp.log(I) + 1, sign()), Context()))


def test_M_divergent_sum_strictly_below_itself_plus_one():
    S_ = sp.Sum(1, (j, 1, sp.oo))  # = +oo
    assert_refused(lambda: (Chain(S_).lt(S_ + 1, sign()), Context()))


def test_M_stateful_inside_callable():
    # returns -w on its first two calls and w afterwards: a kernel that calls it on A, on B and then on a
    # fresh symbol sees a non-decreasing context; 1 <= 2 gives -1 <= -2
    calls = itertools.count()
    F = lambda w: -w if next(calls) < 2 else w  # noqa: E731
    assert_refused(lambda: (Chain(sp.Integer(-1)).le(-2, by(ADV_LE_SUCC, x=1, inside=F)), Context()))


def test_M_stateful_taylor_g():
    # v**2 on the first call (the fresh symbol), v**4 afterwards: x**4 <= x**2 is false
    calls = itertools.count()
    gs = lambda v: v ** 2 if next(calls) == 0 else v ** 4  # noqa: E731
    assert_refused(lambda: (Chain(x ** 4).le(x ** 2, taylor(gs, x, 2)), Context({x: real()})))


def test_M_mutating_a_registered_axiom():
    # a TRUE axiom admitted to the trusted base, then changed in place to a false one and cited
    def build():
        ax = Axiom(uname("ax_mut"), le(0, 1), citation="arithmetic")
        register(ax)
        object.__setattr__(ax, "relation", le(1, 0))
        return thm("M_ax_mut", le(1, 0), Chain(sp.S.One).le(0, by(ax)))
    assert_refused(build)


def test_M_mutating_a_registered_axiom_opaque():
    # Pr[X > 0] <= 1 (true), changed in place to 1 <= Pr[X > 0] (false): not evaluable at sample points
    def build():
        pr = Prob(sp.StrictGreaterThan(X, 0))
        ax = Axiom(uname("ax_mut_pr"), le(pr, 1), citation="probability")
        register(ax)
        object.__setattr__(ax, "relation", le(1, pr))
        return thm("M_ax_mut_pr", le(1, pr), Chain(sp.S.One).le(pr, by(ax)))
    assert_refused(build)


def test_M_mutating_a_registered_axiom_domain():
    # for c > 0: Pr[X > c] <= Pr[X > 0] (true); its domain widened in place to all reals, cited at c = -1
    def build():
        ax = Axiom(uname("ax_dom_mut"), le(Prob(sp.StrictGreaterThan(X, c)), Prob(sp.StrictGreaterThan(X, 0))),
                   {c: positive()}, citation="probability")
        register(ax)
        object.__setattr__(ax, "variables", {c: real()})
        lhs, rhs = Prob(sp.StrictGreaterThan(X, -1)), Prob(sp.StrictGreaterThan(X, 0))
        return thm("M_ax_dom_mut", le(lhs, rhs), Chain(lhs).le(rhs, by(ax, c=-1)))
    assert_refused(build)


def test_M_true_factorisation():
    assert_proved(lambda: (Chain(x ** 2 - 1).eq((x - 1) * (x + 1), algebra()), Context({x: real()})))


def test_M_true_square_nonnegative():
    assert_proved(lambda: thm("M_true_sq", le(0, x ** 2), Chain(sp.S.Zero).le(x ** 2, sign()), {x: real()}))


@pytest.mark.xfail(strict=False, reason="a probability is finite; the kernel may treat every opaque term as extended")
def test_M_true_probability_below_itself_plus_one():
    X_ = sp.Symbol("X", real=True)
    pr = Prob(sp.StrictGreaterThan(X_, 0))
    assert_proved(lambda: (Chain(pr).lt(pr + 1, sign()), Context()))


# -- the sign prover's structural cases and the collected exponents (added with R-D8 for every c) -------------------

def test_M_structural_sign_groups_a_constant_with_one_term_only_when_it_is_true():
    from cdpsym.proof.algebra import prove_sign

    cc = sp.Symbol("c_struct", integer=True, positive=True)
    ctx = Context({cc: naturals(), alpha: at_least(2 ** (cc + 1))})
    assert prove_sign(alpha - 2, ctx, strict=True).ok is True  # 2^{c+1} >= 4
    assert prove_sign(alpha - 4, ctx).ok is True
    for false in (alpha - 5, alpha - 4):  # alpha = 4 at c = 1: neither alpha - 5 >= 0 nor alpha - 4 > 0
        assert prove_sign(false, ctx, strict=(false == alpha - 4)).ok is not True
    # a product of factors each shown positive; a factor that may vanish (k = 1) is not
    ctx = Context({cc: naturals(), alpha: at_least(2 ** (cc + 1)), k: Interval(sp.S.One, alpha - 1, False, True, True)})
    assert prove_sign(k / (alpha - k - 1), ctx, strict=True).ok is True
    assert prove_sign((k - 1) / (alpha - k - 1), ctx, strict=True).ok is not True
    assert prove_sign(-k / (alpha - k - 1), ctx).ok is not True


def test_M_an_exponent_collected_in_lowest_terms_is_the_same_exponent_only():
    from cdpsym.expr.operators import Expect as E
    from cdpsym.proof.algebra import equivalent

    Gk = sp.Function("G_collect", real=True)(k)
    ctx = Context({k: naturals(), alpha: at_least(4), s: positive()})
    same = (alpha / (k ** 2 + k) + alpha / (k + 1) - k / (k + 1) - 1 / (k + 1)) * Gk
    assert equivalent(E(sp.exp(same)), E(sp.exp((alpha - k) / k * Gk)), ctx).ok is True
    for other in ((alpha - k) / (k + 1) * Gk, (alpha - k) / k * Gk + s, (alpha + k) / k * Gk):
        assert equivalent(E(sp.exp(same)), E(sp.exp(other)), ctx).ok is not True


def test_M_a_sample_of_an_opaque_term_refutes_nothing():
    # sixteenth review, continued: equivalent() sampled Pr[X > 1] at 2.9, an indicator at 1.7 and a sum apart from
    # its limit, so true identities were refuted (failed); they are now not proved, not refuted
    from cdpsym.expr.operators import Indicator, Prob

    A, B = Prob(sp.StrictGreaterThan(X, 1)), Prob(sp.LessThan(X, 1))
    ind = Indicator(sp.StrictGreaterThan(X, 1))
    total = sp.Sum(j, (j, 1, n))
    for lhs, rhs, variables in ((sp.Min(A, 1), A, {}), (A + B + A * B, 1 + A * B, {}), (ind ** 2, ind, {}),
                                (total + total ** 2, total + (n * (n + 1) / 2) ** 2, {n: naturals()})):
        assert verdict(lambda: thm("M_opaque", eq(lhs, rhs), Chain(lhs).eq(rhs, _algebra_record()), variables)) \
            != "failed", lhs
