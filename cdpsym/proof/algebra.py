"""The symbolic deciders the step checkers are built from.

* :func:`canon` — a canonical form that is an *identity* transformation
  (every rewrite it makes is valid for all values): inside integrals it pulls
  out factors independent of the integration variable and merges
  exponentials; inside opaque operators it expands the arguments.
* :func:`equivalent` — is ``a == b`` an identity under the context's domains?
* :func:`prove_sign` — is ``e >= 0`` (or ``> 0``) on the context's domains?

Each answers ``True`` (proved symbolically), ``False`` (refuted: a sample
point where it fails, evaluated at 30 digits), or ``None`` (undecided —
never reported as proved).  Numeric sampling is only ever used to *refute*
or as evidence, never to prove.
"""

from __future__ import annotations

import random
import signal
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Mapping

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational

from cdpsym.expr.domains import Interval
from cdpsym.expr.evaluate import MPContext, NotEvaluable, evaluate
from cdpsym.expr.operators import OPAQUE

__all__ = ["Context", "canon", "equivalent", "prove_sign", "Decision", "opaque_terms"]

SYMBOLIC_SECONDS = 8  # per sympy call: a step that needs longer is undecided, not hung


@dataclass(frozen=True)
class Decision:
    """The answer of a decider: ``ok`` is True / False / None (undecided)."""

    ok: bool | None
    detail: str = ""
    point: Mapping[str, str] | None = None


@dataclass
class Context:
    """Symbols in scope with their domains (theorem hypotheses + proof-local variables)."""

    domains: dict[sp.Symbol, Interval] = field(default_factory=dict)
    facts: tuple = ()  # local hypotheses in scope (cdpsym.proof.kernel.Fact)

    def extended(self, more: Mapping[sp.Symbol, Interval]) -> "Context":
        d = dict(self.domains)
        d.update(more)
        return Context(d, self.facts)

    def _depth(self, s: sp.Basic, seen: frozenset = frozenset()) -> int:
        dom = self.domains.get(s)  # type: ignore[call-overload]
        if dom is None or s in seen:
            return 0
        deps = dom.lo.free_symbols | dom.hi.free_symbols
        return 1 + max((self._depth(d, seen | {s}) for d in deps), default=-1) if deps else 0

    def reparametrize(self, expr: sp.Expr) -> sp.Expr:
        """Substitute every domain symbol by a parametrization of its domain (dependents first)."""
        symbols = set(expr.free_symbols)
        grew = True
        while grew:
            grew = False
            for s in list(symbols):
                dom = self.domains.get(s)  # type: ignore[call-overload]
                if dom is not None:
                    new = (dom.lo.free_symbols | dom.hi.free_symbols) - symbols
                    if new:
                        symbols |= new
                        grew = True
        for s in sorted(symbols, key=lambda s: (-self._depth(s), str(s))):
            dom = self.domains.get(s)  # type: ignore[call-overload]
            if dom is not None:
                expr = expr.xreplace({s: dom.reparametrize(s)})
        return expr

    def sample(self, symbols: set[sp.Basic], rng: random.Random) -> dict[sp.Basic, mpmath.mpf]:
        out: dict[sp.Basic, mpmath.mpf] = {}
        symbols = set(symbols)
        for s in list(symbols):  # a domain whose endpoints name other symbols needs those first
            dom = self.domains.get(s)  # type: ignore[call-overload]
            if dom is not None:
                symbols |= (dom.lo.free_symbols | dom.hi.free_symbols)
        ordered = sorted(symbols, key=lambda s: (self._depth(s), str(s)))
        for s in ordered:
            dom = self.domains.get(s)  # type: ignore[call-overload]
            if dom is not None and (dom.lo.free_symbols or dom.hi.free_symbols):
                lo = _eval(dom.lo, out) if dom.lo.is_finite is not False else None
                hi = _eval(dom.hi, out) if dom.hi.is_finite is not False else None
                if lo is not None and hi is not None:
                    out[s] = lo + (hi - lo) * mpmath.mpf(rng.uniform(0.01, 0.99))
                elif lo is not None:
                    out[s] = lo + mpmath.mpf(rng.uniform(0.01, 5))
                elif hi is not None:
                    out[s] = hi - mpmath.mpf(rng.uniform(0.01, 5))
                continue
            if dom is not None:
                lo, hi = dom.sampling_range()
                if dom.integer:
                    out[s] = mpmath.mpf(rng.randint(int(max(lo, float(dom.lo) if dom.lo.is_finite else lo)), int(hi)))
                    continue
                if dom.log_scale:
                    v = mpmath.mpf(10) ** rng.uniform(mpmath.log10(lo), mpmath.log10(hi))
                else:
                    v = mpmath.mpf(rng.uniform(lo, hi))
                if dom.lo.is_finite and v <= dom.lo:
                    v = mpmath.mpf(float(dom.lo)) + mpmath.mpf("1e-3")
                if dom.hi.is_finite and v >= dom.hi:
                    v = mpmath.mpf(float(dom.hi)) - mpmath.mpf("1e-3")
                out[s] = v
            elif getattr(s, "is_integer", False):
                out[s] = mpmath.mpf(rng.randint(1, 8))
            elif getattr(s, "is_positive", False) or getattr(s, "is_nonnegative", False):
                out[s] = mpmath.mpf(rng.uniform(0.05, 3))
            else:
                out[s] = mpmath.mpf(rng.uniform(-3, 3))
        return out


