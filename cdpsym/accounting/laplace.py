r"""Certified two-sided bounds on the privacy profile of the k-fold Laplace mechanism.

Statement: for ``ε0 = Δ/b`` and every real ``ε``, the k-fold product of the
worst Laplace pair ``P = Lap(0, b)``, ``Q = Lap(Δ, b)`` has hockey-stick
divergence

.. math:: \delta_k(\varepsilon)=\mathbb E_{P^{\otimes k}}\big[(1-e^{\varepsilon-L_k})_+\big]
          =2^{-k}\!\int G_\tau(z_1+\dots+z_k)\,\nu^{\otimes k}(dz),\qquad
          G_\tau(s)=\big(e^{-s}-e^{s-2\tau}\big)_+,\quad \tau=\tfrac{k\varepsilon_0-\varepsilon}{2},

with ``ν = δ_0 + λ|(0,ε0) + δ_ε0`` (two unit atoms and Lebesgue measure), and
this module encloses it between two numbers computed in Arb ball arithmetic:
:func:`laplace_delta_bounds` returns ``lower <= δ_k(ε) <= upper`` and
:func:`laplace_epsilon_bounds` returns ``lower <= ε_k(δ) <= upper`` for the
least ``ε >= 0`` with ``δ_k(ε) <= δ``.  There is no closed form for
``δ_k`` (R-E5 is the case ``k = 1``), so both are
:class:`~cdpsym.accounting.certified.CertifiedBounds` with the gap reported.

**Reduction to a sum of clipped exponentials.**  Per coordinate (units of
``b``) the privacy loss is ``ℓ(y) = |y - ε0| - |y| = ε0 - 2 Z`` with
``Z = min(max(y, 0), ε0)`` (R-A1, R-E5).  Under ``P`` the law of ``Z`` is
``½ δ_0 + ½ e^{-z} dz`` on ``(0, ε0)`` ``+ ½ e^{-ε0} δ_ε0 = ½ e^{-z} ν(dz)``:
the exponential tilt factors out of the two atoms and the continuous part
alike.  With ``T = Z_1 + … + Z_k`` the composed loss is
``L_k = k ε0 - 2T``, and the hockey-stick form R-A6 gives the display above
(``(1 - e^{2(T-τ)})_+ e^{-T}`` is ``G_τ(T)``).

**Soundness: Hermite–Hadamard on a lattice.**  ``G_τ`` is convex on all of
``ℝ``: on ``s < τ`` it equals ``e^{-s} - e^{s-2τ}`` with ``G'' = G >= 0``, it
is ``0`` on ``s >= τ``, and at ``τ`` its slope jumps up from ``-2e^{-τ}`` to
``0``.  For a convex ``f`` and a cell ``[a, b]`` the **Hermite–Hadamard
inequality** reads

.. math:: (b-a)\,f\big(\tfrac{a+b}{2}\big)\ \le\ \int_a^b f\ \le\ (b-a)\,\frac{f(a)+f(b)}{2}.

Split ``(0, ε0)`` into ``N`` cells of width ``g = ε0/N`` (``N`` even) and let

* ``ν⁺ = δ_0 + δ_ε0 + Σ_cells (g/2)(δ_a + δ_b)`` — the trapezoid rule on
  the cells of width ``g``;
* ``ν⁻ = δ_0 + δ_ε0 + Σ_j 2g δ_{(2j+1)g}`` — the midpoint rule on the cells
  of width ``2g``.

Both live on the lattice ``g ℤ``, and ``∫ f dν⁻ <= ∫ f dν <= ∫ f dν⁺`` for
every convex ``f``.  For fixed other coordinates ``z_1 ↦ G_τ(z_1 + c)`` is
convex, so replacing ``ν`` by ``ν^±`` one coordinate at a time (Fubini; all
measures finite and positive, ``G_τ`` continuous and bounded on
``[0, k ε0]``) gives, for every ``ε`` at once,

.. math:: \delta_k^-(\varepsilon)=2^{-k}\!\int G_\tau\,d(\nu^-)^{*k}\ \le\ \delta_k(\varepsilon)\ \le\
          \delta_k^+(\varepsilon)=2^{-k}\!\int G_\tau\,d(\nu^+)^{*k}.

The bounding measures need not be the loss distribution of any pair of
distributions — nothing but this integral inequality is used — so the
"validity" of the discretization is not an issue here.  This is where the
method departs from the pessimistic/optimistic privacy-loss distributions of
Meiser & Mohammadi 2018, Koskela et al. 2020 and Google's ``dp_accounting``
PLD, which round each loss *value* up (resp. down) to the grid: that is
sound by a monotone coupling (``x ↦ (1 - e^{ε-x})_+`` is increasing and
``Σ ⌈L_i⌉ >= Σ L_i`` pointwise) but first order — the gap grows like
``k·h``.  (The rounded-down distribution is not even the loss distribution
of a pair: rounding down raises ``E_P[e^{-L}]`` above ``1``; the bounds here
never need a pair.)  Convexity gives second order: the gap grows like
``k·g²``.  Under ``P`` the integrand ``(1 - e^{ε-x})_+`` is *concave*
above ``ε``; the convex form appears only after the tilt ``e^{-T}`` is moved
from the measure into the integrand, which is why the lattice lives in
``Z``-space with the untilted ``ν`` (whose continuous part is uniform, so
the midpoints of the ``2g``-cells and the trapezoid nodes share one lattice
with the atoms).

**Arithmetic.**  The ``k``-fold convolution is a polynomial power: the
lattice coefficients are tilted back, ``c_s = ½ e^{-sg} ν^±(\{sg\})`` (the
tilt commutes with convolution, so ``(c^{*k})_s = 2^{-k} e^{-sg}
(ν^±)^{*k}(\{sg\})``), and powered by repeated squaring with
``flint.arb_poly`` multiplication, whose output balls contain the exact
products.  Then ``δ_k^±(ε) = Σ_s (c^{*k})_s (1 - e^{ε - L_s})_+`` with
``L_s = k ε0 - 2 s g``, summed in Arb.  Two savings, both accounted for:

* indices ``s`` with ``L_s <= ε`` have weight ``0`` and, since indices only
  add up, never feed a smaller index: they are dropped from every product
  (exactly);
* negligible tails of the intermediate powers are trimmed (cut points from
  a normal approximation, never trusted; the dropped mass ``d`` is summed in
  Arb).  All coefficients and weights are non-negative and the weights are
  at most ``1``, so trimming only lowers the sum: ``δ^-`` stays a lower
  bound as it is, and ``δ^+`` gets the missing mass ``E`` added, propagated
  exactly through the remaining products — for the exact power
  ``X = R + D`` (``D >= 0`` dropped, ``|D|_1 <= E``),
  ``X² - R² = D (R + X)`` gives ``E ← 2 m^a E + d`` on squaring and
  ``E ← m E + d`` on multiplying by the base (``m`` its mass, ``m^a`` the
  mass of ``X``).

**ε(δ).**  ``δ_k^±`` are continuous and decrease in ``ε``; between two
lattice values ``L_{j+1} <= ε <= L_j`` each is ``A_j - e^ε B_j`` (+ the
truncation slack) with prefix sums ``A_j``, ``B_j``, so its root is the
closed form ``log((A_j - δ)/B_j)`` once the piece is located by comparisons
proved in Arb.  Since ``δ_k^- <= δ_k <= δ_k^+``, the roots bracket
``ε_k(δ)``: ``δ_k^-(ε) >= δ`` forces ``ε <= ε_k``, ``δ_k^+(ε) <= δ`` forces
``ε_k <= ε``.  Both are clipped below at ``0`` (``ε_k >= 0`` by definition);
the upper one never exceeds ``k ε0`` (``L_k <= k ε0``: pure ``k ε0``-DP,
R-G1), which also caps ``δ_k(ε) <= 1 - e^{ε - k ε0}``.

**Exact cases.**  ``δ_k(ε) = 0`` for ``ε >= k ε0`` and ``δ_k(ε) = 1 - e^ε``
for ``ε <= -k ε0`` (every loss lies in ``[-k ε0, k ε0]`` and
``E_P[e^{-L_k}] = 1``); these are returned as exact balls.

**Grid and cost.**  ``N`` (``grid``) is the number of lattice steps per
``ε0``.  Unless ``grid`` is given, ``N`` starts at 2 and is refined by the
``1/N²`` law of the gap until ``gap <= rel_gap · scale`` — ``scale`` is
``min(upper, 1 - lower)`` for ``δ`` and ``min(upper, k ε0 - lower)`` for
``ε``, so values near either end of their range are resolved too — or the
estimated polynomial length reaches ``max_terms``.  After trimming the
length is about ``N · min(k, 24 σ_Z √k / ε0)`` (``σ_Z <= ε0/2``), less when
``ε`` is far in the upper tail, and the time is roughly linear in it (one
core, both curves, including the adaptive passes): ``(ε0, k) = (0.1, 100)``
and ``(1, 10)`` take milliseconds, ``(0.5, 1000)`` about 0.5 s for
``ε(10^-6)`` (relative gap ``8·10^-5``) and 1–2 s for ``δ`` at that ``ε``
(the cap binds at a relative gap near ``10^-3``).  For a fixed relative gap
``N`` grows like ``√k``, so the length like ``k``: beyond ``k ≈ 10^4`` the
``max_terms`` cap binds and the gap, not the time, grows (``k = 10^5``,
``ε0 = 0.01``: ``N = 10``, relative gap ``7·10^-5`` in ``ε``, about 1 s).
More digits or ``δ`` far below ``10^-30`` raise the Arb precision, which
costs little; below ``δ ≈ 10^-300`` trimming is off (float underflow), slow
for large ``k`` unless ``ε`` is near ``k ε0``.

**Unequal scales.**  For ``⊗_g Laplace(ε0_g)^{c_g}`` whose ``ε0_g`` are
rational multiples of one another, ``ε0_g = a_g u`` (``a_g`` integers, at
most :data:`MAX_RATIO`), every coordinate's ``ν^±`` lives on the common
lattice ``(u/N) ℤ`` (``a_g N`` steps per ``ε0_g``), the argument above
applies coordinate by coordinate unchanged, and the curves are those of the
k-fold case with ``(ε0, k)`` replaced by ``(u, K = Σ c_g a_g)``
(:func:`laplace_composition_delta_bounds`,
:func:`laplace_composition_epsilon_bounds`).  The group powers are
multiplied with the truncation slack propagated as
``X_1 X_2 - R_1 R_2 = D_1 X_2 + R_1 D_2`` (mass at most ``E_1 M_2 + M_1 E_2``).
Scales that share no lattice (``1`` and ``√2``) are refused, naming the
alternative (the optimal pure-DP composition of the ``ε0_g``, an upper bound).

**What is out of reach, and refused up front.**  The bounding measures'
total masses differ from ``1`` by about ``w g²/12`` (trapezoid) and
``w g²/6`` (midpoint) per coordinate, ``w = (1 - e^{-ε0})/2``, ``g = u/N``:
over ``k`` coordinates the curves drift ``e^{±k w g²/6}`` away from the
truth.  When even the finest grid within ``max_terms`` leaves that factor
above ``e²`` the bounds would say nothing (``(ε0, k) = (1, 10^5)``,
``(0.1, 4·10^6)``): :class:`~cdpsym.errors.ResourceLimit` is raised at once
(it used to take minutes and more than 1 GB, then blame the precision),
naming that drift, the grid that would be needed and a runnable certified
alternative (the optimal pure-DP composition).  ``ε(δ)`` for
``10^-12 <= δ <= 0.1`` first raises the default limit to
:data:`ESCALATED_MAX_TERMS` when that brings the drift within ``e^1``
(``(0.1, 10^6)``: about 2 s).  Otherwise the first grid is the
coarsest that keeps the factor below ``e^{1/4}``.

Parameterization: ``eps0 = Δ/b`` as in :class:`cdpsym.mechanisms.Laplace`;
the result depends on ``Δ`` and ``b`` only through it.  ``δ_k`` is the
hockey-stick divergence of the product of worst pairs (shift exactly ``Δ``
in every coordinate), which is what ``compose(Laplace(...), k=k)`` denotes
in cdpsym; it is symmetric in the order of the pair (``y ↦ Δ - y``).

References: Hermite–Hadamard inequality (Hadamard 1893); Balle, Barthe &
Gaboardi 2018 (privacy profiles, R-A6); Meiser & Mohammadi 2018, "Tight
on budget?", CCS (PLD buckets); Koskela, Jälkö & Honkela 2020,
arXiv:1906.03049 (FFT accountant); Google ``dp_accounting`` (PLD,
pessimistic estimate); Dwork & Roth 2014, Thm 3.6 (R-G1).
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field

from flint import arb, arb_poly, ctx, fmpq

from cdpsym.accounting.certified import (DEFAULT_DIGITS, MAX_PREC, CertifiedBounds, Real,
                                         bits_for_digits, certified_from_ball, certified_rational, check_digits,
                                         real_input, require_closed_unit, require_count, require_positive, text,
                                         to_arb)
from cdpsym.errors import InvalidParameter, PrecisionError, ResourceLimit

__all__ = ["laplace_delta_bounds", "laplace_epsilon_bounds", "laplace_composition_delta_bounds",
           "laplace_composition_epsilon_bounds", "METHOD", "DEFAULT_REL_GAP", "DEFAULT_MAX_TERMS", "MAX_RATIO"]

METHOD = "k-fold Laplace: Hermite-Hadamard lattice bounds (trapezoid/midpoint), Arb polynomial powers"
#: the relative gap the adaptive grid aims for (see "Grid and cost")
DEFAULT_REL_GAP = 1e-4
#: cap on the (estimated, after truncation) length of the k-fold lattice polynomial
DEFAULT_MAX_TERMS = 1 << 16
#: the finest lattice (steps per ``ε0``) the adaptive grid may choose
MAX_GRID = 1 << 20
#: truncation slack aimed for, relative to the quantity of interest times ``rel_gap``
_SLACK_FRACTION = 1e-3


# -- the lattice bounds -------------------------------------------------------------------------------------

def _pos(x: arb) -> arb:
    """A ball containing ``max(0, v)`` for every ``v`` in *x*."""
    if x > 0:
        return x
    if x <= 0:
        return arb(0)
    return arb(0).union(x.upper())


def _factor(e0: arb, n: int, upper: bool, length: int) -> tuple[list[arb], arb]:
    """The tilted lattice coefficients ``c_s = ½ e^{-sg} ν^±({sg})`` for ``s < length`` (``<= n + 1``), and
    the total mass ``Σ_{s<=n} c_s`` in closed form; ``g = ε0/n``, current precision."""
    g = e0 / n
    half = arb(1) / 2
    step = (-g).exp()
    top = half * (-e0).exp()
    coeffs, t = [], half
    for s in range(length):
        if upper:  # trapezoid rule on cells of width g
            c = g * t if 0 < s < n else (half if s == 0 else top) * (1 + g / 2)
        else:  # midpoint rule on cells of width 2g (n even): masses 2g at the odd lattice points
            c = 2 * g * t if s % 2 else (half if s == 0 else top if s == n else arb(0))
        coeffs.append(c)
        t = t * step
    atoms = half + top
    if upper:  # Σ_{0<s<n} e^{-sg} = (e^{-g} - e^{-ε0}) / (1 - e^{-g})
        mass = atoms * (1 + g / 2) + half * g * (step - 2 * top) / (-(-g).expm1())
    else:  # Σ_{s odd} e^{-sg} = e^{-g} (1 - e^{-ε0}) / (1 - e^{-2g})
        mass = atoms + g * step * (1 - 2 * top) / (-(-2 * g).expm1())
    return coeffs, mass


def _law(eps0: float, n: int) -> tuple[float, float]:
    """Mean and standard deviation of ``Z = clip(Y, 0, ε0)``, ``Y ~ Lap(0, 1)``, in lattice steps (floats; tuning)."""
    mean = -0.5 * math.expm1(-eps0)
    return mean * n / eps0, _z_spread(eps0) * n


def _dropped(poly: arb_poly, lo: int, hi: int, length: int) -> arb:
    """The sum of the coefficients of *poly* outside ``[lo, hi)`` (a ball)."""
    one = arb(1)
    total = arb(0)
    if lo > 0:
        total += poly.truncate(lo)(one)
    if hi < length:
        total += poly.right_shift(hi)(one)
    return total


def _trim(poly: arb_poly, offset: int, power: int, mean: float, sd: float,
          budget: float | None) -> tuple[arb_poly, int, arb]:
    """Drop the tails of *poly* (the *power*-th power, lowest degree at lattice index *offset*) below *budget*.

    The cut points come from a normal approximation (never trusted); the mass
    actually dropped is summed in Arb and returned, so callers can account for it.
    """
    length = poly.length()
    if budget is None or budget <= 1e-300 or length < 64:
        return poly, offset, arb(0)
    z = math.sqrt(2 * math.log(1 / budget)) + 2.0
    for _ in range(4):
        centre = power * mean - offset
        half_width = z * sd * math.sqrt(power) + 2
        lo = max(0, int(math.floor(centre - half_width)))
        hi = min(length, int(math.ceil(centre + half_width)) + 1)
        if lo == 0 and hi == length:
            return poly, offset, arb(0)
        dropped = _dropped(poly, lo, hi, length)
        if float(dropped.upper()) <= budget:
            return arb_poly(poly.coeffs()[lo:hi]), offset + lo, dropped
        z *= 1.5
    return poly, offset, arb(0)


def _below(poly: arb_poly, offset: int, cut: int | None) -> arb_poly:
    """*poly* (lowest degree at lattice index *offset*) without its terms of lattice index ``>= cut``."""
    if cut is None or poly.length() <= cut - offset:
        return poly
    return poly.truncate(max(cut - offset, 0))


def _power(coeffs: list[arb], mass: arb, law: tuple[float, float], k: int, budget: float | None,
           cut: int | None = None) -> tuple[list[arb], int, arb]:
    """``(coefficients, offset, slack)`` of the *k*-th power of the polynomial with *coeffs*.

    Terms of lattice index ``>= cut`` are dropped throughout (exactly: indices
    only add up, so they never feed an index below *cut*), and negligible
    tails are trimmed.  The exact power ``X`` restricted to indices below
    *cut* and the computed ``R`` (shifted by *offset*) satisfy ``X = R + D``
    with ``D >= 0`` coefficientwise and ``|D|_1 <= slack``.
    """
    base = _below(arb_poly(coeffs), 0, cut)
    mean, sd = law
    steps = 2 * k.bit_length() + 1
    dropped_base = arb(0)

    def share(power: int) -> float | None:
        return None if budget is None else budget * power / (k * steps)

    base_share = share(1)
    if base_share is not None and base.length() > 64:
        # the base's own negligible top: ½ e^{-z} decays, and with ε0 >> 1 most of its N + 1 coefficients are
        # far below the budget (they made every product slow: Arb multiplies ranges of e^-2500 block by block)
        base, dropped_base = _trim_top(base, base_share)
    result, offset, slack, a = base, 0, dropped_base, 1

    for bit in bin(k)[3:]:
        # X^2 = R^2 + D (R + X): the old slack is counted twice, times the mass of X
        result, offset = result * result, 2 * offset
        result = _below(result, offset, cut)
        slack = 2 * mass ** a * slack
        a *= 2
        result, offset, d = _trim(result, offset, a, mean, sd, share(a))
        slack += d
        if bit == "1":
            # X^a X_0 - R R_0 = D X_0 + R D_0: mass <= E m + m^a d_0 (d_0 the base's own trimmed top)
            result = _below(result * base, offset, cut)
            slack = slack * mass + mass ** a * dropped_base
            a += 1
            result, offset, d = _trim(result, offset, a, mean, sd, share(a))
            slack += d
    return result.coeffs(), offset, arb(slack.upper())


def _trim_top(poly: arb_poly, budget: float) -> tuple[arb_poly, arb]:
    """*poly* without its top coefficients whose total (summed in Arb and returned) is below *budget*."""
    coeffs = poly.coeffs()
    tail, cut = 0.0, len(coeffs)
    for i in range(len(coeffs) - 1, 0, -1):  # floats choose the cut; Arb checks it
        tail += float(coeffs[i].upper().mid())
        if tail > budget / 2:
            break
        cut = i
    if cut >= len(coeffs) - 8:
        return poly, arb(0)
    dropped = poly.right_shift(cut)(arb(1))
    if not float(dropped.upper()) <= budget:
        return poly, arb(0)
    return poly.truncate(cut), dropped


class _OutOfRange(Exception):
    """A curve computed below a cut was asked about a point where the cut matters."""


def _loss(eps0: Real, k: int, n: int, s: int) -> arb:
    """``L_s = ε0 (k - 2s/N)`` as a ball (an exact rational rounded once when ε0 is rational)."""
    factor = fmpq(k * n - 2 * s, n)
    if isinstance(eps0, fmpq):
        return arb(eps0 * factor)
    return to_arb(eps0) * arb(factor)


def _split(eps0: Real, k: int, n: int, eps: Real) -> tuple[int, int]:
    """``(p, z)``: ``L_s > ε`` is proved for ``s <= p`` and ``L_s <= ε`` for ``s > z`` (``p <= z``)."""
    if isinstance(eps0, fmpq) and isinstance(eps, fmpq):
        t = (k * n - n * eps / eps0) / 2  # L_s > ε  <=>  s < t
        p = int(t.ceil()) - 1 if t.q == 1 else int(t.floor())
        return p, p
    t = (arb(k * n) - arb(n) * to_arb(eps) / to_arb(eps0)) / 2
    return int(math.ceil(float(t.lower().mid()))) - 2, int(math.floor(float(t.upper().mid()))) + 1


@dataclass
class _Curve:
    """``δ(ε) = slack + Σ_s T_s (1 - e^{ε - L_s})_+`` on the lattice ``L_s = ε0 (k - 2s/N)``, ``s = offset + i``.

    When ``cut`` is set, the terms of index ``>= cut`` were never computed:
    the curve is exact only for ``ε >= L_cut`` (there those terms vanish), and
    asking about smaller ``ε`` raises :class:`_OutOfRange`.
    """

    coeffs: list[arb]
    offset: int
    slack: arb
    eps0: Real
    k: int
    n: int
    cut: int | None = None
    _a: list[arb] = field(default_factory=list)
    _b: list[arb] = field(default_factory=list)

    def loss(self, s: int) -> arb:
        return _loss(self.eps0, self.k, self.n, s)

    @property
    def last(self) -> int:
        return self.offset + len(self.coeffs) - 1

    def _check(self, eps: arb) -> None:
        if self.cut is not None and not eps >= self.loss(self.cut):
            raise _OutOfRange

    # prefix sums ---------------------------------------------------------------------------------------
    def _extend(self, i: int) -> int:
        """Make ``A_i = Σ_{j<=i} T_j`` and ``B_i = Σ_{j<=i} T_j e^{-L_j}`` available; returns ``min(i, len-1)``."""
        i = min(i, len(self.coeffs) - 1)
        if not self._a:
            self._w = (-self.loss(self.offset)).exp()
            self._a.append(self.coeffs[0])
            self._b.append(self.coeffs[0] * self._w)
        if len(self._a) <= i:
            ratio = (2 * to_arb(self.eps0) / self.n).exp()  # e^{-L_{s+1}} = e^{-L_s} e^{2g}
            while len(self._a) <= i:
                j = len(self._a)
                self._w = (-self.loss(self.offset + j)).exp() if j % 256 == 0 else self._w * ratio
                self._a.append(self._a[-1] + self.coeffs[j])
                self._b.append(self._b[-1] + self.coeffs[j] * self._w)
        return i

    def head(self, i: int, eps: arb) -> arb:
        """``Σ_{j<=i} T_j (1 - e^{ε - L_j})`` over the first ``i+1`` kept terms (no clipping)."""
        if i < 0:
            return arb(0)
        i = self._extend(i)
        return self._a[i] - eps.exp() * self._b[i]

    def delta(self, eps: Real) -> arb:
        """A ball containing this curve's ``δ(ε)``."""
        e = to_arb(eps)
        self._check(e)
        p, z = _split(self.eps0, self.k, self.n, eps)
        value = self.slack + self.head(p - self.offset, e)
        for s in range(max(p + 1, self.offset), min(z, self.last) + 1):
            value += self.coeffs[s - self.offset] * _pos(-(e - self.loss(s)).expm1())
        return value

    def at_lattice(self, s: int) -> arb:
        """``δ(L_s)``: the terms ``j < s`` contribute, the term ``j = s`` vanishes."""
        return self.slack + self.head(s - self.offset, self.loss(s))

    def root(self, target: arb) -> tuple[arb | None, arb]:
        """``(low, high)``: exact balls with ``low < ε* <= high`` for the ``ε*`` where ``δ(ε*) = target``, ``low``
        ``None`` when the root is only known to be below ``high`` (the last piece extends to ``-inf``, and a
        ball cannot be half-infinite).  This curve decreases strictly where positive.

        ``k ε0`` when the truncation slack alone reaches *target* (a valid
        upper bound on ``ε_k``, R-G1).  The piece ``[L_{j+1}, L_j]`` holding the
        root is located by comparisons proved at lattice values; on it the
        curve is ``slack + A_j - e^ε B_j``, whose root is ``log((slack + A_j - δ)/B_j)``.
        """
        top = self.loss(0)
        if not self.slack < target:
            return arb(top.lower()), arb(top.upper())
        last = self.last

        def above(s: int) -> bool:  # δ(L_s) > target, proved
            return bool(self.at_lattice(s) > target)

        if not above(last):
            if self.cut is not None:
                raise _OutOfRange
            s1 = last + 1  # the root lies below every kept lattice value: the last piece extends to -inf
        else:
            lo, hi = self.offset, last
            if above(lo):
                hi = lo
            while hi - lo > 1:
                mid = (lo + hi) // 2
                if above(mid):
                    hi = mid
                else:
                    lo = mid
            s1 = hi
        # δ(L_{s1}) > target is proved (or s1 is past the kept range); walk down to a proved δ(L_{s0}) <= target
        s0 = s1 - 1
        while s0 >= self.offset and not bool(self.at_lattice(s0) <= target):
            s0 -= 1
        low: arb | None = None
        high: arb | None = None
        found = False
        for j in range(max(s0, self.offset), s1):  # the piece [L_{j+1}, L_j]; above L_offset δ = slack < target
            i = self._extend(j - self.offset)
            floor = None if j == last else arb(self.loss(j + 1).lower())
            ceiling = arb(self.loss(j).upper())
            num = self.slack + self._a[i] - target
            if num > 0:  # the root of this piece, if it lies in the piece, is in r
                r = (num / self._b[i]).log()
                lower_end = arb(r.lower()) if floor is None or r.lower() > floor else floor
                upper_end = arb(r.upper()) if r.upper() < ceiling else ceiling
                if lower_end > upper_end:
                    continue  # the piece holds no root
            elif num <= 0:  # δ < target on the whole piece: no root in it
                continue
            else:  # undecided: keep the whole piece
                lower_end, upper_end = floor, ceiling
            if not found:
                low, high, found = lower_end, upper_end, True
            else:
                low = None if low is None or lower_end is None else (lower_end if lower_end < low else low)
                high = upper_end if upper_end > high else high  # type: ignore[operator]
        if not found:  # no piece certified: fall back on the proved bracket (L_{s1}, L_{s0}]
            low = arb(self.loss(s1).lower()) if s1 <= last else None
            high = arb(self.loss(s0).upper()) if s0 >= self.offset else arb(top.upper())
        if self.cut is not None and (low is None or not low >= self.loss(self.cut)):
            raise _OutOfRange
        return low, high  # type: ignore[return-value]


