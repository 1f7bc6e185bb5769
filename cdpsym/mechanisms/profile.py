r"""Independent ground truths: divergences computed from the definitions, not from closed forms.

Every closed form in :mod:`cdpsym.mechanisms` is checked against these
functions, which know nothing about any particular mechanism: they take the
two output distributions of a neighbouring pair and evaluate the definition.

* Hockey-stick divergence (R-A6), the privacy profile at one ``eps``:

  .. math:: \delta_{P\|Q}(\varepsilon)=\int\big(p(y)-e^{\varepsilon}q(y)\big)_+\,dy
            =\sum_y\big(P(y)-e^{\varepsilon}Q(y)\big)_+ .

* Rényi divergence (R-A4) and KL divergence (R-A2):

  .. math:: D_\alpha(P\|Q)=\frac{1}{\alpha-1}\log\int p^{\alpha}q^{1-\alpha},\qquad
            D_{\mathrm{KL}}(P\|Q)=\int p\log\frac pq .

Continuous pairs are :class:`DensityPair` objects (two mpmath callables plus
the points where they are not smooth) integrated by tanh-sinh quadrature
(``mpmath.quad``), split at every kink and at every crossing of ``p`` and
``e^eps q`` so that each piece is analytic and the quadrature converges to
the working precision.  Finite pairs are dicts ``atom -> probability``
(or equal-length sequences) summed exactly at the working precision;
:func:`product_distribution` builds k-fold products explicitly, which is the
enumeration ground truth for composed randomized response.

All functions take ``dps`` (decimal digits of the result), compute with guard
digits inside ``mp.workdps`` and return ``mpf``.

References: R-A2, R-A4, R-A6 of ``REFERENCE.md``; hockey-stick form of
(ε,δ)-DP: Canonne, Kamath & Steinke 2020, §2.3, arXiv:2004.00010v4; privacy
profiles: Balle, Barthe & Gaboardi 2018, arXiv:1807.01647.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Union

import mpmath
import sympy as sp
from mpmath import mp

from cdpsym.errors import InvalidParameter, PrecisionError
from cdpsym.mechanisms._common import GUARD, check_dps, order, round_to, solve_decreasing, to_mpf

__all__ = [
    "DensityPair",
    "find_crossings",
    "hockey_stick_by_quadrature",
    "renyi_by_quadrature",
    "kl_by_quadrature",
    "Distribution",
    "hockey_stick_discrete",
    "renyi_discrete",
    "kl_discrete",
    "product_distribution",
]

Density = Callable[[mpmath.mpf], mpmath.mpf]
Distribution = Union[Mapping[Hashable, object], Sequence[object]]

_QUAD_GUARD = 10


# -- continuous pairs ------------------------------------------------------------------------------

@dataclass(frozen=True)
class DensityPair:
    """A neighbouring pair ``(P, Q)`` given by densities on the real line.

    ``p`` and ``q`` are callables ``mpf -> mpf`` that compute at the caller's
    current mpmath precision.  ``kinks`` are the points where either density
    is not analytic (Laplace: its two centres); ``search`` is the finite
    interval scanned for crossings of ``p`` and ``e^eps q`` when none are
    given.  Unpacks like a tuple: ``p, q = pair``.
    """

    p: Density
    q: Density
    kinks: tuple[sp.Expr, ...] = ()
    search: tuple[sp.Expr, sp.Expr] = (sp.Integer(-30), sp.Integer(30))
    description: str = field(default="", compare=False)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter((self.p, self.q))

    def __repr__(self) -> str:
        return f"DensityPair({self.description})" if self.description else super().__repr__()

    def hockey_stick(self, eps: object, dps: int = 50) -> mpmath.mpf:
        """``∫ (p - e^eps q)_+`` by quadrature (:func:`hockey_stick_by_quadrature`)."""
        return hockey_stick_by_quadrature(self.p, self.q, eps, dps=dps, breakpoints=self.kinks,
                                          search=self.search)

    def renyi(self, alpha: object, dps: int = 50) -> mpmath.mpf:
        """``D_alpha(P || Q)`` by quadrature (:func:`renyi_by_quadrature`)."""
        return renyi_by_quadrature(self.p, self.q, alpha, dps=dps, breakpoints=self.kinks)

    def kl(self, dps: int = 50) -> mpmath.mpf:
        """``D_KL(P || Q)`` by quadrature (:func:`kl_by_quadrature`)."""
        return kl_by_quadrature(self.p, self.q, dps=dps, breakpoints=self.kinks)


def find_crossings(p: Density, q: Density, eps: object, search: tuple[object, object] = (-30, 30),
                   grid: int = 240, dps: int = 50) -> list[mpmath.mpf]:
    """Points of ``search`` where ``p(y) - e^eps q(y)`` changes sign, refined to the working precision.

    A uniform grid of ``grid`` cells is scanned and each sign change refined by
    the Illinois iteration (bisection-safeguarded) to ``10^-(dps+5)``.
    Crossings outside ``search``, or two crossings inside one grid cell, are
    not found — pass them as ``breakpoints`` when you know them.
    """
    check_dps(dps)
    with mp.workdps(dps + _QUAD_GUARD):
        e = mp.exp(to_mpf(eps, "eps"))
        lo, hi = to_mpf(search[0], "search"), to_mpf(search[1], "search")
        if not lo < hi:
            raise InvalidParameter(f"search must be an interval lo < hi, got search={search!r}")

        def g(y: mpmath.mpf) -> mpmath.mpf:
            return p(y) - e * q(y)

        tol = mp.mpf(10) ** (-(dps + 5))
        h = (hi - lo) / grid
        xs = [lo + j * h for j in range(grid + 1)]
        values = [g(x) for x in xs]
        crossings = []
        for j in range(grid):
            a, b, ga, gb = xs[j], xs[j + 1], values[j], values[j + 1]
            if ga == 0:
                crossings.append(a)
                continue
            if ga * gb >= 0:
                continue
            # Illinois with a bisection safeguard, on g oriented to be decreasing across the cell
            sign = 1 if ga > 0 else -1
            root = solve_decreasing(lambda y: sign * g(y), a, b, tol, abs_tol=tol)
            crossings.append(root)
        return [+c for c in crossings]


def _pieces(breakpoints: Iterable[object]) -> list[mpmath.mpf]:
    points = sorted({to_mpf(b, "breakpoint") for b in breakpoints})
    return [mp.ninf, *points, mp.inf]


def _quad(f: Density, points: list[mpmath.mpf], dps: int, what: str) -> mpmath.mpf:
    """``∫ f`` over the real line split at *points*, checking mpmath's error estimate.

    mpmath's tanh-sinh rule stops on an *absolute* tolerance ``10^-dps``, which
    would accept any answer for an integral of size ``1e-300``; so each piece
    is first estimated at low precision and then integrated rescaled by that
    estimate, making the tolerance relative.
    """
    total = mp.zero
    error = mp.zero
    for a, b in zip(points[:-1], points[1:]):
        if a == b:
            continue
        with mp.workdps(15):
            rough = mp.quad(f, [a, b], maxdegree=6)
        if rough == 0:
            continue
        scale = abs(rough)
        value, err = mp.quad(lambda y: f(y) / scale, [a, b], error=True, maxdegree=10)
        total += value * scale
        error += err * scale
    if total != 0 and error > abs(total) * mp.mpf(10) ** (-(dps + 2)):
        raise PrecisionError(
            f"{what}: quadrature error estimate {mp.nstr(error, 3)} exceeds the requested {dps} digits")
    return total


def hockey_stick_by_quadrature(p: Density, q: Density, eps: object, *, dps: int = 50,
                               breakpoints: Iterable[object] = (), search: tuple[object, object] = (-30, 30),
                               find: bool = True) -> mpmath.mpf:
    """``∫ (p(y) - e^eps q(y))_+ dy`` by quadrature, split at kinks and crossings.

    *breakpoints* are points where the integrand may fail to be analytic (kinks
    of the densities, known crossings); with ``find=True`` the crossings of
    ``p`` and ``e^eps q`` inside *search* are located numerically
    (:func:`find_crossings`) and added.  Raises :class:`PrecisionError` when
    mpmath's error estimate does not reach *dps* digits.

    >>> p = lambda y: mp.npdf(y, 0, 1)
    >>> q = lambda y: mp.npdf(y, 1, 1)
    >>> mp.nstr(hockey_stick_by_quadrature(p, q, 1, dps=30), 18)
    '0.126936737506643946'
    """
    check_dps(dps)
    with mp.workdps(dps + _QUAD_GUARD):
        e = mp.exp(to_mpf(eps, "eps"))
        points = list(breakpoints)
        if find:
            points += find_crossings(p, q, eps, search=search, dps=dps)

        def integrand(y: mpmath.mpf) -> mpmath.mpf:
            return max(mp.zero, p(y) - e * q(y))

        value = _quad(integrand, _pieces(points), dps, "hockey_stick_by_quadrature")
    return round_to(value, dps)


def renyi_by_quadrature(p: Density, q: Density, alpha: object, *, dps: int = 50,
                        breakpoints: Iterable[object] = ()) -> mpmath.mpf:
    """``D_alpha(P||Q) = log(∫ p^alpha q^(1-alpha)) / (alpha - 1)`` by quadrature (``alpha = 1``: KL).

    >>> p = lambda y: mp.npdf(y, 0, 1)
    >>> q = lambda y: mp.npdf(y, 1, 1)
    >>> mp.nstr(renyi_by_quadrature(p, q, 3, dps=20), 15)
    '1.5'
    """
    check_dps(dps)
    a_expr = order(alpha)
    if a_expr is sp.oo:
        raise InvalidParameter("alpha must be finite for quadrature, got alpha=oo")
    if a_expr == 1:
        return kl_by_quadrature(p, q, dps=dps, breakpoints=breakpoints)
    with mp.workdps(dps + _QUAD_GUARD):
        a = to_mpf(a_expr, "alpha")

        def integrand(y: mpmath.mpf) -> mpmath.mpf:
            py = p(y)
            if py == 0:
                return mp.zero
            qy = q(y)
            if qy == 0:
                return mp.inf
            return py ** a * qy ** (1 - a)

        moment = _quad(integrand, _pieces(breakpoints), dps, "renyi_by_quadrature")
        value = mp.log(moment) / (a - 1)
    return round_to(value, dps)


def kl_by_quadrature(p: Density, q: Density, *, dps: int = 50, breakpoints: Iterable[object] = ()) -> mpmath.mpf:
    """``D_KL(P||Q) = ∫ p log(p/q)`` by quadrature.

    >>> p = lambda y: mp.npdf(y, 0, 1)
    >>> q = lambda y: mp.npdf(y, 1, 1)
    >>> mp.nstr(kl_by_quadrature(p, q, dps=20), 15)
    '0.5'
    """
    check_dps(dps)
    with mp.workdps(dps + _QUAD_GUARD):
        def integrand(y: mpmath.mpf) -> mpmath.mpf:
            py = p(y)
            if py == 0:
                return mp.zero
            qy = q(y)
            if qy == 0:
                return mp.inf
            return py * mp.log(py / qy)

        value = _quad(integrand, _pieces(breakpoints), dps, "kl_by_quadrature")
    return round_to(value, dps)


# -- finite pairs --------------------------------------------------------------------------------------

def _as_mapping(P: Distribution, name: str) -> dict[Hashable, mpmath.mpf]:
    items = P.items() if isinstance(P, Mapping) else enumerate(P)
    out: dict[Hashable, mpmath.mpf] = {}
    for atom, mass in items:
        value = to_mpf(mass, f"{name}[{atom!r}]")
        if value < 0:
            raise InvalidParameter(f"{name} must have non-negative masses, got {name}[{atom!r}]={mass}")
        out[atom] = out.get(atom, mp.zero) + value
    return out


def _pair(P: Distribution, Q: Distribution) -> tuple[dict[Hashable, mpmath.mpf], dict[Hashable, mpmath.mpf]]:
    if not isinstance(P, Mapping) and not isinstance(Q, Mapping) and len(P) != len(Q):
        raise InvalidParameter(f"P and Q must have the same length, got {len(P)} and {len(Q)}")
    return _as_mapping(P, "P"), _as_mapping(Q, "Q")


def hockey_stick_discrete(P: Distribution, Q: Distribution, eps: object, *, dps: int = 50) -> mpmath.mpf:
    """``Σ_y (P(y) - e^eps Q(y))_+`` over the atoms of two finite distributions.

    *P*, *Q*: dicts ``atom -> mass`` (an atom missing from one has mass 0
    there) or equal-length sequences.  Each positive term is a difference of
    two masses, so the result has *dps* correct digits unless ``δ`` is below
    about ``10^-GUARD`` times the largest mass.

    >>> mp.nstr(hockey_stick_discrete([0.75, 0.25], [0.25, 0.75], 0), 10)
    '0.5'
    """
    check_dps(dps)
    with mp.workdps(dps + GUARD + 5):
        p, q = _pair(P, Q)
        e = mp.exp(to_mpf(eps, "eps"))
        total = mp.fsum(max(mp.zero, mass - e * q.get(atom, mp.zero)) for atom, mass in p.items())
    return round_to(total, dps)


def renyi_discrete(P: Distribution, Q: Distribution, alpha: object, *, dps: int = 50) -> mpmath.mpf:
    """``log(Σ P^alpha Q^(1-alpha)) / (alpha - 1)``; ``alpha = 1`` gives KL, ``alpha = oo`` ``max log P/Q``."""
    check_dps(dps)
    a_expr = order(alpha)
    with mp.workdps(dps + GUARD + 5):
        p, q = _pair(P, Q)
        support = [atom for atom, mass in p.items() if mass > 0]
        if any(q.get(atom, mp.zero) == 0 for atom in support):
            return mp.inf
        if a_expr is sp.oo:
            value = max(mp.log(p[atom] / q[atom]) for atom in support)
        elif a_expr == 1:
            value = mp.fsum(p[atom] * mp.log(p[atom] / q[atom]) for atom in support)
        else:
            a = to_mpf(a_expr, "alpha")
            value = mp.log(mp.fsum(p[atom] ** a * q[atom] ** (1 - a) for atom in support)) / (a - 1)
    return round_to(value, dps)


def kl_discrete(P: Distribution, Q: Distribution, *, dps: int = 50) -> mpmath.mpf:
    """``Σ P log(P/Q)`` (``inf`` when ``P`` is not absolutely continuous with respect to ``Q``)."""
    return renyi_discrete(P, Q, 1, dps=dps)


def product_distribution(*distributions: Distribution, dps: int = 50,
                         max_atoms: int = 2 ** 20) -> dict[tuple[Hashable, ...], mpmath.mpf]:
    """The product measure, atoms ``(y_1, …, y_k)``, masses multiplied at ``dps + guard`` digits.

    The k-fold product of randomized response is ``product_distribution(*[P] * k)``;
    it has ``2**k`` atoms, so it is the enumeration ground truth for small ``k``
    (refused beyond *max_atoms* atoms).

    >>> product_distribution({0: 0.5, 1: 0.5}, {"a": 1})
    {(0, 'a'): mpf('0.5'), (1, 'a'): mpf('0.5')}
    """
    check_dps(dps)
    size = 1
    for d in distributions:
        size *= len(d)
    if size > max_atoms:
        raise InvalidParameter(f"the product has {size} atoms, more than max_atoms={max_atoms}")
    with mp.workdps(dps + GUARD + 5):
        factors = [list(_as_mapping(d, "distribution").items()) for d in distributions]
        out: dict[tuple[Hashable, ...], mpmath.mpf] = {}
        for combination in itertools.product(*factors):
            mass = mp.one
            for _, m in combination:
                mass *= m
            out[tuple(atom for atom, _ in combination)] = mass
    return out
