"""Rigorous sign certificates by Arb branch-and-bound.

``certify_nonnegative(f, box)`` proves ``f >= 0`` (or ``> 0``) on a box by
evaluating ``f`` in ball arithmetic on sub-boxes and bisecting where the
enclosure straddles zero.  A sub-box whose enclosure is entirely negative
gives a counterexample at its centre (re-evaluated as a tight ball).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

import sympy as sp

from cdpsym.expr.domains import as_expr
from cdpsym.expr.evaluate import ArbContext, NotEvaluable, evaluate

__all__ = ["certify_nonnegative", "IntervalResult", "PRECISION"]

#: the working precision of the enclosures, in bits (documents print it beside every interval step)
PRECISION = 128


@dataclass(frozen=True)
class IntervalResult:
    ok: bool | None
    detail: str
    boxes: int = 0
    point: Mapping[str, str] | None = None


def certify_nonnegative(f: sp.Expr, box: Mapping[sp.Symbol, tuple[object, object]], *, strict: bool = False,
                        max_boxes: int = 4000, prec: int = PRECISION) -> IntervalResult:
    symbols = sorted(box, key=str)
    missing = f.free_symbols - set(symbols)
    if missing:
        return IntervalResult(None, f"no box given for {sorted(map(str, missing))}")
    bounds = {s: (as_expr(box[s][0]), as_expr(box[s][1])) for s in symbols}
    ctx = ArbContext(prec)
    with ctx:
        stack = [{s: (ctx.number(lo), ctx.number(hi)) for s, (lo, hi) in bounds.items()}]
        done = 0
        while stack:
            if done >= max_boxes:
                return IntervalResult(None, f"undecided after {done} boxes", done)
            cell = stack.pop()
            done += 1
            values = {s: ctx.ball(lo, hi) for s, (lo, hi) in cell.items()}
            try:
                v = evaluate(f, values, ctx)
            except (NotEvaluable, ZeroDivisionError, ValueError) as exc:
                return IntervalResult(None, f"cannot evaluate in ball arithmetic: {exc}", done)
            if (v > 0) or (not strict and v >= 0):
                continue
            centre = {s: (lo + hi) / 2 for s, (lo, hi) in cell.items()}
            cv = evaluate(f, centre, ctx)
            if cv < 0 or (strict and cv <= 0):
                point = {str(s): c.str(20) for s, c in centre.items()}
                return IntervalResult(False, f"negative at {point}: {cv.str(15)}", done, point)
            # bisect the widest side
            s_wide = max(cell, key=lambda s: float((cell[s][1] - cell[s][0]).mid()))
            lo, hi = cell[s_wide]
            mid = (lo + hi) / 2
            mid = ctx.flint.arb(mid.mid())
            left, right = dict(cell), dict(cell)
            left[s_wide] = (lo, mid)
            right[s_wide] = (mid, hi)
            stack += [left, right]
    desc = ", ".join(f"{s} in [{lo}, {hi}]" for s, (lo, hi) in bounds.items())
    return IntervalResult(True, f"Arb ball arithmetic ({prec} bits), {done} boxes, on {desc}", done)
