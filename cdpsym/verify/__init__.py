"""Verification: symbolic (proof chains), numeric (ground truth), property (hypothesis), interval (Arb).

Importing this layer attaches ``theorem.verify()`` to :class:`~cdpsym.proof.Theorem` (the proof layer
below stays plain data).
"""

from cdpsym.proof.theorem import Theorem
from cdpsym.verify.interval import certify_nonnegative
from cdpsym.verify.report import Report
from cdpsym.verify.runner import verify_theorem


def _verify(self: Theorem, *, dps: int = 50, property_examples: int | None = None, derandomize: bool = True):
    """Run the three checks; returns a :class:`cdpsym.verify.report.Report`."""
    return verify_theorem(self, dps=dps, property_examples=property_examples, derandomize=derandomize)


Theorem.verify = _verify

__all__ = ["Report", "certify_nonnegative", "verify_theorem"]
