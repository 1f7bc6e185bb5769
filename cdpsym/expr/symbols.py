"""Canonical symbols with their sympy assumptions.

Every layer of cdpsym uses these objects, so that ``eps`` in a mechanism, a
theorem and a claim is the same sympy symbol.  The assumptions are the ones
sympy can carry (positive, real, integer); finer domains such as
``alpha > 1`` or ``0 < delta < 1`` live in :mod:`cdpsym.expr.domains`.
"""

from __future__ import annotations

import sympy as sp

__all__ = [
    "eps", "eps0", "eps_p", "delta", "delta0", "delta_p", "rho", "xi", "sigma",
    "sensitivity", "alpha", "k", "i", "mu", "nu", "tau", "omega", "lam", "t", "s",
    "a", "b", "r", "p", "q", "u", "x", "y", "z", "L", "R", "X", "Y", "m",
    "LATEX_NAMES", "symbol_by_name", "declare_random", "is_random_symbol", "NOTATION", "describe",
    "sequence", "is_sequence",
]

eps = sp.Symbol("eps", positive=True)
eps0 = sp.Symbol("eps0", positive=True)
eps_p = sp.Symbol("eps_p", positive=True)
delta = sp.Symbol("delta", positive=True)
delta0 = sp.Symbol("delta0", nonnegative=True)
delta_p = sp.Symbol("delta_p", positive=True)
rho = sp.Symbol("rho", positive=True)
xi = sp.Symbol("xi", nonnegative=True)
sigma = sp.Symbol("sigma", positive=True)
sensitivity = sp.Symbol("Delta", positive=True)
alpha = sp.Symbol("alpha", positive=True)
k = sp.Symbol("k", positive=True, integer=True)
i = sp.Symbol("i", nonnegative=True, integer=True)
mu = sp.Symbol("mu", real=True)
nu = sp.Symbol("nu", real=True)
tau = sp.Symbol("tau", positive=True)
omega = sp.Symbol("omega", positive=True)
lam = sp.Symbol("lam", real=True)
t = sp.Symbol("t", positive=True)
s = sp.Symbol("s", positive=True)
a = sp.Symbol("a", real=True)
b = sp.Symbol("b", real=True)
r = sp.Symbol("r", nonnegative=True)
p = sp.Symbol("p", positive=True)
q = sp.Symbol("q", positive=True)
u = sp.Symbol("u", real=True)
m = sp.Symbol("m", real=True)
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", real=True)
z = sp.Symbol("z", real=True)
# Random variables are plain real symbols; they only ever appear inside the
# opaque operators of :mod:`cdpsym.expr.operators` (E[.], Pr[.]).
L = sp.Symbol("L", real=True)
X = sp.Symbol("X", real=True)
Y = sp.Symbol("Y", real=True)

#: The likelihood ratio q(Y)/p(Y) of the pair at an output Y ~ P (0 where q vanishes): a non-negative real at every
#: outcome, also where the privacy loss is +oo (an (ε, δ)-DP pair may put mass where Q has none).  Its sign is its
#: definition (a ratio of densities), part of the kernel's typing like L's reality; no other random symbol may
#: carry an assumption (``declare_random``).
R = sp.Symbol("R", nonnegative=True)

_RANDOM: set = {L, X, Y, R}


#: what each shared object means, in a paper's words: written once, next to the object's definition, and read by
#: the Notation section of generated documents (:func:`cdpsym.render.latex.document`).  Keyed as the renderer
#: finds objects in expressions: a symbol's name, an undefined function's name with "()", a class's name.
NOTATION: dict[str, tuple[int, str]] = {}


def describe(obj: object, text: str, rank: int = 50) -> None:
    """Record the Notation entry of ``obj`` (a symbol, an undefined function, an operator class); ``rank`` orders
    the entries of a document (the pair first, the composition's objects next, the divergences last)."""
    if isinstance(obj, sp.Symbol):
        key = obj.name
    elif isinstance(obj, type) and issubclass(obj, sp.core.function.AppliedUndef):
        key = obj.__name__ + "()"
    elif isinstance(obj, type):
        key = obj.__name__
    else:
        raise TypeError(f"cannot describe {obj!r}")
    NOTATION[key] = (rank, text)


