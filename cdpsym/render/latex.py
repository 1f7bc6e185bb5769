"""LaTeX: statements, step-by-step derivations (``align*``) and standalone documents.

Every line of a derivation is one step of the checked chain, with its
justification and citation beside it — generated from the chain itself, so
the printed proof cannot drift from the checked one.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import sympy as sp
from sympy.printing.latex import LatexPrinter

from cdpsym.expr.domains import as_expr
from cdpsym.expr.symbols import LATEX_NAMES
from cdpsym.render.layout import TEXT_WIDTH, paper_factors, paper_terms, width
from cdpsym.render.prose import prose, without_reference_ids

if TYPE_CHECKING:  # pragma: no cover
    from cdpsym.proof.kernel import Fact
    from cdpsym.proof.theorem import Theorem

__all__ = ["tex", "fact_label", "statement_latex", "statement_text", "theorem_title", "theorem_latex", "document", "catalogue", "text",
           "justification_latex", "derivation", "label"]

_OPS = {"=": "=", "<=": r"\le", "<": "<"}


class _Printer(LatexPrinter):
    """sympy's LaTeX printer, written as a paper writes the same expression (the expression is never rewritten:
    only the order of the printed terms and factors, and the shape of one constant, change):

    * a power of a function is bracketed: ``\\left(\\log x\\right)^{2}`` (sympy prints ``\\log{(x)}^{2}``,
      which a reader takes for the log of a square);
    * a sum starts with a term with a plus sign when it has one: ``y - \\mu``, not ``- \\mu + y``
      (:func:`~cdpsym.render.layout.paper_terms`);
    * in a product, lone symbols come before powers and functions: ``\\alpha \\Delta^{2}``, not
      ``\\Delta^{2} \\alpha`` (:func:`~cdpsym.render.layout.paper_factors`);
    * a product whose constant factor is ``1/\\sqrt{2\\pi}`` (a normal density) prints it as such:
      ``\\frac{1}{\\sqrt{2 \\pi}\\,\\sigma} e^{- \\frac{(y - \\mu)^{2}}{2 \\sigma^{2}}}``, not sympy's
      ``\\frac{\\sqrt{2} e^{\\dots}}{2 \\sqrt{\\pi} \\sigma}``."""

    def _print_Pow(self, expr):  # type: ignore[no-untyped-def]
        base = expr.base
        if isinstance(base, (sp.log, sp.sinh, sp.cosh, sp.tanh, sp.sin, sp.cos, sp.atan)) and expr.exp.is_Rational \
                and expr.exp > 0 and expr.exp != sp.Rational(1, 2):
            return r"\left(%s\right)^{%s}" % (self._print(base), self._print(expr.exp))
        if base.is_Function and hasattr(type(base), "_latex") and not expr.exp.is_negative and \
                not (expr.exp.is_Rational and expr.exp.q != 1):
            # an operator that prints itself (E[X], Pr[A]): sympy would pass it an ``exp`` it does not take
            return r"{%s}^{%s}" % (self._print(base), self._print(expr.exp))
        return super()._print_Pow(expr)

    def _as_ordered_terms(self, expr, order=None):  # type: ignore[no-untyped-def]
        return paper_terms(super()._as_ordered_terms(expr, order=order))

    def _print_Mul(self, expr):  # type: ignore[no-untyped-def]
        out = self._normal_constant(expr)
        if out is None:
            out = self._paper_product(expr)
        return super()._print_Mul(expr) if out is None else out

    def _factors(self, args) -> str:  # type: ignore[no-untyped-def]
        """Factors printed side by side, bracketed as sympy brackets them (its ``convert_args``)."""
        from sympy.printing.latex import _between_two_numbers_p

        if len(args) == 1:  # a lone numerator or denominator: as it stands, (b - a) unbracketed
            return self._print(args[0])
        out = last = ""
        for i, term in enumerate(args):
            piece = self._print(term)
            if self._needs_mul_brackets(term, first=(i == 0), last=(i == len(args) - 1)):
                piece = r"\left(%s\right)" % piece
            if _between_two_numbers_p[0].search(last) and _between_two_numbers_p[1].match(piece):
                out += self._settings["mul_symbol_latex_numbers"]
            elif out:
                out += self._settings["mul_symbol_latex"]
            out += piece
            last = piece
        return out

    def _paper_product(self, expr):  # type: ignore[no-untyped-def]
        """A product with its factors in :func:`paper_factors` order, when that differs from sympy's; None
        otherwise (and for the unevaluated products sympy prints as they stand)."""
        from sympy.simplify import fraction

        if type(expr) is not sp.Mul or expr.args[0] is sp.S.One or \
                any(isinstance(a, sp.Number) for a in expr.args[1:]):
            return None
        negative = expr.could_extract_minus_sign()
        body = -expr if negative else expr
        if type(body) is not sp.Mul or sp.Pow(1, -1, evaluate=False) in body.args:
            return None
        numer, denom = fraction(body, exact=True)
        theirs = [list(f.as_ordered_factors()) if f.is_Mul else [f] for f in (numer, denom)]
        mine = [paper_factors(f) for f in theirs]
        if mine == theirs:
            return None
        top = self._factors(mine[0])
        if denom is sp.S.One:
            return ("- " if negative else "") + top
        return ("- " if negative else "") + r"\frac{%s}{%s}" % (top, self._factors(mine[1]))

    def _normal_constant(self, expr):  # type: ignore[no-untyped-def]
        """``c \\cdot a / b`` with the constant ``c = 1/\\sqrt{2\\pi}`` as ``\\frac{1}{\\sqrt{2\\pi}\\,b} a``; None for
        any other product."""
        from sympy.simplify import fraction

        if type(expr) is not sp.Mul or expr.could_extract_minus_sign():
            return None
        const = [a for a in expr.args if a.is_number]
        rest = [a for a in expr.args if not a.is_number]
        if not const or not rest or sp.Mul(*const) * sp.sqrt(2) * sp.sqrt(sp.pi) != 1:
            return None
        numer, denom = fraction(sp.Mul(*rest), exact=True)
        numer, denom = sp.Mul(*sp.Mul.make_args(numer)), sp.Mul(*sp.Mul.make_args(denom))
        below = r"\sqrt{2 \pi}"
        if denom != 1:
            d = self._print(denom)
            below += r"\," + (r"\left(%s\right)" % d if denom.is_Add else d)
        if numer == 1:
            return r"\frac{1}{%s}" % below
        n = self._print(numer)
        return r"\frac{1}{%s} %s" % (below, r"\left(%s\right)" % n if numer.is_Add else n)


_GREEK_PREFIX = re.compile(r"^(eps|delta|rho|sigma|alpha|mu|nu|tau|lam|omega|xi)_?(\d+)$")
_GREEK_WORD = re.compile(r"^(eps|delta|rho|sigma|alpha|mu|nu|tau|lam|omega|xi)_([A-Za-z]{2,})$")
_GREEK_TEX = {"eps": r"\varepsilon", "delta": r"\delta", "rho": r"\rho", "sigma": r"\sigma", "alpha": r"\alpha",
              "mu": r"\mu", "nu": r"\nu", "tau": r"\tau", "lam": r"\lambda", "omega": r"\omega", "xi": r"\xi"}


def _symbol_name(s: sp.Symbol) -> str | None:
    """The LaTeX of a symbol the library names in ASCII: ``eps1`` as ``\\varepsilon_{1}``, ``u_`` as ``u``."""
    if s in LATEX_NAMES:
        return LATEX_NAMES[s]
    m = _GREEK_PREFIX.match(s.name)
    if m:
        return _GREEK_TEX[m.group(1)] + "_{%s}" % m.group(2)
    m = _GREEK_WORD.match(s.name)  # eps_hi: a Greek letter with a word as its subscript
    if m:
        return _GREEK_TEX[m.group(1)] + r"_{\mathrm{%s}}" % m.group(2)
    if s.name.endswith("_") and s.name[:-1].isalpha():
        return s.name[:-1] if len(s.name) == 2 else r"\mathrm{%s}" % s.name[:-1]
    m = re.fullmatch(r"([A-Za-z])_([A-Za-z]{2,})", s.name)  # a_pos: a letter with a word as its subscript
    if m:
        return r"%s_{\mathrm{%s}}" % m.groups()
    return None


def tex(expr: sp.Basic, names: dict | None = None) -> str:
    """sympy's LaTeX with the project's symbol names (ε as ``\\varepsilon``, Δ …), natural log as ``\\log``;
    ``names`` overrides the name of some symbols (the claim language's ``delta_p`` …)."""
    names = dict(names or {})
    for node in sp.preorder_traversal(expr) if isinstance(expr, sp.Basic) else ():  # bound variables too
        if isinstance(node, sp.Symbol) and node not in names and (n := _symbol_name(node)) is not None:
            names[node] = n
    return _Printer(dict(symbol_names=names, ln_notation=False, mul_symbol=None)).doprint(expr)


def text(s: str) -> str:
    """Prose for text mode (also inside ``\\text{...}``): Unicode pseudo-maths typeset as ``$...$`` maths,
    LaTeX specials escaped; pure ASCII (see :mod:`cdpsym.render.prose`).  Mentions of the project's own
    REFERENCE items (``R-C2``) are left out: a paper's reader does not know them (the catalogue names a
    theorem's item in an aside, :func:`_reference_aside`)."""
    return prose(without_reference_ids(s))


def _reference_aside(ref: str) -> str:
    """The catalogue's small aside naming the project's REFERENCE item of a theorem or fact (empty if none)."""
    return r"{\small cdpsym reference %s}" % prose(ref) if ref else ""


def fact_label(fact: "Fact") -> str:
    """What a ``by`` step prints: the fact's title and citation."""
    kind = fact.kind
    if kind == "hypothesis":
        return r"\text{%s}" % text(f"by hypothesis ({fact.title or fact.name})")
    if kind == "axiom":  # the title and the papers; the full citation is in the list of cited facts
        title = fact.title or fact.name
        cite = _cite(fact.citation)
        return r"\text{by %s%s}" % (_bold_classical(title), "~" + cite if cite else "")
    name = text(fact.name)  # an identifier comes back as \texttt{...} already
    return r"\text{by %s}" % (name if name.startswith(r"\texttt{") else r"\texttt{%s}" % name)


def _title_name(title: str) -> str:
    """A fact's title without the formula it may spell out after a colon ("the tower rule: E[...] <= ..."): the
    list of cited facts prints the checked relation right after it, so the formula would stand there twice."""
    head, sep, rest = title.partition(": ")
    return head if sep and head.strip() and re.search(r"=|≤|≥|<|>|\^|\[|\|", rest) else title


def _instance_latex(why) -> str:
    """`` with v ↦ value, ...``: the values a ``by`` step gives the cited fact's variables (those that change; the
    fact's own names may coincide with the theorem's, hence a substitution arrow rather than an equation)."""
    from cdpsym.expr.domains import as_expr
    from cdpsym.render.layout import TEXT_WIDTH, width

    by_name = {str(v): v for v in getattr(why.fact, "variables", {})}
    pairs = []
    for name, value in why.inst.items():
        var = by_name.get(name)
        if var is None:
            continue
        try:
            value = as_expr(value)
        except Exception:  # noqa: BLE001 - a value the printer cannot show is left out, not guessed
            continue
        if value != var:
            pair = tex(var) + r" \mapsto " + tex(value)
            if width(pair) <= 0.6 * TEXT_WIDTH:  # a value too wide for a line is left to the cited fact's list
                pairs.append(pair)
    # pairs separated by text, so that each is its own formula and a note can break between them
    out = (r"\text{ with }" + r"\text{, }".join(pairs)) if pairs else ""
    step = getattr(why, "at_step", None)
    if step is not None:  # the class-member rule: the fact about every pair, read at step i's pair
        out += (r"\text{, for the pair of step }" + tex(step) + r"\text{ given any prefix}"
                + (r"\text{ (read right to left)}" if getattr(why, "flip", False) else ""))
    link = getattr(why, "at_link", None)
    if link is not None:  # the class-member rule at a link of a chain of inputs
        out += r"\text{, for the link }(x_{" + tex(link - 1) + r"}, x_{" + tex(link) + r"})\text{ of the chain}"
    if getattr(why, "over_chains", False) is True:  # the supremum rule
        out += (r"\text{, which holds for every chain of the class: any two inputs are the ends of one "
                r"(the Hamming path), so it bounds the supremum}")
    return out


def _under_expectation(inside) -> bool:
    """Does a ``by(..., inside=F)`` context put the fact under an expectation (``F(w) = c E[H(w)] + d``)?"""
    from cdpsym.expr.operators import Expect

    try:
        w, fw = inside
    except (TypeError, ValueError):
        return False
    return any(isinstance(e, Expect) and e.has(w) for e in sp.preorder_traversal(fw))


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
                    + r", whose minimum value is }" + tex(at))
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
    if isinstance(why, K.LimitAtEnd):
        return (r"\text{letting }" + tex(why.var) + (r"\to" if why.end == "lo" else r"\uparrow")
                + r"\text{ the end of its range (the bound holds for every }" + tex(why.var)
                + r"\text{ and is continuous there)}")
    if isinstance(why, K.Split):  # nested splits as one list of cases, each with its conditions
        def leaves(w, conds):
            if not isinstance(w, K.Split):
                return [(conds, w)]
            return (leaves(w.below, conds + (tex(w.var) + r" \le " + tex(w.at),))
                    + leaves(w.above, conds + (tex(w.var) + r" \ge " + tex(w.at),)))
        return r"\text{; }".join(r"\text{case }" + r",\ ".join(conds) + r"\text{: }" + justification_latex(leaf)
                                 for conds, leaf in leaves(why, ()))
    if isinstance(why, K.Numeric):
        return r"\text{numerically (evidence only)}"
    if isinstance(why, K.Taylor):
        v, g = why.g
        x = sp.Symbol("x", real=True)
        gx = g.xreplace({v: x})
        g0 = sp.simplify(gx.subs(x, 0))
        d1 = sp.simplify(sp.diff(gx, x).subs(x, 0))
        d2 = sp.simplify(sp.diff(gx, x, 2))
        gap = sp.simplify(why.bound - d2)  # what the kernel shows non-negative (a sign argument)
        return (r"\text{\textbf{Taylor's theorem} (Lagrange remainder) for }g(x) = " + tex(gx)
                + r"\text{ at }x = " + tex(why.h) + r"\text{: } g(0) = " + tex(g0) + r",\ g'(0) = " + tex(d1)
                + r",\ g''(x) = " + tex(d2) + r" \le " + tex(why.bound)
                + r"\text{ for all real }x\text{, since }" + tex(why.bound) + r" - g''(x) = " + tex(gap)
                + r" \ge 0")
    if isinstance(why, K.Induction):
        return r"\text{by induction on }" + tex(why.var)
    if isinstance(why, K.By):
        if getattr(why, "at_step", None) is not None:
            return fact_label(why.fact) + r"\text{, read at the pair the adversary picks at step }" + \
                tex(why.at_step) + r"\text{ given any prefix (a pair of the class)}"
        if getattr(why, "over_chains", False) is True:
            return fact_label(why.fact) + r"\text{ over every chain of the class (the supremum rule)}"
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
    auxiliary = {id(p) for p in _auxiliary_parts(theorem)}  # lemmas of the proof, not the statement
    parts = "; ".join(p.relation.plain() for p in theorem.parts if id(p) not in auxiliary)
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
    (shown,), names = _abbreviated([fact.relation])  # a display too wide for the line: names for its pieces
    if names:  # "\[ ... \] for k >= 1, ...; where u_1 = ..." (the definitions after the quantifiers)
        defs = names.strip().rstrip(".")
        return r"\[" + shown + r"\]" + (where.lstrip() + "; " if where else "") + defs + end
    return _display_if_wide(shown, end="" if where else end) + where + (end if where else "")


