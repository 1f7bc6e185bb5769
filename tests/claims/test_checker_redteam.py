"""Red-team findings against ``cdpsym check`` (cdpsym/claims), now regression tests.

Each test states what the verdict *must* be for the mathematics to be right.  All were found by a hostile
review of the checker and failed then (as ``xfail``); each is fixed and now a plain regression test.
"""

from __future__ import annotations

import pytest

from cdpsym.claims import check

HOLDS = ("proved", "certified")


# -- 1. a FOR clause that WIDENS a default domain is silently intersected with it ------------------------------
#
# ``delta < 1 FOR delta in (0, 1]`` states "for every delta in (0, 1], delta < 1": false at delta = 1.  The
# parser keeps the default domain (0, 1) (``_tighter`` only ever narrows), the kernel proves delta < 1 on (0, 1),
# and the checker answers PROVED with exit code 0.  The canonical text shows the narrowed domain, but the exit
# code (what scripts read) says the stated claim holds.

WIDENED = [
    "delta < 1 FOR delta in (0, 1]",      # false at delta = 1
    "alpha > 1 FOR alpha in (0, 2)",      # false at alpha = 1/2
    "rho > 0 FOR rho >= 0",               # false at rho = 0
    "k >= 1 FOR k >= 0 integer",          # false at k = 0
    "sigma > 0 FOR sigma >= 0",           # false at sigma = 0
    "p < 1 FOR p in (0, 1]",              # false at p = 1
    "delta > 0 FOR delta in (-1, 1)",     # false at delta = -1/2
]


@pytest.mark.parametrize("claim", WIDENED)
def test_a_constraint_that_widens_the_default_domain_is_not_silently_narrowed(claim):
    r = check(claim)
    assert r.verdict not in HOLDS


# -- 2. constraints on a parameter that is also fixed (``eps = 3``) are ignored --------------------------------
#
# ``eps < 2 FOR eps = 3, eps < 1``: no eps satisfies the constraints, the claim is vacuous (or an input error,
# like ``x > 0 FOR x > 1, x < 0``), yet it is REFUTED "at eps = 3", a point outside the stated domain.

@pytest.mark.parametrize("claim", ["eps < 2 FOR eps = 3, eps < 1",
                                   "eps > 5 FOR eps = 3, eps > 4",
                                   "zCDP(rho) implies zCDP(1) FOR rho = 2, rho < 1"])
def test_a_fixed_value_outside_the_other_constraints_is_not_refuted(claim):
    r = check(claim)
    assert r.verdict != "refuted"


# -- 3. inputs that crash the checker --------------------------------------------------------------------------

def test_a_numeric_bound_after_a_symbolic_one_is_not_an_internal_error():
    r = check("eps < 2 FOR eps < 2*delta, eps < 1")
    assert r.verdict in ("proved", "certified", "refuted", "supported", "undecided", "error")


def test_a_huge_search_point_is_not_a_memory_error():
    r = check("compose(k=k, DP(eps)) is DP(sqrt(1.9*k*log(1/delta))*eps + k*eps*(exp(eps)-1)/2, delta)")
    assert r.verdict in ("refuted", "undecided", "supported", "proved", "certified")


# -- 4. false claims that fail exactly at a closed end are not refuted (the search never samples it) -------------

@pytest.mark.parametrize("claim", ["forall x >= 0: tanh(x) < x",       # equal at x = 0
                                   "eps > 3 FOR eps >= 3",              # equal at eps = 3
                                   "forall 0 <= x <= 1: x^2 < x"])      # equal at x = 0 and x = 1
def test_a_strict_claim_failing_at_a_closed_end_is_refuted(claim):
    assert check(claim).verdict == "refuted"


# -- 5. sanity: what must keep working --------------------------------------------------------------------------

@pytest.mark.parametrize("claim", ["exp(-40) + 1 > 1", "exp(-800) + 1 > 1", "1 + 10^-400 > 1",
                                   "forall eps > 0: eps*tanh(eps/2) < eps^2/2",
                                   "zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), delta)",
                                   "Gaussian(sensitivity=1, sigma=1) is DP(1, 0.12693673750664397)"])
def test_true_claims_hold(claim):
    assert check(claim).verdict in HOLDS


@pytest.mark.parametrize("claim", ["1 + 10^-400 = 1", "sqrt(2)*sqrt(2) < 2",
                                   "zCDP(rho) implies DP(rho + 1.99*sqrt(rho*log(1/delta)), delta)",
                                   "Gaussian(sensitivity=1, sigma=1) is DP(1, 0.1269367375)",
                                   "compose(k=k, DP(eps)) is DP(k*eps/2)",
                                   "group(size=k, zCDP(rho)) is zCDP(k*rho)"])
def test_false_claims_are_refuted(claim):
    assert check(claim).verdict == "refuted"
