"""Certified, exact privacy accounting (issue 5); see docs/accounting-api.md."""

from cdpsym.accounting.certified import Certified, CertifiedBounds

__all__ = ["Certified", "CertifiedBounds"]
