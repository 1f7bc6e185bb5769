"""The subject grammar of the claim language: mechanisms and notions, their reprs, and bad input."""

from __future__ import annotations

import time

import pytest
import sympy as sp

from cdpsym.claims import NotionComposition, OutOfDomain, ParseError, parse_subject
from cdpsym.errors import InvalidParameter
from cdpsym.expr import symbols as S
from cdpsym.mechanisms import Gaussian, Laplace, RandomizedResponse, compose
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, PureDP

R = sp.Rational

ROUND_TRIP = [
    Gaussian(sensitivity=1, sigma=2),
    Gaussian(sensitivity=R(1, 3), sigma=R(7, 2)),
    Gaussian(sensitivity=sp.sqrt(10) / 2, sigma=1),
    Gaussian(sensitivity=1, sigma=S.sigma),
    Laplace(sensitivity=1, scale=2),
    Laplace(sensitivity=2, scale=R(1, 10 ** 6)),
    RandomizedResponse(eps=R(1, 10)),
    RandomizedResponse(eps=sp.log(3)),
    RandomizedResponse.from_p(R(3, 4)),
    compose(Gaussian(1, 2), k=1000),
    compose(Gaussian(1, 2), Gaussian(2, 3), k=3),
    compose(Gaussian(1, 2), Laplace(1, 1)),
    compose(RandomizedResponse(R(1, 10)), k=10 ** 9),
    compose(compose(Gaussian(1, 2), k=2), Laplace(1, 3), k=5),
    compose(Laplace(1, 1), k=S.k),
    PureDP(eps=1),
    ApproxDP(eps=1, delta=R(1, 10 ** 6)),
    ZCDP(rho=R(1, 2)),
    ZCDP(rho=S.rho),
    MeanConcentratedDP(mu=R(1, 2), tau=1),
    RDP(alpha=2, eps=R(1, 2)),
    TCDP(rho=R(1, 10), omega=8),
    NotionComposition((PureDP(eps=R(1, 10)),), sp.Integer(100)),
    NotionComposition((ZCDP(rho=S.rho), Gaussian(1, 2)), S.k),
]


@pytest.mark.parametrize("obj", ROUND_TRIP, ids=repr)
def test_reprs_parse_back_to_equal_objects(obj):
    parsed = parse_subject(repr(obj))
    assert parsed == obj
    assert type(parsed) is type(obj)
    assert repr(parsed) == repr(obj)


@pytest.mark.parametrize("text, expected", [
    # mechanisms: keyword, positional, mixed, Greek keywords
    ("Gaussian(sensitivity=1, sigma=2)", Gaussian(1, 2)),
    ("Gaussian(1, 2)", Gaussian(1, 2)),
    ("Gaussian(1, sigma=2)", Gaussian(1, 2)),
    ("Gaussian(sigma=2, sensitivity=1)", Gaussian(1, 2)),
    ("Gaussian(Δ=1, σ=2)", Gaussian(1, 2)),
    ("Gaussian(sensitivity=1, sigma=sqrt(2)/3)", Gaussian(1, sp.sqrt(2) / 3)),
    ("Laplace(sensitivity=1, scale=1e-2)", Laplace(1, R(1, 100))),
    ("RandomizedResponse(eps=0.1)", RandomizedResponse(R(1, 10))),
    ("RandomizedResponse(0)", RandomizedResponse(0)),
    # compositions: k first (DESIGN), k last (repr), several parts
    ("compose(k=1000, Gaussian(1, 2))", compose(Gaussian(1, 2), k=1000)),
    ("compose(Gaussian(1, 2), k=1000)", compose(Gaussian(1, 2), k=1000)),
    ("compose(k=2*5, Gaussian(1, 2))", compose(Gaussian(1, 2), k=10)),
    ("compose(Gaussian(1, 2), Laplace(1, 1), RandomizedResponse(1))",
     compose(Gaussian(1, 2), Laplace(1, 1), RandomizedResponse(1))),
    ("compose(k=3, compose(k=2, Laplace(1, 1)))", compose(compose(Laplace(1, 1), k=2), k=3)),
    ("compose(k=k, Gaussian(1, sigma))", compose(Gaussian(1, S.sigma), k=S.k)),
    # notions, canonical form
    ("zCDP(rho=1/2)", ZCDP(rho=R(1, 2))),
    ("zCDP(rho)", ZCDP(rho=S.rho)),
    ("DP(eps=1)", PureDP(eps=1)),
    ("DP(eps)", PureDP(eps=S.eps)),
    ("DP(eps=1, delta=1e-5)", ApproxDP(eps=1, delta=R(1, 10 ** 5))),
    ("DP(1, 1e-5)", ApproxDP(eps=1, delta=R(1, 10 ** 5))),
    ("DP(ε=1, δ=0)", ApproxDP(eps=1, delta=0)),
    ("RDP(alpha=2, eps=1/2)", RDP(alpha=2, eps=R(1, 2))),
    ("CDP(mu=eps*(exp(eps)-1)/2, tau=eps)", MeanConcentratedDP(mu=S.eps * (sp.exp(S.eps) - 1) / 2, tau=S.eps)),
    ("tCDP(rho=1/10, omega=8)", TCDP(rho=R(1, 10), omega=8)),
    # notions, paper form
    ("0.5-zCDP", ZCDP(rho=R(1, 2))),
    ("rho-zCDP", ZCDP(rho=S.rho)),
    ("1/(2*sigma^2)-zCDP", ZCDP(rho=1 / (2 * S.sigma ** 2))),
    ("1-DP", PureDP(eps=1)),
    ("eps - DP", PureDP(eps=S.eps)),
    ("(1, 1e-6)-DP", ApproxDP(eps=1, delta=R(1, 10 ** 6))),
    ("(rho + 2*sqrt(rho*log(1/delta)), delta)-DP",
     ApproxDP(eps=S.rho + 2 * sp.sqrt(S.rho * sp.log(1 / S.delta)), delta=S.delta)),
    ("(mu, tau)-CDP", MeanConcentratedDP(mu=S.mu, tau=S.tau)),
    ("(alpha, eps)-RDP", RDP(alpha=S.alpha, eps=S.eps)),
    ("(rho, omega)-tCDP", TCDP(rho=S.rho, omega=S.omega)),
    # compositions of notions
    ("compose(k=k, DP(eps))", NotionComposition((PureDP(eps=S.eps),), S.k)),
    ("compose(0.5-zCDP, k=10)", NotionComposition((ZCDP(rho=R(1, 2)),), sp.Integer(10))),
    ("compose(1-DP, (1, 1e-6)-DP)", NotionComposition((PureDP(eps=1), ApproxDP(eps=1, delta=R(1, 10 ** 6))),
                                                      sp.Integer(1))),
])
def test_accepts(text, expected):
    parsed = parse_subject(text)
    assert parsed == expected
    assert type(parsed) is type(expected)


