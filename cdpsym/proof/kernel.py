"""Proof data: relations, facts, calc chains and justification records.

Nothing in this module decides anything.  A **fact** is a universally quantified relation ``lhs R rhs``
(R one of ``=``, ``<=``, ``<``) over variables with domains, with optional side conditions:

* :class:`Axiom` -- a cited result taken as given.  It counts only once registered in the trusted base
  (:func:`cdpsym.proof.register_axioms`); every report lists the axioms it rests on.
* :class:`Hypothesis` -- a local assumption of one theorem.
* a :class:`~cdpsym.proof.theorem.Part` of a :class:`~cdpsym.proof.theorem.Theorem` -- a conclusion
  with a proof chain.

A **chain** is Lean's ``calc``: ``e0 R1 e1 R2 e2 ...``, each step carrying a justification *record*
(:func:`algebra`, :func:`by`, ...).  The trusted core (:mod:`cdpsym.proof.core`) checks the records; this
module only builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr.domains import Interval, as_expr

__all__ = [
    "Rel", "eq", "le", "lt", "Fact", "Axiom", "Hypothesis", "Chain", "Step", "StepResult",
    "Justification", "Algebra", "By", "Sign", "Specialize", "IntervalBound", "Numeric",
    "algebra", "by", "sign", "specialize", "interval", "numeric", "STATUS_ORDER", "weakest",
    "Taylor", "Induction", "taylor", "induction", "OPS",
]

# proved > certified > supported > failed
STATUS_ORDER = {"proved": 3, "certified": 2, "supported": 1, "failed": 0}


def weakest(statuses: Iterable[str]) -> str:
    out = "proved"
    for s in statuses:
        if STATUS_ORDER[s] < STATUS_ORDER[out]:
            out = s
    return out


# -- relations ----------------------------------------------------------------------------------

OPS = ("=", "<=", "<")


@dataclass(frozen=True)
class Rel:
    """``lhs op rhs`` with op in ``=``, ``<=``, ``<`` — kept unevaluated (sympy would decide ``x <= x``)."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ProofError(f"relation must be one of {OPS}, got {self.op!r}")
        object.__setattr__(self, "lhs", as_expr(self.lhs))
        object.__setattr__(self, "rhs", as_expr(self.rhs))

    def plain(self) -> str:
        return f"{self.lhs} {self.op} {self.rhs}"


def eq(lhs: object, rhs: object) -> Rel:
    return Rel(lhs, "=", rhs)  # type: ignore[arg-type]


def le(lhs: object, rhs: object) -> Rel:
    return Rel(lhs, "<=", rhs)  # type: ignore[arg-type]


def lt(lhs: object, rhs: object) -> Rel:
    return Rel(lhs, "<", rhs)  # type: ignore[arg-type]


def compose_ops(ops: Sequence[str]) -> str:
    """The relation of a chain ``e0 R1 e1 R2 …``: ``<`` beats ``<=`` beats ``=``."""
    if "<" in ops:
        return "<"
    if "<=" in ops:
        return "<="
    return "="


def implies_op(have: str, want: str) -> bool:
    """Does ``a have b`` give ``a want b``?"""
    return have == want or (want == "<=" and have in ("=", "<"))


# -- facts ------------------------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Fact:
    """``for all variables in their domains with conditions: relation``."""

    name: str
    relation: Rel
    variables: Mapping[sp.Symbol, Interval] = field(default_factory=dict)
    conditions: tuple[Rel, ...] = ()
    citation: str = ""
    title: str = ""

    #: variable name -> symbols its instance may not mention (nor any opaque operator): a statement about
    #: a class of pairs, for instance, may not be instantiated with a bound that names the pair
    free_of: Mapping[str, tuple] = field(default_factory=dict)

    kind = "fact"


@dataclass(frozen=True, eq=False)
class Axiom(Fact):
    """A cited result taken as given: part of the trusted base.

    It still gets numeric and property checks when it has a ground truth.
    """

    kind = "axiom"
    reference: str = ""
    ground_truth: Callable | None = None
    numeric_points: tuple = ()
    property_examples: int = 15


@dataclass(frozen=True, eq=False)
class Hypothesis(Fact):
    """A local assumption of a theorem."""

    kind = "hypothesis"


# -- steps and justification records ----------------------------------------------------------------

@dataclass(frozen=True)
class StepResult:
    """The core's verdict on one step, with the method that closed it and what it rests on."""

    status: str  # proved | certified | supported | failed
    method: str  # algebra | by:NAME | sign | specialize | interval | numeric | taylor | induction
    detail: str = ""
    axioms: tuple[str, ...] = ()
    point: Mapping[str, str] | None = None
    rules: tuple[str, ...] = ()  # kernel rules taken as given (taylor, induction, interval)


class Justification:
    """A record of why a step holds; :mod:`cdpsym.proof.core` decides whether it does."""

    method = "?"


@dataclass(frozen=True)
class Algebra(Justification):
    """``lhs == rhs`` is an identity (canonical forms, then sympy simplification)."""

    note: str = ""
    method = "algebra"


