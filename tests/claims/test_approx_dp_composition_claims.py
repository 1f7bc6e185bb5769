"""Claims about composing (ε, δ)-DP mechanisms: a false one is *refuted* by the product of four-outcome randomized
responses (each step (ε_i, δ_i)-DP exactly), a concrete true one is *supported* by the exact optimum (never proved:
the optimality is KOV15 Thm 3.3, which the library checks but does not prove).  Every refutation is re-checked here
by enumerating the witness's atoms in mpmath, and every support by an independent binomial sum."""

from __future__ import annotations

import itertools
import math
import random
import subprocess
import sys

import mpmath
import pytest
import sympy as sp

from cdpsym.claims import exact
from cdpsym.claims.checker import check
from cdpsym.claims.language import parse_claim


def _four_atoms(e, d):
    """KOV15's pair, enumerated from its definition: (reveal x, reveal x', agree, disagree)."""
    p = mpmath.e ** e / (1 + mpmath.e ** e)
    return [d, 0, (1 - d) * p, (1 - d) * (1 - p)], [0, d, (1 - d) * (1 - p), (1 - d) * p]


def _hockey(pp, qq, at):
    w = mpmath.e ** at
    return mpmath.fsum(max(mpmath.mpf(0), x - w * y) for x, y in zip(pp, qq))


def _product_delta(steps, at):
    """δ of the product of the four-atom pairs at ε', by summing over every atom of the product (small k)."""
    pairs = [_four_atoms(mpmath.mpf(e), mpmath.mpf(d)) for e, d in steps]
    w = mpmath.e ** at
    total = mpmath.mpf(0)
    for atoms in itertools.product(range(4), repeat=len(pairs)):
        p = mpmath.fprod(pairs[j][0][a] for j, a in enumerate(atoms))
        q = mpmath.fprod(pairs[j][1][a] for j, a in enumerate(atoms))
        total += max(mpmath.mpf(0), p - w * q)
    return total


def _homogeneous_optimum(k, e, d, at):
    """1 − (1 − δ)^k (1 − δ_RR(ε')), δ_RR by the binomial law of k-fold randomized response (large k)."""
    e, d, at = mpmath.mpf(e), mpmath.mpf(d), mpmath.mpf(at)
    p = mpmath.e ** e / (1 + mpmath.e ** e)
    rr = mpmath.fsum(math.comb(k, i) * p ** i * (1 - p) ** (k - i) * max(mpmath.mpf(0), 1 - mpmath.e ** (at - (2 * i - k) * e))
                     for i in range(k + 1))
    return 1 - (1 - d) ** k * (1 - rr)


@pytest.mark.parametrize("e,d", [("1", "0.01"), ("0.1", "1e-6"), ("2", "0.3"), ("0", "0.2")])
def test_each_step_of_the_witness_is_exactly_eps_delta_dp(e, d):
    with mpmath.workdps(60):
        pp, qq = _four_atoms(mpmath.mpf(e), mpmath.mpf(d))
        assert abs(mpmath.fsum(pp) - 1) < mpmath.mpf(10) ** -55
        for a, b in ((pp, qq), (qq, pp)):
            assert abs(_hockey(a, b, mpmath.mpf(e)) - mpmath.mpf(d)) < mpmath.mpf(10) ** -55


