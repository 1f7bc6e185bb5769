r"""The safe parser for LaTeX math: the inside of ``$...$`` in a claim, as a paper writes it, to exact sympy.

Like :mod:`cdpsym.expr.parse`, nothing here is ever handed to ``eval``,
``exec``, ``sympify``, ``parse_expr`` or ``sympy.parsing``: a small lexer
turns the text into tokens from a whitelist, a lark LALR grammar arranges
them, and the value is built node by node with the checks of
:class:`~cdpsym.expr.parse.ExpressionBuilder` (number sizes, power sizes,
roots of huge numbers, a time limit).

>>> parse_latex(r"\frac{\varepsilon^2}{2} + 10^{-5}").values[0]
eps**2/2 + 1/100000
>>> parse_latex(r"0 < \varepsilon \le 1")
LatexMath(kind='relation', values=(0, eps, 1), ops=('<', '<='), interval=None, positions=(0, 4, 20), conditions=())
>>> parse_latex(r"\delta \in (0, 1]").interval
(0, 1, True, False)
>>> parse_latex(r"k \in \mathbb{N}").interval
(1, oo, False, True)

What is accepted:

* **numbers**: ``12``, ``0.5``, ``.5``, ``1e-5``, ``2.5E+3``, converted *exactly* to rationals;
* **arithmetic**: ``+``, ``-`` (also unary), ``\cdot``, ``\times``, ``*``, ``/``, ``\div``;
  ``\frac{a}{b}``, ``\dfrac``, ``\tfrac``, ``\cfrac`` (also TeX's ``\frac12``, ``\frac1\delta``);
  powers ``x^2``, ``e^x``, ``x^{k+1}``, ``10^{-5}``; ``\sqrt{x}``, ``\sqrt[n]{x}``, ``\sqrt2``;
* **implicit multiplication**: ``2\sqrt{\rho}``, ``k\varepsilon``, ``2k\varepsilon^2``, ``(a)(b)``,
  ``\rho\log(1/\delta)``;
* **functions**: ``\log``, ``\ln``, ``\exp``, ``\tanh``, ``\Phi`` (the standard normal CDF),
  ``\operatorname{erf}``/``erfc`` and ``\min``/``\max`` of one or more arguments in ``(...)``
  or ``\{...\}``.  With parentheses (``\log(x)``, ``\log\left(x\right)``) the function takes what is
  inside, and a power applies to its value: ``\log(x)^2`` is (log x)².  Without parentheses it takes
  the next factor only — one atom with its power: ``\log x^2`` is log(x²), ``\log\frac{1}{\delta}``
  is log(1/δ), ``\log 2k`` is log(2)·k, ``\log\log x`` is log(log x);
* **grouping**: ``(..)``, ``[..]``, ``{..}``, ``\left(..\right)``, ``\bigl(..\bigr)``, ``\big(``,
  ``\Big(``, ``\bigg(`` …;  spacing ``\,`` ``\;`` ``\:`` ``\!`` ``\quad`` ``\qquad`` ``~`` is ignored;
* **names**: single letters (``k``, ``t``, ``x`` … through *symbols*), the letter ``e`` and
  ``\mathrm{e}`` (Euler's number, so ``e^{x}`` is exp(x)), ``\pi``; Greek letters ``\varepsilon``
  (``\epsilon``), ``\delta``, ``\rho``, ``\sigma``, ``\alpha``, ``\mu``, ``\nu``, ``\tau``,
  ``\omega``, ``\xi``, ``\lambda``, ``\Delta`` (the sensitivity; ``\Delta_1``, ``\Delta_2`` too),
  with subscripts and primes (``\varepsilon_0``, ``\delta_{0}``, ``\delta'``), and
  ``\text{..}``/``\mathrm{..}``/``\operatorname{..}`` around a known name.  A symbol ``X`` with
  subscript ``s`` is looked up as ``Xs`` then ``X_s``, with a prime as ``X_p``; unicode ``ε δ ρ σ …``,
  ``≤ ≥ ≠ ∈ ∞ − · ×`` read as their commands;
* **formulas** (the top level only): an expression; a tuple ``(\varepsilon, \delta)`` or
  ``\varepsilon, \delta``; a relation or a chain of them with ``< > = \le \leq \leqslant \ge \geq
  \geqslant \ne \neq <= >= !=`` (``0 < \varepsilon \le 1``); a membership ``x \in I`` where ``I``
  is an interval ``(a, b)``, ``(a, b]``, ``[a, b)``, ``[a, b]`` with ends ``\infty``/``-\infty``
  allowed (only there), or ``\mathbb{N}`` (= {1, 2, …}), ``\mathbb{N}_0``, ``\mathbb{Z}``,
  ``\mathbb{Z}_{>0}``, ``\mathbb{Z}^+``, ``\mathbb{N}_{\ge 1}``, ``\mathbb{R}``, ``\mathbb{R}_{>0}``,
  ``\mathbb{R}_{\ge 0}`` ….

Readings this parser *refuses* rather than guess (a claim checker should not
pick one silently): a number after another factor (``x2``, ``2 3``,
``2 10^{-5}``: write ``2 \cdot 10^{-5}``); a product after ``/`` (``1/2k``:
write ``\frac{1}{2k}`` or ``\frac{k}{2}``); ``/`` right after a function taken
without parentheses (``\log 1/\delta``: write ``\log(1/\delta)``); a
superscript, subscript or unbraced ``\frac``/``\sqrt`` argument of several
characters (``x^23``: write ``x^{23}``); a run of letters that spells a known
name (``log``, ``eps``: write ``\log``, ``\varepsilon``); ``\mathbb{R}^+``
(does it hold 0?).

Errors are :class:`~cdpsym.expr.parse.ParseError` (a value outside its domain,
``\log 0``, ``1/0``, ``\sqrt{-1}``: :class:`~cdpsym.expr.parse.OutOfDomain`)
whose ``position`` and "at column N" refer to the *whole* claim text, so
``pretty()`` puts its caret under the right character.  The limits of
:mod:`cdpsym.expr.parse` apply: at most ``MAX_LENGTH`` characters,
brackets of every kind nested at most ``MAX_NESTING`` deep, a tree at most
``MAX_DEPTH`` deep, numbers of at most ``MAX_DIGITS`` digits, powers of
numbers at most ``MAX_EXPONENT``, and ``MAX_SECONDS`` to build.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp
from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from cdpsym.expr.parse import (CANONICAL_SYMBOLS, FUNCTIONS, MAX_DEPTH, MAX_LENGTH, MAX_NESTING,
                               ExpressionBuilder, OutOfDomain, ParseError, lark_parser, shorten)

__all__ = ["LatexMath", "parse_latex", "LATEX_GRAMMAR", "RELATIONS"]


@dataclass(frozen=True)
class LatexMath:
    r"""A parsed ``$...$``: an expression, a tuple, a relation chain or a membership.

    * ``kind="expr"``: ``values == (e,)``;
    * ``kind="tuple"``: ``values == (a, b, ...)``;
    * ``kind="relation"``: ``values == (a, b, c, ...)`` and ``ops`` one fewer, the chain
      ``a ops[0] b ops[1] c ...``, each op one of ``< <= = >= > !=``;
    * ``kind="membership"``: ``values == (x,)``, ``interval == (lo, hi, left_open, right_open)``
      (``lo``/``hi`` may be ``-oo``/``oo``, then open), and ``ops == ("integer",)`` when the set is
      ``\mathbb{N}`` or ``\mathbb{Z}`` (or part of them), else ``()``.

    ``positions`` are the 0-based offsets, in the full claim text, of each value.
    """

    kind: str
    values: tuple[sp.Expr, ...]
    ops: tuple[str, ...] = ()
    interval: tuple | None = None
    positions: tuple[int, ...] = ()
    #: where the formula is defined, as written: ``(expression, "nonzero" | "positive" | "nonnegative")``
    conditions: tuple = ()


# -- vocabulary ---------------------------------------------------------------------------------------------

#: relation spellings -> the normalized operator
RELATIONS: dict[str, str] = {
    "<": "<", ">": ">", "=": "=", "<=": "<=", ">=": ">=", "!=": "!=",
    r"\lt": "<", r"\gt": ">", r"\le": "<=", r"\leq": "<=", r"\leqslant": "<=", r"\leqq": "<=",
    r"\ge": ">=", r"\geq": ">=", r"\geqslant": ">=", r"\geqq": ">=", r"\ne": "!=", r"\neq": "!=",
    "≤": "<=", "≥": ">=", "≠": "!=",
}

#: Greek commands -> the name looked up in *symbols* (subscripts and primes are appended to it)
GREEK: dict[str, str] = {
    "varepsilon": "eps", "epsilon": "eps", "delta": "delta", "rho": "rho", "sigma": "sigma", "alpha": "alpha",
    "mu": "mu", "nu": "nu", "tau": "tau", "omega": "omega", "xi": "xi", "lambda": "lam", "Delta": "Delta",
    "pi": "pi",
    # known to be Greek letters, so an unknown one reads "unknown symbol \beta", not "unknown command"
    "beta": "beta", "gamma": "gamma", "zeta": "zeta", "eta": "eta", "theta": "theta", "vartheta": "vartheta",
    "iota": "iota", "kappa": "kappa", "varrho": "varrho", "varsigma": "varsigma", "upsilon": "upsilon",
    "phi": "phi", "varphi": "varphi", "chi": "chi", "psi": "psi", "varpi": "varpi", "Gamma": "Gamma",
    "Theta": "Theta", "Lambda": "Lambda", "Xi": "Xi", "Pi": "Pi", "Sigma": "Sigma", "Upsilon": "Upsilon",
    "Psi": "Psi", "Omega": "Omega",
}
#: subscripts that do not change the symbol: the l1 and l2 sensitivity are both the sensitivity
_SUBSCRIPT_IGNORED = {("Delta", "1"), ("Delta", "2")}

_FUNCTION_COMMANDS = {"log", "ln", "exp", "tanh", "Phi"}
_MINMAX_COMMANDS = {"min", "max"}
_FRAC_COMMANDS = {"frac", "dfrac", "tfrac", "cfrac"}
_TEXT_COMMANDS = {"text", "textrm", "textit", "mathrm", "mathit", "operatorname"}
_SIZE_COMMANDS = {"left", "right", "big", "Big", "bigg", "Bigg", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr",
                  "Biggl", "Biggr", "bigm", "Bigm"}
_SPACE_COMMANDS = {",", ";", ":", "!", " ", ">", "quad", "qquad", "displaystyle", "textstyle"}

#: commands that are a single token: command -> (token type, normalized value)
_SIMPLE_COMMANDS: dict[str, tuple[str, str]] = {
    "cdot": ("MUL", "*"), "times": ("MUL", "*"), "ast": ("MUL", "*"), "div": ("SLASH", "/"),
    "in": ("IN", "in"), "infty": ("INFTY", "oo"), "sqrt": ("SQRT", "sqrt"), "prime": ("PRIME", "'"),
    "{": ("LSET", "{"), "}": ("RSET", "}"), "lbrace": ("LSET", "{"), "rbrace": ("RSET", "}"),
}

#: plain characters: char -> (token type, normalized value)
_CHARACTERS: dict[str, tuple[str, str]] = {
    "+": ("PLUS", "+"), "-": ("MINUS", "-"), "−": ("MINUS", "-"), "*": ("MUL", "*"), "·": ("MUL", "*"),
    "×": ("MUL", "*"), "/": ("SLASH", "/"), "^": ("CARET", "^"), "_": ("UNDERSCORE", "_"), "'": ("PRIME", "'"),
    "′": ("PRIME", "'"), ",": ("COMMA", ","), "(": ("OPEN", "("), "[": ("OPEN", "["), ")": ("CLOSE", ")"),
    "]": ("CLOSE", "]"), "{": ("LBRACE", "{"), "}": ("RBRACE", "}"), "<": ("REL", "<"), ">": ("REL", ">"),
    "=": ("REL", "="), "≤": ("REL", "≤"), "≥": ("REL", "≥"), "≠": ("REL", "≠"), "∈": ("IN", "in"),
    "∞": ("INFTY", "oo"),
}
_UNICODE_GREEK = {"ε": "varepsilon", "ϵ": "epsilon", "δ": "delta", "ρ": "rho", "σ": "sigma", "α": "alpha",
                  "μ": "mu", "ν": "nu", "τ": "tau", "ω": "omega", "ξ": "xi", "λ": "lambda", "Δ": "Delta",
                  "π": "pi"}
_SPACES = " \t\r\n~"
#: what may follow \left, \bigl …: spelling -> (token type, normalized value)
_DELIMITERS = {"(": ("OPEN", "("), "[": ("OPEN", "["), ")": ("CLOSE", ")"), "]": ("CLOSE", "]"),
               "\\{": ("LSET", "{"), "\\}": ("RSET", "}"), "\\lbrace": ("LSET", "{"), "\\rbrace": ("RSET", "}")}

#: bracket kinds: which closer may close which opener ('(' and '[' are interchangeable: intervals mix them)
_KIND = {"OPEN": "paren", "CLOSE": "paren", "LBRACE": "brace", "RBRACE": "brace", "LSET": "set", "RSET": "set"}
_CLOSER_OF = {"paren": "')'", "brace": "'}'", "set": "'\\}'"}

_NUMBER = re.compile(r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_LETTERS = re.compile(r"[A-Za-z]+")
_DIGITS = re.compile(r"[0-9.]+")
_TEXT_ARGUMENT = re.compile(r"\{\s*([A-Za-z]+)\s*\}")
_BLACKBOARD = re.compile(r"\{\s*([A-Za-z])\s*\}")


# -- grammar ------------------------------------------------------------------------------------------------

#: the LALR grammar over the lexer's tokens (terminals are %declare'd: :func:`_tokens` makes them)
LATEX_GRAMMAR = r"""
start: sum                                   -> top_expr
     | sum (COMMA sum)+                      -> top_tuple
     | OPEN sum (COMMA sum)+ CLOSE           -> top_tuple
     | sum (REL sum)+                        -> top_relation
     | sum IN interval                       -> top_membership
     | sum IN blackboard                     -> top_membership

