"""Does a concrete mechanism satisfy a concrete notion?  Certified answers from the exact privacy curves.

:func:`satisfies` answers ``True`` (certainly), ``False`` (certainly not, with the evidence: both sides
of the violated inequality as Arb balls) or ``None``, for a mechanism whose parameters are numbers:

* (ε, δ)-DP and ε-DP: the exact profile δ_M(ε) from the certified accountant (:mod:`cdpsym.accounting`);
* ρ-zCDP: the exact ρ of Gaussians (and their compositions); for other mechanisms a violation
  D_α/α > ρ at some order α, and satisfaction through ε_M²/2 ≤ ρ (BS16 Prop 1.4, ``zcdp_of_pure_dp``);
* (α, ε)-RDP: the exact Rényi divergence D_α(M);
* (μ, τ)-CDP: the exact mean and variance of the Gaussian privacy loss; KL > μ refutes for any mechanism;
* (ρ, ω)-tCDP: the exact ρ of Gaussians; a violation D_α > ρα at some α in (1, ω) otherwise.

:func:`witnesses` gives, for a notion (or composition, or group) at concrete parameters, mechanisms that
satisfy it — each re-checked with :func:`satisfies` — from which a counterexample to an implication is
built: the randomized response for ε-DP (the exact worst case of pure-DP composition, KOV15), the Gaussian
mechanism with exactly the zCDP/CDP/RDP/tCDP parameter, and their compositions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from cdpsym.claims.language import Group
from cdpsym.claims.grammar import NotionComposition
from cdpsym.errors import CdpsymError
from cdpsym.mechanisms import Composition, Gaussian, Laplace, RandomizedResponse, compose
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, Notion, PureDP

__all__ = ["Evidence", "satisfies", "witnesses", "concrete", "ORDERS", "FourOutcomeProduct", "four_outcome_product"]

#: orders α at which Rényi divergences are compared when the supremum is not known in closed form
ORDERS = tuple(sp.Rational(x) for x in ("1.001", "1.01", "1.1", "1.25", "1.5", "2", "3", "5", "8", "16", "32", "64",
                                        "128", "1024"))


@dataclass
class Evidence:
    """What was compared: ``quantity`` of the mechanism (a ball) against the notion's ``bound``."""

    quantity: str
    actual: Any = None  # flint.arb
    bound: Any = None
    detail: str = ""
    command: str = ""
    extra: dict = field(default_factory=dict)


def _arb(e: sp.Expr, prec: int = 256):
    from cdpsym.claims.search import ball

    return ball(sp.sympify(e), {}, prec)


def concrete(obj: Any) -> bool:
    from cdpsym.claims.language import _expressions

    return all(not sp.sympify(e).free_symbols for e in _expressions(obj))


def _gaussian_parts(m: Any) -> list[tuple[Gaussian, int]] | None:
    if isinstance(m, Gaussian):
        return [(m, 1)]
    if isinstance(m, Composition) and all(isinstance(b, Gaussian) for b, _ in m.groups):
        return [(b, int(c)) for b, c in m.groups]
    return None


def _rho_exact(m: Any) -> sp.Expr | None:
    parts = _gaussian_parts(m)
    if parts is None:
        return None
    return sp.Add(*(c * b.sensitivity ** 2 / (2 * b.sigma ** 2) for b, c in parts))


def _max_loss(m: Any) -> sp.Expr | None:
    """ε_M, the largest privacy loss (pure DP), when finite and known."""
    if isinstance(m, RandomizedResponse):
        return m.eps
    if isinstance(m, Laplace):
        return m.sensitivity / m.scale
    if isinstance(m, Composition):
        parts = [_max_loss(b) for b, _ in m.groups]
        if any(p is None for p in parts):
            return None
        return sp.Add(*(c * p for (_, c), p in zip(m.groups, parts)))
    return None


def _zcdp_bound(m: Any) -> sp.Expr | None:
    """An upper bound on the zCDP parameter of a composition of mechanisms: the sum over its parts."""
    if not isinstance(m, Composition):
        return None
    total = sp.S.Zero
    for base, count in m.groups:
        rho = _rho_exact(base)
        if rho is None:
            eps = _max_loss(base)
            if eps is None:
                return None
            rho = eps ** 2 / 2
        total += sp.sympify(count) * rho
    return total


