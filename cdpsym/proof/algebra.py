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

import contextvars
import random
import signal
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterator, Mapping

import mpmath
import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational

from cdpsym.errors import ProofError
from cdpsym.expr.domains import Interval, as_expr
from cdpsym.expr.evaluate import MPContext, NotEvaluable, evaluate
from cdpsym.expr.operators import OPAQUE
from cdpsym.expr.symbols import is_random_symbol, is_sequence

__all__ = ["Context", "canon", "equivalent", "extended_agree", "finite_value", "prove_sign", "Decision", "opaque_terms", "check_declaration",
           "domain_key"]

SYMBOLIC_SECONDS = 8  # per sympy call: a step that needs longer is undecided, not hung


@dataclass(frozen=True)
class Decision:
    """The answer of a decider: ``ok`` is True / False / None (undecided)."""

    ok: bool | None
    detail: str = ""
    point: Mapping[str, str] | None = None


@dataclass
class Context:
    """A scope: symbols with their domains (theorem variables, proof-local variables) and local hypotheses.

    Every declaration is checked (:func:`check_declaration`): a symbol's sympy assumptions must follow
    from its domain, because sympy reasons with the assumptions; and a name declared in a scope cannot be
    re-declared with another domain in an inner one (:meth:`extended`).
    """

    domains: dict[sp.Symbol, Interval] = field(default_factory=dict)
    facts: tuple = ()  # local hypotheses in scope (cdpsym.proof.kernel.Fact)

    def __post_init__(self) -> None:
        # in order: a domain may name only symbols declared before it (no cycles)
        earlier = Context.__new__(Context)
        earlier.domains, earlier.facts = {}, ()
        for v, dom in self.domains.items():
            check_declaration(v, dom, earlier)
            earlier.domains[v] = dom

    def extended(self, more: Mapping[sp.Symbol, Interval]) -> "Context":
        d = dict(self.domains)
        for v, dom in more.items():
            old = d.get(v)
            if old is not None and domain_key(old) != domain_key(dom):
                raise ProofError(f"{v} is already declared with domain {old.describe()}; it cannot be re-declared "
                                 f"as {dom.describe()} in an inner scope")
            d[v] = dom
        return Context(d, self.facts)

    def with_facts(self, facts: tuple) -> "Context":
        return Context(dict(self.domains), tuple(facts))

    def _depth(self, s: sp.Basic, seen: frozenset = frozenset()) -> int:
        dom = self.domains.get(s)  # type: ignore[call-overload]
        if dom is None or s in seen:
            return 0
        deps = dom.lo.free_symbols | dom.hi.free_symbols
        return 1 + max((self._depth(d, seen | {s}) for d in deps), default=-1) if deps else 0

    def reparametrize(self, expr: sp.Expr, closed_rational: bool = False, relax_integer: bool = False,
                      keep_integer: bool = False) -> sp.Expr:
        """Substitute every domain symbol by a parametrization of its domain (dependents first); see
        :meth:`Interval.reparametrize` for ``closed_rational``, ``relax_integer`` and ``keep_integer``."""
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
                expr = expr.xreplace({s: dom.reparametrize(s, closed_rational, relax_integer, keep_integer)})
        return expr

    def _integer_in(self, dom: Interval, lo, hi, out: Mapping, rng: random.Random) -> "mpmath.mpf | None":
        """A random integer of ``dom`` at the sampled values ``out`` of its ends' symbols, or None: candidates
        from the numeric ends, each kept only if sympy decides exactly that it lies in the domain."""
        first = None if lo is None else mpmath.floor(lo) - 1
        last = None if hi is None else mpmath.ceil(hi) + 1
        first = last - 8 if first is None else first
        last = first + 8 if last is None else last
        exact = {x: _exact(v) for x, v in out.items() if isinstance(x, sp.Symbol)}
        candidates = list(range(int(first), int(min(last, first + 60)) + 1))
        rng.shuffle(candidates)
        return next((mpmath.mpf(n) for n in candidates if _exactly_in(sp.Integer(n), dom, exact)), None)

    def sample(self, symbols: set[sp.Basic], rng: random.Random) -> dict[sp.Basic, mpmath.mpf]:
        out: dict[sp.Basic, mpmath.mpf] = {}
        symbols = set(symbols)
        todo = list(symbols)
        while todo:  # a domain whose endpoints name other symbols needs those first, at every depth
            dom = self.domains.get(todo.pop())  # type: ignore[call-overload]
            if dom is not None:
                new = (dom.lo.free_symbols | dom.hi.free_symbols) - symbols
                symbols |= new
                todo += list(new)
        ordered = sorted(symbols, key=lambda s: (self._depth(s), str(s)))
        for s in ordered:
            dom = self.domains.get(s)  # type: ignore[call-overload]
            if dom is not None and (dom.lo.free_symbols or dom.hi.free_symbols):
                if any(x not in out for x in dom.lo.free_symbols | dom.hi.free_symbols):
                    continue  # an end's symbol has no value: no value here either (the sample is skipped)
                lo = _eval(dom.lo, out) if dom.lo is not sp.S.NegativeInfinity else None
                hi = _eval(dom.hi, out) if dom.hi is not sp.S.Infinity else None
                if (lo is None and dom.lo is not sp.S.NegativeInfinity) or (hi is None and dom.hi is not sp.S.Infinity):
                    continue  # an end that cannot be evaluated is not "no end": no value (the sample is skipped)
                if dom.integer:
                    # an integer of the domain at these ends, checked exactly (a sample outside the domain would
                    # refute a true claim; 15a/7 at a = 7 evaluates to 15 + 1e-30)
                    value = self._integer_in(dom, lo, hi, out, rng)
                    if value is not None:
                        out[s] = value
                    continue
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


def domain_key(dom: Interval) -> tuple:
    """What a domain says (not how it is sampled): two declarations agree when their keys do."""
    return (dom.lo, dom.hi, dom.left_open, dom.right_open, dom.integer)


def _empty(dom: Interval, ctx: "Context") -> str | None:
    """None when the domain is shown to contain a point (an integer, for an integer domain)."""
    lo, hi = dom.lo, dom.hi
    if dom.integer:
        if lo is sp.S.NegativeInfinity or hi is sp.S.Infinity:
            return None
        gap = hi - lo - (1 if dom.left_open else 0) - (1 if dom.right_open else 0)
        if lo.is_Integer and hi.is_Integer:
            return None if gap >= 0 else "empty"
        if lo.is_number and hi.is_number:
            first = sp.floor(lo) + 1 if dom.left_open else sp.ceiling(lo)
            return None if (first < hi if dom.right_open else first <= hi) else "empty"
        if lo.is_Integer and not dom.left_open:  # it contains lo itself when lo < hi (lo <= hi, closed)
            return None if prove_sign(hi - lo, ctx, strict=dom.right_open).ok is True else \
                "not shown to contain an integer"
        return None if prove_sign(hi - lo - 2, ctx).ok is True else "not shown to contain an integer"
    if lo is sp.S.NegativeInfinity or hi is sp.S.Infinity:
        return None
    closed = not dom.left_open and not dom.right_open
    d = prove_sign(hi - lo, ctx, strict=not closed)
    return None if d.ok is True else ("empty" if d.ok is False else "not shown non-empty")


