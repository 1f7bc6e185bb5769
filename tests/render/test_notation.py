"""The Notation section of generated documents: each entry is written once, next to its object's definition
(``cdpsym.expr.symbols.describe``), and a document lists exactly the entries of the objects it uses."""

from __future__ import annotations

import theorems
from cdpsym.expr.symbols import NOTATION
from cdpsym.render.latex import _notation


def test_entries_are_registered_where_the_objects_are_defined():
    for key in ("P", "L", "Y", "Z", "C()", "L()", "M()", "X()", "Pk()", "G()", "HockeyStick", "KL", "Renyi",
                "CondMGF", "Expect"):
        assert key in NOTATION, key


def test_every_entry_is_used_by_the_library():
    used = _notation(list(theorems.LIBRARY))
    for key, (_, text) in NOTATION.items():
        assert text in used, f"the Notation entry {key!r} is not used by any library theorem"


def test_a_document_lists_what_it_uses_and_nothing_else():
    section = _notation([theorems.get("zcdp_composition")])
    assert NOTATION["C()"][1] in section and NOTATION["L()"][1] in section
    assert NOTATION["G()"][1] not in section and NOTATION["HockeyStick"][1] not in section
    group = _notation([theorems.get("pure_dp_group_privacy")])
    assert NOTATION["G()"][1] in group and NOTATION["C()"][1] not in group
    assert _notation([]) == ""
