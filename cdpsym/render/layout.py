r"""Line layout for displayed derivations: how wide a formula prints, and how to break one that is too wide.

A derivation line is ``lhs  op  body   justification`` in an ``align*``.  The columns of an ``align*`` are as
wide as their widest entry, so one long left side, body or justification widens every line.  The layout
rules, applied per chain:

* a long **justification** becomes a note mark ``(a)`` beside the step and is printed in full under the
  display (as the cited facts are, ``[1]``);
* a long **left side** (the chain's start) gets a line of its own;
* a long **body** is broken after a top-level ``+`` or ``-`` of a sum, continuing on the next line indented;
  a body that is not a sum and still does not fit is shortened with an abbreviation ``u_1`` for a
  sub-expression that occurs in it more than once, defined under the display (``where u_1 = ...``).

Widths are estimates in units of one math character at 10pt (about 5.5pt); they only decide where to break,
never what is printed, so an estimate that is off costs a line break, not correctness.
"""

from __future__ import annotations

import re
from typing import Callable

import sympy as sp

__all__ = ["width", "TEXT_WIDTH", "split_sum", "abbreviations", "paper_terms", "paper_factors"]

#: the text width of the documents (A4 portrait, 10pt, 2.5cm margins: about 453pt) in math characters
TEXT_WIDTH = 80.0

_ZERO = {"left", "right", "middle", "big", "Big", "bigg", "Bigg", "displaystyle", "textstyle", "limits", "nolimits",
         "mathrm", "mathbb", "mathcal", "mathbf", "operatorname", "boldsymbol", "phantom", "label", "nonumber"}
_SPACE = {"quad": 2.0, "qquad": 4.0, ",": 0.3, ";": 0.5, ":": 0.4, "!": -0.2, " ": 0.5}
_SCRIPT = 0.7


def width(latex: str) -> float:
    """The printed width of a LaTeX math string, in math characters (an estimate)."""
    w, _ = _group(latex, 0, None)
    return w


def _group(s: str, i: int, close: str | None) -> tuple[float, int]:
    """Width of ``s[i:]`` up to the matching ``close`` (or the end); returns (width, index after close)."""
    total = 0.0
    n = len(s)
    while i < n:
        c = s[i]
        if close is not None and c == close:
            return total, i + 1
        if c == "{":
            w, i = _group(s, i + 1, "}")
            total += w
        elif c in "^_":
            w, i = _argument(s, i + 1)
            total += _SCRIPT * w
        elif c == "\\":
            m = re.match(r"\\([A-Za-z]+|.)", s[i:])
            name = m.group(1) if m else ""
            i += len(m.group(0)) if m else 1
            if name == "frac" or name == "dfrac" or name == "tfrac":
                a, i = _argument(s, i)
                b, i = _argument(s, i)
                total += max(a, b) + 0.6
            elif name == "sqrt":
                if i < n and s[i] == "[":
                    j = s.index("]", i)
                    i = j + 1
                a, i = _argument(s, i)
                total += a + 1.0
            elif name in ("text", "textbf", "emph", "textit", "texttt", "mbox"):
                j = i
                if j < n and s[j] == "{":
                    depth, k = 0, j
                    while k < n:
                        if s[k] == "{":
                            depth += 1
                        elif s[k] == "}":
                            depth -= 1
                            if depth == 0:
                                break
                        k += 1
                    inner = s[j + 1:k]
                    total += _text_width(inner)
                    i = k + 1
            elif name in _SPACE:
                total += _SPACE[name]
            elif name in _ZERO:
                pass
            elif name in ("le", "leq", "ge", "geq", "wedge", "vee", "to", "implies", "cdot", "times", "in"):
                total += 1.6
            elif name in ("log", "exp", "sup", "inf", "max", "min", "Pr", "sin", "cos", "tanh"):
                total += len(name) * 0.8
            else:
                total += 1.0
        elif c in " \n\t&":
            i += 1
        elif c in "=<>+-":
            total += 1.6
            i += 1
        else:
            total += 1.0
            i += 1
    return total, i


def _argument(s: str, i: int) -> tuple[float, int]:
    """Width of one argument: a braced group, a command or a single character."""
    n = len(s)
    while i < n and s[i] == " ":
        i += 1
    if i >= n:
        return 0.0, i
    if s[i] == "{":
        return _group(s, i + 1, "}")
    if s[i] == "\\":
        m = re.match(r"\\([A-Za-z]+|.)", s[i:])
        return 1.0, i + (len(m.group(0)) if m else 1)
    return 1.0, i + 1