@dataclass(frozen=True)
class Sign(Justification):
    """``rhs - lhs`` is non-negative (positive for ``<``) on the domains: a symbolic sign argument."""

    note: str = ""
    method = "sign"


@dataclass(frozen=True)
class By(Justification):
    """An instance of a fact, optionally inside a context ``inside``.

    ``inside`` may be given as a one-argument function: it is called once, here, on a fresh symbol, and
    the record keeps the pair ``(symbol, expression)`` -- the core never runs user code.
    """

    fact: Fact
    inst: Mapping[str, object] = field(default_factory=dict)
    inside: "tuple[sp.Symbol, sp.Expr] | Callable[[sp.Expr], sp.Expr] | None" = None
    given: Mapping[str, object] = field(default_factory=dict)
    at_step: sp.Expr | None = None  # apply a fact about the class of pairs to the pair of composition step i
    flip: bool = False  # with at_step: use an equation A = B as B <= A
    at_link: sp.Expr | None = None  # apply a fact about the class of pairs to link j of a chain of inputs
    over_chains: bool = False  # bound the supremum over every chain of the class by a fact about the scope's chain
    method = "by"

    def __post_init__(self) -> None:
        if self.at_step is not None:
            object.__setattr__(self, "at_step", as_expr(self.at_step))
        if self.at_link is not None:
            object.__setattr__(self, "at_link", as_expr(self.at_link))
        if self.inside is not None and not isinstance(self.inside, tuple):
            w = sp.Dummy("w", real=True)
            object.__setattr__(self, "inside", (w, as_expr(self.inside(w))))


@dataclass(frozen=True)
class Specialize(Justification):
    """Instantiate a chain variable (universally quantified in the chain so far) at a value; ``minimizes``:
    an expression the value is claimed to minimise (first derivative 0, second positive)."""

    var: sp.Symbol
    value: sp.Expr
    minimizes: sp.Expr | None = None
    method = "specialize"


@dataclass(frozen=True)
class IntervalBound(Justification):
    """``rhs - lhs >= 0`` by Arb branch-and-bound on a box that must cover the whole domain."""

    box: Mapping[sp.Symbol, tuple[object, object]]
    max_boxes: int = 4000
    method = "interval"


@dataclass(frozen=True)
class Numeric(Justification):
    """Evidence only: the step holds at sample points.  A chain using it is at best *supported*."""

    samples: int = 12
    method = "numeric"


@dataclass(frozen=True)
class Taylor(Justification):
    """``g(h) <= g(0) + g'(0) h + M h^2/2`` when ``g`` is smooth and ``g'' <= M`` on the reals.

    ``g`` may be given as a one-argument function: it is called once, here, on a fresh real symbol, and the
    record keeps ``(symbol, expression)``.
    """

    g: "tuple[sp.Symbol, sp.Expr] | Callable[[sp.Expr], sp.Expr]"
    h: sp.Expr
    bound: sp.Expr
    method = "taylor"

    def __post_init__(self) -> None:
        if not isinstance(self.g, tuple):
            v = sp.Dummy("v", real=True)
            object.__setattr__(self, "g", (v, as_expr(self.g(v))))


@dataclass(frozen=True)
class Induction(Justification):
    """Induction on an integer variable ``var`` ranging over 1, 2, ...: ``base`` proves the step at
    ``var = 1``, ``step`` is a chain proving it at ``var + 1`` with the statement at ``var`` in scope as
    the hypothesis ``ih``."""

    var: sp.Symbol
    base: "Chain | Justification"
    step: "Chain"
    method = "induction"


@dataclass(frozen=True)
class Monotone(Justification):
    """``lhs <= rhs`` (or ``<``) on the domain of the real variable ``var``, whose lower end is ``a``:
    the difference ``h = rhs - lhs`` is ``>= 0`` at ``var = a`` and non-decreasing in ``var`` (its
    derivative ``>= 0``, shown by ``derivative``: a justification of ``0 <= h'``, by default ``sign``).
    The mean value theorem."""

    var: sp.Symbol
    derivative: "Justification | None" = None
    method = "monotone"


@dataclass(frozen=True)
class Split(Justification):
    """Cases on a real variable: the step on ``var <= at`` by ``below`` and on ``var >= at`` by ``above``."""

    var: sp.Symbol
    at: sp.Expr
    below: "Justification"
    above: "Justification"
    method = "split"


@dataclass(frozen=True)
class LimitAtEnd(Justification):
    """Pass to the limit at an end of a chain variable's domain: the chain so far shows ``start <= f(var)``
    for every ``var`` of the domain, ``f`` is continuous up to that end, so ``start <= f(end)``."""

    var: sp.Symbol
    end: str = "lo"
    method = "limit"


def limit(var: sp.Symbol, end: str = "lo") -> LimitAtEnd:
    """``f(var) <= f(a)`` as the last use of the chain variable ``var``: ``a`` is the lower (``end="lo"``) or
    upper (``end="hi"``) end of its domain; the chain's start must not mention ``var``."""
    return LimitAtEnd(var, end)


