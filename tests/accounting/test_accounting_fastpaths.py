"""The float-first fast paths: estimates come from floats, and only Arb proofs certify.

Each fast path is checked to be taken where it should, to fall back (return
``None``) where floats do not suffice, and to give the same certified answer
as the general path.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import mpmath as mp
import pytest
from flint import arb, ctx, fmpq
from hypothesis import given, settings
from hypothesis import strategies as st

from cdpsym.accounting import calibrate_sigma
from cdpsym.accounting import gaussian as g
from cdpsym.accounting.certified import (RANGES, _ceil_log10, _decimal_string, _exponent10, _round_sig,
                                         ball_endpoints, round_ball)
from cdpsym.accounting.conversions import _cks20_alpha_golden, cks20_alpha


def _round_ball_fractions(ball: arb, digits: int, direction: str,
                           clip: tuple[Fraction | None, Fraction | None] = (None, None)) -> tuple[Fraction, str, int]:
    """The former Fraction-based ``round_ball``, kept here as the oracle for the integer version.

    ``(rounded value, its decimal string, certified digits)`` for *ball* rounded in *direction*.

    ``up`` rounds the upper endpoint up to *digits* significant digits (so the
    result is ``>=`` every point of the ball); ``down`` rounds the lower
    endpoint down.  The certified digits are the largest ``d <= digits`` such
    that the ball's far endpoint is within one unit of the ``d``-th significant
    digit of the rounded value (``0`` when even the first digit is not certain).
    *clip* is a range known to contain the exact value (``δ ∈ [0, 1]``): the
    ball is intersected with it first, so ``δ = 1 - 10^-1000`` rounds up to ``1``.

    >>> round_ball(arb(2) / 3, 4, "up")[1:], round_ball(arb(2) / 3, 4, "down")[1:]
    (('0.6667', 4), ('0.6666', 4))
    >>> round_ball(arb("1e-300"), 3, "up")[1]
    '1.01e-300'
    >>> round_ball(arb(2), 3, "up")[1]
    '2.00'
    """
    if direction not in ("up", "down"):
        raise ValueError(f"direction must be 'up' or 'down', got {direction!r}")
    if not ball.is_finite() or ball.is_nan():
        return Fraction(0), "nan", 0
    lower, upper = ball_endpoints(ball)
    if clip[0] is not None:
        lower, upper = max(lower, clip[0]), max(upper, clip[0])
    if clip[1] is not None:
        lower, upper = min(lower, clip[1]), min(upper, clip[1])
    up = direction == "up"
    value = _round_sig(upper if up else lower, digits, up)
    error = (value - lower) if up else (upper - value)
    if value == 0:
        certified = digits if error == 0 else 0
    elif error == 0:
        certified = digits
    else:
        e = _exponent10(abs(value))
        # largest d with error <= 10**(e - d + 1)
        certified = e + 1 - _ceil_log10(error)
        certified = max(0, min(digits, certified))
    return value, _decimal_string(value, digits), certified


def _q(x: str) -> fmpq:
    f = Fraction(x)
    return fmpq(f.numerator, f.denominator)


def test_round_ball_matches_the_fraction_reference() -> None:
    rng = random.Random(7)
    balls = [arb(0), arb(2) / 3, arb("1e-300"), arb(2), arb(10) ** 30, arb(1) - arb(2) ** -3000, arb(0, 1e-20),
             arb(1, 1e-3), arb(-1, 0.5), arb(0.5, 0.5), arb(99999.5), arb(10) ** 400, -arb(10) ** -400]
    for _ in range(400):
        m = rng.uniform(-1, 1) * 10.0 ** rng.randint(-300, 300)
        with ctx.workprec(rng.choice([30, 64, 200])):
            b = arb(m) * rng.randint(1, 10 ** 6) / rng.randint(1, 10 ** 6)
        if rng.random() < 0.5:
            b = arb(b.mid(), arb(abs(m) * 10 ** rng.uniform(-30, 1)).upper())
        balls.append(b)
    for b in balls:
        for clip in ((None, None), RANGES["delta"], RANGES["epsilon"], (Fraction(1, 3), Fraction(7, 2))):
            for digits in (1, 4, 10, 25):
                for direction in ("up", "down"):
                    assert round_ball(b, digits, direction, clip) == _round_ball_fractions(b, digits, direction, clip)


@pytest.mark.parametrize("t", [3.0, 0.0, -1.0, -10.0, -36.9, -37.1, -50.0, -400.0])
def test_log_phi_float(t: float) -> None:
    with mp.workdps(40):
        exact = mp.log(mp.ncdf(t))
    assert abs(g._log_phi_f(t) - float(exact)) <= 1e-13 * max(1.0, abs(float(exact)))


def _exact_epsilon(mu2: fmpq, delta: fmpq) -> mp.mpf:
    with mp.workdps(50):
        mu = mp.sqrt(mp.mpf(int(mu2.p)) / int(mu2.q))
        d = mp.mpf(int(delta.p)) / int(delta.q)

        def prof(e):  # type: ignore[no-untyped-def]
            return mp.ncdf(mu / 2 - e / mu) - mp.exp(e) * mp.ncdf(-mu / 2 - e / mu) - d

        lo, hi = mp.mpf(0), mp.mpf(10) ** 6  # prof decreases: bisection
        for _ in range(200):
            mid = (lo + hi) / 2
            if prof(mid) > 0:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2


@pytest.mark.parametrize("mu2, delta", [("1/10", "1e-10"), ("10", "1e-300"), ("4000", "1e-8"), ("1/400", "1e-5"),
                                            ("1/1000000", "1e-10")])
def test_gaussian_epsilon_fast_path_is_taken_and_agrees(mu2: str, delta: str) -> None:
    m, d = _q(mu2), _q(delta)
    fast = g._gaussian_epsilon_fast(m, d, 10, {}, g.METHOD, True)
    assert fast is not None
    exact = _exact_epsilon(m, d)
    with mp.workdps(50):
        lo = mp.mpf(fast.ball.lower().str(40, radius=False))
        hi = mp.mpf(fast.ball.upper().str(40, radius=False))
        assert lo * (1 - mp.mpf(10) ** -35) <= exact <= hi * (1 + mp.mpf(10) ** -35)
        assert exact <= mp.mpf(fast.rounded)
    slow = g.gaussian_epsilon(m, d, 12)  # digits > 11: the general path (Arb Newton, no float estimate)
    assert Fraction(slow.rounded) <= Fraction(fast.rounded)
    assert Fraction(fast.rounded) - Fraction(slow.rounded) <= Fraction(fast.rounded) * Fraction(1, 10 ** 9)


def test_gaussian_epsilon_fast_path_declines() -> None:
    # delta(0) <= delta: eps = 0 is left to the general path
    assert g._gaussian_epsilon_fast(_q("1/10000"), _q("1/2"), 10, {}, g.METHOD, True) is None
    # mu = 1e-9: M(x) - M(x + mu) cancels in floats; the estimate takes the midpoint rule instead, and both
    # the fast path and the general path (digits > 11) answer
    m, d = _q("1/1000000000000000000"), _q("1e-10")
    exact = _exact_epsilon(m, d)
    for got in (g._gaussian_epsilon_fast(m, d, 10, {}, g.METHOD, True), g.gaussian_epsilon(m, d),
                g.gaussian_epsilon(m, d, 12)):
        assert got is not None
        with mp.workdps(50):
            assert exact <= mp.mpf(got.rounded) <= exact * (1 + mp.mpf(10) ** (1 - got.digits))


def test_mu_bracket_fast_path() -> None:
    seen = []

    def accept(lo: arb, hi: arb):  # type: ignore[no-untyped-def]
        seen.append((lo, hi))
        return (lo, hi)

    assert g._mu_bracket_fast(_q("1"), _q("1e-6"), accept, 10) is not None
    lo, hi = seen[0]
    with ctx.workprec(200):
        assert g.delta_ball(lo, arb(1)) < arb("1e-6") < g.delta_ball(hi, arb(1))
    assert g._mu_bracket_fast(_q("0"), _q("1e-6"), accept, 10) is None  # eps = 0: general path
    assert calibrate_sigma(1, "1e-6", 1).rounded == "4.224678890"


@pytest.mark.parametrize("rho, L", [(0.5, 13.8), (0.001, 23.0), (5.0, 690.0), (1e-6, 11.5), (100.0, 0.01)])
def test_cks20_alpha_newton_is_at_least_as_good(rho: float, L: float) -> None:
    def eps(alpha: Fraction) -> mp.mpf:
        with mp.workdps(60):
            a = mp.mpf(alpha.numerator) / alpha.denominator
            return a * rho + (L + (a - 1) * mp.log(1 - 1 / a) - mp.log(a)) / (a - 1)

    new, old = cks20_alpha(rho, L), _cks20_alpha_golden(rho, L)
    assert new > 1
    assert eps(new) <= eps(old) * (1 + mp.mpf(10) ** -12) + mp.mpf(10) ** -30
    assert math.isfinite(float(new))


def test_newton_enclosure_proves_only_around_the_root() -> None:
    """The interval-Newton step encloses the root from a good estimate and refuses a box that misses it."""
    mu2, d = _q("250"), _q("1e-10")
    exact = _exact_epsilon(mu2, d)
    with ctx.workprec(128):
        mu, target = arb(mu2).sqrt(), arb(d)

    def f(e: arb, box: arb) -> tuple[arb, arb]:  # written independently of the library's own closure
        slope = -(box.exp() * ((box / mu + mu / 2) / arb(2).sqrt()).erfc() / 2)
        return g.delta_ball(mu, e) - target, slope

    ball = g._newton_enclosure(f, float(exact), 128)
    assert ball is not None
    with mp.workdps(50), ctx.workprec(200):  # lower()/upper() round to the current precision
        lo = mp.mpf(ball.lower().str(45, radius=False))
        hi = mp.mpf(ball.upper().str(45, radius=False))
        assert lo * (1 - mp.mpf(10) ** -40) <= exact <= hi * (1 + mp.mpf(10) ** -40)
        assert hi - lo < exact * mp.mpf(10) ** -20
    # the box x(1 -+ 2^-30) around a point 1e-6 off does not contain the root: the step must refuse
    assert g._newton_enclosure(f, float(exact) * (1 + 1e-6), 128) is None
    assert g._newton_enclosure(f, float(exact) * (1 - 1e-6), 128) is None
    # too little precision to separate f(m) from zero usefully still never yields a wrong ball
    coarse = g._newton_enclosure(f, float(exact), 20)
    if coarse is not None:
        with mp.workdps(50):
            assert mp.mpf(coarse.lower().str(45, radius=False)) <= exact <= mp.mpf(coarse.upper().str(45, radius=False))


# -- the pure-DP fast path: float-steered segment search, Arb-proved closed form --------------------------------

def _pure_fast(eps0: object, k: int, target: str):  # type: ignore[no-untyped-def]
    from cdpsym.accounting import pure_dp
    from cdpsym.accounting.certified import bits_for_digits, exact_input

    e0, d = exact_input(eps0, "eps0"), exact_input(target, "delta")
    start = bits_for_digits(10) + 8 + k.bit_length()
    return pure_dp._homogeneous_epsilon_fast(k, e0, d, start, pure_dp._trunc_bits(start - 12, k))


@pytest.mark.parametrize("eps0, k, target", [
    ("1/10", 1000, "1e-5"), ("1/100", 1000, "1e-10"), ("1/100", 100, "1e-8"), ("1/2", 10000, "1e-10"),
    ("1", 10, "1e-5"), ("1/100", 10000, "1e-5"), ("1/1000", 1000000, "1e-12"), ("2", 1000, "1e-20"),
    ("2", 300, "1e-30"),  # the root is within 1e-13 of k eps0 = 600, the last segment
])
def test_pure_dp_fast_path_is_taken_and_encloses_the_truth(eps0: str, k: int, target: str) -> None:
    from cdpsym.mechanisms import RandomizedResponse, compose

    ball = _pure_fast(eps0, k, target)
    assert ball is not None
    truth = compose(RandomizedResponse(Fraction(eps0)), k=k).epsilon(Fraction(target), dps=40)
    with mp.workdps(40), ctx.workprec(200):
        lo = mp.mpf(ball.lower().str(35, radius=False))
        hi = mp.mpf(ball.upper().str(35, radius=False))
        assert lo * (1 - mp.mpf(10) ** -30) <= truth <= hi * (1 + mp.mpf(10) ** -30)
        assert hi - lo <= truth * mp.mpf(10) ** -10  # narrow enough for the default 10 digits


def test_pure_dp_fast_path_declines_and_the_general_path_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    from cdpsym.accounting import epsilon, pure_dp
    from cdpsym.mechanisms import RandomizedResponse, compose

    # the root in the segment that contains eps = 0, (-eps0, eps0] for odd k (delta(0) = 0.125726...)
    assert _pure_fast("1/100", 1001, "0.1250") is None
    # floats that are not IEEE binary64 rounded to nearest: the error bound does not apply, so no fast path
    monkeypatch.setattr(pure_dp, "_IEEE_BINARY64", False)
    assert _pure_fast("1/10", 1000, "1e-5") is None
    got = epsilon(compose(RandomizedResponse(Fraction(1, 10)), k=1000), delta="1e-5")
    truth = compose(RandomizedResponse(Fraction(1, 10)), k=1000).epsilon(Fraction("1e-5"), dps=40)
    with mp.workdps(40):
        assert truth <= mp.mpf(got.rounded) <= truth * (1 + mp.mpf(10) ** -9)
    assert "segment proved" in got.method


# -- property checks: each fast path against the independent general path ---------------------------------------


@settings(max_examples=40, deadline=None, derandomize=True)
@given(k=st.integers(2, 20000), eps0=st.fractions(Fraction(1, 1000), Fraction(3), max_denominator=1000),
       log10_delta=st.floats(-60, -1))
def test_pure_dp_fast_path_agrees_with_the_arb_walk(k: int, eps0: Fraction, log10_delta: float) -> None:
    """Where the float-steered path answers, its ball meets the Arb walk's (a different algorithm) and they round alike."""
    from cdpsym.accounting import pure_dp
    from cdpsym.accounting.certified import certified_from_ball, certify

    e0 = fmpq(eps0.numerator, eps0.denominator)
    d = fmpq(*(10.0 ** log10_delta).as_integer_ratio())
    start = pure_dp.bits_for_digits(10) + 8 + k.bit_length()
    ball = pure_dp._homogeneous_epsilon_fast(k, e0, d, start, pure_dp._trunc_bits(start - 12, k))
    walk = certify("epsilon", lambda prec: pure_dp._homogeneous_epsilon_ball(k, e0, d, pure_dp._trunc_bits(prec - 12, k)),
                   digits=10, method="walk", query={})
    if ball is None:
        return
    assert ball.overlaps(walk.ball)
    fast = certified_from_ball("epsilon", ball, 10, "fast", {})
    if fast is not None:  # both round up a ball around the same number: equal, or one unit apart at a boundary
        assert abs(Fraction(fast.rounded) - Fraction(walk.rounded)) <= Fraction(walk.rounded) / 10 ** 9


@settings(max_examples=60, deadline=None, derandomize=True)
@given(log10_mu=st.floats(-2.5, 3), log10_delta=st.floats(-300, -1))
def test_gaussian_fast_path_agrees_with_the_sign_proofs(log10_mu: float, log10_delta: float) -> None:
    """Where interval Newton answers, its ball meets the bracket the general path proves by two sign checks."""
    mu2 = fmpq(*((10.0 ** log10_mu) ** 2).as_integer_ratio())
    d = fmpq(*(10.0 ** log10_delta).as_integer_ratio())
    fast = g._gaussian_epsilon_fast(mu2, d, 10, {}, g.METHOD, True)
    if fast is None:
        return
    slow = g.gaussian_epsilon(mu2, d, 12)  # digits > 11: the general path
    assert fast.ball.overlaps(slow.ball)
    assert Fraction(slow.rounded) <= Fraction(fast.rounded) <= Fraction(slow.rounded) * (1 + Fraction(1, 10 ** 9))
