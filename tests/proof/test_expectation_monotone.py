"""Monotonicity of expectation as a ``by(..., inside=F)`` context: ``F(w) = c E[H(w)] + d`` with ``c > 0``,
``d`` finite numbers and ``H`` non-decreasing; a fact ``A <= B`` between random quantities (a statement about
every outcome) then gives ``F(A) <= F(B)``.

True uses must be proved; every variant a hostile author would try -- a decreasing ``H``, a negative or random
factor, the argument also outside the expectation, two expectations, a strict claim, a fact about possibly
infinite numbers, a fact whose instance is outside its domain -- must not be.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.errors import ProofError
from cdpsym.expr import X, Y, lam
from cdpsym.expr.domains import Interval, nonnegative, positive, real
from cdpsym.expr.operators import Expect
from cdpsym.proof import Chain, Hypothesis, Part, Rel, Theorem, algebra, by, le, sign, symbolic_check, taylor

S = sp.S
HOLDS = ("proved", "certified")

#: X^2 <= e^X + e^-X - 2 for every real X (a fact between random quantities once X is instantiated)
_T = Part("taylor", le(X ** 2 - sp.exp(X) - sp.exp(-X), S(-2)),
          proof=Chain(X ** 2 - sp.exp(X) - sp.exp(-X)).le(S(-2), taylor(lambda h: h ** 2 - sp.exp(h) - sp.exp(-h), X, 0)))
COSH = Theorem(name="cosh_lower_test", reference="", source="test", title="t", variables={X: real()},
               parts=(_T, Part("main", le(X ** 2, sp.exp(X) + sp.exp(-X) - 2),
                               proof=(Chain(X ** 2).eq(X ** 2 - sp.exp(X) - sp.exp(-X) + sp.exp(X) + sp.exp(-X), algebra())
                                      .le(S(-2) + sp.exp(X) + sp.exp(-X),
                                          by(_T, inside=lambda w: w + sp.exp(X) + sp.exp(-X)))))))
#: X <= 1 for X in [0, 1]
UNIT = Theorem(name="unit_test", reference="", source="test", title="t", variables={X: Interval(S.Zero, S.One)},
               parts=(Part("main", le(X, S.One), proof=Chain(X).le(S.One, sign())),))


def _status(lhs, op, rhs, why, variables=None, hypotheses=()):
    try:
        chain = Chain(lhs)
        chain = chain.le(rhs, why) if op == "<=" else chain.lt(rhs, why)
        thm = Theorem(name="emono_test", reference="", source="test", title="t",
                      variables=variables if variables is not None else {lam: positive()},
                      hypotheses=tuple(hypotheses), parts=(Part("t", Rel(lhs, op, rhs), proof=chain),))
        return symbolic_check(thm).status
    except ProofError:
        return "refused"


def test_the_cosh_lemma_is_proved():
    assert symbolic_check(COSH).status == "proved"


def test_expectation_of_a_pointwise_bound():
    lhs = Expect(lam ** 2 * Y ** 2) / lam ** 2
    rhs = Expect(sp.exp(lam * Y) + sp.exp(-lam * Y) - 2) / lam ** 2
    assert _status(lhs, "<=", rhs, by(COSH.part("main"), X=lam * Y, inside=lambda w: Expect(w) / lam ** 2)) == "proved"


def test_plain_expectation_context():
    assert _status(Expect(Y ** 2), "<=", Expect(sp.exp(Y) + sp.exp(-Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(w)), {}) == "proved"


def test_non_decreasing_function_inside():
    assert _status(Expect(sp.exp(Y ** 2)), "<=", Expect(sp.exp(sp.exp(Y) + sp.exp(-Y) - 2)),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(sp.exp(w))), {}) == "proved"


# -- must not be proved ------------------------------------------------------------------------------------------

def test_decreasing_function_inside():
    assert _status(Expect(-Y ** 2), "<=", Expect(-(sp.exp(Y) + sp.exp(-Y) - 2)),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(-w)), {}) not in HOLDS
    assert _status(Expect(sp.exp(-Y ** 2)), "<=", Expect(sp.exp(-(sp.exp(Y) + sp.exp(-Y) - 2))),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(sp.exp(-w))), {}) not in HOLDS


def test_negative_factor_outside():
    assert _status(-Expect(Y ** 2), "<=", -Expect(sp.exp(Y) + sp.exp(-Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: -Expect(w)), {}) not in HOLDS


def test_factor_that_may_be_zero_or_negative():
    from cdpsym.expr import x
    assert _status(x * Expect(Y ** 2), "<=", x * Expect(sp.exp(Y) + sp.exp(-Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: x * Expect(w)), {x: real()}) not in HOLDS


def test_random_factor_outside():
    assert _status(Y * Expect(Y ** 2), "<=", Y * Expect(sp.exp(Y) + sp.exp(-Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: Y * Expect(w)), {}) not in HOLDS


def test_argument_also_outside_the_expectation():
    # F(w) = E[w] - w: not monotone
    assert _status(Expect(Y ** 2) - Y ** 2, "<=", Expect(sp.exp(Y) + sp.exp(-Y) - 2) - (sp.exp(Y) + sp.exp(-Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(w) - w), {}) not in HOLDS


def test_two_expectations():
    assert _status(Expect(Y ** 2) - Expect(-Y ** 2), "<=",
                   Expect(sp.exp(Y) + sp.exp(-Y) - 2) - Expect(-(sp.exp(Y) + sp.exp(-Y) - 2)),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(w) - Expect(-w)), {}) not in HOLDS


def test_strict_claim_is_not_established():
    assert _status(Expect(Y ** 2), "<", Expect(sp.exp(Y) + sp.exp(-Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(w)), {}) not in HOLDS


def test_fact_about_possibly_infinite_numbers():
    # a hypothesis E[Y] <= 1 (numbers, one possibly infinite) is not a pointwise fact to take an expectation of
    h = Hypothesis("mean", relation=le(Expect(Y), S.One))
    assert _status(Expect(Expect(Y)), "<=", Expect(S.One), by(h, inside=lambda w: Expect(w)), {},
                   hypotheses=(h,)) not in HOLDS


def test_instance_outside_the_fact_domain():
    # UNIT holds for X in [0, 1] only; Y is not known to lie there
    assert _status(Expect(Y), "<=", Expect(S.One), by(UNIT, X=Y, inside=lambda w: Expect(w)), {}) not in HOLDS


def test_wrong_sides():
    assert _status(Expect(Y ** 2), "<=", Expect(sp.exp(Y) - 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(w)), {}) not in HOLDS
    # the reversed direction
    assert _status(Expect(sp.exp(Y) + sp.exp(-Y) - 2), "<=", Expect(Y ** 2),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(w)), {}) not in HOLDS


def test_non_smooth_function_inside():
    # floor is non-decreasing, but not differentiable: refused rather than trusted
    assert _status(Expect(sp.floor(Y ** 2)), "<=", Expect(sp.floor(sp.exp(Y) + sp.exp(-Y) - 2)),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(sp.floor(w))), {}) not in HOLDS
    # Abs is not monotone: must fail
    assert _status(Expect(sp.Abs(Y ** 2 - 1)), "<=", Expect(sp.Abs(sp.exp(Y) + sp.exp(-Y) - 3)),
                   by(COSH.part("main"), X=Y, inside=lambda w: Expect(sp.Abs(w - 1))), {}) not in HOLDS


def test_nonnegative_domain_context_still_needs_monotone_h():
    # H(w) = w^2 is non-decreasing on [0, oo) only; the rule checks H on the reals
    lo = Theorem(name="neg_test", reference="", source="test", title="t", variables={X: real()},
                 parts=(Part("main", le(-X ** 2 - 1, -X ** 2), proof=Chain(-X ** 2 - 1).le(-X ** 2, sign())),))
    assert _status(Expect((-Y ** 2 - 1) ** 2), "<=", Expect((-Y ** 2) ** 2),
                   by(lo, X=Y, inside=lambda w: Expect(w ** 2)), {}) not in HOLDS
