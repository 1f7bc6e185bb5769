r"""The tightness ladder (issue 14): every zCDP ⇒ DP conversion and every composition bound, side by side.

Two ladders, each computed on the same parameters and compared with the exact value:

* **Conversions** of a ``ρ``-zCDP guarantee to an ``(ε, δ)``-DP one, as ``ε(δ)``: BS16 Prop 1.3 (R-C4),
  BS16 Lemma 3.6 with the ``√(πρ)`` factor (R-C5), CKS20 Prop 12 (R-E1, optimised over ``α``),
  Mironov's RDP ⇒ DP (R-D5) at its optimal order, and the exact ``ε(δ)`` of the Gaussian mechanism
  that is exactly ``ρ``-zCDP (BW18, R-E4; certified by :func:`cdpsym.accounting.zcdp_epsilon`).  No
  conversion from ``ρ``-zCDP can do better than that Gaussian, so it is the floor of the ladder.
* **Compositions** of ``k`` ``ε0``-DP mechanisms at a target ``δ``: basic (R-F1), DRV10 (R-F3), DR16
  (R-B1 = R-F4 first form), the KOV15 closed form (R-F4), the route via zCDP (R-F5) and its sharpened
  form (R-C6's ``ρ* = ε0·tanh(ε0/2)`` with R-E1), the KOV15 exact optimum (R-F7, computed here in
  mpmath from the binomial formula), and the certified exact value of ``k``-fold randomized response
  (:func:`cdpsym.accounting.epsilon`), which is the optimum over all ``ε0``-DP mechanisms (R-F7).

Every bound is evaluated from its closed form in REFERENCE.md with mpmath at :data:`DPS` digits and
returns ``None`` outside its hypotheses (then the table shows ``—``).  The inputs are exact decimal
strings (``"1e-6"`` is 10⁻⁶).  ``python -m cdpsym.ladder`` regenerates ``docs/ladder.md`` and the two
PNG plots.

>>> from mpmath import nstr
>>> nstr(conversion_bs16("0.5", "1e-6"), 8), nstr(conversion_cks20("0.5", "1e-6"), 8)
('5.7565218', '5.2215344')
>>> nstr(composition_dr16("0.1", 100, "1e-6"), 8), nstr(composition_kov_exact("0.1", 100, "1e-6"), 8)
('5.7823764', '4.7745676')
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import mpmath
from mpmath import mp, mpf

__all__ = [
    "DPS",
    "CONVERSION_RHOS",
    "CONVERSION_DELTAS",
    "COMPOSITION_KS",
    "COMPOSITION_EPS0",
    "COMPOSITION_DELTA",
    "Rung",
    "CONVERSIONS",
    "COMPOSITIONS",
    "conversion_bs16",
    "conversion_bs16_lemma36",
    "conversion_cks20",
    "conversion_m17",
    "conversion_exact_gaussian",
    "conversion_exact_gaussian_mp",
    "composition_basic",
    "composition_drv10",
    "composition_dr16",
    "composition_kov_closed_form",
    "composition_zcdp",
    "composition_zcdp_sharp",
    "composition_kov_exact",
    "composition_exact",
    "ladder_markdown",
    "plot",
    "main",
]

#: working precision (decimal digits) of every closed form
DPS = 50

#: the parameter grid of the tables (exact decimal strings)
CONVERSION_RHOS = ("0.01", "0.1", "0.5", "2")
CONVERSION_DELTAS = ("1e-5", "1e-10")
COMPOSITION_KS = (10, 100, 1000, 10_000)
COMPOSITION_EPS0 = ("0.01", "0.1", "0.5", "1")
COMPOSITION_DELTA = "1e-6"

#: the parameters of the plots
PLOT_RHO = "0.5"
PLOT_EPS0 = "0.1"

_DOCS = Path(__file__).resolve().parents[1] / "docs"


def _q(value: object) -> Fraction:
    """An exact rational from an int, a Fraction or a decimal string."""
    return value if isinstance(value, Fraction) else Fraction(str(value))


def _mpf(value: object) -> mpf:
    """The exact rational ``value`` at the working precision (call inside ``mp.workdps``)."""
    q = _q(value)
    return mpf(q.numerator) / q.denominator


def _open_unit(delta: Fraction) -> bool:
    return 0 < delta < 1


def _bisect(f: Callable[[mpf], mpf], lo: mpf, hi: mpf, steps: int | None = None) -> mpf:
    """The root of a decreasing ``f`` with ``f(lo) > 0 >= f(hi)``, to the working precision (upper end)."""
    steps = steps if steps is not None else int(mp.prec) + 10
    for _ in range(steps):
        mid = (lo + hi) / 2
        if mid in (lo, hi):
            break
        if f(mid) > 0:
            lo = mid
        else:
            hi = mid
    return hi


# ---------------------------------------------------------------------------------------------------------------
# (a) zCDP ⇒ (ε, δ)-DP: ε(δ) for a ρ-zCDP guarantee
# ---------------------------------------------------------------------------------------------------------------


def _conversion_args(rho: object, delta: object) -> tuple[Fraction, Fraction] | None:
    r, d = _q(rho), _q(delta)
    if not (r > 0 and _open_unit(d)):
        return None
    return r, d


def conversion_bs16(rho: object, delta: object) -> mpf | None:
    r"""BS16 Prop 1.3 (R-C4): ``ε = ρ + 2√(ρ log(1/δ))``; hypotheses ``ρ > 0``, ``0 < δ < 1``."""
    args = _conversion_args(rho, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        r, L = _mpf(args[0]), -mpmath.log(_mpf(args[1]))
        return +(r + 2 * mpmath.sqrt(r * L))


def _lemma36_delta(eps: mpf, r: mpf) -> mpf:
    """R-C5's ``δ(ε)`` (``ξ = 0``), for ``ε >= ρ``."""
    a = (eps - r) / (2 * r)
    factor = min(mpmath.sqrt(mp.pi * r), 1 / (1 + a),
                 2 / (1 + a + mpmath.sqrt((1 + a) ** 2 + 4 / (mp.pi * r))))
    return mpmath.exp(-(eps - r) ** 2 / (4 * r)) * factor


