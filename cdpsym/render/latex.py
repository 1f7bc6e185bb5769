"""LaTeX: statements, step-by-step derivations (``align*``) and standalone documents.

Every line of a derivation is one step of the checked chain, with its
justification and citation beside it — generated from the chain itself, so
the printed proof cannot drift from the checked one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

import sympy as sp

from cdpsym.expr.symbols import LATEX_NAMES
from cdpsym.render.prose import prose

if TYPE_CHECKING:  # pragma: no cover
    from cdpsym.proof.kernel import Fact
    from cdpsym.proof.theorem import Theorem

__all__ = ["tex", "fact_label", "statement_latex", "theorem_latex", "document", "catalogue", "text",
           "justification_latex", "derivation", "label"]

_OPS = {"=": "=", "<=": r"\le", "<": "<"}


def tex(expr: sp.Basic) -> str:
    """sympy's LaTeX with the project's symbol names (ε as ``\\varepsilon``, Δ …), natural log as ``\\log``."""
    names = {s: LATEX_NAMES[s] for s in getattr(expr, "free_symbols", ()) if s in LATEX_NAMES}
    return sp.latex(expr, symbol_names=names, ln_notation=False, mul_symbol=None)


def text(s: str) -> str:
    """Prose for text mode (also inside ``\\text{...}``): Unicode pseudo-maths typeset as ``$...$`` maths,
    LaTeX specials escaped; pure ASCII (see :mod:`cdpsym.render.prose`)."""
    return prose(s)


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
        if why.minimizes is not None:
            out += r"\text{, the minimiser of }" + tex(why.minimizes) + r"\text{ (}g'=0,\ g''>0\text{)}"
        return out
    if isinstance(why, K.IntervalBound):
        box = ", ".join(rf"{tex(v)}\in[{tex(sp.sympify(lo))},{tex(sp.sympify(hi))}]" for v, (lo, hi) in why.box.items())
        return (r"\text{interval arithmetic (Arb, 128-bit balls, at most %d boxes) on }" % why.max_boxes
                + (box or r"\text{a box}"))
    if isinstance(why, K.Monotone):
        inner = justification_latex(why.derivative) if why.derivative is not None else r"\text{its sign}"
        return (r"\text{the difference vanishes or is positive at the lower end of }" + tex(why.var)
                + r"\text{ and grows (mean value theorem): its derivative is non-negative by }" + inner)
    if isinstance(why, K.Split):
        return (r"\text{cases }" + tex(why.var) + r"\le " + tex(why.at) + r"\text{: }" + justification_latex(why.below)
                + r"\text{; }" + tex(why.var) + r"\ge " + tex(why.at) + r"\text{: }" + justification_latex(why.above))
    if isinstance(why, K.Numeric):
        return r"\text{numerically (evidence only)}"
    if isinstance(why, K.Taylor):
        return r"\text{\textbf{Taylor's theorem} (Lagrange remainder), } g''\le " + tex(why.bound)
    if isinstance(why, K.Induction):
        return r"\text{by induction on }" + tex(why.var)
    if isinstance(why, K.By):
        return fact_label(why.fact)
    return rf"\text{{{text(getattr(why, 'method', '?'))}}}"


def theorem_title(theorem: "Theorem") -> str:
    """The title, **generated from the statement** where the statement is a privacy guarantee (a notion of a
    mechanism, a conversion, a composition, group privacy: :func:`cdpsym.claims.semantics.statement_claim`),
    so that it cannot drift from what the chain proves; otherwise the theorem's own title, typeset."""
    try:
        from cdpsym.claims.latexout import subject_latex
        from cdpsym.claims.semantics import statement_claim
        from cdpsym.notions import Notion

        found = statement_claim(theorem)
    except Exception:  # noqa: BLE001 - a statement that is not a guarantee keeps its written title
        found = None
    if found is None:
        return text(theorem.title)
    from cdpsym.claims.latexout import statement_constraints, tex

    subject, target = found
    verb = r"\implies" if isinstance(subject, Notion) else r"\text{ is }"
    ops = {"<": "<", "<=": r"\le", ">": ">", ">=": r"\ge"}
    where = [f"{tex(v)} {ops[op]} {tex(b)}" for v, op, b in statement_constraints(theorem, subject, target)]
    return "$" + subject_latex(subject) + " " + verb + " " + subject_latex(target) + \
        (r"\text{ for }" + r",\ ".join(where) if where else "") + "$"


