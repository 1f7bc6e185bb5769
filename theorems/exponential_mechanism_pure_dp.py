r"""The exponential mechanism with privacy parameter ε is ε-DP.

.. math::
    L=-\frac{\varepsilon}{2}S+\log\zeta,\quad \zeta=\mathbb E_P\big[e^{\varepsilon S/2}\big],\quad S^2\le1
    \quad\Longrightarrow\quad
    \Pr\big[-\varepsilon\le L\le\varepsilon\big]=1 .

Parameterization (R-G3): a loss ``f(D, u)``, ``u`` in a range ``U`` with base
measure μ, sensitivity :math:`C=\sup_{D\simeq D'}\sup_u|f(D,u)-f(D',u)|>0`;
the mechanism outputs ``u`` with density
:math:`p_D(u)=e^{-\varepsilon f(D,u)/(2C)}/Z(D)`.  For neighbours
:math:`D\simeq D'` put :math:`P=M(D)`, :math:`Q=M(D')`, let ``U`` be the
output and ``S = (f(D, U) − f(D', U))/C`` the scaled score difference at the
output.  Then

.. math::
    \frac{p_D(u)}{p_{D'}(u)}=e^{-\varepsilon S/2}\,\frac{Z(D')}{Z(D)},\qquad
    \frac{Z(D')}{Z(D)}=\int_U p_D(u)\,e^{\varepsilon(f(D,u)-f(D',u))/(2C)}\,d\mu(u)
    =\mathbb E_P\big[e^{\varepsilon S/2}\big],

which are the hypotheses ``exponential_pair`` and ``normaliser`` (the
mechanism's definition, as ``laplace_pair`` is the Laplace mechanism's); the
normaliser ratio is the variable ``zeta`` (ζ > 0: both normalisers are
positive and finite, or the mechanism is not defined).  The sensitivity is
the hypothesis ``score_sensitivity``, :math:`S^2\le1` at every outcome.  ε-DP is
the statement form of ``pure_dp`` (R-A5, :mod:`theorems.kl_of_pure_dp`); the
other half is the same theorem for the swapped pair (the hypotheses are
symmetric in ``D``, ``D'``).  DR14 and seed 003 write the score as a utility
to maximise, :math:`e^{\varepsilon u(D,r)/(2\Delta u)}`: the same mechanism
with ``f = −u``.

Proof (McSherry–Talwar 2007; DR14 Thm 3.10): the two factors of the ratio
each lie in :math:`[e^{-\varepsilon/2},e^{\varepsilon/2}]`.

* parts ``am_gm_upper`` / ``am_gm_lower`` — ``X <= (1 + X²)/2`` and
  ``−(1 + X²)/2 <= X`` (squares), so ``−1 <= S <= 1`` and
  ``e^{−ε/2} <= e^{εS/2} <= e^{ε/2}`` at every outcome;
* parts ``normaliser_upper`` / ``normaliser_lower`` — ``e^{−ε/2} <= ζ <= e^{ε/2}``
  by the **monotonicity of expectation** (axioms ``expectation_at_most`` and
  ``expectation_at_least``);
* parts ``log_at_most`` / ``log_at_least`` — ``log`` is increasing, in the form
  ``log(e^{ε/2}/(1 + u)) <= ε/2`` and ``−ε/2 <= log(e^{−ε/2}(1 + u))`` for
  ``u >= 0`` (cited at ``u = e^{ε/2}/ζ − 1`` and ``u = ζe^{ε/2} − 1``), so
  ``|log ζ| <= ε/2``;
* part ``product_square`` — ``((b − a)/2)² <= ((a + b)/2)²`` for
  ``a, b >= 0`` (the difference is ``ab``), cited at ``a = ε/2 − log ζ``,
  ``b = ε/2 + log ζ``, to square the two-sided bound;
* part ``main`` — ``|−εS/2| <= ε/2`` and ``|log ζ| <= ε/2`` almost surely
  (``sure_bound``), and almost-sure bounds add (``almost_sure_bound_sum``).

Tight: the bound ε is approached, not attained for a finite range: one
candidate's loss drops by ``C`` while the others' rise by ``C``; as the
number of candidates grows the loss at that candidate tends to ε (R-G3,
✓N37).  The ground truth contains such an instance.

Axioms added here: ``expectation_at_most`` and ``expectation_at_least``
(monotonicity of the expectation against a constant; also used by
:mod:`theorems.exponential_mechanism_zcdp`).

References
----------
* McSherry & Talwar 2007, *Mechanism Design via Differential Privacy*, FOCS (the **exponential
  mechanism** and its privacy theorem; theorem number not checked).
* Dwork & Roth 2014, *The Algorithmic Foundations of Differential Privacy*, Thm 3.10.
* REFERENCE.md R-G3 (statement and proof), R-A5 (ε-DP as an almost-sure loss bound).
"""

