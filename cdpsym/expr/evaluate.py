"""One numeric kernel, two contexts: mpmath (high precision) and Arb balls (rigorous).

``evaluate(expr, values, ctx)`` walks a sympy expression tree and evaluates it
in ``ctx``; the same walk runs in :class:`MPContext` (``mpmath`` at a stated
number of digits, for evidence and reporting) and in :class:`ArbContext`
(``python-flint`` balls, whose result is guaranteed to contain the exact
value — the only kind of number cdpsym treats as proof).  This is mpmath's
own "write the kernel once, run it in ``mp`` and ``iv``" pattern.

Opaque operators (E[.], Pr[.], D_alpha …) cannot be evaluated; they raise
:class:`NotEvaluable` unless a value for them is supplied in ``values``.
"""

from __future__ import annotations

from typing import Any, Mapping

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef

__all__ = ["MPContext", "ArbContext", "evaluate", "NotEvaluable"]


class NotEvaluable(Exception):
    """The expression contains something the numeric kernel does not know."""


class MPContext:
    """mpmath at ``dps`` decimal digits (use inside ``mpmath.workdps``)."""

    name = "mpmath"

    def __init__(self, dps: int = 50):
        self.dps = dps

    def number(self, v: sp.Expr) -> Any:
        if v.is_Integer:
            return mpmath.mpf(int(v))
        if v.is_Rational:
            return mpmath.mpf(int(v.p)) / int(v.q)
        if v.is_Float:
            return mpmath.mpf(v._mpf_)  # exact binary value of the sympy Float
        raise NotEvaluable(f"not a number: {v}")

    pi = property(lambda self: mpmath.pi)
    e = property(lambda self: mpmath.e)
    inf = property(lambda self: mpmath.inf)

    exp = staticmethod(mpmath.exp)
    log = staticmethod(mpmath.log)
    sqrt = staticmethod(mpmath.sqrt)
    tanh = staticmethod(mpmath.tanh)
    erf = staticmethod(mpmath.erf)
    erfc = staticmethod(mpmath.erfc)
    cosh = staticmethod(mpmath.cosh)
    sinh = staticmethod(mpmath.sinh)
    sin = staticmethod(mpmath.sin)
    cos = staticmethod(mpmath.cos)
    atan = staticmethod(mpmath.atan)
    abs = staticmethod(abs)

    @staticmethod
    def max(*xs):
        return max(xs)

    @staticmethod
    def min(*xs):
        return min(xs)

    @staticmethod
    def power(base, exponent):
        return mpmath.power(base, exponent)


class ArbContext:
    """python-flint Arb balls at ``prec`` bits: every result encloses the exact value."""

    name = "arb"

    def __init__(self, prec: int = 200):
        import flint

        self.flint = flint
        self.prec = prec
        self._saved: list[int] = []

    def __enter__(self) -> "ArbContext":
        self._saved.append(self.flint.ctx.prec)
        self.flint.ctx.prec = self.prec
        return self

    def __exit__(self, *exc: object) -> None:
        self.flint.ctx.prec = self._saved.pop()

    def ball(self, lo: Any, hi: Any) -> Any:
        """The ball [lo, hi] (endpoints given as exact sympy numbers or arbs)."""
        a = lo if isinstance(lo, self.flint.arb) else self.number(sp.Integer(lo) if isinstance(lo, int) else lo)
        b = hi if isinstance(hi, self.flint.arb) else self.number(sp.Integer(hi) if isinstance(hi, int) else hi)
        return a.union(b)

    def number(self, v: sp.Expr) -> Any:
        f = self.flint
        if v.is_Integer:
            return f.arb(int(v))
        if v.is_Rational:
            return f.arb(f.fmpq(int(v.p), int(v.q)))
        if v.is_Float:
            man, exp = v._mpf_[1], v._mpf_[2]
            sign = -1 if v._mpf_[0] else 1
            return f.arb(sign * man) * f.arb(2) ** exp
        raise NotEvaluable(f"not a number: {v}")

    @property
    def pi(self):
        return self.flint.arb.pi()

    @property
    def e(self):
        return self.flint.arb(1).exp()

    def exp(self, x):
        return self.flint.arb(x).exp()

    def log(self, x):
        return self.flint.arb(x).log()

    def sqrt(self, x):
        return self.flint.arb(x).sqrt()

    def tanh(self, x):
        return self.flint.arb(x).tanh()

    def erf(self, x):
        return self.flint.arb(x).erf()

    def erfc(self, x):
        return self.flint.arb(x).erfc()

    def cosh(self, x):
        return self.flint.arb(x).cosh()

    def sinh(self, x):
        return self.flint.arb(x).sinh()

    def sin(self, x):
        return self.flint.arb(x).sin()

    def cos(self, x):
        return self.flint.arb(x).cos()

    def atan(self, x):
        return self.flint.arb(x).atan()

    def abs(self, x):
        return abs(self.flint.arb(x))

    def max(self, *xs):
        out = xs[0]
        for v in xs[1:]:
            out = self.flint.arb(out).max(v)
        return out

    def min(self, *xs):
        out = xs[0]
        for v in xs[1:]:
            out = self.flint.arb(out).min(v)
        return out

    def power(self, base, exponent):
        return self.flint.arb(base) ** exponent


