"""The trusted core: the only code that can mark a step, a part or a theorem *proved* or *certified*.

Everything else in cdpsym proposes: a :class:`~cdpsym.proof.kernel.Chain` is data (expressions and
justification records), a theorem module is data, the claim checker builds data.  The core reads that
data and decides.  It never calls a method of a user object to decide anything: a justification is
dispatched on its exact type to one rule function below (a subclass is not a kernel justification), and
the two functions a justification may be given (``inside=``, ``taylor``'s ``g``) were called once, when the
record was built, on a fresh symbol: the core sees only ``(symbol, expression)`` and uses it by substitution.

Each rule returns the relation it *establishes*; the step is closed only when that relation implies the
claimed one (``=`` gives ``=`` and ``<=``; ``<`` gives ``<`` and ``<=``).  The rules, their relations and
side conditions are the table in ``docs/kernel.md`` -- one row per ``_rule_*`` function.

Invariants, all enforced here or in :mod:`cdpsym.proof.algebra` (the deciders the rules call):

* every declared variable's sympy assumptions follow from its domain; no re-declaration in an inner scope;
* substitution is capture-avoiding (:func:`subst`); canonical forms rename bound variables;
* both sides of every closed step are well defined on the scope (:func:`well_defined`); non-finite values
  (``oo`` outside integral limits, ``zoo``, ``nan``) are refused;
* facts are cited by identity and content: an axiom only if it is in the registered trusted base, a
  hypothesis only if it is in scope, a theorem part only if its theorem's check minted a certificate for
  exactly that content;
* defence in depth (:func:`cdpsym.proof.crosscheck.cross_check`, outside the core: it can only take a
  verdict away): each closed step is evaluated in Arb ball arithmetic at points
  of its whole domain; a definite violation is a *kernel inconsistency* and the step fails.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Mapping

import sympy as sp
from sympy.core.function import AppliedUndef
from sympy.core.relational import Relational

from cdpsym.errors import ProofError
from cdpsym.expr.domains import Interval, as_expr
from cdpsym.expr.evaluate import ArbContext, NotEvaluable, evaluate
from cdpsym.expr.operators import OPAQUE
from cdpsym.expr.symbols import L as _L, R as _R, is_random_symbol, is_sequence
from cdpsym.proof.algebra import (BoundVar, Context, Decision, _empty, _possibly_infinite_terms, canon, deterministic,
                                  domain_key, equivalent, extended_agree, finite_value, opaque_terms, prove_sign,
                                  sides_apart)
from cdpsym.proof.crosscheck import cross_check
from cdpsym.proof.kernel import (OPS, Algebra, Axiom, By, Chain, Fact, Hypothesis, IntervalBound, Induction,
                                 LimitAtEnd, Monotone, Numeric, Split, Rel, Sign, Specialize, Step, StepResult, Taylor, STATUS_ORDER, compose_ops,
                                 implies_op, weakest)

__all__ = ["register_axioms", "register_opaque", "foreign", "trusted_axioms", "is_trusted", "check_chain", "check_step", "symbolic_check",
           "SymbolicResult", "PartResult", "Certificate", "subst", "well_defined", "cross_check", "KERNEL_RULES"]

# -- the trusted base ------------------------------------------------------------------------------

_TRUSTED: dict[str, tuple[Axiom, str]] = {}  # name -> (the axiom, what it said when registered)


def register_axioms(*axioms: Axiom) -> None:
    """Admit axioms to the trusted base.  Only a registered axiom (this very object) can make a step proved;
    a second, different axiom under a registered name is refused."""
    for ax in axioms:
        if type(ax) is not Axiom:
            raise ProofError(f"only Axiom objects can join the trusted base, got {type(ax).__name__}")
        old = _TRUSTED.get(ax.name)
        if old is not None and old[0] is not ax:
            raise ProofError(f"an axiom named {ax.name!r} is already in the trusted base")
        _functional_definition(ax)
        if old is None:
            _TRUSTED[ax.name] = (ax, _fact_print(ax))
            # symbols the axiom leaves free (other than the pair): fixed objects of the trusted base, such as the
            # standard normal Z of ``standard_normal_mgf``; a scope that declares one may not rest on the axiom
            _AXIOM_GLOBALS[ax.name] = frozenset(_fact_free_symbols(ax) - {_L, _R, _ops.P, _ops.Q})


_AXIOM_GLOBALS: dict = {}


def _functional_definition(ax: Axiom) -> None:
    """An equation that defines a random sequence term (``S(j) = ...``) must be a function of that term's arguments:
    a variable of the other side that the term does not name would give one random variable several values
    (``S(1) = a Z/sigma`` for every sigma > 0 makes any two values of sigma equal)."""
    from sympy.core.function import AppliedUndef as _Undef

    rel = ax.relation
    if rel.op != "=":
        return
    for side, other in ((rel.lhs, rel.rhs), (rel.rhs, rel.lhs)):
        side, other = as_expr(side), as_expr(other)
        if isinstance(side, _Undef) and not is_sequence(side.func):
            loose = (other.free_symbols & set(ax.variables)) - side.free_symbols
            if loose:
                raise ProofError(f"axiom {ax.name!r} defines the random term {side} by a right side with the variables "
                                 f"{sorted(map(str, loose))}, which the term does not name: a definition must give "
                                 f"one value (make them arguments of the term)")


def is_trusted(ax: Fact) -> bool:
    """The very object registered under its name, still saying what it said then."""
    entry = _TRUSTED.get(ax.name)
    return entry is not None and entry[0] is ax and entry[1] == _fact_print(ax)


def trusted_axioms() -> tuple[Axiom, ...]:
    return tuple(ax for ax, _ in _TRUSTED.values())


# -- what statements may be built from ------------------------------------------------------------------

from cdpsym.expr import operators as _ops  # noqa: E402

_OPAQUE_TYPES: set = {_ops.Expect, _ops.Prob, _ops.Indicator, _ops.Renyi, _ops.KL, _ops.HockeyStick, _ops.Normal,
                      _ops.PrivacyLoss, _ops.CondExpect, _ops.ExpectAt, _ops.KLDiameter}


def register_opaque(*classes: type) -> None:
    """Admit opaque operator classes (subclasses of ``Opaque``): their sign/finiteness typing is trusted, like
    an axiom's statement.  An unregistered subclass -- even one named like a built-in -- is refused."""
    for cls in classes:
        if not (isinstance(cls, type) and issubclass(cls, _ops.Opaque)):
            raise ProofError(f"only Opaque subclasses can be registered, got {cls!r}")
        _OPAQUE_TYPES.add(cls)


#: the sympy node types a kernel statement may contain (besides numbers, symbols, the function whitelist,
#: registered opaque operators and sign-free undefined functions): no Limit, Derivative, I, AccumBounds ...
_SYMPY_NODES = {sp.Add, sp.Mul, sp.Pow, sp.Integral, sp.Sum, sp.Product, sp.Tuple, sp.Piecewise,
                sp.functions.elementary.piecewise.ExprCondPair, sp.LessThan, sp.StrictLessThan, sp.GreaterThan,
                sp.StrictGreaterThan, sp.Equality, sp.Unequality, sp.And, sp.Or, sp.Not,
                sp.logic.boolalg.BooleanTrue, sp.logic.boolalg.BooleanFalse}

_SIGN_ASSUMPTIONS = {"positive", "negative", "nonnegative", "nonpositive", "zero", "nonzero", "extended_positive",
                     "extended_negative", "extended_nonnegative", "extended_nonpositive", "integer", "rational",
                     "even", "odd", "prime", "composite"}


def foreign(e: sp.Basic) -> str | None:
    """A node the kernel does not trust to type itself: a class from outside sympy (a user ``Expr`` with its
    own sign hooks, a symbol subclass), an unregistered opaque operator, or an undefined function that
    declares a sign (``Function('f', positive=True)``: nothing checks that) -- except the kernel's own likelihood
    ratios (``SIGNED_SEQUENCES``, non-negative by definition).  ``None`` when all is known."""
    from sympy.core.function import UndefinedFunction

    for node in sp.preorder_traversal(e):
        cls = type(node)
        if isinstance(node, _ops.Opaque):
            if cls not in _OPAQUE_TYPES:
                return f"{cls.__name__} is not a registered opaque operator (cdpsym.proof.register_opaque)"
            continue
        if isinstance(cls, UndefinedFunction):
            if any(cls is f for f in _ops.SIGNED_SEQUENCES):
                continue  # the likelihood ratios: non-negative by definition (kernel typing, cdpsym.expr.operators)
            declared = {k for k, v in getattr(cls, "_kwargs", {}).items()} | {
                k for k, v in node.assumptions0.items() if k in _SIGN_ASSUMPTIONS and v}
            bad = declared & _SIGN_ASSUMPTIONS
            if bad:
                return f"the undefined function {cls.__name__} declares {sorted(bad)}: nothing checks that"
            continue
        if cls is BoundVar or cls is sp.Symbol or cls is sp.Dummy:
            continue
        if not cls.__module__.startswith("sympy.") or isinstance(node, sp.Symbol):
            return f"{cls.__name__} ({cls.__module__}) is not a sympy class the kernel trusts"
        if isinstance(node, sp.Float):
            return f"the Float {node} is inexact (sympy rounds sums of Floats): write it as a Rational"
        if isinstance(node, sp.Rational) or node in (sp.pi, sp.E, sp.oo, -sp.oo) or cls in _SYMPY_NODES \
                or isinstance(node, _TOTAL + (sp.log,)):
            continue
        return f"{cls.__name__} is not among the sympy constructs the kernel reasons about"
    if any(isinstance(v, BoundVar) for v in e.free_symbols):
        return "a free canonical bound variable (only canonical forms bind those)"
    return None


#: rules of the core that are mathematics taken as given, like axioms: every report lists those it used
KERNEL_RULES = {
    "taylor": "Taylor's theorem with the Lagrange remainder (g twice differentiable on the reals)",
    "induction": "induction on the positive integers",
    "interval": "Arb ball arithmetic (python-flint), outward-rounded enclosures",
    "monotone": "the mean value theorem (h continuous on [a, b), differentiable on (a, b), h' >= 0 gives h >= h(a))",
    "member": "a fact about every pair of the class holds of each member: of the pair of step i of the adaptive "
              "composition game given any prefix (Dwork, Rothblum & Vadhan 2010; Dwork & Rothblum 2016, §3.1: the "
              "adversary picks a pair of the class, C_i is its privacy loss), and of each link of a chain of "
              "inputs whose consecutive pairs are pairs of the class (group privacy; Dwork & Roth 2014, Thm 2.2)",
    "supremum": "a bound on E[G_m] = D_KL(M(x_0)||M(x_m)) for every chain of m links of the class bounds the "
                "supremum of D_KL(M(x)||M(x')) over inputs of m entries (any two are the ends of such a chain: the "
                "Hamming path, each link changing at most one entry; Dwork & Roth 2014, proof of Thm 2.2)",
    "limit": "passing to the limit in a non-strict inequality (c <= f(v) for every v in (a, b), f continuous on "
             "[a, b): c <= f(a))",
}

# -- certificates: what only the core mints ---------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Certificate:
    """That ``part`` of ``theorem`` was checked with ``status``: minted only by :func:`symbolic_check`."""

    theorem: Any
    part: Any
    fingerprint: str
    status: str
    axioms: tuple[str, ...]
    rules: tuple[str, ...]


_MINTED: "weakref.WeakValueDictionary[int, Certificate]" = weakref.WeakValueDictionary()


def _mint(theorem, part, status, axioms, rules, fingerprint) -> Certificate:
    cert = Certificate(theorem, part, fingerprint, status, tuple(axioms), tuple(rules))
    _MINTED[id(cert)] = cert
    return cert


def genuine(cert: object) -> bool:
    """Was ``cert`` minted by the core, and does its part still say what it said when checked?"""
    return (isinstance(cert, Certificate) and _MINTED.get(id(cert)) is cert
            and cert.fingerprint == _fingerprint(cert.theorem, cert.part))


def _srepr(e) -> str:
    """``sp.srepr`` and what it leaves out: which function class each undefined function is (a sequence of numbers
    and a random sequence of the same name print alike)."""
    e = as_expr(e)
    heads = sorted((type(n).__name__, id(type(n)), is_sequence(type(n))) for n in e.atoms(AppliedUndef))
    return sp.srepr(e) + (repr(heads) if heads else "")


def _dom_print(d) -> tuple:
    return (_srepr(d.lo), _srepr(d.hi), d.left_open, d.right_open, d.integer)


def _fact_print(f) -> tuple:
    """Everything a fact states: name, relation, quantified variables with domains, conditions, restrictions."""
    return (f.name, _srepr(f.relation.lhs), f.relation.op, _srepr(f.relation.rhs),
            tuple((_srepr(v), _dom_print(d)) for v, d in f.variables.items()),
            tuple((_srepr(c.lhs), c.op, _srepr(c.rhs)) for c in f.conditions),
            tuple((k, tuple(map(sp.srepr, v))) for k, v in dict(getattr(f, "free_of", {}) or {}).items()))


def _fingerprint(theorem, part) -> str:
    return repr((_fact_print(part), tuple(_fact_print(h) for h in theorem.hypotheses),
                 tuple((_srepr(v), _dom_print(d)) for v, d in theorem.variables.items()), id(part.proof)))


# -- substitution ------------------------------------------------------------------------------------