from __future__ import annotations

import random

import mpmath
import sympy as sp

from cdpsym.expr import L, a, b, eps, nonnegative, positive, real, u
from cdpsym.expr.operators import Expect, Prob
from cdpsym.expr.symbols import declare_random
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, le, sign
from theorems.foundations_convexity import in_range
from theorems.laplace_pure_dp import sure_bound
from theorems.pure_dp_basic_composition import almost_sure_bound_sum

__all__ = ["theorem", "make", "mutants", "S", "NORMALISER", "LOG_NORMALISER", "LOSS", "exponential_pair",
           "score_sensitivity", "expectation_at_most", "expectation_at_least", "AXIOMS", "instances",
           "loss_law"]

S = sp.Symbol("S", real=True)  # (f(D, U) - f(D', U))/C: the scaled score difference at the output U
declare_random(S)

ZETA = sp.Symbol("zeta", positive=True)  # the normaliser ratio Z(D')/Z(D) (a number in (0, oo))
NORMALISER = Expect(sp.exp(eps * S / 2))  # Z(D')/Z(D) = E_P[exp(eps S/2)]
LOG_NORMALISER = sp.log(ZETA)
LOSS = -eps * S / 2 + LOG_NORMALISER

exponential_pair = Hypothesis(
    name="exponential_pair",
    title="(P, Q) = (M(D), M(D')) for the exponential mechanism: the loss at the output U is "
          "log p_D(U)/p_D'(U) = −εS/2 + log E_P[exp(εS/2)], S = (f(D, U) − f(D', U))/C",
    relation=eq(L, LOSS),
)

normaliser = Hypothesis(
    name="normaliser",
    title="ζ = Z(D')/Z(D) = E_P[exp(εS/2)] (both normalisers positive and finite: the mechanism is defined)",
    relation=eq(ZETA, NORMALISER),
)

score_sensitivity = Hypothesis(
    name="score_sensitivity",
    title="the loss has sensitivity C: S² ≤ 1 at every outcome",
    relation=le(S ** 2, 1),
)

# -- axioms: monotonicity of the expectation against a constant -------------------------------------------------
#
# A relation between random quantities outside Pr[.] and E[.] holds at every outcome (as the hypotheses of this
# module do); the conditions below are instantiated pointwise.

_X = sp.Symbol("X", real=True)  # the canonical random X (cdpsym.expr.X)
_c = sp.Symbol("c", real=True)  # a constant (a number: not a random symbol)

expectation_at_most = Axiom(
    name="expectation_at_most",
    title="**monotonicity of expectation**: X ≤ c at every outcome gives E[X] ≤ c",
    citation="Durrett, *Probability: Theory and Examples*, 5th ed., Thm 1.6.1(c) (X <= Y implies EX <= EY) "
             "with Y = c, and E[c] = c; Billingsley, *Probability and Measure*, 3rd ed., §16 (monotonicity of "
             "the integral)",
    relation=le(Expect(_X), _c),
    variables={_X: real(), _c: real()},
    conditions=(le(_X, _c),),
)

