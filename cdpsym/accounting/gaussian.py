r"""Certified exact privacy profile of the Gaussian mechanism and of any composition of Gaussians.

A composition of Gaussian mechanisms with sensitivities ``Δ_i`` and noise
``σ_i`` has exactly the privacy loss of one Gaussian with

.. math:: \mu=\sqrt{\textstyle\sum_i(\Delta_i/\sigma_i)^2}

(R-B8, R-C7), so its exact profile is the analytic Gaussian mechanism
(Balle & Wang 2018, Thm 8; R-E4), at a cost that does not depend on the
number of compositions:

.. math:: \delta(\varepsilon)=\Phi\Big(\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Big)
          -e^{\varepsilon}\,\Phi\Big(-\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Big),
          \qquad \Phi(t)=\tfrac12\operatorname{erfc}(-t/\sqrt2).

* ``δ(ε)`` is evaluated in Arb ball arithmetic with ``erfc``; when the two
  terms cancel (``ε ≫ μ²``, tiny ``δ``) the ball is wide and the working
  precision is raised until the requested relative accuracy is certified.
* ``ε(δ)``, the least ``ε >= 0`` with ``δ(ε) <= δ``: if ``δ(0) <= δ`` it is
  ``0`` (proved by one comparison).  Otherwise a safeguarded Newton iteration
  on ``log δ(ε)`` (``dδ/dε = -e^ε Φ(-μ/2-ε/μ)``) gives an estimate, which is
  never trusted: for up to 11 digits (the fast path) one interval-Newton step
  in Arb around a float estimate *proves* a small ball to contain the root
  (:func:`_newton_enclosure`); otherwise two Arb comparisons *prove*
  ``δ(ε_lo) > δ > δ(ε_hi)`` for ``ε_lo < ε_hi`` close together.  Since ``δ``
  is strictly decreasing, the root is unique, and the ball around it is what
  is rounded up.
* ``μ(ε, δ)``, the largest ``μ`` with ``δ(ε; μ) <= δ`` (for calibration):
  ``dδ/dμ = φ(ε/μ - μ/2) > 0``, so the same proofs apply with the profile
  increasing in ``μ``.

Parameterization: ``mu2 = μ² = Σ (Δ_i/σ_i)²`` (``= 2ρ``); Balle–Wang write
``Δ/σ`` for one mechanism.  The parameters may be irrational sympy numbers
(``sqrt(2)``); they are then enclosed in balls.

References: Balle & Wang 2018, Thm 8, arXiv:1805.06530v2; Dong, Roth & Su 2019
(μ-GDP composition), arXiv:1905.02383; Bun & Steinke 2016, Prop. 1.3, arXiv:1605.02065.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from flint import arb, ctx, fmpq

from cdpsym.accounting.certified import (DEFAULT_DIGITS, Certified, Real, certified_from_ball, certify,
                                         certify_root, own_query, prove_sign, solve_monotone, to_arb)
from cdpsym.errors import PrecisionError

__all__ = ["delta_ball", "gaussian_delta", "gaussian_epsilon", "gaussian_mu_bracket", "METHOD"]

METHOD = "analytic Gaussian (BW18 Thm 8, R-E4), Arb erfc"


def _sqrt2() -> arb:
    return arb(2).sqrt()


def _terms(mu: arb, eps: arb) -> tuple[arb, arb]:
    """``(Φ(μ/2 - ε/μ), e^ε Φ(-μ/2 - ε/μ))`` at the current precision; ``δ = first - second``."""
    s = _sqrt2()
    x = eps / mu - mu / 2
    first = (x / s).erfc() / 2
    second = eps.exp() * ((x + mu) / s).erfc() / 2
    return first, second


def delta_ball(mu: arb, eps: arb) -> arb:
    """A ball containing ``δ(ε)`` for the Gaussian with parameter ``μ`` (current precision, no escalation)."""
    first, second = _terms(mu, eps)
    return first - second


def _accurate(compute, prec: int, want_bits: int):  # type: ignore[no-untyped-def]
    """Re-run ``compute()`` at rising precision until its first value has *want_bits* relative bits."""
    p = prec
    while True:
        with ctx.workprec(p):
            out = compute()
        head = out[0] if isinstance(out, tuple) else out
        acc = head.rel_accuracy_bits() if head.is_finite() else -p
        if acc >= want_bits or p >= 1 << 14:
            return out, p
        p = p + max(32, want_bits - acc + 16)


# -- delta(eps) -----------------------------------------------------------------------------------------

def gaussian_delta(mu2: Real, eps: fmpq, digits: int = DEFAULT_DIGITS,
                   query: Mapping[str, str] | None = None) -> Certified:
    """The exact ``δ(ε)`` of the Gaussian with ``μ² = mu2``, certified and rounded up."""

    def compute(prec: int) -> arb:
        mu = to_arb(mu2).sqrt()
        return delta_ball(mu, arb(eps))

    return certify("delta", compute, digits=digits, method=METHOD, query=query or {},
                   what="the Gaussian delta(eps)")


# -- estimates (never trusted: only the Arb proofs below are) ---------------------------------------------

def _log_profile(mu: arb, eps: arb, prec: int) -> tuple[float, float, float, int]:
    """``(log δ, -second/δ, φ(x)/δ, prec)`` at a point, with 30 relative bits certified in ``δ``."""

    def compute():  # type: ignore[no-untyped-def]
        first, second = _terms(mu, eps)
        return first - second, second

    (delta, second), p = _accurate(compute, prec, 30)
    with ctx.workprec(p):
        if not delta > 0:
            return math.nan, math.nan, math.nan, p
        x = eps / mu - mu / 2
        log_phi = -(x * x) / 2 - (2 * arb.pi()).sqrt().log()
        log_d = delta.log()
        return (float(log_d.mid()), -float((second / delta).mid()),
                float((log_phi - log_d).exp().mid()), p)


# -- float estimates (never trusted: a float answer is only a point at which Arb proves a sign) --------

_SQRT2 = math.sqrt(2.0)
_LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _log_phi_f(t: float) -> float:
    """``log Φ(t)`` in floating point (an estimate), without underflow for very negative ``t``."""
    if t > 0:
        return math.log1p(-0.5 * math.erfc(t / _SQRT2))
    if t > -37.0:
        return math.log(0.5 * math.erfc(-t / _SQRT2))
    # Φ(t) = φ(t)/|t| · (1 - 1/t² + 3/t⁴ - …) (asymptotic; terms still decreasing fast at |t| >= 37)
    u = 1.0 / (t * t)
    series, term = 1.0, 1.0
    for n in range(1, 9):
        term *= -(2 * n - 1) * u
        series += term
    return -0.5 * t * t - math.log(-t) - _LOG_SQRT_2PI + math.log(series)


def _log_delta_f(mu: float, eps: float) -> tuple[float, float, float]:
    """``(log δ, d log δ/dε, d log δ/dμ)`` of the Gaussian profile, as float estimates.

    Raises ``ValueError``/``OverflowError`` (or returns non-finite values) where floats do not suffice.
    """
    a = mu / 2 - eps / mu
    la = _log_phi_f(a)
    r = eps + _log_phi_f(a - mu) - la  # log(second / first) < 0
    if not r < 0:
        raise ValueError("cancellation")
    log_d = la + math.log(-math.expm1(r)) if r > -0.6931 else la + math.log1p(-math.exp(r))
    d_eps = -math.exp(eps + _log_phi_f(a - mu) - log_d)
    d_mu = math.exp(-0.5 * a * a - _LOG_SQRT_2PI - log_d)
    return log_d, d_eps, d_mu


def _float_root(h, x0: float, decreasing: bool = True) -> float | None:  # type: ignore[no-untyped-def]
    """:func:`solve_monotone` on a float function, or ``None`` when floats fail (under/overflow, nan)."""
    try:
        # the interval-Newton box is x(1 -+ 2^-30), 2^-30 ≈ 9.3e-10: a Newton step below 1e-9 x leaves
        # (quadratic convergence) an error around 1e-18 x, far inside it; a worse estimate only
        # makes the enclosure decline
        x = solve_monotone(h, x0, decreasing=decreasing, tol=1e-9)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    return x if math.isfinite(x) and x > 0 else None


def _proof_prec(bits: int, extra: float) -> int:
    """A working precision for the interval-Newton step (the caller falls back to the general path if short)."""
    if not math.isfinite(extra):
        return 128
    return int(max(64, bits + 24 + extra))


# -- eps(delta) -----------------------------------------------------------------------------------------

def gaussian_epsilon(mu2: Real, delta: fmpq, digits: int = DEFAULT_DIGITS,
                     query: Mapping[str, str] | None = None, method: str = METHOD,
                     exact: bool = True) -> Certified:
    """The least ``ε >= 0`` with ``δ(ε) <= delta`` for ``μ² = mu2``, certified, rounded up."""
    query = own_query(query or {})
    if digits <= 11:
        fast = _gaussian_epsilon_fast(mu2, delta, digits, query, method, exact)
        if fast is not None:
            return fast

    def at_zero(_: arb) -> arb:  # δ(0) - δ_t, with δ(0) = erf(μ/(2√2)) = TV distance
        return (to_arb(mu2).sqrt() / (2 * _sqrt2())).erf() - arb(delta)

    if prove_sign(at_zero, arb(0), 64, "delta(0) - delta")[0] < 0:  # δ(0) < δ: ε = 0 exactly
        return Certified("epsilon", arb(0), "0", "up", digits, method + "; delta(0) < delta", query, exact)

    with ctx.workprec(64):
        mu = to_arb(mu2).sqrt()
        log_t = float(arb(delta).log().mid())
        mu_f = float(mu.mid())
        z = float((_sqrt2() * (2 * arb(delta)).erfcinv()).mid()) if delta < 1 else 0.0
    state = {"p": 64}

    def h(x: float) -> tuple[float, float]:
        log_d, slope, _, state["p"] = _log_profile(mu, arb(x), state["p"])
        return log_d - log_t, slope

    start = max(mu_f * mu_f / 2 + mu_f * z, mu_f * 1e-3, 1e-300)  # δ(ε) <= Pr[L > ε]: an upper estimate
    guess = solve_monotone(h, start, decreasing=True)

    def f(x: arb) -> arb:
        return delta_ball(to_arb(mu2).sqrt(), x) - arb(delta)

    def newton(x: arb) -> arb:
        first, second = _terms(to_arb(mu2).sqrt(), x)
        return x + (first - second - arb(delta)) / second  # dδ/dε = -second

    def accept(lo: arb, hi: arb) -> Certified | None:
        return certified_from_ball("epsilon", lo.union(hi), digits, method + "; root bracket proved", query, exact)

    return certify_root(f, newton, arb(guess), decreasing=True, accept=accept, digits=digits,
                        what="the Gaussian epsilon(delta)", prec=state["p"] + 40)


def _gaussian_epsilon_fast(mu2: Real, delta: fmpq, digits: int, query: dict[str, str], method: str,
                           exact: bool) -> Certified | None:
    """ε(δ) from a float estimate and one interval-Newton step in Arb; ``None`` when that does not work out.

    The estimate (float Newton on ``log δ(ε)``) is never trusted: the result
    rests only on :func:`_newton_enclosure`, which proves in ball arithmetic
    that ``δ(ε) - delta`` changes sign on a box ``[ε_lo, ε_hi]`` with
    ``ε_lo > 0`` and that its root lies in the returned ball.  Since ``δ`` is
    strictly decreasing, that root is the least ``ε`` with ``δ(ε) <= delta``
    (and it is not ``0``, as ``δ(0) >= δ(ε_lo) > delta``).
    """
    try:
        if isinstance(mu2, fmpq):
            mu_f = math.sqrt(int(mu2.p) / int(mu2.q))
        else:
            with ctx.workprec(64):
                mu_f = float(to_arb(mu2).sqrt().mid())
        log_t = math.log(int(delta.p)) - math.log(int(delta.q))
        if not (math.isfinite(mu_f) and mu_f > 0 and math.isfinite(log_t)):
            return None
        # δ(0) = erf(μ/(2√2)) must clearly exceed delta, else leave ε = 0 (or nearly) to the general path
        if not math.log(math.erf(mu_f / (2 * _SQRT2))) > log_t + 1e-6:
            return None

        last = [math.nan]

        def h(x: float) -> tuple[float, float]:
            log_d, d_eps, _ = _log_delta_f(mu_f, x)
            last[0] = d_eps
            return log_d - log_t, d_eps

        z = math.sqrt(max(0.0, -2 * log_t - math.log(2 * math.pi)))  # ~ the (1-δ) normal quantile
        x = _float_root(h, max(mu_f * mu_f / 2 + mu_f * z, mu_f * 1e-3, 1e-300))
        if x is None:
            return None
        d_eps = last[0]  # the slope at the last Newton point (x moved by < 1e-9 x since)
        a = mu_f / 2 - x / mu_f
        prec = _proof_prec(int(3.33 * digits) + 8, math.log2(1 + x + a * a) - math.log2(max(-d_eps * x, 1e-300))
                           + max(0.0, math.log2(-d_eps)))
    except (ValueError, OverflowError, ZeroDivisionError):
        return None

    def value_and_slope(e: arb, box: arb) -> tuple[arb, arb]:
        """``δ(e) - delta`` at the point, and ``dδ/dε = -e^ε Φ(-μ/2 - ε/μ)`` on the box."""
        mu = to_arb(mu2).sqrt()
        inv_root2, half_mu = 1 / _sqrt2(), mu / 2
        a = e / mu
        value = ((a - half_mu) * inv_root2).erfc() - e.exp() * ((a + half_mu) * inv_root2).erfc()
        slope = -(box.exp() * ((box / mu + half_mu) * inv_root2).erfc())
        return value / 2 - arb(delta), slope / 2

    root = _newton_enclosure(value_and_slope, x, prec)
    if root is None:
        return None
    return certified_from_ball("epsilon", root, digits, method + "; root enclosed by interval Newton", query, exact)


def _newton_enclosure(value_and_slope, x: float, prec: int):  # type: ignore[no-untyped-def]
    """A ball proved to contain the only root of a strictly monotone *f* near the float estimate ``x``, or ``None``.

    One interval-Newton step (Moore 1966) on ``X = [x(1 - 2^-30), x(1 + 2^-30)]``:
    ``N = m - f(m)/F'`` with ``m = x`` an exact point and ``F'`` a ball
    containing ``f'`` on all of ``X``; ``value_and_slope(m, X)`` returns the
    two balls ``f(m)`` and ``F'``.  When ``F'`` excludes zero and ``N`` lies
    in the interior of ``X`` the root is proved to exist, be unique in ``X``
    and lie in ``N``: for ``f' < 0`` (the case ``f' > 0`` is symmetric), the
    mean value theorem gives ``f(lo) = f(m) + f'(ξ)(lo - m)`` with
    ``f'(ξ) ∈ F'``, and ``m - f(m)/f'(ξ) > lo`` is exactly ``f(lo) > 0``;
    likewise ``f(hi) < 0``.  So ``f`` changes sign on ``X``, is monotone
    there, and its root ``r`` satisfies ``0 = f(m) + f'(η)(r - m)``, i.e.
    ``r ∈ N``.  ``None`` when the estimate is too poor or ``prec`` too low
    (the caller then takes the general path); only Arb's balls certify.
    """
    with ctx.workprec(prec):
        m = arb(x)
        box = arb(x, x * 2.0 ** -30)  # the radius is rounded up: X contains [x(1 - 2^-30), x(1 + 2^-30)]
        if not box > 0:
            return None
        value, slope = value_and_slope(m, box)
        if not (slope < 0 or slope > 0):
            return None
        n = m - value / slope
        if not box.contains_interior(n) or not n > 0:
            return None
        return n


# -- mu(eps, delta) for calibration ----------------------------------------------------------------------

def _mu_start(eps_f: float, log_t: float) -> float:
    """A starting estimate of ``μ*`` (Bun–Steinke inverse, R-C4: a ``μ`` below ``μ*``)."""
    L = -log_t
    if eps_f > 0:
        start = math.sqrt(2) * (math.sqrt(L + eps_f) - math.sqrt(L))
        return max(start, eps_f / math.sqrt(2 * L + 2) / 4, 1e-300)
    return 1e-3


def _mu_bracket_fast(eps: fmpq, delta: fmpq, accept, digits: int):  # type: ignore[no-untyped-def]
    """``accept(μ_lo, μ_hi)`` from a float estimate and one interval-Newton step, or ``None`` (the general path).

    Only :func:`_newton_enclosure` certifies anything: it proves the root of
    ``δ(ε; μ) - delta`` (``δ`` increases strictly in ``μ``) to lie in a ball,
    whose endpoints are handed to *accept*.
    """
    try:
        eps_f = int(eps.p) / int(eps.q)
        log_t = math.log(int(delta.p)) - math.log(int(delta.q))
        if not (math.isfinite(eps_f) and eps_f > 0 and math.isfinite(log_t)):
            return None  # ε = 0: δ(0; μ) = erf(μ/(2√2)) is left to the general path

        def h(m: float) -> tuple[float, float]:
            log_d, _, d_mu = _log_delta_f(m, eps_f)
            return log_d - log_t, d_mu

        x = _float_root(h, _mu_start(eps_f, log_t), decreasing=False)
        if x is None:
            return None
        log_d, d_eps, d_mu = _log_delta_f(x, eps_f)
        a = x / 2 - eps_f / x
        prec = _proof_prec(int(3.33 * digits) + 8, math.log2(1 + eps_f + a * a) - math.log2(max(d_mu * x, 1e-300))
                           + max(0.0, math.log2(-d_eps)))
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    with ctx.workprec(prec):
        e, target = arb(eps), arb(delta)

    def value_and_slope(m: arb, box: arb) -> tuple[arb, arb]:
        """``δ(ε; m) - delta`` at the point, and ``dδ/dμ = φ(ε/μ - μ/2)`` on the box."""
        z = e / box - box / 2
        return delta_ball(m, e) - target, (-(z * z) / 2).exp() / (2 * arb.pi()).sqrt()

    root = _newton_enclosure(value_and_slope, x, prec)
    if root is None:
        return None
    with ctx.workprec(max(prec, int(digits * 3.33) + 30)):
        return accept(arb(root.lower()), arb(root.upper()))


def gaussian_mu_bracket(eps: fmpq, delta: fmpq, accept, digits: int = DEFAULT_DIGITS):  # type: ignore[no-untyped-def]
    """Prove ``μ_lo < μ* < μ_hi`` for the ``μ*`` with ``δ(ε; μ*) = delta`` and return ``accept(μ_lo, μ_hi)``.

    ``δ(ε; μ)`` increases strictly in ``μ`` (``dδ/dμ = φ(ε/μ - μ/2)``), so
    ``μ <= μ*`` is exactly the set of Gaussians that are ``(ε, δ)``-DP.
    """
    if digits <= 11:
        fast = _mu_bracket_fast(eps, delta, accept, digits)
        if fast is not None:
            return fast
    with ctx.workprec(64):
        e = arb(eps)
        log_t = float(arb(delta).log().mid())
    L, ef = -log_t, float(eps)
    if ef > 0:
        # Bun–Steinke inverse (R-C4): ρ = (√(L+ε) - √L)² is (ε,δ)-DP, so μ = √(2ρ) <= μ*
        start = math.sqrt(2) * (math.sqrt(L + ef) - math.sqrt(L))
        start = max(start, ef / math.sqrt(2 * L + 2) / 4, 1e-300)
    else:  # δ(0; μ) = erf(μ/(2√2))
        with ctx.workprec(64):
            start = float((2 * _sqrt2() * arb(delta).erfinv()).mid())
    state = {"p": 64}

    def h(m: float) -> tuple[float, float]:
        log_d, _, slope, state["p"] = _log_profile(arb(m), e, state["p"])
        return log_d - log_t, slope

    guess = solve_monotone(h, start, decreasing=False)

    def f(x: arb) -> arb:
        return delta_ball(x, arb(eps)) - arb(delta)

    def newton(x: arb) -> arb:
        ea = arb(eps)
        z = ea / x - x / 2
        density = (-(z * z) / 2).exp() / (2 * arb.pi()).sqrt()
        return x - (delta_ball(x, ea) - arb(delta)) / density

    if not guess > 0 or not math.isfinite(guess):
        raise PrecisionError(f"could not locate the Gaussian mu for eps={eps}, delta={delta}")
    return certify_root(f, newton, arb(guess), decreasing=False, accept=accept, digits=digits,
                        what="the Gaussian mu(eps, delta)", prec=state["p"] + 40)
