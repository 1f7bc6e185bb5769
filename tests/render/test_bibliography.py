"""The bibliography: every source the library cites maps to BibTeX entries; ``cdpsym bib`` prints them."""

from __future__ import annotations

import re

import pytest

from cdpsym.cli import main
from cdpsym.render import bibliography as B


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("name, source", B.library_sources())
def test_every_library_source_maps_to_a_bib_key(name, source):
    """A new theorem module whose source names a paper without an entry fails here: add the entry."""
    assert B.cite_keys(source), f"{name}: no bib entry matches its source {source!r}"
    assert B.unmatched(source) == [], f"{name}: {B.unmatched(source)} have no bib entry (source {source!r})"


@pytest.mark.parametrize("source, keys", [
    ("Dwork & Rothblum 2016, Thm 3.5, arXiv:1603.01887v2", ["DR16"]),
    ("Bun & Steinke 2016, Prop 1.3 and Lemma 3.5, arXiv:1605.02065", ["BS16"]),
    ("Mironov 2017, Prop. 3, arXiv:1702.07476v3", ["M17"]),
    ("Dwork & Roth 2014, Thm 3.14; Dwork, McSherry, Nissim & Smith 2006", ["DR14", "DMNS06"]),
    ("Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776; Murtagh & Vadhan 2016", ["KOV15", "MV16"]),
    ("Canonne, Kamath & Steinke 2020, Prop. 12 (v4)", ["CKS20"]),
    ("Balle & Wang 2018, Thm 8", ["BW18"]),
    ("van Erven & Harremoës 2014, Thm 9", ["vEH14"]),
    ("Dwork, Rothblum & Vadhan 2010, §III", ["DRV10"]),
    ("Hoeffding 1963, eq. (4.16)", ["Hoeffding63"]),
    ("Warner 1965", ["Warner65"]),
    ("e.g. Feller, Vol. I, §IV.1; Feller, Vol. II, §XV.2", ["Feller1", "Feller2"]),
    ("Steinke 2022, Composition Basics (seed 002); arXiv:2210.00597", ["S22", "S22b"]),
])
def test_sources_match_their_entries(source, keys):
    assert B.cite_keys(source) == keys
    assert B.unmatched(source) == []


def test_an_unknown_author_year_is_reported():
    assert B.unmatched("Smith 2019, Thm 2; Hoeffding 1963") == ["Smith 2019"]
    assert B.unmatched("arXiv:2004.00010v4") == []  # an arXiv id is not a year


def test_keys_are_unique_and_entries_are_ascii_bibtex():
    keys = [e.key for e in B.ENTRIES]
    assert len(keys) == len(set(keys))
    for e in B.ENTRIES:
        text = e.bibtex()
        assert text.isascii(), e.key
        assert text.startswith(f"@{e.kind}{{{e.key},") and text.count("{") == text.count("}")
        assert {"title", "year"} <= set(e.fields) and ("author" in e.fields)
        assert e.bibitem().isascii() and e.bibitem().startswith(rf"\bibitem{{{e.key}}}")


def test_cdpsym_bib_prints_everything_the_library_cites(capsys):
    code, out, _ = run(capsys, "bib")
    assert code == 0
    keys = re.findall(r"^@\w+\{([^,]+),", out, re.M)
    wanted = B.keys_for(s for _, s in B.library_sources())
    assert keys == wanted
    assert {"DR16", "BS16", "M17", "DR14", "Hoeffding63"} <= set(keys)


def test_cdpsym_bib_name_prints_one_theorems_citations(capsys):
    code, out, _ = run(capsys, "bib", "approx_dp_of_zcdp")
    assert code == 0
    keys = re.findall(r"^@\w+\{([^,]+),", out, re.M)
    assert "BS16" in keys and "DR16" not in keys


def test_thebibliography_has_one_bibitem_per_key():
    out = B.thebibliography(["DR16", "BS16"])
    assert out.startswith(r"\begin{thebibliography}") and out.count(r"\bibitem") == 2
