r"""Jupyter display: the LaTeX and HTML that notebooks show for cdpsym's results.

IPython calls an object's ``_repr_latex_`` / ``_repr_html_`` to display it; the
classes that a notebook user meets carry these methods and delegate here:

* :class:`~cdpsym.claims.checker.ClaimResult` — the claim as mathematics, the
  verdict in colour, the method, the theorems cited, the derivation of a proved
  claim and the counterexample (with the command that re-checks it) of a
  refuted one (:func:`claim_math`, :func:`claim_html`);
* :class:`~cdpsym.accounting.Certified` and
  :class:`~cdpsym.accounting.CertifiedBounds` — the value with its safe side
  (``\varepsilon \le 224.7417230``), the certified digits and the method
  (:func:`certified_math`, :func:`certified_html`, :func:`bounds_math`,
  :func:`bounds_html`);
* a theorem's checked derivation: :func:`derivation` wraps a
  :class:`~cdpsym.proof.Theorem` in an object whose HTML shows the statement
  and each proof chain as an ``align*`` that MathJax typesets.

Mathematics in the HTML is left to MathJax (``$…$``, ``$$…$$`` and
``\begin{align*}`` are typeset by JupyterLab, the classic notebook and the
documentation site); everything else is escaped.

>>> from cdpsym.accounting import epsilon
>>> from cdpsym.mechanisms import Gaussian, compose
>>> e = epsilon(compose(Gaussian(1, 2), k=1000), delta="1e-10")
>>> certified_math(e)
'\\varepsilon \\le 224.7417230'
>>> "certified digits" in certified_html(e)
True
"""

from __future__ import annotations

import html
import re
from typing import Any

__all__ = [
    "VERDICT_COLOURS",
    "number_latex",
    "certified_math",
    "certified_html",
    "bounds_math",
    "bounds_html",
    "claim_math",
    "claim_html",
    "derivation",
    "Derivation",
]

#: background colour of each verdict's badge
VERDICT_COLOURS = {
    "proved": "#1a7f37",
    "certified": "#1f6feb",
    "supported": "#9a6700",
    "undecided": "#6e7781",
    "refuted": "#cf222e",
    "error": "#8250df",
    "failed": "#cf222e",
}

_QUANTITY_TEX = {"epsilon": r"\varepsilon", "delta": r"\delta", "sigma": r"\sigma", "eps0": r"\varepsilon_0"}
_QUANTITY_WORD = {"epsilon": "ε", "delta": "δ", "sigma": "σ", "eps0": "ε₀"}

_TABLE_STYLE = "border-collapse:collapse;text-align:left"
_TH_STYLE = "text-align:left;padding:2px 10px 2px 0;vertical-align:top;font-weight:600"
_TD_STYLE = "text-align:left;padding:2px 0;vertical-align:top"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=False)


def _table(rows: list[tuple[str, str]], cls: str) -> str:
    """An HTML table of (label, cell) rows; cells are HTML already."""
    body = "".join(f'<tr><th style="{_TH_STYLE}">{_esc(k)}</th><td style="{_TD_STYLE}">{v}</td></tr>'
                   for k, v in rows if v)
    return f'<table class="{cls}" style="{_TABLE_STYLE}">{body}</table>'


def _badge(verdict: str) -> str:
    colour = VERDICT_COLOURS.get(verdict, "#6e7781")
    return (f'<span class="cdpsym-verdict cdpsym-{_esc(verdict)}" style="background:{colour};color:#fff;'
            f'padding:1px 8px;border-radius:4px;font-weight:600">{_esc(verdict)}</span>')


def _code(text: object) -> str:
    return f"<code>{_esc(text)}</code>"


# -- numbers -------------------------------------------------------------------------------------------------

_SCI = re.compile(r"^(-?)(\d+(?:\.\d+)?)[eE]([+-]?)0*(\d+)$")


