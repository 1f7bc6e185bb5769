r"""Certified calibration: the least noise, or the largest per-step ε0, for a target (ε, δ) after k steps.

* :func:`calibrate_sigma` — the smallest ``σ`` such that the ``k``-fold
  composition of ``Gaussian(sensitivity, σ)`` is ``(ε, δ)``-DP.  The
  composition is one Gaussian with ``μ = √k Δ/σ`` (R-B8, R-C7), its exact
  profile ``δ(ε; μ)`` (R-E4) increases strictly in ``μ``
  (``∂δ/∂μ = φ(ε/μ - μ/2) > 0``), so the answer is ``σ* = √k Δ/μ*`` with
  ``δ(ε; μ*) = δ``.  A bracket ``μ_lo < μ* < μ_hi`` is proved by two Arb
  comparisons and ``σ`` is rounded **up** from ``√k Δ/μ_lo`` — any ``σ`` at
  or above the rounded value is ``(ε, δ)``-DP.
* :func:`calibrate_eps0` — the largest ``ε0`` such that *every* ``k``-fold
  composition of ``ε0``-DP mechanisms is ``(ε, δ)``-DP.  The worst case is
  ``k``-fold randomized response (R-F7), whose ``δ(ε; ε0)`` is continuous and
  increasing in ``ε0`` (``RR_{ε0}`` is a post-processing of ``RR_{ε0'}`` for
  ``ε0 < ε0'``); a bracket on the root of ``δ(ε; ε0) = δ`` is proved and the
  answer is rounded **down**.

Estimates (safeguarded Newton in floating point) only choose where to look;
the reported numbers rest on the bracket proofs.

References: Balle & Wang 2018, Thm 8 and §5 (analytic calibration), arXiv:1805.06530v2;
Kairouz, Oh & Viswanath 2015, Thm 3.3, arXiv:1311.0776.
"""

from __future__ import annotations

import math

from flint import arb, ctx, fmpq

from cdpsym.accounting.certified import (DEFAULT_DIGITS, Certified, arb_to_fraction,
                                         bits_for_digits, certified_from_interval, certified_rational, certify, require_closed_unit,
                                         require_composition_count,
                                         certify_root, check_digits, exact_input, real_input, require_count,
                                         require_nonnegative, require_open_unit, require_positive, solve_monotone,
                                         text, to_arb)
from cdpsym.accounting.gaussian import gaussian_mu_bracket
from cdpsym.accounting.pure_dp import (_trunc_bits, homogeneous_complement_ball, homogeneous_complement_estimate,
                                      homogeneous_delta_ball, homogeneous_delta_estimate)
from cdpsym.errors import InvalidParameter

__all__ = ["calibrate_sigma", "calibrate_eps0"]


#: calibrate_eps0 certifies eps up to this (beyond it the float estimates of the profile overflow)
MAX_CALIBRATION_EPS = 10 ** 6


def _inputs(eps: object, delta: object, k: object, closed: bool = False) -> tuple[fmpq, fmpq, int]:
    eps_q = exact_input(eps, "eps")
    delta_q = exact_input(delta, "delta")
    require_nonnegative(eps_q, "eps", eps)
    if closed:
        require_closed_unit(delta_q, "delta", delta)
    else:
        require_open_unit(delta_q, "delta", delta)
    return eps_q, delta_q, require_count(k, "k")


