"""Numeric check: each part's statement against an independent ground truth.

The ground truth of a part computes its left side for a concrete witness
(quadrature of the definition, the exact privacy profile, enumeration) at
``dps`` digits; the right side is the statement itself evaluated by the
numeric kernel.  A witness ``(name, value, opaque)`` also gives the values of
opaque terms of the right side (``E[X]`` for its law), computed from the law.
This is evidence, never proof — which is why it is a separate column of the
report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

import mpmath
import sympy as sp

from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.proof.algebra import opaque_terms

__all__ = ["Comparison", "compare_part", "numeric_check", "NumericResult", "values_at"]


@dataclass(frozen=True)
class Comparison:
    part: str
    point: Mapping[str, str]
    witness: str
    truth: str
    bound: str
    op: str
    ok: bool
    digits: int | None = None  # agreement digits for equalities / tight cases


@dataclass(frozen=True)
class NumericResult:
    status: str  # passed | failed | skipped
    dps: int
    comparisons: tuple[Comparison, ...]

    @property
    def failures(self) -> tuple[Comparison, ...]:
        return tuple(c for c in self.comparisons if not c.ok)


def values_at(point: Mapping[Any, Any], variables) -> dict[sp.Symbol, mpmath.mpf]:
    """Concrete mpf values for a parameter point given by name (decimal strings keep exactness)."""
    by_name = {str(v): v for v in variables}
    out = {}
    for name, value in point.items():
        sym = by_name.get(str(name), name if isinstance(name, sp.Symbol) else None)
        if sym is None:
            raise KeyError(f"no variable {name!r}")
        if isinstance(value, sp.Basic):
            out[sym] = evaluate(value, {}, MPContext())
        else:
            out[sym] = mpmath.mpf(value) if not isinstance(value, mpmath.mpf) else value
    return out


def sequence_values(point: Mapping[Any, Any], sequences) -> dict:
    """The terms of the theorem's sequences at a point: ``{"rho": "0.1 0.5 2"}`` (or a list) gives
    ``{rho(1): 0.1, rho(2): 0.5, rho(3): 2}``."""
    out = {}
    for f in sequences:
        value = point.get(str(f))
        if value is None:
            continue
        terms = value.split() if isinstance(value, str) else list(value)
        for j, term in enumerate(terms, 1):
            out[f(sp.Integer(j))] = term if isinstance(term, mpmath.mpf) else mpmath.mpf(str(term))
    return out


def _digits(a, b) -> int:
    if a == b:
        return mpmath.mp.dps
    scale = max(abs(a), abs(b))
    if scale == 0:
        return mpmath.mp.dps
    err = abs(a - b) / scale
    return int(max(0, -mpmath.log10(err)))


def compare_part(part, values: Mapping[sp.Symbol, Any], dps: int) -> list[Comparison]:
    """All witness comparisons of one part at one point (inside ``workdps(dps)``)."""
    if part.ground_truth is None:
        return []
    shown = {str(k): mpmath.nstr(v, 12) for k, v in values.items()}
    rel = part.relation
    tol = mpmath.mpf(10) ** (-(dps - 12))
    out = []
    for witness, truth, *own in part.ground_truth(values, dps):
        # a witness may give the values of the opaque terms of the right side (E[X], E[X²]) for its own law,
        # computed from that law; the right side is still the statement's formula, evaluated at them
        given = dict(own[0]) if own else {}
        if any(isinstance(key, sp.Symbol) or opaque_terms(key) != {key} for key in given):
            raise ValueError(f"{part.name}: a witness may give values of opaque terms only (E[X], a divergence), "
                             f"not of variables: {sorted(map(str, given))}")
        bound = evaluate(rel.rhs, {**values, **given}, MPContext(dps))
        scale = max(abs(bound), abs(truth), mpmath.mpf(10) ** (-dps))
        if rel.op == "=":
            digits = _digits(truth, bound)
            ok = digits >= dps - 12
        else:
            slack = bound - truth
            # a strict '<' must show a gap beyond rounding: equality at the working precision is not '<'
            ok = slack >= -tol * scale if rel.op == "<=" else slack > tol * scale
            digits = _digits(truth, bound) if abs(slack) <= tol * scale * 10 else None
        out.append(Comparison(part.name, shown, witness, mpmath.nstr(truth, 20), mpmath.nstr(bound, 20), rel.op,
                              bool(ok), digits))
    return out


def numeric_check(theorem, dps: int = 50) -> NumericResult:
    comps: list[Comparison] = []
    if not theorem.numeric_points or all(p.ground_truth is None for p in theorem.parts):
        return NumericResult("skipped", dps, ())
    with mpmath.workdps(dps):
        for point in theorem.numeric_points:
            for part in theorem.parts:
                names = {str(v) for v in part.variables}
                sub = {k: v for k, v in point.items() if str(k) in names}
                values = values_at(sub, part.variables)
                values.update(sequence_values(point, getattr(theorem, "sequences", None) or {}))
                comps += compare_part(part, values, dps)
    status = "passed" if comps and all(c.ok for c in comps) else ("failed" if comps else "skipped")
    return NumericResult(status, dps, tuple(comps))
