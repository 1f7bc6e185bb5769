"""The proof kernel: facts, calc chains, justifications, and the checker.

A **fact** is a universally quantified relation ``lhs R rhs`` (R one of
``=``, ``<=``, ``<``) over variables with domains, with optional side
conditions.  Three kinds of fact exist:

* :class:`Axiom` — a cited result cdpsym takes as given (a definition, or a
  classical fact such as Markov's inequality or the Gaussian integral).  The
  axioms form the *trusted base*; every theorem's report lists the axioms it
  rests on, and each axiom still gets numeric and property checks.
* :class:`Hypothesis` — a local assumption of one theorem (e.g. "the
  mechanism is ρ-zCDP").
* a :class:`Part` of a :class:`~cdpsym.proof.theorem.Theorem` — a conclusion
  with a proof chain.

A **chain** is Lean's ``calc``: ``e0 R1 e1 R2 e2 …``, each step carrying a
justification whose ``check`` returns a :class:`StepResult`.  Nothing is
reported as proved unless every step was closed symbolically (or, for
``certified``, by rigorous interval arithmetic on a stated box).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping, Sequence

import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr.domains import Interval, as_expr
from cdpsym.proof.algebra import Context, Decision, equivalent, prove_sign

__all__ = [
    "Rel", "eq", "le", "lt", "Fact", "Axiom", "Hypothesis", "Chain", "Step", "StepResult",
    "Justification", "Algebra", "By", "Sign", "Specialize", "IntervalBound", "Numeric",
    "algebra", "by", "sign", "specialize", "interval", "numeric", "STATUS_ORDER", "weakest",
    "Taylor", "Induction", "taylor", "induction",
]

# proved > certified > supported > failed
STATUS_ORDER = {"proved": 3, "certified": 2, "supported": 1, "failed": 0}


def weakest(statuses: Iterable[str]) -> str:
    out = "proved"
    for s in statuses:
        if STATUS_ORDER[s] < STATUS_ORDER[out]:
            out = s
    return out


def _status_of(decision: Decision) -> str:
    return {True: "proved", None: "supported", False: "failed"}[decision.ok]


# -- relations ----------------------------------------------------------------------------------

_OPS = ("=", "<=", "<")


@dataclass(frozen=True)
class Rel:
    """``lhs op rhs`` with op in ``=``, ``<=``, ``<`` — kept unevaluated (sympy would decide ``x <= x``)."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr

    def __post_init__(self) -> None:
        if self.op not in _OPS:
            raise ProofError(f"relation must be one of {_OPS}, got {self.op!r}")
        object.__setattr__(self, "lhs", as_expr(self.lhs))
        object.__setattr__(self, "rhs", as_expr(self.rhs))

    def subs(self, mapping: Mapping[sp.Basic, sp.Expr]) -> "Rel":
        return Rel(self.lhs.xreplace(dict(mapping)), self.op, self.rhs.xreplace(dict(mapping)))

    def latex(self, names: Mapping[sp.Symbol, str] | None = None) -> str:
        from cdpsym.render.latex import tex

        op = {"=": "=", "<=": r"\le", "<": "<"}[self.op]
        return f"{tex(self.lhs)} {op} {tex(self.rhs)}"

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

    kind = "fact"

    def symbolic_status(self, stack: tuple[str, ...] = ()) -> tuple[str, tuple[str, ...]]:
        """(status, trusted axioms) of this fact's own justification."""
        return "proved", ()

    def instantiate(self, inst: Mapping[str, object]) -> tuple[Rel, list[tuple[str, sp.Expr, Interval | Rel]]]:
        """The instantiated relation and the obligations (value, domain) to discharge."""
        by_name = {str(v): v for v in self.variables}
        unknown = set(inst) - set(by_name)
        if unknown:
            raise ProofError(f"{self.name} has no variable(s) {sorted(unknown)}; it has {sorted(by_name)}")
        mapping = {by_name[n]: as_expr(v) for n, v in inst.items()}
        full = {v: mapping.get(v, v) for v in self.variables}
        rel = self.relation.subs(full)
        obligations: list[tuple[str, sp.Expr, Interval | Rel]] = [
            (str(v), full[v], dom.__class__(dom.lo.xreplace(full), dom.hi.xreplace(full), dom.left_open,
                                            dom.right_open, dom.integer))
            for v, dom in self.variables.items()]
        obligations += [(f"condition {c.plain()}", sp.S.Zero, c.subs(full)) for c in self.conditions]
        return rel, obligations


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

    def symbolic_status(self, stack: tuple[str, ...] = ()) -> tuple[str, tuple[str, ...]]:
        return "proved", (self.name,)


