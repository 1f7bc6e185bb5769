"""The kernel rule ``limit`` (passing to the limit in a non-strict inequality): adversarial chains it must never
prove, and true ones it must keep proving.

``limit(v, end)`` closes the step ``f(v) <= f(a)`` of a chain whose start ``c`` does not mention the chain
variable ``v``: the chain so far shows ``c <= f(v)`` for every ``v`` of its domain with no strict step, ``f`` is
continuous on the domain closed at ``a`` (its lower or upper end), so ``c <= f(a)``.

A FALSE statement must never be *proved* ("failed", "supported" or a refusal are fine).  The false chains
below are built so that a naive "take v -> a" would accept them: a start that depends on ``v``, a strict bound
that becomes an equality at the end, an ``f`` that jumps at the end, an end that is not an end, a variable that
is not the chain's, a limit record used twice.
"""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import x, y
from cdpsym.expr.domains import Interval, naturals, positive, real
from cdpsym.proof import Chain, Hypothesis, Part, Rel, Theorem, algebra, by, limit, sign, symbolic_check
from cdpsym.proof.core import KERNEL_RULES

S = sp.S
HOLDS = ("proved", "certified")
v = sp.Symbol("v", real=True)
n = sp.Symbol("n", integer=True, positive=True)


def _status(lhs, op, rhs, chain, variables, hypotheses=()):
    try:
        thm = Theorem(name="limit_test", reference="", source="test", title="t", variables=variables,
                      hypotheses=tuple(hypotheses), parts=(Part(name="t", relation=Rel(lhs, op, rhs), proof=chain),))
        return symbolic_check(thm).status
    except ProofError:
        return "refused"


def test_rule_is_listed():
    assert "limit" in KERNEL_RULES


# -- TRUE: proved --------------------------------------------------------------------------------------------------

def test_constant_below_a_family_is_below_its_limit():
    # 1 <= 1 + v for every v in (0, 1), so 1 <= 1
    ch = Chain(S.One, variables={v: Interval.open(0, 1)}).le(1 + v, sign()).le(S.One, limit(v))
    assert _status(S.One, "<=", S.One, ch, {}) == "proved"


def test_limit_at_the_upper_end_with_outer_variables():
    # x*v <= x for v in (0, 1), x > 0; at v -> 1: x*v -> x.  Start x*0 + x/2 ... uses a uniform start:
    # x/2 <= x*v for v in (1/2, 1), hence x/2 <= x (the end 1) -- trivially true, checked through the rule
    ch = (Chain(x / 2, variables={v: Interval.open(S.Half, 1)})
          .le(x * v, sign()).le(x, limit(v, "hi")))
    assert _status(x / 2, "<=", x, ch, {x: positive()}) == "proved"


def test_removable_singularity_written_continuously():
    # 0 <= (exp(v) - 1)/v ... not continuous as written at 0 (0/0): the rule must not accept it
    ch = Chain(S.Zero, variables={v: Interval.open(0, 1)}).le((sp.exp(v) - 1) / v, sign()).le(S.One, limit(v))
    assert _status(S.Zero, "<=", S.One, ch, {}) not in HOLDS
    # written with a continuous majorant it is fine: 0 <= v*exp(v) -> 0
    ch2 = Chain(S.Zero, variables={v: Interval.open(0, 1)}).le(v * sp.exp(v), sign()).le(S.Zero, limit(v))
    assert _status(S.Zero, "<=", S.Zero, ch2, {}) == "proved"


def test_the_limit_then_continues_the_chain():
    ch = (Chain(S.One, variables={v: Interval.open(0, 1)}).le(1 + v ** 2, sign()).le(S.One, limit(v))
          .lt(S(2), sign()))
    assert _status(S.One, "<", S(2), ch, {}) == "proved"


# -- FALSE: never proved -------------------------------------------------------------------------------------------

def test_strict_bound_does_not_stay_strict():
    # 0 < v for every v in (0, 1), but not 0 < 0: a strict step before the limit is refused
    ch = Chain(S.Zero, variables={v: Interval.open(0, 1)}).lt(v, sign()).le(S.Zero, limit(v))
    assert _status(S.Zero, "<", S.Zero, ch, {}) not in HOLDS
    assert _status(S.Zero, "<=", S.Zero, ch, {}) not in HOLDS  # refused, even though 0 <= 0 is true


def test_limit_claimed_strict_is_refused():
    ch = Chain(S.Zero, variables={v: Interval.open(0, 1)}).le(v, sign()).lt(S(-1), limit(v))
    assert _status(S.Zero, "<", S(-1), ch, {}) not in HOLDS


