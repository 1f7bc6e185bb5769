"""subgaussian_moments (R-B4): E[X^k] <= ⌈k/2⌉! 2^(⌈k/2⌉+1) τ^k proved for k = 1, 2m, 2m + 1 (Chernoff on the moment,
monotonicity of expectation, m! >= (m/e)^m by induction); the sharper mutants fail against five τ-subgaussian laws;
the proof cannot be bent to a false one."""

from __future__ import annotations

import dataclasses
import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import X, naturals, positive, real, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Axiom, Chain, Part, Theorem, by, le, lt, sign, symbolic_check
from cdpsym.proof.kernel import Specialize
from cdpsym.verify.numeric import numeric_check
from theorems.subgaussian_concentration import subgaussian

M = importlib.import_module("theorems.subgaussian_moments")
theorem = M.theorem
m, eta = M.m, M.eta


def _reference(k: int) -> sp.Expr:
    """REFERENCE.md R-B4 verbatim: factorial(ceiling(k/2)) * 2**(ceiling(k/2)+1) * tau**k."""
    c = sp.ceiling(sp.Rational(k, 2))
    return sp.factorial(c) * 2 ** (c + 1) * tau ** k


def _part_for(k: int):
    """The part that states the item at k, with m read off."""
    if k == 1:
        return theorem.part("first"), {}
    if k % 2 == 0:
        return theorem.part("even"), {m: k // 2}
    return theorem.part("odd"), {m: (k - 1) // 2}


# -- verdicts ----------------------------------------------------------------------------------------------------------

def test_proved_with_all_checks():
    report = theorem.verify(property_examples=10)
    assert report.verdict == "proved"
    sym = report.checks["symbolic"]
    assert sorted(sym["trusted_axioms"]) == ["exp_abs_bound", "expectation_affine", "expectation_sum_nonnegative"]
    assert "induction" in sym["kernel_rules"] and "interval" not in sym["kernel_rules"]
    assert "numeric" not in [s["method"] for s in sym["steps"]]


def test_lemmas_proved_and_checked():
    for lemma in M.LEMMAS:
        assert symbolic_check(lemma).status == "proved", lemma.name
        assert numeric_check(lemma).status == "passed", lemma.name


def test_the_axiom_is_registered_and_checked():
    import theorems

    assert M.exp_abs_bound in theorems.AXIOMS
    for x in ("-40", "-1.5", "0", "1e-9", "3", "35"):
        y = mpmath.mpf(x)
        assert mpmath.exp(abs(y)) <= mpmath.exp(y) + mpmath.exp(-y)


# -- the statement is the item -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("k", range(1, 26))
def test_statement_is_the_item_at_every_k(k):
    part, at = _part_for(k)
    assert part.relation.op == "<="
    assert part.relation.lhs.subs(at) == Expect(X ** k)
    assert sp.simplify(part.relation.rhs.subs(at).doit() - _reference(k)) == 0


def test_parts_cover_every_k_once():
    covered = [1] + [2 * j for j in range(1, 60)] + [2 * j + 1 for j in range(1, 60)]
    assert sorted(covered) == list(range(1, 120))
    assert theorem.variables[m] == naturals(sample_hi=12)  # m >= 1: k = 2m >= 2 and k = 2m + 1 >= 3
    assert theorem.hypotheses == (subgaussian,)
    assert theorem.reference == "R-B4"
    assert "Fact 2.2" in theorem.source and "1603.01887v2" in theorem.source


# -- ground truth ------------------------------------------------------------------------------------------------------

def test_gaussian_quadrature_matches_the_double_factorial():
    with mpmath.workdps(50):
        for k in range(1, 26):
            g = dict(M.witnesses(mpmath.mpf(2), k))["N(0, tau^2), quadrature"]
            exact = mpmath.fac2(k - 1) * 2 ** k if k % 2 == 0 else 0
            assert abs(g - exact) <= mpmath.mpf(10) ** -35 * max(1, exact), k


@pytest.mark.parametrize("k", [1, 2, 3, 7, 11, 24, 25])
def test_witnesses_are_tau_subgaussian(k):
    """Each law of the ground truth satisfies the hypothesis (MGF <= e^{λ²τ²/2}) on a grid of λ."""
    with mpmath.workdps(30):
        tt = mpmath.mpf("1.3")
        p = min(mpmath.mpf(1) / 4, mpmath.exp(-mpmath.mpf(k) / 4))
        c = tt / M._bernoulli_proxy(p)
        a = mpmath.sqrt(3) * tt
        laws = {
            "rademacher": [(-tt, 0.5), (tt, 0.5)],
            "skew": [(-tt / 2, 0.75), (3 * tt / 2, 0.25)],
            "bernoulli": [(c * (1 - p), p), (-c * p, 1 - p)],
        }
        for j in range(-400, 401):
            lam = mpmath.mpf(j) / 20
            bound = mpmath.exp(lam ** 2 * tt ** 2 / 2)
            for name, law in laws.items():
                mgf = mpmath.fsum(q * mpmath.exp(lam * x) for x, q in law)
                assert mgf <= bound * (1 + mpmath.mpf(10) ** -25), (name, lam)
            uniform = mpmath.sinh(a * lam) / (a * lam) if lam else mpmath.mpf(1)
            assert uniform <= bound * (1 + mpmath.mpf(10) ** -25), ("uniform", lam)


def test_every_witness_has_mean_zero():
    with mpmath.workdps(40):
        for name, value in M.witnesses(mpmath.mpf("0.7"), 1):
            assert abs(value) < mpmath.mpf(10) ** -30, name


def test_the_item_is_loose_as_documented():
    """E[X^4] = 3τ⁴ for N(0, τ²) against 16τ⁴; 2(2m/e)^m <= m! 2^m (why 'drop the factor 2' is no mutant)."""
    with mpmath.workdps(40):
        g4 = dict(M.witnesses(mpmath.mpf(1), 4))["N(0, tau^2), quadrature"]
        assert abs(g4 - 3) < mpmath.mpf(10) ** -30
        for j in range(1, 200):
            assert 2 * (2 * mpmath.mpf(j) / mpmath.e) ** j <= mpmath.factorial(j) * 2 ** j
            k = 2 * j + 1  # E|X|^k <= 2 (k/e)^(k/2) τ^k (Chernoff on |X|^k) <= ⌊k/2⌋! 2^(⌊k/2⌋+1) τ^k
            assert 2 * (k / mpmath.e) ** (mpmath.mpf(k) / 2) <= mpmath.factorial(j) * 2 ** (j + 1)
            # ⌊k/2⌋ for odd k = 2j + 1: every witness still obeys j! 2^(j+1) τ^k
            if j <= 12:
                for name, value in M.witnesses(mpmath.mpf(1), 2 * j + 1):
                    assert value <= mpmath.factorial(j) * 2 ** (j + 1), (j, name)


# -- mutants -----------------------------------------------------------------------------------------------------------

def test_mutants_fail_numerically():
    found = M.mutants()
    assert len(found) >= 6
    names = {mu.name for _, mu in found}
    assert names == {"subgaussian_moments", "even_power_exp_bound", "factorial_lower_bound", "odd_power_am_gm",
                     "subgaussian_even_moments"}
    for label, mutant in found:
        assert numeric_check(mutant).status == "failed", label
        assert symbolic_check(mutant).status not in ("proved", "certified"), label


def test_each_part_has_a_caught_mutant():
    parts = set()
    for label, mutant in M.mutants():
        if mutant.name != "subgaussian_moments":
            continue
        for p, q in zip(mutant.parts, theorem.parts):
            if p.relation.rhs != q.relation.rhs:
                parts.add(p.name.split(".")[-1])
    assert parts == {"first", "even", "odd"}


# -- adversarial -------------------------------------------------------------------------------------------------------

def _bare(part, relation=None, proof=None, hypotheses=(subgaussian,), variables=None):
    return Theorem(name="t", reference="", source="t", title="t",
                   variables=dict(theorem.variables if variables is None else variables), hypotheses=hypotheses,
                   parts=(Part("main", part.relation if relation is None else relation,
                               proof=part.proof if proof is None else proof),))


def test_no_proof_without_the_hypothesis():
    for part in (theorem.part("first"), theorem.part("even"), theorem.part("odd"),
                 M.subgaussian_even_moments.parts[0]):
        assert symbolic_check(_bare(part, hypotheses=())).status not in ("proved", "certified"), part.name


def test_strict_inequality_is_not_proved():
    for part in (theorem.part("even"), M.subgaussian_even_moments.parts[0]):
        rel = part.relation
        assert symbolic_check(_bare(part, relation=lt(rel.lhs, rel.rhs))).status == "failed", part.name


def test_the_chain_cannot_end_at_a_smaller_bound():
    # the Chernoff lemma's own chain, then a "sign" step down to (2m/e)^m τ^(2m) (false: N(0, τ²) at m = 1)
    part = M.subgaussian_even_moments.parts[0]
    chain = part.proof
    bad = Chain(chain.start, variables=dict(chain.variables))
    for st in chain.steps:
        bad = getattr(bad, {"=": "eq", "<=": "le", "<": "lt"}[st.op])(st.expr, st.why)
    bad = bad.le(M.SHARP / 2, sign())
    rel = le(Expect(X ** (2 * m)), M.SHARP / 2)
    assert symbolic_check(_bare(part, relation=rel, proof=bad)).status not in ("proved", "certified")


def test_specialize_outside_the_domain_is_refused():
    chain = Chain(sp.exp(eta ** 2 * tau ** 2 / 2) / eta, variables={eta: positive()}).eq(
        -sp.exp(m) * tau / sp.sqrt(2 * m), Specialize(eta, -sp.sqrt(2 * m) / tau))
    th = Theorem(name="t", reference="", source="t", title="t",
                 variables={tau: positive(), m: naturals()},
                 parts=(Part("main", le(sp.exp(eta ** 2 * tau ** 2 / 2) / eta, -sp.exp(m) * tau / sp.sqrt(2 * m)),
                             proof=chain),))
    assert symbolic_check(th).status == "failed"


def test_an_unregistered_copy_of_the_axiom_is_not_trusted():
    fake = dataclasses.replace(M.exp_abs_bound)
    assert fake is not M.exp_abs_bound
    u = sp.Abs(X)
    main = Chain(sp.exp(u)).le(sp.exp(X) + sp.exp(-X), by(fake, Y_1=X))
    th = Theorem(name="t", reference="", source="t", title="t", variables={X: real()},
                 parts=(Part("main", le(sp.exp(u), sp.exp(X) + sp.exp(-X)), proof=main),))
    assert symbolic_check(th).status not in ("proved", "certified")


def test_the_one_sided_bound_is_not_provable_by_sign():
    # e^|X| <= e^X is false for X < 0: neither the sign rule nor the axiom may give it
    th = Theorem(name="t", reference="", source="t", title="t", variables={X: real()},
                 parts=(Part("main", le(sp.exp(sp.Abs(X)), sp.exp(X)), proof=Chain(sp.exp(sp.Abs(X))).le(
                     sp.exp(X), sign())),))
    assert symbolic_check(th).status not in ("proved", "certified")


def test_the_pointwise_lemma_needs_an_even_power():
    # X^(2m+1) <= (2m/e)^(2m)(e^X + e^-X) read off the even lemma's chain is not an instance of it
    lemma = M.even_power_exp_bound.part("main")
    rel = le(X ** (2 * m + 1), M._EVEN_POINTWISE)
    chain = Chain(X ** (2 * m + 1)).le(M._EVEN_POINTWISE, by(lemma, X=X, m=m))
    th = Theorem(name="t", reference="", source="t", title="t", variables={X: real(), m: naturals()},
                 parts=(Part("main", rel, proof=chain),))
    assert symbolic_check(th).status == "failed"


def test_the_chernoff_lemma_is_refused_at_a_half_integer_order():
    # m = 1/2 would claim E[X] <= 2 (1/e)^(1/2) τ from x^(2m) <= ..., which needs an even power: m must be >= 1 integer
    lemma = M.subgaussian_even_moments.parts[0]
    rel = le(Expect(X), M.SHARP.subs(m, sp.S.Half))
    th = _bare(lemma, relation=rel, proof=Chain(Expect(X)).le(M.SHARP.subs(m, sp.S.Half),
                                                            by(M.subgaussian_even_moments, m=sp.S.Half)))
    assert symbolic_check(th).status == "failed"


def test_the_odd_part_cannot_use_the_even_bound_at_zero():
    # the odd chain at m = 0 (k = 1) would need the even bound at m = 0, outside m >= 1
    lemma = M.subgaussian_even_moments.parts[0]
    th = _bare(lemma, relation=le(Expect(X ** 2), M.SHARP.subs(m, 1)),
               proof=Chain(Expect(X ** 2)).le(M.SHARP.subs(m, 1), by(M.subgaussian_even_moments, m=0)))
    assert symbolic_check(th).status == "failed"


def test_the_axiom_verifies_and_a_wrong_one_is_caught_numerically():
    from cdpsym.verify.runner import verify_theorem

    assert verify_theorem(M.exp_abs_bound, property_examples=10).verdict == "axiom"
    wrong = Axiom(name="exp_abs_bound_wrong", title="t", citation="t",
                  relation=le(sp.exp(2 * sp.Abs(M.Y1)), sp.exp(M.Y1) + sp.exp(-M.Y1)),
                  variables=dict(M.exp_abs_bound.variables),
                  ground_truth=lambda v, dps: [("mpmath", mpmath.exp(2 * abs(v[M.Y1])))],
                  numeric_points=M.exp_abs_bound.numeric_points)
    assert verify_theorem(wrong, property_examples=10).verdict == "failed"