@dataclass(frozen=True, eq=False)
class Hypothesis(Fact):
    """A local assumption of a theorem."""

    kind = "hypothesis"


# -- steps and justifications --------------------------------------------------------------------

@dataclass(frozen=True)
class StepResult:
    status: str  # proved | certified | supported | failed
    method: str  # algebra | by:NAME | sign | specialize | interval | numeric
    detail: str = ""
    axioms: tuple[str, ...] = ()
    point: Mapping[str, str] | None = None


class Justification:
    """Why ``lhs op rhs`` holds; ``check`` decides it in a context."""

    method = "?"

    def check(self, lhs: sp.Expr, op: str, rhs: sp.Expr, ctx: Context, chain: "Chain") -> StepResult:
        raise NotImplementedError

    def latex(self) -> str:
        return rf"\text{{{self.method}}}"


@dataclass(frozen=True)
class Algebra(Justification):
    """``lhs == rhs`` is an identity (canonical forms, then sympy simplification)."""

    note: str = ""
    method = "algebra"

    def check(self, lhs, op, rhs, ctx, chain):
        d = equivalent(lhs, rhs, ctx)
        return StepResult(_status_of(d), "algebra", d.detail, point=d.point)

    def latex(self) -> str:
        from cdpsym.render.latex import text

        return rf"\text{{{text(self.note or 'algebra')}}}"


@dataclass(frozen=True)
class Sign(Justification):
    """``rhs - lhs`` is non-negative (positive for ``<``) on the domains: a symbolic sign argument."""

    note: str = ""
    method = "sign"

    def check(self, lhs, op, rhs, ctx, chain):
        if op == "=":
            return StepResult("failed", "sign", "a sign argument justifies <= or <, not =")
        d = prove_sign(rhs - lhs, ctx, strict=(op == "<"))
        return StepResult(_status_of(d), "sign", d.detail, point=d.point)

    def latex(self) -> str:
        from cdpsym.render.latex import text

        return rf"\text{{{text(self.note or 'since the difference is non-negative')}}}"


