r"""Certified numbers: Arb balls that enclose an exact value, rounded outward to decimals.

Everything :mod:`cdpsym.accounting` returns is a :class:`Certified` (or a
:class:`CertifiedBounds`, two of them): a python-flint ``arb`` ball that is
*proved* to contain the exact value, plus a decimal string rounded in the safe
direction — up for ``epsilon``, ``delta`` and ``sigma``, down for ``eps0`` —
and the number of its significant digits that are certified.

This module holds the plumbing every accountant shares:

* **Inputs** (:func:`exact_input`, :func:`real_input`, :func:`to_arb`):
  ``int``, :class:`fractions.Fraction`, sympy ``Rational``, or a decimal
  *string* (``"1e-10"`` is exactly ``10**-10``) become exact ``fmpq``; a
  Python ``float`` (or a sympy ``Float``) is taken at its exact binary value;
  an irrational sympy expression (``sqrt(10)/2``, ``log(3)``) is kept and
  enclosed in a ball by Arb at whatever precision the caller works at.
* **Rounding** (:func:`round_ball`): the endpoint on the safe side is rounded
  to ``digits`` significant decimal digits, away from the truth, with exact
  integer arithmetic; the certified digits are then read off the ball's
  other endpoint.  *Certified digits* ``d`` means: for direction ``up``,
  ``0 <= rounded - v <= 10**(e - d + 1)`` for the exact value ``v``, ``e``
  the decimal exponent of ``rounded`` (one unit in the ``d``-th significant
  place); for ``down`` the same with ``v - rounded``.
* **Escalation** (:func:`certify`): a computation is written as
  ``compute(prec) -> arb``; it is re-run at doubled precision until the ball
  is narrow enough for the requested digits.  A computation that cannot
  decide something at the current precision (an Arb comparison that is
  neither true nor false) raises :class:`NeedPrecision`.  Past
  :data:`MAX_PREC` bits the call raises :class:`~cdpsym.errors.PrecisionError`
  saying what could not be certified.

Precision discipline: the Arb working precision is only ever set locally
(``flint.ctx.workprec``); the global ``flint.ctx.prec`` is restored on exit.

>>> c = certify("delta", lambda prec: arb(1) / 3, digits=5, method="demo", query={"x": "1/3"})
>>> c.rounded, c.direction, c.digits, c.exact
('0.33334', 'up', 5, True)
>>> c.float >= 1 / 3
True
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Union

import mpmath
import sympy as sp
from flint import arb, ctx, fmpq, fmpz

from cdpsym.errors import InvalidParameter, PrecisionError

__all__ = [
    "Certified",
    "CertifiedBounds",
    "Query",
    "own_query",
    "NeedPrecision",
    "Real",
    "QUANTITIES",
    "DEFAULT_DIGITS",
    "MAX_DIGITS",
    "MAX_PREC",
    "exact_input",
    "real_input",
    "to_arb",
    "text",
    "check_digits",
    "require_open_unit",
    "require_closed_unit",
    "require_composition_count",
    "MAX_COUNT",
    "require_positive",
    "require_nonnegative",
    "require_count",
    "arb_to_fraction",
    "ball_endpoints",
    "round_ball",
    "certify",
    "certified_from_ball",
    "certified_from_interval",
    "certified_rational",
    "bits_for_digits",
    "exact_mid",
    "prove_sign",
    "certify_root",
    "solve_monotone",
]

#: the quantities a :class:`Certified` may carry, and the safe rounding direction of each
QUANTITIES = {"epsilon": "up", "delta": "up", "sigma": "up", "eps0": "down"}
#: the range each quantity is known to lie in (balls are clipped to it before rounding)
RANGES: dict[str, tuple[Fraction | None, Fraction | None]] = {
    "epsilon": (Fraction(0), None), "delta": (Fraction(0), Fraction(1)),
    "sigma": (Fraction(0), None), "eps0": (Fraction(0), None)}
#: significant digits certified when the caller does not ask for a number
DEFAULT_DIGITS = 10
#: the most significant digits a caller may ask for
MAX_DIGITS = 1000
#: the largest Arb working precision (bits) escalation may reach
MAX_PREC = 1 << 15

#: an exact rational (``fmpq``) or an irrational sympy number (enclosed on demand)
Real = Union[fmpq, sp.Expr]


class NeedPrecision(ArithmeticError):
    """Raised inside a ``compute(prec)`` when the working precision cannot decide a comparison.

    ``bits`` (optional) is the precision the computation thinks it needs.
    """

    def __init__(self, what: str = "", bits: int = 0) -> None:
        super().__init__(what)
        self.what = what
        self.bits = bits


# -- inputs ------------------------------------------------------------------------------------------

def _fmpq(fraction: Fraction) -> fmpq:
    return fmpq(fraction.numerator, fraction.denominator)


def exact_input(value: object, name: str) -> fmpq:
    """*value* as an exact ``fmpq``; irrational or symbolic values raise :class:`InvalidParameter`.

    >>> exact_input("1e-10", "delta") == fmpq(1, 10**10)
    True
    >>> exact_input(0.5, "eps"), exact_input(Fraction(1, 3), "eps"), exact_input(sp.Rational(2, 7), "eps")
    (1/2, 1/3, 2/7)
    >>> exact_input("abc", "delta")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cdpsym.errors.InvalidParameter: delta must be a number (...), got delta='abc'
    """
    x = real_input(value, name)
    if not isinstance(x, fmpq):
        raise InvalidParameter(f"{name} must be rational here (int, Fraction, sympy Rational, float or decimal "
                               f"string), got {name}={x}")
    return x


def real_input(value: object, name: str) -> Real:
    """*value* as an exact ``fmpq`` when it is rational, else as a (numeric, real) sympy expression."""
    kind = type(value)
    if kind is float and math.isfinite(value):  # the common cases first, by exact type
        return fmpq(*value.as_integer_ratio())
    if kind is int:
        return fmpq(value, 1)
    if isinstance(value, fmpq):
        return value
    if isinstance(value, bool):
        raise InvalidParameter(f"{name} must be a number, got {name}={value!r}")
    if isinstance(value, (int, fmpz)):
        return fmpq(int(value), 1)
    if isinstance(value, Fraction):
        return _fmpq(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidParameter(f"{name} must be finite, got {name}={value!r}")
        return fmpq(*value.as_integer_ratio())
    if isinstance(value, str):
        try:
            return _fmpq(Fraction(value.strip()))
        except (ValueError, ZeroDivisionError):
            raise InvalidParameter(f"{name} must be a number (int, Fraction, sympy Rational, float or decimal "
                                   f"string), got {name}={value!r}") from None
    if isinstance(value, sp.Basic):
        if isinstance(value, sp.Rational):
            return fmpq(int(value.p), int(value.q))
        if isinstance(value, sp.Float):  # its exact binary value, read off the (normalized) mpf
            sign, man, exp, _ = value._mpf_
            if not man:
                if value._mpf_ == mpmath.libmp.fzero:
                    return fmpq(0)
                raise InvalidParameter(f"{name} must be finite, got {name}={value}")
            n = -int(man) if sign else int(man)
            return fmpq(n << exp, 1) if exp >= 0 else fmpq(n, 1 << -exp)
        if value.free_symbols:
            raise InvalidParameter(f"{name} is symbolic ({name}={value}); a certified number needs a number")
        if value.is_extended_real is False or value.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise InvalidParameter(f"{name} must be a finite real number, got {name}={value}")
        try:
            _sympy_arb(value, 64)
        except InvalidParameter:
            raise
        except Exception:
            raise InvalidParameter(f"{name}={value} cannot be enclosed in ball arithmetic") from None
        return value
    raise InvalidParameter(f"{name} must be a number (int, Fraction, sympy Rational, float or decimal string), "
                           f"got {name}={value!r}")


@functools.lru_cache(maxsize=2048)
def _sympy_arb(expr: sp.Expr, prec: int) -> arb:
    """A ball for *expr* at *prec* bits; evaluated at more bits when cancellation leaves it too wide.

    ``1 - tanh(100)`` (about ``2.8e-87``) is a ball around ``0`` at 64 bits and
    exact to all 64 bits at 512: the evaluation precision is doubled (up to
    :data:`MAX_PREC`) until the ball is finite with at least ``prec/2``
    relative bits, then rounded back to *prec* (still an enclosure).
    """
    from cdpsym.expr.evaluate import ArbContext, NotEvaluable, evaluate

    p = prec
    while True:
        try:
            with ArbContext(p) as context:
                value = arb(evaluate(expr, {}, context))
        except (NotEvaluable, ZeroDivisionError, ValueError, TypeError) as exc:
            raise InvalidParameter(f"cannot enclose {text(expr)} in ball arithmetic: {exc}") from None
        if value.is_finite() and (value.rel_accuracy_bits() >= prec // 2 or p >= MAX_PREC):
            break
        if p >= MAX_PREC:
            raise InvalidParameter(
                f"{text(expr)} could not be enclosed in a finite ball even at {MAX_PREC} bits of working precision "
                "(it is infinite, undefined, or within 2^-32768 of a singularity such as a division by zero)")
        p = min(MAX_PREC, 4 * p)
    if p != prec:
        with ctx.workprec(prec):
            value = +value
    return value


def to_arb(x: Real) -> arb:
    """A ball containing *x* at the current Arb precision (exact when *x* is a dyadic rational)."""
    if isinstance(x, fmpq):
        return arb(x)
    return _sympy_arb(x, ctx.prec)


#: numbers whose numerator or denominator has more bits than this are echoed abbreviated (about 300 digits)
_TEXT_BITS = 1000
#: strings longer than this are echoed abbreviated
_TEXT_CHARS = 400


def _rational_parts(value: object) -> tuple[int, int] | None:
    """``(numerator, denominator)`` of an exact rational input, else ``None``."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value, 1
    if isinstance(value, Fraction):
        return value.numerator, value.denominator
    if isinstance(value, fmpq):
        return int(value.p), int(value.q)
    if isinstance(value, fmpz):
        return int(value), 1
    if isinstance(value, sp.Rational):
        return int(value.p), int(value.q)
    return None


