"""Jupyter display: every object a notebook user meets renders as LaTeX (and HTML where useful) without raising."""

from __future__ import annotations

import html
import re
from fractions import Fraction

import pytest
from flint import fmpq

import cdpsym
from cdpsym.accounting import Certified, CertifiedBounds, epsilon
from cdpsym.accounting.certified import certified_rational
from cdpsym.mechanisms import Gaussian, Laplace, RandomizedResponse, compose
from cdpsym.notebook import (VERDICT_COLOURS, bounds_math, certified_math, claim_math, derivation,
                             number_latex)
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, PureDP


def _math(latex: str) -> str:
    """A ``_repr_latex_`` value is one math-mode formula: ``$…$`` with balanced braces."""
    assert isinstance(latex, str) and latex.strip()
    assert latex.startswith("$") and latex.endswith("$"), latex
    body = latex.strip("$")
    assert body.strip()
    depth = 0
    for i, ch in enumerate(body):
        if ch == "{" and (i == 0 or body[i - 1] != "\\"):
            depth += 1
        elif ch == "}" and (i == 0 or body[i - 1] != "\\"):
            depth -= 1
        assert depth >= 0, latex
    assert depth == 0, latex
    return body


def _html(text: str) -> str:
    assert isinstance(text, str) and text.strip()
    # well-formed enough for a notebook: every opened table / row / cell is closed
    for tag in ("table", "tr", "td", "th", "div", "code", "span"):
        assert text.count(f"<{tag}") == text.count(f"</{tag}>"), tag
    return text


# -- notions, mechanisms, theorems --------------------------------------------------------------------------

@pytest.mark.parametrize("notion, expected", [
    (PureDP(1), r"\text{-DP}"),
    (ApproxDP(1, Fraction(1, 10**6)), r"\text{-DP}"),
    (ZCDP(Fraction(1, 2)), "zCDP"),
    (MeanConcentratedDP(1, 2), "CDP"),
    (RDP(2, 1), "RDP"),
    (TCDP(1, 10), "CDP"),
])
def test_notions_render_as_latex(notion, expected):
    assert expected in _math(notion._repr_latex_())


@pytest.mark.parametrize("mechanism, expected", [
    (Gaussian(1, 2), r"\sigma=2"),
    (Laplace(1, 2), "b=2"),
    (RandomizedResponse(Fraction(1, 2)), r"\varepsilon"),
    (compose(Gaussian(1, 2), k=1000), r"\otimes 1000"),
    (compose(Gaussian(1, 2), Laplace(1, 1), RandomizedResponse(1)), r"\otimes"),
])
def test_mechanisms_render_as_latex(mechanism, expected):
    assert expected in _math(mechanism._repr_latex_())


def test_theorem_renders_its_statement_and_derivation():
    from cdpsym.theorems import approx_dp_of_zcdp

    assert r"\delta_{P\|Q}" in _math(approx_dp_of_zcdp._repr_latex_())
    d = derivation(approx_dp_of_zcdp)
    chains = d.chains()
    assert chains and all(block.startswith(r"\begin{align*}") for _, block in chains)
    out = _html(d._repr_html_())
    assert "approx_dp_of_zcdp" in out and r"\begin{align*}" in out and "R-C4" in out
    latex = d._repr_latex_()
    assert latex.startswith("$$") and r"\begin{align*}" in latex


def test_verification_report_renders_as_markdown():
    from cdpsym.theorems import gaussian_zcdp

    report = gaussian_zcdp.verify(property_examples=3)
    assert "proved" in report._repr_markdown_()


# -- accounting ---------------------------------------------------------------------------------------------

def test_certified_epsilon_renders_value_digits_and_method():
    e = epsilon(compose(Gaussian(1, 2), k=1000), delta="1e-10")
    assert isinstance(e, Certified)
    assert _math(e._repr_latex_()) == rf"\varepsilon \le {e.rounded}"
    out = _html(e._repr_html_())
    assert e.rounded in out and "certified digits" in out and f"{e.digits} " in out
    assert html.escape(e.method, quote=False) in out and "1e-10" in out


