"""docs/tutorial.ipynb runs from a fresh kernel without a cell error and shows rendered mathematics.

Needs the ``test`` extra (nbclient, nbformat, ipykernel): ``pip install -e '.[test]'``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat", reason="nbformat is in the test extra: pip install -e '.[test]'")
nbclient = pytest.importorskip("nbclient", reason="nbclient is in the test extra: pip install -e '.[test]'")
pytest.importorskip("ipykernel", reason="ipykernel is in the test extra: pip install -e '.[test]'")

NOTEBOOK = Path(__file__).resolve().parents[1] / "docs" / "tutorial.ipynb"


@pytest.fixture(scope="module")
def executed():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    for cell in nb.cells:  # executed fresh, whatever was stored
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    client = nbclient.NotebookClient(nb, timeout=120, kernel_name="python3", allow_errors=False,
                                     resources={"metadata": {"path": str(NOTEBOOK.parent)}})
    client.execute()
    return nb


def _outputs(nb, mime: str) -> list[str]:
    out = []
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            data = o.get("data", {})
            if mime in data:
                out.append(data[mime])
    return out


def test_every_cell_runs_without_error(executed):
    code = [c for c in executed.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code)
    for cell in code:
        for o in cell.outputs:
            assert o.output_type != "error", f"{o.get('ename')}: {o.get('evalue')}"
            assert not (o.output_type == "stream" and o.get("name") == "stderr" and "Traceback" in o.get("text", ""))


def test_the_three_uses_render_as_mathematics(executed):
    latex = "\n".join(_outputs(executed, "text/latex"))
    html = "\n".join(_outputs(executed, "text/html"))
    markdown = "\n".join(_outputs(executed, "text/markdown"))
    # (a) a theorem: its statement, its verification report and its derivation
    assert r"\delta_{P\|Q}" in latex
    assert "approx_dp_of_zcdp" in markdown and "proved" in markdown
    assert r"\begin{align*}" in html and "cdpsym-derivation" in html
    # (b) claims: proved, refuted with a counterexample, and an honest third verdict
    assert r"\textbf{proved}" in latex and r"\textbf{refuted}" in latex
    assert ">proved</span>" in html and ">refuted</span>" in html and "counterexample" in html
    assert any(f">{v}</span>" in html for v in ("undecided", "supported", "proved", "certified"))
    # (c) certified accounting: the value with its safe side, digits and method
    assert r"\varepsilon \le 224.7417230" in latex
    assert "certified digits" in html and "cdpsym-certified-bounds" in html