_SIGN_KEYS = ("positive", "nonnegative", "negative", "nonpositive", "nonzero", "zero")
_DECLARED: set = set()


def deterministic(value: sp.Expr) -> bool:
    """A number rather than a random quantity: outside the opaque operators that are numbers (E[...], Pr[...],
    D(P||Q), ...) it names no random-variable symbol, no sequence of random variables (undefined functions), no
    indicator ``1[event]``, no privacy loss ``L_{P||Q}`` and no conditional expectation ``E[Y | F_i]`` (those
    three are random variables)."""
    from cdpsym.expr import operators as ops

    stack = [as_expr(value)]
    while stack:
        n = stack.pop()
        if isinstance(n, (ops.Indicator, ops.PrivacyLoss, ops.CondExpect)):
            return False
        if isinstance(n, ops.Opaque):
            continue
        if isinstance(n, AppliedUndef) and is_sequence(n.func):
            stack.extend(n.args)  # a term of a sequence of numbers: a number when its index is
            continue
        if isinstance(n, AppliedUndef) or (n.is_Symbol and is_random_symbol(n)):
            return False
        stack.extend(n.args)
    return True


def check_declaration(v: sp.Basic, dom: Interval, ctx: "Context") -> None:
    """Refuse a declaration ``v in dom`` whose symbol carries sympy assumptions the domain does not imply.

    sympy simplifies with the assumptions (``positive=True`` makes ``sqrt(v**2) = v``), so a proof would
    hold only on the narrower set while the statement claims the wider.  The domain's endpoints may name
    only symbols declared in the same scope.
    """
    if not isinstance(v, sp.Symbol) or isinstance(v, BoundVar):
        raise ProofError(f"only symbols can be declared, got {v!r}")
    from cdpsym.expr.operators import P, Q
    from cdpsym.expr.symbols import L, R

    if v in (L, R, P, Q):  # the canonical pair of every scope: a variable of that name would rename the pair
        what = {L: "its loss", R: "its likelihood ratio"}.get(v, "a distribution")
        raise ProofError(f"{v} is the canonical pair's ({what}): it cannot be declared as a variable (use another "
                         f"name)")
    if type(dom) is not Interval:
        raise ProofError(f"the domain of {v} must be an Interval (not a subclass), got {type(dom).__name__}")
    ends = (dom.lo, dom.hi)
    if any(e.has(sp.nan, sp.zoo) for e in ends) or dom.lo is sp.S.Infinity or dom.hi is sp.S.NegativeInfinity:
        raise ProofError(f"the domain of {v} has a non-finite or undefined endpoint: {dom.describe()}")
    from cdpsym.proof.core import foreign, well_defined

    for e in ends:  # a domain is a set of reals: (i, i + 1) is not one (thirteenth review: a limit at its end)
        reason = foreign(e) or ("not a real number" if e.is_extended_real is False else None)
        if reason is None and e not in (sp.S.Infinity, sp.S.NegativeInfinity) and not opaque_terms(e):
            wd = well_defined(e, ctx)  # sqrt(q) is real only where q >= 0
            reason = None if wd.ok is True else f"not shown a real number in the scope ({wd.detail})"
        if reason:
            raise ProofError(f"the domain of {v}, {dom.describe()}, has an end that is not a real the kernel knows: "
                             f"{reason}")
    if any(opaque_terms(e) for e in ends):  # E[X²] is a number, but it may be +oo: [E[X²], oo) may be empty
        raise ProofError(f"the domain of {v}, {dom.describe()}, has an end that may be infinite (an expectation, a "
                         f"divergence): write a hypothesis instead")
    if not is_random_symbol(v) and not all(deterministic(e) for e in ends):
        raise ProofError(f"the domain of {v}, {dom.describe()}, names a random quantity: {v} stands for a number, "
                         f"so its range must be numbers")
    free = dom.lo.free_symbols | dom.hi.free_symbols
    if v in free:
        raise ProofError(f"the domain of {v} mentions {v} itself: {dom.describe()}")
    undeclared = free - set(ctx.domains)
    if undeclared:
        raise ProofError(f"the domain of {v} ({dom.describe()}) names undeclared symbol(s) "
                         f"{sorted(map(str, undeclared))}")
    closure, todo = set(), list(free)
    while todo:  # every symbol the domain depends on, transitively: their domains decide the signs too
        s0 = todo.pop()
        if s0 in closure:
            continue
        closure.add(s0)
        d0 = ctx.domains[s0]
        todo += list((d0.lo.free_symbols | d0.hi.free_symbols) - closure)
    deps = tuple(sorted(((s, domain_key(ctx.domains[s])) for s in closure), key=lambda p: str(p[0])))
    key = (v, domain_key(dom), deps)
    if key in _DECLARED:
        return
    empty = _empty(dom, ctx)
    if empty is not None:
        raise ProofError(f"the domain of {v}, {dom.describe()}, is {empty}: a variable must range over a set "
                         f"shown non-empty")
    have = v.assumptions0
    flags: dict[str, bool] = {"real": True}
    if dom.integer:
        flags["integer"] = True
    if any(k in have for k in _SIGN_KEYS):
        def shown(e: sp.Expr, strict: bool) -> bool:
            return prove_sign(e, ctx, strict=strict).ok is True

        if dom.lo is not sp.S.NegativeInfinity:
            pos = shown(dom.lo, True) or (dom.left_open and shown(dom.lo, False))
            if pos:
                flags["positive"] = True
            elif shown(dom.lo, False):
                flags["nonnegative"] = True
        if dom.hi is not sp.S.Infinity:
            neg = shown(-dom.hi, True) or (dom.right_open and shown(-dom.hi, False))
            if neg:
                flags["negative"] = True
            elif shown(-dom.hi, False):
                flags["nonpositive"] = True
    try:
        derived = sp.Dummy("d", **flags).assumptions0
    except Exception:  # noqa: BLE001 - inconsistent flags: an empty domain
        raise ProofError(f"the domain of {v} is empty: {dom.describe()}") from None
    order = ("positive", "nonnegative", "negative", "nonpositive", "integer", "real")
    for name in sorted(have, key=lambda n: (order.index(n) if n in order else len(order), n)):
        value = have[name]
        if derived.get(name) != value:
            raise ProofError(f"{v} is a {'non-' if not value else ''}{name} symbol, but its domain "
                             f"{dom.describe()} does not imply that (a domain may not be wider than its "
                             f"symbol's sympy assumptions)")
    _DECLARED.add(key)


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
    """A canonical form of ``expr``; every rewrite is an identity.  A free canonical bound variable is refused.

    Bound variables are renamed canonically (alpha-normal form): the variable of a binder whose body has
    binders up to height ``h`` becomes the dummy ``_b`` with index ``h``, so integrals that differ only
    in the name of their variable have one canonical form, and no rewrite can reach a bound variable.
    """
    return _canon(expr)


