r"""The exact privacy profile of randomized response: :math:`\delta(\varepsilon)=\max\big(0,\frac{e^{\varepsilon_0}-e^{\varepsilon}}{1+e^{\varepsilon_0}}\big)`.

.. math::
    \delta_{P\|Q}(\varepsilon)=\max\Big(0,\ \frac{e^{\varepsilon_0}-e^{\varepsilon}}{1+e^{\varepsilon_0}}\Big),
    \qquad P=(p,\,1-p),\quad Q=(1-p,\,p),\quad p=\frac{e^{\varepsilon_0}}{1+e^{\varepsilon_0}} .

Parameterization: :math:`\mathrm{RR}_{\varepsilon_0}` reports the true bit with
probability :math:`p=e^{\varepsilon_0}/(1+e^{\varepsilon_0})` (R-G4; Mironov's
:math:`\mathrm{RR}_p` with :math:`\varepsilon_0=\log\frac p{1-p}`).  For neighbours with
different bits the two outputs are written as the atoms "the report equals the
bit of :math:`x`" (first) and "it does not" (second), so :math:`P=M(x)=(p,1-p)`
and :math:`Q=M(x')=(1-p,p)`; neighbours with equal bits have :math:`P=Q` and
:math:`\delta=0`.  The hockey-stick divergence is the definition of R-A6,
:math:`\sup_S P(S)-e^{\varepsilon}Q(S)`, which on a two-point space is a maximum
over its four events (axiom ``hockey_stick_two_atom_definition``).
Here ``eps`` is the target :math:`\varepsilon>0` (REFERENCE states
:math:`\varepsilon\ge0`; at :math:`\varepsilon=0` the profile is the total variation
:math:`\tanh(\varepsilon_0/2)`, the limit of the formula) and ``eps0`` the
mechanism's parameter :math:`\varepsilon_0>0`.

Proof (R-E6; **proved**): write out the four events; the event "second atom"
has :math:`P-e^{\varepsilon}Q=(1-e^{\varepsilon+\varepsilon_0})/(1+e^{\varepsilon_0})
=-2e^{(\varepsilon+\varepsilon_0)/2}\sinh(\tfrac{\varepsilon+\varepsilon_0}2)/(1+e^{\varepsilon_0})<0`
and the whole space has :math:`1-e^{\varepsilon}=-2e^{\varepsilon/2}\sinh(\varepsilon/2)<0`
(parts ``second_atom`` and ``whole_space``, from the identity :math:`1-e^x=-2e^{x/2}\sinh(x/2)`,
part ``one_minus_exp``, proved by algebra);
in their ``sinh`` forms the maximum drops them, leaving
:math:`\max(0,\,p-e^{\varepsilon}(1-p))`, which is the statement.

Tight: exact (this is the privacy profile of the worst neighbouring pair).
Ground truth: enumeration of :meth:`cdpsym.mechanisms.RandomizedResponse.distributions`
by the sum of positive parts :math:`\sum_y(P(y)-e^{\varepsilon}Q(y))_+`
(:func:`cdpsym.mechanisms.profile.hockey_stick_discrete`) and by the supremum over
all four events, computed from the masses (neither uses the formula).

Axiom added here: ``hockey_stick_two_atom_definition`` (the definition of the
hockey-stick divergence written out on a two-point space; numerically checked
against the sum-of-positive-parts form).

References
----------
* Warner 1965, *Randomized Response*, JASA 60 (the mechanism).
* Dwork & Rothblum 2016, Def 2.4 ((ε,δ)-DP), arXiv:1603.01887v2; Balle, Barthe & Gaboardi 2018,
  *Privacy Amplification by Subsampling*, §2 (privacy profiles), arXiv:1807.01647.
* REFERENCE.md R-E6 (statement), R-A6 (hockey-stick form), R-G4 (the mechanism).
"""

from __future__ import annotations

import itertools

import mpmath
import sympy as sp

from cdpsym.expr import eps, eps0, positive
from cdpsym.expr.symbols import x
from cdpsym.expr.operators import HockeyStick
from cdpsym.proof import Axiom, Chain, Part, Theorem, algebra, by, eq
from theorems.foundations_convexity import p1, p2, q1, q2

__all__ = ["theorem", "make", "mutants", "PROFILE", "P_RR", "Q_RR", "hockey_stick_two_atom_definition", "AXIOMS",
           "sup_over_events"]

PROFILE = sp.Max(0, (sp.exp(eps0) - sp.exp(eps)) / (1 + sp.exp(eps0)))