# -- time limits -------------------------------------------------------------------------------

class _Timeout(Exception):
    pass


@contextmanager
def _time_limit(seconds: int) -> Iterator[None]:
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def handler(signum, frame):  # pragma: no cover - only on slow sympy calls
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def _try(fn, *args) -> sp.Expr | None:
    try:
        with _time_limit(SYMBOLIC_SECONDS):
            return fn(*args)
    except (_Timeout, RecursionError, TypeError, ValueError, NotImplementedError, AttributeError):
        return None


# -- canonical form ---------------------------------------------------------------------------

def _canon_integrand(f: sp.Expr, var: sp.Symbol) -> tuple[sp.Expr, sp.Expr]:
    """Split ``f`` into ``(constant, dependent)`` with ``f == constant*dependent``."""
    f = sp.powsimp(sp.expand_power_base(f), combine="exp")
    const = sp.S.One
    dep_factors: list[sp.Expr] = []
    exponent = sp.S.Zero
    for factor in sp.Mul.make_args(f):
        if not factor.has(var):
            const *= factor
        elif isinstance(factor, sp.exp):
            e = sp.expand(factor.args[0])
            ind, dep = e.as_independent(var, as_Add=True)
            const *= sp.exp(ind)
            exponent += dep
        elif factor.is_Pow and not factor.exp.has(var) and factor.base.has(var):
            dep_factors.append(factor)
        else:
            dep_factors.append(factor)
    dependent = sp.Mul(*dep_factors) * sp.exp(sp.expand(exponent))
    return const, dependent


def canon(expr: sp.Basic) -> sp.Basic:
    """A canonical form of ``expr``; every rewrite is an identity."""
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return expr
    if isinstance(expr, sp.Integral):
        body = canon(expr.function)
        if len(expr.limits) == 1 and len(expr.limits[0]) == 3:
            var, lo, hi = expr.limits[0]
            const, dep = _canon_integrand(body, var)
            return const * sp.Integral(dep, (var, lo, hi))
        return sp.Integral(body, *expr.limits)
    if isinstance(expr, OPAQUE):
        return type(expr)(*[_canon_arg(a) for a in expr.args])
    if isinstance(expr, Relational):
        return _canon_arg(expr)
    args = [canon(a) for a in expr.args]
    return expr.func(*args)


def _canon_arg(a: sp.Basic) -> sp.Basic:
    if isinstance(a, Relational):
        # an event a R b is the event (a - b) R 0: the same set, written one way
        if isinstance(a, (sp.GreaterThan, sp.StrictGreaterThan)):
            flipped = sp.LessThan if isinstance(a, sp.GreaterThan) else sp.StrictLessThan
            return flipped(_canon_arg(a.rhs - a.lhs), sp.S.Zero, evaluate=False)
        return type(a)(_canon_arg(a.lhs - a.rhs), sp.S.Zero, evaluate=False)
    if isinstance(a, (sp.And, sp.Or)):
        return type(a)(*[_canon_arg(x) for x in a.args], evaluate=False)
    if isinstance(a, sp.Expr):
        if a.has(*OPAQUE) or a.has(sp.Integral):
            a = canon(a)  # inner operators first, then the same expansion around them
        a = sp.powsimp(a, combine="exp")
        return sp.expand(a, power_exp=False, log=False)
    return canon(a)


def opaque_terms(expr: sp.Basic) -> set[sp.Basic]:
    """Maximal subterms that are opaque operators or integrals."""
    out: set[sp.Basic] = set()

    def walk(e: sp.Basic) -> None:
        if isinstance(e, OPAQUE) or isinstance(e, (sp.Integral, AppliedUndef)):
            out.add(e)
            return
        for a in e.args:
            walk(a)

    walk(expr)
    return out


def _abstract(exprs: list[sp.Expr]) -> tuple[list[sp.Expr], dict[sp.Basic, sp.Symbol]]:
    """Replace opaque subterms by positive dummies (the same term by the same dummy)."""
    terms: set[sp.Basic] = set()
    for e in exprs:
        terms |= opaque_terms(e)
    mapping = {t: _dummy_for(t) for t in sorted(terms, key=sp.default_sort_key)}
    return [e.xreplace(mapping) for e in exprs], mapping