def calibrate_sigma(eps: object, delta: object, k: object = 1, sensitivity: object = 1, *,
                    digits: int = DEFAULT_DIGITS) -> Certified:
    """The smallest ``σ`` with ``k``-fold ``Gaussian(sensitivity, σ)`` ``(ε, δ)``-DP, rounded up.

    >>> calibrate_sigma(eps=1, delta="1e-6", k=1, sensitivity=1).rounded
    '4.224678890'
    """
    check_digits(digits)
    eps_q, delta_q, kk = _inputs(eps, delta, k, closed=True)
    if delta_q == 0:
        raise InvalidParameter("delta=0: no sigma works (a Gaussian mechanism is never (eps, 0)-DP: its privacy loss "
                               "is unbounded), so the smallest sigma is +infinity; ask for delta > 0")
    if delta_q == 1:
        raise InvalidParameter("delta=1: every sigma > 0 works ((eps, 1)-DP holds for every mechanism), so there is "
                               "no smallest sigma; ask for delta < 1")
    sens = real_input(sensitivity, "sensitivity")
    require_positive(sens, "sensitivity", sensitivity)
    query = {"eps": text(eps), "delta": text(delta), "k": str(kk), "sensitivity": text(sensitivity),
             "digits": str(digits)}
    method = "analytic Gaussian calibration (BW18, R-E4): sigma = sqrt(k) sensitivity / mu*, mu* bracket proved"

    def accept(lo: arb, hi: arb) -> Certified | None:
        scale = to_arb(sens) * arb(kk).sqrt()
        sigma_hi = scale / lo  # the safe end (μ_lo gives the larger σ)
        sigma_lo = scale / hi
        return certified_from_interval("sigma", sigma_lo, sigma_hi, digits, method, query, True)

    if eps_q == 0:  # δ(0; μ) = erf(μ/(2√2)): μ* = 2√2 erfinv(δ) in closed form (δ = 10^-1000 is fine too)
        return certify("sigma", lambda prec: to_arb(sens) * arb(kk).sqrt() / (2 * arb(2).sqrt() * arb(delta_q).erfinv()),
                       digits=digits, query=query, what="the calibrated sigma",
                       method="analytic Gaussian calibration (BW18, R-E4) at eps = 0: sigma = sqrt(k) sensitivity / "
                              "(2 sqrt(2) erfinv(delta)), as delta(0; mu) = erf(mu/(2 sqrt 2))")
    return gaussian_mu_bracket(eps_q, delta_q, accept, digits)


def calibrate_eps0(eps: object, delta: object, k: object, *, digits: int = DEFAULT_DIGITS) -> Certified:
    """The largest ``ε0`` such that every ``k``-fold composition of ``ε0``-DP mechanisms is ``(ε, δ)``-DP.

    Rounded down (a smaller ``ε0`` is always safe).

    >>> calibrate_eps0(eps=1, delta="1e-6", k=500).rounded
    '0.01061996444'
    """
    check_digits(digits)
    eps_q, delta_q, kk = _inputs(eps, delta, k, closed=True)
    query = {"eps": text(eps), "delta": text(delta), "k": str(kk), "digits": str(digits)}
    method = "optimal composition (KOV15, R-F7) inverted in eps0; bracket proved"
    require_composition_count(kk, "the optimal pure-DP composition")
    floor_q = eps_q / kk  # at eps0 <= eps/k, k eps0 <= eps and delta = 0 (and delta > 0 above it)
    if delta_q == 0:
        return certified_rational("eps0", floor_q, digits, query=query,
                                  method="delta = 0: the k-fold composition is (eps, 0)-DP iff k eps0 <= eps; "
                                         "eps0 = eps/k")
    if delta_q == 1:
        raise InvalidParameter("delta=1: every eps0 works ((eps, 1)-DP holds for every mechanism), so there is no "
                               "largest eps0; ask for delta < 1")
    if not eps_q <= MAX_CALIBRATION_EPS:
        raise InvalidParameter(f"eps={text(eps)} is outside the range calibrate_eps0 certifies (0 <= eps <= "
                               f"{MAX_CALIBRATION_EPS}); for larger eps, eps0 >= eps/k always works")
    if 1 - delta_q < NEAR_ONE:
        return _calibrate_eps0_near_one(eps_q, delta_q, kk, floor_q, digits, method, query)
    _refuse_tiny_losses(eps_q, delta_q, kk, floor_q)
    ef, log_t = float(eps_q), float(-(-arb(delta_q).log()).mid())
    floor = ef / kk
    L = -log_t
    # a starting point: eps0-DP is (eps0^2/2)-zCDP, and rho = (sqrt(L+eps) - sqrt(L))^2 is (eps, delta)-DP (R-C4);
    # for eps near 0, delta(0) ~ eps0 sqrt(k/(2 pi)) (the total variation of k-fold randomized response)
    start = math.sqrt(2 / kk) * (math.sqrt(L + ef) - math.sqrt(L))
    start = max(start, math.exp(log_t) * math.sqrt(2 * math.pi / kk) / 2, floor * 1.000001, 1e-300)

    def h(u: float) -> tuple[float, float]:  # in u = log eps0: log delta is close to linear in u where eps0 is small
        log_d, slope_u = homogeneous_delta_estimate(kk, math.exp(u), ef, per_log=True)
        return log_d - log_t, slope_u

    try:
        guess = math.exp(solve_monotone(h, math.log(start), decreasing=False, lo=math.log(floor) if floor > 0
                                        else -math.inf))
    except (ValueError, OverflowError, ZeroDivisionError):
        guess = start
    if not (guess > 1e-300 and math.isfinite(guess)):
        guess = start
    with ctx.workprec(64):
        # below the float range (delta = 1e-1000 at eps = 0: eps0 ~ 1e-1003), start from delta(0) ~ eps0 sqrt(k/(2 pi))
        tiny = arb(delta_q) * (2 * arb.pi() / kk).sqrt() / 2
        guess_ball = arb(guess) if guess > 1e-300 or not tiny < 1e-300 else tiny.max(arb(floor_q) * 2)

    def exact_point(x: arb) -> fmpq:
        fr = arb_to_fraction(x)
        return fmpq(fr.numerator, fr.denominator)

    def f(x: arb) -> arb:
        return homogeneous_delta_ball(kk, exact_point(x), eps_q, _trunc_bits(ctx.prec, kk)) - arb(delta_q)

    def newton(x: arb) -> arb:
        try:
            log_d, slope_u = homogeneous_delta_estimate(kk, float(x.mid()), ef, per_log=True)
        except (ValueError, OverflowError, ZeroDivisionError):  # x below the float range: delta ~ x near eps = 0
            log_d, slope_u = 0.0, 1.0
        if not math.isfinite(log_d) or not math.isfinite(slope_u) or slope_u == 0:
            return x
        value = homogeneous_delta_ball(kk, exact_point(x), eps_q, _trunc_bits(ctx.prec, kk))
        if not value > 0:
            return x
        # Newton on log δ in log ε0, with an estimated slope: x e^{-(log δ - log δ_t)/slope_u}
        return x * (-(value.log() - arb(delta_q).log()) / slope_u).exp()

    def accept(lo: arb, hi: arb) -> Certified | None:
        return certified_from_interval("eps0", lo, hi, digits, method, query, True)

    # the walk keeps _trunc_bits(prec, k) = prec - 20 - log2 k bits: start where that still certifies the digits
    return certify_root(f, newton, guess_ball, decreasing=False, accept=accept, digits=digits,
                        what="the calibrated eps0", prec=bits_for_digits(digits) + 40 + 2 * kk.bit_length(),
                        refine_first=digits > 12 or not guess > 1e-300)


