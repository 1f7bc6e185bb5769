"""docs/errata.md is generated from docs/errata.claims by the checker, and kept current."""

from __future__ import annotations

import pathlib

from cdpsym.claims import errata

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_errata_md_is_current():
    rendered = errata.render()
    assert (ROOT / "docs" / "errata.md").read_text(encoding="utf-8") == rendered, (
        "docs/errata.md is stale: regenerate with `python -m cdpsym.claims.errata > docs/errata.md`")


def test_no_erratum_verdict_is_unsound_and_the_wrong_statements_are_refuted():
    text = (ROOT / "docs" / "errata.md").read_text(encoding="utf-8")
    entries = errata.entries(ROOT / "docs" / "errata.claims")
    assert len(entries) >= 20
    wrong = sum(1 for e in entries if e["kind"] == "wrong")
    summary = text[text.index("Summary:"):].splitlines()[0]
    assert "wrong → proved" not in summary and "wrong → certified" not in summary
    assert "correct → refuted" not in summary
    refuted = int(summary.split("wrong → refuted: ")[1].split(",")[0].rstrip("."))
    assert refuted >= wrong - 2, summary
