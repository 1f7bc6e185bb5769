"""LaTeX: statements, step-by-step derivations (``align*``) and standalone documents.

Every line of a derivation is one step of the checked chain, with its
justification and citation beside it — generated from the chain itself, so
the printed proof cannot drift from the checked one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

import sympy as sp

from cdpsym.expr.symbols import LATEX_NAMES

if TYPE_CHECKING:  # pragma: no cover
    from cdpsym.proof.kernel import Fact
    from cdpsym.proof.theorem import Theorem

__all__ = ["tex", "fact_label", "statement_latex", "theorem_latex", "document", "text", "justification_latex"]

_OPS = {"=": "=", "<=": r"\le", "<": "<"}


def tex(expr: sp.Basic) -> str:
    """sympy's LaTeX with the project's symbol names (ε as ``\\varepsilon``, Δ …), natural log as ``\\log``."""
    names = {s: LATEX_NAMES[s] for s in getattr(expr, "free_symbols", ()) if s in LATEX_NAMES}
    return sp.latex(expr, symbol_names=names, ln_notation=False, mul_symbol=None)


_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\~{}", "^": r"\^{}", "<": r"$<$", ">": r"$>$", "$": r"\$",
}


def text(s: str) -> str:
    """Escape plain text for ``\\text{…}`` (one character at a time, so escapes are never re-escaped)."""
    return _unicode("".join(_TEXT_ESCAPES.get(ch, ch) for ch in s))


_UNICODE = {
    # Greek
    "α": r"$\alpha$", "β": r"$\beta$", "γ": r"$\gamma$", "δ": r"$\delta$", "ε": r"$\varepsilon$",
    "ζ": r"$\zeta$", "η": r"$\eta$", "θ": r"$\theta$", "κ": r"$\kappa$", "λ": r"$\lambda$", "μ": r"$\mu$",
    "ν": r"$\nu$", "ξ": r"$\xi$", "π": r"$\pi$", "ρ": r"$\rho$", "σ": r"$\sigma$", "τ": r"$\tau$",
    "φ": r"$\varphi$", "χ": r"$\chi$", "ψ": r"$\psi$", "ω": r"$\omega$", "Γ": r"$\Gamma$", "Δ": r"$\Delta$",
    "Θ": r"$\Theta$", "Λ": r"$\Lambda$", "Π": r"$\Pi$", "Σ": r"$\Sigma$", "Φ": r"$\Phi$", "Ψ": r"$\Psi$",
    "Ω": r"$\Omega$",
    # relations, operators, arrows
    "≤": r"$\le$", "≥": r"$\ge$", "≠": r"$\neq$", "≈": r"$\approx$", "≃": r"$\simeq$", "∼": r"$\sim$",
    "≪": r"$\ll$", "≫": r"$\gg$", "∈": r"$\in$", "∉": r"$\notin$", "⊆": r"$\subseteq$", "⊂": r"$\subset$",
    "⊇": r"$\supseteq$", "∪": r"$\cup$", "∩": r"$\cap$", "∅": r"$\emptyset$", "∀": r"$\forall$",
    "∃": r"$\exists$", "¬": r"$\neg$", "⇒": r"$\Rightarrow$", "⇔": r"$\Leftrightarrow$", "→": r"$\to$",
    "↦": r"$\mapsto$", "←": r"$\leftarrow$", "×": r"$\times$", "±": r"$\pm$", "·": r"$\cdot$",
    "∘": r"$\circ$", "√": r"$\surd$", "∑": r"$\sum$", "∏": r"$\prod$", "∫": r"$\int$", "∂": r"$\partial$",
    "∞": r"$\infty$", "‖": r"$\|$", "⌈": r"$\lceil$", "⌉": r"$\rceil$", "⌊": r"$\lfloor$",
    "⌋": r"$\rfloor$", "ℓ": r"$\ell$", "ℝ": r"$\mathbb{R}$", "ℕ": r"$\mathbb{N}$", "⊗": r"$\otimes$",
    # sub/superscripts
    "²": r"$^2$", "³": r"$^3$", "¹": r"$^1$", "⁻": r"$^-$", "₀": r"$_0$", "₁": r"$_1$", "₂": r"$_2$",
    "₃": r"$_3$", "ᵢ": r"$_i$", "ₖ": r"$_k$", "₊": r"$_+$",
    # punctuation
    "–": "--", "—": "---", "−": "-", "′": "'", "’": "'", "‘": "`", "“": "``", "”": "''", "…": r"\ldots{}",
    "§": r"\S{}", "é": r"\'e", "è": r"\`e", "ö": r'\"o', "ü": r'\"u', "ä": r'\"a', "ï": r'\"i',
    "\u00a0": "~",
}


def _unicode(s: str) -> str:
    """Map non-ASCII characters to LaTeX; an unknown one becomes its Unicode name (never a compile error)."""
    import unicodedata

    out = []
    for ch in s:
        if ord(ch) < 128:
            out.append(ch)
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        else:
            out.append("[" + unicodedata.name(ch, "?").lower() + "]")
    return "".join(out)


def fact_label(fact: "Fact") -> str:
    """What a ``by`` step prints: the fact's title and citation."""
    kind = fact.kind
    if kind == "hypothesis":
        return r"\text{%s}" % text(f"by hypothesis ({fact.title or fact.name})")
    if kind == "axiom":
        title = fact.title or fact.name
        ref = getattr(fact, "reference", "")
        cite = ", ".join(x for x in (ref, fact.citation) if x)
        return r"\text{by %s%s}" % (_bold_classical(title), text(f" [{cite}]") if cite else "")
    thm = getattr(fact, "theorem", None)
    ref = thm.reference if thm is not None else ""
    return r"\text{by %s%s}" % (r"\texttt{%s}" % text(fact.name), text(f" ({ref})") if ref else "")