def _bold_classical(title: str) -> str:
    """``**Hoeffding's lemma**`` in a title becomes bold (:func:`prose` does it)."""
    return text(title)


def _rel(rel) -> str:
    return f"{tex(rel.lhs)} {_OPS[rel.op]} {tex(rel.rhs)}"


def statement_latex(theorem: "Theorem") -> str:
    """The statement, all parts, as one display-math string."""
    return r",\qquad ".join(_rel(p.relation) for p in theorem.parts)


def label(name: str, kind: str = "thm") -> str:
    """The LaTeX label of a theorem (``thm:NAME``), a part (``thm:NAME.part``) or an axiom (``ax:NAME``)."""
    return f"{kind}:" + re.sub(r"[^A-Za-z0-9_.:-]", "-", name)


def _quantifiers(variables) -> str:
    return ", ".join(dom.latex(v, tex(v)) for v, dom in variables.items())


def _hypotheses_latex(theorem: "Theorem") -> Iterable[str]:
    for c in theorem.conditions:
        yield "$" + _rel(c) + "$"
    for h in theorem.hypotheses:
        body = _rel(h.relation)
        if h.variables:
            body += rf"\quad\text{{for all }}{_quantifiers(h.variables)}"
        yield text(h.title or h.name) + r" (\texttt{%s}): $" % _tt(h.name) + body + "$"


def _tt(name: str) -> str:
    return name.replace("\\", "").replace("_", r"\_").replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")


def _cite(source: str, refs: bool = True) -> str:
    """``\\cite{DR16,BS16}`` for the papers a source names (empty when it names none)."""
    from cdpsym.render.bibliography import cite_keys

    keys = cite_keys(source)
    return r"\cite{%s}" % ",".join(keys) if keys else ""


def _source(source: str) -> str:
    """A source string as text with its citations: ``Dwork & Rothblum 2016, Thm 3.5 [DR16]``."""
    cite = _cite(source)
    return text(source.strip(" ,;")) + ("~" + cite if cite else "")