def number_latex(decimal: str) -> str:
    r"""A decimal string as LaTeX: ``"1.5e-10"`` becomes ``1.5 \cdot 10^{-10}``; plain decimals are unchanged.

    >>> number_latex("2.2e-28"), number_latex("224.7417230"), number_latex("1e+400")
    ('2.2 \\cdot 10^{-28}', '224.7417230', '10^{400}')
    """
    m = _SCI.match(decimal.strip())
    if not m:
        return decimal
    sign, mantissa, esign, exponent = m.groups()
    exp = ("-" if esign == "-" else "") + exponent
    if mantissa == "1":
        return f"{sign}10^{{{exp}}}"
    return f"{sign}{mantissa} \\cdot 10^{{{exp}}}"


def _trim(decimal: str) -> str:
    """Trailing zeros after the decimal point dropped (``0.00080325000`` becomes ``0.00080325``)."""
    if "." in decimal and "e" not in decimal.lower():
        decimal = decimal.rstrip("0").rstrip(".")
    return decimal


def certified_math(c: Any) -> str:
    r"""``\varepsilon \le 224.7417230`` for a :class:`~cdpsym.accounting.Certified` (``\ge`` when rounded down)."""
    sym = _QUANTITY_TEX.get(c.quantity, rf"\mathrm{{{c.quantity}}}")
    op = r"\le" if c.direction == "up" else r"\ge"
    return f"{sym} {op} {number_latex(c.rounded)}"


def _query_html(query: Any) -> str:
    if not query:
        return ""
    return ", ".join(f"{_esc(k)} = {_code(v)}" for k, v in dict(query).items())


def certified_html(c: Any) -> str:
    """A small table for a :class:`~cdpsym.accounting.Certified`: value, certified digits, method, inputs."""
    side = "rounded up (an upper bound)" if c.direction == "up" else "rounded down (a lower bound)"
    kind = ("the exact optimum, enclosed" if c.exact
            else "a valid bound (not the exact optimum)")
    rows = [
        (_QUANTITY_WORD.get(c.quantity, c.quantity), f"$${certified_math(c)}$$"),
        ("certified digits", f"{int(c.digits)} ({_esc(side)})"),
        ("value", _esc(kind)),
        ("method", _esc(c.method)),
        ("inputs", _query_html(c.query)),
        ("ball", f"[{_code(c.lower)}, {_code(c.upper)}]"),
    ]
    return _table(rows, "cdpsym-certified")


def bounds_math(b: Any) -> str:
    r"""``41.60427139 \le \varepsilon \le 41.60507464`` for a :class:`~cdpsym.accounting.CertifiedBounds`."""
    sym = _QUANTITY_TEX.get(b.upper.quantity, rf"\mathrm{{{b.upper.quantity}}}")
    return rf"{number_latex(b.lower.rounded)} \le {sym} \le {number_latex(b.upper.rounded)}"


def bounds_html(b: Any) -> str:
    """A small table for a :class:`~cdpsym.accounting.CertifiedBounds`: both bounds, their digits, the gap."""
    methods = (_esc(b.lower.method) if b.lower.method == b.upper.method
               else f"lower: {_esc(b.lower.method)}<br>upper: {_esc(b.upper.method)}")
    rows = [
        (_QUANTITY_WORD.get(b.upper.quantity, b.upper.quantity), f"$${bounds_math(b)}$$"),
        ("certified digits", f"lower {int(b.lower.digits)}, upper {int(b.upper.digits)}"),
        ("gap", f"$${number_latex(_trim(b.gap))}$$"),
        ("method", methods),
        ("inputs", _query_html(b.upper.query)),
    ]
    return _table(rows, "cdpsym-certified-bounds")


# -- claims --------------------------------------------------------------------------------------------------

_CLAIM_ENV = re.compile(r"\\begin\{claim\}(.*?)\\end\{claim\}", re.S)
_DISPLAY = re.compile(r"\\\[(.*?)\\\]", re.S)
_INLINE = re.compile(r"\$(.*?)\$", re.S)
_ALIGN = re.compile(r"\\begin\{align\*\}.*?\\end\{align\*\}", re.S)


