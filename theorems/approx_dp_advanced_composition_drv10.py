r"""Advanced composition, Dwork–Rothblum–Vadhan's original: k-fold ε-DP is :math:`(\sqrt{2k\log(1/\delta')}\,\varepsilon+k\varepsilon(e^\varepsilon-1),\ \delta')`-DP.

.. math::
    \delta_{P^{(k)}\|Q^{(k)}}(\varepsilon')\le\delta',\qquad
    \varepsilon'=\sqrt{2k\log(1/\delta')}\;\varepsilon+k\,\varepsilon\,(e^{\varepsilon}-1),

for the two views :math:`P^{(k)}, Q^{(k)}` of every k-fold adaptive composition of
ε-DP mechanisms (ε > 0, δ' ∈ (0, 1), k ≥ 1, no condition relating k and ε).

Parameterization: exactly that of :mod:`theorems.approx_dp_advanced_composition` (R-B1), whose
hypotheses (``pure_dp``, ``same_support``, ``compensated_losses``) this theorem declares; names
follow DRV10/DR14 (slack δ').

What is proved: the **pure case** :math:`\delta_0=0`, as for R-B1.  DRV10's statement for
:math:`(\varepsilon,\delta_0)`-DP mechanisms, :math:`(\varepsilon',k\delta_0+\delta')`, needs DRV10's
reduction of each :math:`(\varepsilon,\delta_0)`-DP step to an ε-DP one up to an event of probability
:math:`\delta_0`, which the library does not encode.

Proof (a comparison of the two bounds, no new probability): the DRV10 mean term
:math:`k\varepsilon(e^\varepsilon-1)` is DR16's :math:`k\varepsilon(e^\varepsilon-1)/2` plus
:math:`\sqrt k\,\varepsilon\,c` with :math:`c=\sqrt k(e^\varepsilon-1)/2>0`, so
:math:`\varepsilon'` *is* DR16's bound at the smaller slack
:math:`\delta''=\exp\big(-(\sqrt{2\log(1/\delta')}+c)^2/2\big)` (since
:math:`\sqrt{2k\log(1/\delta'')}=\sqrt k(\sqrt{2\log(1/\delta')}+c)`).  Cite
``approx_dp_advanced_composition`` at :math:`\delta''\in(0,1)`, then
:math:`\delta''=\delta'\,e^{-\sqrt{2\log(1/\delta')}\,c-c^2/2}\le\delta'`.

The algebra is carried by four step parts, each an identity or inequality with its own proof and
numeric check: ``sinh_form`` (:math:`(e^u-e^{-u})/2=\sinh u`, used to write
:math:`c=\sqrt k\,e^{\varepsilon/2}\sinh(\varepsilon/2)`, whose positivity the sign decider sees),
``margin`` (:math:`\varepsilon'=\sqrt k(\sqrt{2\log(1/\delta')}+c)\varepsilon+k\varepsilon(e^\varepsilon-1)/2`),
``root_of_log`` (:math:`\sqrt k\,y=\sqrt{2k\log(1/e^{-y^2/2})}` for y > 0, which turns that into
R-B1's form at δ'') and ``exp_at_most_one`` (:math:`e^{-x}\le1` for x ≥ 0, by the monotone rule;
it gives both :math:`\delta''<1` and :math:`\delta''\le\delta'`).  The hockey-stick arguments are
rewritten by congruence with ``margin`` and ``root_of_log`` (the kernel compares the arguments of
opaque operators only through a cited equation).

Not tight: weaker than R-B1 by :math:`k\varepsilon(e^\varepsilon-1)/2`; e.g. k = 100, ε = 0.1,
δ' = 1e-6 gives 6.3082, the exact optimum is 4.7746 (✓N19, ground truth: the k-fold
randomized-response profile, KOV15).

References
----------
* Dwork, Rothblum & Vadhan 2010, *Boosting and Differential Privacy*, FOCS, Thm III.3 (Thm 3.3 of the
  full version).
* Dwork & Roth 2014, Thm 3.20.
* Dwork & Rothblum 2016, Thm 1.1, arXiv:1603.01887v2 (the halved mean term, cited).
* REFERENCE.md R-F3, R-B1, R-H8.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import delta_p, eps, k, naturals, nonnegative, open_unit, positive, real, u
from cdpsym.expr.operators import HockeyStick
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq, le, monotone, sign
from theorems.approx_dp_advanced_composition import _ground_truth
from theorems.approx_dp_advanced_composition import theorem as advanced_composition
from theorems.cdp_composition import compensated_losses
from theorems.foundations_composition import Pk, Qk
from theorems.kl_of_pure_dp import pure_dp, same_support

__all__ = ["theorem", "make", "mutants", "EPS_PRIME", "MEAN_TERM"]

MEAN_TERM = k * eps * (sp.exp(eps) - 1)
EPS_PRIME = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + MEAN_TERM

_A = sp.sqrt(2 * sp.log(1 / delta_p))
# c = √k (e^ε − 1)/2, written with e^ε − 1 = 2 e^{ε/2} sinh(ε/2) so that its sign is evident
_C = sp.sqrt(k) * sp.exp(eps / 2) * sp.sinh(eps / 2)
_GAIN = _A * _C + _C ** 2 / 2  # δ'' = δ' e^{−gain}
_SMALLER_SLACK = sp.exp(-(_A + _C) ** 2 / 2)  # δ'' < δ': DR16's bound at δ'' is DRV10's at δ'
_DR16_AT_SMALLER_SLACK = sp.sqrt(2 * k * sp.log(1 / _SMALLER_SLACK)) * eps + k * eps * (sp.exp(eps) - 1) / 2

_x = sp.Symbol("x", nonnegative=True)  # the variable of the step exp(−x) <= 1
_y = sp.Symbol("y")  # no assumptions, so that log(1/exp(−y²/2)) stays as R-B1 writes it; the variable of the step √k y = sqrt(2k log(1/exp(−y²/2)))


def _value_truth(expr: sp.Expr, label: str):
    """The left side of an identity step, evaluated from its own closed form (the right side is the other one)."""

    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        return [(label, evaluate(expr, v, MPContext(dps)))]

    return truth


def _exp_difference_truth(v, dps):
    """(e^u − e^{−u})/2 by mpmath, with guard digits for the cancellation at small |u|."""
    import mpmath

    x = v[u]
    lost = max(0, -int(mpmath.log10(abs(x)))) if x != 0 else 0
    with mpmath.workdps(dps + 10 + lost):
        return [("(e^u − e^{−u})/2 by mpmath with guard digits", +((mpmath.exp(x) - mpmath.exp(-x)) / 2))]


def _exp_truth(v, dps):
    import mpmath

    return [("exp(-x) by mpmath", mpmath.exp(-v[_x]))]


def make(mean_term: sp.Expr = MEAN_TERM) -> Theorem:
    """The theorem with the claimed mean term (mutants lower it)."""
    eps_prime = sp.sqrt(2 * k * sp.log(1 / delta_p)) * eps + mean_term
    half = k * eps * (sp.exp(eps) - 1) / 2
    sinh_form = Part("sinh_form", eq((sp.exp(u) - sp.exp(-u)) / 2, sp.sinh(u)),
                     variables={u: real(sample_lo=-20, sample_hi=20)},
                     proof=Chain((sp.exp(u) - sp.exp(-u)) / 2).eq(sp.sinh(u), algebra("definition of sinh")),
                     ground_truth=_exp_difference_truth)
    split_mean = sp.sqrt(k) * (_A + _C) * eps + half
    exp_form = sp.exp(eps / 2) * (sp.exp(eps / 2) - sp.exp(-eps / 2)) / 2  # = (e^ε − 1)/2
    margin = Part("margin", eq(eps_prime, split_mean),
                  proof=Chain(eps_prime)
                  .eq(sp.sqrt(k) * (_A + sp.sqrt(k) * exp_form) * eps + half,
                      algebra("kε(e^ε − 1) = kε(e^ε − 1)/2 + √k · √k(e^ε − 1)/2 · ε"))
                  .eq(split_mean, by(sinh_form, u=eps / 2,
                                     inside=lambda w: sp.sqrt(k) * (_A + sp.sqrt(k) * sp.exp(eps / 2) * w) * eps + half)),
                  ground_truth=_value_truth(eps_prime, "ε' from its closed form"))
    root = Part("root_of_log", eq(sp.sqrt(k) * _y, sp.sqrt(2 * k * sp.log(1 / sp.exp(-_y ** 2 / 2)))),
                variables={_y: positive(sample_lo=1e-3, sample_hi=50)}, proof=Chain(sp.sqrt(k) * _y).eq(
                    sp.sqrt(2 * k * sp.log(1 / sp.exp(-_y ** 2 / 2))), algebra("log(1/exp(-y²/2)) = y²/2, y > 0")),
                ground_truth=_value_truth(sp.sqrt(k) * _y, "√k·y from its closed form"))
    decreasing = Part("exp_at_most_one", le(sp.exp(-_x), 1), variables={_x: nonnegative(sample_hi=50)},
                      proof=Chain(sp.exp(-_x)).le(1, monotone(_x)), ground_truth=_exp_truth)
    slack_below_one = (
        Chain(_SMALLER_SLACK)
        .eq(delta_p * sp.exp(-_GAIN), algebra("exp(−A²/2) = δ', where A = √(2 log(1/δ'))"))
        .le(delta_p, by(decreasing, x=_GAIN, inside=lambda w: delta_p * w))
        .lt(1, sign("δ' < 1"))
    )
    hockey = lambda w: HockeyStick(w, Pk(k), Qk(k))  # noqa: E731
    proof = (
        Chain(hockey(eps_prime))
        .eq(hockey(split_mean), by(margin, inside=hockey))
        .eq(hockey(_DR16_AT_SMALLER_SLACK), by(root, y=_A + _C, inside=lambda w: hockey(w * eps + half)))
        .le(_SMALLER_SLACK, by(advanced_composition, k=k, eps=eps, delta_p=_SMALLER_SLACK,
                               given={"delta_p": slack_below_one}))
        .eq(delta_p * sp.exp(-_GAIN), algebra("exp(−A²/2) = δ', where A = √(2 log(1/δ'))"))
        .le(delta_p, by(decreasing, x=_GAIN, inside=lambda w: delta_p * w))
    )
    return Theorem(
        name="approx_dp_advanced_composition_drv10",
        reference="R-F3",
        source="Dwork, Rothblum & Vadhan 2010, Thm III.3; Dwork & Roth 2014, Thm 3.20 (pure case δ0 = 0)",
        title="advanced composition (DRV10)",
        notion="compose(k=k, DP(eps)) is DP(sqrt(2*k*log(1/delta_p))*eps + k*eps*(exp(eps)-1), delta_p)",
        variables={k: naturals(sample_lo=1, sample_hi=300),
                   eps: positive(sample_lo=0.01, sample_hi=3),
                   delta_p: open_unit(sample_lo=1e-15, sample_hi=0.9, log_scale=True)},
        hypotheses=(pure_dp, same_support, compensated_losses),
        parts=(sinh_form, margin, root, decreasing,
               Part("main", le(HockeyStick(eps_prime, Pk(k), Qk(k)), delta_p), proof=proof,
                    ground_truth=_ground_truth(eps_prime))),
        numeric_points=({"k": "100", "eps": "0.1", "delta_p": "1e-6", "x": "0", "y": "1", "u": "0"},
                        {"k": "20", "eps": "0.1", "delta_p": "1e-5", "x": "0.3", "y": "0.01", "u": "-3"},
                        {"k": "50", "eps": "0.5", "delta_p": "1e-6", "x": "7", "y": "3.5", "u": "0.05"},
                        {"k": "10", "eps": "1", "delta_p": "1e-3", "x": "1e-9", "y": "20", "u": "1e-8"},
                        {"k": "1500", "eps": "0.6", "delta_p": "0.1", "x": "2", "y": "0.5", "u": "7"},
                        {"k": "1", "eps": "2", "delta_p": "0.5", "x": "40", "y": "49", "u": "-19"}),
        property_examples=30,
        tight="not tight: k = 100, ε = 0.1, δ' = 1e-6 gives 6.3082, the exact optimum is 4.7746 (R-F7).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("mean term kε(e^ε−1)/4", make(k * eps * (sp.exp(eps) - 1) / 4)),
        ("mean term dropped", make(sp.S.Zero)),
    ]
