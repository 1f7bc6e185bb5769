"""The safe expression parser: what it accepts, exactly; what it refuses, where and how fast."""

from __future__ import annotations

import ast
import builtins
import inspect
import random
import time

import pytest
import sympy as sp

import cdpsym.expr.parse as parse_module
from cdpsym.errors import CdpsymError, InvalidParameter
from cdpsym.expr import symbols as S
from cdpsym.expr.parse import (CANONICAL_SYMBOLS, MAX_LENGTH, OutOfDomain, ParseError, parse_expression,
                               parse_number, parse_rational)

half = sp.Rational(1, 2)


@pytest.mark.parametrize("text, expected", [
    ("0", sp.Integer(0)),
    ("42", sp.Integer(42)),
    ("0.5", half),
    (".5", half),
    ("1.", sp.Integer(1)),
    ("1e-10", sp.Rational(1, 10 ** 10)),
    ("2.5E+3", sp.Integer(2500)),
    ("1.25e-2", sp.Rational(1, 80)),
    ("0.1 + 0.2", sp.Rational(3, 10)),
    ("1 + 2*3", sp.Integer(7)),
    ("(1 + 2)*3", sp.Integer(9)),
    ("7/2", sp.Rational(7, 2)),
    ("1/3 - 1/6", sp.Rational(1, 6)),
    ("-2^2", sp.Integer(-4)),
    ("(-2)^2", sp.Integer(4)),
    ("2^-1", half),
    ("2**-1", half),
    ("2^3^2", sp.Integer(512)),
    ("2*-3", sp.Integer(-6)),
    ("--1", sp.Integer(1)),
    ("+1", sp.Integer(1)),
    ("sqrt(2)", sp.sqrt(2)),
    ("sqrt(1/4)", half),
    ("log(1/delta)", sp.log(1 / S.delta)),
    ("ln(2)", sp.log(2)),
    ("exp(-1)", sp.exp(-1)),
    ("tanh(eps/2)", sp.tanh(S.eps / 2)),
    ("Phi(0)", half),
    ("min(1, 2, 3)", sp.Integer(1)),
    ("max(eps, 1)", sp.Max(S.eps, 1)),
    ("pi", sp.pi),
    ("e^2", sp.exp(2)),
    ("E", sp.E),
    ("eps*(exp(eps)-1)/2", S.eps * (sp.exp(S.eps) - 1) / 2),
    ("rho + 2*sqrt(rho*log(1/delta))", S.rho + 2 * sp.sqrt(S.rho * sp.log(1 / S.delta))),
    ("1/(2*sigma^2)", 1 / (2 * S.sigma ** 2)),
    ("ρ + ε - δ", S.rho + S.eps - S.delta),
    ("sqrt(2*k*log(1/delta))*eps", sp.sqrt(2 * S.k * sp.log(1 / S.delta)) * S.eps),
    ("alpha*Delta^2/(2*sigma^2)", S.alpha * S.sensitivity ** 2 / (2 * S.sigma ** 2)),
    ("  1 \t+\n 1 ", sp.Integer(2)),
])
def test_accepts(text, expected):
    assert parse_expression(text, symbols=CANONICAL_SYMBOLS) == expected


def test_numbers_are_exact_rationals_never_floats():
    assert parse_expression("1e-10") == sp.Rational(1, 10 ** 10)
    assert isinstance(parse_expression("1e-10"), sp.Rational)
    assert parse_expression("0.1") == sp.Rational(1, 10)  # not the double 0.1000000000000000055…
    assert parse_expression("1e-300") == sp.Rational(1, 10 ** 300)
    assert parse_expression("123456789012345678901234567890.5") == sp.Rational(246913578024691357802469135781, 2)
    assert not parse_expression("sqrt(2)*0.3 + 1e-5").atoms(sp.Float)


def test_symbols_come_from_the_whitelist_and_are_the_canonical_ones():
    assert parse_expression("eps", symbols=CANONICAL_SYMBOLS) is S.eps
    assert parse_expression("epsilon", symbols=CANONICAL_SYMBOLS) is S.eps
    assert parse_expression("Δ", symbols=CANONICAL_SYMBOLS) is S.sensitivity
    assert parse_expression("t", symbols={"t": S.tau}) is S.tau
    with pytest.raises(ParseError, match="only numbers"):
        parse_expression("eps")