interval: OPEN bound COMMA bound CLOSE
?bound: sum
      | INFTY                                -> infinity
      | (PLUS | MINUS) INFTY                 -> infinity
blackboard: BLACKBOARD [(UNDERSCORE | CARET) restriction]
restriction: NUMBER | PLUS | LBRACE NUMBER RBRACE | LBRACE PLUS RBRACE | LBRACE REL [MINUS] NUMBER RBRACE

?sum: product ((PLUS | MINUS) product)*
?product: signed ((MUL | SLASH) signed)*
?signed: (PLUS | MINUS) signed               -> signed
       | implicit
?implicit: factor+
?factor: power
       | FUNCTION argument                   -> function_bare
       | FUNCTION CARET texarg argument      -> function_bare
?power: base
      | base CARET texarg                    -> power
?base: number | symbol | paren | group | frac | sqrt | call | minmax
?argument: argument_base
         | argument_base CARET texarg        -> power
         | FUNCTION argument                 -> function_bare
         | FUNCTION CARET texarg argument    -> function_bare
?argument_base: number | symbol | frac | sqrt | call | minmax

number: NUMBER
symbol: (LETTER | GREEK | WORD) decoration*
decoration: UNDERSCORE subscript
          | PRIME
subscript: NUMBER | LETTER | GREEK | LBRACE (NUMBER | LETTER | GREEK | WORD)+ RBRACE
paren: OPEN sum CLOSE
group: LBRACE sum RBRACE
?texarg: group | number | plain_symbol
plain_symbol: LETTER | GREEK | WORD
frac: FRAC texarg texarg
sqrt: SQRT texarg
    | SQRT OPEN sum CLOSE texarg
