r"""A checked claim as LaTeX: the statement, then its proof (each step with its rule) or its refutation.

Uses only ``amsmath`` and ``amsthm`` (``claim`` and ``proof`` environments -- declare ``claim`` with
``\newtheorem{claim}{Claim}`` in the preamble -- and ``\paragraph`` for a counterexample); the output is a
snippet to paste or ``\input``.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from cdpsym.mechanisms import Composition, Gaussian, Laplace, RandomizedResponse
from cdpsym.notions import Notion

__all__ = ["claim_latex", "subject_latex", "paper_claim"]

_OPS = {"<=": r"\le", "<": "<", "=": "=", ">=": r"\ge", ">": ">", "!=": r"\ne"}

_NAMES = {"eps": r"\varepsilon", "eps0": r"\varepsilon_0", "eps_p": r"\varepsilon'", "delta": r"\delta",
          "delta0": r"\delta_0", "delta_p": r"\delta'", "Delta": r"\Delta", "lam": r"\lambda"}


def tex(e: Any) -> str:
    """An expression in the field's notation (``\\varepsilon``, ``\\delta'``)."""
    e = sp.sympify(e)
    names = {s: _NAMES[str(s)] for s in e.free_symbols if str(s) in _NAMES}
    return sp.latex(e, symbol_names=names, ln_notation=False)


def subject_latex(obj: Any) -> str:
    from cdpsym.claims.grammar import NotionComposition
    from cdpsym.claims.language import Group

    if isinstance(obj, Notion):
        p = obj.params()
        kind = type(obj).__name__
        if kind == "PureDP":
            return rf"{tex(p['eps'])}\text{{-DP}}"
        if kind == "ApproxDP":
            return rf"({tex(p['eps'])},\ {tex(p['delta'])})\text{{-DP}}"
        if kind == "ZCDP":
            return rf"{tex(p['rho'])}\text{{-zCDP}}"
        if kind == "MeanConcentratedDP":
            return rf"({tex(p['mu'])},\ {tex(p['tau'])})\text{{-CDP}}"
        if kind == "RDP":
            return rf"({tex(p['alpha'])},\ {tex(p['eps'])})\text{{-RDP}}"
        if kind == "TCDP":
            return rf"({tex(p['rho'])},\ {tex(p['omega'])})\text{{-tCDP}}"
    if isinstance(obj, Gaussian):
        return rf"\mathcal{{M}}_{{\mathrm{{Gauss}}}}(\Delta={tex(obj.sensitivity)},\ \sigma={tex(obj.sigma)})"
    if isinstance(obj, Laplace):
        return rf"\mathcal{{M}}_{{\mathrm{{Lap}}}}(\Delta={tex(obj.sensitivity)},\ b={tex(obj.scale)})"
    if isinstance(obj, RandomizedResponse):
        return rf"\mathcal{{M}}_{{\mathrm{{RR}}}}(\varepsilon={tex(obj.eps)})"
    if isinstance(obj, Composition):
        parts = [subject_latex(b) + (rf"^{{\otimes {tex(c)}}}" if c != 1 else "") for b, c in obj.groups]
        return r" \otimes ".join(parts)
    if isinstance(obj, NotionComposition):
        inner = r",\ ".join(subject_latex(p) for p in obj.parts)
        return rf"\text{{$k$-fold adaptive composition of }}{inner}\ (k={tex(obj.k)})"
    if isinstance(obj, Group):
        return rf"\text{{group of size }}{tex(obj.size)}\text{{ of }}{subject_latex(obj.subject)}"
    return tex(obj)


_PAPER_SUFFIX = {"PureDP": "DP", "ApproxDP": "DP", "ZCDP": "zCDP", "MeanConcentratedDP": "CDP", "RDP": "RDP",
                 "TCDP": "tCDP"}


def paper_claim(subject: Any, target: Any, constraints: tuple = ()) -> str:
    """``subject implies/is target`` in the claim language's paper form, every parameter LaTeX in dollars
    (``$\\rho$-zCDP implies $(2 \\sqrt{\\rho} ..., \\delta)$-DP``): what a paper would write, and text the
    claim parser reads back (a test parses every generated statement back to the statement)."""
    verb = "implies" if isinstance(subject, Notion) else "is"
    text = f"{paper_subject(subject)} {verb} {paper_subject(target)}"
    if constraints:
        text += " FOR " + ", ".join(f"${tex(v)} {_OPS[op]} {tex(bound)}$" for v, op, bound in constraints)
    return text


def statement_constraints(theorem, subject: Any, target: Any) -> tuple:
    """The theorem's restrictions of its parameters beyond the claim language's default domains, as
    ``(variable, op, bound)`` (``mu <= tau^2/2`` for ``zcdp_of_cdp``): part of what the statement says."""
    from cdpsym.claims.language import DEFAULT_DOMAINS, _expressions

    used = set().union(*(sp.sympify(e).free_symbols for e in _expressions(subject) + _expressions(target)))
    out = []
    for v, dom in theorem.variables.items():
        default = DEFAULT_DOMAINS.get(v)
        if v not in used or default is None:
            continue
        if dom.lo != default.lo or dom.left_open != default.left_open:
            if dom.lo is not sp.S.NegativeInfinity:
                out.append((v, ">" if dom.left_open else ">=", dom.lo))
        if dom.hi != default.hi or dom.right_open != default.right_open:
            if dom.hi is not sp.S.Infinity:
                out.append((v, "<" if dom.right_open else "<=", dom.hi))
    return tuple(out)


def paper_subject(obj: Any) -> str:
    from cdpsym.claims.grammar import NotionComposition
    from cdpsym.claims.language import Group

    if isinstance(obj, Notion):
        values = list(obj.params().values())
        inner = tex(values[0]) if len(values) == 1 else "(" + ", ".join(tex(v) for v in values) + ")"
        return f"${inner}$-{_PAPER_SUFFIX[type(obj).__name__]}"
    if isinstance(obj, (Gaussian, Laplace, RandomizedResponse)):
        args = ", ".join(f"{name}=${tex(value)}$" for name, value in obj.parameters.items())
        return f"{type(obj).__name__}({args})"
    if isinstance(obj, NotionComposition):
        return f"compose(k=${tex(obj.k)}$, {', '.join(paper_subject(p) for p in obj.parts)})"
    if isinstance(obj, Group):
        return f"group(size=${tex(obj.size)}$, {paper_subject(obj.subject)})"
    if isinstance(obj, Composition):
        return "compose(" + ", ".join(f"compose({paper_subject(b)}, k=${tex(c)}$)" for b, c in obj.groups) + ")"
    raise TypeError(f"no paper form for {type(obj).__name__}")


def _domains(claim) -> str:
    parts = []
    for v, d in claim.domains.items():
        parts.append(d.latex(v, _NAMES.get(str(v), sp.latex(v))))
    return ",\\ ".join(parts)


def _statement(claim) -> str:
    if claim.kind == "relation":
        body = r" \quad\text{and}\quad ".join(f"{tex(a)} {_OPS[op]} {tex(b)}" for a, op, b in claim.relations)
    else:
        verb = r"\implies" if isinstance(claim.subject, Notion) else r"\text{ is }"
        body = f"{subject_latex(claim.subject)} {verb} {subject_latex(claim.target)}"
    where = _domains(claim)
    return rf"\[ {body} \]" + (rf" for all ${where}$." if where else ".")


def _ball(text: object) -> str:
    """An Arb ball ``[m +/- r]`` as ``m \\pm r`` (exponents as powers of ten)."""
    import re

    out = str(text).strip("[]").replace("+/-", r"\pm")
    return re.sub(r"e([+-]?\d+)", lambda m: r"\cdot 10^{%d}" % int(m.group(1)), out)


def _tt(text: str) -> str:
    return text.replace("\\", r"\textbackslash{}").replace("_", r"\_").replace("^", r"\^{}").replace("$", r"\$")


def _justification(step: dict) -> str:
    """The kernel rule that closed an obligation, as a referee reads it (cuts, derivatives, boxes)."""
    from cdpsym.render.latex import justification_latex

    theorem = step.get("theorem")
    try:
        return justification_latex(theorem.parts[0].proof.steps[0].why)
    except (AttributeError, IndexError, TypeError):
        return r"\text{%s}" % step["rule"].replace("_", r"\_")


def claim_latex(result) -> str:
    """The claim, and its proof (a proved/certified claim) or refutation, as a LaTeX snippet."""
    claim = result.parsed
    if claim is None:
        return "% not a claim: " + result.message.replace("\n", " ")
    lines = [r"\begin{claim}", _statement(claim), r"\end{claim}"]
    if result.verdict in ("proved", "certified"):
        lines.append(r"\begin{proof}")
        if result.theorems_used:
            cited = ", ".join(rf"\texttt{{{t.replace('_', chr(92) + '_')}}}" for t in result.theorems_used)
            lines.append(rf"By the library theorem(s) {cited}, checked by the kernel, and the definitions of the "
                         r"notions, the claim follows from the inequalities below.")
        if result.steps:
            lines.append(r"\begin{align*}")
            rows = []
            for s in result.steps:
                why = s["why"].replace("_", r"\_").replace("^", r"\^{}")
                rows.append(rf"{tex(s['lhs'])} &{_OPS[s['op']]} {tex(s['rhs'])} "
                            rf"&& {_justification(s)} \text{{ ({why})}}")
            lines.append(" \\\\\n".join(rows))
            lines.append(r"\end{align*}")
        lines.append(rf"Each line is closed by the kernel rule named ({result.verdict}).")
        lines.append(r"\end{proof}")
    elif result.verdict == "refuted":
        ce = result.counterexample or {}
        params = ", ".join(f"${_NAMES.get(k, k)} = {v}$" for k, v in ce.get("parameters", {}).items())
        lines.append(r"\paragraph{Counterexample.}")
        if params:
            lines.append(f"Take {params}.")
        if ce.get("witness"):
            what = ce.get('claimed', '').split(' <=')[0].replace("_", r"\_")
            lines.append(rf"The mechanism \texttt{{{_tt(ce['witness'])}}} satisfies the hypothesis, but "
                         rf"its {what} is ${_ball(ce.get('actual'))}$, "
                         rf"exceeding ${_ball(ce.get('bound'))}$ (certified ball arithmetic).")
        else:
            lines.append(rf"There the left side is ${_ball(ce.get('lhs'))}$ and the right side "
                         rf"${_ball(ce.get('rhs'))}$ (certified ball arithmetic).")

    else:
        lines.append(rf"% {result.verdict}: {result.message}")
    return "\n".join(lines)
