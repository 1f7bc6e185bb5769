r"""The claim language: a whole claim, parsed safely into a :class:`Claim`.

DESIGN.md, "The claim language"::

    claim      := subject VERB notion [FOR constraints]
                | FORALL constraints ':' relation
                | relation [FOR constraints]

>>> c = parse_claim("zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)")
>>> c.kind, c.subject, c.target
('implication', ZCDP(rho=rho), ApproxDP(eps=2*sqrt(rho)*sqrt(log(1/delta)) + rho, delta=delta))
>>> {str(v): d.describe() for v, d in c.domains.items()}
{'rho': '(0, oo)', 'delta': '(0, 1)'}
>>> parse_claim("forall eps > 0: eps*tanh(eps/2) <= eps^2/2").relations
((eps*tanh(eps/2), '<=', eps**2/2),)
>>> parse_claim("DP(eps) implies zCDP(eps^2/2) FOR 0 < eps <= 1").canonical()
'PureDP(eps=eps) implies ZCDP(rho=eps**2/2) FOR 0 < eps <= 1'

Subjects and notions are those of :mod:`cdpsym.claims.grammar` (mechanisms,
compositions, ``group(size=g, S)``, notions in call and paper form); LaTeX
between dollars (``$\rho$-zCDP``, ``$(\varepsilon, \delta)$-DP``,
``forall $\varepsilon > 0$: $\varepsilon\tanh(\varepsilon/2) \le \varepsilon^2/2$``)
goes through :mod:`cdpsym.claims.latex`.

Constraints (after ``FOR``, or between ``forall`` and ``:``) bound one
parameter each: ``0 < eps <= 1``, ``delta in (0, 1)``, ``k >= 2 integer``,
``sigma >= sqrt(2*log(1.25/delta))/eps`` (a bound may name parameters
bounded before it), or fix it: ``k = 10``.  Every other parameter has its
default domain (:data:`DEFAULT_DOMAINS`: ε > 0, 0 < δ < 1, ρ > 0, σ > 0,
Δ > 0, α > 1, k a positive integer …) and is universally quantified.

Errors are :class:`~cdpsym.expr.parse.ParseError` (what was expected and the
column; :meth:`~cdpsym.expr.parse.ParseError.pretty` puts a caret under it).
Nothing is ever ``eval``-ed or ``sympify``-ed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp
from lark import Token, Tree

from cdpsym.claims.grammar import NotionComposition, Subject, SubjectBuilder
from cdpsym.errors import InvalidParameter
from cdpsym.expr import symbols as S
from cdpsym.expr.domains import Interval, greater_than, naturals, nonnegative, open_unit, positive, real
from cdpsym.expr.parse import CANONICAL_SYMBOLS, EXPRESSION_RULES, OutOfDomain, ParseError, parse_tree, shorten
from cdpsym.mechanisms import Gaussian, Laplace, RandomizedResponse
from cdpsym.notions import Notion

__all__ = ["Claim", "Group", "parse_claim", "DEFAULT_DOMAINS", "CLAIM_GRAMMAR", "MAX_CLAIM_LENGTH"]

#: longest accepted claim, in characters
MAX_CLAIM_LENGTH = 4000

#: the domain a parameter has when no constraint bounds it (DESIGN.md)
DEFAULT_DOMAINS: dict[sp.Symbol, Interval] = {
    S.eps: positive(), S.eps0: positive(), S.eps_p: positive(),
    S.delta: open_unit(), S.delta_p: open_unit(), S.delta0: open_unit(),
    S.rho: positive(), S.xi: nonnegative(), S.sigma: positive(), S.sensitivity: positive(),
    S.alpha: greater_than(1), S.omega: greater_than(1), S.k: naturals(1), S.i: naturals(1),
    S.mu: positive(), S.tau: positive(), S.lam: positive(), S.t: positive(), S.s: positive(),
    S.r: nonnegative(), S.p: open_unit(), S.q: open_unit(),
    S.nu: real(), S.a: real(), S.b: real(), S.u: real(), S.m: real(), S.x: real(), S.y: real(), S.z: real(),
}

CLAIM_GRAMMAR = r"""
start: claim
?claim: subject VERB subject [forclause]          -> implication
      | FORALL constraint_list ":" relation        -> forall_claim
      | relation [forclause]                       -> bare
