"""The kernel rule ``monotone`` (the mean value theorem): adversarial statements it must never prove, and true
ones it must keep proving.

``monotone(v, d)`` closes ``lhs <= rhs`` (or ``<``) on the domain of the real variable ``v`` with finite lower
end ``a``: ``h = rhs - lhs`` is continuous on the closed-at-``a`` domain, smooth inside, ``h(a) >= 0`` (``> 0``
for ``<`` at a closed end) and ``h' >= 0`` (``> 0`` for ``<``) inside, shown by ``d`` (default ``sign``).

A FALSE statement must never be *proved* or *certified* ("failed", "supported" or a ``ProofError`` are all
fine).  Most of the false statements below are chosen so that a *naive* mean-value argument -- sympy's value
of ``h`` at ``a`` and sympy's derivative, without the continuity / smoothness side conditions, or with the
local hypotheses, or with the other variables' domains held fixed -- would "prove" them.
"""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import eps, k, x, y
from cdpsym.expr.domains import Interval, naturals, nonnegative, open_unit, positive, real
from cdpsym.proof import Chain, Hypothesis, Part, Rel, Theorem, monotone, symbolic_check
from cdpsym.proof.kernel import Numeric

S = sp.S
HOLDS = ("proved", "certified")


def _status(lhs, op, rhs, variables, why, hypotheses=()):
    """The kernel's verdict on the one-step chain ``lhs op rhs`` justified by *why*."""
    try:
        chain = Chain(lhs)
        chain = chain.le(rhs, why) if op == "<=" else chain.lt(rhs, why)
        thm = Theorem(name="monotone_test", reference="", source="test", title="t", variables=variables,
                      hypotheses=tuple(hypotheses), parts=(Part(name="t", relation=Rel(lhs, op, rhs), proof=chain),))
        res = symbolic_check(thm)
    except ProofError:
        return "refused"
    return res.status


def _nested(var, depth):
    why = None
    for _ in range(depth):
        why = monotone(var, why)
    return why


# -- FALSE statements: never proved ---------------------------------------------------------------------------

FALSE = {
    # a naive argument: h(0) = 0 and sympy's d/dx floor(x) = 0 -- but floor jumps at 1
    "floor_jump": (sp.floor(x), "<=", S.Zero, {x: nonnegative()}, monotone(x)),
    "ceiling_jump": (sp.ceiling(x), "<=", S.Zero, {x: nonnegative()}, monotone(x)),
    # sympy differentiates the Piecewise branch-wise to 0: a step at x = 1
    "piecewise_step": (sp.Piecewise((S.Zero, x < 1), (S.One, True)), "<=", S.Zero, {x: nonnegative()}, monotone(x)),
    "heaviside_step": (sp.Heaviside(x - 1), "<=", S.Zero, {x: nonnegative()}, monotone(x)),
    "sign_step": (sp.sign(x - 1) + 1, "<=", S.One, {x: nonnegative()}, monotone(x)),
    # Abs: h = 1 - x/2 - |x - 1| has h(0) = 0 and h' = 1/2 on (0, 1), but h(2) = -1
    "abs_kink": (sp.Abs(x - 1), "<=", 1 - x / 2, {x: nonnegative()}, monotone(x)),
    "max_kink": (sp.Max(x - 1, 0) * 3, "<=", x, {x: nonnegative()}, monotone(x)),
    "min_kink": (-sp.Min(x - 1, 0) - 1, "<=", -x, {x: nonnegative()}, monotone(x)),
    # discontinuous at the lower end: h = exp(-1/x) - 1/2 -> -1/2 as x -> 0+, h' > 0
    "exp_inverse_at_end": (S.One - sp.exp(-1 / x), "<=", S.One / 2, {x: positive()}, monotone(x)),
    # h = -atan(1/x) < 0 everywhere, h' = 1/(1 + x^2) > 0; h at 0 is undefined
    "atan_inverse_at_end": (sp.atan(1 / x), "<=", S.Zero, {x: positive()}, monotone(x)),
    # -x log x > 0 on (0, 1): log is not continuous at 0
    "xlogx": (-x * sp.log(x), "<=", S.Zero, {x: positive()}, monotone(x)),
    # sqrt(x) > x on (0, 1): h = x - sqrt(x), h(0) = 0, h' = 1 - 1/(2 sqrt x) < 0 near 0
    "sqrt_near_zero": (sp.sqrt(x), "<=", x, {x: nonnegative()}, monotone(x)),
    # x^(1/3) of a negative base is complex in sympy
    "cube_root_negative_base": ((x - 1) ** sp.Rational(1, 3), "<=", x, {x: nonnegative()}, monotone(x)),
    # strict at a closed lower end where both sides agree
    "strict_at_closed_end": (sp.tanh(x), "<", x, {x: nonnegative()}, monotone(x)),
    "strict_x2": (x ** 2, "<", x ** 2 + x, {x: nonnegative()}, monotone(x)),
    # strict, but h' vanishes and h touches 0 at x = 1
    "strict_touching": (x, "<", x + (x - 1) ** 2, {x: positive()}, monotone(x)),
    # false only below 1e-15: sampling cannot see it, h(0) = -1e-30 is exact
    "tiny_violation": (x + sp.Rational(1, 10 ** 30), "<=", x + x ** 2, {x: nonnegative()}, monotone(x)),
    # the lower end depends on another variable: h(y) = -1
    "lower_end_depends": (x, "<=", 2 * x - y - 1, {y: positive(), x: Interval(y, S.Infinity, False, True)},
                          monotone(x)),
    # another variable's domain depends on x: holding y fixed while x moves leaves y's domain
    "other_domain_depends": (y, "<=", x / 2, {x: nonnegative(), y: Interval(S.Zero, x, False, False)}, monotone(x)),
    # the variable is an integer: k^2 <= 2^k fails at k = 3
    "integer_variable": (k ** 2, "<=", 2 ** k, {k: naturals()}, monotone(k)),
    # no finite lower end
    "unbounded_below": (x ** 3, "<=", x, {x: real()}, monotone(x)),
    # nested monotone on another variable, false (x y^2 > x y for y > 1)
    "nested_other_variable": (x * y ** 2, "<=", x * y, {x: nonnegative(), y: nonnegative()},
                              monotone(x, monotone(y))),
    # numeric evidence for the derivative is never a proof
    "numeric_derivative": (x ** 2, "<=", x, {x: Interval(S.Zero, S.One, False, False)}, monotone(x, Numeric())),
    # a variable the statement does not declare
    "undeclared_variable": (x ** 2, "<=", x, {x: nonnegative()}, monotone(y)),
}