@pytest.mark.parametrize("text, fragment, column", [
    # syntax, with the column of the offending token
    ("1 + 2)", "unexpected ')' at column 6", 6),
    ("(1 + 2", "unexpected end of input at column 7: '(' at column 1 is never closed", 7),
    ("sqrt(2) + (3 * (4 - 1)) + 1)", "unexpected ')' at column 28 (no '(' to close)", 28),
    ("1 +* 2", "unexpected '*' at column 4", 4),
    ("1 2", "unexpected '2' at column 3", 3),
    ("1,2", "unexpected ',' at column 2", 2),
    ("2.5.3", "unexpected '.3' at column 4", 4),
    ("2e", "unexpected 'e' at column 2", 2),
    ("1 + ", "unexpected end of input at column 4", 4),
    ("1 = 2", "unexpected '=' at column 3", 3),
    ("1 # 2", "unexpected character '#' at column 3", 3),
    ("a;b", "unexpected character ';' at column 2", 2),
    ("", "empty input", 1),
    ("   ", "empty input", 1),
    # names and functions
    ("x", "unknown name 'x' (only numbers, pi and e are allowed here) at column 1", 1),
    ("2*foo", "unknown name 'foo'", 3),
    ("foo(1)", "unknown function 'foo'", 1),
    ("sqrt", "sqrt is a function: write sqrt(...) at column 1", 1),
    ("1 + log(1, 2)", "log takes 1 argument, got 2 at column 5", 5),
    ("sqrt()", "sqrt takes 1 argument, got 0", 1),
    ("exp(x=1)", "exp(...) takes no keyword arguments, got x= at column 5", 5),
    ("__import__", "unknown name '__import__'", 1),
    # values outside their domain
    ("1/0", "division by zero at column 2", 2),
    ("1/(1-1)", "division by zero at column 2", 2),
    ("log(0)", "log(0) is not a finite number at column 1", 1),
    ("2 + sqrt(-1)", "sqrt(-1) is not a real number at column 5", 5),
    ("0^-1", "0 to a non-positive power is undefined at column 2", 2),
    # sizes
    ("10^10^10", "exponent 10000000000 is too large", 3),
    ("9^9^9", "exponent 387420489 is too large", 2),
    ("2^2^2^2^2", "exponent 65536 is too large", 2),
    ("(10^1999)^2", "power too large: the result would have about 3998 digits", 10),
    ("1e-5000", "number '1e-5000' has more than 2000 digits", 1),
    ("1e99999999", "is too large or too small", 1),
    ("sqrt(10^1000 + 1)", "root of a number with more than 300 digits", 1),
    ("(" * 60 + "1" + ")" * 60, "parentheses nested more than 50 deep at column 51", 51),
    ("-" * 500 + "1", "expression nested more than 100 levels deep", None),
])
def test_rejects_with_message_and_position(text, fragment, column):
    with pytest.raises(ParseError) as info:
        parse_expression(text)
    assert fragment in str(info.value)
    if column is not None:
        assert info.value.column == column
        assert info.value.position == column - 1
    assert "\n" not in str(info.value)


def test_errors_are_cdpsym_errors_and_value_errors():
    with pytest.raises(ParseError) as info:
        parse_expression("1 +")
    assert isinstance(info.value, CdpsymError) and isinstance(info.value, ValueError)
    assert info.value.text == "1 +"
    with pytest.raises(OutOfDomain) as info:
        parse_expression("log(0)")
    assert isinstance(info.value, InvalidParameter) and isinstance(info.value, ParseError)


def test_pretty_points_at_the_error():
    with pytest.raises(ParseError) as info:
        parse_expression("1 + 2)")
    assert info.value.pretty().splitlines()[-1] == "       ^"


def test_nothing_is_executed(monkeypatch, capfd):
    calls = []

    def spy(name):
        def refuse(*args, **kwargs):
            calls.append(name)
            raise AssertionError(f"{name} called on user text")
        return refuse

    monkeypatch.setattr(builtins, "eval", spy("eval"))
    monkeypatch.setattr(builtins, "exec", spy("exec"))
    import sympy.parsing.sympy_parser as sympy_parser

    monkeypatch.setattr(sympy_parser, "parse_expr", spy("parse_expr"))
    for attack in ["__import__('os').system('echo pwned')",
                   "__import__(\"os\").system(\"echo pwned\")",
                   "exec(1)", "eval(1)", "().__class__", "Symbol(1)", "sympify(1)", "lambda: 1"]:
        with pytest.raises(ParseError):
            parse_expression(attack, symbols=CANONICAL_SYMBOLS)
    assert calls == []
    assert "pwned" not in capfd.readouterr().out


def test_the_source_never_calls_eval_exec_or_sympify():
    """A static guard: parse.py has no call that could execute text."""
    tree = ast.parse(inspect.getsource(parse_module))
    forbidden = {"eval", "exec", "compile", "sympify", "parse_expr", "S", "__import__"}
    called = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            called.add(f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else "")
    assert not called & forbidden


def test_a_100kb_input_fails_fast():
    text = "1+" * 50_000 + "1"
    t0 = time.perf_counter()
    with pytest.raises(ParseError, match=f"input too long: {len(text)} characters \\(at most {MAX_LENGTH}\\)"):
        parse_expression(text)
    assert time.perf_counter() - t0 < 0.5


@pytest.mark.parametrize("text, fragment", [
    ("(" * 900 + "1" + ")" * 900, "parentheses nested more than 50 deep"),
    ("-" * 1900 + "1", "nested more than 100 levels deep"),
    ("2^" * 900 + "2", "nested more than 100 levels deep"),
    ("sqrt(-" * 40 + "2" + ")" * 40, "nested more than 100 levels deep"),
])
def test_deep_nesting_fails_fast(text, fragment):
    t0 = time.perf_counter()
    with pytest.raises(ParseError, match=fragment):
        parse_expression(text)
    assert time.perf_counter() - t0 < 1.0


def test_long_flat_sums_are_fine():
    assert parse_expression("+".join(["1"] * 999)) == 999


def test_costly_expressions_stop_at_the_time_limit(monkeypatch):
    monkeypatch.setattr(parse_module, "MAX_SECONDS", 0.2)
    base = random.randrange(10 ** 6)  # fresh numbers: sympy's cache must not make this cheap
    text = "+".join(f"sqrt(10^299+{base + i})" for i in range(90))  # each root factors a 300-digit number
    t0 = time.perf_counter()
    with pytest.raises(ParseError, match=r"expression too costly to build \(over 0.2 s\) at column"):
        parse_expression(text)
    assert time.perf_counter() - t0 < 1.5


def test_parse_number_and_parse_rational():
    assert parse_number("exp(-20)") == sp.exp(-20)
    assert parse_rational("2^-20") == sp.Rational(1, 2 ** 20)
    with pytest.raises(ParseError, match="exact rational"):
        parse_rational("sqrt(2)")
    with pytest.raises(ParseError, match="unknown name 'delta'"):
        parse_number("delta")
