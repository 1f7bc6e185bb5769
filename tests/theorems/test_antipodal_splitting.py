"""antipodal_splitting (R-B15): DR16 Lemma 3.9's split, per atom, proved without axioms; N42 on whole distributions."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, p, positive
from cdpsym.expr.domains import Interval
from cdpsym.proof import Chain, Part, Theorem, by, le, monotone, symbolic_check
from cdpsym.verify.numeric import numeric_check
from cdpsym.verify.property import property_check

splitting = importlib.import_module("theorems.antipodal_splitting")  # the module (theorems.<name> is the Theorem)
make, a_pos, a_neg = splitting.make, splitting.a_pos, splitting.a_neg
CASES = ("pos", "neg")
PER_CASE = ("mass", "mass_prime", "nonneg_x", "nonneg_s", "kl")


@pytest.fixture(scope="module")
def report():
    return splitting.theorem.verify(property_examples=30)


def _rel(name):
    return splitting.theorem.part(name).relation


def test_proved_by_all_three_checks_with_no_axiom(report):
    assert report.verdict == "proved", report
    checks = report.checks
    parts = checks["symbolic"]["parts"]
    assert [q["status"] for q in parts] == ["proved"] * len(parts)
    assert checks["symbolic"]["trusted_axioms"] == []
    assert checks["numeric"]["status"] == "passed"
    assert checks["property"]["status"] == "passed"


def test_the_parts_cover_the_two_cases():
    names = [q.name.split(".")[-1] for q in splitting.theorem.parts]
    assert names[:4] == ["exp_lemma", "sinh_definition", "chord_pos", "chord_neg"]
    assert names[4:] == [f"{c}_{n}" for c in CASES for n in PER_CASE]
    # [0, 1] and [-1, 0): together exactly [-1, 1]
    pos_dom = splitting.theorem.part("pos_kl").variables[a_pos]
    neg_dom = splitting.theorem.part("neg_kl").variables[a_neg]
    assert (pos_dom.lo, pos_dom.hi, pos_dom.left_open, pos_dom.right_open) == (0, 1, False, False)
    assert (neg_dom.lo, neg_dom.hi, neg_dom.left_open, neg_dom.right_open) == (-1, 0, False, True)
    # at a = 0 the positive case is the trivial split: M[x] = M'[x] = 0, s_x carries the atom
    at_zero = {a_pos: 0}
    assert sp.simplify(_rel("pos_nonneg_x").rhs.subs(at_zero)) == 0
    assert sp.simplify(_rel("pos_nonneg_s").rhs.subs(at_zero) - p) == 0
    assert sp.simplify(_rel("pos_kl").lhs.subs(at_zero)) == 0 == sp.simplify(_rel("pos_kl").rhs.subs(at_zero))


def test_the_monotone_rule_proves_the_claims():
    result = symbolic_check(splitting.theorem)
    rules = {r for q in result.parts for s in q.steps for r in s.rules}
    assert rules == {"monotone"}
    claims = {q.name.split(".")[-1]: q for q in result.parts}
    assert claims["chord_pos"].steps[0].method == "monotone"
    assert claims["chord_neg"].steps[0].method == "monotone"


def _reference(a, s, pp, e):
    """REFERENCE R-B15's formulas, literally, at numbers."""
    ratio = (mpmath.exp(a * e) - 1) / (mpmath.exp(s * e) - 1)
    return {"d": mpmath.exp(a * e) * pp, "m_prime": pp * ratio, "m": mpmath.exp(s * e) * pp * ratio,
            "m_s": pp * (1 - ratio)}


@pytest.mark.parametrize("case, avar, s, a_values", [
    ("pos", a_pos, 1, ("1", "0.5", "0.01", "1e-20")),
    ("neg", a_neg, -1, ("-1", "-0.5", "-0.01", "-1e-20")),
])
def test_the_statement_is_the_reference_construction(case, avar, s, a_values):
    atom = splitting.split_atom(avar, s)
    with mpmath.workdps(50):
        for av in a_values:
            for e in ("0.001", "0.7", "12"):
                vals = {avar: sp.Float(av, 60), eps: sp.Float(e, 60), p: sp.Float("0.3", 60)}
                want = _reference(mpmath.mpf(av), s, mpmath.mpf("0.3"), mpmath.mpf(e))
                for key in ("d", "m_prime", "m", "m_s"):
                    got = mpmath.mpf(str(getattr(atom, key).evalf(60, subs=vals)))
                    assert abs(got - want[key]) <= mpmath.mpf(10) ** -40 * max(1, abs(want[key])), (key, av, e)
    # the parts state exactly these masses
    assert _rel(f"{case}_mass").lhs == atom.d and _rel(f"{case}_mass").rhs == atom.m + atom.m_s
    assert _rel(f"{case}_mass_prime").rhs == atom.m_prime + atom.m_prime_s
    assert _rel(f"{case}_nonneg_x").rhs == atom.m_prime and _rel(f"{case}_nonneg_s").rhs == atom.m_prime_s
    kl = _rel(f"{case}_kl")
    assert (kl.lhs, kl.op, kl.rhs) == (atom.d * avar * eps, "<=", atom.m * s * eps)