class _Render:
    """How cited facts are referred to: ``refs`` (a catalogue or standalone document: ``Theorem~\\ref``,
    ``Fact~\\ref``) or not (a snippet to paste: names and ``\\cite`` only)."""

    def __init__(self, refs: bool) -> None:
        self.refs = refs

    # -- references to facts ---------------------------------------------------------------------
    def fact_ref(self, fact) -> str:  # type: ignore[no-untyped-def]
        thm = getattr(fact, "theorem", None)
        if fact.kind == "axiom":
            if self.refs:
                return r"Fact~\ref{%s}" % label(fact.name, "ax")
            return _cite(fact.citation) or r"\texttt{%s}" % _tt(fact.name)
        if thm is not None:
            part = fact.name.split(".", 1)[1] if fact.name != thm.name and "." in fact.name else ""
            part_txt = r" (\texttt{%s})" % _tt(part) if part else ""
            if self.refs:
                return r"Theorem~\ref{%s}%s" % (label(thm.name), part_txt)
            return r"\texttt{%s}%s" % (_tt(thm.name), (r"~" + _cite(thm.source)) if _cite(thm.source) else "") \
                + part_txt
        return r"hypothesis \texttt{%s}" % _tt(fact.name)

    def long_label(self, fact) -> str:  # type: ignore[no-untyped-def]
        quant = _quantifiers(fact.variables)
        cond = ", ".join(_rel(c) for c in fact.conditions)
        extra = ", ".join(x for x in (quant, cond) if x)
        rel = "$" + _rel(fact.relation) + "$" + (" for $" + extra + "$" if extra else "")
        if fact.kind == "hypothesis":
            return "hypothesis " + text(fact.title or fact.name) + ": " + rel
        if fact.kind == "axiom":
            ref = getattr(fact, "reference", "")
            return (self.fact_ref(fact) + ", " if self.refs else "") + text(fact.title or fact.name) + ": " + rel + \
                " [" + (text(ref) + "; " if ref else "") + _source(fact.citation) + "]"
        return self.fact_ref(fact) + ": " + rel

    # -- derivations -----------------------------------------------------------------------------
    def derivation(self, chain, cited: list | None = None, depth: int = 0) -> str:  # type: ignore[no-untyped-def]
        """One ``align*``, one checked step per line; then the sub-derivations (inductions, ``given``
        proofs), then (at the top level) the list of what was cited."""
        from cdpsym.proof.kernel import By, Chain, Induction

        top = cited is None
        cited = [] if cited is None else cited
        lines, subs = [], []
        first = tex(chain.start)
        for i, step in enumerate(chain.steps):
            why = step.why
            if isinstance(why, By):
                if why.fact not in cited:
                    cited.append(why.fact)
                n = cited.index(why.fact) + 1
                lab = self.short_label(why.fact, n)
                for hyp, proof in why.given.items():
                    what = r"the hypothesis \texttt{%s}" % _tt(hyp)
                    for c in why.fact.conditions:
                        if hyp == f"condition {c.plain()}":
                            what = "the condition $" + _rel(c) + "$"
                    if hyp in {str(v) for v in why.fact.variables}:
                        what = r"the domain of $%s$" % tex(next(v for v in why.fact.variables if str(v) == hyp))
                    if isinstance(proof, Chain):
                        subs.append(r"\emph{Step %d: %s of [%d] holds:}" % (i + 1, what, n) + "\n" +
                                    self.derivation(proof, cited, depth + 1))
                    else:
                        subs.append(r"\emph{Step %d: %s of [%d] holds} by $%s$." % (
                            i + 1, what, n, justification_latex(proof)))
            elif isinstance(why, Induction):
                lab = justification_latex(why) + r"\text{ (below)}"
                k = tex(why.var)
                base = (self.derivation(why.base, cited, depth + 1) if isinstance(why.base, Chain)
                        else "$" + justification_latex(why.base) + "$.")
                subs.append(r"\emph{Step %d, by induction on $%s$. Base case $%s = 1$:}" % (i + 1, k, k) + "\n" + base)
                subs.append(r"\emph{Induction step, $%s \to %s + 1$} (the statement at $%s$ is the hypothesis "
                            r"\texttt{ih}):" % (k, k, k) + "\n" + self.derivation(why.step, cited, depth + 1))
            else:
                lab = justification_latex(why)
            lhs = first if i == 0 else ""
            lines.append(rf"{lhs} &{_OPS[step.op]} {tex(step.expr)} && {lab}")
        pre = ""
        if chain.variables:
            pre = rf"For every ${_quantifiers(chain.variables)}$ (fixed where the derivation says so):" + "\n"
        body = pre + "\\begin{align*}\n" + ("\\\\\n".join(lines) or tex(chain.start)) + "\n\\end{align*}"
        if subs:
            body += "\n" + "\n\n".join(subs)
        if top and cited:
            items = "\n".join(rf"\item[{n}] {self.long_label(f)}" for n, f in enumerate(cited, 1))
            body += "\n{\\small\\begin{itemize}\n" + items + "\n\\end{itemize}}"
        return body

    def short_label(self, fact, n: int) -> str:  # type: ignore[no-untyped-def]
        if fact.kind == "hypothesis":
            return r"\text{hypothesis [%d]}" % n
        if fact.kind == "axiom":
            return r"\text{by [%d]}" % n
        return r"\text{by [%d], %s}" % (n, self.fact_ref(fact))

    # -- a theorem -------------------------------------------------------------------------------
    def theorem(self, theorem: "Theorem") -> str:
        """``\\begin{theorem}...\\end{theorem}\\begin{proof}...\\end{proof}`` with named labels."""
        head = r"\begin{theorem}[%s]\label{%s}" % ("{" + theorem_title(theorem) + "}", label(theorem.name))
        info = r"(\texttt{%s}%s; %s.)" % (_tt(theorem.name), ", " + text(theorem.reference) if theorem.reference
                                          else "", _source(theorem.source))
        out = [head, info]
        quant = _quantifiers(theorem.variables)
        hyps = list(_hypotheses_latex(theorem))
        lead = ("Let $" + quant + "$" if quant else "")
        if hyps:
            lead += (", and assume " if lead else "Assume ") + "; ".join(hyps)
        out.append((lead + ". Then" if lead else "Then") if len(theorem.parts) == 1 else
                   (lead + ". Then the following hold." if lead else "The following hold."))
        if len(theorem.parts) == 1:
            out.append(r"\begin{equation*}" + _rel(theorem.parts[0].relation) + r"\end{equation*}")
        else:
            rows = []
            for p in theorem.parts:
                short = p.name.split(".", 1)[1] if "." in p.name else p.name
                extra = _quantifiers({v: d for v, d in p.variables.items() if v not in theorem.variables})
                rows.append(r"&%s%s &&\text{(\texttt{%s})}\label{%s}" % (
                    _rel(p.relation), (r",\quad " + extra) if extra else "", _tt(short), label(p.name)))
            out.append("\\begin{align}\n" + "\\\\\n".join(rows) + "\n\\end{align}")
        out.append(r"\end{theorem}")
        out.append(r"\begin{proof}")
        for p in theorem.parts:
            if len(theorem.parts) > 1:
                short = p.name.split(".", 1)[1] if "." in p.name else p.name
                out.append(r"\emph{Proof of (\texttt{%s}), \eqref{%s}.}" % (_tt(short), label(p.name)))
            if p.proof is not None:
                out.append(self.derivation(p.proof))
        if theorem.tight:
            out.append(r"\emph{Tightness:} " + text(theorem.tight))
        out.append(r"\end{proof}")
        return "\n\n".join(out)