#: below this ``1 - delta`` :func:`calibrate_eps0` solves ``1 - δ(ε; ε0) = 1 - delta`` (relative accuracy)
NEAR_ONE = fmpq(1, 10)


def _calibrate_eps0_near_one(eps_q: fmpq, delta_q: fmpq, kk: int, floor_q: fmpq, digits: int, method: str,
                             query: dict) -> Certified:
    """:func:`calibrate_eps0` for ``delta`` close to ``1``: the root of ``1 - δ(ε; ε0) = τ``, ``τ = 1 - delta``.

    ``log δ`` is flat there (``δ = 1 - 10^-50``: a float sees ``log δ = 0``, and the walk for ``δ`` needs 166
    bits before ``1 - δ`` has one), so Newton on ``log δ`` crawled (over a minute at ``k = 10^7``).  The
    complement ``1 - δ = Σ_{i<j} b_i + e^ε Σ_{i>=j} b'_i`` is a sum of two positive tails
    (:func:`~cdpsym.accounting.pure_dp.homogeneous_complement_ball`), known to full relative accuracy, and
    ``log(1 - δ)`` is close to quadratic in ``ε0``: the float estimate starts within a few digits, Newton
    converges in a few steps, and the bracket is proved on ``τ - (1 - δ)`` (increasing in ``ε0``, like ``δ``).
    """
    tau = 1 - delta_q
    ef = float(eps_q)
    with ctx.workprec(64):
        log_tau = float(arb(tau).log().mid())
    floor = ef / kk
    # a starting point from the normal approximation of the privacy loss under P (mean ~ k eps0^2/2, sd ~ eps0
    # sqrt(k)): P[L <= eps] = tau at (k eps0^2/2 - eps)/(eps0 sqrt(k)) = z, z ~ sqrt(2 log(1/tau))
    z = math.sqrt(2 * -log_tau)
    start = (z * math.sqrt(kk) + math.sqrt(z * z * kk + 2 * kk * ef)) / kk
    start = max(start, floor * 1.000001, 1e-300)

    def h(u: float) -> tuple[float, float]:  # log(1 - δ) - log τ, decreasing in u = log eps0
        log_c, slope_u = homogeneous_complement_estimate(kk, math.exp(u), ef)
        return log_c - log_tau, slope_u

    try:
        guess = math.exp(solve_monotone(h, math.log(start), decreasing=True,
                                        lo=math.log(floor) if floor > 0 else -math.inf))
    except (ValueError, OverflowError, ZeroDivisionError):
        guess = start
    if not (guess > 1e-300 and math.isfinite(guess)):
        guess = start

    def exact_point(x: arb) -> fmpq:
        fr = arb_to_fraction(x)
        return fmpq(fr.numerator, fr.denominator)

    def f(x: arb) -> arb:  # τ - (1 - δ(ε; x)) = δ(ε; x) - delta: increasing in x
        return arb(tau) - homogeneous_complement_ball(kk, exact_point(x), eps_q, _trunc_bits(ctx.prec, kk))

    def newton(x: arb) -> arb:
        try:
            log_c, slope_u = homogeneous_complement_estimate(kk, float(x.mid()), ef)
        except (ValueError, OverflowError, ZeroDivisionError):
            return x
        if not math.isfinite(log_c) or not math.isfinite(slope_u) or slope_u == 0:
            return x
        value = homogeneous_complement_ball(kk, exact_point(x), eps_q, _trunc_bits(ctx.prec, kk))
        if not value > 0:
            return x
        return x * (-(value.log() - arb(tau).log()) / slope_u).exp()

    def accept(lo: arb, hi: arb) -> Certified | None:
        return certified_from_interval("eps0", lo, hi, digits, method + "; 1 - delta(eps0) solved as a sum of "
                                       "positive tails (delta close to 1)", query, True)

    return certify_root(f, newton, arb(guess), decreasing=False, accept=accept, digits=digits,
                        what="the calibrated eps0", prec=bits_for_digits(digits) + 40 + 2 * kk.bit_length(),
                        refine_first=True)