@dataclass(frozen=True)
class _Spec:
    """A composition of Laplace mechanisms on one lattice: ``ε0_g = a_g u`` for integers ``a_g``, ``c_g`` copies each.

    The lattice step is ``u/N``; ``K = Σ c_g a_g``, so the composed loss takes
    the values ``L_s = u (K - 2s/N)`` and the curves work with ``(u, K, N)``
    exactly as the k-fold case works with ``(ε0, k, N)``.
    """

    unit: Real
    parts: tuple[tuple[int, int, Real, float], ...]  # (a_g, c_g, ε0_g, float ε0_g)
    unit_f: float

    @property
    def K(self) -> int:  # noqa: N802 - the module's notation
        return sum(a * c for a, c, _, _ in self.parts)

    @property
    def count(self) -> int:
        return sum(c for _, c, _, _ in self.parts)

    @property
    def total_f(self) -> float:
        """``Σ c_g ε0_g`` (the largest loss) as a float."""
        return self.K * self.unit_f

    @staticmethod
    def single(eps0: Real, k: int, eps0_f: float) -> "_Spec":
        return _Spec(eps0, ((1, k, eps0, eps0_f),), eps0_f)


@dataclass
class _Lattice:
    """The two bounding curves for one spec and ``N`` at one precision."""

    upper: _Curve
    lower: _Curve
    n: int
    prec: int
    seconds: float
    terms: int


