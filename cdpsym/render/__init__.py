"""Rendering: LaTeX derivations and documents, tables, JSON."""

from cdpsym.render.latex import document, statement_latex, tex, theorem_latex

__all__ = ["document", "statement_latex", "tex", "theorem_latex"]
