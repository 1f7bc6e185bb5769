"""The claim language and the claim checker (``cdpsym check``).

* :func:`parse_claim` (:mod:`cdpsym.claims.language`): the text of a claim, parsed by a real grammar, to a
  :class:`Claim`; subjects and notions by :mod:`cdpsym.claims.grammar`, LaTeX between dollars by
  :mod:`cdpsym.claims.latex` — nothing is ever ``eval``-ed or ``sympify``-ed;
* :func:`check` (:mod:`cdpsym.claims.checker`): proved / certified / refuted with a counterexample / undecided.
"""

from cdpsym.claims.grammar import MAX_K, NotionComposition, Subject, parse_subject
from cdpsym.claims.language import Claim, Group, parse_claim
from cdpsym.claims.checker import ClaimResult, check
from cdpsym.expr.parse import OutOfDomain, ParseError


__all__ = ["parse_subject", "parse_claim", "check", "ClaimResult", "Claim", "Group", "NotionComposition", "Subject",
           "ParseError", "OutOfDomain", "MAX_K"]
