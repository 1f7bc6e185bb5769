"""approx_dp_basic_composition (R-F2, DR14 Thm 3.16): supported (the optimum at Σε_j is numeric; the arithmetic
to Σδ_j is proved); Bernoulli's inequality proved; not tight for k >= 2; mutants fail."""

from __future__ import annotations

import importlib
import time

import mpmath
import pytest
import sympy as sp

from cdpsym.expr import eps, eps_p, i, k, naturals
from cdpsym.expr.domains import Interval
from cdpsym.expr.evaluate import MPContext, evaluate
from cdpsym.expr.operators import HockeyStick
from cdpsym.expr.symbols import delta0
from cdpsym.mechanisms.composition import optimal_composition_delta
from cdpsym.mechanisms.profile import hockey_stick_discrete, product_distribution
from cdpsym.proof import Chain, Part, Theorem, by, le, lt, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check
from theorems.foundations_composition import Pk, Qk

basic = importlib.import_module("theorems.approx_dp_basic_composition")
kov = importlib.import_module("theorems.approx_dp_optimal_composition_homogeneous")
mv = importlib.import_module("theorems.approx_dp_optimal_composition")
two = basic.approx_dp_basic_composition_two_mechanisms
bern = basic.bernoulli_inequality


@pytest.fixture(scope="module")
def report():
    return basic.theorem.verify(property_examples=4)


@pytest.fixture(scope="module")
def report_two():
    return two.verify(property_examples=4)


def test_verdicts_and_what_is_proved(report, report_two):
    assert report.verdict == "supported", report
    assert report_two.verdict == "supported", report_two
    for rep in (report, report_two):
        assert rep.checks["numeric"]["status"] == "passed"
        assert rep.checks["property"]["status"] == "passed"
        assert rep.checks["symbolic"]["trusted_axioms"] == []
    # the optimum is one numeric step; main = (optimum, supported) + arithmetic that is proved
    res = symbolic_check(basic.theorem)
    opt, main = res.parts
    assert [st.method for st in opt.steps] == ["numeric"]
    assert [st.method for st in main.steps] == ["by:approx_dp_basic_composition.optimum",
                                                "by:bernoulli_inequality.main", "algebra"]
    assert [st.status for st in main.steps] == ["supported", "proved", "proved"]
    res2 = symbolic_check(two)
    assert [st.method for st in res2.parts[0].steps] == ["numeric"]
    assert [(st.method, st.status) for st in res2.parts[1].steps][1:] == [("sign", "proved"), ("algebra", "proved")]


def test_bernoulli_is_proved_without_axioms():
    rep = bern.verify(property_examples=20)
    assert rep.verdict == "proved", rep
    assert rep.checks["symbolic"]["trusted_axioms"] == []
    assert "induction" in rep.checks["symbolic"]["kernel_rules"]


def test_statement_shape():
    main = basic.theorem.part("main").relation
    assert main.lhs == HockeyStick(k * eps, Pk(k), Qk(k)) and main.op == "<=" and main.rhs == k * delta0
    assert basic.theorem.part("optimum").relation.rhs == 1 - (1 - delta0) ** k
    assert [h.name for h in basic.theorem.hypotheses] == ["step_approx_dp", "step_approx_dp_reverse"]
    assert basic.theorem.hypotheses[0] is kov.step_approx_dp  # one source: the hypotheses of R-F7
    assert basic.theorem.variables[k].describe() == naturals().describe()
    assert not basic.theorem.variables[delta0].contains(0) and not basic.theorem.variables[delta0].contains(1)
    assert two.variables[mv.delta1].contains(0) and not two.variables[mv.delta1].contains(1)
    m2 = two.part("main").relation
    assert m2.lhs == HockeyStick(mv.eps1 + mv.eps2, Pk(2), Qk(2)) and m2.rhs == mv.delta1 + mv.delta2
    assert [h.name for h in two.hypotheses] == ["first_step_dp", "second_step_dp"]
    # each step's hypothesis is about that step's pairs (not one pair carrying both guarantees)
    first, second = (h.relation.lhs for h in two.hypotheses)
    assert first.has(basic.P_step(1)) and not first.has(basic.P_step(2))
    assert second.has(basic.Q_step(2)) and not second.has(basic.Q_step(1))
    assert bern.part("main").relation.rhs == k * delta0


def test_the_four_atom_product_attains_the_optimum(report, report_two):
    for rep in (report, report_two):
        comps = [c for c in rep.checks["numeric"]["comparisons"] if c["part"].endswith(".optimum")]
        four = [c for c in comps if c["witness"].startswith("product of the four-atom pairs")]
        assert four and all(c["ok"] for c in comps)
        assert all(c["digits"] is not None and c["digits"] >= 45 for c in four)
        assert any(c["witness"].startswith("adaptive") for c in comps)
        assert any(c["witness"].startswith("product of random") for c in comps)


@pytest.mark.parametrize("kk,e,d", [(1, "1", "0.01"), (3, "0.4", "0.05"), (5, "0.1", "1e-6"), (2, "2", "0.3")])
def test_optimum_agrees_with_the_library_engine_and_kov15(kk, e, d):
    """1 − (1 − δ)^k is the optimal δ at kε: the privacy-loss engine and KOV15 at i = 0 agree."""
    with mpmath.workdps(40):
        pt = {k: mpmath.mpf(kk), eps: mpmath.mpf(e), delta0: mpmath.mpf(d)}
        ours = evaluate(basic.DELTA_OPT, pt, MPContext(40))
        engine = optimal_composition_delta(kk * mpmath.mpf(e), [sp.Rational(e)] * kk, [sp.Rational(d)] * kk, dps=40)
        kov15 = evaluate(kov.DELTA_PRIME, {**pt, i: mpmath.mpf(0)}, MPContext(40))
        assert abs(ours - engine) < mpmath.mpf(10) ** -35
        assert abs(ours - kov15) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("e1,d1,e2,d2", [("1", "0.01", "0.2", "0.001"), ("0.5", "0.1", "2", "0.05"),
                                         ("3", "0.3", "0.1", "0")])