@pytest.mark.parametrize("name", sorted(FALSE))
def test_a_false_statement_is_never_proved_by_monotone(name):
    lhs, op, rhs, variables, why = FALSE[name]
    assert _status(lhs, op, rhs, variables, why) not in HOLDS


def test_an_integral_is_not_differentiated():
    """A (true) statement with an integral: monotone needs closed forms, it does not prove it."""
    t = sp.Symbol("t", real=True)
    lhs = sp.Integral(sp.exp(-t ** 2), (t, 0, x))
    assert _status(lhs, "<=", x, {x: nonnegative()}, monotone(x)) not in HOLDS


def test_local_hypotheses_are_not_used_along_the_path():
    """x <= x^2 holds under the hypothesis 1 <= x, but the hypothesis holds at the point, not on [0, x]: the
    derivative 2x - 1 is negative on (0, 1/2), so the monotonicity argument must not go through."""
    hyp = Hypothesis("x_ge_1", Rel(S.One, "<=", x))
    assert _status(x, "<=", x ** 2, {x: nonnegative()}, monotone(x), (hyp,)) not in HOLDS


def test_equality_is_not_established_by_monotone():
    chain = Chain(x).eq(x, monotone(x))
    thm = Theorem(name="monotone_eq", reference="", source="test", title="t", variables={x: nonnegative()},
                  parts=(Part(name="t", relation=Rel(x, "=", x), proof=chain),))
    assert symbolic_check(thm).status not in HOLDS


# -- TRUE statements: proved ----------------------------------------------------------------------------------

TRUE = {
    "tanh_le_x": (sp.tanh(x), "<=", x, {x: nonnegative()}, monotone(x)),
    "tanh_lt_x_open": (sp.tanh(x), "<", x, {x: positive()}, monotone(x)),
    "log1p_le_x": (sp.log(1 + x), "<=", x, {x: nonnegative()}, monotone(x)),
    "log1p_ge_x_minus_half_x2": (x - x ** 2 / 2, "<=", sp.log(1 + x), {x: nonnegative()}, _nested(x, 2)),
    "eps_tanh": (eps * sp.tanh(eps / 2), "<=", eps ** 2 / 2, {eps: positive()}, monotone(eps, monotone(eps))),
    "eps_tanh_strict": (eps * sp.tanh(eps / 2), "<", eps ** 2 / 2, {eps: positive()}, monotone(eps, monotone(eps))),
    "expm1_ge_x": (x, "<=", sp.exp(x) - 1, {x: nonnegative()}, _nested(x, 2)),
    "one_minus_exp_le_x": (1 - sp.exp(-x), "<=", x, {x: nonnegative()}, _nested(x, 2)),
    "atan_le_x": (sp.atan(x), "<=", x, {x: nonnegative()}, monotone(x)),
    "sqrt_le_affine": (sp.sqrt(1 + x), "<=", 1 + x / 2, {x: nonnegative()}, _nested(x, 2)),
    "power_below_one": (y ** x, "<=", S.One, {y: open_unit(), x: nonnegative()}, monotone(x)),
    "dependent_lower_end": (x, "<=", 2 * x - y, {y: positive(), x: Interval(y, S.Infinity, False, True)},
                            monotone(x)),
    "nested_other_variable": (x * y, "<=", x * y + x * y ** 2, {x: nonnegative(), y: nonnegative()},
                              monotone(x, monotone(y))),
}


@pytest.mark.parametrize("name", sorted(TRUE))
def test_a_true_statement_is_proved_by_monotone(name):
    lhs, op, rhs, variables, why = TRUE[name]
    assert _status(lhs, op, rhs, variables, why) in HOLDS


def test_the_report_names_the_kernel_rule():
    chain = Chain(sp.tanh(x)).le(x, monotone(x))
    thm = Theorem(name="monotone_rules", reference="", source="test", title="t", variables={x: nonnegative()},
                  parts=(Part(name="t", relation=Rel(sp.tanh(x), "<=", x), proof=chain),))
    res = symbolic_check(thm)
    assert res.status == "proved" and "monotone" in res.rules
