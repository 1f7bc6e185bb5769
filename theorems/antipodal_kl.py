r"""The KL divergence of an antipodal pair is symmetric and equals (1 − r)·ε·tanh(ε/2).

.. math::
    D_{\mathrm{KL}}(M\,\|\,M') = D_{\mathrm{KL}}(M'\,\|\,M)
    = (1-r)\,\varepsilon\,\frac{e^\varepsilon-1}{e^\varepsilon+1} = (1-r)\,\varepsilon\tanh(\varepsilon/2),
    \qquad M=(qe^\varepsilon,\ q,\ r),\ M'=(q,\ qe^\varepsilon,\ r),\ q=\frac{1-r}{1+e^\varepsilon}.

Parts: ``forward`` (the value of D_KL(M‖M')), ``reverse`` (the value of
D_KL(M'‖M)) and ``symmetric`` (DR16 Lemma 3.10: the two are equal).

Parameterization: an antipodal pair with parameter ε (DR16 Def 3.4, R-B15)
has ``log(M[x]/M'[x]) ∈ {−ε, 0, ε}``; merging atoms with equal ratio
(which leaves D_KL unchanged) it has three atoms, and normalisation forces
the masses above (R-B16: ``p + q = pe^{−ε} + qe^ε`` gives ``p = qe^ε``).
``r ∈ [0, 1)`` is the common mass of the ratio-1 atom; ``r = 0`` is
randomized response.  Distributions are written as tuples of atom masses.
The value is stated as ``(1 − r)ε(e^ε − 1)/(e^ε + 1)``, which *is*
``(1 − r)ε tanh(ε/2)`` (sympy proves the two equal, slowly).

Proof: the definition of D_KL on three atoms (R-A2), where the common atom
contributes ``r log(r/r) = 0``; ``log(qe^ε/q) = ε`` leaves
``ε(qe^ε − q) = ε(p − q)`` in both directions (R-B16).

Tight: it is an identity.  For r = 0 it is the maximum of D_KL over all
ε-DP pairs (``kl_of_pure_dp``, R-B14).

References
----------
* Dwork & Rothblum 2016, Def 3.4 and Lemma 3.10, arXiv:1603.01887v2.
* REFERENCE.md R-B15, R-B16 (the exact value, [D]).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import eps, positive, r
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import KL
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq
from theorems.foundations_convexity import kl_three_atom_definition

__all__ = ["theorem", "make", "mutants", "M", "M_PRIME", "VALUE", "q_mass"]

q_mass = (1 - r) / (1 + sp.exp(eps))
M = sp.Tuple(q_mass * sp.exp(eps), q_mass, r)
M_PRIME = sp.Tuple(q_mass, q_mass * sp.exp(eps), r)
VALUE = (1 - r) * eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1)

_forward_def = by(kl_three_atom_definition, p1=M[0], p2=M[1], q1=M_PRIME[0], q2=M_PRIME[1])
_reverse_def = by(kl_three_atom_definition, p1=M_PRIME[0], p2=M_PRIME[1], q1=M[0], q2=M[1])
# both instances reduce, by log(e^ε) = ε, to the same sum ε·q·e^ε − ε·q
_SUM = M[0] * sp.log(M[0] / M_PRIME[0]) + M[1] * sp.log(M[1] / M_PRIME[1])


def _masses(v):
    e, rr = v[eps], v[r]
    qq = (1 - rr) / (1 + mpmath.exp(e))
    return [qq * mpmath.exp(e), qq, rr], [qq, qq * mpmath.exp(e), rr]


def _kl(pp, qq):
    """Σ P log(P/Q) over the atoms, enumerated (an atom of mass 0 contributes 0)."""
    return mpmath.fsum(x * mpmath.log(x / y) for x, y in zip(pp, qq) if x != 0)


def _forward_truth(v, dps):
    m, mp_ = _masses(v)
    return [("antipodal pair, D_KL(M‖M') enumerated", _kl(m, mp_))]


def _reverse_truth(v, dps):
    m, mp_ = _masses(v)
    return [("antipodal pair, D_KL(M'‖M) enumerated", _kl(mp_, m))]


def make(value: sp.Expr = VALUE) -> Theorem:
    """The lemma with the claimed ``value`` (tests build mutants with a wrong value)."""
    note = "eps q exp(eps) - eps q with q = (1 - r)/(1 + exp(eps))"
    forward = Chain(KL(M, M_PRIME)).eq(_SUM, _forward_def).eq(value, algebra(note))
    reverse = Chain(KL(M_PRIME, M)).eq(_SUM, _reverse_def).eq(value, algebra(note))
    symmetric = Chain(KL(M, M_PRIME)).eq(_SUM, _forward_def).eq(KL(M_PRIME, M), _reverse_def)
    return Theorem(
        name="antipodal_kl",
        reference="R-B16",
        source="Dwork & Rothblum 2016, Lemma 3.10, arXiv:1603.01887v2 (exact value: REFERENCE.md R-B16)",
        title="KL divergence of an antipodal pair",
        variables={eps: positive(sample_lo=0.01, sample_hi=8),
                   r: Interval(sp.S.Zero, sp.S.One, False, True, sample_lo=0, sample_hi=0.99)},
        parts=(Part("forward", eq(KL(M, M_PRIME), value), proof=forward, ground_truth=_forward_truth),
               Part("reverse", eq(KL(M_PRIME, M), value), proof=reverse, ground_truth=_reverse_truth),
               # both sides are divergences: the forward and reverse parts carry the numbers
               Part("symmetric", eq(KL(M, M_PRIME), KL(M_PRIME, M)), proof=symmetric)),
        numeric_points=({"eps": "0.7", "r": "0.3"}, {"eps": "1.5", "r": "0"}, {"eps": "0.01", "r": "0.9"},
                        {"eps": "12", "r": "0.5"}),
        property_examples=40,
        tight="an identity; for r = 0 (randomized response) the maximum over ε-DP pairs.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ε tanh(ε/2): the factor 1 − r dropped", make(value=eps * (sp.exp(eps) - 1) / (sp.exp(eps) + 1))),
        ("(1 − r) ε tanh(ε/2)/2: the value halved", make(value=VALUE / 2)),
        ("(1 − r) tanh(ε/2): the factor ε dropped", make(value=(1 - r) * (sp.exp(eps) - 1) / (sp.exp(eps) + 1))),
    ]
