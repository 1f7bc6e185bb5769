"""Mutants fail: every library theorem's unsafe variants fail verification, caught by an independent check.

The protocol: each theorem module ``theorems/<name>.py`` (listed in ``theorems.MODULES``) defines

    def mutants() -> list[tuple[str, Theorem]]: ...

returning named unsafe variants (a constant scaled the wrong way, a square or factor dropped, a term removed),
built with the module's ``make(...)`` builders.  **A mutant belongs to the theorem whose name it keeps**: a mutant
of the main theorem ``module.theorem`` is a Theorem called ``module.theorem.name``; a module with ``LEMMAS``
returns, in the same list, mutants of each lemma, called by that lemma's name (``gaussian_cdp`` does this for
``gaussian_privacy_loss``).  A mutant named after no theorem of its module is an error.

Every theorem of ``theorems.LIBRARY`` (lemmas included) is discovered from ``theorems.MODULES`` when the tests are
collected, so a module added later is covered without editing this file; each needs at least one mutant unless
it is in ``EXEMPT``.  What is required of every mutant:

1. it is a mutant of the *statement*: some part's relation differs from the theorem's;
2. an **independent** check catches it: a failed comparison of the numeric check (the ground truth at 50 digits
   at the theorem's numeric points) or, when none fails, a counterexample of the property check
   (``PROPERTY_EXAMPLES`` draws).  A ground truth that raises, or a symbolic failure alone, does not count.
   Since the verdict is the weakest link (``cdpsym.verify.runner``), a caught mutant's verification *fails*;
3. a part whose *left side* the mutant changes (a claimed bound inside ``Pr[...]`` or a hockey-stick
   divergence) has a ground truth that reads the statement: its values at the numeric points change with the
   mutant.  A ground truth that closes over the module's own constant would leave such a part unchecked.

The default run skips the symbolic check (a failing sign proof can take 20 s) and runs the property check only
for mutants the numeric check misses.  ``test_mutant_verification_fails`` (marked ``slow``) runs
``mutant.verify()`` in full and also requires that the symbolic check neither proves nor certifies a mutant:
that would be a soundness bug of the kernel.
"""

from __future__ import annotations

import functools
import importlib

import pytest

import theorems
from cdpsym.verify.numeric import numeric_check
from cdpsym.verify.property import property_check

PROPERTY_EXAMPLES = 10  # draws for a mutant the numeric points miss (the default run)

# Theorems with no numeric statement to mutate, each with the reason.  Keep it empty unless a theorem truly has
# no number, bound or formula that a mutant could get wrong.
EXEMPT: dict[str, str] = {}


def _library():
    """(module name, theorem name) for every theorem of the library, lemmas first, in MODULES order."""
    out = []
    for module_name in theorems.MODULES:
        module = importlib.import_module(f"theorems.{module_name}")
        out += [(module_name, lemma.name) for lemma in getattr(module, "LEMMAS", ())]
        out.append((module_name, module.theorem.name))
    return out


LIBRARY = _library()


@functools.lru_cache(maxsize=None)
def _module_mutants(module_name):
    """{theorem name: ((label, mutant), ...)} for the module's mutants, attributed by the mutant's name."""
    module = importlib.import_module(f"theorems.{module_name}")
    if not callable(getattr(module, "mutants", None)):
        pytest.fail(f"theorems.{module_name} defines no mutants()")
    found = module.mutants()
    assert isinstance(found, list), f"theorems.{module_name}.mutants() must return a list"
    names = {t.name for t in (*getattr(module, "LEMMAS", ()), module.theorem)}
    out: dict = {}
    for label, mutant in found:
        assert isinstance(label, str) and label, f"theorems.{module_name}: every mutant needs a name"
        assert mutant.name in names, \
            f"theorems.{module_name}: mutant {label!r} is called {mutant.name!r}, which is none of {sorted(names)}"
        out.setdefault(mutant.name, []).append((label, mutant))
    labels = [label for label, _ in found]
    assert len(set(labels)) == len(labels), f"theorems.{module_name}: mutant names repeat: {labels}"
    return {name: tuple(ms) for name, ms in out.items()}


def _mutants(module_name, name):
    """(the theorem ``name``, its mutants) -- a test failure saying what is missing."""
    module = importlib.import_module(f"theorems.{module_name}")
    original = next(t for t in (*getattr(module, "LEMMAS", ()), module.theorem) if t.name == name)
    found = _module_mutants(module_name).get(name)
    if not found:
        kind = "theorem" if original is module.theorem else "lemma"
        pytest.fail(f"theorems.{module_name}.mutants() has no mutant of its {kind} {name!r} "
                    f"(a mutant is attributed by its Theorem.name)")
    return original, found


