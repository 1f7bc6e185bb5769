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

from cdpsym.accounting.certified import (DEFAULT_DIGITS, Certified, arb_to_fraction, certified_from_ball,
                                         certify_root, check_digits, exact_input, real_input, require_count,
                                         require_nonnegative, require_open_unit, require_positive, solve_monotone,
                                         text, to_arb)
from cdpsym.accounting.gaussian import gaussian_mu_bracket
from cdpsym.accounting.pure_dp import _trunc_bits, homogeneous_delta_ball, homogeneous_delta_estimate
from cdpsym.errors import InvalidParameter

__all__ = ["calibrate_sigma", "calibrate_eps0"]


def _inputs(eps: object, delta: object, k: object) -> tuple[fmpq, fmpq, int]:
    eps_q = exact_input(eps, "eps")
    delta_q = exact_input(delta, "delta")
    require_nonnegative(eps_q, "eps", eps)
    require_open_unit(delta_q, "delta", delta)
    return eps_q, delta_q, require_count(k, "k")


def calibrate_sigma(eps: object, delta: object, k: object = 1, sensitivity: object = 1, *,
                    digits: int = DEFAULT_DIGITS) -> Certified:
    """The smallest ``σ`` with ``k``-fold ``Gaussian(sensitivity, σ)`` ``(ε, δ)``-DP, rounded up.

    >>> calibrate_sigma(eps=1, delta="1e-6", k=1, sensitivity=1).rounded
    '4.224678890'
    """
    check_digits(digits)
    eps_q, delta_q, kk = _inputs(eps, delta, k)
    sens = real_input(sensitivity, "sensitivity")
    require_positive(sens, "sensitivity", sensitivity)
    query = {"eps": text(eps), "delta": text(delta), "k": str(kk), "sensitivity": text(sensitivity),
             "digits": str(digits)}
    method = "analytic Gaussian calibration (BW18, R-E4): sigma = sqrt(k) sensitivity / mu*, mu* bracket proved"

    def accept(lo: arb, hi: arb) -> Certified | None:
        scale = to_arb(sens) * arb(kk).sqrt()
        sigma_hi = scale / lo  # the safe end (μ_lo gives the larger σ)
        sigma_lo = scale / hi
        return certified_from_ball("sigma", sigma_lo.union(sigma_hi), digits, method, query, True)

    return gaussian_mu_bracket(eps_q, delta_q, accept, digits)


def calibrate_eps0(eps: object, delta: object, k: object, *, digits: int = DEFAULT_DIGITS) -> Certified:
    """The largest ``ε0`` such that every ``k``-fold composition of ``ε0``-DP mechanisms is ``(ε, δ)``-DP.

    Rounded down (a smaller ``ε0`` is always safe).

    >>> calibrate_eps0(eps=1, delta="1e-6", k=500).rounded
    '0.01061996444'
    """
    check_digits(digits)
    eps_q, delta_q, kk = _inputs(eps, delta, k)
    query = {"eps": text(eps), "delta": text(delta), "k": str(kk), "digits": str(digits)}
    method = "optimal composition (KOV15, R-F7) inverted in eps0; bracket proved"
    ef, log_t = float(eps_q), float(-(-arb(delta_q).log()).mid())
    floor = ef / kk  # at eps0 <= eps/k, k eps0 <= eps and delta = 0
    L = -log_t
    # a starting point: eps0-DP is (eps0^2/2)-zCDP, and rho = (sqrt(L+eps) - sqrt(L))^2 is (eps, delta)-DP (R-C4)
    start = math.sqrt(2 / kk) * (math.sqrt(L + ef) - math.sqrt(L))
    start = max(start, floor * 1.000001, 1e-300)

    def h(x: float) -> tuple[float, float]:
        log_d, slope = homogeneous_delta_estimate(kk, x, ef)
        return log_d - log_t, slope

    guess = solve_monotone(h, start, decreasing=False, lo=floor)
    if not (guess > 0 and math.isfinite(guess)):
        raise InvalidParameter(f"could not locate eps0 for eps={text(eps)}, delta={text(delta)}, k={kk}")

    def exact_point(x: arb) -> fmpq:
        fr = arb_to_fraction(x)
        return fmpq(fr.numerator, fr.denominator)

    def f(x: arb) -> arb:
        return homogeneous_delta_ball(kk, exact_point(x), eps_q, _trunc_bits(ctx.prec, kk)) - arb(delta_q)

    def newton(x: arb) -> arb:
        log_d, slope = homogeneous_delta_estimate(kk, float(x.mid()), ef)
        if not math.isfinite(log_d) or not math.isfinite(slope) or slope == 0:
            return x
        value = homogeneous_delta_ball(kk, exact_point(x), eps_q, _trunc_bits(ctx.prec, kk))
        if not value > 0:
            return x
        return x - (value.log() - arb(delta_q).log()) / slope  # Newton on log δ with an estimated slope

    def accept(lo: arb, hi: arb) -> Certified | None:
        return certified_from_ball("eps0", lo.union(hi), digits, method, query, True)

    return certify_root(f, newton, arb(guess), decreasing=False, accept=accept, digits=digits,
                        what="the calibrated eps0")