_BINDERS = (sp.Integral, sp.Sum, sp.Product)
_UNSUPPORTED_BINDERS = (sp.Lambda, sp.Subs, sp.Derivative)


def subst(expr: sp.Basic, mapping: Mapping[sp.Basic, sp.Basic]) -> sp.Basic:
    """Capture-avoiding substitution.

    A key is replaced only where none of its free symbols is bound; a binder whose variable occurs free
    in a replacement is renamed first.  Keys may be symbols or terms (a rewrite ``T -> value``).
    """
    mapping = {k: as_expr(v) for k, v in mapping.items() if k != v}
    if not mapping:
        return expr
    values_free: set = set()
    for v in mapping.values():
        values_free |= v.free_symbols

    def walk(e: sp.Basic, bound: frozenset) -> sp.Basic:
        if e in mapping and not (e.free_symbols & bound):
            return mapping[e]
        if e.is_Atom:
            return e
        if isinstance(e, _UNSUPPORTED_BINDERS):
            if any(k in e.free_symbols or (not k.is_Symbol and e.has(k)) for k in mapping):
                raise ProofError(f"substitution under {type(e).__name__} is not supported: {e}")
            return e
        if isinstance(e, _BINDERS):
            out, limits = e.function, []
            inner = set(bound)
            for var, *ends in e.limits:
                ends = [walk(x, frozenset(inner)) for x in ends]
                if var in values_free:
                    fresh = sp.Dummy(var.name, **var.assumptions0)
                    out = out.xreplace({var: fresh})
                    var = fresh
                inner.add(var)
                limits.append((var, *ends))
            return type(e)(walk(out, frozenset(inner)), *limits)
        if isinstance(e, Relational):  # never decided by sympy's finite arithmetic (KL < KL + 1 is not True)
            return e.func(*[walk(a, bound) for a in e.args], evaluate=False)
        return e.func(*[walk(a, bound) for a in e.args])

    return walk(expr, frozenset())


def _subst_rel(rel: Rel, mapping) -> Rel:
    return Rel(subst(rel.lhs, mapping), rel.op, subst(rel.rhs, mapping))


def _subst_dom(dom: Interval, mapping) -> Interval:
    return Interval(subst(dom.lo, mapping), subst(dom.hi, mapping), dom.left_open, dom.right_open, dom.integer,
                    dom.sample_lo, dom.sample_hi, dom.log_scale)


@dataclass(frozen=True)
class Quantified:
    """``for all variables (in their domains) with conditions: relation`` -- a fact's content."""

    variables: Mapping[sp.Symbol, Interval]
    conditions: tuple[Rel, ...]
    relation: Rel
    free_of: Mapping[str, frozenset] = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        if self.free_of is None:
            object.__setattr__(self, "free_of", {})


def instantiate_bound(fact: Fact, mapping: Mapping[sp.Symbol, sp.Basic]) -> Quantified:
    """Substitute the *outer* variables of ``fact`` (``mapping``), keeping its own bound variables bound:
    a bound variable is never substituted, and one that a value mentions is renamed first."""
    mapping = {k: v for k, v in mapping.items() if k not in fact.variables}
    free_in_values: set = set()
    for v in mapping.values():
        free_in_values |= as_expr(v).free_symbols
    rename = {b: sp.Dummy(b.name, **b.assumptions0) for b in fact.variables if b in free_in_values}
    full = dict(rename)
    full.update(mapping)
    variables = {rename.get(b, b): _subst_dom(d, full) for b, d in fact.variables.items()}
    restr = {str(rename.get(b, b)): frozenset(_restrictions(fact).get(str(b), ())) for b in fact.variables
             if str(b) in _restrictions(fact)}
    return Quantified(variables, tuple(_subst_rel(c, full) for c in fact.conditions), _subst_rel(fact.relation, full),
                      restr)


def _fact_free_symbols(fact: Fact) -> set:
    out = set(fact.relation.lhs.free_symbols | fact.relation.rhs.free_symbols)
    for c in fact.conditions:
        out |= c.lhs.free_symbols | c.rhs.free_symbols
    for d in fact.variables.values():
        out |= d.lo.free_symbols | d.hi.free_symbols
    return out - set(fact.variables)


# -- well-definedness ----------------------------------------------------------------------------------

_TOTAL = (sp.exp, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.erf, sp.erfc, sp.Abs, sp.Max, sp.Min,
          sp.sign, sp.floor, sp.ceiling, sp.Heaviside)
_SMOOTH = (sp.exp, sp.sin, sp.cos, sp.tanh, sp.sinh, sp.cosh, sp.atan, sp.erf, sp.erfc)


def nonfinite(e: sp.Basic) -> str | None:
    """A reason ``e`` is refused outright: a non-finite or undefined constant outside integral limits."""
    for node in _outside_limits(e):
        if node in (sp.nan, sp.zoo, sp.oo, -sp.oo) or node.is_Number and not node.is_finite:
            return f"non-finite value {node}"
        if isinstance(node, sp.Number) is False and node.is_Atom and node.is_finite is False:
            return f"non-finite value {node}"
    return None


def _outside_limits(e: sp.Basic):
    """Subterms of ``e``, skipping the limits of integrals (where +-oo is meaningful)."""
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _BINDERS):
            stack.append(n.function)
        else:
            stack.extend(n.args)


_DEFINED_CACHE: dict = {}


def well_defined(e: sp.Expr, ctx: Context) -> Decision:
    """Cached :func:`_well_defined` (a chain's sides recur: each step's right side is the next one's left)."""
    key = (e, frozenset(ctx.domains.items()), tuple(ctx.facts))  # facts decide events' forms (algebra.in_scope)
    hit = _DEFINED_CACHE.get(key)
    if hit is None:
        if len(_DEFINED_CACHE) > 20000:
            _DEFINED_CACHE.clear()
        hit = _DEFINED_CACHE[key] = _well_defined(e, ctx)
    return hit


def _well_defined(e: sp.Expr, ctx: Context) -> Decision:
    """Is ``e`` a finite real number at every point of the scope?

    Denominators are shown non-zero, logarithms' and non-integer powers' bases positive (non-negative
    for a positive non-integer exponent); opaque operators and integrals are atoms here (their values
    are typed by the operators); functions outside a small total whitelist are undecided.
    """
    reason = nonfinite(e)
    if reason:
        return Decision(False, reason)
    for node in _walk_defined(e):
        if isinstance(node, _BINDERS):
            # the body must be defined on the open range of the bound variable (an endpoint singularity is
            # allowed: the value is typed as possibly infinite), and so must the limits
            d = _binder_defined(node, ctx)
            if d.ok is not True:
                return d
            continue
        if isinstance(node, _UNSUPPORTED_BINDERS):
            return Decision(None, f"{type(node).__name__} is not supported in kernel statements")
        if node.is_Pow:
            base, ex = node.args
            if ex.is_integer and ex.is_nonnegative:
                continue
            if ex.is_integer and ex.is_negative:
                d = _nonzero(base, ctx)
            elif ex.is_positive:
                d = prove_sign(base, ctx)
            else:
                d = _extended_positive(base, ctx)
            if d.ok is not True:
                return Decision(d.ok if d.ok is False and d.point else None,
                                f"{node} is not shown defined ({base} must be {'non-zero' if ex.is_integer else 'positive'}): {d.detail}",
                                d.point if d.ok is False else None)
        elif isinstance(node, sp.log):
            d = _extended_positive(node.args[0], ctx)
            if d.ok is not True:
                return Decision(d.ok if d.ok is False and d.point else None,
                                f"{node} is not shown defined ({node.args[0]} must be positive): {d.detail}",
                                d.point if d.ok is False else None)
        elif isinstance(node, sp.Function) and not isinstance(node, (_TOTAL + OPAQUE)) \
                and not isinstance(node, AppliedUndef):
            return Decision(None, f"{type(node).__name__} is not a function the kernel knows to be total")
        elif isinstance(node, sp.Piecewise):
            return Decision(None, "Piecewise expressions are not supported in kernel statements")
    return Decision(True, "well defined")




def _binder_defined(node: sp.Basic, ctx: Context) -> Decision:
    body, limits = node.function, node.limits
    inner = ctx
    for var, *ends in limits:
        if len(ends) != 2:
            return Decision(None, f"{node}: a binder needs both limits")
        for end in ends:
            if end not in (sp.oo, -sp.oo):
                d = well_defined(end, inner)
                if d.ok is not True:
                    return d
                if not isinstance(node, sp.Integral):
                    # a sum's variable runs over the integers between its limits (the canonical form types it
                    # so); a limit that is not an integer reads differently in sympy (i = 1/3, 4/3, ...)
                    d = _in_domain(end, Interval(integer=True), inner)
                    if d.ok is not True:
                        return Decision(None, f"{node}: its limit {end} is not shown to be an integer ({d.detail})")
        fresh = sp.Dummy(var.name, **({"integer": True} if not isinstance(node, sp.Integral) else {"real": True}))
        body = body.xreplace({var: fresh})
        lo, hi = ends
        if isinstance(node, sp.Integral):
            if lo == hi:
                continue
            ranges = [Interval(sp.Min(lo, hi), sp.Max(lo, hi), True, True), Interval()]
        else:
            ranges = [Interval(lo, hi, False, False, True), Interval(lo, sp.oo, False, True, True),
                      Interval(integer=True)]
        # the range itself when it can be declared (shown non-empty ...), else a larger one: asking the body
        # to be defined on more than the range is only stronger
        for dom in ranges:
            try:
                inner2 = inner.extended({fresh: dom})
                break
            except ProofError:
                continue
        else:
            return Decision(None, f"{node}: the range of its variable cannot be declared")
        inner = inner2
    d = well_defined(body, inner)
    if d.ok is not True:
        return Decision(None if d.ok is None else None, f"inside {type(node).__name__}: {d.detail}")
    return d


def _walk_defined(e: sp.Basic):
    """Every subterm whose definedness matters: the arguments of opaque operators and the two sides of an
    event too (``E[n/(x - 2)]`` is undefined at x = 2), but not the bodies of integrals and sums (a
    measure-zero singularity is allowed there: the value is typed as a possibly infinite term)."""
    stack = [e]
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, _BINDERS):
            continue
        if isinstance(n, sp.Basic):
            stack.extend(a for a in n.args if isinstance(a, sp.Basic))


def _extended_positive(a: sp.Expr, ctx: Context) -> Decision:
    """``a`` lies in (0, +oo]: shown positive, or a product of such factors, or the integral of a
    positive function over a non-empty interval (possibly divergent: log and powers are then +oo)."""
    d = prove_sign(a, ctx, strict=True)
    if d.ok is True or d.ok is False:
        return d
    if a.is_Mul:
        for f in a.args:
            if _extended_positive(f, ctx).ok is not True:
                return Decision(None, f"{f} not shown positive")
        return Decision(True, "a product of positive factors")
    if isinstance(a, sp.Integral) and len(a.limits) == 1 and len(a.limits[0]) == 3:
        ca = canon(a)
        integral = next((t for t in sp.Mul.make_args(ca) if isinstance(t, sp.Integral)), None)
        if integral is None or _extended_positive(ca / integral, ctx).ok is not True:
            return Decision(None, f"{a} not shown positive")
        var, lo, hi = integral.limits[0]
        if not (lo is sp.S.NegativeInfinity or hi is sp.S.Infinity or prove_sign(hi - lo, ctx, strict=True).ok):
            return Decision(None, f"the range of {a} is not shown non-empty")
        fresh = sp.Dummy("y", **var.assumptions0)
        inner = ctx.extended({fresh: Interval(lo, hi)})
        if prove_sign(integral.function.xreplace({var: fresh}), inner, strict=True).ok is True:
            return Decision(True, "the integral of a positive function: in (0, +oo]")
    return d


def _nonzero(b: sp.Expr, ctx: Context) -> Decision:
    pos = prove_sign(b, ctx, strict=True)
    if pos.ok is True:
        return pos
    neg = prove_sign(-b, ctx, strict=True)
    if neg.ok is True:
        return neg
    return Decision(None, f"{b} is not shown non-zero")


def smooth(e: sp.Expr, v: sp.Symbol, ctx: Context, *, continuous_only: bool = False) -> Decision:
    """Is ``e`` infinitely differentiable in ``v`` on ``v``'s domain in ``ctx``?  Built from +, *, integer
    powers, the smooth whitelist, and log/powers of bases shown positive; anything else is undecided.

    ``continuous_only``: is ``e`` continuous there (the same walk, except that a positive non-integer power
    such as ``sqrt`` may have a base that is only non-negative: continuous at 0, not differentiable)."""
    what = "continuous" if continuous_only else "smooth"
    for node in sp.preorder_traversal(e):
        if not node.has(v) or node.is_Atom or node.is_Add or node.is_Mul:
            continue
        if node.is_Pow:
            base, ex = node.args
            if ex.has(v):
                if prove_sign(base, ctx, strict=True).ok is not True:
                    return Decision(None, f"{node}: base not shown positive")
                continue
            if ex.is_integer and ex.is_nonnegative:
                continue
            if continuous_only and ex.is_Rational and ex.is_positive and prove_sign(base, ctx).ok is True:
                continue
            if prove_sign(base, ctx, strict=True).ok is not True and not (ex.is_integer and _nonzero(base, ctx).ok):
                return Decision(None, f"{node} is not shown {what} in {v}")
            continue
        if isinstance(node, sp.log):
            if prove_sign(node.args[0], ctx, strict=True).ok is not True:
                return Decision(None, f"{node}: argument not shown positive")
            continue
        if isinstance(node, _SMOOTH):
            continue
        return Decision(None, f"{type(node).__name__} is not known {what} in {v} ({node})")
    return Decision(True, what)


