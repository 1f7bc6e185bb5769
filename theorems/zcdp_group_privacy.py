r"""Group privacy for zCDP: a ρ-zCDP mechanism is k²ρ-zCDP for datasets at distance k.

.. math::
    \mathbb E\big[e^{s G_k}\big]\ \le\ e^{s(s+1)k^2\rho}\qquad(s>0),
    \quad\text{i.e.}\quad D_\alpha(M(x_0)\|M(x_k))\le k^2\rho\,\alpha\ \ (\alpha=1+s),

whenever every neighbouring pair satisfies :math:`\mathbb E[e^{\lambda L}]\le e^{\lambda(\lambda+1)\rho}` for all
λ > 0 (hypothesis ``zcdp`` of ``approx_dp_of_zcdp``, R-A9).

Parameterization: as ``pure_dp_group_privacy``: a chain :math:`x_0\simeq x_1\simeq\dots\simeq x_k` of neighbouring
datasets, ``ell(i)`` the loss :math:`\log\frac{m_{i-1}}{m_i}(Y)` of the link i and ``G(k)`` the group loss
:math:`\log\frac{m_0}{m_k}(Y)`, both at :math:`Y\sim M(x_0)` (``group_loss_one``, ``group_loss_step``).
The order is written s = α − 1 (the letter λ is bound in the hypothesis ``zcdp``).
Parts: ``scaled`` -- for every κ > 0, :math:`\mathbb E[e^{(\kappa/k)G_k}]\le e^{\kappa(k+\kappa)\rho}` (the form
the induction runs on) -- and ``main``, its instance κ = sk; ``coefficient_g``, ``coefficient_link`` and
``split`` are the algebra of the step (the exponents of Hölder's split).

Proof (BS16 Prop 1.9 / R-C8, the induction over a weak triangle inequality):  the step from k to k + 1 at
order :math:`\alpha'=1+\kappa/(k+1)` needs the group bound at order :math:`((k+1)\alpha'-1)/k=1+\kappa/k` -- so
with κ fixed the induction hypothesis (the statement at k, same κ) is exactly what the step needs; this is why the
statement is indexed by κ = k(α − 1) rather than by α.  The step is **Hölder's inequality** under
:math:`M(x_0)` with exponents p = (k+κ)(k+1)/(k(k+1+κ)) and q = p/(p − 1), applied to
:math:`e^{(\alpha'-1)(G_k+\ell_{k+1})}=e^{\frac{\kappa}{kp}G_k}\cdot e^{-G_k/q+(k+\kappa)\ell_{k+1}/q}`
(Mironov's split :math:`p^\alpha r^{1-\alpha}=[p^\alpha q^{-(\alpha-1/p)}][q^{\alpha-1/p}r^{1-\alpha}]`, R-A4
Prop 11, written relative to :math:`m_0`), in its unnormalised form: **Young's inequality** in expectation
(``young_expectation``) with a free scale t, linearity, the induction hypothesis for
:math:`\mathbb E[e^{(\kappa/k)G_k}]`, the zCDP hypothesis for the link (x_k, x_{k+1}) at λ = k + κ
(the kernel's class-member rule, ``by(zcdp, at_link=k + 1)``, after the change of measure
``chain_change_of_measure``: :math:`\mathbb E_{M(x_0)}[e^{-G_k}e^{\lambda\ell_{k+1}}]\le\mathbb E_{M(x_k)}[e^{\lambda
\ell_{k+1}}]`), and t at the minimiser.  The base case k = 1 is the hypothesis for the first link.

Tight: yes -- the Gaussian mechanism with shift kΔ has :math:`D_\alpha=k^2\rho\alpha` exactly (REFERENCE N30,
N43); the ground truth is that mechanism (its group MGF by quadrature).

No axiom is added here: the chain's measure theory (``chain_base_measure``, ``chain_change_of_measure``) is that of
``pure_dp_group_privacy``.

References
----------
* Bun & Steinke 2016, Prop 1.9 (group privacy for zCDP), arXiv:1605.02065.
* Mironov 2017, Prop 11 (weak triangle inequality), arXiv:1702.07476v3.
* REFERENCE.md R-C8, R-A4, N30, N43.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, X, Y, i, k, lam, naturals, positive, real, rho, s, t
from cdpsym.expr.operators import Expect, ExpectAt
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, induction, le, specialize
from theorems.approx_dp_of_zcdp import zcdp
from theorems.foundations_composition import c
from theorems.foundations_convexity import expectation_affine
from theorems.pure_dp_group_privacy import (G, chain_base_measure, chain_change_of_measure, ell, group_loss_one,
                                            group_loss_step)
from theorems.rdp_probability_preservation import young_expectation

__all__ = ["theorem", "make", "mutants", "kappa",
           "gaussian_group_mgf"]

kappa = sp.Symbol("kappa", positive=True)  # κ = k(α − 1): the order at group size j is 1 + κ/j

# -- the step's exponents (group size k -> k + 1, κ fixed) -------------------------------------------------------------

_S = kappa / (k * (k + 1 + kappa))  # p − 1 (written so that the kernel sees it positive)
_P = 1 + _S  # Hölder's p = (k+κ)(k+1)/(k(k+1+κ)) for the step
_Q = _P / _S  # its conjugate q = p/(p − 1) = (k+κ)(k+1)/κ
_FACTORED = (k + kappa) * (k + 1) / (k * (k + 1 + kappa))  # p, factored
_COEF_G = Part("coefficient_g", eq(kappa / (k + 1), kappa / (k * _P) - 1 / _Q),
               title="κ/(k+1) = κ/(kp) − 1/q: the weight of G_k in the split",
               proof=(Chain(kappa / (k + 1))
                      .eq((kappa * (k + kappa) / (k * (k + 1 + kappa))) / _FACTORED, algebra())
                      .eq((kappa / k - _S) / _P, algebra("κ/k − (p − 1) = κ(k+κ)/(k(k+1+κ)) and p factored"))
                      .eq(kappa / (k * _P) - 1 / _Q, algebra())))
_COEF_L = Part("coefficient_link", eq(kappa / (k + 1), (k + kappa) / _Q),
               title="κ/(k+1) = (k+κ)/q: the weight of the link's loss in the split",
               proof=Chain(kappa / (k + 1)).eq((k + kappa) / _Q, algebra()))


# -- the induction -------------------------------------------------------------------------------------------------------

def _bound(n):
    """e^{κ(n + κ)ρ}: the statement's right side at group size n."""
    return sp.exp(kappa * (n + kappa) * rho)