@dataclass(frozen=True)
class By(Justification):
    """An instance of a fact, optionally inside a context ``inside(·)`` that is increasing.

    With ``inside=None`` the step must *be* the instantiated fact (``lhs ≡ A``,
    ``rhs ≡ B``), or — for an equation — ``rhs`` must be ``lhs`` with ``A``
    rewritten to ``B``.  With ``inside=F`` the step is ``F(A) op F(B)``; for an
    inequality the kernel proves ``F`` non-decreasing (derivative sign).
    """

    fact: Fact
    inst: Mapping[str, object] = field(default_factory=dict)
    inside: Callable[[sp.Expr], sp.Expr] | None = None
    given: Mapping[str, object] = field(default_factory=dict)
    method = "by"

    def check(self, lhs, op, rhs, ctx, chain):
        fact = self.fact
        method = f"by:{fact.name}"
        if fact.kind == "hypothesis" and not _in_scope(fact, ctx):
            return StepResult("failed", method, f"'{fact.name}' is not a hypothesis in scope here")
        fstatus, axioms = fact.symbolic_status()
        try:
            rel, obligations = fact.instantiate(self.inst)
        except ProofError as exc:
            return StepResult("failed", method, str(exc))
        if not implies_op(rel.op, op):
            return StepResult("failed", method, f"{fact.name} gives '{rel.op}', the step claims '{op}'")
        statuses = [fstatus]
        notes: list[str] = []
        used: set[str] = set(axioms)
        # the fact's variables must lie in their domains, its conditions must hold
        for label, value, dom in obligations:
            needs = _as_relations(value, dom)
            if isinstance(needs, Decision):  # integrality: decided directly
                decs = [(needs, "proved" if needs.ok else _status_of(needs), ())]
            else:
                decs = [_discharge_relation(need, self.given.get(label), ctx) for need in needs]
            for dec, status, axs in decs:
                used.update(axs)
                statuses.append(status)
                if dec.ok is False:
                    return StepResult("failed", method, f"hypothesis not met — {label}: {dec.detail}",
                                      tuple(sorted(used)), dec.point)
                if dec.ok is not True or status != "proved":
                    notes.append(f"{label}: {dec.detail} ({status})")
        # a cited theorem's own hypotheses, instantiated, must hold here too
        theorem = getattr(fact, "theorem", None)
        if theorem is not None:
            full = _instantiation(fact, self.inst)
            for hyp in theorem.hypotheses:
                need = hyp.relation.subs(full)
                dec, status, axs = _discharge_relation(need, self.given.get(hyp.name), ctx, hyp)
                used.update(axs)
                statuses.append(status)
                if dec.ok is False:
                    return StepResult("failed", method, f"hypothesis '{hyp.name}' of {theorem.name} not met: "
                                      f"{dec.detail}", tuple(sorted(used)), dec.point)
                if dec.ok is not True or status != "proved":
                    notes.append(f"hypothesis '{hyp.name}': {dec.detail} ({status})")
            if fstatus != "proved":
                notes.append(f"{theorem.name} is only {fstatus}")
        a, b = rel.lhs, rel.rhs
        match = self._match(lhs, rhs, a, b, rel.op, ctx)
        statuses.append(_status_of(match))
        if match.ok is False:
            return StepResult("failed", method, f"the step is not an instance of {fact.name}: {match.detail}",
                              tuple(sorted(used)), match.point)
        if match.ok is None:
            notes.append(match.detail)
        status = weakest(statuses)
        return StepResult(status, method, "; ".join(notes) or "instance checked, hypotheses discharged",
                          tuple(sorted(used)))

    def _match(self, lhs, rhs, a, b, fop, ctx) -> Decision:
        if self.inside is not None:
            w = sp.Dummy("w", nonnegative=True) if (a.is_nonnegative and b.is_nonnegative) else sp.Dummy("w", real=True)
            fa, fb = self.inside(a), self.inside(b)
            d1, d2 = equivalent(lhs, fa, ctx), equivalent(rhs, fb, ctx)
            if fop != "=":
                mono = prove_sign(sp.diff(self.inside(w), w), ctx.extended({}))
                if mono.ok is not True:
                    return Decision(mono.ok if mono.ok is False else None,
                                    f"context not shown non-decreasing: {mono.detail}")
            return _both(d1, d2)
        d = _both(equivalent(lhs, a, ctx), equivalent(rhs, b, ctx))
        if d.ok is True or fop != "=":
            return d
        # an equation may also be used to rewrite a subterm, in either direction
        from cdpsym.proof.algebra import canon

        cl = canon(lhs)
        for src, dst in ((a, b), (b, a)):
            for core, value in _rewrites(canon(src), canon(dst)):
                rewritten = cl.xreplace({core: value})
                if rewritten != cl:
                    d2 = equivalent(rewritten, rhs, ctx)
                    if d2.ok is True:
                        return d2
                    if d2.ok is None and d.ok is False:
                        d = d2
        return d

    def latex(self) -> str:
        from cdpsym.render.latex import fact_label

        return fact_label(self.fact)


def _rewrites(src: sp.Expr, dst: sp.Expr) -> list[tuple[sp.Expr, sp.Expr]]:
    """Ways to use ``src = dst`` as a rewrite rule on canonical forms.

    ``src`` itself, and — when ``src = k*T`` with ``T`` its only opaque factor
    and ``k`` provably non-zero — the rule ``T -> dst/k``.
    """
    from cdpsym.proof.algebra import opaque_terms

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


