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
    # the statement is generated from the sympy statement, as a claim the checker reads
    assert by_name["approx_dp_of_zcdp"]["statement"] == \
        "ZCDP(rho=rho) implies ApproxDP(eps=2*sqrt(rho)*sqrt(log(1/delta)) + rho, delta=delta)"


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


# -- newcomer items, budgets, limits (issue 12) ----------------------------------------------------------------

def test_version(capsys):
    from cdpsym import __version__

    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert capsys.readouterr().out.strip() == f"cdpsym {__version__}"


@pytest.mark.parametrize("columns, width", [("200", 100), ("100", 100), ("80", 80)])
def test_list_table_fits_the_terminal_and_at_most_100_columns(capsys, monkeypatch, columns, width):
    monkeypatch.setenv("COLUMNS", columns)
    code, out, _ = run(capsys, "list", "--axioms")
    assert code == 0
    lines = out.splitlines()
    assert max(len(line) for line in lines) <= width
    assert any(line.startswith("gaussian_zcdp ") for line in lines)
    assert "    Gaussian(sensitivity=Delta, sigma=sigma) is ZCDP(rho=Delta**2/(2*sigma**2))" in lines
    # the full text stays available
    code, out, _ = run(capsys, "list", "--axioms", "--json")
    assert any("arXiv:1603.01887v2 (Hoeffding 1963" in r["source"] for r in json.loads(out))


def test_citations_are_cut_at_a_word_with_an_ellipsis():
    from cdpsym.cli import _short_source

    source = "Dwork & Rothblum 2016, Lemma 3.6, arXiv:1603.01887v2 (Hoeffding 1963, eq. 4.16)"
    short = _short_source(source)
    assert short == "Dwork & Rothblum 2016, Lemma 3.6 (…)"
    assert _short_source(source, 80) == "Dwork & Rothblum 2016, Lemma 3.6 (Hoeffding 1963, eq. 4.16)"
    cut = _short_source("Markov 1884; e.g. Boucheron, Lugosi & Massart 2013, §2.1, a long remark here", 48)
    assert cut.endswith("…") and len(cut) <= 48 and cut[:-1] == cut[:-1].rstrip()
    assert "Massart…" in cut or "Lugosi…" in cut or "&…" not in cut


def test_verify_json_shows_progress_on_stderr_and_examples_0_skips_the_property_check(capsys):
    code, out, err = run(capsys, "verify", "subgaussian_concentration", "--json", "--examples", "0")
    assert code == 0
    assert "[1/1] verifying subgaussian_concentration" in err
    (report,) = json.loads(out)
    assert report["checks"]["property"]["status"] == "skipped"
    assert report["verdict"] == "supported"  # a skipped check caps the verdict


