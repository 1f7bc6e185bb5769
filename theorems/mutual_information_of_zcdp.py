r"""A ρ-zCDP mechanism on :math:`\mathcal X^n` reveals at most ρn² nats about its input: :math:`I(X;M(X))\le\rho n^2`.

.. math::
    I\big(X;\mathcal M(X)\big)\ \le\ \rho\,n^2\quad\text{(nats)}
    \qquad\text{for every random variable } X \text{ on } \mathcal X^n,

whenever :math:`\mathcal M:\mathcal X^n\to\mathcal Y` is ρ-zCDP (hypothesis ``zcdp`` of ``approx_dp_of_zcdp``, R-A9:
:math:`\mathbb E[e^{\lambda L}]\le e^{\lambda(\lambda+1)\rho}` for every neighbouring pair and every λ > 0).  In bits,
multiply the right side by :math:`\log_2 e`.

Parameterization: n is the number of entries of an input; neighbouring inputs differ in at most one entry (a pair
(x, x) is ρ-zCDP trivially, L = 0, so it may count as a neighbouring pair, as in ``rdp_group_privacy``).
``MutualInformation(n)`` is :math:`I(X;\mathcal M(X))` for an *arbitrary* random input X on :math:`\mathcal X^n`
(nothing else names X, so the statement holds for every X); ``KLDiameter(n)`` is
:math:`\sup_{x,x'\in\mathcal X^n}D_{\mathrm{KL}}(\mathcal M(x)\|\mathcal M(x'))`.  Both are numbers in
:math:`[0,+\infty]` (registered opaque operators typed like ``KL``).  ``G(n)`` is the group loss of a chain
:math:`x_0\simeq\dots\simeq x_n` of neighbouring inputs at :math:`Y\sim\mathcal M(x_0)` (``pure_dp_group_privacy``),
so :math:`\mathbb E[G_n]=D_{\mathrm{KL}}(\mathcal M(x_0)\|\mathcal M(x_n))`.

Parts:

* ``kl_group`` -- :math:`\mathbb E[G_k]\le k^2\rho` for every chain of k links: the KL form of group privacy.
  **Proved** from ``zcdp_group_privacy`` (R-C8, :math:`\mathbb E[e^{sG_k}]\le e^{s(s+1)k^2\rho}`) by the tangent bound
  :math:`x\le e^x-1` (``exp_tangent_bound``) at :math:`x=sG_k-c`, :math:`c=s(s+1)k^2\rho`: in expectation
  :math:`s\,\mathbb E[G_k]\le e^{-c}\mathbb E[e^{sG_k}]+c-1\le c`, i.e. :math:`\mathbb E[G_k]\le(s+1)k^2\rho` for
  every s > 0, and the kernel's ``limit`` rule (s → 0).  This is :math:`D_1\le D_{1+s}` (van Erven & Harremoës 2014,
  Thm 3) and the limit α → 1 in the form the chain needs; no monotonicity axiom is used.
* ``main`` -- :math:`I(X;\mathcal M(X))\le\mathrm{diam}_{\mathrm{KL}}(\mathcal M)\le n^2\rho`.  The first step is
  **proved** by the textbook axiom ``mutual_information_at_most_kl_diameter`` (information theory:
  :math:`I(X;Y)=\mathbb E_{x\sim X}D(\mathcal M(x)\|\bar{\mathcal M})` with :math:`\bar{\mathcal M}=\mathbb E_{x'\sim X}
  \mathcal M(x')` the output law; convexity of D in its second argument gives :math:`\le\mathbb E_{x,x'}
  D(\mathcal M(x)\|\mathcal M(x'))\le` the supremum).  The second step is **proved** by the kernel's
  supremum rule (``by(kl_group, k=n, over_chains=True)``, docs/kernel.md): ``kl_group`` at k = n holds of the
  scope's chain, which stands for every chain of n links of the class, and any two inputs are the ends of one --
  the Hamming path :math:`x_i=(x'_1,\dots,x'_i,x_{i+1},\dots,x_n)` (each link changes at most entry i; a repeated
  input is a ρ-zCDP pair trivially) -- so :math:`\mathbb E[G_n]=D_{\mathrm{KL}}(\mathcal M(x_0)\|\mathcal M(x_n))`
  bounds every divergence of the supremum.

**Verdict: proved.**  The generalisation from the scope's chain to every pair is a kernel rule, not an axiom: an
axiom with the condition ":math:`\mathbb E[G_n]\le c` ⇒ :math:`\mathrm{diam}_{\mathrm{KL}}\le c`" would be unsound
under the kernel's semantics (inside a ``given`` discharge of a quantified need, a condition
:math:`\mathbb E[G_n]\le v` is assumed of the scope's chain alone, and such an axiom then proves
:math:`\mathrm{diam}_{\mathrm{KL}}\le\mathbb E[G_n]`, false for a chain of repeated inputs).  The rule reads the
fact only where nothing in the scope singles out a chain and the bound is a constant of the class.

Axiom added here: ``mutual_information_at_most_kl_diameter`` (Cover & Thomas; not specific to privacy).  The
operator ``MutualInformation`` is a registered opaque number in [0, +oo]; ``KLDiameter`` is the kernel's
(``cdpsym.expr.operators``), the quantity its supremum rule bounds.

Tight: no.  The ground truth (REFERENCE N29 and more) is the Gaussian mechanism on the sum of the n bits
(sensitivity 1, σ² = 1/(2ρ)) with X uniform on {0,1}^n (N29: n = 5, σ = 2 gives I = 0.136 vs 3.125) and with X
uniform on {0ⁿ, 1ⁿ} (perfectly correlated entries: I ≈ ρn²/4 for small ρn², the closest to the bound we know --
so the n² is needed, ρn fails), and randomized response applied to each entry (ε = √(2ρ): ε-DP, hence
ε²/2-zCDP, BS16 Prop 1.4) by exact enumeration.  Mutants: ρn (fails at n = 10, ρ = 0.005 with correlated input)
and ρn²/8 (fails for small ρn² likewise).  ρn²/2 is *not* a mutant: no example we know exceeds ρn²/4.

References
----------
* Bun & Steinke 2016, §1 (lower bounds; the mutual-information bound, numbered Theorem 1.10 in the arXiv version
  according to REFERENCE.md -- number unverified), arXiv:1605.02065, and Prop 1.9 (group privacy).
* Cover & Thomas 2006, *Elements of Information Theory*, 2nd ed., §2.3 (I(X;Y) = D(p(x,y)‖p(x)p(y))), Thm 2.5.3
  (chain rule for relative entropy), Thm 2.7.2 (convexity of relative entropy).
* van Erven & Harremoës 2014, *Rényi divergence and Kullback–Leibler divergence*, IEEE Trans. IT 60(7), Thm 3.
* REFERENCE.md R-C10, R-C8, N29.
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import k, naturals, positive, rho, s
from cdpsym.expr.operators import Expect, KLDiameter, Opaque  # noqa: F401 (KLDiameter re-exported)
from cdpsym.expr.symbols import describe
from cdpsym.proof import Axiom, Chain, Part, Theorem, algebra, by, le, limit, register_opaque
from theorems.approx_dp_of_zcdp import zcdp
from theorems.foundations_convexity import expectation_affine
from theorems.pure_dp_group_privacy import G
from theorems.subgaussian_variance import exp_tangent_bound
from theorems.zcdp_group_privacy import theorem as zcdp_group_privacy

__all__ = ["theorem", "make", "mutants", "n", "MutualInformation", "KLDiameter",
           "mutual_information_at_most_kl_diameter", "AXIOMS",
           "gaussian_sum_mutual_information", "randomized_response_mutual_information", "gaussian_kl"]

n = sp.Symbol("n", integer=True, positive=True)  # the number of entries of an input (as in one_way_marginals_zcdp)


class MutualInformation(Opaque):
    r"""``MutualInformation(n)`` is :math:`I(X;\mathcal M(X))` in nats, X an arbitrary random input on
    :math:`\mathcal X^n` and :math:`\mathcal M` the mechanism whose neighbouring pairs are the scope's class.
    A number in [0, +oo] (Cover & Thomas 2006, Cor. to Thm 2.6.3: I(X;Y) >= 0)."""

    nargs = 1

    def _latex(self, printer, exp=None):
        body = r"I\left(X;\mathcal{M}(X)\right)"
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _eval_is_extended_nonnegative(self):
        return True


register_opaque(MutualInformation)  # its typing (in [0, +oo]) is part of the trusted base
describe(MutualInformation, r"$I(X;\mathcal{M}(X))$ is the mutual information (in nats) between a random input $X$ "
                            r"on $\mathcal{X}^n$ and the mechanism's output on it", 85)

# -- axioms ---------------------------------------------------------------------------------------------------------------

mutual_information_at_most_kl_diameter = Axiom(
    name="mutual_information_at_most_kl_diameter",
    title="the mutual information between a channel's input and output is at most the largest KL divergence "
          "between two of its output distributions",
    citation="Cover & Thomas 2006, Elements of Information Theory, 2nd ed.: I(X;Y) = D(p(x,y)||p(x)p(y)) (§2.3), "
             "= E_{x~X} D(p(y|x)||p(y)) by the chain rule for relative entropy (Thm 2.5.3); p(y) = E_{x'~X} p(y|x') "
             "and convexity of relative entropy (Thm 2.7.2) give <= E_{x,x'~X} D(p(y|x)||p(y|x')) <= "
             "sup_{x,x'} D(p(y|x)||p(y|x'))",
    relation=le(MutualInformation(n), KLDiameter(n)),
    variables={n: naturals()},
)

AXIOMS = [mutual_information_at_most_kl_diameter]

# -- ground truths --------------------------------------------------------------------------------------------------------
#
# Independent of the statement: the mutual information is computed from its definition,
# I(X;Y) = sum_x p(x) D(p(y|x) || p(y)), by quadrature (Gaussian noise) or exact enumeration (randomized response).


def _sum_law(nn: int, correlated: bool) -> list[tuple[int, mpmath.mpf]]:
    """The law of S = x_1 + ... + x_n: X uniform on {0,1}^n (binomial), or uniform on {0^n, 1^n} (S in {0, n})."""
    if correlated:
        return [(0, mpmath.mpf(1) / 2), (nn, mpmath.mpf(1) / 2)]
    return [(j, mpmath.binomial(nn, j) / mpmath.mpf(2) ** nn) for j in range(nn + 1)]


def gaussian_sum_mutual_information(nn: int, r, correlated: bool = False):
    """I(X; S + N(0, σ²)) with σ² = 1/(2ρ) (the Gaussian mechanism on the sum, sensitivity 1: ρ-zCDP).

    Y given X depends on X only through S, so I(X;Y) = sum_j w_j D(N(j, σ²) || f), f = sum_i w_i N(i, σ²):
    each term by quadrature of N(j, σ²) at y = j + σz, z in ±R (the mass outside is below 10^{-dps-5}), with the
    log-ratio log φ_j/f = −log sum_i w_i e^{((y−j)² − (y−i)²)/(2σ²)} (no cancellation).  Both laws are symmetric
    under j -> n − j, and so are the terms (reflect y -> n − y): the terms j > n/2 are those j < n/2 again.
    """
    sig = 1 / mpmath.sqrt(2 * r)
    law = _sum_law(nn, correlated)
    big = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    total = mpmath.mpf(0)
    for j, wj in law:
        if 2 * j > nn:  # the law is symmetric (w_j = w_{n-j}) and so are the terms (y -> n - y): counted below
            continue
        def term(z, j=j):
            yy = j + sig * z
            ratio = mpmath.fsum(wi * mpmath.exp(((yy - j) ** 2 - (yy - i) ** 2) / (2 * sig ** 2)) for i, wi in law)
            return mpmath.npdf(z) * -mpmath.log(ratio)
        total += (1 if 2 * j == nn else 2) * wj * mpmath.quad(term, [-big, 0, big])
    return total


def randomized_response_mutual_information(nn: int, r):
    """I(X; M(X)) for randomized response on each entry (keep a bit with probability e^ε/(1+e^ε), ε = √(2ρ)) and
    X uniform on {0^n, 1^n}, by exact enumeration of the joint law.

    An output string with j ones has probability a_j = q^j (1−q)^{n−j} given X = 1^n and b_j = (1−q)^j q^{n−j} given
    X = 0^n; the terms of I = sum_{x, y} p(x, y) log(p(x, y)/(p(x) p(y))) depend on the string through j only, so the
    sum over the 2^n strings is the sum over j with multiplicity C(n, j).
    """
    e = mpmath.sqrt(2 * r)
    qk = mpmath.exp(e) / (1 + mpmath.exp(e))
    total = mpmath.mpf(0)
    for j in range(nn + 1):
        a = qk ** j * (1 - qk) ** (nn - j)
        b = (1 - qk) ** j * qk ** (nn - j)
        mix = (a + b) / 2
        total += mpmath.binomial(nn, j) * (a / 2 * mpmath.log(a / mix) + b / 2 * mpmath.log(b / mix))
    return total


#: the binomial witness costs n/2 quadratures of an (n+1)-term mixture: checked up to this n (the tests go further)
_BINOMIAL_UP_TO = 5


def _main_truth(v, dps):
    nn, r = int(v[n]), v[rho]
    out = [("Gaussian on the sum, X uniform on {0^n, 1^n}, quadrature", gaussian_sum_mutual_information(nn, r, True)),
           ("randomized response on each entry, ε = √(2ρ), X uniform on {0^n, 1^n}, enumeration",
            randomized_response_mutual_information(nn, r))]
    if nn <= _BINOMIAL_UP_TO:
        out.append(("Gaussian on the sum, X uniform on {0,1}^n (REFERENCE N29), quadrature",
                    gaussian_sum_mutual_information(nn, r)))
    return out


def gaussian_kl(kk: int, r):
    """D_KL(M(x_0) || M(x_k)) for the Gaussian mechanism with σ = 1 and Δ² = 2ρ (ρ-zCDP) on a counting query,
    f(x_j) = jΔ: the integral of p_0 log(p_0/p_k) by quadrature (the log-ratio at y is ((y − kΔ)² − y²)/2)."""
    mk = kk * mpmath.sqrt(2 * r)
    big = mpmath.sqrt(2 * (mpmath.mp.dps + 8) * mpmath.log(10))
    return mpmath.quad(lambda y: mpmath.npdf(y) * ((y - mk) ** 2 - y ** 2) / 2, mpmath.linspace(-big, big, 5))


def _kl_truth(v, dps):
    return [("Gaussian mechanism, shift kΔ (Δ² = 2ρ), ∫ p_0 log(p_0/p_k) by quadrature", gaussian_kl(int(v[k]), v[rho]))]


# -- the proof ------------------------------------------------------------------------------------------------------------

_C = s * (s + 1) * k ** 2 * rho  # the tangent point: x <= e^{x − c} + c − 1 is tightest in expectation here


def _kl_chain() -> Chain:
    """E[G_k] <= (s + 1)k²ρ for every s > 0 (tangent bound, linearity, group privacy), then s -> 0."""
    mgf = Expect(sp.exp(s * G(k)))
    return (Chain(Expect(G(k)), variables={s: positive()})
            .eq(Expect(s * G(k)) / s, by(expectation_affine, a=s, b=0, X=G(k)))
            .le(Expect(sp.exp(s * G(k) - _C) - 1 + _C) / s,
                by(exp_tangent_bound.part("main"), X=s * G(k) - _C, inside=lambda w: Expect(w + _C) / s))
            .eq(Expect(sp.exp(-_C) * sp.exp(s * G(k)) + (_C - 1)) / s, algebra())
            .eq((sp.exp(-_C) * mgf + _C - 1) / s, by(expectation_affine, a=sp.exp(-_C), b=_C - 1, X=sp.exp(s * G(k))))
            .le((sp.exp(-_C) * sp.exp(s * (s + 1) * k ** 2 * rho) + _C - 1) / s,
                by(zcdp_group_privacy.part("main"), s=s, k=k, inside=lambda w: (sp.exp(-_C) * w + _C - 1) / s))
            .eq((s + 1) * k ** 2 * rho, algebra("e^{−c} e^{c} = 1"))
            .le(k ** 2 * rho, limit(s)))


BOUND = rho * n ** 2


def make(total: sp.Expr = BOUND) -> Theorem:
    """The theorem with the claimed right side ``total`` of part ``main`` (mutants use a smaller one)."""
    kl_group = Part("kl_group", le(Expect(G(k)), k ** 2 * rho), variables={k: naturals(sample_lo=1, sample_hi=6)},
                    title="the KL form of group privacy for zCDP (the order α → 1)",
                    proof=_kl_chain(), ground_truth=_kl_truth)
    main_proof = (Chain(MutualInformation(n))
                  .le(KLDiameter(n), by(mutual_information_at_most_kl_diameter, n=n))
                  .le(n ** 2 * rho, by(kl_group, k=n, over_chains=True)))
    if total != BOUND:
        main_proof = main_proof.eq(total, algebra())
    return Theorem(
        name="mutual_information_of_zcdp",
        reference="R-C10",
        source="Bun & Steinke 2016, §1 (Theorem 1.10 per REFERENCE.md, unverified), arXiv:1605.02065; "
               "Cover & Thomas 2006, Thm 2.7.2",
        title="mutual information of a zCDP mechanism",
        variables={n: naturals(sample_lo=1, sample_hi=5),
                   rho: positive(sample_lo=1e-3, sample_hi=1, log_scale=True)},
        hypotheses=(zcdp,),
        parts=(kl_group, Part("main", le(MutualInformation(n), total), proof=main_proof, ground_truth=_main_truth)),
        numeric_points=({"n": "5", "rho": "0.125", "k": "5"},  # N29: σ = 2
                        {"n": "10", "rho": "0.005", "k": "10"},  # correlated entries: I = 0.111 > ρn, ρn²/8
                        {"n": "1", "rho": "0.5", "k": "1"}),  # one bit
        property_examples=4,
        tight="no: I ≈ ρn²/4 at best among the examples (Gaussian on the sum, perfectly correlated entries, ρn² "
              "small); REFERENCE N29.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("ρn: linear in n (false for correlated entries)", make(rho * n)),
        ("ρn²/8: the constant scaled down", make(rho * n ** 2 / 8)),
    ]
