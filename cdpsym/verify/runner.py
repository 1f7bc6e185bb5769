"""Run the three checks on a theorem (or an axiom) and build its report."""

from __future__ import annotations

import time

from cdpsym.proof.kernel import Axiom, weakest
from cdpsym.proof.theorem import Theorem, symbolic_check
from cdpsym.verify.numeric import numeric_check
from cdpsym.verify.property import PropertyResult, property_check
from cdpsym.verify.report import Report

__all__ = ["verify_theorem"]


def verify_theorem(theorem: Theorem | Axiom, *, dps: int = 50, property_examples: int | None = None,
                   derandomize: bool = True) -> Report:
    t0 = time.perf_counter()
    if isinstance(theorem, Axiom):
        return _verify_axiom(theorem, dps, property_examples, derandomize, t0)
    sym = symbolic_check(theorem)
    steps = []
    for part in sym.parts:
        for i, s in enumerate(part.steps, 1):
            steps.append({"part": part.name, "step": i, "status": s.status, "method": s.method, "detail": s.detail,
                          **({"point": dict(s.point)} if s.point else {})})
    symbolic = {
        "status": sym.status,
        "steps_checked": sym.steps_checked,
        "steps": steps,
        "parts": [{"name": p.name, "status": p.status, "detail": p.detail} for p in sym.parts],
        "cites": list(sym.cited),
        "trusted_axioms": list(sym.axioms),
        "kernel_rules": list(sym.rules),  # mathematics the core itself takes as given (Taylor, induction, Arb)
        "summary": f"{sym.steps_checked} steps, {sym.status}",
    }
    num = _guard_numeric(theorem, dps)
    numeric = {
        "status": num.status,
        "digits": num.dps,
        "points": len(theorem.numeric_points),
        "comparisons": [c.__dict__ for c in num.comparisons],
        "summary": f"{len(num.comparisons)} comparisons at {num.dps} digits",
    }
    prop = _property(theorem, property_examples, derandomize)
    prop_d = {"status": prop.status, "examples": prop.examples, "detail": prop.detail,
              "summary": f"{prop.examples} examples"}
    if prop.counterexample:
        prop_d["counterexample"] = dict(prop.counterexample)
    verdict = _verdict(sym.status, num.status, prop.status)
    return Report(theorem.name, theorem.reference, theorem.source, "theorem", verdict,
                  {"symbolic": symbolic, "numeric": numeric, "property": prop_d}, time.perf_counter() - t0)


def _property(theorem, examples: int | None, derandomize: bool) -> PropertyResult:
    """The property check; ``examples=0`` skips it (the verdict is then at best *supported*)."""
    if examples == 0:
        return PropertyResult("skipped", 0, detail="skipped: 0 examples asked for")
    return property_check(theorem, examples=examples, derandomize=derandomize)


def _guard_numeric(theorem, dps):
    """A ground truth that raises is a failed check with the reason, not a crash."""
    from cdpsym.verify.numeric import Comparison, NumericResult

    try:
        return numeric_check(theorem, dps=dps)
    except Exception as exc:  # noqa: BLE001 - reported, never swallowed silently
        c = Comparison("-", {}, "ground truth raised", f"{type(exc).__name__}: {exc}", "-", "?", False)
        return NumericResult("failed", dps, (c,))


def _verdict(symbolic: str, numeric: str, prop: str) -> str:
    """Weakest link: a failed or missing check caps the verdict."""
    if "failed" in (numeric, prop):
        return "failed"
    caps = [symbolic]
    if "skipped" in (numeric, prop):
        caps.append("supported")
    return weakest(caps)


def _verify_axiom(ax: Axiom, dps, property_examples, derandomize, t0) -> Report:
    from cdpsym.proof.theorem import Part

    part = Part(name=ax.name, relation=ax.relation, variables=ax.variables, conditions=ax.conditions,
                citation=ax.citation, title=ax.title, ground_truth=getattr(ax, "ground_truth", None))

    class _Shim:
        parts = (part,)
        numeric_points = getattr(ax, "numeric_points", ())
        property_examples = getattr(ax, "property_examples", 40)

    num = _guard_numeric(_Shim, dps)
    prop = _property(_Shim, property_examples, derandomize)
    verdict = "failed" if "failed" in (num.status, prop.status) else "axiom"
    checks = {
        "symbolic": {"status": "axiom", "steps_checked": 0, "summary": "cited, part of the trusted base"},
        "numeric": {"status": num.status, "digits": num.dps, "points": len(_Shim.numeric_points),
                    "comparisons": [c.__dict__ for c in num.comparisons],
                    "summary": f"{len(num.comparisons)} comparisons at {num.dps} digits"},
        "property": {"status": prop.status, "examples": prop.examples, "detail": prop.detail,
                     "summary": f"{prop.examples} examples",
                     **({"counterexample": dict(prop.counterexample)} if prop.counterexample else {})},
    }
    return Report(ax.name, getattr(ax, "reference", ""), ax.citation, "axiom", verdict, checks,
                  time.perf_counter() - t0)
