"""LaTeX: statements, step-by-step derivations (``align*``) and standalone documents.

Every line of a derivation is one step of the checked chain, with its
justification and citation beside it — generated from the chain itself, so
the printed proof cannot drift from the checked one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Iterable

import sympy as sp
from sympy.printing.latex import LatexPrinter

from cdpsym.expr.domains import as_expr
from cdpsym.expr.symbols import LATEX_NAMES
from cdpsym.render.layout import TEXT_WIDTH, width
from cdpsym.render.prose import prose

if TYPE_CHECKING:  # pragma: no cover
    from cdpsym.proof.kernel import Fact
    from cdpsym.proof.theorem import Theorem

__all__ = ["tex", "fact_label", "statement_latex", "statement_text", "theorem_title", "theorem_latex", "document", "catalogue", "text",
           "justification_latex", "derivation", "label"]

_OPS = {"=": "=", "<=": r"\le", "<": "<"}


class _Printer(LatexPrinter):
    """sympy's LaTeX printer, except that a power of a function is bracketed: ``\\left(\\log x\\right)^{2}``
    (sympy prints ``\\log{(x)}^{2}``, which a reader takes for the log of a square)."""

    def _print_Pow(self, expr):  # type: ignore[no-untyped-def]
        base = expr.base
        if isinstance(base, (sp.log, sp.sinh, sp.cosh, sp.tanh, sp.sin, sp.cos, sp.atan)) and expr.exp.is_Rational \
                and expr.exp > 0 and expr.exp != sp.Rational(1, 2):
            return r"\left(%s\right)^{%s}" % (self._print(base), self._print(expr.exp))
        return super()._print_Pow(expr)


_GREEK_PREFIX = re.compile(r"^(eps|delta|rho|sigma|alpha|mu|nu|tau|lam|omega|xi)_?(\d+)$")
_GREEK_TEX = {"eps": r"\varepsilon", "delta": r"\delta", "rho": r"\rho", "sigma": r"\sigma", "alpha": r"\alpha",
              "mu": r"\mu", "nu": r"\nu", "tau": r"\tau", "lam": r"\lambda", "omega": r"\omega", "xi": r"\xi"}


def _symbol_name(s: sp.Symbol) -> str | None:
    """The LaTeX of a symbol the library names in ASCII: ``eps1`` as ``\\varepsilon_{1}``, ``u_`` as ``u``."""
    if s in LATEX_NAMES:
        return LATEX_NAMES[s]
    m = _GREEK_PREFIX.match(s.name)
    if m:
        return _GREEK_TEX[m.group(1)] + "_{%s}" % m.group(2)
    if s.name.endswith("_") and s.name[:-1].isalpha():
        return s.name[:-1] if len(s.name) == 2 else r"\mathrm{%s}" % s.name[:-1]
    return None


def tex(expr: sp.Basic) -> str:
    """sympy's LaTeX with the project's symbol names (ε as ``\\varepsilon``, Δ …), natural log as ``\\log``."""
    names = {}
    for node in sp.preorder_traversal(expr) if isinstance(expr, sp.Basic) else ():  # bound variables too
        if isinstance(node, sp.Symbol) and node not in names and (n := _symbol_name(node)) is not None:
            names[node] = n
    return _Printer(dict(symbol_names=names, ln_notation=False, mul_symbol=None)).doprint(expr)


def text(s: str) -> str:
    """Prose for text mode (also inside ``\\text{...}``): Unicode pseudo-maths typeset as ``$...$`` maths,
    LaTeX specials escaped; pure ASCII (see :mod:`cdpsym.render.prose`)."""
    return prose(s)


def fact_label(fact: "Fact") -> str:
    """What a ``by`` step prints: the fact's title and citation."""
    kind = fact.kind
    if kind == "hypothesis":
        return r"\text{%s}" % text(f"by hypothesis ({fact.title or fact.name})")
    if kind == "axiom":  # the title and the papers; the full citation is in the list of cited facts
        title = fact.title or fact.name
        cite = _cite(fact.citation)
        return r"\text{by %s%s}" % (_bold_classical(title), "~" + cite if cite else "")
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
            g, v = why.minimizes, why.var
            at = sp.simplify(g.subs(v, why.value))
            out += (r"\text{, the minimiser of }g(" + tex(v) + ") = " + tex(g) + r"\text{ (}g'=0,\ g''>0\text{)"
                    + r", where }g = " + tex(at))
        return out
    if isinstance(why, K.IntervalBound):
        from cdpsym.proof.branch_and_bound import PRECISION

        box = ", ".join(rf"{tex(v)}\in[{tex(as_expr(lo))},{tex(as_expr(hi))}]" for v, (lo, hi) in why.box.items())
        return (r"\text{interval arithmetic (Arb ball arithmetic, %d-bit precision, at most %d boxes) on }"
                % (PRECISION, why.max_boxes) + (box or r"\text{a box}"))
    if isinstance(why, K.Monotone):
        inner = justification_latex(why.derivative) if why.derivative is not None else ""
        inner = re.sub(r"^\\text\{by ", r"\\text{", inner)
        return (r"\text{the difference is non-negative at the lower end of }" + tex(why.var)
                + r"\text{ and non-decreasing in }" + tex(why.var)
                + r"\text{ (mean value theorem): its derivative is non-negative}"
                + (r"\text{ (}" + inner + r"\text{)}" if inner else ""))
    if isinstance(why, K.Split):
        return (r"\text{cases }" + tex(why.var) + r"\le " + tex(why.at) + r"\text{: }" + justification_latex(why.below)
                + r"\text{; }" + tex(why.var) + r"\ge " + tex(why.at) + r"\text{: }" + justification_latex(why.above))
    if isinstance(why, K.Numeric):
        return r"\text{numerically (evidence only)}"
    if isinstance(why, K.Taylor):
        v, g = why.g
        x = sp.Symbol("x", real=True)
        gx = g.xreplace({v: x})
        g0 = sp.simplify(gx.subs(x, 0))
        d1 = sp.simplify(sp.diff(gx, x).subs(x, 0))
        return (r"\text{\textbf{Taylor's theorem} (Lagrange remainder) for }g(x) = " + tex(gx)
                + r"\text{ at }x = " + tex(why.h) + r"\text{: } g(0) = " + tex(g0) + r",\ g'(0) = " + tex(d1)
                + r",\ g''(x) = " + tex(sp.simplify(sp.diff(gx, x, 2))) + r" \le " + tex(why.bound)
                + r"\text{ for all real }x")
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