def _canon(expr: sp.Basic) -> sp.Basic:
    if not isinstance(expr, sp.Basic) or expr.is_Atom:
        return expr
    if isinstance(expr, _BINDERS):
        return _canon_binder(expr)
    if isinstance(expr, OPAQUE):
        return type(expr)(*[_canon_arg(a) for a in expr.args])
    if isinstance(expr, Relational):
        return _canon_arg(expr)
    args = [canon(a) for a in expr.args]
    return expr.func(*args)


_BINDERS = (sp.Integral, sp.Sum, sp.Product)


class BoundVar(sp.Dummy):
    """The canonical name of a bound variable (only :func:`canon` makes them; a free one is refused)."""


def _canonical_bound(height: int, assumptions: dict) -> BoundVar:
    return BoundVar("_b", dummy_index=height, **assumptions)


_PEEL = 8  # a sum or product whose upper limit is m + c (c <= _PEEL) is split into its last c terms


def _peel(cls, f, var, lo, hi) -> sp.Basic | None:
    """A finite sum or product by its last terms: ``sum_{i=lo}^{m+c} f = sum_{i=lo}^{m} f + f(m+1) + ... + f(m+c)``
    when ``m >= lo - 1`` (its range is not reversed: the identity of the usual convention, the empty sum 0 and
    the empty product 1; under sympy's convention for reversed limits a product is a quotient there); written out
    when both limits are integers with ``lo - 1 <= hi < lo + 8``; reindexed from 1 when ``lo`` is an integer
    other than 1 and the range is not reversed (``sum_{i=lo}^{hi} f(i) = sum_{i=1}^{hi-lo+1} f(i+lo-1)``).  The
    signs come from the limits' symbols' assumptions, which the kernel checks against their declared domains.
    Never when an inner binder binds the variable or a symbol of the limits (substituting would capture it)."""
    if not (lo.is_integer and hi.is_integer):
        return None
    named = {var} | lo.free_symbols | hi.free_symbols
    if any(isinstance(n, _BINDERS) and named & set(n.variables) for n in sp.preorder_traversal(f)):
        return None  # an inner binder of one of these names: substituting would reach under it, or capture
    op = sp.Add if cls is sp.Sum else sp.Mul
    if lo.is_Integer and hi.is_Integer:
        if not (lo - 1 <= hi <= lo + _PEEL - 1):
            return None
        return op(*[f.xreplace({var: sp.Integer(j)}) for j in range(int(lo), int(hi) + 1)])
    if (hi - lo + 1).is_nonnegative is not True:
        return None  # possibly a reversed range
    if lo.is_Integer and lo != 1:
        return cls(f.xreplace({var: var + lo - 1}), (var, sp.S.One, hi - lo + 1))
    c = next((x for x in sp.Add.make_args(hi) if x.is_Integer), sp.S.Zero)
    if not (0 < c <= _PEEL):
        return None
    m = hi - c
    if (m - lo + 1).is_nonnegative is not True:
        return None  # the shorter range might be reversed
    return op(cls(f, (var, lo, m)), *[f.xreplace({var: m + j}) for j in range(1, int(c) + 1)])


def _canon_binder(expr: sp.Basic) -> sp.Basic:
    cls, f, limits = type(expr), expr.function, expr.limits
    if len(limits) > 1:  # sympy merges nested sums into one with several limits: not reasoned about
        raise ProofError(f"a {cls.__name__} with several limits is not supported: nest them explicitly")
    var, *bounds = limits[0]
    if len(bounds) != 2:
        raise ProofError(f"a {cls.__name__} needs both limits: {expr}")
    lo, hi = canon(bounds[0]), canon(bounds[1])
    if cls is not sp.Integral:
        peeled = _peel(cls, f, var, lo, hi)
        if peeled is not None:
            return canon(peeled)
    # what the binder says of its variable (real; integer for a sum or product), never the user symbol's
    # own assumptions, which the limits may contradict (k positive in a sum from -5 to -1)
    kind = {"integer": True} if cls is not sp.Integral else {"real": True}
    fresh = sp.Dummy(var.name, **kind)
    body = canon(f.xreplace({var: fresh}))
    const = sp.S.One
    if cls is sp.Integral:
        const, body = _canon_integrand(body, fresh)
    bound = _canonical_bound(binder_height(body), kind)
    return const * cls(body.xreplace({fresh: bound}), (bound, lo, hi))


def binder_height(e: sp.Basic) -> int:
    """1 + the largest canonical bound-variable index inside ``e`` (0 when it has no binder)."""
    h = 0
    for node in sp.preorder_traversal(e):
        if isinstance(node, _BINDERS):
            for lim in node.limits:
                v = lim[0]
                if isinstance(v, BoundVar):
                    h = max(h, int(v.dummy_index) + 1)
    return h


def _possibly_infinite_terms(e: sp.Basic) -> set:
    """The maximal opaque terms of ``e`` that may be infinite (typing only: no scope at hand)."""
    return {t for t in opaque_terms(e) if (isinstance(t, _BINDERS) or t.is_finite is not True) and not _finite_sum(t)}


#: in a scope, which terms are shown finite there (set by :func:`in_scope` around canonical forms); outside
#: any scope every term that may be infinite is taken to be possibly infinite
_SCOPE_FINITE: contextvars.ContextVar = contextvars.ContextVar("_SCOPE_FINITE", default=None)


@contextmanager
def in_scope(ctx: "Context | None"):
    """Canonical forms taken inside this block may use what ``ctx`` shows finite: an event is written
    ``(a - b) R 0`` when the terms that may be infinite on one of its sides are all shown finite there."""
    if ctx is None:
        yield
        return
    memo: dict = {}

    def finite(t: sp.Basic) -> bool:
        if t not in memo:
            memo[t] = finite_value(t, ctx).ok is True
        return memo[t]

    token = _SCOPE_FINITE.set(finite)
    try:
        yield
    finally:
        _SCOPE_FINITE.reset(token)


_KEEP_SIDES: contextvars.ContextVar = contextvars.ContextVar("_KEEP_SIDES", default=False)