forclause: FOR constraint_list
constraint_list: constraint ("," constraint)*
constraint: relation [INTEGER]                     -> rel_constraint
          | expr IN interval [INTEGER]             -> in_constraint
relation: expr (relop expr)*
!relop: "<=" | "<" | "=" | "==" | ">=" | ">" | "≤" | "≥" | "!=" | "≠"
interval: "(" expr "," expr ")"                    -> open_open
        | "(" expr "," expr "]"                    -> open_closed
        | "[" expr "," expr ")"                    -> closed_open
        | "[" expr "," expr "]"                    -> closed_closed
?subject: expr
        | paper
?paper: expr SUFFIX -> paper_single
      | "(" expr "," expr ")" SUFFIX -> paper_pair
arglist: arg ("," arg)*
?arg: expr | paper | kwarg
kwarg: NAME "=" expr
VERB.3: /(is|satisfies|implies)(?!\w)/ | "=>" | "⇒"
FOR.3: /(FOR|for|For|where|with)(?!\w)/
FORALL.4: /(forall|FORALL|for[ \t]+all|For[ \t]+all)(?!\w)/ | "∀"
IN.3: /in(?!\w)/ | "∈"
INTEGER.3: /(integers?|integral)(?!\w)/
SUFFIX.2: /-[ \t]*(?:zCDP|tCDP|CDP|RDP|DP)(?!\w)/
LATEX.2: /\$[^$]*\$/
""" + EXPRESSION_RULES.replace('     | "(" expr ")"', '     | "(" expr ")"\n     | LATEX -> latex')

_OPS = {"<=": "<=", "≤": "<=", "<": "<", "=": "=", "==": "=", ">=": ">=", "≥": ">=", ">": ">", "!=": "!=",
        "≠": "!="}
_FLIP = {"<=": ">=", "<": ">", ">=": "<=", ">": "<", "=": "=", "!=": "!="}
_INFINITY_NAMES = {"oo", "inf", "infinity", "Infinity", "∞"}


@dataclass(frozen=True, repr=False)
class Group:
    """``group(size=g, S)``: the guarantee of ``S`` for datasets differing in up to ``g`` individuals."""

    size: sp.Expr
    subject: Any

    def __repr__(self) -> str:
        return f"group(size={self.size}, {self.subject!r})"


Relation = tuple[sp.Expr, str, sp.Expr]


@dataclass(frozen=True)
class Claim:
    """A parsed claim.

    * ``kind``: ``"implication"`` (subject VERB notion) or ``"relation"``;
    * ``subject`` (a mechanism, notion, :class:`NotionComposition` or :class:`Group`) and ``target`` (a notion);
    * ``relations``: the conjunction of ``(lhs, op, rhs)`` a relation claim states (a chain ``a <= b <= c`` is
      two); ``op`` one of ``< <= = >= > !=``;
    * ``domains``: every free parameter with its domain, in dependency order (a parameter bounded by others
      comes after them);
    * ``fixed``: parameters the constraints set to a value (``k = 10``), already substituted.
    """

    text: str
    kind: str
    subject: Any = None
    target: Any = None
    relations: tuple[Relation, ...] = ()
    domains: dict[sp.Symbol, Interval] = field(default_factory=dict)
    fixed: dict[sp.Symbol, sp.Expr] = field(default_factory=dict)
    #: where the claim's expressions are defined as written (before sympy simplified them): every
    #: ``(expression, "nonzero" | "positive" | "nonnegative")`` must hold on the whole domain
    conditions: tuple = ()

    def canonical(self) -> str:
        """The claim rendered back in canonical form (what the checker understood)."""
        if self.kind == "implication":
            head = f"{self.subject!r} implies {self.target!r}" if isinstance(self.subject, Notion) \
                else f"{self.subject!r} is {self.target!r}"
        else:
            head = " and ".join(f"{sp.sstr(a)} {op} {sp.sstr(b)}" for a, op, b in self.relations)
        conditions = [_describe_domain(v, d) for v, d in self.domains.items()]
        conditions += [f"{v} = {sp.sstr(e)}" for v, e in self.fixed.items()]
        return head + (f" FOR {', '.join(conditions)}" if conditions else "")


def _describe_domain(v: sp.Symbol, d: Interval) -> str:
    if d.integer:
        return f"{v} >= {d.lo} integer" if d.hi is sp.S.Infinity else f"{v} in {d.describe()[12:]} integer"
    if d.lo is sp.S.NegativeInfinity and d.hi is sp.S.Infinity:
        return f"{v} real"
    if d.hi is sp.S.Infinity:
        return f"{v} {'>' if d.left_open else '>='} {sp.sstr(d.lo)}"
    if d.lo is sp.S.NegativeInfinity:
        return f"{v} {'<' if d.right_open else '<='} {sp.sstr(d.hi)}"
    return f"{sp.sstr(d.lo)} {'<' if d.left_open else '<='} {v} {'<' if d.right_open else '<='} {sp.sstr(d.hi)}"


# -- the builder ------------------------------------------------------------------------------------------

class ClaimBuilder(SubjectBuilder):
    """Builds a :class:`Claim`: subjects and notions through :class:`SubjectBuilder`, LaTeX through
    :func:`cdpsym.claims.latex.parse_latex`."""

    # -- LaTeX atoms --------------------------------------------------------------------------------------
    def latex_math(self, token: Token) -> Any:
        from cdpsym.claims.latex import parse_latex

        source = str(token)[1:-1]
        if not source.strip():
            raise self.error("empty $...$", token)
        math = parse_latex(source, offset=token.start_pos + 1, text=self.text, symbols=self.symbols)
        for condition in math.conditions:
            self.require(*condition)
        return math

    def _node_latex(self, node: Tree) -> sp.Expr:
        math = self.latex_math(node.children[0])
        if math.kind != "expr":
            what = {"tuple": "a tuple", "relation": "a relation", "membership": "a membership"}.get(math.kind,
                                                                                                     math.kind)
            raise self.error(f"expected a number or expression here, got {what} in $...$", node)
        return math.values[0]

    def paper(self, node: Tree, values: list[Any], suffix: Token) -> Notion:
        if len(values) == 1 and isinstance(values[0], Tree) and values[0].data == "latex":
            math = self.latex_math(values[0].children[0])
            if math.kind == "tuple":
                if len(math.values) != 2:
                    raise self.error(f"expected one or two parameters before {str(suffix).strip('- ')}, "
                                     f"got {len(math.values)}", values[0])
                return self.paper_values(node, list(math.values), suffix, values[0])
            if math.kind != "expr":
                raise self.error(f"expected a parameter before {str(suffix).strip('- ')}", values[0])
            return self.paper_values(node, [math.values[0]], suffix, values[0])
        return super().paper(node, values, suffix)

    def paper_values(self, node: Tree, values: list[sp.Expr], suffix: Token, where: Any) -> Notion:
        from cdpsym.claims.grammar import PAPER_FORMS

        notion = str(suffix).lstrip("-").strip()
        single, pair = PAPER_FORMS[notion]
        signature = single if len(values) == 1 else pair
        if signature is None:
            if single is not None:
                raise self.error(f"{notion} takes one parameter: write E-{notion}", suffix)
            names = ", ".join(pair.params) if pair else ""
            raise self.error(f"{notion} takes two parameters: write ({names})-{notion}", suffix)
        bound = {name: (self.checked(v, where), where) for name, v in zip(signature.params, values)}
        return self.instantiate(self.snippet(node), signature, bound, node)

    # -- group(size=g, S) -------------------------------------------------------------------------------------
    def subject(self, node: Any) -> Subject:
        if isinstance(node, Tree) and node.data == "call" and str(node.children[0]) == "group":
            return self.group(node)  # type: ignore[return-value]
        if isinstance(node, Tree) and node.data == "latex":
            raise self.error("a mechanism or notion in $...$ needs its suffix, e.g. $\\rho$-zCDP", node)
        return super().subject(node)

    def group(self, node: Tree) -> Group:
        size = None
        inner = None
        for arg in self.arguments(node.children[1]):
            if isinstance(arg, Tree) and arg.data == "kwarg":
                key, value = arg.children
                if str(key) not in ("size", "k", "g"):
                    raise self.error(f"group(...) takes size=... and a mechanism or notion, not {shorten(str(key))}=",
                                     key)
                if size is not None:
                    raise self.error("group(...) got size twice", key)
                size = self.count(value)
            elif inner is None and size is None and not _is_subject(arg):
                size = self.count(arg)
            else:
                if inner is not None:
                    raise self.error("group(...) takes one mechanism or notion", arg)
                inner = self.subject_argument(arg)
        if size is None or inner is None:
            raise self.error("group(...) needs size=... and a mechanism or notion, e.g. group(size=2, DP(eps))", node)
        if isinstance(inner, Group):
            raise self.error("group(group(...)) is not supported: write one group with the product of the sizes",
                             node)
        return Group(size, inner)

    def subject_argument(self, arg: Any) -> Subject:
        if isinstance(arg, Tree) and arg.data == "call" and str(arg.children[0]) == "group":
            return self.group(arg)  # type: ignore[return-value]
        return super().subject_argument(arg)

    # -- claims ------------------------------------------------------------------------------------------------
    def claim(self, tree: Tree) -> Claim:
        node = tree.children[0] if tree.data == "start" else tree
        constraints: list[tuple[Any, str, Any, Any]] = []
        integers: set[sp.Symbol] = set()
        if node.data == "implication":
            subject_node, verb, target_node, forclause = node.children
            subject = self.subject(subject_node)
            target = self.subject(target_node)
            if not isinstance(target, Notion):
                raise self.error(f"after {str(verb).strip()!r} expected a privacy notion (DP(...), zCDP(...), "
                                 f"0.5-zCDP, (eps, delta)-DP …), got {self.snippet(target_node)!r}", target_node)
            if forclause is not None:
                self.constraints(forclause.children[1], constraints, integers)
            return self.finish("implication", subject, target, (), constraints, integers)
        if node.data == "forall_claim":
            _, constraint_list, relation = node.children
            self.constraints(constraint_list, constraints, integers)
            return self.finish("relation", None, None, self.relation(relation), constraints, integers)
        if node.data == "bare":
            relation, forclause = node.children
            relations = self.relation(relation)
            if forclause is not None:
                self.constraints(forclause.children[1], constraints, integers)
            return self.finish("relation", None, None, relations, constraints, integers)
        raise self.error("expected a claim", node)  # pragma: no cover - the grammar has no other shape

    def relation(self, node: Tree, *, what: str = "claim") -> tuple[Relation, ...]:
        children = node.children
        if len(children) == 1:
            only = children[0]
            if isinstance(only, Tree) and only.data == "latex":
                math = self.latex_math(only.children[0])
                if math.kind == "relation":
                    return tuple((a, op, b) for a, op, b in zip(math.values, math.ops, math.values[1:]))
            raise self.error(f"expected a relation (<=, <, =, >=, >) or 'is'/'implies' and a notion; "
                             f"{self.snippet(only)!r} alone is not a {what}", only)
        values = [self.expression(c) for c in children[0::2]]
        ops = [_OPS[str(op.children[0])] for op in children[1::2]]
        return tuple((a, op, b) for a, op, b in zip(values, ops, values[1:]))

    def constraints(self, node: Tree, out: list, integers: set) -> None:
        for c in node.children:
            if c.data == "rel_constraint":
                relation, integer = c.children
                if len(relation.children) == 1 and isinstance(relation.children[0], Tree) \
                        and relation.children[0].data == "latex":
                    math = self.latex_math(relation.children[0].children[0])
                    if math.kind == "membership":
                        self.membership(math.values[0], math.interval, c, out)
                        if "integer" in math.ops:
                            integers.add(self.integer_symbol(math.values[0], c))
                        continue
                for a, op, b in self.relation(relation, what="constraint"):
                    out.append((a, op, b, c))
                if integer is not None:
                    integers.update(self.integer_symbol(s, c) for s in self.constrained(c, out))
            else:
                value_node, _, interval, integer = c.children
                value = self.expression(value_node)
                lo, hi, lo_open, hi_open = self.interval(interval)
                self.membership(value, (lo, hi, lo_open, hi_open), c, out)
                if integer is not None:
                    integers.add(self.integer_symbol(value, c))

    def constrained(self, node: Tree, out: list) -> list[sp.Expr]:
        return [next(iter(e for e in (a, b) if isinstance(e, sp.Symbol)), a) for a, _, b, n in out if n is node]

    def integer_symbol(self, value: sp.Expr, node: Any) -> sp.Symbol:
        if not isinstance(value, sp.Symbol):
            raise self.error("'integer' applies to a parameter, e.g. k >= 1 integer", node)
        if not value.is_integer:
            raise self.error(f"{value} is a real parameter; only k and i range over integers", node)
        return value

    def membership(self, value: sp.Expr, interval: tuple, node: Any, out: list) -> None:
        lo, hi, lo_open, hi_open = interval
        if lo is not sp.S.NegativeInfinity and lo is not None:
            out.append((value, ">" if lo_open else ">=", lo, node))
        if hi is not sp.S.Infinity and hi is not None:
            out.append((value, "<" if hi_open else "<=", hi, node))

    def interval(self, node: Tree) -> tuple[sp.Expr, sp.Expr, bool, bool]:
        lo_open = node.data.startswith("open")
        hi_open = node.data.endswith("_open")
        lo_node, hi_node = node.children
        lo = self.end(lo_node, -1)
        hi = self.end(hi_node, +1)
        return lo, hi, lo_open, hi_open

    def end(self, node: Any, sign: int) -> sp.Expr:
        """An interval end: an expression, or ±oo (``oo``, ``inf``, ``infinity``, ``∞``)."""
        negated = isinstance(node, Tree) and node.data == "signed" and str(node.children[0]) == "-"
        inner = node.children[1] if negated else node
        if isinstance(inner, Tree) and inner.data == "name" and str(inner.children[0]) in _INFINITY_NAMES:
            value = -sign if negated else sign
            if value != sign:
                raise self.error("an interval runs from its lower to its upper end", node)
            return sp.S.Infinity if sign > 0 else sp.S.NegativeInfinity
        return self.expression(node)

    # -- domains -------------------------------------------------------------------------------------------------
    def finish(self, kind: str, subject: Any, target: Any, relations: tuple[Relation, ...],
               constraints: list, integers: set) -> Claim:
        fixed: dict[sp.Symbol, sp.Expr] = {}
        bounds: dict[sp.Symbol, list[tuple[str, sp.Expr, Any]]] = {}
        for a, op, b, node in constraints:
            if op == "!=":
                raise self.error("a constraint cannot be '!='", node)
            if isinstance(a, sp.Symbol) and a in DEFAULT_DOMAINS and not b.has(a):
                var, op_, bound = a, op, b
            elif isinstance(b, sp.Symbol) and b in DEFAULT_DOMAINS and not a.has(b):
                var, op_, bound = b, _FLIP[op], a
            else:
                raise self.error(f"a constraint bounds one parameter by an expression of others "
                                 f"(0 < eps <= 1, delta in (0, 1), sigma >= 1/eps, k = 10); "
                                 f"got {sp.sstr(a)} {op} {sp.sstr(b)}", node)
            if op_ == "=":
                if var in fixed and fixed[var] != bound:
                    raise self.error(f"{var} is set twice ({fixed[var]} and {bound})", node)
                if bound.free_symbols:
                    raise self.error(f"{var} = ... must be a number (write a bound, not a substitution)", node)
                fixed[var] = bound
            else:
                bounds.setdefault(var, []).append((op_, bound, node))
        # a mechanism's parameters are positive: a real-valued symbol used as one ranges over (0, oo)
        for param in _mechanism_parameters(subject):
            if isinstance(param, sp.Symbol) and param in DEFAULT_DOMAINS and param not in fixed:
                default = DEFAULT_DOMAINS[param]
                if not (default.lo.is_number and default.lo >= 0):
                    bounds.setdefault(param, []).append((">", sp.S.Zero, None))
        # substitute fixed values everywhere
        relations = tuple((self.fix(a, fixed), op, self.fix(b, fixed)) for a, op, b in relations)
        subject = _replace(subject, fixed) if subject is not None else None
        target = _replace(target, fixed) if target is not None else None
        free: set[sp.Symbol] = set()
        for e in _expressions(subject) + _expressions(target) + [x for r in relations for x in (r[0], r[2])]:
            free |= e.free_symbols
        for var, items in bounds.items():
            for _, bound, node in items:
                free |= bound.free_symbols
            free.add(var)
        for var, value in fixed.items():
            dom = DEFAULT_DOMAINS[var]
            if dom.contains(value) is not True:
                raise self.error(f"{var} = {shorten(str(value))} is outside its domain ({dom.describe_words()})",
                                 None, OutOfDomain)
            for op, bound, node in bounds.pop(var, []):
                bound = bound.xreplace(fixed)
                gap = {">": value - bound, ">=": value - bound, "<": bound - value, "<=": bound - value}[op]
                if bound.free_symbols or _decide(gap, {}, strict=op in (">", "<")) is not True:
                    raise self.error(f"{var} = {shorten(str(value))} does not satisfy {var} {op} "
                                     f"{shorten(sp.sstr(bound))}: the constraints leave no value", node, OutOfDomain)
        free -= set(fixed)
        unknown = [s for s in free if s not in DEFAULT_DOMAINS]
        if unknown:
            raise self.error(f"{unknown[0]} cannot be a free parameter of a claim")
        domains: dict[sp.Symbol, Interval] = {}
        # parameters bounded by numbers first: a symbolic bound is checked against the domains it names
        for var in sorted(free, key=lambda v: (any(b.free_symbols for _, b, _ in bounds.get(v, [])),
                                               _ORDER.get(v, 99), str(v))):
            domains[var] = self.domain(var, bounds.get(var, []), var in integers, fixed, domains)
        ordered = _dependency_order(domains)
        if ordered is None:
            raise self.error("the constraints bound parameters by one another in a circle")
        conditions = tuple(dict.fromkeys((e.xreplace(fixed), k) for e, k in self.conditions))
        return Claim(self.text, kind, subject, target, relations, ordered, fixed, conditions)

    def fix(self, e: sp.Expr, fixed: dict) -> sp.Expr:
        return e.xreplace(fixed) if fixed else e

    def domain(self, var: sp.Symbol, items: list, integer: bool, fixed: dict,
               known: dict[sp.Symbol, Interval]) -> Interval:
        """The default domain of *var* intersected with its bounds; a bound reaching outside the default
        domain is an error (a claim cannot widen a parameter's range: ``delta in (0, 1]`` is refused)."""
        base = DEFAULT_DOMAINS[var]
        lo, lo_open, hi, hi_open = base.lo, base.left_open, base.hi, base.right_open
        for op, bound, node in items:
            bound = bound.xreplace(fixed) if fixed else bound
            if bound.has(sp.S.Infinity, sp.S.NegativeInfinity):
                continue
            lower = op in (">", ">=")
            _within_default(var, op, bound, base, node, self, known)
            current, current_open = (lo, lo_open) if lower else (hi, hi_open)
            if _replaces(bound, op in (">", "<"), current, current_open, lower, node, self, known):
                if lower:
                    lo, lo_open = bound, op == ">"
                else:
                    hi, hi_open = bound, op == "<"
        dom = Interval(lo, hi, lo_open, hi_open, integer or base.integer)
        if lo.is_number and hi.is_number and lo.is_finite and hi.is_finite:
            if bool(lo > hi) or (lo == hi and (lo_open or hi_open)):
                raise self.error(f"the constraints leave no value for {var} ({dom.describe()})", None, OutOfDomain)
        return dom


def _decide(e: sp.Expr, known: dict[sp.Symbol, Interval], strict: bool = False) -> bool | None:
    """Is ``e >= 0`` (``> 0``) on the domains *known*?  True / False when decided, else None."""
    e = sp.sympify(e)
    if e.is_number:
        v = (e > 0) if strict else (e >= 0)
        return bool(v) if v in (sp.true, sp.false) else None
    if e.is_positive if strict else e.is_nonnegative:
        return True
    if any(v not in known for v in e.free_symbols):
        return None
    from cdpsym.proof.algebra import Context, prove_sign

    try:
        return prove_sign(e, Context(dict(_dependency_order(known) or known)), strict=strict).ok
    except Exception:  # noqa: BLE001 - undecided
        return None


def _within_default(var, op: str, bound: sp.Expr, base: Interval, node, builder: "ClaimBuilder", known) -> None:
    """A bound may restrict a parameter's default domain, never reach beyond it."""
    lower = op in (">", ">=")
    end, end_open = (base.lo, base.left_open) if lower else (base.hi, base.right_open)
    if end in (sp.S.Infinity, sp.S.NegativeInfinity):
        return
    gap = (bound - end) if lower else (end - bound)  # >= 0 when the bound is inside
    strict_needed = end_open and op in (">=", "<=")  # a closed bound at an open default end reaches outside
    ok = _decide(gap, known, strict=strict_needed)
    if ok is True:
        return
    where = "outside" if ok is False else "possibly outside"
    raise builder.error(f"{var} ranges over {base.describe()} (its default domain); the constraint {var} {op} "
                        f"{shorten(sp.sstr(bound))} reaches {where} it: a claim may restrict a parameter, not widen "
                        f"it", node, OutOfDomain)


def _replaces(new: sp.Expr, new_open: bool, old: sp.Expr, old_open: bool, lower: bool, node,
              builder: "ClaimBuilder", known) -> bool:
    """Whether the bound *new* is at least as tight as the current bound *old* (the intersection keeps the
    tighter); two bounds that cannot be compared are an error."""
    if old in (sp.S.Infinity, sp.S.NegativeInfinity):
        return True
    gap = (new - old) if lower else (old - new)
    if _decide(gap, known, strict=True) is True:
        return True
    if _decide(-gap, known, strict=True) is True:
        return False
    if _decide(gap, known) is True and _decide(-gap, known) is True:  # equal: the open one is tighter
        return new_open and not old_open
    raise builder.error(f"cannot tell which of the bounds {shorten(sp.sstr(new))} and {shorten(sp.sstr(old))} is "
                        f"tighter; give one bound per side", node, OutOfDomain)


def _dependency_order(domains: dict[sp.Symbol, Interval]) -> dict[sp.Symbol, Interval] | None:
    ordered: dict[sp.Symbol, Interval] = {}
    pending = sorted(domains, key=lambda s: _ORDER.get(s, 99))
    while pending:
        progress = False
        for var in list(pending):
            dom = domains[var]
            deps = (dom.lo.free_symbols | dom.hi.free_symbols) - {var}
            if deps <= set(ordered):
                ordered[var] = dom
                pending.remove(var)
                progress = True
        if not progress:
            return None
    return ordered


_ORDER = {s: n for n, s in enumerate((S.sensitivity, S.sigma, S.rho, S.mu, S.tau, S.eps, S.eps0, S.eps_p, S.delta,
                                      S.delta_p, S.delta0, S.alpha, S.omega, S.k))}


def _is_subject(arg: Any) -> bool:
    from cdpsym.claims.grammar import SIGNATURES

    return isinstance(arg, Tree) and (
        arg.data in ("paper_single", "paper_pair")
        or (arg.data == "call" and (str(arg.children[0]) in SIGNATURES or str(arg.children[0]) in ("compose", "group"))))


def _expressions(obj: Any) -> list[sp.Expr]:
    """Every parameter expression inside a subject or notion."""
    from cdpsym.mechanisms import Composition

    if obj is None:
        return []
    if isinstance(obj, Notion):
        return list(obj.params().values())
    if isinstance(obj, (Gaussian, Laplace, RandomizedResponse)):
        return list(obj.parameters.values()) if isinstance(obj.parameters, dict) else list(obj.parameters().values())
    if isinstance(obj, Composition):
        return [e for base, count in obj.groups for e in _expressions(base) + [sp.sympify(count)]]
    if isinstance(obj, NotionComposition):
        return [e for p in obj.parts for e in _expressions(p)] + [obj.k]
    if isinstance(obj, Group):
        return [obj.size] + _expressions(obj.subject)
    return []


def _mechanism_parameters(obj: Any) -> list[sp.Expr]:
    """The parameters of every mechanism inside a subject (all must be positive)."""
    from cdpsym.mechanisms import Composition

    if isinstance(obj, (Gaussian, Laplace, RandomizedResponse)):
        return list(obj.parameters.values())
    if isinstance(obj, Composition):
        return [e for base, _ in obj.groups for e in _mechanism_parameters(base)]
    if isinstance(obj, NotionComposition):
        return [e for p in obj.parts for e in _mechanism_parameters(p)]
    if isinstance(obj, Group):
        return _mechanism_parameters(obj.subject)
    return []


def _replace(obj: Any, mapping: dict) -> Any:
    """*obj* with the parameters of *mapping* substituted (mechanisms and notions are rebuilt)."""
    from cdpsym.mechanisms import Composition, compose

    if not mapping or obj is None:
        return obj
    if isinstance(obj, Notion):
        return type(obj)(**{k: v.xreplace(mapping) for k, v in obj.params().items()})
    if isinstance(obj, (Gaussian, Laplace, RandomizedResponse)):
        params = obj.parameters if isinstance(obj.parameters, dict) else obj.parameters()
        return type(obj)(**{k: v.xreplace(mapping) for k, v in params.items()})
    if isinstance(obj, Composition):
        parts = [compose(_replace(base, mapping), k=sp.sympify(count).xreplace(mapping)) for base, count in obj.groups]
        return compose(*parts) if len(parts) > 1 else parts[0]
    if isinstance(obj, NotionComposition):
        return NotionComposition(tuple(_replace(p, mapping) for p in obj.parts), obj.k.xreplace(mapping))
    if isinstance(obj, Group):
        return Group(obj.size.xreplace(mapping), _replace(obj.subject, mapping))
    return obj


def parse_claim(text: str) -> Claim:
    """The :class:`Claim` that *text* states (see the module docstring); :class:`ParseError` otherwise."""
    if not isinstance(text, str):
        raise ParseError(f"expected the text of a claim, got {type(text).__name__}")
    if len(text) > MAX_CLAIM_LENGTH:
        raise ParseError(f"claim too long: {len(text)} characters (at most {MAX_CLAIM_LENGTH})")
    tree = _parse(text)
    builder = ClaimBuilder(text, CANONICAL_SYMBOLS)
    try:
        return builder.claim(tree)
    except InvalidParameter as exc:
        if isinstance(exc, ParseError):
            raise
        raise OutOfDomain(str(exc), text=text) from None
    except RecursionError:
        raise ParseError("claim nested too deeply", text=text) from None


def _parse(text: str) -> Tree:
    return parse_tree(text, CLAIM_GRAMMAR, max_length=MAX_CLAIM_LENGTH)

