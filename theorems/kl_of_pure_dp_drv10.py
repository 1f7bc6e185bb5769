r"""The DRV10 KL bound: the KL divergence of an ε-DP pair is at most ε(e^ε − 1).

.. math::
    D_{\mathrm{KL}}(P\,\|\,Q)\ \le\ \varepsilon\,(e^\varepsilon-1)
    \qquad\text{for every pair } P = M(x),\ Q = M(x') \text{ of an } \varepsilon\text{-DP mechanism}.

Parameterization: ε-DP of the ordered pair (P, Q) is the two hypotheses of
:mod:`theorems.kl_of_pure_dp` (``pure_dp``: :math:`|L|\le\varepsilon` a.s.; ``same_support``:
:math:`\mathbb E e^{-L}=1`), the same objects.

What is encoded, and what is not: DRV10 Lemma III.2 (= DR16 Lemma 3.7, R-B13) states the chain
:math:`D_{\mathrm{KL}}(P\|Q)\le D_{\mathrm{KL}}(P\|Q)+D_{\mathrm{KL}}(Q\|P)\le\varepsilon(e^\varepsilon-1)`.
Only its outer inequality is proved here.  The symmetric sum :math:`J` needs
:math:`D_{\mathrm{KL}}(Q\|P)`, an expectation under Q of the loss of the *reversed* pair; the library's
``E[.]`` is the expectation under P and ``L`` the loss of (P, Q), and a theorem cannot be instantiated
at the swapped pair (P, Q are not variables), so :math:`D_{\mathrm{KL}}(Q\|P)` has no proof route without
a new trusted fact (the change of measure :math:`D_{\mathrm{KL}}(Q\|P)=\mathbb E_P[-Le^{-L}]` plus
monotonicity of expectation for a pointwise bound).  The bound on J is therefore **not claimed**.

Proof: the sharp bound :math:`D_{\mathrm{KL}}\le\varepsilon\tanh(\varepsilon/2)` (``kl_of_pure_dp``,
part ``sharp``), then the sign step
:math:`\varepsilon(e^\varepsilon-1)-\varepsilon\frac{e^\varepsilon-1}{e^\varepsilon+1}=\frac{\varepsilon(e^\varepsilon-1)e^\varepsilon}{e^\varepsilon+1}\ge0`.
(DRV10's own proof bounds :math:`J\le\varepsilon\sum|D-D'|\le\varepsilon(e^\varepsilon-1)`.)

Not tight: the supremum over ε-DP pairs is :math:`\varepsilon\tanh(\varepsilon/2)` (randomized
response), smaller by the factor :math:`e^\varepsilon+1`; for J the sharp value is
:math:`2\varepsilon\tanh(\varepsilon/2)` (R-B13, sharp form).

References
----------
* Dwork, Rothblum & Vadhan 2010, *Boosting and Differential Privacy*, FOCS, Lemma III.2.
* Dwork & Rothblum 2016, Lemma 3.7, arXiv:1603.01887v2.
* REFERENCE.md R-B13 (and R-B14 for the sharp bound cited).
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import eps, positive
from cdpsym.expr.operators import KL, P, Q
from cdpsym.proof import Chain, Part, Theorem, by, le, sign
from theorems.kl_of_pure_dp import SHARP, _kl_truth, pure_dp, same_support
from theorems.kl_of_pure_dp import theorem as kl_of_pure_dp

__all__ = ["theorem", "make", "mutants", "DRV10"]

DRV10 = eps * (sp.exp(eps) - 1)


def make(bound: sp.Expr = DRV10) -> Theorem:
    """The bound as claimed (mutants lower it)."""
    proof = (
        Chain(KL(P, Q))
        .le(SHARP, by(kl_of_pure_dp.part("sharp"), eps=eps))
        .le(bound, sign("the difference is eps (exp(eps) - 1) exp(eps)/(exp(eps) + 1)"))
    )
    return Theorem(
        name="kl_of_pure_dp_drv10",
        reference="R-B13",
        source="Dwork, Rothblum & Vadhan 2010, Lemma III.2; Dwork & Rothblum 2016, Lemma 3.7, arXiv:1603.01887v2",
        title="KL divergence of a pure-DP pair (DRV10 bound)",
        variables={eps: positive(sample_lo=0.01, sample_hi=6)},
        hypotheses=(pure_dp, same_support),
        parts=(Part("main", le(KL(P, Q), bound), proof=proof, ground_truth=_kl_truth),),
        numeric_points=({"eps": "0.1"}, {"eps": "0.5"}, {"eps": "1"}, {"eps": "2"}, {"eps": "7.5"}),
        property_examples=20,
        tight="not tight: the supremum is ε tanh(ε/2) (randomized response), smaller by the factor e^ε + 1.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("bound ε(e^ε − 1)/4", make(eps * (sp.exp(eps) - 1) / 4)),
        ("bound ε²/4 (a square's half dropped)", make(eps ** 2 / 4)),
    ]