def conversion_bs16_lemma36(rho: object, delta: object) -> mpf | None:
    r"""BS16 Lemma 3.6 (R-C5), the ``√(πρ)`` refinement, as ``ε(δ)``: the least ``ε >= ρ`` whose R-C5 ``δ`` is ``<= δ``.

    R-C5 holds for ``ε >= ξ + ρ`` only, and its ``δ(ε)`` decreases there; when already
    ``δ(ρ) <= δ`` the lemma certifies ``(ρ, δ)`` and nothing below ``ρ`` (the answer is then ``ρ``,
    see :func:`lemma36_limit`).
    """
    args = _conversion_args(rho, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        r, d = _mpf(args[0]), _mpf(args[1])
        if _lemma36_delta(r, r) <= d:
            return r
        hi = conversion_bs16(rho, delta)  # the R-C5 δ at the BS16 ε is <= δ (every factor of the min is <= 1 there)
        return +_bisect(lambda e: mpmath.log(_lemma36_delta(e, r)) - mpmath.log(d), r, hi)


def lemma36_limit(rho: object) -> mpf:
    """``δ_C5(ρ)``: the R-C5 ``δ`` at ``ε = ρ``; for ``δ >= δ_C5(ρ)`` R-C5's hypothesis ``ε >= ρ`` binds."""
    with mp.workdps(DPS):
        r = _mpf(rho)
        return +_lemma36_delta(r, r)


def _cks20_order_minus_one(r: mpf, L: mpf) -> mpf:
    """The optimal ``a = α - 1`` of R-E1 for ρ-zCDP: the root in ``(0, √(L/ρ)]`` of ``ρa² + log(1+a) - L``
    (increasing in ``a``)."""
    return _bisect(lambda a: L - r * a * a - mpmath.log1p(a), mpf(0), mpmath.sqrt(L / r))


def _cks20_eps(r: mpf, L: mpf, a: mpf) -> mpf:
    """R-E1: ``ε(α) = αρ + log(1 - 1/α) + (log(1/δ) - log α)/(α - 1)`` with ``α = 1 + a``."""
    alpha = 1 + a
    return alpha * r + mpmath.log(a / alpha) + (L - mpmath.log(alpha)) / a


def conversion_cks20(rho: object, delta: object) -> mpf | None:
    r"""CKS20 Prop 12 (R-E1) at the optimal order ``α`` (any ``α > 1`` is valid; ``ε`` clipped at 0).

    ``dε/dα = ρ - (log(1/δ) - log α)/(α-1)²`` vanishes at one ``α* > 1``, found by bisection at
    :data:`DPS` digits.
    """
    args = _conversion_args(rho, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        r, L = _mpf(args[0]), -mpmath.log(_mpf(args[1]))
        return +max(mpf(0), _cks20_eps(r, L, _cks20_order_minus_one(r, L)))


def conversion_m17(rho: object, delta: object) -> mpf | None:
    r"""Mironov Prop 3 (R-D5) for the RDP curve ``ε(α) = αρ`` of ρ-zCDP, at the optimal order.

    ``ε = αρ + log(1/δ)/(α - 1)`` is least at ``α* = 1 + √(log(1/δ)/ρ)``, where it equals BS16's
    ``ρ + 2√(ρ log(1/δ))`` exactly (REFERENCE R-D5).
    """
    args = _conversion_args(rho, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        r, L = _mpf(args[0]), -mpmath.log(_mpf(args[1]))
        alpha = 1 + mpmath.sqrt(L / r)
        return +(alpha * r + L / (alpha - 1))


def _gaussian_delta(eps: mpf, tau: mpf) -> mpf:
    """BW18 Thm 8 (R-E4): ``Φ(τ/2 - ε/τ) - e^ε Φ(-τ/2 - ε/τ)``."""
    return mpmath.ncdf(tau / 2 - eps / tau) - mpmath.exp(eps) * mpmath.ncdf(-tau / 2 - eps / tau)


def _gaussian_tv(rho: object) -> mpf:
    """``δ(0)`` of the Gaussian with ``μ = √(2ρ)``: its total variation ``2Φ(μ/2) - 1``."""
    with mp.workdps(DPS):
        return +_gaussian_delta(mpf(0), mpmath.sqrt(2 * _mpf(rho)))


def conversion_exact_gaussian_mp(rho: object, delta: object) -> mpf | None:
    """The exact ``ε(δ)`` of the Gaussian with ``μ = √(2ρ)`` from BW18's formula, by bisection in mpmath
    (an independent check of :func:`conversion_exact_gaussian`)."""
    args = _conversion_args(rho, delta)
    if args is None:
        return None
    with mp.workdps(DPS + 10):
        tau, d = mpmath.sqrt(2 * _mpf(args[0])), _mpf(args[1])
        if _gaussian_delta(mpf(0), tau) <= d:
            return mpf(0)
        return +_bisect(lambda e: _gaussian_delta(e, tau) - d, mpf(0), conversion_bs16(rho, delta))


@functools.lru_cache(maxsize=None)
def _certified_gaussian(rho: Fraction, delta: Fraction, digits: int):
    from cdpsym.accounting import zcdp_epsilon

    return zcdp_epsilon(rho=rho, delta=delta, digits=digits, methods=["exact_gaussian"])["exact_gaussian"]


def conversion_exact_gaussian(rho: object, delta: object, digits: int = 12):
    """The certified exact ``ε(δ)`` of the Gaussian mechanism that is exactly ρ-zCDP (BW18, R-E4):
    a :class:`cdpsym.accounting.Certified` (an Arb ball and its decimal rounded up), or ``None``."""
    args = _conversion_args(rho, delta)
    if args is None:
        return None
    return _certified_gaussian(args[0], args[1], digits)


# ---------------------------------------------------------------------------------------------------------------
# (b) k-fold composition of ε0-DP mechanisms at a target δ
# ---------------------------------------------------------------------------------------------------------------


def _composition_args(eps0: object, k: int, delta: object) -> tuple[Fraction, int, Fraction] | None:
    e, d = _q(eps0), _q(delta)
    if not (e > 0 and int(k) == k and k >= 1 and _open_unit(d)):
        return None
    return e, int(k), d


def composition_basic(eps0: object, k: int, delta: object) -> mpf | None:
    """Basic composition (R-F1): ``k ε0`` (pure DP, so valid at every ``δ``)."""
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        return +(args[1] * _mpf(args[0]))


def _advanced(eps0: object, k: int, delta: object, mean: Callable[[mpf], mpf]) -> mpf | None:
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        e, L = _mpf(args[0]), -mpmath.log(_mpf(args[2]))
        return +(mpmath.sqrt(2 * args[1] * L) * e + args[1] * mean(e))


def composition_drv10(eps0: object, k: int, delta: object) -> mpf | None:
    """DRV10 Thm III.3 (R-F3): ``√(2k log(1/δ')) ε0 + k ε0 (e^ε0 - 1)``; ``ε0 > 0``, ``0 < δ' < 1``, any ``k``."""
    return _advanced(eps0, k, delta, lambda e: e * mpmath.expm1(e))


def composition_dr16(eps0: object, k: int, delta: object) -> mpf | None:
    """DR16 Thm 1.1 (R-B1): ``√(2k log(1/δ')) ε0 + k ε0 (e^ε0 - 1)/2``; ``ε0 >= 0``, ``0 < δ' < 1``, any ``k``."""
    return _advanced(eps0, k, delta, lambda e: e * mpmath.expm1(e) / 2)


def composition_kov_closed_form(eps0: object, k: int, delta: object) -> mpf | None:
    r"""KOV15's closed form (R-F4): the least of ``kε0``,
    ``kε0 tanh(ε0/2) + ε0 √(2k log(e + √(kε0²)/δ'))`` and ``kε0 tanh(ε0/2) + ε0 √(2k log(1/δ'))``."""
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        e, kk, d = _mpf(args[0]), args[1], _mpf(args[2])
        mean = kk * e * mpmath.tanh(e / 2)
        return +min(kk * e,
                    mean + e * mpmath.sqrt(2 * kk * mpmath.log(mp.e + mpmath.sqrt(kk * e * e) / d)),
                    mean + e * mpmath.sqrt(2 * kk * mpmath.log(1 / d)))


def composition_zcdp(eps0: object, k: int, delta: object) -> mpf | None:
    """Via zCDP (R-F5, S22b): ``½ k ε0² + √(2 log(1/δ) k ε0²)`` (R-C6 ½ε²-zCDP, R-C7, R-C4)."""
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        e, kk, L = _mpf(args[0]), args[1], -mpmath.log(_mpf(args[2]))
        return +(kk * e * e / 2 + mpmath.sqrt(2 * L * kk * e * e))


def composition_zcdp_sharp(eps0: object, k: int, delta: object) -> mpf | None:
    """Via zCDP with the sharp constant: ``ρ = k ε0 tanh(ε0/2)`` (R-C6, R-C7), then CKS20 (R-E1)."""
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    with mp.workdps(DPS):
        e = _mpf(args[0])
        r, L = args[1] * e * mpmath.tanh(e / 2), -mpmath.log(_mpf(args[2]))
        return +max(mpf(0), _cks20_eps(r, L, _cks20_order_minus_one(r, L)))


def composition_kov_exact(eps0: object, k: int, delta: object) -> mpf | None:
    r"""KOV15 Thm 3.3 (R-F7): the least ``ε'`` with ``δ_opt(ε') <= δ``, computed from the binomial formula.

    With ``t_i = C(k,i) p^i (1-p)^{k-i}``, ``p = e^ε0/(1+e^ε0)`` and ``ℓ_i = (2i-k)ε0``,
    ``δ_opt(ε') = Σ_{ℓ_i > ε'} t_i (1 - e^{ε' - ℓ_i})``: linear in ``e^{ε'}`` between consecutive
    ``ℓ_i``; walk down the segments from ``ε' = kε0`` and solve on the one that holds the root.
    Independent of :mod:`cdpsym.accounting` (mpmath at :data:`DPS` + 10 digits).
    """
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    with mp.workdps(DPS + 10):
        e, kk, d = _mpf(args[0]), args[1], _mpf(args[2])
        t = mpmath.exp(-kk * mpmath.log1p(mpmath.exp(-e)))  # t_k = p^k
        ratio = mpmath.exp(-e)  # (1-p)/p
        A = B = mpf(0)  # Σ_{i>=m} t_i and Σ_{i>=m} t_i e^{-ℓ_i}
        for m in range(kk, -1, -1):
            if m < kk:
                t = t * (m + 1) / (kk - m) * ratio
            A += t
            B += t * mpmath.exp(-(2 * m - kk) * e)
            left = (2 * (m - 1) - kk) * e  # the segment of the set {i >= m} is [ℓ_{m-1}, ℓ_m)
            at = max(left, mpf(0))
            if A - mpmath.exp(at) * B > d:
                return +mpmath.log((A - d) / B)
            if left <= 0:
                return mpf(0)
        return mpf(0)  # pragma: no cover - the loop returns by m = ⌈k/2⌉


@functools.lru_cache(maxsize=None)
def _certified_rr(eps0: Fraction, k: int, delta: Fraction, digits: int):
    from cdpsym.accounting import epsilon
    from cdpsym.mechanisms import RandomizedResponse, compose

    return epsilon(compose(RandomizedResponse(eps=eps0), k=k), delta=delta, digits=digits)


def composition_exact(eps0: object, k: int, delta: object, digits: int = 12):
    """The certified exact ``ε`` of ``k``-fold randomized response ``RR(ε0)`` at ``δ`` — the optimum
    for the class of ``ε0``-DP mechanisms (R-F7): a :class:`cdpsym.accounting.Certified`, or ``None``."""
    args = _composition_args(eps0, k, delta)
    if args is None:
        return None
    return _certified_rr(args[0], args[1], args[2], digits)


# ---------------------------------------------------------------------------------------------------------------
# the rungs, the tables, the plots
# ---------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rung:
    """One row of a ladder: a bound (or the exact value), its REFERENCE item and its source."""

    key: str
    label: str
    ref: str
    source: str
    compute: Callable[..., object]
    exact: bool = False
    advanced: bool = False  # a composition bound to be compared with basic composition kε0


CONVERSIONS: tuple[Rung, ...] = (
    Rung("exact", "exact Gaussian (certified)", "R-E4", "BW18 Thm 8", conversion_exact_gaussian, exact=True),
    Rung("cks20", "CKS20, optimal α", "R-E1", "CKS20 Prop 12", conversion_cks20),
    Rung("bs16_l36", "BS16 √(πρ) refinement", "R-C5", "BS16 Lemma 3.6", conversion_bs16_lemma36),
    Rung("bs16", "BS16 ρ + 2√(ρ log 1/δ)", "R-C4", "BS16 Prop 1.3", conversion_bs16),
    Rung("m17", "RDP ⇒ DP (Mironov), optimal α", "R-D5", "M17 Prop 3", conversion_m17),
)

COMPOSITIONS: tuple[Rung, ...] = (
    Rung("exact", "exact optimum, certified (k-fold RR)", "R-F7", "KOV15 Thm 3.3; cdpsym.accounting",
         composition_exact, exact=True),
    Rung("kov_exact", "KOV exact optimum (binomial formula)", "R-F7", "KOV15 Thm 3.3", composition_kov_exact),
    Rung("zcdp_sharp", "via zCDP, ρ* = kε0·tanh(ε0/2), CKS20", "R-C6, R-E1", "S24 / CKS20 (derived)",
         composition_zcdp_sharp, advanced=True),
    Rung("kov_closed", "KOV closed form", "R-F4", "KOV15 Thm 3.4", composition_kov_closed_form, advanced=True),
    Rung("zcdp", "via zCDP ½kε0² + √(2kε0² log 1/δ)", "R-F5", "S22b", composition_zcdp, advanced=True),
    Rung("dr16", "DR16 (halved mean term)", "R-B1", "DR16 Thm 1.1", composition_dr16, advanced=True),
    Rung("drv10", "DRV10 advanced composition", "R-F3", "DRV10 Thm III.3", composition_drv10, advanced=True),
    Rung("basic", "basic kε0", "R-F1", "DR14 Thm 3.14", composition_basic),
)


def _value(result: object) -> float | None:
    """A bound (mpf) or a Certified as a float (a Certified's decimal is rounded up)."""
    if result is None:
        return None
    if hasattr(result, "ball"):
        return float(result.rounded)
    return float(result)


def conversion_values(rho: object, delta: object) -> dict[str, float | None]:
    """Every conversion rung at ``(ρ, δ)``, as floats (``None`` where a bound does not apply)."""
    return {r.key: _value(r.compute(rho, delta)) for r in CONVERSIONS}


def composition_values(eps0: object, k: int, delta: object) -> dict[str, float | None]:
    """Every composition rung at ``(ε0, k, δ)``, as floats (``None`` where a bound does not apply)."""
    return {r.key: _value(r.compute(eps0, k, delta)) for r in COMPOSITIONS}


def _cell(value: float | None, exact: float | None, *, best: bool = False, useless: bool = False) -> str:
    if value is None:
        return "—"
    text = f"{value:.4f}"
    if best:
        text = f"**{text}**"
    if exact:
        text += f" (×{value / exact:.3f})"
    if useless:
        text += " †"
    return text


def _table(rows: Sequence[Rung], header: Sequence[str], columns: Sequence[dict[str, float | None]],
           basics: Sequence[float] | None = None) -> list[str]:
    lines = ["| bound | item | " + " | ".join(header) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in header) + " |"]
    best = []
    for col in columns:
        candidates = [col[r.key] for r in rows if not r.exact and r.key != "kov_exact" and col[r.key] is not None]
        best.append(min(candidates) if candidates else None)
    for r in rows:
        cells = []
        for j, col in enumerate(columns):
            v = col[r.key]
            useless = bool(r.advanced and basics is not None and v is not None and v > basics[j])
            cells.append(_cell(v, col["exact"], best=(not r.exact and v is not None and v == best[j]),
                               useless=useless))
        label = f"**{r.label}**" if r.exact else r.label
        lines.append(f"| {label} | {r.ref} | " + " | ".join(cells) + " |")
    return lines


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def _fmt_param(value: object) -> str:
    """``"1e-6"`` → ``"10⁻⁶"``; other decimals unchanged."""
    s = str(value)
    if "e" in s:
        mant, exp = s.split("e")
        return (f"{mant}·" if mant != "1" else "") + "10" + str(int(exp)).translate(_SUPERSCRIPT)
    return s


_INTRO = """\
# The tightness ladder

<!-- generated by `python -m cdpsym.ladder`; do not edit by hand (tests/test_ladder.py checks it is current) -->

How loose is each textbook bound? Each table below puts the bounds of REFERENCE.md side by side on the
same parameters, every cell the **ε** the bound certifies (4 decimals) and, in parentheses, its ratio to
the exact value, the bottom of the ladder. Bold: the best bound in the column (the exact rows aside).
"—" marks a bound whose hypotheses exclude the parameters (none of the settings below does: R-F3 and
R-B1 hold for every k and ε0, R-E1 for every α > 1, R-C5 for ε ≥ ρ, which is never binding here).
"†" marks a composition bound that is *valid but useless*: worse than basic composition kε0.
Every bound is evaluated from its closed form with mpmath at 50 digits (`cdpsym/ladder.py`); the exact
values are certified Arb balls from `cdpsym.accounting` (shown rounded to 4 decimals), and
`tests/test_ladder.py` checks that no bound falls below them.

## Conversions: ρ-zCDP ⇒ (ε, δ)-DP

The rungs, for a ρ-zCDP guarantee and a target δ:

- **exact Gaussian** (R-E4; Balle–Wang 2018, Thm 8, arXiv:1805.06530): the least ε of the Gaussian
  mechanism with Δ/σ = √(2ρ), which is exactly ρ-zCDP. No conversion can go below it.
- **CKS20** (R-E1; Canonne–Kamath–Steinke 2020, Prop 12, arXiv:2004.00010):
  ε = αρ + log(1 − 1/α) + (log(1/δ) − log α)/(α − 1), minimised over α > 1.
- **BS16 √(πρ) refinement** (R-C5; Bun–Steinke 2016, Lemma 3.6, arXiv:1605.02065): the least ε ≥ ρ with
  e^{−(ε−ρ)²/4ρ}·min{√(πρ), 1/(1+a), 2/(1+a+√((1+a)²+4/(πρ)))} ≤ δ, a = (ε−ρ)/2ρ.
- **BS16** (R-C4; Bun–Steinke 2016, Prop 1.3): ε = ρ + 2√(ρ log(1/δ)).
- **RDP ⇒ DP** (R-D5; Mironov 2017, Prop 3, arXiv:1702.07476): ε = αρ + log(1/δ)/(α − 1) at the best
  α = 1 + √(log(1/δ)/ρ) — which is BS16 exactly; an accountant restricted to a grid of orders does worse.
"""

_COMPOSITION_INTRO = """\
## Compositions: k-fold composition of ε0-DP mechanisms, δ = {delta}

The rungs, for k adaptively composed ε0-DP mechanisms and a target δ:

- **exact optimum, certified** (R-F7; Kairouz–Oh–Viswanath 2015, Thm 3.3, arXiv:1311.0776): the least ε
  of k-fold randomized response RR(ε0), which is the worst ε0-DP mechanism under composition, from
  `cdpsym.accounting.epsilon(compose(RandomizedResponse(eps0), k=k), delta)`.
- **KOV exact optimum** (R-F7): the same optimum recomputed here from KOV's binomial formula in mpmath —
  an independent check (ratio 1.000 everywhere; the test requires agreement to 25 digits).
- **via zCDP, sharp** (R-C6 + R-C7 + R-E1, derived in REFERENCE.md): ε0-DP ⇒ ε0·tanh(ε0/2)-zCDP
  (sharp constant; Steinke 2024), compose, convert by CKS20.
- **KOV closed form** (R-F4; KOV15): min{kε0, kε0·tanh(ε0/2) + ε0√(2k log(e + √(kε0²)/δ)),
  kε0·tanh(ε0/2) + ε0√(2k log(1/δ))}.
- **via zCDP** (R-F5; Steinke 2022, "Composition Basics"): ½kε0² + √(2 log(1/δ)·kε0²).
- **DR16** (R-B1; Dwork–Rothblum 2016, Thm 1.1, arXiv:1603.01887): ε0√(2k log(1/δ)) + kε0(e^ε0 − 1)/2.
- **DRV10** (R-F3; Dwork–Rothblum–Vadhan 2010, Thm III.3): ε0√(2k log(1/δ)) + kε0(e^ε0 − 1).
- **basic** (R-F1; Dwork–Roth 2014, Thm 3.14): kε0.
"""


def _anchor_lines() -> list[str]:
    """REFERENCE.md's own numeric checks (R-E7 / ✓N9, R-B1 / ✓N19), recomputed."""
    lines = ["## Anchors: REFERENCE.md's numbers, recomputed", "",
             "R-E7 (✓N9), zCDP ⇒ DP:", "",
             "| ρ | δ | exact (BW18) | CKS20 | BS16 L3.6 | BS16 Prop 1.3 |",
             "| ---: | ---: | ---: | ---: | ---: | ---: |"]
    for rho, delta in (("0.5", "1e-6"), ("0.01", "1e-9"), ("2", "1e-5"), ("0.125", "1e-3")):
        v = conversion_values(rho, delta)
        lines.append(f"| {rho} | {_fmt_param(delta)} | {v['exact']:.4f} | {v['cks20']:.4f} | {v['bs16_l36']:.4f} | "
                     f"{v['bs16']:.4f} |")
    lines += ["", "R-B1 / R-F4 (✓N19), k = 100, ε0 = 0.1, δ = 10^-6:", "",
              "| optimum | DR16 | DRV10 | KOV closed form | via zCDP |",
              "| ---: | ---: | ---: | ---: | ---: |"]
    v = composition_values("0.1", 100, "1e-6")
    lines.append(f"| {v['exact']:.4f} | {v['dr16']:.4f} | {v['drv10']:.4f} | {v['kov_closed']:.4f} | "
                 f"{v['zcdp']:.4f} |")
    return lines


def _usefulness_lines(delta: object) -> list[str]:
    """From which k each advanced bound beats basic composition (plain statement of the † marks)."""
    lines = ["", f"Smallest k from which each bound beats basic composition kε0 (δ = {_fmt_param(delta)}):", "",
             "| bound | " + " | ".join(f"ε0 = {e}" for e in COMPOSITION_EPS0) + " |",
             "| --- | " + " | ".join("---:" for _ in COMPOSITION_EPS0) + " |"]
    for r in COMPOSITIONS:
        if not r.advanced or r.key == "kov_closed":  # KOV's closed form includes kε0 itself
            continue
        cells = []
        for e in COMPOSITION_EPS0:
            k = useful_from(r, e, delta)
            cells.append("never" if k is None else str(k))
        lines.append(f"| {r.label} ({r.ref}) | " + " | ".join(cells) + " |")
    return lines


def useful_from(rung: Rung, eps0: object, delta: object, k_max: int = 10**7) -> int | None:
    """The least ``k`` with ``rung(ε0, k, δ) < kε0`` (each advanced bound divided by ``k`` decreases in ``k``),
    or ``None`` if none up to ``k_max``."""
    def better(k: int) -> bool:
        return rung.compute(eps0, k, delta) < composition_basic(eps0, k, delta)

    if not better(k_max):
        return None
    lo, hi = 0, k_max  # better(hi), not better(lo) (k = 0 is not a composition)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if mid >= 1 and better(mid):
            hi = mid
        else:
            lo = mid
    return hi


def ladder_markdown() -> str:
    """The Markdown of ``docs/ladder.md``: the intro, the conversion and composition tables, the anchors, the plots."""
    lines = [_INTRO.rstrip("\n"), ""]
    for delta in CONVERSION_DELTAS:
        lines += [f"### δ = {_fmt_param(delta)}", ""]
        cols = [conversion_values(rho, delta) for rho in CONVERSION_RHOS]
        lines += _table(CONVERSIONS, [f"ρ = {rho}" for rho in CONVERSION_RHOS], cols)
        lines.append("")
    lines += ["![ε(δ) of each conversion at ρ = 0.5](ladder-conversions.png)", "",
              _COMPOSITION_INTRO.replace("{delta}", _fmt_param(COMPOSITION_DELTA)).rstrip("\n"), ""]
    for e in COMPOSITION_EPS0:
        lines += [f"### ε0 = {e}", ""]
        cols = [composition_values(e, k, COMPOSITION_DELTA) for k in COMPOSITION_KS]
        basics = [float(composition_basic(e, k, COMPOSITION_DELTA)) for k in COMPOSITION_KS]
        lines += _table(COMPOSITIONS, [f"k = {k:,}".replace(",", " ") for k in COMPOSITION_KS], cols, basics)
        lines.append("")
    lines += _usefulness_lines(COMPOSITION_DELTA)
    lines += ["", "![ε(k) of each composition bound at ε0 = 0.1](ladder-compositions.png)", ""]
    lines += _anchor_lines()
    return "\n".join(lines) + "\n"


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "cdpsym", "font.size": 9})
    return plt


