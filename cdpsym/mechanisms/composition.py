r"""Composition of mechanisms: exact for Gaussians and for randomized response.

One entry point, :func:`compose`::

    compose(m1, m2, m3)            # the three mechanisms, run one after another
    compose(m, k=100)              # m, a hundred times
    compose(m1, m2, k=3)           # m1, m2, m1, m2, m1, m2

``k`` may be a positive integer or a symbol; parts may themselves be
compositions (they are flattened).  The result is a value object whose
class says what is known exactly:

* :class:`ComposedGaussian` — Gaussians compose to a Gaussian: the worst
  pair of ``N(0, σ_i²)`` vs ``N(Δ_i, σ_i²)`` in every coordinate has the
  privacy loss of one Gaussian with ``τ² = Σ (Δ_i/σ_i)²`` (R-B8, R-C1, R-C7),
  so every profile method delegates to
  ``equivalent = Gaussian(sensitivity=sqrt(Σ (Δ_i/σ_i)²), sigma=1)``.

* :class:`ComposedRandomizedResponse` — products of randomized response,
  which is also the worst case of composing pure-DP mechanisms (Kairouz–Oh–
  Viswanath).  The exact profile is the Murtagh–Vadhan sum (R-F8)

  .. math:: \delta(\varepsilon')=\frac{1}{\prod_i(1+e^{\varepsilon_i})}\sum_{S\subseteq[k]}
            \max\Big(0,\ e^{\sum_{i\in S}\varepsilon_i}
            -e^{\varepsilon'}e^{\sum_{i\notin S}\varepsilon_i}\Big),

  which for ``ε_1 = … = ε_k = ε`` is the binomial sum of R-F7

  .. math:: \delta(\varepsilon')=\frac{1}{(1+e^\varepsilon)^k}\sum_{i=0}^{k}\binom ki
            \max\big(0,\ e^{i\varepsilon}-e^{\varepsilon'}e^{(k-i)\varepsilon}\big).

* :class:`Composition` — anything else (e.g. Laplace): the Rényi divergence
  and KL add up exactly (R-D4 holds with equality for products), but no
  exact privacy profile is implemented; :meth:`Composition.delta` says so.

How the randomized-response profile is computed (and where it stops being
feasible):

* **Homogeneous** (one ``ε``, any ``k``): the sum is written as
  ``Σ_{i>i0} b_i (1 - e^{ε' - (2i-k)ε})`` with ``b_i`` the Binomial(k, p)
  probabilities — positive terms only, each with ``expm1``, so nothing
  cancels — summed outward from the mode and truncated when the geometric
  tail bound falls below the working precision.  Cost ``O(√k · √dps)``
  terms; ``k = 10^5`` takes milliseconds and never overflows (mpmath has an
  unbounded exponent range).
* **Heterogeneous**: exact dynamic programming over the privacy-loss
  distribution, merging equal losses exactly (``Fraction`` keys; floats are
  taken at their binary value).  Exact always; feasible while the number of
  distinct losses stays below ``max_atoms`` (default ``2**20``): that is
  ``k <= 20`` for generic distinct ``ε_i``, and far larger ``k`` when the
  ``ε_i`` repeat or lie on a common grid (a group of ``c`` equal ``ε`` adds
  only ``c + 1`` atoms).  Beyond that :class:`~cdpsym.errors.InvalidParameter`
  is raised rather than hanging.
* ``epsilon(delta)`` locates the piece of the piecewise-smooth profile that
  contains the root (binary search over the kinks ``(2j-k)ε`` for the
  homogeneous case, one pass over the sorted losses otherwise) and solves
  ``δ = D_j - (e^{ε'-L_j} - 1) F_j`` on it in closed form, escalating
  precision when ``delta`` is close to a kink value.

The class-level statements — "every k-fold composition of ``(ε_i, δ_i)``-DP
mechanisms is ``(ε', δ')``-DP iff …" — are :func:`optimal_composition_delta`
and :func:`optimal_composition_epsilon` (R-F7, R-F8).

References: Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776;
Murtagh & Vadhan 2016, Thm 1.5 (numbering unchecked), arXiv:1507.03113;
Bun & Steinke 2016, Lemma 1.7 (zCDP composition), arXiv:1605.02065; Mironov 2017, Prop. 1,
arXiv:1702.07476v3.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Union

import mpmath
import sympy as sp
from mpmath import mp

from cdpsym.errors import InvalidParameter
from cdpsym.expr import symbols
from cdpsym.mechanisms._common import (GUARD, LatexMixin, check_dps, escalate, exact_key, fmt,
                                       key_to_mpf, parameter, require_numeric, round_to, to_mpf)
from cdpsym.mechanisms.gaussian import Gaussian
from cdpsym.mechanisms.laplace import Laplace
from cdpsym.mechanisms.profile import DensityPair, product_distribution
from cdpsym.mechanisms.randomized_response import RandomizedResponse

__all__ = [
    "compose",
    "Composition",
    "ComposedGaussian",
    "ComposedRandomizedResponse",
    "optimal_composition_delta",
    "optimal_composition_epsilon",
]

Mechanism = Union[Gaussian, Laplace, RandomizedResponse]
_BASE_TYPES = (Gaussian, Laplace, RandomizedResponse)
MAX_ATOMS = 2 ** 20


def compose(*mechanisms: Union[Mechanism, "Composition"], k: object = 1) -> "Composition":
    """The composition of *mechanisms* (in order), the whole sequence repeated *k* times.

    >>> compose(Gaussian(1, 2), k=10)
    compose(Gaussian(sensitivity=1, sigma=2), k=10)
    >>> compose(Gaussian(1, 2), k=10).equivalent
    Gaussian(sensitivity=sqrt(10)/2, sigma=1)
    >>> rr = compose(RandomizedResponse(sp.Rational(1, 10)), k=100)
    >>> mp.nstr(rr.epsilon(1e-6), 12)
    '4.77456758811'
    """
    probe = Composition(mechanisms, k)
    bases = [base for base, _ in probe.groups]
    if all(isinstance(b, Gaussian) for b in bases):
        return ComposedGaussian(probe.mechanisms, probe.k)
    if all(isinstance(b, RandomizedResponse) for b in bases):
        return ComposedRandomizedResponse(probe.mechanisms, probe.k)
    return probe


@dataclass(frozen=True, repr=False)
class Composition(LatexMixin):
    """``mechanisms`` run one after another, the sequence repeated ``k`` times; build with :func:`compose`."""

    mechanisms: tuple[Union[Mechanism, "Composition"], ...]
    k: sp.Expr = sp.Integer(1)

    def __post_init__(self) -> None:
        mechanisms = tuple(self.mechanisms)
        if not mechanisms:
            raise InvalidParameter("compose needs at least one mechanism, got none")
        for m in mechanisms:
            if not isinstance(m, (*_BASE_TYPES, Composition)):
                raise InvalidParameter(f"compose takes mechanisms, got {m!r}")
        object.__setattr__(self, "mechanisms", mechanisms)
        object.__setattr__(self, "k", parameter("k", self.k, positive=True, integer=True))

    # -- structure ---------------------------------------------------------------------------------
    @cached_property
    def groups(self) -> tuple[tuple[Mechanism, sp.Expr], ...]:
        """The distinct base mechanisms with their multiplicities (nested compositions flattened)."""
        if len(self.mechanisms) == 1 and not isinstance(self.mechanisms[0], Composition):
            return ((self.mechanisms[0], self.k),)  # the common case, without hashing sympy numbers
        merged: dict[Mechanism, sp.Expr] = {}
        for m in self.mechanisms:
            parts = m.groups if isinstance(m, Composition) else ((m, sp.Integer(1)),)
            for base, count in parts:
                merged[base] = merged.get(base, sp.Integer(0)) + count * self.k
        return tuple(merged.items())

    def counts(self) -> list[tuple[Mechanism, int]]:
        """:attr:`groups` with integer multiplicities; raises when anything is symbolic."""
        out = []
        for base, count in self.groups:
            if not count.is_Integer:
                raise InvalidParameter(f"k is symbolic (multiplicity {count}) in {self!r}; "
                                       "a numeric evaluation needs integer k")
            require_numeric(base, **base.parameters)
            out.append((base, int(count)))
        return out

    def __repr__(self) -> str:
        inner = ", ".join(repr(m) for m in self.mechanisms)
        return f"compose({inner})" if self.k == 1 else f"compose({inner}, k={fmt(self.k)})"

    def latex(self) -> str:
        parts = [m.latex() for m in self.mechanisms]
        body = r" \otimes ".join(parts)
        if self.k == 1:
            return body
        if len(parts) > 1:
            body = rf"\left({body}\right)"
        return rf"{body}^{{\otimes {sp.latex(self.k)}}}"

    # -- closed forms --------------------------------------------------------------------------------
    def renyi_divergence(self, alpha: object) -> sp.Expr:
        """``Σ_i D_α(P_i||Q_i)``: Rényi divergence is additive on products (R-D4, with equality)."""
        return sp.Add(*(count * base.renyi_divergence(alpha) for base, count in self.groups))

    def kl(self) -> sp.Expr:
        """``Σ_i D_KL(P_i||Q_i)``."""
        return sp.Add(*(count * base.kl() for base, count in self.groups))

    # -- numbers ---------------------------------------------------------------------------------------
    def delta(self, eps: object, dps: int = 50) -> mpmath.mpf:
        """The exact profile — only for compositions of Gaussians or of randomized response."""
        raise InvalidParameter(f"no exact privacy profile is implemented for {self!r}; "
                               "exact profiles exist for compositions of Gaussians or of randomized response")

    def epsilon(self, delta: object, dps: int = 50) -> mpmath.mpf:
        """The inverse profile — only for compositions of Gaussians or of randomized response."""
        raise InvalidParameter(f"no exact privacy profile is implemented for {self!r}; "
                               "exact profiles exist for compositions of Gaussians or of randomized response")


@dataclass(frozen=True, repr=False)
class ComposedGaussian(Composition):
    """A composition of Gaussian mechanisms: exactly one Gaussian with ``τ² = Σ (Δ_i/σ_i)²``.

    >>> c = compose(Gaussian(1, 1), Gaussian(2, 3))
    >>> c.rho, c.equivalent
    (13/18, Gaussian(sensitivity=sqrt(13)/3, sigma=1))
    """

    @cached_property
    def tau(self) -> sp.Expr:
        """``sqrt(Σ (Δ_i/σ_i)²)``."""
        return sp.sqrt(sp.Add(*(count * base.tau ** 2 for base, count in self.groups)))  # type: ignore[union-attr]

    @cached_property
    def equivalent(self) -> Gaussian:
        """The single Gaussian with the same privacy loss distribution."""
        return Gaussian(sensitivity=self.tau, sigma=1)

    @property
    def rho(self) -> sp.Expr:
        """``Σ ρ_i`` (zCDP composes additively, R-C7; here it is also exact)."""
        return sp.Add(*(count * base.rho for base, count in self.groups))  # type: ignore[union-attr]

    @property
    def privacy_loss_mean(self) -> sp.Expr:
        return self.rho

    @property
    def privacy_loss_variance(self) -> sp.Expr:
        return 2 * self.rho

    def privacy_profile(self, eps: object = symbols.eps) -> sp.Expr:
        return self.equivalent.privacy_profile(eps)

    def delta(self, eps: object, dps: int = 50) -> mpmath.mpf:
        """The exact profile of the composition (the equivalent Gaussian's, R-E4)."""
        self.counts()
        return self.equivalent.delta(eps, dps)

    def epsilon(self, delta: object, dps: int = 50) -> mpmath.mpf:
        """The least ``ε >= 0`` with ``δ(ε) <= delta`` (the equivalent Gaussian's)."""
        self.counts()
        return self.equivalent.epsilon(delta, dps)

    def densities(self) -> DensityPair:
        """The densities of the one-dimensional equivalent pair (a sufficient statistic of the product)."""
        return self.equivalent.densities()


@dataclass(frozen=True, repr=False)
class ComposedRandomizedResponse(Composition):
    """A composition of randomized responses: the exact profile is R-F7 / R-F8.

    ``compose(RandomizedResponse(eps), k=k)`` is also the worst case of the
    k-fold adaptive composition of arbitrary ``eps``-DP mechanisms (R-F7).

    >>> c = compose(RandomizedResponse(sp.Rational(2, 5)), k=7)
    >>> c.eps
    14/5
    >>> mp.nstr(c.delta(sp.Rational(6, 5)), 15)
    '0.0932338754919174'
    """

    @property
    def eps(self) -> sp.Expr:
        """``Σ ε_i``: the composition is exactly ``Σ ε_i``-DP (and ``δ(Σ ε_i) = 0``)."""
        return sp.Add(*(count * base.eps for base, count in self.groups))  # type: ignore[union-attr]

    def _rr_groups(self) -> list[tuple[sp.Expr, int]]:
        return [(base.eps, count) for base, count in self.counts()]  # type: ignore[union-attr]

    def delta(self, eps: object, dps: int = 50, *, max_atoms: int = MAX_ATOMS) -> mpmath.mpf:
        """The exact ``δ(ε')`` at ``ε' = eps`` (any real), to *dps* digits (R-F7 / R-F8)."""
        check_dps(dps)
        return rr_composition_delta(self._rr_groups(), eps, dps, max_atoms)

    def epsilon(self, delta: object, dps: int = 50, *, max_atoms: int = MAX_ATOMS) -> mpmath.mpf:
        """The least ``ε' >= 0`` with ``δ(ε') <= delta``, to *dps* digits."""
        check_dps(dps)
        with mp.workdps(dps + GUARD):
            target = to_mpf(delta, "delta")
        if not 0 <= target <= 1:
            raise InvalidParameter(f"delta must be in [0, 1], got delta={fmt(delta)}")
        return rr_composition_epsilon(self._rr_groups(), delta, dps, max_atoms)

    def privacy_loss_distribution(self, dps: int = 50, *,
                                  max_atoms: int = MAX_ATOMS) -> dict[Union[Fraction, sp.Expr], mpmath.mpf]:
        """The distribution of ``L`` under ``P``: ``{loss: probability}``, losses exact (Fraction or sympy)."""
        check_dps(dps)
        groups = _clean_groups(self._rr_groups())
        with mp.workdps(dps + _guard(groups)):
            atoms = _loss_atoms(groups, max_atoms)
        return {key: round_to(prob, dps) for _, prob, key in atoms}

    def distributions(self, dps: int = 50, *, max_atoms: int = MAX_ATOMS) -> tuple[dict, dict]:
        """The explicit product pair ``(P_1 × … × P_k, Q_1 × … × Q_k)`` (``2**k`` atoms; small ``k`` only)."""
        check_dps(dps)
        factors_p, factors_q = [], []
        for base, count in self.counts():
            P, Q = base.distributions(dps)  # type: ignore[union-attr]
            factors_p += [P] * count
            factors_q += [Q] * count
        return (product_distribution(*factors_p, dps=dps, max_atoms=max_atoms),
                product_distribution(*factors_q, dps=dps, max_atoms=max_atoms))


# -- the class-level theorems (R-F7, R-F8) ------------------------------------------------------------

def _group_epsilons(epsilons: Iterable[object]) -> list[tuple[sp.Expr, int]]:
    raw: dict[object, int] = {}
    for e in epsilons:
        raw[e] = raw.get(e, 0) + 1
    merged: dict[sp.Expr, int] = {}
    for e, count in raw.items():
        value = parameter("eps_i", e, nonnegative=True)
        merged[value] = merged.get(value, 0) + count
    if not merged:
        raise InvalidParameter("epsilons must list at least one eps_i, got none")
    return list(merged.items())


def _survival(deltas: Sequence[object] | None) -> mpmath.mpf:
    """``Π (1 - δ_i)`` at the current precision."""
    log_total = mp.zero
    for d in deltas or ():
        value = to_mpf(d, "delta_i")
        if not 0 <= value < 1:
            raise InvalidParameter(f"delta_i must be in [0, 1), got delta_i={fmt(d)}")
        log_total += mp.log1p(-value)
    return mp.exp(log_total)


def optimal_composition_delta(eps_p: object, epsilons: Iterable[object], deltas: Sequence[object] | None = None,
                              *, dps: int = 50, max_atoms: int = MAX_ATOMS) -> mpmath.mpf:
    """The least ``δ'`` such that every composition of ``(ε_i, δ_i)``-DP mechanisms is ``(ε', δ')``-DP.

    By R-F8 (Murtagh–Vadhan; R-F7 when all ``ε_i`` are equal) this is
    ``1 - Π(1-δ_i) (1 - δ_RR(ε'))`` with ``δ_RR`` the profile of the product
    of randomized responses ``RR_{ε_i}``.

    >>> mp.nstr(optimal_composition_delta(0.5, [0.3, 0.7, 1.1]), 15)
    '0.390612838363945'
    """
    check_dps(dps)
    groups = _group_epsilons(epsilons)
    rr = rr_composition_delta(groups, eps_p, dps + 5, max_atoms)
    with mp.workdps(dps + GUARD):
        survival = _survival(deltas)
        value = (1 - survival) + survival * rr
    return round_to(value, dps)


def optimal_composition_epsilon(delta_p: object, epsilons: Iterable[object], deltas: Sequence[object] | None = None,
                                *, dps: int = 50, max_atoms: int = MAX_ATOMS) -> mpmath.mpf:
    """The least ``ε' >= 0`` such that every composition of ``(ε_i, δ_i)``-DP mechanisms is ``(ε', δ_p)``-DP.

    ``inf`` when no ``ε'`` works (``δ_p < 1 - Π(1-δ_i)``).

    >>> mp.nstr(optimal_composition_epsilon(1e-6, [0.1] * 100), 12)
    '4.77456758811'
    """
    check_dps(dps)
    groups = _group_epsilons(epsilons)
    with mp.workdps(dps + GUARD):
        target = to_mpf(delta_p, "delta")
        if not 0 <= target <= 1:
            raise InvalidParameter(f"delta must be in [0, 1], got delta={fmt(delta_p)}")
        survival = _survival(deltas)
        rr_target = (target - (1 - survival)) / survival
    if rr_target < 0:
        return mp.inf
    return rr_composition_epsilon(groups, rr_target, dps, max_atoms)


# -- numeric engine ---------------------------------------------------------------------------------------

def _clean_groups(groups: Iterable[tuple[sp.Expr, int]]) -> list[tuple[sp.Expr, int]]:
    """Drop ``ε = 0`` factors (they are fair coins, loss 0) and empty groups; merge equal ``ε``."""
    merged: dict[sp.Expr, int] = {}
    for e, count in groups:
        if count > 0 and e != 0:
            merged[e] = merged.get(e, 0) + count
    return list(merged.items())


def _guard(groups: list[tuple[sp.Expr, int]]) -> int:
    total = sum(count for _, count in groups)
    return GUARD + 2 * len(str(total + 1))


def _binomial_tail(k: int, eps: mpmath.mpf, m: int, eps_p: mpmath.mpf | None = None,
                   swap: bool = False) -> mpmath.mpf:
    """``Σ_{i=m}^{k} C(k,i) p^i q^(k-i) w(i)``, ``p = e^ε/(1+e^ε)``, ``q = 1 - p`` (exchanged if *swap*).

    The weight is ``w(i) = (1 - e^{ε' - (2i-k)ε})_+`` when *eps_p* (``ε'``) is
    given, else ``1``; it lies in ``[0, 1]`` and does not decrease in ``i``.
    The sum starts at ``max(m, mode)`` and walks outward; each direction stops
    when the geometric bound on its remaining terms is below ``10^-(dps+2)`` of
    the total, so only ``O(√k)`` terms are visited.  ``e^{ε' - (2i-k)ε}`` is
    updated multiplicatively and ``1 - e^x`` taken with ``expm1`` wherever
    ``e^x > 1/2``, so no weight loses relative precision.
    """
    if m > k:
        return mp.zero
    m = max(m, 0)
    log_p, log_q = -mp.log1p(mp.exp(-eps)), -mp.log1p(mp.exp(eps))
    if swap:
        log_p, log_q = log_q, log_p
    up_ratio = mp.exp(log_p - log_q)
    mode = min(k, max(0, int(mp.floor((k + 1) * mp.exp(log_p)))))
    start = max(m, mode)
    tol = mp.mpf(10) ** (-(mp.dps + 2))
    half = mp.mpf(1) / 2
    step = mp.exp(-2 * eps)

    def exact_ratio(i: int) -> mpmath.mpf:  # e^{ε' - l_i}
        return mp.exp(eps_p - (2 * i - k) * eps)

    def weight(i: int, g: mpmath.mpf) -> mpmath.mpf:
        if eps_p is None:
            return mp.one
        return max(mp.zero, -mp.expm1(eps_p - (2 * i - k) * eps)) if g > half else 1 - g

    b_start = mp.exp(mp.loggamma(k + 1) - mp.loggamma(start + 1) - mp.loggamma(k - start + 1)
                     + start * log_p + (k - start) * log_q)
    g_start = exact_ratio(start) if eps_p is not None else mp.zero
    total = b_start * weight(start, g_start)
    term, g, i = b_start, g_start, start
    while i < k:  # upward: the ratio (k-i)/(i+1) * p/q decreases in i
        term *= (k - i) / mp.mpf(i + 1) * up_ratio
        g *= step
        i += 1
        total += term * weight(i, g)
        ratio = (k - i) / mp.mpf(i + 1) * up_ratio
        if ratio < 1 and total > 0 and term * ratio / (1 - ratio) <= total * tol:
            break
    term, g, i = b_start, g_start, start
    while i > m:  # downward: the ratio i/(k-i+1) * q/p decreases as i decreases, and so does w
        ratio = i / mp.mpf(k - i + 1) / up_ratio
        term *= ratio
        g /= step
        i -= 1
        contribution = term * weight(i, g)
        total += contribution
        if ratio < 1 and contribution * ratio / (1 - ratio) <= total * tol:
            break
    return total


def _homogeneous_delta(eps: mpmath.mpf, k: int, eps_p: mpmath.mpf) -> mpmath.mpf:
    """R-F7 at the current precision: ``Σ_{i: (2i-k)ε > ε'} b_i (1 - e^{ε' - (2i-k)ε})``."""
    first = int(mp.floor((k + eps_p / eps) / 2)) + 1
    return _binomial_tail(k, eps, first, eps_p)


def _loss_atoms(groups: list[tuple[sp.Expr, int]], max_atoms: int
                ) -> list[tuple[mpmath.mpf, mpmath.mpf, Union[Fraction, sp.Expr]]]:
    """The privacy-loss distribution of the product, ``(loss, probability, exact loss)``, losses descending."""
    dist: dict[Union[Fraction, sp.Expr], mpmath.mpf] = {Fraction(0): mp.one}
    for eps_expr, count in groups:
        if len(dist) * (count + 1) > max_atoms:
            raise InvalidParameter(
                f"the composed privacy-loss distribution would exceed max_atoms={max_atoms} atoms; "
                "heterogeneous randomized-response composition is exact but exponential in the number "
                "of distinct eps_i")
        key = exact_key(eps_expr)
        e = to_mpf(eps_expr, "eps_i")
        ratio = mp.exp(e)
        mass = mp.exp(-count * mp.log1p(ratio))  # q^count
        factor = []
        for j in range(count + 1):
            factor.append(((2 * j - count) * key, mass))
            mass = mass * (count - j) / (j + 1) * ratio
        new: dict[Union[Fraction, sp.Expr], mpmath.mpf] = {}
        for loss, prob in dist.items():
            for step, weight in factor:
                total = loss + step
                new[total] = new.get(total, mp.zero) + prob * weight
        dist = new
    atoms = [(key_to_mpf(loss), prob, loss) for loss, prob in dist.items()]
    atoms.sort(key=lambda atom: atom[0], reverse=True)
    return atoms


def rr_composition_delta(groups: list[tuple[sp.Expr, int]], eps_p: object, dps: int,
                         max_atoms: int = MAX_ATOMS) -> mpmath.mpf:
    """``δ(ε')`` of the product of ``RR_{ε_g}^{⊗ c_g}`` over ``groups = [(ε_g, c_g), …]``."""
    groups = _clean_groups(groups)
    with mp.workdps(dps + _guard(groups)):
        e_p = to_mpf(eps_p, "eps")
        if not groups:  # all factors are fair coins: P = Q
            value = max(mp.zero, -mp.expm1(e_p))
        elif len(groups) == 1:
            eps_expr, k = groups[0]
            value = _homogeneous_delta(to_mpf(eps_expr, "eps"), k, e_p)
        else:
            value = mp.zero
            for loss, prob, _ in _loss_atoms(groups, max_atoms):
                if loss <= e_p:
                    break
                value += prob * -mp.expm1(e_p - loss)
    return round_to(value, dps)


def rr_composition_epsilon(groups: list[tuple[sp.Expr, int]], delta: object, dps: int,
                           max_atoms: int = MAX_ATOMS) -> mpmath.mpf:
    """The least ``ε' >= 0`` with ``δ(ε') <= delta`` for the product over *groups*."""
    groups = _clean_groups(groups)
    guard = _guard(groups)

    def kernel(w: int) -> tuple[mpmath.mpf, mpmath.mpf]:
        with mp.workdps(w + guard - GUARD):
            t = to_mpf(delta, "delta")
            if not groups or rr_composition_delta(groups, 0, mp.dps, max_atoms) <= t:
                return mp.zero, mp.zero
            if len(groups) == 1:
                kink, d_kink, f_kink = _homogeneous_piece(groups[0], t)
            else:
                kink, d_kink, f_kink = _heterogeneous_piece(_loss_atoms(groups, max_atoms), t)
            # on the piece below the kink L: δ(ε') = D - (e^{ε'-L} - 1) F, decreasing in ε'
            x = (t - d_kink) / f_kink
            root = kink + mp.log1p(-x)
            scale = abs(kink) + (d_kink + t) / (f_kink * (1 - x)) + 1
            return max(root, mp.zero), (scale if root > 0 else mp.zero)

    return escalate(kernel, dps, "the composed randomized-response epsilon")


def _homogeneous_piece(group: tuple[sp.Expr, int], t: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """``(L, D, F)`` for the lowest kink ``L = (2j-k)ε`` with ``δ(L) = D <= t``; ``F = Σ_{i>=j} b_i e^{L-l_i}``."""
    eps_expr, k = group
    eps = to_mpf(eps_expr, "eps")

    cache: dict[tuple[int, int], mpmath.mpf] = {}

    def kink_delta(j: int) -> mpmath.mpf:
        if (j, mp.prec) not in cache:
            cache[j, mp.prec] = _homogeneous_delta(eps, k, (2 * j - k) * eps)
        return cache[j, mp.prec]

    # locate the piece at low precision (cheap), then confirm it at the working precision
    floor_j = (k + 1) // 2 - 1  # δ(l_floor) >= δ(0) > t since l_floor < 0; δ(l_k) = 0 <= t
    lo, hi = floor_j, k
    with mp.workdps(min(mp.dps, 20)):
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if kink_delta(mid) <= t:
                hi = mid
            else:
                lo = mid
    while hi < k and kink_delta(hi) > t:
        hi += 1
    while hi - 1 > floor_j and kink_delta(hi - 1) <= t:
        hi -= 1
    kink = (2 * hi - k) * eps
    f_kink = mp.exp(kink) * _binomial_tail(k, eps, hi, swap=True)
    return kink, kink_delta(hi), f_kink


def _heterogeneous_piece(atoms: list[tuple[mpmath.mpf, mpmath.mpf, object]],
                         t: mpmath.mpf) -> tuple[mpmath.mpf, mpmath.mpf, mpmath.mpf]:
    """``(L_j, D_j, F_j)`` for the lowest loss ``L_j`` with ``δ(L_j) = D_j <= t``.

    Walks the losses downward with the cancellation-free recurrences
    ``D_{j+1} = D_j + F_j (1 - e^{L_{j+1} - L_j})`` and
    ``F_{j+1} = e^{L_{j+1} - L_j} F_j + P_{j+1}`` (``F_j = Σ_{i<=j} P_i e^{L_j - L_i}``).
    """
    loss, d, f = atoms[0][0], mp.zero, atoms[0][1]
    for next_loss, prob, _ in atoms[1:]:
        shrink = mp.exp(next_loss - loss)
        next_d = d + f * -mp.expm1(next_loss - loss)
        if next_d > t:
            break
        loss, d, f = next_loss, next_d, shrink * f + prob
    return loss, d, f
