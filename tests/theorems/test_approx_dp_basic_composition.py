"""approx_dp_basic_composition (R-F2, DR14 Thm 3.16): proved -- homogeneous (kε, kδ) and with parameters per step
(Σε_i, Σδ_i) -- through the likelihood-ratio form of the hockey-stick divergence; not tight for k >= 2; mutants fail."""

from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, i, k, naturals, real
from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.expr.operators import ComposedRatio, Expect, HockeyStick, StepRatio
from cdpsym.expr.symbols import delta0
from cdpsym.mechanisms.composition import optimal_composition_delta
from cdpsym.mechanisms.profile import hockey_stick_discrete, product_distribution
from cdpsym.proof import Chain, Part, Theorem, by, le, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk, condition, tower_mean_bound

basic = importlib.import_module("theorems.approx_dp_basic_composition")
kov = importlib.import_module("theorems.approx_dp_optimal_composition_homogeneous")
het = basic.approx_dp_basic_composition_heterogeneous
lemma = basic.positive_part_of_product
pp = basic.positive_part
_a, _b = sp.Symbol("a", real=True), sp.Symbol("b", real=True)

AXIOMS = {"hockey_stick_ratio_form_composed", "composed_ratio_step", "composed_ratio_start", "tower_mean_bound",
          "expectation_sum_nonnegative"}


@pytest.fixture(scope="module")
def reports():
    return [t.verify(property_examples=4) for t in (basic.theorem, het, lemma)]


def test_verdicts_and_what_the_proofs_rest_on(reports):
    for rep in reports:
        assert rep.verdict == "proved", rep
        assert rep.checks["numeric"]["status"] == "passed"
        assert rep.checks["property"]["status"] == "passed"
    hom, hetero, lem = reports
    assert set(hom.checks["symbolic"]["trusted_axioms"]) == AXIOMS | {"hockey_stick_ratio_form"}
    assert set(hetero.checks["symbolic"]["trusted_axioms"]) == AXIOMS | {"hockey_stick_ratio_form_class"}
    assert lem.checks["symbolic"]["trusted_axioms"] == []
    for rep in (hom, hetero):  # the step's pair is read by the class-member rule; the k steps by induction
        assert {"member", "induction"} <= set(rep.checks["symbolic"]["kernel_rules"])


def test_statement_shape():
    main = basic.theorem.part("main").relation
    assert main.lhs == HockeyStick(k * eps, Pk(k), Qk(k)) and main.op == "<=" and main.rhs == k * delta0
    assert [h.name for h in basic.theorem.hypotheses] == ["step_approx_dp"]  # one direction gives the same one
    assert basic.theorem.hypotheses[0] is kov.step_approx_dp  # one source: the hypotheses of R-F7
    assert basic.theorem.variables[k].describe() == naturals().describe()
    m = het.part("main").relation
    assert m.lhs == HockeyStick(sp.Sum(basic.eps_step(i), (i, 1, k)), Pk(k), Qk(k))
    assert m.rhs == sp.Sum(basic.delta_step(i), (i, 1, k))
    assert [h.name for h in het.hypotheses] == ["approx_dp_per_step"]
    assert het.hypotheses[0].variables.keys() == {i}
    assert lemma.parts[0].relation.lhs == pp(_a * _b)


@pytest.mark.parametrize("kk,e,d", [(1, "1", "0.01"), (3, "0.4", "0.05"), (5, "0.1", "1e-6"), (2, "2", "0.3")])
def test_the_bound_is_above_the_optimum_of_the_library_engine_and_kov15(kk, e, d):
    """kδ >= 1 − (1 − δ)^k, the optimal δ at kε: the privacy-loss engine and KOV15 at i = 0 agree on it."""
    with mpmath.workdps(40):
        pt = {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta0: mpmath.mpf(d)}
        optimum = 1 - (1 - mpmath.mpf(d)) ** kk
        engine = optimal_composition_delta(kk * mpmath.mpf(e), [sp.Rational(e)] * kk, [sp.Rational(d)] * kk, dps=40)
        kov15 = evaluate(kov.DELTA_PRIME, {**pt, i: mpmath.mpf(0)}, MPContext(40))
        assert abs(optimum - engine) < mpmath.mpf(10) ** -35 and abs(optimum - kov15) < mpmath.mpf(10) ** -35
        assert evaluate(basic.DELTA_TOTAL, pt, MPContext(40)) >= optimum


