"""one_way_marginals_zcdp (R-G8): proved from gaussian_zcdp at Δ = √d/n; n = 1000 on the slide (✓N23)."""

from __future__ import annotations

import importlib

import mpmath
import sympy as sp

from cdpsym.expr import alpha, mu, nu, rho, sigma
from cdpsym.expr.operators import Normal, Renyi
from cdpsym.proof import Chain, Hypothesis, Part, le, sign, symbolic_check
from cdpsym.verify.numeric import numeric_check

ow = importlib.import_module("theorems.one_way_marginals_zcdp")
d, n = ow.d, ow.n


def test_proved_with_all_checks():
    report = ow.theorem.verify(property_examples=5)
    assert report.verdict == "proved", report
    assert report.checks["numeric"]["status"] == "passed"


def test_statement_shape():
    (main,) = ow.theorem.parts
    assert main.relation.lhs == Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma))
    assert main.relation.rhs == alpha * d / (2 * sigma ** 2 * n ** 2)
    assert [h.name for h in ow.theorem.hypotheses] == ["marginal_shift"]
    assert symbolic_check(ow.theorem).parts[0].steps[0].method == "by:gaussian_zcdp"


def test_slide_numbers_n23():
    """ρ = 0.5, σ = 0.1, d = 10⁴ give n = 1000, and n = 1000 gives ρ = 0.5."""
    n_val = ow.SAMPLE_SIZE.subs({d: 10 ** 4, sigma: sp.Rational(1, 10), rho: sp.Rational(1, 2)})
    assert sp.simplify(n_val - 1000) == 0
    assert ow.RHO.subs({d: 10 ** 4, sigma: sp.Rational(1, 10), n: 1000}) == sp.Rational(1, 2)


def test_mutants_fail():
    muts = ow.mutants()
    assert muts
    for name, thm in muts:
        assert symbolic_check(thm).status == "failed", name
        assert numeric_check(thm).status == "failed", name


def test_without_the_sensitivity_hypothesis_the_proof_fails():
    assert symbolic_check(ow.theorem.with_changes(hypotheses=())).status == "failed"


def test_a_looser_sensitivity_hypothesis_is_refused():
    loose = Hypothesis(name="marginal_shift", title="(mu - nu)^2 <= d/n", relation=le((mu - nu) ** 2, d / n))
    assert symbolic_check(ow.theorem.with_changes(hypotheses=(loose,))).status == "failed"


def test_ground_truth_is_tight_at_the_worst_pair():
    with mpmath.workdps(30):
        v = {d: mpmath.mpf(4), n: mpmath.mpf(2), sigma: mpmath.mpf("0.5"), alpha: mpmath.mpf(3),
             mu: mpmath.mpf(0), nu: mpmath.mpf(5)}  # clipped to |mu - nu| = sqrt(d)/n = 1
        (_, value), = ow._ground_truth(v, 30)
        assert abs(value - 3 * 4 / (2 * mpmath.mpf("0.25") * 4)) < mpmath.mpf(10) ** -20


def test_sign_cannot_replace_the_citation():
    lhs = Renyi(alpha, Normal(mu, sigma), Normal(nu, sigma))
    rhs = alpha * ow.RHO
    thm = ow.theorem.with_changes(parts=(Part("main", le(lhs, rhs), proof=Chain(lhs).le(rhs, sign())),))
    assert symbolic_check(thm).status != "proved"