_TRUE = sp.exp(eps0) / (1 + sp.exp(eps0))  # p: the report equals the bit of x
_FLIP = 1 / (1 + sp.exp(eps0))  # 1 - p
P_RR = sp.Tuple(_TRUE, _FLIP)  # M(x)
Q_RR = sp.Tuple(_FLIP, _TRUE)  # M(x'), x' with the other bit


def _events(e: sp.Expr, pp: tuple, qq: tuple) -> tuple:
    """P(S) - e^e Q(S) for the four events S of a two-point space: {1}, {2}, {1, 2} (and 0 for the empty one)."""
    w = sp.exp(e)
    return (pp[0] - w * qq[0], pp[1] - w * qq[1], pp[0] + pp[1] - w * (qq[0] + qq[1]))


# -- the axiom: the definition of R-A6 on two atoms ---------------------------------------------------------

def sup_over_events(pp, qq, e):
    """``max_S P(S) - e^e Q(S)`` over all subsets S of the atoms (mpmath; any finite pair of sequences)."""
    w = mpmath.exp(e)
    best = mpmath.mpf(0)  # the empty event
    n = len(pp)
    for size in range(1, n + 1):
        for subset in itertools.combinations(range(n), size):
            best = max(best, mpmath.fsum(pp[j] for j in subset) - w * mpmath.fsum(qq[j] for j in subset))
    return best


def _definition_truth(v, dps):
    from cdpsym.mechanisms.profile import hockey_stick_discrete

    pp, qq = (v[p1], v[p2]), (v[q1], v[q2])
    return [("sum of positive parts sum_y (P(y) - e^eps Q(y))_+ (cdpsym.mechanisms.profile)",
             hockey_stick_discrete(list(pp), list(qq), v[eps], dps=dps))]


hockey_stick_two_atom_definition = Axiom(
    name="hockey_stick_two_atom_definition",
    title="definition of the hockey-stick divergence sup_S P(S) − e^ε Q(S) on a two-point space "
          "(its four events: ∅, {1}, {2}, {1, 2})",
    reference="R-A6",
    citation="Dwork & Rothblum 2016, Def 2.4, arXiv:1603.01887v2 (the definition of (eps, delta)-DP, "
             "P(S) <= e^eps Q(S) + delta, for every event S); Balle, Barthe & Gaboardi 2018, §2, arXiv:1807.01647 (the privacy profile "
             "delta(eps) = sup_S P(S) - e^eps Q(S)); a two-point space has exactly four events",
    relation=eq(HockeyStick(eps, sp.Tuple(p1, p2), sp.Tuple(q1, q2)),
                sp.Max(0, *_events(eps, (p1, p2), (q1, q2)))),
    variables={eps: positive(sample_lo=1e-3, sample_hi=10),
               p1: positive(sample_lo=1e-3, sample_hi=1), p2: positive(sample_lo=1e-3, sample_hi=1),
               q1: positive(sample_lo=1e-3, sample_hi=1), q2: positive(sample_lo=1e-3, sample_hi=1)},
    conditions=(eq(p1 + p2, 1), eq(q1 + q2, 1)),
    ground_truth=_definition_truth,
    numeric_points=({"eps": "0.3", "p1": "0.7", "p2": "0.3", "q1": "0.2", "q2": "0.8"},
                    {"eps": "2", "p1": "0.99", "p2": "0.01", "q1": "0.05", "q2": "0.95"},
                    {"eps": "0.1", "p1": "0.4", "p2": "0.6", "q1": "0.5", "q2": "0.5"}),
)

AXIOMS = [hockey_stick_two_atom_definition]


# -- ground truth: enumeration ------------------------------------------------------------------------------

def _below_precision(value, dps):
    """0 for a value below the working precision (the masses are at most 1): at eps = eps0 the first atom's
    term P - e^eps Q vanishes exactly, and rounding must not leave a residue that an equality check would
    read as a non-zero profile.  The masses are computed with 20 guard digits, so the cut at 10^-(dps+10)
    removes rounding only."""
    return mpmath.mpf(0) if abs(value) < mpmath.mpf(10) ** (-(dps + 10)) else value