def _hypotheses_latex(theorem: "Theorem") -> list[tuple[str, str]]:
    """The theorem's conditions, then its hypotheses, as ``(clause, name)``: a hypothesis' title and relation,
    and its name (the one the proofs refer to); a condition's relation and no name."""
    return [(_display_if_wide(_rel(c), end=""), "") for c in theorem.conditions] + \
        [(text(h.title or h.name) + ": " + _relation_for(h), h.name) for h in theorem.hypotheses]


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
    ``Fact~\\ref``) or not (a snippet to paste: names and ``\\cite`` only); ``ids``: whether the project's
    REFERENCE items (``R-C2``) are named, as small asides (the catalogue only)."""

    def __init__(self, refs: bool, ids: bool = False) -> None:
        self.refs = refs
        self.ids = ids
        self._limits: dict[int, str] = {}  # the labels of passages to the limit, by record
        self._hyps: tuple = ()  # the hypotheses of the theorem being rendered
        self._ih: list = []  # the induction hypotheses of the induction steps being rendered
        self._current = None  # the theorem being rendered (its own parts are cited by equation only)
        self._cited: list = []  # the facts its proofs cite, in order of first citation: their marks (i), (ii), ...

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
            own = thm is self._current
            if (self.refs or own) and part and _part_labelled(thm, fact):  # by its equation: "(2) (ratio_mean)"
                return r"\eqref{%s}%s" % (label(fact.name), part_txt) + (
                    "" if own else r" of Theorem~\ref{%s}" % label(thm.name))
            if self.refs:
                return r"Theorem~\ref{%s}%s" % (label(thm.name), part_txt)
            return r"\texttt{%s}%s" % (_tt(thm.name), (r"~" + _cite(thm.source)) if _cite(thm.source) else "") \
                + part_txt
        return r"hypothesis \texttt{%s}" % _tt(fact.name)

    def long_label(self, fact) -> str:  # type: ignore[no-untyped-def]
        rel = _relation_for(fact)
        if fact.kind == "hypothesis":  # the theorem's own hypothesis, by the name the statement tags it with
            title = fact.title or fact.name
            if "hypothesis" in title:  # the induction hypothesis
                return text(title) + ": " + rel
            return r"hypothesis (\texttt{%s}): " % _tt(fact.name) + rel
        if fact.kind == "axiom":
            ref = getattr(fact, "reference", "") if self.ids else ""
            return (self.fact_ref(fact) + ", " if self.refs else "") + text(_title_name(fact.title or fact.name)) + \
                ": " + rel + \
                " [" + _source(fact.citation) + ("; " + _reference_aside(ref) if ref else "") + "]"
        return self.fact_ref(fact) + ": " + rel

    # -- derivations -----------------------------------------------------------------------------
    def derivation(self, chain, cited: list | None = None, depth: int = 0) -> str:  # type: ignore[no-untyped-def]
        """One ``align*``, one checked step per line; then the sub-derivations (inductions, ``given``
        proofs), then (at the top level) the list of what was cited."""
        from cdpsym.proof.kernel import By, Chain, Induction, LimitAtEnd, Sign

        top = cited is None
        if top:  # one numbering per theorem: a fact keeps its mark (i) in every block; a block lists its new ones
            cited = self._cited
        first = len(cited) if top else 0
        cut = next((n for n, st in enumerate(chain.steps) if isinstance(st.why, LimitAtEnd)), None)
        if cut and chain.steps[cut].why.var in dict(chain.variables):
            # a passage to the limit ends the bound "for every v": the chain up to it is one display, then a
            # sentence, then the start against the limit -- never "f(v) <= f(a)" as if it held for each v
            st = chain.steps[cut]
            dom = dict(chain.variables)[st.why.var]
            v, end = tex(st.why.var), tex(dom.lo if st.why.end == "lo" else dom.hi)
            head = Chain(chain.start, tuple(chain.steps[:cut]), chain.variables)
            tail = Chain(chain.start, tuple(chain.steps[cut:]))
            self._limits[id(st.why)] = r"\text{letting }" + v + r"\to " + end
            body = (self.derivation(head, cited, depth + 1) + "\n" +
                    r"This holds for every $%s$, and the last right side is continuous at $%s = %s$; "
                    r"letting $%s \to %s$:" % (dom.latex(st.why.var, v), v, end, v, end) + "\n" +
                    self.derivation(tail, cited, depth + 1))
            if top and cited[first:]:
                items = "\n".join(rf"\item[{_mark(n)}] {self.long_label(f)}"
                                  for n, f in enumerate(cited[first:], first + 1))
                body += "\n{\\small\\begin{itemize}\n" + items + "\n\\end{itemize}}"
            return body
        labels, subs = [], []
        for i, step in enumerate(chain.steps):
            why = step.why
            if isinstance(why, By):
                if why.fact not in cited:
                    cited.append(why.fact)
                n = cited.index(why.fact) + 1
                lab = self.short_label(why.fact, n) + _instance_latex(why)
                if why.inside is not None and why.fact.relation.op != "=" and _under_expectation(why.inside):
                    lab += r"\text{, under }\mathbb{E}\text{ (monotonicity of expectation)}"
                implicit = _implicit_conditions(why)
                for printed, need in implicit:
                    if need.op in ("<=", "=") and as_expr(need.lhs) == as_expr(need.rhs):
                        continue  # "eps <= eps": nothing a reader needs told
                    subs.append(r"\emph{The condition $%s$ of %s holds:} it is %s." % (
                        printed, _mark(n), _why_in_scope(need, self._hyps, self._ih[-1] if self._ih else None)))
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
                if isinstance(why.base, Chain):
                    base = self.derivation(why.base, cited, depth + 1)
                else:  # one justification: the statement at 1, then why it holds
                    before = chain.start if i == 0 else chain.steps[i - 1].expr
                    at_one = {why.var: sp.S.One}
                    with sp.evaluate(False):  # the statement at 1 as written (3/2 - (3/2)^1), not evaluated
                        shown = [as_expr(x).xreplace(at_one) for x in (before, step.expr)]
                    lo, hi = (as_expr(x).xreplace(at_one) for x in (before, step.expr))
                    how = (_sign_label(lo, hi, step.op) if isinstance(why.base, Sign) and not why.base.note
                           else justification_latex(why.base))
                    base = r"$%s %s %s$, %s." % (tex(shown[0]), _OPS[step.op], tex(shown[1]),
                                                 _as_paragraph(how))
                subs.append(r"\emph{The induction on $%s$. Base case $%s = 1$:}" % (k, k) + "\n" + base)
                from cdpsym.proof.kernel import Rel

                self._ih.append(Rel(chain.start if i == 0 else chain.steps[i - 1].expr, step.op, step.expr))
                try:
                    inner = self.derivation(why.step, cited, depth + 1)
                finally:
                    self._ih.pop()
                subs.append(r"\emph{Induction step from $%s$ to $%s + 1$} (the statement at $%s$ is the induction "
                            r"hypothesis):" % (k, k, k) + "\n" + inner)
            elif isinstance(why, LimitAtEnd) and id(why) in self._limits:
                lab = self._limits[id(why)]
            elif isinstance(why, LimitAtEnd) and why.var in dict(chain.variables):
                dom = dict(chain.variables)[why.var]
                v, end = tex(why.var), tex(dom.lo if why.end == "lo" else dom.hi)
                lab = (r"\text{letting }" + v + r"\to " + end + r"\text{ (the bound holds for every }" + v
                       + r"\text{ in its range, and is continuous at }" + v + " = " + end + r"\text{)}")
            elif isinstance(why, Sign) and not why.note:
                lab = _sign_label(chain.start if i == 0 else chain.steps[i - 1].expr, step.expr, step.op)
            else:
                lab = justification_latex(why)
            labels.append(lab)
        lines, notes = _layout(chain, labels)  # an identity that prints as the line before is left out
        pre = ""
        if chain.variables:
            pre = rf"For every ${_quantifiers(chain.variables)}$ (fixed where the derivation says so):" + "\n"
        body = pre + "\\begin{align*}\n" + ("\\\\\n".join(lines) or tex(chain.start)) + "\n\\end{align*}"
        if notes:
            body += "\n" + notes
        if subs:
            body += "\n" + "\n\n".join(subs)
        if top and cited[first:]:
            items = "\n".join(rf"\item[{_mark(n)}] {self.long_label(f)}"
                              for n, f in enumerate(cited[first:], first + 1))
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
        from cdpsym.render.layout import fresh_names

        fresh_names()  # an abbreviation u_i keeps one meaning within the theorem
        self._hyps = tuple(theorem.hypotheses)
        self._current = theorem
        self._cited = []
        head = r"\begin{theorem}[%s]\label{%s}" % ("{" + text(theorem.title) + "}", label(theorem.name))
        source = _source(theorem.source)
        aside = _reference_aside(theorem.reference) if self.ids else ""
        info = r"(\texttt{%s}%s%s.)" % (_tt(theorem.name), "; " + source if source else "",
                                       "; " + aside if aside else "")
        out = [head, info + " " + _status_sentence(theorem)]
        short = theorem_title(theorem)[1:-1] if _guarantee(theorem) is not None else ""
        if short and width(short) <= TEXT_WIDTH - 8:  # the statement as a privacy guarantee, generated
            out.append(r"In short, " + _display_if_wide(short) + " In detail:")
        quant = ", ".join("$" + _quantifiers({v: d}) + "$" for v, d in theorem.variables.items())
        for f in getattr(theorem, "sequences", None) or {}:  # a sequence of numbers: any real terms
            quant += (", " if quant else "") + "$" + tex(f(sp.Integer(1))) + ", " + tex(f(sp.Integer(2))) + \
                r", \dots$ real numbers"
        hyps = _hypotheses_latex(theorem)
        lead = ("Let " + quant if quant else "")
        then = "Then" if len(theorem.parts) == 1 else "Then the following hold."
        if len(hyps) == 1:  # one hypothesis: a clause of the sentence, its name after it
            clause, name = hyps[0]
            lead += (", and assume " if lead else "Assume ") + clause + \
                (r" (hypothesis \texttt{%s})" % _tt(name) if name else "") + ". " + then
        elif hyps:  # a list, one a line, each hypothesis tagged with its name at the right margin
            lead += (", and assume:" if lead else "Assume:") + "\n\\begin{itemize}\n" + "\n".join(
                r"\item " + clause + (r" \hfill(\texttt{%s})" % _tt(name) if name else "") for clause, name in hyps) \
                + "\n\\end{itemize}\n" + then
        elif lead:
            lead += ". " + then
        else:
            lead = "Then" if len(theorem.parts) == 1 else "The following hold."
        out.append(lead)
        aux = _auxiliary_parts(theorem)
        shown = [p for p in theorem.parts if p not in aux]
        if len(shown) == 1:
            (rel,), where = _abbreviated([shown[0].relation])
            out.append(r"\begin{equation*}" + rel + r"\end{equation*}" + where)
        else:
            rows = []
            rels, where = _abbreviated([p.relation for p in shown])
            for p, rel in zip(shown, rels):
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
        for p in aux:  # the helper facts the statement's proofs cite: stated and proved first
            short = p.name.split(".", 1)[1] if "." in p.name else p.name
            extra = _quantifiers({v: d for v, d in p.variables.items() if v not in theorem.variables})
            (rel,), where = _abbreviated([p.relation])
            out.append(r"\emph{Auxiliary fact (\texttt{%s}).}" % _tt(short) + (" For $" + extra + "$:" if extra else "")
                       + "\n" + r"\begin{equation}" + rel + r"\label{%s}\end{equation}" % label(p.name) + where)
            if p.proof is not None:
                out.append(self.derivation(p.proof))
        for p in shown:
            if len(shown) > 1 or aux:
                short = p.name.split(".", 1)[1] if "." in p.name else p.name
                out.append(r"\emph{Part (\texttt{%s}), \eqref{%s}.}" % (_tt(short), label(p.name))
                           if len(shown) > 1 else r"\emph{The statement.}")
            if p.proof is not None:
                out.append(self.derivation(p.proof))
        if theorem.tight:
            out.append(r"\emph{Tightness:} " + text(theorem.tight))
        out.append(r"\end{proof}")
        return "\n\n".join(out)


def _auxiliary_parts(theorem) -> list:  # type: ignore[no-untyped-def]
    """The parts another part of the same theorem cites (a helper identity, the scaled form an induction runs
    on), except one called ``main``: a referee reads them as lemmas inside the proof, not as the statement."""
    from cdpsym.proof.kernel import By, Chain, Induction

    cited: set = set()

    def walk(chain) -> None:  # type: ignore[no-untyped-def]
        for st in chain.steps:
            w = st.why
            if isinstance(w, By):
                cited.add(id(w.fact))
                for g in w.given.values():
                    for sub in (g if isinstance(g, (list, tuple)) else [g]):
                        if isinstance(sub, Chain):
                            walk(sub)
                        elif isinstance(sub, By):
                            cited.add(id(sub.fact))
            if isinstance(w, Induction):
                for sub in (w.base, w.step):
                    if isinstance(sub, Chain):
                        walk(sub)

    for p in theorem.parts:
        if p.proof is not None:
            walk(p.proof)
    aux = [p for p in theorem.parts if id(p) in cited and p.name.split(".")[-1] != "main"]
    return aux if len(aux) < len(theorem.parts) else []


def _part_labelled(theorem, part) -> bool:  # type: ignore[no-untyped-def]
    """Does the theorem's document give ``part`` an equation label (an auxiliary fact, or one of several parts
    shown in the statement)?"""
    aux = _auxiliary_parts(theorem)
    if any(p.name == part.name for p in aux):
        return True
    return sum(1 for p in theorem.parts if p not in aux) > 1


def _sign_label(lhs, rhs, op: str) -> str:
    """A ``sign`` step without a note: the difference the kernel shows non-negative (positive), when it is short."""
    want = r"> 0" if op == "<" else r"\ge 0"
    try:
        raw = as_expr(rhs) - as_expr(lhs)
        diff = sp.factor(raw) if sp.count_ops(raw) <= 40 else raw
        shown = tex(diff)
    except Exception:  # noqa: BLE001 - a difference sympy cannot build or print: the plain sentence
        shown = ""
    if shown and diff == 0:
        return r"\text{both sides are equal}"
    if shown and len(shown) <= 90:
        return r"\text{sign: the right side minus the left is }" + shown + " " + want
    return r"\text{since the difference is non-negative}"


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


def _implicit_conditions(why) -> list[tuple[str, object]]:  # type: ignore[no-untyped-def]
    """The conditions of a cited fact that the step does not prove in ``given`` (the kernel discharged them from
    what is in scope), instantiated as the step instantiates the fact: (printed relation, the instance)."""
    from cdpsym.proof.core import subst
    from cdpsym.proof.kernel import Rel

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
        out.append((f"{tex(lhs)} {_OPS[c.op]} {tex(rhs)}", Rel(lhs, c.op, rhs)))
    return out


def _same_relation(a, b) -> bool:  # type: ignore[no-untyped-def]
    """Do two relations say the same (canonical sides, the first at least as strong)?"""
    from cdpsym.proof.algebra import canon
    from cdpsym.proof.kernel import implies_op

    try:
        return implies_op(a.op, b.op) and canon(a.lhs) == canon(b.lhs) and canon(a.rhs) == canon(b.rhs)
    except Exception:  # noqa: BLE001 - undecided: not named
        return False


def _why_in_scope(need, hypotheses, ih) -> str:  # type: ignore[no-untyped-def]
    """Which fact in scope a condition is: a hypothesis of the theorem (by name), the induction hypothesis, or a
    sign or identity the kernel decides (a condition on numbers only)."""
    from cdpsym.proof.algebra import opaque_terms

    for h in hypotheses:
        if not h.variables and not h.conditions and _same_relation(h.relation, need):
            return r"hypothesis \texttt{%s}" % _tt(h.name)
    if ih is not None and _same_relation(ih, need):
        return "the induction hypothesis"
    terms = opaque_terms(need.lhs) | opaque_terms(need.rhs)
    if not terms:
        return "a sign or identity the kernel checks"
    from sympy.core.function import AppliedUndef

    if all(isinstance(t, AppliedUndef) for t in terms):  # random sequences only (Λ_k, R_i): a relation at each outcome
        return "a sign the kernel checks at every outcome"
    return "a fact in scope"


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
    words = _STATUS_WORDS.get(status, status)
    if status == "supported" and not _has_numeric_step(theorem):
        weak = _supported_citations(theorem)
        if weak:
            words = words.replace("a step below is numerical evidence only",
                                  "it cites %s, which %s only supported" % (
                                      ", ".join(r"\texttt{%s}" % _tt(name) for name in weak),
                                      "is" if len(weak) == 1 else "are"))
    return r"\emph{Status: %s} --- %s." % (status, words)


def _supported_citations(theorem) -> list[str]:  # type: ignore[no-untyped-def]
    """The library theorems the proof cites whose own verdict is *supported* (cached verdicts)."""
    from cdpsym.claims.checker import _library_status
    from cdpsym.proof.core import _cited_theorems

    names: list[str] = []
    for p in theorem.parts:
        if p.proof is None:
            continue
        for thm in _cited_theorems(p.proof):
            if thm is not theorem and thm.name not in names and _library_status(thm.name) == "supported":
                names.append(thm.name)
    return names


def _has_numeric_step(theorem) -> bool:  # type: ignore[no-untyped-def]
    """Does any proof chain of the theorem (its given proofs and induction sub-chains included) take a step on
    numerical evidence (``numeric()``)?  If not, a supported verdict comes from a cited supported result."""
    from cdpsym.proof.kernel import By, Chain, Induction, Numeric

    def walk(chain) -> bool:  # type: ignore[no-untyped-def]
        for st in chain.steps:
            w = st.why
            if isinstance(w, Numeric):
                return True
            subs = []
            if isinstance(w, By):
                for g in w.given.values():
                    subs += list(g) if isinstance(g, (list, tuple)) else [g]
            if isinstance(w, Induction):
                subs += [w.base, w.step]
            if any(isinstance(sub, Chain) and walk(sub) for sub in subs):
                return True
        return False

    return any(p.proof is not None and walk(p.proof) for p in theorem.parts)


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
        before = [chain.start] + [step.expr for step in chain.steps[:-1]]
        keep = [i for i, step in enumerate(chain.steps)
                if not (step.op == "=" and type(step.why) is Algebra and tex(step.expr) == tex(before[i]))]
        if keep and len(keep) < len(chain.steps):
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
        # a start on a line of its own shares the body column, so the justifications' column is beside it too
        return any(width(tex(e)) > budget and split_sum(e, tex, budget) is None for e in es[1:]) or \
            (own_line and width(tex(es[0])) > TEXT_WIDTH - label_w - 8.0)

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
def _notation(theorems: list["Theorem"]) -> str:
    """The Notation section: the entries of :data:`cdpsym.expr.symbols.NOTATION` (each written where its object is
    defined) whose objects occur in the documents' theorems."""
    from cdpsym.proof.kernel import By, Chain, Induction

    found: set = set()
    own: set = set()  # the theorem at hand declares these itself ("Let Y in ..."): their global entry is not theirs

    def expr(e) -> None:  # type: ignore[no-untyped-def]
        if not isinstance(e, sp.Basic):
            return
        for a in sp.preorder_traversal(e):
            if isinstance(a, sp.Symbol):
                if a.name not in own:
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
        own.clear()
        own.update(str(v) for v in t.variables)
        for p in t.parts:
            expr(p.relation.lhs)
            expr(p.relation.rhs)
            if p.proof is not None:
                chain(p.proof)
        for h in t.hypotheses:
            expr(h.relation.lhs)
            expr(h.relation.rhs)
        g = _guarantee(t)  # the "In short" line names the mechanism it speaks of
        if g is not None:
            for obj in g[:2]:
                for m in [obj] + [b for b, _ in getattr(obj, "groups", ())]:
                    found.add(type(m).__name__)
    if "Prob" in found:
        found.add("Expect")
    if found & {"L", "Expect", "KL", "Renyi", "HockeyStick"}:
        found.add("P")  # their entries are stated for the pair (P, Q)
    from cdpsym.expr.symbols import NOTATION  # written next to each object's definition

    entries = sorted((rank, d) for key, (rank, d) in NOTATION.items() if key in found)
    items = [r"\item " + d + "." for _, d in entries]
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