def _text_width(inner: str) -> float:
    """Text inside ``\\text{...}``: about 0.9 math characters a letter; inline ``$...$`` measured as maths."""
    total = 0.0
    for k, piece in enumerate(inner.split("$")):
        total += width(piece) if k % 2 else 0.9 * len(re.sub(r"\\[A-Za-z]+\s*|[{}]", "", piece))
    return total


def split_sum(expr: sp.Basic, tex: Callable[[sp.Basic], str], budget: float) -> list[str] | None:
    """``expr`` as printed lines of at most ``budget`` each (the first line full width, the others after a
    ``+`` or ``-``), when ``expr`` is a sum; None when it is not one or a single term is already too wide.

    The terms keep the printing order (that of ``tex(expr)``, :func:`paper_terms`), so the lines read as the
    unbroken formula would."""
    if not isinstance(expr, sp.Add):
        return None
    terms = _printed_terms(expr)
    lines: list[str] = []
    current = ""
    for sign_, term in terms:
        piece = tex(term)
        if term.is_Add or piece.startswith("-"):
            piece = r"\left(" + piece + r"\right)"
        glued = (("- " if sign_ < 0 else "") + piece) if not current and not lines else \
            (("- " if sign_ < 0 else "+ ") + piece)
        if current and width(current + " " + glued) > budget:
            lines.append(current)
            current = glued
        else:
            current = (current + " " + glued).strip()
    lines.append(current)
    if len(lines) < 2 or any(width(line) > budget * 1.15 for line in lines):
        return None
    return lines


def _printed_terms(expr: sp.Add) -> list[tuple[int, sp.Basic]]:
    """The terms of a sum in the order the renderer prints them (:func:`paper_terms`), each as
    (sign, term with the sign taken out)."""
    from sympy.printing.latex import LatexPrinter

    ordered = paper_terms(LatexPrinter(settings={"order": None})._as_ordered_terms(expr))
    return [(-1, -term) if term.could_extract_minus_sign() else (1, term) for term in ordered]


def paper_terms(terms: list[sp.Basic]) -> list[sp.Basic]:
    """The terms of a sum in the order a paper writes them: sympy's order, except that when the first term
    prints with a minus sign, the first term that prints with a plus sign comes first (``y - \\mu``, not
    ``-\\mu + y``); the other terms keep sympy's order.  Only the order of the printed terms changes."""
    terms = list(terms)
    if not terms or not terms[0].could_extract_minus_sign():
        return terms
    for i, term in enumerate(terms):
        if not term.could_extract_minus_sign():
            return [term] + terms[:i] + terms[i + 1:]
    return terms


def paper_factors(factors: list[sp.Basic]) -> list[sp.Basic]:
    """The factors of a product (numerator or denominator) in the order a paper writes them: numbers (and powers
    of a number, ``2^{m}``), then integer symbols and their powers (counts: ``k``, ``k^{2}``), then lone symbols
    named in lower case (parameters: ``\\alpha``, ``k``), then lone
    symbols named in upper case (random variables and sensitivities: ``X``, ``L``, ``\\Delta``), then the rest
    (powers, functions, sums), each group in sympy's order -- ``\\alpha \\Delta^2`` and ``a X`` rather than
    sympy's ``\\Delta^2 \\alpha`` and ``X a``.  Only the order of the printed factors changes."""
    def rank(f: sp.Basic) -> float:
        if f.is_number or (f.is_Pow and f.base.is_Number):  # 2^{m} also: after a letter it reads as a number
            return 0
        base = f.base if f.is_Pow and f.exp.is_Number else f
        if isinstance(base, sp.Symbol) and base.is_integer:  # a count first: k\varepsilon, k^{2}\rho, not \varepsilon k
            return 0.5
        if isinstance(f, sp.Symbol):
            return 2 if f.name[:1].isupper() else 1
        return 3
    return sorted(factors, key=rank)  # sorted is stable


#: the abbreviation names (u_1, u_2, ...) already given in the theorem being rendered: a name keeps one meaning in
#: a theorem (its statement, its parts, its sub-derivations); :func:`fresh_names` starts a theorem
_GIVEN: set = set()


def fresh_names() -> None:
    """Start a new theorem: abbreviation names may be reused from here on."""
    _GIVEN.clear()