def _guarantee(theorem: "Theorem"):
    """``(subject, target, constraints)`` when the statement is a privacy guarantee, else None."""
    try:
        from cdpsym.claims.latexout import statement_constraints
        from cdpsym.claims.semantics import statement_claim

        found = statement_claim(theorem)
        if found is None:
            return None
        return (*found, statement_constraints(theorem, *found))
    except Exception:  # noqa: BLE001 - a statement that is not a guarantee is shown as its relations
        return None


def statement_text(theorem: "Theorem") -> str:
    """The statement in plain text, **generated** from the sympy statement (for ``cdpsym list`` and the
    Markdown catalogue): ``subject implies/is target FOR constraints`` for a privacy guarantee (a claim
    ``cdpsym check`` reads), otherwise the parts' relations under the hypotheses' relations."""
    from cdpsym.notions import Notion

    g = _guarantee(theorem)
    if g is not None:
        subject, target, where = g
        verb = "implies" if isinstance(subject, Notion) else "is"
        tail = " FOR " + ", ".join(f"{v} {op} {b}" for v, op, b in where) if where else ""
        return f"{subject} {verb} {target}{tail}"
    parts = "; ".join(p.relation.plain() for p in theorem.parts)
    hyps = [h.relation.plain() for h in theorem.hypotheses] + [c.plain() for c in theorem.conditions]
    return ("if " + "; ".join(hyps) + ", then " if hyps else "") + parts


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


_INLINE_MAX = 44.0  # inline maths wider than this (math characters) is displayed on a line of its own


def _display_if_wide(math: str, end: str = ".") -> str:
    """``$math$`` followed by ``end``, or a display ``\\[ math \\]`` (ending in ``end``) when too wide to
    break inside a line of text."""
    from cdpsym.render.layout import width

    if width(math) <= _INLINE_MAX:
        return "$" + math + "$" + end
    return r"\[" + math + (r"\text{%s}" % end if end else "") + r"\]"