@contextmanager
def sides_apart():
    """Canonical forms taken inside this block keep every event's sides apart (``a R b``, each side canonical):
    what a rewrite works on, so that replacing a term never cancels it against the other side."""
    token = _KEEP_SIDES.set(True)
    try:
        yield
    finally:
        _KEEP_SIDES.reset(token)


def _shared_infinite(lhs: sp.Basic, rhs: sp.Basic) -> bool:
    """Do both sides of a relation have a term that may be infinite (not shown finite in the scope at hand)?
    Not only the same term: ``KL`` and ``E[L]`` are two names of one value."""
    finite = _SCOPE_FINITE.get()

    def open_terms(side: sp.Basic) -> set:
        return {t for t in _possibly_infinite_terms(side) if finite is None or not finite(t)}

    return bool(open_terms(lhs)) and bool(open_terms(rhs))


def _canon_arg(a: sp.Basic) -> sp.Basic:
    if isinstance(a, Relational):
        lhs, rhs, rel = a.lhs, a.rhs, type(a)
        if isinstance(a, (sp.GreaterThan, sp.StrictGreaterThan)):
            lhs, rhs = rhs, lhs
            rel = sp.LessThan if isinstance(a, sp.GreaterThan) else sp.StrictLessThan
        cl, cr = _canon_arg(lhs), _canon_arg(rhs)
        if _KEEP_SIDES.get() or _shared_infinite(cl, cr):
            # a term that may be infinite on both sides: a R b is not (a - b) R 0 there (2E > E + 1 is not
            # E > 1 where E = +oo), so the sides stay apart, each in canonical form
            return rel(cl, cr, evaluate=False)
        # otherwise the event a R b is the event (a - b) R 0: the same set, written one way
        return rel(_canon_arg(lhs - rhs), sp.S.Zero, evaluate=False)
    if isinstance(a, (sp.And, sp.Or)):
        return type(a)(*[_canon_arg(x) for x in a.args], evaluate=False)
    if isinstance(a, sp.Expr):
        if a.has(*OPAQUE) or a.has(sp.Integral, sp.Sum, sp.Product):
            a = canon(a)  # inner operators first, then the same expansion around them
        a = sp.powsimp(a, combine="exp", deep=True)  # also inside max, min, functions
        a = sp.expand(a, power_exp=False, log=False)
        return a.replace(lambda x: isinstance(x, sp.exp), lambda x: sp.exp(_collect_exponent(x.args[0])))
    return canon(a)


def _collect_exponent(x: sp.Expr) -> sp.Expr:
    """An exponent ``sum_j c_j(params) * A_j`` with its random or opaque parts ``A_j`` (``G(k)``, ``E[...]``) collected
    and each coefficient in lowest terms (``a/(k^2 + k) + a/(k + 1)`` is ``a/k``): an identity, so that one exponent
    written two ways has one form (the coefficients are rational functions of the parameters)."""
    parts = [n for n in sp.preorder_traversal(x) if isinstance(n, (AppliedUndef,) + OPAQUE) or is_random_symbol(n)]
    if not parts:
        return x
    groups: dict = {}
    for term in sp.Add.make_args(x):
        coeff, rest = term.as_independent(*parts, as_Add=False)
        groups.setdefault(rest, []).append(coeff)
    if all(len(cfs) == 1 for cfs in groups.values()):
        return x  # each part once: nothing to collect (the expanded form is already canonical)
    return sp.Add(*[(sp.cancel(sp.Add(*cfs)) if len(cfs) > 1 else cfs[0]) * rest for rest, cfs in groups.items()])


def opaque_terms(expr: sp.Basic) -> set[sp.Basic]:
    """Maximal subterms that are opaque operators or integrals."""
    out: set[sp.Basic] = set()

    def walk(e: sp.Basic) -> None:
        if isinstance(e, OPAQUE) or isinstance(e, (sp.Integral, sp.Sum, sp.Product, AppliedUndef)):
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
    """A dummy carrying exactly the sign information sympy has about ``term``.

    A term only known to be an *extended* real (a divergence, an expectation: possibly +oo) gets an
    extended dummy, so nothing finite-only is concluded about it.
    """
    if term.is_positive:
        return sp.Dummy("T", positive=True)
    if term.is_nonnegative:
        return sp.Dummy("T", nonnegative=True)
    if term.is_real:
        return sp.Dummy("T", real=True)
    if term.is_extended_nonnegative:
        return sp.Dummy("T", extended_nonnegative=True)
    if term.is_extended_real:
        return sp.Dummy("T", extended_real=True)
    return sp.Dummy("T")  # nothing known: not even that it is real


def _exact(v) -> sp.Rational:
    """The exact rational value of a binary floating-point sample (an mpf is man * 2^exp)."""
    sign, man, exp, _ = mpmath.mpf(v)._mpf_
    if not man:
        return sp.S.Zero
    q = sp.Integer(-int(man) if sign else int(man)) * sp.Integer(2) ** int(exp)
    return sp.Rational(q)


def point_in_domains(point: Mapping, ctx: Context) -> bool:
    """Is the sample point (symbol -> number) in every declared domain, decided exactly?  A refutation may rest
    only on such a point: a sampler's rounding (an end 15a/7 at a = 7 read as 15 + 1e-30, a width below the
    working precision) must not put a counterexample outside the domain."""
    exact = {s: _exact(v) for s, v in point.items() if isinstance(s, sp.Symbol)}
    return all(_exactly_in(v, ctx.domains[s], exact) for s, v in exact.items() if s in ctx.domains)


def _exactly_in(v: sp.Rational, dom: Interval, exact: Mapping) -> bool:
    """Is the rational ``v`` in ``dom`` with its ends' symbols at the rationals ``exact``, decided by sympy?"""
    if dom.integer and not v.is_integer:
        return False
    lo, hi = dom.lo.xreplace(exact), dom.hi.xreplace(exact)
    try:
        above = lo is sp.S.NegativeInfinity or (v > lo if dom.left_open else v >= lo)
        below = hi is sp.S.Infinity or (v < hi if dom.right_open else v <= hi)
    except TypeError:  # sympy cannot order them
        return False
    return (above is True or above is sp.true) and (below is True or below is sp.true)


def _confirmed(e: sp.Expr, vals: Mapping, ctx: Context, bad) -> bool:
    """A sampled violation confirmed: the point is in the domains (exactly) and ``bad(ball)`` holds for the Arb
    ball enclosing ``e`` there (256 bits) -- a value lost to cancellation at 30 digits is no counterexample."""
    if not point_in_domains(vals, ctx):
        return False
    from cdpsym.expr.evaluate import ArbContext

    arb = ArbContext(256)
    try:
        with arb:
            ball = evaluate(e, {s: arb.flint.arb(_exact(v).p) / arb.flint.arb(_exact(v).q) for s, v in vals.items()},
                            arb)
    except (NotEvaluable, ZeroDivisionError, ValueError, OverflowError, TypeError):
        return False
    if not isinstance(ball, arb.flint.arb) or not ball.is_finite():
        return False
    with arb:
        return bool(bad(ball))


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