def _renyi(m: Any, a: sp.Expr) -> sp.Expr | None:
    try:
        return m.renyi_divergence(a)
    except (CdpsymError, ValueError, TypeError, AttributeError, NotImplementedError):
        return None


def _compare(actual: sp.Expr, bound: sp.Expr, quantity: str, prec: int = 256) -> tuple[bool | None, Evidence]:
    """``actual <= bound``: True / False when certain, else None (exact equality decided by sympy)."""
    actual, bound = sp.sympify(actual), sp.sympify(bound)
    ev = Evidence(quantity, detail="not evaluable in ball arithmetic")
    for p in (prec, 1024):
        try:
            a, b = _arb(actual, p), _arb(bound, p)
        except Exception:  # noqa: BLE001 - an expression Arb cannot evaluate decides nothing
            return None, ev
        ev = Evidence(quantity, a, b)
        if a <= b:
            return True, ev
        if a > b:
            return False, ev
    if a.overlaps(b) and sp.count_ops(actual) + sp.count_ops(bound) < 40 \
            and not (actual - bound).has(sp.exp, sp.log, sp.tanh, sp.erfc, sp.erf) \
            and sp.simplify(actual - bound) == 0:  # equal algebraic numbers: balls never separate them
        return True, Evidence(quantity, a, a, "equal (exactly)")
    return None, ev


def _profile(m: Any, eps: sp.Expr, delta: sp.Expr) -> tuple[bool | None, Evidence]:
    """δ_M(ε) <= δ, from the certified accountant."""
    from cdpsym import accounting
    from cdpsym.accounting import CertifiedBounds

    eps = sp.sympify(eps)
    # delta(eps) is non-increasing: a rational eps_hi >= eps gives a lower bound, eps_lo <= eps an upper one
    if isinstance(eps, sp.Rational):
        at = [(eps, eps)]
    else:
        e = _arb(eps, 256)
        if not e.is_finite() or not abs(e) < 10 ** 12:  # beyond any profile the accountant computes
            return None, Evidence("delta", detail="eps not evaluable or astronomically large")
        lo_q, hi_q = _rational_below(e), _rational_above(e)
        at = [(lo_q, hi_q)]
    try:
        (e_lo, e_hi), = at
        res_hi = accounting.delta(m, eps=e_lo, digits=15)  # δ(e_lo) >= δ(eps): an upper bound on δ(eps)
        res_lo = res_hi if e_hi == e_lo else accounting.delta(m, eps=e_hi, digits=15)
    except (CdpsymError, ValueError, ArithmeticError) as exc:
        return None, Evidence("delta", detail=f"accountant: {exc}")
    hi = res_hi.upper.ball if isinstance(res_hi, CertifiedBounds) else res_hi.ball
    lo = res_lo.lower.ball if isinstance(res_lo, CertifiedBounds) else res_lo.ball
    res = res_hi
    for prec in (256, 2048):
        d = _arb(delta, prec)
        if hi <= d:
            return True, Evidence("delta", hi, d, method_of(res))
        if lo > d:  # at an irrational eps, lo is delta at the rational e_hi >= eps (a lower bound on delta(eps))
            return False, Evidence("delta", lo, d, method_of(res),
                                   extra={"eps_used": e_hi} if e_hi != eps else {})
    return None, Evidence("delta", lo, d, "the certified delta does not separate from the bound")


def _rational_below(x) -> sp.Rational:
    from cdpsym.accounting.certified import arb_to_fraction

    low = x.lower()
    f = arb_to_fraction(low)
    return sp.Rational(f.numerator, f.denominator) - sp.Rational(1, 10 ** 60) * max(1, abs(f))


def _rational_above(x) -> sp.Rational:
    from cdpsym.accounting.certified import arb_to_fraction

    f = arb_to_fraction(x.upper())
    return sp.Rational(f.numerator, f.denominator) + sp.Rational(1, 10 ** 60) * max(1, abs(f))


def method_of(res: Any) -> str:
    return getattr(res, "method", "") or getattr(getattr(res, "upper", None), "method", "")