def _quantifiers(variables) -> str:
    return ", ".join(dom.latex(v, tex(v)) for v, dom in variables.items())


def _relation_for(fact, end: str = "") -> str:  # type: ignore[no-untyped-def]
    """A fact's relation with its variables and conditions, inline, or displayed when too wide for a line;
    each variable's domain its own inline formula, so that a line can break between them."""
    quant = [dom.latex(v, tex(v)) for v, dom in fact.variables.items()] + [_rel(c) for c in fact.conditions]
    where = (" for " + ", ".join("$" + q + "$" for q in quant)) if quant else ""
    return _display_if_wide(_rel(fact.relation), end="" if where else end) + where + (end if where else "")


def _hypotheses_latex(theorem: "Theorem") -> Iterable[str]:
    for c in theorem.conditions:
        yield _display_if_wide(_rel(c), end="")
    for h in theorem.hypotheses:
        yield text(h.title or h.name) + r" (\texttt{%s}): " % _tt(h.name) + _relation_for(h)


def _tt(name: str) -> str:
    """A name in ``\\texttt``, breakable after its underscores."""
    return name.replace("\\", "").replace("_", r"\_\allowbreak{}").replace("&", r"\&").replace("%", r"\%").replace("#", r"\#")


def _cite(source: str, refs: bool = True) -> str:
    """``\\cite{DR16,BS16}`` for the papers a source names (empty when it names none)."""
    from cdpsym.render.bibliography import cite_keys

    keys = cite_keys(source)
    return r"\cite{%s}" % ",".join(keys) if keys else ""