def _rel_text(s: str) -> str:
    return text(s.strip()).replace("$", "")


def derivation(chain, part_name: str = "", refs: bool = False) -> str:  # type: ignore[no-untyped-def]
    """One ``align*`` environment, one checked step per line, sub-derivations, then what was cited."""
    return _Render(refs).derivation(chain)


def _long_label(fact) -> str:  # type: ignore[no-untyped-def]
    return _Render(False).long_label(fact)


def theorem_latex(theorem: "Theorem", standalone: bool = False) -> str:
    """The theorem with its derivation: a snippet (``theorem``/``proof`` pair, standard packages only, label
    ``thm:NAME``), or ``standalone``: a whole document with the cited lemmas and a bibliography."""
    if standalone:
        return document([*_dependencies(theorem), theorem], title=theorem.title)
    return _Render(False).theorem(theorem)


def _dependencies(theorem: "Theorem") -> list["Theorem"]:
    """Cited theorems, each once, before the theorems that cite them (also through sub-derivations)."""
    seen: list = []

    def visit(t) -> None:  # type: ignore[no-untyped-def]
        for f in _facts_cited(t):
            dep = getattr(f, "theorem", None)
            if dep is not None and dep is not t and dep not in seen:
                visit(dep)
                if dep not in seen:
                    seen.append(dep)

    visit(theorem)
    return seen


def _facts_cited(theorem) -> list:  # type: ignore[no-untyped-def]
    """Every fact cited in a theorem's proofs, sub-derivations included, in order."""
    from cdpsym.proof.kernel import By, Chain, Induction

    out: list = []

    def chain(c) -> None:  # type: ignore[no-untyped-def]
        for step in c.steps:
            why = step.why
            if isinstance(why, By):
                if why.fact not in out:
                    out.append(why.fact)
                for g in why.given.values():
                    if isinstance(g, Chain):
                        chain(g)
            elif isinstance(why, Induction):
                if isinstance(why.base, Chain):
                    chain(why.base)
                chain(why.step)

    for part in theorem.parts:
        if part.proof is not None:
            chain(part.proof)
    return out


