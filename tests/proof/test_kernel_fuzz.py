"""Property-based fuzzing of the proof kernel against an independent numeric oracle.

Hypothesis builds random small sympy expressions over ``x`` (real), ``p`` (positive) and ``n`` (a positive
integer) with randomly chosen domains, and random one- and two-step calc chains over them: identities,
inequalities, perturbations and (sometimes unsound) rewrites of the left side, justified by ``algebra``,
``sign``, ``interval`` (with boxes that may be too narrow), ``specialize`` (chain variables), ``taylor``
(random ``g`` and bound), ``by`` (true registered test axioms inside random contexts; a false *unregistered*
axiom) and ``numeric``.  Many come out true, many false.

Whenever the kernel says *proved* or *certified* -- for a step, for a whole chain, or for a whole
:class:`~cdpsym.proof.Theorem` -- the oracle evaluates the claimed relation ``lhs op rhs`` at many points of
the FULL declared domain (interior, 1e-9 from open ends, closed ends, constants of the expressions, box
ends, magnitudes 1e3 and 1e8) in Arb ball arithmetic (python-flint), exact rationals where possible, with
precision raised until the comparison is decided.  It does not reuse the kernel's evaluator.

A point is a FALSE PROOF when

* the relation is definitely false there: ``lhs - rhs > 1e-30 * max(|lhs|, |rhs|)`` for ``<=``,
  ``|lhs - rhs| > 1e-30 * max(|lhs|, |rhs|)`` for ``=``, and for ``<`` ``rhs - lhs <= 0`` definitely; or
* (``<`` only) ``rhs - lhs`` is indistinguishable from 0 (within that tolerance, at 8192 bits) at EVERY
  evaluated point -- at a single extreme point a true gap can be below any precision (``tanh(n) <
  tanh(exp(n))`` at ``n = 1e8``), so such points alone are only counted; or
* a side is definitely undefined there (division by zero, log of a non-positive number, a fractional power
  of a negative number, a Piecewise with no branch, ``zoo``/``nan``), also inside an integrand or inside the
  argument of an opaque operator (``Expect(log(x))`` at ``x = 0``).

The comparison uses both ``L - R`` and sympy's automatically simplified ``rhs - lhs`` (better conditioned
when large terms cancel).  Points where a side cannot be evaluated (opaque operators of random quantities,
unsupported functions, overflow, undecidable at every precision) are skipped and counted; ``Expect`` of a
deterministic quantity is that quantity.  Kernel exceptions and kernel checks over a CPU-time limit are
counted and listed, not treated as false proofs.

By default every false proof of a run is collected and the test fails at the end listing them all
(statement, domains, justification, kernel verdict, point, why).  Environment:

* ``CDPSYM_FUZZ_EXAMPLES`` -- examples of the slow test (default 10000);
* ``CDPSYM_FUZZ_SHRINK=1`` -- raise at the first false proof instead, so hypothesis shrinks it;
* ``CDPSYM_FUZZ_REPORT=path`` -- also write the statistics and the false proofs as JSON;
* ``CDPSYM_FUZZ_PROGRESS=N`` -- a progress line on stderr every N examples.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import random
import signal
import sys
import time
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Callable

import pytest
import sympy as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

flint = pytest.importorskip("flint")
from flint import acb, arb, fmpq  # noqa: E402

import cdpsym.proof as proof_api  # noqa: E402
from cdpsym.expr import symbols as S  # noqa: E402
from cdpsym.expr.domains import Interval, greater_than, naturals, nonnegative, positive, real  # noqa: E402
from cdpsym.expr.operators import OPAQUE, Expect, Prob  # noqa: E402
from cdpsym.proof import (Axiom, Chain, Part, Theorem, algebra, by, eq, interval, le, lt, numeric,  # noqa: E402
                          monotone, sign, specialize, split, symbolic_check, taylor)
from cdpsym.proof.algebra import Context  # noqa: E402

# ================================================================================================
# symbols, domains, test axioms
# ================================================================================================

X = S.x  # real
P = S.p  # positive
N = sp.Symbol("n", positive=True, integer=True)
ALPHA = S.alpha  # positive: a chain variable
LAM = S.lam  # real: a chain variable
RV = S.X  # a random variable: only inside opaque operators
T_INT = sp.Symbol("tau_int", real=True)  # integration variable (bound)
W = sp.Symbol("w_ctx", real=True)  # placeholder of `inside` templates
V = sp.Symbol("v_tay", real=True)  # placeholder of taylor's g templates
BASE_SYMS = (X, P, N)

X_DOMAINS = [("real", real()), ("real", real()), ("[-1, 1]", Interval.closed(-1, 1)),
             ("[0, oo)", nonnegative()), ("(-1, 3)", Interval.open(-1, 3))]
P_DOMAINS = [("(0, oo)", positive()), ("(0, 1)", Interval.open(0, 1)),
             ("(0, 1]", Interval(sp.S.Zero, sp.S.One, True, False))]
N_DOMAINS = [("naturals", naturals()), ("naturals", naturals()),
             ("integers in [1, 10]", Interval(sp.S.One, sp.Integer(10), False, False, True))]
CHAIN_VAR_DOMAINS = [(ALPHA, "(1, oo)", greater_than(1)), (ALPHA, "(1, 3)", Interval.open(1, 3)),
                     (LAM, "real", real()), (LAM, "[-1, 1]", Interval.closed(-1, 1))]

U = S.u  # real
Q = S.q  # positive
R = S.r  # nonnegative

TRUE_AXIOMS = [
    Axiom("fuzz_exp_ge_1_plus_u", le(1 + U, sp.exp(U)), {U: real()}, title="1 + u <= exp(u)"),
    Axiom("fuzz_square_nonneg", le(sp.S.Zero, U ** 2), {U: real()}, title="0 <= u^2"),
    Axiom("fuzz_log_le_q_minus_1", le(sp.log(Q), Q - 1), {Q: positive()}, title="log q <= q - 1"),
    Axiom("fuzz_log1p_le_u", le(sp.log(1 + U), U), {U: real()}, conditions=(lt(-1, U),),
          title="log(1 + u) <= u for u > -1"),
    Axiom("fuzz_u_lt_exp", lt(U, sp.exp(U)), {U: real()}, title="u < exp(u)"),
    Axiom("fuzz_u_le_abs", le(U, sp.Abs(U)), {U: real()}, title="u <= |u|"),
    Axiom("fuzz_sqrt_amgm", le(sp.sqrt(R), (1 + R) / 2), {R: nonnegative()}, title="sqrt r <= (1 + r)/2"),
    Axiom("fuzz_tanh_def", eq(sp.tanh(U), 1 - 2 / (sp.exp(2 * U) + 1)), {U: real()}, title="tanh definition"),
]
TANH_AXIOM = TRUE_AXIOMS[-1]
# false, and never registered: with a registry it must never make a step proved
BOGUS_AXIOM = Axiom("fuzz_bogus_unregistered", le(sp.exp(U), U), {U: real()}, title="FALSE: exp(u) <= u")

_REGISTER = getattr(proof_api, "register_axioms", None)
REGISTRY = False
if _REGISTER is not None:
    try:
        _REGISTER(*TRUE_AXIOMS)
        REGISTRY = True
    except TypeError:  # pragma: no cover - another signature
        try:
            _REGISTER(TRUE_AXIOMS)
            REGISTRY = True
        except Exception:
            REGISTRY = False
AXIOM_POOL = TRUE_AXIOMS + ([BOGUS_AXIOM] if REGISTRY else [])

CONSTS = [sp.Integer(1), sp.Integer(2), sp.Integer(0), sp.Integer(-1), sp.Rational(1, 2), sp.Integer(3),
          sp.Integer(-2), sp.Rational(1, 3), sp.Rational(3, 2), sp.Rational(-1, 2)]

# ================================================================================================
# the oracle: Arb ball / exact rational evaluation
# ================================================================================================


class Undefined(Exception):
    """The expression definitely has no real value at the point."""


class Unknown(Exception):
    """The oracle cannot evaluate the expression (opaque operator, unsupported function, overflow)."""


class Imprecise(Unknown):
    """Undecided at this precision: retry with more bits."""


PRECISIONS = (128, 512, 2048, 8192)
PRECISIONS_WITH_INTEGRALS = (128, 384)
TOL = Fraction(1, 10 ** 30)
EXP_LIMIT = 10 ** 10  # |argument| of exp beyond which the oracle gives up (arb would need huge precision)


@contextlib.contextmanager
def _prec(bits: int):
    old = flint.ctx.prec
    flint.ctx.prec = bits
    try:
        yield
    finally:
        flint.ctx.prec = old


def _ball(v):
    return arb(v) if isinstance(v, fmpq) else v


def _sgn(v) -> int | None:
    """-1/0/1 when decided, None when the ball straddles 0."""
    if isinstance(v, fmpq):
        return (v > 0) - (v < 0)
    if not v.is_finite():
        return None
    if v > 0:
        return 1
    if v < 0:
        return -1
    if v.is_zero():
        return 0
    return None


def _finite(v):
    if isinstance(v, fmpq):
        return v
    if not v.is_finite():
        raise Imprecise("non-finite ball")
    return v


def _fmpq(r: sp.Rational) -> fmpq:
    return fmpq(int(r.p), int(r.q))


def _exact_sqrt(q: fmpq):
    n, d = int(q.p), int(q.q)
    import math

    rn, rd = math.isqrt(n), math.isqrt(d)
    if rn * rn == n and rd * rd == d:
        return fmpq(rn, rd)
    return None


_ARB_FUNCS = {sp.tanh: "tanh", sp.sinh: "sinh", sp.cosh: "cosh", sp.erf: "erf", sp.erfc: "erfc",
              sp.erfi: "erfi", sp.atan: "atan", sp.sin: "sin", sp.cos: "cos"}


class Evaluator:
    """Evaluates a sympy expression at an exact rational point: fmpq where exact, arb balls otherwise."""

    def __init__(self, env: dict):
        self.env = env
        self.memo: dict = {}

    def ev(self, e: sp.Basic):
        hit = self.memo.get(e)
        if hit is not None:
            return hit
        v = self._ev(e)
        self.memo[e] = v
        return v

    def _ev(self, e: sp.Basic):
        if e in self.env:
            return self.env[e]
        if e.is_Rational:
            return _fmpq(e)
        if e.is_Float:
            return _fmpq(sp.Rational(e))
        if e is sp.zoo or e is sp.nan:
            raise Undefined(f"{e} (undefined)")
        if e.is_Number:
            raise Unknown(f"non-finite number {e}")
        if e is sp.pi:
            return arb.pi()
        if e is sp.E:
            return arb.const_e()
        if e.is_Symbol:
            raise Unknown(f"no value for {e}")
        if e.is_Add:
            vals = [self.ev(a) for a in e.args]
            if all(isinstance(v, fmpq) for v in vals):
                return sum(vals, fmpq(0))
            out = arb(0)
            for v in vals:
                out = out + _ball(v)
            return _finite(out)
        if e.is_Mul:
            vals = [self.ev(a) for a in e.args]
            if all(isinstance(v, fmpq) for v in vals):
                out = fmpq(1)
                for v in vals:
                    out = out * v
                return out
            if any(isinstance(v, fmpq) and v == 0 for v in vals):
                return fmpq(0)
            out = arb(1)
            for v in vals:
                out = out * _ball(v)
            return _finite(out)
        if e.is_Pow:
            return self._pow(*e.args)
        if isinstance(e, sp.exp):
            return self._exp(self.ev(e.args[0]))
        if isinstance(e, sp.log):
            if len(e.args) != 1:
                raise Unknown("log with a base")
            a = self.ev(e.args[0])
            s = _sgn(a)
            if s is None:
                raise Imprecise("log of a ball around 0")
            if s <= 0:
                raise Undefined(f"log of a non-positive number ({e.args[0]} = {_show(a)})")
            if isinstance(a, fmpq) and a == 1:
                return fmpq(0)
            return _finite(_ball(a).log())
        if isinstance(e, sp.Abs):
            a = self.ev(e.args[0])
            return abs(a)
        if isinstance(e, sp.sign):
            s = _sgn(self.ev(e.args[0]))
            if s is None:
                raise Imprecise("sign of a ball around 0")
            return fmpq(s)
        if isinstance(e, sp.Heaviside):
            s = _sgn(self.ev(e.args[0]))
            if s is None:
                raise Imprecise("Heaviside at a ball around 0")
            if s == 0:
                return self.ev(e.args[1]) if len(e.args) > 1 else fmpq(1, 2)
            return fmpq(1 if s > 0 else 0)
        if isinstance(e, (sp.Max, sp.Min)):
            vals = [self.ev(a) for a in e.args]
            if all(isinstance(v, fmpq) for v in vals):
                return max(vals) if isinstance(e, sp.Max) else min(vals)
            out = _ball(vals[0])
            for v in vals[1:]:
                out = out.max(_ball(v)) if isinstance(e, sp.Max) else out.min(_ball(v))
            return _finite(out)
        if isinstance(e, sp.Piecewise):
            for val, cond in e.args:
                if self.cond(cond):
                    return self.ev(val)
            raise Undefined("Piecewise: no branch applies")
        if isinstance(e, sp.Integral):
            return self._integral(e)
        if isinstance(e, OPAQUE):
            return self._opaque(e)
        fname = _ARB_FUNCS.get(type(e))
        if fname is not None:
            a = self.ev(e.args[0])
            if isinstance(a, fmpq) and a == 0 and fname in ("tanh", "sinh", "erf", "erfi", "atan", "sin"):
                return fmpq(0)
            return _finite(getattr(_ball(a), fname)())
        raise Unknown(f"cannot evaluate {type(e).__name__}")

    def _opaque(self, e: sp.Basic):
        """An opaque operator has no value here, but it is undefined where a deterministic part of its argument
        is; the expectation of a deterministic quantity is that quantity."""
        if isinstance(e, Expect) and not e.args[0].has(RV):
            try:
                return self.ev(e.args[0])
            except Undefined as exc:
                raise Undefined(f"inside Expect: {exc}") from None
        for sub in _deterministic_parts(e):
            try:
                self.ev(sub)
            except Undefined as exc:
                raise Undefined(f"inside {type(e).__name__}: {exc}") from None
        raise Unknown(f"opaque operator {type(e).__name__}")

    def _exp(self, a):
        if isinstance(a, fmpq) and a == 0:
            return fmpq(1)
        b = _ball(a)
        if not b.is_finite():
            raise Imprecise("exp of a non-finite ball")
        if b.abs_upper() > EXP_LIMIT:
            raise Unknown("exp of a huge argument")
        return _finite(b.exp())

    def _pow(self, base: sp.Expr, ex: sp.Expr):
        if base is sp.E:
            return self._exp(self.ev(ex))
        if ex.is_Integer:
            return self._int_pow(self.ev(base), int(ex))
        b = self.ev(base)
        if ex.is_Rational:
            xv = _fmpq(ex)
        else:
            xv = self.ev(ex)
            if isinstance(xv, fmpq) and xv.q == 1:
                return self._int_pow(b, int(xv.p))
        s = _sgn(b)
        if s is None:
            raise Imprecise("power of a ball around 0")
        if s < 0:
            raise Undefined(f"non-integer power of a negative number ({base} = {_show(b)}, exponent {ex})")
        sx = _sgn(xv)
        if s == 0:
            if sx is None:
                raise Imprecise("0 to an undecided power")
            if sx > 0:
                return fmpq(0)
            if sx == 0:
                return fmpq(1)
            raise Undefined(f"0 to a negative power ({base} = 0, exponent {ex})")
        if isinstance(b, fmpq) and isinstance(xv, fmpq) and xv == fmpq(1, 2):
            r = _exact_sqrt(b)
            if r is not None:
                return r
        if isinstance(xv, fmpq) and xv == fmpq(1, 2):
            return _finite(_ball(b).sqrt())
        return self._exp(_ball(xv) * _ball(b).log())

    @staticmethod
    def _int_pow(b, k: int):
        if abs(k) > 10 ** 6:
            raise Unknown("huge integer power")
        if k >= 0:
            return b ** k if isinstance(b, fmpq) else _finite(b ** k)
        s = _sgn(b)
        if s is None:
            raise Imprecise("division by a ball around 0")
        if s == 0:
            raise Undefined("division by zero")
        if isinstance(b, fmpq):
            return fmpq(1) / b ** (-k)
        return _finite(1 / b ** (-k))

    def cond(self, c) -> bool:
        if c is sp.true or c == True:  # noqa: E712
            return True
        if c is sp.false or c == False:  # noqa: E712
            return False
        if isinstance(c, sp.And):
            return all(self.cond(a) for a in c.args)
        if isinstance(c, sp.Or):
            return any(self.cond(a) for a in c.args)
        if isinstance(c, sp.Not):
            return not self.cond(c.args[0])
        if isinstance(c, sp.core.relational.Relational):
            a, b = self.ev(c.lhs), self.ev(c.rhs)
            d = a - b if (isinstance(a, fmpq) and isinstance(b, fmpq)) else _ball(a) - _ball(b)
            s = _sgn(d)
            if s is None:
                raise Imprecise("Piecewise condition undecided")
            op = c.rel_op
            return {">": s > 0, ">=": s >= 0, "<": s < 0, "<=": s <= 0, "==": s == 0, "!=": s != 0}[op]
        raise Unknown(f"condition {c}")

    def _integral(self, e: sp.Integral):
        if len(e.limits) != 1 or len(e.limits[0]) != 3:
            raise Unknown("integral form")
        t, lo, hi = e.limits[0]
        lo_v, hi_v = self.ev(lo), self.ev(hi)
        f = e.function
        # evaluate the t-free maximal subterms first (they may be undefined), then integrate in acb
        subs: dict = {}

        def abstract(g: sp.Basic) -> sp.Basic:
            if not g.has(t):
                if g.is_Number:
                    return g
                d = sp.Dummy("c")
                subs[d] = acb(_ball(self.ev(g)))
                return d
            if g == t or not g.args:
                return g
            return g.func(*[abstract(a) for a in g.args], evaluate=False) if g.is_Add or g.is_Mul or g.is_Pow \
                else g.func(*[abstract(a) for a in g.args])

        f2 = abstract(f)
        _check_complex_supported(f2, t)

        failure: list = []

        def integrand(z, analytic):
            # an exception must not escape into flint's C callback (it would keep integrating with the error
            # set): keep the first one, return an indeterminate ball, re-raise after the integration
            if failure or _CPU_STATE["pending"]:
                return acb(arb.nan())
            try:
                return _ev_complex(f2, t, z, subs)
            except BaseException as exc:  # noqa: BLE001
                failure.append(exc)
                return acb(arb.nan())

        _CPU_STATE["defer"] += 1  # the CPU limit must not fire inside the callback: it waits until we are out
        try:
            res = acb.integral(integrand, acb(_ball(lo_v)), acb(_ball(hi_v)), eval_limit=20_000)
        finally:
            _CPU_STATE["defer"] -= 1
        if _CPU_STATE["pending"] and not _CPU_STATE["defer"]:
            _CPU_STATE["pending"] = False
            raise CpuLimit()
        if failure:
            raise failure[0]
        re_part = res.real
        if not re_part.is_finite() or not res.imag.contains(0):
            raise Imprecise("integral not enclosed")
        return re_part


def _deterministic_parts(e: sp.Basic) -> list:
    """Maximal subterms of an opaque term's arguments free of random variables (they must be defined)."""
    out = []

    def walk(a):
        if isinstance(a, sp.Basic) and isinstance(a, sp.Expr) and not a.has(RV):
            if not a.is_Atom:
                out.append(a)
            return
        for b in a.args:
            walk(b)

    for a in e.args:
        walk(a)
    return out


