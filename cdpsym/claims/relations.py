"""Deciding a relation between closed forms over a domain: a kernel proof, or a certified counterexample.

:func:`prove` builds a one-part :class:`~cdpsym.proof.Theorem` whose chain is ``lhs op rhs`` with one
justification — ``algebra`` (an identity), ``sign`` (the sign of ``rhs - lhs`` from the domains),
``monotone`` (the difference vanishes at the lower end of one variable and grows), or ``interval``
(Arb branch-and-bound on a box covering the whole domain) — and lets the trusted core check it
(:func:`cdpsym.proof.symbolic_check`).  The verdict is the core's: *proved*, or *certified* when the
interval rule was used.

:func:`refute` searches the domain (:mod:`cdpsym.claims.search`) for a point where the relation fails,
then re-evaluates both sides there with certified Arb balls at the exact rational coordinates; only a
definite violation is returned.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from cdpsym.claims import search
from cdpsym.expr.domains import Interval
from cdpsym.expr.evaluate import NotEvaluable

__all__ = ["Proof", "Violation", "prove", "refute", "normalise", "bounded_box"]

_NORMAL = {"<=": ("<=", False), "<": ("<", False), ">=": ("<=", True), ">": ("<", True), "=": ("=", False)}


def normalise(lhs: sp.Expr, op: str, rhs: sp.Expr) -> tuple[sp.Expr, str, sp.Expr]:
    """``a >= b`` as ``b <= a``, ``a > b`` as ``b < a``."""
    new_op, flip = _NORMAL[op]
    return (rhs, new_op, lhs) if flip else (lhs, new_op, rhs)


@dataclass
class Proof:
    """A kernel verdict on ``lhs op rhs`` over the domains: ``status`` proved / certified / failed /
    supported / undecided; ``theorem`` the checked theorem (for rendering); ``method`` the rule."""

    status: str
    method: str = ""
    detail: str = ""
    theorem: object = None
    rules: tuple[str, ...] = ()


@dataclass
class Violation:
    """A point where ``lhs op rhs`` fails, certified: both sides as balls at the exact point."""

    point: dict
    lhs: object  # flint.arb
    rhs: object
    prec: int
    extra: dict = field(default_factory=dict)


def bounded_box(domains: Mapping[sp.Symbol, Interval]) -> dict | None:
    """A box of rationals containing every domain, when every end is bounded (symbolic ends enclosed in Arb
    over the boxes of the symbols they name); None if some domain is unbounded."""
    box: dict = {}
    for s, dom in domains.items():
        ends = []
        for end, up in ((dom.lo, False), (dom.hi, True)):
            if end.is_finite is False or end in (sp.S.Infinity, sp.S.NegativeInfinity):
                return None
            if end.free_symbols:
                if not end.free_symbols <= set(box):
                    return None
                from cdpsym.expr.evaluate import ArbContext, evaluate

                ctx = ArbContext(128)
                try:
                    with ctx:
                        b = evaluate(end, {v: ctx.ball(lo, hi) for v, (lo, hi) in box.items()}, ctx)
                except (NotEvaluable, ZeroDivisionError, ValueError):
                    return None
                if not b.is_finite():
                    return None
                edge = b.upper() if up else b.lower()
                ends.append(sp.Rational(str(edge.mid().str(30, radius=False)).replace("e", "E"))
                            + (sp.Rational(1, 10 ** 20) if up else -sp.Rational(1, 10 ** 20)))
            else:
                ends.append(_outward(sp.Rational(end), up))
        box[s] = (ends[0], ends[1])
    return box


def _outward(q: sp.Rational, up: bool) -> sp.Rational:
    """*q* itself when it is dyadic (exact in binary, so the kernel's Arb cover check can be exact); else moved
    outward by 2^-64 relative (a box may exceed the domain, never fall short of it)."""
    if q.q & (q.q - 1) == 0:
        return q
    nudge = (abs(q) + 1) / sp.Integer(2) ** 64
    return q + nudge if up else q - nudge


def _paths(domains: Mapping[sp.Symbol, Interval], depth: int = 3) -> list[tuple[sp.Symbol, ...]]:
    """Sequences of real variables with a finite lower end, to differentiate in (shortest first)."""
    usable = [s for s, d in domains.items() if not d.integer and d.lo.is_finite
              and not any(s in (o.lo.free_symbols | o.hi.free_symbols) for o in domains.values())]
    paths: list[tuple[sp.Symbol, ...]] = []
    for n in range(1, depth + 1):
        paths += [p for p in itertools.product(usable, repeat=n)]
    return paths[:14]


def _dyadic_inside(lo: sp.Expr, hi: sp.Expr, fraction: sp.Rational) -> sp.Rational | None:
    """A dyadic rational near lo + fraction*(hi - lo), strictly inside (lo, hi)."""
    target = lo + fraction * (hi - lo)
    for bits in range(2, 40):
        c = sp.Rational(int(sp.floor(target * 2 ** bits)), 2 ** bits)
        if lo < c < hi:
            return c
    return None


def _split_candidates(domains: Mapping[sp.Symbol, Interval], box: dict | None) -> list[tuple[str, object]]:
    """One real variable on a numeric range: cut it; below the cut, differentiate (up to three times, an
    interval enclosure at the end); above, an interval enclosure (bounded range) or differentiation."""
    from cdpsym.proof import interval, monotone, split

    if len(domains) != 1:
        return []
    (v, dom), = domains.items()
    if dom.integer or not dom.lo.is_number or not dom.lo.is_finite or dom.hi.free_symbols:
        return []
    hi = dom.hi if dom.hi.is_finite else dom.lo + 4
    out = []
    for fraction in (sp.Rational(1, 4), sp.Rational(1, 2), sp.Rational(1, 8)):
        c = _dyadic_inside(dom.lo, hi, fraction)
        if c is None:
            continue
        leaf = interval({v: (_outward(sp.Rational(dom.lo), False), c)}, max_boxes=800)
        belows = [monotone(v, leaf), monotone(v, monotone(v, leaf)), monotone(v, monotone(v, monotone(v, leaf)))]
        above = (interval({v: (c, box[v][1])}, max_boxes=2000) if box is not None
                 else monotone(v, monotone(v)))
        out += [(f"cases {v} <= {c} and {v} >= {c}", split(v, c, below, above)) for below in belows]
    return out


def _nested(path: tuple[sp.Symbol, ...]):
    from cdpsym.proof import monotone

    why = None
    for var in reversed(path):
        why = monotone(var, why)
    return why


def _theorem(lhs: sp.Expr, op: str, rhs: sp.Expr, domains: Mapping[sp.Symbol, Interval], why: object,
             name: str = "claim"):
    from cdpsym.proof import Chain, Part, Rel, Theorem

    chain = Chain(lhs)
    chain = chain.eq(rhs, why) if op == "=" else (chain.lt(rhs, why) if op == "<" else chain.le(rhs, why))
    part = Part(name=name, relation=Rel(lhs, op, rhs), proof=chain)
    return Theorem(name=name, reference="", source="claim", title=name, variables=dict(domains), parts=(part,))


def prove(lhs: sp.Expr, op: str, rhs: sp.Expr, domains: Mapping[sp.Symbol, Interval], *,
          deadline: float | None = None, name: str = "claim", quick: bool = False) -> Proof:
    """The strongest kernel verdict for ``lhs op rhs`` on *domains* (op normalised to ``<=``, ``<``, ``=``)."""
    from cdpsym.proof import algebra, interval, sign, symbolic_check
    from cdpsym.errors import ProofError

    lhs, op, rhs = normalise(lhs, op, rhs)
    candidates: list[tuple[str, object]] = [("algebra", algebra("an identity"))]
    if op != "=":
        candidates.append(("sign", sign("the sign of the difference on the domain")))
    if op != "=" and not quick:
        candidates += [(f"monotone in {', '.join(map(str, path))}", _nested(path)) for path in _paths(domains)]
        box = bounded_box(domains)
        if box is not None:
            candidates.append(("interval", interval(box, max_boxes=3000)))
        candidates += _split_candidates(domains, box)
    best = Proof("undecided", detail="no kernel rule closed the step")
    details = []
    for method, why in candidates:
        if deadline is not None and time.monotonic() > deadline:
            details.append("time budget spent")
            break
        try:
            thm = _theorem(lhs, op, rhs, domains, why, name)
            res = symbolic_check(thm)
        except (ProofError, ValueError, TypeError) as exc:
            details.append(f"{method}: {exc}")
            continue
        if res.status in ("proved", "certified"):
            return Proof(res.status, method, res.parts[0].detail if res.parts else "", thm, res.rules)
        step = res.parts[0].steps[0] if res.parts and res.parts[0].steps else None
        details.append(f"{method}: {step.detail if step is not None else res.status}")
        if res.status == "failed" and method != "algebra":
            best = Proof("failed", method, step.detail if step is not None else "")
    if best.status != "failed":
        best.detail = "; ".join(details)
    return best


def _holds(diff: mpmath.mpf, op: str) -> bool:
    return diff >= 0 if op == "<=" else (diff > 0 if op == "<" else diff == 0)


def refute(lhs: sp.Expr, op: str, rhs: sp.Expr, domains: Mapping[sp.Symbol, Interval], *,
           deadline: float | None = None, limit: int = 300) -> Violation | None:
    """A certified point of *domains* where ``lhs op rhs`` fails, or None."""
    lhs, op, rhs = normalise(lhs, op, rhs)

    def margin(point: dict) -> float | None:
        """How badly the relation fails at *point* (relative; > 0 when it fails), in 30-digit arithmetic."""
        try:
            a = search.approx(lhs, 30, point)
            b = search.approx(rhs, 30, point)
        except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
            return None
        if not (mpmath.isfinite(a) and mpmath.isfinite(b)) or isinstance(a, mpmath.mpc) or isinstance(b, mpmath.mpc):
            return None
        scale = abs(a) + abs(b) + mpmath.mpf(10) ** -300
        if op == "=":
            return float(abs(b - a) / scale)
        return float((a - b) / scale) if (a - b) != 0 else (0.0 if op == "<=" else 1e-300)

    found: list[tuple[float, dict]] = []
    for point in search.points(domains, limit=limit):
        if deadline is not None and time.monotonic() > deadline:
            break
        m = margin(point)
        if m is not None and (m > 0 if op != "<=" else m > 0):
            found.append((m, point))
            if len(found) >= 8:
                break
    found.sort(key=lambda x: -x[0])
    for _, point in found[:4]:
        better = search.refine(point, domains, margin) if op != "=" else point
        for candidate in (better, point):
            v = certify_violation(lhs, op, rhs, candidate)
            if v is not None:
                return v
    if not domains:
        return certify_violation(lhs, op, rhs, {})
    return None


def certify_violation(lhs: sp.Expr, op: str, rhs: sp.Expr, point: dict) -> Violation | None:
    """Both sides at the exact *point* in Arb, escalating precision; a Violation only if certain."""
    if op in ("=", "<") and point is not None:
        exact = sp.simplify((rhs - lhs).xreplace(point)) if _small(lhs, rhs) else None
        if op == "<" and exact == 0:
            return Violation(point, *_balls(lhs, rhs, point, 200), 200, {"exactly_equal": True})
    for prec in (128, 512, 2048, 8192):
        try:
            a, b = _balls(lhs, rhs, point, prec)
        except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
            return None
        if not (a.is_finite() and b.is_finite()):
            return None
        d = b - a
        if op == "<=" and d < 0:
            return Violation(point, a, b, prec)
        if op == "<" and d < 0:
            return Violation(point, a, b, prec)
        if op == "=" and (d < 0 or d > 0):
            return Violation(point, a, b, prec)
        if d.rad() == 0 and op != "=":
            return None
    return None


def _small(lhs: sp.Expr, rhs: sp.Expr) -> bool:
    return sp.count_ops(lhs) + sp.count_ops(rhs) < 60


def _balls(lhs: sp.Expr, rhs: sp.Expr, point: dict, prec: int):
    return search.ball(lhs, point, prec), search.ball(rhs, point, prec)