def abbreviations(exprs: list[sp.Basic], tex: Callable[[sp.Basic], str], least: float = 6.0
                  ) -> tuple[list[sp.Basic], list[tuple[sp.Symbol, sp.Basic]]]:
    """Common sub-expressions of ``exprs`` worth a name (printed at least ``least`` wide, used at least twice):
    ``(exprs with the names, [(u_1, definition), ...])``.  The names are fresh symbols ``u_1, u_2, ...``; a
    definition may use earlier names."""
    taken = (set().union(*(e.free_symbols for e in exprs)) if exprs else set()) | _GIVEN
    names = (s for s in (sp.Symbol(f"u_{i}") for i in range(1, 200)) if s not in taken)
    try:
        replacements, reduced = sp.cse(exprs, symbols=names, optimizations=None, order="none")
    except Exception:  # noqa: BLE001 - no abbreviation is a correct layout too
        return exprs, []
    keep, undo = [], {}
    whole = {e for e in reduced if isinstance(e, sp.Symbol)}  # a name for a whole side abbreviates nothing
    for sym, sub in replacements:
        full = sub.xreplace(undo)
        if sym not in whole and width(tex(full)) >= least and not isinstance(sub, (sp.Symbol, sp.Number)):
            keep.append((sym, sub))
        else:
            undo[sym] = full
    if not keep:
        return exprs, []
    reduced = [e.xreplace(undo) for e in reduced]
    keep = [(s, d.xreplace(undo)) for s, d in keep]
    # number the names kept u_1, u_2, ... in order (cse numbered every candidate)
    fresh = (s for s in (sp.Symbol(f"u_{i}") for i in range(1, 200)) if s not in taken)
    rename = {old: new for (old, _), new in zip(keep, fresh)}
    _GIVEN.update(rename.values())
    return [e.xreplace(rename) for e in reduced], [(rename[s], d.xreplace(rename)) for s, d in keep]


def name_widest(exprs: list[sp.Basic], tex: Callable[[sp.Basic], str], budget: float, taken: set | None = None,
                most: int = 6) -> tuple[list[sp.Basic], list[tuple[sp.Basic, sp.Basic]]]:
    """While some expression prints wider than ``budget``, name its widest proper sub-expression that fits in
    ``budget`` (``u_1 = ...``, defined under the display) -- at most ``most`` names.  The last resort after
    breaking sums and naming repeated sub-expressions: a formula too long for a line becomes a short formula
    and a definition."""
    taken = set(taken or ()) | set().union(*(e.free_symbols for e in exprs)) | _GIVEN
    fresh = (s for s in (sp.Symbol(f"u_{i}") for i in range(1, 200)) if s not in taken)
    names: list[tuple[sp.Basic, sp.Basic]] = []
    exprs = list(exprs)
    for _ in range(most):
        wide = [e for e in exprs if width(tex(e)) > budget]
        if not wide:
            break
        target = max(wide, key=lambda e: width(tex(e)))
        best, best_w = None, 0.0
        for sub in sp.preorder_traversal(target):
            if sub is target or isinstance(sub, (sp.Symbol, sp.Number)) or not isinstance(sub, sp.Expr):
                continue
            if any(sub.has(n) for n, _ in names) or any(isinstance(a, sp.Dummy) for a in sub.free_symbols):
                continue
            w = width(tex(sub))
            if best_w < w <= budget:  # a piece using a sum's index is named as a function of it: g_1(u, v)
                best, best_w = sub, w
        if best is None:  # nothing fits: name the widest piece that is clearly narrower than the whole
            whole = width(tex(target))
            for sub in sp.preorder_traversal(target):
                if sub is target or not isinstance(sub, sp.Expr) or isinstance(sub, (sp.Symbol, sp.Number)):
                    continue
                if any(sub.has(n) for n, _ in names):
                    continue
                w = width(tex(sub))
                if best_w < w <= 0.95 * whole:
                    best, best_w = sub, w
        if best is None or best_w < 6:
            break
        indices = _bound_in(target, best)
        if indices:  # g(u, v): the piece depends on the indices of the sums around it
            name = sp.Function(f"g_{sum(1 for n, _ in names if not isinstance(n, sp.Symbol)) + 1}")(*indices)
        else:
            name = next(fresh)
            _GIVEN.add(name)
        names.append((name, best))
        exprs = [e.xreplace({best: name}) for e in exprs]
    return exprs, names


def _bound_in(target: sp.Basic, sub: sp.Basic) -> list:
    """The indices of the sums, products and integrals of ``target`` that ``sub`` uses, in binding order."""
    out: list = []
    for node in sp.preorder_traversal(target):
        if isinstance(node, (sp.Sum, sp.Product, sp.Integral)):
            out += [lim[0] for lim in node.limits if lim[0] in sub.free_symbols and lim[0] not in out]
    return out