def _axioms_used(theorems: list["Theorem"]) -> list:
    from cdpsym.proof.kernel import Axiom

    out: list = []
    for t in theorems:
        for f in _facts_cited(t):
            if isinstance(f, Axiom) and f not in out:
                out.append(f)
    return out


def _in_dependency_order(theorems: list["Theorem"]) -> list["Theorem"]:
    out: list = []
    for t in theorems:
        for d in [*_dependencies(t), t]:
            if d not in out:
                out.append(d)
    return out


_PREAMBLE = [
    r"\documentclass[10pt]{article}",
    r"\usepackage[a4paper,margin=1.6cm,landscape]{geometry}",
    r"\usepackage{amsmath,amssymb,amsthm}",
    r"\allowdisplaybreaks",
    r"\setlength{\parindent}{0pt}",
    r"\setlength{\parskip}{0.5ex}",
    r"\newtheorem{theorem}{Theorem}[section]",
    r"\theoremstyle{definition}",
    r"\newtheorem{fact}{Fact}",
]


def document(theorems: list["Theorem"], title: str = "cdpsym derivations", contents: bool = False) -> str:
    """A complete LaTeX document that compiles with plain pdflatex as is (no BibTeX run): one section per
    theorem in dependency order, the cited facts, cross-references, a bibliography from the citations."""
    from cdpsym.render.bibliography import keys_for, thebibliography

    theorems = _in_dependency_order(theorems)
    r = _Render(True)
    body = []
    axioms = _axioms_used(theorems)
    for t in theorems:
        body.append(r"\section{%s}" % (r"\texttt{%s}: " % _tt(t.name) + theorem_title(t)))
        body.append(r.theorem(t))
    if axioms:
        body.append(r"\section{Cited facts (the trusted base)}")
        body.append("These facts are taken as given (registered axioms of the kernel); every theorem that rests "
                    "on them says so.")
        for ax in axioms:
            quant = _quantifiers(ax.variables)
            cond = ", ".join(_rel(c) for c in ax.conditions)
            extra = ", ".join(x for x in (quant, cond) if x)
            ref = getattr(ax, "reference", "")
            body.append(r"\begin{fact}[%s]\label{%s} %s%s. \emph{Source:} %s%s.\end{fact}" % (
                "{" + text(ax.title or ax.name) + "}", label(ax.name, "ax"), "$" + _rel(ax.relation) + "$",
                (r" for $" + extra + "$") if extra else "", (text(ref) + "; ") if ref else "",
                _source(ax.citation)))
    sources = [t.source for t in theorems] + [a.citation for a in axioms]
    bib = thebibliography(keys_for(sources))
    front = [r"\maketitle"]
    if contents:
        front = [r"\begin{titlepage}", r"\maketitle", r"\thispagestyle{empty}",
                 r"Every displayed line of a proof below is one step of a proof chain that the cdpsym kernel "
                 r"checked; the justification beside it is the rule that closed it. Theorems are listed in "
                 r"dependency order: each cites only theorems before it.", r"\end{titlepage}",
                 r"\tableofcontents", r"\newpage"]
    else:
        front.append(r"Every displayed line is one step of a proof chain that cdpsym's kernel checked; the "
                     r"justification beside it is the rule that closed it.")
    return "\n".join([
        *_PREAMBLE,
        r"\title{%s}" % text(title),
        r"\author{generated and checked by cdpsym}",
        r"\date{}",
        r"\begin{document}",
        *front,
        "\n\n".join(body),
        bib,
        r"\end{document}",
        "",
    ])


def catalogue(theorems: list["Theorem"] | None = None) -> str:
    """The catalogue: title page, contents, one section per theorem in dependency order, the trusted base,
    the bibliography (``cdpsym latex --all --standalone``)."""
    if theorems is None:
        from cdpsym import theorems as library

        theorems = list(library.LIBRARY)
    return document(theorems, title="cdpsym: a catalogue of checked differential-privacy theorems", contents=True)
