"""mutual_information_of_zcdp (R-C10, BS16 §1): I(X; M(X)) <= ρn² for a ρ-zCDP M on X^n; proved, not tight."""

from __future__ import annotations

import dataclasses
import importlib
import itertools

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import k, naturals, positive, rho, s
from cdpsym.expr.operators import Expect, Opaque
from cdpsym.proof import Axiom, Chain, Part, Theorem, by, le, limit, symbolic_check
from cdpsym.verify.numeric import numeric_check

mi = importlib.import_module("theorems.mutual_information_of_zcdp")  # the module (theorems.<name> is the Theorem)
n, G, MI, DIAM = mi.n, mi.G, mi.MutualInformation, mi.KLDiameter


@pytest.fixture(scope="module")
def report():
    return mi.theorem.verify(property_examples=4)


def test_proved(report):
    assert report.verdict == "proved", report
    sym = report.checks["symbolic"]
    status = {p["name"]: p["status"] for p in sym["parts"]}
    assert status == {"mutual_information_of_zcdp.kl_group": "proved", "mutual_information_of_zcdp.main": "proved"}
    assert set(sym["trusted_axioms"]) == {"mutual_information_at_most_kl_diameter", "expectation_affine",
                                          "group_loss_one", "group_loss_step", "chain_base_measure",
                                          "chain_change_of_measure", "young_expectation"}
    assert report.checks["numeric"]["status"] == "passed"
    assert report.checks["property"]["status"] == "passed"


def test_the_generalisation_over_pairs_is_the_supremum_rule():
    result = symbolic_check(mi.theorem)
    main = next(p for p in result.parts if p.name.endswith(".main"))
    assert [(st.status, st.method) for st in main.steps] == [
        ("proved", "by:mutual_information_at_most_kl_diameter"), ("proved", "by:mutual_information_of_zcdp.kl_group")]
    assert "supremum" in main.rules
    kl = next(p for p in result.parts if p.name.endswith(".kl_group"))
    assert kl.status == "proved" and set(kl.rules) >= {"limit", "taylor", "induction", "member"}


def test_no_axiom_of_this_module_has_a_condition():
    # a condition about the scope's chain (E[G_n] <= c) read as "for every chain" is unsound under a given
    # discharge (see the module docstring): this module's trusted base must not contain one
    assert mi.AXIOMS == [mi.mutual_information_at_most_kl_diameter]
    assert all(not ax.conditions for ax in mi.AXIOMS)


def test_statement_shape():
    main = mi.theorem.part("main").relation
    assert main.lhs == MI(n) and main.op == "<=" and sp.simplify(main.rhs - rho * n ** 2) == 0
    kl = mi.theorem.part("kl_group").relation
    assert kl.lhs == Expect(G(k)) and kl.op == "<=" and sp.simplify(kl.rhs - k ** 2 * rho) == 0
    assert [h.name for h in mi.theorem.hypotheses] == ["zcdp"]
    assert mi.theorem.variables[n] == naturals(sample_lo=1, sample_hi=5)


# -- ground truth ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("nn, sig, value, dps", [(5, 2, "0.135955889508", 30), (3, "0.7", "0.462629", 30),
                                                 (20, 5, "0.0911606171906", 12)])
def test_reference_n29(nn, sig, value, dps):
    # REFERENCE N29: sum of n uniform bits + N(0, σ²), ρ = 1/(2σ²): 0.136 <= 3.125; 0.463 <= 9.18; 0.0912 <= 8
    with mpmath.workdps(dps):
        r = 1 / (2 * mpmath.mpf(sig) ** 2)
        got = mi.gaussian_sum_mutual_information(nn, r)
        assert abs(got - mpmath.mpf(value)) < mpmath.mpf(10) ** -(len(value) - 3)
        assert got < r * nn ** 2