def test_the_split_is_antipodal_by_construction():
    for avar, s in ((a_pos, 1), (a_neg, -1)):
        atom = splitting.split_atom(avar, s)
        assert sp.simplify(atom.m / atom.m_prime - sp.exp(s * eps)) == 0
        assert atom.m_s == atom.m_prime_s
    zero = splitting.split_atom(sp.S.Zero, 1)
    assert (zero.m, zero.m_prime, zero.m_s, zero.d) == (0, 0, p, p)


def test_exp_minus_one_is_exp_minus_one():
    x = sp.Symbol("x", real=True)
    assert sp.simplify(splitting.exp_minus_one(x) - (sp.exp(x) - 1)) == 0


def test_the_claims_are_the_papers():
    c11, c12 = _rel("chord_pos"), _rel("chord_neg")
    # Claim 3.11: a(e^{-ε} - 1) >= e^{-aε} - 1;  Claim 3.12: a(e^ε - 1) <= 1 - e^{-aε}
    assert (c11.lhs, c11.op, c11.rhs) == (sp.exp(-a_pos * eps) - 1, "<=", a_pos * (sp.exp(-eps) - 1))
    assert (c12.lhs, c12.op, c12.rhs) == (a_neg * (sp.exp(eps) - 1), "<=", 1 - sp.exp(-a_neg * eps))


# -- REFERENCE N42: whole distributions, KL by direct summation -------------------------------------------------

def _special_pairs():
    """Pairs with atoms at a = ±1, a = 0, a near 0, and small / large ε."""
    out = []
    for e in ("1e-6", "0.05", "1", "9"):
        e = mpmath.mpf(e)
        # D' uniform on 4 atoms; log-ratios a·ε with a = 1, -1, 0 and one free atom fixed by normalisation
        for tiny in ("0", "1e-25"):
            q = [mpmath.mpf(1) / 4] * 4
            d = [q[0] * mpmath.exp(e), q[1] * mpmath.exp(-e), q[2] * mpmath.exp(mpmath.mpf(tiny) * e)]
            rest = 1 - mpmath.fsum(d)
            if 0 < rest and abs(mpmath.log(rest / q[3])) <= e:
                out.append((d + [rest], q))
        out.append(([mpmath.exp(e) / (1 + mpmath.exp(e)), 1 / (1 + mpmath.exp(e))],
                    [1 / (1 + mpmath.exp(e)), mpmath.exp(e) / (1 + mpmath.exp(e))]))  # randomized response
    return out


def test_n42_random_pairs_are_split_into_antipodal_pairs_with_no_less_kl():
    with mpmath.workdps(50):
        pairs = splitting.random_pairs(300) + _special_pairs()
        assert len(pairs) > 305
        for d, dp in pairs:
            res = splitting.check_split(d, dp)
            bad = [k for k in ("normalised", "nonnegative", "antipodal", "delta_inf", "same_support",
                               "kl_not_decreased") if not res[k]]
            assert not bad, (bad, d, dp)


def test_n42_kl_is_the_sum_of_the_per_atom_bounds():
    # KL(M‖M') summed over the distributions equals Σ_x M[x]·s_x ε (the atoms s_x contribute 0): the sum of the
    # right sides of the kl parts; KL(D‖D') is the sum of their left sides D[x]·a_x ε
    with mpmath.workdps(50):
        for d, dp in splitting.random_pairs(20, seed=7):
            m, m_prime, e = splitting.split_pair(d, dp)
            per_atom = mpmath.fsum((1 if x >= y else -1) * e * mx
                                   for x, y, mx in zip(d, dp, m[0::2]))
            assert abs(splitting.kl_sum(m, m_prime) - per_atom) < mpmath.mpf(10) ** -40
            assert abs(splitting.kl_sum(d, dp) - mpmath.fsum(x * mpmath.log(x / y) for x, y in zip(d, dp))) == 0


def test_n42_the_split_can_strictly_increase_kl():
    with mpmath.workdps(50):
        d, dp = [mpmath.mpf("0.5"), mpmath.mpf("0.3"), mpmath.mpf("0.2")], [mpmath.mpf("0.2"), mpmath.mpf("0.35"),
                                                                              mpmath.mpf("0.45")]
        kl_d, kl_m = splitting.check_split(d, dp)["kl"]
        assert kl_m > kl_d + mpmath.mpf("0.01")


