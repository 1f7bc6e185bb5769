"""cdpsym — a proof-checking and derivation workbench for differential privacy.

Each theorem is one object: a sympy statement with hypotheses, a proof chain
the kernel checks step by step, numbers checked at high precision against an
independent ground truth, and generated LaTeX.  The library is the
``cdpsym.theorems`` package (``from cdpsym.theorems import gaussian_zcdp``); in a
source checkout it is the top-level ``theorems/`` folder, also importable as
``theorems`` (one library under two names: :mod:`cdpsym._alias`).
"""

import cdpsym._alias  # noqa: F401  (first: makes ``theorems`` and ``cdpsym.theorems`` one library)
from cdpsym.errors import CdpsymError, InvalidParameter, PrecisionError, ProofError, UnknownName
from cdpsym.expr.domains import Interval
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, PureDP
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, lt, sign, specialize
from cdpsym.verify.report import Report
import cdpsym.render  # noqa: E402,F401  (attaches Theorem.latex / _repr_latex_)

__version__ = "0.1.0"


def __getattr__(name: str):  # ``cdpsym.theorems`` and the claim checker, imported on first use
    if name == "theorems":
        import importlib

        return importlib.import_module("cdpsym.theorems")
    if name in ("check", "ClaimResult"):
        import cdpsym.claims.checker as _checker

        return getattr(_checker, name)
    raise AttributeError(f"module 'cdpsym' has no attribute {name!r}")

__all__ = [
    "ApproxDP", "Axiom", "CdpsymError", "Chain", "Hypothesis", "Interval", "InvalidParameter",
    "MeanConcentratedDP", "Part", "PrecisionError", "ProofError", "PureDP", "RDP", "Report", "TCDP", "Theorem",
    "UnknownName", "ZCDP", "algebra", "by", "eq", "le", "lt", "sign", "specialize", "__version__",
    "check", "ClaimResult",
]