@pytest.mark.parametrize("argv, message", [
    (["verify", "--dps", "2001"], "--dps must be between 15 and 2000, got --dps 2001"),
    (["verify", "--examples", "10001"], "--examples must be between 0 and 10000"),
    (["verify", "--examples", "-1"], "--examples must be between 0 and 10000"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--timeout", "0"], "--timeout: must be a number of seconds"),
    (["epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--timeout", "nan"], "--timeout: must be a number of seconds"),
    (["list", "--memory", "10"], "--memory: must be a whole number of megabytes between 256"),
])
def test_costly_work_is_refused_up_front_naming_the_flag_and_range(capsys, argv, message):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 3 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("argv, message", [
    (["epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--digits", "1001"],
     "--digits must be between 1 and 1000, got --digits 1001"),
    (["calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "10^10"],
     "--k '10^10' is beyond the accountants' limit of 10^9 compositions"),
    (["calibrate", "pure-dp", "--eps", "1", "--delta", "1e-6", "--k", "10^10"], "ask for --k at most 10^9"),
    (["epsilon", "compose(compose(RandomizedResponse(0.1), k=10^9), k=10^9)", "--delta", "1e-6"],
     "k=1000000000000000000 mechanisms is beyond the limit k <= 10^9"),
    # more distinct privacy losses than the exact heterogeneous composition tracks: was exit 3, "bad input"
    (["epsilon", "compose(RandomizedResponse(1/3), RandomizedResponse(1/7), RandomizedResponse(1/1001), k=100000)",
      "--delta", "1e-6"], "distinct privacy losses, beyond the limit of 65536"),
    (["delta", "compose(DP(1/3), DP(1/7, 1e-9), DP(1/1001), k=100000)", "--eps", "1"], "coarser common grid"),
    (["epsilon", "compose(k=1000000, Laplace(1, 1))", "--delta", "1e-6"], "drift from the truth"),
])
def test_well_posed_work_beyond_a_cost_limit_exits_2_saying_what_to_change(capsys, argv, message):
    """A cost refusal is not bad input: exit 2 (like a time or memory budget), one line, ``refused up front``."""
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and out == "", err
    assert err.startswith("cdpsym: refused up front: ") and message in err, err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_digits_and_k_below_their_range_are_still_bad_input(capsys):
    for argv in (["epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--digits", "0"],
                 ["calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--k", "0"]):
        code = main(argv)
        out, err = capsys.readouterr()
        assert code == 3 and out == "" and err.startswith("cdpsym: error: ")


@pytest.mark.parametrize("argv, where", [
    (["epsilon", "Gaussian(1, 2)", "--delta", "exp(-20)"], "--delta 'exp(-20)': delta must be a rational number"),
    (["epsilon", "zCDP(rho=sqrt(2))", "--delta", "1e-6"], "SUBJECT 'zCDP(rho=sqrt(2))' at column 6: rho must be"),
    (["epsilon", "RDP(alpha=sqrt(3), eps=1)", "--delta", "1e-6"], "at column 5: alpha must be a rational number"),
    (["delta", "Gaussian(1, 2)", "--eps", "sqrt(2)"], "--eps 'sqrt(2)': eps must be a rational number"),
    (["calibrate", "gaussian", "--eps", "pi", "--delta", "1e-6"], "--eps 'pi': eps must be a rational number"),
])
def test_irrational_numbers_where_only_rationals_are_accepted_say_so_and_where(capsys, argv, where):
    code, out, err = run(capsys, *argv)
    if code == 0:  # the accountant learned to take irrational inputs: then --help must say so (see _NUMBERS_HELP)
        pytest.skip("irrational input accepted")
    assert code == 3 and out == ""
    assert where in err and "irrational values such as sqrt(2) are accepted only as mechanism parameters" in err
    assert "Fraction" not in err and "sympy" not in err


def test_irrational_mechanism_parameters_and_every_help_example_work(capsys):
    with pytest.raises(SystemExit):
        main(["epsilon", "--help"])
    help_text = capsys.readouterr().out
    assert "compose(Gaussian(1, 2), Gaussian(2, 3), k=10)" in help_text
    assert "--delta, --eps, --k, and rho, alpha and the eps of RDP" in help_text
    for subject in ["compose(Gaussian(1, 2), Gaussian(2, 3), k=10)", "Gaussian(1, sqrt(2))",
                    "RandomizedResponse(eps=log(3))", "Laplace(sensitivity=1, scale=exp(1))", "RDP(alpha=8, eps=1/2)",
                    "compose(k=100, DP(eps=0.1))", "0.5-zCDP", "1-DP", "compose(k=1000, Gaussian(1, 2))"]:
        code, out, err = run(capsys, "epsilon", subject, "--delta", "1e-6")
        assert code == 0, (subject, err)
    code, out, err = run(capsys, "calibrate", "gaussian", "--eps", "1", "--delta", "1e-6", "--sensitivity", "sqrt(2)")
    assert code == 0, err


def _slow(*args, **kwargs):
    while True:  # pure Python: the timer interrupts it
        sum(range(1000))


def test_the_time_budget_stops_a_command_with_one_line_and_nothing_on_stdout(capsys, monkeypatch):
    import time

    from cdpsym import accounting

    monkeypatch.setattr(accounting, "epsilon", _slow)
    t0 = time.monotonic()
    code, out, err = run(capsys, "epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--timeout", "0.5")
    assert time.monotonic() - t0 < 5
    assert code == 2 and out == ""
    assert err == ("cdpsym: time budget exceeded: computing epsilon took more than 0.5 s "
                   "(raise it with --timeout SECONDS)\n")


def test_the_time_budget_works_off_the_main_thread(capsys, monkeypatch):
    import threading

    from cdpsym import accounting

    monkeypatch.setattr(accounting, "delta", _slow)
    result = {}
    thread = threading.Thread(target=lambda: result.setdefault(
        "code", main(["delta", "Gaussian(1, 2)", "--eps", "1", "--timeout", "0.3"])))
    thread.start()
    thread.join(10)
    assert not thread.is_alive() and result["code"] == 2
    assert "time budget exceeded: computing delta took more than 0.3 s" in capsys.readouterr().err


def test_the_memory_budget_is_an_address_space_limit(capsys, monkeypatch):
    from cdpsym import accounting

    def hog(*args, **kwargs):
        return bytearray(6 * 1024 ** 3)

    monkeypatch.setattr(accounting, "epsilon", hog)
    code, out, err = run(capsys, "epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--memory", "2048")
    assert code == 2 and out == ""
    assert err == ("cdpsym: memory budget exceeded: computing epsilon needed more than 2048 MB "
                   "(raise it with --memory MB)\n")
    assert bytearray(10 ** 6)  # and the limit is lifted afterwards


_STUCK = """
import signal, sys, time
import cdpsym.budget, cdpsym.cli
from cdpsym import accounting
cdpsym.budget.GRACE = 0.5
def stuck(*args, **kwargs):  # like native code that never returns to the interpreter: no timer reaches it
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
    print("half-written", flush=True)
    time.sleep(60)
accounting.epsilon = stuck
sys.argv = ["cdpsym", "epsilon", "Gaussian(1, 2)", "--delta", "1e-6", "--timeout", "0.5"]
sys.exit(cdpsym.cli.main())
"""


@pytest.mark.skipif(not hasattr(__import__("os"), "fork"), reason="the supervisor needs fork")
def test_the_command_kills_work_stuck_beyond_its_deadline(tmp_path):
    import time

    t0 = time.monotonic()
    proc = subprocess.run([sys.executable, "-c", _STUCK], capture_output=True, text=True, timeout=60)
    assert time.monotonic() - t0 < 20
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr == ("cdpsym: time budget exceeded: computing epsilon took more than 0.5 s "
                           "(raise it with --timeout SECONDS)\n")


def test_verify_runs_leave_no_hypothesis_folder_in_the_working_directory(tmp_path):
    import os

    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    env.pop("HYPOTHESIS_STORAGE_DIRECTORY", None)
    proc = subprocess.run([sys.executable, "-m", "cdpsym", "verify", "subgaussian_concentration", "--examples", "3",
                           "--quiet"], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert not (tmp_path / ".hypothesis").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cache"]


def test_verify_in_parallel_gives_the_same_reports_in_the_same_order():
    import subprocess
    import sys

    names = ["gaussian_zcdp", "approx_dp_of_zcdp", "laplace_pure_dp", "randomized_response_pure_dp"]

    def run_jobs(jobs):
        proc = subprocess.run([sys.executable, "-m", "cdpsym", "verify", *names, "--json", "--examples", "5",
                               "--no-axioms", "--jobs", str(jobs)], capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return [(r["name"], r["verdict"], r["checks"]["symbolic"]["steps_checked"]) for r in json.loads(proc.stdout)]

    one, two = run_jobs(1), run_jobs(2)
    assert one == two and [n for n, _, _ in one] == names


def test_a_parallel_verify_past_its_budget_stops_with_its_workers():
    import subprocess
    import sys
    import time

    proc = subprocess.run([sys.executable, "-m", "cdpsym", "verify", "--timeout", "1", "--jobs", "2", "--quiet"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "time budget exceeded" in proc.stderr and "Traceback" not in proc.stderr
    time.sleep(2)
    stray = subprocess.run(["pgrep", "-f", "cdpsym verify --timeout 1 --jobs 2"], capture_output=True, text=True)
    assert stray.stdout.strip() == ""