describe(Y, r"$Y \sim P$ is the output of the mechanism on $x$", 2)
describe(L, r"$L = \log\frac{p(Y)}{q(Y)}$, $Y \sim P$, is the privacy loss random variable of the pair $(P, Q)$", 3)
describe(R, r"$R = q(Y)/p(Y)$, $Y \sim P$, is the likelihood ratio of the pair $(P, Q)$ (0 where $q(Y) = 0$)", 3)


def declare_random(*symbols: sp.Symbol) -> None:
    """Mark symbols as random variables: a fact's variable that is *not* random stands for a number, and the
    kernel refuses to instantiate it with a random quantity (``b := exp(Z)`` in E[aX + b] = aE[X] + b).

    A random variable is a plain real symbol: it needs no declaration in a scope, so an assumption such as
    ``positive=True`` would be one no domain checks (``0 < Z`` would hold by sympy's reading alone)."""
    for s in symbols:
        if not isinstance(s, sp.Symbol) or s != sp.Symbol(s.name, real=True):
            raise ValueError(f"a random variable is a Symbol made real=True and nothing more, got {s!r} "
                             f"({getattr(s, 'assumptions0', {})})")
    _RANDOM.update(symbols)


_SEQUENCES: set = set()


def sequence(name: str, tex: str) -> sp.FunctionClass:
    """A sequence of real **numbers** ``name(i)``, printed ``tex_i`` (the per-step parameters ε_i, ρ_i, τ_i of a
    heterogeneous statement).  An undefined function is a random sequence to the kernel (``C(i)``); one made here
    is deterministic: its terms are numbers, which a proof must treat as arbitrary reals."""
    for old in _SEQUENCES:  # one sequence per name: the checks give its terms by name
        if old.__name__ == name:
            return old
    f = sp.Function(name, real=True,
                    _latex=lambda self, printer, exp=None: (r"%s_{%s}" % (tex, printer._print(self.args[0]))
                                                            + (f"^{{{exp}}}" if exp else "")))
    _SEQUENCES.add(f)
    return f


def is_sequence(func: object) -> bool:
    """Was ``func`` made by :func:`sequence` (a deterministic sequence of real numbers)?"""
    return func in _SEQUENCES


def is_random_symbol(s: sp.Basic) -> bool:
    from cdpsym.expr.operators import P, Q

    return s in _RANDOM or s in (P, Q)


LATEX_NAMES: dict[sp.Symbol, str] = {
    eps: r"\varepsilon",
    eps0: r"\varepsilon_0",
    eps_p: r"\varepsilon'",
    delta: r"\delta",
    delta0: r"\delta_0",
    delta_p: r"\delta'",
    rho: r"\rho",
    xi: r"\xi",
    sigma: r"\sigma",
    sensitivity: r"\Delta",
    alpha: r"\alpha",
    lam: r"\lambda",
    mu: r"\mu",
    nu: r"\nu",
    tau: r"\tau",
    omega: r"\omega",
}

_BY_NAME = {str(sym): sym for sym in (
    eps, eps0, eps_p, delta, delta0, delta_p, rho, xi, sigma, sensitivity, alpha, k, i,
    mu, nu, tau, omega, lam, t, s, a, b, r, p, q, u, m, x, y, z, L, X, Y)}
_BY_NAME["sensitivity"] = sensitivity


def symbol_by_name(name: str) -> sp.Symbol:
    """The canonical symbol called *name* (``"eps"``, ``"sensitivity"`` …)."""
    from cdpsym.errors import UnknownName

    try:
        return _BY_NAME[name]
    except KeyError:
        raise UnknownName(f"unknown symbol {name!r}; known: {', '.join(sorted(_BY_NAME))}") from None
