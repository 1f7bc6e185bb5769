"""LaTeX a referee reads: snippets that paste into a paper, standalone documents, the catalogue.

The compile tests need pdflatex (CI installs texlive; see .ci/run) and are skipped without it.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from cdpsym import theorems
from cdpsym.cli import main
from cdpsym.render.latex import catalogue, label, theorem_latex
from cdpsym.render.prose import prose

needs_pdflatex = pytest.mark.skipif(shutil.which("pdflatex") is None,
                                    reason="pdflatex not installed (CI installs it)")

_PLAIN = "\n".join([r"\documentclass{article}", r"\usepackage{amsmath,amssymb,amsthm}",
                    r"\newtheorem{theorem}{Theorem}", r"\begin{document}", "%s", r"\end{document}", ""])


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def compile_tex(tmp_path, source: str, runs: int = 2) -> str:
    """Compile with pdflatex (twice, for references); the log, asserted free of errors and missing characters."""
    (tmp_path / "d.tex").write_text(source)
    for _ in range(runs):
        proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "d.tex"], cwd=tmp_path,
                              capture_output=True, timeout=600)
        log = (tmp_path / "d.log").read_bytes().decode("latin-1")
        assert proc.returncode == 0, log[-3000:]
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert "Missing character" not in log
    assert (tmp_path / "d.pdf").stat().st_size > 1000
    return log


# -- the catalogue ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def the_catalogue() -> str:
    return catalogue()


def test_catalogue_is_pure_ascii(the_catalogue):
    """No Unicode anywhere (the documents use no verbatim), so nothing can reach text mode as a glyph."""
    bad = sorted({ch for ch in the_catalogue if not ch.isascii()})
    assert bad == []
    assert "[" + "greek" not in the_catalogue  # no character fell through to its Unicode name
    assert not re.findall(r".{30}\boo\b.{10}", the_catalogue)  # sympy's infinity is \infty, never the letters


def test_catalogue_has_title_page_contents_sections_labels_and_bibliography(the_catalogue):
    assert r"\begin{titlepage}" in the_catalogue and r"\tableofcontents" in the_catalogue
    assert r"\begin{thebibliography}" in the_catalogue and r"\bibitem{DR16}" in the_catalogue
    for t in theorems.LIBRARY:
        assert the_catalogue.count(r"\label{%s}" % label(t.name)) == 1, t.name


def test_catalogue_is_in_dependency_order_and_references_earlier_theorems(the_catalogue):
    position = {t.name: the_catalogue.index(r"\label{%s}" % label(t.name)) for t in theorems.LIBRARY}
    for m in re.finditer(r"\\ref\{thm:([A-Za-z0-9_]+)\}", the_catalogue):
        cited = m.group(1)
        citing = max((n for n, p in position.items() if p < m.start()), key=lambda n: position[n])
        assert position[cited] <= position[citing], f"{citing} cites {cited}, which comes later"
    assert r"\ref{thm:cdp_composition}" in the_catalogue


def test_every_cite_and_ref_has_a_target(the_catalogue):
    bibitems = set(re.findall(r"\\bibitem\{([^}]+)\}", the_catalogue))
    cited = {k for group in re.findall(r"\\cite(?:\[[^]]*\])?\{([^}]+)\}", the_catalogue) for k in group.split(",")}
    assert cited and cited <= bibitems
    labels = set(re.findall(r"\\label\{([^}]+)\}", the_catalogue))
    refs = set(re.findall(r"\\(?:eq)?ref\{([^}]+)\}", the_catalogue))
    assert refs <= labels


def test_inductions_show_base_case_and_step(the_catalogue):
    out = theorem_latex(theorems.get("pure_dp_basic_composition"))
    assert "Base case" in out and "Induction step" in out
    assert out.count(r"\begin{align*}") >= 3  # the chain, the base case, the step


def test_given_sub_proofs_are_shown_as_sub_derivations():
    out = theorem_latex(theorems.get("cdp_of_pure_dp_hoeffding"))
    assert "the hypothesis \\texttt{mean\\_\\allowbreak{}zero}" in out
    assert out.count(r"\begin{align*}") >= 4


def test_titles_and_notes_are_maths_not_unicode_prose():
    out = theorem_latex(theorems.get("approx_dp_advanced_composition"))
    assert out.isascii()
    assert r"\log{\left(\frac{1}{\delta'} \right)}" in out  # the title, generated from the statement
    assert r"\^{}" not in out and r"\textasciicircum" not in out and r"$\surd$" not in out


@needs_pdflatex
def test_catalogue_compiles_without_errors_or_missing_characters(tmp_path, capsys):
    code, out, _ = run(capsys, "latex", "--all", "--standalone")
    assert code == 0
    log = compile_tex(tmp_path, out)
    assert "There were undefined references" not in log
    assert not re.search(r"Citation `[^']+' .*undefined", log)
    # two runs settle every reference and the contents' page numbers (the front matter is numbered i, ii, ...)
    assert "Label(s) may have changed" not in log
    # long formulas are broken, abbreviated or displayed: nothing runs into the margin by more than about 1 cm
    # (a few multi-part statements still reach 20-38pt; the unbroken catalogue had boxes of 100-470pt)
    over = [float(x) for x in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]
    assert all(x < 40 for x in over), sorted(over)[-5:]
    assert sum(x > 15 for x in over) <= 8, sorted(over)


# -- snippets and standalone documents -------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["approx_dp_of_zcdp", "pure_dp_basic_composition", "cdp_composition"])
def test_snippet_is_a_labelled_theorem_proof_pair(capsys, name):
    code, out, _ = run(capsys, "latex", name)
    assert code == 0 and out.isascii()
    code_lines = [line for line in out.splitlines() if not line.startswith("%")]
    # a guard defines the theorem environment when the paper has not, then the theorem
    assert code_lines[0] == r"\ifdefined\theorem\else\newtheorem{theorem}{Theorem}\fi"
    assert code_lines[1].startswith(r"\begin{theorem}")
    body = "\n".join(code_lines)
    assert r"\label{thm:%s}" % name in body and r"\begin{proof}" in body and r"\end{proof}" in body
    assert r"\usepackage" not in body and r"\ref{" not in body  # nothing that needs the catalogue around it
    assert out.startswith("% cdpsym: " + name) and "amsmath,amssymb,amsthm" in out.splitlines()[0]


@needs_pdflatex
@pytest.mark.parametrize("name", ["approx_dp_of_zcdp", "pure_dp_basic_composition", "cdp_composition",
                                  "hoeffding_lemma"])
def test_snippet_pasted_into_a_plain_article_compiles(tmp_path, capsys, name):
    code, out, _ = run(capsys, "latex", name)
    assert code == 0
    compile_tex(tmp_path, _PLAIN % out)  # a paper that has its own theorem environment
    bare = _PLAIN.replace(r"\newtheorem{theorem}{Theorem}" + "\n", "")  # and one that has none
    assert r"\newtheorem" not in bare
    compile_tex(tmp_path, bare % out)


@needs_pdflatex
@pytest.mark.parametrize("theorem", theorems.LIBRARY, ids=lambda t: t.name)
def test_every_standalone_document_compiles(tmp_path, theorem):
    out = theorem_latex(theorem, standalone=True)
    assert out.isascii()
    compile_tex(tmp_path, out)


@pytest.mark.parametrize("argv, message", [
    (["latex", "--all"], "needs --standalone"),
    (["latex", "gaussian_zcdp", "--all", "--standalone"], "takes no NAME"),
    (["latex"], "needs a theorem NAME"),
])
def test_latex_command_misuse_is_bad_input(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 3 and out == "" and message in err


# -- prose --------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected", [
    ("ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP", r"$\rho$-zCDP implies $(\rho + 2\sqrt{\rho \log(1/\delta)}, \delta)$-DP"),
    ("k-fold composition of ε-DP", r"$k$-fold composition of $\varepsilon$-DP"),
    ("P^(k)", r"$P^{(k)}$"),
    ("Y₁", r"$Y_{1}$"),
    ("sup_prefix E[X]", r"$\sup_{\text{prefix}} \mathbb{E}[X]$"),
    ("e^{-t²/2}", r"$e^{-t^{2}/2}$"),
    ("a sum of k variables", r"a sum of $k$ variables"),
    ("Dwork & Rothblum 2016, §3.1", r"Dwork \& Rothblum 2016, \S{}3.1"),
    ("the **union bound**", r"the \textbf{union bound}"),
    ("values in [0, oo)", r"values in $[0, \infty)$"),  # sympy's infinity, never the letters
    ("exist in (-oo, +oo]", r"exist in $(-\infty, +\infty]$"),
    ("a zoo of goods", "a zoo of goods"),
])
def test_prose_typesets_pseudo_maths_as_maths(text, expected):
    assert prose(text) == expected


def test_prose_of_every_library_string_is_ascii_with_balanced_dollars():
    strings = [t.title for t in theorems.LIBRARY] + [t.tight for t in theorems.LIBRARY]
    strings += [h.title for t in theorems.LIBRARY for h in t.hypotheses]
    strings += [a.title for a in theorems.AXIOMS] + [a.citation for a in theorems.AXIOMS]
    for s in strings:
        out = prose(s)
        assert out.isascii(), (s, out)
        assert out.replace(r"\$", "").count("$") % 2 == 0, (s, out)
