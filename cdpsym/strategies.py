"""Hypothesis strategies for privacy parameters, for users' own property tests.

Plural nouns with keyword bounds, as in hypothesis itself.  Values are exact
sympy numbers (binary fractions), so a failing example can be re-checked at
any precision.

>>> from hypothesis import given
>>> from cdpsym.strategies import rhos, deltas
>>> @given(rhos(), deltas())
... def test_conversion_is_finite(rho, delta):
...     assert rho > 0 and 0 < delta < 1
>>> test_conversion_is_finite()
"""

from __future__ import annotations

from cdpsym.expr.domains import greater_than, naturals, open_unit, positive

__all__ = ["epsilons", "deltas", "rhos", "sigmas", "sensitivities", "orders", "compositions"]


def epsilons(min_value: float = 1e-4, max_value: float = 20.0):
    """ε > 0."""
    return positive().with_sampling(min_value, max_value, log_scale=True).strategy()


def deltas(min_value: float = 1e-300, max_value: float = 0.5):
    """0 < δ < 1, log-uniform (so 1e-300 is as likely as 1e-3)."""
    return open_unit().with_sampling(min_value, max_value, log_scale=True).strategy()


def rhos(min_value: float = 1e-8, max_value: float = 50.0):
    """ρ > 0, log-uniform."""
    return positive().with_sampling(min_value, max_value, log_scale=True).strategy()


def sigmas(min_value: float = 0.01, max_value: float = 100.0):
    """σ > 0, log-uniform."""
    return positive().with_sampling(min_value, max_value, log_scale=True).strategy()


def sensitivities(min_value: float = 0.01, max_value: float = 100.0):
    """Δ > 0, log-uniform."""
    return positive().with_sampling(min_value, max_value, log_scale=True).strategy()


def orders(min_value: float = 1.0 + 1e-6, max_value: float = 256.0):
    """Rényi orders α > 1."""
    return greater_than(1).with_sampling(min_value, max_value).strategy()


def compositions(max_value: int = 10_000):
    """Numbers of compositions k ≥ 1."""
    return naturals().with_sampling(1, max_value).strategy()


