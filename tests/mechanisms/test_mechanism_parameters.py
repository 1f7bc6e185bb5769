"""Every invalid argument of cdpsym.mechanisms, in one table; and what symbolic arguments may do."""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.errors import InvalidParameter
from cdpsym.mechanisms import (Gaussian, Laplace, RandomizedResponse, compose, find_crossings, hockey_stick_discrete,
                               optimal_composition_delta, optimal_composition_epsilon, product_distribution)

R = sp.Rational
sigma = sp.Symbol("sigma", positive=True)
k = sp.Symbol("k", positive=True, integer=True)

INVALID = [
    # (call, the message must contain)
    (lambda: Gaussian(1, -1), "sigma must be positive, got sigma=-1"),
    (lambda: Gaussian(1, 0), "sigma must be positive, got sigma=0"),
    (lambda: Gaussian(-0.5, 1), "sensitivity must be positive, got sensitivity=-0.5"),
    (lambda: Gaussian(1, "2"), "sigma must be a real number or a sympy expression, got sigma='2'"),
    (lambda: Gaussian(1, float("nan")), "sigma must be a real number or a sympy expression, got sigma=nan"),
    (lambda: Gaussian(1, sp.oo), "sigma must be finite, got sigma=oo"),
    (lambda: Gaussian(1, sp.I), "sigma must be real, got sigma=I"),
    (lambda: Gaussian(1, True), "sigma must be a real number or a sympy expression, got sigma=True"),
    (lambda: Gaussian(1, -sigma), "sigma must be positive, got sigma=-sigma"),
    (lambda: Laplace(1, -2), "scale must be positive, got scale=-2"),
    (lambda: Laplace(0, 1), "sensitivity must be positive, got sensitivity=0"),
    (lambda: RandomizedResponse(-R(1, 2)), "eps must be non-negative, got eps=-1/2"),
    (lambda: RandomizedResponse.from_p(R(3, 10)), "p must be in [1/2, 1), got p=3/10"),
    (lambda: RandomizedResponse.from_p(1), "p must be in [1/2, 1), got p=1"),
    (lambda: Gaussian(1, 1).renyi_divergence(R(1, 2)), "alpha must be at least 1, got alpha=1/2"),
    (lambda: Laplace(1, 1).renyi_divergence(0), "alpha must be at least 1, got alpha=0"),
    (lambda: RandomizedResponse(1).renyi_divergence(-1), "alpha must be at least 1, got alpha=-1"),
    (lambda: Gaussian(1, 1).delta(1, dps=0), "dps must be a positive integer, got dps=0"),
    (lambda: Gaussian(1, 1).delta(1, dps=2.5), "dps must be a positive integer, got dps=2.5"),
    (lambda: Gaussian(1, 1).delta("1"), "eps must be a real number or a sympy expression, got eps='1'"),
    (lambda: Gaussian(1, 1).delta(float("inf")), "eps must be finite, got eps=inf"),
    (lambda: Gaussian(1, 1).epsilon(-0.1), "delta must be in [0, 1], got delta=-0.1"),
    (lambda: Gaussian(1, 1).epsilon(R(3, 2)), "delta must be in [0, 1], got delta=3/2"),
    (lambda: Laplace(1, 1).epsilon(2), "delta must be in [0, 1], got delta=2"),
    (lambda: RandomizedResponse(1).epsilon(-1), "delta must be in [0, 1], got delta=-1"),
    (lambda: Gaussian(1, sigma).delta(1), "sigma is symbolic"),
    (lambda: Gaussian(1, 1).delta(sp.Symbol("e")), "eps is symbolic"),
    (lambda: compose(), "compose needs at least one mechanism, got none"),
    (lambda: compose("Gaussian"), "compose takes mechanisms, got 'Gaussian'"),
    (lambda: compose(Gaussian(1, 1), k=0), "k must be positive, got k=0"),
    (lambda: compose(Gaussian(1, 1), k=R(5, 2)), "k must be an integer, got k=5/2"),
    (lambda: compose(RandomizedResponse(1), k=k).delta(1), "k is symbolic"),
    (lambda: compose(Gaussian(1, 1), Gaussian(1, sigma)).epsilon(R(1, 10)),
     "sigma is symbolic (sigma=sigma) in Gaussian(sensitivity=1, sigma=sigma)"),
    (lambda: Laplace(1, sigma).epsilon(R(1, 10)), "scale is symbolic"),
    (lambda: compose(RandomizedResponse(1), k=3).epsilon(2), "delta must be in [0, 1], got delta=2"),
    (lambda: compose(Laplace(1, 1), k=2).delta(1), "no exact privacy profile is implemented for compose("),
    (lambda: compose(Laplace(1, 1), Gaussian(1, 1)).epsilon(R(1, 10)), "no exact privacy profile"),
    (lambda: compose(*(RandomizedResponse(R(1, n)) for n in range(2, 9))).delta(0, max_atoms=100),
     "would exceed max_atoms=100"),
    (lambda: optimal_composition_delta(1, []), "epsilons must list at least one eps_i, got none"),
    (lambda: optimal_composition_delta(1, [-1]), "eps_i must be non-negative, got eps_i=-1"),
    (lambda: optimal_composition_delta(1, [1], [1]), "delta_i must be in [0, 1), got delta_i=1"),
    (lambda: optimal_composition_epsilon(-1, [1]), "delta must be in [0, 1], got delta=-1"),
    (lambda: product_distribution(*[[0.5, 0.5]] * 12, max_atoms=1000), "the product has 4096 atoms"),
    (lambda: hockey_stick_discrete([0.5, 0.5], [1], 0), "P and Q must have the same length, got 2 and 1"),
    (lambda: hockey_stick_discrete([-0.5, 1.5], [0.5, 0.5], 0), "P must have non-negative masses"),
    (lambda: find_crossings(lambda y: y, lambda y: y, 0, search=(1, -1)), "search must be an interval lo < hi"),
]


@pytest.mark.parametrize("call, message", INVALID, ids=[m for _, m in INVALID])
def test_invalid_arguments_raise_with_the_value_repeated(call, message):
    with pytest.raises(InvalidParameter) as info:
        call()
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


def test_symbolic_parameters_that_may_be_valid_are_accepted():
    unknown = sp.Symbol("s")  # no sign assumption: not definitely invalid
    g = Gaussian(1, unknown)
    assert g.rho == 1 / (2 * unknown ** 2)
    assert Laplace(sp.Symbol("Delta", positive=True), unknown).eps0.free_symbols
    assert RandomizedResponse(sp.Symbol("eps", positive=True)).kl().free_symbols
    assert compose(Gaussian(1, sigma), k=k).equivalent.sensitivity == sp.sqrt(k) / sigma