def _check_complex_supported(f: sp.Basic, t: sp.Symbol) -> None:
    for sub in sp.preorder_traversal(f):
        if sub.is_Add or sub.is_Mul or sub.is_Atom or isinstance(sub, (sp.exp, sp.tanh)):
            continue
        if sub.is_Pow and (sub.exp.is_Integer or sub.base is sp.E):
            continue
        raise Unknown(f"integrand term {type(sub).__name__} not supported")


def _ev_complex(f: sp.Basic, t, z, subs):
    if f == t:
        return z
    if f in subs:
        return subs[f]
    if f.is_Number:
        return acb(_ball(_fmpq(sp.Rational(f))))
    if f is sp.pi:
        return acb(arb.pi())
    if f is sp.E:
        return acb(arb.const_e())
    if f.is_Add:
        out = acb(0)
        for a in f.args:
            out = out + _ev_complex(a, t, z, subs)
        return out
    if f.is_Mul:
        out = acb(1)
        for a in f.args:
            out = out * _ev_complex(a, t, z, subs)
        return out
    if f.is_Pow:
        if f.base is sp.E:
            return _ev_complex(f.exp, t, z, subs).exp()
        b = _ev_complex(f.base, t, z, subs)
        k = int(f.exp)
        return b ** k if k >= 0 else 1 / b ** (-k)
    if isinstance(f, sp.exp):
        return _ev_complex(f.args[0], t, z, subs).exp()
    if isinstance(f, sp.tanh):
        return _ev_complex(f.args[0], t, z, subs).tanh()
    raise Unknown(f"integrand {f}")


