"""The proof kernel: proof data (facts, chains, justification records, theorems) and the trusted core
(:mod:`cdpsym.proof.core`) that alone decides what is proved."""

import cdpsym.proof.algebra  # noqa: F401  (first: the submodule must not shadow the `algebra` record below)
from cdpsym.proof.kernel import (Axiom, By, Chain, Fact, Hypothesis, Rel, Step, StepResult, algebra, by, eq,
                                 induction, interval, le, limit, lt, monotone, numeric, sign, specialize, split, taylor,
                                 weakest)
from cdpsym.proof.theorem import Part, Theorem
from cdpsym.proof.core import (KERNEL_RULES, is_trusted, register_axioms, register_opaque, symbolic_check,
                               trusted_axioms)

__all__ = ["Axiom", "By", "Chain", "Fact", "Hypothesis", "Part", "Rel", "Step", "StepResult", "Theorem",
           "algebra", "by", "eq", "induction", "interval", "monotone", "split", "taylor", "le", "limit", "lt", "numeric", "sign", "specialize",
           "symbolic_check", "weakest", "register_axioms", "register_opaque", "trusted_axioms", "is_trusted", "KERNEL_RULES"]
