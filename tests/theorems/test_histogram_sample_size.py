"""histogram_sample_size (R-G9): privacy cited from gaussian_zcdp / laplace_pure_dp; sample sizes by tail + algebra."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.proof import Chain, Part, le, register_axioms, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check

hs = importlib.import_module("theorems.histogram_sample_size")
register_axioms(*hs.AXIOMS)


def test_proved_with_all_checks():
    report = hs.theorem.verify(property_examples=5)
    assert report.verdict == "proved", report
    assert set(report.checks["symbolic"]["trusted_axioms"]) >= {"gaussian_max_tail", "laplace_max_tail"}


def test_parts_and_citations():
    res = symbolic_check(hs.theorem)
    methods = {p.name.split(".")[-1]: [s.method for s in p.steps] for p in res.parts}
    assert methods["privacy_zcdp"] == ["by:gaussian_zcdp"]
    assert methods["privacy_pure"] == ["by:laplace_pure_dp"]
    assert methods["accuracy_zcdp"][0] == "by:gaussian_max_tail"
    assert methods["accuracy_pure"][0] == "by:laplace_max_tail"


def test_n38_sizes():
    vals = {hs.Omega: 10 ** 6, hs.beta: sp.Rational(1, 20)}
    assert abs(float(hs.N_ZCDP.subs({**vals, sp.Symbol("rho", positive=True): sp.Rational(1, 2)})) - 836.76) < 0.01
    assert abs(float(hs.N_ZCDP.subs({**vals, sp.Symbol("rho", positive=True): sp.Rational(1, 100)})) - 5916.8) < 0.1
    assert abs(float(hs.N_PURE.subs({**vals, sp.Symbol("eps", positive=True): 1})) - 3362.2) < 0.1
    assert abs(float(hs.N_PURE.subs({**vals, sp.Symbol("eps", positive=True): sp.Rational(1, 10)})) - 33622.5) < 0.1


def test_mutants_fail_symbolically_and_numerically():
    muts = hs.mutants()
    assert muts
    for name, thm in muts:
        assert symbolic_check(thm).status == "failed", name
        assert numeric_check(thm).status == "failed", name


def test_axioms_ground_truth_is_exact_law():
    """The tails bound the exact law of the maximum; a doubled exponent would not."""
    with mpmath.workdps(30):
        for m, s_, t_ in ((10 ** 6, mpmath.sqrt(2), mpmath.mpf("8.3676")), (3, 1, mpmath.mpf("0.5"))):
            (_, exact), = hs._gaussian_max_truth({hs.Omega: m, hs.sigma: s_, hs.t: t_}, 30)
            bound = 2 * m * mpmath.exp(-t_ ** 2 / (2 * s_ ** 2))
            assert exact <= bound
        (_, exact), = hs._gaussian_max_truth({hs.Omega: 1, hs.sigma: 1, hs.t: mpmath.mpf(3)}, 30)
        assert exact > 2 * mpmath.exp(-mpmath.mpf(9))  # the exponent -t²/σ² (instead of -t²/(2σ²)) would be false
        (_, exact), = hs._laplace_max_truth({hs.Omega: 1, hs.b: 2, hs.t: mpmath.mpf(3)}, 30)
        assert abs(exact - mpmath.exp(-mpmath.mpf(3) / 2)) < mpmath.mpf(10) ** -25  # exact for one count


def test_without_the_l1_sensitivity_the_pure_part_fails():
    hyps = tuple(h for h in hs.theorem.hypotheses if h.name != "count_shift_l1")
    res = symbolic_check(hs.theorem.with_changes(hypotheses=hyps))
    status = {p.name.split(".")[-1]: p.status for p in res.parts}
    assert status["privacy_pure"] == "failed" and status["privacy_zcdp"] == "proved"


def test_sign_cannot_replace_the_tail_bound():
    part = hs.theorem.part("accuracy_zcdp")
    lhs, rhs = part.relation.lhs, part.relation.rhs
    thm = hs.theorem.with_changes(parts=(Part("accuracy_zcdp", le(lhs, rhs), proof=Chain(lhs).le(rhs, sign())),))
    assert symbolic_check(thm).status != "proved"


def test_the_tail_axiom_cannot_be_cited_at_another_noise_scale():
    """Red-team finding: with a bare random symbol for the maximum, gaussian_max_tail could be cited at any sigma,
    proving ten times too few rows.  The maximum is now a term in its law's parameters, M_G(Omega, sigma)."""
    import importlib

    import sympy as sp

    from cdpsym.expr import rho
    from cdpsym.expr.operators import Prob
    from cdpsym.proof import Chain, Part, Theorem, algebra, by, le, symbolic_check

    H = importlib.import_module("theorems.histogram_sample_size")
    sig = 1 / sp.sqrt(rho)
    t_z = H.N_ZCDP / 10 / 100  # ten times fewer rows: false
    gz = Prob(sp.StrictGreaterThan(H.M_G(H.Omega, sig), t_z))
    for cited_sigma in (sig / 10, sig):
        part = Part("bad", le(gz, H.beta),
                    proof=(Chain(gz)
                           .le(2 * H.Omega * sp.exp(-rho * 100 * t_z ** 2 / 2),
                               by(H.gaussian_max_tail, Omega=H.Omega, sigma=cited_sigma, t=t_z))
                           .eq(H.beta, algebra())))
        thm = Theorem(name="histogram_bad", reference="R-G9", source="attack 2026", title="attack",
                      variables={v: H.theorem.variables[v] for v in (rho, H.Omega, H.beta)}, parts=(part,))
        assert symbolic_check(thm).status not in ("proved", "certified"), cited_sigma