def _four_atom_profile(steps, at):
    pairs = [kov.four_atom_pair(e, d) for e, d in steps]
    return hockey_stick_discrete(product_distribution(*[p for p, _ in pairs], dps=40),
                                 product_distribution(*[q for _, q in pairs], dps=40), at, dps=40)


def test_not_tight_for_two_positive_deltas_and_the_docstring_numbers():
    """R-F2: not tight for k >= 2 when the δ_j are positive; the worst case at Σε_j is 1 − Π(1 − δ_j)."""
    with mpmath.workdps(40):
        d = mpmath.mpf("0.1")
        worst = _four_atom_profile([(mpmath.mpf(1), d)] * 2, 2)
        assert abs(worst - mpmath.mpf("0.19")) < mpmath.mpf(10) ** -35  # < δ1 + δ2 = 0.2; the gap is δ1 δ2
        d = mpmath.mpf("0.01")
        worst = _four_atom_profile([(mpmath.mpf("0.1"), d)] * 10, 1)
        assert mpmath.nstr(worst, 15) == "0.0956179249911955" and worst < 10 * d
        assert "0.0956179249911955" in basic.__doc__ and "0.19 < 0.2" in basic.__doc__
        # heterogeneous: ε = (0.5, 2), δ = (0.1, 0.05): 0.145 < 0.15
        worst = _four_atom_profile([(mpmath.mpf("0.5"), mpmath.mpf("0.1")), (mpmath.mpf(2), mpmath.mpf("0.05"))],
                                   mpmath.mpf("2.5"))
        assert abs(worst - mpmath.mpf("0.145")) < mpmath.mpf(10) ** -35


def test_tight_when_only_one_delta_is_positive():
    with mpmath.workdps(40):
        worst = _four_atom_profile([(mpmath.mpf(1), mpmath.mpf("0.2")), (mpmath.mpf("0.3"), mpmath.mpf(0))],
                                   mpmath.mpf("1.3"))
        assert abs(worst - mpmath.mpf("0.2")) < mpmath.mpf(10) ** -35  # = δ1 + δ2


def test_witnesses_are_valid_compositions():
    with mpmath.workdps(40):
        e, d = mpmath.mpf("0.7"), mpmath.mpf("0.05")
        pairs = basic.random_approx_dp_pairs(e, d)
        assert len(pairs) == 3
        for pp_, qq in pairs:
            assert abs(mpmath.fsum(pp_) - 1) < mpmath.mpf(10) ** -35 and abs(mpmath.fsum(qq) - 1) < mpmath.mpf(10) ** -35
            assert basic.approx_dp_parameters(pp_, qq, e) <= d + mpmath.mpf(10) ** -35
            assert basic.approx_dp_parameters(pp_, qq, e) > 0  # genuinely approximate, not pure
        for name, pp_, qq in basic.witnesses(e, d, 3, 40):
            assert abs(mpmath.fsum(pp_.values()) - 1) < mpmath.mpf(10) ** -30, name
            assert abs(mpmath.fsum(qq.values()) - 1) < mpmath.mpf(10) ** -30, name
        names = [n for n, _, _ in basic.witnesses(e, d, 2, 40)]
        assert any(n.startswith("adaptive") for n in names) and len(names) == 4


def test_mutants_fail_numerically_and_are_never_proved():
    muts = basic.mutants()
    names = {t.name for _, t in muts}
    assert names == {"approx_dp_basic_composition", "approx_dp_basic_composition_heterogeneous",
                     "positive_part_of_product"}
    for label, thm in muts:
        assert numeric_check(thm).status == "failed", label
        assert symbolic_check(thm).status not in ("proved", "certified"), label


