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

**How it is evaluated (no catastrophic cancellation).**  With
``x = ε/μ - μ/2``, ``t = ε/μ + μ/2`` and the Mills ratio
``M(s) = Φ(-s)/φ(s)``, the identity ``e^ε φ(t) = φ(x)`` turns the second
term into ``φ(x) M(t)``, so

.. math:: \delta(\varepsilon)=\Phi(-x)-\varphi(x)\,M(t)=\varphi(x)\,\big(M(x)-M(t)\big)\quad(x>0).

Neither ``e^ε`` nor ``Φ(-t)`` is ever formed (at ``ε = 3000`` they are
``10^1303`` and ``10^-1954000``); ``M`` is evaluated in Arb from ``erfc``
for moderate arguments and, for large ones, from its asymptotic series
``M(s) = s^-1 Σ (-1)^n (2n-1)!!/s^{2n}``, which *envelopes* ``M`` for
``s > 0`` (``M(s) = s ∫ φ(u)/(s² + u²) du``-type Stieltjes form: the
remainder after ``N`` terms has the sign of, and is at most, the first
omitted term), so a ball around the partial sum with that radius is proved
to contain ``M(s)``.  The only loss left is ``log2(x/μ)`` bits in
``M(x) - M(t)`` (large ``ε``, small ``μ``), recovered by raising the
precision.  ``μ`` is enclosed afresh at every working precision.  For
``ε < 0`` the profile follows from symmetry:
``δ(ε) = 1 - e^ε + e^ε δ(-ε)`` (the pair is symmetric).

* ``δ(ε)`` is certified by rising precision (``certify``).
* ``ε(δ)``, the least ``ε >= 0`` with ``δ(ε) <= δ``: if ``δ(0) <= δ`` it is
  ``0`` (proved by one comparison).  Otherwise an estimate — safeguarded
  Newton in floating point on ``log δ`` *in the variable x* (so it neither
  overflows for ``μ = 10^10`` nor loses the root when ``ε`` is tiny
  against ``μ²``), or, when floats cannot resolve ``δ(0) - δ``, a first-order
  step from ``ε = 0`` in Arb — is never trusted: for up to 11 digits (the
  fast path) one interval-Newton step in Arb around it *proves* a small
  ball to contain the root (:func:`_newton_enclosure`); otherwise two Arb
  comparisons *prove* ``δ(ε_lo) > δ > δ(ε_hi)`` for ``ε_lo < ε_hi`` close
  together.  Since ``δ`` is strictly decreasing, the root is unique, and
  the ball around it is what is rounded up.
* ``μ(ε, δ)``, the largest ``μ`` with ``δ(ε; μ) <= δ`` (for calibration):
  ``dδ/dμ = φ(ε/μ - μ/2) > 0``, so the same proofs apply with the profile
  increasing in ``μ``.

**Range.**  ``μ`` must lie in ``[2^-14336, 2^14336]`` (about ``10^±4315``):
the working precision has to exceed ``|log2 μ|`` bits and is capped at
32768 (:data:`~cdpsym.accounting.certified.MAX_PREC`); outside it
:class:`~cdpsym.errors.InvalidParameter` names the parameter.  ``δ(ε)`` is
about ``e^{-x²/2}``: beyond ``x ≈ 10^4`` (``ε ≈ 10^4 μ``) its exponent
alone needs more bits than that, and the refusal says so.

Parameterization: ``mu2 = μ² = Σ (Δ_i/σ_i)²`` (``= 2ρ``); Balle–Wang write
``Δ/σ`` for one mechanism.  The parameters may be irrational sympy numbers
(``sqrt(2)``); they are then enclosed in balls.

References: Balle & Wang 2018, Thm 8, arXiv:1805.06530v2; Dong, Roth & Su 2019
(μ-GDP composition), arXiv:1905.02383; Bun & Steinke 2016, Prop. 1.3, arXiv:1605.02065;
DLMF 7.12.1 (the asymptotic expansion of erfc).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from flint import arb, ctx, fmpq

from cdpsym.accounting.certified import (DEFAULT_DIGITS, MAX_PREC, Certified, NeedPrecision, Real, certified_from_ball,
                                         certified_from_interval, certify, certify_root, exact_mid, own_query, prove_sign, solve_monotone,
                                         to_arb)
