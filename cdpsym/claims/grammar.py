r"""The subjects of the claim language: mechanisms and privacy notions, parsed safely.

:func:`parse_subject` turns the text of a subject (DESIGN.md, "The claim
language") into the value object it names — a mechanism from
:mod:`cdpsym.mechanisms` or a notion from :mod:`cdpsym.notions` — through a
lark grammar that shares its arithmetic with :mod:`cdpsym.expr.parse`
(nothing is ever ``eval``-ed or ``sympify``-ed).

>>> parse_subject("Gaussian(sensitivity=1, sigma=2)")
Gaussian(sensitivity=1, sigma=2)
>>> parse_subject("compose(k=1000, Gaussian(1, 2))")
compose(Gaussian(sensitivity=1, sigma=2), k=1000)
>>> parse_subject("(1, 1e-5)-DP")
ApproxDP(eps=1, delta=1/100000)
>>> parse_subject("rho-zCDP")
ZCDP(rho=rho)
>>> parse_subject("Gaussian(sensitivity=1, sigma=-2)")
Traceback (most recent call last):
...
cdpsym.expr.parse.OutOfDomain: Gaussian(...) at column 25: sigma must be positive, got sigma=-2

Syntax (``E`` is a plain arithmetic expression, see :mod:`cdpsym.expr.parse`):

============================================  =============================================
mechanisms                                    ``Gaussian(sensitivity=E, sigma=E)``,
                                              ``Laplace(sensitivity=E, scale=E)``,
                                              ``RandomizedResponse(eps=E)``
compositions                                  ``compose(k=E, S)``, ``compose(S, k=E)``,
                                              ``compose(S, S, ...)`` (``k`` a positive
                                              integer ≤ 10^9, or a symbol such as ``k``)
notions                                       ``DP(eps=E)``, ``DP(eps=E, delta=E)``,
                                              ``zCDP(rho=E)``, ``CDP(mu=E, tau=E)``,
                                              ``RDP(alpha=E, eps=E)``, ``tCDP(rho=E, omega=E)``
                                              and the class names (``PureDP``, ``ApproxDP``,
                                              ``ZCDP``, ``MeanConcentratedDP``, ``TCDP``)
paper forms                                   ``E-DP``, ``(E, E)-DP``, ``E-zCDP``,
                                              ``(E, E)-CDP``, ``(E, E)-RDP``, ``(E, E)-tCDP``
============================================  =============================================

Arguments may be positional, in the order above (``Gaussian(1, 2)``,
``DP(1, 1e-5)``), then keyword, as in Python; keywords also have their Greek
spelling (``σ=2``, ``ε=1``).  The repr of every mechanism and notion parses
back to an equal object.  A composition whose parts include a notion is a
:class:`NotionComposition` ("every k-fold adaptive composition of ε-DP
mechanisms").  Symbols in ``E`` are the canonical ones
(:data:`~cdpsym.expr.parse.CANONICAL_SYMBOLS`) unless *symbols* says
otherwise (``symbols=None``: numbers only).

Errors are :class:`~cdpsym.expr.parse.ParseError` with the column; a value
outside its domain is :class:`~cdpsym.expr.parse.OutOfDomain` (also an
:class:`~cdpsym.errors.InvalidParameter`) carrying the constructor's message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Union

import sympy as sp
from lark import Token, Tree

from cdpsym.errors import InvalidParameter
from cdpsym.expr.parse import (CANONICAL_SYMBOLS, EXPRESSION_RULES, ExpressionBuilder, OutOfDomain, parse_tree,
                               shorten)
from cdpsym.mechanisms import Composition, Gaussian, Laplace, RandomizedResponse, compose
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, Notion, PureDP

__all__ = ["parse_subject", "NotionComposition", "Subject", "MAX_K", "SUBJECT_GRAMMAR"]

#: the largest literal composition count
MAX_K = 10 ** 9

Mechanism = Union[Gaussian, Laplace, RandomizedResponse, Composition]


@dataclass(frozen=True, repr=False)
class NotionComposition:
    """``compose(k=k, DP(eps))``: every k-fold adaptive composition of mechanisms with those guarantees.

    ``parts`` are notions (or mechanisms, at least one part being a notion),
    run in order, the whole sequence repeated ``k`` times.

    >>> NotionComposition((PureDP(eps=1),), sp.Integer(10))
    compose(PureDP(eps=1), k=10)
    """

    parts: tuple[Union[Notion, Mechanism], ...]
    k: sp.Expr = sp.Integer(1)

    def __repr__(self) -> str:
        inner = ", ".join(repr(p) for p in self.parts)
        return f"compose({inner})" if self.k == 1 else f"compose({inner}, k={self.k})"


Subject = Union[Mechanism, Notion, NotionComposition]

SUBJECT_GRAMMAR = r"""
start: subject
?subject: expr
        | paper
