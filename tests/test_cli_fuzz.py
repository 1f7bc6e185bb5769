"""Fuzzing the command line: every input ends within its budget with an answer or a one-line refusal.

Inputs come from the subject grammar (mechanisms, notions, compositions, numbers
in plain and paper forms) mixed with hostile text: huge and tiny numbers
(10^300, 10^-300), deep nesting, 1 MB strings, unicode, control characters,
unbalanced parentheses, code-injection attempts.  Each is run in-process through
``cdpsym.cli.main(argv)`` with ``--timeout`` and must

* exit 0 with something on stdout, or exit 1, 2 or 3 with nothing on stdout
  and exactly one line on stderr, starting ``cdpsym:``;
* never print a traceback or ``internal error``;
* finish within its ``--timeout`` (plus slack for the timer to land).

The default run is a derandomized sample (~100 inputs, well under a minute);
``pytest -m slow tests/test_cli_fuzz.py`` runs 10^5 (``CDPSYM_FUZZ_EXAMPLES=N`` sets another count).
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import os
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cdpsym.cli import main

TIMEOUT = 8.0        # --timeout given to each input (seconds)
SLACK = 4.0          # the timer fires between bytecodes; cleanup and the message take a moment
HARD_LIMIT = 120.0   # a stuck input dumps the stacks and ends the test run rather than hang it

# -- numbers ----------------------------------------------------------------------------------------------------

PLAIN_NUMBERS = ["1", "2", "0.5", ".25", "1e-6", "1e-10", "2.5E+3", "1/3", "2^-20", "2**-20", "3/2", "10", "1000",
                 "0", "-1", "-0.5", "1e-300", "1e300", "10^300", "10^-300", "1-10^-300", "10^-2000", "10^2000"]
IRRATIONAL = ["sqrt(2)", "exp(-20)", "log(3)", "ln(2)", "pi", "e", "pi/4", "sqrt(2)/10", "exp(1)", "tanh(1)",
              "Phi(1)", "erf(1/2)", "erfc(2)", "min(1, 2)", "max(1/2, 1/3)", "1/sqrt(2)", "exp(-exp(10))",
              "exp(exp(5))", "sqrt(2)-sqrt(2)", "(1+sqrt(2))^2-2*sqrt(2)-3", "log(0)", "sqrt(-1)", "1/0",
              "0^0", "2^10001", "10^10^10", "(-8)^(1/3)", "tanh(1000)", "1-tanh(40)", "erfc(1000)"]
HOSTILE_NUMBERS = ["", " ", "1e-", "1..2", "--1", "+", "1 2", "(1", "1)", "((1)", "1e999999999", "9" * 2001,
                   "1" + "0" * 2500, "0." + "0" * 1999 + "1", "(" * 60 + "1" + ")" * 60, "-" * 300 + "1",
                   "2^" * 200 + "2", "1/" * 500 + "1", "nan", "inf", "oo", "zoo", "I", "1j", "0x10", "1_000",
                   "٣", "１", "½", "1\x00", "1\n2", "\u202e1", "x", "delta", "eps", "__import__('os')",
                   "lambda: 1", "exec('1')", "1; import os", "`id`", "$(id)", r"\frac{1}{2}", "$1$"]


def numbers() -> st.SearchStrategy[str]:
    """Mostly valid numbers (plain, random, irrational), some hostile: one branch in eight each."""
    valid = st.one_of(st.integers(1, 10**6).map(str),
                      st.fractions(min_value=0, max_value=10, max_denominator=10**6).map(str),
                      st.floats(min_value=1e-12, max_value=1e3).map(repr),
                      st.integers(-20, 3).map(lambda n: f"1e{n}"),
                      st.integers(1, 64).map(lambda n: f"2^-{n}"))
    wild = st.one_of(st.integers(-3, 10**6).map(str),
                     st.fractions(min_value=-10, max_value=10, max_denominator=10**6).map(str),
                     st.floats(allow_nan=True, allow_infinity=True).map(repr),
                     st.integers(-400, 400).map(lambda n: f"1e{n}"),
                     st.integers(-400, 400).map(lambda n: f"10^{n}"))
    plain = st.sampled_from(PLAIN_NUMBERS)
    return st.one_of(plain, plain, valid, valid, valid, st.sampled_from(IRRATIONAL), wild,
                     st.sampled_from(HOSTILE_NUMBERS))


def deltas() -> st.SearchStrategy[str]:
    """Mostly in (0, 1), as a delta should be; sometimes any number."""
    unit = st.one_of(st.integers(1, 300).map(lambda n: f"1e-{n}"), st.integers(1, 1000).map(lambda n: f"2^-{n}"),
                     st.fractions(min_value=0, max_value=1, max_denominator=10**9).filter(lambda f: 0 < f < 1).map(str),
                     st.floats(min_value=1e-300, max_value=0.999).map(repr),
                     st.sampled_from(["1e-6", "1e-10", "1/3", "0.5", "10^-300", "1-10^-300", "exp(-20)"]))
    return st.one_of(unit, unit, unit, numbers())


# -- subjects ---------------------------------------------------------------------------------------------------

def _call(name: str, params: list[str]) -> st.SearchStrategy[str]:
    """``Name(a, b)`` or ``Name(p=a, q=b)`` or a mixture."""
    def build(values: list[str], keyword: list[bool]) -> str:
        args = []
        for i, (p, v) in enumerate(zip(params, values)):
            args.append(f"{p}={v}" if keyword[i] or any(keyword[:i]) else v)
        return f"{name}({', '.join(args)})"
    return st.builds(build, st.lists(numbers(), min_size=len(params), max_size=len(params)),
                     st.lists(st.booleans(), min_size=len(params), max_size=len(params)))


MECHANISMS = st.one_of(
    st.sampled_from(["Gaussian(1, 2)", "Gaussian(sensitivity=1, sigma=2)", "Laplace(1, 1)", "RandomizedResponse(0.1)",
                     "compose(k=1000, Gaussian(1, 2))", "compose(RandomizedResponse(eps=0.1), k=100)",
                     "compose(k=20, Laplace(sensitivity=1, scale=1))", "compose(Gaussian(1, 2), Gaussian(2, 3))"]),
    _call("Gaussian", ["sensitivity", "sigma"]),
    _call("Laplace", ["sensitivity", "scale"]),
    _call("RandomizedResponse", ["eps"]),
)
NOTIONS = st.one_of(
    st.sampled_from(["zCDP(rho=1/2)", "0.5-zCDP", "RDP(alpha=8, eps=1/2)", "DP(eps=1)", "1-DP",
                     "compose(k=100, DP(eps=0.1))", "(1, 1e-6)-DP", "tCDP(1, 2)"]),
    _call("DP", ["eps"]), _call("DP", ["eps", "delta"]), _call("zCDP", ["rho"]), _call("CDP", ["mu", "tau"]),
    _call("RDP", ["alpha", "eps"]), _call("tCDP", ["rho", "omega"]), _call("ZCDP", ["rho"]),
    numbers().map(lambda x: f"{x}-DP"), numbers().map(lambda x: f"{x}-zCDP"),
    st.tuples(numbers(), numbers()).map(lambda p: f"({p[0]}, {p[1]})-DP"),
    st.tuples(numbers(), numbers()).map(lambda p: f"({p[0]}, {p[1]})-RDP"),
    st.tuples(numbers(), numbers()).map(lambda p: f"({p[0]},{p[1]})-CDP"),
)
BASE = st.one_of(MECHANISMS, NOTIONS)


def _compose(parts: list[str], k: str | None, k_first: bool) -> str:
    if k is None:
        return f"compose({', '.join(parts)})"
    return f"compose(k={k}, {', '.join(parts)})" if k_first else f"compose({', '.join(parts)}, k={k})"


COUNTS = st.one_of(st.sampled_from(["1", "2", "10", "1000", "10^6", "10^9", "10^9+1", "0", "-1", "2.5", "k",
                                    "sqrt(2)", "10^300"]), st.integers(1, 10**4).map(str))
SUBJECTS = st.recursive(
    BASE,
    lambda inner: st.builds(_compose, st.lists(inner, min_size=1, max_size=3), st.none() | COUNTS, st.booleans()),
    max_leaves=6,
)

HOSTILE_TEXT = [
    "", " ", "x" * 10**6, "Gaussian(1, 2)" * 150, "(" * 10**5, ")" * 1000, "(" * 49 + "Gaussian(1,2)" + ")" * 49,
    "compose(" * 30 + "Gaussian(1, 2)" + ", k=2)" * 30, "compose(" * 200 + "DP(1)" + ")" * 200,
    "Gaussian(1, 2", "Gaussian(1, 2))", "Gaussian((1, 2)", "Gaussian(1,, 2)", "Gaussian(,)", "Gaussian()",
    "Gaussian(1, 2, 3)", "Gaussian(sigma=1, sigma=2)", "Gaussian(sensitivity=1, 2)", "Gaussian(foo=1, sigma=2)",
    "gaussian(1, 2)", "Gauss(1,2)", "compose()", "compose(k=2)", "compose(1, 2)", "compose(k=2, k=3, DP(1))",
    "group(size=2, DP(1))", "DP", "DP()", "-DP", "()-DP", "(1)-DP", "(1,2,3)-DP", "1-RDP", "(1, 2)-zCDP",
    "1 -DP", "1-dp", "1-DP-DP", "$\\rho$-zCDP", "$(1, 10^{-6})$-DP",
    "__import__('os').system('echo pwned')", "eval('1')", "exec('import os')", "Gaussian(1, __import__('os'))",
    "Gaussian(1, lambda: 2)", "Gaussian(1, [2])", "Gaussian(1, {2})", "Gaussian(1, '2')", "Gaussian(1, 2).__class__",
    "().__class__.__bases__[0].__subclasses__()", "Gaussian(1, 2); rm -rf /", "Gaussian(1, 2) # c",
    "Gaussian(1,\x002)", "Gaussian(1,\n2)", "Gaussian(1,\t2)", "Gaussian(1,\r2)", "\x1b[31mGaussian(1,2)",
    "Gaussian(1,２)", "Gaussian(1,٢)", "Gaußian(1,2)", "Gaussian(1, 2)\u200b", "\u202eGaussian(1,2)",
    "Gaussian(σ=2, Δ=1)", "RandomizedResponse(ε=1)", "zCDP(ρ=1/2)", "🙂", "Gaussian(1, 🙂)", "\udcff",
    "Gaussian(1, " + "1" * 2001 + ")", "Gaussian(1, " + "x" * 1990 + ")",
]


def subject_text() -> st.SearchStrategy[str]:
    return st.one_of(SUBJECTS, SUBJECTS, SUBJECTS, st.sampled_from(HOSTILE_TEXT),
                     st.text(max_size=60), st.text(alphabet="()*,+-/^.=0123456789eEkDPzCRGaussian ", max_size=80))


# -- command lines ----------------------------------------------------------------------------------------------

NAMES = ["gaussian_zcdp", "approx_dp_of_zcdp", "subgaussian_concentration", "markov_exponential",
         "tail_condition", "no_such_theorem", "gausian_zcdp", "", "x" * 10**5, "../../etc/passwd", "gaussian_zcdp\x00",
         "GAUSSIAN_ZCDP", "__init__", "LIBRARY", "get", "foundations", "theorems.gaussian_zcdp", "-", "🙂"]
FLAG_VALUES = st.one_of(st.sampled_from(["0", "1", "5", "50", "1000", "1001", "-1", "10^3", "x", "", "1e3",
                                         "9" * 30, "9" * 5000]), st.integers(1, 30).map(str),
                        st.integers(-10, 2000).map(str))


def _with(flag: str, value: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.one_of(st.just([]), value.map(lambda v: [f"{flag}={v}"]))


def _argv_epsilon():
    return st.builds(lambda s, d, dig, js: ["epsilon", s, f"--delta={d}", *dig, *js],
                     subject_text(), deltas(), _with("--digits", FLAG_VALUES), st.sampled_from([[], ["--json"]]))


def _argv_delta():
    return st.builds(lambda s, e, dig, js: ["delta", s, f"--eps={e}", *dig, *js],
                     subject_text(), numbers(), _with("--digits", FLAG_VALUES), st.sampled_from([[], ["--json"]]))


def _argv_calibrate():
    gaussian = st.builds(lambda e, d, k, sens, js: ["calibrate", "gaussian", f"--eps={e}", f"--delta={d}", *k, *sens,
                                                    *js],
                         numbers(), deltas(), _with("--k", COUNTS), _with("--sensitivity", numbers()),
                         st.sampled_from([[], ["--json"]]))
    pure = st.builds(lambda e, d, k, js: ["calibrate", "pure-dp", f"--eps={e}", f"--delta={d}", *k, *js],
                     numbers(), deltas(), _with("--k", COUNTS), st.sampled_from([[], ["--json"]]))
    odd = st.builds(lambda t, e, d, k, sens: ["calibrate", t, f"--eps={e}", f"--delta={d}", *k, *sens],
                    st.sampled_from(["laplace", "", "pure-dp", "GAUSSIAN"]), numbers(), numbers(),
                    _with("--k", numbers()), _with("--sensitivity", numbers()))
    return st.one_of(gaussian, pure, odd)


def _argv_list():
    return st.lists(st.sampled_from(["--json", "--markdown", "--axioms", "--frob"]), max_size=2, unique=True).map(
        lambda flags: ["list", *flags])


def _argv_verify():
    return st.builds(lambda name, extra: ["verify", name, "--quiet", "--examples=1", "--no-axioms", *extra],
                     st.sampled_from(NAMES) | st.text(max_size=30),
                     st.sampled_from([[], ["--json"], ["--dps=20"], ["--dps=5"], ["--dps=100000"]]))


def _argv_latex():
    return st.builds(lambda name, extra: ["latex", name, *extra],
                     st.sampled_from(NAMES) | st.text(max_size=30), st.sampled_from([[], ["--standalone"]]))


ARGV = st.one_of(_argv_epsilon(), _argv_epsilon(), _argv_delta(), _argv_calibrate(), _argv_list(), _argv_verify(),
                 _argv_latex())


# -- the check ----------------------------------------------------------------------------------------------------

def run_cli(argv: list[str]) -> tuple[int, str, str, float]:
    out, err = io.StringIO(), io.StringIO()
    t0 = time.monotonic()
    faulthandler.dump_traceback_later(HARD_LIMIT, exit=True)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: bad option (3)
                code = exc.code
    finally:
        faulthandler.cancel_dump_traceback_later()
    return code, out.getvalue(), err.getvalue(), time.monotonic() - t0


def _short(argv: list[str]) -> list[str]:
    return [a if len(a) <= 80 else a[:60] + f"...({len(a)} chars)" for a in argv]


def check(argv: list[str]) -> None:
    argv = [*argv, f"--timeout={TIMEOUT:g}"]
    code, out, err, seconds = run_cli(argv)
    where = f"{_short(argv)} -> exit {code}\nstdout: {out[:300]!r}\nstderr: {err[:600]!r}"
    assert "Traceback" not in out + err, where
    assert "internal error" not in err, where
    assert code in (0, 1, 2, 3), where
    assert seconds <= TIMEOUT + SLACK, f"{seconds:.1f} s: {where}"
    lines = [line for line in err.splitlines() if line.strip()]
    if code == 0:
        assert out.strip(), where
    elif code in (2, 3):
        assert out == "", where
        assert len(lines) == 1 and lines[0].startswith("cdpsym:"), where
        assert len(lines[0]) <= 700, where


_SETTINGS = dict(deadline=None, database=None, derandomize=True, print_blob=False,
                 suppress_health_check=list(HealthCheck))


@settings(max_examples=100, **_SETTINGS)
@given(ARGV)
def test_cli_fuzz_sample(argv):
    check(argv)


#: ``CDPSYM_FUZZ_EXAMPLES=3000 pytest -m slow tests/test_cli_fuzz.py``: a bounded slow run (default 10^5)
SLOW_EXAMPLES = int(os.environ.get("CDPSYM_FUZZ_EXAMPLES", "100000"))


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, **_SETTINGS)
@given(ARGV)
def test_cli_fuzz_long(argv):
    check(argv)


@pytest.mark.parametrize("argv", [
    ["epsilon", "x" * 10**6, "--delta", "1e-6"],
    ["epsilon", "Gaussian(1, 2)", "--delta", "1" * 10**6],
    ["delta", "(" * 10**5, "--eps", "1"],
    ["calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "9" * 10**6],
    ["verify", "x" * 10**6, "--quiet"],
    ["latex", "x" * 10**6],
    ["epsilon", "__import__('os').system('echo pwned')", "--delta", "1e-6"],
    ["epsilon", "Gaussian(1, 2)", "--delta", "__import__('os').system('echo pwned')"],
    ["epsilon", "Gaussian(1,\x002)", "--delta", "1e-6"],
    ["epsilon", "\u202eGaussian(1, 2)", "--delta", "1e-6"],
], ids=lambda argv: " ".join(_short(argv))[:50])
def test_hostile_inputs_get_a_short_one_line_answer(argv):
    check(argv)
    code, out, err, _ = run_cli(argv)
    assert code == 3 and len(err) < 700 and "\x00" not in err and "\u202e" not in err
