"""The claim language: subjects (mechanisms and notions) parsed by a real grammar.

So far this package parses *subjects* — ``Gaussian(sensitivity=1, sigma=2)``,
``compose(k=1000, Gaussian(1, 2))``, ``zCDP(rho=1/2)``, ``(1, 1e-6)-DP`` — into
the value objects of :mod:`cdpsym.mechanisms` and :mod:`cdpsym.notions`
(:func:`parse_subject`); the rest of the claim language (verbs, relations,
``FOR``/``forall`` constraints) and the checker build on it.
"""

from cdpsym.claims.grammar import MAX_K, NotionComposition, Subject, parse_subject
from cdpsym.expr.parse import OutOfDomain, ParseError

__all__ = ["parse_subject", "NotionComposition", "Subject", "ParseError", "OutOfDomain", "MAX_K"]
