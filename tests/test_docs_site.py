"""The documentation site builds with warnings as errors: `mkdocs build --strict` (mkdocs.yml at the root).

The site is the guide, the executed tutorial notebook (mkdocs-jupyter), the claims, kernel rules, catalogue,
errata, accounting API and ladder pages, and an API reference generated from the docstrings (mkdocstrings).
Needs the ``test`` (or ``docs``) extra: ``pip install -e '.[test]'``; skipped, saying so, without it.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_NEEDED = {"mkdocs": "mkdocs", "material": "mkdocs-material", "mkdocstrings": "mkdocstrings[python]",
           "mkdocstrings_handlers.python": "mkdocstrings[python]", "mkdocs_jupyter": "mkdocs-jupyter",
           "ipykernel": "ipykernel"}


def _missing() -> list[str]:
    out = []
    for module, package in _NEEDED.items():
        try:
            found = importlib.util.find_spec(module) is not None
        except ModuleNotFoundError:
            found = False
        if not found and package not in out:
            out.append(package)
    return out


pytestmark = pytest.mark.skipif(bool(_missing()), reason=f"the docs site needs {', '.join(_missing())} "
                                "(in the test and docs extras: pip install -e '.[test]')")


def _nav_pages() -> list[str]:
    import yaml  # a dependency of mkdocs

    class Loader(yaml.SafeLoader):  # mkdocs.yml may hold !!python tags; only the nav is read here
        pass

    Loader.add_multi_constructor("", lambda loader, suffix, node: None)
    config = yaml.load((ROOT / "mkdocs.yml").read_text(), Loader=Loader)
    pages: list[str] = []

    def walk(items):
        for item in items:
            if isinstance(item, str):
                pages.append(item)
            elif isinstance(item, dict):
                for value in item.values():
                    walk(value if isinstance(value, list) else [value])

    walk(config["nav"])
    return pages


def test_nav_names_every_documentation_page_that_exists():
    pages = _nav_pages()
    for page in ("guide.md", "claims.md", "kernel.md", "catalogue.md", "errata.md", "accounting-api.md",
                 "tutorial.ipynb"):
        assert page in pages
    for page in pages:
        assert (ROOT / "docs" / page).is_file(), page
    assert ((ROOT / "docs" / "ladder.md").is_file()) == ("ladder.md" in pages)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")  # material's end-of-life banner (not a build warning)
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-8000:]
    return out


def test_site_builds_strict_with_every_page(site):
    for page in _nav_pages():
        html = site / (page.rsplit(".", 1)[0]) / "index.html"
        assert html.is_file(), html


def test_tutorial_is_executed_and_shows_mathematics(site):
    html = (site / "tutorial" / "index.html").read_text()
    assert "224.7417230" in html  # the certified epsilon, computed when the site was built
    assert "cdpsym-claim" in html and "begin{align*}" in html
    assert "MathJax" in html or "mathjax" in html


def test_api_reference_is_generated_from_docstrings(site):
    html = (site / "reference" / "cdpsym.accounting" / "index.html").read_text()
    assert 'id="cdpsym.accounting.epsilon"' in html and "Certified" in html
    for module in ("cdpsym", "cdpsym.claims", "cdpsym.proof"):
        assert f'id="{module}"' in (site / "reference" / module / "index.html").read_text()