@functools.lru_cache(maxsize=None)
def _numeric(module_name, name, label=None):
    """The numeric check of theorem ``name`` (``label=None``) or of its mutant ``label``, computed once."""
    original, found = _mutants(module_name, name)
    return numeric_check(original if label is None else dict(found)[label])


def _changed_parts(original, mutant):
    """The parts of ``mutant`` whose relation differs from the same part of ``original`` (and all new ones)."""
    before = {p.name: p.relation for p in original.parts}
    return [p for p in mutant.parts if p.name not in before or not _same(p.relation, before[p.name])]


def _lhs_changed(original, mutant):
    """Names of the parts with a ground truth whose left side ``mutant`` changes."""
    before = {p.name: p.relation.lhs for p in original.parts}
    return [p.name for p in mutant.parts
            if p.ground_truth is not None and p.name in before and p.relation.lhs != before[p.name]]


def _same(r1, r2):
    return (r1.op, r1.lhs, r1.rhs) == (r2.op, r2.lhs, r2.rhs)


def _caught(module_name, name, label):
    """How an independent check refutes the mutant ``label`` of theorem ``name`` ("" when none does)."""
    try:
        failed = [c for c in _numeric(module_name, name, label).comparisons if not c.ok]
    except Exception:  # noqa: BLE001 - a ground truth that raises refutes nothing: try the property check
        failed = []
    if failed:
        c = failed[0]
        return f"numeric: {c.part} at {dict(c.point)}, {c.witness}: {c.truth} {c.op} {c.bound} fails"
    prop = property_check(dict(_mutants(module_name, name)[1])[label], examples=PROPERTY_EXAMPLES)
    if prop.status == "failed" and prop.counterexample:
        return f"property: counterexample {dict(prop.counterexample)}"
    return ""


# -- coverage -----------------------------------------------------------------------------------------------

def test_every_library_theorem_is_covered():
    covered = {name for _, name in LIBRARY}
    assert covered == {t.name for t in theorems.LIBRARY}
    assert set(EXEMPT) <= covered, f"exempt names not in the library: {set(EXEMPT) - covered}"
    assert all(reason.strip() for reason in EXEMPT.values())


@pytest.mark.parametrize("module_name, name", [x for x in LIBRARY if x[1] not in EXEMPT], ids=lambda x: x)
def test_mutants_change_the_statement(module_name, name):
    original, found = _mutants(module_name, name)
    for label, mutant in found:
        assert _changed_parts(original, mutant), f"{name}: {label!r} does not change the statement"


# -- the independent checks catch every mutant -------------------------------------------------------------

@pytest.mark.parametrize("module_name, name", [x for x in LIBRARY if x[1] not in EXEMPT], ids=lambda x: x)
def test_mutants_are_caught_by_an_independent_check(module_name, name):
    _, found = _mutants(module_name, name)
    missed = [label for label, _ in found if not _caught(module_name, name, label)]
    assert not missed, f"{name}: neither the numeric nor the property check refutes {missed}"


@pytest.mark.parametrize("module_name, name", [x for x in LIBRARY if x[1] not in EXEMPT], ids=lambda x: x)
def test_ground_truths_read_the_statement(module_name, name):
    """A part whose left side a mutant changes must get other ground-truth values (the truth reads the statement)."""
    original, found = _mutants(module_name, name)
    closed = []
    for label, mutant in found:
        lhs_changed = _lhs_changed(original, mutant)
        if not lhs_changed:
            continue
        before, after = {}, {}
        for c in _numeric(module_name, name).comparisons:
            before.setdefault(c.part, []).append(c.truth)
        for c in _numeric(module_name, name, label).comparisons:
            after.setdefault(c.part, []).append(c.truth)
        closed += [f"{label}: part {p}" for p in lhs_changed if after.get(p) == before.get(p)]
    assert not closed, f"{name}: ground truth unchanged although the statement's left side changed: {closed}"


# -- the whole verification (slow) ------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("module_name, name", [x for x in LIBRARY if x[1] not in EXEMPT], ids=lambda x: x)
def test_mutant_verification_fails(module_name, name):
    _, found = _mutants(module_name, name)
    for label, mutant in found:
        report = mutant.verify()
        assert report.verdict == "failed", f"{name}: {label!r} is {report.verdict}"
        assert report.checks["symbolic"]["status"] not in ("proved", "certified"), \
            f"{name}: the kernel {report.checks['symbolic']['status']} the false statement {label!r}"
        numeric_failed = any(not c["ok"] for c in report.checks["numeric"]["comparisons"])
        assert numeric_failed or report.checks["property"].get("counterexample"), \
            f"{name}: {label!r} fails only symbolically"
