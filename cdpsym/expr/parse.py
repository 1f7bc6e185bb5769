r"""The safe parser for plain arithmetic: user text to an exact sympy expression.

User text is parsed by a real grammar (lark, LALR) and built node by node
from a whitelist; nothing is ever handed to ``eval``, ``exec``, ``sympify``
or ``parse_expr`` (those execute code).

>>> parse_expression("1e-10") == sp.Rational(1, 10**10)
True
>>> parse_expression("eps*(exp(eps) - 1)/2", symbols=CANONICAL_SYMBOLS)
eps*(exp(eps) - 1)/2
>>> parse_expression("2^-1 + 0.25")
3/4
>>> parse_expression("(1 + 2")
Traceback (most recent call last):
...
cdpsym.expr.parse.ParseError: unexpected end of input at column 7: '(' at column 1 is never closed

What is accepted:

* **numbers**: integers, decimals and scientific notation (``12``, ``0.5``,
  ``.5``, ``1e-10``, ``2.5E+3``), converted *exactly* to sympy rationals
  (``1e-10`` is exactly ``10**-10``, never a float);
* **operators**: ``+ - * /``, powers ``^`` or ``**`` (right-associative, and
  binding tighter than unary minus: ``-2^2 = -4``, ``2^-1 = 1/2``), unary
  ``+``/``-``, parentheses;
* **functions**: ``sqrt log ln exp tanh`` (one argument), ``Phi`` (the
  standard normal CDF), ``erf erfc``, ``min max`` (one or more arguments;
  also sympy's spelling ``Min Max``);
* **constants**: ``pi`` (``π``) and ``e`` (``E``, sympy's spelling);
* **symbols**: only those in the *symbols* mapping, if one is given —
  :data:`CANONICAL_SYMBOLS` maps ``eps``, ``delta``, ``rho``, ``sigma``, ``k``,
  ``alpha`` … and Greek aliases (``ε``, ``δ``, ``ρ`` …) to the canonical
  symbols of :mod:`cdpsym.expr.symbols`.

Limits, so that nothing hangs or eats memory: the input is at most
:data:`MAX_LENGTH` characters, parentheses nest at most :data:`MAX_NESTING`
deep and the expression tree at most :data:`MAX_DEPTH`; every rational in the
result has at most :data:`MAX_DIGITS` digits (so ``10^10^10`` is refused
before it is computed), roots are taken of numbers of at most
:data:`MAX_ROOT_DIGITS` digits, and building the expression may take at most
:data:`MAX_SECONDS`.

Errors are :class:`ParseError` (a :class:`~cdpsym.errors.CdpsymError` and a
``ValueError``) naming what and where, with the 1-based ``column``; a value
outside its domain (``log(0)``, ``sqrt(-1)``, ``1/0``) is
:class:`OutOfDomain`, also an :class:`~cdpsym.errors.InvalidParameter`.
"""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Mapping
from typing import Any

import sympy as sp
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from cdpsym.errors import CdpsymError, InvalidParameter
from cdpsym.expr import symbols as _sym

__all__ = [
    "ParseError", "OutOfDomain", "parse_expression", "parse_number", "parse_rational", "shorten",
    "CANONICAL_SYMBOLS", "FUNCTIONS", "CONSTANTS",
    "MAX_LENGTH", "MAX_NESTING", "MAX_DEPTH", "MAX_DIGITS", "MAX_ROOT_DIGITS", "MAX_EXPONENT", "MAX_SECONDS",
]

#: longest accepted input, in characters
MAX_LENGTH = 2000
#: deepest nesting of parentheses
MAX_NESTING = 50
#: deepest expression tree (unary minus chains, power towers …)
MAX_DEPTH = 100
#: most decimal digits of any numerator or denominator, in the input or the result
MAX_DIGITS = 2000
#: most digits of a number whose root (``sqrt``, ``^(1/3)``) is taken: sympy factors it looking for powers
MAX_ROOT_DIGITS = 300
#: largest power of a number
MAX_EXPONENT = 10000
#: longest time building an expression may take (seconds)
MAX_SECONDS = 2.0