def satisfies(m: Any, notion: Notion) -> tuple[bool | None, Evidence]:
    """Does the concrete mechanism *m* satisfy the concrete *notion*?  (True/False certain, None unknown)"""
    if isinstance(m, FourOutcomeProduct):
        if isinstance(notion, (PureDP, ApproxDP)):
            return _profile(m.accountant(), notion.eps, notion.delta if isinstance(notion, ApproxDP) else 0)
        return None, Evidence("delta", detail="the four-outcome witness is compared with DP notions only")
    if isinstance(notion, PureDP):
        return _profile(m, notion.eps, sp.S.Zero)
    if isinstance(notion, ApproxDP):
        return _profile(m, notion.eps, notion.delta)
    if isinstance(notion, ZCDP):
        rho = _rho_exact(m)
        if rho is not None:
            return _compare(rho, notion.rho, "rho")
        eps_m = _max_loss(m)
        if eps_m is not None:
            ok, ev = _compare(eps_m ** 2 / 2, notion.rho, "eps_M^2/2 (BS16 Prop 1.4)")
            if ok:
                return True, ev
        bound = _zcdp_bound(m)
        if bound is not None:  # Renyi divergences add over the parts of a (non-adaptive) composition (R-D4)
            ok, ev = _compare(bound, notion.rho, "sum over the parts of their rho (exact for Gaussians, "
                                                  "eps^2/2 for pure-DP parts, BS16 Prop 1.4; R-D4)")
            if ok:
                return True, ev
        for a in ORDERS:
            d = _renyi(m, a)
            if d is None:
                break
            ok, ev = _compare(d / a, notion.rho, f"Renyi divergence over the order at alpha = {a}")
            if ok is False:
                return False, ev
        return None, Evidence("rho", detail="sup over orders not certified")
    if isinstance(notion, RDP):
        d = _renyi(m, notion.alpha)
        if d is None:
            return None, Evidence("renyi", detail="no closed-form Rényi divergence")
        return _compare(d, notion.eps, f"D_{notion.alpha}")
    if isinstance(notion, MeanConcentratedDP):
        rho = _rho_exact(m)
        if rho is not None:
            ok1, ev1 = _compare(rho, notion.mu, "mean of the privacy loss")
            ok2, ev2 = _compare(sp.sqrt(2 * rho), notion.tau, "standard deviation of the privacy loss")
            if ok1 is False:
                return False, ev1
            if ok2 is False:
                return False, ev2
            return (True if ok1 and ok2 else None), ev1
        try:
            kl = m.kl()
        except (CdpsymError, ValueError, TypeError, AttributeError):
            return None, Evidence("kl")
        ok, ev = _compare(kl, notion.mu, "mean of the privacy loss (KL)")
        if ok is False:
            return False, ev
        if isinstance(m, RandomizedResponse):  # loss +-eps: its centred MGF in closed form
            e = m.eps
            p = sp.exp(e) / (1 + sp.exp(e))
            mean = e * sp.tanh(e / 2)
            for lam in (sp.Rational(x) for x in ("0.01", "0.1", "0.5", "1", "2", "5", "20", "-0.5", "-2", "-20")):
                mgf = p * sp.exp(lam * (e - mean)) + (1 - p) * sp.exp(lam * (-e - mean))
                bad, ev2 = _compare(mgf, sp.exp(lam ** 2 * notion.tau ** 2 / 2),
                                    f"moment generating function of the centred loss at lambda = {lam}")
                if bad is False:
                    return False, ev2
        return None, ev
    if isinstance(notion, TCDP):
        rho = _rho_exact(m)
        if rho is not None:
            return _compare(rho, notion.rho, "rho")
        for a in ORDERS:
            if not (a < notion.omega):
                continue
            d = _renyi(m, a)
            if d is None:
                break
            ok, ev = _compare(d, notion.rho * a, f"D_{a}")
            if ok is False:
                return False, ev
        return None, Evidence("renyi", detail="sup over orders not certified")
    return None, Evidence("?", detail=f"no exact check for {type(notion).__name__}")


def _calibrated_gaussian(eps: sp.Expr, delta: sp.Expr) -> Gaussian | None:
    """The Gaussian mechanism (sensitivity 1) with the smallest sigma, rounded up, that is (eps, delta)-DP: an
    (eps, delta)-DP mechanism that is not eps'-DP for any eps' (it is re-checked by :func:`satisfies`)."""
    from cdpsym.accounting import calibrate_sigma

    if not (isinstance(eps, sp.Rational) and isinstance(delta, sp.Rational)) or not 0 < delta < 1:
        return None
    try:
        sigma = calibrate_sigma(eps=eps, delta=delta, digits=12)
        return Gaussian(sensitivity=1, sigma=sp.Rational(sigma.rounded))
    except (CdpsymError, ValueError, ArithmeticError):
        return None