def _local_fact(need: Rel, ctx: Context, hyp: Fact | None = None) -> str | None:
    """The name of a local hypothesis that states ``need`` (up to identities).

    A quantified hypothesis (``for all lam > 0: ...``) matches only a quantified
    need over the same variables with the same domains.
    """
    want_vars = {str(v): d.describe() for v, d in (hyp.variables.items() if hyp is not None else ())}
    for fact in ctx.facts:
        have_vars = {str(v): d.describe() for v, d in fact.variables.items()}
        if have_vars != want_vars or not implies_op(fact.relation.op, need.op):
            continue
        if equivalent(fact.relation.lhs, need.lhs, ctx).ok is True and \
                equivalent(fact.relation.rhs, need.rhs, ctx).ok is True:
            return fact.name
    return None


def _in_scope(fact: Fact, ctx: Context) -> bool:
    """A hypothesis may only be cited where it is assumed (the theorem's own, or an induction hypothesis)."""
    for local in ctx.facts:
        if local is fact:
            return True
        if (local.name == fact.name and set(map(str, local.variables)) == set(map(str, fact.variables))
                and local.relation.op == fact.relation.op
                and equivalent(local.relation.lhs, fact.relation.lhs, ctx).ok is True
                and equivalent(local.relation.rhs, fact.relation.rhs, ctx).ok is True):
            return True
    return False


def _instantiation(fact: Fact, inst: Mapping[str, object]) -> dict[sp.Symbol, sp.Expr]:
    by_name = {str(v): v for v in fact.variables}
    full = {v: v for v in fact.variables}
    full.update({by_name[n]: as_expr(v) for n, v in inst.items() if n in by_name})
    return full


def _as_relations(value: sp.Expr, dom: Interval | Rel) -> list[Rel] | Decision:
    """The relations that say ``value`` lies in ``dom`` (or the condition ``dom`` itself)."""
    if isinstance(dom, Rel):
        return [dom]
    needs: list[Rel] = []
    if dom.lo.is_finite is not False and dom.lo is not sp.S.NegativeInfinity:
        needs.append(Rel(dom.lo, "<" if dom.left_open else "<=", value))
    if dom.hi.is_finite is not False and dom.hi is not sp.S.Infinity:
        needs.append(Rel(value, "<" if dom.right_open else "<=", dom.hi))
    if dom.integer and value.is_integer is not True:
        return Decision(None if value.is_integer is None else False, "integrality not shown")
    return needs


def _discharge_relation(need: Rel, proof: object, ctx: Context, hyp: Fact | None = None
                        ) -> tuple[Decision, str, tuple[str, ...]]:
    """Prove ``need`` with a given proof (chain, justification, or a list of them), a local
    hypothesis, or a symbolic sign/identity argument.  Returns (decision, status, axioms used)."""
    proofs = proof if isinstance(proof, (list, tuple)) else ([proof] if proof is not None else [])
    first_failure: Decision | None = None
    for pr in proofs:
        if isinstance(pr, Chain):
            results = pr.check(ctx)
            ends = [equivalent(pr.start, need.lhs, ctx), equivalent(pr.end, need.rhs, ctx)]
            statuses = [r.status for r in results] + [_status_of(d) for d in ends]
            if not implies_op(pr.op, need.op):
                statuses.append("failed")
            axs = tuple(sorted({a for r in results for a in r.axioms}))
            status = weakest(statuses)
            if status != "failed":
                return Decision(True, "proved by the given chain"), status, axs
            bad = [r.detail for r in results if r.status == "failed"] or ["its ends do not match"]
            first_failure = first_failure or Decision(False, "the given chain fails: " + "; ".join(bad))
        elif isinstance(pr, Justification):
            res = pr.check(need.lhs, need.op, need.rhs, ctx, Chain(need.lhs))
            if res.status != "failed":
                return Decision(True, res.detail), res.status, res.axioms
            first_failure = first_failure or Decision(False, res.detail, res.point)
        else:
            raise ProofError(f"given proofs are chains or justifications, got {pr!r}")
    local = _local_fact(need, ctx, hyp)
    if local is not None:
        return Decision(True, f"is the local hypothesis '{local}'"), "proved", ()
    if hyp is not None and (hyp.variables or need.lhs.has(*_opaque()) or need.rhs.has(*_opaque())):
        # a statement about random quantities: only a proof or a local hypothesis discharges it
        d = first_failure or Decision(None, "no proof given and no local hypothesis matches")
        return d, _status_of(d), ()
    if need.op == "=":
        d = equivalent(need.lhs, need.rhs, ctx)
    else:
        d = prove_sign(need.rhs - need.lhs, ctx, strict=(need.op == "<"))
    if d.ok is not True and first_failure is not None:
        d = first_failure
    return d, _status_of(d), ()


