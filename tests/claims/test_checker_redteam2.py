"""Second red-team pass against ``cdpsym check``: unsound verdicts and crashes, kept as expected failures.

Each test states what the verdict *must* be for the mathematics to be right.  All were found by a second
hostile review and failed then (as ``xfail``); each is fixed and now a plain regression test.

Independent evidence (mpmath, 50-60 digits) is quoted next to each finding.
"""

from __future__ import annotations

import pytest

from cdpsym.claims import check

HOLDS = ("proved", "certified")


# -- 1. an (eps, delta)-DP target whose delta is NEGATIVE is "proved" from a pure-DP guarantee -----------------
#
# No mechanism is (eps, delta)-DP with delta < 0: take S = the empty set, 0 <= e^eps * 0 + delta fails.  The
# subjects below are satisfiable (randomized response is eps-DP), so each claim is false at every point where the
# target's delta is negative.  A concrete negative delta is refused by the parser ("DP(...): delta must be in
# [0, 1]"), but a symbolic one is never checked: semantics.obligations(PureDP -> ApproxDP) only asks
# eps <= eps' and says nothing about delta, so the claim is PROVED (exit 0).
#
# Fix: obligations() for an ApproxDP target must add 0 <= target.delta (and the parser/obligations should check
# every notion parameter against the notion's own domain: delta in [0, 1], alpha >= 1, omega > 1, rho >= 0, ...).

NEGATIVE_DELTA = [
    "DP(eps) implies DP(eps, log(delta))",             # log(delta) < 0 for every delta in (0, 1)
    "DP(eps) implies DP(eps, delta - 1)",              # delta - 1 < 0 everywhere
    "DP(1) implies DP(1, delta - 1)",
    "RandomizedResponse(eps) is DP(eps, delta - 1)",   # by randomized_response_pure_dp
    "compose(k=k, DP(eps)) is DP(k*eps, delta - 1)",   # by pure_dp_basic_composition
    "Laplace(1, 1/eps) is DP(eps, delta/2 - 1/4)",     # negative for delta < 1/2
]


@pytest.mark.parametrize("claim", NEGATIVE_DELTA)
def test_a_negative_delta_target_is_not_proved(claim):
    r = check(claim)
    assert r.verdict not in HOLDS, r.message


# -- 2. RDP targets whose ORDER falls below 1 are proved through "rho-zCDP is (alpha, alpha*rho)-RDP" ----------
#
# RDP(1/2, ...) is refused by the parser (the notion needs alpha >= 1), but RDP(alpha - 1/2, ...) with alpha > 1
# (order in (1/2, oo)) is accepted and PROVED: the obligation alpha'*rho <= eps' holds symbolically, the order is
# never checked.  Under the natural reading of D_alpha for alpha in (0, 1) the claim is false: randomized response
# with eps = 1 is rho-zCDP for rho = 1.0001*tanh(1/2) (sup_{alpha>1} D_alpha/alpha = tanh(1/2) = 0.4621171572600,
# approached as alpha -> 1+; checked on a grid of alpha in (1, 1e7] at 60 digits), yet
#     D_0.9(RR_1) = 0.4216102157044510804   >   0.9 * 1.0001 * tanh(1/2) = 0.4159470...
#     D_0.5(RR_1) = 0.2402290139165550493   >   0.5 * 1.0001 * tanh(1/2) = 0.2310816...
# (order 0.9: alpha = 1.4 in the first claim below, alpha = 3.6 in the second; order 0.5: alpha = 2 in the
# second).  Either way the verdict cannot be PROVED: the claim is
# outside the notion's domain (an error) or false.
#
# Fix: obligations() must add target.alpha >= 1 (and omega > 1 for tCDP) -- or the builder must reject notion
# parameters that can leave the notion's domain on the claim's domain.

LOW_ORDER = [
    "zCDP(rho) implies RDP(alpha - 1/2, (alpha - 1/2)*rho)",
    "zCDP(rho) implies RDP(alpha/4, alpha*rho/4)",
]


@pytest.mark.parametrize("claim", LOW_ORDER)
def test_an_rdp_target_with_order_below_one_is_not_proved(claim):
    r = check(claim)
    assert r.verdict not in HOLDS, r.message


# -- 3. sympy's automatic evaluation erases undefined sub-expressions before the kernel sees them --------------
#
# The claim text is turned into sympy objects that evaluate on construction: (k-1)/(k-1) -> 1, sqrt(x-1)**2 ->
# x - 1, exp(log(x)) -> x, log(x)/log(x) -> 1.  The kernel's well-definedness check then runs on the simplified
# expression, so a claim that is undefined (0/0 at k = 1; sqrt/log of a negative number) on part of its domain
# is PROVED (exit 0).  The canonical text shows the loss ("1 = 1 FOR k >= 1 integer").
#
# Fix: build expressions with evaluate=False (or check well-definedness on the parse tree before sympy
# evaluates), and refuse / leave undecided a claim whose sides are undefined somewhere on the domain.

UNDEFINED_SOMEWHERE = [
    "forall k >= 1 integer: (k-1)/(k-1) = 1",       # 0/0 at k = 1
    "forall x in (0, 2): sqrt(x-1)^2 <= 1",         # sqrt of a negative number for x < 1
    "forall x > -1: exp(log(x)) >= -1",             # log of a non-positive number for x <= 0
    "forall x > -1: log(x)/log(x) = 1",             # undefined for x <= 0 and 0/0 at x = 1
    "forall delta in (0, 1): exp(log(delta - 1/2)) <= 1/2",  # log of a non-positive number for delta <= 1/2
]


@pytest.mark.parametrize("claim", UNDEFINED_SOMEWHERE)
def test_a_claim_undefined_on_part_of_its_domain_is_not_proved(claim):
    r = check(claim)
    assert r.verdict not in HOLDS, r.canonical


# -- 4. inputs that crash the checker (CLI: "internal error", exit code 4, not in DESIGN's 0-3) -----------------

CRASHES = [
    # NotEvaluable: cannot evaluate ComplexInfinity (the target is undefined at alpha = 2)
    "RDP(alpha, eps) implies DP(eps + log(1/delta)/(alpha/2 - 1), delta)",
    # TypeError: cannot create mpf from nan (x*log(x) at the closed end x = 0)
    "forall x in [0, 2]: x*log(x) >= -0.37",
]


@pytest.mark.parametrize("claim", CRASHES)
def test_undefined_points_do_not_crash_the_checker(claim):
    r = check(claim)
    assert r.verdict not in HOLDS


# -- controls: the sound neighbours of the findings above keep their verdicts ----------------------------------

@pytest.mark.parametrize("claim", [
    "DP(eps) implies DP(eps, delta)",
    "zCDP(rho) implies RDP(alpha, alpha*rho)",
    "forall x > 0: log(x^2) = 2*log(x)",
])
def test_controls_still_hold(claim):
    assert check(claim).verdict in HOLDS