def _rr_with_renyi(alpha: sp.Expr, eps: sp.Expr) -> RandomizedResponse | None:
    """Randomized response whose D_alpha is just below *eps* (its other orders differ from a Gaussian's:
    a witness for claims that read one order as all of them)."""
    import mpmath

    from cdpsym.claims.search import approx

    x = sp.Dummy("x", positive=True)
    try:
        d = RandomizedResponse(eps=x).renyi_divergence(alpha)
        target = approx(eps, 30)
        lo, hi = mpmath.mpf(0), mpmath.mpf(1)
        while approx(d, 30, {x: hi}) < target:
            hi *= 2
            if hi > 10 ** 6:
                return None
        for _ in range(80):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if approx(d, 30, {x: mid}) < target else (lo, mid)
        value = sp.Rational(str(mpmath.nstr(lo * (1 - mpmath.mpf(10) ** -12), 20)))
        return RandomizedResponse(eps=value) if value > 0 else None
    except Exception:  # noqa: BLE001 - no witness of this kind
        return None


def _gaussian_with_rho(rho: sp.Expr) -> Gaussian:
    return Gaussian(sensitivity=sp.sqrt(2 * rho), sigma=1)


def _notion_witnesses(n: Notion) -> list[Any]:
    if isinstance(n, PureDP):
        return [RandomizedResponse(eps=n.eps), Laplace(sensitivity=1, scale=1 / n.eps)]
    if isinstance(n, ApproxDP):
        out: list[Any] = [RandomizedResponse(eps=n.eps)] if n.eps > 0 else []
        gaussian = _calibrated_gaussian(n.eps, n.delta)
        return out + ([gaussian] if gaussian is not None else [])
    if isinstance(n, ZCDP):
        return [_gaussian_with_rho(n.rho), RandomizedResponse(eps=sp.sqrt(2 * n.rho))]
    if isinstance(n, MeanConcentratedDP):
        shift = sp.Min(n.tau, sp.sqrt(2 * n.mu))
        return [Gaussian(sensitivity=shift, sigma=1)] if shift.is_positive else []
    if isinstance(n, RDP):
        out = [Gaussian(sensitivity=sp.sqrt(2 * n.eps / n.alpha), sigma=1)]
        rr = _rr_with_renyi(n.alpha, n.eps)
        return out + ([rr] if rr is not None else [])
    if isinstance(n, TCDP):
        return [_gaussian_with_rho(n.rho)]
    return []


def _grouped(m: Any, g: sp.Expr) -> Any:
    """The mechanism seen on datasets at distance g (a counting-type query: the shift scales by g)."""
    if isinstance(m, Gaussian):
        return Gaussian(sensitivity=g * m.sensitivity, sigma=m.sigma)
    if isinstance(m, Laplace):
        return Laplace(sensitivity=g * m.sensitivity, scale=m.scale)
    return None


@dataclass(frozen=True)
class FourOutcomeProduct:
    """The product of Kairouz–Oh–Viswanath's four-outcome randomized responses, one per (ε_i, δ_i)-DP step of a
    concrete notion subject (``DP(eps, delta)`` or a composition of DP notions with some δ_i > 0).

    Step i outputs "the input is x" with probability δ_i on x (never on x'), "the input is x'" with probability
    δ_i on x' (never on x), and otherwise randomized response with parameter ε_i.  Its hockey-stick divergence at
    ε_i is δ_i + (1 − δ_i)·max(0, (e^{ε_i} − e^{ε_i})/(1 + e^{ε_i})) = δ_i in either direction, so step i is
    (ε_i, δ_i)-DP.  The product's divergence at ε' is exactly ``1 − Π(1 − δ_i)(1 − δ_RR(ε'))``, δ_RR the
    profile of the product of the randomized responses: outcomes with a revealing "x" coordinate have no mass
    under x', those with a revealing "x'" (and no "x") none under x, and the rest is the randomized-response
    product scaled by Π(1 − δ_i).  That is the accountant's optimal-composition formula, so
    ``cdpsym delta`` of the subject re-computes it (KOV15 show it is also the optimum over all compositions;
    the counterexample does not need that).
    """

    subject: Any  # PureDP / ApproxDP / NotionComposition of them, concrete
    steps: tuple  # ((eps_i, delta_i, count_i), ...) as sympy numbers

    def __repr__(self) -> str:
        from cdpsym.claims.checker import plain

        if len(self.steps) == 1 and self.steps[0][2] == 1:
            return f"the four-outcome randomized response of {plain(self.subject)}"
        return f"the product of four-outcome randomized responses for {plain(self.subject)}"

    def accountant(self) -> Any:
        from cdpsym.accounting.pure_dp import DPComposition

        return DPComposition.from_subject(self.subject)