def abbreviate_rational(n: int, d: int) -> str:
    """``n/d`` written out, or — when it has hundreds of digits — a 12-digit approximation saying so.

    Never converts a huge integer to a string (Python refuses beyond 4300 digits).

    >>> abbreviate_rational(1, 3)
    '1/3'
    >>> abbreviate_rational(1, 10**5000)
    '~1.00000000000e-5000 (an exact rational: numerator of 1 digits, denominator of 5001 digits; abbreviated)'
    """
    if max(n.bit_length(), d.bit_length()) <= _TEXT_BITS:
        return str(n) if d == 1 else f"{n}/{d}"
    with ctx.workprec(64 + 8):
        approx = arb(fmpq(n, d)).str(12, radius=False, more=True)
    if d == 1:
        return f"~{approx} (an exact integer of {_digit_count(abs(n))} digits, abbreviated)"
    return (f"~{approx} (an exact rational: numerator of {_digit_count(abs(n)) if n else 1} digits, "
            f"denominator of {_digit_count(d)} digits; abbreviated)")


def _digit_count(n: int) -> int:
    """The number of decimal digits of ``n > 0``, without converting it to a string."""
    e = max(0, int((n.bit_length() - 1) * 0.30102999566398120))
    while 10 ** (e + 1) <= n:
        e += 1
    while e > 0 and 10 ** e > n:
        e -= 1
    return e + 1


def text(value: object) -> str:
    """How an input is echoed in ``Certified.query``: strings as given, numbers exactly (huge ones abbreviated)."""
    if isinstance(value, str):
        value = value.strip()
        if len(value) > _TEXT_CHARS:
            return f"{value[:60]}...{value[-20:]} ({len(value)} characters, abbreviated)"
        return value
    if isinstance(value, float):
        return repr(value)
    parts = _rational_parts(value)
    if parts is not None:
        return abbreviate_rational(*parts)
    try:
        out = str(value)
    except ValueError:  # a sympy expression holding an integer too long to print
        return f"<a {type(value).__name__} too long to print>"
    if len(out) > _TEXT_CHARS:
        return f"{out[:60]}...{out[-20:]} ({len(out)} characters, abbreviated)"
    return out


def _decide(x: Real, op: str, bound: int) -> bool | None:
    """``x op bound`` decided exactly (rational) or by Arb (irrational); ``None`` if undecidable."""
    if isinstance(x, fmpq):
        if op == "<":
            return x < bound
        if op == ">":
            return x > bound
        if op == "<=":
            return x <= bound
        if op == ">=":
            return x >= bound
        raise ValueError(f"unknown comparison {op!r}")
    for prec in (64, 256, 1024, 4096, MAX_PREC):
        with ctx.workprec(prec):
            b = to_arb(x)
            yes = {"<": b < bound, "<=": b <= bound, ">": b > bound, ">=": b >= bound}[op]
            no = {"<": b >= bound, "<=": b > bound, ">": b <= bound, ">=": b < bound}[op]
        if yes:
            return True
        if no:
            return False
    return None


def require_open_unit(x: Real, name: str, shown: object = None) -> None:
    """``0 < x < 1`` or :class:`InvalidParameter` (the message shows *shown*, the input as given, if passed)."""
    if not (_decide(x, ">", 0) and _decide(x, "<", 1)):
        raise InvalidParameter(f"{name} must be in (0, 1), got {name}={_show(x, shown)}")


def require_closed_unit(x: Real, name: str, shown: object = None) -> None:
    """``0 <= x <= 1`` or :class:`InvalidParameter`."""
    if not (_decide(x, ">=", 0) and _decide(x, "<=", 1)):
        raise InvalidParameter(f"{name} must be in [0, 1], got {name}={_show(x, shown)}")


