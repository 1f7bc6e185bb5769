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


# A written title is a *name* ("Hoeffding's lemma", "Laplace mechanism"): it states nothing that could drift from
# the statement.  Letters, spaces and a little punctuation only -- no digit, Greek letter, operator or formula.
#: letters, spaces and light punctuation; a digit only right after a letter or digit (citation keys such as DRV10
#: are names too).  One character per step, no nested quantifier: a non-matching title fails in linear time.
_NAME = r"[A-Za-z](?:[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u00ff' ,()\u2013-]|(?<=[A-Za-z\d])\d)*"  # Rényi: é


def test_written_titles_are_names_not_statements():
    import re

    for t in theorems.LIBRARY:
        assert re.fullmatch(_NAME, t.title), (t.name, t.title)


def test_a_title_that_states_mathematics_is_caught():
    import re

    for bad in ("the Laplace mechanism is (Δ/b)-DP", "k-fold composition is kε-DP", "rho-zCDP implies DP(2)",
                "E X = 0 => E exp(lam X) <= 1", "composition of k2 (ε1, δ1)-DP", "rho + 2 sqrt(rho)"):
        assert not re.fullmatch(_NAME, bad), bad


def test_the_plain_statement_is_generated_from_the_statement():
    from theorems.approx_dp_of_zcdp import make

    from cdpsym.render.latex import statement_text

    original = statement_text(theorems.get("approx_dp_of_zcdp"))
    changed = statement_text(make(epsilon=rho + 3 * sp.sqrt(rho * sp.log(1 / delta))))
    assert original.startswith("ZCDP(rho=rho) implies ApproxDP(") and "2*sqrt(rho)" in original
    assert "3*sqrt(rho)" in changed and original != changed
    # a lemma's statement is its relations under its hypotheses, not prose
    hoeffding = statement_text(theorems.get("hoeffding_lemma"))
    assert hoeffding.startswith("if Expect(X) = 0") and "exp(lam**2*(-a + b)**2/8)" in hoeffding


def test_list_and_catalogue_show_the_generated_statement():
    import json
    import subprocess
    import sys

    from cdpsym.render.latex import statement_text

    out = subprocess.run([sys.executable, "-m", "cdpsym", "list", "--json"], capture_output=True, text=True,
                         check=True).stdout
    rows = {r["name"]: r for r in json.loads(out)}
    for t in theorems.LIBRARY:
        assert rows[t.name]["statement"] == statement_text(t)
        assert rows[t.name]["title"] == t.title


def test_a_hypothesis_the_guarantee_would_drop_means_no_generated_guarantee():
    """Poisson subsampling turns (eps, delta)-DP into (log(1 + s(e^eps - 1)), s delta)-DP *of the subsampled
    mechanism*: read as "(eps, delta)-DP implies ..." it would be false, so no guarantee title is generated."""
    from cdpsym.claims.semantics import statement_claim

    sub = theorems.get("subsampling_approx_dp")
    assert "mixture" in [h.name for h in sub.hypotheses]
    assert statement_claim(sub) is None
    assert theorem_title(sub) == sub.title  # its name, not a formula
    # the same theorem without the mixture hypothesis would read as a (false) guarantee
    assert statement_claim(sub.with_changes(hypotheses=tuple(h for h in sub.hypotheses if h.name != "mixture")))