def _show(v) -> str:
    if isinstance(v, fmpq):
        return str(v) if len(str(v)) < 40 else _ball(v).str(20)
    return v.str(20)


def judge(lhs: sp.Expr, op: str, rhs: sp.Expr, point: dict) -> tuple[str, str]:
    """('ok' | 'violation' | 'undefined' | 'skip' | 'strict-ambiguous', explanation) for ``lhs op rhs`` at
    ``point``.  'strict-ambiguous': a strict relation whose sides agree to the highest precision tried (the
    caller decides: equal everywhere refutes strictness; a tiny true gap at one extreme point does not)."""
    diff = rhs - lhs  # sympy's automatic simplification: a better-conditioned enclosure where both sides exist
    env = {s: _fmpq(v) for s, v in point.items()}
    has_integral = lhs.has(sp.Integral) or rhs.has(sp.Integral)
    precs = PRECISIONS_WITH_INTEGRALS if has_integral else PRECISIONS
    last, verdict = "", None
    for bits in precs:
        with _prec(bits):
            ev = Evaluator(env)
            try:
                L = ev.ev(lhs)
            except Undefined as exc:
                return "undefined", f"left side undefined: {exc}"
            except Imprecise as exc:
                last = f"left side: {exc}"
                continue
            except Unknown as exc:
                return "skip", f"left side: {exc}"
            try:
                Rv = ev.ev(rhs)
            except Undefined as exc:
                return "undefined", f"right side undefined: {exc}"
            except Imprecise as exc:
                last = f"right side: {exc}"
                continue
            except Unknown as exc:
                return "skip", f"right side: {exc}"
            try:
                D = ev.ev(diff)
            except (Unknown, Undefined):
                D = None
            verdict = _decide(L, op, Rv, D)
            shown = f"lhs = {_show(L)}, rhs = {_show(Rv)}"
            if verdict in ("ok", "violation"):
                return verdict, shown
            last = shown
    if verdict == "strict-ambiguous":
        return "strict-ambiguous", f"{last}: rhs - lhs indistinguishable from 0 at {precs[-1]} bits"

    return "skip", f"undecided: {last}"


def _decide(L, op: str, Rv, D) -> str:
    exact = isinstance(L, fmpq) and isinstance(Rv, fmpq)
    if exact:
        d = Rv - L
        s = max(abs(L), abs(Rv))
        tol = fmpq(TOL.numerator, TOL.denominator) * s
        if op == "<=":
            return "violation" if -d > tol else "ok"
        if op == "=":
            return "violation" if abs(d) > tol else "ok"
        return "ok" if d > 0 else "violation"
    Lb, Rb = _ball(L), _ball(Rv)
    s = abs(Lb).max(abs(Rb))
    tol = arb(fmpq(TOL.numerator, TOL.denominator)) * s
    diffs = [Rb - Lb] + ([_ball(D)] if D is not None and _ball(D).is_finite() else [])
    if op == "<=":
        if any(-d - tol > 0 for d in diffs):
            return "violation"
        if any(-d - tol <= 0 for d in diffs):
            return "ok"
        return "ambiguous"
    if op == "=":
        if any(abs(d) - tol > 0 for d in diffs):
            return "violation"
        if any(abs(d) - tol <= 0 for d in diffs):
            return "ok"
        return "ambiguous"
    if any(d <= 0 for d in diffs):
        return "violation"
    if any(d > 0 for d in diffs):
        return "ok"
    if any(abs(d) - tol <= 0 for d in diffs):
        return "strict-ambiguous"
    return "ambiguous"


# -- points of a domain ---------------------------------------------------------------------------

TINY = sp.Rational(1, 10 ** 9)


def _in(dom: Interval, v: sp.Rational) -> bool:
    if dom.integer and not v.is_integer:
        return False
    lo, hi = dom.lo, dom.hi
    if lo is not sp.S.NegativeInfinity and (v < lo or (dom.left_open and v == lo)):
        return False
    if hi is not sp.S.Infinity and (v > hi or (dom.right_open and v == hi)):
        return False
    return True


def _assumption_domain(s: sp.Symbol) -> Interval:
    if s.is_integer and s.is_positive:
        return naturals()
    if s.is_positive:
        return positive()
    if s.is_nonnegative:
        return nonnegative()
    return real()


def specials(dom: Interval) -> list[sp.Rational]:
    """Values a domain must be probed at: ends (closed ends exactly, open ends 1e-9 away), 0 and 1,
    magnitudes 1e3 and 1e8."""
    lo, hi = dom.lo, dom.hi
    out: list = []
    if dom.integer:
        start = lo if lo.is_finite else sp.Integer(-10 ** 8)
        if lo.is_finite and (dom.left_open or not lo.is_integer):
            start = sp.floor(lo) + 1
        cands = [start, start + 1, start + 2, start + 4, sp.Integer(10), sp.Integer(1000), sp.Integer(10 ** 8)]
        if hi.is_finite:
            cands += [sp.floor(hi), sp.floor(hi) - 1]
        return [c for c in dict.fromkeys(cands) if _in(dom, c)]
    finite_lo, finite_hi = lo.is_finite, hi.is_finite
    if finite_lo and finite_hi:
        w = hi - lo
        out += [lo, hi, lo + TINY * w, hi - TINY * w, lo + w / 2, lo + w / 3, lo + w / 1000, hi - w / 1000]
    elif finite_lo:
        out += [lo, lo + TINY, lo + sp.Rational(1, 1000), lo + sp.Rational(1, 2), lo + 1, lo + 2, lo + 10,
                lo + 1000, lo + 10 ** 8]
    elif finite_hi:
        out += [hi, hi - TINY, hi - sp.Rational(1, 2), hi - 1, hi - 2, hi - 10, hi - 1000, hi - 10 ** 8]
    else:
        for m in (0, TINY, sp.Rational(1, 2), 1, 2, 3, 10, 1000, 10 ** 8):
            out += [sp.Rational(m), -sp.Rational(m)]
    for c in (0, 1, -1):
        out.append(sp.Integer(c))
    return [v for v in dict.fromkeys(out) if _in(dom, v)]


def random_value(dom: Interval, rng: random.Random) -> sp.Rational:
    lo, hi = dom.lo, dom.hi
    for _ in range(20):
        if dom.integer:
            a = int(lo) if lo.is_finite else -50
            b = int(hi) if hi.is_finite else a + rng.choice([10, 100, 10 ** 4])
            v = sp.Integer(rng.randint(a, b))
        elif lo.is_finite and hi.is_finite:
            v = lo + (hi - lo) * sp.Rational(rng.randint(1, 10 ** 6 - 1), 10 ** 6)
        else:
            mag = sp.Rational(10) ** rng.randint(-9, 8) * sp.Rational(rng.randint(1, 999), 100)
            if rng.random() < 0.5:
                mag = sp.Rational(rng.randint(0, 4000), 1000)
            if lo.is_finite:
                v = lo + mag
            elif hi.is_finite:
                v = hi - mag
            else:
                v = mag if rng.random() < 0.5 else -mag
        if _in(dom, v):
            return v
    return specials(dom)[0]