def test_start_depending_on_the_variable():
    # v <= v for every v, "so" v <= 0 -- the start moves with v
    ch = Chain(v, variables={v: Interval.open(0, 1)}).le(v, algebra()).le(S.Zero, limit(v))
    assert _status(v, "<=", S.Zero, ch, {}) in ("refused", "failed", "supported")


def test_jump_at_the_end():
    # 1 <= 1 + floor-like jump: Heaviside(v) = 1 on (0, 1) but H(0) is not 1 in the limit sense of f(a)
    f = sp.Piecewise((S.One, v > 0), (S(-5), True))
    ch = Chain(S.One, variables={v: Interval.open(0, 1)}).le(f, algebra()).le(S(-5), limit(v))
    assert _status(S.One, "<=", S(-5), ch, {}) not in HOLDS
    g = 1 + sp.sign(v) - 1  # = 1 on (0, 1), sign(0) = 0 at the end
    ch2 = Chain(S.One, variables={v: Interval.open(0, 1)}).le(g, algebra()).le(S.Zero, limit(v))
    assert _status(S.One, "<=", S.Zero, ch2, {}) not in HOLDS


def test_essential_singularity_at_the_end():
    # 0 <= exp(-1/v) on (0, 1), and exp(-1/v) -> 0: true, but f is not continuous as written at v = 0
    # (it is undefined there); a wrong "value" must never be accepted
    ch = Chain(S.Zero, variables={v: Interval.open(0, 1)}).le(sp.exp(-1 / v), sign()).le(S(-1), limit(v))
    assert _status(S.Zero, "<=", S(-1), ch, {}) not in HOLDS


def test_wrong_value_at_the_end():
    ch = Chain(S.One, variables={v: Interval.open(0, 1)}).le(1 + v, sign()).le(S.Half, limit(v))
    assert _status(S.One, "<=", S.Half, ch, {}) not in HOLDS


def test_upper_end_is_not_the_lower_end():
    # 1 - v <= 1 - v ... start 0 <= 1 - v on (0, 1); the limit at the LOWER end gives 0 <= 1 (true), at the
    # upper end 0 <= 0 (true); but claiming the lower end's value 1 with end="hi" must fail
    ch = Chain(S.Zero, variables={v: Interval.open(0, 1)}).le(1 - v, sign()).le(S.One, limit(v, "hi"))
    status = _status(S.Zero, "<=", S.One, ch, {})
    assert status not in HOLDS


def test_infinite_end():
    # 0 <= 1/v on (0, oo): at the upper end "1/oo = 0" is not a value of f
    ch = Chain(S.Zero, variables={v: positive()}).le(1 / v, sign()).le(S.Zero, limit(v, "hi"))
    assert _status(S.Zero, "<=", S.Zero, ch, {}) not in HOLDS


def test_not_a_chain_variable():
    # x is a theorem variable (fixed): "letting x -> 0" would claim the bound at a point x does not take
    ch = Chain(S.Zero).le(x, sign()).le(S.Zero, limit(x))
    assert _status(S.Zero, "<=", S.Zero, ch, {x: positive()}) not in HOLDS


def test_integer_variable():
    ch = Chain(S.Zero, variables={n: naturals()}).le(n, sign()).le(S.One, limit(n))
    assert _status(S.Zero, "<=", S.One, ch, {}) not in HOLDS


def test_record_used_twice():
    rec = limit(v)
    ch = (Chain(S.Zero, variables={v: Interval.open(0, 1)}).le(v, sign()).le(S.Zero, rec)
          .le(S.Zero, rec))
    assert _status(S.Zero, "<=", S.Zero, ch, {}) not in HOLDS


def test_opaque_family_is_refused():
    # f containing an opaque term: no continuity can be shown
    from cdpsym.expr.operators import Expect
    ch = (Chain(S.Zero, variables={v: Interval.open(0, 1)}).le(Expect(sp.exp(v * y)) - 1 + v, sign())
          .le(Expect(S.One) - 1, limit(v)))
    assert _status(S.Zero, "<=", S.Zero, ch, {}) not in HOLDS


def test_end_naming_another_chain_variable():
    u = sp.Symbol("u", real=True)
    ch = (Chain(S.Zero, variables={u: Interval.open(0, 1), v: Interval.open(u, 1)}).le(v - u, sign())
          .le(S.Zero, limit(v)))
    assert _status(S.Zero, "<=", S.Zero, ch, {}) not in HOLDS


def test_local_hypothesis_is_kept_sound():
    # a hypothesis in scope about x: the limit is over the chain variable only
    h = Hypothesis("small", relation=Rel(x, "<=", S.One))
    ch = Chain(x, variables={v: Interval.open(0, 1)}).le(S.One, by(h)).le(1 + v, sign()).le(S.One, limit(v))
    assert _status(x, "<=", S.One, ch, {x: real()}, hypotheses=(h,)) == "proved"
