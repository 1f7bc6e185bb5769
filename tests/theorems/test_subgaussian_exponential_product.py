"""subgaussian_exponential_product (R-B6): E[X e^Y] <= E[X] + sqrt(E[X²]) (τ + 3τ²) for τ-subgaussian Y, τ <= 1/3,
proved from Taylor's remainder, AM-GM and the Chernoff moment bound; the ground truth computes both sides of joint
laws; the new additivity axiom and the finiteness bookkeeping cannot be bent to a false proof."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import Interval, X, Y, mu, positive, real, s, tau
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, by, eq, le, sign, symbolic_check
from cdpsym.proof.algebra import Context, extended_agree, finite_value
from cdpsym.verify.numeric import numeric_check

M = importlib.import_module("theorems.subgaussian_exponential_product")
theorem = M.theorem
ADD = M.expectation_additive_square_integrable
COND = "condition " + ADD.conditions[1].plain()


# -- verdicts ----------------------------------------------------------------------------------------------------------

def test_proved_with_all_checks():
    report = theorem.verify(property_examples=4)
    assert report.verdict == "proved"
    sym = report.checks["symbolic"]
    assert sorted(sym["trusted_axioms"]) == sorted([
        "exp_abs_bound", "exp_taylor_remainder", "expectation_additive_square_integrable", "expectation_affine",
        "expectation_sum_nonnegative"])
    assert "interval" not in sym["kernel_rules"]
    assert "numeric" not in [st["method"] for st in sym["steps"]]
    assert report.checks["numeric"]["status"] == "passed"


def test_lemmas_proved_and_checked():
    for lemma in M.LEMMAS:
        assert symbolic_check(lemma).status == "proved", lemma.name
        assert numeric_check(lemma).status == "passed", lemma.name


def test_the_axioms_are_registered_and_the_taylor_one_holds():
    import theorems

    for ax in M.AXIOMS:
        assert ax in theorems.AXIOMS
    with mpmath.workdps(40):
        for j in range(-400, 401):
            y = mpmath.mpf(j) / 13
            assert abs(mpmath.expm1(y) - y) <= y ** 2 * mpmath.exp(abs(y)) / 2


# -- the statement is the item -----------------------------------------------------------------------------------------

def test_statement_is_the_item():
    main = theorem.part("main").relation
    assert main.op == "<=" and main.lhs == Expect(X * sp.exp(Y))
    # s is sqrt(E[X²]) by the hypothesis second_moment; the factor is τ + 3τ²
    assert sp.expand(main.rhs - Expect(X) - s * (tau + 3 * tau ** 2)) == 0
    hyps = {h.name: h.relation for h in theorem.hypotheses}
    assert hyps["second_moment"] == eq(Expect(X ** 2), s ** 2)
    assert hyps["variance"] == eq(s ** 2, mu ** 2 + M.sigma_x ** 2)  # σ_X = sqrt(Var X)
    second = theorem.part("variance_form").relation  # the item's second form, with |E X| (R-H31)
    assert second.lhs == main.lhs
    assert sp.expand(second.rhs - Expect(X) - (M.sigma_x + sp.Abs(mu)) * (tau + 3 * tau ** 2)) == 0
    assert hyps["mean"] == eq(Expect(X), mu)
    assert hyps["subgaussian"].lhs == Expect(sp.exp(M.lam * Y))
    dom = theorem.variables[tau]
    assert (dom.lo, dom.hi, dom.left_open, dom.right_open) == (0, sp.Rational(1, 3), True, False)
    assert theorem.variables[s].lo == 0 and theorem.variables[s].left_open
    assert theorem.reference == "R-B6" and "Lemma 2.3" in theorem.source and "1603.01887v2" in theorem.source


# -- ground truth ------------------------------------------------------------------------------------------------------

def test_gaussian_witness_matches_its_closed_form():
    """X = μ + σ (e^Y − E e^Y)/sd(e^Y), Y ~ N(0, τ²): E[X e^Y] = μ e^{τ²/2} + σ sqrt(e^{2τ²} − e^{τ²})."""
    with mpmath.workdps(50):
        for tt, ss, mm in ((mpmath.mpf("0.3"), 1, 0), (mpmath.mpf("0.05"), 2, mpmath.mpf("1.5")),
                           (mpmath.mpf(1) / 3, mpmath.mpf("0.5"), mpmath.mpf("-0.25"))):
            ss, mm = mpmath.mpf(ss), mpmath.mpf(mm)
            got = dict((n, v) for n, v, _ in M.witnesses(tt, ss, mm))
            value = got["Y ~ N(0, tau^2), quadrature; X = mu + sigma * standardised e^Y"]
            sigma = mpmath.sqrt(ss ** 2 - mm ** 2)
            exact = mm * mpmath.exp(tt ** 2 / 2) + sigma * mpmath.sqrt(mpmath.exp(2 * tt ** 2) - mpmath.exp(tt ** 2))
            assert abs(value - exact) < mpmath.mpf(10) ** -40


def test_witness_laws_are_tau_subgaussian():
    with mpmath.workdps(30):
        tt = mpmath.mpf("0.3")
        laws = M._laws(tt)[1:]  # the discrete ones (the Gaussian has MGF e^{λ²τ²/2} exactly)
        for j in range(-600, 601):
            lam = mpmath.mpf(j) / 10
            bound = mpmath.exp(lam ** 2 * tt ** 2 / 2)
            for name, expect in laws:
                assert expect(lambda y: mpmath.exp(lam * y)) <= bound * (1 + mpmath.mpf(10) ** -25), (name, lam)


def test_tight_in_the_first_order():
    """(E[X e^Y] − E[X]) / (s τ) -> 1 as τ -> 0 for the Cauchy–Schwarz witness; the 3τ² is loose."""
    with mpmath.workdps(40):
        ratios = []
        for tt in ("0.1", "0.01", "0.001"):
            got = dict((n, v) for n, v, _ in M.witnesses(mpmath.mpf(tt), mpmath.mpf(1), mpmath.mpf(0)))
            ratios.append(got["Y ~ N(0, tau^2), quadrature; X = mu + sigma * standardised e^Y"] / mpmath.mpf(tt))
        assert all(r > 1 for r in ratios) and ratios[-1] - 1 < mpmath.mpf(10) ** -5
        # at τ = 1/3 the largest excess over all witnesses is far below 3τ²
        third = mpmath.mpf(1) / 3
        excess = max(v for _, v, _ in M.witnesses(third, mpmath.mpf(1), mpmath.mpf(0))) - third
        assert 0 < excess < 3 * third ** 2 / 2


def test_no_witness_without_a_law():
    assert M.witnesses(mpmath.mpf("0.2"), mpmath.mpf(1), mpmath.mpf(1)) == []
    assert M.witnesses(mpmath.mpf("0.2"), mpmath.mpf(1), mpmath.mpf(3)) == []


# -- attacks -----------------------------------------------------------------------------------------------------------

def _attack(relation, proof, facts=(M.mean, M.second_moment), variables=None):
    t = Theorem(name="attack", reference="", source="test", title="attack",
                variables=variables or {s: positive(), mu: real(), X: real(), Y: real()},
                hypotheses=tuple(facts), parts=(Part("main", relation, proof=proof),))
    return symbolic_check(t).status


def test_additivity_needs_a_non_negative_second_term():
    """E[X − Y²] = E[X] + E[−Y²] happens to be true here, but with Y_2 = −Y² (not >= 0) the axiom does not apply."""
    bad = -Y ** 2
    rel = eq(Expect(X + bad), Expect(X) + Expect(bad))
    proof = Chain(Expect(X + bad)).eq(Expect(X) + Expect(bad), by(ADD, Y_1=X, Y_2=bad, c=s ** 2, given={
        COND: Chain(Expect(X ** 2)).eq(s ** 2, by(M.second_moment))}))
    assert _attack(rel, proof) != "proved"


def test_additivity_needs_the_square_integrability_proved():
    rel = eq(Expect(Y + Y ** 2), Expect(Y) + Expect(Y ** 2))
    no_proof = Chain(Expect(Y + Y ** 2)).eq(Expect(Y) + Expect(Y ** 2), by(ADD, Y_1=Y, Y_2=Y ** 2, c=s ** 2))
    assert _attack(rel, no_proof) != "proved"
    wrong = Chain(Expect(Y + Y ** 2)).eq(Expect(Y) + Expect(Y ** 2), by(ADD, Y_1=Y, Y_2=Y ** 2, c=s ** 2, given={
        COND: Chain(Expect(Y ** 2)).eq(s ** 2, by(M.second_moment))}))  # the fact is about X, not Y
    assert _attack(rel, wrong) != "proved"


def test_additivity_refuses_a_bound_that_may_be_infinite():
    """c = E[X²] + 1 bounds E[X²] trivially; it is a number only where E[X²] is shown finite."""
    rel = eq(Expect(X + Y ** 2), Expect(X) + Expect(Y ** 2))
    bound = Expect(X ** 2) + 1
    proof = Chain(Expect(X + Y ** 2)).eq(Expect(X) + Expect(Y ** 2), by(ADD, Y_1=X, Y_2=Y ** 2, c=bound, given={
        COND: Chain(Expect(X ** 2)).le(bound, sign())}))
    assert _attack(rel, proof, facts=(M.mean,)) != "proved"
    assert _attack(rel, proof, facts=(M.mean, M.second_moment)) == "proved"  # the control: E[X²] = s² is finite
    for c_value in (sp.oo, Expect(Y ** 4)):
        proof = Chain(Expect(X + Y ** 2)).eq(Expect(X) + Expect(Y ** 2), by(ADD, Y_1=X, Y_2=Y ** 2, c=c_value))
        assert _attack(rel, proof) != "proved"


def test_the_constant_needs_tau_at_most_a_third():
    """At τ = 1 the remainder's constant is 8e/sqrt(2) > 3: the part 'constant' is not proved on (0, 1]."""
    def on(hi):
        return Theorem(name="constant_on", reference="", source="test", title="constant",
                       variables={tau: Interval(sp.S.Zero, hi, True, False)}, parts=M._constant_part())

    assert symbolic_check(on(sp.Rational(1, 3))).status == "proved"  # the control
    assert symbolic_check(on(sp.S.One)).status != "proved"
    assert symbolic_check(on(sp.Rational(1, 2))).status != "proved"  # K(1/2) = 8 e^{-1/2}/sqrt 2 = 3.43 > 3
    assert 8 * mpmath.e / mpmath.sqrt(2) > 3


