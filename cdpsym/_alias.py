"""``cdpsym.theorems`` and ``theorems``: one theorem library under two names, loaded once.

The library's source lives in the repository's top-level ``theorems/`` folder.
An installed cdpsym ships it as the subpackage ``cdpsym.theorems``
(``pyproject.toml`` maps that package to the folder), so ``pip install`` puts
no top-level ``theorems`` package into site-packages.  The library's own
modules, and code written against a source checkout, import it as
``theorems`` (``from theorems.foundations import ...``); this meta-path finder
makes both names refer to the *same* module objects — a theorem is cited by
identity, so loading the library twice would make two different libraries.

Whichever name is imported first is the one the files are loaded under; the
other becomes an alias:

* ``theorems[.x]`` is an alias of ``cdpsym.theorems[.x]`` once ``cdpsym.theorems``
  has been loaded under its own name (an installed cdpsym: this is how the
  library's ``from theorems.foundations import ...`` resolve);
* ``cdpsym.theorems[.x]`` is an alias of ``theorems[.x]`` once ``theorems`` has
  been loaded from this repository's folder (a source checkout, ``from
  theorems import gaussian_zcdp`` first);
* otherwise ``cdpsym.theorems`` is loaded from the installed subpackage, or
  from the repository's ``theorems/`` folder next to ``cdpsym/``.

A ``theorems`` package that is not cdpsym's is left alone.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["install"]

_PACKAGE = Path(__file__).resolve().parent            # .../cdpsym
_INSTALLED = _PACKAGE / "theorems"                     # an installed cdpsym: cdpsym/theorems
_CHECKOUT = _PACKAGE.parent / "theorems"               # a source checkout: theorems/ next to cdpsym/
_TOP, _SUB = "theorems", "cdpsym.theorems"


def _ours(module: ModuleType) -> bool:
    file = getattr(module, "__file__", None)
    if not file:
        return False
    folder = Path(file).resolve().parent
    return folder in (_INSTALLED, _CHECKOUT)


class _AliasLoader(importlib.abc.Loader):
    """Returns the module already loaded (or loadable) under another name."""

    def __init__(self, target: str, alias: str) -> None:
        self.target = target
        self.alias = alias
        self.spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        module = importlib.import_module(self.target)
        self.spec = module.__spec__
        return module

    def exec_module(self, module: ModuleType) -> None:
        # the import system set __spec__ to the alias's spec: the module keeps its own
        if self.spec is not None:
            module.__spec__ = self.spec
        if self.alias in (_TOP, _SUB):
            # Register the submodules loaded so far under the alias too.  Otherwise a first
            # ``import <alias>.gaussian_zcdp`` would load it through this loader, and the import
            # system would then bind the *module* as the package's attribute, over the Theorem
            # object the package exports under that name.
            prefix = self.target + "."
            for name, loaded in list(sys.modules.items()):
                if name.startswith(prefix):
                    sys.modules.setdefault(self.alias + name[len(self.target):], loaded)


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):  # type: ignore[no-untyped-def]
        if fullname == _TOP or fullname.startswith(_TOP + "."):
            canonical = sys.modules.get(_SUB)
            if canonical is not None and canonical.__name__ == _SUB:
                return self._alias(fullname, "cdpsym." + fullname)
            return None
        if fullname == _SUB or fullname.startswith(_SUB + "."):
            top = sys.modules.get(_TOP)
            if top is not None and top.__name__ == _TOP and _ours(top):
                return self._alias(fullname, fullname[len("cdpsym."):])
            if fullname == _SUB and not (_INSTALLED / "__init__.py").is_file():
                init = _CHECKOUT / "__init__.py"
                if init.is_file():
                    return importlib.util.spec_from_file_location(
                        _SUB, init, submodule_search_locations=[str(_CHECKOUT)])
        return None

    @staticmethod
    def _alias(fullname: str, target: str) -> importlib.machinery.ModuleSpec:
        return importlib.machinery.ModuleSpec(fullname, _AliasLoader(target, fullname),
                                              is_package=fullname in (_TOP, _SUB))


_FINDER = _Finder()


def install() -> None:
    """Put the finder first on ``sys.meta_path`` (idempotent; done when :mod:`cdpsym` is imported)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.insert(0, _FINDER)


install()
