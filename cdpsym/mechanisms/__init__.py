"""Mechanisms: the ground truths of cdpsym.

Value objects for the Gaussian, Laplace and randomized-response mechanisms
and their compositions, each with sympy closed forms (Rényi divergence,
KL, privacy loss) and exact privacy profiles ``delta(eps)`` / ``epsilon(delta)``
in mpmath at any precision; and, in :mod:`cdpsym.mechanisms.profile`, the
independent ground truths (quadrature and enumeration of the definitions)
that every closed form is tested against.

>>> from cdpsym.mechanisms import Gaussian, compose
>>> compose(Gaussian(sensitivity=1, sigma=2), k=4).equivalent
Gaussian(sensitivity=1, sigma=1)
"""

from cdpsym.mechanisms.composition import (ComposedGaussian, ComposedRandomizedResponse, Composition,
                                           compose, optimal_composition_delta, optimal_composition_epsilon)
from cdpsym.mechanisms.gaussian import Gaussian
from cdpsym.mechanisms.laplace import Laplace
from cdpsym.mechanisms.profile import (DensityPair, Distribution, find_crossings, hockey_stick_by_quadrature,
                                       hockey_stick_discrete, kl_by_quadrature, kl_discrete,
                                       product_distribution, renyi_by_quadrature, renyi_discrete)
from cdpsym.mechanisms.randomized_response import RandomizedResponse

__all__ = [
    # mechanisms
    "Gaussian",
    "Laplace",
    "RandomizedResponse",
    # composition
    "compose",
    "Composition",
    "ComposedGaussian",
    "ComposedRandomizedResponse",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
    # ground truths
    "DensityPair",
    "Distribution",
    "find_crossings",
    "hockey_stick_by_quadrature",
    "renyi_by_quadrature",
    "kl_by_quadrature",
    "hockey_stick_discrete",
    "renyi_discrete",
    "kl_discrete",
    "product_distribution",
]
