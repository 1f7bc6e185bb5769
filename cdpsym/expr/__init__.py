"""Expressions: canonical symbols, domains, opaque operators, numeric evaluation."""

from cdpsym.expr.domains import (Interval, as_expr, at_least, greater_than, naturals, nonnegative,
                                 open_unit, positive, real)
from cdpsym.expr.symbols import *  # noqa: F401,F403
from cdpsym.expr.symbols import __all__ as _symbols_all

__all__ = ["Interval", "as_expr", "at_least", "greater_than", "naturals", "nonnegative", "open_unit",
           "positive", "real", *_symbols_all]
