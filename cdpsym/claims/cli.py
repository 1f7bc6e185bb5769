"""The ``cdpsym check`` command: one claim, or a file of claims (one per line, ``#`` comments).

Exit code (DESIGN.md): 0 the claim holds (proved or certified), 1 refuted, 2 undecided, 3 not a valid claim;
for a file, the most serious over its claims (3, then 1, then 2, then 0).  ``--json`` prints one JSON
object per claim (one per line for a file); a file run prints a progress line per claim on stderr and a
summary table.
"""

from __future__ import annotations

import json
import sys
import time

from cdpsym.claims.checker import DEFAULT_SECONDS, check
from cdpsym.expr.parse import shorten

__all__ = ["add_parser", "run"]

#: the largest claims file read, in bytes
MAX_FILE_BYTES = 1_000_000
#: the most claims in one file
MAX_CLAIMS = 10_000


def add_parser(sub, budget_options) -> None:  # type: ignore[no-untyped-def]
    cp = sub.add_parser("check", help="check a claim: proved, certified, refuted with a counterexample, or undecided",
                        description="Check a claim written as a paper states it (DESIGN.md, 'The claim language'). "
                                    "Exit code: 0 holds, 1 refuted, 2 undecided, 3 not a valid claim.")
    cp.add_argument("claim", nargs="?", metavar="CLAIM", help='e.g. "zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)), '
                                                             'delta)"')
    cp.add_argument("--file", metavar="PATH", help="check every claim of a file (one per line, '#' comments)")
    cp.add_argument("--json", action="store_true", help="one JSON object per claim")
    cp.add_argument("--latex", action="store_true", help="the derivation (or refutation) as LaTeX")
    cp.add_argument("--dps", type=int, default=50, metavar="N", help="working precision in digits (15..2000)")
    cp.add_argument("--seconds", type=float, default=DEFAULT_SECONDS, metavar="S",
                    help=f"search budget per claim for a proof and for a counterexample (default {DEFAULT_SECONDS:g})")
    budget_options(cp, "check")


def _severity(code: int) -> int:
    return {3: 4, 1: 3, 2: 2, 0: 1}.get(code, 4)


def run(args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym.errors import InvalidParameter

    if not 15 <= args.dps <= 2000:
        raise InvalidParameter(f"--dps must be between 15 and 2000, got {args.dps}")
    if not 0.1 <= args.seconds <= 600:
        raise InvalidParameter(f"--seconds must be between 0.1 and 600, got {args.seconds:g}")
    if (args.claim is None) == (args.file is None):
        raise InvalidParameter("give one claim, or --file PATH (not both)")
    if args.claim is not None:
        result = check(args.claim, dps=args.dps, seconds=args.seconds)
        if args.json:
            print(result.json())
        elif args.latex and result.verdict != "error":
            print(result.latex())
        else:
            print(result)
        return result.exit_code
    return _run_file(args)


def _read(path: str) -> list[tuple[int, str]]:
    from cdpsym.errors import InvalidParameter

    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise InvalidParameter(f"cannot read {shorten(path, 80)}: {exc.strerror}") from None
    if len(data) > MAX_FILE_BYTES:
        raise InvalidParameter(f"{shorten(path, 80)} is larger than {MAX_FILE_BYTES} bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidParameter(f"{shorten(path, 80)} is not UTF-8 text (byte {exc.start})") from None
    lines = []
    for number, line in enumerate(text.splitlines(), 1):
        body = line.split("#", 1)[0].strip() if not line.lstrip().startswith("#") else ""
        if body:
            lines.append((number, body))
    if len(lines) > MAX_CLAIMS:
        raise InvalidParameter(f"{shorten(path, 80)} has {len(lines)} claims (at most {MAX_CLAIMS})")
    return lines


def _run_file(args) -> int:  # type: ignore[no-untyped-def]
    claims = _read(args.file)
    worst = 0
    rows = []
    start = time.monotonic()
    for n, (line, text) in enumerate(claims, 1):
        result = check(text, dps=args.dps, seconds=args.seconds)
        print(f"[{n}/{len(claims)}] line {line}: {result.verdict} ({result.seconds:.2f} s)", file=sys.stderr,
              flush=True)
        if _severity(result.exit_code) > _severity(worst):
            worst = result.exit_code
        if args.json:
            obj = result.to_json()
            obj["line"] = line
            print(json.dumps(obj))
        rows.append((line, result))
    if not args.json:
        counts: dict[str, int] = {}
        for _, r in rows:
            counts[r.verdict] = counts.get(r.verdict, 0) + 1
        print(f"{'line':>5}  {'verdict':10} {'seconds':>7}  claim")
        for line, r in rows:
            print(f"{line:>5}  {r.verdict:10} {r.seconds:7.2f}  {shorten(r.claim, 70)}")
        summary = ", ".join(f"{v} {c}" for v, c in sorted(counts.items()))
        print(f"{len(rows)} claims in {time.monotonic() - start:.1f} s: {summary}")
    return worst