def _infinite_cases(exprs, ctx: "Context | None", exclude: Mapping | None = None):
    """The terms of ``exprs`` that may be infinite and, for each way of making some of them infinite, the
    substitution (the others by finite dummies) and its description.  ``exclude`` maps a term to the
    infinities it cannot take (known from a fact in hand); local hypotheses ``t <= c`` / ``c <= t`` with
    ``c`` finite exclude ``+oo`` / ``-oo`` too."""
    bounded = _bounded_variables(ctx) if ctx is not None else set()
    found: set = set()
    for e in exprs:
        found |= opaque_terms(e)
    # sympy's finiteness of a sum or integral is not trusted (it calls sum_{j=0}^{1} log j finite)
    terms = sorted({t for t in found if (isinstance(t, _BINDERS) or t.is_finite is not True)
                    and not _finite_mean(t, bounded) and not _finite_sum(t)}, key=sp.default_sort_key)
    excluded = {t: set(v) for t, v in (exclude or {}).items()}
    for f in (ctx.facts if ctx is not None else ()):
        if f.variables or f.conditions:
            continue
        rel = f.relation
        for t, other, side in ((rel.lhs, rel.rhs, "lhs"), (rel.rhs, rel.lhs, "rhs")):
            # a bound excludes an infinity only when it is itself a finite number (not oo, not -log m at m = 0)
            if t in terms and not _maybe_infinite(other, bounded) and _finite_bound(other, ctx):
                if rel.op == "=":
                    excluded.setdefault(t, set()).update({sp.oo, -sp.oo})
                else:
                    excluded.setdefault(t, set()).add(sp.oo if side == "lhs" else -sp.oo)
    options = []
    for t in terms:
        opts: list = [None]
        if t.is_extended_nonpositive is not True and sp.oo not in excluded.get(t, ()):
            opts.append(sp.oo)
        if t.is_extended_nonnegative is not True and -sp.oo not in excluded.get(t, ()):
            opts.append(-sp.oo)
        options.append(opts)
    return terms, options


def _finite_cases_dropped(terms, options):
    """The terms that may still be infinite, with their options: a term whose every infinity a fact excludes
    (options ``[None]``) is finite in every case, so it is left to the finite dummies and not counted."""
    kept = [(t, o) for t, o in zip(terms, options) if o != [None]]
    return [t for t, _ in kept], [o for _, o in kept]


def _finite_bound(e: sp.Expr, ctx: "Context") -> bool:
    """Is ``e``, free of terms that may be infinite, a finite number at every point of the scope?"""
    from cdpsym.proof.core import nonfinite, well_defined

    return not nonfinite(as_expr(e)) and well_defined(as_expr(e), ctx).ok is True


def _maybe_infinite(e: sp.Expr, bounded: set) -> bool:
    return any((isinstance(t, _BINDERS) or t.is_finite is not True) and not _finite_mean(t, bounded)
               and not _finite_sum(t) for t in opaque_terms(e))


def _resolve(v: sp.Expr, ctx: "Context | None") -> sp.Expr:
    """Decide products ``oo * c`` whose factor's sign sympy leaves open, by a sign proof of ``c``."""
    if ctx is None or not v.has(sp.oo):
        return v
    repl = {}
    for term in sp.Add.make_args(v):
        if term.is_Mul and sp.oo in term.args:
            c = term / sp.oo
            if c.has(sp.oo, -sp.oo):
                continue
            if _prove_sign(c, ctx, True, 0).ok is True:
                repl[term] = sp.oo
            elif _prove_sign(-c, ctx, True, 0).ok is True:
                repl[term] = -sp.oo
    return v.xreplace(repl) if repl else v


def extended_agree(a: sp.Expr, op: str, b: sp.Expr, ctx: "Context | None" = None,
                   exclude: Mapping | None = None) -> Decision:
    """``a op b`` also when terms that may be infinite (a divergence, an expectation, an integral, a sum)
    are +oo or -oo.

    sympy's arithmetic is that of finite numbers (it cancels ``T - T`` and ``T + 1 - T``); a term whose
    finiteness is unknown is therefore also set to each infinity it may take, in every combination (at
    most four such terms).  ``=`` and ``<=``, shown for every finite value, pass to the limit wherever
    both sides are defined there and continuous; a strict ``<``, or a side with a jump (floor, sign ...),
    is compared at the infinite point itself.
    """
    if a == b and op in ("=", "<="):
        return Decision(True, "identical")
    terms, options = _finite_cases_dropped(*_infinite_cases((a, b), ctx, exclude))
    if not terms:
        return Decision(True, "no term may be infinite")
    if len(terms) > 4:
        return Decision(None, f"{len(terms)} terms may be infinite: too many to check the infinite cases")
    from itertools import product

    finite = {t: _finite_dummy(t) for t in terms}
    # the opaque terms known finite (a bounded mean) are finite dummies too, so that oo - E[L] reads as oo
    known = {t: _finite_dummy(t) for t in opaque_terms(a) | opaque_terms(b) if t not in finite}
    for combo in product(*options):
        if all(c is None for c in combo):
            continue
        m = {**known, **{t: (finite[t] if c is None else c) for t, c in zip(terms, combo)}}
        shown = ", ".join(f"{t} = {c}" for t, c in zip(terms, combo) if c is not None)
        try:
            va, vb = a.xreplace(m), b.xreplace(m)
            if ctx is not None:  # the domains' signs (alpha - 1 > 0) decide products with infinity
                va, vb = _resolve(ctx.reparametrize(va), ctx), _resolve(ctx.reparametrize(vb), ctx)
            defined = _definite(va) and _definite(vb)
            strict_ok = op != "<" or (defined and sp.Lt(va, vb) is sp.true)
            if defined and op != "<" and (va.atoms(*_JUMPS) or vb.atoms(*_JUMPS) or a.atoms(*_JUMPS)
                                          or b.atoms(*_JUMPS)):
                strict_ok = (va == vb) or ((sp.Eq if op == "=" else sp.Le)(va, vb) is sp.true)
        except (TypeError, ValueError, NotImplementedError, AttributeError, RecursionError):
            defined = strict_ok = False
        if not defined:
            return Decision(None, f"a side is undefined where {shown} (a divergence, expectation or integral may "
                                  f"be infinite)")
        if not strict_ok:
            return Decision(None, f"'{op}' not shown where {shown} (a divergence, expectation or integral may be "
                                  f"infinite)")
    return Decision(True, "also where the possibly infinite terms are infinite")


