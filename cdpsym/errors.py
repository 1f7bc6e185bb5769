"""Exceptions: one base class, each subclass also the nearest builtin.

A false or undecided statement is a *result*, never an exception; exceptions
are for misuse (bad parameters, unknown names).
"""

from __future__ import annotations

__all__ = ["CdpsymError", "InvalidParameter", "UnknownName", "PrecisionError", "ResourceLimit", "ProofError"]


class CdpsymError(Exception):
    """Base class of every error cdpsym raises on purpose."""


class InvalidParameter(CdpsymError, ValueError):
    """A parameter is outside its domain, e.g. ``sigma must be positive, got sigma=-1``."""


class UnknownName(CdpsymError, KeyError):
    """A theorem, symbol or mechanism name that does not exist."""

    def __str__(self) -> str:  # KeyError quotes its argument; we want the plain message
        return str(self.args[0]) if self.args else ""


class PrecisionError(CdpsymError, ArithmeticError):
    """The requested accuracy could not be reached at the allowed precision."""


class ResourceLimit(PrecisionError):
    """A well-formed query refused up front because its predictable cost (time, memory) is beyond a documented
    limit; the message says which limit and what to change.  A :class:`PrecisionError`, so the command line
    exits 2 ("could not certify") for it."""


class ProofError(CdpsymError, TypeError):
    """A proof chain is malformed (not merely unproved): wrong types, missing parts."""