def _mgf(n):
    return Expect(sp.exp(kappa * G(n) / n))


# Young's inequality at X = (t^p e^{(κ/k)G_k})^{1/p}, Y = (t^{-q} e^{(k+κ)ℓ_{k+1} − G_k})^{1/q}: XY = e^{(κ/(k+1))G_{k+1}}


def _u(x):
    return (t ** _P * sp.exp(kappa * x / k)) ** (1 / _P)


def _v(x, y):
    return (t ** (-_Q) * sp.exp((k + kappa) * y - x)) ** (1 / _Q)


_G_FIRST = kappa / (k * _P) - 1 / _Q
_SPLIT = Part("split", eq(sp.exp(kappa * (X + Y) / (k + 1)), sp.Abs(_u(X) * _v(X, Y))),
              variables={X: real(), Y: real(), t: positive()},
              title="e^{κ(X+Y)/(k+1)} = |(t^p e^{κX/k})^{1/p} (t^{−q} e^{(k+κ)Y − X})^{1/q}|",
              proof=(Chain(sp.exp(kappa * (X + Y) / (k + 1)))
                     .eq(sp.exp(_G_FIRST * X + kappa * Y / (k + 1)),
                         by(_COEF_G, inside=lambda w: sp.exp(w * X + kappa * Y / (k + 1))))
                     .eq(sp.exp(_G_FIRST * X + (k + kappa) / _Q * Y),
                         by(_COEF_L, inside=lambda w: sp.exp(_G_FIRST * X + w * Y)))
                     .eq(sp.exp(kappa * X / (k * _P) + ((k + kappa) * Y - X) / _Q), algebra())
                     .eq(sp.Abs(_u(X) * _v(X, Y)), algebra("(t^p e^a)^{1/p} = t e^{a/p}"))))
