"""Theorems: hypotheses, statement parts with proof chains, checks, citation.

A :class:`Theorem` is data.  Each of its :class:`Part` s is a fact
``for all variables: lhs op rhs`` with a proof :class:`Chain`; the theorem's
:class:`Hypothesis` facts are in scope while the chains are checked, and are
*obligations* when another theorem cites a part (``by(part, given=…)``, or
matched automatically against the citing theorem's own hypotheses).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping, Sequence

import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr.domains import Interval
from cdpsym.proof.algebra import Context, equivalent
from cdpsym.proof.kernel import (By, Chain, Fact, Hypothesis, Rel, StepResult, _status_of,
                                 implies_op, weakest)

__all__ = ["Theorem", "Part", "PartResult", "SymbolicResult", "symbolic_check"]

# A ground truth computes, independently of the statement, the value of a
# part's left side at concrete parameters: a list of (witness, value).
GroundTruth = Callable[[Mapping[sp.Symbol, Any], int], Sequence[tuple[str, Any]]]


@dataclass(frozen=True, eq=False)
class Part(Fact):
    """One conclusion of a theorem, with its proof."""

    proof: Chain | None = None
    ground_truth: GroundTruth | None = None
    theorem: "Theorem | None" = None

    kind = "theorem"

    def symbolic_status(self, stack: tuple[str, ...] = ()) -> tuple[str, tuple[str, ...]]:
        if self.theorem is None:
            raise ProofError(f"part {self.name} is not attached to a theorem")
        partial = _IN_PROGRESS.get(id(self.theorem))
        if partial is not None:  # a part citing an earlier part of its own theorem
            done = partial.get(self.name)
            if done is None:
                return "failed", ()  # a later (or the same) part: circular
            return done.status, ()
        res = symbolic_check(self.theorem, stack)
        return res.status, res.axioms


@dataclass(frozen=True)
class PartResult:
    name: str
    status: str
    steps: tuple[StepResult, ...]
    detail: str = ""


@dataclass(frozen=True)
class SymbolicResult:
    status: str
    parts: tuple[PartResult, ...]
    axioms: tuple[str, ...]  # the trusted base this proof rests on (transitively)
    cited: tuple[str, ...]  # theorems cited (transitively)

    @property
    def steps_checked(self) -> int:
        return sum(len(p.steps) for p in self.parts)


@dataclass(frozen=True, eq=False)
class Theorem:
    """A library result: hypotheses, statement parts with proofs, citation, checks.

    ``reference`` is the REFERENCE.md item (``"R-C4"``); ``source`` the
    original paper with theorem number; ``notion`` the statement in the
    claim language (``"zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)"``).
    """

    name: str
    reference: str
    source: str
    title: str
    variables: Mapping[sp.Symbol, Interval]
    parts: tuple[Part, ...]
    hypotheses: tuple[Hypothesis, ...] = ()
    conditions: tuple[Rel, ...] = ()
    notion: str = ""
    numeric_points: tuple[Mapping[str, Any], ...] = ()
    property_examples: int = 60
    notes: str = ""
    tight: str = ""

    def __post_init__(self) -> None:
        if not self.parts:
            raise ProofError(f"theorem {self.name} has no parts")
        for part in self.parts:
            for v, dom in {**self.variables, **part.variables}.items():
                _check_assumptions(self.name, v, dom)
        attached = []
        for part in self.parts:
            merged = dict(self.variables)
            merged.update(part.variables)
            full_name = part.name if part.name.startswith(self.name) else (
                self.name if len(self.parts) == 1 and part.name in ("", "main") else f"{self.name}.{part.name}")
            fields_ = dict(name=full_name, variables=merged,
                           conditions=tuple(self.conditions) + tuple(part.conditions),
                           citation=self.source, title=part.title or self.title, theorem=self)
            if part.theorem is None:
                # attach in place, so chains of this theorem that cite the part see the attached object
                for key, value in fields_.items():
                    object.__setattr__(part, key, value)
                attached.append(part)
            else:  # a part of another theorem object: copy it
                attached.append(replace(part, **fields_))
        object.__setattr__(self, "parts", tuple(attached))

    # -- access ---------------------------------------------------------------------------------
    def part(self, name: str) -> Part:
        for p in self.parts:
            if p.name in (name, f"{self.name}.{name}"):
                return p
        raise ProofError(f"{self.name} has no part {name!r}; parts: {[p.name for p in self.parts]}")

    @property
    def main(self) -> Part:
        if len(self.parts) != 1:
            raise ProofError(f"{self.name} has {len(self.parts)} parts; cite one with .part(name)")
        return self.parts[0]

    def context(self) -> Context:
        return Context(dict(self.variables), tuple(self.hypotheses))

    def with_changes(self, **changes: Any) -> "Theorem":
        """A copy with fields replaced (parts are re-attached): used to build mutants in tests."""
        parts = changes.pop("parts", None)
        if parts is None:
            parts = tuple(replace(p, name=p.name.split(".", 1)[1] if "." in p.name else "main",
                                  variables={k: v for k, v in p.variables.items() if k not in self.variables},
                                  conditions=(), theorem=None) for p in self.parts)
        return replace(self, parts=parts, **changes)

    # -- verification ----------------------------------------------------------------------------
    def verify(self, *, dps: int = 50, property_examples: int | None = None, derandomize: bool = True):
        """Run the three checks; returns a :class:`cdpsym.verify.report.Report`."""
        from cdpsym.verify.runner import verify_theorem

        return verify_theorem(self, dps=dps, property_examples=property_examples, derandomize=derandomize)

    def latex(self, standalone: bool = False) -> str:
        from cdpsym.render.latex import theorem_latex

        return theorem_latex(self, standalone=standalone)

    def _repr_latex_(self) -> str:
        from cdpsym.render.latex import statement_latex

        return "$\\displaystyle " + statement_latex(self) + "$"

    def __repr__(self) -> str:
        return f"<Theorem {self.name} ({self.reference}): {self.title}>"


def _check_assumptions(name: str, v: sp.Symbol, dom: Interval) -> None:
    """A domain may not be wider than its symbol's sympy assumptions: sympy simplifies with the
    assumptions, so a proof would only hold on the narrower set while the statement claims the wider."""
    lo = dom.lo
    if lo.free_symbols:
        return
    if v.is_positive and (lo.is_finite is False or bool(lo < 0) or (lo == 0 and not dom.left_open)):
        raise ProofError(f"{name}: {v} is a positive symbol but its domain {dom.describe()} admits values <= 0")
    if v.is_nonnegative and (lo.is_finite is False or bool(lo < 0)):
        raise ProofError(f"{name}: {v} is a non-negative symbol but its domain {dom.describe()} admits negatives")
    if v.is_integer and not dom.integer:
        raise ProofError(f"{name}: {v} is an integer symbol but its domain {dom.describe()} is not integral")


# -- the symbolic checker ----------------------------------------------------------------------------

# Keyed by the theorem object itself (identity hash): the cache keeps it alive, so an id can
# never be reused by another theorem while its result is cached.
_CACHE: dict["Theorem", SymbolicResult] = {}
_IN_PROGRESS: dict[int, dict[str, PartResult]] = {}


def symbolic_check(theorem: Theorem, stack: tuple[str, ...] = ()) -> SymbolicResult:
    """Check every part's chain; the result is cached per theorem object."""
    key = id(theorem)
    if theorem in _CACHE:
        return _CACHE[theorem]
    if theorem.name in stack:
        return SymbolicResult("failed", (), (), ())  # circular citation: never a proof
    stack = stack + (theorem.name,)
    ctx = theorem.context()
    part_results = []
    axioms: set[str] = set()
    cited: set[str] = set()
    _IN_PROGRESS[key] = {}
    try:
        for part in theorem.parts:
            pctx = ctx.extended(part.variables)
            pres = _check_part(part, pctx, stack, axioms, cited)
            part_results.append(pres)
            _IN_PROGRESS[key][part.name] = pres
    finally:
        del _IN_PROGRESS[key]
    status = weakest(p.status for p in part_results)
    result = SymbolicResult(status, tuple(part_results), tuple(sorted(axioms)), tuple(sorted(cited)))
    _CACHE[theorem] = result
    return result