_STYLE = {
    "exact": {"color": "black", "lw": 2.6, "zorder": 5},
    "kov_exact": {"color": "black", "lw": 0, "marker": "o", "ms": 3, "zorder": 6},
    "cks20": {"color": "tab:green"},
    "bs16_l36": {"color": "tab:orange"},
    "bs16": {"color": "tab:red"},
    "m17": {"color": "tab:purple", "ls": (0, (2, 3)), "lw": 2.2},
    "zcdp_sharp": {"color": "tab:green"},
    "kov_closed": {"color": "tab:cyan"},
    "zcdp": {"color": "tab:red"},
    "dr16": {"color": "tab:orange"},
    "drv10": {"color": "tab:brown"},
    "basic": {"color": "tab:gray", "ls": "--"},
}

#: PNG settings: fixed size and dpi, no "Software" (matplotlib version) chunk, no timestamps
_DPI = 110
_PNG_METADATA = {"Software": None}


def _log_grid(lo_exp: float, hi_exp: float, n: int) -> list[Fraction]:
    """``n`` decimal points ``10^x`` evenly spaced in ``x``, as exact 3-significant-digit decimals."""
    out = []
    for i in range(n):
        x = lo_exp + (hi_exp - lo_exp) * i / (n - 1)
        out.append(Fraction(f"{10 ** x:.2e}"))
    return out