def test_the_chain_cannot_end_below_the_bound():
    for mutant in (Expect(X) + s * tau, Expect(X) + s * (tau + tau ** 2)):
        assert symbolic_check(M.make(mutant)).status != "proved"


def _bare(name, hypotheses):
    """The part ``name`` alone, with its own proof, under other hypotheses (the cited parts keep their
    certificates: they are parts of the library theorem)."""
    part = theorem.part(name)
    return Theorem(name="bare", reference="", source="test", title="bare", variables=dict(theorem.variables),
                   hypotheses=tuple(hypotheses), parts=(Part("main", part.relation, proof=part.proof),))


def test_no_proof_without_the_moments():
    """Without E[X] = μ the mean may be −∞ and the split is not shown; without E[X²] = s² nothing bounds it;
    without the variance hypothesis σ_X is any number."""
    assert symbolic_check(_bare("main", theorem.hypotheses)).status == "proved"  # the control
    for dropped in (M.mean, M.second_moment, M.subgaussian_y):
        hyps = [h for h in theorem.hypotheses if h is not dropped]
        assert symbolic_check(_bare("main", hyps)).status not in ("proved", "certified"), dropped.name
    assert symbolic_check(_bare("root_bound", theorem.hypotheses)).status == "proved"
    hyps = [h for h in theorem.hypotheses if h is not M.variance]
    assert symbolic_check(_bare("root_bound", hyps)).status not in ("proved", "certified")