def test_certified_rounded_down_and_in_scientific_notation():
    c = certified_rational("eps0", fmpq(1, 3), 5, "demo", {"x": "1/3"})
    assert _math(c._repr_latex_()) == r"\varepsilon_0 \ge 0.33333"
    d = certified_rational("delta", fmpq(3, 10**12), 5, "demo <b>", {})
    assert r"\cdot 10^{-12}" in _math(d._repr_latex_())
    out = _html(d._repr_html_())
    assert "demo &lt;b&gt;" in out and "<b>" not in out  # text is escaped


def test_certified_bounds_render_both_sides_and_the_gap():
    lo = certified_rational("epsilon", fmpq(41, 1), 5, "lower method", {}, direction="down")
    hi = certified_rational("epsilon", fmpq(42, 1), 5, "upper method", {})
    b = CertifiedBounds(lo, hi)
    assert _math(b._repr_latex_()) == bounds_math(b) == rf"{lo.rounded} \le \varepsilon \le {hi.rounded}"
    out = _html(b._repr_html_())
    assert "gap" in out and "lower method" in out and "upper method" in out


@pytest.mark.parametrize("text, expected", [
    ("1.5e-10", r"1.5 \cdot 10^{-10}"), ("1e-100", r"10^{-100}"), ("3.25", "3.25"), ("2E+5", r"2 \cdot 10^{5}"),
])
def test_number_latex(text, expected):
    assert number_latex(text) == expected


# -- claims -------------------------------------------------------------------------------------------------

def _verdict_cell(out: str, verdict: str) -> None:
    assert f">{verdict}</span>" in out
    assert VERDICT_COLOURS[verdict] in out


def test_proved_claim_renders_statement_verdict_theorems_and_derivation():
    r = cdpsym.check("zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)")
    assert r.verdict == "proved"
    body = _math(r._repr_latex_())
    assert "-zCDP}" in body and r"\textbf{proved}" in body and r"\rho>0" in body  # the claim's domain
    assert body == r"\displaystyle " + claim_math(r)
    out = _html(r._repr_html_())
    _verdict_cell(out, "proved")
    assert "<code>approx_dp_of_zcdp</code>" in out and "$$" in out
    # a claim whose proof has a displayed chain shows it as the derivation row
    chained = cdpsym.check("Gaussian(sensitivity=1, sigma=2) is zCDP(0.2)")
    assert chained.verdict in ("proved", "certified")
    assert "derivation" in _html(chained._repr_html_()) and r"\begin{align*}" in _html(chained._repr_html_())


def test_refuted_claim_renders_its_counterexample_and_recheck_command():
    r = cdpsym.check("forall x > 0: x^2 >= x")
    assert r.verdict == "refuted"
    assert r"\textbf{refuted}" in _math(r._repr_latex_())
    out = _html(r._repr_html_())
    _verdict_cell(out, "refuted")
    assert "counterexample" in out and "re-check" in out and "cdpsym check" in out


def test_refuted_notion_claim_shows_the_witness_mechanism():
    r = cdpsym.check(r"$\rho$-zCDP implies $(\rho + \sqrt{\rho\log(1/\delta)}, \delta)$-DP")
    assert r.verdict == "refuted"
    out = _html(r._repr_html_())
    assert "witness" in out and "Gaussian(" in out


def test_undecided_claim_says_why():
    r = cdpsym.check("group(size=k, DP(eps, delta)) is DP(k*eps, delta*(exp(k*eps) - 1)/(exp(eps) - 1))")
    out = _html(r._repr_html_())
    _verdict_cell(out, r.verdict)
    _math(r._repr_latex_())
    if r.verdict == "undecided":
        assert "why" in out and html.escape(r.message, quote=False) in out


def test_text_that_is_not_a_claim_still_renders():
    r = cdpsym.check("foo(1) <= 2 and {$_^")
    assert r.verdict == "error"
    body = _math(r._repr_latex_())
    assert r"\textbf{error}" in body
    out = _html(r._repr_html_())
    _verdict_cell(out, "error")
    assert not re.search(r"<(?!/?(table|tr|td|th|span|code|br)\b)", out)  # the claim text is escaped