_U = _u(G(k))
_V = _v(G(k), ell(k + 1))
_A = _bound(k)  # the induction hypothesis' bound on E[e^{(κ/k)G_k}]
_B = sp.exp((k + kappa) * (k + kappa + 1) * rho)  # the link's bound at λ = k + κ
_LINK = Expect(sp.exp((k + kappa) * ell(k + 1) - G(k)))
_AT_LINK = ExpectAt(sp.exp((k + kappa) * ell(k + 1)), k)  # the link's MGF under M(x_k)
_W1, _W2 = t ** _P / _P, _S / _P * t ** (-_Q)
_T_STAR = sp.exp(rho * kappa / _P)  # the minimiser (B/A)^{1/(p+q)}


def _step() -> Chain:
    objective = _W1 * _A + _W2 * _B
    at_star = objective.subs(t, _T_STAR)
    return (Chain(_mgf(k + 1), variables={t: positive()})
            .eq(Expect(sp.exp(kappa * (G(k) + ell(k + 1)) / (k + 1))), by(group_loss_step, i=k))
            .eq(Expect(sp.Abs(_U * _V)), by(_SPLIT, X=G(k), Y=ell(k + 1), t=t, inside=lambda w: Expect(w)))
            .le(Expect(sp.Abs(_U) ** _P) / _P + (_P - 1) / _P * Expect(sp.Abs(_V) ** (_P / (_P - 1))),
                by(young_expectation, X=_U, Y=_V, p_H=_P))
            .eq(_W1 * _mgf(k) + _S / _P * Expect(t ** (-_Q) * sp.exp((k + kappa) * ell(k + 1) - G(k))),
                by(expectation_affine, a=t ** _P, b=0, X=sp.exp(kappa * G(k) / k)))
            .eq(_W1 * _mgf(k) + _W2 * _LINK,
                by(expectation_affine, a=t ** (-_Q), b=0, X=sp.exp((k + kappa) * ell(k + 1) - G(k))))
            .le(_W1 * _A + _W2 * _LINK, by(Hypothesis("ih", le(_mgf(k), _bound(k))),
                                            inside=lambda w: _W1 * w + _W2 * _LINK))
            .le(_W1 * _A + _W2 * _AT_LINK, by(chain_change_of_measure, i=k, Y_1=sp.exp((k + kappa) * ell(k + 1)),
                                               inside=lambda w: _W1 * _A + _W2 * w))
            .le(objective, by(zcdp, lam=k + kappa, at_link=k + 1, inside=lambda w: _W1 * _A + _W2 * w))
            .eq(at_star, specialize(t=_T_STAR))
            .eq(sp.powsimp(at_star), algebra("collect the exponentials"))
            .eq((1 / _P + _S / _P) * _bound(k + 1), algebra("both exponents are κ(k+1+κ)ρ"))
            .eq(_bound(k + 1), algebra("1/p + 1/q = 1")))


