"""Verification: symbolic (proof chains), numeric (ground truth), property (hypothesis), interval (Arb)."""

from cdpsym.verify.interval import certify_nonnegative
from cdpsym.verify.report import Report
from cdpsym.verify.runner import verify_theorem

__all__ = ["Report", "certify_nonnegative", "verify_theorem"]