def _discharge(value: sp.Expr, dom: Interval | Rel, ctx: Context) -> Decision:
    """``value`` lies in ``dom``, by sign/identity arguments and local hypotheses."""
    needs = _as_relations(value, dom)
    if isinstance(needs, Decision):
        return needs
    decisions = [_discharge_relation(n, None, ctx)[0] for n in needs]
    for d in decisions:
        if d.ok is False:
            return d
    for d in decisions:
        if d.ok is None:
            return d
    return Decision(True, "in domain")


def _opaque():
    from cdpsym.expr.operators import OPAQUE

    return OPAQUE


@dataclass(frozen=True)
class Specialize(Justification):
    """Instantiate a chain variable (universally quantified in the chain so far) at a value.

    ``minimizes``: an expression in the variable that the value is claimed to
    minimise; the kernel checks the first derivative vanishes there and the
    second is positive (strict convexity), and the LaTeX says so.
    """

    var: sp.Symbol
    value: sp.Expr
    minimizes: sp.Expr | None = None
    method = "specialize"

    def check(self, lhs, op, rhs, ctx, chain):
        if self.var not in chain.variables:
            return StepResult("failed", "specialize", f"{self.var} is not a variable of this chain")
        if chain.start.has(self.var):
            return StepResult("failed", "specialize", f"the chain starts with {self.var}: it cannot be fixed")
        outer = Context({s: d for s, d in ctx.domains.items() if s != self.var})
        dom = chain.variables[self.var]
        dis = _discharge(as_expr(self.value), dom, outer)
        if dis.ok is False:
            return StepResult("failed", "specialize", f"{self.var}={self.value} outside {dom.describe()}: {dis.detail}",
                              point=dis.point)
        eqd = equivalent(lhs.xreplace({self.var: self.value}), rhs, outer)
        statuses = [_status_of(dis), _status_of(eqd)]
        notes = [d.detail for d in (dis, eqd) if d.ok is not True]
        if self.minimizes is not None:
            g = self.minimizes
            d1 = equivalent(sp.diff(g, self.var).xreplace({self.var: self.value}), sp.S.Zero, outer)
            d2 = prove_sign(sp.diff(g, self.var, 2), ctx, strict=True)
            statuses += [_status_of(d1), _status_of(d2)]
            notes += [f"optimality: {d.detail}" for d in (d1, d2) if d.ok is not True]
        if eqd.ok is False:
            return StepResult("failed", "specialize", f"substitution does not give the next line: {eqd.detail}",
                              point=eqd.point)
        return StepResult(weakest(statuses), "specialize", "; ".join(notes) or "value in domain; substitution checked")

    def latex(self) -> str:
        from cdpsym.render.latex import tex

        s = rf"\text{{take }} {tex(self.var)} = {tex(self.value)}"
        if self.minimizes is not None:
            s += r"\text{ (the minimiser)}"
        return s


@dataclass(frozen=True)
class IntervalBound(Justification):
    """``rhs - lhs >= 0`` certified by Arb branch-and-bound on a box: a proof *on that box*."""

    box: Mapping[sp.Symbol, tuple[object, object]]
    max_boxes: int = 4000
    method = "interval"

    def check(self, lhs, op, rhs, ctx, chain):
        from cdpsym.verify.interval import certify_nonnegative

        res = certify_nonnegative(rhs - lhs, self.box, strict=(op == "<"), max_boxes=self.max_boxes)
        status = {True: "certified", False: "failed", None: "supported"}[res.ok]
        return StepResult(status, "interval", res.detail, point=res.point)

    def latex(self) -> str:
        return r"\text{interval arithmetic on a box}"