# -- steps ------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Closed:
    """What a rule found: its status, the relation it establishes, and what it rests on."""

    status: str
    establishes: str | None = None
    detail: str = ""
    axioms: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    point: Mapping[str, str] | None = None
    #: the relation the rule actually shows, when it is not ``lhs R rhs`` (specialize: ``lhs[v:=value] = rhs``)
    shown: tuple | None = None


def _fail(detail: str, point=None) -> _Closed:
    return _Closed("failed", None, detail, point=point)


def _status(d: Decision) -> str:
    return {True: "proved", None: "supported", False: "failed"}[d.ok]


def check_step(why: object, lhs: sp.Expr, op: str, rhs: sp.Expr, ctx: Context, chain: Chain,
               stack: tuple[str, ...] = ()) -> StepResult:
    """The core's verdict on one step ``lhs op rhs`` in scope ``ctx``."""
    rule = _RULES.get(type(why))
    method = str(getattr(type(why), "method", type(why).__name__))
    if rule is None:
        return StepResult("failed", method, f"{type(why).__name__} is not a kernel justification")
    if isinstance(why, By):
        method = f"by:{getattr(why.fact, 'name', '?')}"
    if op not in OPS:
        return StepResult("failed", method, f"unknown relation {op!r}")
    try:
        for side in (lhs, rhs):
            reason = nonfinite(side) or foreign(side)
            if reason:
                return StepResult("failed", method, f"refused: {reason}")
        c = rule(why, lhs, op, rhs, ctx, chain, stack)
        if c.status not in ("proved", "certified"):
            return StepResult(c.status, method, c.detail, c.axioms, c.point, c.rules)
        if c.establishes is None or not implies_op(c.establishes, op):
            return StepResult("failed", method, f"the rule establishes '{c.establishes}', the step claims '{op}'",
                              c.axioms, c.point, c.rules)
        for side in (lhs, rhs):
            d = well_defined(side, ctx)
            if d.ok is not True:
                return StepResult("failed" if d.ok is False else "supported", method,
                                  f"well-definedness: {d.detail}", c.axioms, d.point, c.rules)
        a, b = c.shown if c.shown is not None else (lhs, rhs)
        # only citations can rest on local hypotheses: other rules are checked at every point of the domain
        scope = ctx if type(why) in (By, Induction) else ctx.with_facts(())
        x = cross_check(a, op, b, scope)
    except ProofError as exc:
        return StepResult("failed", method, str(exc))
    except (TypeError, ValueError, ArithmeticError, AttributeError, RecursionError, NotImplementedError) as exc:
        # sympy gave up inside a decider: not a refutation, and never a proof
        return StepResult("supported", method, f"undecided: sympy raised {type(exc).__name__}: {exc}")
    if x.ok is False:
        return StepResult("failed", method, f"kernel inconsistency: the step was closed by {method} but is "
                          f"false at a point of its domain ({x.detail})", c.axioms, x.point, c.rules)
    return StepResult(c.status, method, c.detail, c.axioms, c.point, c.rules)


def snapshot(chain: Chain) -> tuple[sp.Expr, tuple[tuple[str, sp.Expr, object], ...]]:
    """The chain's start and (op, expr, justification) triples, read once: a callback that mutates the chain
    while it is checked cannot move what was checked."""
    if not isinstance(chain, Chain):
        raise ProofError(f"expected a Chain, got {chain!r}")
    steps = []
    for step in tuple(chain.steps):
        if type(step) is not Step:
            raise ProofError(f"not a valid step: {step!r}")
        steps.append((step.op, as_expr(step.expr), step.why))
    return as_expr(chain.start), tuple(steps)


def check_chain(chain: Chain, ctx: Context, stack: tuple[str, ...] = (), snap=None) -> list[StepResult]:
    """Check every step of ``chain`` in ``ctx`` extended by the chain's own variables."""
    try:
        start, steps = snap if snap is not None else snapshot(chain)
    except ProofError as exc:
        return [StepResult("failed", "chain", str(exc))]
    variables = dict(chain.variables)
    stale = [str(v) for v in variables
             if v in ctx.domains or any(v in _fact_free_symbols(f) for f in ctx.facts)]
    try:
        if stale:
            raise ProofError(f"chain variable(s) {stale} already have a meaning in this scope (declared, or named "
                             f"by a hypothesis): a chain may only introduce fresh variables")
        inner = ctx.extended(variables)
    except ProofError as exc:
        return [StepResult("failed", "scope", str(exc))] * max(1, len(steps))
    results: list[StepResult] = []
    lhs = start
    for op, expr, why in steps:
        stray = _undeclared((lhs, expr), inner)
        if op not in OPS:
            results.append(StepResult("failed", "chain", f"not a valid relation: {op!r}"))
        elif stray:  # sympy would read them with assumptions no domain was checked against
            results.append(StepResult("failed", "scope", f"the step names undeclared variables: {stray}"))
        else:
            results.append(check_step(why, lhs, op, expr, inner, chain, stack))
        lhs = expr
    return results


def _undeclared(exprs, ctx: Context) -> list[str]:
    """The free symbols of ``exprs`` that the scope does not declare and that are not plain reals: sympy reads a
    symbol with the assumptions it was made with (``Symbol("z", positive=True)``; a bare ``Symbol("w")`` is complex),
    which only a declaration checks against a domain.  A symbol made ``real=True`` and nothing more is an arbitrary
    real wherever it is undeclared; random-variable symbols and bound variables need no declaration."""
    return sorted({str(x) for e in exprs for x in as_expr(e).free_symbols
                   if isinstance(x, sp.Symbol) and not isinstance(x, BoundVar) and x not in ctx.domains
                   and not is_random_symbol(x) and x != sp.Symbol(x.name, real=True)})


def _chain_proves(chain: Chain, lhs: sp.Expr, op: str, rhs: sp.Expr, ctx: Context, stack,
                  binds: frozenset = frozenset()) -> list[StepResult]:
    """Check a sub-proof chain and that it proves ``lhs op rhs`` (its ends, its composed relation)."""
    try:
        snap = snapshot(chain)
    except ProofError as exc:
        return [StepResult("failed", "chain", str(exc))]
    start, steps = snap
    end = steps[-1][1] if steps else start
    results = check_chain(chain, ctx, stack, snap)
    if any(r.method == "scope" for r in results):
        return results
    inner = ctx.extended(chain.variables)
    for label, a, b in (("start", start, lhs), ("end", end, rhs)):
        d = equivalent(a, b, inner)
        if d.ok is not True:
            results.append(StepResult(_status(d), "chain", f"sub-proof {label} does not match: {d.detail}"))
    leaks = [v for v in chain.variables
             if v not in ctx.domains and v not in binds and (start.has(v) or end.has(v))]
    if leaks:
        results.append(StepResult("failed", "chain", f"chain variable(s) {leaks} left free at an end"))
    composed = compose_ops([o for o, _, _ in steps])
    if not implies_op(composed, op):
        results.append(StepResult("failed", "chain", f"sub-proof proves '{composed}', needed '{op}'"))
    return results


# -- the rules ----------------------------------------------------------------------------------------------