def split(var: sp.Symbol, at: object, below: "Justification", above: "Justification") -> Split:
    return Split(var, as_expr(at), below, above)


def monotone(var: sp.Symbol, derivative: "Justification | None" = None) -> Monotone:
    return Monotone(var, derivative)


def taylor(g: Callable[[sp.Expr], sp.Expr], h: object, bound: object) -> Taylor:
    return Taylor(g, as_expr(h), as_expr(bound))


def induction(var: sp.Symbol, base: "Chain | Justification", step: "Chain") -> Induction:
    return Induction(var, base, step)


def algebra(note: str = "") -> Algebra:
    return Algebra(note)


def sign(note: str = "") -> Sign:
    return Sign(note)


def by(fact: object, inside: Callable[[sp.Expr], sp.Expr] | None = None,
       given: Mapping[str, object] | None = None, at_step: object = None, flip: bool = False,
       at_link: object = None, over_chains: bool = False, **inst: object) -> By:
    """Cite a fact (axiom, hypothesis, theorem part; a one-part theorem stands for its part).

    ``inst`` instantiates the fact's variables by name; ``inside`` is the
    context the instance sits in; ``given`` proves the cited theorem's
    hypotheses (name -> justification or chain) where they are not literally
    hypotheses of the citing theorem.  ``at_step=i`` applies the instance, a
    fact about the class of pairs, to the pair of step ``i`` of the adaptive
    composition game (the kernel's class-member rule, docs/kernel.md): ``A <= B``
    becomes ``Pr[T(A) > T(B)] <= 0`` with ``L`` read as ``C_i`` and ``E``/``Pr``
    as conditional on the prefix; ``flip=True`` uses an equation ``A = B`` as
    ``B <= A``.  ``at_link=j`` applies it to the link ``(x_{j-1}, x_j)`` of a chain
    of inputs (group privacy): ``L`` read as ``ell_j``, ``P, Q`` as ``M(x_{j-1}),
    M(x_j)``, ``E`` as ``E_{M(x_{j-1})}``; the relation is kept.  ``over_chains=True``
    (the kernel's supremum rule) turns an instance ``E[G_m] <= c`` about the scope's
    chain of inputs into ``sup_{x,x'} D_KL(M(x)||M(x')) <= c`` over inputs of m entries.
    """
    if not isinstance(fact, Fact):
        main = getattr(fact, "main", None)
        if not isinstance(main, Fact):
            raise ProofError(f"by() cites a fact or a theorem, got {fact!r}")
        fact = main
    return By(fact, inst, inside, dict(given or {}), at_step, bool(flip), at_link, over_chains is True)


def specialize(minimizes: sp.Expr | None = None, **value: object) -> Specialize:
    if len(value) != 1:
        raise ProofError("specialize takes exactly one variable=value")
    (name, v), = value.items()
    from cdpsym.expr.symbols import symbol_by_name

    return Specialize(symbol_by_name(name), as_expr(v), minimizes)


def interval(box: Mapping[sp.Symbol, tuple[object, object]], max_boxes: int = 4000) -> IntervalBound:
    return IntervalBound(box, max_boxes)


def numeric(samples: int = 12) -> Numeric:
    return Numeric(samples)


# -- chains ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Step:
    op: str
    expr: sp.Expr
    why: Justification

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise ProofError(f"a step's relation must be one of {OPS}, got {self.op!r}")
        if not isinstance(self.why, Justification):
            raise ProofError(f"a step needs a justification, got {self.why!r}")
        object.__setattr__(self, "expr", as_expr(self.expr))


@dataclass(frozen=True)
class Chain:
    """``start op1 e1 op2 e2 …``, built fluently: ``Chain(a).eq(b, algebra()).le(c, by(...))``.

    ``variables`` are proof-local variables (e.g. a Rényi order α chosen later
    by :func:`specialize`) with their domains.
    """

    start: sp.Expr
    steps: tuple[Step, ...] = ()
    variables: Mapping[sp.Symbol, Interval] = field(default_factory=dict)

    def _add(self, op: str, expr: object, why: Justification) -> "Chain":
        if not isinstance(why, Justification):
            raise ProofError(f"a step needs a justification, got {why!r}")
        return Chain(self.start, self.steps + (Step(op, as_expr(expr), why),), self.variables)

    def eq(self, expr: object, why: Justification) -> "Chain":
        return self._add("=", expr, why)

    def le(self, expr: object, why: Justification) -> "Chain":
        return self._add("<=", expr, why)

    def lt(self, expr: object, why: Justification) -> "Chain":
        return self._add("<", expr, why)

    @property
    def end(self) -> sp.Expr:
        return self.steps[-1].expr if self.steps else self.start

    @property
    def op(self) -> str:
        return compose_ops([s.op for s in self.steps])

    def check(self, ctx) -> list[StepResult]:
        """Every step checked by the core in scope ``ctx`` (a :class:`cdpsym.proof.algebra.Context`)."""
        from cdpsym.proof.core import check_chain

        return check_chain(self, ctx)