def _check_part(part: Part, ctx: Context, stack: tuple[str, ...], axioms: set, cited: set) -> PartResult:
    chain = part.proof
    if chain is None:
        return PartResult(part.name, "failed", (), "no proof")
    rel = part.relation
    leaks = [v for v in chain.variables if chain.end.has(v) or rel.rhs.has(v)]
    notes = []
    start = equivalent(chain.start, rel.lhs, ctx)
    end = equivalent(chain.end, rel.rhs, ctx.extended(chain.variables))
    statuses = [_status_of(start), _status_of(end)]
    if start.ok is not True:
        notes.append(f"chain starts with {chain.start}, the statement with {rel.lhs}: {start.detail}")
    if end.ok is not True:
        notes.append(f"chain ends with {chain.end}, the statement with {rel.rhs}: {end.detail}")
    if not implies_op(chain.op, rel.op):
        statuses.append("failed")
        notes.append(f"the chain proves '{chain.op}', the statement says '{rel.op}'")
    if leaks:
        statuses.append("failed")
        notes.append(f"chain variable(s) {leaks} left free at the end")
    steps = []
    for res in _check_chain(chain, ctx, stack):
        steps.append(res)
        axioms.update(res.axioms)
    for thm in _cited_theorems(chain):
        if id(thm) in _IN_PROGRESS:
            continue
        sub = symbolic_check(thm, stack)
        axioms.update(sub.axioms)
        cited.update(sub.cited)
        cited.add(thm.name)
    statuses += [s.status for s in steps]
    return PartResult(part.name, weakest(statuses), tuple(steps), "; ".join(notes))


def _cited_theorems(chain: Chain) -> list["Theorem"]:
    """Theorems cited anywhere in a chain: its steps, ``given`` proofs and induction sub-chains."""
    from cdpsym.proof.kernel import Induction

    out: list = []

    def walk(c: Chain) -> None:
        for step in c.steps:
            why = step.why
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


def _check_chain(chain: Chain, ctx: Context, stack: tuple[str, ...]) -> list[StepResult]:
    results = []
    ctx = ctx.extended(chain.variables)
    lhs = chain.start
    for step in chain.steps:
        why = step.why
        try:
            if isinstance(why, By) and isinstance(why.fact, Part):
                res = _check_citation(why, lhs, step.op, step.expr, ctx, chain, stack)
            else:
                res = why.check(lhs, step.op, step.expr, ctx, chain)
        except ProofError as exc:
            res = StepResult("failed", why.method, str(exc))
        results.append(res)
        lhs = step.expr
    return results


def _check_citation(why: By, lhs, op, rhs, ctx: Context, chain: Chain, stack) -> StepResult:
    """A step citing a theorem part (its hypotheses are discharged by ``By.check`` itself)."""
    part: Part = why.fact  # type: ignore[assignment]
    theorem = part.theorem
    assert theorem is not None
    if id(theorem) not in _IN_PROGRESS:
        symbolic_check(theorem, stack)  # cached; detects circular citation through ``stack``
    return why.check(lhs, op, rhs, ctx, chain)


