"""The anchors of the benchmark: cdpsym's certified value and the mpmath ground truth.

* :func:`truth` — the exact epsilon of a query from :mod:`cdpsym.mechanisms`
  (mpmath, 60 significant digits), computed from the *exact* binary values of
  the float inputs (``sympy.Rational(Fraction(x))``), so it is the truth of the
  very query every tool received.  For zCDP it is the exact epsilon of the
  Gaussian witness with ``rho = 1/(2 sigma^2)``: the Gaussian is rho-zCDP, so
  no sound rho-zCDP => (eps, delta) conversion can return less.
* :func:`certified` — cdpsym.accounting's answer (a ``Certified`` whose Arb
  ball provably encloses the exact value), when that module is importable.
* :func:`cks20_truth` / :func:`bs16_truth` — the exact values of the two
  textbook conversion bounds, to cross-check cdpsym's ``cks20`` and ``bs16``.
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from typing import Optional

import mpmath
import sympy as sp
from mpmath import mp

from peer_wrappers import GaussQ, PureQ, ZcdpQ

DPS = 60
_PREC = 4 * DPS + 64  # Arb bits for the comparisons below (the balls themselves are cdpsym's)


def exact(x: float) -> sp.Rational:
    """The exact binary value of a float as a sympy Rational."""
    f = Fraction(x)
    return sp.Rational(f.numerator, f.denominator)


# -- mpmath ground truth ------------------------------------------------------------------------------

def truth(q) -> mpmath.mpf:
    from cdpsym.mechanisms import Gaussian, RandomizedResponse, compose
    if isinstance(q, GaussQ):
        return compose(Gaussian(sensitivity=1, sigma=exact(q.sigma)), k=q.k).epsilon(exact(q.delta), dps=DPS)
    if isinstance(q, PureQ):
        return compose(RandomizedResponse(exact(q.eps0)), k=q.k).epsilon(exact(q.delta), dps=DPS)
    if isinstance(q, ZcdpQ):
        return Gaussian(sensitivity=sp.sqrt(2 * exact(q.rho)), sigma=1).epsilon(exact(q.delta), dps=DPS)
    raise TypeError(q)


def _cks20_objective(rho: mpmath.mpf, log_delta: mpmath.mpf, alpha: mpmath.mpf) -> mpmath.mpf:
    # CKS20 Prop 12 for (alpha, alpha*rho)-RDP:  eps = alpha*rho + log(1-1/alpha) - (log delta + log alpha)/(alpha-1)
    return alpha * rho + mp.log1p(-1 / alpha) - (log_delta + mp.log(alpha)) / (alpha - 1)


def cks20_truth(q: ZcdpQ) -> mpmath.mpf:
    """min over alpha > 1 of the CKS20 conversion for rho-zCDP (golden section; the objective is unimodal)."""
    with mp.workdps(DPS + 20):
        rho, log_delta = mp.mpf(exact(q.rho).p) / exact(q.rho).q, mp.log(mp.mpf(exact(q.delta).p) / exact(q.delta).q)
        f = lambda a: _cks20_objective(rho, log_delta, a)  # noqa: E731
        # bracket: the minimiser is near 1 + sqrt(log(1/delta)/rho)
        lo, hi = mp.mpf(1) + mp.mpf(10) ** -30, 1 + 4 * mp.sqrt(-log_delta / rho) + 10
        g = (mp.sqrt(5) - 1) / 2
        a, b = lo + (1 - g) * (hi - lo), lo + g * (hi - lo)
        fa, fb = f(a), f(b)
        for _ in range(400):
            if fa < fb:
                hi, b, fb = b, a, fa
                a = lo + (1 - g) * (hi - lo)
                fa = f(a)
            else:
                lo, a, fa = a, b, fb
                b = lo + g * (hi - lo)
                fb = f(b)
        value = min(fa, fb)
    return value  # keeps its DPS + 20 digits (``+value`` would round to the ambient 15)


def bs16_truth(q: ZcdpQ) -> mpmath.mpf:
    """BS16 Prop 1.3: rho + 2 sqrt(rho log(1/delta))."""
    with mp.workdps(DPS + 20):
        rho, delta = mp.mpf(exact(q.rho).p) / exact(q.rho).q, mp.mpf(exact(q.delta).p) / exact(q.delta).q
        value = rho + 2 * mp.sqrt(rho * mp.log(1 / delta))
    return value


# -- cdpsym.accounting ----------------------------------------------------------------------------------

def accounting_status() -> Optional[str]:
    """None when cdpsym.accounting offers what the benchmark calls, else why not."""
    try:
        module = importlib.import_module("cdpsym.accounting")
    except Exception as exc:
        return f"cdpsym.accounting does not import ({type(exc).__name__}: {exc})"
    missing = [name for name in ("epsilon", "zcdp_epsilon", "Certified") if not hasattr(module, name)]
    if missing:
        return f"cdpsym.accounting has no {', '.join(missing)} yet"
    return None


def certified_gauss(q: GaussQ, **options):
    """One query, as a user writes it: build the composition, ask for epsilon (default digits unless given)."""
    from cdpsym.accounting import epsilon
    from cdpsym.mechanisms import Gaussian, compose
    return epsilon(compose(Gaussian(sensitivity=1, sigma=q.sigma), k=q.k), delta=q.delta, **options)


def certified_pure(q: PureQ, **options):
    from cdpsym.accounting import epsilon
    from cdpsym.mechanisms import RandomizedResponse, compose
    return epsilon(compose(RandomizedResponse(q.eps0), k=q.k), delta=q.delta, **options)


def certified_zcdp(q: ZcdpQ, **options) -> dict:
    from cdpsym.accounting import zcdp_epsilon
    return zcdp_epsilon(rho=q.rho, delta=q.delta, **options)


CERTIFIED = {GaussQ: certified_gauss, PureQ: certified_pure, ZcdpQ: certified_zcdp}

#: digits asked of cdpsym for the *verdict* ball (an extra, untimed call): the default 10 digits leave a ball
#: ~1e-10 wide, too wide to decide whether a float answer 1e-15 below the truth is below it.  First that works.
VERDICT_DIGITS = (30, 20, 15)
_first_level: dict = {}  # query type -> index into VERDICT_DIGITS to start from (a level that failed is skipped later)


def verdict_ball(q):
    """(ball, digits) of a tight certified enclosure of the exact value, or (None, why) if none could be had."""
    errors = []
    start = _first_level.get(type(q), 0)
    for level, digits in enumerate(VERDICT_DIGITS):
        if level < start:
            continue
        try:
            c = CERTIFIED[type(q)](q, digits=digits)
        except Exception as exc:
            errors.append(f"digits={digits}: {type(exc).__name__}")
            _first_level[type(q)] = max(_first_level.get(type(q), 0), level + 1)
            continue
        if isinstance(c, dict):
            c = c["exact_gaussian"]
        return c.ball, digits
    return None, "; ".join(errors)


def ball_entirely_below(ball, value: mpmath.mpf) -> bool:
    """Is every point of *ball* below *value* (less a 50-digit tolerance)?"""
    from flint import arb, ctx
    with ctx.workprec(_PREC), mp.workdps(DPS + 10):
        point = arb(mpmath.nstr(value * (1 - mpmath.mpf(10) ** (10 - DPS)), DPS, strip_zeros=False))
        return bool(ball < point)


# -- comparisons against a ball -------------------------------------------------------------------------

def ball_contains(ball, value: mpmath.mpf) -> bool:
    """Does the Arb *ball* overlap a tiny ball around the 60-digit mpmath *value*?"""
    from flint import arb, ctx
    with ctx.workprec(_PREC), mp.workdps(DPS + 10):
        radius = mpmath.nstr(abs(value) * mpmath.mpf(10) ** (10 - DPS), 5)
        point = arb(mpmath.nstr(value, DPS, strip_zeros=False), radius)
        return bool(ball.overlaps(point))


def strictly_below(x: float, ball) -> bool:
    """Is the float *x* (exact binary value) strictly below every point of *ball*?"""
    from flint import arb, ctx
    with ctx.workprec(_PREC):
        return bool(arb(x) < ball)


def ball_lower(ball) -> mpmath.mpf:
    """The lower end of *ball* as an mpf (rounded down to DPS digits; for display and ratios only)."""
    from flint import ctx
    with ctx.workprec(_PREC):
        return mpmath.mpf(ball.lower().str(DPS + 5, radius=False))
