r"""Histograms / point queries: the noisy counts are private, and n rows suffice for error n/100 with probability 1 − β.

.. math::
    n=100\sqrt{\frac{2\log(2|\Omega|/\beta)}{\rho}}:\ \
    \Pr\Big[\max_{z\in\Omega}|N_z|>\tfrac{n}{100}\Big]\le\beta\quad(N_z\sim N(0,1/\rho)),
    \qquad
    n=\frac{200}{\varepsilon}\log\frac{|\Omega|}{\beta}:\ \
    \Pr\Big[\max_{z\in\Omega}|Z_z|>\tfrac{n}{100}\Big]\le\beta\quad(Z_z\sim \mathrm{Lap}(2/\varepsilon)).

More rows only help (the tail at t = n/100 decreases in n), so these are the
sufficient sample sizes of R-G9 (``n >= ...``).

Parameterization (R-G9, seed 000): the task is to output, for every
:math:`z\in\Omega`, :math:`\mathrm{freq}(z)\pm n/100` with probability at least
1 − β (``Omega`` is :math:`|\Omega|`).  Replace-one changes two counts by one:
:math:`\Delta_1=2`, :math:`\Delta_2=\sqrt2`.  The random symbols ``M_G`` and
``M_L`` are :math:`\max_z|N_z|` and :math:`\max_z|Z_z|`, the largest noise over
the |Ω| counts, i.i.d. across counts.

Parts:

* ``privacy_zcdp`` — :math:`N(0,1/\rho)` per count is ρ-zCDP (the Rényi form of
  :mod:`theorems.gaussian_zcdp`, cited at Δ = √2, σ = 1/√ρ; the pair is the two
  count vectors on the line through them, hypothesis ``count_shift``);
* ``privacy_pure`` — :math:`\mathrm{Lap}(2/\varepsilon)` per count is ε-DP
  (:mod:`theorems.laplace_pure_dp` cited at Δ = 2, b = 2/ε; the ℓ1 case is the
  same argument coordinate by coordinate, as that module says);
* ``accuracy_zcdp`` / ``accuracy_pure`` — the sample sizes, from the
  **union bound** with the Gaussian tail :math:`\Pr[|N|>t]\le2e^{-t^2/(2\sigma^2)}`
  and the Laplace tail :math:`\Pr[|Z|>t]=e^{-t/b}` (axioms ``gaussian_max_tail``,
  ``laplace_max_tail``, each checked against the exact law of the maximum),
  and algebra: at :math:`t=n/100` with n the stated size the bounds equal β.

Examples (✓N38): |Ω| = 10⁶, β = 0.05: ρ = 0.5 needs n ≥ 836.76, ρ = 0.01
n ≥ 5916.8; ε = 1 needs n ≥ 3362.2, ε = 0.1 n ≥ 33622.5.  Under add/remove
neighbours N(0, 1/(2ρ)) suffices (R-H6); not encoded.  The slide's
characterisations Θ(·) (with lower bounds) are not encoded.

Tight: the privacy parts are tight (R-C2, R-G1); the sample sizes are
sufficient, not necessary (the union bound and the Chernoff tail lose a
factor: |Ω| = 10⁶, β = 0.05, n = 836.76 at ρ = 0.5 gives an exact failure
probability 0.0033 < β; n = 3362.2 at ε = 1 gives 0.0488, as the Laplace tail
is exact and only the union bound loses).

Axioms added here: ``gaussian_max_tail``, ``laplace_max_tail`` (textbook tail
bounds with Boole's inequality; each has an exact ground truth).

References
----------
* Bun & Steinke 2016, Prop 1.6, arXiv:1605.02065 (Gaussian mechanism); Dwork & Roth 2014, Thm 3.6
  (Laplace mechanism).
* Wainwright 2019, *High-Dimensional Statistics*, Ch. 2, Example 2.1 (Gaussian tail by the Chernoff bound);
  Dwork & Roth 2014, Fact 3.7 (Laplace tails) and Thm 3.8 (the union bound over k counts).
* Steinke 2018 (talk, seed 000), histogram slides; REFERENCE.md R-G9, R-H6, ✓N38.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import L, Y, alpha, b, eps, mu, nu, positive, real, rho, sigma, t, x, z
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Normal, Prob, Renyi
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, le
from theorems.foundations_convexity import in_range
from theorems.gaussian_zcdp import theorem as gaussian_zcdp
from theorems.laplace_pure_dp import theorem as laplace_pure_dp

__all__ = ["theorem", "make", "mutants", "Omega", "beta", "M_G", "M_L", "N_ZCDP", "N_PURE",
           "gaussian_max_tail", "laplace_max_tail", "AXIOMS", "count_shift", "count_shift_l1", "laplace_counts"]

Omega = sp.Symbol("Omega", integer=True, positive=True)  # |Ω|, the number of counts
beta = sp.Symbol("beta", positive=True)  # the failure probability
# The maxima are random quantities *of their parameters*: M_G(Omega, sigma) is max_z |N_z| over Omega i.i.d.
# N(0, sigma^2), M_L(Omega, b) the same for Lap(b).  Undefined functions are random to the kernel, and writing
# the law's parameters in the term ties an axiom's instance to the noise it is about: instantiating the tail
# axiom at another sigma gives a statement about another variable (a red-team review found that a bare symbol
# M_G let the axiom be cited with any sigma).
M_G = sp.Function("M_G")
M_L = sp.Function("M_L")

N_ZCDP = 100 * sp.sqrt(2 * sp.log(2 * Omega / beta) / rho)
N_PURE = 200 / eps * sp.log(Omega / beta)

# -- axioms: tails of the maximum of |Omega| i.i.d. noise variables ----------------------------------------------


def _gaussian_max_truth(v, dps):
    """Pr[max_j |N_j| > t] = 1 − (1 − erfc(t/(σ√2)))^m for m i.i.d. N(0, σ²)."""
    one = mpmath.erfc(v[t] / (v[sigma] * mpmath.sqrt(2)))
    return [("exact law of the maximum of m i.i.d. |N(0, sigma^2)|", -mpmath.expm1(v[Omega] * mpmath.log1p(-one)))]


def _laplace_max_truth(v, dps):
    """Pr[max_j |Z_j| > t] = 1 − (1 − e^{−t/b})^m for m i.i.d. Lap(b)."""
    one = mpmath.exp(-v[t] / v[b])
    return [("exact law of the maximum of m i.i.d. |Lap(b)|", -mpmath.expm1(v[Omega] * mpmath.log1p(-one)))]


gaussian_max_tail = Axiom(
    name="gaussian_max_tail",
    title="the largest of |Ω| i.i.d. |N(0, σ²)| exceeds t with probability at most 2|Ω| e^{−t²/(2σ²)}",
    citation="Gaussian tail Pr[|N| > t] <= 2 exp(-t^2/(2 sigma^2)): the Chernoff bound with the normal MGF on each "
             "side (Wainwright 2019, High-Dimensional Statistics, Ch. 2, Example 2.1) and Boole's inequality over the "
             "|Omega| counts (Feller, Vol. I, §IV.1)",
    relation=le(Prob(sp.StrictGreaterThan(M_G(Omega, sigma), t)), 2 * Omega * sp.exp(-t ** 2 / (2 * sigma ** 2))),
    variables={Omega: Interval(sp.S.One, sp.S.Infinity, False, True, integer=True, sample_lo=1, sample_hi=10 ** 6),
               sigma: positive(sample_lo=0.1, sample_hi=10), t: positive(sample_lo=0.01, sample_hi=50)},
    ground_truth=_gaussian_max_truth,
    numeric_points=({"Omega": "1000000", "sigma": "1.4142135623730950488", "t": "8.3676"},
                    {"Omega": "1", "sigma": "1", "t": "0.1"}, {"Omega": "7", "sigma": "0.5", "t": "2"}),
)

laplace_max_tail = Axiom(
    name="laplace_max_tail",
    title="the largest of |Ω| i.i.d. |Lap(b)| exceeds t with probability at most |Ω| e^{−t/b}",
    citation="Laplace tail Pr[|Z| > t] = exp(-t/b) (Dwork & Roth 2014, Fact 3.7) and Boole's inequality over the "
             "|Omega| counts (Dwork & Roth 2014, proof of Thm 3.8)",
    relation=le(Prob(sp.StrictGreaterThan(M_L(Omega, b), t)), Omega * sp.exp(-t / b)),
    variables={Omega: Interval(sp.S.One, sp.S.Infinity, False, True, integer=True, sample_lo=1, sample_hi=10 ** 6),
               b: positive(sample_lo=0.1, sample_hi=10), t: positive(sample_lo=0.01, sample_hi=50)},
    ground_truth=_laplace_max_truth,
    numeric_points=({"Omega": "1000000", "b": "2", "t": "33.622"}, {"Omega": "1", "b": "1", "t": "0.1"},
                    {"Omega": "7", "b": "0.5", "t": "2"}),
)

AXIOMS = [gaussian_max_tail, laplace_max_tail]

# -- hypotheses ---------------------------------------------------------------------------------------------------

count_shift = Hypothesis(
    name="count_shift",
    title="replace-one changes two counts by one: ‖c(x) − c(x')‖₂² ≤ 2",
    relation=le((mu - nu) ** 2, 2),
)
count_shift_l1 = Hypothesis(
    name="count_shift_l1",
    title="replace-one changes two counts by one: ‖c(x) − c(x')‖₁² ≤ 4",
    relation=le((x - z) ** 2, 4),
)
laplace_counts = Hypothesis(
    name="laplace_counts",
    title="(P, Q) = (Lap(x, 2/ε), Lap(z, 2/ε)): the loss at the output Y is (|Y − z| − |Y − x|)/(2/ε)",
    relation=eq(L, (sp.Abs(Y - z) - sp.Abs(Y - x)) / (2 / eps)),
)


# -- ground truths ------------------------------------------------------------------------------------------------

def _accuracy_zcdp_truth(size: sp.Expr):
    """The exact law of the largest Gaussian noise at t = size/100 (the size read from the statement)."""
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        vv = {Omega: v[Omega], sigma: 1 / mpmath.sqrt(v[rho]), t: evaluate(size, v, MPContext(dps)) / 100}
        return _gaussian_max_truth(vv, dps)
    return truth


def _accuracy_pure_truth(size: sp.Expr):
    """The exact law of the largest Laplace noise at t = size/100 (the size read from the statement)."""
    def truth(v, dps):
        from cdpsym.expr.evaluate import MPContext, evaluate

        vv = {Omega: v[Omega], b: 2 / v[eps], t: evaluate(size, v, MPContext(dps)) / 100}
        return _laplace_max_truth(vv, dps)
    return truth


def _privacy_zcdp_truth(v, dps):
    from theorems.gaussian_zcdp import _renyi_by_quadrature

    vv = dict(v)
    vv[sigma] = 1 / mpmath.sqrt(v[rho])
    if abs(vv[mu] - vv[nu]) > mpmath.sqrt(2):
        vv[nu] = vv[mu] + mpmath.sign(vv[nu] - vv[mu]) * mpmath.sqrt(2)
    return _renyi_by_quadrature(vv, dps)


# -- the theorem --------------------------------------------------------------------------------------------------

def make(n_zcdp: sp.Expr = N_ZCDP, n_pure: sp.Expr = N_PURE) -> Theorem:
    """The two sample sizes as claimed (tests build mutants with smaller ones)."""
    sig = 1 / sp.sqrt(rho)
    D = Renyi(alpha, Normal(mu, sig), Normal(nu, sig))
    privacy_zcdp = Part("privacy_zcdp", le(D, alpha * rho), variables={alpha: Interval.open(1, sp.oo)},
                        title="N(0, 1/ρ) per count is ρ-zCDP (Δ₂ = √2)",
                        proof=Chain(D).le(alpha * rho, by(gaussian_zcdp, Delta=sp.sqrt(2), sigma=sig)),
                        ground_truth=_privacy_zcdp_truth)
    event = Prob(in_range(-eps, L, eps))
    privacy_pure = Part("privacy_pure", eq(event, 1), title="Lap(2/ε) per count is ε-DP (Δ₁ = 2)",
                        proof=Chain(event).eq(1, by(laplace_pure_dp, Delta=2, b=2 / eps, mu=x, nu=z)))
    t_z = n_zcdp / 100
    gz = Prob(sp.StrictGreaterThan(M_G(Omega, sig), t_z))
    accuracy_zcdp = Part(
        "accuracy_zcdp", le(gz, beta), title="n = 100√(2 log(2|Ω|/β)/ρ) rows: every count within n/100 w.p. 1 − β",
        proof=(Chain(gz)
               .le(2 * Omega * sp.exp(-rho * t_z ** 2 / 2), by(gaussian_max_tail, Omega=Omega, sigma=sig, t=t_z))
               .eq(beta, algebra("exp(-log(2 Omega/beta)) = beta/(2 Omega)"))),
        ground_truth=_accuracy_zcdp_truth(n_zcdp))
    t_l = n_pure / 100
    gl = Prob(sp.StrictGreaterThan(M_L(Omega, 2 / eps), t_l))
    accuracy_pure = Part(
        "accuracy_pure", le(gl, beta), title="n = (200/ε) log(|Ω|/β) rows: every count within n/100 w.p. 1 − β",
        proof=(Chain(gl)
               .le(Omega * sp.exp(-eps * t_l / 2), by(laplace_max_tail, Omega=Omega, b=2 / eps, t=t_l))
               .eq(beta, algebra("exp(-log(Omega/beta)) = beta/Omega"))),
        ground_truth=_accuracy_pure_truth(n_pure))
    return Theorem(
        name="histogram_sample_size",
        reference="R-G9",
        source="seed 000 (histogram slides); Gaussian: Bun & Steinke 2016, Prop 1.6; Laplace: Dwork & Roth 2014, "
               "Thm 3.6, Thm 3.8",
        title="histograms and their sample sizes",
        variables={rho: positive(sample_lo=1e-3, sample_hi=5, log_scale=True),
                   eps: positive(sample_lo=1e-2, sample_hi=5, log_scale=True),
                   Omega: Interval(sp.S.One, sp.S.Infinity, False, True, integer=True, sample_lo=1, sample_hi=10 ** 6),
                   beta: Interval.open(0, 1, sample_lo=1e-6, sample_hi=0.5, log_scale=True),
                   mu: real(sample_lo=-3, sample_hi=3), nu: real(sample_lo=-3, sample_hi=3),
                   x: real(sample_lo=-3, sample_hi=3), z: real(sample_lo=-3, sample_hi=3)},
        hypotheses=(count_shift, count_shift_l1, laplace_counts),
        parts=(privacy_zcdp, privacy_pure, accuracy_zcdp, accuracy_pure),
        numeric_points=({"rho": "0.5", "eps": "1", "Omega": "1000000", "beta": "0.05", "n": "1",
                         "mu": "0", "nu": "1.5", "alpha": "2"},
                        {"rho": "0.01", "eps": "0.1", "Omega": "1000000", "beta": "0.05", "n": "1",
                         "mu": "0.5", "nu": "-0.5", "alpha": "5"},
                        {"rho": "0.5", "eps": "1", "Omega": "1000000", "beta": "0.05", "n": "40000",
                         "mu": "0", "nu": "0.2", "alpha": "30"},
                        {"rho": "2", "eps": "3", "Omega": "3", "beta": "0.1", "mu": "0", "nu": "1",
                         "alpha": "1.5"}),
        property_examples=10,
        tight="the privacy parts are tight; the sample sizes are sufficient (union bound), not necessary.",
    )


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [("zCDP size without the factor 2 under the root", make(n_zcdp=100 * sp.sqrt(sp.log(2 * Omega / beta) / rho))),
            ("pure size 100/eps log(Omega/beta)", make(n_pure=100 / eps * sp.log(Omega / beta)))]


theorem = make()