def finite_value(e: sp.Expr, ctx: "Context | None" = None) -> Decision:
    """Is ``e`` a finite number even where the terms that may be infinite are?  Never for a literal infinity
    (``oo``), nor, in a scope, for an expression not shown defined at every point of it (``-log m`` at ``m = 0``)."""
    from cdpsym.proof.core import foreign, nonfinite, well_defined

    reason = nonfinite(as_expr(e)) or foreign(as_expr(e))  # foreign: also the imaginary unit (twelfth review)
    if reason:
        return Decision(None, reason)
    if ctx is not None:
        wd = well_defined(as_expr(e), ctx)
        if wd.ok is not True:
            return Decision(None, f"{e} is not shown defined and finite in the scope ({wd.detail})")
    terms, options = _finite_cases_dropped(*_infinite_cases((e,), ctx))
    if not terms:
        return Decision(True, "no term may be infinite")
    if len(terms) > 4:
        return Decision(None, "too many terms may be infinite")
    from itertools import product

    finite = {t: _finite_dummy(t) for t in terms}
    for combo in product(*options):
        if all(c is None for c in combo):
            continue
        m = {t: (finite[t] if c is None else c) for t, c in zip(terms, combo)}
        try:
            v = e.xreplace(m)
            v = _resolve(ctx.reparametrize(v), ctx) if ctx is not None else v
            ok = not v.has(sp.oo, -sp.oo, sp.zoo, sp.nan) and not v.atoms(sp.AccumBounds)
        except (TypeError, ValueError, NotImplementedError, AttributeError, RecursionError):
            ok = False
        if not ok:
            shown = ", ".join(f"{t} = {c}" for t, c in zip(terms, combo) if c is not None)
            return Decision(None, f"{e} is not finite where {shown}")
    return Decision(True, "finite")


def _bounded_variables(ctx: "Context") -> set:
    """Random symbols that a local hypothesis puts in a bounded range almost surely:
    ``Pr[lo <= X <= hi] = 1`` with ``lo``, ``hi`` free of opaque terms."""
    from cdpsym.expr.operators import Prob

    out = set()
    for f in ctx.facts:
        rel = f.relation
        if f.variables or f.conditions or rel.op != "=" or not isinstance(rel.lhs, Prob) or rel.rhs != 1:
            continue
        event = rel.lhs.args[0]
        if not isinstance(event, sp.And):
            continue
        lower, upper = set(), set()
        for c in event.args:
            if isinstance(c, (sp.LessThan, sp.StrictLessThan)):
                lo, hi = c.lhs, c.rhs
            elif isinstance(c, (sp.GreaterThan, sp.StrictGreaterThan)):
                lo, hi = c.rhs, c.lhs
            else:
                continue
            # the bounds are numbers (no random symbol: Pr[X <= L <= X] = 1 does not bound L)
            if hi.is_Symbol and not opaque_terms(lo) and lo.is_finite is True and deterministic(lo):
                lower.add(hi)
            if lo.is_Symbol and not opaque_terms(hi) and hi.is_finite is True and deterministic(hi):
                upper.add(lo)
        out |= lower & upper
    return out


_CONTINUOUS = (sp.exp, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.erf, sp.erfc, sp.Abs)


def _finite_sum(t: sp.Basic) -> bool:
    """A sum or product of finitely many finite terms: integer limits that are not infinite, and a summand built
    from numbers, real symbols, terms of sequences of numbers and the bound variable by +, *, non-negative integer
    powers and continuous functions (no division, no opaque term)."""
    if not isinstance(t, (sp.Sum, sp.Product)) or len(t.limits) != 1:
        return False
    var, lo, hi = t.limits[0]
    for end in (lo, hi):
        if end.has(sp.oo, -sp.oo, sp.zoo, sp.nan) or end.is_integer is not True or opaque_terms(end):
            return False
    if (hi - lo + 1).is_nonnegative is not True:
        return False  # a reversed range: sympy reads a product there as a quotient
    for node in sp.preorder_traversal(t.function):
        if node.is_Atom:
            if node.is_Symbol and node != var and (node.is_real is not True or is_random_symbol(node)):
                return False
            if node.is_Number and not node.is_finite:
                return False
            continue
        if isinstance(node, AppliedUndef):
            if not is_sequence(node.func):
                return False
            continue
        if node.is_Add or node.is_Mul or isinstance(node, _CONTINUOUS):
            continue
        if node.is_Pow and node.exp.is_integer and node.exp.is_nonnegative:
            continue
        return False
    return True


def _finite_mean(t: sp.Basic, bounded: set) -> bool:
    """``E[f(X)]`` is finite when every random symbol of ``f`` is bounded a.s. and ``f`` is continuous
    (built from +, *, non-negative integer powers and continuous functions) with finite parameters."""
    from cdpsym.expr.operators import Expect

    if not isinstance(t, Expect) or not bounded:
        return False
    f = t.args[0]
    if not (f.free_symbols & bounded):
        return False
    for node in sp.preorder_traversal(f):
        if node.is_Atom:
            if node.is_Symbol and node not in bounded and (node.is_real is not True or is_random_symbol(node)):
                return False
            if node.is_Number and not node.is_finite:
                return False
            continue
        if node.is_Add or node.is_Mul or isinstance(node, _CONTINUOUS):
            continue
        if node.is_Pow and node.exp.is_integer and node.exp.is_nonnegative:
            continue
        if node.is_Pow and not (node.free_symbols & bounded) and node.is_real:
            continue
        return False
    return True


_JUMPS = (sp.floor, sp.ceiling, sp.sign, sp.Heaviside, sp.Piecewise, sp.frac)


def _finite_dummy(t: sp.Basic) -> sp.Dummy:
    if t.is_extended_positive:
        return sp.Dummy("F", positive=True)
    if t.is_extended_nonnegative:
        return sp.Dummy("F", nonnegative=True)
    return sp.Dummy("F", real=True)


def _definite(v: sp.Basic) -> bool:
    """A value of sympy's extended arithmetic that is the limit: exactly +-oo, or free of infinities."""
    if v.has(sp.nan, sp.zoo) or v.atoms(sp.AccumBounds):
        return False
    return v in (sp.oo, -sp.oo) or not v.has(sp.oo, -sp.oo)


