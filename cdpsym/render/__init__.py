"""Rendering: LaTeX derivations and documents, tables, JSON.

Importing this layer attaches the LaTeX conveniences to :class:`~cdpsym.proof.Theorem`
(``theorem.latex()``, ``_repr_latex_`` for Jupyter): the proof layer below stays plain data.
"""

from cdpsym.proof.theorem import Theorem
from cdpsym.render.latex import document, statement_latex, tex, theorem_latex


def _latex(self: Theorem, standalone: bool = False) -> str:
    """The derivation as LaTeX (``align*``, one checked step per line); ``standalone`` for a whole document."""
    return theorem_latex(self, standalone=standalone)


def _repr_latex_(self: Theorem) -> str:
    return "$\\displaystyle " + statement_latex(self) + "$"


Theorem.latex = _latex
Theorem._repr_latex_ = _repr_latex_

__all__ = ["document", "statement_latex", "tex", "theorem_latex"]