def _lattice(spec: _Spec, n: int, prec: int, budget: float | None, cut: int | None = None) -> _Lattice:
    start = time.perf_counter()
    K = spec.K
    if cut is not None and cut > K * n:
        cut = None
    groups = len(spec.parts)
    share = None if budget is None else budget / groups
    with ctx.workprec(prec):
        curves = []
        for upper in (True, False):
            product: arb_poly | None = None
            offset, slack, mass_total = 0, arb(0), arb(1)
            mean_total = var_total = 0.0
            for a, c, e0_x, e0f in spec.parts:
                steps = a * n  # lattice steps per ε0_g: the step is ε0_g/(a N) = u/N for every group
                coeffs, mass = _factor(to_arb(e0_x), steps, upper, steps + 1 if cut is None else min(steps + 1, cut))
                law = _law(e0f, steps)
                coeffs, off, sl = _power(coeffs, mass, law, c, share, cut)
                group_mass = mass ** c  # the mass of the exact power
                if product is None:
                    product, offset, slack = arb_poly(coeffs), off, sl
                else:  # X1 X2 - R1 R2 = D1 X2 + R1 D2 >= 0, of mass <= E1 M2 + M1 E2
                    product = _below(product * arb_poly(coeffs), offset + off, cut)
                    offset += off
                    slack = slack * group_mass + mass_total * sl
                mass_total = mass_total * group_mass
                mean_total += c * law[0]
                var_total += c * law[1] ** 2
            if groups > 1:
                product, offset, dropped = _trim(product, offset, 1, mean_total, math.sqrt(var_total), share)
                slack = slack + dropped
            slack = arb(slack.upper())
            curves.append(_Curve(product.coeffs(), offset, slack if upper else arb(0), spec.unit, K, n, cut))
    return _Lattice(curves[0], curves[1], n, prec,
                    time.perf_counter() - start, max(len(c.coeffs) for c in curves))