def _plain_ratio_ticks(axis) -> None:
    """Ratios on a log axis, labelled 1, 1.5, 2, 3, ... rather than 10⁰ and 2×10⁰."""
    from matplotlib.ticker import FixedLocator, NullFormatter, StrMethodFormatter

    axis.yaxis.set_major_locator(FixedLocator([1, 1.25, 1.5, 2, 3, 5, 10]))
    axis.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
    axis.yaxis.set_minor_formatter(NullFormatter())


@functools.lru_cache(maxsize=None)
def _conversion_curves() -> tuple[list[float], dict[str, list[float | None]]]:
    deltas = _log_grid(-14, -0.05, 60)
    return [float(d) for d in deltas], {r.key: [_value(r.compute(PLOT_RHO, d)) for d in deltas] for r in CONVERSIONS}


@functools.lru_cache(maxsize=None)
def _composition_curves() -> tuple[list[int], dict[str, list[float | None]], dict[str, int | None]]:
    ks = sorted({int(round(10 ** (4 * i / 48))) for i in range(49)})
    curves = {r.key: [_value(r.compute(PLOT_EPS0, k, COMPOSITION_DELTA)) for k in ks]
              for r in COMPOSITIONS if r.key != "kov_exact"}
    curves["kov_exact"] = [_value(composition_kov_exact(PLOT_EPS0, k, COMPOSITION_DELTA)) for k in COMPOSITION_KS]
    useful = {r.key: useful_from(r, PLOT_EPS0, COMPOSITION_DELTA) for r in COMPOSITIONS
              if r.advanced and r.key != "kov_closed"}
    return ks, curves, useful


