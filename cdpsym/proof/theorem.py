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
from cdpsym.proof.algebra import Context
from cdpsym.proof.kernel import Chain, Fact, Hypothesis, Rel

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
    #: sequences of real numbers the statement names (``cdpsym.expr.symbols.sequence``: ρ_i of a heterogeneous
    #: composition), each with the domain its terms are *drawn from* by the numeric and property checks; the
    #: kernel treats their terms as arbitrary reals, so a proof holds for every real sequence
    sequences: Mapping[Any, Interval] | None = None

    def __post_init__(self) -> None:
        from cdpsym.expr.symbols import is_sequence

        object.__setattr__(self, "sequences", dict(self.sequences or {}))
        for f in self.sequences:
            if not is_sequence(f):
                raise ProofError(f"theorem {self.name}: {f} is not a sequence of numbers (cdpsym.expr.symbols.sequence)")
        if not self.parts:
            raise ProofError(f"theorem {self.name} has no parts")
        names = [p.name for p in self.parts]
        if len(set(names)) != len(names):
            raise ProofError(f"theorem {self.name}: part names must be distinct, got {names}")
        for part in self.parts:  # every declaration checked against its symbol's assumptions, no re-declaration
            try:
                Context({}).extended(self.variables).extended(part.variables)
            except ProofError as exc:
                raise ProofError(f"{self.name}: {exc}") from None
        for hyp in self.hypotheses:  # a quantified hypothesis's variables too ([E[L], oo) may be empty)
            try:
                Context({}).extended({v: d for v, d in self.variables.items() if v not in hyp.variables}) \
                    .extended(hyp.variables)
            except ProofError as exc:
                raise ProofError(f"{self.name}: hypothesis '{hyp.name}': {exc}") from None
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

    def __repr__(self) -> str:
        return f"<Theorem {self.name} ({self.reference}): {self.title}>"


from cdpsym.proof.core import PartResult, SymbolicResult, symbolic_check  # noqa: E402  (the core checks)
