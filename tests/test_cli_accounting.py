"""`cdpsym epsilon | delta | calibrate`: certified numbers on the command line, exit codes, JSON.

Every certified number printed is cross-checked against an independent
computation: the mechanisms' own mpmath profiles (:mod:`cdpsym.mechanisms`).
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest
from mpmath import mp

from cdpsym import accounting
from cdpsym.cli import main
from cdpsym.mechanisms import Gaussian, RandomizedResponse, compose

HAVE_ACCOUNTING = all(hasattr(accounting, name) for name in
                      ("epsilon", "delta", "calibrate_sigma", "calibrate_eps0", "zcdp_epsilon"))
needs_accounting = pytest.mark.skipif(
    not HAVE_ACCOUNTING,
    reason="cdpsym.accounting (issue 5) does not provide epsilon/delta/calibrate_*/zcdp_epsilon yet")

CERTIFIED_FIELDS = {"quantity", "rounded", "direction", "digits", "method", "query", "exact"}
LINE = re.compile(r"^(epsilon|delta) (<=|>=) (\S+) \(certified to (\d+) digits; "
                  r"(exact|upper bound|lower bound): (.+), rounded (up|down)\)$")


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse errors exit from inside main
        code = exc.code
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def certified_line(out: str, quantity: str = "epsilon") -> tuple[Fraction, int, str]:
    """The (value, certified digits, kind) of the first ``quantity <= …`` line."""
    for line in out.splitlines():
        m = LINE.match(line.strip())
        if m and m.group(1) == quantity:
            return Fraction(m.group(3)), int(m.group(4)), m.group(5)
    raise AssertionError(f"no certified {quantity} line in:\n{out}")


def assert_rounded_up(rounded: Fraction, exact, digits: int) -> None:
    """*rounded* is at or above *exact* and within one unit of its *digits*-th significant digit."""
    with mp.workdps(60):
        e = mp.mpf(exact)
        r = mp.mpf(rounded.numerator) / rounded.denominator
        assert r >= e * (1 - mp.mpf(10) ** -45), (r, e)
        assert r - e <= abs(e) * mp.mpf(10) ** (1 - digits), (r, e)


# -- epsilon -------------------------------------------------------------------------------------------------

@needs_accounting
def test_epsilon_of_a_gaussian_composition_is_certified_and_rounded_up(capsys):
    code, out, err = run(capsys, "epsilon", "compose(k=1000, Gaussian(sensitivity=1, sigma=2))",
                         "--delta", "1e-10", "--digits", "17")
    assert code == 0, err
    value, digits, kind = certified_line(out)
    assert digits == 17 and kind == "exact"
    assert "rounded up" in out
    exact = compose(Gaussian(1, 2), k=1000).epsilon(mp.mpf(1) / 10 ** 10, dps=40)
    assert_rounded_up(value, exact, 17)


@needs_accounting
def test_epsilon_json_has_the_certified_fields(capsys):
    code, out, _ = run(capsys, "epsilon", "compose(Gaussian(1, 2), k=1000)", "--delta", "1e-10", "--json")
    assert code == 0
    payload = json.loads(out)
    assert CERTIFIED_FIELDS <= set(payload)
    assert payload["quantity"] == "epsilon" and payload["direction"] == "up" and payload["exact"] is True
    assert payload["subject"] == "compose(Gaussian(sensitivity=1, sigma=2), k=1000)"
    assert set(payload["ball"]) >= {"lower", "upper"}
    assert Fraction(payload["ball"]["lower"]) <= Fraction(payload["rounded"])
    exact = compose(Gaussian(1, 2), k=1000).epsilon(mp.mpf(1) / 10 ** 10, dps=40)
    assert_rounded_up(Fraction(payload["rounded"]), exact, payload["digits"])


@needs_accounting
@pytest.mark.parametrize("subject", ["Gaussian(1, 1)", "Gaussian(sensitivity=1, sigma=1)",
                                     "compose(Gaussian(1, 2), k=4)", "compose(k=2, Gaussian(1, sqrt(2)))"])
def test_equivalent_gaussians_give_the_same_epsilon(capsys, subject):
    code, out, _ = run(capsys, "epsilon", subject, "--delta", "1e-6")
    assert code == 0
    value, digits, _ = certified_line(out)
    assert_rounded_up(value, Gaussian(1, 1).epsilon(mp.mpf(10) ** -6, dps=40), digits)


@needs_accounting
def test_epsilon_of_randomized_response(capsys):
    code, out, _ = run(capsys, "epsilon", "compose(RandomizedResponse(eps=0.1), k=100)", "--delta", "1e-6")
    assert code == 0
    value, digits, kind = certified_line(out)
    assert kind == "exact"
    exact = compose(RandomizedResponse(mp.mpf(1) / 10), k=100).epsilon(mp.mpf(10) ** -6, dps=40)
    assert_rounded_up(value, exact, digits)


@needs_accounting
def test_pure_dp_notions_are_accounted_through_their_worst_case(capsys):
    code, out, _ = run(capsys, "epsilon", "compose(k=100, DP(eps=0.1))", "--delta", "1e-6")
    assert code == 0
    assert "RandomizedResponse(eps=1/10)" in out and "Kairouz" in out
    code2, out2, _ = run(capsys, "epsilon", "compose(RandomizedResponse(eps=1/10), k=100)", "--delta", "1e-6")
    assert certified_line(out)[0] == certified_line(out2)[0]


@needs_accounting
@pytest.mark.parametrize("subject", ["zCDP(rho=1/2)", "0.5-zCDP", "ZCDP(rho=0.5)"])
def test_zcdp_prints_the_conversions_side_by_side(capsys, subject):
    code, out, _ = run(capsys, "epsilon", subject, "--delta", "1e-6")
    assert code == 0
    assert "CKS20" in out and "BS16" in out and "Gaussian witness" in out
    assert "no conversion can give less" in out
    code, out, _ = run(capsys, "epsilon", subject, "--delta", "1e-6", "--json")
    payload = json.loads(out)
    assert {"exact_gaussian", "cks20", "bs16"} <= set(payload)
    for key in ("exact_gaussian", "cks20", "bs16"):
        assert CERTIFIED_FIELDS <= set(payload[key]) and payload[key]["quantity"] == "epsilon"
    witness, cks, bs = (Fraction(payload[key]["rounded"]) for key in ("exact_gaussian", "cks20", "bs16"))
    assert witness <= cks <= bs
    with mp.workdps(40):  # BS16, Prop 1.3: rho + 2 sqrt(rho log(1/delta))
        bs16 = mp.mpf(1) / 2 + 2 * mp.sqrt(mp.log(mp.mpf(10) ** 6) / 2)
    assert_rounded_up(bs, bs16, payload["bs16"]["digits"])
    assert_rounded_up(witness, Gaussian(1, 1).epsilon(mp.mpf(10) ** -6, dps=40), payload["exact_gaussian"]["digits"])


@needs_accounting
def test_laplace_compositions_print_two_sided_bounds_and_the_gap(capsys):
    code, out, _ = run(capsys, "epsilon", "compose(Laplace(sensitivity=1, scale=1), k=20)", "--delta", "1e-6")
    assert code == 0
    assert re.search(r"^epsilon >= \S+ \(certified", out, re.M)
    assert re.search(r"^epsilon <= \S+ \(certified", out, re.M)
    assert re.search(r"^gap = \S+", out, re.M)
    code, out, _ = run(capsys, "epsilon", "compose(Laplace(sensitivity=1, scale=1), k=20)", "--delta", "1e-6",
                       "--json")
    payload = json.loads(out)
    assert {"lower", "upper", "gap"} <= set(payload)
    lower, upper = Fraction(payload["lower"]["rounded"]), Fraction(payload["upper"]["rounded"])
    assert lower <= upper and Fraction(payload["gap"]) == upper - lower
    assert payload["lower"]["direction"] == "down" and payload["upper"]["direction"] == "up"
    # Laplace(1, 1) is 1-DP, so its 20-fold composition is no worse than 20-fold randomized response
    rr = compose(RandomizedResponse(1), k=20).epsilon(mp.mpf(10) ** -6, dps=30)
    assert lower <= Fraction(str(mp.nstr(rr, 25)))


# -- delta ----------------------------------------------------------------------------------------------------

@needs_accounting
def test_delta_of_randomized_response_composition(capsys):
    code, out, _ = run(capsys, "delta", "compose(RandomizedResponse(eps=0.1), k=1000)", "--eps", "2")
    assert code == 0
    value, digits, kind = certified_line(out, "delta")
    assert kind == "exact"
    exact = compose(RandomizedResponse(mp.mpf(1) / 10), k=1000).delta(2, dps=40)
    assert_rounded_up(value, exact, digits)
    code, out, _ = run(capsys, "delta", "compose(RandomizedResponse(eps=0.1), k=1000)", "--eps", "2", "--json")
    payload = json.loads(out)
    assert CERTIFIED_FIELDS <= set(payload) and payload["quantity"] == "delta" and payload["direction"] == "up"


@needs_accounting
def test_delta_of_a_gaussian(capsys):
    code, out, _ = run(capsys, "delta", "Gaussian(1, 1)", "--eps", "1", "--digits", "15")
    assert code == 0
    value, digits, _ = certified_line(out, "delta")
    assert digits == 15
    assert_rounded_up(value, Gaussian(1, 1).delta(1, dps=40), 15)


# -- calibrate ------------------------------------------------------------------------------------------------

@needs_accounting
def test_calibrate_gaussian_gives_the_smallest_sigma_rounded_up(capsys):
    code, out, _ = run(capsys, "calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "500")
    assert code == 0
    m = re.match(r"^sigma = (\S+) \(the smallest sufficient sigma, rounded up", out)
    assert m, out
    sigma = Fraction(m.group(1))
    target = mp.mpf(10) ** -6
    with mp.workdps(40):
        s = mp.mpf(sigma.numerator) / sigma.denominator
        assert compose(Gaussian(1, s), k=500).delta(1, dps=30) <= target          # sufficient
        assert compose(Gaussian(1, s * (1 - mp.mpf(10) ** -6)), k=500).delta(1, dps=30) > target  # and tight
    code, out, _ = run(capsys, "calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "500",
                       "--sensitivity", "2", "--json")
    payload = json.loads(out)
    assert payload["quantity"] == "sigma" and payload["direction"] == "up" and payload["target"] == "gaussian"
    assert abs(Fraction(payload["rounded"]) - 2 * sigma) <= sigma * Fraction(1, 10 ** 8)


@needs_accounting
def test_calibrate_pure_dp_gives_the_largest_eps0_rounded_down(capsys):
    code, out, _ = run(capsys, "calibrate", "pure-dp", "--eps", "1", "--delta", "1e-6", "--k", "500")
    assert code == 0
    m = re.match(r"^eps0 = (\S+) \(the largest sufficient per-step eps0, rounded down", out)
    assert m, out
    eps0 = Fraction(m.group(1))
    with mp.workdps(40):
        e0 = mp.mpf(eps0.numerator) / eps0.denominator
        assert compose(RandomizedResponse(e0), k=500).delta(1, dps=30) <= mp.mpf(10) ** -6
    code, out, _ = run(capsys, "calibrate", "pure-dp", "--eps", "1", "--delta", "1e-6", "--k", "500", "--json")
    payload = json.loads(out)
    assert payload["quantity"] == "eps0" and payload["direction"] == "down" and payload["target"] == "pure-dp"
    assert Fraction(payload["rounded"]) == eps0


# -- bad input: exit 3, one line, no traceback ----------------------------------------------------------------

BAD_WITHOUT_ACCOUNTING = [
    (["epsilon", "Gaussian(1, 2", "--delta", "1e-6"],
     "SUBJECT 'Gaussian(1, 2': unexpected end of input at column 14"),
    (["epsilon", "Gaussian(1, 2))", "--delta", "1e-6"], "unexpected ')' at column 15"),
    (["epsilon", "Gausian(1, 2)", "--delta", "1e-6"], "expected a mechanism"),
    (["epsilon", "Gaussian(1, -2)", "--delta", "1e-6"], "sigma must be positive, got sigma=-2"),
    (["epsilon", "Gaussian(1, sigma)", "--delta", "1e-6"], "unknown name 'sigma'"),
    (["epsilon", "compose(k=0, Gaussian(1, 2))", "--delta", "1e-6"], "k must be a positive integer"),
    (["epsilon", "__import__('os').system('echo pwned')", "--delta", "1e-6"], "unexpected character"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "1e-"], "--delta '1e-': unexpected"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "delta"], "--delta 'delta': unknown name 'delta'"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "1/0"], "division by zero"),
    (["epsilon", "Gaussian(1, 2)"], "the following arguments are required: --delta"),
    (["epsilon", "tCDP(rho=1, omega=2)", "--delta", "1e-6"], "cdpsym epsilon takes a mechanism"),
    (["epsilon", "CDP(mu=1, tau=1)", "--delta", "1e-6"], "cdpsym epsilon takes a mechanism"),
    (["delta", "zCDP(rho=1)", "--eps", "1"], "cdpsym delta takes a mechanism"),
    (["delta", "Gaussian(1, 2)", "--eps", "x"], "--eps 'x': unknown name 'x'"),
    (["calibrate", "laplace", "--eps", "1", "--delta", "1e-6"], "invalid choice"),
    (["calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "0"], "--k must be a positive integer"),
    (["calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "2.5"], "--k must be a positive integer"),
    (["calibrate", "pure-dp", "--eps", "1", "--delta", "1e-6", "--sensitivity", "2"],
     "--sensitivity applies to `calibrate gaussian` only"),
    (["calibrate", "gaussian", "--eps", "1"], "the following arguments are required: --delta"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "1" * 3000], "input too long"),
]


@pytest.mark.parametrize("argv, message", BAD_WITHOUT_ACCOUNTING, ids=lambda x: " ".join(x)[:60]
                         if isinstance(x, list) else None)
def test_bad_input_is_one_line_and_exit_3(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 3, (out, err)
    assert message in err
    assert out == ""
    lines = [line for line in err.splitlines() if line.startswith("cdpsym: error:")]
    assert len(lines) == 1


BAD_FOR_THE_ACCOUNTANT = [
    (["epsilon", "Gaussian(1, 2)", "--delta", "0"], "delta"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "2"], "delta"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--digits", "0"], "digits"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "-1e-6"], "delta"),
    (["calibrate", "gaussian", "--eps=-1", "--delta", "1e-6"], "eps"),
    (["calibrate", "pure-dp", "--eps", "1", "--delta", "1.5"], "delta"),
]


@needs_accounting
@pytest.mark.parametrize("argv, word", BAD_FOR_THE_ACCOUNTANT, ids=lambda x: " ".join(x)[:60]
                         if isinstance(x, list) else None)
def test_parameters_outside_their_domain_exit_3(capsys, argv, word):
    code, out, err = run(capsys, *argv)
    assert code == 3, (out, err)
    assert err.startswith("cdpsym: error:") and word in err
    assert len(err.strip().splitlines()) == 1


def test_digits_that_cannot_be_certified_exit_2(capsys, monkeypatch):
    from cdpsym.errors import PrecisionError

    def refuse(*args, **kwargs):
        raise PrecisionError("could not certify 1000 digits of epsilon within 32768 bits")

    monkeypatch.setattr(accounting, "epsilon", refuse, raising=False)
    code, out, err = run(capsys, "epsilon", "Gaussian(1, 1)", "--delta", "1e-6", "--digits", "1000")
    assert code == 2 and out == ""
    assert err == "cdpsym: cannot certify: could not certify 1000 digits of epsilon within 32768 bits\n"


def test_a_subject_is_never_executed(capfd):
    code = main(["epsilon", "__import__('os').system('echo pwned')", "--delta", "1e-6"])
    out, err = capfd.readouterr()
    assert code == 3 and out == ""  # `echo` would write to file descriptor 1
    assert "unexpected character" in err


def test_accounting_commands_are_documented_in_help(capsys):
    code, out, _ = run(capsys, "calibrate", "--help")
    assert code == 0
    assert "calibrate gaussian --eps E --delta D [--k K] [--sensitivity S]" in out
    assert "calibrate pure-dp --eps E --delta D [--k K]" in out
    code, out, _ = run(capsys, "epsilon", "--help")
    assert "compose(k=1000, Gaussian(1, 2))" in out and "0.5-zCDP" in out
