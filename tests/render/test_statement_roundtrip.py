"""The LaTeX of every guarantee a library theorem states parses back, through the claim language, to the same
statement (issue 15): generated from the statement, written as a paper writes it, read by the claim parser."""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym import theorems
from cdpsym.claims import parse_claim
from cdpsym.claims.grammar import NotionComposition
from cdpsym.claims.language import Group
from cdpsym.claims.latexout import paper_claim, statement_constraints
from cdpsym.claims.semantics import statement_claim
from cdpsym.notions import Notion

GUARANTEES = [t for t in theorems.LIBRARY if statement_claim(t) is not None]

#: guarantees the claim language cannot write back, each with the reason (kept as small as possible)
BEYOND_THE_LANGUAGE = {
    # KOV15's delta_i is a finite sum of binomial terms (sum, product): the claim grammar has no sums; and its
    # delta_0 ranges over [0, 1), wider than the language's default (0, 1) for a delta
    "approx_dp_optimal_composition_homogeneous",
    # KOV15's closed form has the same delta_0 in [0, 1), and a minimum of three branches
    "approx_dp_advanced_composition_kov15",
    # DR16 Thm 1.1 and DRV10 Thm III.3 with the per-step delta_0 in [0, 1] (R-B1, R-F3): wider than the default
    "approx_dp_advanced_composition_approx_steps",
    "approx_dp_advanced_composition_drv10_approx_steps",
}


def _params(obj):
    if isinstance(obj, Notion):
        return [type(obj).__name__] + list(obj.params().values())
    if isinstance(obj, NotionComposition):
        return ["compose", obj.k] + [x for p in obj.parts for x in _params(p)]
    if isinstance(obj, Group):
        return ["group", obj.size] + _params(obj.subject)
    return [type(obj).__name__] + list(obj.parameters.values())


def _same(a, b) -> bool:
    pa, pb = _params(a), _params(b)
    return len(pa) == len(pb) and all(
        x == y if isinstance(x, str) or isinstance(y, str) else sp.simplify(sp.sympify(x) - sp.sympify(y)) == 0
        for x, y in zip(pa, pb))


def test_most_of_the_library_states_a_guarantee():
    assert len(GUARANTEES) >= 12


@pytest.mark.parametrize("theorem", [t for t in GUARANTEES if t.name not in BEYOND_THE_LANGUAGE],
                         ids=lambda t: t.name)
def test_the_latex_of_the_statement_parses_back_to_the_statement(theorem):
    subject, target = statement_claim(theorem)
    constraints = statement_constraints(theorem, subject, target)
    text = paper_claim(subject, target, constraints)
    assert "$" in text and text.isascii()
    claim = parse_claim(text)
    assert _same(claim.subject, subject), (text, claim.subject, subject)
    assert _same(claim.target, target), (text, claim.target, target)
    for v, op, bound in constraints:  # the theorem's restrictions come back as the claim's domains
        dom = claim.domains[v]
        end, is_open = (dom.hi, dom.right_open) if op in ("<", "<=") else (dom.lo, dom.left_open)
        assert sp.simplify(end - bound) == 0 and is_open == (op in ("<", ">")), (text, v, dom)


def test_a_restricted_domain_is_part_of_the_generated_statement():
    from cdpsym.render.latex import theorem_title

    thm = theorems.get("zcdp_of_cdp")
    assert r"\mu \le \frac{\tau^{2}}{2}" in theorem_title(thm)
    assert "FOR" in paper_claim(*statement_claim(thm), statement_constraints(thm, *statement_claim(thm)))


def test_the_exemptions_are_guarantees_the_parser_refuses_with_a_reason():
    """An exemption must be real: its paper form is refused by the claim parser (not silently misread)."""
    from cdpsym.errors import CdpsymError

    for name in BEYOND_THE_LANGUAGE:
        thm = theorems.get(name)
        subject, target = statement_claim(thm)
        text = paper_claim(subject, target, statement_constraints(thm, subject, target))
        with pytest.raises(CdpsymError):
            parse_claim(text)
