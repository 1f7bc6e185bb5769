"""Defence in depth: a closed step evaluated in Arb ball arithmetic at points of its whole domain.

This module can only take a verdict away (a definite violation makes the core fail the step with "kernel
inconsistency"); it never makes anything proved, so it is outside the trusted core proper.  Points: next
to each end of every domain, at magnitude 10^8, and at random; at points where the step's local
hypotheses can be evaluated and hold (when the rule may have used them).
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from cdpsym.expr.domains import Interval
from cdpsym.expr.evaluate import ArbContext, MPContext, NotEvaluable, evaluate
from cdpsym.proof.algebra import Context, Decision, opaque_terms, point_in_domains

__all__ = ["cross_check", "CROSS_CHECK_POINTS"]


CROSS_CHECK_POINTS = 6


def cross_check(lhs: sp.Expr, op: str, rhs: sp.Expr, ctx: Context, seed: int = 0) -> Decision:
    """Evaluate a closed step at points of its whole domain in Arb balls (including near the ends and at
    large magnitudes).  ``False`` with the point when the relation is definitely violated there."""
    diff = rhs - lhs
    syms = diff.free_symbols
    if opaque_terms(diff) or any(not isinstance(s, sp.Symbol) for s in syms):
        return Decision(None, "not evaluable")
    rng = random.Random(hash((sp.srepr(diff), op, seed)) & 0xFFFFFFFF)
    arb = ArbContext(200)
    checked = 0
    with arb:
        for n in range(CROSS_CHECK_POINTS):
            point = _sample_point(syms, ctx, rng, n)
            if point is None:
                continue
            if not _facts_hold(ctx, point, arb):
                continue
            try:
                values = {s: _to_arb(arb, v) for s, v in point.items()}
                d = evaluate(diff, values, arb)
            except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
                continue
            if not isinstance(d, arb.flint.arb) or not d.is_finite():
                continue
            checked += 1
            bad = (op == "=" and not d.contains(0)) or (op == "<=" and d < 0) or (op == "<" and d <= 0)
            if bad and not point_in_domains(point, ctx):
                continue  # the draw rounded an end (an integer end that evaluates just above itself): not a point
            if bad:
                shown = {str(s): mpmath.nstr(v, 15) for s, v in point.items()}
                return Decision(False, f"rhs - lhs = {d.str(10)} at {shown}", shown)
    return Decision(True, f"holds at {checked} points")


def _to_arb(arb: ArbContext, v: mpmath.mpf):
    sign, man, exp, _ = mpmath.mpf(v)._mpf_
    if not man:
        return arb.flint.arb(0)
    m = -int(man) if sign else int(man)
    return arb.flint.arb(m) * arb.flint.arb(2) ** int(exp)


def _facts_hold(ctx: Context, point, arb) -> bool:
    """A step may rest on local hypotheses: only points where every evaluable one holds (and no
    non-evaluable one is in scope) can witness a violation."""
    for f in ctx.facts:
        if f.variables or f.conditions:
            return False
        rel = f.relation
        try:
            d = evaluate(rel.rhs - rel.lhs, {s: _to_arb(arb, v) for s, v in point.items()}, arb)
        except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
            return False
        if not isinstance(d, arb.flint.arb):
            return False
        holds = (rel.op == "=" and d == 0) or (rel.op == "<=" and d >= 0) or (rel.op == "<" and d > 0)
        if not holds:
            return False
    return True


def _sample_point(syms, ctx: Context, rng: random.Random, n: int) -> dict | None:
    """Point number ``n``: 0-1 near the lower end, 2 large magnitude, the rest uniform/log-uniform."""
    out: dict = {}
    order = set(syms)
    for s in list(order):
        dom = ctx.domains.get(s)
        if dom is not None:
            order |= dom.lo.free_symbols | dom.hi.free_symbols
    with mpmath.workdps(60):
        for s in sorted(order, key=lambda s: (ctx._depth(s), str(s))):
            dom = ctx.domains.get(s)
            if dom is None:
                dom = _assumption_domain(s)
            try:
                lo = None if dom.lo is sp.S.NegativeInfinity else evaluate(dom.lo, out, _MP)
                hi = None if dom.hi is sp.S.Infinity else evaluate(dom.hi, out, _MP)
            except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError):
                return None
            v = _draw(lo, hi, dom, rng, n)
            if v is None:
                return None
            out[s] = v
    return out


_MP = MPContext(60)


def _assumption_domain(s: sp.Symbol) -> Interval:
    integer = bool(s.is_integer)
    if s.is_positive:
        return Interval(sp.S.Zero, sp.S.Infinity, True, True, integer)
    if s.is_nonnegative:
        return Interval(sp.S.Zero, sp.S.Infinity, False, True, integer)
    if s.is_negative:
        return Interval(sp.S.NegativeInfinity, sp.S.Zero, True, True, integer)
    return Interval(integer=integer)


def _draw(lo, hi, dom: Interval, rng: random.Random, n: int):
    tiny = mpmath.mpf(10) ** -12
    if dom.integer:
        a = int(mpmath.floor(lo)) + 1 if (lo is not None and dom.left_open and lo == mpmath.floor(lo)) else (
            int(mpmath.ceil(lo)) if lo is not None else -10 ** 6)
        b = int(mpmath.ceil(hi)) - 1 if (hi is not None and dom.right_open and hi == mpmath.ceil(hi)) else (
            int(mpmath.floor(hi)) if hi is not None else a + 10 ** 6)
        if a > b:
            return None
        choices = [a, min(a + 1, b), min(a + 10 ** (3 + n), b), b]
        return mpmath.mpf(choices[n] if n < len(choices) else rng.randint(a, min(b, a + 50)))
    if lo is not None and hi is not None:
        if hi < lo or (hi == lo and (dom.left_open or dom.right_open)):
            return None
        width = hi - lo
        picks = [lo + (tiny * width if dom.left_open else 0), hi - (tiny * width if dom.right_open else 0)]
        return picks[n] if n < 2 else lo + width * mpmath.mpf(rng.uniform(0.01, 0.99))
    if lo is not None:
        picks = [lo + (tiny if dom.left_open else 0), lo + 1, lo + mpmath.mpf(10) ** 8]
        return picks[n] if n < 3 else lo + mpmath.mpf(10) ** rng.uniform(-3, 3)
    if hi is not None:
        picks = [hi - (tiny if dom.right_open else 0), hi - 1, hi - mpmath.mpf(10) ** 8]
        return picks[n] if n < 3 else hi - mpmath.mpf(10) ** rng.uniform(-3, 3)
    picks = [mpmath.mpf(0), mpmath.mpf(-1), mpmath.mpf(10) ** 8, -mpmath.mpf(10) ** 8]
    return picks[n] if n < 4 else mpmath.mpf(rng.uniform(-20, 20))