from cdpsym.errors import InvalidParameter, PrecisionError

__all__ = ["delta_ball", "gaussian_delta", "gaussian_epsilon", "gaussian_mu_bracket", "check_mu2", "METHOD",
           "MAX_LOG2_MU"]

METHOD = "analytic Gaussian (BW18 Thm 8, R-E4), Arb erfc"

#: ``|log2 μ|`` beyond this is refused (the working precision must exceed it; see "Range")
MAX_LOG2_MU = (MAX_PREC - 4096) // 2


def _sqrt2() -> arb:
    return arb(2).sqrt()


# -- the profile in ball arithmetic ------------------------------------------------------------------------

def _phi(x: arb) -> arb:
    """``φ(x) = e^{-x²/2}/√(2π)``."""
    return (-(x * x) / 2).exp() / (2 * arb.pi()).sqrt()


def _mills(t: arb) -> arb:
    """A ball containing ``M(t) = Φ(-t)/φ(t)`` for a ball ``t > 0`` (current precision).

    ``t² <= 4 (prec + 20)``: ``erfc(t/√2) e^{t²/2} √(π/2)`` (loses about
    ``log2 t²`` bits, a few dozen at most).  Beyond: the enveloping asymptotic
    series, summed until the first omitted term is below ``2^-(prec+8)`` of
    the sum (the terms decrease while ``2n+1 < t²``, which holds throughout).
    """
    if not t > 0:
        raise NeedPrecision("the Mills ratio argument is not provably positive")
    prec = ctx.prec
    tl = t.lower()
    threshold = 4 * (prec + 20)
    if not tl * tl > threshold:
        return (t / _sqrt2()).erfc() * (t * t / 2).exp() * (arb.pi() / 2).sqrt()
    u = 1 / (t * t)
    total, term, n = arb(1), arb(1), 0
    tol = arb(2) ** (-(prec + 8))
    while True:
        term = -term * (2 * n + 1) * u  # (-1)^(n+1) (2n+1)!!/t^(2n+2)
        n += 1
        size = abs(term).upper()
        if size <= tol:
            break
        total += term
        if n > 4 * prec + 100:  # cannot happen for t² > 4 (prec + 20); stay safe
            raise NeedPrecision("the Mills series did not converge")
    # the remainder after the partial sum has the sign of the omitted term and at most its size
    remainder = arb(size / 2, size / 2) if term > 0 else arb(-size / 2, size / 2)
    return (total + remainder) / t


def delta_ball(mu: arb, eps: arb) -> arb:
    """A ball containing ``δ(ε)`` for the Gaussian with parameter ``μ`` (current precision, no escalation)."""
    if eps < 0:  # symmetry of the pair: δ(ε) = 1 - e^ε + e^ε δ(-ε)
        return -eps.expm1() + eps.exp() * delta_ball(mu, -eps)
    # (the formulas below hold for every real ε with t > 0; callers pass ε >= 0 or a box around such a point)
    x = eps / mu - mu / 2
    t = eps / mu + mu / 2
    phi_x = _phi(x)
    if x > 0:  # φ(x) (M(x) - M(t)): both terms positive, their difference is δ
        value = phi_x * (_mills(x) - _mills(t))
    else:
        value = (x / _sqrt2()).erfc() / 2 - phi_x * _mills(t)
    return value


def _slope(mu: arb, eps: arb) -> arb:
    """``dδ/dε = -e^ε Φ(-t) = -φ(x) M(t)`` (a ball; ``eps`` may be a box)."""
    x = eps / mu - mu / 2
    return -(_phi(x) * _mills(eps / mu + mu / 2))


def log2_mu(mu2: Real) -> float:
    """``log2 μ`` as a float (exact enough to check the range; never overflows)."""
    with ctx.workprec(64):
        value = to_arb(mu2)
        if not value > 0:
            raise InvalidParameter(f"mu^2 = sum (sensitivity/sigma)^2 must be positive, got {value.str(5)}")
        return float((value.log() / arb(2).log()).mid()) / 2