#: the most mechanisms an accountant composes where the cost grows with their number (the subject grammar's
#: cap on one ``k``; nested compositions multiply)
MAX_COUNT = 10 ** 9


def require_composition_count(k: int, what: str) -> None:
    """:class:`~cdpsym.errors.ResourceLimit` when ``k`` exceeds :data:`MAX_COUNT` for an accountant whose cost grows
    with ``k``."""
    if k > MAX_COUNT:
        from cdpsym.errors import ResourceLimit

        raise ResourceLimit(f"{what} of k={abbreviate_rational(k, 1)} mechanisms is beyond the limit k <= 10^9 "
                            "(its cost grows like sqrt(k)); compose fewer mechanisms")


def require_positive(x: Real, name: str, shown: object = None) -> None:
    """``x > 0`` or :class:`InvalidParameter`."""
    if not _decide(x, ">", 0):
        raise InvalidParameter(f"{name} must be positive, got {name}={_show(x, shown)}")


def require_nonnegative(x: Real, name: str, shown: object = None) -> None:
    """``x >= 0`` or :class:`InvalidParameter`."""
    if not _decide(x, ">=", 0):
        raise InvalidParameter(f"{name} must be non-negative, got {name}={_show(x, shown)}")


def _show(x: Real, shown: object) -> str:
    return text(x) if shown is None else text(shown)


def require_count(value: object, name: str = "k") -> int:
    """A positive integer (``int``, integral ``Fraction``/sympy/string) or :class:`InvalidParameter`."""
    x = real_input(value, name)
    if not isinstance(x, fmpq) or x.q != 1 or x.p < 1:
        raise InvalidParameter(f"{name} must be a positive integer, got {name}={text(value)}")
    return int(x.p)


def check_digits(digits: object) -> int:
    """*digits* if it is a usable number of significant digits (1 … :data:`MAX_DIGITS`)."""
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= MAX_DIGITS:
        raise InvalidParameter(f"digits must be an integer in [1, {MAX_DIGITS}], got digits={digits!r}")
    return digits


def bits_for_digits(digits: int) -> int:
    """A starting working precision (bits) for *digits* significant decimal digits."""
    return int(digits * 3.33) + 30


# -- rounding ------------------------------------------------------------------------------------------

def arb_to_fraction(x: arb) -> Fraction:
    """The exact value of an *exact* ball (an endpoint from ``lower()``/``upper()``) as a Fraction."""
    if not x.is_finite():
        raise PrecisionError(f"the enclosure {x.str(5, radius=True)} is not finite")
    man, exp = x.mid().man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * (1 << exp), 1) if exp >= 0 else Fraction(man, 1 << -exp)


def ball_endpoints(ball: arb) -> tuple[Fraction, Fraction]:
    """The exact endpoints ``mid -+ rad`` of *ball* as Fractions (independent of the working precision)."""
    mid, rad = arb_to_fraction(ball.mid()), arb_to_fraction(ball.rad())
    return mid - rad, mid + rad


def _exponent10(x: Fraction) -> int:
    """``floor(log10(x))`` for ``x > 0``, exactly (integer arithmetic)."""
    n, d = x.numerator, x.denominator

    def at_least(e: int) -> bool:  # x >= 10**e
        return n >= d * 10 ** e if e >= 0 else n * 10 ** -e >= d

    e = math.floor((n.bit_length() - d.bit_length()) * 0.30102999566398120)
    while not at_least(e):
        e -= 1
    while at_least(e + 1):
        e += 1
    return e


