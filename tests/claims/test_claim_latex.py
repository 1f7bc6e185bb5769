"""``cdpsym check --latex``: the derivation of a proved claim, or the refutation, compiles in a plain article."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from cdpsym.claims import check

CLAIMS = ["zCDP(rho) implies DP(rho + 3*sqrt(rho*log(1/delta)), delta)",
          "eps*(exp(eps)-1)/2 <= eps^2 FOR 0 < eps <= 1.25",
          "forall eps > 0: eps*tanh(eps/2) <= eps^2/2",
          "DP(eps) implies zCDP(eps^2/4)",
          "compose(k=10, Gaussian(1, 5)) is (1, 1e-5)-DP"]


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (CI installs texlive)")
def test_claim_derivations_compile(tmp_path):
    body = "\n\n".join(check(c).latex() for c in CLAIMS)
    assert body.isascii()
    doc = ("\\documentclass{article}\\usepackage{amsmath,amssymb,amsthm}\\newtheorem{claim}{Claim}\n"
           "\\begin{document}\n" + body + "\n\\end{document}\n")
    (tmp_path / "c.tex").write_text(doc)
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "c.tex"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    log = (tmp_path / "c.log").read_text(errors="replace")
    assert run.returncode == 0, log[-2000:]
    assert "Missing character" not in log


def test_a_proof_by_cases_shows_the_cut_and_the_rules():
    out = check("eps*(exp(eps)-1)/2 <= eps^2 FOR 0 < eps <= 1.25").latex()
    assert r"\text{cases }" in out and "mean value theorem" in out and "128-bit" in out
