"""``cdpsym check --latex``: the derivation of a proved claim, or the refutation, as a short remark for a paper.

It compiles in a plain article (amsmath, amssymb, amsthm only) with no error, no overfull line and no missing
character; it reads like maths (no internal names, numbers as a paper writes them); it names the library
theorem used with its citation and its instantiation; and it accounts for every step the kernel closed.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from cdpsym.claims import check
from cdpsym.claims.latexout import enclosure, mtex, num_tex

#: claims of every kind (tests/claims/corpus.txt): proved conversion, mechanism, composition, relation (with a
#: proof by cases); certified mechanism; refuted conversion, mechanism, composition, relation; undecided
CLAIMS = ["zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)",
          "Gaussian(sensitivity=1, sigma=sigma) is zCDP(rho=1/(2*sigma^2))",
          "Gaussian(1, sigma) is DP(1/(2*sigma^2) + sqrt(2*log(1/delta))/sigma, delta)",
          "compose(k=k, Gaussian(1, sigma)) is zCDP(k/(2*sigma^2))",
          "DP(eps) implies zCDP(eps^2/2)",
          "eps*(exp(eps)-1)/2 <= eps^2 FOR 0 < eps <= 1.25",
          "forall eps > 0: eps*tanh(eps/2) <= eps^2/2",
          "Gaussian(1, 1) is DP(1, 0.127)",
          "zCDP(rho) implies DP(rho + sqrt(rho*log(1/delta)), delta)",
          "Gaussian(1, 1) is (4.88, 1e-6)-DP",
          "compose(k=10, Gaussian(1, 5)) is (1, 1e-5)-DP",
          "compose(k=k, DP(eps)) is DP(sqrt(2*k*log(1/delta))*eps + k*eps*tanh(eps/2)/2, delta)",
          "Phi(1/2 - 1) - exp(1)*Phi(-1/2 - 1) < 0.1269",
          "exp(pi*sqrt(163)) = 262537412640768744",
          "compose(k=k, DP(eps)) is DP(sqrt(2*k*log(1/delta))*eps + k*eps*(exp(eps)-1)/2, delta)",
          "DP(eps) implies CDP(eps*tanh(eps/2), eps)",
          "compose(1-DP, 2-DP) is 3-DP",
          "tCDP(rho, omega) implies DP(omega*rho + log(1/delta)/omega, delta)"]


@pytest.fixture(scope="module")
def outputs() -> dict[str, str]:
    return {c: check(c).latex() for c in CLAIMS}


def _prose(tex: str) -> str:
    """The text a reader sees outside maths and comments (roughly)."""
    tex = "\n".join(line for line in tex.splitlines() if not line.startswith("%"))
    tex = re.sub(r"\\\[.*?\\\]", " ", tex, flags=re.S)
    tex = re.sub(r"\\begin\{(align|multline|gather)\*\}.*?\\end\{\1\*\}", " ", tex, flags=re.S)
    return re.sub(r"\$[^$]*\$", " ", tex)


def _pdflatex(tmp_path, body: str, name: str = "c") -> str:
    doc = ("\\documentclass[a4paper]{article}\n\\usepackage{amsmath,amssymb,amsthm}\n\\begin{document}\n"
           + body + "\n\\end{document}\n")
    (tmp_path / f"{name}.tex").write_text(doc)
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", f"{name}.tex"], cwd=tmp_path,
                         capture_output=True, timeout=300)
    log = (tmp_path / f"{name}.log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    return log


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (CI installs texlive)")
def test_the_remarks_compile_in_a_plain_article_within_the_text_width(tmp_path, outputs):
    body = "\n\n".join(outputs[c] for c in CLAIMS)
    assert body.isascii()
    log = _pdflatex(tmp_path, body)
    assert not re.search(r"^! ", log, re.M), log[-3000:]
    assert "Missing character" not in log
    overfull = re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)[^\n]*", log)
    assert not overfull, overfull
    assert "undefined" not in log.lower().replace("undefined references", "")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (CI installs texlive)")
def test_a_remark_works_where_claim_is_already_a_theorem_environment(tmp_path, outputs):
    body = "\\newtheorem{claim}{Claim}\n" + outputs[CLAIMS[0]] + "\n\n" + outputs[CLAIMS[8]]
    log = _pdflatex(tmp_path, body, "d")
    assert not re.search(r"^! ", log, re.M), log[-3000:]


def test_every_remark_is_self_contained_and_free_of_internal_names(outputs):
    for claim, out in outputs.items():
        assert r"\ifdefined\claim\else\newtheorem{claim}{Claim}\fi" in out, claim
        prose = _prose(out)
        for internal in ("ApproxDP", "PureDP", "ZCDP", "MeanConcentratedDP", "TCDP", "RDP(", "Gaussian(",
                         "Laplace(", "RandomizedResponse", "_family", "\\texttt", "approx\\_dp", "rho ", "eps ",
                         "kernel rule named", "+/-", "1e-"):
            assert internal not in prose, (claim, internal)
        assert not re.search(r"\d{25,}", out.replace("\n", " ").split("\\begin{claim}")[1]) or "163" in claim, claim


def test_a_proved_conversion_names_the_theorem_its_citation_and_every_fact(outputs):
    out = outputs["zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)"]
    assert "``zCDP to approximate DP''" in out and "Bun \\& Steinke 2016, Prop 1.3" in out
    assert "exactly the claim" in out
    # the eight facts the kernel closed are all listed (duplicates once): rho > 0, delta in (0, 1), eps >= 0 ...
    assert "$0 < \\rho$" in out and "$0 < \\delta < 1$" in out and "$0 \\le \\delta \\le 1$" in out
    assert "sign of the difference" in out
    assert "Each line is closed" not in out and "(proved)" not in out


def test_a_chain_of_theorems_shows_each_instantiation(outputs):
    out = outputs["Gaussian(1, sigma) is DP(1/(2*sigma^2) + sqrt(2*log(1/delta))/sigma, delta)"]
    assert "``Gaussian mechanism, zCDP''" in out and "``zCDP to approximate DP''" in out
    assert "at $\\Delta=1$" in out and "at $\\rho=\\frac{1}{2 \\sigma^{2}}$" in out
    out = outputs["compose(k=k, Gaussian(1, sigma)) is zCDP(k/(2*sigma^2))"]
    assert "each of the composed mechanisms" in out and "adaptive composition of zCDP" in out


def test_a_proof_by_cases_shows_the_cut_and_the_rules(outputs):
    out = outputs["eps*(exp(eps)-1)/2 <= eps^2 FOR 0 < eps <= 1.25"]
    assert "cases: for $\\varepsilon\\le 0.25$" in out and "mean value theorem" in out and "128-bit" in out
    out = outputs["forall eps > 0: eps*tanh(eps/2) <= eps^2/2"]
    assert "$h \\ge 0$ and $h' \\ge 0$ at $\\varepsilon=0$" in out and "twice" in out


def test_a_refuted_conversion_reads_like_a_counterexample(outputs):
    out = outputs["zCDP(rho) implies DP(rho + sqrt(rho*log(1/delta)), delta)"]
    assert "Take $\\rho = 3$ and $\\delta = 10^{-2}$." in out
    assert "\\mathcal{M}_{\\mathrm{Gauss}}(\\Delta=\\sqrt{6},\\ \\sigma=1)" in out
    assert "since $\\Delta^2/(2\\sigma^2) = 3 = \\rho$" in out               # why the witness is rho-zCDP
    assert "\\varepsilon &= 3 + \\sqrt{3}" in out                             # where the profile is evaluated
    assert "0.03449973453\\ldots" in out and "\\in [0.03449973453,\\ 0.03449973454]" in out
    assert "Arb" in out and "0.0344997345327207" not in out


def test_refuted_mechanism_composition_and_relation(outputs):
    out = outputs["Gaussian(1, 1) is (4.88, 1e-6)-DP"]
    assert "1.031655245\\ldots\\cdot 10^{-6} > 10^{-6}" in out
    out = outputs["compose(k=10, Gaussian(1, 5)) is (1, 1e-5)-DP"]
    assert "^{\\otimes 10}" in out and "10^{-5}" in out
    out = outputs["Phi(1/2 - 1) - exp(1)*Phi(-1/2 - 1) < 0.1269"]
    assert "0.1269367375\\ldots \\ge 0.1269" in out
    out = outputs["exp(pi*sqrt(163)) = 262537412640768744"]
    assert "\\ne 262537412640768744" in out and "2.62537412640768743999" in out  # digits enough to separate


def test_undecided_says_what_the_library_gives(outputs):
    out = outputs["DP(eps) implies CDP(eps*tanh(eps/2), eps)"]
    assert "Undecided." in out and "via Hoeffding's lemma" in out and "no counterexample" in out
    # the library proves basic composition only for sequences of steps, which the claim language cannot name: the
    # checker falls back on the exact optimum, which supports the claim (KOV15/MV16, checked, not proved)
    out = outputs["compose(1-DP, 2-DP) is 3-DP"]
    assert "Supported, not proved." in out and "Undecided." not in out and "Murtagh" in out


def test_numbers_as_a_paper_writes_them():
    import sympy as sp

    assert num_tex(sp.Rational(1, 100)) == "10^{-2}" and num_tex(sp.Rational(1269, 10000)) == "0.1269"
    assert mtex(sp.log(sp.Integer(10) ** 300)) == r"\log{\left(10^{300} \right)}"
    shown, between = enclosure("[0.034499734532720764489998843997432 +/- 6.92e-34]")
    assert shown == r"0.03449973453\ldots" and between == ("0.03449973453", "0.03449973454")
    shown, between = enclosure("[1.03165524537001805683681026516327e-6 +/- 4.48e-39]")
    assert shown == r"1.031655245\ldots\cdot 10^{-6}"
    assert enclosure("0.25") == ("0.25", None)
    # enough digits to separate from the other side, rounded outward
    shown, between = enclosure("[1.00000000000000000004 +/- 1e-22]", "1")
    assert "1.0000000000000000000" in shown and between[0].startswith("1.00000000000000000003")