class ParseError(CdpsymError, ValueError):
    """The text is not a valid expression; the message says what and where (1-based ``column``).

    ``position`` is the 0-based offset into ``text`` (``None`` when the error
    is about the whole input, e.g. its length).
    """

    def __init__(self, message: str, *, text: str | None = None, position: int | None = None) -> None:
        # one line whatever the user typed: control characters echoed from the input are escaped
        message = "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in message)
        super().__init__(message)
        self.message = message
        self.text = text
        self.position = position

    @property
    def column(self) -> int | None:
        """1-based column of the error (``position + 1``), or ``None``."""
        return None if self.position is None else self.position + 1

    def pretty(self) -> str:
        """The message, the input and a caret under the error (for multi-line displays)."""
        if self.text is None or self.position is None:
            return self.message
        return f"{self.message}\n  {self.text}\n  {' ' * self.position}^"


class OutOfDomain(ParseError, InvalidParameter):
    """Well-formed text whose value is outside its domain (``log(0)``, ``sigma=-1`` …)."""


# -- vocabulary -----------------------------------------------------------------------------------------

def _phi(x: sp.Expr) -> sp.Expr:
    """The standard normal CDF, ``Φ(x) = erfc(-x/√2)/2`` (as in :mod:`cdpsym.mechanisms.gaussian`)."""
    return sp.erfc(-x / sp.sqrt(2)) / 2


#: name -> (least arity, greatest arity or None, builder)
FUNCTIONS: dict[str, tuple[int, int | None, Callable[..., sp.Expr]]] = {
    "sqrt": (1, 1, sp.sqrt),
    "log": (1, 1, sp.log),
    "ln": (1, 1, sp.log),
    "exp": (1, 1, sp.exp),
    "tanh": (1, 1, sp.tanh),
    "Phi": (1, 1, _phi),
    "erf": (1, 1, sp.erf),
    "erfc": (1, 1, sp.erfc),
    "min": (1, None, sp.Min),
    "max": (1, None, sp.Max),
    "Min": (1, None, sp.Min),
    "Max": (1, None, sp.Max),
}

#: constants by name (they take precedence over symbols of the same name)
CONSTANTS: dict[str, sp.Expr] = {"pi": sp.pi, "π": sp.pi, "e": sp.E, "E": sp.E}


def _canonical_symbols() -> dict[str, sp.Basic]:
    table: dict[str, sp.Basic] = {}
    for name in ("eps", "eps0", "eps_p", "delta", "delta0", "delta_p", "rho", "xi", "sigma", "alpha", "k",
                 "i", "mu", "nu", "tau", "omega", "lam", "t", "s", "a", "b", "r", "p", "q", "u", "m", "x", "y",
                 "z"):
        table[name] = getattr(_sym, name)
    aliases = {
        "epsilon": _sym.eps, "ε": _sym.eps, "varepsilon": _sym.eps, "ε0": _sym.eps0, "epsilon0": _sym.eps0,
        "δ": _sym.delta, "ρ": _sym.rho, "ξ": _sym.xi, "σ": _sym.sigma, "α": _sym.alpha, "μ": _sym.mu,
        "ν": _sym.nu, "τ": _sym.tau, "ω": _sym.omega, "lambda": _sym.lam, "λ": _sym.lam,
        "sensitivity": _sym.sensitivity, "Delta": _sym.sensitivity, "Δ": _sym.sensitivity,
    }
    table.update(aliases)
    return table


#: the canonical symbols of :mod:`cdpsym.expr.symbols` by name, with Greek and spelled-out aliases
CANONICAL_SYMBOLS: Mapping[str, sp.Basic] = _canonical_symbols()


# -- grammar ----------------------------------------------------------------------------------------------

#: the expression rules, shared with the claim grammar (:mod:`cdpsym.claims.grammar`), which adds
#: its own ``arglist`` (keyword arguments, paper-form notions) and start rule
EXPRESSION_RULES = r"""
?expr: sum
?sum: product ((PLUS | MINUS) product)*
?product: unary ((STAR | SLASH) unary)*
?unary: (PLUS | MINUS) unary -> signed
      | power
?power: atom (POW unary)?
?atom: NUMBER -> number
     | NAME -> name
     | NAME "(" [arglist] ")" -> call
     | "(" expr ")"

PLUS: "+"
MINUS: "-"
STAR: "*"
SLASH: "/"
POW: "**" | "^"
NUMBER: /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/
NAME: /[^\W\d]\w*/
%ignore /[ \t\r\n]+/
"""