@pytest.mark.parametrize("claim,steps,at,claimed", [
    ("compose(k=3, DP(1, 0.01)) is DP(3, 0.02)", [(1, "0.01")] * 3, 3, "0.02"),
    ("compose(DP(1, 0.01), DP(0.5, 0.001)) is DP(1.5, 0.0109)", [(1, "0.01"), ("0.5", "0.001")], "1.5", "0.0109"),
    ("DP(1, 0.01) implies DP(0.5, 0.2)", [(1, "0.01")], "0.5", "0.2"),
    ("compose(k=4, DP(0.5, 0.05)) is DP(1, 0.2)", [("0.5", "0.05")] * 4, 1, "0.2"),
])
def test_false_claims_are_refuted_and_the_counterexample_rechecks(claim, steps, at, claimed):
    r = check(claim)
    assert r.verdict == "refuted", r.message
    ce = r.counterexample
    assert ce["witness_kind"] == "four_outcome" and "four-outcome" in ce["witness"]
    assert [(sp.Rational(s["eps"]), sp.Rational(s["delta"])) for s in ce["steps"] for _ in range(int(s["count"]))] \
        == [(sp.Rational(str(e)), sp.Rational(d)) for e, d in steps]
    with mpmath.workdps(40):
        truth = _product_delta(steps, mpmath.mpf(str(at)))
        assert truth > mpmath.mpf(claimed)
        assert abs(truth - mpmath.mpf(ce["actual"].split("+/-")[0].strip("[ "))) < mpmath.mpf(10) ** -10
    # the accountant computes the witness's delta (its optimal-composition formula is the product's exact delta)
    out = subprocess.run([sys.executable, "-m", "cdpsym", *_argv(ce["delta_command"])], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert mpmath.mpf(out.stdout.split("<=")[1].split()[0]) > mpmath.mpf(claimed)
    # and the claim at the point is refuted again
    again = subprocess.run([sys.executable, "-m", "cdpsym", *_argv(ce["command"])], capture_output=True, text=True,
                           timeout=120)
    assert again.returncode == 1 and "REFUTED" in again.stdout, again.stdout


def _argv(command):
    import shlex

    words = shlex.split(command)
    assert words[0] == "cdpsym"
    return words[1:]


def test_a_claim_with_parameters_is_refuted_at_a_point_the_enumeration_confirms():
    r = check("compose(k=k, DP(eps, delta)) is DP(k*eps, delta)")
    assert r.verdict == "refuted"
    pt = r.counterexample["parameters"]
    k, e, d = int(pt["k"]), sp.Rational(pt["eps"]), sp.Rational(pt["delta"])
    with mpmath.workdps(40):
        at = mpmath.mpf(k) * mpmath.mpf(e.p) / e.q
        truth = (_product_delta([(mpmath.mpf(e.p) / e.q, mpmath.mpf(d.p) / d.q)] * k, at) if k <= 6
                 else _homogeneous_optimum(k, mpmath.mpf(e.p) / e.q, mpmath.mpf(d.p) / d.q, at))
        assert truth > mpmath.mpf(d.p) / d.q


def test_true_claims_are_supported_never_refuted_nor_proved():
    """Random concrete instances: a claimed δ above the optimum is supported (naming R-F7), below refuted."""
    rng = random.Random(20261125)
    for _ in range(6):
        k, e, d = rng.choice([2, 3, 5, 12]), rng.choice(["0.2", "0.5", "1"]), rng.choice(["0.001", "0.01", "0.05"])
        at = rng.choice(["0.5", "1", "2", "3"])
        with mpmath.workdps(40):
            opt = _homogeneous_optimum(k, e, d, at)
        above = mpmath.nstr(opt * (1 + mpmath.mpf("1e-6")) + mpmath.mpf("1e-12"), 12)
        below = mpmath.nstr(opt * (1 - mpmath.mpf("1e-6")), 12)
        r = check(f"compose(k={k}, DP({e}, {d})) is DP({at}, {above})")
        assert r.verdict == "supported", (k, e, d, at, r.message)
        assert r.theorems_used == ["approx_dp_optimal_composition_homogeneous"] and "not proved" in r.message
        if opt > mpmath.mpf("1e-9"):
            assert check(f"compose(k={k}, DP({e}, {d})) is DP({at}, {below})").verdict == "refuted"


def test_the_optimum_at_equality_is_not_decided_either_way():
    """δ*(3) = 1 − 0.99³ exactly (the randomized-response part vanishes at ε' = kε): no verdict from balls."""
    assert check("compose(k=3, DP(1, 0.01)) is DP(3, 0.029701)").verdict == "undecided"


def test_the_witness_only_for_concrete_dp_subjects_with_a_positive_delta():
    assert exact.four_outcome_product(parse_claim("compose(k=3, DP(1)) is DP(3)").subject) is None  # pure: RR
    assert exact.four_outcome_product(parse_claim("zCDP(0.5) implies DP(1, 0.1)").subject) is None
    subject = parse_claim("compose(k=k, DP(1, 0.01)) is DP(3, 0.1)").subject
    assert exact.four_outcome_product(subject) is None  # k is not a number
    w = exact.four_outcome_product(parse_claim("compose(k=2, DP(1, 0.01)) is DP(3, 0.1)").subject)
    assert w is not None and w.steps == ((1, sp.Rational(1, 100), 2),)
    ok, _ = exact.satisfies(w, parse_claim("DP(1) implies zCDP(1)").target)
    assert ok is None  # compared with DP notions only


def test_a_supported_verdict_reads_as_evidence_in_latex_and_a_refutation_names_the_witness():
    tex = check("compose(k=3, DP(1, 0.01)) is DP(3, 0.03)").latex()
    assert r"\begin{claim}[supported]" in tex and "Supported, not proved" in tex and "0.0297" in tex
    tex = check("compose(k=3, DP(1, 0.01)) is DP(3, 0.02)").latex()
    assert "four-outcome randomized responses" in tex and "0.0297" in tex


def test_an_irrational_target_eps_gets_a_delta_command_that_runs():
    """δ is computed at a rational just above log 3 (a lower bound on δ(log 3)); the command prints a short one."""
    r = check("compose(k=2, DP(1, 0.1)) is DP(log(3), 0.19)")
    assert r.verdict == "refuted"
    cmd = r.counterexample["delta_command"]
    out = subprocess.run([sys.executable, "-m", "cdpsym", *_argv(cmd)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    at = sp.Rational(_argv(cmd)[-1])
    assert at > sp.log(3) and at - sp.log(3) < sp.Rational(1, 10 ** 15) and len(str(_argv(cmd)[-1])) < 30
    with mpmath.workdps(40):
        assert _product_delta([(1, "0.1")] * 2, mpmath.log(3)) > mpmath.mpf("0.19")