def test_n42_a_wrong_split_is_caught():
    # the e^{2sε} construction is not normalised: the distribution-level check sees it
    with mpmath.workdps(50):
        d, dp = splitting.random_pairs(1, seed=3)[0]
        m, m_prime, e = splitting.split_pair(d, dp)
        logs = [mpmath.log(x / y) for x, y in zip(d, dp)]
        wrong = [mpmath.exp(2 * (1 if lg >= 0 else -1) * e) * mp_ for lg, mp_ in zip(logs, m_prime[0::2])]
        assert abs(mpmath.fsum(wrong) + mpmath.fsum(m[1::2]) - 1) > mpmath.mpf("1e-3")


# -- mutants and adversarial variants ---------------------------------------------------------------------------

@pytest.mark.parametrize("label, mutant", splitting.mutants(), ids=[x for x, _ in splitting.mutants()])
def test_mutants_fail_symbolically_and_numerically(label, mutant):
    assert symbolic_check(mutant).status == "failed", label
    num = numeric_check(mutant)
    assert num.status == "failed", label


def test_a_outside_minus_one_one_is_not_provable():
    # a in (0, 3/2]: for a > 1 the new atom's mass p(1 - R) is negative and the KL bound reverses
    bad = make(pos_hi=sp.Rational(3, 2))
    result = symbolic_check(bad)
    failed = {q.name.split(".")[-1] for q in result.parts if q.status != "proved"}
    assert {"chord_pos", "pos_nonneg_s", "pos_kl"} <= failed
    assert result.status == "failed"
    prop = property_check(bad, examples=60)
    assert prop.status == "failed"
    atom = splitting.split_atom(a_pos, 1)
    assert atom.m_prime_s.subs({a_pos: sp.Rational(3, 2), eps: 1, p: 1}).evalf() < 0


def test_the_wrong_sign_case_is_refuted():
    # s = +1 for a < 0: M'[x] = p(e^{aε} - 1)/(e^ε - 1) < 0
    bad = make(neg_sign=1)
    result = symbolic_check(bad)
    assert {q.name.split(".")[-1] for q in result.parts if q.status == "failed"} >= {"neg_nonneg_x"}
    assert numeric_check(bad).status == "failed"


def _one_part(relation, proof, variables):
    return Theorem(name="adversarial_splitting", reference="-", source="-", title="adversarial",
                   variables={eps: positive(), p: positive()}, parts=(Part("main", relation, proof=proof,
                                                                                variables=variables),))


def test_chord_pos_beyond_a_equal_one_is_refused():
    # for a > 1 the chord inequality reverses; the exp_lemma step needs (1 - a)ε >= 0
    exp_one = splitting.theorem.part("exp_lemma")
    dom = {a_pos: Interval(sp.S.Zero, sp.S(2), True, False)}
    a = a_pos
    bad = _one_part(le(sp.exp(-a * eps) - 1, a * (sp.exp(-eps) - 1)),
                    Chain(sp.exp(-a * eps) - 1).le(a * (sp.exp(-eps) - 1), monotone(eps, by(
                        exp_one, v=(1 - a) * eps, inside=lambda w: a * sp.exp(-eps) * (w - 1)))), dom)
    assert symbolic_check(bad).status == "failed"


def test_the_kl_bound_with_a_larger_constant_is_refused():
    # D[x]·aε <= M[x]ε·(9/10) is false near a = 1 (equality at a = 1)
    atom = splitting.split_atom(a_pos, 1)
    claim = splitting.theorem.part("chord_pos")
    rhs = atom.m * eps * sp.Rational(9, 10)
    bad = _one_part(le(atom.d * a_pos * eps, rhs),
                    Chain(atom.d * a_pos * eps).le(rhs, by(claim)), splitting._pos_domain())
    assert symbolic_check(bad).status != "proved"


def test_exp_lemma_is_refused_for_negative_exponents():
    vv = sp.Symbol("vv", real=True)
    bad = Theorem(name="adversarial_exp", reference="-", source="-", title="adversarial",
                  variables={vv: Interval(sp.S(-1), sp.S.Infinity, False, True)},
                  parts=(Part("main", le(1, sp.exp(vv)), proof=Chain(sp.S.One).le(sp.exp(vv), monotone(vv))),))
    assert symbolic_check(bad).status == "failed"


def test_the_numeric_points_include_the_ends_and_near_zero():
    pts = splitting.theorem.numeric_points
    assert {"1", "1e-30"} <= {q["a_pos"] for q in pts}
    assert {"-1", "-1e-30"} <= {q["a_neg"] for q in pts}
    es = {float(q["eps"]) for q in pts}
    assert min(es) <= 1e-3 and max(es) >= 10


def test_random_pairs_are_deterministic_distributions():
    with mpmath.workdps(50):
        first, again, other = splitting.random_pairs(3), splitting.random_pairs(3), splitting.random_pairs(3, seed=1)
        assert first == again and first != other
        for d, dp in first:
            assert abs(mpmath.fsum(d) - 1) < mpmath.mpf(10) ** -45 and abs(mpmath.fsum(dp) - 1) < mpmath.mpf(10) ** -45