expectation_at_least = Axiom(
    name="expectation_at_least",
    title="**monotonicity of expectation**: c ≤ X at every outcome gives c ≤ E[X]",
    citation="Durrett, *Probability: Theory and Examples*, 5th ed., Thm 1.6.1(c) (X <= Y implies EX <= EY) "
             "with X = c, and E[c] = c; Billingsley, *Probability and Measure*, 3rd ed., §16 (monotonicity of "
             "the integral)",
    relation=le(_c, Expect(_X)),
    variables={_X: real(), _c: real()},
    conditions=(le(_c, _X),),
)
# No ground truth: both are statements about an arbitrary random variable; the tests check them on random
# finite distributions (tests/theorems/test_exponential_mechanism_pure_dp.py).

AXIOMS = [expectation_at_most, expectation_at_least, sure_bound, almost_sure_bound_sum]


# -- ground truth: concrete exponential mechanisms on finite ranges, enumerated ----------------------------------

def instances(count: int = 4, seed: int = 20261124):
    """Score pairs ``(f(D, .), f(D', .))`` on finite ranges with ``|f(D, u) − f(D', u)| <= C = 1``.

    The first is the near-extremal instance of R-G3 (one candidate's loss drops by C, the other 49 rise by C);
    the others are random (2–8 candidates, random scores and random differences in [−1, 1]).
    """
    rng = random.Random(seed)
    out = [([mpmath.mpf(1)] + [mpmath.mpf(0)] * 49, [mpmath.mpf(0)] + [mpmath.mpf(1)] * 49)]
    for _ in range(count):
        n = rng.randint(2, 8)
        f = [mpmath.mpf(rng.uniform(-3, 3)) for _ in range(n)]
        g = [fi + mpmath.mpf(rng.uniform(-1, 1)) for fi in f]
        out.append((f, g))
    return out


def _gibbs(scores, e, sens=1):
    w = [mpmath.exp(-e * s / (2 * sens)) for s in scores]
    z = mpmath.fsum(w)
    return [x / z for x in w]


def loss_law(f, g, e):
    """``[(p_D(u), log p_D(u)/p_D'(u))]`` for the exponential mechanism with scores f (on D), g (on D')."""
    pp, qq = _gibbs(f, e), _gibbs(g, e)
    return [(x, mpmath.log(x / y)) for x, y in zip(pp, qq)]


def _inside(loss, bound):
    tol = mpmath.mpf(10) ** (-(mpmath.mp.dps - 10)) * max(1, abs(bound))
    return -bound - tol <= loss <= bound + tol