_PLAIN_GRAMMAR = r"""
start: expr
arglist: arg ("," arg)*
?arg: expr | kwarg
kwarg: NAME "=" expr
""" + EXPRESSION_RULES

#: how lark's terminal names read in a message
_TOKEN_WORDS = {
    "$END": "end of input", "NUMBER": "a number", "NAME": "a name", "LPAR": "'('", "RPAR": "')'",
    "COMMA": "','", "EQUAL": "'='", "PLUS": "'+'", "MINUS": "'-'", "STAR": "'*'", "SLASH": "'/'",
    "POW": "'^'", "SUFFIX": "a notion suffix such as '-DP'",
}


@functools.lru_cache(maxsize=None)
def lark_parser(grammar: str) -> Lark:
    """A (cached) LALR parser for *grammar*, with positions on every node."""
    return Lark(grammar, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def shorten(text: str, limit: int = 40) -> str:
    """*text* cut to at most *limit* characters, with '…' when cut (for echoing user input in messages).

    >>> shorten("x" * 100, 10)
    'xxxxxxxxx…'
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _describe_token(token: Token, text: str) -> str:
    if token.type == "$END":
        return "end of input"
    value = str(token)
    shown = value if len(value) <= 20 else value[:17] + "..."
    return repr(shown)


def check_text(text: object, *, max_length: int = MAX_LENGTH) -> str:
    """Refuse non-strings, over-long input and too deep parentheses before parsing anything."""
    if not isinstance(text, str):
        raise ParseError(f"expected text, got {type(text).__name__}")
    if len(text) > max_length:
        raise ParseError(f"input too long: {len(text)} characters (at most {max_length})")
    if not text.strip():
        raise ParseError("empty input: expected an expression", text=text, position=0)
    depth = 0
    for pos, ch in enumerate(text):
        if ch == "(":
            depth += 1
            if depth > MAX_NESTING:
                raise ParseError(f"parentheses nested more than {MAX_NESTING} deep at column {pos + 1}",
                                 text=text, position=pos)
        elif ch == ")":
            depth = max(0, depth - 1)
    return text


def _unclosed_paren(text: str) -> int | None:
    """Offset of the innermost '(' never closed, if any."""
    stack: list[int] = []
    for pos, ch in enumerate(text):
        if ch == "(":
            stack.append(pos)
        elif ch == ")" and stack:
            stack.pop()
    return stack[-1] if stack else None


def parse_tree(text: str, grammar: str, *, max_length: int = MAX_LENGTH) -> Tree:
    """Parse *text* with *grammar*; lark's errors become :class:`ParseError` with a column."""
    check_text(text, max_length=max_length)
    try:
        tree = lark_parser(grammar).parse(text)
    except UnexpectedCharacters as exc:
        pos = exc.pos_in_stream
        ch = text[pos] if pos is not None and pos < len(text) else ""
        raise ParseError(f"unexpected character {ch!r} at column {exc.column}", text=text,
                         position=pos) from None
    except (UnexpectedToken, UnexpectedEOF) as exc:
        token = getattr(exc, "token", None)
        if token is None or token.type == "$END":
            pos = len(text.rstrip())
            message = f"unexpected end of input at column {pos + 1}"
            open_at = _unclosed_paren(text)
            if open_at is not None:
                message += f": '(' at column {open_at + 1} is never closed"
            raise ParseError(message, text=text, position=pos) from None
        pos = token.start_pos if token.start_pos is not None else 0
        message = f"unexpected {_describe_token(token, text)} at column {pos + 1}"
        expected = sorted({_TOKEN_WORDS.get(t, "") for t in getattr(exc, "expected", ()) or ()} - {""})
        if token.type == "RPAR" and _unclosed_paren(text[:pos]) is None:
            message += " (no '(' to close)"
        elif expected and len(expected) <= 4:
            message += f" (expected {_or(expected)})"
        raise ParseError(message, text=text, position=pos) from None
    except UnexpectedInput as exc:  # pragma: no cover - other lark errors
        pos = getattr(exc, "pos_in_stream", None)
        raise ParseError(f"syntax error at column {(pos or 0) + 1}", text=text, position=pos) from None
    _check_depth(tree, text)
    return tree


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _check_depth(tree: Tree, text: str) -> None:
    """Refuse trees deeper than :data:`MAX_DEPTH` (iteratively: the tree may be very deep)."""
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            pos = _start(node)
            raise ParseError(f"expression nested more than {MAX_DEPTH} levels deep at column {(pos or 0) + 1}",
                             text=text, position=pos)
        if isinstance(node, Tree):
            stack.extend((child, depth + 1) for child in node.children)


def _start(node: Any) -> int | None:
    if isinstance(node, Token):
        return node.start_pos
    if isinstance(node, Tree) and not node.meta.empty:
        return node.meta.start_pos
    return None


# -- building expressions ------------------------------------------------------------------------------------

def _digits(value: sp.Rational) -> int:
    """Decimal digits of the larger of numerator and denominator (cheaply, without printing)."""
    big = max(abs(int(value.p)), int(value.q))
    return 1 if big < 10 else int(big.bit_length() * 0.30103) + 1


def _log10_size(value: sp.Basic) -> float:
    """log10 of the largest numerator/denominator among the rationals in *value* (at least log10 2)."""
    best = math.log10(2)
    for atom in value.atoms(sp.Rational):
        for part in (abs(int(atom.p)), int(atom.q)):
            if part > 1:
                best = max(best, math.log10(part))
    return best


class ExpressionBuilder:
    """Builds a sympy expression from a parse tree, node by node, from a whitelist.

    Subclassed by the claim grammar, which adds mechanism and notion calls.
    """

    def __init__(self, text: str, symbols: Mapping[str, sp.Basic] | None = None,
                 max_seconds: float | None = None) -> None:
        self.text = text
        self.symbols = symbols
        self.max_seconds = MAX_SECONDS if max_seconds is None else max_seconds
        self.deadline = time.monotonic() + self.max_seconds
        #: where the text's operations are defined, as written (before sympy simplifies ``x/x`` to 1 or
        #: ``exp(log(x))`` to ``x``): ``(expression, "nonzero" | "positive" | "nonnegative")`` for symbolic
        #: denominators, logarithms, roots and powers
        self.conditions: list[tuple[sp.Expr, str]] = []

    def require(self, value: sp.Expr, kind: str) -> None:
        """Record that the text is defined only where *value* is nonzero / positive / non-negative."""
        if isinstance(value, sp.Basic) and value.free_symbols and (value, kind) not in self.conditions:
            self.conditions.append((value, kind))

    # -- errors -----------------------------------------------------------------------------------------
    def error(self, message: str, node: Any = None, cls: type[ParseError] = ParseError,
              position: int | None = None) -> ParseError:
        pos = position if position is not None else (_start(node) if node is not None else None)
        where = f" at column {pos + 1}" if pos is not None else ""
        return cls(f"{message}{where}", text=self.text, position=pos)

    def snippet(self, node: Any) -> str:
        if isinstance(node, Token):
            return str(node)
        if isinstance(node, Tree) and not node.meta.empty:
            s = self.text[node.meta.start_pos:node.meta.end_pos]
            return s if len(s) <= 40 else s[:37] + "..."
        return "expression"

    # -- the walk ----------------------------------------------------------------------------------------
    def expression(self, node: Any) -> sp.Expr:
        if time.monotonic() > self.deadline:
            raise self.error(f"expression too costly to build (over {self.max_seconds:g} s)", node)
        if isinstance(node, Token):  # pragma: no cover - every token sits in a named rule
            raise self.error(f"unexpected {node!r}", node)
        handler = getattr(self, f"_node_{node.data}", None)
        if handler is None:
            raise self.error(self.misplaced(node), node)
        value = handler(node)
        return self.checked(value, node)

    def misplaced(self, node: Tree) -> str:
        return f"{node.data} is not allowed in an expression"

    def checked(self, value: sp.Expr, node: Any) -> sp.Expr:
        """Refuse non-finite, non-real or oversized values."""
        if not isinstance(value, sp.Basic):  # pragma: no cover - builders return sympy objects
            raise self.error(f"{self.snippet(node)} is not a number", node)
        if value.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
            raise self.error(f"{self.snippet(node)} is not a finite number", node, OutOfDomain)
        if value.is_extended_real is False:
            raise self.error(f"{self.snippet(node)} is not a real number", node, OutOfDomain)
        for atom in value.atoms(sp.Rational):
            if _digits(atom) > MAX_DIGITS:
                raise self.error(f"{self.snippet(node)} is too large: a number with more than {MAX_DIGITS} digits",
                                 node)
        return value

    def _node_start(self, node: Tree) -> sp.Expr:
        return self.expression(node.children[0])

    def _node_number(self, node: Tree) -> sp.Expr:
        return self.number(node.children[0])

    def number(self, token: Token) -> sp.Rational:
        """The exact rational value of a numeric literal."""
        s = str(token)
        mantissa, _, exponent = s.lower().partition("e")
        whole, _, frac = mantissa.partition(".")
        digits = (whole + frac) or "0"
        n = int(digits)
        if n == 0:
            return sp.Integer(0)
        if len(exponent.lstrip("+-").lstrip("0")) > 6:
            raise self.error(f"number {shorten(s)!r} is too large or too small (exponent beyond {MAX_DIGITS})",
                             token)
        e = (int(exponent) if exponent else 0) - len(frac)
        significant = len(digits.lstrip("0"))
        if max(significant + e, -e) > MAX_DIGITS:
            raise self.error(f"number {shorten(s)!r} has more than {MAX_DIGITS} digits", token)
        return sp.Integer(n * 10 ** e) if e >= 0 else sp.Rational(n, 10 ** -e)

    def _node_name(self, node: Tree) -> sp.Expr:
        token = node.children[0]
        name = str(token)
        if name in CONSTANTS:
            return CONSTANTS[name]
        if self.symbols is not None and name in self.symbols:
            return self.symbols[name]  # type: ignore[return-value]
        raise self.error(self.unknown_name(name), token)

    def unknown_name(self, name: str) -> str:
        if name in FUNCTIONS:
            return f"{name} is a function: write {name}(...)"
        if self.symbols is None:
            return f"unknown name {shorten(name)!r} (only numbers, pi and e are allowed here)"
        known = sorted(n for n in self.symbols if n.isascii())
        shown = ", ".join(known[:12]) + (", ..." if len(known) > 12 else "")
        return f"unknown name {shorten(name)!r} (known symbols: {shown})"

    def _node_signed(self, node: Tree) -> sp.Expr:
        sign, operand = node.children
        value = self.expression(operand)
        return -value if sign.type == "MINUS" else value

    def _node_sum(self, node: Tree) -> sp.Expr:
        children = node.children
        terms = [self.expression(children[0])]
        for op, operand in zip(children[1::2], children[2::2]):
            value = self.expression(operand)
            terms.append(-value if op.type == "MINUS" else value)
        return sp.Add(*terms)

    def _node_product(self, node: Tree) -> sp.Expr:
        children = node.children
        result = self.expression(children[0])
        for op, operand in zip(children[1::2], children[2::2]):
            value = self.expression(operand)
            if op.type == "SLASH":
                if value.is_zero:
                    raise self.error("division by zero", op, OutOfDomain)
                self.require(value, "nonzero")
                result = result / value
            else:
                result = result * value
            self.checked(result, node)
        return result

    def _node_power(self, node: Tree) -> sp.Expr:
        base_node, op, exp_node = node.children
        base = self.expression(base_node)
        exponent = self.expression(exp_node)
        return self.power(base, exponent, op)

    def power(self, base: sp.Expr, exponent: sp.Expr, where: Any) -> sp.Expr:
        """``base ** exponent``, refusing powers whose exact value would be huge or slow to find."""
        if base.is_zero and exponent.is_number and exponent.is_nonpositive:
            raise self.error("0 to a non-positive power is undefined", where, OutOfDomain)
        if base.free_symbols or exponent.free_symbols:
            if not exponent.is_integer:  # a real power: x^(1/2) needs x >= 0, x^y needs x > 0
                self.require(base, "nonnegative" if exponent.is_number and exponent.is_positive else "positive")
            elif not exponent.is_nonnegative:
                self.require(base, "nonzero")
        if base.is_number and exponent.is_Rational and base not in (sp.S.Zero, sp.S.One, sp.S.NegativeOne):
            if abs(exponent) > MAX_EXPONENT:
                raise self.error(f"exponent {shorten(str(exponent))} is too large "
                                 f"(at most {MAX_EXPONENT} for a number)", where)
            size = _log10_size(base) * float(abs(exponent))
            if size > MAX_DIGITS:
                raise self.error(f"power too large: the result would have about {int(size)} digits "
                                 f"(at most {MAX_DIGITS})", where)
            if not exponent.is_Integer:
                self.root_operand(base, where)
        return sp.Pow(base, exponent)

    def root_operand(self, value: sp.Expr, where: Any) -> None:
        """A root of a number factors it (sympy looks for perfect powers): keep the number small."""
        if value.is_number and _log10_size(value) > MAX_ROOT_DIGITS:
            raise self.error(f"root of a number with more than {MAX_ROOT_DIGITS} digits", where)

    def _node_call(self, node: Tree) -> sp.Expr:
        name_token, arglist = node.children
        name = str(name_token)
        if name not in FUNCTIONS:
            raise self.error(self.unknown_function(name), name_token)
        low, high, fn = FUNCTIONS[name]
        args = self.positional(name, arglist, name_token)
        if len(args) < low or (high is not None and len(args) > high):
            want = f"{low}" if low == high else f"at least {low}"
            raise self.error(f"{name} takes {want} argument{'s' if want != '1' else ''}, got {len(args)}",
                             name_token)
        values = [self.expression(a) for a in args]
        self.function_domain(name, values)
        if name == "sqrt":
            self.root_operand(values[0], node)
        if name == "exp":
            self.exponential_operand(values[0], node)
        return fn(*values)

    def function_domain(self, name: str, values: list[sp.Expr]) -> None:
        if name in ("log", "ln"):
            self.require(values[0], "positive")
        elif name == "sqrt":
            self.require(values[0], "nonnegative")

    def exponential_operand(self, value: sp.Expr, where: Any) -> None:
        """sympy rewrites ``exp(c*log(x))`` as ``x**c`` and computes it exactly: keep ``c`` small."""
        if value.is_number and value.has(sp.log):
            coeff, _ = value.as_coeff_Mul()
            if abs(coeff) > MAX_EXPONENT:
                raise self.error(f"exp of {shorten(str(coeff))} times a logarithm is a power too large to compute "
                                 f"exactly (at most {MAX_EXPONENT})", where)

    def unknown_function(self, name: str) -> str:
        known = ", ".join(n for n in FUNCTIONS if n not in ("Min", "Max"))
        return f"unknown function {shorten(name)!r} (known: {known})"

    def arguments(self, arglist: Tree | None) -> list[Any]:
        return [] if arglist is None else list(arglist.children)

    def positional(self, name: str, arglist: Tree | None, where: Any) -> list[Any]:
        args = self.arguments(arglist)
        for a in args:
            if isinstance(a, Tree) and a.data == "kwarg":
                raise self.error(f"{name}(...) takes no keyword arguments, got {shorten(str(a.children[0]))}=", a)
        return args


# -- entry points ---------------------------------------------------------------------------------------------

def parse_expression(text: str, *, symbols: Mapping[str, sp.Basic] | None = None) -> sp.Expr:
    """Parse plain arithmetic into an exact sympy expression.

    *symbols* maps the names allowed as symbols to sympy objects (``None``: numbers only;
    :data:`CANONICAL_SYMBOLS` for cdpsym's parameters).  Raises :class:`ParseError`.

    >>> parse_expression("sqrt(2)/2 + 1/3")
    1/3 + sqrt(2)/2
    >>> parse_expression("ε^2/2", symbols=CANONICAL_SYMBOLS)
    eps**2/2
    >>> parse_expression("__import__('os')")
    Traceback (most recent call last):
    ...
    cdpsym.expr.parse.ParseError: unexpected character "'" at column 12
    """
    tree = parse_tree(text, _PLAIN_GRAMMAR)
    return ExpressionBuilder(text, symbols).expression(tree)


def parse_number(text: str) -> sp.Expr:
    """A constant expression (no symbols): ``"1e-6"``, ``"exp(-20)"``, ``"1/3"``."""
    return parse_expression(text, symbols=None)


def parse_rational(text: str) -> sp.Rational:
    """An exact rational number: ``"1e-10"``, ``"0.25"``, ``"1/3"``, ``"2^-20"``; anything else raises.

    >>> parse_rational("1e-10")
    1/10000000000
    >>> parse_rational("sqrt(2)")
    Traceback (most recent call last):
    ...
    cdpsym.expr.parse.ParseError: expected an exact rational number such as 1e-6, 0.25 or 1/3, got sqrt(2)
    """
    value = parse_number(text)
    if not isinstance(value, sp.Rational):
        raise ParseError(f"expected an exact rational number such as 1e-6, 0.25 or 1/3, got {shorten(str(value))}",
                         text=text)
    return value