def test_numbers_only_mode_refuses_symbols():
    assert parse_subject("Gaussian(1, 2)", symbols=None) == Gaussian(1, 2)
    with pytest.raises(ParseError, match="unknown name 'sigma' .* at column 13"):
        parse_subject("Gaussian(1, sigma)", symbols=None)


@pytest.mark.parametrize("text, fragment, column, domain", [
    # not a subject
    ("Foo(1)", "expected a mechanism (Gaussian(...)", 1, False),
    ("1 + 2", "expected a mechanism", 1, False),
    ("group(size=2, DP(1))", "group(...) is part of the claim language but not implemented yet", 1, False),
    # syntax
    ("Gaussian(1, 2", "unexpected end of input at column 14: '(' at column 9 is never closed", 14, False),
    ("Gaussian(1,, 2)", "unexpected ',' at column 12", 12, False),
    ("Gaussian(1, 2))", "unexpected ')' at column 15", 15, False),
    ("Gaussian(sensitivity=1; sigma=2)", "unexpected character ';' at column 23", 23, False),
    ("(1, 2, 3)-DP", "unexpected ',' at column 6", 6, False),
    ("1-DP(eps=1)", "unexpected '(' at column 5", 5, False),
    # arguments
    ("Gaussian(1)", "Gaussian(...) is missing sigma", 1, False),
    ("Laplace(scale=1)", "Laplace(...) is missing sensitivity", 1, False),
    ("Gaussian(1, 2, 3)", "Gaussian(...) takes at most 2 arguments (sensitivity, sigma), got 3", 16, False),
    ("Gaussian(scale=1, sensitivity=1)", "Gaussian(...) has no parameter 'scale' (its parameters: sensitivity, sigma)",
     10, False),
    ("Gaussian(sigma=1, sigma=2)", "Gaussian(...) got sigma twice", 19, False),
    ("Gaussian(1, sensitivity=2)", "Gaussian(...) got sensitivity twice", 13, False),
    ("Gaussian(sigma=1, 2)", "positional argument after keyword arguments in Gaussian(...)", 19, False),
    ("zCDP(eps=1)", "zCDP(...) has no parameter 'eps' (its parameters: rho)", 6, False),
    ("Gaussian(Laplace(1, 1), 2)", "Laplace(...) is a mechanism, not a number", 10, False),
    ("Gaussian(1, 2)-DP", "Gaussian(...) is a mechanism, not a number", 1, False),
    ("Gaussian(1, 1-DP)", "sigma of Gaussian(...) must be a number, got the notion '1-DP'", 13, False),
    ("Gaussian(1, sigma=1-DP)", "unexpected '-DP' at column 20", 20, False),
    ("0.5-CDP", "CDP takes two parameters: write (mu, tau)-CDP", 4, False),
    ("(1, 2)-zCDP", "zCDP takes one parameter: write E-zCDP", 7, False),
    ("1-RDP", "RDP takes two parameters: write (alpha, eps)-RDP", 2, False),
    # compose
    ("compose(k=3)", "compose(...) needs at least one mechanism or notion", 1, False),
    ("compose()", "compose(...) needs at least one mechanism or notion", 1, False),
    ("compose(3, DP(1))", "compose(...) takes mechanisms or notions, and k=... by keyword; got '3'", 9, False),
    ("compose(n=3, DP(1))", "compose(...) takes mechanisms or notions and k=..., not n=...", 9, False),
    ("compose(k=2, k=3, DP(1))", "compose(...) got k twice", 14, False),
    ("compose(k=0, Gaussian(1, 2))", "k must be a positive integer at most 10^9, got k=0", 11, True),
    ("compose(k=1/2, Gaussian(1, 2))", "k must be a positive integer at most 10^9, got k=1/2", 11, True),
    ("compose(k=-3, Gaussian(1, 2))", "k must be a positive integer at most 10^9, got k=-3", 11, True),
    ("compose(k=10^9+1, Gaussian(1, 2))", "k must be a positive integer at most 10^9, got k=1000000001", 11, True),
    ("compose(Gaussian(1, 2), k=sqrt(2))", "got k=sqrt(2)", 27, True),
    ("compose(k=eps, Gaussian(1, 2))", "k must be a positive integer, got k=eps", 11, True),
    # out of domain: the constructors' messages, prefixed with where
    ("Gaussian(1, -2)", "Gaussian(...) at column 13: sigma must be positive, got sigma=-2", 13, True),
    ("Gaussian(sensitivity=1, sigma=0)", "Gaussian(...) at column 25: sigma must be positive, got sigma=0", 25, True),
    ("Gaussian(sensitivity=-1, sigma=1)", "sensitivity must be positive, got sensitivity=-1", 10, True),
    ("Laplace(1, scale=-1e-3)", "Laplace(...) at column 12: scale must be positive, got scale=-1/1000", 12, True),
    ("RandomizedResponse(eps=-1)", "eps must be non-negative, got eps=-1", 20, True),
    ("zCDP(rho=-1/2)", "zCDP(...) at column 6: rho must be non-negative, got rho=-1/2", 6, True),
    ("DP(1, 2)", "DP(...) at column 7: delta must be in [0, 1], got delta=2", 7, True),
    ("(1, 2)-DP", "(1, 2)-DP at column 5: delta must be in [0, 1], got delta=2", 5, True),
    ("RDP(alpha=1/2, eps=1)", "alpha must be >= 1, got alpha=1/2", 5, True),
    ("tCDP(rho=1, omega=1)", "omega must be > 1, got omega=1", 13, True),
    ("Gaussian(1, log(0))", "log(0) is not a finite number", 13, True),
    ("Gaussian(1, 1/0)", "division by zero", 14, True),
])
def test_rejects_with_message_and_position(text, fragment, column, domain):
    with pytest.raises(ParseError) as info:
        parse_subject(text)
    assert fragment in str(info.value)
    assert info.value.column == column
    assert isinstance(info.value, InvalidParameter) == domain
    assert isinstance(info.value, OutOfDomain) == domain
    assert "\n" not in str(info.value)


def test_the_claim_parser_executes_nothing(capfd):
    for attack in ["__import__('os').system('echo pwned')", "Gaussian(__import__('os'), 1)",
                   "compose(k=__import__, Gaussian(1, 2))"]:
        with pytest.raises(ParseError):
            parse_subject(attack)
    assert "pwned" not in capfd.readouterr().out


@pytest.mark.parametrize("text, fragment", [
    ("compose(" + "Gaussian(1, 2), " * 10_000 + "k=2)", "input too long"),
    ("compose(k=2, " * 60 + "DP(1)" + ")" * 60, "parentheses nested more than 50 deep"),
    ("Gaussian(1, " + "-" * 300 + "2)", "nested more than 100 levels deep"),
    ("compose(k=10^10^10, DP(1))", "exponent 10000000000 is too large"),
])
def test_size_limits_fail_fast(text, fragment):
    t0 = time.perf_counter()
    with pytest.raises(ParseError, match=fragment.replace("(", r"\(")):
        parse_subject(text)
    assert time.perf_counter() - t0 < 1.0