def test_two_mechanism_optimum_agrees_with_mv16(e1, d1, e2, d2):
    with mpmath.workdps(40):
        pt = {mv.eps1: mpmath.mpf(e1), mv.delta1: mpmath.mpf(d1), mv.eps2: mpmath.mpf(e2), mv.delta2: mpmath.mpf(d2)}
        ours = evaluate(basic.DELTA_OPT_TWO, pt, MPContext(40))
        at = {**pt, mv.k1: mpmath.mpf(1), mv.k2: mpmath.mpf(1), eps_p: pt[mv.eps1] + pt[mv.eps2]}
        mv16 = evaluate(mv.DELTA_PRIME, at, MPContext(40))
        engine = optimal_composition_delta(pt[mv.eps1] + pt[mv.eps2], [sp.Rational(e1), sp.Rational(e2)],
                                           [sp.Rational(d1), sp.Rational(d2)], dps=40)
        assert abs(ours - mv16) < mpmath.mpf(10) ** -35 and abs(ours - engine) < mpmath.mpf(10) ** -35


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
        for pp, qq in pairs:
            assert abs(mpmath.fsum(pp) - 1) < mpmath.mpf(10) ** -35 and abs(mpmath.fsum(qq) - 1) < mpmath.mpf(10) ** -35
            assert basic.approx_dp_parameters(pp, qq, e) <= d + mpmath.mpf(10) ** -35
            assert basic.approx_dp_parameters(pp, qq, e) > 0  # genuinely approximate, not pure
        for name, pp, qq in basic.witnesses(e, d, 3, 40):
            assert abs(mpmath.fsum(pp.values()) - 1) < mpmath.mpf(10) ** -30, name
            assert abs(mpmath.fsum(qq.values()) - 1) < mpmath.mpf(10) ** -30, name
        names = [n for n, _, _ in basic.witnesses_two(e, d, mpmath.mpf(2), mpmath.mpf("0.01"), 40)]
        assert any(n.startswith("adaptive") for n in names) and len(names) == 4


def test_mutants_fail_numerically_and_are_never_proved():
    muts = basic.mutants()
    names = {t.name for _, t in muts}
    assert names == {"approx_dp_basic_composition", "approx_dp_basic_composition_two_mechanisms",
                     "bernoulli_inequality"}
    for label, thm in muts:
        assert numeric_check(thm).status == "failed", label
        assert symbolic_check(thm).status not in ("proved", "certified"), label


def test_bernoulli_on_a_wider_domain_is_not_proved():
    """1 − (1 − δ)^k <= kδ is false at δ = 4, k = 3 (28 > 12): on [0, 5) the kernel must not prove it."""
    wide = bern.with_changes(variables={k: naturals(sample_lo=1, sample_hi=5),
                                        delta0: Interval(sp.S.Zero, sp.S(5), False, True, sample_lo=0, sample_hi=5)})
    assert symbolic_check(wide).status not in ("proved", "certified")


def test_bernoulli_strict_is_not_proved():
    """Equality at k = 1 (and at δ = 0): the strict form is false."""
    w = 1 - delta0
    part = Part("main", lt(1 - w ** k, k * delta0), proof=Chain(1 - w ** k).lt(k * delta0, sign()))
    thm = bern.with_changes(parts=(part,))
    assert symbolic_check(thm).status not in ("proved", "certified")


def test_the_optimum_cannot_be_undercut_by_sign():
    """1 − (1 − δ1)(1 − δ2) <= max(δ1, δ2) is false for two positive δ: the sign rule must refuse it."""
    lhs = basic.DELTA_OPT_TWO
    part = Part("main", le(lhs, sp.Max(mv.delta1, mv.delta2)),
                proof=Chain(lhs).le(sp.Max(mv.delta1, mv.delta2), sign()))
    assert symbolic_check(two.with_changes(parts=(part,))).status not in ("proved", "certified")


def test_citing_without_the_step_hypotheses_fails():
    """A theorem without the per-step hypotheses cannot use the two-mechanism optimum."""
    lhs = HockeyStick(mv.eps1 + mv.eps2, Pk(2), Qk(2))
    thm = Theorem(name="no_hypotheses", reference="test", source="test", title="test",
                  variables=dict(two.variables),
                  parts=(Part("main", le(lhs, basic.DELTA_OPT_TWO),
                              proof=Chain(lhs).le(basic.DELTA_OPT_TWO, by(two.part("optimum")))),))
    (step,) = symbolic_check(thm).parts[0].steps
    assert step.status not in ("proved", "certified")
    assert "'first_step_dp': no proof given" in step.detail and "'second_step_dp': no proof given" in step.detail


def test_citing_at_delta_one_or_more_fails():
    """The Bernoulli citation needs δ in [0, 1): a theorem with δ up to 2 cannot cite it."""
    lhs = 1 - (1 - delta0) ** k
    thm = Theorem(name="wide_delta", reference="test", source="test", title="test",
                  variables={k: naturals(), delta0: Interval(sp.S.Zero, sp.S(2), False, True)},
                  parts=(Part("main", le(lhs, k * delta0),
                              proof=Chain(lhs).le(k * delta0, by(bern.part("main"), k=k, delta0=delta0))),))
    assert symbolic_check(thm).status not in ("proved", "certified")


def test_fast():
    t0 = time.perf_counter()
    for thm in (bern, two, basic.theorem):
        symbolic_check(thm.with_changes())
    assert time.perf_counter() - t0 < 5
