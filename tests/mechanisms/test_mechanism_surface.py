"""The public surface of cdpsym.mechanisms: ``__all__`` is explicit and complete.

(The doctests of the modules run through the project's ``--doctest-modules``.)
"""

from __future__ import annotations

import importlib

import cdpsym.mechanisms as mechanisms

MODULES = ["cdpsym.mechanisms.profile", "cdpsym.mechanisms.gaussian", "cdpsym.mechanisms.laplace",
           "cdpsym.mechanisms.randomized_response", "cdpsym.mechanisms.composition"]


def test_all_is_explicit_and_resolves():
    assert len(mechanisms.__all__) == len(set(mechanisms.__all__))
    for name in mechanisms.__all__:
        assert hasattr(mechanisms, name), name
    public = {name for name in vars(mechanisms) if not name.startswith("_")}
    submodules = {"composition", "gaussian", "laplace", "profile", "randomized_response"}
    assert public - submodules == set(mechanisms.__all__)


def test_submodule_all_lists_are_reexported():
    for module in MODULES:
        for name in importlib.import_module(module).__all__:
            assert name in mechanisms.__all__, f"{module}.{name} is not re-exported"