# -- attacks: each tries to make the same kernel steps prove something false ---------------------------------------

def test_the_lemma_for_all_reals_is_not_proved():
    """(1 − ab)_+ <= (1 − a)_+ + (1 − b)_+ is false at a = −1, b = 2 (3 > 2): on the reals it must fail."""
    wide = lemma.with_changes(variables={_a: real(sample_lo=-3, sample_hi=3), _b: real(sample_lo=-3, sample_hi=3)})
    assert symbolic_check(wide).status == "failed"


def test_the_lemma_without_one_term_is_refuted():
    """(1 − ab)_+ <= (1 − a)_+ is false (a = 1/2, b = 0): every case split of it must fail, not pass."""
    lhs, rhs = pp(_a * _b), pp(_a)
    from cdpsym.proof import sign, split
    part = Part("main", le(lhs, rhs), proof=Chain(lhs).le(rhs, split(_a, 1, split(_b, 1, sign(), sign()), sign())))
    assert symbolic_check(lemma.with_changes(parts=(part,))).status == "failed"


@pytest.mark.parametrize("index,holds", [(k + 1, True), (k + 2, False), (k, False)])
def test_the_step_bound_only_at_its_own_step(index, holds):
    """Class i read at step k + 1: proved for i = k + 1 only; the class-member rule refuses another class."""
    n = k + 1
    one = Expect(pp(sp.exp(basic.eps_step(n)) * StepRatio(n)))
    step_mean = Part("step_mean", het.part("step_mean").relation, variables={i: naturals()},
                     proof=het.part("step_mean").proof)
    proof = Chain(one).le(basic.delta_step(n), by(
        tower_mean_bound, Y_1=pp(sp.exp(basic.eps_step(n)) * StepRatio(n)), i=n, c=basic.delta_step(n),
        given={condition(tower_mean_bound): by(step_mean, i=index, at_step=n)}))
    thm = Theorem(name="one_step", reference="test", source="test", title="test", variables={k: naturals()},
                  sequences=dict(het.sequences), hypotheses=het.hypotheses,
                  parts=(step_mean, Part("main", le(one, basic.delta_step(n)), proof=proof)))
    assert (symbolic_check(thm).status == "proved") is holds


def test_without_the_hypothesis_the_step_mean_is_not_proved():
    reverse = importlib.import_module("theorems.approx_dp_optimal_composition_homogeneous").step_approx_dp_reverse
    thm = basic.theorem.with_changes(hypotheses=(reverse,))  # the other direction does not give this one
    assert symbolic_check(thm).status not in ("proved", "certified")


def test_a_ratio_bound_that_drops_the_last_step_is_not_proved():
    """E[(1 − e^{kε}Λ_k)_+] <= (k − 1)δ0 is false (k = 1: the four-atom pair has δ0 > 0)."""
    ratio = basic.theorem.part("ratio_mean")
    part = Part("ratio_mean", le(ratio.relation.lhs, (k - 1) * delta0), proof=ratio.proof)
    thm = basic.theorem.with_changes(parts=(basic.theorem.part("step_mean"), part))
    assert symbolic_check(thm).status not in ("proved", "certified")


def test_the_lemma_cannot_be_instantiated_at_a_possibly_negative_quantity():
    """a = e^{kε}Λ_k − 2 may be negative: the lemma's domain a >= 0 is not met."""
    first = sp.exp(k * eps) * ComposedRatio(k) - 2
    second = sp.exp(eps) * StepRatio(k + 1)
    lhs = Expect(pp(first * second))
    rhs = Expect(pp(first) + pp(second))
    thm = Theorem(name="negative", reference="test", source="test", title="test",
                  variables={k: naturals(), eps: basic.theorem.variables[eps]},
                  parts=(Part("main", le(lhs, rhs), proof=Chain(lhs).le(rhs, by(lemma, a=first, b=second,
                                                                                   inside=lambda w: Expect(w)))),))
    assert symbolic_check(thm).status not in ("proved", "certified")