def _claim_parts(result: Any) -> tuple[str, str, str]:
    """(statement math, domain math, the proof's ``align*``) of a checked claim, each possibly empty."""
    if getattr(result, "parsed", None) is None:
        return "", "", ""
    try:
        snippet = result.latex()
    except Exception:  # noqa: BLE001 - a display must never raise; the table still shows the rest
        return "", "", ""
    env = _CLAIM_ENV.search(snippet)
    statement = domain = ""
    if env:
        text = env.group(1)
        display = _DISPLAY.search(text)
        if display:
            statement = display.group(1).strip()
            rest = text[display.end():]
            inline = _INLINE.search(rest)
            domain = inline.group(1).strip() if inline else ""
    align = _ALIGN.search(snippet)
    return statement, domain, align.group(0) if align else ""


def claim_math(result: Any) -> str:
    r"""The claim and its verdict as one math-mode formula (for ``_repr_latex_``), e.g.
    ``\rho\text{-zCDP} \implies \dots \quad \text{for all } \rho\in(0,\infty) \qquad [\textbf{proved}]``."""
    statement, domain, _ = _claim_parts(result)
    verdict = rf"[\textbf{{{result.verdict}}}]"
    if not statement:
        return (rf"\text{{{_text_safe(result.claim)}}}".replace(r"\text{}", "")) + rf" \qquad {verdict}"
    where = rf" \quad \text{{for all }} {domain}" if domain else ""
    return rf"{statement}{where} \qquad {verdict}"


def _text_safe(text: str) -> str:
    r"""The inside of a ``\text{…}`` showing *text* literally: each special character is typeset in math mode
    (``}\_\text{``), which MathJax 2, MathJax 3 with ``textmacros`` and LaTeX all accept.

    >>> _text_safe("a_b {c} x^2 \\ $")
    'a}\\_\\text{b }\\{\\text{c}\\}\\text{ x}{}^{\\wedge}\\text{2 }\\backslash\\text{ }\\$\\text{'
    """
    out = []
    for ch in text:
        if ch in "{}$_#%&":
            out.append(f"}}\\{ch}\\text{{")
        elif ch == "\\":
            out.append(r"}\backslash\text{")
        elif ch == "^":
            out.append(r"}{}^{\wedge}\text{")
        elif ch == "~":
            out.append(r"}\sim\text{")
        else:
            out.append(ch)
    return "".join(out)


_TEXT = re.compile(r"\\text\{((?:[^{}]|\\\^\{\})*)\}")


def _mathjax_text(latex: str) -> str:
    r"""LaTeX for MathJax: ``\_`` and ``\^{}`` moved out of ``\text{…}`` into math mode.

    MathJax 2 shows text-mode macros literally and MathJax 3 with ``textmacros`` (JupyterLab) rejects a bare
    ``_``; in math mode both typeset ``\_``.

    >>> _mathjax_text(r"a\_b &&\text{(see a\_b, e\^{}x)}")
    'a\\_b &&\\text{(see a}\\_\\text{b, e}{}^{\\wedge}\\text{x)}'
    """
    def fix(m: re.Match) -> str:
        body = m.group(1).replace(r"\_", r"}\_\text{").replace(r"\^{}", r"}{}^{\wedge}\text{")
        return (r"\text{" + body + "}").replace(r"\text{}", "")

    return _TEXT.sub(fix, latex)


def _counterexample_html(ce: dict) -> str:
    if not ce:
        return ""
    parts = []
    params = ce.get("parameters") or {}
    if params:
        parts.append("at " + ", ".join(f"{_esc(k)} = {_code(v)}" for k, v in params.items()))
    if ce.get("witness"):
        parts.append(f"witness {_code(ce['witness'])}" + (f" ({_esc(ce['witness_satisfies'])})"
                                                           if ce.get("witness_satisfies") else ""))
    if ce.get("claimed"):
        parts.append(f"claimed {_code(ce['claimed'])}")
    if ce.get("actual"):
        parts.append(f"actual {_code(ce['actual'])}" + (f" &gt; bound {_code(ce['bound'])}" if ce.get("bound") else ""))
    if ce.get("lhs") is not None and ce.get("rhs") is not None:
        parts.append(f"left side {_code(ce['lhs'])}, right side {_code(ce['rhs'])}")
    if ce.get("digits"):
        parts.append(f"certified ball arithmetic at {_esc(ce['digits'])} digits")
    if ce.get("command"):
        parts.append(f"re-check: {_code(ce['command'])}")
    known = {"parameters", "witness", "witness_satisfies", "claimed", "actual", "bound", "lhs", "rhs", "digits",
             "command"}
    for k, v in ce.items():
        if k not in known and v not in (None, "", {}, []):
            parts.append(f"{_esc(k.replace('_', ' '))}: {_code(v)}")
    return "<br>".join(parts)


