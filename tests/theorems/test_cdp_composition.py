"""cdp_composition (R-B10): proved in its adaptive form; DR16's literal centring at E[L_k] is refuted."""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import k, lam, mu, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Part, Theorem, le
from cdpsym.proof.theorem import symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.cdp_composition import adaptive_centred_mgf, adaptive_witness, mutants
from theorems.cdp_composition import theorem
from theorems.foundations_composition import L_k



def _checks(mutant):
    """(symbolic status, numeric status) of a mutant; its property check would only shrink the same failure."""
    return symbolic_check((mutant)).status, numeric_check(mutant).status


def test_proved_with_all_checks_and_cites_subgaussian_sum():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    assert "subgaussian_sum" in report.checks["symbolic"]["cites"]
    assert [p["name"].split(".")[1] for p in report.checks["symbolic"]["parts"]] == [
        "mean", "drift", "subgaussian", "gap", "decomposition"]
    # the decomposition is stated as L_k = D_k + S_k; its induction is an auxiliary fact of the proof
    from theorems.cdp_composition import D, L_k, S, k

    assert theorem.part("decomposition").relation.lhs == L_k(k)
    assert theorem.part("decomposition").relation.rhs == D(k) + S(k)


def test_wrong_mean_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["mean kμ/2: halved"])
    assert symbolic == "failed"
    assert numeric == "failed"  # k Gaussian steps have mean k·μ when τ² >= 2μ


def test_the_drift_part_reads_its_threshold_from_the_statement():
    """Pr[D_k > kμ/2] is 1 for k Gaussian steps with mean μ: the drift part refutes the halved mean by itself
    (its ground truth once compared D_k with the module's kμ whatever the statement said)."""
    failed = {c.part for c in numeric_check(dict(mutants())["mean kμ/2: halved"]).comparisons if not c.ok}
    assert {"cdp_composition.mean", "cdp_composition.drift"} <= failed
    assert all(c.ok for c in numeric_check(theorem).comparisons)


def test_wrong_standard_fails_symbolically_and_numerically():
    symbolic, numeric = _checks(dict(mutants())["standard k^{1/4}τ: √k replaced by its square root"])
    assert symbolic == "failed"
    assert numeric == "failed"  # independent Gaussian steps attain √k·τ


def test_dr16_literal_statement_is_false_for_adaptive_composition():
    """L_k - E[L_k] is not √k·τ-subgaussian: the adaptive witness (both steps (2, 2)-CDP) has a larger MGF."""
    with mpmath.workdps(30):
        v = {k: mpmath.mpf(2), mu: mpmath.mpf(2), tau: mpmath.mpf(2), lam: mpmath.mpf("0.05")}
        small = adaptive_centred_mgf(v, 30)
        assert small > mpmath.exp(2 * v[lam] ** 2 * 4 / 2)
        variance = 2 * (small - 1) / v[lam] ** 2  # ≈ Var L_2 ≈ 10.19 > (√2·2)² = 8
        assert 10 < variance < 11
        # the compensated form that the theorem proves holds for the same witness
        assert adaptive_witness(v, 30, "subgaussian") <= mpmath.exp(2 * v[lam] ** 2 * 4 / 2)
    literal = Theorem(
        name="cdp_composition_dr16_literal", reference="R-B10", source="test", title="DR16 Thm 3.4 as stated",
        variables=theorem.variables, hypotheses=theorem.hypotheses,
        parts=(Part("main", le(Expect(sp.exp(lam * (L_k(k) - Expect(L_k(k))))),
                               sp.exp(k * lam ** 2 * tau ** 2 / 2)), ground_truth=lambda v, dps: [
                    ("adaptive Gaussian steps", adaptive_centred_mgf(v, dps))]),),
        numeric_points=({"k": "2", "mu": "2", "tau": "2", "lam": "0.3"},))
    assert numeric_check(literal).status == "failed"