@dataclass(frozen=True)
class Numeric(Justification):
    """Evidence only: the step holds at sample points.  A chain using it is at best *supported*."""

    samples: int = 12
    method = "numeric"

    def check(self, lhs, op, rhs, ctx, chain):
        if op == "=":
            d = equivalent(lhs, rhs, ctx, samples=self.samples)
        else:
            d = prove_sign(rhs - lhs, ctx, strict=(op == "<"), samples=self.samples)
        if d.ok is False:
            return StepResult("failed", "numeric", d.detail, point=d.point)
        return StepResult("supported", "numeric", f"holds at {self.samples} sample points (evidence, not proof)")

    def latex(self) -> str:
        return r"\text{numerically (evidence only)}"


@dataclass(frozen=True)
class Taylor(Justification):
    """``g(h) <= g(0) + g'(0) h + M h^2/2`` when ``g'' <= M`` everywhere (Taylor, Lagrange remainder).

    ``g`` is a one-argument function; the kernel computes ``g(0)``, ``g'(0)``
    and proves ``M - g''(v) >= 0`` for every real ``v`` symbolically.
    """

    g: Callable[[sp.Expr], sp.Expr]
    h: sp.Expr
    bound: sp.Expr
    method = "taylor"

    def check(self, lhs, op, rhs, ctx, chain):
        if op == "=":
            return StepResult("failed", "taylor", "Taylor's bound justifies <=, not =")
        v = sp.Dummy("v", real=True)
        gv = self.g(v)
        g0 = sp.simplify(gv.subs(v, 0))
        d1 = sp.simplify(sp.diff(gv, v).subs(v, 0))
        d2 = sp.diff(gv, v, 2)
        dl = equivalent(lhs, self.g(self.h), ctx)
        dr = equivalent(rhs, g0 + d1 * self.h + self.bound * self.h ** 2 / 2, ctx)
        dm = prove_sign(self.bound - d2, ctx)
        for label, d in (("left side", dl), ("right side", dr), ("second-derivative bound", dm)):
            if d.ok is False:
                return StepResult("failed", "taylor", f"{label}: {d.detail}", point=d.point)
        status = weakest(_status_of(d) for d in (dl, dr, dm))
        notes = [f"{lbl}: {d.detail}" for lbl, d in (("left", dl), ("right", dr), ("g''", dm)) if d.ok is None]
        return StepResult(status, "taylor", "; ".join(notes) or f"g(0)={g0}, g'(0)={d1}, g'' <= {self.bound} proved",
                          ("taylor_lagrange",))

    def latex(self) -> str:
        from cdpsym.render.latex import tex

        return (r"	ext{\textbf{Taylor's theorem} (Lagrange remainder), } g''\le " + tex(self.bound))