# -- grid policy --------------------------------------------------------------------------------------------

def _z_spread(eps0: float) -> float:
    """``σ_Z / ε0`` for ``Z = clip(Y, 0, ε0)``, ``Y ~ Lap(0, 1)`` (floats; for tuning only)."""
    if eps0 < 1e-6:
        return 0.5
    tail = math.exp(-eps0)
    mean = -0.5 * math.expm1(-eps0)
    second = 1 - tail * (1 + eps0)
    return min(0.5, math.sqrt(max(second - mean * mean, 0.0)) / eps0)


def _per_step(spec: _Spec, top: float | None = None) -> float:
    """Rough length, per lattice step per ``u``, of the trimmed polynomial: about 24 standard deviations of
    ``T`` (in units of ``u``), and no more than the ``(K u - top)/(2u)`` steps above a cut at ``ε = top``."""
    variance = sum(c * (_z_spread(e0f) * e0f / spec.unit_f) ** 2 for _, c, _, e0f in spec.parts)
    per = min(float(spec.K), 24 * math.sqrt(variance) + 1)
    if top is not None:
        per = min(per, max((spec.total_f - top) / (2 * spec.unit_f), 0.0) + 1)
    return per


def _log_mass_defect(spec: _Spec, n: int) -> float:
    """How far the bounding measures' total masses are from ``1``, as ``|log mass|`` of the k-fold power (floats).

    Per coordinate the trapezoid excess and the midpoint deficit of
    ``∫ e^{-z} dz`` over ``(0, ε0)`` are ``w g²/12`` and ``w (2g)²/24`` with
    ``w = (1 - e^{-ε0})/2`` and ``g = u/N``; over the composition they add up.
    Beyond a few units the curves are ``e^{that}`` away from the truth and
    say nothing.
    """
    g = spec.unit_f / n
    return sum(c * 0.5 * -math.expm1(-e0f) for _, c, _, e0f in spec.parts) * g * g / 6