def _round_sig(x: Fraction, digits: int, up: bool) -> Fraction:
    """*x* rounded to *digits* significant digits towards ``+inf`` (*up*) or ``-inf``."""
    if x == 0:
        return x
    e = _exponent10(abs(x))
    scale = Fraction(10) ** (e - digits + 1)
    q = x / scale
    n = -((-q.numerator) // q.denominator) if up else q.numerator // q.denominator
    return n * scale


def _decimal_string(x: Fraction, digits: int) -> str:
    """*x* (which has at most *digits* significant digits) written with exactly *digits* significant digits."""
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    x = abs(x)
    e = _exponent10(x)
    n = x / Fraction(10) ** (e - digits + 1)
    if n.denominator != 1:  # cannot happen for a value from _round_sig
        raise ArithmeticError(f"{x} has more than {digits} significant digits")
    return _format_decimal(sign, str(n.numerator), e)


def _format_decimal(sign: str, mantissa: str, e: int) -> str:
    """``sign`` and the digit string ``mantissa`` (all significant) with decimal exponent ``e``, written out."""
    if -5 <= e < 16:
        if e >= 0:
            whole = mantissa[: e + 1].ljust(e + 1, "0")
            frac = mantissa[e + 1:]
        else:
            whole, frac = "0", "0" * (-e - 1) + mantissa
        return sign + (f"{whole}.{frac}" if frac else whole)
    body = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
    return f"{sign}{body}e{e:+03d}" if e < 0 else f"{sign}{body}e+{e:02d}"


def round_ball(ball: arb, digits: int, direction: str,
               clip: tuple[Fraction | None, Fraction | None] = (None, None)) -> tuple[Fraction, str, int]:
    """``(rounded value, its decimal string, certified digits)`` for *ball* rounded in *direction*.

    ``up`` rounds the upper endpoint up to *digits* significant digits (so the
    result is ``>=`` every point of the ball; the Fraction is ``None`` when
    the decimal exponent is so large that it is only given as text); ``down`` rounds the lower
    endpoint down.  The certified digits are the largest ``d <= digits`` such
    that the ball's far endpoint is within one unit of the ``d``-th significant
    digit of the rounded value (``0`` when even the first digit is not certain).
    *clip* is a range known to contain the exact value (``δ ∈ [0, 1]``): the
    ball is intersected with it first, so ``δ = 1 - 10^-1000`` rounds up to ``1``.

    All arithmetic is on exact integers (the endpoints are dyadic: numerators
    over one common power of two).

    >>> round_ball(arb(2) / 3, 4, "up")[1:], round_ball(arb(2) / 3, 4, "down")[1:]
    (('0.6667', 4), ('0.6666', 4))
    >>> round_ball(arb("1e-300"), 3, "up")[1]
    '1.01e-300'
    >>> round_ball(arb(2), 3, "up")[1]
    '2.00'
    """
    vn, vd, text_, certified = _round(ball, digits, direction, clip)
    if vn is None:  # rounded with Arb (a huge exponent): the exact value only as the decimal string
        return None, text_, certified  # type: ignore[return-value]
    return Fraction(vn, vd), text_, certified


def _round(ball: arb, digits: int, direction: str,
           clip: tuple[Fraction | None, Fraction | None]) -> tuple[int, int, str, int]:
    """:func:`round_ball` with the value as ``(numerator, denominator)`` (not necessarily in lowest terms)."""
    if direction not in ("up", "down"):
        raise ValueError(f"direction must be 'up' or 'down', got {direction!r}")
    if not ball.is_finite() or ball.is_nan():
        return 0, 1, "nan", 0
    mm, me = ball.mid().man_exp()
    rm, re_ = ball.rad().man_exp()
    mm, me, rm, re_ = int(mm), int(me), int(rm), int(re_)
    if max(abs(me), abs(re_), mm.bit_length() + abs(me), rm.bit_length() + abs(re_)) > _EXACT_ROUNDING_BITS:
        # exponents far from 0 (δ = 10^-1000000, or 1 - 2^-10^12): exact integers would have millions of
        # digits; round with Arb balls instead (every decision is proved, the result is as safe)
        return _round_arb(ball, digits, direction, clip)
    if rm == 0:
        re_ = me
    if mm == 0:
        me = re_
    e0 = me if me < re_ else re_
    mid_n, rad_n = mm << (me - e0), rm << (re_ - e0)
    lo_n, hi_n = mid_n - rad_n, mid_n + rad_n
    if e0 >= 0:
        lo_n, hi_n, den = lo_n << e0, hi_n << e0, 1
    else:
        den = 1 << -e0
    return _round_ends(lo_n, den, hi_n, den, digits, direction, clip)


def _dyadic(x: arb) -> tuple[int, int] | None:
    """An exact (radius-0) ball as ``(numerator, denominator)``, or ``None`` when its exponent is huge."""
    man, exp = x.mid().man_exp()
    man, exp = int(man), int(exp)
    if abs(exp) + man.bit_length() > _EXACT_ROUNDING_BITS:
        return None
    return (man << exp, 1) if exp >= 0 else (man, 1 << -exp)


def _round_ends(lo_n: int, lo_d: int, hi_n: int, hi_d: int, digits: int, direction: str,
                clip: tuple[Fraction | None, Fraction | None]) -> tuple[int, int, str, int]:
    """:func:`_round` of the interval ``[lo_n/lo_d, hi_n/hi_d]`` (positive denominators)."""
    for bound, is_lower in ((clip[0], True), (clip[1], False)):
        if bound is None:
            continue
        bn, bd = bound.numerator, bound.denominator
        # lower, upper = max(lower, bound), max(upper, bound)  (resp. min for the upper clip)
        if (lo_n * bd < bn * lo_d) == is_lower and lo_n * bd != bn * lo_d:
            lo_n, lo_d = bn, bd
        if (hi_n * bd < bn * hi_d) == is_lower and hi_n * bd != bn * hi_d:
            hi_n, hi_d = bn, bd
    up = direction == "up"
    xn, xd = (hi_n, hi_d) if up else (lo_n, lo_d)
    if xn == 0:
        vn, vd = 0, 1
    else:
        e = _exponent10_int(abs(xn), xd)
        sc = e - digits + 1
        if sc >= 0:
            q_n, q_d = xn, xd * 10 ** sc
        else:
            q_n, q_d = xn * 10 ** -sc, xd
        q = -((-q_n) // q_d) if up else q_n // q_d
        vn, vd = (q * 10 ** sc, 1) if sc >= 0 else (q, 10 ** -sc)
    # error = value - lower (up) or upper - value (down), as err_n / err_d
    if up:
        err_n, err_d = vn * lo_d - lo_n * vd, vd * lo_d
    else:
        err_n, err_d = hi_n * vd - vn * hi_d, vd * hi_d
    if vn == 0:
        return 0, 1, "0", (digits if err_n == 0 else 0)
    # |x| >= 10^e is a multiple of the unit 10^sc, so rounding keeps |q| >= 10^(digits-1); rounding away
    # from zero can carry |q| up to exactly 10^digits (the value is then 10^(e+1))
    mant = abs(q)
    ev = e
    if mant == 10 ** digits:
        mant //= 10
        ev += 1
    sc = ev - digits + 1  # the unit of the last digit is 10^sc: all digits certified iff error <= 10^sc
    if err_n == 0 or (err_n <= err_d * 10 ** sc if sc >= 0 else err_n * 10 ** -sc <= err_d):
        certified = digits
    else:
        ee = _exponent10_int(err_n, err_d)
        exact_power = (err_n == err_d * 10 ** ee) if ee >= 0 else (err_n * 10 ** -ee == err_d)
        certified = max(0, min(digits, ev + 1 - (ee if exact_power else ee + 1)))
    return vn, vd, _format_decimal("-" if vn < 0 else "", str(mant), ev), certified


#: beyond this many bits in a ball's dyadic endpoints, :func:`_round` works with Arb balls instead of integers
_EXACT_ROUNDING_BITS = 1 << 14


def _round_arb(ball: arb, digits: int, direction: str,
               clip: tuple[Fraction | None, Fraction | None]) -> tuple[None, None, str, int]:
    """:func:`_round` for balls with huge exponents, in Arb arithmetic; the value is returned as text only.

    The endpoints are taken outward (``lower()`` rounds down, ``upper()`` up),
    the decimal exponent ``e = floor(log10 |x|)`` is *proved* by two
    comparisons with ``10^e``, and the mantissa ``q`` is the ceiling (floor)
    of the upper (lower) end of a ball containing ``|x| / 10^(e - digits + 1)``,
    so ``q 10^(e-digits+1)`` is on the safe side of ``x``.  The certified
    digits are read off an upper bound of the distance to the far endpoint.
    """
    up = direction == "up"
    prec = max(4 * digits + 64, _mantissa_bits(ball.mid()) + _mantissa_bits(ball.rad()) + 64)
    while True:
        try:
            return _round_arb_at(ball, digits, up, clip, prec)
        except ArithmeticError:
            if prec >= 4 * MAX_PREC:
                raise PrecisionError(f"could not round the enclosure {ball.str(10, radius=True)} to {digits} "
                                     "digits") from None
            prec *= 4


def _round_arb_ends(lo: arb, hi: arb, digits: int, direction: str,
                    clip: tuple[Fraction | None, Fraction | None]) -> tuple[None, None, str, int]:
    """:func:`_round_arb` for the interval between two exact balls."""
    prec = max(4 * digits + 64, _mantissa_bits(lo) + _mantissa_bits(hi) + 64)  # the ends themselves exactly
    while True:
        try:
            return _round_arb_at(None, digits, direction == "up", clip, prec, (lo, hi))
        except ArithmeticError:
            if prec >= 4 * MAX_PREC:
                raise PrecisionError(f"could not round [{lo.str(10)}, {hi.str(10)}] to {digits} digits") from None
            prec *= 4


def _round_arb_at(ball: arb | None, digits: int, up: bool, clip: tuple[Fraction | None, Fraction | None],
                  prec: int, ends: tuple[arb, arb] | None = None) -> tuple[None, None, str, int]:
    with ctx.workprec(prec + 64):
        if ends is not None:
            lo, hi = ends
        else:
            lo, hi = arb(ball.lower()), arb(ball.upper())  # outward-rounded exact endpoints
        if clip[0] is not None:
            c = arb(fmpq(clip[0].numerator, clip[0].denominator))
            lo, hi = (c if lo < c else lo), (c if hi < c else hi)
        if clip[1] is not None:
            c = arb(fmpq(clip[1].numerator, clip[1].denominator))
            lo, hi = (c if lo > c else lo), (c if hi > c else hi)
        x, far = (hi, lo) if up else (lo, hi)
        if x == 0:
            return None, None, "0", (digits if far == 0 else 0)
        negative = bool(x < 0)
        a = -x if negative else x
        # |exponent| may be ~10^12 (or have hundreds of digits): give the logarithm and the powers of ten the
        # bits of the binary exponent too
        man, exp2 = a.mid().man_exp()
        extra = (abs(int(exp2)) + int(man).bit_length()).bit_length() + 16
    with ctx.workprec(prec + extra):
        ten = arb(10)
        ell = a.log() / ten.log()
        e = _floor_int(ell.mid())
        for _ in range(4):  # e = floor(log10 a), proved by 10^e <= a < 10^(e+1)
            if not a >= ten ** e:
                e -= 1
            elif not a < ten ** (e + 1):
                e += 1
            else:
                break
        if not (a >= ten ** e and a < ten ** (e + 1)):
            raise ArithmeticError("the decimal exponent is undecided")
        sc = e - digits + 1
        y = a * ten ** (-sc) if sc <= 0 else a / ten ** sc  # in [10^(digits-1), 10^digits); exact if sc <= 0 small
        away = up != negative  # round |x| away from zero (up for positive x rounded up)
        q = _ceil_int(y.upper()) if away else _floor_int(y.lower())
        if q <= 0:
            raise ArithmeticError("the mantissa is undecided")
        if q >= 10 ** digits:  # the carry (q = 10^digits; a little more if the ball is wide): round on, away
            q, sc = -(-q // 10), sc + 1
        mant = str(q)
        ev = sc + len(mant) - 1
        value = arb(q) * ten ** sc if sc >= 0 else arb(q) / ten ** (-sc)
        if negative:
            value = -value
        err = abs(value - far)
        unit_sc = ev - digits + 1
        if err == 0:
            certified = digits
        elif (err.upper() <= ten ** unit_sc if unit_sc >= 0 else err.upper() * ten ** (-unit_sc) <= 1):
            certified = digits
        else:
            bound = err.upper().log() / ten.log()
            certified = max(0, min(digits, ev + 1 - _ceil_int(bound.upper())))
    return None, None, _format_decimal("-" if negative else "", mant, ev), certified


def _mantissa_bits(x: object) -> int:
    """The bits of the mantissa of an exact ball (or arf): the precision that holds it exactly."""
    man, _ = x.mid().man_exp() if isinstance(x, arb) else x.man_exp()  # type: ignore[attr-defined]
    return int(man).bit_length()


def _floor_int(x: arb) -> int:
    """``floor`` of an exact (radius-0) ball, as an int."""
    f = x.floor()
    if not f.is_exact():
        raise ArithmeticError("inexact floor")
    man, exp = f.mid().man_exp()
    return int(man) << int(exp) if int(exp) >= 0 else int(man) >> -int(exp)


def _ceil_int(x: arb) -> int:
    """``ceil`` of an exact (radius-0) ball, as an int."""
    f = x.ceil()
    if not f.is_exact():
        raise ArithmeticError("inexact ceiling")
    man, exp = f.mid().man_exp()
    return int(man) << int(exp) if int(exp) >= 0 else -((-int(man)) >> -int(exp))


def _exponent10_int(n: int, d: int) -> int:
    """``floor(log10(n/d))`` for positive integers, exactly (a float estimate, then exact checks)."""

    def at_least(e: int) -> bool:  # n/d >= 10**e
        return n >= d * 10 ** e if e >= 0 else n * 10 ** -e >= d

    e = math.floor(math.log10(n) - math.log10(d))
    while not at_least(e):
        e -= 1
    while at_least(e + 1):
        e += 1
    return e


def _ceil_log10(x: Fraction) -> int:
    """``ceil(log10(x))`` for ``x > 0``, exactly."""
    e = _exponent10(x)
    return e if Fraction(10) ** e == x else e + 1


def _decimal_exponent(rounded: str) -> int:
    """The decimal exponent written in a rounded string (``"1.2e-300"`` -> -300; ``"0.5"`` -> 0)."""
    if "e" in rounded:
        return int(rounded.split("e", 1)[1])
    return 0


# -- the value objects ----------------------------------------------------------------------------------

class Query(Mapping[str, str]):
    """The inputs of a query as strings; a value given as a zero-argument callable is rendered on first read.

    A mechanism's ``repr`` costs more than a fast accounting query itself, and
    most callers never read it, so :func:`cdpsym.accounting.epsilon` passes
    ``mechanism.__repr__`` (the mechanisms are immutable: the text is the same
    whenever it is rendered).

    >>> q = Query({"delta": "1e-10", "mechanism": lambda: "Gaussian(sensitivity=1, sigma=2)"})
    >>> q["mechanism"], q == {"delta": "1e-10", "mechanism": "Gaussian(sensitivity=1, sigma=2)"}
    ('Gaussian(sensitivity=1, sigma=2)', True)
    """

    __slots__ = ("_items",)

    def __init__(self, items: Mapping[str, str | Callable[[], str]]) -> None:
        self._items = dict(items)

    def __getitem__(self, key: str) -> str:
        value = self._items[key]
        if callable(value):
            try:
                rendered = value()
            except ValueError:  # a parameter with more digits than Python prints (sys.get_int_max_str_digits)
                rendered = "<not rendered: it holds a number too long to print>"
            if len(rendered) > 2000:
                rendered = f"{rendered[:1000]}...{rendered[-200:]} ({len(rendered)} characters, abbreviated)"
            value = self._items[key] = rendered
        return value

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return repr(dict(self))

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (Query, (dict(self),))  # pickled and copied as rendered text, never as a callable


def own_query(query: Mapping[str, str]) -> Mapping[str, str]:
    """A private copy of *query* for a :class:`Certified` (a :class:`Query` is shared: it only ever fills in)."""
    return query if isinstance(query, Query) else dict(query)


@dataclass(frozen=True)
class Certified:
    """A proved enclosure of one exact quantity, with its safe decimal rounding.

    * ``quantity``: ``"epsilon"``, ``"delta"``, ``"sigma"`` or ``"eps0"``;
    * ``ball``: a ``flint.arb`` proved to contain the value;
    * ``rounded``: decimal string, rounded ``direction`` (up for ε, δ, σ; down for eps0)
      from the ball, so it is on the safe side of the exact value;
    * ``digits``: certified significant digits of ``rounded`` (see :func:`round_ball`);
    * ``method``: how the ball was obtained; ``query``: the inputs, as strings;
    * ``exact``: ``True`` when the enclosed value is the exact optimum (e.g. the
      least ε of the mechanism), ``False`` when it is a valid bound (e.g. a
      zCDP → (ε,δ) conversion).
    """

    quantity: str
    ball: arb
    rounded: str
    direction: str
    digits: int
    method: str
    query: Mapping[str, str] = field(default_factory=dict)
    exact: bool = True

    @property
    def value(self) -> Fraction:
        """``rounded`` as an exact Fraction (:class:`~cdpsym.errors.PrecisionError` if its decimal exponent
        is beyond ``10^±100000``: such a Fraction would have more than 100000 digits; use ``rounded``)."""
        if abs(_decimal_exponent(self.rounded)) > 100000:
            raise PrecisionError(f"{self.quantity} = {self.rounded} is too large or too small for an exact "
                                 "Fraction; use .rounded or .ball")
        return Fraction(self.rounded)

    @property
    def float(self) -> float:
        """``rounded`` as a float, still on the safe side (the next float outward when inexact)."""
        up = self.direction == "up"
        e = _decimal_exponent(self.rounded)
        negative = self.rounded.startswith("-")
        if e > 400 or e < -400:  # beyond the float range: the nearest float on the safe side
            tiny, huge = 5e-324, math.inf
            if e > 0:
                magnitude_up, magnitude_down = huge, math.nextafter(huge, 0.0)
            else:
                magnitude_up, magnitude_down = tiny, 0.0
            if negative:
                return -(magnitude_down if up else magnitude_up)
            return magnitude_up if up else magnitude_down
        exact = Fraction(self.rounded)
        try:
            f = float(exact)
        except OverflowError:
            return math.inf if up else math.nextafter(math.inf, 0.0)
        if up and Fraction(f) < exact:
            f = math.nextafter(f, math.inf)
        elif not up and Fraction(f) > exact:
            f = math.nextafter(f, -math.inf)
        return f

    @property
    def lower(self) -> str:
        """The ball's lower endpoint rounded down (a decimal string, 20 digits)."""
        return round_ball(self.ball, 20, "down")[1]

    @property
    def upper(self) -> str:
        """The ball's upper endpoint rounded up (a decimal string, 20 digits)."""
        return round_ball(self.ball, 20, "up")[1]

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (the ball as decimal endpoints rounded outward and as Arb's own string)."""
        return {
            "quantity": self.quantity,
            "rounded": self.rounded,
            "direction": self.direction,
            "digits": self.digits,
            "method": self.method,
            "query": dict(self.query),
            "exact": self.exact,
            "ball": {"lower": self.lower, "upper": self.upper, "arb": self.ball.str(30, radius=True)},
        }

    def __str__(self) -> str:
        sign = "<=" if self.direction == "up" else ">="
        return f"{self.quantity} {sign} {self.rounded} ({self.digits} certified digits; {self.method})"

    def __repr__(self) -> str:
        return (f"Certified(quantity={self.quantity!r}, rounded={self.rounded!r}, direction={self.direction!r}, "
                f"digits={self.digits}, method={self.method!r}, exact={self.exact})")

    def _repr_latex_(self) -> str:
        from cdpsym.notebook import certified_math

        return f"${certified_math(self)}$"

    def _repr_html_(self) -> str:
        from cdpsym.notebook import certified_html

        return certified_html(self)


@dataclass(frozen=True)
class CertifiedBounds:
    """Two-sided certified bounds ``lower <= v <= upper`` where the exact value is not pinned down.

    ``lower`` is a :class:`Certified` rounded *down* (a proved lower bound),
    ``upper`` one rounded *up*; ``gap`` is ``upper.rounded - lower.rounded``
    as a decimal string (exact difference of the two decimals).
    """

    lower: Certified
    upper: Certified

    @property
    def gap(self) -> str:
        if max(abs(_decimal_exponent(self.upper.rounded)), abs(_decimal_exponent(self.lower.rounded))) > 1000:
            with ctx.workprec(256):  # astronomically large or small bounds: the gap rounded up, via Arb
                diff_ball = arb(self.upper.rounded) - arb(self.lower.rounded)
            return round_ball(diff_ball, 10, "up")[1]
        diff = Fraction(self.upper.rounded) - Fraction(self.lower.rounded)
        if diff == 0:
            return "0"
        digits = max(len(self.lower.rounded), len(self.upper.rounded)) + 5
        return _decimal_string(_round_sig(diff, digits, True), digits)

    def to_json(self) -> dict[str, Any]:
        return {"lower": self.lower.to_json(), "upper": self.upper.to_json(), "gap": self.gap}

    def __str__(self) -> str:
        return (f"{self.lower.rounded} <= {self.upper.quantity} <= {self.upper.rounded} "
                f"({self.lower.method} / {self.upper.method})")

    def _repr_latex_(self) -> str:
        from cdpsym.notebook import bounds_math

        return f"${bounds_math(self)}$"

    def _repr_html_(self) -> str:
        from cdpsym.notebook import bounds_html

        return bounds_html(self)


# -- escalation -----------------------------------------------------------------------------------------

def certified_from_ball(quantity: str, ball: arb, digits: int, method: str, query: Mapping[str, str],
                        exact: bool = True, direction: str | None = None) -> Certified | None:
    """A :class:`Certified` from *ball* if it certifies *digits* digits, else ``None``."""
    direction = direction or QUANTITIES[quantity]
    _, _, rounded, got = _round(ball, digits, direction, RANGES[quantity])
    if got < digits:
        return None
    return Certified(quantity, ball, rounded, direction, got, method, own_query(query), exact)


def certified_from_interval(quantity: str, lo: arb, hi: arb, digits: int, method: str, query: Mapping[str, str],
                            exact: bool = True, direction: str | None = None) -> Certified | None:
    """A :class:`Certified` for a value proved to lie in ``[lo, hi]`` (exact balls), or ``None`` (too few digits).

    Like :func:`certified_from_ball` on ``lo.union(hi)``, but rounded from the
    exact endpoints: a ball's radius has a 30-bit mantissa rounded up, so the
    union of ``1`` and ``1 + 2^-41`` starts just below ``1`` and would round
    *down* to ``0.9999999999``; the interval itself rounds to ``1.000000000``.
    The stored ball is the union (it contains the interval).
    """
    direction = direction or QUANTITIES[quantity]
    if not (lo.is_exact() and hi.is_exact()):
        lo, hi = arb(lo.lower()), arb(hi.upper())
    ends = _dyadic(lo), _dyadic(hi)
    if ends[0] is not None and ends[1] is not None:
        (ln, ld), (hn, hd) = ends
        _, _, rounded, got = _round_ends(ln, ld, hn, hd, digits, direction, RANGES[quantity])
    else:
        _, _, rounded, got = _round_arb_ends(lo, hi, digits, direction, RANGES[quantity])
    if got < digits:
        return None
    return Certified(quantity, lo.union(hi), rounded, direction, got, method, own_query(query), exact)


def certified_rational(quantity: str, value: fmpq, digits: int, method: str, query: Mapping[str, str],
                       exact: bool = True, direction: str | None = None) -> Certified:
    """A :class:`Certified` for an exact rational (``1/500``), rounded from the rational itself.

    A ball around a non-dyadic rational always straddles it, so ``0.002``
    would round *down* to ``0.001999999999``; the rational rounds to itself.
    """
    direction = direction or QUANTITIES[quantity]
    n, d = int(value.p), int(value.q)
    _, _, rounded, got = _round_ends(n, d, n, d, digits, direction, RANGES[quantity])
    with ctx.workprec(max(64, bits_for_digits(digits))):
        ball = arb(value)
    return Certified(quantity, ball, rounded, direction, got, method, own_query(query), exact)


def certify(quantity: str, compute: Callable[[int], arb], *, digits: int = DEFAULT_DIGITS, method: str,
            query: Mapping[str, str], exact: bool = True, direction: str | None = None,
            start_prec: int | None = None, what: str | None = None, hint: str | None = None) -> Certified:
    """Run ``compute(prec)`` at rising Arb precision until its ball certifies *digits* digits.

    ``compute`` is called inside ``flint.ctx.workprec(prec)`` and must return
    a ball that provably contains the exact value (or raise
    :class:`NeedPrecision`).  The precision at least doubles each round, and
    jumps to what the ball's relative accuracy says is needed.  Raises
    :class:`~cdpsym.errors.PrecisionError` beyond :data:`MAX_PREC` bits, with
    *hint* (what the caller knows about why, and what to change) in the message.
    """
    check_digits(digits)
    if quantity not in QUANTITIES:
        raise ValueError(f"unknown quantity {quantity!r}")
    prec = start_prec or bits_for_digits(digits)
    want = bits_for_digits(digits)
    last = "no enclosure"
    ball = None
    while True:
        needed = 0
        try:
            with ctx.workprec(prec):
                ball = compute(prec)
            result = certified_from_ball(quantity, ball, digits, method, query, exact, direction)
            if result is not None:
                return result
            last = f"enclosure {ball.str(10, radius=True)}"
            accuracy = ball.rel_accuracy_bits() if ball.is_finite() else -prec
            if accuracy < want:
                needed = prec + (want - max(accuracy, -prec)) + 16
        except NeedPrecision as exc:
            last = exc.what or "an undecided comparison"
            needed = exc.bits
        if prec >= MAX_PREC:
            near = _near_boundary(quantity, ball, digits, method, query, exact, direction)
            if near is not None:
                return near
            raise PrecisionError(f"could not certify {digits} digits of {what or quantity} within {MAX_PREC} bits "
                                 f"of working precision (last: {last}); "
                                 f"{hint or _boundary_hint(ball, digits, direction or QUANTITIES[quantity])}")
        prec = min(MAX_PREC, max(2 * prec, needed))


def _near_boundary(quantity: str, ball: arb | None, digits: int, method: str, query: Mapping[str, str],
                   exact: bool, direction: str | None) -> Certified | None:
    """At :data:`MAX_PREC`: the rounding of a ball that is narrow but straddles a *digits*-digit decimal.

    ``tanh(10^-5000/2) = 5·10^-5001 - 4·10^-15002`` cannot be told from
    ``5·10^-5001`` at 32768 bits, so no number of digits rounds it up with
    all of them certified; ``5.000000001e-5001`` is still a safe upper bound,
    one unit in the last place (plus the ball's width) above the value:
    certified to ``digits - 1`` digits, which the result says.  ``None``
    unless at least ``digits - 1`` digits are certified.
    """
    if ball is None or not ball.is_finite() or digits < 2:
        return None
    direction = direction or QUANTITIES[quantity]
    with ctx.workprec(MAX_PREC):
        _, _, rounded, got = _round(ball, digits, direction, RANGES[quantity])
    if got < digits - 1 or got < 1:
        return None
    note = (f"; the value lies within {ball.rad().str(3, radius=False)} of a {digits}-digit rounding boundary that "
            f"{MAX_PREC} bits cannot resolve: {got} digits certified")
    return Certified(quantity, ball, rounded, direction, got, method + note, own_query(query), exact)


def _boundary_hint(ball: arb | None, digits: int, direction: str) -> str:
    """Why a narrow ball did not certify *digits* digits: it straddles (or touches) a *digits*-digit decimal."""
    generic = "the value is too close to a rounding boundary (or exactly on one) to decide; ask for fewer digits"
    if ball is None or not ball.is_finite() or digits < 2:
        return generic
    try:
        with ctx.workprec(max(MAX_PREC, bits_for_digits(digits))):
            _, near, _ = round_ball(ball, digits, "down" if direction == "up" else "up")
    except (ArithmeticError, ValueError):
        return generic
    return (f"the value lies within {ball.rad().str(3, radius=False)} of the {digits}-digit decimal {near}, and "
            f"which side of it is undecided at {MAX_PREC} bits, so its last digit cannot be certified "
            f"(it may even equal it); ask for {digits - 1} digits")


# -- certified roots of monotone functions -----------------------------------------------------------------

def exact_mid(x: arb) -> arb:
    """The midpoint of *x* as an exact ball (radius 0): a dyadic point to evaluate at."""
    return arb(x.mid())


def prove_sign(f: Callable[[arb], arb], x: arb, prec: int, what: str = "the function",
               hint: str | None = None) -> tuple[int, int]:
    """``(sign, prec)``: the sign (``+1``/``-1``) of ``f(x)`` *proved* in ball arithmetic.

    ``f`` is evaluated inside ``ctx.workprec(p)`` for ``p = prec, 2 prec, …``
    until the ball excludes zero; :class:`~cdpsym.errors.PrecisionError` past
    :data:`MAX_PREC` (``f(x)`` is then zero or too close to it to decide).
    Returns the precision that decided, so callers can start there next time.
    """
    p = prec
    while True:
        with ctx.workprec(p):
            try:
                value = f(x)
            except NeedPrecision:
                value = arb.nan()
            if value > 0:
                return 1, p
            if value < 0:
                return -1, p
        if p >= MAX_PREC:
            raise PrecisionError(f"could not decide the sign of {what} at {x.str(15)} within {MAX_PREC} bits"
                                 + (f"; {hint}" if hint else "; it is zero there, or within 2^-32768 of zero: ask "
                                    "for fewer digits"))
        p = min(MAX_PREC, 2 * p)


def certify_root(f: Callable[[arb], arb], newton: Callable[[arb], arb], guess: arb, *, decreasing: bool,
                 accept: Callable[[arb, arb], Any], digits: int, what: str, prec: int | None = None,
                 hint: str | None = None, refine_first: bool = True) -> Any:
    """Prove a bracket ``lo < x* < hi`` around the root of a strictly monotone *f* and hand it to *accept*.

    * ``f(x)`` returns a ball containing the exact function value at the exact
      point ``x`` (evaluated at the current Arb precision);
    * ``newton(x)`` returns an improved *estimate* (any method; it is never
      trusted — only the signs of ``f`` at the bracket ends are);
    * ``guess`` is a starting estimate, assumed positive (the bracket is
      relative: ``x(1 ∓ 2^-b)``); with ``refine_first=False`` the first
      bracket is tried around it before any Newton step (when ``newton`` is
      expensive and the guess already good to ~15 digits);
    * ``accept(lo, hi)`` builds the result from the proved bracket (exact
      balls; :func:`certified_from_interval` rounds it without widening), or
      returns ``None`` when the bracket is too wide to certify the requested
      digits (then it is split at the decimal it straddles, or narrowed, and
      re-proved).

    The root is *proved* to lie in ``(lo, hi)``: ``f(lo)`` and ``f(hi)`` have
    opposite signs (``f(lo) > 0 > f(hi)`` when *decreasing*), and a strictly
    monotone continuous function has its only root between them.
    """
    p = prec or bits_for_digits(digits) + 20
    bits = int(3.33 * digits) + 8  # relative half-width 2^-bits: well inside one unit of the last digit
    x = exact_mid(guess)
    known_lo: arb | None = None  # proved: the root lies above known_lo and below known_hi (from sign checks)
    known_hi: arb | None = None
    for attempt in range(60):
        with ctx.workprec(p):
            for _ in range(2 if attempt or digits > 12 else 1 if refine_first else 0):
                try:
                    step = newton(x)
                except NeedPrecision:  # an estimate only: try again at the next precision
                    break
                if not step.is_finite() or not step > 0:
                    break
                step = exact_mid(step)
                if (known_lo is not None and not step > known_lo) or (known_hi is not None and not step < known_hi):
                    break  # the estimate left the proved bracket: bisect it below
                x = step
            width = x * arb(2) ** (-bits)
            lo, hi = exact_mid(x - width), exact_mid(x + width)
        s_lo, p_lo = prove_sign(f, lo, p, what, hint)
        s_hi, p_hi = prove_sign(f, hi, p, what, hint)
        expected = (1, -1) if decreasing else (-1, 1)
        if (s_lo, s_hi) == expected:
            with ctx.workprec(max(p, p_lo, p_hi, bits_for_digits(digits))):
                result = accept(lo, hi)
            if result is not None:
                return result
            split = _split_at_boundary(f, lo, hi, decreasing, accept, digits, max(p, p_lo, p_hi), what, hint)
            if split is not None:
                return split
            bits += 12  # the bracket straddles a rounding boundary: narrow it
            p = max(p, p_lo, p_hi) + 40
        else:  # the estimate is not yet inside the bracket: record what the signs prove, refine
            with ctx.workprec(max(p, p_lo, p_hi)):
                for point, sign in ((lo, s_lo), (hi, s_hi)):
                    if (sign > 0) == decreasing:  # the root lies above this point
                        known_lo = point if known_lo is None or point > known_lo else known_lo
                    else:
                        known_hi = point if known_hi is None or point < known_hi else known_hi
                if known_lo is not None and known_hi is not None:
                    ratio = known_hi / known_lo if known_lo > 0 else arb(0)
                    x = exact_mid((known_lo * known_hi).sqrt() if ratio > 4 else (known_lo + known_hi) / 2)
                elif known_lo is not None and not x > known_lo:
                    x = exact_mid(known_lo * 2)
                elif known_hi is not None and not x < known_hi:
                    x = exact_mid(known_hi / 2)
            p = max(p, p_lo, p_hi) + 32
        if p > MAX_PREC:
            break
    raise PrecisionError(f"could not certify {digits} digits of {what} within {MAX_PREC} bits of working precision"
                         + (f"; {hint}" if hint else "; the root is too close to a rounding boundary (or exactly on "
                            "one) to decide: ask for fewer digits"))


def _split_at_boundary(f: Callable[[arb], arb], lo: arb, hi: arb, decreasing: bool, accept: Callable[[arb, arb], Any],
                       digits: int, prec: int, what: str, hint: str | None) -> Any:
    """``accept`` on the part of the proved bracket ``(lo, hi)`` on one side of the decimal it straddles, or ``None``.

    When the root sits within a hair of a *digits*-digit decimal ``B``
    (``1 + 1.4e-100``; ``μ²/2 + 4.75 μ`` at ``μ = 10^300``), narrowing the
    bracket around it would take hundreds of rounds; one sign check just
    beside ``B`` (at an exact dyadic end of a ball around ``B``) says on
    which side the root lies, and that half rounds safely to ``digits``
    certified digits.  Returns ``None`` when ``B`` is not inside the bracket
    or its side cannot be decided.
    """
    with ctx.workprec(max(prec, bits_for_digits(digits))):
        _, b_text, _ = round_ball(hi, digits, "down")
    if b_text == "nan":
        return None
    p = max(prec, bits_for_digits(digits)) + 16
    while p <= MAX_PREC:
        with ctx.workprec(p):
            b = arb(b_text)
            b_lo, b_hi = arb(b.lower()), arb(b.upper())
            inside = bool(b_lo > lo and b_hi < hi)
        if not inside:
            return None
        try:
            above = prove_sign(f, b_hi, p, what, hint)[0] == (1 if decreasing else -1)  # the root lies above b_hi
            below = not above and prove_sign(f, b_lo, p, what, hint)[0] == (-1 if decreasing else 1)
        except PrecisionError:
            return None
        if above or below:
            with ctx.workprec(max(p, bits_for_digits(digits))):
                return accept(b_hi, hi) if above else accept(lo, b_lo)
        p *= 4  # the root is within the ball around B: tighten the ball
    return None


def solve_monotone(h, x0: float, decreasing: bool, lo: float = 0.0,  # type: ignore[no-untyped-def]
                   tol: float = 1e-15) -> float:
    """A float estimate of the root of a monotone *h* on ``x > lo``; ``h(x) -> (value, slope)`` as floats.

    Safeguarded Newton, stopping once a step is below ``tol`` relative; the
    result is only ever a starting point for a proof.

    Keeps a bracket ``[lo, hi]`` from the signs seen so far and bisects (or
    doubles, while no upper end is known) whenever a Newton step leaves it.
    """
    hi, x = math.inf, x0
    for _ in range(200):
        value, slope = h(x)
        below = (value > 0) == decreasing  # x is below the root
        if below:
            lo = x
        else:
            hi = x
        step = value / slope if slope != 0 and math.isfinite(value) else math.nan
        if abs(step) <= tol * abs(x):
            return x - step
        new = x - step
        if not lo < new < hi:
            new = (lo + hi) / 2 if hi < math.inf else 2 * x
            if new in (lo, hi):
                return x
        x = new
    return x
