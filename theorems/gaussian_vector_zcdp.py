r"""The Gaussian mechanism on :math:`\mathbb R^d` with :math:`\ell_2` sensitivity Δ is :math:`\Delta^2/(2\sigma^2)`-zCDP.

.. math::
    \mathbb E_P\big[e^{\lambda L}\big]\ \le\ e^{\lambda(\lambda+1)\Delta^2/(2\sigma^2)}\quad(\lambda>0)
    \qquad\text{for } P=\mathcal N(\mu,\sigma^2 I_d),\ Q=\mathcal N(\nu,\sigma^2 I_d),\ \
    \|\mu-\nu\|_2^2=\sum_{j=1}^d(\mu_j-\nu_j)^2\le\Delta^2 .

The general form of ``gaussian_zcdp`` (R-C2, BS16 Prop 1.6, stated there for :math:`f:\mathcal X^n\to\mathbb R^d`
with :math:`\ell_2` sensitivity): ρ-zCDP in the MGF form of R-A9 (hypothesis ``zcdp`` of ``approx_dp_of_zcdp``,
which this theorem discharges for every d).

Parameterization: :math:`\mu=f(x)`, :math:`\nu=f(x')` are **sequences** of numbers (``mu_vec``, ``nu_vec``: the
kernel treats their terms as arbitrary reals, so the proof holds for every pair of mean vectors), d ≥ 1 the
dimension.  The mechanism adds independent noise :math:`\sigma Z_j`, :math:`Z_j\sim N(0,1)`, to each coordinate;
at the output :math:`y=\mu+\sigma Z\sim P` the privacy loss is the sum of the coordinates' log-likelihood
ratios, :math:`L=\log\frac{p(y)}{q(y)}=\sum_j\frac{(y_j-\nu_j)^2-(y_j-\mu_j)^2}{2\sigma^2}
=\sum_j\big(\frac{a_j}{\sigma}Z_j+\frac{a_j^2}{2\sigma^2}\big)`, :math:`a_j=\mu_j-\nu_j` (hypothesis
``gaussian_vector_pair``: the density of :math:`\mathcal N(\mu,\sigma^2I_d)` is the product of the coordinates').

Proof: the lemma ``gaussian_vector_mgf``,
:math:`\mathbb E[e^{\lambda S_d}]=e^{\lambda(\lambda+1)\sum_{j\le d}a_j^2/(2\sigma^2)}` for the partial sums
:math:`S_d` of the coordinates' losses, by **induction on d**: the last coordinate is split off the sum (the
kernel's canonical form of a finite sum), its constant term leaves the expectation (**linearity**), the
expectation factors (**independence** of :math:`Z_{d+1}` from :math:`Z_1,\dots,Z_d`), and the last factor is the
**standard normal MGF**; then :math:`\sum_j a_j^2\le\Delta^2` and :math:`w\mapsto e^{\lambda(\lambda+1)w/(2\sigma^2)}`
is increasing for λ > 0.

Tight: equality at every order when :math:`\|\mu-\nu\|_2=\Delta`.  The ground truth is the product measure's
definition: the expectation of :math:`e^{\lambda L}` is the product over the coordinates of one-dimensional
expectations, each by quadrature (mean vectors drawn outside the sensitivity ball are scaled onto it).

References
----------
* Bun & Steinke 2016, Prop. 1.6, arXiv:1605.02065.
* Billingsley, *Probability and Measure*, 3rd ed., §21 (expectation of a product of independent variables).
"""

from __future__ import annotations

import mpmath
import sympy as sp

from cdpsym.expr import i, lam, naturals, positive, real, sensitivity, sigma
from cdpsym.expr.domains import Interval
from cdpsym.expr.operators import Expect
from cdpsym.expr.symbols import L, sequence
from cdpsym.proof import Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, induction, le

__all__ = ["theorem", "make", "mutants", "mu_vec", "nu_vec", "Z_vec", "dim", "loss_sum", "gaussian_vector_pair",
           "l2_sensitivity", "gaussian_vector_mgf", "RHO", "AXIOMS", "S_vec"]

mu_vec = sequence("mu_vec", r"\mu")  # μ = f(x), coordinate j
nu_vec = sequence("nu_vec", r"\nu")  # ν = f(x'), coordinate j
#: the mechanism's independent standard normal noise, coordinate j (a random sequence)
Z_vec = sp.Function("Z_vec", real=True,
                    _latex=lambda self, printer, exp=None: r"Z_{%s}" % printer._print(self.args[0])
                    + (f"^{{{exp}}}" if exp else ""))