?paper: expr SUFFIX -> paper_single
      | "(" expr "," expr ")" SUFFIX -> paper_pair
arglist: arg ("," arg)*
?arg: expr | paper | kwarg
kwarg: NAME "=" expr
SUFFIX.2: /-[ \t]*(?:zCDP|tCDP|CDP|RDP|DP)(?!\w)/
""" + EXPRESSION_RULES


# -- the vocabulary --------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Signature:
    """A constructor and its parameters, in positional order (``optional`` may be omitted)."""

    build: Callable[..., Any]
    params: tuple[str, ...]
    optional: tuple[str, ...] = ()
    kind: str = "mechanism"


def _dp(eps: sp.Expr, delta: sp.Expr | None = None) -> Notion:
    return PureDP(eps=eps) if delta is None else ApproxDP(eps=eps, delta=delta)


_ZCDP = _Signature(ZCDP, ("rho",), kind="notion")
_CDP = _Signature(MeanConcentratedDP, ("mu", "tau"), kind="notion")
_TCDP = _Signature(TCDP, ("rho", "omega"), kind="notion")

#: callable names of the subject language
SIGNATURES: dict[str, _Signature] = {
    "Gaussian": _Signature(Gaussian, ("sensitivity", "sigma")),
    "Laplace": _Signature(Laplace, ("sensitivity", "scale")),
    "RandomizedResponse": _Signature(RandomizedResponse, ("eps",)),
    "DP": _Signature(_dp, ("eps", "delta"), optional=("delta",), kind="notion"),
    "PureDP": _Signature(PureDP, ("eps",), kind="notion"),
    "ApproxDP": _Signature(ApproxDP, ("eps", "delta"), kind="notion"),
    "zCDP": _ZCDP,
    "ZCDP": _ZCDP,
    "CDP": _CDP,
    "MeanConcentratedDP": _CDP,
    "RDP": _Signature(RDP, ("alpha", "eps"), kind="notion"),
    "tCDP": _TCDP,
    "TCDP": _TCDP,
}

#: other spellings of keyword arguments
KEYWORD_ALIASES = {
    "Delta": "sensitivity", "Δ": "sensitivity", "σ": "sigma", "b": "scale", "epsilon": "eps", "ε": "eps",
    "δ": "delta", "ρ": "rho", "μ": "mu", "τ": "tau", "α": "alpha", "ω": "omega",
}

#: paper suffix -> (one-parameter signature or None, two-parameter signature or None)
PAPER_FORMS: dict[str, tuple[_Signature | None, _Signature | None]] = {
    "DP": (SIGNATURES["PureDP"], SIGNATURES["ApproxDP"]),
    "zCDP": (_ZCDP, None),
    "CDP": (None, _CDP),
    "RDP": (None, SIGNATURES["RDP"]),
    "tCDP": (None, _TCDP),
}

_EXPECTED_SUBJECT = ("a mechanism (Gaussian(...), Laplace(...), RandomizedResponse(...), compose(...)) "
                     "or a notion (DP(...), zCDP(...), CDP(...), RDP(...), tCDP(...), 0.5-zCDP, (1, 1e-6)-DP)")


# -- the builder ---------------------------------------------------------------------------------------------

class SubjectBuilder(ExpressionBuilder):
    """Builds mechanisms and notions; their numeric arguments go through :class:`ExpressionBuilder`."""

    def __init__(self, text: str, symbols: Mapping[str, sp.Basic] | None = None,
                 max_seconds: float | None = None) -> None:
        super().__init__(text, symbols, max_seconds)
        #: id(built object) -> {parameter: 0-based offset of its argument in the text}
        self.located: dict[int, dict[str, int | None]] = {}

    def subject(self, node: Any) -> Subject:
        if isinstance(node, Tree):
            if node.data == "start":
                return self.subject(node.children[0])
            if node.data == "paper_single":
                return self.paper(node, node.children[:1], node.children[1])
            if node.data == "paper_pair":
                return self.paper(node, node.children[:2], node.children[2])
            if node.data == "call":
                name = str(node.children[0])
                if name == "compose":
                    return self.compose(node)
                if name == "group":
                    raise self.error("group(...) is part of the claim language but not implemented yet",
                                     node.children[0])
                if name in SIGNATURES:
                    return self.construct(name, node)
        raise self.error(f"expected {_EXPECTED_SUBJECT}, got {self.snippet(node)!r}", node)

    # -- expressions that are really subjects --------------------------------------------------------------
    def _node_call(self, node: Tree) -> sp.Expr:
        name = str(node.children[0])
        if name in SIGNATURES or name in ("compose", "group"):
            kind = SIGNATURES[name].kind if name in SIGNATURES else "mechanism"
            raise self.error(f"{name}(...) is a {kind}, not a number", node)
        return super()._node_call(node)

    def misplaced(self, node: Tree) -> str:
        if node.data in ("paper_single", "paper_pair"):
            return f"{self.snippet(node)} is a notion, not a number"
        return super().misplaced(node)

    # -- notions in paper form ---------------------------------------------------------------------------------
    def paper(self, node: Tree, values: list[Any], suffix: Token) -> Notion:
        notion = str(suffix).lstrip("-").strip()
        single, pair = PAPER_FORMS[notion]
        signature = single if len(values) == 1 else pair
        if signature is None:
            if single is not None:
                raise self.error(f"{notion} takes one parameter: write E-{notion}", suffix)
            names = ", ".join(pair.params) if pair else ""
            raise self.error(f"{notion} takes two parameters: write ({names})-{notion}", suffix)
        bound = {name: (self.expression(v), v) for name, v in zip(signature.params, values)}
        return self.instantiate(self.snippet(node), signature, bound, node)

    # -- calls -------------------------------------------------------------------------------------------------
    def bind(self, name: str, params: tuple[str, ...], arglist: Tree | None) -> dict[str, tuple[Any, Any]]:
        """Python-style binding of positional, then keyword, arguments to *params*: name -> (node, where)."""
        bound: dict[str, tuple[Any, Any]] = {}
        seen_keyword = False
        args = self.arguments(arglist)
        for index, arg in enumerate(args):
            if isinstance(arg, Tree) and arg.data == "kwarg":
                seen_keyword = True
                key_token, value = arg.children
                key = KEYWORD_ALIASES.get(str(key_token), str(key_token))
                if key not in params:
                    raise self.error(f"{name}(...) has no parameter {shorten(str(key_token))!r} "
                                     f"(its parameters: {', '.join(params)})", key_token)
                if key in bound:
                    raise self.error(f"{name}(...) got {key} twice", key_token)
                bound[key] = (value, arg)
            else:
                if seen_keyword:
                    raise self.error(f"positional argument after keyword arguments in {name}(...)", arg)
                if index >= len(params):
                    raise self.error(f"{name}(...) takes at most {len(params)} argument"
                                     f"{'s' if len(params) > 1 else ''} ({', '.join(params)}), got {len(args)}",
                                     arg)
                bound[params[index]] = (arg, arg)
        return bound

    def construct(self, name: str, node: Tree) -> Subject:
        signature = SIGNATURES[name]
        bound = self.bind(name, signature.params, node.children[1])
        missing = [p for p in signature.params if p not in bound and p not in signature.optional]
        if missing:
            raise self.error(f"{name}(...) is missing {' and '.join(missing)}", node)
        values = {}
        for param, (value_node, where) in bound.items():
            if isinstance(value_node, Tree) and value_node.data in ("paper_single", "paper_pair"):
                raise self.error(f"{param} of {name}(...) must be a number, got the notion "
                                 f"{self.snippet(value_node)!r}", value_node)
            values[param] = (self.expression(value_node), where)
        return self.instantiate(f"{name}(...)", signature, values, node)

    def instantiate(self, label: str, signature: _Signature, values: Mapping[str, tuple[sp.Expr, Any]],
                    node: Any) -> Any:
        """Call the constructor; its :class:`InvalidParameter` message goes through, prefixed with where.

        The 0-based offsets of the arguments are recorded in :attr:`located` (keyed by the result's id).
        """
        try:
            result = signature.build(**{p: v for p, (v, _) in values.items()})
        except InvalidParameter as exc:
            message = _abbreviate(str(exc))
            where = node
            for param, (_, at) in values.items():
                if message.startswith(f"{param} "):
                    where = at
                    break
            pos = where.start_pos if isinstance(where, Token) else (
                where.meta.start_pos if isinstance(where, Tree) and not where.meta.empty else None)
            column = f" at column {pos + 1}" if pos is not None else ""
            raise OutOfDomain(f"{label}{column}: {message}", text=self.text, position=pos) from None
        self.located[id(result)] = {p: _position(at) for p, (_, at) in values.items()}
        return result

    def compose(self, node: Tree) -> Subject:
        parts: list[Subject] = []
        k: sp.Expr | None = None
        for arg in self.arguments(node.children[1]):
            if isinstance(arg, Tree) and arg.data == "kwarg":
                key_token, value_node = arg.children
                if str(key_token) != "k":
                    raise self.error(f"compose(...) takes mechanisms or notions and k=..., "
                                     f"not {shorten(str(key_token))}=...", key_token)
                if k is not None:
                    raise self.error("compose(...) got k twice", key_token)
                k = self.count(value_node)
            else:
                parts.append(self.subject_argument(arg))
        if not parts:
            raise self.error("compose(...) needs at least one mechanism or notion", node)
        k = sp.Integer(1) if k is None else k
        if all(isinstance(p, (Gaussian, Laplace, RandomizedResponse, Composition)) for p in parts):
            try:
                return compose(*parts, k=k)  # type: ignore[arg-type]
            except InvalidParameter as exc:
                raise OutOfDomain(f"compose(...) at column {_col(node)}: {_abbreviate(str(exc))}", text=self.text,
                                  position=node.meta.start_pos) from None
        return NotionComposition(tuple(parts), k)

    def subject_argument(self, arg: Any) -> Subject:
        is_subject = isinstance(arg, Tree) and (
            arg.data in ("paper_single", "paper_pair")
            or (arg.data == "call" and (str(arg.children[0]) in SIGNATURES
                                        or str(arg.children[0]) in ("compose", "group"))))
        if not is_subject:
            raise self.error(f"compose(...) takes mechanisms or notions, and k=... by keyword; "
                             f"got {self.snippet(arg)!r}", arg)
        return self.subject(arg)

    def count(self, node: Any) -> sp.Expr:
        """``k``: a positive integer at most :data:`MAX_K`, or a symbolic positive integer (``k``, ``2*k``)."""
        value = self.expression(node)
        if value.is_number:
            if not (value.is_Integer and 1 <= value <= MAX_K):
                raise self.error(f"k must be a positive integer at most 10^9, got k={shorten(str(value))}", node,
                                 OutOfDomain)
        elif not (value.is_integer and value.is_positive):
            raise self.error(f"k must be a positive integer, got k={shorten(str(value))}", node, OutOfDomain)
        return value


def _col(node: Tree) -> int:
    return (node.meta.start_pos if not node.meta.empty else 0) + 1


def _position(where: Any) -> int | None:
    if isinstance(where, Token):
        return where.start_pos
    if isinstance(where, Tree) and not where.meta.empty:
        return where.meta.start_pos
    return None


def _abbreviate(message: str, limit: int = 60) -> str:
    """A constructor's message with every space-free run longer than *limit* cut (``sigma=-10000…``)."""
    return " ".join(shorten(word, limit) for word in message.split(" "))


def parse_subject(text: str, *, symbols: Mapping[str, sp.Basic] | None = CANONICAL_SYMBOLS,
                  where: dict[str, int | None] | None = None) -> Subject:
    """The mechanism or notion that *text* names (see the module docstring for the syntax).

    *where*, if given, receives the 0-based offsets of the outermost subject's arguments, so that a
    later error about one of them can point at it:

    >>> offsets = {}
    >>> parse_subject("zCDP(rho=1/2)", where=offsets), offsets
    (ZCDP(rho=1/2), {'rho': 5})

    >>> parse_subject("compose(RandomizedResponse(eps=1/10), k=1000)")
    compose(RandomizedResponse(eps=1/10), k=1000)
    >>> parse_subject("compose(k=k, DP(eps))")
    compose(PureDP(eps=eps), k=k)
    >>> parse_subject("Gaussian(1, 2, 3)")
    Traceback (most recent call last):
    ...
    cdpsym.expr.parse.ParseError: Gaussian(...) takes at most 2 arguments (sensitivity, sigma), got 3 at column 16
    """
    tree = parse_tree(text, SUBJECT_GRAMMAR)
    builder = SubjectBuilder(text, symbols)
    subject = builder.subject(tree)
    if where is not None:
        where.update(builder.located.get(id(subject), {}))
    return subject
