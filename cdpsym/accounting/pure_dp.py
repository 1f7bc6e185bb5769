r"""Certified optimal composition of pure-DP mechanisms (randomized response), R-F7 and R-F8.

The k-fold adaptive composition of ``ε0``-DP mechanisms is exactly as private
as ``k``-fold randomized response ``RR_{ε0}^{⊗k}`` (Kairouz–Oh–Viswanath;
R-F7), whose privacy loss is ``l_i = (2i - k) ε0`` with probability
``b_i = C(k,i) p^i q^(k-i)``, ``p = e^{ε0}/(1+e^{ε0})``, ``q = 1 - p``.  Writing
``b'_i = C(k,i) q^i p^(k-i) = b_i e^{-l_i}`` (the same atom under the
neighbouring distribution), the exact profile is piecewise smooth:

.. math:: \delta(\varepsilon')=\sum_{i:\,l_i>\varepsilon'} b_i\big(1-e^{\varepsilon'-l_i}\big)
          = A_j - e^{\varepsilon'} B_j\quad\text{on } [l_{j-1}, l_j],\qquad
          A_j=\sum_{i\ge j}b_i,\ B_j=\sum_{i\ge j}b'_i,

so on the right segment the inverse is closed-form, ``ε' = log((A_j - δ)/B_j)``.

How it is computed (all in Arb ball arithmetic):

* **Only the terms that matter.**  One term is computed from log-gamma
  (``log C(k,i)`` with ``lgamma`` — no overflow at ``k = 10^7``), the others
  by the exact ratio recurrences ``b_{i+1}/b_i = (k-i)/(i+1) · e^{ε0}``,
  ``b'_{i+1}/b'_i = (k-i)/(i+1) · e^{-ε0}``.  The walk stops once the rest
  of the tail is negligible; the rest is *bounded*, not dropped: the ratios
  decrease in ``i``, so ``Σ_{t>e} b_t <= b_e ρ_e/(1-ρ_e)`` and that bound is
  added to the ball.  Cost: ``O(√(k · bits))`` terms beyond the mode (a
  few hundred for ``k = 1000``, about ``10^4`` for ``k = 10^7``), never more
  than ``O(k)``.
* ``δ(ε')`` is summed in the positive form ``Σ b_i (1 - e^{ε'-l_i})_+``
  (``expm1`` where the weight is small): nothing cancels.
* ``ε(δ)``: a cheap estimate of the segment (a geometric approximation of
  the tail), one walk from just below it, a search of the segment among the
  suffix sums, then the closed form; the segment is *proved* by checking
  ``l_{j-1} < ε' <= l_j`` in ball arithmetic (``δ`` is continuous and
  decreasing, and equals ``A_j - e^{ε'} B_j`` on that segment).  ``δ(0) <= δ``
  gives ``ε = 0``.  For up to 11 digits a fast path does the walk in floats
  (binomial ratios from exact integers, their rounding error bounded a
  priori) and evaluates ``A_j``, ``B_j`` as two Arb polynomial evaluations
  widened by that bound; the segment check is the same Arb proof
  (:func:`_homogeneous_epsilon_fast`).  It declines — and the walk above
  answers — whenever a check fails.
* **Heterogeneous** ``ε_i`` (R-F8, Murtagh–Vadhan): exact dynamic programming
  over the privacy-loss distribution, in Arb, merging equal losses exactly
  (the ``ε_i`` must be rational — ints, fractions, decimal strings, floats at
  their binary value).  It is exact always, and it is done while the number
  of distinct losses is *bounded* by :data:`MAX_ATOMS` (``2**16``), the bound
  being ``min(Π(c_g + 1), 2Σ c_g ε_g / g + 1)`` for groups of ``c_g`` equal
  ``ε_g`` on a common grid ``g`` (:func:`atom_bound`): that is ``k <= 15``
  for generic distinct ``ε_i``, far more when they repeat or lie on a coarse
  grid.  Beyond it :class:`~cdpsym.errors.ResourceLimit` is raised at
  once, before any work (computing OptComp exactly is #P-complete, MV16).  Irrational ``ε_i``
  are supported only in the homogeneous case.

References: Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776;
Murtagh & Vadhan 2016, Thm 1.5 (numbering unchecked), arXiv:1507.03113.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from fractions import Fraction

from flint import arb, arb_poly, ctx, fmpq

from cdpsym.accounting.certified import (DEFAULT_DIGITS, MAX_PREC, Certified, NeedPrecision, Real,
                                         bits_for_digits, certified_from_ball, certified_rational, certify, own_query,
                                         text, to_arb)
from cdpsym.errors import InvalidParameter, PrecisionError, ResourceLimit

__all__ = ["rr_delta", "rr_epsilon", "atom_bound", "homogeneous_delta_ball", "homogeneous_delta_estimate",
           "homogeneous_complement_ball", "homogeneous_complement_estimate",
           "laplace_single_delta", "laplace_single_epsilon", "max_loss", "approx_dp_delta", "approx_dp_epsilon", "DPComposition",
           "MAX_ATOMS", "require_atoms", "METHOD_HOMOGENEOUS", "METHOD_HETEROGENEOUS", "METHOD_LAPLACE", "METHOD_APPROX"]

MAX_ATOMS = 1 << 16
METHOD_HOMOGENEOUS = "optimal composition (KOV15 Thm 3.3, R-F7): binomial tail sums in Arb"
METHOD_HOMOGENEOUS_FAST = ("optimal composition (KOV15 Thm 3.3, R-F7): binomial tail sums as Arb polynomials in "
                           "error-bounded float coefficients")
METHOD_HETEROGENEOUS = "optimal composition (MV16, R-F8): exact privacy-loss distribution in Arb"

Groups = Sequence[tuple[Real, int]]


# -- homogeneous: the binomial walk ------------------------------------------------------------------------

def _logs(eps0: arb) -> tuple[arb, arb]:
    """``(log p, log q)`` for ``p = e^ε0/(1+e^ε0)``, without cancellation."""
    return -(-eps0).exp().log1p(), -eps0.exp().log1p()


def _terms_at(k: int, i: int, eps0: arb) -> tuple[arb, arb]:
    """``(b_i, b'_i)`` from log-gamma, at the current precision plus what ``lgamma`` of ``k`` needs."""
    extra = 2 * max(1, k.bit_length()) + 10
    with ctx.workprec(ctx.prec + extra):
        log_p, log_q = _logs(eps0)
        lc = arb(k + 1).lgamma() - arb(i + 1).lgamma() - arb(k - i + 1).lgamma()
        b = (lc + i * log_p + (k - i) * log_q).exp()
        bp = (lc + i * log_q + (k - i) * log_p).exp()
    return +b, +bp


def _tail_bound(term: arb, ratio: arb) -> arb:
    """A ball ``[0, term ρ/(1-ρ)]`` bounding ``Σ_{t>=1} term ρ^t`` (``ρ < 1`` must hold)."""
    if not ratio < 1:
        raise NeedPrecision("a tail ratio is not provably below 1")
    bound = (term * ratio / (1 - ratio)).upper()
    return arb(bound / 2, bound / 2)


def _log_float(x: arb) -> float:
    """``log`` of the midpoint of *x* as a float (``-inf`` unless ``x`` is provably positive).

    Never under- or overflows (read from the midpoint's mantissa and exponent);
    used only to steer the walk, never to certify.
    """
    if not x > 0:
        return -math.inf
    man, exp = x.mid().man_exp()
    return math.log(int(man)) + int(exp) * _LN2


_LN2 = math.log(2)


class _Window:
    """The terms ``(b_i, b'_i)`` for ``i`` in ``[s, e]`` and proved bounds on their tails beyond ``e``.

    The walk goes up from ``s`` by the ratio recurrences and stops (checked
    every 8 terms) once both tail bounds are below ``2^-trunc_bits`` of the
    largest term seen; the tails are then bounded rigorously
    (:func:`_tail_bound`), so truncation only costs accuracy, never soundness.
    """

    def __init__(self, k: int, eps0: arb, s: int, trunc_bits: int, need_a: bool = True) -> None:
        self.k, self.eps0, self.s = k, eps0, s
        self.r, self.rinv = eps0.exp(), (-eps0).exp()
        r, rinv = self.r, self.rinv
        rf = math.exp(min(float(eps0.mid()), 700.0))  # float control only
        b, bp = _terms_at(k, s, eps0)
        terms_b, terms_bp = [b], [bp]
        ref_a, ref_b = _log_float(b), _log_float(bp)
        drop = trunc_bits * math.log(2) + 5
        i = s
        r2inv = rinv * rinv
        append_b, append_bp = terms_b.append, terms_bp.append
        while i < k:
            cr = r * (k - i) / (i + 1)  # b_{i+1}/b_i; and b'_{i+1}/b'_i = cr e^{-2 ε0}
            b = b * cr
            bp = bp * cr * r2inv
            i += 1
            append_b(b)
            append_bp(bp)
            if i % 8 == 0 and i < k:
                fr = (k - i) / (i + 1)
                ra, rb = fr * rf, fr / rf
                la = _log_float(b)
                ref_a = max(ref_a, la)
                if ((not need_a or (ra < 0.99999 and la + math.log(ra / (1 - ra)) < ref_a - drop))
                        and rb < 0.99999 and _log_float(bp) + math.log(rb / (1 - rb)) < ref_b - drop):
                    break
        self.b, self.bp, self.e = terms_b, terms_bp, i
        if i >= k:
            self.tail_a = self.tail_b = arb(0)
        else:
            c = arb(k - i) / (i + 1)
            self.tail_a = _tail_bound(b, c * r) if need_a else arb.nan()
            self.tail_b = _tail_bound(bp, c * rinv)
        self._suffix: tuple[list[arb], list[arb]] | None = None

    def extend_down(self, steps: int) -> None:
        """Prepend ``steps`` terms below ``s`` (``b_{i-1} = b_i i/((k-i+1) e^ε0)``)."""
        b, bp = self.b[0], self.bp[0]
        new_b, new_bp = [], []
        i = self.s
        for _ in range(min(steps, self.s)):
            c = arb(i) / (self.k - i + 1)
            b = b * c * self.rinv
            bp = bp * c * self.r
            i -= 1
            new_b.append(b)
            new_bp.append(bp)
        self.b = new_b[::-1] + self.b
        self.bp = new_bp[::-1] + self.bp
        self.s = i
        self._suffix = None

    def suffix(self) -> tuple[list[arb], list[arb]]:
        """``A_j``, ``B_j`` for ``j = s … e`` (at index ``j - s``), tails included."""
        if self._suffix is None:
            n = len(self.b)
            a_sums, b_sums = [arb(0)] * n, [arb(0)] * n
            sa, sb = self.tail_a, self.tail_b
            for t in range(n - 1, -1, -1):
                sa = sa + self.b[t]
                sb = sb + self.bp[t]
                a_sums[t], b_sums[t] = sa, sb
            self._suffix = (a_sums, b_sums)
        return self._suffix


def _lower_tail(k: int, eps0: arb, top: int, trunc_bits: int) -> arb:
    """A ball containing ``Σ_{i<=top} b_i`` for ``top`` below the mode (walk down, tail bounded)."""
    if top < 0:
        return arb(0)
    rinv = (-eps0).exp()
    rf = math.exp(min(float(eps0.mid()), 700.0))  # float control only
    b, _ = _terms_at(k, top, eps0)
    total = b
    ref = _log_float(b)
    drop = trunc_bits * math.log(2) + 5
    i = top
    while i > 0:
        c = arb(i) / (k - i + 1)
        b = b * c * rinv
        i -= 1
        total += b
        if i % 8 == 0 and i > 0:
            rho = i / (k - i + 1) / rf
            if rho < 0.99999 and _log_float(b) + math.log(rho / (1 - rho)) < ref - drop:
                break
    if i > 0:
        total += _tail_bound(b, arb(i) / (k - i + 1) * rinv)
    return total


def _mode_and_sd(k: int, eps0f: float) -> tuple[float, float]:
    p = 1 / (1 + math.exp(-eps0f))
    return k * p, math.sqrt(k * p * (1 - p))


def _first_index(k: int, eps0_x: Real, eps: fmpq) -> tuple[int, bool]:
    """``(j, exact)``: ``j`` is the least ``i`` with ``l_i = (2i-k)ε0 > ε'`` when ``exact``, else a lower bound.

    Exact (``fmpq`` floor) when ``ε0`` is rational — so a loss exactly equal to
    ``ε'`` is placed correctly; from balls otherwise.
    """
    if isinstance(eps0_x, fmpq):
        j = int(((k + eps / eps0_x) / 2).floor()) + 1
        return max(j, 0), True
    eps0, e = to_arb(eps0_x), arb(eps)
    t = (k + e / eps0) / 2
    tf = float(t.lower().mid())
    # clamp first: with ε0 = e^-100, ε/ε0 is 10^43 and the walk below would take forever
    j = k + 1 if not tf < k else max(int(math.floor(tf)) + 1, -1)
    while j > 0 and not ((2 * (j - 1) - k) * eps0 <= e):
        j -= 1
    return max(j, 0), bool((2 * j - k) * eps0 > e)


def homogeneous_delta_ball(k: int, eps0_x: Real, eps: fmpq, trunc_bits: int) -> arb:
    """A ball containing ``δ(ε')`` of ``RR_{ε0}^{⊗k}`` at ``ε' = eps >= 0``, at the current precision (R-F7)."""
    eps0 = to_arb(eps0_x)
    e = arb(eps)
    if eps0 == 0:
        return arb(0)
    j, exact = _first_index(k, eps0_x, eps)
    if j > k:
        return arb(0)
    mode, sd = _mode_and_sd(k, float(eps0.mid()))
    if j < mode - 8 * sd - 64 and exact:
        # far below the mode: δ = (1 - Σ_{i<j} b_i) - e^{ε'} Σ_{i>=j} b'_i, with j exactly the first
        # index above ε' (a term with l_i <= ε' would enter with the wrong sign), no walk through the mode
        lower = _lower_tail(k, eps0, j - 1, trunc_bits)
        window = _Window(k, eps0, j, trunc_bits, need_a=False)
        b_sum = window.tail_b
        for bp in window.bp:
            b_sum += bp
        return (1 - lower) - e.exp() * b_sum
    # positive form from j (terms below the first index have weight (.)_+ = 0)
    window = _Window(k, eps0, j, trunc_bits)
    return _weighted_sum(window.b, k, j, eps0, e) + window.tail_a  # the tail beyond e has weights in [0, 1]


def homogeneous_complement_ball(k: int, eps0_x: Real, eps: fmpq, trunc_bits: int) -> arb:
    """A ball containing ``1 - δ(ε')`` of ``RR_{ε0}^{⊗k}`` at ``ε' = eps >= 0``, to full *relative* accuracy.

    ``1 - δ(ε') = Σ_{i<j} b_i + e^{ε'} Σ_{i>=j} b'_i`` (``j`` the first index with
    ``l_j > ε'``): two sums of positive terms, so nothing cancels where ``δ`` is
    within ``10^-50`` of ``1`` (there ``δ`` itself would need 166 more bits
    before its complement had one).  Both tails are bounded, not dropped.
    """
    eps0 = to_arb(eps0_x)
    e = arb(eps)
    if eps0 == 0:
        return arb(1)
    j, exact = _first_index(k, eps0_x, eps)
    if not exact:
        raise NeedPrecision("the first index above eps is not yet decided")
    if j > k:
        return arb(1)
    lower = _lower_tail(k, eps0, j - 1, trunc_bits)
    window = _Window(k, eps0, j, trunc_bits, need_a=False)
    b_sum = window.tail_b
    for bp in window.bp:
        b_sum += bp
    return lower + e.exp() * b_sum


def homogeneous_complement_estimate(k: int, eps0: float, eps: float) -> tuple[float, float]:
    """``(log(1 - δ(ε')), d log(1 - δ) / d log ε0)`` at ``ε0`` as floats — an *estimate*, never trusted.

    For calibration where the target ``δ`` is close to ``1`` (:func:`homogeneous_delta_estimate` sees only
    ``log δ ≈ 0`` there).  With ``d log b_i/dε0 = i - kp`` and ``d log b'_i/dε0 = kq - i``.
    """
    with ctx.workprec(64 + k.bit_length()):
        e0 = arb(eps0)
        e = arb(eps)
        j = int(math.floor((k + eps / eps0) / 2)) + 1
        if j > k:
            return 0.0, 0.0
        j = max(j, 0)
        p = 1 / (1 + (-e0).exp())
        kp = k * p
        kq = k - kp
        total, slope = arb(0), arb(0)
        if j >= 1:  # Σ_{i<j} b_i, walking down from j - 1 (the rest of the tail is dropped: an estimate)
            rinv = (-e0).exp()
            rf = math.exp(min(eps0, 700.0))
            i = j - 1
            b, _ = _terms_at(k, i, e0)
            ref = _log_float(b)
            while True:
                total += b
                slope += (i - kp) * b
                ref = max(ref, _log_float(b))
                if i == 0:
                    break
                b = b * (arb(i) / (k - i + 1)) * rinv
                i -= 1
                if i % 8 == 0 and i > 0:
                    rho = i / (k - i + 1) / rf
                    if rho < 0.99999 and _log_float(b) + math.log(rho / (1 - rho)) < ref - 45:
                        break
        window = _Window(k, e0, j, 56, need_a=False)
        g = e.exp()
        for t, bp in enumerate(window.bp):
            total += g * bp
            slope += g * (kq - (j + t)) * bp
        if not total > 0:
            return -math.inf, math.nan
        return float(total.log().mid()), float((slope / total * e0).mid())


def _weighted_sum(terms: Sequence[arb], k: int, j: int, eps0: arb, e: arb) -> arb:
    """``Σ_t terms[t] (1 - e^{ε' - l_{j+t}})_+`` without cancellation (current precision).

    Once a weight ``w_t = 1 - e^{ε' - l_{j+t}}`` is provably positive the
    next ones follow from ``w_{t+1} = s w_t + (1 - s)``, ``s = e^{-2ε0}``: two
    positive terms, so nothing cancels and no ``expm1`` is needed per term
    (for ``ε0 = 10^-10`` every weight is close to ``0`` or far from it only
    after billions of terms, and ``expm1`` per term was the cost).
    """
    total = arb(0)
    s = (-2 * eps0).exp()
    one_minus_s = -(-2 * eps0).expm1()
    w = None
    for t, b in enumerate(terms):
        if w is None:
            w_t = -(e - (2 * (j + t) - k) * eps0).expm1()
            if w_t > 0:
                w = w_t
            else:
                total += b * w_t.nonnegative_part()
                continue
        total += b * w
        w = w * s + one_minus_s
    return total


def homogeneous_delta_estimate(k: int, eps0: float, eps: float, per_log: bool = False) -> tuple[float, float]:
    """``(log δ(ε'), d log δ / d ε0)`` at ``ε0`` as floats — an *estimate* for calibration, never trusted.

    ``per_log``: the slope ``d log δ / d log ε0`` instead (finite where ``d/dε0``
    overflows a float, at ``ε0 = 5·10^-307``).

    ``d b_i / d ε0 = (i - kp) b_i`` and ``d/dε0 (1 - e^{ε'-l_i}) = (2i-k) e^{ε'-l_i}``.
    """
    with ctx.workprec(64 + k.bit_length()):  # summing ~sqrt(k) terms: keep ~60 bits after the rounding errors
        e0 = arb(eps0)
        e = arb(eps)
        j = int(math.floor((k + eps / eps0) / 2)) + 1
        if j > k:
            return -math.inf, math.nan
        j = max(j, 0)
        window = _Window(k, e0, j, 56)  # the estimate steers a bracket of relative width 2^-41: 56 bits suffice
        p = 1 / (1 + (-e0).exp())
        total, slope = arb(0), arb(0)
        g = (e - (2 * j - k) * e0).exp()
        step = (-2 * e0).exp()
        one_minus_step = -(-2 * e0).expm1()
        w = (-(e - (2 * j - k) * e0).expm1()).nonnegative_part()
        kp = k * p
        for t, b in enumerate(window.b):
            i = j + t
            total += b * w
            slope += b * ((i - kp) * w + (2 * i - k) * g)
            g = g * step
            w = w * step + one_minus_step  # w_{t+1} = 1 - g_{t+1}, without cancellation
        if not total > 0:
            return -math.inf, math.nan
        ratio = slope / total
        return float(total.log().mid()), float((ratio * e0 if per_log else ratio).mid())


# -- homogeneous epsilon ----------------------------------------------------------------------------------------

def _log_b_float(k: int, i: int, eps0f: float) -> float:
    """``log b_i = log(C(k,i) p^i q^(k-i))`` in floating point (an estimate, never trusted)."""
    log_q = -eps0f - math.log1p(math.exp(-eps0f))
    return (math.lgamma(k + 1) - math.lgamma(i + 1) - math.lgamma(k - i + 1)
            + i * (log_q + eps0f) + (k - i) * log_q)  # log p = log q + ε0


def _estimate_segment(k: int, eps0f: float, target_log: float) -> int:
    """A rough guess of the segment index ``j`` (geometric approximation of the tail; never trusted)."""
    eps0f = min(eps0f, 700.0)  # an estimate only; keeps the floats finite
    c = math.exp(-2 * eps0f)

    def log_d(j: int) -> float:  # ≈ log δ(l_j)
        lb = _log_b_float(k, j, eps0f)
        rho = (k - j) / (j + 1) * math.exp(eps0f)
        if rho >= 1:
            return math.inf
        geo = rho / (1 - rho) - rho * c / (1 - rho * c)
        return lb + math.log(max(geo, 1e-300))

    lo, hi = k // 2, k
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if log_d(mid) > target_log:
            lo = mid
        else:
            hi = mid
    return hi


def _homogeneous_epsilon_ball(k: int, eps0_x: Real, delta: fmpq, trunc_bits: int) -> arb:
    """A ball containing the least ``ε' >= 0`` with ``δ(ε') <= delta`` (the segment is proved).

    ``j0 = ceil(k/2)`` is the segment that contains ``0`` (``l_{j0-1} < 0 <= l_{j0}``);
    the walk never goes below it, and ``δ(0) = A_{j0} - B_{j0}`` decides ``ε = 0``.
    """
    eps0 = to_arb(eps0_x)
    if eps0 == 0:
        return arb(0)
    target = delta if isinstance(delta, arb) else arb(delta)  # a ball is fine: every comparison holds for all of it
    j0 = (k + 1) // 2
    j_guess = _estimate_segment(k, float(eps0.mid()), float(target.log().mid()))
    window = _Window(k, eps0, max(j0, j_guess - 2), trunc_bits)
    for _ in range(400):
        a_sums, b_sums = window.suffix()
        n = len(a_sums)

        def above(t: int) -> bool:  # estimate (midpoints only): δ(l_{s+t}) = A - e^{l} B > target
            i = window.s + t
            value = a_sums[t] - ((2 * i - k) * eps0).exp() * b_sums[t]
            return bool(value.mid() > target.mid())

        if window.s > j0 and not above(0):  # the root is at or below l_s: extend the walk down
            first = a_sums[0] - ((2 * window.s - k) * eps0).exp() * b_sums[0]
            if not first <= target:  # a midpoint of a ball this wide says nothing: walking on it could take
                # the walk all the way down to k/2 (10^8 terms at k = 10^9); more precision decides first
                raise NeedPrecision("the suffix sums cannot yet tell on which side of the walk the root lies",
                                    bits=2 * ctx.prec)
            window.extend_down(min(window.s - j0, max(4, n // 4)))
            continue
        if above(n - 1):
            raise NeedPrecision("the walk did not reach the root segment")
        lo, hi = 0, n - 1  # smallest t with δ(l_{s+t}) <= target: the root is in (l_{j-1}, l_j], j = s + t
        if not above(0):
            hi = 0
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if above(mid):
                lo = mid
            else:
                hi = mid
        t = hi
        extended = False
        for _ in range(8):
            j = window.s + t
            a, b = a_sums[t], b_sums[t]
            if j == j0:  # the segment [l_{j0-1}, l_{j0}] contains 0, where δ(0) = A_{j0} - B_{j0}
                d0 = a - b
                if d0 < target:
                    return arb(0)
                if not d0 > target:
                    raise NeedPrecision("delta(0) is too close to delta to decide whether eps = 0")
                root = ((a - target) / b).log()
                if root > 0 and root <= (2 * j - k) * eps0:
                    return root
                if root > (2 * j - k) * eps0 and t + 1 < n:
                    t += 1
                    continue
                raise NeedPrecision("the closed-form root is not provably inside its segment")
            left, right = (2 * (j - 1) - k) * eps0, (2 * j - k) * eps0
            excess = a - target
            if not excess > 0:
                raise NeedPrecision("A_j - delta is not provably positive")
            root = (excess / b).log()
            if root > right and t + 1 < n:
                t += 1
                continue
            if root <= left:
                if t >= 1:
                    t -= 1
                    continue
                window.extend_down(min(window.s - j0, max(4, n // 4)))
                extended = True
                break
            if root > left and root <= right:  # proved: δ(root) = target, root in (l_{j-1}, l_j], l_{j-1} >= 0
                return root
            raise NeedPrecision("the closed-form root is not provably inside its segment")
        if not extended:
            raise NeedPrecision("the segment search did not settle")
    raise NeedPrecision("the segment search did not settle")


# -- homogeneous epsilon: the fast path (float-steered, Arb-proved) --------------------------------------------

#: Python floats are IEEE-754 binary64 rounded to nearest: each ``*`` and ``/`` of two floats is exact up to
#: a factor ``(1 + θ)``, ``|θ| <= 2^-53``; :func:`_homogeneous_epsilon_fast` charges ``2^-52`` per operation,
#: a margin that also covers double rounding.  Anything else: the fast path is off.
_IEEE_BINARY64 = sys.float_info.radix == 2 and sys.float_info.mant_dig == 53 and sys.float_info.rounds == 1
#: every float the error analysis relies on stays above this (the normal range, where the bound holds)
_TINY = 2.0 ** -1000
#: the fast path walks at most this many terms (about 50 sd of the binomial at k = 10^7)
_FAST_TERMS = 40000


def _extend_walk(us: list[float], betas: list[float], k: int, s: int, r_f: float, floor: float) -> bool:
    """Extend the float walk from ``s`` until the estimated tail ``β ρ/(1-ρ)`` is below *floor*.

    ``us[t] = û_t`` (the error-bounded coefficients: ``u * (k - i) / (i + 1)``,
    two rounded operations on exact integers per step), ``betas[t] = û_t r^t``
    (steering only).  The stopping rule is checked every 8 terms.  ``False``
    when a coefficient leaves the normal range or the walk grows past
    :data:`_FAST_TERMS`.
    """
    n = len(us)
    i = s + n - 1
    u, beta = us[-1], betas[-1]
    add_u, add_beta = us.append, betas.append
    while i < k:
        rho = r_f * (k - i) / (i + 1)
        if rho < 0.999 and beta * rho / (1 - rho) < floor:
            return True
        if n > _FAST_TERMS:
            return False
        for _ in range(min(8, k - i)):
            u = u * (k - i) / (i + 1)
            beta = beta * r_f * (k - i) / (i + 1)
            i += 1
            add_u(u)
            add_beta(beta)
        n += 8
        if not u >= _TINY:  # u decreases: the last one is the smallest
            return False
    return True


def _homogeneous_epsilon_fast(k: int, eps0_x: Real, delta: fmpq, prec: int, trunc_bits: int) -> arb | None:
    r"""A ball containing ``ε(δ)`` of ``RR_{ε0}^{⊗k}`` with segment above the one at ``0``, or ``None``.

    Floats only *find* the segment and supply polynomial coefficients whose
    error is bounded a priori; Arb proves the rest:

    * From a start ``s`` below the estimated segment, the binomial ratios
      ``u_t = C(k, s+t)/C(k, s)`` are computed in floats from exact integers
      (``u_{t+1} = u_t (k-s-t)/(s+t+1)``: two rounded operations per step), so
      ``û_t = u_t (1 + θ_t)`` with ``|θ_t| <= γ = (1 + 2^-52)^{2T} - 1``
      (Higham, *Accuracy and Stability of Numerical Algorithms*, Lemma 3.1),
      as long as every intermediate stays in the normal range (checked).
    * With ``r = e^{ε0}``, ``b_{s+t} = b_s u_t r^t`` and ``b'_{s+t} = b'_s u_t r^{-t}``,
      so for ``j = s + d``

      .. math:: A_j = b_s r^d \sum_{t\ge0} u_{d+t} r^t,\qquad
                B_j = b'_s r^{-d} \sum_{t\ge0} u_{d+t} r^{-t};

      the sums are Arb polynomial evaluations with the float coefficients,
      widened by the factor ``[1/(1+γ), 1/(1-γ)]`` (all terms are positive),
      plus a proved bound on the terms past the last one (the ratios decrease).
    * ``ε' = log((A_j - δ)/B_j)`` and ``l_{j-1} < ε' <= l_j`` proved in Arb,
      exactly as in the general path; ``None`` when anything does not check out.
    """
    if not _IEEE_BINARY64 or k >= 1 << 52:
        return None
    with ctx.workprec(64):
        eps0_f = float(to_arb(eps0_x).mid())
    if not 0 < eps0_f < 700:
        return None
    log_t = math.log(int(delta.p)) - math.log(int(delta.q))
    j0 = (k + 1) // 2  # the segment that contains ε = 0: left to the general path
    s = max(j0, _estimate_segment(k, eps0_f, log_t) - 16)
    r_f = math.exp(eps0_f)
    # the float walk: û_t (coefficients, error-bounded) and β_t = u_t r^t (steering only)
    us, betas = [1.0], [1.0]
    drop = 2.0 ** -trunc_bits
    w = 1.0 / (r_f * r_f)
    threshold = math.exp(min(log_t - _log_b_float(k, s, eps0_f), 700.0))  # δ / b_s
    # walk until the tail is below drop * ref; the segment's first term is typically 0.1 … 10 times δ/b_s
    ref = min(1.0, threshold) / 64
    for _ in range(3):
        if not _extend_walk(us, betas, k, s, r_f, drop * ref):
            return None
        last = len(us) - 1
        # δ(l_{s+t}) / b_s = Σ_{t'>=t} β_t' (1 - r^{-2(t'-t)}): backward sums, as float estimates
        sa = sb = 0.0
        found = None
        for t in range(last, -1, -1):
            sa += betas[t]
            sb = betas[t] + w * sb
            if sa - sb > threshold:  # δ(l_{s+t}) > δ: the root is in the segment just above
                found = t + 1
                break
        if found is None or found > last or s + found <= j0:
            return None  # the root is below the walk's start (or in the segment of 0): the general path decides
        ref = betas[found]  # the tail must be small against the segment's own first term: walk on if it is not
        if not _extend_walk(us, betas, k, s, r_f, drop * ref):
            return None
        if len(us) == last + 1:
            break
    else:
        return None
    j, d = s + found, found
    with ctx.workprec(prec):
        eps0 = to_arb(eps0_x)
        r = eps0.exp()
        rinv = 1 / r
        b_s, bp_s = _terms_at(k, s, eps0)
        gamma = (1 + arb(2) ** -52) ** (2 * last) - 1
        spread = (1 / (1 + gamma)).union(1 / (1 - gamma))
        poly = arb_poly(us[d:])
        sum_a, sum_b = poly(r) * spread, poly(rinv) * spread
        if s + last < k:  # the terms past the last one, bounded (their ratios decrease)
            u_last = arb(us[last]) / (1 - gamma)
            c = arb(k - s - last) / (s + last + 1)
            try:
                sum_a += _tail_bound(u_last * r ** (last - d), c * r)
                sum_b += _tail_bound(u_last * rinv ** (last - d), c * rinv)
            except NeedPrecision:
                return None
        a_j = b_s * r ** d * sum_a
        b_j = bp_s * rinv ** d * sum_b
        excess = a_j - arb(delta)
        if not excess > 0:
            return None
        root = (excess / b_j).log()
        if root > (2 * (j - 1) - k) * eps0 and root <= (2 * j - k) * eps0:
            return root  # proved: δ(root) = delta with root in (l_{j-1}, l_j], l_{j-1} >= 0
    return None


# -- heterogeneous: exact privacy-loss distribution ---------------------------------------------------------------

def _binomial_masses(eps: arb, c: int) -> list[arb]:
    """``P[Bin(c, p) = i]`` for ``i = 0 … c`` at the current precision."""
    q0 = (-c * eps.exp().log1p()).exp()  # q^c
    ratio = eps.exp()
    masses = [q0]
    m = q0
    for i in range(c):
        m = m * (c - i) / (i + 1) * ratio
        masses.append(m)
    return masses


def atom_bound(groups: Sequence[tuple[fmpq, int]]) -> int:
    """An upper bound on the number of distinct losses: ``min(Π (c_g + 1), 2S/g + 1)``.

    ``S = Σ c_g ε_g`` and ``g`` the largest rational with every ``ε_g`` a
    multiple of it: every loss lies on the grid ``-S, -S + 2g, …, S``.
    """
    product = 1
    for _, c in groups:
        product *= c + 1
    fracs = [Fraction(int(e.p), int(e.q)) for e, _ in groups]
    num = 0
    den = 1
    for f in fracs:
        den = den * f.denominator // math.gcd(den, f.denominator)
    for f in fracs:
        num = math.gcd(num, f.numerator * (den // f.denominator))
    grid = Fraction(num, den)
    total = sum(f * c for f, (_, c) in zip(fracs, groups))
    return min(product, int(total / grid) + 1)


def _loss_distribution(groups: Sequence[tuple[fmpq, int]]) -> list[tuple[Fraction, arb]]:
    """``[(loss, P-mass)]`` of the product of randomized responses, losses exact and distinct."""
    if atom_bound(groups) > MAX_ATOMS:
        raise _too_many(groups)
    dist: dict[Fraction, arb] = {Fraction(0): arb(1)}
    for eps_q, c in groups:
        e = Fraction(int(eps_q.p), int(eps_q.q))
        masses = _binomial_masses(arb(eps_q), c)
        new: dict[Fraction, arb] = {}
        for loss, prob in dist.items():
            for i, m in enumerate(masses):
                key = loss + (2 * i - c) * e
                new[key] = new[key] + prob * m if key in new else prob * m
        dist = new
    return sorted(dist.items(), key=lambda item: item[0], reverse=True)


def _too_many(groups: Sequence[tuple[fmpq, int]]) -> ResourceLimit:
    """The up-front refusal of an exact heterogeneous composition whose loss distribution is too large.

    A cost limit, not a domain error (the query is well posed): a
    :class:`~cdpsym.errors.ResourceLimit`, so the command line exits 2.
    """
    bound = atom_bound(groups)
    shown = f"about 10^{len(str(bound)) - 1}" if bound >= 10 ** 12 else str(bound)
    return ResourceLimit(
        f"the exact heterogeneous pure-DP composition (R-F8) of {len(groups)} distinct eps_i "
        f"(k={sum(c for _, c in groups)}) would track up to {shown} distinct privacy losses, beyond the limit of "
        f"{MAX_ATOMS} (bound: min(prod(c_i + 1), 2 sum(c_i eps_i)/grid + 1); OptComp is #P-complete in general); "
        "to get an answer, round the eps_i up to multiples of a coarser common grid (e.g. 1/100: rounding each "
        "eps_i up gives a valid upper bound), use fewer distinct eps_i, or compose fewer mechanisms")


def require_atoms(groups: Sequence[tuple[Real, int]]) -> None:
    """Refuse up front (:class:`~cdpsym.errors.ResourceLimit`) a heterogeneous composition beyond :data:`MAX_ATOMS`."""
    if len(groups) > 1 and all(isinstance(e, fmpq) for e, _ in groups) and atom_bound(groups) > MAX_ATOMS:
        raise _too_many(groups)  # type: ignore[arg-type]


def _heterogeneous_delta_ball(groups: Sequence[tuple[fmpq, int]], eps: fmpq) -> arb:
    e = Fraction(int(eps.p), int(eps.q))
    total = arb(0)
    ea = arb(eps)
    for loss, prob in _loss_distribution(groups):
        if loss <= e:
            break
        total += prob * (-(ea - arb(fmpq(loss.numerator, loss.denominator))).expm1())
    return total


def _heterogeneous_epsilon_ball(groups: Sequence[tuple[fmpq, int]], delta: fmpq) -> arb:
    """The least ``ε >= 0`` with ``δ(ε) <= delta`` from the exact loss distribution (segment proved).

    Losses ``L_0 > L_1 > …``; on ``[L_{j+1}, L_j]`` the profile is
    ``A_j - e^ε B_j`` with ``A_j = Σ_{a<=j} P_a``, ``B_j = Σ_{a<=j} P_a e^{-L_a}``.
    """
    atoms = _loss_distribution(groups)
    target = delta if isinstance(delta, arb) else arb(delta)
    a, b = arb(0), arb(0)
    for idx, (loss, prob) in enumerate(atoms):
        la = arb(fmpq(loss.numerator, loss.denominator))
        a = a + prob
        b = b + prob * (-la).exp()
        nxt = atoms[idx + 1][0] if idx + 1 < len(atoms) else None
        if loss >= 0 and (nxt is None or nxt < 0):  # this segment contains 0, where δ(0) = A - B
            d0 = a - b
            if d0 < target:
                return arb(0)
            if not d0 > target:
                raise NeedPrecision("delta(0) is too close to delta to decide whether eps = 0")
            root = ((a - target) / b).log()
            if root > 0 and root <= la:
                return root
            raise NeedPrecision("the closed-form root is not provably inside its segment")
        # the root is in this segment iff δ(L_{idx+1}) = A - e^{L_{idx+1}} B > target (estimate; proved below)
        lower_end = arb(fmpq(nxt.numerator, nxt.denominator))  # type: ignore[union-attr]
        if (a - lower_end.exp() * b).mid() <= target.mid():
            continue
        excess = a - target
        if not excess > 0:
            raise NeedPrecision("A_j - delta is not provably positive")
        root = (excess / b).log()
        if root <= la and root >= lower_end:  # proved: δ(root) = delta, root in [L_{idx+1}, L_idx], L_{idx+1} >= 0
            return root
        raise NeedPrecision("the closed-form root is not provably inside its segment")
    raise NeedPrecision("no segment found")  # pragma: no cover - the segment containing 0 always returns


# -- public entry points ----------------------------------------------------------------------------------

MAX_EPS0 = 10 ** 6  # beyond it the float estimates of the binomial walk overflow


def _decimal_exponent(e) -> str:
    try:
        return str(int(e.mid().log().mid()) // 2) if hasattr(e, "mid") else str(len(str(int(e.p) // int(e.q))) - 1)
    except Exception:  # noqa: BLE001 - only used to word the message
        return "?"


def _clean(groups: Groups) -> list[tuple[Real, int]]:
    """Drop ``ε = 0`` factors (fair coins) and merge equal ``ε``."""
    merged: dict[object, int] = {}
    order: list[Real] = []
    for e, c in groups:
        if c <= 0 or (isinstance(e, fmpq) and e == 0):
            continue
        if not (e <= MAX_EPS0):
            raise InvalidParameter(f"eps0 is beyond the range the pure-DP accountant works in, (0, {MAX_EPS0}]: "
                                   f"got eps0 of about 10^{_decimal_exponent(e)}")
        key = (int(e.p), int(e.q)) if isinstance(e, fmpq) else e
        if key not in merged:
            order.append(e)
            merged[key] = 0
        merged[key] += c
    return [(e, merged[(int(e.p), int(e.q)) if isinstance(e, fmpq) else e]) for e in order]


def _delta_compute(groups: list[tuple[Real, int]], eps: fmpq):  # type: ignore[no-untyped-def]
    def compute(prec: int) -> arb:
        if not groups:
            return arb(0)  # P = Q and eps >= 0
        if len(groups) == 1:
            e0, k = groups[0]
            return homogeneous_delta_ball(k, e0, eps, _trunc_bits(prec, k))
        if not all(isinstance(e, fmpq) for e, _ in groups):
            raise InvalidParameter("heterogeneous randomized-response composition needs rational eps_i "
                                   f"(got {[str(e) for e, _ in groups]})")
        return _heterogeneous_delta_ball(groups, eps)  # type: ignore[arg-type]

    return compute


def _symmetric(compute, eps: fmpq):  # type: ignore[no-untyped-def]
    """For ``ε < 0``: ``δ(ε) = 1 - e^ε + e^ε δ(-ε)``, from a ``compute`` of ``δ`` at ``-ε > 0``.

    Holds for every pair ``(P, Q)`` with ``(P, Q)`` and ``(Q, P)`` equally
    private (randomized response, Laplace, Gaussian and their products): the
    hockey-stick divergences satisfy ``H_{e^ε}(P||Q) = 1 - e^ε + e^ε H_{e^{-ε}}(Q||P)``.
    """
    if not eps < 0:
        return compute

    def at_negative(prec: int) -> arb:
        e = arb(eps)
        return -e.expm1() + e.exp() * compute(prec)

    return at_negative


def rr_delta(groups: Groups, eps: fmpq, digits: int = DEFAULT_DIGITS,
             query: Mapping[str, str] | None = None) -> Certified:
    """The exact ``δ(ε')`` of ``⊗ RR_{ε_g}^{⊗ c_g}`` (= optimal ``ε_g``-DP composition), rounded up; any real ``ε'``."""
    groups = _clean(groups)
    if len(groups) > 1 and all(isinstance(e, fmpq) for e, _ in groups) and eps >= sum(c * e for e, c in groups):
        # beyond the largest loss sum(c_i eps_i) the profile is exactly 0 (no loss distribution needed)
        return Certified("delta", arb(0), "0", "up", digits, METHOD_HETEROGENEOUS + "; eps >= the largest loss "
                         "sum(k_i eps_i): exactly 0", own_query(query or {}), True)
    require_atoms(groups)
    method = METHOD_HOMOGENEOUS if len(groups) <= 1 else METHOD_HETEROGENEOUS
    compute = _symmetric(_delta_compute(groups, abs(eps)), eps)
    k = sum(c for _, c in groups)
    return certify("delta", compute, digits=digits, method=method, query=query or {},
                   start_prec=bits_for_digits(digits) + 20 + k.bit_length(),
                   what="the optimal-composition delta(eps)")


def max_loss(groups: Groups, digits: int = DEFAULT_DIGITS, query: Mapping[str, str] | None = None,
             method: str = "") -> Certified:
    """``Σ c_g ε_g``, the least ``ε'`` with ``δ(ε') = 0`` (the largest loss has probability ``Π p_g^{c_g} > 0``)."""
    groups = _clean(groups)
    method = method or "exact: delta(eps) = 0 iff eps >= the largest privacy loss sum(k_i eps_i) (R-F7/R-F8)"
    if all(isinstance(e, fmpq) for e, _ in groups):
        total = fmpq(0)
        for e, c in groups:
            total += c * e
        return certified_rational("epsilon", total, digits, method, query or {})

    def compute(prec: int) -> arb:
        total = arb(0)
        for e, c in groups:
            total += c * to_arb(e)
        return total

    return certify("epsilon", compute, digits=digits, method=method, query=query or {}, what="the largest loss")


#: ε(δ) walks this many bits less far than δ(ε) at the same precision: the closed-form root needs the
#: tail sums only to the certified digits (a short walk only widens the ball, and ``certify`` then
#: escalates — truncation never costs soundness, the dropped tail is bounded and added)
_EPS_TRUNC_SLACK = 12


def _trunc_bits(prec: int, k: int) -> int:
    """How far the binomial walk goes (relative bits of the largest term): the precision less its guard."""
    return max(24, prec - 20 - k.bit_length())


def rr_epsilon(groups: Groups, delta: fmpq, digits: int = DEFAULT_DIGITS,
               query: Mapping[str, str] | None = None) -> Certified:
    """The least ``ε' >= 0`` with ``δ(ε') <= delta`` for the product of randomized responses, rounded up."""
    groups = _clean(groups)
    query = own_query(query or {})
    method = METHOD_HOMOGENEOUS if len(groups) <= 1 else METHOD_HETEROGENEOUS
    if len(groups) > 1 and not all(isinstance(e, fmpq) for e, _ in groups):
        raise InvalidParameter("heterogeneous randomized-response composition needs rational eps_i "
                               f"(got {[str(e) for e, _ in groups]})")
    require_atoms(groups)
    k = sum(c for _, c in groups)
    if not groups:
        return Certified("epsilon", arb(0), "0", "up", digits, method + "; P = Q", query, True)

    def compute(prec: int) -> arb:
        if len(groups) == 1:
            e0, kk = groups[0]
            return _homogeneous_epsilon_ball(kk, e0, delta, _trunc_bits(prec - _EPS_TRUNC_SLACK, kk))
        return _heterogeneous_epsilon_ball(groups, delta)  # type: ignore[arg-type]

    start = bits_for_digits(digits) + 8 + k.bit_length()
    if len(groups) == 1 and digits <= 11:
        e0, kk = groups[0]
        ball = _homogeneous_epsilon_fast(kk, e0, delta, start, _trunc_bits(start - _EPS_TRUNC_SLACK, kk))
        if ball is not None:
            fast = certified_from_ball("epsilon", ball, digits,
                                       METHOD_HOMOGENEOUS_FAST + "; segment proved, closed form", query)
            if fast is not None:
                return fast
    return certify("epsilon", compute, digits=digits, method=method + "; segment proved, closed form",
                   query=query, start_prec=start, what="the optimal-composition epsilon(delta)")


# -- the single Laplace mechanism (exact, R-E5) ------------------------------------------------------------

METHOD_LAPLACE = "exact Laplace profile (R-E5): delta = max(0, 1 - exp((eps - eps0)/2))"


def _compare(x: fmpq, y: Real) -> int | None:
    """The sign of ``x - y`` (exact for rational ``y``, proved in Arb otherwise), ``None`` if undecided."""
    if isinstance(y, fmpq):
        return (x > y) - (x < y)
    for prec in (64, 256, 1024, 4096, MAX_PREC):
        with ctx.workprec(prec):
            d = arb(x) - to_arb(y)
            if d > 0:
                return 1
            if d < 0:
                return -1
    return None


def laplace_single_delta(eps0: Real, eps: fmpq, digits: int = DEFAULT_DIGITS,
                         query: Mapping[str, str] | None = None) -> Certified:
    """``δ(ε)`` for one Laplace mechanism with ``ε0 = Δ/b``, rounded up, for every real ``ε``:
    ``0`` for ``ε >= ε0``, ``1 - e^{(ε-ε0)/2}`` for ``|ε| <= ε0``, ``1 - e^ε`` for ``ε <= -ε0`` (R-E5 and symmetry).

    The case is decided exactly (``ε = ε0 = 1/100`` gives exactly ``0``: a
    ball for ``ε - ε0`` would straddle ``0`` at every precision).
    """
    above = _compare(eps, eps0)
    below = _compare(-eps, eps0)
    if above is None or below is None:
        raise PrecisionError(f"cannot decide whether eps={text(eps)} equals +-eps0={text(eps0)} (they agree to "
                             f"2^-{MAX_PREC}); give eps0 as an exact rational")
    if above >= 0:
        return Certified("delta", arb(0), "0", "up", digits, METHOD_LAPLACE + "; eps >= eps0: exactly 0",
                         own_query(query or {}), True)

    def compute(prec: int) -> arb:
        if below >= 0:  # ε <= -ε0: every loss exceeds ε
            return -arb(eps).expm1()
        return -((arb(eps) - to_arb(eps0)) / 2).expm1()

    return certify("delta", compute, digits=digits, method=METHOD_LAPLACE, query=query or {},
                   what="the Laplace delta(eps)")


def laplace_single_epsilon(eps0: Real, delta: fmpq, digits: int = DEFAULT_DIGITS,
                           query: Mapping[str, str] | None = None) -> Certified:
    """The least ``ε >= 0`` with ``δ(ε) <= delta``: ``max(0, ε0 + 2 log(1 - delta))``, rounded up (``ε0`` at 0)."""
    if delta == 0:
        return max_loss([(eps0, 1)], digits, query, "exact: delta(eps) = 0 iff eps >= eps0 (R-E5)")

    def compute(prec: int) -> arb:
        value = to_arb(eps0) + 2 * (-arb(delta)).log1p()
        if value < 0:
            return arb(0)
        return value if value > 0 else value.nonnegative_part()

    return certify("epsilon", compute, digits=digits, method=METHOD_LAPLACE, query=query or {},
                   what="the Laplace epsilon(delta)")


# -- (eps_i, delta_i)-DP mechanisms: the optimal composition with delta_i > 0 ---------------------------------------

METHOD_APPROX = ("optimal composition of (eps_i, delta_i)-DP mechanisms (KOV15 Thm 3.5, MV16; R-F7/R-F8): "
                 "delta' = 1 - prod(1 - delta_i)^k_i (1 - delta_RR(eps'))")

#: ``(ε_i, δ_i, count)``: ``count`` mechanisms, each ``(ε_i, δ_i)``-DP
Parts = Sequence[tuple[Real, fmpq, int]]


def _log_survival(parts: Parts) -> arb:
    """``log Π (1 - δ_i)^{c_i}`` at the current precision."""
    total = arb(0)
    for _, d, c in parts:
        if d != 0:
            total += c * (-arb(d)).log1p()
    return total


def approx_dp_delta(parts: Parts, eps: fmpq, digits: int = DEFAULT_DIGITS,
                    query: Mapping[str, str] | None = None) -> Certified:
    """The least ``δ'`` such that every composition of the ``(ε_i, δ_i)``-DP mechanisms is ``(ε', δ')``-DP.

    Every ``(ε, δ)``-DP mechanism is a post-processing of the four-outcome
    pair ``P = (δ, (1-δ)p, (1-δ)q, 0)``, ``Q = (0, (1-δ)q, (1-δ)p, δ)``
    (``p = e^ε/(1+e^ε)``), and adaptive composition is dominated by the
    product of those pairs (Kairouz, Oh & Viswanath 2015, Thm 3.5; Murtagh &
    Vadhan 2016 for unequal ``ε_i``); its profile is
    ``1 - Π(1-δ_i)^{c_i} (1 - δ_RR(ε'))`` for every real ``ε'``.
    """
    groups = _clean([(e, c) for e, _, c in parts])
    require_atoms(groups)
    rr = _symmetric(_delta_compute(groups, abs(eps)), eps)

    def compute(prec: int) -> arb:
        log_s = _log_survival(parts)
        return -log_s.expm1() + log_s.exp() * rr(prec)

    k = sum(c for _, c in groups)
    return certify("delta", compute, digits=digits, method=METHOD_APPROX, query=query or {},
                   start_prec=bits_for_digits(digits) + 20 + k.bit_length(),
                   what="the optimal-composition delta(eps)")


def approx_dp_epsilon(parts: Parts, delta: fmpq, digits: int = DEFAULT_DIGITS,
                      query: Mapping[str, str] | None = None) -> Certified:
    """The least ``ε' >= 0`` such that every composition of the ``(ε_i, δ_i)``-DP mechanisms is ``(ε', δ)``-DP.

    With ``S = Π(1-δ_i)^{c_i}``: none exists when ``δ < 1 - S`` (refused,
    saying so); at ``δ = 1 - S`` it is the largest loss ``Σ c_i ε_i``; above,
    ``ε_RR(1 - (1-δ)/S)`` of the randomized responses.
    """
    query = own_query(query or {})
    groups = _clean([(e, c) for e, _, c in parts])
    if delta == 1:
        return Certified("epsilon", arb(0), "0", "up", digits, METHOD_APPROX + "; delta = 1", query, True)
    side = _survival_side(parts, delta)  # sign of S - (1 - δ)
    if side < 0:
        with ctx.workprec(64):
            floor = -_log_survival(parts).expm1()
        raise InvalidParameter(
            f"no finite epsilon: delta={text(delta)} is below 1 - prod(1 - delta_i)^k_i = {floor.str(6, radius=False)}, "
            "the probability that some mechanism fails outright; every such composition violates "
            f"(eps, {text(delta)})-DP for every eps (the least delta it satisfies is at least that)")
    if side == 0:
        if not groups:
            return Certified("epsilon", arb(0), "0", "up", digits, METHOD_APPROX, query, True)
        return max_loss(groups, digits, query, METHOD_APPROX + "; delta = 1 - prod(1 - delta_i)^k_i: the largest "
                                                               "loss sum(k_i eps_i)")
    if not groups:  # all ε_i = 0: δ_RR ≡ 0
        return Certified("epsilon", arb(0), "0", "up", digits, METHOD_APPROX + "; eps_i = 0", query, True)
    if len(groups) > 1 and not all(isinstance(e, fmpq) for e, _ in groups):
        raise InvalidParameter("heterogeneous randomized-response composition needs rational eps_i "
                               f"(got {[str(e) for e, _ in groups]})")
    require_atoms(groups)
    k = sum(c for _, c in groups)

    def compute(prec: int) -> arb:
        target = 1 - arb(1 - delta) * (-_log_survival(parts)).exp()  # δ_RR at the root, in (0, 1]
        if not target > 0:
            raise NeedPrecision("1 - (1 - delta)/prod(1 - delta_i)^k_i is not yet provably positive")
        if len(groups) == 1:
            e0, kk = groups[0]
            return _homogeneous_epsilon_ball(kk, e0, target, _trunc_bits(prec - _EPS_TRUNC_SLACK, kk))
        return _heterogeneous_epsilon_ball(groups, target)  # type: ignore[arg-type]

    return certify("epsilon", compute, digits=digits, method=METHOD_APPROX + "; segment proved, closed form",
                   query=query, start_prec=bits_for_digits(digits) + 8 + k.bit_length(),
                   what="the optimal-composition epsilon(delta)")


def _survival_side(parts: Parts, delta: fmpq) -> int:
    """The sign of ``S - (1 - δ)``, ``S = Π(1-δ_i)^{c_i}``: exact when the rationals are small enough, else by Arb."""
    bits = sum(c * (int(d.p).bit_length() + int(d.q).bit_length()) for _, d, c in parts if d != 0)
    if bits <= 1 << 16:
        surv = fmpq(1)
        for _, d, c in parts:
            if d != 0:
                surv *= (1 - d) ** c
        diff = surv - (1 - delta)
        return (diff > 0) - (diff < 0)
    for prec in (64, 256, 1024, 4096, MAX_PREC):
        with ctx.workprec(prec):
            diff = _log_survival(parts) - (-arb(delta)).log1p()
            if diff > 0:
                return 1
            if diff < 0:
                return -1
    raise PrecisionError(f"cannot decide whether delta={text(delta)} is at least 1 - prod(1 - delta_i)^k_i (they agree "
                         f"to 2^-{MAX_PREC}); no answer is certified")


class DPComposition:
    """Every adaptive composition of ``count`` ``(ε_i, δ_i)``-DP mechanisms, for :func:`cdpsym.accounting.epsilon`
    and :func:`cdpsym.accounting.delta` (the optimal composition: :func:`approx_dp_epsilon`, :func:`approx_dp_delta`).

    Built from a notion subject with :meth:`from_subject`: ``DP(eps)``,
    ``DP(eps, delta)`` (``(eps, delta)-DP``) or ``compose(..., k=k)`` of them
    (nested compositions multiply out).

    >>> from cdpsym.notions import ApproxDP
    >>> DPComposition.from_subject(ApproxDP(eps=1, delta=Fraction(1, 10**6))).parts
    [(1, 1/1000000, 1)]
    """

    def __init__(self, parts: Sequence[tuple[object, object, object]], text: str = "") -> None:
        from cdpsym.accounting.certified import (exact_input, real_input, require_closed_unit, require_count,
                                                 require_nonnegative)

        clean = []
        for e, d, c in parts:
            e_x, d_q = real_input(e, "eps_i"), exact_input(d, "delta_i")
            require_nonnegative(e_x, "eps_i")
            require_closed_unit(d_q, "delta_i")
            clean.append((e_x, d_q, require_count(c, "count")))
        self.parts = clean
        self.text = text or " ⊗ ".join(f"({e}, {d})-DP^{c}" for e, d, c in self.parts)

    def __repr__(self) -> str:
        return self.text

    @staticmethod
    def from_subject(subject: object) -> "DPComposition | None":
        """The composition a notion subject stands for, or ``None`` when it is not made of DP notions."""
        parts = _dp_parts(subject, 1)
        if parts is None:
            return None
        merged: dict[tuple, list] = {}
        for e, d, c in parts:
            key = ((int(e.p), int(e.q)) if isinstance(e, fmpq) else e, (int(d.p), int(d.q)))
            if key in merged:
                merged[key][2] += c
            else:
                merged[key] = [e, d, c]
        try:
            shown = repr(subject)
        except ValueError:
            shown = ""
        return DPComposition([tuple(v) for v in merged.values()], shown)  # type: ignore[misc]


def _dp_parts(subject: object, times: int) -> list[tuple[Real, fmpq, int]] | None:
    from cdpsym.accounting.certified import exact_input, real_input, require_closed_unit, require_nonnegative
    from cdpsym.notions import ApproxDP, PureDP

    if isinstance(subject, (PureDP, ApproxDP)):
        e = real_input(subject.eps, "eps")
        require_nonnegative(e, "eps")
        d = exact_input(subject.delta, "delta") if isinstance(subject, ApproxDP) else fmpq(0)
        require_closed_unit(d, "delta")
        return [(e, d, times)]
    parts, k = getattr(subject, "parts", None), getattr(subject, "k", None)  # compose(..., k=k) of notions
    if parts is None or k is None or not isinstance(parts, tuple):
        return None
    if not getattr(k, "is_Integer", False):
        raise InvalidParameter(f"k is symbolic (k={k}); a numeric evaluation needs an integer k")
    out: list[tuple[Real, fmpq, int]] = []
    for part in parts:
        sub = _dp_parts(part, times * int(k))
        if sub is None:
            return None
        out.extend(sub)
    return out
