"""The theorem library: one result per module, named for what it states.

``from theorems import gaussian_zcdp`` gives the :class:`~cdpsym.proof.Theorem`
object (``gaussian_zcdp.verify()``, ``gaussian_zcdp.latex()``); the module
itself stays importable as ``theorems.gaussian_zcdp`` for its builders
(``make``) and ground truths.

``LIBRARY`` lists the theorems in dependency order (lemmas first);
``AXIOMS`` is the trusted base they rest on.
"""

from __future__ import annotations

import importlib

from cdpsym.errors import UnknownName
from cdpsym.proof import register_axioms

# Dependency order: a module only cites modules above it.
MODULES = [
    "gaussian_zcdp",
    "approx_dp_of_zcdp",
    "hoeffding_lemma",
    "antipodal_kl",
    "kl_of_pure_dp",
    "approx_dp_of_rdp",
    "pure_dp_basic_composition",
    "pure_dp_group_privacy",
    "laplace_pure_dp",
    "randomized_response_pure_dp",
    "zcdp_of_pure_dp",
    "cdp_of_pure_dp_hoeffding",
    "subgaussian_concentration",
    "subgaussian_sum",
    "cdp_composition",
    "approx_dp_of_cdp",
    "zcdp_of_cdp",
    "zcdp_composition",
    "rdp_composition",
    "gaussian_cdp",
    "approx_dp_advanced_composition",
    "approx_dp_advanced_composition_zcdp",
]

_FOUNDATIONS = ["foundations", "foundations_convexity", "foundations_composition"]

LIBRARY = []
AXIOMS = []

for _name in _FOUNDATIONS:
    _mod = importlib.import_module(f"theorems.{_name}")
    for _ax in _mod.AXIOMS:
        if _ax not in AXIOMS:
            AXIOMS.append(_ax)
    register_axioms(*_mod.AXIOMS)  # the trusted base is exactly what the foundations modules list

for _name in MODULES:
    _mod = importlib.import_module(f"theorems.{_name}")
    for _lemma in getattr(_mod, "LEMMAS", ()):  # lemmas a module proves on the way, listed before it
        LIBRARY.append(_lemma)
        globals()[_lemma.name] = _lemma
    _thm = _mod.theorem
    if _thm.name != _name:
        raise RuntimeError(f"module theorems.{_name} defines theorem {_thm.name!r}: names must agree")
    LIBRARY.append(_thm)
    globals()[_name] = _thm
    for _ax in getattr(_mod, "AXIOMS", ()):
        if _ax not in AXIOMS:
            AXIOMS.append(_ax)
    register_axioms(*getattr(_mod, "AXIOMS", ()))


def get(name: str):  # noqa: D401
    """The theorem (or axiom) called *name*; a clear error for an unknown one."""
    for t in LIBRARY:
        if t.name == name:
            return t
    for ax in AXIOMS:
        if ax.name == name:
            return ax
    known = ", ".join(t.name for t in LIBRARY)
    raise UnknownName(f"no theorem named {name!r}; the library has: {known}")


__all__ = ["LIBRARY", "AXIOMS", "MODULES", "get", *MODULES]
