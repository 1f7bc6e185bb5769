"""Parameter domains: intervals with open/closed ends and integrality.

A domain can be

* **checked**: ``Interval.open(0, 1).contains(sp.Rational(1, 2))``;
* **reparametrized** for symbolic sign arguments: ``delta in (0, 1)`` becomes
  ``delta = 1/(1 + u)`` with ``u`` a positive symbol, so sympy's assumption
  system knows ``log(1/delta) > 0``;
* **sampled** (hypothesis strategies, for property checks) and **boxed** (for
  interval arithmetic).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
import sympy as sp

from cdpsym.errors import InvalidParameter

__all__ = ["Interval", "positive", "nonnegative", "real", "open_unit", "greater_than", "naturals", "at_least"]


#: the precision (bits) a Python float becomes a sympy Float at: 17 significant digits, so it is exact
_FLOAT_PREC = mpmath.libmp.dps_to_prec(17)


def as_expr(value: object) -> sp.Expr:
    """Convert a Python number or sympy expression to a sympy expression.

    Strings are refused on purpose: user text is parsed by the claim grammar,
    never by sympy.
    """
    if isinstance(value, sp.Basic):
        return value  # type: ignore[return-value]
    if isinstance(value, bool):
        raise InvalidParameter(f"expected a number, got the boolean {value!r}")
    if isinstance(value, int):
        return sp.Integer(value)
    if isinstance(value, Fraction):
        return sp.Rational(value.numerator, value.denominator)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidParameter(f"expected a finite number, got {value!r}")
        if value == 0:
            return sp.Float(value, 17)
        return sp.Float._new(mpmath.libmp.from_float(value), _FLOAT_PREC)  # = sp.Float(value, 17), without parsing
    raise InvalidParameter(f"expected a number or a sympy expression, got {type(value).__name__} {value!r}")


@dataclass(frozen=True)
class Interval:
    """A real interval ``lo .. hi`` with open/closed ends, optionally integral.

    ``sample_lo``/``sample_hi`` bound where property checks draw values (an
    unbounded domain still needs a finite sampling range); ``log_scale`` draws
    the value's logarithm uniformly (right for δ, which spans 1e-300 … 1).
    """

    lo: sp.Expr = sp.S.NegativeInfinity
    hi: sp.Expr = sp.S.Infinity
    left_open: bool = True
    right_open: bool = True
    integer: bool = False
    sample_lo: float | None = None
    sample_hi: float | None = None
    log_scale: bool = False

    def __post_init__(self) -> None:
        # a domain is a set of real numbers: an infinite end is never in it, whatever bracket was written
        # ([0, oo] is [0, oo)), so no variable can take the value +-oo
        if self.lo == sp.S.NegativeInfinity and not self.left_open:
            object.__setattr__(self, "left_open", True)
        if self.hi == sp.S.Infinity and not self.right_open:
            object.__setattr__(self, "right_open", True)

    # -- construction helpers -------------------------------------------------
    @classmethod
    def open(cls, lo: object, hi: object, **kw: object) -> "Interval":
        return cls(as_expr(lo), as_expr(hi), True, True, **kw)  # type: ignore[arg-type]

    @classmethod
    def closed(cls, lo: object, hi: object, **kw: object) -> "Interval":
        return cls(as_expr(lo), as_expr(hi), False, False, **kw)  # type: ignore[arg-type]

    def with_sampling(self, lo: float, hi: float, log_scale: bool | None = None) -> "Interval":
        return Interval(self.lo, self.hi, self.left_open, self.right_open, self.integer, lo, hi,
                        self.log_scale if log_scale is None else log_scale)

    # -- membership -------------------------------------------------------------
    def contains(self, value: object) -> bool | None:
        """True/False when decidable, None when sympy cannot decide (symbolic value)."""
        v = as_expr(value)
        if v.is_extended_real is False or v.is_finite is False or v.has(sp.nan, sp.zoo):
            return False  # not a real number (+-oo, a complex number): in no domain
        if self.integer and v.is_integer is False:
            return False
        checks = []
        if self.lo is not sp.S.NegativeInfinity:
            checks.append(sp.StrictGreaterThan(v, self.lo) if self.left_open else sp.GreaterThan(v, self.lo))
        if self.hi is not sp.S.Infinity:
            checks.append(sp.StrictLessThan(v, self.hi) if self.right_open else sp.LessThan(v, self.hi))
        verdicts = []
        for c in checks:
            if c is sp.true or c is sp.false:
                verdicts.append(bool(c))
            else:
                verdicts.append(_decide_sign_relation(c))
        if False in verdicts:
            return False
        if None in verdicts:
            return None
        if self.integer and v.is_integer is None:
            return None
        return True

    def require(self, name: str, value: object) -> sp.Expr:
        """Return ``value`` as an expression, raising InvalidParameter if it is definitely outside."""
        v = as_expr(value)
        if self.contains(v) is False:
            raise InvalidParameter(f"{name} must be {self.describe_words()}, got {name}={value}")
        return v

    def describe(self) -> str:
        left = "(" if self.left_open else "["
        right = ")" if self.right_open else "]"
        body = f"{left}{_plain(self.lo)}, {_plain(self.hi)}{right}"
        return f"integers in {body}" if self.integer else body

    def describe_words(self) -> str:
        """``positive``, ``non-negative``, ``> 1``, ``in (0, 1)`` …"""
        if self.hi is sp.S.Infinity and not self.integer:
            if self.lo == 0:
                return "positive" if self.left_open else "non-negative"
            if self.lo is not sp.S.NegativeInfinity:
                return f"{'>' if self.left_open else '>='} {self.lo}"
        if self.integer and self.hi is sp.S.Infinity and self.lo.is_finite:
            return f"an integer {'>' if self.left_open else '>='} {self.lo}"
        return f"in {self.describe()}"

    def latex(self, symbol: sp.Symbol, name: str) -> str:
        """``\\delta\\in(0,1)``, ``k\\in\\mathbb{N}_{\\ge 1}`` …"""
        if self.integer:
            if self.hi is sp.S.Infinity:
                lo = self.lo + (1 if self.left_open else 0)
                return rf"{name}\in\mathbb{{N}},\ {name}\ge {sp.latex(lo)}"
            if self.lo is not sp.S.NegativeInfinity:  # the integers between two ends: 1 <= k < alpha
                below = "<" if self.left_open else r"\le"
                above = "<" if self.right_open else r"\le"
                return rf"{name}\in\mathbb{{Z}},\ {sp.latex(self.lo)} {below} {name} {above} {sp.latex(self.hi)}"
        left = "(" if self.left_open else "["
        right = ")" if self.right_open else "]"
        lo = r"-\infty" if self.lo is sp.S.NegativeInfinity else sp.latex(self.lo)
        hi = r"\infty" if self.hi is sp.S.Infinity else sp.latex(self.hi)
        return rf"{name}\in{left}{lo},{hi}{right}"

    # -- reparametrization for sign arguments ------------------------------------
    def reparametrize(self, symbol: sp.Symbol, closed_rational: bool = False, relax_integer: bool = False,
                      keep_integer: bool = False) -> sp.Expr:
        """An expression in a fresh dummy ``u`` that ranges exactly over (a subset of) the domain.

        The image is exactly the domain (for a closed finite interval the symbol is returned unchanged, so
        only its sympy assumptions are used, unless ``closed_rational``: then ``lo + (hi - lo) 4u/(1 + u)^2``,
        ``u >= 0``, whose factor ``4u/(1 + u)^2`` takes every value of [0, 1] -- 0 at u = 0, 1 at u = 1 --
        and no other): a sign proved for every ``u`` holds on the whole domain.  An integer domain is an integer
        dummy (all integers), or above a finite lower end the least integer plus a non-negative one; with
        ``relax_integer`` one with two finite ends is parametrized as the real interval with the same ends, a
        superset of its integers (for proving a sign only: a point of the cover need not be in the domain); with
        ``keep_integer`` an integer domain keeps its symbol (its assumptions, which the domain implies, are used).
        """
        lo, hi = self.lo, self.hi
        if self.integer and keep_integer:  # the symbol itself: its sympy assumptions follow from the domain
            return symbol
        relaxed = relax_integer and lo is not sp.S.NegativeInfinity and hi is not sp.S.Infinity
        if self.integer and not relaxed:  # relaxed: the real interval with the same ends, which holds its integers
            if lo is sp.S.NegativeInfinity or hi is not sp.S.Infinity:
                return sp.Dummy(symbol.name, integer=True)
            n = sp.Dummy(symbol.name + "_n", integer=True, nonnegative=True)
            # the least integer in the domain: floor(lo) + 1 above an open end, ceiling(lo) at a closed one
            start = sp.floor(lo) + 1 if self.left_open else sp.ceiling(lo)
            return start + n
        if lo is sp.S.NegativeInfinity and hi is sp.S.Infinity:
            return sp.Dummy(symbol.name, real=True)
        if hi is sp.S.Infinity:
            u = sp.Dummy(symbol.name + "_u", positive=True) if self.left_open else sp.Dummy(symbol.name + "_u", nonnegative=True)
            return lo + u
        if lo is sp.S.NegativeInfinity:
            u = sp.Dummy(symbol.name + "_u", positive=True) if self.right_open else sp.Dummy(symbol.name + "_u", nonnegative=True)
            return hi - u
        # finite interval; each parametrization covers exactly the interval:
        #   (lo, hi): lo + (hi-lo)/(1+u), u > 0      (lo, hi]: lo + (hi-lo)/(1+u), u >= 0
        #   [lo, hi): hi - (hi-lo)/(1+u), u >= 0     [lo, hi]: no rational one -- keep the symbol
        if not self.left_open and not self.right_open:
            if not closed_rational and not relaxed:
                return symbol
            u = sp.Dummy(symbol.name + "_u", nonnegative=True)
            return lo + (hi - lo) * 4 * u / (1 + u) ** 2
        if not self.left_open:
            u = sp.Dummy(symbol.name + "_u", nonnegative=True)
            return hi - (hi - lo) / (1 + u)
        u = sp.Dummy(symbol.name + "_u", positive=True) if self.right_open else sp.Dummy(symbol.name + "_u", nonnegative=True)
        return lo + (hi - lo) / (1 + u)

    # -- sampling and boxes ---------------------------------------------------------
    def sampling_range(self) -> tuple[float, float]:
        lo = self.sample_lo if self.sample_lo is not None else (
            float(self.lo) if self.lo.is_finite else -10.0)
        hi = self.sample_hi if self.sample_hi is not None else (
            float(self.hi) if self.hi.is_finite else lo + 10.0 if lo > -10 else 10.0)
        return lo, hi

    def strategy(self):  # -> hypothesis SearchStrategy[sympy.Expr]
        """A hypothesis strategy of exact sympy values inside the domain."""
        from hypothesis import strategies as st

        lo, hi = self.sampling_range()
        if self.integer:
            ilo = int(sp.ceiling(lo))
            if self.left_open and ilo == lo:
                ilo += 1
            return st.integers(min_value=ilo, max_value=int(hi)).map(sp.Integer)
        if self.log_scale:
            import math

            llo, lhi = math.log10(lo), math.log10(hi)
            base = st.floats(min_value=llo, max_value=lhi, allow_nan=False)
            values = base.map(lambda e: 10.0 ** e)
        else:
            values = st.floats(min_value=lo, max_value=hi, allow_nan=False, allow_infinity=False)
        return values.map(lambda f: sp.Rational(f)).filter(lambda v: self.contains(v) is True)

    def box(self) -> tuple[sp.Expr, sp.Expr]:
        """Finite endpoints for interval arithmetic: the domain clipped to its sampling range."""
        lo, hi = self.sampling_range()
        return sp.Rational(lo), sp.Rational(hi)


def _plain(e: sp.Expr) -> str:
    if e is sp.S.Infinity:
        return "oo"
    if e is sp.S.NegativeInfinity:
        return "-oo"
    return str(e)


def _decide_sign_relation(rel: sp.Basic) -> bool | None:
    diff = rel.lhs - rel.rhs  # type: ignore[attr-defined]
    if isinstance(rel, sp.StrictGreaterThan):
        return _truth(diff.is_positive)
    if isinstance(rel, sp.GreaterThan):
        return _truth(diff.is_nonnegative)
    if isinstance(rel, sp.StrictLessThan):
        return _truth(diff.is_negative)
    if isinstance(rel, sp.LessThan):
        return _truth(diff.is_nonpositive)
    return None


def _truth(v: bool | None) -> bool | None:
    return None if v is None else bool(v)


def positive(**kw: object) -> Interval:
    return Interval(sp.S.Zero, sp.S.Infinity, True, True, **kw)  # type: ignore[arg-type]


def nonnegative(**kw: object) -> Interval:
    return Interval(sp.S.Zero, sp.S.Infinity, False, True, **kw)  # type: ignore[arg-type]


def real(**kw: object) -> Interval:
    return Interval(**kw)  # type: ignore[arg-type]


def open_unit(**kw: object) -> Interval:
    return Interval(sp.S.Zero, sp.S.One, True, True, **kw)  # type: ignore[arg-type]


def greater_than(lo: object, **kw: object) -> Interval:
    return Interval(as_expr(lo), sp.S.Infinity, True, True, **kw)  # type: ignore[arg-type]


def at_least(lo: object, **kw: object) -> Interval:
    return Interval(as_expr(lo), sp.S.Infinity, False, True, **kw)  # type: ignore[arg-type]


def naturals(start: int = 1, **kw: object) -> Interval:
    return Interval(sp.Integer(start), sp.S.Infinity, False, True, True, **kw)  # type: ignore[arg-type]