def justification_latex(why) -> str:
    """The justification column of a derivation line for a step that does not cite a fact."""
    from cdpsym.proof import kernel as K

    if isinstance(why, K.Algebra):
        return rf"\text{{{text(why.note or 'algebra')}}}"
    if isinstance(why, K.Sign):
        return rf"\text{{{text(why.note or 'since the difference is non-negative')}}}"
    if isinstance(why, K.Specialize):
        out = rf"\text{{take }} {tex(why.var)} = {tex(why.value)}"
        return out + (r"\text{ (the minimiser)}" if why.minimizes is not None else "")
    if isinstance(why, K.IntervalBound):
        return r"\text{interval arithmetic on a box}"
    if isinstance(why, K.Numeric):
        return r"\text{numerically (evidence only)}"
    if isinstance(why, K.Taylor):
        return r"\text{\textbf{Taylor's theorem} (Lagrange remainder), } g''\le " + tex(why.bound)
    if isinstance(why, K.Induction):
        return r"\text{by induction on }" + tex(why.var)
    if isinstance(why, K.By):
        return fact_label(why.fact)
    return rf"\text{{{text(getattr(why, 'method', '?'))}}}"


def _bold_classical(title: str) -> str:
    """``**Hoeffding's lemma**`` in a title becomes bold."""
    parts = title.split("**")
    return "".join(r"\textbf{%s}" % text(p) if i % 2 else text(p) for i, p in enumerate(parts))


def _rel(rel) -> str:
    return f"{tex(rel.lhs)} {_OPS[rel.op]} {tex(rel.rhs)}"


def statement_latex(theorem: "Theorem") -> str:
    """The statement, all parts, as one display-math string."""
    return r",\qquad ".join(_rel(p.relation) for p in theorem.parts)


def _hypotheses_latex(theorem: "Theorem") -> Iterable[str]:
    for v, dom in theorem.variables.items():
        yield "$" + dom.latex(v, tex(v)) + "$"
    for c in theorem.conditions:
        yield "$" + _rel(c) + "$"
    for h in theorem.hypotheses:
        body = _rel(h.relation)
        if h.variables:
            quant = ", ".join(dom.latex(v, tex(v)) for v, dom in h.variables.items())
            body += rf"\quad\text{{for all }}{quant}"
        yield text(h.title or h.name) + ": $" + body + "$"


def derivation(chain, part_name: str = "") -> str:
    """One ``align*`` environment, one checked step per line, then the list of what was cited.

    The justification column stays short (``by [2]``, ``algebra``); the
    numbered list under the display gives each cited fact in full with its
    source, so lines fit the page.
    """
    from cdpsym.proof.kernel import By

    cited: list = []
    lines = []
    first = tex(chain.start)
    for i, step in enumerate(chain.steps):
        why = step.why
        if isinstance(why, By):
            if why.fact not in cited:
                cited.append(why.fact)
            label = _short_label(why.fact, cited.index(why.fact) + 1)
        else:
            label = justification_latex(why)
        lhs = first if i == 0 else ""
        lines.append(rf"{lhs} &{_OPS[step.op]} {tex(step.expr)} && {label}")
    pre = ""
    if chain.variables:
        quant = ", ".join(dom.latex(v, tex(v)) for v, dom in chain.variables.items())
        pre = rf"For every ${quant}$ (fixed where the derivation says so):" + "\n"
    body = pre + "\\begin{align*}\n" + ("\\\\\n".join(lines) or tex(chain.start)) + "\n\\end{align*}"
    if cited:
        items = "\n".join(rf"\item[{n}] {_long_label(f)}" for n, f in enumerate(cited, 1))
        body += "\n{\\small\\begin{itemize}\n" + items + "\n\\end{itemize}}"
    return body


def _short_label(fact, n: int) -> str:
    if fact.kind == "hypothesis":
        return r"\text{hypothesis [%d]}" % n
    if fact.kind == "axiom":
        return r"\text{by [%d]}" % n
    return r"\text{by [%d] }\texttt{%s}" % (n, text(fact.name))