def expression_constants(exprs, extra=()) -> list[sp.Rational]:
    """Rational constants of the expressions, negated, reciprocated, and 1e-9 either side: where a side is
    likely to become undefined or a Piecewise to switch."""
    base = set(extra)
    for e in exprs:
        for a in sp.preorder_traversal(e):
            if a.is_Rational and abs(a) < 10 ** 9:
                base.add(a)
    out = set()
    for c in base:
        for v in (c, -c) + ((1 / c, -1 / c) if c != 0 else ()):
            out.update((v, v + TINY, v - TINY))
    return sorted(out)


def domain_points(symbols, domains: dict, consts, rng: random.Random, budget: int) -> list[dict]:
    syms = sorted(symbols, key=str)
    if not syms:
        return [{}]
    cand = {}
    for s in syms:
        dom = domains.get(s) or _assumption_domain(s)
        cs = specials(dom) + [c for c in consts if _in(dom, c)]
        cand[s] = (dom, list(dict.fromkeys(cs)))
    points: list[dict] = []
    if len(syms) == 1:
        s = syms[0]
        points += [{s: v} for v in cand[s][1]]
    else:
        # every special value of each variable (the others drawn), then random mixes of specials and draws
        for s in syms:
            for v in cand[s][1]:
                pt = {o: (rng.choice(cand[o][1]) if cand[o][1] and rng.random() < 0.5
                          else random_value(cand[o][0], rng)) for o in syms}
                pt[s] = v
                points.append(pt)
        for _ in range(budget):
            pt = {}
            for s in syms:
                dom, cs = cand[s]
                pt[s] = rng.choice(cs) if (cs and rng.random() < 0.7) else random_value(dom, rng)
            points.append(pt)
    for _ in range(max(8, budget // 3)):
        points.append({s: random_value(cand[s][0], rng) for s in syms})
    seen, out = set(), []
    for pt in points:
        key = tuple(pt[s] for s in syms)
        if key not in seen:
            seen.add(key)
            out.append(pt)
    return out


# ================================================================================================
# statistics and the report
# ================================================================================================


@dataclass
class Stats:
    examples: int = 0
    chains: int = 0
    theorems: int = 0
    steps: collections.Counter = field(default_factory=collections.Counter)
    by_justification: dict = field(default_factory=lambda: collections.defaultdict(collections.Counter))
    theorem_status: collections.Counter = field(default_factory=collections.Counter)
    oracle_relations: int = 0
    oracle_points: int = 0
    oracle_skipped: int = 0
    strict_unresolved: int = 0
    violations: list = field(default_factory=list)
    seen: set = field(default_factory=set)
    kernel_errors: collections.Counter = field(default_factory=collections.Counter)
    kernel_timeouts: int = 0
    kernel_timeout_examples: list = field(default_factory=list)
    oracle_timeouts: int = 0
    generation_errors: collections.Counter = field(default_factory=collections.Counter)
    kernel_error_examples: list = field(default_factory=list)
    t_kernel: float = 0.0
    t_oracle: float = 0.0
    t_start: float = field(default_factory=time.perf_counter)
    slowest: tuple = (0.0, "")

    def report(self) -> str:
        closed = sum(self.steps[s] for s in ("proved", "certified"))
        lines = [
            f"kernel fuzz: {self.examples} examples, {self.chains} chains checked ({self.theorems} as theorems), "
            f"{sum(self.steps.values())} steps",
            f"  step verdicts: {dict(self.steps)}; proved/certified steps: {closed}",
            f"  theorem verdicts: {dict(self.theorem_status)}",
            f"  oracle: {self.oracle_relations} closed relations checked at {self.oracle_points} points "
            f"({self.oracle_skipped} points not evaluable; {self.strict_unresolved} strict points where the sides agree to "
            f"{PRECISIONS[-1]} bits, a violation only when that holds at every point)",
            f"  FALSE PROOFS: {len(self.violations)}",
            f"  kernel exceptions: {sum(self.kernel_errors.values())} {dict(self.kernel_errors)}; "
            f"cases sympy could not build: {sum(self.generation_errors.values())}",
            f"  kernel checks over the {KERNEL_CPU_LIMIT:.0f}s CPU limit (hangs): {self.kernel_timeouts}; "
            f"oracle timeouts: {self.oracle_timeouts}",
            f"  time: total {time.perf_counter() - self.t_start:.1f}s, kernel {self.t_kernel:.1f}s, "
            f"oracle {self.t_oracle:.1f}s; slowest kernel check {self.slowest[0]:.1f}s",
            f"  registry: {'register_axioms used' if REGISTRY else 'no register_axioms (all axioms count)'}",
            "  per justification (verdicts of the steps using it):",
        ]
        for k in sorted(self.by_justification):
            lines.append(f"    {k:28s} {dict(self.by_justification[k])}")
        return "\n".join(lines)

    def violations_text(self, limit: int = 40) -> str:
        groups = collections.OrderedDict()
        for v in self.violations:
            groups.setdefault((v["level"], v["justification_kind"], v["verdict"]), []).append(v)
        out = [f"{len(self.violations)} FALSE PROOF(S) in {len(groups)} group(s):"]
        shown = 0
        for (level, kind, verdict), vs in groups.items():
            out.append(f"\n=== {level} / {kind} / {verdict}: {len(vs)} case(s)")
            for v in vs[:3]:
                if shown >= limit:
                    break
                shown += 1
                out.append(format_violation(v))
        return "\n".join(out)


def format_violation(v: dict) -> str:
    return "\n".join([
        f"  FALSE PROOF ({v['level']}): kernel said {v['status']!r} for",
        f"      {v['relation']}",
        f"    domains: {v['domains']}",
        f"    justification: {v['justification']}",
        f"    kernel detail: {v['detail'][:300]}",
        f"    at {v['point']}: {v['verdict']} -- {v['why']}",
        f"    chain: {v['chain']}",
    ])


# ================================================================================================
# generation
# ================================================================================================


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _deadline(seconds: float):
    def handler(signum, frame):
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_CPU_STATE = {"defer": 0, "pending": False}


class CpuLimit(BaseException):
    """A phase took more CPU time than allowed (a BaseException: nothing in the kernel may swallow it)."""


@contextlib.contextmanager
def cpu_limit(seconds: float):
    """Interrupt after ``seconds`` of CPU time.  It uses ITIMER_PROF/SIGPROF, not the real-time timer the
    kernel's own time limits use (signal.alarm), so the two cannot cancel each other."""
    def handler(signum, frame):
        if _CPU_STATE["defer"]:  # inside a flint callback region: stop it cleanly, raise when it returns
            _CPU_STATE["pending"] = True
            return
        raise CpuLimit()

    old = signal.signal(signal.SIGPROF, handler)
    _CPU_STATE["pending"] = False
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
        _CPU_STATE["pending"] = False


KERNEL_CPU_LIMIT = float(os.environ.get("CDPSYM_FUZZ_KERNEL_LIMIT", "90"))
ORACLE_CPU_LIMIT = 30.0
GENERATION_CPU_LIMIT = 30.0


def _safe(fn: Callable, e: sp.Expr, seconds: float = 1.0) -> sp.Expr:
    try:
        with _deadline(seconds):
            out = fn(e)
        return out if isinstance(out, sp.Expr) else e
    except BaseException as exc:  # noqa: BLE001 - sympy raises anything; a timeout keeps the input
        if isinstance(exc, KeyboardInterrupt):
            raise
        return e


def _bad(e: sp.Basic) -> bool:
    return e.has(sp.zoo, sp.nan, sp.oo, -sp.oo, sp.I) or sp.count_ops(e) > 40


class Gen:
    """Draws from hypothesis' data object; builds sympy expressions."""

    def __init__(self, data):
        self.data = data

    def pick(self, seq, label=None):
        return self.data.draw(st.sampled_from(list(seq)), label=label)

    def int(self, a, b):
        return self.data.draw(st.integers(a, b))

    def chance(self, p: float) -> bool:
        # hypothesis favours the ends of a range: scramble it so that the rate is close to p
        return (self.data.draw(st.integers(0, 999)) * 7919 + 13) % 1000 < int(p * 1000)

    def weighted(self, options: dict):
        items = [k for k, w in options.items() for _ in range(w)]
        return self.pick(items)

    # -- expressions -------------------------------------------------------------------------------
    def leaf(self, syms):
        if syms and self.chance(0.6):
            return self.pick(syms)
        return self.pick(CONSTS)

    def expr(self, depth: int = 3, syms=BASE_SYMS, opaque: bool = True, integral: bool = True) -> sp.Expr:
        for _ in range(4):
            try:
                e = self._expr(depth, syms, opaque, integral)
            except (ValueError, TypeError, AttributeError, NotImplementedError):  # e.g. Max of incomparables
                continue
            if not _bad(e):
                return e
        return self.leaf(syms)

    def _expr(self, depth, syms, opaque, integral) -> sp.Expr:
        if depth <= 0 or self.int(0, 3) == 0:
            return self.leaf(syms)
        kinds = {"add": 4, "sub": 3, "mul": 4, "div": 3, "pow": 3, "exp": 3, "log": 3, "sqrt": 2, "abs": 2,
                 "max": 1, "min": 1, "piecewise": 1, "tanh": 2}
        if integral:
            kinds["integral"] = 1
        if opaque:
            kinds["expect"] = 1
        kind = self.weighted(kinds)
        sub = lambda: self._expr(depth - 1, syms, opaque, integral)  # noqa: E731
        if kind == "add":
            return sub() + sub()
        if kind == "sub":
            return sub() - sub()
        if kind == "mul":
            return sub() * sub()
        if kind == "div":
            return sub() / sub()
        if kind == "pow":
            return sub() ** self.pick([2, 3, -1, -2])
        if kind == "exp":
            return sp.exp(sub())
        if kind == "log":
            return sp.log(sub())
        if kind == "sqrt":
            return sp.sqrt(sub())
        if kind == "abs":
            return sp.Abs(sub())
        if kind == "max":
            return sp.Max(sub(), sub())
        if kind == "min":
            return sp.Min(sub(), sub())
        if kind == "tanh":
            return sp.tanh(sub())
        if kind == "piecewise":
            s = self.pick([x for x in syms if x in (X, P, N, W, V, ALPHA, LAM)] or [X])
            return sp.Piecewise((sub(), s > self.pick(CONSTS)), (sub(), True))
        if kind == "integral":
            E = self._expr(min(depth - 1, 1), syms, False, False)
            t = T_INT
            body = self.pick([sp.exp(-E * t ** 2), t ** 2 * sp.exp(E * t), E * t / (1 + t ** 2),
                              1 / (1 + E ** 2 * t ** 2), (t + E) ** 2])
            lo, hi = self.pick([(0, 1), (-1, 1), (0, 2), (1, 3)])
            return sp.Integral(body, (t, lo, hi))
        if kind == "expect":
            a = sub()
            return self.pick([Expect(a), Expect(RV ** 2 + a), Prob(RV > a)])
        raise AssertionError(kind)

    # -- variants of an expression --------------------------------------------------------------
    def rewrite(self, L: sp.Expr) -> tuple[sp.Expr, str]:
        name = self.weighted({"simplify": 3, "expand": 2, "factor": 1, "together": 1, "cancel": 1,
                              "rewrite_exp": 1, "powsimp": 1, "expand_log_force": 2, "logcombine_force": 1,
                              "powdenest_force": 1, "radsimp": 1, "piecewise_fold": 1, "subterm": 4})
        fns = {"simplify": sp.simplify, "expand": sp.expand, "factor": sp.factor, "together": sp.together,
               "cancel": sp.cancel, "rewrite_exp": lambda e: e.rewrite(sp.exp), "powsimp": sp.powsimp,
               "expand_log_force": lambda e: sp.expand_log(e, force=True),
               "logcombine_force": lambda e: sp.logcombine(e, force=True),
               "powdenest_force": lambda e: sp.powdenest(e, force=True), "radsimp": sp.radsimp,
               "piecewise_fold": sp.piecewise_fold}
        if name == "subterm":
            return self.subterm_rewrite(L)
        out = _safe(fns[name], L)
        return (L, "identity (rewrite failed)") if _bad(out) else (out, name)

    def subterm_rewrite(self, L: sp.Expr) -> tuple[sp.Expr, str]:
        subs = [s for s in sp.preorder_traversal(L) if isinstance(s, sp.Expr) and not s.is_Number and s != T_INT]
        if not subs:
            return L, "identity"
        s = self.pick(subs)
        how = self.pick(["sqrt(s**2)", "exp(log(s))", "log(exp(s))", "Abs(s)", "Max(s, -s)", "Min(s, Abs(s))",
                         "(s**2)/s", "1/(1/s)", "s**2**(1/2)"])
        new = {"sqrt(s**2)": sp.sqrt(s ** 2), "exp(log(s))": sp.exp(sp.log(s)), "log(exp(s))": sp.log(sp.exp(s)),
               "Abs(s)": sp.Abs(s), "Max(s, -s)": sp.Max(s, -s), "Min(s, Abs(s))": sp.Min(s, sp.Abs(s)),
               "(s**2)/s": sp.Mul(s ** 2, sp.Pow(s, -1, evaluate=False), evaluate=False),
               "1/(1/s)": sp.Pow(sp.Pow(s, -1, evaluate=False), -1, evaluate=False),
               "s**2**(1/2)": sp.Pow(s ** 2, sp.Rational(1, 2), evaluate=False)}[how]
        try:
            out = L.xreplace({s: new})
        except Exception:  # noqa: BLE001 - e.g. a bound variable replaced: keep the expression
            return L, "identity"
        return (L, "identity") if _bad(out) else (out, f"subterm {s} -> {how}")

    def perturb(self, L: sp.Expr) -> tuple[sp.Expr, str]:
        try:
            out, how = self._perturb(L)
        except (ValueError, TypeError, AttributeError, NotImplementedError):
            return L, "lhs itself"
        return (L, "lhs itself") if _bad(out) else (out, how)

    def _perturb(self, L: sp.Expr) -> tuple[sp.Expr, str]:
        kind = self.pick(["add", "add", "mul", "sub", "max", "addsq", "addexp", "edge", "edge"])
        if kind == "edge":  # non-negative, but zero (or negative) exactly at an end, a constant or an integer
            c = self.pick([1 - P, P * (1 - P), (X - 1) ** 2, X ** 2 - X, 10 - N, N - 1, sp.Abs(X) - X, sp.log(P),
                           -sp.log(P), (X - sp.Rational(1, 3)) ** 2, sp.exp(X) - 1 - X, 1 - X ** 2, X + 1,
                           sp.log(N), P ** 2 - P, (3 - X) * (X + 1), sp.sqrt(1 - X ** 2), X * (X - sp.Rational(1, 2))])
            return L + c, f"lhs + {c}"
        if kind == "add":
            c = self.pick([sp.Integer(1), sp.Integer(0), TINY, sp.Rational(1, 2), P, X ** 2, sp.exp(X), sp.Abs(X),
                           sp.Integer(-1), -P, 1 / N])
            return L + c, f"lhs + {c}"
        if kind == "sub":
            c = self.pick([sp.Integer(1), TINY, P, sp.Abs(X)])
            return L - c, f"lhs - {c}"
        if kind == "mul":
            c = self.pick([sp.Integer(2), sp.Rational(1, 2), sp.Integer(-1), P, N, 1 + P, sp.exp(X)])
            return L * c, f"lhs * {c}"
        if kind == "max":
            c = self.pick(CONSTS[:5])
            return sp.Max(L, c), f"Max(lhs, {c})"
        if kind == "addsq":
            E = self.expr(2, opaque=False, integral=False)
            return L + E ** 2, f"lhs + ({E})**2"
        E = self.expr(1, opaque=False, integral=False)
        return L + sp.exp(E), f"lhs + exp({E})"

    def target(self, L: sp.Expr, weights=None) -> tuple[sp.Expr, str]:
        try:
            return self._target(L, weights)
        except (ValueError, TypeError, AttributeError, NotImplementedError):
            return L, "lhs itself"

    def _target(self, L: sp.Expr, weights=None) -> tuple[sp.Expr, str]:
        how = self.weighted(weights or {"rewrite": 3, "perturb": 3, "random": 1, "same": 1})
        if how == "rewrite":
            return self.rewrite(L)
        if how == "perturb":
            return self.perturb(L)
        if how == "same":
            return L, "lhs itself"
        return self.expr(2), "random"


@dataclass
class StepSpec:
    op: str
    rhs: sp.Expr
    why: Any
    kind: str  # justification kind for the statistics
    desc: str  # justification, human-readable


OPS_W = {"=": 1, "<=": 1, "<": 1}


def gen_generic_step(g: Gen, L: sp.Expr, domains: dict) -> StepSpec:
    kind = g.weighted({"algebra": 4, "sign": 4, "interval": 3, "by": 4, "numeric": 1, "monotone": 2, "split": 2})
    if kind in ("monotone", "split"):
        op = g.weighted({"<=": 4, "<": 3, "=": 1})
        rhs, how = g.target(L)
        syms = sorted(L.free_symbols | rhs.free_symbols, key=str)
        if syms:
            v = g.pick(syms)

            def leaf():
                if g.chance(0.5):
                    return sign()
                return interval(gen_box(g, (L.free_symbols | rhs.free_symbols), domains), max_boxes=200)

            def nested(depth: int):
                return monotone(v, None if depth == 0 else (nested(depth - 1) if g.chance(0.7) else leaf()))

            if kind == "monotone":
                why = nested(g.pick([0, 1, 2]))
                return StepSpec(op, rhs, why, "monotone", f"monotone({v}, depth) [rhs: {how}]")
            cut = g.pick([sp.Rational(1, 2), sp.Rational(1, 4), sp.Integer(1), sp.Integer(2), sp.Integer(0),
                          sp.Integer(-1), sp.Rational(3, 8)])
            below = nested(g.pick([0, 1])) if g.chance(0.5) else leaf()
            above = nested(g.pick([0, 1])) if g.chance(0.5) else leaf()
            return StepSpec(op, rhs, split(v, cut, below, above), "split", f"split({v}, {cut}) [rhs: {how}]")
        kind = "sign"
    if kind == "algebra":
        op = g.weighted({"=": 6, "<=": 1, "<": 1})
        rhs, how = g.target(L, {"rewrite": 5, "perturb": 2, "random": 1, "same": 1})
        return StepSpec(op, rhs, algebra(), "algebra", f"algebra() [rhs: {how}]")
    if kind == "sign":
        op = g.weighted({"<=": 4, "<": 3, "=": 1})
        rhs, how = g.target(L)
        return StepSpec(op, rhs, sign(), "sign", f"sign() [rhs: {how}]")
    if kind == "numeric":
        op = g.pick(["=", "<=", "<"])
        rhs, how = g.target(L)
        return StepSpec(op, rhs, numeric(), "numeric", f"numeric() [rhs: {how}]")
    if kind == "interval":
        op = g.weighted({"<=": 4, "<": 3, "=": 1})
        rhs, how = g.target(L)
        box = gen_box(g, (L.free_symbols | rhs.free_symbols), domains)
        return StepSpec(op, rhs, interval(box, max_boxes=g.pick([200, 1000])), "interval",
                        f"interval({_box_str(box)}) [rhs: {how}]")
    return gen_by_linear(g, L)


BOX_CHOICES = {
    X: [(-1, 1), (-10, 10), (0, 2), (-1000, 1000), (-2, 3), (0, 1)],
    P: [(0, 1), (TINY, 1), (sp.Rational(1, 2), 2), (0, 10), (0, sp.Rational(1, 2))],
    N: [(1, 10), (1, 1000), (2, 10), (1, 5)],
}


def gen_box(g: Gen, syms, domains) -> dict:
    box = {}
    for s in sorted(syms, key=str):
        if s in BOX_CHOICES and not g.chance(0.05):
            choices = list(BOX_CHOICES[s])
            dom = domains.get(s)
            if dom is not None and dom.lo.is_finite and dom.hi.is_finite:
                choices = [(dom.lo, dom.hi)] * 3 + choices  # often exactly the domain
            box[s] = g.pick(choices)
        elif s in (ALPHA, LAM):
            box[s] = g.pick([(1, 3), (-1, 1), (1, 10)])
    return box


def _box_str(box) -> str:
    return "{" + ", ".join(f"{s}: ({lo}, {hi})" for s, (lo, hi) in box.items()) + "}"


def gen_by_linear(g: Gen, L: sp.Expr) -> StepSpec:
    """A step from L by an axiom instance A (op) B inside the context w -> L + k*(w - A); or, for the
    equation tanh(u) = ..., a rewrite of a tanh subterm of L (with no context)."""
    tanhs = [t for t in sp.preorder_traversal(L) if isinstance(t, sp.tanh)]
    if tanhs and g.chance(0.7):
        ax = TANH_AXIOM
        t = g.pick(tanhs)
        E = t.args[0] if g.chance(0.8) else t.args[0] + 1
        B = ax.relation.rhs.xreplace({U: E})
        rhs = L.xreplace({t: B})
        op = g.weighted({"=": 4, "<=": 1, "<": 1})
        return StepSpec(op, rhs, by(ax, u=E), f"by:{ax.name}/rewrite",
                        f"by({ax.name}, u={E}) rewriting {t} in lhs")
    ax = g.pick(AXIOM_POOL)
    var = next(iter(ax.variables))
    E = g.expr(2, opaque=g.chance(0.2), integral=False)
    A, B = ax.relation.lhs.xreplace({var: E}), ax.relation.rhs.xreplace({var: E})
    k = g.pick([sp.Integer(1), sp.Integer(2), P, sp.Rational(1, 2), sp.Integer(-1), X, sp.exp(X), N])
    op = ax.relation.op if g.chance(0.7) else g.pick(["=", "<=", "<"])
    rhs = L + k * (B - A)
    if g.chance(0.15):
        rhs, how = g.perturb(rhs)
    else:
        how = "instance"
    inside = lambda w, L=L, k=k, A=A: L + k * (w - A)  # noqa: E731
    return StepSpec(op, rhs, by(ax, inside=inside, **{str(var): E}), f"by:{ax.name}",
                    f"by({ax.name}, {var}={E}, inside=w -> {L} + {k}*(w - ({A}))) [rhs: {how}]")


INSIDE_TEMPLATES = [W, W + 1, 2 * W, -W, P * W, X * W, sp.exp(W), sp.log(W), sp.sqrt(W), W ** 2, W ** 3, -1 / W,
                    1 / W, sp.tanh(W), sp.Max(W, 0), sp.Min(W, 1), sp.Abs(W),
                    sp.Piecewise((0, W > 0), (1, True)), sp.Piecewise((W, W > 0), (0, True)),
                    sp.Piecewise((1, W > 0), (0, True)), -sp.exp(-W),
                    W + sp.Integral(sp.exp(-T_INT ** 2), (T_INT, 0, 1))]


def gen_by_instance(g: Gen) -> tuple[sp.Expr, StepSpec]:
    """start = F(A), step to F(B) by the axiom instance A (op) B inside F (or with no context)."""
    ax = g.pick(AXIOM_POOL)
    var = next(iter(ax.variables))
    E = g.expr(2, opaque=g.chance(0.15), integral=g.chance(0.3))
    A, B = ax.relation.lhs.xreplace({var: E}), ax.relation.rhs.xreplace({var: E})
    mode = g.weighted({"none": 2, "template": 4, "random": 2})
    if mode == "none":
        F, Fdesc = None, "none"
        lhs, rhs = A, B
    else:
        T = g.pick(INSIDE_TEMPLATES) if mode == "template" else g.expr(2, syms=(W, W, X, P), opaque=False,
                                                                        integral=False)
        F = lambda w, T=T: T.xreplace({W: w})  # noqa: E731
        Fdesc = f"w -> {T}"
        lhs, rhs = F(A), F(B)
    op = ax.relation.op if g.chance(0.75) else g.pick(["=", "<=", "<"])
    how = "instance"
    if g.chance(0.15):
        rhs, how = g.perturb(rhs)
    why = by(ax, inside=F, **{str(var): E})
    return lhs, StepSpec(op, rhs, why, f"by:{ax.name}" + ("" if F is None else "/inside"),
                         f"by({ax.name}, {var}={E}, inside={Fdesc}) [rhs: {how}]")


# taylor templates: (g(v), a bound M that is correct, or None when no constant bound / g is not C^2)
TAYLOR_TEMPLATES = [
    (V ** 2, 2), (sp.log(1 + V ** 2), 2), (sp.tanh(V), 1), (sp.sqrt(1 + V ** 2), 1), (-sp.exp(V), 0),
    (sp.exp(V), None), (X * V ** 2, 2 * X), (P * V ** 2 - V, 2 * P), (sp.Abs(V), None), (-sp.Abs(V), 0),
    (sp.Max(V, 0), None), (sp.Piecewise((V, V > 0), (0, True)), None), (sp.Piecewise((V ** 2, V > 0), (0, True)), 2),
    (sp.Piecewise((1, V > 0), (0, True)), None), (sp.log(V), None), (1 / (1 + V ** 2), 2), (sp.exp(-V ** 2), 1),
    (sp.cosh(V), None), (V ** 3, None), (sp.exp(P * V), None),
]


def gen_taylor(g: Gen) -> tuple[sp.Expr, StepSpec]:
    if g.chance(0.8):
        T, M0 = g.pick(TAYLOR_TEMPLATES)
    else:
        T, M0 = g.expr(2, syms=(V, V, X, P), opaque=False, integral=False), None
    M = M0 if (M0 is not None and g.chance(0.6)) else g.pick([0, 1, 2, sp.Rational(1, 2), P, 2 * X, 4])
    M = sp.sympify(M)
    h = g.expr(2, opaque=False, integral=g.chance(0.2))
    gfun = lambda w, T=T: T.xreplace({V: w})  # noqa: E731
    lhs = gfun(h)
    g0 = T.xreplace({V: sp.S.Zero})
    g1 = sp.diff(T, V).xreplace({V: sp.S.Zero})
    rhs = g0 + g1 * h + M * h ** 2 / 2
    how = "Taylor polynomial"
    if g.chance(0.15):
        rhs, how = g0 + g1 * h + M * h ** 2 / 4, "wrong remainder M h^2/4"
    op = g.weighted({"<=": 8, "<": 1, "=": 1})
    return lhs, StepSpec(op, rhs, taylor(gfun, h, M), "taylor", f"taylor(g=v -> {T}, h={h}, M={M}) [rhs: {how}]")


SPEC_TEMPLATES = {
    ALPHA: [ALPHA - 1, (ALPHA - 1) * P, (ALPHA - 2) ** 2, sp.exp(ALPHA), sp.log(ALPHA), ALPHA * X ** 2,
            sp.Abs(X) * (ALPHA - 1), 1 / (ALPHA - 1), -ALPHA, (ALPHA - 1) * X],
    LAM: [(LAM - X) ** 2, sp.exp(LAM), LAM ** 2 * P, LAM, sp.Abs(LAM), (LAM - 1) ** 2 + LAM, -LAM ** 2],
}
# values inside each chain-variable domain, and values that may fall outside it
SPEC_VALUES_IN = {
    "(1, oo)": [sp.Integer(2), 1 + P, 1 + X ** 2, 1 + sp.exp(X), N + 1, 2 + sp.Abs(X), 1 + 1 / N, 1 + TINY],
    "(1, 3)": [sp.Integer(2), 2 + sp.tanh(X), 1 + P / (1 + P), 1 + 1 / N, 3 - TINY, 2 + sp.tanh(X) ** 2],
    "real": [X, sp.Integer(0), -P, sp.log(P), sp.tanh(X), X ** 3 - N, sp.exp(X)],
    "[-1, 1]": [sp.tanh(X), sp.Integer(0), -1 / (1 + P), sp.Integer(1), sp.Integer(-1), X / (1 + sp.Abs(X))],
}
SPEC_VALUES_ANY = [sp.Integer(1), sp.Integer(3), X, P, sp.Rational(1, 2), 1 / P, X ** 2, sp.Integer(-2), N]
# the minimiser of a chain-variable template (for specialize(..., minimizes=...))
SPEC_MINIMISER = {(LAM - X) ** 2: X, (ALPHA - 2) ** 2: sp.Integer(2), (LAM - 1) ** 2 + LAM: sp.Rational(1, 2),
                  LAM ** 2 * P: sp.Integer(0), sp.Abs(LAM): sp.Integer(0), -LAM ** 2: sp.Integer(0)}


def gen_specialize(g: Gen) -> tuple[sp.Expr, dict, list[StepSpec]]:
    var, dname, dom = g.pick(CHAIN_VAR_DOMAINS)
    start = g.expr(2, opaque=g.chance(0.15), integral=g.chance(0.2))
    if g.chance(0.05):
        start = start + var  # the chain may not start with its variable
    K = g.pick(SPEC_TEMPLATES[var]) if g.chance(0.8) else g.expr(2, syms=(var, var, X, P), opaque=False,
                                                                   integral=False)
    G = start + K
    op1 = g.weighted({"<=": 4, "<": 2, "=": 1})
    first_kind = g.weighted({"sign": 5, "interval": 1, "algebra": 1})
    if first_kind == "sign":
        why1, d1 = sign(), "sign()"
    elif first_kind == "algebra":
        why1, d1 = algebra(), "algebra()"
    else:
        box = {var: g.pick([(1, 3), (-1, 1), (1, 10)])}
        box.update(gen_box(g, start.free_symbols | K.free_symbols, {}))
        why1, d1 = interval(box, max_boxes=200), f"interval({_box_str(box)})"
    minimizes = K if g.chance(0.25) else None
    if minimizes is not None and K in SPEC_MINIMISER and g.chance(0.7):
        value = SPEC_MINIMISER[K]
    else:
        value = g.pick(SPEC_VALUES_IN[dname]) if g.chance(0.75) else g.pick(SPEC_VALUES_ANY)
    rhs2 = G.xreplace({var: value})
    how = "substitution"
    if g.chance(0.15):
        other = g.pick(SPEC_VALUES_IN[dname] + SPEC_VALUES_ANY)
        rhs2, how = G.xreplace({var: other}), f"substitution of {other} instead"

    why2 = specialize(minimizes=minimizes, **{str(var): value})
    steps = [StepSpec(op1, G, why1, first_kind, f"{d1} [rhs: start + {K}]"),
             StepSpec("=", rhs2, why2, "specialize",
                      f"specialize({var}={value}{', minimizes=' + str(minimizes) if minimizes is not None else ''})"
                      f" [rhs: {how}] with chain variable {var} in {dname}")]
    return start, {var: dom}, steps


@dataclass
class Case:
    domains: dict  # theorem variables -> Interval
    domain_names: dict
    start: sp.Expr
    chain_vars: dict
    steps: list
    theorem: tuple | None  # (lhs, op, rhs) of the statement, or None: check the chain alone
    seed: int

    def chain(self) -> Chain:
        c = Chain(self.start, variables=dict(self.chain_vars))
        for s in self.steps:
            c = {"=": c.eq, "<=": c.le, "<": c.lt}[s.op](s.rhs, s.why)
        return c

    def describe_chain(self) -> str:
        parts = [str(self.start)]
        for s in self.steps:
            parts.append(f"{s.op} {s.rhs}   [{s.desc}]")
        vs = f" (chain variables {', '.join(f'{k} in {d.describe()}' for k, d in self.chain_vars.items())})" \
            if self.chain_vars else ""
        return "\n        ".join(parts) + vs


def gen_case(g: Gen) -> Case:
    xn, xd = g.pick(X_DOMAINS)
    pn, pd = g.pick(P_DOMAINS)
    nn, nd = g.pick(N_DOMAINS)
    domains = {X: xd, P: pd, N: nd}
    names = {X: xn, P: pn, N: nn}
    plan = g.weighted({"single": 4, "two": 3, "by": 3, "taylor": 2, "specialize": 2})
    chain_vars: dict = {}
    if plan in ("single", "two"):
        start = g.expr(3)
        steps = [gen_generic_step(g, start, domains)]
    elif plan == "by":
        start, st1 = gen_by_instance(g)
        steps = [st1]
    elif plan == "taylor":
        start, st1 = gen_taylor(g)
        steps = [st1]
        if g.chance(0.3):  # reach g(h) from a rewritten start first
            pre, how = g.rewrite(start)
            steps = [StepSpec("=", start, algebra(), "algebra", f"algebra() [lhs was {how} of g(h)]"), st1]
            start = pre
    else:
        start, chain_vars, steps = gen_specialize(g)
    if plan == "two" or (plan in ("by", "taylor") and g.chance(0.3)):
        steps.append(gen_generic_step(g, steps[-1].rhs, {**domains, **chain_vars}))
    theorem = None
    if g.chance(0.4):
        from cdpsym.proof.kernel import compose_ops

        op = compose_ops([s.op for s in steps])
        lhs, rhs = start, steps[-1].rhs
        variant = g.weighted({"exact": 6, "op": 1, "rhs": 1, "lhs": 1})
        if variant == "op":
            op = g.pick(["=", "<=", "<"])
        elif variant == "rhs":
            rhs, _ = g.target(rhs, {"rewrite": 2, "perturb": 1})
        elif variant == "lhs":
            lhs, _ = g.rewrite(lhs)
        theorem = (lhs, op, rhs)
    seed = g.data.draw(st.integers(0, 2 ** 32 - 1), label="oracle seed")
    return Case(domains, names, start, chain_vars, steps, theorem, seed)


# ================================================================================================
# running a case
# ================================================================================================

SHRINK = os.environ.get("CDPSYM_FUZZ_SHRINK") == "1"
_THEOREM_COUNTER = [0]


class FalseProof(AssertionError):
    pass


def run_case(case: Case, stats: Stats) -> None:
    stats.examples += 1
    ctx = Context(dict(case.domains))
    t0 = time.perf_counter()
    try:
        with cpu_limit(KERNEL_CPU_LIMIT):
            results, thm_result = _kernel_verdicts(case, case.chain(), ctx, stats)
    except CpuLimit:
        stats.kernel_timeouts += 1
        if len(stats.kernel_timeout_examples) < 20:
            stats.kernel_timeout_examples.append(case.describe_chain())
        return
    except Exception as exc:  # noqa: BLE001 - a kernel crash is recorded, not a false proof
        stats.kernel_errors[type(exc).__name__] += 1
        if len(stats.kernel_error_examples) < 20:
            stats.kernel_error_examples.append(f"{type(exc).__name__}: {str(exc)[:200]} -- {case.describe_chain()}")
        return
    finally:
        dt = time.perf_counter() - t0
        stats.t_kernel += dt
        if dt > stats.slowest[0]:
            stats.slowest = (dt, case.describe_chain()[:300])
    stats.chains += 1
    t1 = time.perf_counter()
    try:
        with cpu_limit(ORACLE_CPU_LIMIT):
            _oracle_case(case, results, thm_result, stats)
    except CpuLimit:
        stats.oracle_timeouts += 1
    stats.t_oracle += time.perf_counter() - t1


def _kernel_verdicts(case: Case, chain: Chain, ctx: Context, stats: Stats):
    thm_result = None
    if case.theorem is not None:
        _THEOREM_COUNTER[0] += 1
        lhs, op, rhs = case.theorem
        rel = {"=": eq, "<=": le, "<": lt}[op](lhs, rhs)
        thm = Theorem(name=f"fuzz_thm_{_THEOREM_COUNTER[0]}", reference="R-fuzz", source="fuzz", title="t",
                      variables=dict(case.domains), parts=(Part("main", rel, proof=chain),))
        thm_result = symbolic_check(thm)
        results = list(thm_result.parts[0].steps)[:len(case.steps)]
        stats.theorems += 1
    else:
        results = chain.check(ctx)
    return results, thm_result


def _oracle_case(case: Case, results, thm_result, stats: Stats) -> None:
    all_domains = {**case.domains, **case.chain_vars}
    closed_all = len(results) == len(case.steps) and all(r.status in ("proved", "certified") for r in results)
    lhs = case.start
    for spec, res in zip(case.steps, results):
        stats.steps[res.status] += 1
        stats.by_justification[spec.kind][res.status] += 1
        if res.status in ("proved", "certified") and spec.kind != "specialize":
            oracle(stats, case, "step", lhs, spec.op, spec.rhs, all_domains, res.status, res.detail, spec.desc,
                   spec.kind, extra_consts=_box_consts(spec.why))
        lhs = spec.rhs
    if closed_all and (len(case.steps) > 1 or case.chain_vars):
        from cdpsym.proof.kernel import compose_ops

        oracle(stats, case, "chain", case.start, compose_ops([s.op for s in case.steps]), case.steps[-1].rhs,
               all_domains, "/".join(r.status for r in results), "all steps closed",
               " then ".join(s.desc for s in case.steps), "+".join(s.kind for s in case.steps))
    if thm_result is not None:
        stats.theorem_status[thm_result.status] += 1
        if thm_result.status in ("proved", "certified"):
            lhs_t, op_t, rhs_t = case.theorem
            oracle(stats, case, "theorem", lhs_t, op_t, rhs_t, dict(case.domains), thm_result.status,
                   thm_result.parts[0].detail, " then ".join(s.desc for s in case.steps),
                   "theorem:" + "+".join(s.kind for s in case.steps))


def _box_consts(why) -> list:
    box = getattr(why, "box", None)
    if not box:
        return []
    out = []
    for lo, hi in box.values():
        for e in (sp.sympify(lo), sp.sympify(hi)):
            if e.is_Rational:
                out += [e, e - 1, e + 1, 2 * e, e / 2]
    return out


def oracle(stats: Stats, case: Case, level: str, lhs: sp.Expr, op: str, rhs: sp.Expr, domains: dict, status: str,
           detail: str, justification: str, kind: str, extra_consts=()) -> None:
    stats.oracle_relations += 1
    rng = random.Random(case.seed * 7 + {"step": 1, "chain": 2, "theorem": 3}[level])
    syms = (lhs.free_symbols | rhs.free_symbols) - {RV}
    consts = expression_constants([lhs, rhs], extra_consts)
    points = domain_points(syms, domains, consts, rng, budget=40)
    ok_points, ambiguous = 0, None
    for pt in points:
        verdict, why = judge(lhs, op, rhs, pt)
        if verdict == "skip":
            stats.oracle_skipped += 1
            continue
        stats.oracle_points += 1
        if verdict == "ok":
            ok_points += 1
            continue
        if verdict == "strict-ambiguous":
            # e.g. tanh(n) < tanh(exp(n)) at n = 1e8: a true gap of exp(-2e8) no precision resolves.  Equality
            # within tolerance refutes '<' only where nothing shows a gap: at every evaluated point.
            stats.strict_unresolved += 1
            ambiguous = ambiguous or (pt, why)
            continue
        _record(stats, case, level, lhs, op, rhs, domains, syms, status, detail, justification, kind, pt,
                verdict, why)
        return  # one witness per relation is enough
    if ambiguous is not None and ok_points == 0:
        _record(stats, case, level, lhs, op, rhs, domains, syms, status, detail, justification, kind,
                ambiguous[0], "violation", ambiguous[1] + " at every evaluated point (strictness fails)")


def _record(stats, case, level, lhs, op, rhs, domains, syms, status, detail, justification, kind, pt, verdict,
            why) -> None:
    v = {
        "level": level, "status": status, "relation": f"{lhs} {op} {rhs}",
        "domains": ", ".join(f"{s} in {domains[s].describe()}" for s in sorted(domains, key=str)
                             if s in syms or level != "theorem"),
        "justification": justification, "justification_kind": kind, "detail": str(detail),
        "point": {str(s): str(v_) for s, v_ in pt.items()}, "verdict": verdict, "why": why,
        "chain": case.describe_chain(),
    }
    key = (level, v["relation"], justification)
    if key in stats.seen:
        return
    stats.seen.add(key)
    stats.violations.append(v)
    if SHRINK:
        raise FalseProof(format_violation(v))


# ================================================================================================
# the tests
# ================================================================================================


def _run(max_examples: int, derandomize: bool, capsys) -> None:
    stats = Stats()
    progress = int(os.environ.get("CDPSYM_FUZZ_PROGRESS", "0"))

    @settings(max_examples=max_examples, deadline=None, derandomize=derandomize,
              suppress_health_check=list(HealthCheck), database=None)
    @given(data=st.data())
    def fuzz(data):
        try:
            with cpu_limit(GENERATION_CPU_LIMIT):
                case = gen_case(Gen(data))
        except (ValueError, TypeError, AttributeError, NotImplementedError, RecursionError, CpuLimit) as exc:
            stats.generation_errors[type(exc).__name__] += 1  # sympy refused to build something: not the kernel
            return
        run_case(case, stats)
        if progress and stats.examples % progress == 0:
            with capsys.disabled():
                sys.stderr.write(f"[kernel fuzz] {stats.examples} examples, {len(stats.violations)} false proofs, "
                                 f"{stats.kernel_timeouts} kernel hangs, {time.perf_counter() - stats.t_start:.0f}s\n")

    try:
        fuzz()
    finally:
        text = stats.report()
        if stats.kernel_timeout_examples:
            text += "\n  kernel hang examples:\n    " + "\n    ".join(stats.kernel_timeout_examples[:5])
        if stats.kernel_error_examples:
            text += "\n  kernel exception examples:\n    " + "\n    ".join(stats.kernel_error_examples[:5])
        if stats.violations:
            text += "\n" + stats.violations_text()
        with capsys.disabled():
            print("\n" + text)
        path = os.environ.get("CDPSYM_FUZZ_REPORT")
        if path:
            with open(path, "w") as fh:
                json.dump({"report": stats.report(), "violations": stats.violations,
                           "kernel_errors": stats.kernel_error_examples,
                           "kernel_hangs": stats.kernel_timeout_examples,
                           "by_justification": {k: dict(v) for k, v in stats.by_justification.items()}},
                          fh, indent=1, default=str)
    if stats.violations:
        pytest.fail(stats.violations_text(), pytrace=False)


def test_kernel_fuzz_against_numeric_oracle(capsys):
    """150 derandomized examples: every proved/certified step, chain and theorem holds on its whole domain."""
    _run(150, True, capsys)


@pytest.mark.slow
def test_kernel_fuzz_long(capsys):
    """The long run (CDPSYM_FUZZ_EXAMPLES, default 10000), randomized."""
    _run(int(os.environ.get("CDPSYM_FUZZ_EXAMPLES", "10000")), False, capsys)


# -- the oracle itself must be right: it is what the fuzzer trusts ------------------------------------------

def test_oracle_detects_false_relations_and_undefined_points():
    pt = {X: sp.Integer(0)}
    assert judge(X ** 2, "<", X ** 2 + 1, pt)[0] == "ok"
    assert judge(sp.Integer(0), "<", X ** 2, pt)[0] == "violation"  # equality at 0 refutes '<'
    assert judge(sp.log(X), "<=", X, pt)[0] == "undefined"
    assert judge(1 / X, "<=", 1 / X, pt)[0] == "undefined"
    assert judge(sp.sqrt(X - 1), "<=", X, pt)[0] == "undefined"
    big = {X: sp.Integer(10 ** 8)}
    assert judge(sp.exp(X), "<", sp.exp(X) + 1, big)[0] == "ok"  # cancels in the difference
    assert judge(sp.Integer(1), "<", 1 + sp.exp(-X), {X: sp.Integer(1000)})[0] == "ok"
    assert judge(sp.exp(sp.log(P)), "<", P, {P: sp.Rational(1, 3)})[0] == "violation"  # auto-simplified
    big_n = {N: sp.Integer(10 ** 8)}  # a true gap of exp(-2e8): unresolved, not a violation by itself
    assert judge(sp.tanh(N), "<", sp.tanh(sp.exp(N)), big_n)[0] == "strict-ambiguous"
    assert judge(sp.tanh(N), "<", sp.tanh(sp.exp(N)), {N: sp.Integer(3)})[0] == "ok"
    assert judge(sp.tanh(X), "=", 1 - 2 / (sp.exp(2 * X) + 1), {X: sp.Rational(7, 3)})[0] == "ok"
    assert judge(sp.tanh(X), "<", 1 - 2 / (sp.exp(2 * X) + 1), {X: sp.Rational(7, 3)})[0] == "strict-ambiguous"
    assert judge(sp.Piecewise((X, X > 0), (0, True)), "<=", sp.Integer(0), {X: TINY})[0] == "violation"
    integral = sp.Integral(sp.exp(-P * T_INT ** 2), (T_INT, 0, 1))
    assert judge(integral, "<=", sp.Integer(1), {P: sp.Rational(1, 2)})[0] == "ok"
    assert judge(integral, "<", sp.Rational(1, 2), {P: TINY})[0] == "violation"
    assert judge(Expect(RV), "<=", sp.Integer(1), pt)[0] == "skip"
    assert judge(Expect(RV + X), "<=", Expect(RV + X) + 1, pt)[0] == "skip"
    assert judge(Expect(RV + sp.log(X)), "<=", sp.Integer(1), pt)[0] == "undefined"
    assert judge(Expect(X), "<=", sp.Integer(-1), pt)[0] == "violation"  # E[0] = 0
    assert judge(X + 1, "<=", X, {X: sp.Integer(10 ** 8)})[0] == "violation"


def test_oracle_strictness_policy():
    """Sides equal to every precision at every point refute '<'; a gap no precision resolves at one extreme
    point, with a resolved gap elsewhere, does not."""
    stats = Stats()
    case = Case({X: real()}, {X: "real"}, X, {}, [], None, 1)
    dom = Interval.open(1, 2)  # no exact point: equal to every precision everywhere
    oracle(stats, case, "step", sp.tanh(X), "<", 1 - 2 / (sp.exp(2 * X) + 1), {X: dom}, "proved", "", "t", "t")
    assert len(stats.violations) == 1 and "every evaluated point" in stats.violations[0]["why"]
    stats = Stats()
    case = Case({N: naturals()}, {N: "naturals"}, N, {}, [], None, 1)
    oracle(stats, case, "step", sp.tanh(N), "<", sp.tanh(sp.exp(N)), {N: naturals()}, "proved", "", "t", "t")
    assert not stats.violations and stats.strict_unresolved >= 1
