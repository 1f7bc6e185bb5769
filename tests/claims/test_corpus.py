"""The claim corpus (tests/claims/corpus.txt, 200+ claims from REFERENCE.md and the seeds, each labelled
with its mathematical truth and, for false ones, a counterexample checked independently): the checker
never proves a false claim nor refutes a true one, and decides most of them."""

from __future__ import annotations

import pathlib

import pytest

from cdpsym.claims import check

CORPUS = pathlib.Path(__file__).with_name("corpus.txt")


def _claims() -> list[tuple[bool, str]]:
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        head = line.split(" # ")[0] if " # " in line else line
        truth, sep, claim = head.partition("|")
        if sep and truth.strip() in ("true", "false"):
            out.append((truth.strip() == "true", claim.strip()))
    return out


CLAIMS = _claims()


def test_the_corpus_is_large_and_balanced():
    assert len(CLAIMS) >= 200
    assert 0.3 < sum(t for t, _ in CLAIMS) / len(CLAIMS) < 0.7


@pytest.fixture(scope="module")
def verdicts():
    return [(truth, claim, check(claim)) for truth, claim in CLAIMS]


def test_no_unsound_verdict(verdicts):
    unsound = [(claim, r.verdict, r.message) for truth, claim, r in verdicts
               if (truth and r.verdict == "refuted") or (not truth and r.verdict in ("proved", "certified"))]
    assert not unsound, unsound


def test_most_claims_are_decided(verdicts):
    decided = sum(1 for truth, _, r in verdicts
                  if (truth and r.verdict in ("proved", "certified")) or (not truth and r.verdict == "refuted"))
    assert decided / len(verdicts) >= 0.75, f"{decided}/{len(verdicts)} decided"


def test_every_refutation_in_the_corpus_re_checks_with_its_command(verdicts):
    for truth, claim, r in verdicts:
        if r.verdict == "refuted" and r.counterexample.get("witness"):
            inner = r.counterexample["command"][len("cdpsym check "):].strip('"')
            assert check(inner).verdict == "refuted", (claim, inner)