#: S_n = S_vec(n, σ), the privacy loss of the first n coordinates at noise scale σ (a random sequence, defined by
#: ``loss_sum_start`` and ``loss_sum_step``; σ is an argument: the loss is a different random variable for each σ)
S_vec = sp.Function("S_vec", real=True,
                    _latex=lambda self, printer, exp=None: r"S_{%s}" % printer._print(self.args[0])
                    + (f"^{{{exp}}}" if exp else ""))
dim = sp.Symbol("d", positive=True, integer=True)  # the dimension
_j = sp.Symbol("j", positive=True, integer=True)
_u = sp.Symbol("u", real=True)
_t = sp.Symbol("t", real=True)
_c = sp.Symbol("c", real=True)

RHO = sensitivity ** 2 / (2 * sigma ** 2)


def _gap(n: sp.Expr) -> sp.Expr:
    return mu_vec(n) - nu_vec(n)


def _coordinate_loss(n: sp.Expr) -> sp.Expr:
    """The log-likelihood ratio of coordinate n at y_n = μ_n + σ Z_n."""
    return _gap(n) * Z_vec(n) / sigma + _gap(n) ** 2 / (2 * sigma ** 2)


def loss_sum(n: sp.Expr) -> sp.Expr:
    """S_n, the privacy loss of the first n coordinates."""
    return sp.Sum(_coordinate_loss(i), (i, 1, n))


def _gap_sum(n: sp.Expr) -> sp.Expr:
    return sp.Sum(_gap(i) ** 2, (i, 1, n))


# -- the textbook facts ------------------------------------------------------------------------------------------------