def document(theorems: list["Theorem"], title: str = "cdpsym derivations", contents: bool = False,
             ids: bool = False) -> str:
    """A complete LaTeX document that compiles with plain pdflatex as is (no BibTeX run): one section per
    theorem in dependency order, the cited facts, cross-references, a bibliography from the citations.
    ``contents``: a title page and a table of contents; ``ids``: name each theorem's and fact's item of the
    project's REFERENCE.md in a small aside (the catalogue; a document for a paper's reader does not)."""
    from cdpsym.render.bibliography import keys_for, thebibliography

    theorems = _in_dependency_order(theorems)
    r = _Render(True, ids=ids)
    body = []
    axioms = _axioms_used(theorems)
    notation = _notation(theorems)
    if notation:
        body.append(notation)
    for t in theorems:
        first = re.split(r"[\s-]", t.title, maxsplit=1)[0]  # "zCDP ..." keeps its case; "basic ..." is capitalised
        title = t.title[:1].upper() + t.title[1:] if first.isascii() and first.isalpha() and first.islower() \
            else t.title
        body.append(r"\section{%s}" % text(title))  # the identifier opens the theorem's body
        body.append(r.theorem(t))
    if axioms:
        body.append(r"\section{Cited facts (the trusted base)}")
        body.append("These facts are taken as given (registered axioms of the kernel); every theorem that rests "
                    "on them says so.")
        for ax in axioms:
            ref = getattr(ax, "reference", "") if r.ids else ""
            body.append(r"\begin{fact}[%s]\label{%s} %s \emph{Source:} %s%s.\end{fact}" % (
                "{" + text(ax.title or ax.name) + "}", label(ax.name, "ax"), _relation_for(ax, end="."),
                _source(ax.citation), ("; " + _reference_aside(ref)) if ref else ""))
    sources = [t.source for t in theorems] + [a.citation for a in axioms]
    bib = thebibliography(keys_for(sources))
    seed = _first_run_references(theorems, axioms, bib)
    front = [r"\maketitle"]
    if contents:
        # front matter numbered i, ii, ...: the contents filling in on the second run cannot move the pages
        # it lists, so two pdflatex runs give the right page numbers
        front = [r"\pagenumbering{roman}", r"\begin{titlepage}", r"\maketitle", r"\thispagestyle{empty}",
                 r"Every displayed line of a proof below is one step of a proof chain that the cdpsym kernel "
                 r"checked; the justification beside it is the rule that closed it. A step justified "
                 r"``numerically (evidence only)'' is not a proof: its theorem's status says \emph{supported}, "
                 r"and only its numerical evidence is claimed. Theorems are listed in "
                 r"dependency order: each cites only theorems before it.", r"\end{titlepage}",
                 r"\tableofcontents", r"\newpage", r"\pagenumbering{arabic}"]
    else:
        front.append(r"Every displayed line is one step of a proof chain that cdpsym's kernel checked; the "
                     r"justification beside it is the rule that closed it. A step justified ``numerically "
                     r"(evidence only)'' is not a proof, and its theorem's status says so.")
    return "\n".join([
        *_PREAMBLE,
        seed,
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


def _first_run_references(theorems: list["Theorem"], axioms: list, bib: str) -> str:
    """Preamble lines that, on a first pdflatex run (no ``.aux`` yet), give every ``\\ref`` and ``\\cite`` the
    number it will get -- Theorem i.1 in section i, the parts' equation numbers, Fact k, [n] -- so that the first
    run lays out as the second: with ``??`` in their place a line or a page could break differently, and two runs
    would not settle the page numbers.  From the second run on, the ``.aux`` LaTeX wrote decides, as usual (a
    wrong number here could only cost that settling, never a wrong reference)."""
    defs: list[str] = []
    equation = 0
    for i, t in enumerate(theorems, 1):  # one theorem per section, numbered within it
        defs.append(r"\@namedef{r@%s}{{%d.1}{}}" % (label(t.name), i))
        aux = _auxiliary_parts(t)
        shown = [p for p in t.parts if p not in aux]
        # the numbered displays: the rows of a multi-part statement, then the auxiliary facts in the proof
        for p in (shown if len(shown) > 1 else []) + aux:
            equation += 1
            defs.append(r"\@namedef{r@%s}{{%d}{}}" % (label(p.name), equation))
    defs += [r"\@namedef{r@%s}{{%d}{}}" % (label(ax.name, "ax"), k) for k, ax in enumerate(axioms, 1)]
    defs += [r"\@namedef{b@%s}{%d}" % (key, n) for n, key in enumerate(re.findall(r"\\bibitem\{([^}]+)\}", bib), 1)]
    return "\n".join([r"\makeatletter", r"\IfFileExists{\jobname.aux}{}{%", *defs, "}", r"\makeatother"])


def catalogue(theorems: list["Theorem"] | None = None) -> str:
    """The catalogue: title page, contents, one section per theorem in dependency order, the trusted base,
    the bibliography (``cdpsym latex --all --standalone``)."""
    if theorems is None:
        from cdpsym import theorems as library

        theorems = list(library.LIBRARY)
    return document(theorems, title="cdpsym: a catalogue of checked differential-privacy theorems", contents=True,
                    ids=True)