def _refuse_tiny_losses(eps_q: fmpq, delta_q: fmpq, kk: int, floor_q: fmpq) -> None:
    """Refuse up front (:class:`~cdpsym.errors.ResourceLimit`) the regime the binomial walk cannot afford.

    With ``k >= 10^7``, ``delta < 10^-60`` and a root ``eps0 ~ delta sqrt(2 pi / k)`` so small that every loss
    ``k eps0`` is tiny, ``delta(eps; eps0)`` is a sum of ~``10^6`` binomial terms each weighted by a loss of size
    ``~ delta``: certifying it needs ``log2(1/delta)`` more bits in every term, and each proof took many seconds
    (``eps = delta = 10^-300``, ``k = 10^9``: minutes).
    """
    if kk < 10 ** 5:
        return
    with ctx.workprec(64):
        estimate = (arb(delta_q) * (2 * arb.pi() / kk).sqrt() / 2).max(arb(floor_q))
        tiny_losses = kk >= 10 ** 7 and delta_q < fmpq(1, 10 ** 60) and estimate * kk < fmpq(1, 1000)
        # below the float range the estimates that steer the proof fail, and with eps > 0 the loss lattice
        # straddles eps far from its ends: the same walk, without a good starting point
        below_floats = eps_q > 0 and estimate < fmpq(1, 10 ** 295)
        if not (tiny_losses or below_floats):
            return
        shown = estimate.str(2, radius=False)
        shown_delta = arb(delta_q).str(3, radius=False)
    from cdpsym.errors import ResourceLimit

    raise ResourceLimit(
        f"calibrating eps0 for k={kk} at delta={shown_delta} is beyond the budget: the answer is near {shown}, "
        "where every privacy loss is tiny and certifying delta(eps; eps0) means summing up to 10^6 binomial terms "
        "at more than log2(1/delta) bits, over and over (minutes); ask for fewer compositions (k < 10^5) or a "
        f"larger delta (>= 10^-60), or use eps0 = eps/k = {arb(floor_q).str(3, radius=False)}, always safe "
        "(rounded down; the composition is then (eps, 0)-DP)")
