"""A theorem's title is generated from its statement where the statement is a privacy guarantee, so it
cannot drift from what the chain proves: change the statement and the title changes with it."""

from __future__ import annotations

import sympy as sp

from cdpsym import theorems
from cdpsym.expr import delta, rho
from cdpsym.render.latex import theorem_title


def test_changing_the_statement_changes_the_title():
    from theorems.approx_dp_of_zcdp import make

    original = theorem_title(theorems.get("approx_dp_of_zcdp"))
    changed = theorem_title(make(epsilon=rho + 3 * sp.sqrt(rho * sp.log(1 / delta))))
    assert original != changed
    assert r"3 \sqrt{\rho}" in changed and r"2 \sqrt{\rho}" in original


def test_guarantee_theorems_have_generated_titles_and_lemmas_keep_theirs():
    from cdpsym.claims.semantics import statement_claim

    generated = {t.name for t in theorems.LIBRARY if statement_claim(t) is not None}
    assert {"gaussian_zcdp", "approx_dp_of_zcdp", "zcdp_of_pure_dp", "zcdp_composition",
            "approx_dp_advanced_composition", "pure_dp_basic_composition"} <= generated
    # DR16 Thm 3.4 as the library proves it is not a CDP guarantee (R-B10): no generated title claims it is
    assert "cdp_composition" not in generated


def test_a_generated_title_is_ascii_latex():
    for t in theorems.LIBRARY:
        assert theorem_title(t).isascii(), t.name