def _rule_identity(why: Algebra, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """algebra: lhs == rhs is an identity on the scope.  Establishes '='."""
    d = equivalent(lhs, rhs, ctx)
    return _Closed(_status(d), "=", d.detail, point=d.point)


def _rule_sign(why: Sign, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """sign: rhs - lhs >= 0 (> 0 for a strict step) by sympy's assumptions.  Establishes '<=' or '<'."""
    if op == "=":
        return _fail("a sign argument justifies <= or <, not =")
    strict = op == "<"
    ext = extended_agree(lhs, op, rhs, ctx)
    if ext.ok is not True:
        return _Closed("supported", None, ext.detail)
    d = prove_sign(rhs - lhs, ctx, strict=strict)
    return _Closed(_status(d), "<" if strict else "<=", d.detail, point=d.point)


def _rule_interval(why: IntervalBound, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """interval: rhs - lhs >= 0 (> 0) on a box that covers the whole domain, by Arb branch-and-bound."""
    from cdpsym.proof.branch_and_bound import certify_nonnegative

    if op == "=":
        return _fail("interval arithmetic justifies <= or <, not =")
    f = rhs - lhs
    if opaque_terms(f):
        return _Closed("supported", None, "interval arithmetic cannot evaluate opaque terms or integrals")
    box = {as_expr(s) if not isinstance(s, sp.Symbol) else s: (as_expr(lo), as_expr(hi))
           for s, (lo, hi) in dict(why.box).items()}
    for s, (lo, hi) in box.items():
        for e in (lo, hi):
            if not (e.is_number and e.is_finite and e.is_real):
                return _fail(f"box end {e} for {s} is not a finite real number")
    cover = _box_covers(f.free_symbols, box, ctx)
    if cover.ok is not True:
        return _Closed("supported" if cover.ok is None else "failed", None, cover.detail)
    res = certify_nonnegative(f, box, strict=(op == "<"), max_boxes=why.max_boxes)
    status = {True: "certified", False: "failed", None: "supported"}[res.ok]
    return _Closed(status, "<" if op == "<" else "<=", res.detail, rules=("interval",), point=res.point)


def _box_covers(syms, box, ctx: Context) -> Decision:
    """Every free symbol has a box that contains its whole declared domain (endpoints enclosed in Arb
    over the boxes of the symbols they name)."""
    closure, todo = set(), list(syms)
    while todo:  # a symbol named by another's domain needs a covering box too
        s0 = todo.pop()
        if s0 in closure:
            continue
        closure.add(s0)
        d0 = ctx.domains.get(s0)
        if d0 is not None:
            todo += list(d0.lo.free_symbols | d0.hi.free_symbols)
    arb = ArbContext(128)
    with arb:
        balls = {s: arb.ball(lo, hi) for s, (lo, hi) in box.items()}
        for s in sorted(closure, key=str):
            dom = ctx.domains.get(s)
            if dom is None:
                return Decision(None, f"{s} has no declared domain: an interval proof needs one")
            if s not in box:
                return Decision(None, f"no box given for {s}")
            if dom.lo is sp.S.NegativeInfinity or dom.hi is sp.S.Infinity:
                return Decision(None, f"the domain of {s}, {dom.describe()}, is unbounded: a box cannot cover it "
                                      f"(reparametrize it onto a bounded one in the chain, or restrict the statement)")
            lo, hi = box[s]
            try:
                dlo = evaluate(dom.lo, balls, arb)
                dhi = evaluate(dom.hi, balls, arb)
            except (NotEvaluable, ZeroDivisionError, ValueError) as exc:
                return Decision(None, f"cannot enclose the domain of {s}: {exc}")
            if not (dlo >= arb.number(lo) and dhi <= arb.number(hi)):
                return Decision(None, f"the box [{lo}, {hi}] for {s} does not cover its domain {dom.describe()}")
    return Decision(True, "the box covers the domain")


def _rule_numeric(why: Numeric, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """numeric: evidence only, never a proof."""
    if opaque_terms(lhs) or opaque_terms(rhs):
        # an opaque term (an expectation, a divergence) is sampled as a free value, and such a sample never
        # refutes: the step can only be "supported" -- its evidence is the part's ground truth
        return _Closed("supported", None, "names random quantities: evidence is the ground truth, not a sample")
    if op == "=":
        d = equivalent(lhs, rhs, ctx, samples=why.samples)
    else:
        d = prove_sign(rhs - lhs, ctx, strict=(op == "<"), samples=why.samples)
    if d.ok is False:
        return _fail(d.detail, d.point)
    return _Closed("supported", None, f"holds at {why.samples} sample points (evidence, not proof)")


def _rule_specialize(why: Specialize, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """specialize: the chain so far holds for every value of a chain variable; take one value in its
    domain.  The step is ``lhs[var := value] = rhs``.  Establishes '='."""
    var = why.var
    if var not in dict(chain.variables) or var not in ctx.domains:
        return _fail(f"{var} is not a variable of this chain")
    try:
        start, _ = snapshot(chain)
    except ProofError as exc:
        return _fail(str(exc))
    if start.has(var):
        return _fail(f"the chain starts with {var}: it cannot be fixed")
    value = as_expr(why.value)
    if value.has(var):
        return _fail(f"the value {value} mentions {var}")
    if not is_random_symbol(var) and not deterministic(value):
        return _fail(f"{var} stands for a number; the value {value} is a random quantity")
    outer = Context({s: d for s, d in ctx.domains.items() if s != var},
                    tuple(f for f in ctx.facts if var not in _fact_free_symbols(f)))
    if any(var in (d.lo.free_symbols | d.hi.free_symbols) for d in outer.domains.values()):
        return _fail(f"another domain depends on {var}: it cannot be fixed")
    fin = finite_value(value, outer)  # a variable ranges over (finite) reals: E[Y] may be +oo (eleventh review)
    if fin.ok is not True:
        return _Closed("supported", None, f"{var}={value} is not shown a finite real; {var} ranges over real "
                                          f"numbers ({fin.detail})")
    dom = ctx.domains[var]  # the domain the chain's steps were checked with
    dis = _in_domain(value, dom, outer)
    if dis.ok is False:
        return _fail(f"{var}={value} outside {dom.describe()}: {dis.detail}", dis.point)
    eqd = equivalent(subst(lhs, {var: value}), rhs, outer)
    statuses = [_status(dis), _status(eqd)]
    notes = [d.detail for d in (dis, eqd) if d.ok is not True]
    if why.minimizes is not None:
        g = as_expr(why.minimizes)
        d1 = equivalent(subst(sp.diff(g, var), {var: value}), sp.S.Zero, outer)
        d2 = prove_sign(sp.diff(g, var, 2), ctx, strict=True)
        sm = smooth(g, var, ctx)
        statuses += [_status(d1), _status(d2), _status(sm)]
        notes += [f"optimality: {d.detail}" for d in (d1, d2, sm) if d.ok is not True]
    if eqd.ok is False:
        return _fail(f"substitution does not give the next line: {eqd.detail}", eqd.point)
    return _Closed(weakest(statuses), "=", "; ".join(notes) or "value in domain; substitution checked",
                   shown=(subst(lhs, {var: value}), rhs))


def _function_record(rec) -> tuple[sp.Symbol, sp.Expr]:
    if not (isinstance(rec, tuple) and len(rec) == 2 and isinstance(rec[0], sp.Symbol)):
        raise ProofError("a function must be recorded as (symbol, expression)")
    return rec[0], as_expr(rec[1])


def _possibly_infinite(e: sp.Expr) -> bool:
    return any(isinstance(t, _BINDERS) or t.is_finite is not True for t in opaque_terms(e))


def _cancelled_infinite(sources: tuple, built: sp.Basic, ctx: Context) -> list:
    """Opaque terms of ``sources`` that may be infinite and are gone from ``built``: sympy cancelled them with
    finite arithmetic when it built the expression (``E[L] + 1 - E[L]`` is 1, but it is undefined where
    ``E[L] = +oo``), so no later extended-real check can see them."""
    before = set().union(*(opaque_terms(as_expr(x)) for x in sources))
    built = as_expr(built)
    return sorted((t for t in before if not built.has(t) and finite_value(t, ctx).ok is not True),
                  key=sp.default_sort_key)


def _rule_taylor(why: Taylor, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """taylor: g(h) <= g(0) + g'(0) h + M h^2/2 when g is smooth on the reals and g'' <= M there.
    Establishes '<='."""
    if op != "<=":
        return _fail(f"Taylor's bound justifies <=, not {op}")
    v, gv = _function_record(why.g)
    h, bound = as_expr(why.h), as_expr(why.bound)
    if bound.has(v) or h.has(v):
        return _fail("the bound and the point may not depend on the function's variable")
    for e in (h, bound, gv):
        reason = foreign(e)  # a complex point (h = i p) would turn cos² into cosh² (twelfth review)
        if reason:
            return _fail(f"Taylor's bound is for real functions at real points: {reason}")
    for e in (h, bound):
        fin = finite_value(e, ctx)  # real and defined in the scope: sqrt(q) is a real point only where q >= 0
        if fin.ok is not True:
            return _Closed("supported", None, f"{e} is not shown a finite real: Taylor's bound is for finite real "
                                              f"points ({fin.detail})")
    vctx = ctx.extended({v: Interval()})
    sm = smooth(gv, v, vctx)
    if sm.ok is not True:
        return _Closed("supported", None, f"g not shown smooth on the reals: {sm.detail}")
    g0 = subst(gv, {v: sp.S.Zero})
    d1 = subst(sp.diff(gv, v), {v: sp.S.Zero})
    d2 = sp.diff(gv, v, 2)
    dl = equivalent(lhs, subst(gv, {v: h}), ctx)
    dr = equivalent(rhs, g0 + d1 * h + bound * h ** 2 / 2, ctx)
    dm = prove_sign(bound - d2, vctx)
    for label, d in (("left side", dl), ("right side", dr), ("second-derivative bound", dm)):
        if d.ok is False:
            return _fail(f"{label}: {d.detail}", d.point)
    notes = [f"{lbl}: {d.detail}" for lbl, d in (("left", dl), ("right", dr), ("g''", dm)) if d.ok is None]
    return _Closed(weakest(_status(d) for d in (dl, dr, dm)), "<=",
                   "; ".join(notes) or f"g(0)={g0}, g'(0)={d1}, g'' <= {bound} proved", rules=("taylor",))


def _rule_monotone(why: Monotone, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """monotone: h = rhs - lhs at the lower end a of v's domain is >= 0 (> 0 for '<' on a closed end), h is
    continuous on [a, b) and smooth on (a, b), and h' >= 0 (> 0 for '<') on (a, b) by the sub-justification.
    Establishes '<=' or '<'."""
    if op == "=":
        return _fail("monotonicity justifies <= or <, not =")
    v = why.var
    dom = ctx.domains.get(v)
    if not isinstance(v, sp.Symbol) or dom is None:
        return _fail(f"{v} is not a declared variable")
    if dom.integer:
        return _fail(f"{v} ranges over integers: monotonicity is for a real variable")
    a = dom.lo
    if a.is_finite is not True or a.has(v):
        return _fail(f"the domain of {v}, {dom.describe()}, has no finite lower end")
    dependent = [str(s) for s, d in ctx.domains.items() if s != v and v in (d.lo.free_symbols | d.hi.free_symbols)]
    if dependent:
        return _fail(f"the domain(s) of {dependent} depend on {v}: moving {v} would leave them")
    h = rhs - lhs
    if opaque_terms(h):
        return _Closed("supported", None, "monotonicity needs closed forms (no opaque terms or integrals)")
    strict = op == "<"
    open_dom = Interval(a, dom.hi, True, dom.right_open)
    closed_dom = Interval(a, dom.hi, False, dom.right_open)
    others = {s: d for s, d in ctx.domains.items() if s != v}
    # closed forms only: local hypotheses (which hold at the given v, not along the path) are dropped
    inner = Context({**others, v: open_dom})
    w = sp.Dummy(f"{v}_closed", real=True)  # v's own assumptions may exclude the end a
    closed = Context({**others, w: closed_dom})
    if _empty(open_dom, inner) is not None:
        return _fail(f"the domain of {v} may be a single point")
    sm = smooth(h, v, inner)
    if sm.ok is not True:
        return _Closed("supported", None, f"h = rhs - lhs not shown smooth on the open domain: {sm.detail}")
    ct = smooth(subst(h, {v: w}), w, closed, continuous_only=True)
    if ct.ok is not True:
        return _Closed("supported", None, f"h not shown continuous at {v} = {a}: {ct.detail}")
    rest = Context(dict(others))
    h_a = subst(h, {v: a})
    wd = well_defined(h_a, rest)
    if wd.ok is not True:
        return _Closed("failed" if wd.ok is False else "supported", None, f"h at {v} = {a}: {wd.detail}")
    at_end = prove_sign(h_a, rest, strict=strict and not dom.left_open)
    if at_end.ok is not True:
        return _Closed(_status(at_end) if at_end.ok is False else "supported", None,
                       f"h({v} = {a}) = {h_a} not shown {'>' if strict and not dom.left_open else '>='} 0: "
                       f"{at_end.detail}", point=at_end.point)
    dh = sp.diff(h, v)
    sub = why.derivative if why.derivative is not None else Sign("h' >= 0")
    res = check_step(sub, sp.S.Zero, "<" if strict else "<=", dh, inner, Chain(sp.S.Zero), stack)
    if res.status not in ("proved", "certified"):
        return _Closed("failed" if res.status == "failed" else "supported", None,
                       f"derivative d/d{v} (rhs - lhs) = {dh} not shown {'>' if strict else '>='} 0: {res.detail}",
                       res.axioms, point=res.point)
    return _Closed(res.status, "<" if strict else "<=",
                   f"h({v}={a}) = {h_a} >= 0 and h' >= 0 on {open_dom.describe()} ({res.method})",
                   res.axioms, tuple(sorted({"monotone"} | set(res.rules))))


def _rule_limit(why: LimitAtEnd, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """limit: the chain so far holds for every value of a chain variable v in its domain, with no strict
    step (a strict bound for every v gives only '<=' at the end); ``lhs = f(v)`` is continuous up to the
    chosen end a of the domain, and ``rhs = f(a)``.  Establishes '<='."""
    var, end = why.var, why.end
    if end not in ("lo", "hi"):
        return _fail(f"the end must be 'lo' or 'hi', not {end!r}")
    if not isinstance(var, sp.Symbol) or var not in dict(chain.variables) or var not in ctx.domains:
        return _fail(f"{var} is not a variable of this chain")
    if is_random_symbol(var):
        return _fail(f"{var} is a random variable: a limit is taken in a number")
    try:
        start, steps = snapshot(chain)
    except ProofError as exc:
        return _fail(str(exc))
    if start.has(var):
        return _fail(f"the chain starts with {var}: the bound is not uniform in {var}")
    mine = [n for n, (_, _, w) in enumerate(steps) if w is why]
    if len(mine) != 1:
        return _fail("this limit record must be used for exactly one step of its chain")
    before = [o for o, _, _ in steps[:mine[0]]]
    if "<" in before:
        return _fail("a strict step precedes the limit: '<' for every v gives only '<=' at the end (claim '<=')")
    dom = ctx.domains[var]  # the domain the chain's steps were checked with (read once, by check_chain)
    if dom.integer:
        return _fail(f"{var} ranges over integers: a limit needs a real variable")
    a = dom.lo if end == "lo" else dom.hi
    if a.is_finite is not True or a.has(var) or a.free_symbols & set(dict(chain.variables)) or not deterministic(a):
        return _fail(f"the {end} end of {var}'s domain, {dom.describe()}, is not a finite expression in the "
                     f"outer variables")
    others = {s: d for s, d in ctx.domains.items() if s != var}
    if any(var in (d.lo.free_symbols | d.hi.free_symbols) for d in others.values()):
        return _fail(f"another domain depends on {var}")
    outer = Context(dict(others), tuple(f for f in ctx.facts if var not in _fact_free_symbols(f)))
    if _empty(dom, Context(dict(others))) is not None:
        return _fail(f"the domain of {var} may be empty or a single point")
    if rhs.has(var):
        return _fail(f"the limit {rhs} still mentions {var}")
    if opaque_terms(lhs):
        return _Closed("supported", None, "a limit needs a closed form f(v) (no opaque terms)")
    w = sp.Dummy(f"{var}_end", real=True)  # var's own assumptions may exclude the end
    closed_dom = (Interval(a, dom.hi, False, dom.right_open) if end == "lo"
                  else Interval(dom.lo, a, dom.left_open, False))
    ct = smooth(subst(lhs, {var: w}), w, Context({**others, w: closed_dom}), continuous_only=True)
    if ct.ok is not True:
        return _Closed("supported", None, f"{lhs} not shown continuous at {var} = {a}: {ct.detail}")
    eqd = equivalent(subst(lhs, {var: a}), rhs, outer)
    if eqd.ok is not True:
        return _Closed(_status(eqd), None, f"f({var} = {a}) is not the next line: {eqd.detail}", point=eqd.point)
    return _Closed("proved", "<=", f"{var} -> {a}: f continuous on {closed_dom.describe()}", rules=("limit",),
                   shown=(rhs, rhs))


def _rule_split(why: Split, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """split: cases v <= at and v >= at of a real variable v, each closed by its own justification in the
    scope where v's domain is cut at ``at`` (a number strictly inside it).  Establishes the weaker of the
    two cases' relations (both must imply the step's)."""
    v, at = why.var, as_expr(why.at)
    dom = ctx.domains.get(v)
    if not isinstance(v, sp.Symbol) or dom is None:
        return _fail(f"{v} is not a declared variable")
    if is_random_symbol(v):
        # "v <= at everywhere" and "v >= at everywhere" do not cover a random v that takes both sides
        return _fail(f"{v} is a random variable: split cases on a number")
    if dom.integer:
        return _fail(f"{v} ranges over integers: split a real variable")
    if not (at.is_number and at.is_finite and at.is_real) or at.free_symbols:
        return _fail(f"the cut {at} must be a finite real number")
    inside = []
    for end, want in ((dom.lo, "lo"), (dom.hi, "hi")):
        if end.free_symbols:
            return _fail(f"the domain of {v}, {dom.describe()}, has symbolic ends: split needs numeric ones")
        if end.is_finite:
            inside.append(bool(at > end) if want == "lo" else bool(at < end))
    if not all(inside):
        return _fail(f"the cut {at} is not strictly inside {dom.describe()}")
    dependent = [str(s) for s, d in ctx.domains.items() if s != v and v in (d.lo.free_symbols | d.hi.free_symbols)]
    if dependent:
        return _fail(f"the domain(s) of {dependent} depend on {v}")
    others = {s: d for s, d in ctx.domains.items() if s != v}
    low = Interval(dom.lo, at, dom.left_open, False)
    high = Interval(at, dom.hi, False, dom.right_open)
    results = []
    for part, sub in ((low, why.below), (high, why.above)):
        sub_ctx = Context({**others, v: part}, ctx.facts)
        results.append(check_step(sub, lhs, op, rhs, sub_ctx, Chain(lhs), stack))
    bad = [r for r in results if r.status not in ("proved", "certified")]
    if bad:
        return _Closed("failed" if any(r.status == "failed" for r in bad) else "supported", None,
                       "; ".join(f"case {n}: {r.detail}" for n, r in zip(("below", "above"), results)
                                 if r.status not in ("proved", "certified")),
                       tuple(sorted({a for r in results for a in r.axioms})), point=bad[0].point)
    return _Closed(weakest(r.status for r in results), op, f"cases {v} <= {at} ({results[0].method}) and "
                   f"{v} >= {at} ({results[1].method})", tuple(sorted({a for r in results for a in r.axioms})),
                   tuple(sorted({x for r in results for x in r.rules})))


def _rule_induction(why: Induction, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """induction on an integer variable ranging over {1, 2, ...}, or over the integers of [1, hi) or [1, hi] for an
    end ``hi`` free of it: base case at 1 and the step from k to k+1 with the statement at k in scope as ``ih``
    (in the bounded case the step's k ranges over the integers of [1, hi - 1), so that k + 1 is in the domain).
    Establishes the claimed relation."""
    var = why.var
    dom = ctx.domains.get(var)
    if dom is None:
        return _fail(f"{var} is not a variable of the scope")
    unbounded = domain_key(dom) == (sp.S.One, sp.S.Infinity, False, True, True)
    bounded = (dom.integer is True and dom.lo == sp.S.One and dom.left_open is False
               and dom.hi is not sp.S.Infinity and var not in dom.hi.free_symbols)
    if not (unbounded or bounded):
        return _fail(f"{var} must be declared as the integers >= 1 (naturals()), or as the integers of [1, hi) or "
                     f"[1, hi]")
    dependent = [str(s) for s, d in ctx.domains.items() if var in (d.lo.free_symbols | d.hi.free_symbols)]
    if dependent:
        return _fail(f"the domain(s) of {dependent} depend on {var}: induction on {var} would keep them fixed")
    # hypotheses that say something about `var` hold for *the* var of the statement, not for every smaller
    # index: out of scope in both cases
    base_ctx = ctx.with_facts(tuple(f for f in ctx.facts if var not in _fact_free_symbols(f)))
    step_base = base_ctx
    if bounded:  # the step from k to k + 1 only where k + 1 is in the domain: k in [1, hi - 1) (or [1, hi - 1])
        inner = Interval(sp.S.One, dom.hi - 1, False, dom.right_open, True)
        try:
            step_base = Context({v: (inner if v == var else d) for v, d in base_ctx.domains.items()}, base_ctx.facts)
        except ProofError as exc:
            return _fail(f"the inductive step's range of {var}, {inner.describe()}, cannot be declared: {exc}")
    results = []
    one, nxt = {var: sp.S.One}, {var: var + 1}
    if isinstance(why.base, Chain):
        results += _chain_proves(why.base, subst(lhs, one), op, subst(rhs, one), base_ctx, stack)
    else:
        results.append(check_step(why.base, subst(lhs, one), op, subst(rhs, one), base_ctx, Chain(subst(lhs, one)),
                                  stack))
    if not isinstance(why.step, Chain):
        return _fail("the inductive step must be a Chain")
    ih = Hypothesis(name="ih", title="induction hypothesis", relation=Rel(lhs, op, rhs))
    step_ctx = step_base.with_facts(step_base.facts + (ih,))
    results += _chain_proves(why.step, subst(lhs, nxt), op, subst(rhs, nxt), step_ctx, stack)
    bad = [r for r in results if r.status == "failed"]
    if bad:
        return _fail("; ".join(r.detail for r in bad), bad[0].point)
    axioms = tuple(sorted({a for r in results for a in r.axioms}))
    rules = tuple(sorted({"induction"} | {x for r in results for x in r.rules}))
    notes = [r.detail for r in results if r.status != "proved"]
    return _Closed(weakest(r.status for r in results), op,
                   "; ".join(notes) or f"base case and inductive step checked ({len(results)} sub-steps)",
                   axioms, rules)


# -- citing facts -------------------------------------------------------------------------------------------

def _not_pointwise(fact: object, v: sp.Symbol) -> str:
    """'' when ``fact`` is a *pointwise* statement about numbers, so that its number variable ``v`` may be
    instantiated with a random quantity: a statement "for all reals v in D: A(v) op B(v)" then holds at every
    outcome at which the quantity lies in D, which is what a relation between random quantities states.  That
    needs the statement (relation, conditions, domains) to name no expectation, probability, divergence, sum,
    integral, sequence or random quantity -- there ``v`` would be a constant pulled out of an average (``E[vX] =
    vE[X]``) -- a cited part to come from a theorem without hypotheses (its hypotheses may speak of ``v``), and
    ``v`` to range over reals (a random quantity is not shown an integer).  Otherwise the reason."""
    parts = [fact.relation.lhs, fact.relation.rhs] + [x for c in fact.conditions for x in (c.lhs, c.rhs)]
    parts += [x for d in fact.variables.values() for x in (d.lo, d.hi)]
    for x in map(as_expr, parts):
        if opaque_terms(x) or foreign(x) or not deterministic(x) or any(map(is_random_symbol, x.free_symbols)):
            return f"{fact.name} is not pointwise: {x} names an average, a sequence or a random quantity"
    theorem = getattr(fact, "theorem", None) if type(fact).__name__ == "Part" else None
    if theorem is not None and theorem.hypotheses:
        return f"{fact.name} rests on the hypotheses of {theorem.name}"
    if fact.variables[v].integer:
        return f"{v} ranges over integers"
    return ""


def _rule_instance(why: By, lhs, op, rhs, ctx, chain, stack) -> _Closed:
    """by: an instance of a trusted axiom, a hypothesis in scope, or a checked theorem part -- every
    variable's value in its domain, every condition and every hypothesis of a cited theorem discharged;
    the step is the instance (establishes the fact's relation), an equation rewritten inside ``lhs``
    (establishes '='), or the instance inside a context F (``F(A) op F(B)``: '=' for any F, '<=' for F
    non-decreasing, '<' for F strictly increasing and a strict fact)."""
    fact = why.fact
    statuses: list[str] = []
    notes: list[str] = []
    axioms: set[str] = set()
    rules: set[str] = set()
    standing = _standing(fact, ctx, stack)
    if standing.status == "failed":
        return standing
    captured = set().union(*(_AXIOM_GLOBALS.get(a, frozenset()) for a in standing.axioms)) & set(ctx.domains)
    if captured:  # the trusted base's own Z (the standard normal) is not a variable of this scope of the same name
        return _fail(f"{fact.name} rests on axioms about {sorted(map(str, captured))} (a fixed random variable of the "
                     f"trusted base), which this scope declares as a variable: rename the variable")
    at_member = why.at_step is not None or why.at_link is not None
    if why.over_chains not in (True, False):
        return _fail(f"over_chains must be True or False, not {why.over_chains!r}")
    over_chains = why.over_chains is True
    # a fact read at a member of the class (at_step/at_link) or over every chain (over_chains), or a theorem that
    # did so, holds for every pair of a class only: what it rests on must hold for every pair too -- the scope
    # without the conditions a `given` discharge assumes of the canonical pair alone -- and its numbers must be
    # constants of the class
    by_class = at_member or over_chains or bool({"member", "supremum"} & set(standing.rules))
    if by_class:
        ctx = _class_scope(ctx)
        if type(fact) is Hypothesis and not _in_scope(fact, ctx):
            return _fail(f"'{fact.name}' holds for the canonical pair under a local condition, not for every pair "
                         f"of the class: it cannot be read at a member")
    statuses.append(standing.status)
    axioms.update(standing.axioms)
    rules.update(standing.rules)
    if standing.detail:
        notes.append(standing.detail)
    by_name = {str(v): v for v in fact.variables}
    pair_vars = [str(v) for v in fact.variables if v in (_L, _R, _ops.P, _ops.Q)]
    if pair_vars:
        return _fail(f"{fact.name} declares the canonical pair's {pair_vars} as variables: the pair is not a variable")
    unknown = set(why.inst) - set(by_name)
    if unknown:
        return _fail(f"{fact.name} has no variable(s) {sorted(unknown)}; it has {sorted(by_name)}")
    mapping = {by_name[n]: as_expr(v) for n, v in why.inst.items()}
    full = {v: mapping.get(v, v) for v in fact.variables}
    for name, forbidden in dict(getattr(fact, "free_of", {}) or {}).items():
        value = full.get(by_name.get(name), sp.S.Zero)
        bad = [str(s) for s in forbidden if value.has(s)]
        if bad or opaque_terms(value):
            return _fail(f"{fact.name}: {name} = {value} must be free of {sorted(map(str, forbidden))} and of "
                         f"opaque operators")
    for v, value in mapping.items():
        if by_class and not at_member and _names_pair(value):
            return _fail(f"{fact.name} holds for classes of pairs (it reads its hypotheses at a member of the class): "
                         f"{v} = {value} names the canonical pair, which is not a constant of the class")
        if not is_random_symbol(v) and not deterministic(value):
            impure = _not_pointwise(fact, v) or (
                "it is read at a member of a class" if by_class else "")
            if impure:
                return _fail(f"{fact.name}: {v} = {value} is a random quantity, but {v} stands for a number (only "
                             f"random-variable symbols such as L, X, Z may be instantiated with random quantities, "
                             f"or a number variable of a pointwise fact; here {impure})")
        fin = finite_value(value, ctx)  # a number, and a real random variable at every outcome, is finite
        if fin.ok is not True:
            return _Closed("supported", None, f"{fact.name}: {v} = {value} is not shown a finite real; {v} ranges "
                                              f"over real {'random variables' if is_random_symbol(v) else 'numbers'}"
                                              f" ({fin.detail})")
    rel = _subst_rel(fact.relation, full)
    # the fact's variables lie in their domains, its conditions hold
    for v, dom in fact.variables.items():
        d, st, axs, rl = _discharge_value(full[v], _subst_dom(dom, full), why.given.get(str(v)), ctx, stack)
        axioms.update(axs); rules.update(rl); statuses.append(st)
        if d.ok is False:
            return _Closed("failed", None, f"hypothesis not met — {v}: {d.detail}", tuple(sorted(axioms)),
                           point=d.point)
        if st != "proved":
            notes.append(f"{v}: {d.detail} ({st})")
    for cond in fact.conditions:
        need = Quantified({}, (), _subst_rel(cond, full))
        label = f"condition {cond.plain()}"
        d, st, axs, rl = _discharge(need, why.given.get(label), ctx, stack)
        axioms.update(axs); rules.update(rl); statuses.append(st)
        if d.ok is False:
            return _Closed("failed", None, f"{label} not met: {d.detail}", tuple(sorted(axioms)), point=d.point)
        if st != "proved":
            notes.append(f"{label}: {d.detail} ({st})")
    theorem = getattr(fact, "theorem", None) if type(fact).__name__ == "Part" else None
    if theorem is not None:
        for hyp in theorem.hypotheses:
            need = instantiate_bound(hyp, full)
            d, st, axs, rl = _discharge(need, why.given.get(hyp.name), ctx, stack, opaque_strict=True)
            axioms.update(axs); rules.update(rl); statuses.append(st)
            if d.ok is False:
                return _Closed("failed", None, f"hypothesis '{hyp.name}' of {theorem.name} not met: {d.detail}",
                               tuple(sorted(axioms)), point=d.point)
            if st != "proved":
                notes.append(f"hypothesis '{hyp.name}': {d.detail} ({st})")
    if why.flip and why.at_step is None:
        return _fail("flip=True reverses an equation only for at_step= (the class-member rule)")
    if why.at_step is not None and why.at_link is not None:
        return _fail("at_step and at_link name two different members: give one")
    if over_chains and at_member:
        return _fail("over_chains bounds a supremum over every chain; at_step/at_link read one member: give one")
    if why.at_step is not None or why.at_link is not None:
        lifted = _at_member(rel, why, ctx)
        if isinstance(lifted, _Closed):
            return _Closed(lifted.status, None, lifted.detail, tuple(sorted(axioms)), point=lifted.point)
        rel = lifted
        rules.add("member")
    if over_chains:
        lifted = _over_chains(rel, fact, ctx)
        if isinstance(lifted, _Closed):
            return _Closed(lifted.status, None, lifted.detail, tuple(sorted(axioms)), point=lifted.point)
        rel = lifted
        rules.add("supremum")
    match, establishes = _match(why, lhs, rhs, rel, ctx)
    statuses.append(_status(match))
    if match.ok is False:
        return _Closed("failed", None, f"the step is not an instance of {fact.name}: {match.detail}",
                       tuple(sorted(axioms)), point=match.point)
    if match.ok is None:
        notes.append(match.detail)
    return _Closed(weakest(statuses), establishes, "; ".join(notes) or "instance checked, hypotheses discharged",
                   tuple(sorted(axioms)), tuple(sorted(rules)))


_PAIR_LOCAL = "condition "  # the prefix of the conditions a `given` discharge assumes (`_discharge`)


def _class_scope(ctx: Context) -> Context:
    """The scope without the facts that hold of the canonical pair alone: the conditions a ``given`` discharge of a
    quantified need assumes (``E[L] <= v`` for the v at hand).  The theorem's hypotheses, the induction hypothesis
    and the cases of a split hold for every pair of the class."""
    local = any(f.name.startswith(_PAIR_LOCAL) for f in ctx.facts)
    # an induction hypothesis proved where such a condition is in scope may rest on it: it goes too
    return ctx.with_facts(tuple(f for f in ctx.facts
                                if not f.name.startswith(_PAIR_LOCAL) and not (local and f.name == "ih")))


#: the objects of a pair of class i: its loss L^{(i)}, its likelihood ratio R^{(i)}, its distributions P_i, Q_i
_CLASS_OBJECTS = (_ops.ClassLoss, _ops.ClassRatio, _ops.ClassP, _ops.ClassQ)


def _names_pair(e: sp.Basic) -> bool:
    """Does ``e`` name the canonical pair (its loss, its distributions) or a pair of a class ``L^{(i)}``?"""
    return bool(as_expr(e).has(_L, _R, _ops.P, _ops.Q, *_CLASS_OBJECTS))


def _class_tokens(f: "Fact") -> set:
    """The classes of pairs a fact speaks of, in its relation, its conditions and its variables' domains: the
    canonical class (its loss ``L`` or its distributions ``P``, ``Q``, also inside a divergence) and the classes
    ``L^{(i)}`` of the steps."""
    parts = [f.relation.lhs, f.relation.rhs]
    parts += [x for c in f.conditions for x in (c.lhs, c.rhs)]
    parts += [x for d in f.variables.values() for x in (d.lo, d.hi)]
    parts = [as_expr(x) for x in parts]
    return {("pair",) for x in parts if x.has(_L, _R, _ops.P, _ops.Q)} | {
        ("class", sp.expand(n.args[0])) for x in parts for n in x.atoms(*_CLASS_OBJECTS)}


def _class_tie(ctx: Context) -> str:
    """The facts (and domains) of the scope when, together, they speak of more than one class of pairs ('' when
    they speak of one at most).  Facts about two classes can tie them through any shared term -- a symbol, a
    number, a game object (``E[L] <= 5`` and ``5 <= E[L^{(7)}] - 1``) -- so the scope as a whole is read."""
    named: list = []
    tokens: set = set()
    for f in ctx.facts:
        t = _class_tokens(f)
        if t:
            named.append(f"'{f.name}'")
            tokens |= t
    for sym, dom in ctx.domains.items():
        ends = [as_expr(dom.lo), as_expr(dom.hi)]
        t = {("pair",) for x in ends if x.has(_L, _R, _ops.P, _ops.Q)} | {
            ("class", sp.expand(n.args[0])) for x in ends for n in x.atoms(*_CLASS_OBJECTS)}
        if t:
            named.append(f"the domain of {sym}")
            tokens |= t
    return ", ".join(named) if len(tokens) > 1 else ""


def _names_chain(e: sp.Basic) -> str:
    """The first node of ``e`` that speaks of a chain of inputs or of a random sequence ('' when none): a link's
    or the group's loss (``ell_j``, ``G_k``), an output law ``M(x_j)``, an expectation under one, the composition
    game's objects (``C_i``, ``E[. | F_i]``), any other random sequence, or a pair of a class ``L^{(i)}``."""
    for node in sp.preorder_traversal(as_expr(e)):
        if isinstance(node, (_ops.ExpectAt, _ops.CondExpect)):
            return str(node)
        if isinstance(node, AppliedUndef) and not is_sequence(node.func):
            return str(node)
    return ""


def _over_chains(rel: Rel, fact: "Fact", ctx: Context) -> "Rel | _Closed":
    """The supremum rule: ``E[G_m] op c`` (op one of =, <=, <) about the scope's chain of inputs -- which, like the
    canonical pair, stands for *every* chain whose consecutive pairs are pairs of the class -- bounds the
    supremum over all of them: ``KLDiameter(m) <= c``.

    Why: ``E[G_m] = E_{M(x_0)}[log m_0/m_m] = D_KL(M(x_0)||M(x_m))`` (the group loss, at an output of ``M(x_0)``),
    and any two inputs of m entries are the ends of a chain of m links each changing at most one entry (the
    Hamming path; a repeated input is a neighbour of itself), so every pair of the supremum is the pair of ends of
    some chain of the class.  Sound only if nothing in the scope singles out a chain: no fact and no domain may
    name a chain object (``ell_j``, ``G_k``, ``M(x_j)``, ``E_{M(x_j)}``) or another random sequence, and ``c``
    must be a constant of the class (a finite number naming no pair, no chain, no random or opaque term)."""
    tie = _class_tie(ctx)
    if tie:
        return _fail(f"over_chains: {tie} ties two classes of pairs together (docs/kernel.md, the supremum rule)")
    for f in ctx.facts:
        terms = [f.relation.lhs, f.relation.rhs] + [x for c in f.conditions for x in (c.lhs, c.rhs)]
        terms += [x for d in f.variables.values() for x in (d.lo, d.hi)]
        named = next((t for t in map(_names_chain, terms) if t), "")
        if named:
            return _fail(f"over_chains: the scope's fact '{f.name}' names {named}: a chain of the scope singled out "
                         f"by it is not every chain of the class")
    for sym, dom in ctx.domains.items():
        named = _names_chain(dom.lo) or _names_chain(dom.hi)
        if named:
            return _fail(f"over_chains: the domain of {sym} names {named}: the chain is singled out")
    lhs = rel.lhs
    if rel.op not in ("=", "<=", "<") or type(lhs) is not _ops.Expect or type(lhs.args[0]) is not _ops.GroupLoss:
        return _fail(f"over_chains reads a bound E[G_m] <= c on the group loss's mean; {fact.name} gives {rel.plain()}")
    m, c = lhs.args[0].args[0], rel.rhs
    if not deterministic(m) or opaque_terms(m) or foreign(m) or _names_chain(m):
        return _fail(f"over_chains: the chain length {m} must be a number (no random quantity, no opaque term)")
    from cdpsym.expr.domains import naturals

    d = _in_domain(m, naturals(), ctx)
    if d.ok is not True:
        return _fail(f"over_chains: the chain length {m} is not shown to be an integer >= 1 ({d.detail})")
    if not deterministic(c) or opaque_terms(c) or foreign(c) or _names_pair(c) or _names_chain(c) \
            or any(is_random_symbol(x) for x in c.free_symbols):
        return _fail(f"over_chains: the bound {c} must be a constant of the class (a number naming no pair, chain, "
                     f"random or opaque term)")
    fin = finite_value(c, ctx)
    if fin.ok is not True:
        return _fail(f"over_chains: the bound {c} is not shown a finite real ({fin.detail})")
    return Rel(_ops.KLDiameter(m), "<=", c)


#: what a fact about the class of pairs may contain to be read at a member: numbers, the pair's loss L, and
#: expectations, probabilities and indicators built from them (the pair's law); at a link of a chain of inputs
#: also the pair's divergences (the link is a fixed pair, so they are numbers there too)
_MEMBER_OPAQUE = {"step": (_ops.Expect, _ops.Prob, _ops.Indicator),
                  "link": (_ops.Expect, _ops.Prob, _ops.Indicator, _ops.HockeyStick, _ops.KL, _ops.Renyi)}


def _at_member(rel: Rel, why: By, ctx: Context) -> "Rel | _Closed":
    """The class-member rule: a fact ``A op B`` about the canonical pair -- which, in a scope, stands for
    *every* pair of the class its hypotheses describe -- read at a member of the class.

    * ``at_step=i``: the pair of step ``i`` of the adaptive composition game.  By the game's definition (DRV10;
      DR16 §3.1), given any prefix the adversary's pair of step ``i`` is a pair of the class and ``C_i`` is its
      privacy loss and ``R_i`` its likelihood ratio; so, for every prefix, ``T(A) <= T(B)`` with ``T`` mapping
      ``L`` (and a class-``i`` loss ``L^{(i)}``) to ``C_i``, ``R`` (and ``R^{(i)}``) to ``R_i``, ``E[Y]`` to
      ``E[T(Y) | F_{i-1}]`` and ``Pr[A]`` to ``E[1[T(A)] | F_{i-1}]``: the rule establishes
      ``Pr[T(A) > T(B)] <= 0`` (``flip=True``: an equation read as ``B <= A``).
    * ``at_link=j``: the link ``(x_{j-1}, x_j)`` of a chain of inputs whose consecutive pairs are pairs of the
      class (group privacy): ``T`` maps ``L`` to ``ell_j``, ``P``/``Q`` to ``M(x_{j-1})``/``M(x_j)``, ``E[Y]`` to
      ``E_{M(x_{j-1})}[T(Y)]`` and ``Pr[A]`` to ``E_{M(x_{j-1})}[1[T(A)]]``; the rule establishes ``T(A) op T(B)``.

    The fact may contain numbers, ``L`` (at a step also ``R``; at a link ``P``, ``Q`` inside divergences) and the
    operators above only: another random quantity (``X``, ``Z``, a game object ``C_j``) has no meaning at the
    member, or a different one."""
    mode, i = ("step", why.at_step) if why.at_step is not None else ("link", why.at_link)
    name = "at_" + mode
    tie = _class_tie(ctx)  # classes are independent only if nothing in scope ties two of them together
    if tie:
        return _fail(f"{name}: {tie} ties two classes of pairs together: the rule reads one class at a time "
                     f"(docs/kernel.md, the class-member rule)")
    if not deterministic(i) or opaque_terms(i) or foreign(i):
        return _fail(f"{name}: the {mode} {i} must be a number (no random quantity, no opaque term)")
    from cdpsym.expr.domains import naturals

    d = _in_domain(i, naturals(), ctx)
    if d.ok is not True:
        return _fail(f"{name}: the {mode} {i} is not shown to be an integer >= 1 ({d.detail})")
    if why.flip and (mode != "step" or rel.op != "="):
        return _fail(f"flip=True reverses an equation read at a step; {why.fact.name} states {rel.op}")
    a, b = (rel.rhs, rel.lhs) if why.flip else (rel.lhs, rel.rhs)
    pair = {_L} | ({_ops.P, _ops.Q} if mode == "link" else {_R})
    bound: set = set()
    classes: set = set()  # the losses L^{(i)} of a pair of the class of step i (heterogeneous classes)
    for side in (a, b):
        for node in sp.preorder_traversal(side):
            if isinstance(node, (sp.Integral, sp.Sum, sp.Product)):
                bound |= set(node.variables)
            if isinstance(node, _ops.Opaque):
                if type(node) not in _MEMBER_OPAQUE[mode]:
                    return _fail(f"{name}: {node} is not a statement about the pair (only numbers, L, E[...], "
                                 f"Pr[...], indicators{' and divergences' if mode == 'link' else ''} can be read at "
                                 f"a member of the class)")
            elif isinstance(node, AppliedUndef) and is_sequence(node.func):
                continue  # a term of a sequence of numbers (rho_i): a number at every member
            elif type(node) in (_ops.ClassLoss, _ops.ClassRatio) and mode == "step":
                if sp.expand(node.args[0] - i) != 0:
                    return _fail(f"{name}: {node} speaks of a pair of class {node.args[0]}, not of the class of "
                                 f"step {i}")
                classes.add(node)
            elif isinstance(node, AppliedUndef):
                return _fail(f"{name}: {node} is not the pair's (a random sequence has no meaning at the member)")
            elif isinstance(node, sp.Symbol) and is_random_symbol(node) and node not in pair:
                return _fail(f"{name}: {node} is a random quantity other than the pair's (its joint law with the "
                             f"member's loss is not the pair's)")
    if classes and any(side.has(_L, _R) for side in (a, b)):
        return _fail(f"{name}: {why.fact.name} speaks of two pairs (L of the class and {sorted(map(str, classes))} of "
                     f"the class of step {i}): their joint law is not a member's")
    if bound & i.free_symbols:
        return _fail(f"{name}: the {mode} {i} names a variable bound in {why.fact.name}")
    if bound & ({_L} | pair):
        return _fail(f"{name}: {why.fact.name} binds the pair's {sorted(map(str, bound & ({_L} | pair)))}")
    if mode == "step":
        loss, mean = _ops.StepLoss(i), (lambda y: _ops.CondExpect(y, i))
        dists = {_R: _ops.StepRatio(i), **{c: _ops.StepRatio(i) for c in classes if type(c) is _ops.ClassRatio}}
    else:
        loss, mean = _ops.LinkLoss(i), (lambda y: _ops.ExpectAt(y, i - 1))
        dists = {_ops.P: _ops.Output(i - 1), _ops.Q: _ops.Output(i)}

    def t(e: sp.Basic) -> sp.Basic:
        if e == _L or (e in classes and type(e) is _ops.ClassLoss):
            return loss
        if e in dists:
            return dists[e]
        if type(e) is _ops.Expect:
            return mean(t(e.args[0]))
        if type(e) is _ops.Prob:
            return mean(_ops.Indicator(t(e.args[0])))
        if not e.args or isinstance(e, (sp.Symbol, sp.Number)):
            return e
        return e.func(*[t(x) for x in e.args])

    ta, tb = t(a), t(b)
    shared = [x for x in opaque_terms(ta) & opaque_terms(tb) if finite_value(x, ctx).ok is not True]
    if shared and mode == "step":  # the event T(A) > T(B) would be read as T(A) - T(B) > 0: undefined at oo
        return _fail(f"{name}: {', '.join(map(str, sorted(shared, key=sp.default_sort_key)))} may be infinite and "
                     f"occurs on both sides of {why.fact.name}: the event comparing them is not defined there")
    lost = _cancelled_infinite((ta, tb), ta - tb, ctx)
    if lost:
        return _fail(f"{name}: {', '.join(map(str, lost))} may be infinite and cancels between the sides of "
                     f"{why.fact.name}: the comparison is not defined there")
    if mode == "step":  # unevaluated: sympy would decide `T(A) > T(B)` with finite arithmetic
        return Rel(_ops.Prob(sp.StrictGreaterThan(ta, tb, evaluate=False)), "<=", sp.S.Zero)
    return Rel(ta, rel.op, tb)


def _standing(fact: object, ctx: Context, stack) -> _Closed:
    """May ``fact`` be cited here, and with what status?"""
    from cdpsym.proof.theorem import Part

    if type(fact) is Axiom:
        if not is_trusted(fact):
            return _Closed("supported", None, f"axiom {fact.name!r} is not in the registered trusted base "
                                              f"(cdpsym.proof.register_axioms)", (fact.name,))
        return _Closed("proved", None, "", (fact.name,))
    if type(fact) is Hypothesis:
        if not _in_scope(fact, ctx):
            return _fail(f"'{fact.name}' is not a hypothesis in scope here")
        return _Closed("proved")
    if type(fact) is Part:
        theorem = fact.theorem
        if theorem is None or not any(p is fact for p in theorem.parts):
            return _fail(f"{fact.name} is not a part of a theorem (a copy of a part cannot be cited)")
        partial = _IN_PROGRESS.get(id(theorem))
        if partial is not None:  # a part citing an earlier part of its own theorem
            entry = partial.get(id(fact))
            if entry is None:
                return _fail(f"{fact.name} is not proved before this point (circular)")
            done, checked_print = entry
            if checked_print != _fingerprint(theorem, fact):
                return _fail(f"{fact.name} changed after it was checked")
            return _Closed(done.status, None, "", done.axioms, done.rules)
        res = symbolic_check(theorem, stack)
        cert = next((c for c in res.certificates if c.part is fact), None)
        if cert is None or not genuine(cert):
            return _fail(f"{fact.name} has no valid certificate (was the theorem changed after it was checked?)")
        if cert.status == "failed":
            return _fail(f"{theorem.name} failed its check")
        note = "" if cert.status == "proved" else f"{theorem.name} is only {cert.status}"
        return _Closed(cert.status, None, note, cert.axioms, cert.rules)
    return _fail(f"{type(fact).__name__} objects cannot be cited (axioms, hypotheses and theorem parts can)")


def _in_scope(fact: Fact, ctx: Context) -> bool:
    """A hypothesis is in scope when it is, or says exactly what, a local hypothesis says (same name,
    relation, quantified variables with the same domains, the same conditions)."""
    for local in ctx.facts:
        if local is fact:
            return True
        if local.name != fact.name or local.relation.op != fact.relation.op:
            continue
        if _restrictions(local) != _restrictions(fact):
            continue
        if _same_quantifier(local, fact) and _same_conditions(local.conditions, fact.conditions):
            inner = _bind(ctx, local.variables)
            if inner is not None and equivalent(local.relation.lhs, fact.relation.lhs, inner).ok is True \
                    and equivalent(local.relation.rhs, fact.relation.rhs, inner).ok is True:
                return True
    return False


def _restrictions(f) -> dict:
    return {k: frozenset(v) for k, v in dict(getattr(f, "free_of", {}) or {}).items()}


def _same_quantifier(a, b) -> bool:
    va, vb = dict(a.variables), dict(b.variables)
    return set(va) == set(vb) and all(domain_key(va[v]) == domain_key(vb[v]) for v in va)


def _same_conditions(have: tuple, want: tuple) -> bool:
    """Every condition of ``have`` is among ``want`` (a fact with fewer conditions is stronger)."""
    key = lambda c: (canon(c.lhs), c.op, canon(c.rhs))  # noqa: E731
    wanted = {key(c) for c in want}
    return all(key(c) in wanted for c in have)


def _bind(ctx: Context, variables: Mapping) -> Context | None:
    """``ctx`` with a fact's bound variables in scope, or None when one of them is already in scope
    (the bound variable is another variable than the outer one of the same name)."""
    if any(v in ctx.domains for v in variables):
        return None
    try:
        return Context(dict(ctx.domains), ()).extended(variables)
    except ProofError:
        return None


def _in_domain(value: sp.Expr, dom: Interval, ctx: Context) -> Decision:
    needs, integral = _domain_relations(value, dom)
    if integral is not None and integral.ok is not True:
        return integral
    worst = Decision(True, "in domain")
    for need in needs:
        d = _sign_or_identity(need, ctx)
        if d.ok is False:
            return d
        if d.ok is None:
            worst = d
    return worst


def _domain_relations(value: sp.Expr, dom: Interval) -> tuple[list[Rel], Decision | None]:
    needs: list[Rel] = []
    if dom.lo is not sp.S.NegativeInfinity:
        needs.append(Rel(dom.lo, "<" if dom.left_open else "<=", value))
    if dom.hi is not sp.S.Infinity:
        needs.append(Rel(value, "<" if dom.right_open else "<=", dom.hi))
    integral = None
    if dom.integer:
        integral = Decision(True if value.is_integer else (False if value.is_integer is False else None),
                            "integrality" + ("" if value.is_integer else " not shown"))
    return needs, integral


def _sign_or_identity(need: Rel, ctx: Context) -> Decision:
    if need.op == "=":
        return equivalent(need.lhs, need.rhs, ctx)
    # as the sign rule: the sides compared where a divergence or an expectation is infinite, before sympy's
    # finite arithmetic cancels it in rhs - lhs (KL < KL + 1 is false where KL = +oo)
    ext = extended_agree(need.lhs, need.op, need.rhs, ctx)
    if ext.ok is not True:
        return Decision(None if ext.ok is None else False, ext.detail, ext.point)
    return prove_sign(need.rhs - need.lhs, ctx, strict=(need.op == "<"))


def _discharge_value(value, dom, proof, ctx, stack):
    """``value`` lies in ``dom``: by a given proof of each end, a local hypothesis, or a sign argument."""
    needs, integral = _domain_relations(value, dom)
    if integral is not None and integral.ok is not True:
        return integral, _status(integral), (), ()
    worst_d, worst_st = Decision(True, "in domain"), "proved"
    axs_all: set = set()
    rules_all: set = set()
    for need in needs:  # each end of the domain; the weakest discharge decides
        d, st, axs, rl = _discharge(Quantified({}, (), need), proof, ctx, stack)
        axs_all.update(axs)
        rules_all.update(rl)
        if d.ok is False:
            return d, "failed", tuple(sorted(axs_all)), tuple(sorted(rules_all))
        if STATUS_ORDER[st] < STATUS_ORDER[worst_st]:
            worst_d, worst_st = d, st
    return worst_d, worst_st, tuple(sorted(axs_all)), tuple(sorted(rules_all))


def _discharge(need: Quantified, proof: object, ctx: Context, stack, opaque_strict: bool = False):
    """Prove ``need`` with a given proof (chain, justification, or a list), a local hypothesis, or --
    for a statement without bound variables or random quantities -- a sign/identity argument.
    Returns (decision, status, axioms, rules)."""
    proofs = proof if isinstance(proof, (list, tuple)) else ([proof] if proof is not None else [])
    rel = need.relation
    first_failure: Decision | None = None
    if proofs:
        inner = _bind(ctx.with_facts(tuple(f for f in ctx.facts if not (_fact_free_symbols(f) & set(need.variables)))),
                      need.variables) if need.variables else ctx
        if inner is None:
            first_failure = Decision(None, "the quantified variable(s) "
                                           f"{sorted(map(str, need.variables))} are already in scope")
            proofs = []
        else:
            conds = tuple(Hypothesis(name=f"condition {i + 1}", relation=c) for i, c in enumerate(need.conditions))
            inner = inner.with_facts(tuple(f for f in ctx.facts if not (_fact_free_symbols(f) & set(need.variables)))
                                     + conds)
    for pr in proofs:
        if isinstance(pr, Chain):
            own = {v for v in need.variables
                   if v in pr.variables and domain_key(pr.variables[v]) == domain_key(need.variables[v])}
            scope = inner
            if own:  # the chain binds these itself (with the same domains): leave them to its declaration
                scope = Context({s: d for s, d in inner.domains.items() if s not in own}, inner.facts)
            results = _chain_proves(pr, rel.lhs, rel.op, rel.rhs, scope, stack, frozenset(own))
        elif type(pr) in _RULES:
            results = [check_step(pr, rel.lhs, rel.op, rel.rhs, inner, Chain(rel.lhs), stack)]
        else:
            raise ProofError(f"given proofs are chains or justifications, got {pr!r}")
        status = weakest(r.status for r in results)
        axs = tuple(sorted({a for r in results for a in r.axioms}))
        rl = tuple(sorted({x for r in results for x in r.rules}))
        if status != "failed":
            return Decision(True, "proved by the given proof"), status, axs, rl
        bad = [r.detail for r in results if r.status == "failed"]
        kind = "chain" if isinstance(pr, Chain) else "justification"
        first_failure = first_failure or Decision(False, f"the given {kind} fails: " + "; ".join(bad),
                                                  next((r.point for r in results if r.point), None))
    local = _local_fact(need, ctx)
    if local is not None:
        return Decision(True, f"is the local hypothesis '{local}'"), "proved", (), ()
    random_quantity = bool(opaque_terms(rel.lhs) or opaque_terms(rel.rhs))
    if need.variables or need.conditions or (opaque_strict and random_quantity):
        d = first_failure or Decision(None, "no proof given and no local hypothesis matches")
        return d, _status(d), (), ()
    d = _sign_or_identity(rel, ctx)
    if d.ok is not True and first_failure is not None:
        d = first_failure  # the proof the author gave is wrong: say so
    return d, _status(d), (), ()


def _local_fact(need: Quantified, ctx: Context) -> str | None:
    """The name of a local hypothesis that states ``need``: the same quantified variables with the same
    domains, no condition ``need`` lacks, a relation at least as strong with identical sides."""
    for fact in ctx.facts:
        if not _same_quantifier(fact, need) or not implies_op(fact.relation.op, need.relation.op):
            continue
        have, want = _restrictions(fact), dict(need.free_of)
        if any(not vals <= want.get(k, frozenset()) for k, vals in have.items()):
            continue  # the local fact excludes instances the need covers
        if not _same_conditions(fact.conditions, need.conditions):
            continue
        inner = _bind(ctx, fact.variables) if fact.variables else ctx
        if inner is None:
            continue
        if equivalent(fact.relation.lhs, need.relation.lhs, inner).ok is True and \
                equivalent(fact.relation.rhs, need.relation.rhs, inner).ok is True:
            return fact.name
    return None


def _match(why: By, lhs, rhs, rel: Rel, ctx: Context) -> tuple[Decision, str | None]:
    """Is the step the instance ``A R B`` (or a rewrite, or ``F(A) op F(B)``)?  With the relation it gives."""
    a, b, fop = rel.lhs, rel.rhs, rel.op
    if why.inside is not None:
        record = _function_record(why.inside)
        reason = foreign(record[1])
        if reason:
            return Decision(False, f"the context is not a real expression the kernel knows: {reason}"), None
        return _congruence(record, lhs, rhs, a, b, fop, ctx)
    d = _both(equivalent(lhs, a, ctx), equivalent(rhs, b, ctx))
    if d.ok is True or fop != "=":
        return d, fop
    # an equation may also be used to rewrite a subterm, in either direction (never under a binder that
    # binds one of its symbols: canonical forms rename bound variables, and subst skips bound keys)
    with sides_apart():  # an event's sides are rewritten apart: a replaced term cannot cancel across them
        cl, sa, sb = canon(lhs), canon(a), canon(b)
    for src, dst in ((sa, sb), (sb, sa)):
        for core, value in _rewrites(src, dst):
            rewritten = subst(cl, {core: value})
            untouched = sp.Add(*[t for t in opaque_terms(cl) if not t.has(core) and t != core])
            if rewritten != cl and _cancelled_infinite((untouched, value), rewritten, ctx):
                continue  # sympy cancelled a possibly infinite term while rewriting (E[L] + 1 - E[L])
            around = _infinite_anywhere(subst(cl, {core: sp.S.Zero}))
            if rewritten != cl and any(finite_value(x, ctx).ok is not True
                                       for x in _infinite_anywhere(value) & around):
                continue  # the value's term meets itself around the rewritten one: 2 KL - E[L] -> KL cancels too
            if rewritten != cl:
                d2 = equivalent(rewritten, rhs, ctx)
                if d2.ok is True:
                    return d2, "="
                if d2.ok is None and d.ok is False:
                    d = d2
    return d, "="


def _infinite_anywhere(e: sp.Basic) -> set:
    """The terms of ``e`` that may be infinite, at any depth (inside events and expectations too)."""
    out: set = set()
    for node in sp.preorder_traversal(as_expr(e)):
        if isinstance(node, OPAQUE) or isinstance(node, (sp.Integral, sp.Sum, sp.Product, AppliedUndef)):
            out |= _possibly_infinite_terms(node)
    return out


def _finite_by_fact(t: sp.Basic, a, b, fop: str, ctx: Context) -> bool:
    """The fact ``a fop b`` in hand shows ``t`` finite: ``t`` is one side, bounded by the other side (finite), and
    its typing (or an equation) excludes the other infinity."""
    if t == a and finite_value(b, ctx).ok is True:
        return fop == "=" or t.is_extended_nonnegative is True
    if t == b and finite_value(a, ctx).ok is True:
        return fop == "=" or t.is_extended_nonpositive is True
    return False


def _congruence(inside, lhs, rhs, a, b, fop, ctx) -> tuple[Decision, str | None]:
    w0, fw = inside
    for side in (a, b):  # the context's own terms in w0 become terms in the side: only the others can cancel
        kept = [t for t in opaque_terms(fw) if not t.has(w0)]
        lost = [t for t in _cancelled_infinite((sp.Add(*kept), side), subst(fw, {w0: side}), ctx)
                if not _finite_by_fact(t, a, b, fop, ctx)]
        if lost:
            return Decision(None, f"{', '.join(map(str, lost))} may be infinite and cancels in the context: "
                                  f"F(A) op F(B) is not defined there"), None
    if fop != "=" and any(isinstance(e, _ops.Expect) and e.has(w0) for e in sp.preorder_traversal(fw)):
        return _congruence_expect(inside, lhs, rhs, a, b, ctx)
    d, op = _congruence_finite(inside, lhs, rhs, a, b, fop, ctx)
    if d.ok is True and op is not None:
        w0, fw = inside
        # the fact in hand bounds its sides: A <= B with B finite means A is not +oo (and B not -oo)
        exclude: dict = {}
        if finite_value(b, ctx).ok is True:
            exclude[a] = {sp.oo} if fop != "=" else {sp.oo, -sp.oo}
        if finite_value(a, ctx).ok is True:
            exclude[b] = {-sp.oo} if fop != "=" else {sp.oo, -sp.oo}
        fa, fb = subst(fw, {w0: a}), subst(fw, {w0: b})
        ext = extended_agree(fa, op, fb, ctx, exclude)
        if ext.ok is not True:
            if op == "<" and extended_agree(fa, "<=", fb, ctx, exclude).ok is True:
                return d, "<="
            return ext, None
    return d, op


def _congruence_expect(inside, lhs, rhs, a, b, ctx) -> tuple[Decision, str | None]:
    """Monotonicity of expectation as a context: ``F(w) = c E[H(w)] + d`` with ``c > 0`` and ``d`` finite
    numbers and ``H`` non-decreasing (smooth, ``H' >= 0`` on the reals); the fact ``A <= B`` holds at every
    outcome (a relation between random quantities is a statement about every outcome), so
    ``H(A) <= H(B)`` everywhere, ``E[H(A)] <= E[H(B)]`` in the extended reals, and ``F(A) <= F(B)``.
    Establishes '<=' only (a strict inequality at every outcome does not survive every expectation)."""
    w0, fw = inside
    if any(_possibly_infinite(x) and finite_value(x, ctx).ok is not True for x in (a, b)):
        return Decision(None, "monotonicity of expectation needs a fact between real-valued quantities"), None
    w = sp.Dummy("w", real=True)
    fw = subst(fw, {w0: w})
    found = {e for e in sp.preorder_traversal(fw) if isinstance(e, _ops.Expect) and e.has(w)}
    if len(found) != 1:
        return Decision(None, "the context must use its argument inside exactly one expectation"), None
    (ew,) = found
    z = sp.Dummy("z", real=True)
    outer = fw.xreplace({ew: z})
    if outer.has(w):
        return Decision(None, "the context uses its argument outside the expectation"), None
    slope = sp.diff(outer, z)
    offset = sp.expand(outer - slope * z)
    if slope.has(z) or offset.has(z) or opaque_terms(slope) or opaque_terms(offset):
        return Decision(None, f"outside the expectation the context must be c*E[...] + d with numbers c, d; "
                              f"got {outer}"), None
    if not deterministic(slope) or not deterministic(offset) or prove_sign(slope, ctx, strict=True).ok is not True \
            or finite_value(offset, ctx).ok is not True or finite_value(slope, ctx).ok is not True:
        return Decision(None, f"the factor {slope} of the expectation is not shown a positive finite number, or the "
                              f"offset {offset} finite"), None
    h = ew.args[0]
    wctx = ctx.extended({w: Interval()})
    sm = smooth(h, w, wctx)
    if sm.ok is not True:
        return Decision(None, f"inside the expectation, not shown differentiable: {sm.detail}"), None
    mono = prove_sign(sp.diff(h, w), wctx)
    if mono.ok is not True:
        return Decision(False if mono.ok is False else None,
                        f"inside the expectation, not shown non-decreasing: {mono.detail}"), None
    d = _both(equivalent(lhs, subst(fw, {w: a}), ctx), equivalent(rhs, subst(fw, {w: b}), ctx))
    if d.ok is not True:
        return d, None
    return d, "<="


def _congruence_finite(inside, lhs, rhs, a, b, fop, ctx) -> tuple[Decision, str | None]:
    w0, fw = inside
    nonneg = prove_sign(a, ctx).ok is True and prove_sign(b, ctx).ok is True
    w = sp.Dummy("w", nonnegative=True) if nonneg else sp.Dummy("w", real=True)
    fw = subst(fw, {w0: w})
    if not fw.has(w):
        return Decision(None, "the context does not use its argument"), None
    d = _both(equivalent(lhs, subst(fw, {w: a}), ctx), equivalent(rhs, subst(fw, {w: b}), ctx))
    if d.ok is not True or fop == "=":
        return d, "="
    wctx = ctx.extended({w: Interval(sp.S.Zero, sp.S.Infinity, False, True) if nonneg else Interval()})
    slope = sp.diff(fw, w)
    if not slope.has(w) and sp.expand(fw - slope * w).free_symbols.isdisjoint({w}):
        # F(w) = c*w + d with c in [0, +oo] (an expectation may be +oo) and d finite: non-decreasing in the
        # extended reals; strictly increasing only for a finite c > 0
        offset = sp.expand(fw - slope * w)
        if (offset.is_real or offset == 0) and (slope.is_extended_nonnegative or prove_sign(slope, ctx).ok):
            if fop == "<" and prove_sign(slope, ctx, strict=True).ok is True:
                return d, "<"
            return d, "<="
    sm = smooth(fw, w, wctx)
    if sm.ok is not True:
        return Decision(None, f"context not shown differentiable: {sm.detail}"), None
    dfw = sp.diff(fw, w)
    if fop == "<":
        strict = prove_sign(dfw, wctx, strict=True)
        if strict.ok is True:
            return d, "<"
    mono = prove_sign(dfw, wctx)
    if mono.ok is not True:
        return Decision(False if mono.ok is False else None,
                        f"context not shown non-decreasing: {mono.detail}"), None
    return d, "<="


def _rewrites(src: sp.Expr, dst: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """``src -> dst`` itself and, when ``src = k*T`` with ``T`` its only opaque factor and ``k`` provably
    non-zero, ``T -> dst/k``."""
    out = [(src, dst)]
    if src.is_Mul:
        opaque = [f for f in src.args if opaque_terms(f) == {f}]
        if len(opaque) == 1:
            k = src / opaque[0]
            if k.is_nonzero and not opaque_terms(k):
                out.append((opaque[0], dst / k))
    return out


def _both(d1: Decision, d2: Decision) -> Decision:
    if d1.ok is False:
        return Decision(False, f"left side: {d1.detail}", d1.point)
    if d2.ok is False:
        return Decision(False, f"right side: {d2.detail}", d2.point)
    if d1.ok is None or d2.ok is None:
        return Decision(None, "; ".join(x.detail for x in (d1, d2) if x.ok is None))
    return Decision(True, "matched")


_RULES = {Algebra: _rule_identity, Sign: _rule_sign, By: _rule_instance, Specialize: _rule_specialize,
          Taylor: _rule_taylor, Induction: _rule_induction, IntervalBound: _rule_interval, Numeric: _rule_numeric,
          Monotone: _rule_monotone, Split: _rule_split,
          LimitAtEnd: _rule_limit}


# -- parts and theorems --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PartResult:
    name: str
    status: str
    steps: tuple[StepResult, ...]
    detail: str = ""
    axioms: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()


@dataclass(frozen=True)
class SymbolicResult:
    status: str
    parts: tuple[PartResult, ...]
    axioms: tuple[str, ...]  # the trusted base this proof rests on (transitively)
    cited: tuple[str, ...]  # theorems cited (transitively)
    rules: tuple[str, ...] = ()  # kernel rules taken as given (transitively)
    certificates: tuple[Certificate, ...] = ()

    @property
    def steps_checked(self) -> int:
        return sum(len(p.steps) for p in self.parts)


_CACHE: dict = {}  # theorem -> (fingerprints, SymbolicResult)
_IN_PROGRESS: dict[int, dict[int, tuple]] = {}  # theorem id -> part id -> (result, fingerprint checked)


def symbolic_check(theorem, stack: tuple[str, ...] = ()) -> SymbolicResult:
    """Check every part's chain; mint a certificate per part.  Cached per theorem object and content."""
    prints = tuple(_fingerprint(theorem, p) for p in theorem.parts)
    cached = _CACHE.get(theorem)
    if cached is not None and cached[0] == prints:
        return cached[1]
    if theorem.name in stack:
        return SymbolicResult("failed", (), (), ())  # circular citation: never a proof
    stack = stack + (theorem.name,)
    key = id(theorem)
    part_results: list[PartResult] = []
    axioms: set[str] = set()
    rules: set[str] = set()
    cited: set[str] = set()
    _IN_PROGRESS[key] = {}
    try:
        try:
            ctx = Context({}, tuple(theorem.hypotheses)).extended(theorem.variables)
        except ProofError as exc:
            ctx = None
            part_results = [PartResult(p.name, "failed", (), str(exc)) for p in theorem.parts]
        for part, fp in zip(theorem.parts, prints) if ctx is not None else ():
            pres = _check_part(part, ctx, stack, cited)
            part_results.append(pres)
            axioms.update(pres.axioms)
            rules.update(pres.rules)
            _IN_PROGRESS[key][id(part)] = (pres, fp)
    finally:
        del _IN_PROGRESS[key]
    if tuple(_fingerprint(theorem, p) for p in theorem.parts) != prints:  # changed while it was checked
        part_results = [PartResult(p.name, "failed", (), "the theorem changed while it was checked")
                        for p in theorem.parts]
    status = weakest(p.status for p in part_results)
    certs = tuple(_mint(theorem, part, pr.status, pr.axioms, pr.rules, fp)
                  for part, pr, fp in zip(theorem.parts, part_results, prints))
    result = SymbolicResult(status, tuple(part_results), tuple(sorted(axioms)), tuple(sorted(cited)),
                            tuple(sorted(rules)), certs)
    _CACHE[theorem] = (prints, result)
    return result


def _check_part(part, ctx: Context, stack, cited: set) -> PartResult:
    chain = part.proof
    if not isinstance(chain, Chain):
        return PartResult(part.name, "failed", (), "no proof")
    try:
        start_, steps_ = snap = snapshot(chain)
        pctx = ctx.extended(part.variables)
        inner = pctx.extended(chain.variables)
    except ProofError as exc:
        return PartResult(part.name, "failed", (), str(exc))
    end_ = steps_[-1][1] if steps_ else start_
    rel = part.relation
    notes = []
    statuses = []
    undeclared = _undeclared((rel.lhs, rel.rhs), pctx)
    if undeclared:  # sympy would read them with assumptions no domain was checked against
        return PartResult(part.name, "failed", (), f"the statement names undeclared variables: {undeclared}")
    for side in (rel.lhs, rel.rhs):
        reason = nonfinite(side) or foreign(side)
        if reason:
            return PartResult(part.name, "failed", (), f"the statement is refused: {reason}")
        d = well_defined(side, pctx)
        if d.ok is not True:
            statuses.append(_status(d))
            notes.append(f"the statement is not shown well defined: {d.detail}")
    start = equivalent(start_, rel.lhs, pctx)
    end = equivalent(end_, rel.rhs, inner)
    statuses += [_status(start), _status(end)]
    if start.ok is not True:
        notes.append(f"chain starts with {start_}, the statement with {rel.lhs}: {start.detail}")
    if end.ok is not True:
        notes.append(f"chain ends with {end_}, the statement with {rel.rhs}: {end.detail}")
    composed = compose_ops([o for o, _, _ in steps_])
    if any(o not in OPS for o, _, _ in steps_):
        statuses.append("failed")
        notes.append("the chain has an invalid step")
    elif not implies_op(composed, rel.op):
        statuses.append("failed")
        notes.append(f"the chain proves '{composed}', the statement says '{rel.op}'")
    leaks = [v for v in chain.variables if v not in pctx.domains and (end_.has(v) or rel.rhs.has(v) or rel.lhs.has(v))]
    if leaks:
        statuses.append("failed")
        notes.append(f"chain variable(s) {leaks} left free at the end")
    steps = check_chain(chain, pctx, stack, snap)
    axioms = {a for r in steps for a in r.axioms}
    rules = {x for r in steps for x in r.rules}
    for thm in _cited_theorems(chain):
        if id(thm) in _IN_PROGRESS:
            continue
        sub = symbolic_check(thm, stack)
        axioms.update(sub.axioms)
        rules.update(sub.rules)
        cited.update(sub.cited)
        cited.add(thm.name)
    statuses += [s.status for s in steps]
    return PartResult(part.name, weakest(statuses), tuple(steps), "; ".join(notes), tuple(sorted(axioms)),
                      tuple(sorted(rules)))


def _cited_theorems(chain: Chain) -> list:
    """Theorems cited anywhere in a chain: its steps, ``given`` proofs and induction sub-chains."""
    out: list = []

    def walk(c: Chain) -> None:
        for step in c.steps:
            why = getattr(step, "why", None)
            if isinstance(why, By):
                thm = getattr(why.fact, "theorem", None)
                if thm is not None and thm not in out:
                    out.append(thm)
                for proof in why.given.values():
                    for pr in (proof if isinstance(proof, (list, tuple)) else [proof]):
                        if isinstance(pr, Chain):
                            walk(pr)
            elif isinstance(why, Induction):
                for pr in (why.base, why.step):
                    if isinstance(pr, Chain):
                        walk(pr)

    walk(chain)
    return out
