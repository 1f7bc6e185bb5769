"""Shared helpers for the mechanism tests: digit agreement at high precision.

(Tests marked ``slow`` are deselected by the project's pytest options; run them with ``-m slow``.)
"""

from __future__ import annotations

import mpmath
import pytest
from mpmath import mp


def matching_digits(a: object, b: object) -> float:
    """Number of matching significant decimal digits of two numbers (``inf`` when equal)."""
    with mp.workdps(120):
        a, b = mp.mpf(a), mp.mpf(b)
        if a == b:
            return float("inf")
        scale = max(abs(a), abs(b))
        return float(-mp.log10(abs(a - b) / scale))


@pytest.fixture
def assert_agree():
    """``assert_agree(a, b, digits=40)``: *a* and *b* agree to at least *digits* significant digits."""

    def check(a: object, b: object, digits: float = 40) -> None:
        got = matching_digits(a, b)
        assert got >= digits, (
            f"only {got:.1f} matching digits (wanted {digits}):\n  {mpmath.nstr(a, 60)}\n  {mpmath.nstr(b, 60)}")

    return check