def test_gaussian_mutual_information_against_output_entropy():
    # independent route: I = h(Y) − h(Y|X) with h(Y|X) = log(2πeσ²)/2, h(Y) by quadrature of −f log f
    with mpmath.workdps(30):
        nn, r = 3, mpmath.mpf("0.3")
        sig = 1 / mpmath.sqrt(2 * r)
        w = [mpmath.binomial(nn, j) / 2 ** nn for j in range(nn + 1)]
        f = lambda y: mpmath.fsum(w[j] * mpmath.npdf(y, j, sig) for j in range(nn + 1))
        h_y = mpmath.quad(lambda y: -f(y) * mpmath.log(f(y)), [-25 * sig, 0, nn, nn + 25 * sig])
        expected = h_y - mpmath.log(2 * mpmath.pi * mpmath.e * sig ** 2) / 2
        assert abs(mi.gaussian_sum_mutual_information(nn, r) - expected) < mpmath.mpf(10) ** -20


def _mutual_information(joint):
    """I from the definition, for a finite joint law {(x, y): p}."""
    px, py = {}, {}
    for (x, y), pr in joint.items():
        px[x] = px.get(x, 0) + pr
        py[y] = py.get(y, 0) + pr
    return mpmath.fsum(pr * mpmath.log(pr / (px[x] * py[y])) for (x, y), pr in joint.items() if pr)


def _rr_joint(nn, r):
    e = mpmath.sqrt(2 * r)
    keep = mpmath.exp(e) / (1 + mpmath.exp(e))
    joint = {}
    for bit in (0, 1):
        for out in itertools.product((0, 1), repeat=nn):
            joint[(bit, out)] = mpmath.fprod(keep if o == bit else 1 - keep for o in out) / 2
    return joint


@pytest.mark.parametrize("nn", [1, 2, 4])
def test_randomized_response_by_full_enumeration(nn):
    # the grouped sum over j equals the sum over all 2^n output strings; n = 1 is randomized response on one bit
    with mpmath.workdps(40):
        r = mpmath.mpf("0.5")
        full = _mutual_information(_rr_joint(nn, r))
        assert abs(mi.randomized_response_mutual_information(nn, r) - full) < mpmath.mpf(10) ** -35
        assert full <= r * nn ** 2
    if nn == 1:  # ε = 1: I = log 2 − H_b(e/(1+e)) in nats
        with mpmath.workdps(40):
            q = mpmath.e / (1 + mpmath.e)
            hb = -q * mpmath.log(q) - (1 - q) * mpmath.log(1 - q)
            assert abs(full - (mpmath.log(2) - hb)) < mpmath.mpf(10) ** -35


def test_randomized_response_rho_is_the_pure_dp_conversion():
    # ε = √(2ρ) is ε-DP (randomized_response_pure_dp), hence ε²/2 = ρ-zCDP (zcdp_of_pure_dp, BS16 Prop 1.4): the
    # library's conversion at ε = √(2ρ) is exactly the zcdp hypothesis this theorem assumes
    from cdpsym.expr import eps
    zc = importlib.import_module("theorems.zcdp_of_pure_dp")
    conv = zc.theorem.part("main").relation
    hyp = mi.theorem.hypotheses[0].relation
    assert conv.lhs == hyp.lhs
    assert sp.simplify(sp.log(conv.rhs.subs(eps, sp.sqrt(2 * rho))) - sp.log(hyp.rhs)) == 0


def test_the_correlated_witness_is_about_a_quarter_of_the_bound():
    # no example exceeds ρn²/4 (so ρn²/2 is no mutant); the perfectly correlated input comes close for small ρn²
    with mpmath.workdps(30):
        for nn, r in [(6, "0.001"), (10, "0.005"), (2, "0.3"), (4, "0.02")]:
            r = mpmath.mpf(r)
            vals = [mi.gaussian_sum_mutual_information(nn, r, True), mi.gaussian_sum_mutual_information(nn, r),
                    mi.randomized_response_mutual_information(nn, r)]
            assert max(vals) <= r * nn ** 2 / 4
        ratio = mi.gaussian_sum_mutual_information(6, mpmath.mpf("0.001"), True) / (mpmath.mpf("0.001") * 36)
        assert ratio > mpmath.mpf("0.24")