def _mgf_truth(v, dps):
    tt, cc = v[_t], v[_c]
    f = lambda z: mpmath.exp(tt * z + cc - z ** 2 / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
    return [("quadrature", mpmath.quad(f, [-mpmath.inf, tt, mpmath.inf]))]


coordinate_normal_mgf = Axiom(
    name="coordinate_normal_mgf",
    title="the moment generating function of a standard normal coordinate Z_j of the noise",
    citation="e.g. Feller, Vol. II, §XV.2: tZ_j + c is normal with mean c and variance t² when Z_j is N(0, 1)",
    relation=eq(Expect(sp.exp(_t * Z_vec(_j) + _c)), sp.exp(_c + _t ** 2 / 2)),
    variables={_t: real(sample_lo=-6, sample_hi=6), _c: real(sample_lo=-3, sample_hi=3), _j: naturals()},
    ground_truth=_mgf_truth,
    numeric_points=({"t": "1.9", "c": "0", "j": "1"}, {"t": "-2.5", "c": "0.7", "j": "4"}),
    property_examples=8,
)

loss_sum_start = Axiom(
    name="loss_sum_start",
    title="definition: S_1 = ℓ_1, the privacy loss of the first coordinate",
    citation="definition: the log-likelihood ratio of the first coordinate at y_1 = μ_1 + σZ_1 (the density of a "
             "product measure is the product of the densities: Billingsley, *Probability and Measure*, 3rd ed., §18)",
    relation=eq(S_vec(1, sigma), _coordinate_loss(1)),
    variables={sigma: positive()},
)

loss_sum_step = Axiom(
    name="loss_sum_step",
    title="definition: S_j = S_{j-1} + ℓ_j, the privacy loss of the first j coordinates",
    citation="definition: the density of N(μ, σ² I_d) is the product of its coordinates' densities (Billingsley, "
             "*Probability and Measure*, 3rd ed., §18), so the log-likelihood ratio of the first j coordinates is the "
             "sum of theirs",
    relation=eq(S_vec(_j, sigma), S_vec(_j - 1, sigma) + _coordinate_loss(_j)),
    variables={_j: Interval.closed(2, sp.oo, integer=True), sigma: positive()},
)

independent_coordinate = Axiom(
    name="independent_coordinate",
    title="the expectation factors over the independent coordinate Z_j and the first j − 1 coordinates",
    citation="independence: E[XY] = E[X] E[Y] for independent non-negative X, Y (values in [0, ∞]); Billingsley, "
             "*Probability and Measure*, 3rd ed., §21; here X = exp(u S_{j-1}) is a function of Z_1, ..., Z_{j-1} and "
             "Y = exp(u ℓ_j) one of Z_j, and the mechanism draws the coordinates of its noise independently",
    relation=eq(Expect(sp.exp(_u * S_vec(_j - 1, sigma) + _u * _coordinate_loss(_j))),
                Expect(sp.exp(_u * S_vec(_j - 1, sigma))) * Expect(sp.exp(_u * _coordinate_loss(_j)))),
    variables={_u: real(), _j: Interval.closed(2, sp.oo, integer=True), sigma: positive()},
)

AXIOMS = [coordinate_normal_mgf, loss_sum_start, loss_sum_step, independent_coordinate]

# -- the hypotheses ----------------------------------------------------------------------------------------------------

gaussian_vector_pair = Hypothesis(
    name="gaussian_vector_pair",
    title="(P, Q) = (N(μ, σ² I_d), N(ν, σ² I_d)): the loss at the output y = μ + σZ ~ P is the sum S_d of the "
          "coordinates' losses",
    relation=eq(L, S_vec(dim, sigma)),
)

l2_sensitivity = Hypothesis(
    name="l2_sensitivity",
    title="neighbouring outputs differ by at most Δ in ℓ₂ norm",
    relation=le(_gap_sum(dim), sensitivity ** 2),
)

# -- the lemma: the MGF of the partial sums, by induction on d ---------------------------------------------------------


def _mgf(n: sp.Expr) -> sp.Expr:
    return sp.exp(lam * (lam + 1) * _gap_sum(n) / (2 * sigma ** 2))


def _step(n: sp.Expr, first: bool, ih=None) -> Chain:
    """E[e^{λ S_n}] = e^{λ(λ+1) Σ_{j≤n} a_j²/(2σ²)}, the last coordinate split off (``first``: n = 1)."""
    t, c = lam * _gap(n) / sigma, lam * _gap(n) ** 2 / (2 * sigma ** 2)
    last = Expect(sp.exp(lam * _coordinate_loss(n)))
    chain = Chain(Expect(sp.exp(lam * S_vec(n, sigma))))
    if first:
        chain = chain.eq(last, by(loss_sum_start, sigma=sigma))
    else:
        chain = (chain
                 .eq(Expect(sp.exp(lam * S_vec(n - 1, sigma) + lam * _coordinate_loss(n))),
                     by(loss_sum_step, j=n, sigma=sigma))
                 .eq(Expect(sp.exp(lam * S_vec(n - 1, sigma))) * last,
                     by(independent_coordinate, u=lam, j=n, sigma=sigma))
                 .eq(_mgf(n - 1) * last, by(ih)))
    before = sp.S.One if first else _mgf(n - 1)
    return chain.eq(before * sp.exp(c + t ** 2 / 2), by(coordinate_normal_mgf, t=t, c=c, j=n)).eq(_mgf(n), algebra())


def make_mgf_lemma(target: sp.Expr | None = None) -> Theorem:
    """The MGF of the partial sums, with the claimed closed form ``target`` (mutants change it)."""
    target = _mgf(dim) if target is None else target
    ih = Hypothesis("ih", title="induction hypothesis",
                    relation=eq(Expect(sp.exp(lam * S_vec(dim, sigma))), _mgf(dim)))
    proof = Chain(Expect(sp.exp(lam * S_vec(dim, sigma)))).eq(_mgf(dim), induction(
        dim, _step(sp.S.One, True), _step(dim + 1, False, ih)))
    if target != _mgf(dim):
        proof = proof.eq(target, algebra())
    return Theorem(
        name="gaussian_vector_mgf",
        reference="R-C2",
        source="Bun & Steinke 2016, Prop. 1.6, arXiv:1605.02065 (the loss of the d-dimensional Gaussian pair)",
        title="MGF of the privacy loss of two isotropic Gaussians in d dimensions",
        variables={dim: naturals(sample_lo=1, sample_hi=6), sigma: positive(sample_lo=0.2, sample_hi=10),
                   lam: real(sample_lo=-3, sample_hi=3)},
        sequences={mu_vec: real(sample_lo=-2, sample_hi=2), nu_vec: real(sample_lo=-2, sample_hi=2)},
        parts=(Part("main", eq(Expect(sp.exp(lam * S_vec(dim, sigma))), target), proof=proof,
                    ground_truth=lambda v, dps: _product_truth(v, dps, clip=False)),),
        numeric_points=({"d": "1", "sigma": "1", "lam": "0.5", "mu_vec": "1", "nu_vec": "0"},
                        {"d": "3", "sigma": "2", "lam": "-1.5", "mu_vec": "0.5 1 -1", "nu_vec": "0 0.3 0.2"}),
        property_examples=8,
        tight="an identity.",
    )


# -- ground truth: the product measure, one quadrature per coordinate --------------------------------------------------

def _gaps(v, clip: bool):
    n = int(v[dim])
    gaps = [v[mu_vec(sp.Integer(j))] - v[nu_vec(sp.Integer(j))] for j in range(1, n + 1)]
    norm = mpmath.sqrt(mpmath.fsum(g * g for g in gaps))
    if clip and norm > v[sensitivity]:  # a pair the hypothesis allows: the difference scaled onto the ball
        gaps = [g * v[sensitivity] / norm for g in gaps]
    return gaps


def _product_truth(v, dps, clip: bool = True):
    """E[e^{λL}] under P = ⊗ N(μ_j, σ²): the product over the coordinates of E[e^{λ ℓ_j(Z_j)}], each by quadrature
    of the definition (not the closed form)."""
    ll, s = v[lam], v[sigma]
    with mpmath.workdps(dps + 10):
        factors = []
        for g in _gaps(v, clip):
            loss = lambda z, g=g: g * z / s + g * g / (2 * s * s)  # noqa: E731
            f = lambda z, loss=loss: mpmath.exp(ll * loss(z) - z * z / 2) / mpmath.sqrt(2 * mpmath.pi)  # noqa: E731
            centre = ll * g / s
            factors.append(mpmath.quad(f, [-mpmath.inf, centre, mpmath.inf]))
        value = mpmath.fprod(factors)
    return [("product of d Gaussian coordinates, one quadrature each", +value)]


# -- the theorem -------------------------------------------------------------------------------------------------------

gaussian_vector_mgf = make_mgf_lemma()
LEMMAS = [gaussian_vector_mgf]


def make(rho: sp.Expr = RHO) -> Theorem:
    """The theorem with the zCDP parameter ``rho`` (tests build mutants with a wrong one)."""
    bound = sp.exp(lam * (lam + 1) * rho)
    proof = (
        Chain(Expect(sp.exp(lam * L)))
        .eq(Expect(sp.exp(lam * S_vec(dim, sigma))), by(gaussian_vector_pair))
        .eq(_mgf(dim), by(gaussian_vector_mgf, lam=lam, d=dim, sigma=sigma))
        .le(sp.exp(lam * (lam + 1) * RHO),
            by(l2_sensitivity, inside=lambda w: sp.exp(lam * (lam + 1) * w / (2 * sigma ** 2))))
    )
    if rho != RHO:
        proof = proof.eq(bound, algebra())
    return Theorem(
        name="gaussian_vector_zcdp",
        reference="R-C2",
        source="Bun & Steinke 2016, Prop. 1.6, arXiv:1605.02065 (f with values in R^d, l2 sensitivity)",
        title="zCDP of the multivariate Gaussian mechanism",
        variables={dim: naturals(sample_lo=1, sample_hi=6), sensitivity: positive(sample_lo=0.05, sample_hi=4),
                   sigma: positive(sample_lo=0.2, sample_hi=10), lam: positive(sample_lo=0.01, sample_hi=4)},
        sequences={mu_vec: real(sample_lo=-2, sample_hi=2), nu_vec: real(sample_lo=-2, sample_hi=2)},
        hypotheses=(gaussian_vector_pair, l2_sensitivity),
        parts=(Part("main", le(Expect(sp.exp(lam * L)), bound), proof=proof, ground_truth=_product_truth),),
        numeric_points=({"d": "1", "Delta": "1", "sigma": "1", "lam": "1", "mu_vec": "1", "nu_vec": "0"},
                        {"d": "3", "Delta": "1.5", "sigma": "2", "lam": "2", "mu_vec": "0.5 1 -1",
                         "nu_vec": "0 0.3 0.2"},
                        {"d": "2", "Delta": "5", "sigma": "0.5", "lam": "0.3", "mu_vec": "3 0", "nu_vec": "0 4"},
                        {"d": "4", "Delta": "0.1", "sigma": "3", "lam": "3.5", "mu_vec": "0.1 0.1 0.1 0.1",
                         "nu_vec": "0 0 0 0"}),
        property_examples=10,
        tight="equality at every order when the mean vectors are Δ apart in ℓ2 norm.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("E e^{λS_d} = e^{λ² Σ a_j²/(2σ²)}: the mean's term λ dropped",
         make_mgf_lemma(sp.exp(lam ** 2 * _gap_sum(dim) / (2 * sigma ** 2)))),
        ("ρ = Δ²/(4σ²): halved", make(sensitivity ** 2 / (4 * sigma ** 2))),
        ("ρ = Δ/(2σ²): the square dropped", make(sensitivity / (2 * sigma ** 2))),
    ]