call: FUNCTION [CARET texarg] OPEN sum CLOSE
    | FUNCTION [CARET texarg] group
minmax: MINMAX OPEN sum (COMMA sum)* CLOSE
      | MINMAX LSET sum (COMMA sum)* RSET

%declare NUMBER LETTER GREEK WORD FUNCTION MINMAX FRAC SQRT BLACKBOARD INFTY IN REL PLUS MINUS MUL SLASH CARET
%declare UNDERSCORE PRIME COMMA OPEN CLOSE LBRACE RBRACE LSET RSET
"""

#: how a terminal reads in "expected ..." (None: too common to list, reads "an expression")
_TERMINAL_WORDS = {
    "$END": "end of input", "COMMA": "','", "CLOSE": "')'", "RBRACE": "'}'", "RSET": "'\\}'", "REL": "a relation",
    "IN": "'\\in'", "CARET": "'^'", "UNDERSCORE": "'_'", "INFTY": "'\\infty'", "BLACKBOARD": "a set such as "
    "\\mathbb{N}", "OPEN": "'('", "LBRACE": "'{'", "LSET": "'\\{'", "MUL": "'\\cdot'", "SLASH": "'/'",
    "PLUS": "'+'", "MINUS": "'-'",
}
_EXPRESSION_STARTS = {"NUMBER", "LETTER", "GREEK", "WORD", "FUNCTION", "MINMAX", "FRAC", "SQRT"}


# -- lexer --------------------------------------------------------------------------------------------------

def _word_suggestion(word: str, symbols: Mapping[str, sp.Basic] | None) -> str | None:
    """For a run of letters that spells a known name, how to write it in LaTeX (else None)."""
    if word in _WORD_HINTS:
        return _WORD_HINTS[word]
    if symbols is not None and word in symbols:
        return f"\\text{{{word}}}"
    return None


#: runs of letters that surely mean a command: ``log`` is \log, not l·o·g
_WORD_HINTS: dict[str, str] = {
    **{name: f"\\{name}" for name in GREEK},
    **{name: f"\\{name}" for name in _FUNCTION_COMMANDS | _MINMAX_COMMANDS | {"sqrt", "frac", "infty"}},
    "erf": "\\operatorname{erf}", "erfc": "\\operatorname{erfc}", "Min": "\\min", "Max": "\\max",
    "eps": "\\varepsilon", "epsilon": "\\varepsilon", "lam": "\\lambda", "sensitivity": "\\Delta",
    "inf": "\\infty", "oo": "\\infty",
}


class _Lexer:
    """Turns LaTeX math into lark tokens, positions shifted to the full text; refuses what it does not know."""

    def __init__(self, source: str, offset: int, text: str, symbols: Mapping[str, sp.Basic] | None) -> None:
        self.source = source
        self.offset = offset
        self.text = text
        self.symbols = symbols
        self.tokens: list[Token] = []
        self.open: list[tuple[str, int, str]] = []  # (kind, position, spelling) of unclosed brackets

    def error(self, message: str, pos: int) -> ParseError:
        at = self.offset + pos
        return ParseError(f"{message} at column {at + 1}", text=self.text, position=at)

    def emit(self, type_: str, value: str, start: int, end: int) -> None:
        self.track(type_, start, end)
        at = self.offset + start
        self.tokens.append(Token(type_, value, start_pos=at, line=1, column=at + 1, end_line=1,
                                 end_column=self.offset + end + 1, end_pos=self.offset + end))

    def track(self, type_: str, start: int, end: int) -> None:
        """Keep brackets balanced and nested at most MAX_NESTING deep."""
        kind = _KIND.get(type_)
        if kind is None:
            return
        spelling = self.source[start:end]
        if type_ in ("OPEN", "LBRACE", "LSET"):
            if len(self.open) >= MAX_NESTING:
                raise self.error(f"brackets nested more than {MAX_NESTING} deep", start)
            self.open.append((kind, start, spelling))
            return
        if not self.open:
            raise self.error(f"unexpected '{spelling}' (nothing to close)", start)
        open_kind, open_at, open_spelling = self.open.pop()
        if open_kind != kind:
            raise self.error(f"expected {_CLOSER_OF[open_kind]} to close '{open_spelling}' at column "
                             f"{self.offset + open_at + 1}, got '{spelling}'", start)

    def run(self) -> list[Token]:
        src, pos, n = self.source, 0, len(self.source)
        while pos < n:
            ch = src[pos]
            if ch in _SPACES:
                pos += 1
            elif ch == "\\":
                pos = self.command(pos)
            elif (match := _NUMBER.match(src, pos)) is not None:
                self.emit("NUMBER", match.group(), pos, match.end())
                pos = match.end()
            elif ch.isascii() and ch.isalpha():
                pos = self.letters(pos)
            elif ch in "<>!" and src.startswith("=", pos + 1):
                self.emit("REL", ch + "=", pos, pos + 2)
                pos += 2
            elif ch in _CHARACTERS:
                type_, value = _CHARACTERS[ch]
                self.emit(type_, value, pos, pos + 1)
                pos += 1
            elif ch in _UNICODE_GREEK:
                self.emit("GREEK", _UNICODE_GREEK[ch], pos, pos + 1)
                pos += 1
            else:
                raise self.error(f"unexpected character {ch!r}", pos)
        if self.open:
            kind, open_at, spelling = self.open[-1]
            raise self.error(f"expected {_CLOSER_OF[kind]} to close '{spelling}' at column "
                             f"{self.offset + open_at + 1}, got end of input", len(src.rstrip()))
        return self.tokens

    def letters(self, pos: int) -> int:
        """Single letters (LaTeX's ``ab`` is a·b); a run spelling a known name is refused with a hint."""
        match = _LETTERS.match(self.source, pos)
        word = match.group() if match is not None else ""
        if len(word) > 1:
            hint = _word_suggestion(word, self.symbols)
            if hint is not None:
                raise self.error(f"{shorten(word)!r} reads as the product {'·'.join(word[:8])}"
                                 f"{'…' if len(word) > 8 else ''}; write {hint}", pos)
        for i, letter in enumerate(word):
            self.emit("LETTER", letter, pos + i, pos + i + 1)
        return match.end()

    def command(self, pos: int) -> int:
        src = self.source
        match = _LETTERS.match(src, pos + 1)
        if match is not None:
            name, end = match.group(), match.end()
        elif pos + 1 < len(src):
            name, end = src[pos + 1], pos + 2
        else:
            raise self.error("a lone '\\' at the end", pos)
        if name in _SPACE_COMMANDS:
            return end
        if name == "sqrt" and src[end:].lstrip(_SPACES).startswith("("):
            raise self.error("the argument of \\sqrt goes in braces: \\sqrt{x} (and an index in brackets: "
                             "\\sqrt[3]{x})", pos)
        if name in _SIMPLE_COMMANDS:
            type_, value = _SIMPLE_COMMANDS[name]
            self.emit(type_, value, pos, end)
        elif "\\" + name in RELATIONS:
            self.emit("REL", "\\" + name, pos, end)
        elif name in GREEK:
            self.emit("GREEK", name, pos, end)
        elif name in _FUNCTION_COMMANDS:
            self.emit("FUNCTION", name, pos, end)
        elif name in _MINMAX_COMMANDS:
            self.emit("MINMAX", name, pos, end)
        elif name in _FRAC_COMMANDS:
            self.emit("FRAC", name, pos, end)
            return self.frac_digits(end)
        elif name in _SIZE_COMMANDS:
            return self.delimiter(name, pos, end)
        elif name in _TEXT_COMMANDS:
            return self.text_command(name, pos, end)
        elif name == "mathbb":
            found = _BLACKBOARD.match(src, end)
            if found is None:
                raise self.error("expected a letter in braces after \\mathbb, as in \\mathbb{N}", end)
            self.emit("BLACKBOARD", found.group(1), pos, found.end())
            return found.end()
        else:
            raise self.error(f"unknown command \\{shorten(name, 30)}", pos)
        return end

    def frac_digits(self, pos: int) -> int:
        r"""TeX's ``\frac12``: two unbraced digits are the two arguments."""
        while pos < len(self.source) and self.source[pos] in _SPACES:
            pos += 1
        match = _DIGITS.match(self.source, pos)
        if match is None or len(match.group()) == 1:
            return pos
        if len(match.group()) > 2:
            raise self.error(f"\\frac{shorten(match.group(), 10)} is ambiguous: write \\frac{{..}}{{..}} "
                             "with braces", pos)
        self.emit("NUMBER", self.source[pos], pos, pos + 1)
        self.emit("NUMBER", self.source[pos + 1], pos + 1, pos + 2)
        return pos + 2

    def delimiter(self, name: str, pos: int, end: int) -> int:
        r"""``\left(``, ``\bigr]``, ``\left\{`` …: the size is ignored, the delimiter kept (at ``\left``)."""
        src = self.source
        at = end
        while at < len(src) and src[at] in _SPACES:
            at += 1
        for spelling, (type_, value) in _DELIMITERS.items():
            stop = at + len(spelling)
            if src.startswith(spelling, at) and not (spelling[-1].isalpha() and src[stop:stop + 1].isalpha()):
                self.emit(type_, value, pos, stop)
                return stop
        raise self.error(f"expected a delimiter such as '(' , '[' or '\\{{' after \\{name}", at)

    def text_command(self, name: str, pos: int, end: int) -> int:
        r"""``\mathrm{e}``, ``\operatorname{erf}``, ``\text{k}``: a function, a letter or a word (a name)."""
        found = _TEXT_ARGUMENT.match(self.source, end)
        if found is None:
            raise self.error(f"expected a name in braces after \\{name}, as in \\{name}{{e}}", end)
        word, stop = found.group(1), found.end()
        if word in FUNCTIONS and word not in ("Min", "Max"):
            self.emit("MINMAX" if word in _MINMAX_COMMANDS else "FUNCTION", word, pos, stop)
        else:
            self.emit("WORD", word, pos, stop)
        return stop


# -- building values ----------------------------------------------------------------------------------------

class _LatexBuilder(ExpressionBuilder):
    """Builds sympy values from the LaTeX tree, node by node (only the rules below exist)."""

    def misplaced(self, node: Tree) -> str:  # pragma: no cover - every rule has a handler
        return f"{node.data} is not allowed here"

    # -- names ----------------------------------------------------------------------------------------------
    def _node_symbol(self, node: Tree) -> sp.Expr:
        head, *decorations = node.children
        subscripts = [d.children[1] for d in decorations if len(d.children) == 2]
        primes = len(decorations) - len(subscripts)
        if len(subscripts) > 1:
            raise self.error("a symbol takes at most one subscript", subscripts[1])
        spelled = self.text[head.start_pos:node.meta.end_pos]
        name = GREEK[str(head)] if head.type == "GREEK" else str(head)
        if not decorations and (name == "e" and head.type != "GREEK" or name == "pi" and head.type == "GREEK"):
            return sp.E if name == "e" else sp.pi
        candidates = [name]
        if subscripts:
            sub = self.subscript_text(subscripts[0])
            candidates = [f"{name}{sub}", f"{name}_{sub}"] + ([name] if (name, sub) in _SUBSCRIPT_IGNORED else [])
        if primes:
            candidates = [c + "_p" * primes for c in candidates]
        for candidate in candidates:
            if self.symbols is not None and candidate in self.symbols:
                return self.symbols[candidate]  # type: ignore[return-value]
        if self.symbols is None:
            raise self.error(f"unknown symbol {shorten(spelled)} (only numbers, e and \\pi are allowed here)", head)
        raise self.error(f"unknown symbol {shorten(spelled)}", head)

    _node_plain_symbol = _node_symbol

    def subscript_text(self, node: Tree) -> str:
        parts = [t for t in node.children if t.type not in ("LBRACE", "RBRACE")]
        braced = len(parts) < len(node.children)
        for t in parts:
            if t.type == "NUMBER" and not str(t).isdigit():
                raise self.error(f"subscript {shorten(str(t))!r} is not a name", t)
            if t.type == "NUMBER" and len(t) > 1 and not braced:
                raise self.error(f"an unbraced subscript is one character: _{t} typesets as _{str(t)[0]} "
                                 f"followed by {str(t)[1:]}; write _{{{t}}}", t)
        return "".join(GREEK[str(t)] if t.type == "GREEK" else str(t) for t in parts)

    # -- arithmetic -----------------------------------------------------------------------------------------
    def _node_paren(self, node: Tree) -> sp.Expr:
        opener, inner, closer = node.children
        if (str(opener), str(closer)) not in (("(", ")"), ("[", "]")):
            raise self.error(f"{str(opener)!r} at column {opener.start_pos + 1} is closed by {str(closer)!r}",
                             closer)
        return self.expression(inner)

    def _node_group(self, node: Tree) -> sp.Expr:
        return self.expression(node.children[1])

    def _node_implicit(self, node: Tree) -> sp.Expr:
        factors = node.children
        for prev, factor in zip(factors, factors[1:]):
            if _ends_in_bare_function(prev):
                raise self.error(f"ambiguous: what does the function without parentheses in "
                                 f"{self.snippet(node)!r} apply to? Write \\log(2x) or \\log(2)\\,x", factor)
        for factor in factors[1:]:
            if _leading_number(factor) is not None:
                raise self.error(f"a number after another factor is ambiguous ({self.snippet(node)!r}): "
                                 "write \\cdot between them, or the number first", factor)
        result = sp.Integer(1)
        for factor in factors:
            result = self.checked(result * self.expression(factor), node)
        return result

    def _node_product(self, node: Tree) -> sp.Expr:
        children = node.children
        for left, op, right in zip(children[0::2], children[1::2], children[2::2]):
            if op.type != "SLASH":
                continue
            if _strip_sign(right).data == "implicit":
                raise self.error(f"ambiguous division: '/' before the product {self.snippet(right)!r}; write "
                                 "\\frac{..}{..} or put the product in parentheses", op)
            if _ends_in_bare_function(left):
                raise self.error("ambiguous division: '/' right after a function without parentheses; write "
                                 "\\log(x/y) or (\\log x)/y", op)
        return super()._node_product(node)

    def _node_power(self, node: Tree) -> sp.Expr:
        base_node, caret, exponent_node = node.children
        if base_node.data == "call" and base_node.children[1] is None and len(base_node.children) == 4 \
                and base_node.children[3].children[1].data != "paren":
            raise self.error(f"ambiguous power of a function: write \\{base_node.children[0]}(x)^2 for a power "
                             f"of its value, or \\{base_node.children[0]}(x^2)", caret)
        self.single_character(exponent_node, "x^", "superscript")
        base = self.expression(base_node)
        exponent = self.expression(exponent_node)
        return self.power(base, exponent, caret)

    def single_character(self, node: Any, spelled: str, what: str) -> None:
        """TeX takes one character for an unbraced argument: refuse ``x^23`` rather than read x²·3."""
        if isinstance(node, Tree) and node.data == "number":
            token = node.children[0]
            if len(token) > 1:
                raise self.error(f"an unbraced {what} is one character: {spelled}{token} typesets as "
                                 f"{spelled}{str(token)[0]} followed by {str(token)[1:]}; write "
                                 f"{spelled}{{{token}}}", token)

    def _node_frac(self, node: Tree) -> sp.Expr:
        command, numerator_node, denominator_node = node.children
        for arg in (numerator_node, denominator_node):
            self.single_character(arg, f"\\{command}", "argument of \\frac")
        numerator = self.expression(numerator_node)
        denominator = self.expression(denominator_node)
        if denominator.is_zero:
            raise self.error("division by zero", denominator_node, OutOfDomain)
        self.require(denominator, "nonzero")
        return numerator / denominator

    def _node_sqrt(self, node: Tree) -> sp.Expr:
        if len(node.children) == 2:
            command, radicand_node = node.children
            self.single_character(radicand_node, "\\sqrt", "argument of \\sqrt")
            radicand = self.expression(radicand_node)
            self.root_operand(radicand, node)
            self.require(radicand, "nonnegative")
            return sp.sqrt(radicand)
        command, opener, index_node, closer, radicand_node = node.children
        if (str(opener), str(closer)) != ("[", "]"):
            raise self.error("the index of a root goes in brackets: \\sqrt[n]{x}", opener)
        self.single_character(radicand_node, "\\sqrt[n]", "argument of \\sqrt")
        index = self.expression(index_node)
        if index.is_zero:
            raise self.error("a root of index 0 is undefined", index_node, OutOfDomain)
        radicand = self.expression(radicand_node)
        return self.power(radicand, 1 / index, index_node)

    # -- functions ------------------------------------------------------------------------------------------
    def apply(self, name_token: Token, args: list[sp.Expr], node: Any) -> sp.Expr:
        _, _, fn = FUNCTIONS[str(name_token)]
        self.function_domain(str(name_token), args)
        return fn(*args)

    def _node_call(self, node: Tree) -> sp.Expr:
        name, caret, exponent_node, *rest = node.children
        if len(rest) == 1:  # \log{...}: sympy's printer writes \log{\left(x \right)}
            inner = rest[0].children[1]
        else:
            opener, inner, closer = rest
            if (str(opener), str(closer)) not in (("(", ")"), ("[", "]")):
                raise self.error(f"'{opener}' at column {opener.start_pos + 1} is closed by '{closer}'", closer)
        return self.function_power(name, caret, exponent_node, self.apply(name, [self.expression(inner)], node))

    def _node_function_bare(self, node: Tree) -> sp.Expr:
        name, *power, argument = node.children
        caret, exponent_node = power if power else (None, None)
        return self.function_power(name, caret, exponent_node, self.apply(name, [self.expression(argument)], node))

    def function_power(self, name: Token, caret: Token | None, exponent_node: Any, value: sp.Expr) -> sp.Expr:
        r"""``\log^2 x`` is (log x)²; ``\tanh^{-1}`` (inverse or reciprocal?) is refused."""
        if caret is None:
            return value
        self.single_character(exponent_node, f"\\{name}^", "superscript")
        exponent = self.expression(exponent_node)
        if not (exponent.is_positive or exponent.is_positive is None and not exponent.is_number):
            raise self.error(f"\\{name}^{{{self.snippet(exponent_node).strip('{}')}}} is ambiguous (an inverse "
                             f"function or a reciprocal?): write 1/\\{name}(x) or (\\{name} x)^{{-1}}", caret)
        return self.power(value, exponent, caret)

    def _node_minmax(self, node: Tree) -> sp.Expr:
        name, opener, *rest = node.children
        closer = rest[-1]
        if opener.type == "OPEN" and (str(opener), str(closer)) not in (("(", ")"), ("[", "]")):
            raise self.error(f"{str(opener)!r} at column {opener.start_pos + 1} is closed by {str(closer)!r}",
                             closer)
        args = [self.expression(a) for a in rest[:-1] if isinstance(a, Tree) or a.type not in ("COMMA",)]
        return self.apply(name, args, node)

    # -- sets -----------------------------------------------------------------------------------------------
    def bound(self, node: Any) -> sp.Expr:
        if isinstance(node, Tree) and node.data == "infinity":
            return -sp.oo if node.children[0].type == "MINUS" else sp.oo
        return self.expression(node)

    def interval(self, node: Tree) -> tuple:
        opener, low_node, _, high_node, closer = node.children
        low, high = self.bound(low_node), self.bound(high_node)
        left_open, right_open = str(opener) == "(", str(closer) == ")"
        if low == sp.oo or high == -sp.oo:
            raise self.error("an interval cannot start at \\infty or end at -\\infty", node)
        if (low == -sp.oo and not left_open) or (high == sp.oo and not right_open):
            raise self.error("an infinite end of an interval is open: write (0, \\infty), not [0, \\infty]", node)
        width = high - low
        if width.is_number and width.is_finite and (width.is_negative or width.is_zero and (left_open or right_open)):
            raise self.error(f"the interval {self.snippet(node)} is empty", node, OutOfDomain)
        return (low, high, left_open, right_open)

    def blackboard(self, node: Tree) -> tuple[tuple, bool]:
        r"""``\mathbb{N}`` … as (interval, integer?)."""
        letter_token, _, restriction = node.children
        letter = str(letter_token)
        if letter not in "NZR":
            raise self.error(f"unsupported set \\mathbb{{{letter}}} (use \\mathbb{{N}}, \\mathbb{{Z}}, "
                             "\\mathbb{R} or an interval)", letter_token)
        integer = letter != "R"
        low, high = (sp.Integer(1), sp.oo) if letter == "N" else (-sp.oo, sp.oo)
        left_open = low == -sp.oo
        if restriction is not None:
            tokens = [t for t in restriction.children if isinstance(t, Token) and t.type not in ("LBRACE", "RBRACE")]
            kinds = [t.type for t in tokens]
            if kinds == ["PLUS"]:
                if letter == "R":
                    raise self.error("\\mathbb{R}^+ is ambiguous (is 0 in it?): write \\mathbb{R}_{>0} or "
                                     "\\mathbb{R}_{\\ge 0}", restriction)
                low, left_open = sp.Integer(1), False
            elif kinds == ["NUMBER"]:
                if letter != "N" or str(tokens[0]) not in ("0", "1"):
                    raise self.error(f"unsupported set {self.snippet(node)} (write e.g. \\mathbb{{N}}_0 or "
                                     "\\mathbb{Z}_{\\ge 0})", restriction)
                low, left_open = sp.Integer(int(str(tokens[0]))), False
            else:
                op = RELATIONS[str(tokens[0])]
                value = self.number(tokens[-1])
                value = -value if "MINUS" in kinds else value
                if integer and not value.is_integer:
                    raise self.error(f"the bound of {self.snippet(node)} must be an integer", tokens[-1])
                if op == "!=" or op == "=":
                    raise self.error(f"unsupported set {self.snippet(node)}", restriction)
                strict = op in ("<", ">")
                if op in (">", ">="):
                    low, left_open = (value + 1, False) if integer and strict else (value, strict)
                else:
                    high = value - 1 if integer and strict else value
                    right_open = not integer and strict
                    return (low, high, left_open, right_open), integer
        return (low, high, left_open, True), integer


def _strip_sign(node: Any) -> Any:
    while isinstance(node, Tree) and node.data == "signed":
        node = node.children[1]
    return node


def _leading_number(node: Any) -> Token | None:
    """The number a factor starts with (``2``, ``2^{x}``), if any."""
    while isinstance(node, Tree) and node.data == "power":
        node = node.children[0]
    if isinstance(node, Tree) and node.data == "number":
        return node.children[0]
    return None


def _ends_in_bare_function(node: Any) -> bool:
    """Whether the product's last factor is a function applied without parentheses (``2\\log x``)."""
    while isinstance(node, Tree) and node.data in ("signed", "implicit"):
        node = node.children[-1]
    return isinstance(node, Tree) and node.data == "function_bare"


# -- parsing ------------------------------------------------------------------------------------------------

def _describe(token: Token, text: str) -> str:
    if token.type == "$END":
        return "end of input"
    spelled = text[token.start_pos:token.end_pos] if token.end_pos is not None else str(token)
    return f"'{shorten(spelled, 20)}'"


def _expected(terminals: set[str]) -> str:
    words = sorted({_TERMINAL_WORDS[t] for t in terminals if t in _TERMINAL_WORDS})
    if terminals & _EXPRESSION_STARTS:
        words = ["an expression"] + [w for w in words if w not in ("'('", "'{'", "'+'", "'-'")]
    if not words:
        return ""
    if len(words) > 5:
        words = words[:5] + ["…"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _syntax_error(exc: UnexpectedInput, tokens: list[Token], text: str, end: int) -> ParseError:
    token = getattr(exc, "token", None)
    expected = set(getattr(exc, "expected", None) or getattr(exc, "accepts", None) or ())
    if token is None or token.type == "$END":
        message, pos = f"unexpected end of input at column {end + 1}", end
    else:
        pos = token.start_pos
        message = f"unexpected {_describe(token, text)} at column {pos + 1}"
        if token.type == "INFTY":
            message += " (\\infty is allowed only as the end of an interval, as in x \\in (0, \\infty))"
            return ParseError(message, text=text, position=pos)
        previous = _previous(tokens, token)
        if previous is not None and previous.type in ("CARET", "UNDERSCORE"):
            message += f" (a {'superscript' if previous.type == 'CARET' else 'subscript'} of more than one " \
                       "character goes in braces: x^{-1}, x_{0})"
            return ParseError(message, text=text, position=pos)
        if token.type == "IN":
            message += " (a membership is one expression and a set, as in \\delta \\in (0, 1))"
            return ParseError(message, text=text, position=pos)
        if token.type == "COMMA":
            message += " (a tuple is allowed only as the whole formula, as in (\\varepsilon, \\delta))"
            return ParseError(message, text=text, position=pos)
    wanted = _expected(expected)
    if wanted:
        message += f" (expected {wanted})"
    return ParseError(message, text=text, position=pos)


def _previous(tokens: list[Token], token: Token) -> Token | None:
    for i, t in enumerate(tokens):
        if t is token:
            return tokens[i - 1] if i else None
    return None


def _check_depth(tree: Tree, text: str) -> None:
    """Refuse trees deeper than MAX_DEPTH (iteratively: the builder recurses)."""
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Tree):
            if depth > MAX_DEPTH:
                pos = None if node.meta.empty else node.meta.start_pos
                raise ParseError(f"formula nested more than {MAX_DEPTH} levels deep"
                                 + ("" if pos is None else f" at column {pos + 1}"), text=text, position=pos)
            stack.extend((child, depth + 1) for child in node.children)


def parse_latex(source: str, *, offset: int = 0, text: str | None = None,
                symbols: Mapping[str, sp.Basic] | None = CANONICAL_SYMBOLS) -> LatexMath:
    r"""Parse LaTeX math (the inside of ``$...$``) into a :class:`LatexMath` of exact sympy values.

    *offset* is where *source* starts in the full claim *text* (``None``: *source* itself); every
    error's ``position``/column refers to *text*.  *symbols* maps names (``eps``, ``delta0``, ``k`` …)
    to sympy objects (``None``: numbers only).  Raises :class:`ParseError` (:class:`OutOfDomain` for
    values such as ``\log 0``).

    >>> parse_latex(r"(\varepsilon, \delta)").values
    (eps, delta)
    >>> parse_latex(r"k \in \mathbb{N}")
    LatexMath(kind='membership', values=(k,), ops=('integer',), interval=(1, oo, False, True), positions=(0,), conditions=())
    >>> try:
    ...     parse_latex(r"1 + \foo", offset=8, text=r"claim: $1 + \foo$")
    ... except ParseError as error:
    ...     print(error.pretty())
    unknown command \foo at column 13
      claim: $1 + \foo$
                  ^
    """
    if not isinstance(source, str):
        raise ParseError(f"expected text, got {type(source).__name__}")
    if text is None:
        text, offset = source, 0
    elif not isinstance(text, str) or offset < 0 or text[offset:offset + len(source)] != source:
        raise ValueError("source must be text[offset:offset + len(source)]")
    if len(source) > MAX_LENGTH:
        raise ParseError(f"formula too long: {len(source)} characters (at most {MAX_LENGTH})")
    if not source.strip(" \t\r\n~"):
        raise ParseError(f"empty formula at column {offset + 1}: expected an expression", text=text,
                         position=offset)
    tokens = _Lexer(source, offset, text, symbols).run()
    end = offset + len(source.rstrip())
    parser = lark_parser(LATEX_GRAMMAR).parse_interactive()
    try:
        for token in tokens:
            parser.feed_token(token)
        tree = parser.feed_eof(tokens[-1] if tokens else None)
    except UnexpectedInput as exc:
        raise _syntax_error(exc, tokens, text, end) from None
    _check_depth(tree, text)
    return _build(tree, text, symbols)


def _build(tree: Tree, text: str, symbols: Mapping[str, sp.Basic] | None) -> LatexMath:
    builder = _LatexBuilder(text, symbols)
    children = tree.children
    sides = [c for c in children if isinstance(c, Tree)]
    if tree.data == "top_membership":
        member, domain = sides
        value = builder.expression(member)
        if domain.data == "interval":
            interval, ops = builder.interval(domain), ()
        else:
            interval, integer = builder.blackboard(domain)
            ops = ("integer",) if integer else ()
        return LatexMath("membership", (value,), ops, interval, (_position(member),), tuple(builder.conditions))
    values = tuple(builder.expression(side) for side in sides)
    positions = tuple(_position(side) for side in sides)
    if tree.data == "top_relation":
        ops = tuple(RELATIONS[str(t)] for t in children if isinstance(t, Token) and t.type == "REL")
        return LatexMath("relation", values, ops, None, positions, tuple(builder.conditions))
    if tree.data == "top_tuple":
        brackets = [str(t) for t in children if isinstance(t, Token) and t.type in ("OPEN", "CLOSE")]
        if brackets not in ([], ["(", ")"]):
            raise builder.error("a tuple is written (a, b); [a, b) is an interval: write x \\in [a, b)",
                                children[0])
        return LatexMath("tuple", values, (), None, positions, tuple(builder.conditions))
    return LatexMath("expr", values, (), None, positions, tuple(builder.conditions))


def _position(node: Any) -> int:
    if isinstance(node, Token):
        return node.start_pos
    return node.meta.start_pos
