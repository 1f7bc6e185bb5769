"""cdp_group_privacy (R-B17): group privacy for an arbitrary (μ, τ)-CDP mechanism, groups of 2^m -- *supported*
(numeric steps, evidence from two exact chains), never reported proved; the statement is the item's explicit form."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import lam, mu, positive, tau, x
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Part, Theorem, le, numeric, symbolic_check
from cdpsym.verify.numeric import numeric_check

M = importlib.import_module("theorems.cdp_group_privacy")
theorem = M.theorem
m = M.m


def test_supported_never_proved():
    report = theorem.verify(property_examples=3)
    assert report.verdict == "supported"
    sym = report.checks["symbolic"]
    assert sym["status"] == "supported"
    assert {st["method"] for st in sym["steps"]} == {"numeric"}
    assert sym["trusted_axioms"] == []
    assert report.checks["numeric"]["status"] == "passed"


def test_statement_is_the_items_explicit_form():
    """REFERENCE R-B17: τ_m <= 2^m τ + α₀ (2^m m³ τ)^1.5, μ_m <= (2^m τ)²/2 + α₀ (2^m τ)^2.5 m^4.5, α₀ = 2·34^4.5."""
    assert sp.simplify(M.ALPHA0 - 2 * 34 ** sp.Rational(9, 2)) == 0
    mean, std = theorem.part("mean").relation, theorem.part("standard").relation
    assert mean.lhs == Expect(M.G(2 ** m)) and mean.op == "<="
    assert sp.simplify(mean.rhs - ((2 ** m * tau) ** 2 / 2 + M.ALPHA0 * (2 ** m * tau) ** sp.Rational(5, 2)
                                   * m ** sp.Rational(9, 2))) == 0
    assert std.lhs == Expect(sp.exp(lam * (M.G(2 ** m) - Expect(M.G(2 ** m)))))
    tau_m = 2 ** m * tau + M.ALPHA0 * (2 ** m * m ** 3 * tau) ** sp.Rational(3, 2)
    assert sp.simplify(std.rhs - sp.exp(lam ** 2 * tau_m ** 2 / 2)) == 0
    # hypotheses: every pair (μ, τ)-CDP, μ <= τ²/2, 34³ τ 2^m m³ <= 1/2 (log₂ s = m: the stronger reading)
    assert {h.name for h in theorem.hypotheses} == {"cdp_mean", "cdp_subgaussian"}
    assert theorem.variables[mu].hi == tau ** 2 / 2
    assert sp.simplify(theorem.variables[tau].hi * 34 ** 3 * 2 ** m * m ** 3 - sp.Rational(1, 2)) == 0
    with mpmath.workdps(30):
        for s in (2, 4, 8, 1024):  # log₂ s >= ln s: the hypothesis encoded implies the item's
            assert mpmath.log(s, 2) >= mpmath.log(s)
    assert theorem.reference == "R-B17" and "Theorem 4.1" in theorem.source and "1603.01887v2" in theorem.source


# -- the evidence is honest --------------------------------------------------------------------------------------------

def test_witness_links_are_mu_tau_cdp():
    """Each link of both chains satisfies the hypotheses at (μ, τ): mean <= μ, centred MGF <= e^{λ²τ²/2}."""
    with mpmath.workdps(40):
        for tt, mm in ((mpmath.mpf("1e-6"), mpmath.mpf("5e-13")), (mpmath.mpf("0.3"), mpmath.mpf("0.01")),
                       (mpmath.mpf("2"), mpmath.mpf("2"))):
            t1 = M._link(tt, mm)
            assert t1 <= tt and t1 ** 2 / 2 <= mm * (1 + mpmath.mpf(10) ** -30)
            eps = t1
            p = mpmath.exp(eps) / (1 + mpmath.exp(eps))
            link_mean = (2 * p - 1) * eps
            assert abs(link_mean - eps * mpmath.tanh(eps / 2)) < mpmath.mpf(10) ** -35
            assert link_mean <= mm
            for j in range(-300, 301):
                ll = mpmath.mpf(j) / (10 * tt)
                mgf = p * mpmath.exp(ll * (eps - link_mean)) + (1 - p) * mpmath.exp(ll * (-eps - link_mean))
                assert mgf <= mpmath.exp(ll ** 2 * tt ** 2 / 2) * (1 + mpmath.mpf(10) ** -30), (tt, j)


def test_gaussian_chain_attains_the_leading_terms():
    with mpmath.workdps(40):
        tt = mpmath.mpf("1e-6")
        for mm_ in (1, 2, 3):
            s = 2 ** mm_
            for ll in (mpmath.mpf(1), mpmath.mpf("3e5"), mpmath.mpf("-2e6")):
                (name, mean, mgf), _ = M.witnesses(mm_, tt, tt ** 2 / 2, ll)
                assert abs(mean - (s * tt) ** 2 / 2) < mpmath.mpf(10) ** -30
                exact = mpmath.exp(ll ** 2 * (s * tt) ** 2 / 2)
                assert abs(mgf - exact) < mpmath.mpf(10) ** -25 * exact


def test_randomized_response_chain_is_exact():
    """The group loss of s independent ±ε links: mean s ε tanh(ε/2), centred MGF the s-th power (checked by
    enumerating all 2^s outcomes)."""
    with mpmath.workdps(40):
        eps = mpmath.mpf("0.02")
        for mm_ in (1, 2, 3):
            s = 2 ** mm_
            ll = mpmath.mpf(7)
            _, (name, mean, mgf) = M.witnesses(mm_, eps, eps ** 2 / 2, ll)
            p = mpmath.exp(eps) / (1 + mpmath.exp(eps))
            outcomes = [(bits, p ** bin(bits).count("1") * (1 - p) ** (s - bin(bits).count("1")),
                         eps * (2 * bin(bits).count("1") - s)) for bits in range(2 ** s)]
            e_g = mpmath.fsum(q * g for _, q, g in outcomes)
            assert abs(mean - e_g) < mpmath.mpf(10) ** -35
            centred = mpmath.fsum(q * mpmath.exp(ll * (g - e_g)) for _, q, g in outcomes)
            assert abs(mgf - centred) < mpmath.mpf(10) ** -30


def test_the_mutants_fail_numerically():
    for label, mutant in M.mutants():
        assert numeric_check(mutant).status == "failed", label
        assert mutant.verify(property_examples=2).verdict == "failed", label


# -- the numeric rule: evidence, never proof ---------------------------------------------------------------------------

def test_numeric_on_random_quantities_is_only_supported():
    t = Theorem(name="n", reference="", source="test", title="n", variables={tau: positive()},
                parts=(Part("main", le(Expect(sp.exp(M.G(2))), 0),
                            proof=Chain(Expect(sp.exp(M.G(2)))).le(0, numeric())),))
    assert symbolic_check(t).status == "supported"  # false (E[e^G] > 0), but numeric is never proof


def test_numeric_on_numbers_still_refutes():
    t = Theorem(name="n", reference="", source="test", title="n", variables={x: positive()},
                parts=(Part("main", le(x, x - 1), proof=Chain(x).le(x - 1, numeric())),))
    assert symbolic_check(t).status == "failed"
