r"""Privacy amplification by subsampling: an (ε, δ)-DP mechanism run on a Poisson subsample with rate s is (log(1 + s(e^ε − 1)), sδ)-DP (*supported*, not proved).

.. math::
    P=(1-s)\,Q+s\,P_1,\quad
    \delta_{P_1\|Q}(\varepsilon)\le\delta,\ \ \delta_{Q\|P_1}(\varepsilon)\le\delta
    \quad\Longrightarrow\quad
    \delta_{P\|Q}(\varepsilon')\le s\delta,\ \ \delta_{Q\|P}(\varepsilon')\le s\delta,
    \qquad \varepsilon'=\log\big(1+s(e^{\varepsilon}-1)\big).

Parameterization (R-G7, S25 Theorem 1): Poisson subsampling keeps each record
independently with probability ``s`` (the symbol ``s``); neighbours are
add/remove: ``x = x' ∪ {x_i}``.  ``P`` and ``Q`` are the laws of
``M(Sample(x))`` and ``M(Sample(x'))``; conditioning on whether ``x_i`` is
sampled gives the hypothesis ``mixture``, ``P = (1 − s)Q + sP_1``, where
``P_1`` is the law of ``M`` on the sample of ``x'`` with ``x_i`` added.
``M`` is (ε, δ)-DP: for every fixed sample ``T``, ``M(T ∪ {x_i})`` and
``M(T)`` satisfy both hockey-stick bounds, and by joint convexity of the
hockey-stick divergence so do their mixtures over ``T``, ``P_1`` and ``Q``
(hypotheses ``base_dp`` and ``base_dp_reverse``; ``delta0`` is the base δ).
Parts ``add`` and ``remove`` are the two directions of
(ε', sδ)-DP (R-A6).  Sampling without replacement with replace-one
neighbours (BBG18, ``s = n/N``) has the same ε' and is not encoded here.

Status: **supported**.  Each part's proof chain is one ``numeric`` step; the
statement is checked at 50 digits against exact hockey-stick divergences of
concrete subsampled mechanisms (randomized response on the record's
membership bit, the canonical four-atom (ε, δ)-DP pair of KOV15, and random
ε-DP base pairs on 2–7 atoms), by sums of positive parts over the atoms;
none uses the formula.  The proof
(S25) is a computation on events: for every event ``T``,
``P(T) − e^{ε'}Q(T) = s(P_1(T) − e^{ε}Q(T))`` (since ``e^{ε'} = 1 − s + se^ε``),
so ``δ_{P‖Q}(ε') = s δ_{P_1‖Q}(ε) <= sδ``; the reverse direction bounds
``Q(T) <= e^{ε}P_1(T) + δ`` inside ``e^{ε'}P(T)``.  The kernel has no rule or
axiom about hockey-stick divergences of mixtures (the identity above is a
statement about the supremum over all events), so it is not carried out
here.

Tight: yes.  With ``M`` randomized response on the membership bit (δ = 0) the
max-divergence of the mixture equals ε' (✓N22); with the four-atom pair the
hockey-stick divergence at ε' equals sδ exactly.  ``ε' <= sε`` is false:
``log(1 + s(e^ε − 1)) >= sε`` by concavity, and ε' ≈ sε only for ε ≲ 1.

References
----------
* Steinke 2025, *Privacy Amplification by Subsampling* (S25), DifferentialPrivacy.org blog, Theorem 1
  (Poisson subsampling, add/remove neighbours).
* Balle, Barthe & Gaboardi 2018, *Privacy Amplification by Subsampling: Tight Analyses via Couplings and
  Divergences*, NeurIPS, arXiv:1807.01647 (Poisson subsampling and sampling without replacement; theorem
  numbers not checked).
* Kairouz, Oh & Viswanath 2015, arXiv:1311.0776 (the four-atom (ε, δ)-DP pair).
* REFERENCE.md R-G7 (statement), R-A6 (hockey-stick form of (ε, δ)-DP), R-H3.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import delta0, eps, positive, s
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import HockeyStick, P, Q
from cdpsym.proof import Chain, Hypothesis, Part, Theorem, eq, le, numeric
from theorems.kl_of_pure_dp import random_pure_dp_pairs

__all__ = ["theorem", "make", "mutants", "EPS_PRIME", "DELTA_PRIME", "P1", "mixture", "base_dp",
           "base_dp_reverse", "witnesses"]

EPS_PRIME = sp.log(1 + s * (sp.exp(eps) - 1))
DELTA_PRIME = s * delta0

P1 = sp.Symbol("P_1")  # the law of M on the sample of x' with the differing record added

mixture = Hypothesis(
    name="mixture",
    title="Poisson subsampling: P = (1 − s) Q + s P_1 (condition on whether the differing record is sampled)",
    relation=eq(P, (1 - s) * Q + s * P1),
)
base_dp = Hypothesis(
    name="base_dp",
    title="M is (ε, δ)-DP: δ_{P_1‖Q}(ε) ≤ δ",
    relation=le(HockeyStick(eps, P1, Q), delta0),
)
base_dp_reverse = Hypothesis(
    name="base_dp_reverse",
    title="M is (ε, δ)-DP: δ_{Q‖P_1}(ε) ≤ δ",
    relation=le(HockeyStick(eps, Q, P1), delta0),
)


# -- ground truth: exact hockey-stick divergences of concrete subsampled mechanisms --------------------------------

def _mix(rate, q_law, p1_law):
    return [(1 - rate) * a + rate * b for a, b in zip(q_law, p1_law)]


def witnesses(e, d0, rate):
    """``[(name, P, Q)]``: finite subsampled pairs ``P = (1 − s)Q + sP_1`` whose base pair is (ε, δ0)-DP."""
    w = mpmath.exp(e)
    keep = w / (1 + w)
    rr_in, rr_out = [keep, 1 - keep], [1 - keep, keep]  # RR_eps of the bit "x_i is in the sample"
    # KOV15's canonical (eps, delta0)-DP pair: two revealing atoms of mass delta0, randomized response otherwise
    kov_in = [mpmath.mpf(0), d0, (1 - d0) * keep, (1 - d0) * (1 - keep)]
    kov_out = [d0, mpmath.mpf(0), (1 - d0) * (1 - keep), (1 - d0) * keep]
    rows = [("randomized response on the membership bit, Poisson rate s", _mix(rate, rr_out, rr_in), rr_out),
            ("the four-atom (eps, delta0)-DP pair of KOV15, Poisson rate s", _mix(rate, kov_out, kov_in), kov_out)]
    for j, (p_in, p_out) in enumerate(random_pure_dp_pairs(e, count=2)):  # eps-DP base pairs (delta0 = 0 <= d0)
        rows.append((f"random eps-DP base pair #{j + 1} ({len(p_in)} atoms), Poisson rate s",
                     _mix(rate, p_out, p_in), p_out))
    return rows


def _below_precision(value, dps):
    """0 for a value below the working precision: at eps' the positive part of an atom can vanish exactly
    (randomized response with delta0 = 0 is tight), and rounding must not leave a residue that the comparison
    with a bound of 0 would read as a violation.  The masses carry 20 guard digits, so the cut at
    10^-(dps+10) removes rounding only."""
    return mpmath.mpf(0) if abs(value) < mpmath.mpf(10) ** (-(dps + 10)) else value


def _ground_truth(eps_p_expr: sp.Expr, reverse: bool):
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate
        from cdpsym.mechanisms.profile import hockey_stick_discrete

        rows = []
        with mpmath.workdps(dps + 20):
            point = {k_: mpmath.mpf(x) for k_, x in v.items()}
            eps_p = evaluate(eps_p_expr, point, MPContext(dps + 20))
            for name, pp, qq in witnesses(point[eps], point[delta0], point[s]):
                a, b = (qq, pp) if reverse else (pp, qq)
                value = hockey_stick_discrete(a, b, eps_p, dps=dps + 20)
                rows.append((name + ": sum of positive parts at eps'", _below_precision(value, dps)))
        return rows

    return truth


# -- the theorem --------------------------------------------------------------------------------------------------

def make(eps_prime: sp.Expr = EPS_PRIME, delta_prime: sp.Expr = DELTA_PRIME) -> Theorem:
    """Subsampling with the claimed (``eps_prime``, ``delta_prime``) (tests build mutants)."""
    add = HockeyStick(eps_prime, P, Q)
    remove = HockeyStick(eps_prime, Q, P)
    return Theorem(
        name="subsampling_approx_dp",
        reference="R-G7",
        source="Steinke 2025 (S25), Thm 1; Balle, Barthe & Gaboardi 2018, arXiv:1807.01647",
        title="privacy amplification by Poisson subsampling",
        variables={eps: positive(sample_lo=1e-3, sample_hi=10, log_scale=True),
                   delta0: Interval(sp.S.Zero, sp.S.One, False, True, sample_lo=0, sample_hi=0.5),
                   s: Interval(sp.S.Zero, sp.S.One, True, False, sample_lo=1e-3, sample_hi=1)},
        hypotheses=(mixture, base_dp, base_dp_reverse),
        parts=(Part("add", le(add, delta_prime), proof=Chain(add).le(delta_prime, numeric()),
                    ground_truth=_ground_truth(eps_prime, reverse=False)),
               Part("remove", le(remove, delta_prime), proof=Chain(remove).le(delta_prime, numeric()),
                    ground_truth=_ground_truth(eps_prime, reverse=True))),
        numeric_points=({"eps": "1", "delta0": "0", "s": "0.01"}, {"eps": "2", "delta0": "0.001", "s": "0.3"},
                        {"eps": "0.1", "delta0": "1e-6", "s": "0.5"}, {"eps": "5", "delta0": "0.1", "s": "0.05"},
                        {"eps": "1", "delta0": "0.2", "s": "1"}),
        property_examples=10,
        tight="exact: randomized response on the membership bit attains ε' (δ = 0); the four-atom pair attains sδ.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("eps' = s eps (the first-order approximation, smaller than log(1 + s(e^eps - 1)))", make(s * eps)),
            ("delta' = s^2 delta", make(EPS_PRIME, s ** 2 * delta0)),
            ("eps' = log(1 + s(e^eps - 1))/2", make(EPS_PRIME / 2))]


theorem = make()