def _ground_truth(bound_expr: sp.Expr):
    """Pr_P[|L| <= bound], summing p_D over the candidates whose log-ratio of the two Gibbs laws is within."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        bound = evaluate(bound_expr, v, MPContext(dps))
        rows = []
        for j, (f, g) in enumerate(instances()):
            law = loss_law(f, g, v[eps])
            name = "near-extremal (50 candidates)" if j == 0 else f"random instance #{j} ({len(f)} candidates)"
            rows.append((f"exponential mechanism, {name}: Gibbs laws enumerated",
                         mpmath.fsum(w for w, l in law if _inside(l, bound))))
        return rows

    return truth


# -- the theorem -------------------------------------------------------------------------------------------------

_HALF = eps / 2


def _am_gm_upper() -> Part:
    return Part("am_gm_upper", le(_X, (1 + _X ** 2) / 2), variables={_X: real()},
                title="X ≤ (1 + X²)/2 at every outcome (the difference is (1 − X)²/2)",
                proof=Chain(_X).le((1 + _X ** 2) / 2, sign("(1 + X**2)/2 - X = (1 - X)**2/2")))


def _am_gm_lower() -> Part:
    return Part("am_gm_lower", le(-(1 + _X ** 2) / 2, _X), variables={_X: real()},
                title="−(1 + X²)/2 ≤ X at every outcome (the difference is (1 + X)²/2)",
                proof=Chain(-(1 + _X ** 2) / 2).le(_X, sign("X + (1 + X**2)/2 = (1 + X)**2/2")))


def _pointwise_upper(am_gm: Part) -> Chain:
    """``e^{εS/2} <= e^{ε/2}`` at every outcome: ``S <= (1 + S²)/2 <= 1``."""
    return (Chain(sp.exp(eps * S / 2))
            .le(sp.exp(eps * (1 + S ** 2) / 4), by(am_gm, X=S, inside=lambda w: sp.exp(eps * w / 2)))
            .le(sp.exp(_HALF), by(score_sensitivity, inside=lambda w: sp.exp(eps * (1 + w) / 4))))


def _pointwise_lower(am_gm: Part) -> Chain:
    """``e^{−ε/2} <= e^{εS/2}`` at every outcome: ``−1 <= −(1 + S²)/2 <= S``."""
    return (Chain(sp.exp(-_HALF))
            .le(sp.exp(-eps * (1 + S ** 2) / 4),
                by(score_sensitivity, inside=lambda w: sp.exp(eps * (w / 2 - 1 - S ** 2 / 2) / 2)))
            .le(sp.exp(eps * S / 2), by(am_gm, X=S, inside=lambda w: sp.exp(eps * w / 2))))


def _normaliser_upper(am_gm: Part) -> Part:
    proof = (Chain(ZETA)
             .eq(NORMALISER, by(normaliser))
             .le(sp.exp(_HALF), by(expectation_at_most, X=sp.exp(eps * S / 2), c=sp.exp(_HALF),
                                   given={f"condition {expectation_at_most.conditions[0].plain()}":
                                          _pointwise_upper(am_gm)})))
    return Part("normaliser_upper", le(ZETA, sp.exp(_HALF)), proof=proof,
                title="the normaliser ratio Z(D')/Z(D) is at most e^{ε/2}", ground_truth=_normaliser_truth)


def _normaliser_lower(am_gm: Part) -> Part:
    proof = (Chain(sp.exp(-_HALF))
             .le(NORMALISER, by(expectation_at_least, X=sp.exp(eps * S / 2), c=sp.exp(-_HALF),
                                given={f"condition {expectation_at_least.conditions[0].plain()}":
                                       _pointwise_lower(am_gm)}))
             .eq(ZETA, by(normaliser)))
    # no ground truth: the right side is the variable zeta, which only an instance of the mechanism fixes
    return Part("normaliser_lower", le(sp.exp(-_HALF), ZETA), proof=proof,
                title="the normaliser ratio Z(D')/Z(D) is at least e^{−ε/2}")


def _normaliser_truth(v, dps):
    return [(f"instance #{j}: sum_u p_D(u) exp(eps (f(D,u) - f(D',u))/2), Gibbs laws enumerated",
             mpmath.fsum(pw * mpmath.exp(v[eps] * (fi - gi) / 2) for pw, fi, gi in zip(_gibbs(f, v[eps]), f, g)))
            for j, (f, g) in enumerate(instances())]


def _log_at_most() -> Part:
    return Part("log_at_most", le(sp.log(sp.exp(_HALF) / (1 + u)), _HALF), variables={u: nonnegative()},
                title="log t ≤ ε/2 for 0 < t ≤ e^{ε/2}, with t = e^{ε/2}/(1 + u), u ≥ 0",
                proof=Chain(sp.log(sp.exp(_HALF) / (1 + u))).le(_HALF, sign("log(1 + u) >= 0")))


def _log_at_least() -> Part:
    return Part("log_at_least", le(-_HALF, sp.log(sp.exp(-_HALF) * (1 + u))), variables={u: nonnegative()},
                title="−ε/2 ≤ log t for t ≥ e^{−ε/2}, with t = e^{−ε/2}(1 + u), u ≥ 0",
                proof=Chain(-_HALF).le(sp.log(sp.exp(-_HALF) * (1 + u)), sign("log(1 + u) >= 0")))


def _product_square() -> Part:
    return Part("product_square", le(((b - a) / 2) ** 2, ((a + b) / 2) ** 2),
                variables={a: nonnegative(), b: nonnegative()},
                title="((b − a)/2)² ≤ ((a + b)/2)² for a, b ≥ 0 (the difference is ab)",
                proof=Chain(((b - a) / 2) ** 2).le(((a + b) / 2) ** 2, sign("the difference is a*b >= 0")))


def make(bound: sp.Expr = eps) -> Theorem:
    """The exponential mechanism with the claimed pure-DP parameter ``bound`` (tests build mutants)."""
    gm_upper, gm_lower = _am_gm_upper(), _am_gm_lower()
    upper, lower = _normaliser_upper(gm_upper), _normaliser_lower(gm_lower)
    at_most, at_least, square = _log_at_most(), _log_at_least(), _product_square()
    ell = LOG_NORMALISER
    score_term = (Chain((-eps * S / 2) ** 2)
                  .eq(eps ** 2 * S ** 2 / 4, algebra())
                  .le(_HALF ** 2, by(score_sensitivity, inside=lambda w: eps ** 2 * w / 4)))
    u_most = Chain(0).le(sp.exp(_HALF) / ZETA - 1, by(upper, inside=lambda w: w / ZETA - 1))
    u_least = Chain(0).le(ZETA * sp.exp(_HALF) - 1, by(lower, inside=lambda w: w * sp.exp(_HALF) - 1))
    a_end = Chain(0).le(_HALF - ell, by(at_most, u=sp.exp(_HALF) / ZETA - 1, given={"u": u_most},
                                        inside=lambda w: w - ell))
    b_end = Chain(0).le(_HALF + ell, by(at_least, u=ZETA * sp.exp(_HALF) - 1, given={"u": u_least},
                                        inside=lambda w: _HALF + w))
    log_term = Chain(ell ** 2).le(_HALF ** 2, by(square, a=_HALF - ell, b=_HALF + ell, given={"a": a_end, "b": b_end}))
    cond = f"condition {sure_bound.conditions[0].plain()}"
    sums = almost_sure_bound_sum
    event = lambda e: Prob(in_range(-bound, e, bound))  # noqa: E731
    proof = (
        Chain(event(L))
        .eq(event(LOSS), by(exponential_pair))
        .eq(1, by(sums, Y_1=-eps * S / 2, Y_2=ell, a=_HALF, b=_HALF, s=bound,
                  given={f"condition {sums.conditions[0].plain()}": by(sure_bound, X=-eps * S / 2, c=_HALF,
                                                                        given={cond: score_term}),
                         f"condition {sums.conditions[1].plain()}": by(sure_bound, X=ell, c=_HALF,
                                                                        given={cond: log_term}),
                         f"condition {sums.conditions[2].plain()}": sign("the claimed bound is at least eps")}))
    )
    return Theorem(
        name="exponential_mechanism_pure_dp",
        reference="R-G3",
        source="McSherry & Talwar 2007; Dwork & Roth 2014, Thm 3.10",
        title="exponential mechanism, pure DP",
        variables={eps: positive(sample_lo=1e-3, sample_hi=20, log_scale=True),
                   ZETA: positive(sample_lo=0.5, sample_hi=2)},
        hypotheses=(exponential_pair, normaliser, score_sensitivity),
        parts=(gm_upper, gm_lower, upper, lower, at_most, at_least, square,
               Part("main", eq(event(L), 1), proof=proof, ground_truth=_ground_truth(bound))),
        numeric_points=({"eps": "1"}, {"eps": "0.1"}, {"eps": "0.8"}, {"eps": "5"}, {"eps": "0.001"}),
        property_examples=20,
        tight="approached, not attained: one candidate's loss drops by C, the others' rise by C; the loss at that "
              "candidate tends to ε as the number of candidates grows.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("eps/2-DP (the normaliser factor dropped)", make(eps / 2)),
            ("0.9 eps-DP (constant scaled down)", make(sp.Rational(9, 10) * eps))]


theorem = make()
