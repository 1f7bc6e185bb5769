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
    "loss_tail_of_zcdp",
    "approx_dp_of_xi_zcdp",
    "gaussian_vector_zcdp",
    "zcdp_rho_calibration",
    "hoeffding_lemma",
    "antipodal_kl",
    "antipodal_splitting",
    "kl_of_pure_dp",
    "kl_of_pure_dp_drv10",
    "approx_dp_of_rdp",
    "rdp_probability_preservation",
    "renyi_weak_triangle",
    "pure_dp_basic_composition",
    "pure_dp_basic_composition_heterogeneous",
    "pure_dp_group_privacy",
    "approx_dp_group_privacy",
    "zcdp_group_privacy",
    "laplace_pure_dp",
    "randomized_response_pure_dp",
    "randomized_response_approx_dp_exact",
    "gaussian_approx_dp_exact",
    "laplace_approx_dp_exact",
    "gaussian_approx_dp_classical",
    "zcdp_conversion_ordering",
    "approx_dp_of_kl",
    "approx_dp_of_rdp_cks20",
    "approx_dp_of_zcdp_refined",
    "exponential_mechanism_pure_dp",
    "exponential_mechanism_zcdp",
    "subsampling_approx_dp",
    "zcdp_of_pure_dp",
    "zcdp_of_pure_dp_sharp",
    "cdp_of_pure_dp_hoeffding",
    "subgaussian_concentration",
    "subgaussian_variance",
    "subgaussian_moments",
    "subgaussian_exponential_product",
    "mutual_information_of_zcdp",
    "subgaussian_sum",
    "subgaussian_sum_heterogeneous",
    "cdp_composition",
    "cdp_composition_heterogeneous",
    "approx_dp_of_cdp",
    "zcdp_of_cdp",
    "zcdp_composition",
    "zcdp_composition_heterogeneous",
    "rdp_composition",
    "rdp_composition_heterogeneous",
    "rdp_group_privacy",
    "tcdp_composition",
    "gaussian_cdp",
    "gaussian_group_cdp",
    "cdp_group_privacy",
    "gaussian_renyi",
    "gaussian_rdp",
    "randomized_response_rdp",
    "laplace_rdp",
    "bad_event_of_zcdp",
    "approx_dp_advanced_composition_rdp",
    "approx_dp_advanced_composition",
    "approx_dp_advanced_composition_drv10",
    "approx_dp_advanced_composition_zcdp",
    "approx_dp_advanced_composition_sharp",
    "approx_dp_optimal_composition_homogeneous",
    "approx_dp_advanced_composition_kov15",
    "approx_dp_advanced_composition_approx_steps",
    "approx_dp_advanced_composition_drv10_approx_steps",
    "approx_dp_optimal_composition",
    "approx_dp_basic_composition",
    "one_way_marginals_zcdp",
    "histogram_sample_size",
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