def _grid_cap(per_step: float, max_terms: int) -> int:
    return max(2, min(MAX_GRID, 2 * int(max_terms / per_step / 2)))


def _next_grid(n: int, rel: float, target: float, cap: int) -> int:
    if rel >= 0.25:  # not yet in the 1/N^2 regime
        proposal = 4 * n
    else:
        proposal = int(math.ceil(n * math.sqrt(rel / target) * 1.1))
    proposal = max(proposal, n + 2)
    proposal += proposal % 2
    return min(proposal, cap)


def _relative_gap(lower: arb, upper: arb, ceiling: float) -> float:
    """``(upper - lower) / min(upper, ceiling - lower)``: the gap relative to the distance from either end
    of the range ``[0, ceiling]`` (``1`` for δ, ``k ε0`` for ε), so values near the top are resolved too."""
    hi = float(upper.upper().mid())
    lo = float(lower.lower().mid())
    scale = min(hi, ceiling - lo)
    if hi - lo <= 0:
        return 0.0
    if scale <= 0:
        return math.inf
    return (hi - lo) / scale


# -- inputs and results -----------------------------------------------------------------------------------------

def _inputs(eps0: object, k: object) -> tuple[Real, int, float]:
    e0 = real_input(eps0, "eps0")
    require_positive(e0, "eps0")
    kk = require_count(k, "k")
    with ctx.workprec(64):
        e0f = float(to_arb(e0).mid())
    return e0, kk, e0f


#: the largest ``a_g`` (``ε0_g = a_g u``) a composition of unequal Laplace mechanisms may need
MAX_RATIO = 1 << 12

_ALTERNATIVE = ("for a certified upper bound, use the optimal pure-DP composition of the eps0_i "
                "(cdpsym epsilon \"compose(DP(eps0_1), DP(eps0_2), ...)\": Laplace(sensitivity, scale) is "
                "(sensitivity/scale)-DP)")


