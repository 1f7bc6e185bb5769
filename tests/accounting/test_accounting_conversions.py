"""Certified zCDP/RDP → (ε, δ) conversions: R-E7 values, the ordering, and 100-digit recomputations."""

from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp
from accounting_truth import DPS, check_encloses, check_zero
from mpmath import mp

from cdpsym.accounting import Certified, rdp_epsilon, zcdp_epsilon
from cdpsym.mechanisms import Gaussian

# R-E7 (✓N9): rho, delta, exact (BW18), CKS20, BS16 Prop 1.3 — 10 significant digits, rounded to nearest
R_E7 = [
    ("0.5", "1e-6", "4.886554117", "5.221534445", "5.756521770"),
    ("0.01", "1e-9", "0.768211713", "0.810174468", "0.920456278"),
    ("2", "1e-5", "9.997256146", "10.72482411", "11.59705182"),
    ("0.125", "1e-3", "1.352276245", "1.546096127", "1.983461094"),
]


def _cks20(alpha: object, rho: Fraction, delta: Fraction):  # type: ignore[no-untyped-def]
    with mp.workdps(DPS + 20):
        a, r, d = mp.mpf(alpha), mp.mpf(rho.numerator) / rho.denominator, mp.mpf(delta.numerator) / delta.denominator
        return max(mp.zero, a * r + (mp.log(1 / d) + (a - 1) * mp.log(1 - 1 / a) - mp.log(a)) / (a - 1))


@pytest.mark.parametrize("rho, delta, exact, cks20, bs16", R_E7)
def test_r_e7_table(rho: str, delta: str, exact: str, cks20: str, bs16: str) -> None:
    got = zcdp_epsilon(rho=rho, delta=delta)
    assert set(got) == {"exact_gaussian", "cks20", "bs16"}
    for key, table in (("exact_gaussian", exact), ("cks20", cks20), ("bs16", bs16)):
        c = got[key]
        assert isinstance(c, Certified) and c.quantity == "epsilon" and c.direction == "up"
        # the table is rounded to nearest; ours is rounded up: they differ by at most one unit
        diff = Fraction(c.rounded) - Fraction(table)
        unit = Fraction(1, 10 ** (len(table.replace(".", "").lstrip("0")) - len(table.split(".")[0])))
        assert 0 <= diff <= unit or abs(diff) <= unit, (key, c.rounded, table)
    assert got["exact_gaussian"].exact and not got["cks20"].exact and not got["bs16"].exact
    assert (Fraction(got["exact_gaussian"].rounded) <= Fraction(got["cks20"].rounded)
            <= Fraction(got["bs16"].rounded))


@pytest.mark.parametrize("rho, delta", [("0.5", "1e-6"), ("1e-12", "1e-10"), ("1e-12", "1e-300"),
                                        ("1000", "1e-300"), ("0.01", "1e-9")])
def test_each_value_encloses_a_100_digit_recomputation(rho: str, delta: str) -> None:
    r, d = Fraction(rho), Fraction(delta)
    got = zcdp_epsilon(rho=rho, delta=delta)
    gaussian = Gaussian(sensitivity=sp.sqrt(2 * sp.Rational(r.numerator, r.denominator)), sigma=1)
    truth = gaussian.epsilon(d, dps=DPS)
    if truth == 0:
        check_zero(got["exact_gaussian"])
    else:
        check_encloses(got["exact_gaussian"], truth)
    with mp.workdps(DPS + 20):
        rr_, dd = mp.mpf(r.numerator) / r.denominator, mp.mpf(d.numerator) / d.denominator
        check_encloses(got["bs16"], rr_ + 2 * mp.sqrt(rr_ * mp.log(1 / dd)))
    alpha = got["cks20"].method.split("alpha=")[1].split()[0]
    check_encloses(got["cks20"], _cks20(float(alpha), r, d))


def test_rho_1e_12_small_delta_gives_exact_zero_for_the_gaussian() -> None:
    """ρ = 1e-12: the Gaussian's δ(0) = erf(μ/(2√2)) ≈ 5.6e-7 < 1e-6, so its ε is 0; CKS20 clips at 0 too."""
    got = zcdp_epsilon(rho="1e-12", delta="1e-6")
    check_zero(got["exact_gaussian"])
    check_zero(got["cks20"])
    assert Fraction(got["bs16"].rounded) > 0


def test_cks20_alpha_is_near_optimal() -> None:
    """Any α is valid; ours should be within 1e-9 (relative) of the best ε over a fine grid."""
    r, d = Fraction(1, 2), Fraction(1, 10 ** 6)
    got = zcdp_epsilon(rho="0.5", delta="1e-6", digits=15)
    best = min(_cks20(1 + mp.mpf(i) / 1000, r, d) for i in range(4000, 6000))
    assert Fraction(got["cks20"].rounded) <= Fraction(str(mp.nstr(best, 30))) * (1 + Fraction(1, 10 ** 9))


@pytest.mark.parametrize("alpha, tau, delta", [(2, 1, "1e-6"), ("1.5", "0.01", "1e-9"), (64, "0.25", "1e-300"),
                                               ("1.01", "0", "0.5")])
def test_rdp_epsilon_single_order(alpha: object, tau: object, delta: str) -> None:
    got = rdp_epsilon(alpha=alpha, rdp_eps=tau, delta=delta)
    assert not got.exact
    a, t, d = Fraction(str(alpha)), Fraction(str(tau)), Fraction(delta)
    with mp.workdps(DPS + 20):
        am, tm, dm = (mp.mpf(x.numerator) / x.denominator for x in (a, t, d))
        truth = max(mp.zero, tm + mp.log((am - 1) / am) - (mp.log(dm) + mp.log(am)) / (am - 1))
    if truth == 0:
        check_zero(got)
    else:
        check_encloses(got, truth)