def gaussian_group_mgf(lm, kk, r, dps=None):
    """E_{M(x_0)}[e^{λ G_k}] for the Gaussian mechanism with σ = 1 and sensitivity Δ = √(2ρ) (so ρ-zCDP) on a
    counting query, f(x_j) = jΔ: the integral of p_0^{1+λ} p_k^{−λ} by quadrature (the bump is centred at
    −λkΔ; ±25 of it)."""
    delta_ = mpmath.sqrt(2 * r)
    mk = kk * delta_
    log_dens = lambda y, m: -(y - m) ** 2 / 2 - mpmath.log(2 * mpmath.pi) / 2
    c0 = -lm * mk
    return mpmath.quad(lambda y: mpmath.exp((1 + lm) * log_dens(y, 0) - lm * log_dens(y, mk)), [c0 - 25, c0, c0 + 25])


def _scaled_truth(v, dps):
    kk = int(v[k])
    return [("Gaussian mechanism, shift kΔ (Δ² = 2ρ), ∫ p_0^{1+λ} p_k^{−λ} by quadrature, λ = κ/k",
             gaussian_group_mgf(v[kappa] / kk, kk, v[rho]))]


def _main_truth(v, dps):
    return [("Gaussian mechanism, shift kΔ (Δ² = 2ρ), ∫ p_0^{1+λ} p_k^{−λ} by quadrature",
             gaussian_group_mgf(v[s], int(v[k]), v[rho]))]


MAIN_BOUND = sp.exp(s * (s + 1) * k ** 2 * rho)  # s = λ = α − 1 (λ itself is bound in the hypothesis zcdp)


def make(total: sp.Expr = MAIN_BOUND) -> Theorem:
    """Group privacy with the claimed right side ``total`` of part ``main`` (mutants use a smaller one)."""
    base = (Chain(_mgf(1))
            .eq(Expect(sp.exp(kappa * ell(1))), by(group_loss_one))
            .eq(ExpectAt(sp.exp(kappa * ell(1)), 0), by(chain_base_measure, Y_1=sp.exp(kappa * ell(1))))
            .le(_bound(1), by(zcdp, lam=kappa, at_link=1)))
    scaled = Part("scaled", le(_mgf(k), _bound(k)), proof=Chain(_mgf(k)).le(_bound(k), induction(k, base, _step())),
                  ground_truth=_scaled_truth)
    main_proof = (Chain(Expect(sp.exp(s * G(k))))
                  .le(sp.exp(s * k * (k + s * k) * rho), by(scaled, kappa=s * k))
                  .eq(MAIN_BOUND, algebra()))
    if total != MAIN_BOUND:
        main_proof = main_proof.eq(total, algebra())
    return Theorem(
        name="zcdp_group_privacy",
        reference="R-C8",
        source="Bun & Steinke 2016, Prop 1.9, arXiv:1605.02065; Mironov 2017, Prop 11",
        title="group privacy for zCDP",
        variables={k: naturals(sample_lo=1, sample_hi=6), kappa: positive(sample_lo=0.05, sample_hi=10),
                   rho: positive(sample_lo=1e-3, sample_hi=1, log_scale=True)},
        hypotheses=(zcdp,),
        parts=(_COEF_G, _COEF_L, _SPLIT, scaled,
               Part("main", le(Expect(sp.exp(s * G(k))), total), variables={s: positive(sample_lo=0.01, sample_hi=5)},
                    proof=main_proof, ground_truth=_main_truth)),
        numeric_points=({"k": "1", "kappa": "0.5", "rho": "0.5", "s": "0.5"},
                        {"k": "3", "kappa": "2", "rho": "0.1", "s": "1.2"},
                        {"k": "4", "kappa": "6", "rho": "0.5", "s": "1.5"}),
        property_examples=10,
        tight="yes: the Gaussian mechanism with shift kΔ attains e^{λ(λ+1)k²ρ} (REFERENCE N30, N43).",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("kρ: group privacy taken linear in k (REFERENCE N43)", make(sp.exp(s * (s + 1) * k * rho))),
        ("k²ρ/2: halved", make(sp.exp(s * (s + 1) * k ** 2 * rho / 2))),
        ("e^{s²k²ρ}: the linear term of λ(λ+1) dropped", make(sp.exp(s ** 2 * k ** 2 * rho))),
    ]