def _dummy_for(term: sp.Basic) -> sp.Dummy:
    """A dummy carrying exactly the sign information sympy has about ``term``."""
    if term.is_positive:
        return sp.Dummy("T", positive=True)
    if term.is_nonnegative:
        return sp.Dummy("T", nonnegative=True)
    return sp.Dummy("T", real=True)


def _numeric_values(e: sp.Expr, ctx: Context, rng: random.Random) -> tuple[dict, dict[str, str]]:
    syms = e.free_symbols
    vals = ctx.sample(syms, rng)
    shown = {str(k): mpmath.nstr(v, 8) for k, v in vals.items() if not isinstance(k, sp.Dummy)}
    return vals, shown


def _eval(e: sp.Expr, vals: Mapping) -> mpmath.mpc | mpmath.mpf | None:
    try:
        with mpmath.workdps(30):
            v = evaluate(e, vals, MPContext(30))
            return v
    except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError):
        return None


def equivalent(a: sp.Expr, b: sp.Expr, ctx: Context, samples: int = 4) -> Decision:
    """Decide whether ``a == b`` holds identically on the context's domains."""
    ca, cb = canon(a), canon(b)
    if ca == cb:
        return Decision(True, "identical canonical forms")
    (da, db), mapping = _abstract([ca, cb])
    d = da - db
    if d == 0:
        return Decision(True, "identical canonical forms")
    # Sampling opaque terms as free values refutes only when both sides mention the same
    # opaque terms; otherwise two different-looking terms may be equal (undecided, not false).
    decisive = (da.free_symbols & set(mapping.values())) == (db.free_symbols & set(mapping.values()))
    rng = random.Random(20261122)
    evaluated = 0
    for _ in range(samples):
        vals, shown = _numeric_values(d, ctx, rng)
        va, vb = _eval(da, vals), _eval(db, vals)
        if va is None or vb is None:
            continue
        evaluated += 1
        scale = max(abs(va), abs(vb), mpmath.mpf(1))
        if abs(va - vb) > mpmath.mpf("1e-20") * scale:
            if not decisive:
                return Decision(None, "not shown equal (the sides name different opaque terms)")
            return Decision(False, f"differ at a sample point: {mpmath.nstr(va, 12)} vs {mpmath.nstr(vb, 12)}", shown)
    for attempt in _simplifications(d, ctx):
        if attempt == 0:
            return Decision(True, "sympy simplification to 0")
    note = f"equal at {evaluated} sample points (30 digits), not closed symbolically" if evaluated else "not closed symbolically"
    return Decision(None, note)


def _simplifications(d: sp.Expr, ctx: Context) -> Iterator[sp.Expr | None]:
    yield _try(sp.expand, d)
    yield _try(sp.simplify, d)
    dr = ctx.reparametrize(d)
    if dr != d:
        yield _try(sp.simplify, dr)
        yield _try(lambda e: sp.simplify(sp.expand_log(sp.expand(e))), dr)
    yield _try(lambda e: sp.simplify(e.rewrite(sp.exp)), d)


def prove_sign(e: sp.Expr, ctx: Context, strict: bool = False, samples: int = 6) -> Decision:
    """Decide whether ``e >= 0`` (``e > 0`` if strict) for every value in the domains."""
    e = canon(e)
    want = "positive" if strict else "nonnegative"
    if getattr(e, f"is_{want}"):
        return Decision(True, f"sympy: {want} under the assumptions")
    (ea,), mapping = _abstract([e])
    rng = random.Random(20261122)
    # with opaque terms sampled as free values a negative sample is not a counterexample
    samples = samples if not (ea.free_symbols & set(mapping.values())) else 0
    for _ in range(samples):
        vals, shown = _numeric_values(ea, ctx, rng)
        v = _eval(ea, vals)
        if v is None or isinstance(v, mpmath.mpc):
            continue
        if v < -mpmath.mpf("1e-25") or (strict and v <= 0):
            return Decision(False, f"{'<=' if strict else '<'} 0 at a sample point: {mpmath.nstr(v, 12)}", shown)
    er = ctx.reparametrize(ea)
    for fn in (lambda x: x, sp.factor, sp.together, sp.simplify, lambda x: sp.factor(sp.simplify(x.rewrite(sp.exp)))):
        cand = _try(fn, er)
        if cand is None:
            continue
        if getattr(cand, f"is_{want}"):
            return Decision(True, f"sympy: {want} after reparametrizing the domains")
    return Decision(None, f"sign not decided symbolically ({want} at {samples} sample points)")
