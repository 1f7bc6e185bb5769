r"""Certified zCDP / RDP → (ε, δ)-DP conversions, side by side with the exact Gaussian value.

For a ``ρ``-zCDP guarantee and a target ``δ`` (R-E7):

.. math:: \varepsilon_{\text{exact Gaussian}}\ \le\ \varepsilon_{\text{CKS20}}\ \le\
          \varepsilon_{\text{BS16}}=\rho+2\sqrt{\rho\log(1/\delta)} .

* ``bs16`` — Bun & Steinke 2016, Prop. 1.3 (R-C4): the closed form, in Arb.
* ``cks20`` — Canonne, Kamath & Steinke 2020, Prop. 12 in v4 (R-E1): for
  every order ``α > 1``,

  .. math:: \varepsilon(\alpha)=\alpha\rho+\frac{\log(1/\delta)+(\alpha-1)\log(1-1/\alpha)-\log\alpha}{\alpha-1}

  is a valid ``ε``.  A near-optimal ``α`` is found in floating point
  (golden-section search on ``log(α-1)``, then Newton on ``ε'(α) = 0``);
  since *every* ``α`` gives a valid bound, that ``α`` needs no proof — it is
  made an exact dyadic number and ``ε(α)`` at it is enclosed in a ball and
  rounded up.  The ``α`` used is stated in ``method``.
* ``exact_gaussian`` — the least ``ε`` of the Gaussian mechanism with this
  ``ρ`` (``μ = √(2ρ)``; BW18, R-E4): no conversion from ``ρ``-zCDP can give
  less, since that Gaussian is ``ρ``-zCDP.

:func:`rdp_epsilon` is R-E1 at one order: ``ε = τ + log((α-1)/α) - (log δ + log α)/(α-1)``
for an ``(α, τ)``-RDP guarantee (``0`` if that is negative: the bound then holds at ``ε = 0``).

References: Bun & Steinke 2016, Prop. 1.3, arXiv:1605.02065; Canonne, Kamath & Steinke 2020,
Prop. 12 (v4), arXiv:2004.00010; Balle, Barthe, Gaboardi, Hsu & Sato 2020, Thm 21, arXiv:1905.09982;
Balle & Wang 2018, Thm 8, arXiv:1805.06530v2.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction

from flint import arb, ctx, fmpq

from cdpsym.accounting.certified import (DEFAULT_DIGITS, Certified, certify, check_digits, exact_input,
                                         require_closed_unit, require_nonnegative, require_positive, text)
from cdpsym.accounting.gaussian import METHOD as GAUSSIAN_METHOD
from cdpsym.accounting.gaussian import gaussian_epsilon
from cdpsym.errors import InvalidParameter

__all__ = ["zcdp_epsilon", "rdp_epsilon", "cks20_alpha", "ZCDP_METHODS"]


def _cks20_float(alpha_minus_one: float, rho: float, L: float) -> float:
    """``ε(α)`` of R-E1 in floating point, with ``α - 1`` given (accurate for α near 1)."""
    a1 = alpha_minus_one
    a = 1 + a1
    log_a = math.log1p(a1)
    return a * rho + (L + a1 * (math.log(a1) - log_a) - log_a) / a1


def cks20_alpha(rho: float, L: float) -> Fraction:
    """A near-optimal order ``α`` for ρ-zCDP at ``log(1/δ) = L`` (an estimate; any ``α > 1`` is valid).

    ``dε/dα = ρ - (L - log α)/(α-1)²``, so the optimal ``a = α - 1`` is the one
    root of ``g(a) = ρa² + log(1+a) - L`` (increasing) in ``(0, √(L/ρ)]``:
    safeguarded Newton on it, returned as an exact dyadic Fraction; the
    golden-section search (:func:`_cks20_alpha_golden`) when floats fail.
    """
    try:
        a1 = _cks20_a1_newton(rho, L)
    except (ValueError, OverflowError, ZeroDivisionError):
        a1 = None
    if a1 is None:
        return _cks20_alpha_golden(rho, L)
    return Fraction(1) + Fraction(a1)  # exact binary value of the float


def _cks20_a1_newton(rho: float, L: float) -> float | None:
    """The root of ``ρa² + log(1+a) - L`` for ``a > 0`` in floating point, or ``None``."""
    if not (rho > 0 and L > 0 and math.isfinite(rho) and math.isfinite(L)):
        return None
    lo, hi = 0.0, math.sqrt(L / rho)
    if not (math.isfinite(hi) and hi > 0):
        return None
    x = hi
    for _ in range(200):
        g = rho * x * x + math.log1p(x) - L
        if g > 0:
            hi = x
        elif g < 0:
            lo = x
        else:
            break
        step = g / (2 * rho * x + 1 / (1 + x))
        new = x - step
        if abs(step) <= 1e-15 * x:
            x = new if lo < new < hi else x
            break
        if not lo < new < hi:
            new = (lo + hi) / 2
            if new in (lo, hi):
                break
        x = new
    return x if math.isfinite(x) and x > 0 else None


def _cks20_alpha_golden(rho: float, L: float) -> Fraction:
    """A near-optimal order ``α`` for ρ-zCDP at ``log(1/δ) = L`` (an estimate; any ``α > 1`` is valid).

    Golden-section search over ``u = log(α - 1)`` on a bracket around
    ``α* ≈ 1 + √(L/ρ)`` (the BS16-optimal order), then returned as an exact
    dyadic Fraction.
    """
    centre = math.log(math.sqrt(L / rho)) if rho > 0 and L > 0 else 0.0
    lo, hi = centre - 12.0, centre + 6.0
    g = (math.sqrt(5) - 1) / 2

    def f(u: float) -> float:
        try:
            return _cks20_float(math.exp(u), rho, L)
        except (OverflowError, ValueError, ZeroDivisionError):
            return math.inf

    c, d = hi - g * (hi - lo), lo + g * (hi - lo)
    fc, fd = f(c), f(d)
    for _ in range(200):
        if hi - lo < 1e-10:  # ε(α) is flat at the optimum: the ε error is ~ (Δα)²
            break
        if fc < fd:
            hi, d, fd = d, c, fc
            c = hi - g * (hi - lo)
            fc = f(c)
        else:
            lo, c, fc = c, d, fd
            d = lo + g * (hi - lo)
            fd = f(d)
    a1 = math.exp((lo + hi) / 2)
    return Fraction(1) + Fraction(a1)  # exact binary value of the float


def _clip_at_zero(value: arb) -> arb:
    """``max(0, value)``: a negative ε means the bound already holds at ``ε = 0`` (δ(ε) decreases)."""
    if value < 0:
        return arb(0)
    return value if value > 0 else value.nonnegative_part()


def _cks20_ball(alpha: fmpq, rho: fmpq, delta: fmpq) -> arb:
    """``max(0, αρ + (log(1/δ) + (α-1) log(1-1/α) - log α)/(α-1))`` as a ball (``α`` exact)."""
    a = arb(alpha)
    a1 = arb(alpha - 1)
    log_a = a.log()
    return _clip_at_zero(a * arb(rho) + (-(arb(delta).log()) + a1 * (a1.log() - log_a) - log_a) / a1)


#: the conversions :func:`zcdp_epsilon` offers, in the order it reports them
ZCDP_METHODS = ("exact_gaussian", "cks20", "bs16")
_ALL_METHODS = frozenset(ZCDP_METHODS)


def zcdp_epsilon(rho: object, delta: object, *, digits: int = DEFAULT_DIGITS,
                 methods: Iterable[str] = ZCDP_METHODS) -> dict[str, Certified]:
    """The ε of a ρ-zCDP guarantee at ``delta``, by each of *methods* (default all three, side by side).

    * ``exact_gaussian``: the exact ε of the Gaussian mechanism that is
      exactly ρ-zCDP (``μ = √(2ρ)``) — a lower bound for every conversion;
    * ``cks20``: CKS20 Prop. 12 at a near-optimal order α (a valid upper bound);
    * ``bs16``: Bun–Steinke ``ρ + 2√(ρ log(1/δ))`` (a valid upper bound).

    >>> r = zcdp_epsilon(rho="0.5", delta="1e-6")
    >>> r["exact_gaussian"].rounded, r["cks20"].rounded, r["bs16"].rounded
    ('4.886554118', '5.221534445', '5.756521770')
    >>> list(zcdp_epsilon(rho="0.5", delta="1e-6", methods=["bs16"]))
    ['bs16']
    """
    check_digits(digits)
    wanted = _methods(methods)
    rho_q = exact_input(rho, "rho")
    delta_q = exact_input(delta, "delta")
    require_positive(rho_q, "rho", rho)
    require_closed_unit(delta_q, "delta", delta)
    query = {"rho": text(rho), "delta": text(delta), "digits": str(digits)}
    out: dict[str, Certified] = {}
    if delta_q == 0:
        raise InvalidParameter(
            f"no finite epsilon at delta=0: a rho-zCDP guarantee (rho={text(rho)} > 0) implies (eps, 0)-DP for no "
            "finite eps (the Gaussian mechanism with mu = sqrt(2 rho) is rho-zCDP and has delta(eps) > 0 for every "
            "eps), so epsilon(delta=0) = +infinity; ask for a delta > 0")
    if delta_q == 1:  # every mechanism is (0, 1)-DP
        zero = {"exact_gaussian": True, "cks20": False, "bs16": False}
        return {m: Certified("epsilon", arb(0), "0", "up", digits, "delta = 1: every mechanism is (0, 1)-DP",
                             dict(query), zero[m]) for m in ZCDP_METHODS if m in wanted}
    from cdpsym.accounting.gaussian import check_mu2

    check_mu2(2 * rho_q, "mu = sqrt(2 rho)")
    if "exact_gaussian" in wanted:
        out["exact_gaussian"] = gaussian_epsilon(
            2 * rho_q, delta_q, digits, query,
            method=GAUSSIAN_METHOD + " of the Gaussian with mu = sqrt(2 rho) (a lower bound for every rho-zCDP "
                                     "conversion)")
    if "cks20" in wanted:
        L = -(math.log(int(delta_q.p)) - math.log(int(delta_q.q)))  # only steers the choice of alpha
        alpha_fr = _alpha_for(rho_q, L)
        alpha = fmpq(alpha_fr.numerator, alpha_fr.denominator)
        out["cks20"] = certify("epsilon", lambda prec: _cks20_ball(alpha, rho_q, delta_q), digits=digits,
                               method=f"CKS20 Prop 12 (R-E1) at alpha={float(alpha_fr)!r}", query=query,
                               exact=False, what="the CKS20 epsilon")
    if "bs16" in wanted:
        def bs16(prec: int) -> arb:
            r = arb(rho_q)
            return r + 2 * (r * -(arb(delta_q).log())).sqrt()

        out["bs16"] = certify("epsilon", bs16, digits=digits,
                              method="BS16 Prop 1.3 (R-C4): rho + 2 sqrt(rho log(1/delta))", query=query,
                              exact=False, what="the BS16 epsilon")
    return out


def _alpha_for(rho: fmpq, L: float) -> Fraction:
    """:func:`cks20_alpha` for an exact ``ρ`` of any size (floats overflow beyond ``10^308``): for huge ``ρ`` the
    optimal ``α - 1`` is about ``sqrt(L/ρ)`` (any ``α > 1`` is valid; this only steers)."""
    with ctx.workprec(64):
        r = arb(rho)
        rho_f = float(r.mid()) if r < 1e300 and r > 1e-300 else math.inf
    if math.isfinite(rho_f) and rho_f > 0:
        return cks20_alpha(rho_f, L)
    with ctx.workprec(64):
        a1 = (arb(L) / arb(rho)).sqrt()
        if not a1 > 0:
            return Fraction(2)
        man, exp = a1.mid().man_exp()
    a1_fr = Fraction(int(man)) * Fraction(2) ** int(exp)
    return 1 + a1_fr


def _methods(methods: Iterable[str]) -> frozenset[str]:
    """*methods* checked against :data:`ZCDP_METHODS` (a single name is accepted too)."""
    if methods is ZCDP_METHODS:
        return _ALL_METHODS
    if isinstance(methods, str):
        methods = (methods,)
    try:
        wanted = frozenset(methods)
    except TypeError:
        raise InvalidParameter(f"methods must be names among {', '.join(ZCDP_METHODS)}, got {methods!r}") from None
    unknown = sorted(str(m) for m in wanted - set(ZCDP_METHODS))
    if unknown or not wanted:
        raise InvalidParameter(f"methods must be a non-empty selection of {', '.join(ZCDP_METHODS)}, "
                               f"got {sorted(map(str, wanted)) if wanted else 'none'}")
    return wanted


def rdp_epsilon(alpha: object, rdp_eps: object, delta: object, *, digits: int = DEFAULT_DIGITS) -> Certified:
    """R-E1 at one order: an ``(α, τ)``-RDP mechanism is ``(ε, δ)``-DP with the returned ε (rounded up).

    ``ε = max(0, τ + log((α-1)/α) - (log δ + log α)/(α-1))`` (CKS20 Prop. 12).

    >>> rdp_epsilon(alpha=2, rdp_eps=1, delta="1e-6").rounded
    '13.42921620'
    """
    check_digits(digits)
    a = exact_input(alpha, "alpha")
    tau = exact_input(rdp_eps, "rdp_eps")
    d = exact_input(delta, "delta")
    if not a > 1:
        raise InvalidParameter(f"alpha must be greater than 1, got alpha={text(alpha)}")
    require_nonnegative(tau, "rdp_eps", rdp_eps)
    require_closed_unit(d, "delta", delta)
    query = {"alpha": text(alpha), "rdp_eps": text(rdp_eps), "delta": text(delta), "digits": str(digits)}
    if d == 1:
        return Certified("epsilon", arb(0), "0", "up", digits, "delta = 1: every mechanism is (0, 1)-DP", query, True)
    if d == 0:
        raise InvalidParameter(
            "no finite epsilon at delta=0: an (alpha, eps)-RDP guarantee of finite order implies (eps', 0)-DP for no "
            "finite eps' in general (the Gaussian mechanism is RDP of every order and never (eps', 0)-DP); ask for a "
            "delta > 0")

    def compute(prec: int) -> arb:
        aa, a1 = arb(a), arb(a - 1)
        return _clip_at_zero(arb(tau) + (a1 / aa).log() - (arb(d).log() + aa.log()) / a1)

    return certify("epsilon", compute, digits=digits, method="CKS20 Prop 12 (R-E1), single order",
                   query=query, exact=False, what="the RDP-to-DP epsilon")