def equivalent(a: sp.Expr, b: sp.Expr, ctx: Context, samples: int = 4) -> Decision:
    """Decide whether ``a == b`` holds identically on the context's domains (and where terms that may be
    infinite are, see :func:`extended_agree`)."""
    ext = extended_agree(a, "=", b, ctx)
    if ext.ok is not True:
        return ext
    with in_scope(ctx):  # an event's sides are subtracted only where one side's terms are shown finite
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
    # ... and even then a sampled opaque term takes values it never takes (Pr[X > 1] = 2.9, a sum apart from its
    # limit) and loses the ties between terms (Pr[A] + Pr[not A] = 1): a difference there refutes nothing
    decisive = decisive and not (d.free_symbols & set(mapping.values()))
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
                return Decision(None, "not shown equal (they differ only where opaque terms take free values, which "
                                      "is no counterexample)")
            if not _confirmed(d, vals, ctx, lambda ball: not ball.contains(0)):
                continue  # rounding, or a point outside the domains: no counterexample
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
    """Decide whether ``e >= 0`` (``e > 0`` if strict) for every value in the domains (and where terms that
    may be infinite are, see :func:`extended_agree`)."""
    key = (e, strict, samples, frozenset(ctx.domains.items()), tuple(ctx.facts))  # facts bound infinities
    hit = _SIGN_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_SIGN_CACHE) > 20000:
        _SIGN_CACHE.clear()
    _SIGN_CACHE[key] = d = _prove_sign_extended(e, ctx, strict, samples)
    return d


_SIGN_CACHE: dict = {}


def _prove_sign_extended(e: sp.Expr, ctx: Context, strict: bool, samples: int) -> Decision:
    d = _prove_sign(e, ctx, strict, samples)
    if d.ok is True:
        ext = extended_agree(sp.S.Zero, "<" if strict else "<=", e, ctx)
        if ext.ok is not True:
            return ext
    return d


def _grouped_sign(e: sp.Expr, strict: bool) -> bool:
    """``e >= 0`` (``> 0`` when ``strict``) by its structure, where sympy's own query gives up: a product or
    quotient of such factors, a power of a positive base, and a sum ``c + t_1 + ... + t_n`` with a negative
    number ``c`` grouped with one term -- some ``c + t_i`` is (sympy: ``2^{c+1} - 2 > 0`` for an integer c >= 1,
    which it cannot see in ``2^{c+1} + u - 2``) and every other ``t_j`` is non-negative."""
    return _structural_sign(e) in (("pos",) if strict else ("pos", "nonneg"))


def _structural_sign(e: sp.Expr, depth: int = 0) -> str | None:
    """'pos', 'nonneg' or None (unknown), from sympy's queries on the parts of ``e``."""
    if e.is_positive:
        return "pos"
    if depth > 6:
        return "nonneg" if e.is_nonnegative else None
    if isinstance(e, sp.Mul):
        signs = [_structural_sign(a, depth + 1) for a in e.args]
        if None in signs:
            return None
        return "pos" if all(x == "pos" for x in signs) else "nonneg"
    if isinstance(e, sp.Pow):
        base, ex = e.args
        if ex.is_real and _structural_sign(base, depth + 1) == "pos":
            return "pos"
        return "nonneg" if e.is_nonnegative else None
    if isinstance(e, sp.Add):
        const = sum((a for a in e.args if a.is_number), sp.S.Zero)
        rest = [a for a in e.args if not a.is_number]
        signs = [_structural_sign(a, depth + 1) for a in rest]
        if const.is_nonnegative and None not in signs:
            return "pos" if const.is_positive or "pos" in signs else "nonneg"
        if const.is_negative:
            for i, head in enumerate(rest):
                others = signs[:i] + signs[i + 1:]
                if None in others:
                    continue
                grouped = _structural_sign(head + const, depth + 1)
                if grouped == "pos" or "pos" in others:
                    if grouped is not None:
                        return "pos"
                elif grouped == "nonneg":
                    return "nonneg"
        return "nonneg" if e.is_nonnegative else None
    return "nonneg" if e.is_nonnegative else None


def _numeric_parts(e: sp.Basic) -> Iterator[sp.Expr]:
    """The constants of ``e`` sympy's queries evaluate on their own: the numeric (symbol-free) part of every sum
    and of every product, and every numeric argument of a function or power, except plain rationals."""
    if not isinstance(e, sp.Expr) or not e.args:
        return
    if e.is_number:
        if not e.is_Rational:
            yield e
        return
    if isinstance(e, (sp.Add, sp.Mul)):
        const = [a for a in e.args if a.is_number]
        if const:
            c = e.func(*const)
            if not c.is_Rational:
                yield c
        rest = [a for a in e.args if not a.is_number]
    else:
        rest = list(e.args)
    for a in rest:
        yield from _numeric_parts(a)


def _near_zero_constant(e: sp.Expr) -> sp.Expr | None:
    """A constant of ``e`` (:func:`_numeric_parts`) that is zero or within 1e-20 of it by a certified Arb ball
    (256 bits), or that Arb cannot bound away from 0: sympy decides such signs from a low-precision evaluation
    and has been seen to call ``y + ((1 + √2)² − 3 − 2√2)`` positive for y >= 0 and ``log(1 − e^-100)``
    positive.  None when every constant is clearly away from 0."""
    from cdpsym.expr.evaluate import ArbContext

    for c in _numeric_parts(e):
        if c.is_zero is True and c == 0:
            continue
        arb = ArbContext(256)
        try:
            with arb:
                ball = evaluate(c, {}, arb)
        except Exception:  # noqa: BLE001 - a constant Arb cannot evaluate is not trusted either
            return c
        if not (ball > 0 or ball < 0) or abs(ball.mid()) < arb.flint.arb(_TINY):
            return c
    return None


_TINY = "1e-20"  # a numeric constant closer to 0 than this is beyond sympy's sign queries