def _plot_conversions(plt, path: Path) -> None:
    xs, curves = _conversion_curves()
    fig, (ax, axr) = plt.subplots(2, 1, figsize=(7, 6.4), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    for r in CONVERSIONS:
        style = dict(_STYLE[r.key])
        ax.plot(xs, curves[r.key], label=f"{r.label} ({r.ref})", **style)
        if not r.exact:
            axr.plot(xs, [v / e if e else float("nan") for v, e in zip(curves[r.key], curves["exact"])], **style)
    limit = float(lemma36_limit(PLOT_RHO))
    for a in (ax, axr):
        a.axvline(limit, color="tab:orange", ls=":", lw=1)
    ax.annotate(f"validity limit of R-C5 (it needs ε ≥ ρ):\nfor δ ≥ {limit:.3f} it can only give ε = ρ = {PLOT_RHO}",
                xy=(limit, float(PLOT_RHO)), xytext=(1e-13, 0.9), fontsize=8, color="tab:orange",
                arrowprops={"arrowstyle": "->", "color": "tab:orange", "lw": 0.8})
    tv = float(_gaussian_tv(PLOT_RHO))
    ax.annotate(f"exact ε = 0 for δ ≥ TV = {tv:.3f};\nBS16 / M17 never go below ρ", xy=(tv, 0), xytext=(1e-13, 0.1),
                fontsize=8, arrowprops={"arrowstyle": "->", "lw": 0.8})
    ax.set_xscale("log")
    ax.set_ylabel("ε")
    ax.set_title(f"ρ-zCDP ⇒ (ε, δ)-DP at ρ = {PLOT_RHO}: ε(δ) by each conversion")
    ax.legend(fontsize=8, loc="upper right")
    ax.grid(True, which="major", alpha=0.3)
    axr.set_xscale("log")
    axr.set_yscale("log")
    axr.set_ylabel("ε / exact ε")
    axr.set_xlabel("δ")
    _plain_ratio_ticks(axr)
    axr.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=_DPI, metadata=_PNG_METADATA)
    plt.close(fig)


