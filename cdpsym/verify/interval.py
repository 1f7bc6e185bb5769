"""Rigorous sign certificates by Arb branch-and-bound: the kernel's :mod:`cdpsym.proof.branch_and_bound`, re-exported."""

from cdpsym.proof.branch_and_bound import IntervalResult, certify_nonnegative

__all__ = ["certify_nonnegative", "IntervalResult"]
