"""The tightness ladder (issue 14): soundness of every rung against certified exact values, the independent
KOV optimum against the accountant, REFERENCE.md's numbers, validity ranges, and docs/ladder.md being current."""

from __future__ import annotations

from pathlib import Path

import mpmath
import pytest
from flint import arb, ctx

from cdpsym import ladder
from cdpsym.ladder import (COMPOSITION_DELTA, COMPOSITION_EPS0, COMPOSITION_KS, COMPOSITIONS, CONVERSION_DELTAS,
                           CONVERSION_RHOS, CONVERSIONS)

ROOT = Path(__file__).resolve().parents[1]

#: REFERENCE.md R-E7 (✓N9): (ρ, δ) -> (exact BW18, CKS20, BS16 Prop 1.3), 10 significant digits
R_E7 = {
    ("0.5", "1e-6"): ("4.886554117", "5.221534445", "5.756521770"),
    ("0.01", "1e-9"): ("0.768211713", "0.810174468", "0.920456278"),
    ("2", "1e-5"): ("9.997256146", "10.72482411", "11.59705182"),
    ("0.125", "1e-3"): ("1.352276245", "1.546096127", "1.983461094"),
}
CONVERSION_POINTS = sorted({(r, d) for r in CONVERSION_RHOS for d in CONVERSION_DELTAS} | set(R_E7))
#: ✓N19 / ✓N46 sets on top of the table grid
COMPOSITION_POINTS = sorted({(e, k, COMPOSITION_DELTA) for e in COMPOSITION_EPS0 for k in COMPOSITION_KS}
                            | {("0.1", 20, "1e-5"), ("0.5", 50, "1e-6"), ("1", 10, "1e-3"), ("0.05", 1000, "1e-9"),
                               ("0.3", 5, "0.05")})
DIGITS = 30  # certified digits asked of the accountant in these tests


def _arb(x: mpmath.mpf) -> arb:
    """An mpmath number as an Arb ball (at 200 bits: it carries ~60 digits exactly)."""
    return arb(mpmath.nstr(x, 60, strip_zeros=False))


def _certainly_at_least(bound: mpmath.mpf, certified) -> bool:
    with ctx.workprec(200):
        return bool(_arb(bound) >= certified.ball.upper())


def _inside(value: mpmath.mpf, certified, slack: str = "1e-40") -> bool:
    """``value`` lies in the certified ball widened by ``slack`` (mpmath's own rounding)."""
    with ctx.workprec(200):
        return bool((_arb(value) - certified.ball).abs_lower() <= arb(slack))  # distance to the ball


# --- soundness: no bound below the exact value -------------------------------------------------------------------


@pytest.mark.parametrize(("rho", "delta"), CONVERSION_POINTS)
def test_every_conversion_is_at_least_the_exact_gaussian(rho, delta):
    exact = ladder.conversion_exact_gaussian(rho, delta, digits=DIGITS)
    assert exact.exact
    for rung in CONVERSIONS:
        if rung.exact:
            continue
        bound = rung.compute(rho, delta)
        assert bound is not None, rung.key
        assert _certainly_at_least(bound, exact), (rung.key, rho, delta, bound, exact.rounded)


@pytest.mark.parametrize(("rho", "delta"), CONVERSION_POINTS)
def test_conversion_ordering_of_r_e7_and_the_independent_exact_value(rho, delta):
    v = {r.key: r.compute(rho, delta) for r in CONVERSIONS if not r.exact}
    assert v["cks20"] <= v["bs16_l36"] <= v["bs16"]
    assert abs(v["m17"] - v["bs16"]) < mpmath.mpf("1e-40")  # R-D5 at its optimal order is BS16 exactly
    # the exact value from BW18's formula in mpmath lies in the accountant's certified ball
    certified = ladder.conversion_exact_gaussian(rho, delta, DIGITS)
    assert _inside(ladder.conversion_exact_gaussian_mp(rho, delta), certified)


@pytest.mark.parametrize(("eps0", "k", "delta"), COMPOSITION_POINTS)
def test_every_composition_bound_is_at_least_the_certified_optimum(eps0, k, delta):
    exact = ladder.composition_exact(eps0, k, delta, digits=DIGITS)
    assert exact.exact
    for rung in COMPOSITIONS:
        if rung.exact or rung.key == "kov_exact":
            continue
        bound = rung.compute(eps0, k, delta)
        assert bound is not None, rung.key
        assert _certainly_at_least(bound, exact), (rung.key, eps0, k, delta, bound, exact.rounded)


@pytest.mark.parametrize(("eps0", "k", "delta"), COMPOSITION_POINTS)
def test_kov_exact_optimum_equals_the_certified_value(eps0, k, delta):
    kov = ladder.composition_kov_exact(eps0, k, delta)
    certified = ladder.composition_exact(eps0, k, delta, digits=DIGITS)
    assert _inside(kov, certified), (eps0, k, delta, mpmath.nstr(kov, 35), certified.rounded)


