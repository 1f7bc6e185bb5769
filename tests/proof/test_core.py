"""The trusted core's own guarantees: layering, certificates, the trusted base, kernel rules in reports."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import sympy as sp

from cdpsym.expr import eps, positive, real, x
from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, sign, symbolic_check
from cdpsym.proof.core import Certificate, cross_check, genuine, subst, well_defined
from cdpsym.proof.algebra import Context

PROOF = Path(__file__).resolve().parents[2] / "cdpsym" / "proof"


def test_the_proof_layer_imports_nothing_above_expr():
    """DESIGN.md layers: the kernel's modules import only from cdpsym.expr and cdpsym.errors."""
    allowed = ("cdpsym.expr", "cdpsym.errors", "cdpsym.proof")
    for path in PROOF.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("cdpsym"):
                assert node.module.startswith(allowed), f"{path.name} imports {node.module}"
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("cdpsym"):
                        assert alias.name.startswith(allowed), f"{path.name} imports {alias.name}"


def _theorem(name, rel, proof):
    return Theorem(name=name, reference="R-test", source="test", title="t", variables={eps: positive()},
                   parts=(Part("main", rel, proof=proof),))


def test_certificates_are_minted_per_part_and_die_with_a_change():
    thm = _theorem("core_cert", le(eps, eps + 1), Chain(eps).le(eps + 1, sign()))
    res = symbolic_check(thm)
    assert res.status == "proved"
    (cert,) = res.certificates
    assert genuine(cert) and cert.part is thm.parts[0]
    # a certificate built by hand is not genuine
    forged = Certificate(thm, thm.parts[0], cert.fingerprint, "proved", (), ())
    assert not genuine(forged)
    # mutating the checked part (frozen, but Python lets one force it) voids the certificate
    object.__setattr__(thm.parts[0], "relation", le(eps + 2, eps + 1))
    assert not genuine(cert)
    outer = _theorem("core_cert_outer", le(eps + 2, eps + 1), Chain(eps + 2).le(eps + 1, by(thm)))
    assert symbolic_check(outer).status not in ("proved", "certified")


def test_a_copied_part_cannot_be_cited():
    thm = _theorem("core_copy", le(eps, eps + 1), Chain(eps).le(eps + 1, sign()))
    assert symbolic_check(thm).status == "proved"
    copy = dataclasses.replace(thm.parts[0], relation=le(eps + 5, eps + 1))
    outer = _theorem("core_copy_outer", le(eps + 5, eps + 1), Chain(eps + 5).le(eps + 1, by(copy)))
    assert symbolic_check(outer).status == "failed"


def test_reports_list_kernel_rules_with_the_axioms():
    from theorems import hoeffding_lemma

    res = symbolic_check(hoeffding_lemma)
    assert "taylor" in res.rules
    report = hoeffding_lemma.verify(property_examples=2)
    assert "taylor" in report.checks["symbolic"]["kernel_rules"]


def test_subst_renames_a_binder_that_would_capture():
    y = sp.Symbol("y", real=True)
    body = sp.Integral(x * y, (y, 0, 1))
    out = subst(body, {x: y})
    (var, lo, hi), = out.limits
    assert var != y and out.function == y * var
    # a key under a binder that binds one of its symbols is not replaced
    assert subst(sp.Integral(x ** 2, (x, 0, 3)), {x ** 2: 1}) == sp.Integral(x ** 2, (x, 0, 3))


def test_well_definedness_and_cross_check():
    ctx = Context({x: real()})
    assert well_defined((x ** 2 - 1) / (x - 1), ctx).ok is not True
    assert well_defined(sp.log(x ** 2 + 1), ctx).ok is True
    assert well_defined(sp.nan, ctx).ok is False
    assert cross_check(x, "<", x + 1, ctx).ok is True
    assert cross_check(x ** 2, "<=", x, ctx).ok is False  # false at x = 10^8
    assert cross_check(x, "<", x, ctx).ok is False


def test_an_identity_that_needs_a_nonzero_denominator_is_not_proved():
    chain = Chain((x ** 2 - 1) / (x - 1)).eq(x + 1, algebra())
    assert [r.status for r in chain.check(Context({x: real()}))] != ["proved"]


def test_the_rules_table_in_docs_names_every_rule_function_of_the_core():
    """docs/kernel.md has one row per rule function; a rule added to the core without a row (or a row for a
    rule that no longer exists) fails here."""
    import re

    from cdpsym.proof import core

    doc = (Path(__file__).resolve().parents[2] / "docs" / "kernel.md").read_text()
    documented = set(re.findall(r"`(_rule_\w+)`", doc))
    in_core = {f.__name__ for f in core._RULES.values()}
    assert documented == in_core
    for name in re.findall(r"`(_congruence|_match|_standing|_discharge|check_step|well_defined|foreign)`", doc):
        assert hasattr(core, name), name