def claim_html(result: Any) -> str:
    """A small table for a :class:`~cdpsym.claims.checker.ClaimResult`: claim, verdict, method, theorems,
    derivation or counterexample, and the checker's message."""
    statement, domain, align = _claim_parts(result)
    claim_cell = _code(result.claim)
    if statement:
        claim_cell = f"$${_esc(statement)}$$" + (f"for all ${_esc(domain)}$" if domain else "")
    rows = [
        ("claim", claim_cell),
        ("verdict", _badge(result.verdict) + f" &nbsp;({float(result.seconds):.2f} s)"),
        ("method", ", ".join(_esc(m) for m in result.method)),
        ("theorems", ", ".join(_code(t) for t in result.theorems_used)),
    ]
    if align and result.verdict in ("proved", "certified"):
        rows.append(("derivation", _esc(_mathjax_text(align))))
    if result.counterexample:
        rows.append(("counterexample", _counterexample_html(result.counterexample)))
    if result.verdict not in ("proved", "certified") and result.message:
        rows.append(("why", _esc(result.message)))
    return _table(rows, "cdpsym-claim")


# -- theorems ------------------------------------------------------------------------------------------------

_PROOF_HEAD = re.compile(r"\\emph\{Proof of \((.*?)\)\.\}")


class Derivation:
    """A theorem's checked derivation for a notebook: the statement, then each proof chain as an ``align*``.

    Made by :func:`derivation`; ``latex()`` is the full LaTeX the renderer generates (for a paper).
    """

    def __init__(self, theorem: Any) -> None:
        self.theorem = theorem

    def latex(self) -> str:
        return self.theorem.latex()

    def chains(self) -> list[tuple[str, str]]:
        """``(part, align*)`` for each proof chain in the generated LaTeX (part is ``""`` when unnamed)."""
        text = self.latex()
        out = []
        for m in _ALIGN.finditer(text):
            heads = list(_PROOF_HEAD.finditer(text, 0, m.start()))
            part = heads[-1].group(1).replace(r"\_", "_") if heads else ""
            out.append((part, m.group(0)))
        return out

    def _statement(self) -> str:
        latex = self.theorem._repr_latex_()
        return latex.strip("$").removeprefix(r"\displaystyle").strip()

    def _repr_latex_(self) -> str:
        blocks = [c for _, c in self.chains()]
        return "\n".join([f"$${self._statement()}$$", *blocks])

    def _repr_html_(self) -> str:
        t = self.theorem
        head = (f"<p><b>{_esc(t.name)}</b> ({_esc(getattr(t, 'reference', ''))}) — "
                f"{_esc(getattr(t, 'source', ''))}</p>")
        parts = [head, f"<p>$${_esc(self._statement())}$$</p>"]
        chains = self.chains()
        if not chains:
            parts.append(f"<pre>{_esc(self.latex())}</pre>")
        for part, block in chains:
            parts.append(f"<p><i>Proof{' of ' + _esc(part) if part else ''}.</i></p><div>{_esc(_mathjax_text(block))}</div>")
        return f'<div class="cdpsym-derivation">{"".join(parts)}</div>'


def derivation(theorem: Any) -> Derivation:
    """*theorem*'s checked derivation as a displayable object (statement and proof chains, typeset by MathJax)."""
    return Derivation(theorem)