def _plot_compositions(plt, path: Path) -> None:
    ks, curves, useful = _composition_curves()
    rows = [r for r in COMPOSITIONS if r.key != "kov_exact"]
    kov_ks, kov = list(COMPOSITION_KS), curves["kov_exact"]
    fig, (ax, axr) = plt.subplots(2, 1, figsize=(7, 7), sharex=True, gridspec_kw={"height_ratios": [3, 2]})
    for r in rows:
        style = dict(_STYLE[r.key])
        ax.plot(ks, curves[r.key], label=f"{r.label} ({r.ref})", **style)
        if not r.exact:
            axr.plot(ks, [v / e for v, e in zip(curves[r.key], curves["exact"])], **style)
    ax.plot(kov_ks, kov, label="KOV exact optimum, binomial formula (R-F7)", **_STYLE["kov_exact"])
    for key, k0 in useful.items():
        if k0 is not None:
            for a in (ax, axr):
                a.axvline(k0, color=_STYLE[key]["color"], ls=":", lw=1)
    ax.text(1.2, 130, "dotted, in each bound's colour: the k from which\nit beats basic composition kε0 "
                     "(below it the bound\nis valid but useless; every bound here is valid\nfor every k)", fontsize=8)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylabel("ε")
    ax.set_title(f"k-fold composition of ε0-DP mechanisms, ε0 = {PLOT_EPS0}, δ = {_fmt_param(COMPOSITION_DELTA)}")
    ax.legend(fontsize=7.5, loc="lower right")
    ax.grid(True, which="major", alpha=0.3)
    axr.set_xscale("log")
    axr.set_yscale("log")
    axr.set_ylabel("ε / exact ε")
    axr.set_xlabel("k")
    _plain_ratio_ticks(axr)
    axr.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=_DPI, metadata=_PNG_METADATA)
    plt.close(fig)


def plot(path_dir: object) -> list[Path]:
    """Write ``ladder-conversions.png`` and ``ladder-compositions.png`` into *path_dir*; return their paths."""
    plt = _pyplot()
    out = Path(path_dir)
    out.mkdir(parents=True, exist_ok=True)
    conv, comp = out / "ladder-conversions.png", out / "ladder-compositions.png"
    with plt.rc_context({"font.size": 9}):
        _plot_conversions(plt, conv)
        _plot_compositions(plt, comp)
    return [conv, comp]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m cdpsym.ladder [--out DIR] [--no-plots]``: regenerate ``docs/ladder.md`` and the plots."""
    parser = argparse.ArgumentParser(prog="python -m cdpsym.ladder", description=main.__doc__)
    parser.add_argument("--out", default=str(_DOCS), help="output directory (default: the repository's docs/)")
    parser.add_argument("--no-plots", action="store_true", help="write only ladder.md")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "ladder.md").write_text(ladder_markdown(), encoding="utf-8")
    written = [out / "ladder.md"]
    if not args.no_plots:
        written += plot(out)
    for p in written:
        print(p)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