def _prove_sign(e: sp.Expr, ctx: Context, strict: bool, samples: int) -> Decision:
    with in_scope(ctx):
        e = canon(e)
    want = "positive" if strict else "nonnegative"
    # a constant near 0: sympy's queries are not trusted, only a sampled violation decides (it refutes)
    near = _try(_near_zero_constant, e) if not e.is_Rational else None
    # sympy's assumption queries can evaluate integrals numerically: they run under the time limit too
    if near is None and _try(lambda x: getattr(x, f"is_{want}"), e):
        return Decision(True, f"sympy: {want} under the assumptions")
    if near is None and isinstance(e, sp.log) and len(e.args) == 1:
        # log x >= 0 iff x >= 1 (> iff >), where sympy's query gives up; structurally only, from the symbols'
        # assumptions (cheap: the definedness checks of sqrt(log ...) ask this often; a full sign proof of x - 1
        # here slowed the claim checker's monotone rule by a quarter)
        gap = e.args[0] - 1
        if _grouped_sign(gap, strict):
            return Decision(True, f"log x {'>' if strict else '>='} 0, as x - 1 is, by its structure")
    abstracted = _try(lambda x: _abstract([x]), e)
    if abstracted is None:
        return Decision(None, "sign not decided (sympy's assumption queries timed out)")
    (ea,), mapping = abstracted
    rng = random.Random(20261122)
    # with opaque terms sampled as free values a negative sample is not a counterexample
    samples = samples if not (ea.free_symbols & set(mapping.values())) else 0
    for _ in range(samples):
        vals, shown = _numeric_values(ea, ctx, rng)
        v = _eval(ea, vals)
        if v is None or isinstance(v, mpmath.mpc):
            continue
        if v < -mpmath.mpf("1e-25") or (strict and v <= 0):
            if not _confirmed(ea, vals, ctx, (lambda ball: ball <= 0) if strict else (lambda ball: ball < 0)):
                continue  # rounding, or a point outside the domains: no counterexample
            return Decision(False, f"{'<=' if strict else '<'} 0 at a sample point: {mpmath.nstr(v, 12)}", shown)
    if near is not None:
        return Decision(None, f"sign not decided: the constant {sp.sstr(near)[:80]} is zero or within 1e-20 of 0, "
                              f"beyond sympy's sign queries")
    cases = _max_min_cases(e, ctx, strict)  # before simplify, which gains little on max/min and costs much
    if cases is not None:
        return cases
    er = ctx.reparametrize(ea)
    for fn in (lambda x: x, sp.factor, sp.together, sp.simplify, lambda x: sp.factor(sp.simplify(x.rewrite(sp.exp)))):
        cand = _try(fn, er)
        if cand is None:
            continue
        if getattr(cand, f"is_{want}"):
            return Decision(True, f"sympy: {want} after reparametrizing the domains")
    # a product (or quotient) of factors each shown positive (non-negative, for a non-strict claim), each in the
    # whole scope: its sign (no opaque term -- a factor that may be infinite could meet a zero)
    if isinstance(e, sp.Mul) and not opaque_terms(e):
        signs = []
        for f in e.args:
            inverse = f.is_Pow and f.exp.is_negative and f.exp.is_integer
            base = f.base if inverse and f.exp == -1 else f
            signs.append(_prove_sign(base, ctx, strict or inverse, 0).ok is True)
        if all(signs):
            return Decision(True, f"{want}: each factor is")
    # integer domains: a domain with two finite ends (k in [1, a - 1)) was a bare integer; a sign on the real
    # interval with the same ends holds on its integers.  One above a finite end (c >= 1) was its least integer
    # plus n >= 0, where sympy may lose what it knows of c itself (2^{c+1} >= 4): try the symbol
    integers = [d for x in ctx.reparametrize(ea, keep_integer=True).free_symbols
                if (d := ctx.domains.get(x)) is not None and d.integer]
    covers = []
    if any(d.lo is not sp.S.NegativeInfinity and d.hi is not sp.S.Infinity for d in integers):
        covers.append(("on the real hull of the integer domains", dict(relax_integer=True)))
    if integers:
        covers.append(("with the integer variables' own assumptions", dict(keep_integer=True)))
    for how, cover in covers:
        relaxed = ctx.reparametrize(ea, **cover)
        for fn in ((lambda x: x, sp.factor, sp.together) if relaxed == er else
                   (lambda x: x, sp.factor, sp.together, sp.simplify)):
            cand = _try(fn, relaxed)
            if cand is not None and (_grouped_sign(cand, strict) if relaxed == er else
                                     (getattr(cand, f"is_{want}") or _grouped_sign(cand, strict))):
                return Decision(True, f"sympy: {want} {how}")
    # closed finite domains: their symbols were kept (only their assumptions used); try the rational cover
    if any((d := ctx.domains.get(x)) is not None and not d.integer and not d.left_open and not d.right_open
           for x in er.free_symbols):  # a closed finite domain's symbol was kept as it is
        closed = ctx.reparametrize(ea, closed_rational=True)
        for fn in (lambda x: x, sp.factor, sp.together):
            cand = _try(fn, closed)
            if cand is not None and getattr(cand, f"is_{want}"):
                return Decision(True, f"sympy: {want} after a rational cover of the closed domains")
    return Decision(None, f"sign not decided symbolically ({want} at {samples} sample points)")


_MAX_MIN_BRANCHES = [0]  # sub-proofs spent by the enclosing _max_min_cases (a budget, not a cache)


def _max_min_cases(e: sp.Expr, ctx: Context, strict: bool) -> Decision | None:
    """``e >= 0`` (``> 0``) for a sum with a term ``c·max(u_1, ..., u_n)`` or ``c·min(...)`` (``c`` a non-zero
    number), by the arguments of that extremum, in the same scope:

    * ``c < 0`` with ``max``, or ``c > 0`` with ``min``: ``c·max(u_i) = min_i(c·u_i)``, so ``e`` is the least of
      the sums with ``c·u_i`` in its place -- each must be shown (the rule is exact);
    * ``c > 0`` with ``max``, or ``c < 0`` with ``min``: ``c·max(u_i) >= c·u_j`` for each j, so one sum with
      ``c·u_j`` in its place shown suffices.

    Only where no opaque term occurs (the arguments are finite reals at every point of the domains), and within a
    budget of sub-proofs.  None when the rule does not apply or shows nothing."""
    if opaque_terms(e) or not e.has(sp.Max, sp.Min):
        return None
    terms = list(e.args) if isinstance(e, sp.Add) else [e]
    for n, term in enumerate(terms):
        coeff, rest = term.as_coeff_Mul()
        if not isinstance(rest, (sp.Max, sp.Min)) or not coeff.is_nonzero or not coeff.is_real:
            continue
        others = sp.Add(*(terms[:n] + terms[n + 1:]))
        variants = [others + coeff * u for u in rest.args]
        every = (coeff.is_negative and isinstance(rest, sp.Max)) or (coeff.is_positive and isinstance(rest, sp.Min))
        if _MAX_MIN_BRANCHES[0] + len(variants) > 24:
            return None
        outer = _MAX_MIN_BRANCHES[0] == 0
        _MAX_MIN_BRANCHES[0] += len(variants)
        try:
            shown = [prove_sign(v, ctx, strict, samples=0).ok is True for v in variants]
        finally:
            if outer:
                _MAX_MIN_BRANCHES[0] = 0
        kind = "max" if isinstance(rest, sp.Max) else "min"
        if every and all(shown):
            return Decision(True, f"{'positive' if strict else 'nonnegative'} with {term} replaced by each "
                                  f"argument of the {kind} in turn")
        if not every and any(shown):
            return Decision(True, f"{'positive' if strict else 'nonnegative'} with {term} replaced by one argument "
                                  f"of the {kind}, which it is at least")
        return None
    return None