def check_mu2(mu2: Real, name: str = "mu = sqrt(sum (sensitivity/sigma)^2)") -> float:
    """``log2 μ``, or :class:`InvalidParameter` when ``μ`` is outside the certified range (see "Range")."""
    l2 = log2_mu(mu2)
    if abs(l2) > MAX_LOG2_MU:
        exponent = int(l2 * 0.3010299956639812)
        raise InvalidParameter(
            f"{name} is about 10^{exponent}, outside the range certified here: 2^-{MAX_LOG2_MU} < mu < "
            f"2^{MAX_LOG2_MU} (about 10^-{int(MAX_LOG2_MU * 0.30103)} to 10^{int(MAX_LOG2_MU * 0.30103)}); "
            "the working precision would have to exceed |log2 mu| bits")
    return l2


def _accurate(compute, prec: int, want_bits: int):  # type: ignore[no-untyped-def]
    """Re-run ``compute()`` at rising precision (at most :data:`MAX_PREC`) until its first value has *want_bits*
    relative bits; returns the last result and its precision (the caller checks what it got)."""
    p = prec
    while True:
        with ctx.workprec(p):
            try:
                out = compute()
            except NeedPrecision:
                out = None
        if out is not None:
            head = out[0] if isinstance(out, tuple) else out
            acc = head.rel_accuracy_bits() if head.is_finite() else -p
            if acc >= want_bits:
                return out, p
        else:
            acc = -p
        if p >= MAX_PREC:
            return out, p
        p = min(MAX_PREC, p + max(32, want_bits - max(acc, -p) + 16, p // 2))


# -- delta(eps) -----------------------------------------------------------------------------------------

def gaussian_delta(mu2: Real, eps: fmpq, digits: int = DEFAULT_DIGITS,
                   query: Mapping[str, str] | None = None) -> Certified:
    """The exact ``δ(ε)`` of the Gaussian with ``μ² = mu2``, certified and rounded up (any real ``ε``)."""
    l2 = check_mu2(mu2)

    def compute(prec: int) -> arb:
        mu = to_arb(mu2).sqrt()  # re-enclosed at every precision
        return delta_ball(mu, arb(eps))

    # δ ≈ e^{-x²/2} for large x > 0: its exponent alone needs about 2 log2 x bits, and M(x) - M(t) loses
    # log2(x/μ): start there, and refuse up front when that is beyond MAX_PREC
    log2_x = _log2_x(mu2, eps)
    start = None
    if log2_x > 0:
        need = 2 * log2_x + max(0.0, log2_x - l2) + 3.33 * digits + 64
        if need > MAX_PREC:
            raise PrecisionError(
                f"delta(eps) of this Gaussian at eps={_eps_text(eps)} is about 10^-{_log10_tiny(log2_x)}: "
                f"certifying it would need more than {MAX_PREC} bits of working precision (x = |eps|/mu - mu/2 "
                f"is about 2^{log2_x:.0f}, and the bits needed grow like 2 log2 x); ask at a smaller eps")
        start = int(need)
    return certify("delta", compute, digits=digits, method=METHOD, query=query or {}, start_prec=start,
                   what="the Gaussian delta(eps)",
                   hint="the value is too close to a rounding boundary to decide; ask for fewer digits")


def _log2_x(mu2: Real, eps: fmpq) -> float:
    """``log2 x`` for ``x = |ε|/μ - μ/2`` when ``x > 1`` (a float estimate), else ``0``."""
    with ctx.workprec(64):
        mu = to_arb(mu2).sqrt()
        x = abs(arb(eps)) / mu - mu / 2
        if not x > 1:
            return 0.0
        return float((x.log() / arb(2).log()).mid())


def _log10_tiny(log2_x: float) -> str:
    """``x²/(2 ln 10)`` (the decimal exponent of ``e^{-x²/2}``) as text, from ``log2 x``."""
    if log2_x < 500:
        return f"{2.0 ** (2 * log2_x) / 2 / math.log(10):.3g}"
    return f"10^{(2 * log2_x) * 0.30103 - math.log10(2 * math.log(10)):.0f}"


def _eps_text(eps: fmpq) -> str:
    from cdpsym.accounting.certified import text

    return text(eps)


# -- estimates (never trusted: only the Arb proofs below are) ---------------------------------------------

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


def _mills_series_f(t: float) -> float:
    """``t M(t) = Σ (-1)^n (2n-1)!!/t^{2n}`` (a float, for ``t >= 30``)."""
    u = 1.0 / (t * t)
    series, term = 1.0, 1.0
    for n in range(1, 12):
        term *= -(2 * n - 1) * u
        series += term
    return series


def _log_mills_f(t: float) -> float:
    """``log M(t)`` for ``t > 0`` (a float estimate; ``t`` may be huge or ``inf``)."""
    if t >= 30.0:
        return -math.log(t) + math.log(_mills_series_f(t)) if math.isfinite(t) else -math.inf
    return _log_phi_f(-t) + 0.5 * t * t + _LOG_SQRT_2PI


def _one_minus_s_mills_f(s: float) -> float:
    """``1 - s M(s) = -M'(s)`` for ``s > 0`` (a float estimate)."""
    if s >= 30.0:
        u = 1.0 / (s * s)
        series, term = 0.0, -1.0
        for n in range(1, 12):
            term *= -(2 * n - 1) * u
            series += term
        return series
    return -math.expm1(math.log(s) + _log_mills_f(s)) if s > 0 else 1.0


def _log_delta_x(x: float, mu: float, log_mu: float) -> tuple[float, float]:
    """``(log δ, d log δ / dx)`` at ``ε = μ(x + μ/2)`` as float estimates (``μ`` may be ``inf``: then only
    ``log_mu`` is used).  Raises ``ValueError``/``OverflowError`` where floats do not suffice."""
    t = x + mu
    if mu > 1e300 or not math.isfinite(mu):
        l_mt = -log_mu - math.log1p(x / mu) if math.isfinite(mu) else -log_mu
    else:
        if not t > 0:
            raise ValueError("t <= 0")
        l_mt = _log_mills_f(t)
    log_phi_x = -0.5 * x * x - _LOG_SQRT_2PI
    if x > 0:
        l_mx = _log_mills_f(x)
        if math.isfinite(mu) and mu < 1e-5 * x:  # M(x) - M(x+μ) ≈ μ (1 - ξ M(ξ)), ξ = x + μ/2 (midpoint rule)
            diff = _one_minus_s_mills_f(x + mu / 2)
            if not diff > 0:
                raise ValueError("cancellation")
            log_d = log_phi_x + math.log(mu) + math.log(diff)
        else:
            r = l_mt - l_mx
            if not r < 0:
                raise ValueError("cancellation")
            log_d = log_phi_x + l_mx + (math.log(-math.expm1(r)) if r > -0.6931 else math.log1p(-math.exp(r)))
    else:
        log_first = _log_phi_f(-x)
        r = log_phi_x + l_mt - log_first
        if not r < 0:
            raise ValueError("cancellation")
        log_d = log_first + (math.log(-math.expm1(r)) if r > -0.6931 else math.log1p(-math.exp(r)))
    # dδ/dx = dδ/dε · μ = -μ φ(x) M(t)
    slope = -math.exp(log_mu + log_phi_x + l_mt - log_d)
    if not (math.isfinite(log_d) and math.isfinite(slope)):
        raise ValueError("not finite")
    return log_d, slope


def _log_delta_f(mu: float, eps: float) -> tuple[float, float, float]:
    """``(log δ, d log δ/dε, d log δ/dμ)`` of the Gaussian profile, as float estimates.

    Raises ``ValueError``/``OverflowError`` (or returns non-finite values) where floats do not suffice.
    """
    x = eps / mu - mu / 2
    log_d, d_x = _log_delta_x(x, mu, math.log(mu))
    d_mu = math.exp(-0.5 * x * x - _LOG_SQRT_2PI - log_d)
    return log_d, d_x / mu, d_mu


def _estimate_x(mu: float, log_mu: float, log_t: float) -> float | None:
    """The ``x`` with ``δ(μ(x + μ/2)) = δ_t`` by safeguarded Newton in floats, or ``None``.

    The root lies below the ``(1-δ)`` normal quantile ``z`` (``δ(x) < Φ(-x)``)
    and at or above ``-μ/2`` (``ε >= 0``; the caller has shown ``δ(0) > δ_t``).
    """
    z = math.sqrt(max(0.0, -2 * log_t - math.log(2 * math.pi)))  # ~ the (1 - δ) quantile, a little above
    lo = max(-mu / 2, -60.0) if math.isfinite(mu) else -60.0
    hi = z + 2.0
    x = min(max(z, lo), hi)
    for _ in range(200):
        try:
            log_d, slope = _log_delta_x(x, mu, log_mu)
        except (ValueError, OverflowError, ZeroDivisionError):
            # floats failed here (cancellation near x = -μ/2, or t <= 0): move into the bracket's middle
            if hi - lo < 1e-12 * (abs(lo) + abs(hi) + 1e-300):
                return None
            if x <= (lo + hi) / 2:
                lo = x
            else:
                hi = x
            x = (lo + hi) / 2
            continue
        value = log_d - log_t
        if value > 0:
            lo = x
        else:
            hi = x
        step = value / slope if slope != 0 else math.nan
        new = x - step
        if not (math.isfinite(new) and lo < new < hi):
            new = (lo + hi) / 2
        scale = abs(x) + abs(x + mu / 2 if math.isfinite(mu) else x) + 1e-300
        if abs(new - x) <= 1e-13 * scale:
            return new
        if new in (lo, hi) and hi - lo <= 1e-15 * scale:
            return new
        x = new
    return None


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
    return int(min(MAX_PREC, max(64, bits + 24 + extra)))


# -- eps(delta) -----------------------------------------------------------------------------------------

def _mu_floats(mu2: Real) -> tuple[float, float]:
    """``(μ, log μ)`` as floats (``μ`` is ``inf`` beyond the float range; ``log μ`` is always finite)."""
    l2 = log2_mu(mu2)
    log_mu = l2 * math.log(2)
    mu = math.exp(log_mu) if log_mu < 700 else math.inf
    if isinstance(mu2, fmpq) and log_mu < 700 and log_mu > -700:
        try:
            mu = math.sqrt(int(mu2.p) / int(mu2.q))
        except OverflowError:
            pass
    return mu, log_mu


def gaussian_epsilon(mu2: Real, delta: fmpq, digits: int = DEFAULT_DIGITS,
                     query: Mapping[str, str] | None = None, method: str = METHOD,
                     exact: bool = True) -> Certified:
    """The least ``ε >= 0`` with ``δ(ε) <= delta`` for ``μ² = mu2``, certified, rounded up (``0 < delta < 1``)."""
    query = own_query(query or {})
    check_mu2(mu2)
    if digits <= 11:
        fast = _gaussian_epsilon_fast(mu2, delta, digits, query, method, exact)
        if fast is not None:
            return fast

    def at_zero(_: arb) -> arb:  # δ(0) - δ_t, with δ(0) = erf(μ/(2√2)) = TV distance
        return (to_arb(mu2).sqrt() / (2 * _sqrt2())).erf() - arb(delta)

    if prove_sign(at_zero, arb(0), 64, "delta(0) - delta",
                  "delta equals delta(0) = erf(mu/(2 sqrt 2)) to within 2^-32768")[0] < 0:
        return Certified("epsilon", arb(0), "0", "up", digits, method + "; delta(0) < delta", query, exact)

    guess = _guess_epsilon(mu2, delta)

    def f(x: arb) -> arb:
        return delta_ball(to_arb(mu2).sqrt(), x) - arb(delta)

    def newton(x: arb) -> arb:
        return _arb_newton_step(mu2, delta, x)

    def accept(lo: arb, hi: arb) -> Certified | None:
        return certified_from_interval("epsilon", lo, hi, digits, method + "; root bracket proved", query, exact)

    return certify_root(f, newton, guess, decreasing=True, accept=accept, digits=digits,
                        what="the Gaussian epsilon(delta)", prec=_start_prec(mu2, digits))


def _start_prec(mu2: Real, digits: int) -> int:
    """Working precision for the root proofs: the digits, plus ``|log2 μ|`` (``x`` is formed from ``ε/μ``)."""
    return min(MAX_PREC, int(3.33 * digits) + 64 + int(abs(log2_mu(mu2))))


def _arb_newton_step(mu2: Real, delta: fmpq, x: arb) -> arb:
    """One Newton step on ``log δ(ε) - log δ_t`` in Arb at rising precision (an estimate, never trusted)."""

    def compute():  # type: ignore[no-untyped-def]
        mu = to_arb(mu2).sqrt()
        value = delta_ball(mu, x)
        return value - arb(delta), value, _slope(mu, x)

    out, p = _accurate(compute, ctx.prec, 24)
    if out is None:
        return arb.nan()
    diff, value, slope = out
    with ctx.workprec(p):
        if value > 0 and slope < 0:
            step = (value.log() - arb(delta).log()) * value / slope  # Newton on log δ
            return x - step
        return x - diff / slope


def _guess_epsilon(mu2: Real, delta: fmpq) -> arb:
    """An estimate of ``ε(δ)`` (an exact dyadic ball), from floats in the variable ``x`` when they resolve the
    root, else from one Arb Newton step at ``ε = 0`` (``δ`` within float resolution of ``δ(0)``)."""
    mu_f, log_mu = _mu_floats(mu2)
    log_t = math.log(int(delta.p)) - math.log(int(delta.q))
    x = _estimate_x(mu_f, log_mu, log_t)
    if x is not None:
        half = mu_f / 2 if math.isfinite(mu_f) else math.inf
        if not math.isfinite(half) or x + half > 1e-6 * half:  # ε = μ(x + μ/2) without cancellation
            prec = 64 + 2 * int(abs(log_mu / math.log(2))) + 16
            with ctx.workprec(min(prec, MAX_PREC)):
                mu = to_arb(mu2).sqrt()
                guess = mu * (arb(x) + mu / 2)
                if guess > 0:
                    return exact_mid(guess)
    # ε tiny against μ²: δ(ε) ≈ δ(0) - ε Φ(-μ/2), with δ(0) - δ_t resolved in Arb

    def compute():  # type: ignore[no-untyped-def]
        mu = to_arb(mu2).sqrt()
        d0 = (mu / (2 * _sqrt2())).erf() - arb(delta)
        return d0, -_slope(mu, arb(0))

    out, p = _accurate(compute, 128, 24)
    if out is None:
        raise PrecisionError("could not resolve delta(0) - delta for the Gaussian epsilon(delta): delta is within "
                             "2^-32768 of delta(0) = erf(mu/(2 sqrt 2)); ask for a delta further from it")
    d0, s0 = out
    with ctx.workprec(p):
        guess = d0 / s0
        if not guess > 0:
            raise PrecisionError("could not resolve delta(0) - delta for the Gaussian epsilon(delta) within "
                                 f"{MAX_PREC} bits")
        return exact_mid(guess)


def _gaussian_epsilon_fast(mu2: Real, delta: fmpq, digits: int, query: dict[str, str], method: str,
                           exact: bool) -> Certified | None:
    """ε(δ) from a float estimate and one interval-Newton step in Arb; ``None`` when that does not work out.

    The estimate (float Newton on ``log δ`` in the variable ``x``) is never
    trusted: the result rests only on :func:`_newton_enclosure`, which proves in
    ball arithmetic that ``δ(ε) - delta`` changes sign on a box
    ``[ε_lo, ε_hi]`` with ``ε_lo > 0`` and that its root lies in the returned
    ball.  Since ``δ`` is strictly decreasing, that root is the least ``ε``
    with ``δ(ε) <= delta`` (and it is not ``0``, as ``δ(0) >= δ(ε_lo) > delta``).
    """
    try:
        mu_f, log_mu = _mu_floats(mu2)
        log_t = math.log(int(delta.p)) - math.log(int(delta.q))
        if not (math.isfinite(mu_f) and mu_f > 0 and math.isfinite(log_t) and mu_f < 1e150):
            return None
        # δ(0) = erf(μ/(2√2)) must clearly exceed delta, else leave ε = 0 (or nearly) to the general path
        if not math.log(math.erf(mu_f / (2 * _SQRT2))) > log_t + 1e-6:
            return None
        x = _estimate_x(mu_f, log_mu, log_t)
        if x is None or not x + mu_f / 2 > 1e-6 * mu_f / 2:
            return None
        eps_f = mu_f * (x + mu_f / 2)
        if not (math.isfinite(eps_f) and eps_f > 0):
            return None
        log_d, d_x = _log_delta_x(x, mu_f, log_mu)
        # bits lost: φ(x) from x = ε/μ - μ/2 (|x| t), M(x) - M(t) (x/μ), and the step's conditioning
        t = x + mu_f
        cond = -math.log2(max(-d_x * (x + mu_f / 2), 1e-300))  # log2(δ / (|dδ/dε| ε))
        extra = math.log2(1 + abs(x) * t) + max(0.0, math.log2(max(x, 1e-300) / mu_f)) + max(0.0, cond)
        prec = _proof_prec(int(3.33 * digits) + 8, extra + 8)
    except (ValueError, OverflowError, ZeroDivisionError):
        return None

    def value_and_slope(e: arb, box: arb) -> tuple[arb, arb]:
        """``δ(e) - delta`` at the point, and ``dδ/dε = -φ(x) M(t)`` on the box."""
        mu = to_arb(mu2).sqrt()
        return delta_ball(mu, e) - arb(delta), _slope(mu, box)

    try:
        root = _newton_enclosure(value_and_slope, eps_f, prec)
    except NeedPrecision:
        return None
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
        if not start > 0:  # ε far below the float resolution of L: √(L+ε) - √L ≈ ε/(2√L)
            start = eps_f / math.sqrt(2 * L)
        return max(start, eps_f / math.sqrt(2 * L + 2) / 4, 1e-300)
    return 1e-3


def _log_profile(mu: arb, eps: arb, prec: int) -> tuple[float, float, float, int]:
    """``(log δ, d log δ/dε, d log δ/dμ, prec)`` at a point, with 30 relative bits certified in ``δ`` if possible."""

    def compute():  # type: ignore[no-untyped-def]
        return delta_ball(mu, eps), _slope(mu, eps)

    out, p = _accurate(compute, prec, 30)
    if out is None:
        return math.nan, math.nan, math.nan, p
    delta, slope = out
    with ctx.workprec(p):
        if not delta > 0:
            return math.nan, math.nan, math.nan, p
        x = eps / mu - mu / 2
        log_phi = -(x * x) / 2 - (2 * arb.pi()).sqrt().log()
        log_d = delta.log()
        return (float(log_d.mid()), float((slope / delta).mid()),
                float((log_phi - log_d).exp().mid()), p)


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
                           + max(0.0, math.log2(max(-d_eps, 1e-300))) + abs(math.log2(x)))
    except (ValueError, OverflowError, ZeroDivisionError):
        return None
    with ctx.workprec(prec):
        e, target = arb(eps), arb(delta)

    def value_and_slope(m: arb, box: arb) -> tuple[arb, arb]:
        """``δ(ε; m) - delta`` at the point, and ``dδ/dμ = φ(ε/μ - μ/2)`` on the box."""
        return delta_ball(m, e) - target, _phi(e / box - box / 2)

    try:
        root = _newton_enclosure(value_and_slope, x, prec)
    except NeedPrecision:
        return None
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
    ef = _float_or_inf(eps)
    if ef > 0:
        start = _mu_start(min(ef, 1e300), log_t)
    else:  # δ(0; μ) = erf(μ/(2√2))
        with ctx.workprec(64):
            start = float((2 * _sqrt2() * arb(delta).erfinv()).mid())
    if ef > 1e300 or not math.isfinite(start):
        raise InvalidParameter(f"eps={_eps_text(eps)} is too large to calibrate a Gaussian (the certified range is "
                               "eps <= 1e300)")
    state = {"p": 64}

    def h(m: float) -> tuple[float, float]:
        log_d, _, slope, state["p"] = _log_profile(arb(m), e, state["p"])
        return log_d - log_t, slope

    try:
        guess = solve_monotone(h, start, decreasing=False)
    except (ValueError, OverflowError, ZeroDivisionError):
        guess = start

    def f(x: arb) -> arb:
        return delta_ball(x, arb(eps)) - arb(delta)

    def newton(x: arb) -> arb:
        ea = arb(eps)
        density = _phi(ea / x - x / 2)
        return x - (delta_ball(x, ea) - arb(delta)) / density

    if not (guess > 0 and math.isfinite(guess)):
        guess = start
    return certify_root(f, newton, arb(guess), decreasing=False, accept=accept, digits=digits,
                        what="the Gaussian mu(eps, delta)", prec=state["p"] + 40)


def _float_or_inf(q: fmpq) -> float:
    try:
        return int(q.p) / int(q.q)
    except OverflowError:
        return math.inf