_FUNCS = {
    sp.exp: "exp", sp.log: "log", sp.tanh: "tanh", sp.erf: "erf", sp.erfc: "erfc",
    sp.cosh: "cosh", sp.sinh: "sinh", sp.Abs: "abs", sp.sin: "sin", sp.cos: "cos", sp.atan: "atan",
}


_MAX_TERMS = 100_000  # a finite sum or product longer than this is not evaluated term by term


def _exact_int(value: Any) -> int:
    """The integer an evaluated limit of a sum or product stands for (an exact integer, or NotEvaluable)."""
    if isinstance(value, mpmath.mpf):
        if mpmath.isint(value):
            return int(value)
    elif hasattr(value, "unique_fmpz") and value.is_exact():  # an Arb ball that is a single integer
        z = value.unique_fmpz()
        if z is not None:
            return int(z)
    raise NotEvaluable(f"not an exact integer: {value}")


def evaluate(expr: sp.Expr, values: Mapping[sp.Basic, Any], ctx: Any) -> Any:
    """Evaluate *expr* with symbols (or opaque subterms) replaced by ``values`` in *ctx*."""
    cache: dict[sp.Basic, Any] = {}

    def ev(e: sp.Basic) -> Any:
        if e in values:
            return values[e]
        if e in cache:
            return cache[e]
        out = _ev(e)
        cache[e] = out
        return out

    def _ev(e: sp.Basic) -> Any:
        if e.is_Number:
            if not e.is_finite:
                # never approximated: a ball cannot hold oo, and mpmath's inf would compare as a number
                raise NotEvaluable(f"not a finite number: {e}")
            return ctx.number(e)
        if e is sp.pi:
            return ctx.pi
        if e is sp.E:
            return ctx.e
        if e.is_Symbol:
            raise NotEvaluable(f"no value for symbol {e}")
        if e.is_Add:
            args = [ev(a) for a in e.args]
            total = args[0]
            for v in args[1:]:
                total = total + v
            return total
        if e.is_Mul:
            args = [ev(a) for a in e.args]
            total = args[0]
            for v in args[1:]:
                total = total * v
            return total
        if e.is_Pow:
            base, exponent = e.args
            if exponent.is_Integer or exponent.is_integer:  # X**(2m + 1) at X < 0 is real: integer powering
                n = int(exponent) if exponent.is_Integer else _exact_int(ev(exponent))
                bv = ev(base)
                return bv ** n if n >= 0 else 1 / (bv ** (-n))
            if exponent == sp.Rational(1, 2):
                return ctx.sqrt(ev(base))
            if exponent == sp.Rational(-1, 2):
                return 1 / ctx.sqrt(ev(base))
            if base is sp.E:
                return ctx.exp(ev(exponent))
            return ctx.exp(ev(exponent) * ctx.log(ev(base)))
        if isinstance(e, (sp.Max, sp.Min)):
            args = [ev(a) for a in e.args]
            return ctx.max(*args) if isinstance(e, sp.Max) else ctx.min(*args)
        fname = _FUNCS.get(type(e))
        if fname is not None:
            return getattr(ctx, fname)(ev(e.args[0]))
        # -- a term of a sequence given by its values (rho(1), rho(2), ... in ``values``) ---------------------------
        if isinstance(e, AppliedUndef) and len(e.args) == 1:
            key = e.func(sp.Integer(_exact_int(ev(e.args[0]))))
            if key in values:
                return values[key]
            raise NotEvaluable(f"no value for {key}")
        # -- finite sums and products at integer limits (the R-F7/R-F8 statements) -------------------------------
        if isinstance(e, (sp.Sum, sp.Product)) and len(e.limits) == 1:
            var, lo, hi = e.limits[0]
            first, last = _exact_int(ev(lo)), _exact_int(ev(hi))
            if last - first > _MAX_TERMS:
                raise NotEvaluable(f"more than {_MAX_TERMS} terms: {e}")
            if last < first - 1:  # sympy reads these by Karr's convention (a negated sum, an inverted product)
                raise NotEvaluable(f"limits in reverse order: {e}")
            is_sum = isinstance(e, sp.Sum)
            total = ctx.number(sp.Integer(0 if is_sum else 1))  # the empty sum is 0, the empty product 1
            for j in range(first, last + 1):
                term = evaluate(e.function, {**values, var: ctx.number(sp.Integer(j))}, ctx)
                total = total + term if is_sum else total * term
            return total
        raise NotEvaluable(f"cannot evaluate {type(e).__name__}: {e}")

    return ev(expr)