# -- the finiteness bookkeeping: a term counts as possibly infinite unless a fact excludes both infinities ------------

def _ctx(*facts):
    hyps = tuple(Hypothesis(name=f"f{i}", relation=r) for i, r in enumerate(facts))
    return Context({mu: real(), tau: positive(), X: real(), Y: real()}, hyps)


def test_one_sided_bound_leaves_a_term_possibly_infinite():
    ex = Expect(X)
    assert finite_value(ex, _ctx(le(ex, 1))).ok is not True
    assert finite_value(ex, _ctx(le(-1, ex))).ok is not True
    assert finite_value(ex, _ctx(le(ex, 1), le(-1, ex))).ok is True
    assert finite_value(ex, _ctx(eq(ex, mu))).ok is True
    assert finite_value(ex, _ctx(eq(ex, sp.oo))).ok is not True


def test_a_finite_term_is_not_counted_but_the_others_are_enumerated():
    """Five expectations: E[X] shown finite is dropped from the count; the other four are still set to ±∞,
    so a statement false at E[Y] = −∞ (E[X] + E[Y] - E[Y] = E[X]) is not passed."""
    ex = Expect(X)
    others = [Expect(Y ** 2), Expect(sp.exp(Y)), Expect(Y ** 4), Expect(sp.exp(-Y))]  # each >= 0: only +oo
    ctx = _ctx(eq(ex, mu))
    a = sp.Mul(tau, ex + sum(others), evaluate=False)
    b = tau * ex + sum(tau * o for o in others)
    assert a != b
    assert extended_agree(a, "=", b, ctx).ok is True
    trap = sp.Add(ex, others[0], sp.Mul(-1, others[0], evaluate=False), evaluate=False)
    assert extended_agree(trap, "=", ex, ctx).ok is not True
    # a term excluded only from +oo still counts: five possibly infinite terms are too many to decide
    ctx2 = _ctx(le(ex, 1))
    assert extended_agree(a, "=", b, ctx2).ok is not True