def _source(source: str) -> str:
    """A source string as text with its citations: ``Dwork & Rothblum 2016, Thm 3.5 [DR16]``."""
    cite = _cite(source)
    return text(source.strip(" ,;")) + (" " + cite if cite else "")


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
        rel = _relation_for(fact)
        if fact.kind == "hypothesis":
            title = fact.title or fact.name
            return ("" if "hypothesis" in title else "hypothesis ") + text(title) + ": " + rel
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
        labels, subs = [], []
        for i, step in enumerate(chain.steps):
            why = step.why
            if isinstance(why, By):
                if why.fact not in cited:
                    cited.append(why.fact)
                n = cited.index(why.fact) + 1
                lab = self.short_label(why.fact, n)
                implicit = _implicit_conditions(why)
                if implicit:
                    subs.append(r"\emph{The %s %s of %s %s in scope} (a hypothesis of the theorem, the induction "
                                r"hypothesis, or a sign or identity the kernel checks)." % (
                                    "conditions" if len(implicit) > 1 else "condition",
                                    ", ".join("$" + c + "$" for c in implicit), _mark(n),
                                    "hold" if len(implicit) > 1 else "holds"))
                for hyp, proof in why.given.items():
                    what = r"the hypothesis \texttt{%s}" % _tt(hyp)
                    for c in why.fact.conditions:
                        if hyp == f"condition {c.plain()}":
                            what = "the condition $" + _rel(c) + "$"
                    if hyp in {str(v) for v in why.fact.variables}:
                        what = r"the domain of $%s$" % tex(next(v for v in why.fact.variables if str(v) == hyp))
                    if isinstance(proof, Chain):
                        subs.append(r"\emph{Why %s of %s holds:}" % (what, _mark(n)) + "\n" +
                                    self.derivation(proof, cited, depth + 1))
                    else:
                        subs.append(r"\emph{Why %s of %s holds:} %s." % (what, _mark(n),
                                                                           _as_paragraph(justification_latex(proof))))
            elif isinstance(why, Induction):
                lab = justification_latex(why) + r"\text{ (below)}"
                k = tex(why.var)
                base = (self.derivation(why.base, cited, depth + 1) if isinstance(why.base, Chain)
                        else "$" + justification_latex(why.base) + "$.")
                subs.append(r"\emph{The induction on $%s$. Base case $%s = 1$:}" % (k, k) + "\n" + base)
                subs.append(r"\emph{Induction step from $%s$ to $%s + 1$} (the statement at $%s$ is the induction "
                            r"hypothesis):" % (k, k, k) + "\n" + self.derivation(why.step, cited, depth + 1))
            else:
                lab = justification_latex(why)
            labels.append(lab)
        lines, notes = _layout(chain, labels, drop_repeats=not subs)
        pre = ""
        if chain.variables:
            pre = rf"For every ${_quantifiers(chain.variables)}$ (fixed where the derivation says so):" + "\n"
        body = pre + "\\begin{align*}\n" + ("\\\\\n".join(lines) or tex(chain.start)) + "\n\\end{align*}"
        if notes:
            body += "\n" + notes
        if subs:
            body += "\n" + "\n\n".join(subs)
        if top and cited:
            items = "\n".join(rf"\item[{_mark(n)}] {self.long_label(f)}" for n, f in enumerate(cited, 1))
            body += "\n{\\small\\begin{itemize}\n" + items + "\n\\end{itemize}}"
        return body

    def short_label(self, fact, n: int) -> str:  # type: ignore[no-untyped-def]
        if fact.kind == "hypothesis":
            return r"\text{hypothesis %s}" % _mark(n)
        if fact.kind == "axiom":
            return r"\text{by %s}" % _mark(n)
        return r"\text{by %s}" % _mark(n)  # the list under the proof says which theorem (i) is

    # -- a theorem -------------------------------------------------------------------------------
    def theorem(self, theorem: "Theorem") -> str:  # noqa: C901
        """``\\begin{theorem}...\\end{theorem}\\begin{proof}...\\end{proof}`` with named labels."""
        head = r"\begin{theorem}[%s]\label{%s}" % ("{" + text(theorem.title) + "}", label(theorem.name))
        info = r"(\texttt{%s}%s; %s.)" % (_tt(theorem.name), ", " + text(theorem.reference) if theorem.reference
                                          else "", _source(theorem.source))
        out = [head, info + " " + _status_sentence(theorem)]
        short = theorem_title(theorem)[1:-1] if _guarantee(theorem) is not None else ""
        if short and width(short) <= TEXT_WIDTH - 8:  # the statement as a privacy guarantee, generated
            out.append(r"In short, " + _display_if_wide(short) + " In detail:")
        quant = ", ".join("$" + _quantifiers({v: d}) + "$" for v, d in theorem.variables.items())
        hyps = list(_hypotheses_latex(theorem))
        lead = ("Let " + quant if quant else "")
        if hyps:
            lead += (", and assume " if lead else "Assume ") + "; ".join(hyps)
        out.append((lead + ". Then" if lead else "Then") if len(theorem.parts) == 1 else
                   (lead + ". Then the following hold." if lead else "The following hold."))
        if len(theorem.parts) == 1:
            (rel,), where = _abbreviated([theorem.parts[0].relation])
            out.append(r"\begin{equation*}" + rel + r"\end{equation*}" + where)
        else:
            rows = []
            rels, where = _abbreviated([p.relation for p in theorem.parts])
            for p, rel in zip(theorem.parts, rels):
                short = p.name.split(".", 1)[1] if "." in p.name else p.name
                extra = _quantifiers({v: d for v, d in p.variables.items() if v not in theorem.variables})
                tag = r"&&\text{(\texttt{%s})}\label{%s}" % (_tt(short), label(p.name))
                if extra and width(rel + extra) > TEXT_WIDTH - 16:  # the part's own variables on a line below
                    rows.append(r"&%s %s\\" % (rel, tag) + "\n" + r"&\qquad %s &&\nonumber" % extra)
                else:
                    rows.append(r"&%s%s %s" % (rel, (r",\quad " + extra) if extra else "", tag))
            out.append("\\begin{align}\n" + "\\\\\n".join(rows) + "\n\\end{align}" + where)
        out.append(r"\end{theorem}")
        out.append(r"\begin{proof}")
        for p in theorem.parts:
            if len(theorem.parts) > 1:
                short = p.name.split(".", 1)[1] if "." in p.name else p.name
                out.append(r"\emph{Part (\texttt{%s}), \eqref{%s}.}" % (_tt(short), label(p.name)))
            if p.proof is not None:
                out.append(self.derivation(p.proof))
        if theorem.tight:
            out.append(r"\emph{Tightness:} " + text(theorem.tight))
        out.append(r"\end{proof}")
        return "\n\n".join(out)