@dataclass(frozen=True)
class Induction(Justification):
    """Induction on an integer chain/theorem variable ``var`` (domain: integers >= 1).

    ``base`` proves the step's statement at ``var = 1``; ``step`` is a chain
    proving it at ``var + 1`` with the statement at ``var`` in scope as the
    hypothesis named ``ih``.
    """

    var: sp.Symbol
    base: "Chain | Justification"
    step: "Chain"
    method = "induction"

    def check(self, lhs, op, rhs, ctx, chain):
        dom = ctx.domains.get(self.var)
        if dom is None or not dom.integer or dom.lo != 1 or dom.left_open:
            return StepResult("failed", "induction", f"{self.var} must range over the integers >= 1")
        one = {self.var: sp.Integer(1)}
        nxt = {self.var: self.var + 1}
        # Hypotheses that mention the induction variable (free) hold for *the* k of the statement, not for
        # every smaller index: they are out of scope in the base case and in the inductive step.
        ctx = Context(dict(ctx.domains), tuple(f for f in ctx.facts if not _mentions(f, self.var)))
        results = []
        if isinstance(self.base, Chain):
            results += _sub_chain(self.base, lhs.xreplace(one), op, rhs.xreplace(one), ctx)
        else:
            results.append(self.base.check(lhs.xreplace(one), op, rhs.xreplace(one), ctx, chain))
        ih = Hypothesis(name="ih", title="induction hypothesis", relation=Rel(lhs, op, rhs))
        step_ctx = Context(dict(ctx.domains), tuple(ctx.facts) + (ih,))
        results += _sub_chain(self.step, lhs.xreplace(nxt), op, rhs.xreplace(nxt), step_ctx)
        bad = [r for r in results if r.status == "failed"]
        if bad:
            return StepResult("failed", "induction", "; ".join(r.detail for r in bad), point=bad[0].point)
        axioms = tuple(sorted({a for r in results for a in r.axioms}))
        notes = [r.detail for r in results if r.status != "proved"]
        return StepResult(weakest(r.status for r in results), "induction",
                          "; ".join(notes) or f"base case and inductive step checked ({len(results)} sub-steps)", axioms)

    def latex(self) -> str:
        from cdpsym.render.latex import tex

        return r"\text{by induction on }" + tex(self.var)


def _mentions(fact: Fact, var: sp.Symbol) -> bool:
    """Does ``fact`` say something about ``var`` (as a free symbol, not as its own bound variable)?"""
    if var in fact.variables:
        return False
    rel = fact.relation
    return rel.lhs.has(var) or rel.rhs.has(var) or any(c.lhs.has(var) or c.rhs.has(var) for c in fact.conditions)


def _sub_chain(sub: "Chain", want_lhs, op, want_rhs, ctx: Context) -> list[StepResult]:
    """Check a sub-proof chain and that it proves ``want_lhs op want_rhs``."""
    results = sub.check(ctx)
    ends = [("start", equivalent(sub.start, want_lhs, ctx)), ("end", equivalent(sub.end, want_rhs, ctx))]
    for label, d in ends:
        if d.ok is not True:
            results.append(StepResult(_status_of(d), "chain", f"sub-proof {label} does not match: {d.detail}"))
    if not implies_op(sub.op, op):
        results.append(StepResult("failed", "chain", f"sub-proof proves '{sub.op}', needed '{op}'"))
    return results


def taylor(g: Callable[[sp.Expr], sp.Expr], h: object, bound: object) -> Taylor:
    return Taylor(g, as_expr(h), as_expr(bound))


def induction(var: sp.Symbol, base: "Chain | Justification", step: "Chain") -> Induction:
    return Induction(var, base, step)


def algebra(note: str = "") -> Algebra:
    return Algebra(note)


def sign(note: str = "") -> Sign:
    return Sign(note)


def by(fact: object, inside: Callable[[sp.Expr], sp.Expr] | None = None,
       given: Mapping[str, object] | None = None, **inst: object) -> By:
    """Cite a fact (axiom, hypothesis, theorem part; a one-part theorem stands for its part).

    ``inst`` instantiates the fact's variables by name; ``inside`` is the
    context the instance sits in; ``given`` proves the cited theorem's
    hypotheses (name -> justification or chain) where they are not literally
    hypotheses of the citing theorem.
    """
    if not isinstance(fact, Fact):
        main = getattr(fact, "main", None)
        if not isinstance(main, Fact):
            raise ProofError(f"by() cites a fact or a theorem, got {fact!r}")
        fact = main
    return By(fact, inst, inside, dict(given or {}))


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

    def check(self, ctx: Context) -> list[StepResult]:
        """Check every step; each result says which checker closed it."""
        results: list[StepResult] = []
        ctx = ctx.extended(self.variables)
        lhs = self.start
        for step in self.steps:
            try:
                res = step.why.check(lhs, step.op, step.expr, ctx, self)
            except ProofError as exc:
                res = StepResult("failed", step.why.method, str(exc))
            results.append(res)
            lhs = step.expr
        return results
