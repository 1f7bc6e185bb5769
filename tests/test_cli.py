"""The command line as users and scripts see it: tables, JSON, exit codes, no tracebacks."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from cdpsym.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_name_reference_source_statement(capsys):
    code, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert code == 0
    by_name = {r["name"]: r for r in rows}
    assert by_name["approx_dp_of_zcdp"]["reference"] == "R-C4"
    assert "1605.02065" in by_name["approx_dp_of_zcdp"]["source"]
    assert "sqrt(rho*log(1/delta))" in by_name["approx_dp_of_zcdp"]["statement"]


def test_verify_json_has_the_documented_fields(capsys):
    code, out, _ = run(capsys, "verify", "approx_dp_of_zcdp", "--json", "--examples", "10")
    assert code == 0
    (report,) = json.loads(out)
    assert {"name", "reference", "source", "verdict", "checks", "seconds"} <= set(report)
    assert report["verdict"] == "proved"
    checks = report["checks"]
    assert checks["symbolic"]["status"] == "proved" and checks["symbolic"]["steps_checked"] >= 6
    assert checks["numeric"]["status"] == "passed" and checks["numeric"]["digits"] == 50
    assert checks["numeric"]["points"] >= 4
    assert checks["property"]["status"] == "passed" and checks["property"]["examples"] == 10


def test_verify_table_and_progress(capsys):
    code, out, err = run(capsys, "verify", "gaussian_zcdp", "--examples", "5")
    assert code == 0
    assert "gaussian_zcdp" in out and "proved" in out and "R-C2" in out
    assert "verifying gaussian_zcdp" in err


@pytest.mark.parametrize("argv, message", [
    (["verify", "no_such_theorem"], "no theorem named 'no_such_theorem'"),
    (["latex", "no_such_theorem"], "no theorem named 'no_such_theorem'"),
    (["verify", "--dps", "3"], "--dps must be between"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_is_a_clear_error_with_exit_3(capsys, argv, message):
    with pytest.raises(SystemExit) if argv == ["frobnicate"] else _nothing():
        code, out, err = run(capsys, *argv)
        assert code == 3
        assert message in err
        assert "Traceback" not in err
    if argv == ["frobnicate"]:
        assert message in capsys.readouterr().err


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_latex_derivation_is_an_align_with_one_step_per_line(capsys):
    code, out, _ = run(capsys, "latex", "approx_dp_of_zcdp")
    assert code == 0
    assert r"\begin{align*}" in out and r"\end{align*}" in out
    assert "Markov" in out and "1605.02065" in out


def test_the_command_is_installed_and_runs_as_a_module():
    proc = subprocess.run([sys.executable, "-m", "cdpsym", "list"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "gaussian_zcdp" in proc.stdout


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed (CI installs it)")
@pytest.mark.parametrize("name", ["approx_dp_of_zcdp", "gaussian_zcdp", "approx_dp_advanced_composition"])
def test_standalone_latex_compiles_with_pdflatex(tmp_path, capsys, name):
    code, out, _ = run(capsys, "latex", name, "--standalone")
    assert code == 0
    tex = tmp_path / "d.tex"
    tex.write_text(out)
    proc = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "d.tex"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout[-3000:]
    assert (tmp_path / "d.pdf").stat().st_size > 1000


def test_docs_catalogue_is_current(capsys):
    """docs/catalogue.md is generated; regenerate it with `cdpsym list --markdown --axioms > docs/catalogue.md`."""
    from pathlib import Path

    code, out, _ = run(capsys, "list", "--markdown", "--axioms")
    assert code == 0
    assert Path(__file__).resolve().parents[1].joinpath("docs", "catalogue.md").read_text() == out
