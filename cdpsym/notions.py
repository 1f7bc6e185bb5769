"""Privacy notions as value objects that print themselves.

>>> from cdpsym.notions import ZCDP, ApproxDP
>>> ZCDP(rho=0.5)
ZCDP(rho=0.5)
>>> import sympy as sp
>>> ApproxDP(eps=1, delta=sp.Rational(1, 10**6)).latex()
'(1, \\\\frac{1}{1000000})\\\\text{-DP}'

Parameters may be numbers or sympy expressions.  Validation follows
sympy's ``_value_check``: a symbolic parameter is accepted unless it is
*definitely* outside its domain (``ZCDP(rho=-1)`` raises; ``ZCDP(rho=rho)``
with ``rho`` positive is fine).

| class | notion | REFERENCE |
| --- | --- | --- |
| :class:`PureDP` | ε-DP | R-A5 |
| :class:`ApproxDP` | (ε, δ)-DP | R-A6 |
| :class:`ZCDP` | ρ-zCDP (Bun–Steinke) | R-A9 |
| :class:`MeanConcentratedDP` | (μ, τ)-CDP (Dwork–Rothblum) | R-A8 |
| :class:`RDP` | (α, ε)-RDP (Mironov) | R-A10 |
| :class:`TCDP` | (ρ, ω)-tCDP | R-A11 |
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import sympy as sp

from cdpsym.expr.domains import Interval, as_expr, at_least, greater_than, nonnegative, positive

__all__ = ["Notion", "PureDP", "ApproxDP", "ZCDP", "MeanConcentratedDP", "RDP", "TCDP"]


def _show(v: sp.Expr) -> str:
    if isinstance(v, sp.Float):
        return repr(float(v))
    return str(v)


class Notion:
    """Base class: frozen value objects with validated sympy parameters."""

    _domains: dict[str, Interval] = {}
    _latex_template = ""

    def __post_init__(self) -> None:
        for f in fields(self):  # type: ignore[arg-type]
            value = getattr(self, f.name)
            dom = self._domains.get(f.name)
            v = dom.require(f.name, value) if dom is not None else as_expr(value)
            object.__setattr__(self, f.name, v)

    def __repr__(self) -> str:
        args = ", ".join(f"{f.name}={_show(getattr(self, f.name))}" for f in fields(self))  # type: ignore[arg-type]
        return f"{type(self).__name__}({args})"

    def params(self) -> dict[str, sp.Expr]:
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]

    def latex(self) -> str:
        from cdpsym.render.latex import tex

        return self._latex_template.format(**{k: tex(v) for k, v in self.params().items()})

    def _latex(self, printer=None) -> str:  # sympy printer hook
        return self.latex()

    def _repr_latex_(self) -> str:
        return f"${self.latex()}$"


@dataclass(frozen=True, repr=False)
class PureDP(Notion):
    """ε-DP: Pr[M(x) ∈ S] ≤ e^ε Pr[M(x') ∈ S] (R-A5)."""

    eps: sp.Expr
    _domains = {"eps": nonnegative()}
    _latex_template = r"{eps}\text{{-DP}}"


@dataclass(frozen=True, repr=False)
class ApproxDP(Notion):
    """(ε, δ)-DP, hockey-stick form δ_{P‖Q}(ε) ≤ δ (R-A6)."""

    eps: sp.Expr
    delta: sp.Expr
    _domains = {"eps": Interval(), "delta": Interval.closed(0, 1)}
    _latex_template = r"({eps}, {delta})\text{{-DP}}"


@dataclass(frozen=True, repr=False)
class ZCDP(Notion):
    """ρ-zCDP: D_α(M(x)‖M(x')) ≤ ρα for all α > 1 (Bun–Steinke, R-A9)."""

    rho: sp.Expr
    _domains = {"rho": nonnegative()}
    _latex_template = r"{rho}\text{{-zCDP}}"


@dataclass(frozen=True, repr=False)
class MeanConcentratedDP(Notion):
    """(μ, τ)-CDP: E L ≤ μ and L − E L τ-subgaussian (Dwork–Rothblum, R-A8)."""

    mu: sp.Expr
    tau: sp.Expr
    _domains = {"mu": nonnegative(), "tau": nonnegative()}
    _latex_template = r"({mu}, {tau})\text{{-CDP}}"


@dataclass(frozen=True, repr=False)
class RDP(Notion):
    """(α, ε)-RDP: D_α(M(x)‖M(x')) ≤ ε (Mironov, R-A10)."""

    alpha: sp.Expr
    eps: sp.Expr
    _domains = {"alpha": at_least(1), "eps": nonnegative()}
    _latex_template = r"({alpha}, {eps})\text{{-RDP}}"


@dataclass(frozen=True, repr=False)
class TCDP(Notion):
    """(ρ, ω)-tCDP: D_α ≤ ρα for α ∈ (1, ω) (BDRS18, R-A11)."""

    rho: sp.Expr
    omega: sp.Expr
    _domains = {"rho": positive(), "omega": greater_than(1)}
    _latex_template = r"({rho}, {omega})\text{{-tCDP}}"