def _ground_truth(v, dps):
    from cdpsym.mechanisms import RandomizedResponse
    from cdpsym.mechanisms.profile import hockey_stick_discrete

    with mpmath.workdps(dps + 20):
        e0, e = mpmath.mpf(v[eps0]), mpmath.mpf(v[eps])
        pp, qq = RandomizedResponse(eps=sp.Float(mpmath.nstr(e0, dps + 25), dps + 25)).distributions(dps=dps + 20)
        enumerated = hockey_stick_discrete(pp, qq, e, dps=dps + 20)
        keep = 1 / (1 + mpmath.exp(-e0))  # a coin keeping the bit w.p. e^eps0/(1 + e^eps0)
        supremum = sup_over_events((keep, 1 - keep), (1 - keep, keep), e)
    return [("RandomizedResponse(eps0).distributions(), sum_y (P(y) - e^eps Q(y))_+",
             _below_precision(enumerated, dps)),
            ("a coin keeping the bit w.p. e^eps0/(1+e^eps0), sup over the four events",
             _below_precision(supremum, dps))]


# -- the theorem -------------------------------------------------------------------------------------------

def make(profile: sp.Expr = PROFILE) -> Theorem:
    """The profile of RR_eps0 as claimed by ``profile`` (tests build mutants with a smaller one)."""
    first, second, whole = _events(eps, tuple(P_RR), tuple(Q_RR))
    second_sinh = -2 * sp.exp((eps + eps0) / 2) * sp.sinh((eps + eps0) / 2) / (1 + sp.exp(eps0))
    whole_sinh = -2 * sp.exp(eps / 2) * sp.sinh(eps / 2)
    one_minus_exp = Part("one_minus_exp", eq(1 - sp.exp(x), -2 * sp.exp(x / 2) * sp.sinh(x / 2)),
                         variables={x: positive()},
                         proof=Chain(1 - sp.exp(x)).eq(-2 * sp.exp(x / 2) * sp.sinh(x / 2),
                                                      algebra("sinh(x/2) = (e^(x/2) - e^(-x/2))/2")))
    second_atom = Part("second_atom", eq(second, second_sinh),
                       proof=Chain(second)
                       .eq((1 - sp.exp(eps + eps0)) / (1 + sp.exp(eps0)), algebra())
                       .eq(second_sinh, by(one_minus_exp, x=eps + eps0, inside=lambda w: w / (1 + sp.exp(eps0)))))
    whole_space = Part("whole_space", eq(whole, whole_sinh),
                       proof=Chain(whole).eq(1 - sp.exp(eps), algebra())
                       .eq(whole_sinh, by(one_minus_exp, x=eps)))
    lhs = HockeyStick(eps, P_RR, Q_RR)
    proof = (
        Chain(lhs)
        .eq(sp.Max(0, first, second, whole),
            by(hockey_stick_two_atom_definition, p1=_TRUE, p2=_FLIP, q1=_FLIP, q2=_TRUE))
        .eq(sp.Max(0, first, second_sinh, whole),
            by(second_atom, inside=lambda w: sp.Max(0, first, w, whole)))
        .eq(sp.Max(0, first, second_sinh, whole_sinh),  # sympy drops both: sinh of a positive number is positive
            by(whole_space, inside=lambda w: sp.Max(0, first, second_sinh, w)))
        .eq(profile, algebra("p - e^eps (1 - p) = (e^eps0 - e^eps)/(1 + e^eps0)"))
    )
    return Theorem(
        name="randomized_response_approx_dp_exact",
        reference="R-E6",
        source="REFERENCE R-E6 (derived); Warner 1965; hockey-stick form: Dwork & Rothblum 2016, Def 2.4",
        title="the exact privacy profile of randomized response",
        variables={eps0: positive(sample_lo=1e-3, sample_hi=20, log_scale=True),
                   eps: positive(sample_lo=1e-3, sample_hi=20, log_scale=True)},
        parts=(one_minus_exp, second_atom, whole_space,
               Part("main", eq(lhs, profile), proof=proof, ground_truth=_ground_truth)),
        numeric_points=({"eps0": "1", "eps": "0.4"}, {"eps0": "2", "eps": "1e-30"}, {"eps0": "0.7", "eps": "0.7"},
                        {"eps0": "0.7", "eps": "3"}, {"eps0": "12", "eps": "0.5"}),
        property_examples=15,
        tight="exact: the profile of the only neighbouring pair with different bits.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("the profile halved", make(PROFILE / 2)),
        ("eps0/2 for eps0: the mechanism's parameter halved",
         make(sp.Max(0, (sp.exp(eps0 / 2) - sp.exp(eps)) / (1 + sp.exp(eps0 / 2))))),
        ("the denominator doubled", make(sp.Max(0, (sp.exp(eps0) - sp.exp(eps)) / (2 + 2 * sp.exp(eps0))))),
    ]