def _make_spec(groups: list[tuple[Real, int]]) -> _Spec:
    """The lattice spec of ``⊗ Laplace(ε0_g)^{c_g}``; :class:`InvalidParameter` when the ``ε0_g`` share no lattice."""
    merged: dict[object, list] = {}
    for e0, c in groups:
        key = (int(e0.p), int(e0.q)) if isinstance(e0, fmpq) else e0
        if key in merged:
            merged[key][1] += c
        else:
            merged[key] = [e0, c]
    items = list(merged.values())
    with ctx.workprec(64):
        floats = [float(to_arb(e0).mid()) for e0, _ in items]
    if len(items) == 1:
        (e0, c), = items
        return _Spec.single(e0, c, floats[0])
    if all(isinstance(e0, fmpq) for e0, _ in items):
        den = 1
        for e0, _ in items:
            den = den * int(e0.q) // math.gcd(den, int(e0.q))
        num = 0
        for e0, _ in items:
            num = math.gcd(num, int(e0.p) * (den // int(e0.q)))
        unit: Real = fmpq(num, den)
        ratios = [int((e0 / unit).p) for e0, _ in items]
    else:
        import sympy as sp

        ref = items[0][0]
        ratios_q = []
        for e0, _ in items:
            r = sp.simplify(_as_sympy(e0) / _as_sympy(ref))
            if not r.is_Rational:
                raise InvalidParameter(
                    f"the Laplace mechanisms' eps0 = sensitivity/scale values ({', '.join(str(e) for e, _ in items)}) "
                    "are not rational multiples of one another, so their privacy losses share no lattice and no "
                    f"certified bounds are computed here; {_ALTERNATIVE}")
            ratios_q.append(r)
        den = 1
        for r in ratios_q:
            den = den * int(r.q) // math.gcd(den, int(r.q))
        num = 0
        for r in ratios_q:
            num = math.gcd(num, int(r.p) * (den // int(r.q)))
        unit = _as_sympy(ref) * sp.Rational(num, den)
        ratios = [int(r * den / num) for r in ratios_q]
    if max(ratios) > MAX_RATIO:
        raise ResourceLimit(
            f"the Laplace mechanisms' eps0 values ({', '.join(str(e) for e, _ in items)}) are multiples of a common "
            f"step only {max(ratios)} times smaller than the largest (the limit is {MAX_RATIO}): the lattice "
            f"would be too fine; {_ALTERNATIVE}")
    with ctx.workprec(64):
        unit_f = float(to_arb(unit).mid())
    parts = tuple((a, c, e0, f) for a, (e0, c), f in zip(ratios, items, floats))
    return _Spec(unit, parts, unit_f)


def _as_sympy(x: Real):  # type: ignore[no-untyped-def]
    import sympy as sp

    return sp.Rational(int(x.p), int(x.q)) if isinstance(x, fmpq) else x


def _pure_dp_alternative(spec: _Spec, quantity: str) -> str:
    """What to run instead: the optimal pure-DP composition (``Laplace(s, b)`` is ``(s/b)``-DP), a certified upper
    bound; with unequal ``eps0_g`` all raised to the largest (still an upper bound, and homogeneous: always cheap)."""
    _, _, e0_x, _ = max(spec.parts, key=lambda part: part[3])
    e0 = (str(int(e0_x.p)) if int(e0_x.q) == 1 else f"{int(e0_x.p)}/{int(e0_x.q)}") \
        if isinstance(e0_x, fmpq) else str(e0_x)
    k = spec.count
    subject = f"DP({e0})" if k == 1 else f"compose(DP({e0}), k={k})"
    if len(subject) > 80:
        subject = "compose(DP(eps0), k=k)"
    raised = "" if len(spec.parts) == 1 else ", every eps0 raised to the largest"
    return f"for a certified upper bound: cdpsym {quantity} \"{subject}\" (Laplace(s, b) is (s/b)-DP{raised})"


#: the lattice-size limit :func:`_plan` may raise ``max_terms`` to by itself: only from the default, only for
#: ``ε(δ)`` of a k-fold single Laplace mechanism (whose trimmed polynomials stay near the bulk of the loss:
#: about 2 s at ``2^17`` terms; ``δ(ε)`` in a far tail, or several scales, cost several times more per term),
#: and only where that brings the curves within ``e^1`` of the truth (``(ε0, k) = (0.1, 10^6)``, ``(2, 3·10^4)``)
ESCALATED_MAX_TERMS = 1 << 17
#: ... and only for targets ``δ`` in this range (far smaller ``δ`` keep long, slow tails in every product; larger
#: ones lie in the bulk, where the drifted curves say least)
ESCALATION_DELTAS = (1e-12, 0.1)


def _plan(spec: _Spec, max_terms: int | None, top: float | None, what: str,
          quantity: str = "epsilon", target: float | None = None) -> tuple[int, int, int]:
    """``(first grid, grid cap, max_terms)``: the cap keeps the polynomial within *max_terms*; the first grid is
    the coarsest whose curves are meaningful (:func:`_log_mass_defect` ``<= 1/4``).

    When the default ``max_terms`` leaves the curves more than ``e^2`` away from the truth (their total masses
    drift like ``e^{±k w g²/6}``), ``ε(δ)`` raises it up to :data:`ESCALATED_MAX_TERMS` where that suffices (a
    certified answer in seconds); otherwise refuses up front (:class:`~cdpsym.errors.ResourceLimit`): the bounds
    would say nothing, after minutes of work.  The message says why and what to change."""
    if not all(math.isfinite(f) and 1e-300 < f < 1e6 for _, _, _, f in spec.parts):
        raise ResourceLimit(
            f"certified bounds for {what} are computed for eps0 = sensitivity/scale in [1e-300, 1e6] only (beyond "
            f"10^6 the lattice would need more than 10^7 steps per eps0: its step must be small against the "
            f"scale); {_pure_dp_alternative(spec, quantity)}")
    auto = max_terms is None
    max_terms = DEFAULT_MAX_TERMS if max_terms is None else max_terms
    per = _per_step(spec, top)
    k = spec.count
    if 2 * per > 2 * max_terms:
        raise ResourceLimit(
            f"certified bounds for {what} are out of reach at k={k}: the composed loss spreads so wide that even "
            f"the coarsest lattice (2 steps per eps0) needs about {2 * per:.2g} terms, beyond the limit of "
            f"{2 * max_terms} (max_terms in Python); compose fewer mechanisms, or {_pure_dp_alternative(spec, quantity)}")
    cap = _grid_cap(per, max_terms)
    if (_log_mass_defect(spec, cap) > 2.0 and quantity == "epsilon" and auto
            and len(spec.parts) == 1
            and target is not None and ESCALATION_DELTAS[0] <= target <= ESCALATION_DELTAS[1]):
        raised = ESCALATED_MAX_TERMS
        if _log_mass_defect(spec, _grid_cap(per, raised)) <= 1.0:  # curves within e^1 of the truth
            max_terms, cap = raised, _grid_cap(per, raised)
    defect = _log_mass_defect(spec, cap)
    if defect > 2.0:
        defect_1 = _log_mass_defect(spec, 1)
        need = 2 * math.ceil(math.sqrt(defect_1 / 2.0) / 2)
        raise ResourceLimit(
            f"certified bounds for {what} are out of reach at k={k}: the lattice bounds drift from the truth like "
            f"e^(k w eps0^2/(6 N^2)), w = (1 - e^-eps0)/2, N lattice steps per eps0; at the largest N within the "
            f"size limit ({cap}; {max_terms} terms) that is e^{defect:.2g}, so they would say nothing (N >= {need}, "
            f"about {need * per:.2g} terms, is needed; max_terms in Python). Compose fewer or noisier mechanisms, "
            f"or {_pure_dp_alternative(spec, quantity)}")
    n = 2
    while n < cap and _log_mass_defect(spec, n) > 0.25:
        n *= 2
    return min(n, cap), cap, max_terms


def _options(rel_gap: object, grid: object, max_terms: object) -> tuple[float, int | None, int | None]:
    """``(rel_gap, grid, max_terms)`` validated; ``max_terms=None`` (the default) stays ``None``: the default
    limit, which :func:`_plan` may raise by itself (a caller's own ``max_terms`` is never raised)."""
    if max_terms is None:
        return _options(rel_gap, grid, DEFAULT_MAX_TERMS)[:2] + (None,)
    if isinstance(rel_gap, bool) or not isinstance(rel_gap, (int, float)) or not 0 < rel_gap < 1:
        raise InvalidParameter(f"rel_gap must be a number in (0, 1), got rel_gap={rel_gap!r}")
    if grid is not None and (isinstance(grid, bool) or not isinstance(grid, int) or grid < 2 or grid % 2):
        raise InvalidParameter(f"grid must be an even integer >= 2 (lattice steps per eps0), got grid={grid!r}")
    if isinstance(max_terms, bool) or not isinstance(max_terms, int) or max_terms < 16:
        raise InvalidParameter(f"max_terms must be an integer >= 16, got max_terms={max_terms!r}")
    return float(rel_gap), grid, max_terms


def _method(lat: _Lattice, extra: str = "") -> str:
    slack = lat.upper.slack
    tail = f", truncation slack <= {float(slack.mid()):.1e}" if slack != 0 else ""
    return (f"{METHOD}; N={lat.n} lattice steps per eps0, {lat.terms} lattice points{tail}, "
            f"{lat.prec} bits{extra}")


def _bounds(quantity: str, lo: arb, up: arb, digits: int, method: str, query: Mapping[str, str],
            exact: bool = False, prec: int = 64, loose: bool = False) -> CertifiedBounds | None:
    """The two bounds rounded outward; ``None`` when a ball is too wide for *digits* digits.

    ``loose``: round the outer ends of the balls instead (``lo.lower()`` and
    ``up.upper()``, exact points): still a valid lower and upper bound, just
    not as tight as the balls' centres would allow.
    """
    # round at the working precision: the ball's endpoints are taken at the current Arb precision
    with ctx.workprec(max(prec, bits_for_digits(digits) + 16)):
        if loose:
            lo, up = arb(lo.lower()), arb(up.upper())
        lower = certified_from_ball(quantity, lo, digits, method, query, exact=exact, direction="down")
        upper = certified_from_ball(quantity, up, digits, method, query, exact=exact, direction="up")
    if lower is None or upper is None:
        return None
    return CertifiedBounds(lower, upper)


def _escalate(prec: int, what: str, digits: int) -> int:
    if 2 * prec > MAX_PREC:
        raise PrecisionError(f"could not certify {digits} digits of the k-fold Laplace {what} bounds "
                             f"within {MAX_PREC} bits of working precision; ask for fewer digits")
    return 2 * prec


def _exact_case(spec: _Spec, e: Real, digits: int, query: Mapping[str, str]) -> CertifiedBounds | None:
    """The exact ``δ_k(ε)`` outside ``(-Σε0, Σε0)``: ``0`` above, ``1 - e^ε`` below; else ``None``."""
    u, K = spec.unit, spec.K
    if isinstance(u, fmpq) and isinstance(e, fmpq):
        above, below = e >= K * u, e <= -K * u
    else:
        above = below = False
        for prec in (64, 256, 1024, 4096):
            with ctx.workprec(prec):
                kmax, x = to_arb(u) * K, to_arb(e)
                above, below = bool(x >= kmax), bool(x <= -kmax)
                if above or below or x < kmax and x > -kmax:
                    break
    if above:
        return _bounds("delta", arb(0), arb(0), digits, "exact: L_k <= k eps0 (pure DP, R-G1)", query, True)
    if below:
        prec = bits_for_digits(digits) + 32
        while True:
            with ctx.workprec(prec):
                value = -to_arb(e).expm1()
            result = _bounds("delta", value, value, digits, "exact: L_k >= -k eps0, so delta = 1 - e^eps (R-A6)",
                             query, True, prec)
            if result is not None:
                return result
            prec = _escalate(prec, "delta", digits)
    return None


def _groups_input(groups: object) -> list[tuple[Real, int]]:
    try:
        items = list(groups)  # type: ignore[call-overload]
    except TypeError:
        raise InvalidParameter(f"groups must be a list of (eps0, count) pairs, got {groups!r}") from None
    if not items:
        raise InvalidParameter("groups must list at least one (eps0, count) pair")
    out = []
    for item in items:
        try:
            e0, c = item
        except (TypeError, ValueError):
            raise InvalidParameter(f"groups must be (eps0, count) pairs, got {item!r}") from None
        e0 = real_input(e0, "eps0")
        require_positive(e0, "eps0")
        out.append((e0, require_count(c, "count")))
    return out


# -- public API -----------------------------------------------------------------------------------------------

def laplace_delta_bounds(eps0: object, k: object, eps: object, *, digits: int = DEFAULT_DIGITS,
                         rel_gap: float = DEFAULT_REL_GAP, grid: int | None = None,
                         max_terms: int | None = None,
                         query: Mapping[str, str] | None = None) -> CertifiedBounds:
    """Certified ``lower <= δ_k(ε) <= upper`` for the k-fold Laplace mechanism with ``ε0 = Δ/b``.

    ``lower`` is rounded down and ``upper`` up, each to *digits* significant
    digits (certified digits of the bound, not of ``δ_k``); ``gap`` is their
    difference.  ``grid`` fixes the number of lattice steps per ``ε0`` (even);
    otherwise the grid is refined until ``gap <= rel_gap · min(upper, 1 - lower)``
    or the ``max_terms`` budget is reached.  Inputs: int, Fraction, sympy
    number, float (exact binary value) or decimal string; ``eps`` any real.

    >>> b = laplace_delta_bounds(1, 10, 4)
    >>> b.lower.rounded, b.upper.rounded, float(b.gap) < 3e-5
    ('0.3308755977', '0.3309032311', True)
    >>> laplace_delta_bounds("1/2", 3, 2).upper.rounded     # ε >= k ε0: pure DP, exactly 0
    '0'
    """
    check_digits(digits)
    e0, kk, e0f = _inputs(eps0, k)
    query = dict(query or {"eps0": text(eps0), "k": text(k), "eps": text(eps)})
    return _delta_bounds(_Spec.single(e0, kk, e0f), eps, digits, rel_gap, grid, max_terms, query)


def laplace_composition_delta_bounds(groups: object, eps: object, *, digits: int = DEFAULT_DIGITS,
                                     rel_gap: float = DEFAULT_REL_GAP, grid: int | None = None,
                                     max_terms: int | None = None,
                                     query: Mapping[str, str] | None = None) -> CertifiedBounds:
    """:func:`laplace_delta_bounds` for ``⊗ Laplace(ε0_g)^{c_g}``, *groups* = ``[(ε0_g, c_g), ...]``.

    The ``ε0_g`` must be rational multiples of one another (``ε0_g = a_g u``,
    ``a_g <= MAX_RATIO``): every coordinate's lattice bounds then live on
    the common lattice ``(u/N) ℤ`` and the Hermite–Hadamard argument applies
    coordinate by coordinate exactly as in the k-fold case.

    >>> b = laplace_composition_delta_bounds([(1, 1), ("1/2", 2)], 1)
    >>> b.lower.rounded <= b.upper.rounded
    True
    """
    check_digits(digits)
    spec = _make_spec(_groups_input(groups))
    query = dict(query or {"groups": text(groups), "eps": text(eps)})
    return _delta_bounds(spec, eps, digits, rel_gap, grid, max_terms, query)


def _delta_bounds(spec: _Spec, eps: object, digits: int, rel_gap: object, grid: object, max_terms: object,
                  query: Mapping[str, str]) -> CertifiedBounds:
    e = real_input(eps, "eps")
    rel_target, grid, max_terms = _options(rel_gap, grid, max_terms)
    exact = _exact_case(spec, e, digits, query)
    if exact is not None:
        return exact
    prec = bits_for_digits(digits) + 64
    with ctx.workprec(64):
        e_float = float(to_arb(e).mid())
    if grid:
        n, cap, max_terms = grid, grid, max_terms or DEFAULT_MAX_TERMS
    else:
        n, cap, max_terms = _plan(spec, max_terms, e_float, "this composition of Laplace mechanisms", "delta")
    budget = 1e-60
    K, unit = spec.K, spec.unit
    escalations = 0
    while True:
        # only lattice indices s with L_s > ε carry weight: cut the powers just past them (exact)
        cut = _split(unit, K, n, e)[1] + 2
        lat = _lattice(spec, n, prec, budget, cut)
        extra = ""
        with ctx.workprec(prec):
            up, lo = lat.upper.delta(e), lat.lower.delta(e)
            raw_lo = lo
            if not lo > 0:
                lo = arb(0)  # δ >= 0; a ball straddling 0 says no more
            trivial = -(to_arb(e) - to_arb(unit) * K).expm1()  # L_k <= Σ ε0, so δ_k(ε) <= 1 - e^{ε - Σ ε0}
            if trivial.upper() < up.upper():
                up, extra = trivial, "; upper bound 1 - e^(eps - k eps0) (R-G1)"
            if not up < 1:
                up = arb(1)  # δ <= 1
        if (lo.is_zero() and raw_lo.rad() > 0 and not raw_lo > 0 and up.upper() > 0 and escalations < 6
                and raw_lo.rad() > up.upper() * rel_target):
            # the lower curve's value is lost in rounding (its prefix sums cancel: A - e^eps B with A, B ~ 1/2 and
            # delta ~ 1e-40): more precision, not a finer grid, is what helps
            prec, escalations = _escalate(prec, "delta", digits), escalations + 1
            continue
        result = _bounds("delta", lo, up, digits, _method(lat, extra), query, prec=prec)
        if result is None:
            if escalations < 2:
                prec, escalations = _escalate(prec, "delta", digits), escalations + 1
                continue
            result = _bounds("delta", lo, up, digits, _method(lat, extra), query, prec=prec, loose=True)
            if result is None:
                prec = _escalate(prec, "delta", digits)
                continue
        rel = _relative_gap(lo, up, 1.0)
        if grid is not None or rel <= rel_target or n >= cap:
            return result
        n = _next_grid(n, rel, rel_target, cap)
        low = float(lo.lower().mid())
        budget = max(low * rel_target * _SLACK_FRACTION, 1e-300) if low > 0 else budget * 1e-20


def laplace_epsilon_bounds(eps0: object, k: object, delta: object, *, digits: int = DEFAULT_DIGITS,
                           rel_gap: float = DEFAULT_REL_GAP, grid: int | None = None,
                           max_terms: int | None = None,
                           query: Mapping[str, str] | None = None) -> CertifiedBounds:
    """Certified ``lower <= ε_k(δ) <= upper`` (``ε_k(δ)``: least ``ε >= 0`` with ``δ_k(ε) <= δ``).

    ``upper`` is the root of the upper curve ``δ_k^+`` (rounded up), ``lower``
    the root of ``δ_k^-`` (rounded down), both clipped to ``[0, k ε0]``; the
    grid is refined until ``gap <= rel_gap · min(upper, k ε0 - lower)`` or
    the budget is reached (see :func:`laplace_delta_bounds`).  ``delta`` must
    lie in ``[0, 1]`` (``ε_k(0) = k ε0`` and ``ε_k(1) = 0`` exactly).
    Without ``max_terms`` the limit is :data:`DEFAULT_MAX_TERMS` terms, raised
    to :data:`ESCALATED_MAX_TERMS` where the default would leave the curves
    too far from the truth and the larger limit is cheap and enough
    (``(ε0, k) = (0.1, 10^6)``, ``10^-12 <= δ <= 0.1``); a given ``max_terms``
    is kept.

    >>> b = laplace_epsilon_bounds("0.1", 100, "1e-6")
    >>> b.lower.rounded, b.upper.rounded
    ('4.692381369', '4.692777946')
    """
    check_digits(digits)
    e0, kk, e0f = _inputs(eps0, k)
    query = dict(query or {"eps0": text(eps0), "k": text(k), "delta": text(delta)})
    return _epsilon_bounds(_Spec.single(e0, kk, e0f), delta, digits, rel_gap, grid, max_terms, query)


def laplace_composition_epsilon_bounds(groups: object, delta: object, *, digits: int = DEFAULT_DIGITS,
                                       rel_gap: float = DEFAULT_REL_GAP, grid: int | None = None,
                                       max_terms: int | None = None,
                                       query: Mapping[str, str] | None = None) -> CertifiedBounds:
    """:func:`laplace_epsilon_bounds` for ``⊗ Laplace(ε0_g)^{c_g}`` (see :func:`laplace_composition_delta_bounds`).

    >>> b = laplace_composition_epsilon_bounds([(1, 10), ("1/2", 20)], "1e-6")
    >>> b.lower.rounded <= b.upper.rounded
    True
    """
    check_digits(digits)
    spec = _make_spec(_groups_input(groups))
    query = dict(query or {"groups": text(groups), "delta": text(delta)})
    return _epsilon_bounds(spec, delta, digits, rel_gap, grid, max_terms, query)


def _epsilon_bounds(spec: _Spec, delta: object, digits: int, rel_gap: object, grid: object, max_terms: object,
                    query: Mapping[str, str]) -> CertifiedBounds:
    d = real_input(delta, "delta")
    require_closed_unit(d, "delta")
    rel_target, grid, max_terms = _options(rel_gap, grid, max_terms)
    K, unit = spec.K, spec.unit
    if isinstance(d, fmpq) and d == 1:  # δ_k(0) <= 1: ε = 0
        return _bounds("epsilon", arb(0), arb(0), digits, "exact: every mechanism is (0, 1)-DP", query, True)
    if isinstance(d, fmpq) and d == 0:  # δ_k(ε) = 0 iff ε >= Σ ε0 (the largest loss has positive probability)
        total = (unit * K) if isinstance(unit, fmpq) else None
        if total is not None:
            c = certified_rational("epsilon", total, digits, "exact: delta(eps) = 0 iff eps >= k eps0 (R-G1; the "
                                   "largest loss k eps0 has positive probability)", query)
            return CertifiedBounds(certified_rational("epsilon", total, digits, c.method, query, direction="down"),
                                   c)
        prec = bits_for_digits(digits) + 32
        while True:
            with ctx.workprec(prec):
                value = to_arb(unit) * K
            result = _bounds("epsilon", value, value, digits, "exact: delta(eps) = 0 iff eps >= k eps0 (R-G1)",
                             query, True, prec)
            if result is not None:
                return result
            prec = _escalate(prec, "epsilon", digits)

    with ctx.workprec(64):
        d_float = float(to_arb(d).mid())
    prec = bits_for_digits(digits) + 64
    if grid:
        n, cap, max_terms = grid, grid, max_terms or DEFAULT_MAX_TERMS
    else:
        n, cap, max_terms = _plan(spec, max_terms, None, "this composition of Laplace mechanisms", "epsilon",
                                  d_float)
    cut = None
    budget = max(d_float * rel_target * _SLACK_FRACTION, 1e-300)
    escalations = 0
    while True:
        try:
            lat = _lattice(spec, n, prec, budget, cut)
            with ctx.workprec(prec):
                lo, up = _eps_roots(lat, d)
        except _OutOfRange:  # the guessed cut was too high: redo without it
            cut = None
            continue
        if up.is_zero():  # δ_k(0) <= δ^+(0) <= δ is proved: ε_k(δ) = 0 exactly
            result = _bounds("epsilon", up, up, digits, _method(lat, "; delta^+(0) <= delta"), query, True, prec)
        else:
            result = _bounds("epsilon", lo, up, digits, _method(lat, "; root brackets proved"), query, prec=prec)
            if result is None and escalations >= 2:
                result = _bounds("epsilon", lo, up, digits, _method(lat, "; root brackets proved"), query, prec=prec,
                                 loose=True)
        if result is None:
            prec, escalations = _escalate(prec, "epsilon", digits), escalations + 1
            continue
        rel = _relative_gap(lo, up, spec.total_f)
        if grid is not None or rel <= rel_target or n >= cap:
            return result
        # the next roots lie near these: only lattice values above a margin below them matter
        lo_f, up_f = float(lo.lower().mid()), float(up.upper().mid())
        floor = min(lo_f - 2 * (up_f - lo_f) - 16 * spec.unit_f / n, 0.0 if lo_f <= 0 else math.inf)
        if grid is None:
            cap = max(cap, _grid_cap(_per_step(spec, floor), max_terms))
        n = _next_grid(n, rel, rel_target, cap)
        cut = int(math.ceil((K - floor / spec.unit_f) * n / 2)) + 2 if floor > -spec.total_f else None


def _eps_roots(lat: _Lattice, delta: Real) -> tuple[arb, arb]:
    """Balls containing ``max(0, root of δ^-)`` and ``max(0, root of δ^+)`` (current precision)."""
    target = to_arb(delta)
    out = []
    for curve in (lat.lower, lat.upper):
        low, high = curve.root(target)
        if high <= 0:  # the root is at most 0: ε_k(δ) >= 0 by definition
            r = arb(0)
        elif low is None or not low > 0:  # it lies in (-inf or below 0, high]: max(0, root) in [0, high]
            r = arb(0).union(high)
        else:
            r = low.union(high)
        out.append(r)
    return out[0], out[1]