def test_the_soundness_check_has_teeth():
    """Unsafe mutants — BS16 without its factor 2 (R-C4's false variant), DR16 without the √2 — fall below
    the exact value, so the comparison above would catch them."""
    rho, delta = "0.5", "1e-6"
    with mpmath.workdps(50):
        r, L = mpmath.mpf("0.5"), -mpmath.log(mpmath.mpf("1e-6"))
        mutant = r + mpmath.sqrt(r * L)
    assert not _certainly_at_least(mutant, ladder.conversion_exact_gaussian(rho, delta, DIGITS))
    with mpmath.workdps(50):
        e, k, L = mpmath.mpf("0.1"), 1000, -mpmath.log(mpmath.mpf("1e-6"))
        mutant = mpmath.sqrt(k * L) * e + k * e * mpmath.expm1(e) / 2
    assert not _certainly_at_least(mutant, ladder.composition_exact("0.1", 1000, "1e-6", DIGITS))


# --- REFERENCE.md's numbers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(("point", "expected"), sorted(R_E7.items()))
def test_r_e7_values(point, expected):
    exact, cks20, bs16 = expected
    v = ladder.conversion_values(*point)
    assert v["exact"] == pytest.approx(float(exact), abs=2e-9)
    assert v["cks20"] == pytest.approx(float(cks20), rel=1e-9)
    assert v["bs16"] == pytest.approx(float(bs16), rel=1e-9)
    assert v["m17"] == pytest.approx(float(bs16), rel=1e-9)


def test_n19_and_n46_values():
    v = ladder.composition_values("0.1", 100, "1e-6")  # ✓N19, R-B1
    assert [round(v[key], 4) for key in ("exact", "kov_exact", "dr16", "drv10", "kov_closed", "zcdp")] == \
        [4.7746, 4.7746, 5.7824, 6.3082, 5.7561, 5.7565]
    v = ladder.composition_values("0.05", 1000, "1e-9")  # ✓N46: OPT 10.2799, KOV branches 11.5409 / 11.4290
    assert round(v["exact"], 4) == 10.2799 and round(v["kov_closed"], 4) == 11.4290


def test_usefulness_threshold_of_r_b1():
    """R-B1: DR16 beats kε0 iff k > 2 log(1/δ')/(1 - (e^ε - 1)/2)²; DRV10 never for ε0 > log 2."""
    dr16 = next(r for r in COMPOSITIONS if r.key == "dr16")
    drv10 = next(r for r in COMPOSITIONS if r.key == "drv10")
    with mpmath.workdps(30):
        threshold = 2 * mpmath.log(10**6) / (1 - mpmath.expm1(1) / 2) ** 2
    assert ladder.useful_from(dr16, "1", "1e-6") == int(mpmath.floor(threshold)) + 1 == 1393
    assert ladder.useful_from(drv10, "1", "1e-6") is None


# --- validity ranges ----------------------------------------------------------------------------------------------


def test_bounds_outside_their_hypotheses_are_none_and_shown_as_a_dash():
    for rung in CONVERSIONS:
        assert rung.compute("0", "1e-6") is None and rung.compute("0.5", "0") is None
        assert rung.compute("0.5", "1") is None
    for rung in COMPOSITIONS:
        assert rung.compute("0", 10, "1e-6") is None and rung.compute("0.1", 0, "1e-6") is None
        assert rung.compute("0.1", 10, "0") is None
    assert ladder._cell(None, 1.0) == "—"


def test_lemma36_respects_eps_at_least_rho():
    """R-C5 holds for ε ≥ ρ only: above δ_C5(ρ) it certifies ε = ρ and nothing lower."""
    limit = ladder.lemma36_limit("0.5")
    assert 0.69 < limit < 0.70
    assert ladder.conversion_bs16_lemma36("0.5", "0.8") == mpmath.mpf("0.5")
    assert ladder.conversion_bs16_lemma36("0.5", "0.6") > mpmath.mpf("0.5")


# --- the generated document ---------------------------------------------------------------------------------------


def test_docs_ladder_md_is_current():
    text = ladder.ladder_markdown()
    on_disk = (ROOT / "docs" / "ladder.md").read_text(encoding="utf-8")
    assert text == on_disk, "docs/ladder.md is stale: run `python -m cdpsym.ladder`"
    for number in ("5.7565", "4.8866", "5.2215", "4.7746", "5.7824", "6.3082", "5.7561", "9.9973", "10.7248",
                   "11.5971"):
        assert number in text
    for image in ("ladder-conversions.png", "ladder-compositions.png"):
        assert f"]({image})" in text and (ROOT / "docs" / image).is_file()


def test_plots_are_written_deterministically(tmp_path):
    pytest.importorskip("matplotlib")
    first = ladder.plot(tmp_path / "a")
    second = ladder.plot(tmp_path / "b")
    for a, b in zip(first, second):
        data = a.read_bytes()
        assert data.startswith(b"\x89PNG") and data == b.read_bytes()
        assert b"matplotlib version" not in data and b"tIME" not in data
