"""Where the claim checker looks for counterexamples: points of a claim's domain, and certified evaluation.

:func:`points` draws exact rational points from the domains of a claim at several scales — extreme
values (δ near 0 and near 1, ε large and tiny, k up to 10^9), ends of bounded ranges, then random
ones — so that a violation that lives only at one scale is still met.  :func:`refine` improves a
violating point by a short coordinate search.  Nothing found here is reported until it is re-evaluated
with certified Arb balls at its exact rational coordinates (:func:`ball`).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction

import mpmath
import sympy as sp

from cdpsym.expr.domains import Interval
from cdpsym.expr.evaluate import ArbContext, MPContext, NotEvaluable, evaluate

__all__ = ["points", "ball", "approx", "refine", "in_domain", "rational"]

_POSITIVE = ("1e-12", "1e-6", "1e-3", "0.01", "0.1", "0.25", "0.5", "1", "2", "3", "5", "10", "30", "100", "1000",
             "1e6", "1e12")
_UNIT = ("1e-300", "1e-100", "1e-30", "1e-12", "1e-6", "1e-3", "0.01", "0.1", "0.3", "0.5", "0.7", "0.9", "0.99",
         "0.999999", "0.999999999999")
_INTEGERS = (1, 2, 3, 4, 5, 10, 30, 100, 1000, 10 ** 4, 10 ** 6, 10 ** 9)
_OFFSETS = ("1e-9", "1e-3", "0.1", "0.5", "1", "2", "10", "100", "1e4", "1e8")
_REAL = ("0", "1e-6", "0.1", "0.5", "1", "2", "10", "100", "1e6")


def rational(text: str) -> sp.Rational:
    return sp.Rational(Fraction(text))


def _scale_values(dom: Interval, lo: sp.Expr, hi: sp.Expr) -> list[sp.Expr]:
    """Candidate values of one parameter whose domain (ends evaluated) runs from lo to hi."""
    if dom.integer:
        start = int(sp.ceiling(lo)) if lo.is_finite else 1
        if lo.is_finite and dom.left_open and start == lo:
            start += 1
        out = [sp.Integer(start + n) for n in (0, 1, 2)] + [sp.Integer(n) for n in _INTEGERS]
        return [v for v in out if v >= start and (not hi.is_finite or v <= hi)]
    ends = ([lo] if lo.is_finite and not dom.left_open else []) + ([hi] if hi.is_finite and not dom.right_open else [])
    if lo == 0 and hi is sp.S.Infinity:
        return ends + [rational(x) for x in _POSITIVE]
    if lo == 0 and hi == 1:
        return ends + [rational(x) for x in _UNIT]
    if lo.is_finite and hi is sp.S.Infinity:
        base = _nice(lo)
        return ends + [base + rational(x) for x in _OFFSETS] + ([base * n for n in (2, 10)] if base > 0 else [])
    if lo is sp.S.NegativeInfinity and hi.is_finite:
        base = _nice(hi)
        return ends + [base - rational(x) for x in _OFFSETS]
    if lo is sp.S.NegativeInfinity:
        vals = [rational(x) for x in _REAL]
        return vals + [-v for v in vals if v]
    width = _nice(hi) - _nice(lo)
    fractions = ("1e-9", "1e-3", "0.1", "0.25", "0.5", "0.75", "0.9", "0.999", "0.999999999")
    out = [_nice(lo) + width * rational(f) for f in fractions]
    if not dom.left_open:
        out.insert(0, lo)
    if not dom.right_open:
        out.append(hi)
    return out


def _nice(value: sp.Expr) -> sp.Rational:
    """A rational at (or, for irrational ends, within 1e-30 relative of) *value*."""
    if isinstance(value, sp.Rational):
        return value
    v = mpmath.mpf(approx(value, 40))
    if not mpmath.isfinite(v) or (v != 0 and abs(mpmath.log10(abs(v))) > 1000):
        raise ValueError("a domain end beyond 10^±1000: no exact point is drawn near it")
    return sp.Rational(Fraction(mpmath.nstr(v, 35, min_fixed=-mpmath.inf, max_fixed=mpmath.inf)))


def approx(e: sp.Expr, dps: int = 30, values: Mapping | None = None) -> mpmath.mpf:
    """*e* in mpmath at *dps* digits (raises NotEvaluable, ZeroDivisionError, ValueError)."""
    with mpmath.workdps(dps):
        return evaluate(e, dict(values or {}), MPContext(dps))


def ball(e: sp.Expr, values: Mapping, prec: int = 200):
    """A certified Arb ball for *e* at exact *values*."""
    ctx = ArbContext(prec)
    with ctx:
        exact = {s: ctx.number(v) for s, v in values.items()}
        return evaluate(e, exact, ctx)


def in_domain(point: Mapping[sp.Symbol, sp.Expr], domains: Mapping[sp.Symbol, Interval]) -> bool:
    """Is *point* (exact values) inside every domain, exactly?"""
    for s, dom in domains.items():
        v = point[s]
        concrete = Interval(dom.lo.xreplace(dict(point)), dom.hi.xreplace(dict(point)), dom.left_open,
                            dom.right_open, dom.integer)
        if concrete.contains(v) is not True:
            return False
    return True


def points(domains: Mapping[sp.Symbol, Interval], *, limit: int = 400, seed: int = 20261124
           ) -> Iterator[dict[sp.Symbol, sp.Expr]]:
    """Exact points of the domains: the product of per-parameter scales (capped at *limit*, in a fixed
    pseudo-random order that keeps the extremes), every one inside the domains."""
    symbols = list(domains)
    if not symbols:
        yield {}
        return
    rng = random.Random(seed)
    independent = [s for s in symbols if not (domains[s].lo.free_symbols | domains[s].hi.free_symbols)]
    scales = {s: _scale_values(domains[s], domains[s].lo, domains[s].hi) for s in independent}
    def extremeness(combo: tuple) -> tuple[int, int]:
        """Central scales first; then one parameter at an extreme and the others central; and so on."""
        offsets = [abs(2 * scales[s].index(v) - len(scales[s])) for s, v in zip(independent, combo)]
        outliers = sum(1 for s, o in zip(independent, offsets) if 2 * o > len(scales[s]))
        return outliers, sum(offsets)

    combos = list(itertools.product(*(scales[s] for s in independent)))
    rng.shuffle(combos)
    if len(combos) > limit:
        central = sorted(combos, key=extremeness)[: limit // 2]
        chosen = set(central)
        rest = [c for c in combos if c not in chosen]
        combos = [c for pair in itertools.zip_longest(central, rest[: limit - len(central)]) for c in pair if c]
    else:
        combos.sort(key=extremeness)
    seen = 0
    for combo in combos:
        base = dict(zip(independent, combo))
        for point in _dependents(base, symbols, domains, rng):
            if in_domain(point, domains):
                seen += 1
                yield point
                if seen >= limit:
                    return


def _dependents(base: dict, symbols: list, domains: Mapping, rng: random.Random) -> Iterator[dict]:
    """Complete *base* with values of the parameters whose domains name others (a few scales each)."""
    dependent = [s for s in symbols if s not in base]
    if not dependent:
        yield dict(base)
        return
    s, rest = dependent[0], dependent[1:]
    dom = domains[s]
    try:
        lo = dom.lo.xreplace(base) if dom.lo.is_finite is not False else dom.lo
        hi = dom.hi.xreplace(base) if dom.hi.is_finite is not False else dom.hi
        if lo.free_symbols or hi.free_symbols:
            return
        lo_n = _nice(lo) if lo.is_finite else lo
        hi_n = _nice(hi) if hi.is_finite else hi
    except (NotEvaluable, ValueError, ZeroDivisionError, TypeError):
        return
    values = _scale_values(dom, lo_n, hi_n)
    if lo.is_finite and not isinstance(lo, sp.Rational):  # irrational end: step just inside it
        values = [v for v in values if v != lo_n]
    for v in rng.sample(values, min(4, len(values))):
        point = dict(base)
        point[s] = v
        if rest:
            yield from _dependents(point, symbols, domains, rng)
        else:
            yield point


def refine(point: dict, domains: Mapping[sp.Symbol, Interval], score: Callable[[dict], float | None],
           rounds: int = 3) -> dict:
    """A short coordinate search for a larger *score* (violation margin) from *point*, staying inside
    the domains; returns the best exact point found."""
    best, best_score = dict(point), score(point)
    if best_score is None:
        return best
    for _ in range(rounds):
        improved = False
        for s, dom in domains.items():
            if dom.integer:
                steps = [best[s] + d for d in (-1, 1, -10, 10)] + [best[s] * 2, sp.floor(best[s] / 2)]
            else:
                steps = [best[s] * f for f in (rational("0.5"), rational("0.9"), rational("1.1"), 2)]
                steps += [best[s] + d for d in (rational("0.1"), rational("-0.1"))]
            for v in steps:
                trial = dict(best)
                trial[s] = v
                if not in_domain(trial, domains):
                    continue
                sc = score(trial)
                if sc is not None and sc > best_score:
                    best, best_score, improved = trial, sc, True
        if not improved:
            break
    return best