def _dp_steps(subject: Any, times: sp.Expr = sp.S.One) -> list[tuple[sp.Expr, sp.Expr, sp.Expr]] | None:
    """``[(ε_i, δ_i, count_i)]`` of a concrete subject made of DP notions, else None."""
    if isinstance(subject, ApproxDP):
        return [(sp.sympify(subject.eps), sp.sympify(subject.delta), times)]
    if isinstance(subject, PureDP):
        return [(sp.sympify(subject.eps), sp.S.Zero, times)]
    if isinstance(subject, NotionComposition):
        out: list = []
        for part in subject.parts:
            inner = _dp_steps(part, times * sp.sympify(subject.k))
            if inner is None:
                return None
            out += inner
        return out
    return None


def four_outcome_product(subject: Any) -> FourOutcomeProduct | None:
    """The four-outcome witness for a concrete DP subject with some δ_i > 0 (each step checked (ε_i, δ_i)-DP
    exactly: the randomized-response part of its divergence at its own ε_i is 0), else None."""
    steps = _dp_steps(subject)
    if steps is None or not concrete(subject):
        return None
    for e, d, c in steps:
        if not (e.is_number and d.is_number and c.is_Integer and c >= 1 and e.is_nonnegative and d.is_nonnegative
                and (d - 1).is_nonpositive):
            return None
        rr_at_own_eps = RandomizedResponse(eps=e).privacy_profile(e)
        if rr_at_own_eps != 0:  # Max(0, 0): exactly zero, or this is not the pair it says
            return None
    if not any(d.is_positive for _, d, _ in steps):
        return None  # pure steps: randomized response (the composition witness) is this pair already
    return FourOutcomeProduct(subject, tuple(steps))


def witnesses(subject: Any) -> list[tuple[Any, str]]:
    """Concrete mechanisms satisfying the concrete *subject*, each with a note of why."""
    if isinstance(subject, (Gaussian, Laplace, RandomizedResponse, Composition)):
        return [(subject, "the mechanism itself")]
    four = four_outcome_product(subject) if isinstance(subject, (Notion, NotionComposition)) else None
    extra = [(four, "each step is (eps_i, delta_i)-DP, exactly")] if four is not None else []
    if isinstance(subject, Notion):
        out = list(extra)
        for w in _notion_witnesses(subject):
            ok, _ = satisfies(w, subject)
            if ok:
                out.append((w, "satisfies the hypothesis (certified)"))
        return out
    if isinstance(subject, NotionComposition):
        per_part = [[(w, why) for w, why in witnesses(p) if not isinstance(w, FourOutcomeProduct)]  # mechanisms
                    for p in subject.parts]
        if not all(per_part):
            return extra
        out = list(extra)
        for n in range(max(len(p) for p in per_part)):
            parts = [p[min(n, len(p) - 1)][0] for p in per_part]
            if any(isinstance(w, Laplace) for w in parts) and not (subject.k.is_number and subject.k <= 50):
                continue  # k-fold Laplace bounds cost seconds for large k; randomized response is the worst case

            try:
                out.append((compose(*parts, k=subject.k), "a k-fold composition of mechanisms each satisfying its part"))
            except CdpsymError:
                continue
        return out
    if isinstance(subject, Group):
        inner = witnesses(subject.subject)
        out = []
        for w, why in inner:
            gw = _grouped(w, subject.size)
            if gw is not None:
                out.append((gw, f"the group-of-{subject.size} view of a mechanism that {why.replace('satisfies', 'satisfies')}"))
        return out
    return []