def test_kl_group_ground_truth_is_tight(report):
    comps = [c for c in report.checks["numeric"]["comparisons"] if "kl_group" in c.get("part", "")]
    assert comps and all(c["digits"] is not None and c["digits"] >= 45 for c in comps)


# -- mutants ----------------------------------------------------------------------------------------------------------

def test_mutants_fail_symbolically_and_numerically():
    # the numeric check alone (mutant.verify() adds a property search that shrinks slowly through the quadratures)
    for name, mutant in mi.mutants():
        assert symbolic_check(mutant).status == "failed", name
        failed = [c for c in numeric_check(mutant).comparisons if not c.ok]
        assert failed, name
        # the perfectly correlated input is what refutes them (at n = 10, ρ = 0.005: I = 0.1114 > ρn = 0.05)
        assert any("{0^n, 1^n}" in c.witness and float(dict(c.point)["n"]) == 10 for c in failed), name


# -- adversarial ------------------------------------------------------------------------------------------------------

def _theorem(relation, proof, variables=None, hypotheses=None):
    return Theorem(name="adversarial_mi", reference="-", source="-", title="adversarial",
                   variables=dict(variables or mi.theorem.variables),
                   hypotheses=mi.theorem.hypotheses if hypotheses is None else hypotheses,
                   parts=(Part("main", relation, proof=proof),))


def test_without_the_hypothesis_kl_group_is_not_proved():
    result = symbolic_check(mi.theorem.with_changes(hypotheses=()))
    assert all(p.status not in ("proved", "certified") for p in result.parts)


def test_the_chain_bound_is_not_a_bound_on_the_diameter():
    # kl_group bounds E[G_n] of the scope's chain; citing it for the supremum over all pairs is refused
    kl = mi.theorem.part("kl_group")
    for lhs in (DIAM(n), MI(n)):
        proof = Chain(lhs).le(n ** 2 * rho, by(kl, k=n))
        assert symbolic_check(_theorem(le(lhs, n ** 2 * rho), proof)).status not in ("proved", "certified")


def test_the_information_axiom_goes_one_way():
    wrong = Chain(DIAM(n)).le(MI(n), by(mi.mutual_information_at_most_kl_diameter, n=n))
    assert symbolic_check(_theorem(le(DIAM(n), MI(n)), wrong)).status != "proved"


def test_the_limit_is_taken_at_the_right_end():
    # the chain's bound (s + 1)k²ρ grows with s: the upper end is no limit, and k²ρ/2 is not reached
    steps = mi._kl_chain().steps
    half = Chain(Expect(G(k)), variables={s: positive()})
    for st in steps[:-1]:
        half = half.eq(st.expr, st.why) if st.op == "=" else half.le(st.expr, st.why)
    kv = {k: naturals(), rho: positive()}
    assert symbolic_check(_theorem(le(Expect(G(k)), k ** 2 * rho / 2), half.le(k ** 2 * rho / 2, limit(s)),
                                   variables=kv)).status != "proved"
    assert symbolic_check(_theorem(le(Expect(G(k)), k ** 2 * rho), half.le(k ** 2 * rho, limit(s, end="hi")),
                                   variables=kv)).status != "proved"


def test_an_unregistered_operator_or_axiom_is_not_trusted():
    class MutualInformationCopy(Opaque):  # same typing, never registered
        nargs = 1

        def _eval_is_extended_nonnegative(self):
            return True

    fake = Axiom(name="mutual_information_at_most_kl_diameter", title="copy", citation="-",
                 relation=le(MutualInformationCopy(n), DIAM(n)), variables={n: naturals()})
    proof = Chain(MutualInformationCopy(n)).le(DIAM(n), by(fake, n=n))
    assert symbolic_check(_theorem(le(MutualInformationCopy(n), DIAM(n)), proof)).status != "proved"
    # a copy of the registered axiom (same content) is not the registered object
    copy = dataclasses.replace(mi.mutual_information_at_most_kl_diameter)
    proof = Chain(MI(n)).le(DIAM(n), by(copy, n=n))
    assert symbolic_check(_theorem(le(MI(n), DIAM(n)), proof)).status != "proved"
