"""Shared plumbing of the mechanisms: parameter checks, printing, precision, root-finding.

Nothing here is mathematics about privacy; it is the machinery the value
objects share so that each mechanism module reads as its formulas.

* **Parameters** are sympy expressions (numbers or symbols).  A definitely
  invalid value raises :class:`~cdpsym.errors.InvalidParameter` with a message
  that repeats it (``sigma must be positive, got sigma=-1``); a symbolic value
  that *might* be valid is accepted (sympy ``stats/rv.py::_value_check``).
* **Numbers** are mpmath ``mpf``.  Precision is only ever set locally with
  ``mp.workdps``; the global ``mp.dps`` is never touched.
* **Escalation**: a computation that can lose digits to cancellation is
  written as ``kernel(w) -> (value, scale)`` evaluated at ``w`` working digits,
  where ``scale`` is the magnitude of the largest cancelling term; it is
  re-run at higher precision until ``w - log10(scale/|value|)`` covers the
  requested digits (:func:`escalate`).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction

import mpmath
import sympy as sp
from mpmath import mp

from cdpsym.errors import InvalidParameter, PrecisionError
from cdpsym.expr.domains import as_expr
from cdpsym.expr.symbols import LATEX_NAMES

__all__: list[str] = []  # private module

#: guard digits added to the requested precision for every numeric kernel
GUARD = 15
#: the largest working precision (decimal digits) escalation may reach
MAX_DPS = 20000


# -- parameters ------------------------------------------------------------------------------------

def fmt(value: object) -> str:
    """A short, pasteable rendering of a parameter value (``0.9`` rather than ``0.90000000000000002``)."""
    if isinstance(value, sp.Float):
        as_float = float(value)
        if mpmath.libmp.from_float(as_float) == value._mpf_:  # exactly a double (both normalized)
            return repr(as_float)
        return str(value)
    if isinstance(value, sp.Rational):  # sympy's own printing, without the printer's dispatch
        return str(int(value.p)) if value.q == 1 else f"{int(value.p)}/{int(value.q)}"
    if isinstance(value, sp.Basic):
        return str(value)
    if isinstance(value, mpmath.mpf):
        return mpmath.nstr(value, 20)
    return str(value)


def parameter(name: str, value: object, *, positive: bool = False, nonnegative: bool = False,
              integer: bool = False) -> sp.Expr:
    """Convert *value* to a real sympy expression, rejecting what is definitely outside the domain.

    >>> parameter("sigma", 2, positive=True)
    2
    >>> parameter("sigma", -1, positive=True)
    Traceback (most recent call last):
    ...
    cdpsym.errors.InvalidParameter: sigma must be positive, got sigma=-1
    """
    plain = _plain_number(value)
    if plain is not None:  # a finite rational or float: decide the domain by exact comparison, no assumptions
        expr, sign, is_integer = plain
        if positive and sign <= 0:
            raise InvalidParameter(f"{name} must be positive, got {name}={fmt(expr)}")
        if nonnegative and sign < 0:
            raise InvalidParameter(f"{name} must be non-negative, got {name}={fmt(expr)}")
        if integer and not is_integer:
            raise InvalidParameter(f"{name} must be an integer, got {name}={fmt(expr)}")
        return expr
    if isinstance(value, mpmath.mpf):
        if not mpmath.isfinite(value):
            raise InvalidParameter(f"{name} must be finite, got {name}={fmt(value)}")
        bits = max(53, value._mpf_[3])
        value = sp.Float._new(value._mpf_, bits)
    try:
        expr = as_expr(value)
    except InvalidParameter:
        raise InvalidParameter(f"{name} must be a real number or a sympy expression, got {name}={value!r}") from None
    if expr.is_extended_real is False or expr.has(sp.nan, sp.zoo):
        raise InvalidParameter(f"{name} must be real, got {name}={fmt(expr)}")
    if expr.is_finite is False:
        raise InvalidParameter(f"{name} must be finite, got {name}={fmt(expr)}")
    if positive and expr.is_positive is False:
        raise InvalidParameter(f"{name} must be positive, got {name}={fmt(expr)}")
    if nonnegative and expr.is_nonnegative is False:
        raise InvalidParameter(f"{name} must be non-negative, got {name}={fmt(expr)}")
    if integer and expr.is_integer is False:
        raise InvalidParameter(f"{name} must be an integer, got {name}={fmt(expr)}")
    return expr


def _plain_number(value: object) -> tuple[sp.Expr, int, bool] | None:
    """``(expr, sign, is_integer)`` for a finite int / float / Fraction / sympy Rational or Float, else ``None``.

    The sign and integrality are read off the exact value (a float's binary
    value, a rational's numerator), so this agrees with sympy's assumptions on
    these types without querying them; anything else takes the general path.
    """
    kind = type(value)
    if kind is int:
        return sp.Integer(value), (value > 0) - (value < 0), True
    if kind is float:
        if not math.isfinite(value):
            return None  # the general path words the error
        return as_expr(value), (value > 0) - (value < 0), value.is_integer()
    if kind is Fraction:
        return sp.Rational(value.numerator, value.denominator), (value > 0) - (value < 0), value.denominator == 1
    if isinstance(value, sp.Rational):  # Integer, Rational, and the singletons Zero, One, Half …
        p = int(value.p)
        return value, (p > 0) - (p < 0), int(value.q) == 1
    if isinstance(value, sp.Float):
        sign_bit, man, exp, _ = value._mpf_
        if not man:  # zero, or ±inf / nan (special values have a zero mantissa and a nonzero exponent)
            return (value, 0, True) if value._mpf_ == mpmath.libmp.fzero else None
        return value, -1 if sign_bit else 1, exp >= 0  # normalized: the mantissa is odd
    return None


def order(alpha: object) -> sp.Expr:
    """A Rényi order ``alpha`` in ``[1, oo]`` (``1`` is KL, ``oo`` the max divergence)."""
    if alpha is sp.oo or alpha == float("inf"):
        return sp.oo
    a = parameter("alpha", alpha)
    if (a - 1).is_negative:
        raise InvalidParameter(f"alpha must be at least 1, got alpha={fmt(a)}")
    return a


def require_numeric(owner: object, **params: sp.Expr) -> None:
    """Raise if any parameter of *owner* is symbolic: a numeric evaluation needs numbers."""
    for name, value in params.items():
        if isinstance(value, sp.Basic) and value.free_symbols:
            raise InvalidParameter(f"{name} is symbolic ({name}={fmt(value)}) in {owner!r}; "
                                   "a numeric evaluation needs a number")


def check_dps(dps: object) -> int:
    """*dps* if it is a usable number of decimal digits, else :class:`InvalidParameter`."""
    if isinstance(dps, bool) or not isinstance(dps, int) or dps < 1:
        raise InvalidParameter(f"dps must be a positive integer, got dps={dps!r}")
    if dps > MAX_DPS // 4:
        raise InvalidParameter(f"dps must be at most {MAX_DPS // 4}, got dps={dps}")
    return dps


def latex_of(expr: sp.Expr) -> str:
    """LaTeX of a parameter with cdpsym's symbol names (``\\varepsilon``, ``\\Delta`` …)."""
    return sp.latex(expr, symbol_names=LATEX_NAMES)


class LatexMixin:
    """``_latex`` for sympy's printer and ``_repr_latex_`` for Jupyter, from a ``latex()`` method."""

    def latex(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError

    def _latex(self, printer: object = None) -> str:
        return self.latex()

    def _repr_latex_(self) -> str:
        return f"${self.latex()}$"


# -- numbers ---------------------------------------------------------------------------------------

def to_mpf(value: object, name: str) -> mpmath.mpf:
    """*value* as an ``mpf`` at the current precision; symbolic or non-real values raise.

    Floats are taken at their exact binary value; sympy expressions are
    evaluated to the current precision (plus guard digits).
    """
    if isinstance(value, mpmath.mpf):
        return +value
    if isinstance(value, bool):
        raise InvalidParameter(f"{name} must be a number, got {name}={value!r}")
    if isinstance(value, int):
        return mp.mpf(value)
    if isinstance(value, Fraction):
        return mp.mpf(value.numerator) / value.denominator
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise InvalidParameter(f"{name} must be finite, got {name}={value!r}")
        return mp.mpf(value)
    if isinstance(value, sp.Basic):
        if value.free_symbols:
            raise InvalidParameter(
                f"{name} is symbolic ({name}={fmt(value)}); a numeric evaluation needs a number")
        if isinstance(value, sp.Rational):
            return mp.mpf(int(value.p)) / int(value.q)
        evaluated = sp.N(value, mp.dps + 10)
        if not isinstance(evaluated, sp.Float):
            if evaluated.is_extended_real is False or not evaluated.is_number:
                raise InvalidParameter(f"{name} must be real, got {name}={fmt(value)}")
            if evaluated.is_finite is False:
                raise InvalidParameter(f"{name} must be finite, got {name}={fmt(value)}")
            evaluated = sp.Float(evaluated, mp.dps + 10)
        return mp.mpf(evaluated)
    raise InvalidParameter(f"{name} must be a real number or a sympy expression, got {name}={value!r}")


@functools.lru_cache(maxsize=4096)
def _cached_mpf(expr: sp.Expr, name: str, prec: int) -> mpmath.mpf:
    with mp.workprec(prec + 20):
        value = to_mpf(expr, name)
    with mp.workprec(prec):
        return +value


def mpf_parameter(expr: sp.Expr, name: str) -> Callable[[], mpmath.mpf]:
    """A zero-argument function giving *expr* as an ``mpf`` at the caller's current precision.

    Conversions are cached per (expression, precision), so density callables
    and repeated profile evaluations do not re-run sympy's evaluator.
    """

    def value() -> mpmath.mpf:
        return _cached_mpf(expr, name, mp.prec)

    return value


def exact_key(value: sp.Expr) -> Fraction | sp.Expr:
    """An exact, cheap-to-add value for bookkeeping sums: a Fraction when rational, else the expression."""
    if isinstance(value, sp.Rational):
        return Fraction(int(value.p), int(value.q))
    if isinstance(value, sp.Float):
        exact = sp.Rational(value)  # the exact binary value of the float
        return Fraction(int(exact.p), int(exact.q))
    return value


def key_to_mpf(key: Fraction | sp.Expr, name: str = "loss") -> mpmath.mpf:
    """An :func:`exact_key` as an ``mpf`` at the current precision."""
    if isinstance(key, Fraction):
        return mp.mpf(key.numerator) / key.denominator
    return to_mpf(key, name)


def round_to(value: mpmath.mpf, dps: int) -> mpmath.mpf:
    """*value* rounded to *dps* significant digits (a fresh ``mpf``)."""
    with mp.workdps(dps):
        return +value


def escalate(kernel: Callable[[int], tuple[mpmath.mpf, mpmath.mpf]], dps: int,
             what: str = "value") -> mpmath.mpf:
    """Run ``kernel(w)`` at increasing working precision until the result has *dps* correct digits.

    ``kernel`` is called inside ``mp.workdps(w)`` and returns ``(value, scale)``,
    ``scale`` bounding the terms that cancel to give ``value`` (``scale = |value|``
    when nothing cancels).  The digits left are ``w - log10(scale/|value|)``.
    Raises :class:`PrecisionError` if ``MAX_DPS`` digits are not enough.
    """
    w = dps + GUARD
    while True:
        with mp.workdps(w):
            value, scale = kernel(w)
            if value == 0 and scale == 0:
                return round_to(value, dps)
            if value != 0 and mp.isfinite(value):
                lost = 0 if scale == 0 else max(0, int(mp.ceil(mp.log10(abs(scale) / abs(value)))))
                if w - lost >= dps + 5:
                    return round_to(value, dps)
                need = dps + GUARD + lost + 10
            elif mp.isinf(value):
                return round_to(value, dps)
            else:
                need = 2 * w
        if w >= MAX_DPS:
            raise PrecisionError(f"could not compute {what} to {dps} digits within {MAX_DPS} working digits")
        w = min(MAX_DPS, max(need, w + 10))


# -- root-finding ------------------------------------------------------------------------------------

def solve_decreasing(g: Callable[[mpmath.mpf], mpmath.mpf], lo: mpmath.mpf, hi: mpmath.mpf,
                     rel_tol: mpmath.mpf, max_iter: int = 2000, abs_tol: mpmath.mpf | None = None) -> mpmath.mpf:
    """The root of a decreasing *g* on ``[lo, hi]`` with ``g(lo) > 0 >= g(hi)``, returned from above.

    Illinois (modified regula falsi) with a bisection safeguard: a step that
    does not at least halve the bracket every third iteration is replaced by
    bisection, so convergence is never slower than bisection.  The returned
    value is the upper end of the final bracket, a point where ``g <= 0`` —
    the conservative side when *g* measures ``delta(eps) - target``.
    The bracket stops when ``hi - lo <= max(rel_tol * |hi|, abs_tol)`` (or when it cannot shrink).
    """
    floor = abs_tol if abs_tol is not None else mp.zero
    g_lo, g_hi = g(lo), g(hi)
    if not g_lo > 0:
        raise PrecisionError("solve_decreasing: the lower end of the bracket is not above the root")
    if g_hi > 0:
        raise PrecisionError("solve_decreasing: the upper end of the bracket is not at or below the root")
    side = 0
    reference_width = hi - lo
    for it in range(1, max_iter + 1):
        if g_hi == 0 or hi - lo <= max(rel_tol * abs(hi), floor):
            return hi
        force_bisection = False
        if it % 3 == 0:
            force_bisection = hi - lo > reference_width / 2
            reference_width = hi - lo
        x = (lo * g_hi - hi * g_lo) / (g_hi - g_lo)
        if force_bisection or not lo < x < hi:
            x = (lo + hi) / 2
        if not lo < x < hi:  # the bracket cannot shrink at this precision
            return hi
        gx = g(x)
        if gx > 0:
            lo, g_lo = x, gx
            if side == +1:
                g_hi /= 2
            side = +1
        else:
            hi, g_hi = x, gx
            if side == -1:
                g_lo /= 2
            side = -1
    raise PrecisionError(f"solve_decreasing did not converge in {max_iter} iterations")