def _as_paragraph(math: str) -> str:
    """A justification (maths with ``\\text{...}`` pieces) as a paragraph that can break across lines: the
    ``\\text`` pieces become text, the rest ``$...$`` maths."""
    out, i, n = [], 0, len(math)
    buf = ""
    while i < n:
        if math.startswith(r"\text{", i):
            depth, j = 0, i + 5
            while j < n:
                depth += {"{": 1, "}": -1}.get(math[j], 0)
                if depth == 0:
                    break
                j += 1
            if buf.strip():
                out.append("$" + buf.strip() + "$")
            buf = ""
            out.append(math[i + 6:j])
            i = j + 1
        else:
            buf += math[i]
            i += 1
    if buf.strip():
        out.append("$" + buf.strip() + "$")
    joined = ""
    for piece in out:  # a space between pieces unless the text piece brings its own
        if joined and not joined.endswith((" ", "(")) and not piece.startswith((" ", ",", ".", ":", ";", ")")):
            joined += " "
        joined += piece
    return joined


def _implicit_conditions(why) -> list[str]:  # type: ignore[no-untyped-def]
    """The conditions of a cited fact that the step does not prove in ``given`` (the kernel discharged them from
    what is in scope), instantiated as the step instantiates the fact, as printed relations."""
    from cdpsym.proof.core import subst

    fact = why.fact
    names = {str(v): v for v in fact.variables}
    mapping = {names[k]: as_expr(v) for k, v in why.inst.items() if k in names}
    out = []
    for c in getattr(fact, "conditions", ()):
        if f"condition {c.plain()}" in why.given:
            continue
        try:
            lhs, rhs = subst(c.lhs, mapping), subst(c.rhs, mapping)
        except Exception:  # noqa: BLE001 - shown as stated when the display cannot instantiate it
            lhs, rhs = c.lhs, c.rhs
        out.append(f"{tex(lhs)} {_OPS[c.op]} {tex(rhs)}")
    return out


_STATUS_WORDS = {
    "proved": "every step of its proof below is checked by the cdpsym kernel",
    "certified": "its proof below is checked by the cdpsym kernel, with interval (Arb ball) arithmetic on the "
                 "stated box for the steps so marked",
    "supported": "its statement is checked against an independent ground truth at 50 digits and on random "
                 "instances, but it is \\emph{not proved}: a step below is numerical evidence only",
    "failed": "a check \\emph{fails}",
}


def _status_sentence(theorem) -> str:  # type: ignore[no-untyped-def]
    """The kernel's verdict on the theorem, in words (cached on disk with the claim checker's verdicts)."""
    from cdpsym import theorems
    from cdpsym.claims.checker import _library_status
    from cdpsym.errors import UnknownName
    from cdpsym.proof import symbolic_check

    try:
        library = theorems.get(theorem.name) is theorem
    except UnknownName:
        library = False
    # the cached verdict only for the library's own object; a variant (a mutant, a test's copy) is checked
    status = _library_status(theorem.name) if library else symbolic_check(theorem).status
    return r"\emph{Status: %s} --- %s." % (status, _STATUS_WORDS.get(status, status))


