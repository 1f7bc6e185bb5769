"""The proof kernel: facts, chains, justifications, theorems."""

from cdpsym.proof.kernel import (Axiom, By, Chain, Fact, Hypothesis, Rel, Step, StepResult, algebra, by, eq,
                                 induction, interval, le, lt, numeric, sign, specialize, taylor, weakest)
from cdpsym.proof.theorem import Part, Theorem, symbolic_check

__all__ = ["Axiom", "By", "Chain", "Fact", "Hypothesis", "Part", "Rel", "Step", "StepResult", "Theorem",
           "algebra", "by", "eq", "induction", "interval", "taylor", "le", "lt", "numeric", "sign", "specialize", "symbolic_check",
           "weakest"]