def _long_label(fact) -> str:
    quant = ", ".join(dom.latex(v, tex(v)) for v, dom in fact.variables.items())
    rel = "$" + _rel(fact.relation) + ("$ for $" + quant if quant else "") + "$"
    if fact.kind == "hypothesis":
        return "hypothesis: " + text(fact.title or fact.name) + ", " + rel
    if fact.kind == "axiom":
        cite = ", ".join(x for x in (getattr(fact, "reference", ""), fact.citation) if x)
        return _bold_classical(fact.title or fact.name) + ": " + rel + (text(f" [{cite}]") if cite else "")
    thm = getattr(fact, "theorem", None)
    ref = f" ({thm.reference}, {thm.source})" if thm is not None else ""
    return r"\texttt{%s}%s: %s" % (text(fact.name), text(ref), rel)


def theorem_latex(theorem: "Theorem", standalone: bool = False) -> str:
    """The theorem with its derivation; ``standalone`` adds the cited lemmas and a preamble."""
    if standalone:
        return document([*_dependencies(theorem), theorem], title=theorem.title)
    return _theorem_block(theorem)


def _theorem_block(theorem: "Theorem") -> str:
    out = [r"\paragraph{%s (%s).} %s" % (r"\texttt{%s}" % text(theorem.name), text(theorem.reference),
                                           text(theorem.title) + "."),
           r"\emph{Source:} " + text(theorem.source) + "."]
    hyps = list(_hypotheses_latex(theorem))
    if hyps:
        out.append(r"\emph{Hypotheses:} " + "; ".join(hyps) + ".")
    out.append(r"\emph{Statement:}")
    out.append(r"\[" + statement_latex(theorem) + r"\]")
    for part in theorem.parts:
        label = part.name.split(".", 1)[1] if "." in part.name else ""
        out.append(r"\emph{Proof%s.}" % (text(f" of ({label})") if label else ""))
        if part.proof is not None:
            out.append(derivation(part.proof, part.name))
    if theorem.tight:
        out.append(r"\emph{Tightness:} " + text(theorem.tight))
    return "\n\n".join(out)


def _dependencies(theorem: "Theorem") -> list["Theorem"]:
    """Cited theorems, each once, before the theorems that cite them."""
    from cdpsym.proof.kernel import By

    seen: list = []

    def visit(t) -> None:
        for part in t.parts:
            if part.proof is None:
                continue
            for step in part.proof.steps:
                f = step.why.fact if isinstance(step.why, By) else None
                dep = getattr(f, "theorem", None)
                if dep is not None and dep is not t and dep not in seen:
                    visit(dep)
                    if dep not in seen:
                        seen.append(dep)

    visit(theorem)
    return seen


def _axioms_used(theorems: list["Theorem"]) -> list:
    from cdpsym.proof.kernel import Axiom, By

    out: list = []
    for t in theorems:
        for part in t.parts:
            for step in (part.proof.steps if part.proof else ()):
                f = step.why.fact if isinstance(step.why, By) else None
                if isinstance(f, Axiom) and f not in out:
                    out.append(f)
    return out


def document(theorems: list["Theorem"], title: str = "cdpsym derivations") -> str:
    """A complete LaTeX document that compiles with pdflatex as is."""
    body = []
    axioms = _axioms_used(theorems)
    if axioms:
        body.append(r"\section*{Cited facts (the trusted base)}")
        items = []
        for ax in axioms:
            quant = ", ".join(dom.latex(v, tex(v)) for v, dom in ax.variables.items())
            cond = ", ".join(_rel(c) for c in ax.conditions)
            extra = ", ".join(x for x in (quant, cond) if x)
            cite = ", ".join(x for x in (getattr(ax, "reference", ""), ax.citation) if x)
            items.append(r"\item %s: $%s$%s. \emph{%s}" % (
                _bold_classical(ax.title or ax.name), _rel(ax.relation),
                (r" for $" + extra + "$") if extra else "", text(cite)))
        body.append("\\begin{itemize}\n" + "\n".join(items) + "\n\\end{itemize}")
    body.append(r"\section*{Derivations}")
    body += [_theorem_block(t) for t in theorems]
    return "\n".join([
        r"\documentclass[10pt]{article}",
        r"\usepackage[a4paper,margin=1.6cm,landscape]{geometry}",
        r"\usepackage{amsmath,amssymb}",
        r"\allowdisplaybreaks",
        r"\setlength{\parindent}{0pt}",
        r"\title{%s}" % text(title),
        r"\author{generated and checked by cdpsym}",
        r"\date{}",
        r"\begin{document}",
        r"\maketitle",
        r"Every displayed line is one step of a proof chain that cdpsym's kernel checked; the "
        r"justification beside it is the checker that closed it.",
        "\n\n".join(body),
        r"\end{document}",
        "",
    ])