def _mark(n: int) -> str:
    """How a derivation refers to the n-th fact it cites: a roman numeral, ``(iii)`` -- distinct from the
    bibliography's ``[3]``, equation numbers ``(3)`` and the notes' ``(c)``."""
    numerals = [(10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i")]
    out = ""
    for value, letters in numerals:
        while n >= value:
            out, n = out + letters, n - value
    return "(" + out + ")"


_LABEL_MAX = 30.0  # a justification wider than this (in math characters) becomes a note mark under the display
_LHS_MAX = 22.0  # a chain start wider than this gets a line of its own


def _layout(chain, labels: list[str], drop_repeats: bool = True) -> tuple[list[str], str]:  # type: ignore[no-untyped-def]
    """The rows of a derivation's ``align*`` and the notes printed under it (long justifications, abbreviations):
    see :mod:`cdpsym.render.layout` for the rules.  With ``drop_repeats``, an identity step (``algebra``) whose
    right side prints exactly as the line before it (a change of form the printer does not show) is not printed
    as a line of its own."""
    from cdpsym.proof.kernel import Algebra

    if drop_repeats and len(chain.steps) > 1:
        keep = [i for i, step in enumerate(chain.steps)
                if not (i and step.op == "=" and type(step.why) is Algebra
                        and tex(step.expr) == tex(chain.steps[i - 1].expr))]
        if len(keep) < len(chain.steps):
            from types import SimpleNamespace

            chain = SimpleNamespace(start=chain.start, steps=[chain.steps[i] for i in keep])
            labels = [labels[i] for i in keep]
    from cdpsym.render.layout import TEXT_WIDTH, abbreviations, name_widest, split_sum, width

    marks, notes = [], []
    for lab in labels:
        if width(lab) > _LABEL_MAX:
            mark = "(%s)" % "abcdefghijklmnopqrstuvwxyz"[len(notes) % 26]
            notes.append(r"\item[%s] %s" % (mark, _as_paragraph(lab)))
            marks.append(r"\text{%s}" % mark)
        else:
            marks.append(lab)
    label_w = max([width(m) for m in marks] + [0.0])
    exprs = [chain.start] + [step.expr for step in chain.steps]
    start_w = width(tex(chain.start))
    own_line = start_w > _LHS_MAX
    budget = TEXT_WIDTH - label_w - (0 if own_line else start_w) - 8.0
    where = []
    def too_wide(es) -> bool:  # type: ignore[no-untyped-def]
        return any(width(tex(e)) > budget and split_sum(e, tex, budget) is None for e in es[1:]) or \
            (own_line and width(tex(es[0])) > TEXT_WIDTH - 4)

    if too_wide(exprs):
        exprs, where = abbreviations(exprs, tex)
        start_w = width(tex(exprs[0]))
        own_line = start_w > _LHS_MAX
        budget = TEXT_WIDTH - label_w - (0 if own_line else start_w) - 8.0
    if too_wide(exprs):  # the last resort: name the widest sub-expression that fits
        exprs, named = name_widest(exprs, tex, min(budget, TEXT_WIDTH - 4), taken={s_ for s_, _ in where})
        where = where + named
    rows = []
    first = tex(exprs[0])
    if own_line:
        rows.append(r"&\mathrel{\phantom{=}} " + first + " &&")
        first = ""
    for i, (step, expr, mark) in enumerate(zip(chain.steps, exprs[1:], marks)):
        lhs = first if i == 0 else ""
        op = _OPS[step.op]
        pieces = split_sum(expr, tex, budget) if width(tex(expr)) > budget else None
        if pieces is None:
            rows.append(rf"{lhs} &{op} {tex(expr)} && {mark}")
        else:
            rows.append(rf"{lhs} &{op} {pieces[0]} && {mark}")
            rows.extend(rf" &\qquad {p} &&" for p in pieces[1:])
    out = []
    if where:
        out.append(_where(where))
    if notes:
        out.append("{\\small\\begin{itemize}\n" + "\n".join(notes) + "\n\\end{itemize}}")
    return rows, "\n".join(out)


def _abbreviated(rels) -> tuple[list[str], str]:  # type: ignore[no-untyped-def]
    """Relations printed for display rows; when one is too wide, with names ``u_i`` for sub-expressions that
    occur more than once, and the sentence that defines them."""
    from cdpsym.render.layout import TEXT_WIDTH, abbreviations, width

    printed = [_rel(r) for r in rels]
    if all(width(p) <= TEXT_WIDTH - 14 for p in printed):
        return printed, ""
    from cdpsym.render.layout import name_widest

    sides = [e for r in rels for e in (r.lhs, r.rhs)]
    short, names = abbreviations(sides, tex, least=4.0)
    printed = [f"{tex(short[2 * i])} {_OPS[r.op]} {tex(short[2 * i + 1])}" for i, r in enumerate(rels)]
    if any(width(p) > TEXT_WIDTH - 14 for p in printed):  # the last resort: name the widest pieces
        short, more = name_widest(short, tex, (TEXT_WIDTH - 14) / 2, taken={s for s, _ in names})
        names = names + more
    if not names:
        return printed, ""
    printed = [f"{tex(short[2 * i])} {_OPS[r.op]} {tex(short[2 * i + 1])}" for i, r in enumerate(rels)]
    return printed, "\n" + _where(names)


def _where(names) -> str:  # type: ignore[no-untyped-def]
    """``where u_1 = ..., u_2 = ....``: the abbreviations of a display, each displayed itself when wide."""
    defs = ["%s = %s" % (tex(s), tex(d)) for s, d in names]
    return "where " + " ".join(_display_if_wide(d, end="," if i < len(defs) - 1 else ".")
                               for i, d in enumerate(defs))


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
    from cdpsym.render.bibliography import keys_for

    keys = keys_for(theorem_sources_of(theorem))
    head = [f"% cdpsym: {theorem.name} -- needs \\usepackage{{amsmath,amssymb,amsthm}}"
            + (f"; cites {', '.join(keys)} (BibTeX entries: cdpsym bib {theorem.name})" if keys else ""),
            r"\ifdefined\theorem\else\newtheorem{theorem}{Theorem}\fi"]
    return "\n".join(head) + "\n" + _Render(False).theorem(theorem)


def theorem_sources_of(theorem) -> list[str]:  # type: ignore[no-untyped-def]
    """The source strings a snippet of *theorem* cites: its own and those of the facts its proof cites."""
    out = [theorem.source]
    for f in _facts_cited(theorem):
        out.append(getattr(f, "citation", "") or "")
        dep = getattr(f, "theorem", None)
        if dep is not None:
            out.append(dep.source)
    return [x for x in out if x]


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


#: what the objects the statements are made of mean (R-A1 ... R-A11 of the reference); a document's Notation
#: section lists those that occur in it.  Keys: a symbol's name, an undefined function's name, an operator's class.
_NOTATION = (
    ("P", r"$P = \mathcal{M}(x)$ and $Q = \mathcal{M}(x')$ are the output distributions of the mechanism "
          r"$\mathcal{M}$ on a pair of neighbouring inputs $x, x'$, with densities (or mass functions) $p$, $q$"),
    ("Y", r"$Y \sim P$ is the output of the mechanism on $x$"),
    ("L", r"$L = \log\frac{p(Y)}{q(Y)}$, $Y \sim P$, is the privacy loss random variable of the pair $(P, Q)$"),
    ("Z", r"$Z \sim \mathcal{N}(0, 1)$ is a standard normal random variable"),
    ("Pk()", r"$P^{(k)}, Q^{(k)}$ are the output distributions of the $k$-fold (adaptive) composition"),
    ("C()", r"$C_i$ is the privacy loss of step $i$ of a composition, on the outputs of steps $1, \dots, i-1$ "
          r"(the \emph{prefix}) chosen by the adversary"),
    ("L()", r"$L_k = C_1 + \dots + C_k$ is the privacy loss of the $k$-fold composition"),
    ("M()", r"$M_i = \mathbb{E}[C_i \mid \mathrm{prefix}]$ is the conditional mean of step $i$'s loss; "
          r"$D_k = M_1 + \dots + M_k$"),
    ("X()", r"$X_i = C_i - M_i$ is the compensated loss of step $i$; $S_k = X_1 + \dots + X_k$"),
    ("G()", r"$G_k$ is the privacy loss between the outputs on two inputs at distance $k$, the sum of the losses "
          r"$\ell_i$ of the links of a chain of neighbouring inputs joining them"),
    ("HockeyStick", r"$\delta_{P\|Q}(\varepsilon) = \sup_{S} \big(P(S) - e^{\varepsilon} Q(S)\big)$ is the "
                    r"hockey-stick divergence: the mechanism is $(\varepsilon,\delta)$-DP when "
                    r"$\delta_{P\|Q}(\varepsilon) \le \delta$ for every neighbouring pair"),
    ("KL", r"$D_{\mathrm{KL}}(P\|Q) = \mathbb{E}[L]$ is the Kullback--Leibler divergence"),
    ("Renyi", r"$D_{\alpha}(P\|Q) = \frac{1}{\alpha - 1}\log \mathbb{E}_{Q}\big[(p/q)^{\alpha}\big]$ is the "
              r"R\'enyi divergence of order $\alpha > 1$"),
    ("CondMGF", r"$\sup_{\mathrm{prefix}} \mathbb{E}[\,\cdot \mid \mathrm{prefix}]$ is the largest conditional "
                r"expectation over the prefixes the adversary can produce"),
    ("Expect", r"$\mathbb{E}$ and $\Pr$ are taken under $P$ unless a subscript says otherwise"),
)


def _notation(theorems: list["Theorem"]) -> str:
    """The Notation section: the entries of :data:`_NOTATION` whose objects occur in the documents' theorems."""
    from cdpsym.proof.kernel import By, Chain, Induction

    found: set = set()

    def expr(e) -> None:  # type: ignore[no-untyped-def]
        if not isinstance(e, sp.Basic):
            return
        for a in sp.preorder_traversal(e):
            if isinstance(a, sp.Symbol):
                found.add(a.name)
            elif isinstance(a, sp.core.function.AppliedUndef):
                found.add(type(a).__name__ + "()")
            elif hasattr(a, "func"):
                found.add(type(a).__name__)

    def chain(c) -> None:  # type: ignore[no-untyped-def]
        expr(c.start)
        for st in c.steps:
            expr(st.expr)
            w = st.why
            if isinstance(w, By):
                for g in w.given.values():
                    if isinstance(g, Chain):
                        chain(g)
            if isinstance(w, Induction):
                for sub in (w.base, w.step):
                    if isinstance(sub, Chain):
                        chain(sub)

    for t in theorems:
        for p in t.parts:
            expr(p.relation.lhs)
            expr(p.relation.rhs)
            if p.proof is not None:
                chain(p.proof)
        for h in t.hypotheses:
            expr(h.relation.lhs)
            expr(h.relation.rhs)
    if "Prob" in found:
        found.add("Expect")
    items = [r"\item " + d + "." for key, d in _NOTATION if key in found]
    if not items:
        return ""
    return "\\section*{Notation}\n\\begin{itemize}\n" + "\n".join(items) + "\n\\end{itemize}"


_PREAMBLE = [
    r"\documentclass[10pt]{article}",
    r"\usepackage[a4paper,margin=2.5cm]{geometry}",
    r"\usepackage{amsmath,amssymb,amsthm}",
    r"\allowdisplaybreaks",
    r"\setlength{\parindent}{0pt}",
    r"\setlength{\parskip}{0.5ex}",
    r"\setlength{\emergencystretch}{3em}",  # a last pass with extra stretch before any line runs over
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
    notation = _notation(theorems)
    if notation:
        body.append(notation)
    for t in theorems:
        body.append(r"\section{%s}" % (r"\texttt{%s}: " % _tt(t.name) + text(t.title)))
        body.append(r.theorem(t))
    if axioms:
        body.append(r"\section{Cited facts (the trusted base)}")
        body.append("These facts are taken as given (registered axioms of the kernel); every theorem that rests "
                    "on them says so.")
        for ax in axioms:
            ref = getattr(ax, "reference", "")
            body.append(r"\begin{fact}[%s]\label{%s} %s \emph{Source:} %s%s.\end{fact}" % (
                "{" + text(ax.title or ax.name) + "}", label(ax.name, "ax"), _relation_for(ax, end="."),
                (text(ref) + "; ") if ref else "", _source(ax.citation)))
    sources = [t.source for t in theorems] + [a.citation for a in axioms]
    bib = thebibliography(keys_for(sources))
    front = [r"\maketitle"]
    if contents:
        # front matter numbered i, ii, ...: the contents filling in on the second run cannot move the pages
        # it lists, so two pdflatex runs give the right page numbers
        front = [r"\pagenumbering{roman}", r"\begin{titlepage}", r"\maketitle", r"\thispagestyle{empty}",
                 r"Every displayed line of a proof below is one step of a proof chain that the cdpsym kernel "
                 r"checked; the justification beside it is the rule that closed it. Theorems are listed in "
                 r"dependency order: each cites only theorems before it.", r"\end{titlepage}",
                 r"\tableofcontents", r"\newpage", r"\pagenumbering{arabic}"]
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
