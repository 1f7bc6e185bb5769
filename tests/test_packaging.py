"""Packaging: the theorem library installs as ``cdpsym.theorems`` (no top-level ``theorems`` in site-packages),
and ``theorems`` / ``cdpsym.theorems`` are one library, whichever is imported first."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_pyproject_lists_every_package_and_maps_the_library_under_cdpsym():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    on_disk = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "cdpsym").rglob("__init__.py")
               if "__pycache__" not in p.parts}
    assert set(config["packages"]) == on_disk | {"cdpsym.theorems"}
    assert config["package-dir"] == {"cdpsym.theorems": "theorems"}
    assert not any(p == "theorems" or p.startswith("theorems.") for p in config["packages"])
    assert not list((ROOT / "theorems").glob("*/__init__.py"))  # a subpackage of theorems/ would need listing


def test_both_names_are_the_same_library_in_this_process():
    import theorems

    import cdpsym
    import cdpsym.theorems

    assert theorems is cdpsym.theorems
    import importlib

    assert importlib.import_module("theorems.gaussian_zcdp") is importlib.import_module("cdpsym.theorems.gaussian_zcdp")
    from cdpsym.theorems import gaussian_zcdp

    assert gaussian_zcdp is theorems.gaussian_zcdp
    assert isinstance(gaussian_zcdp, cdpsym.Theorem)  # importing the module under the other name did not rebind it


_CDPSYM_FIRST = """
import importlib, sys
from cdpsym.theorems import gaussian_zcdp, LIBRARY
import theorems
assert theorems is sys.modules["cdpsym.theorems"] and theorems.__name__ == "cdpsym.theorems"
assert importlib.import_module("theorems.foundations") is importlib.import_module("cdpsym.theorems.foundations")
assert gaussian_zcdp in LIBRARY and theorems.gaussian_zcdp is gaussian_zcdp
for name in ("theorems.gaussian_zcdp", "cdpsym.theorems.gaussian_zcdp"):
    importlib.import_module(name)
    assert theorems.gaussian_zcdp is gaussian_zcdp and type(gaussian_zcdp).__name__ == "Theorem"
print(len({m for m in sys.modules if m.endswith("theorems.foundations")}), theorems.__spec__.name)
"""


def test_importing_cdpsym_theorems_first_loads_the_library_once(tmp_path):
    proc = subprocess.run([sys.executable, "-c", _CDPSYM_FIRST], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["2", "cdpsym.theorems"]  # two names, one module
