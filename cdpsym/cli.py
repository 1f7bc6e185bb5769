"""The ``cdpsym`` command: ``list``, ``verify``, ``latex``.

Exit codes: 0 success; 1 a theorem failed verification; 3 bad input (an
unknown theorem name, a bad option) — with a one-line message, never a
traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Sequence

from cdpsym.errors import CdpsymError

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 3


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 with usage; we keep 3 for bad input
        self.print_usage(sys.stderr)
        print(f"cdpsym: error: {message}", file=sys.stderr)
        raise SystemExit(EXIT_BAD_INPUT)


def _parser() -> argparse.ArgumentParser:
    p = _Parser(prog="cdpsym", description="Proof-checking and derivation workbench for differential privacy.")
    sub = p.add_subparsers(dest="command", required=True)

    lp = sub.add_parser("list", help="the theorem library: name, REFERENCE item, source, statement")
    lp.add_argument("--json", action="store_true", help="machine-readable output")
    lp.add_argument("--axioms", action="store_true", help="also list the trusted base (cited axioms)")

    vp = sub.add_parser("verify", help="verify theorems (all by default): symbolic, numeric, property")
    vp.add_argument("names", nargs="*", metavar="NAME", help="theorems to verify (default: the whole library)")
    vp.add_argument("--json", action="store_true", help="print a JSON list of reports")
    vp.add_argument("--dps", type=int, default=50, help="working precision of the numeric check (default 50)")
    vp.add_argument("--examples", type=int, default=None, help="property-check examples per theorem")
    vp.add_argument("--no-axioms", action="store_true", help="skip the numeric checks of the cited axioms")
    vp.add_argument("--quiet", action="store_true", help="no progress lines on stderr")

    xp = sub.add_parser("latex", help="the derivation as LaTeX")
    xp.add_argument("name", metavar="NAME")
    xp.add_argument("--standalone", action="store_true", help="a complete document (compiles with pdflatex)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "list":
            return _list(args)
        if args.command == "verify":
            return _verify(args)
        if args.command == "latex":
            return _latex(args)
    except CdpsymError as exc:
        print(f"cdpsym: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("cdpsym: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug in cdpsym: say so in one line
        import os

        if os.environ.get("CDPSYM_DEBUG"):
            raise
        print(f"cdpsym: internal error: {type(exc).__name__}: {exc} (set CDPSYM_DEBUG=1 for the traceback)",
              file=sys.stderr)
        return 4
    return EXIT_BAD_INPUT


def _statement(thm) -> str:
    return thm.notion or "; ".join(p.relation.plain() for p in thm.parts)


def _list(args) -> int:
    import theorems

    rows = [{"name": t.name, "reference": t.reference, "source": t.source, "title": t.title,
             "statement": _statement(t), "kind": "theorem"} for t in theorems.LIBRARY]
    if args.axioms:
        rows += [{"name": a.name, "reference": getattr(a, "reference", ""), "source": a.citation, "title": a.title,
                  "statement": a.relation.plain(), "kind": "axiom"} for a in theorems.AXIOMS]
    if args.json:
        print(json.dumps(rows, indent=2))
        return EXIT_OK
    _table(["name", "ref", "source", "statement"],
           [[r["name"], r["reference"], r["source"], r["statement"]] for r in rows])
    return EXIT_OK


def _verify(args) -> int:
    import theorems

    if args.dps < 15 or args.dps > 10000:
        raise_bad(f"--dps must be between 15 and 10000, got --dps={args.dps}")
    if args.names:
        targets = [theorems.get(n) for n in args.names]
    else:
        targets = list(theorems.LIBRARY) + ([] if args.no_axioms else list(theorems.AXIOMS))
    reports = []
    t0 = time.perf_counter()
    for i, thm in enumerate(targets, 1):
        if not args.quiet and not args.json:
            print(f"[{i}/{len(targets)}] verifying {thm.name} …", file=sys.stderr, flush=True)
        from cdpsym.verify.runner import verify_theorem

        reports.append(verify_theorem(thm, dps=args.dps, property_examples=args.examples))
    failed = [r for r in reports if r.verdict == "failed"]
    if args.json:
        print(json.dumps([r.to_json() for r in reports], indent=2, default=str))
    else:
        rows = [[r.name, r.reference, r.checks["symbolic"]["status"], _num(r), _prop(r), r.verdict,
                 f"{r.seconds:.2f}"] for r in reports]
        _table(["theorem", "source", "symbolic", "numeric", "property", "verdict", "seconds"], rows)
        total = time.perf_counter() - t0
        counts = {}
        for r in reports:
            counts[r.verdict] = counts.get(r.verdict, 0) + 1
        summary = ", ".join(f"{n} {v}" for v, n in sorted(counts.items()))
        print(f"\n{len(reports)} verified in {total:.1f} s: {summary}")
        for r in failed:
            _explain(r)
    return EXIT_FAILED if failed else EXIT_OK


def raise_bad(msg: str) -> None:
    from cdpsym.errors import InvalidParameter

    raise InvalidParameter(msg)


def _num(r) -> str:
    c = r.checks["numeric"]
    if c["status"] == "skipped":
        return "skipped"
    return f"{c['status']} ({len(c.get('comparisons', []))}@{c['digits']}d)"


def _prop(r) -> str:
    c = r.checks["property"]
    if c["status"] == "skipped":
        return "skipped"
    return f"{c['status']} ({c['examples']} ex)"


def _explain(r) -> None:
    print(f"\n{r.name}: FAILED", file=sys.stdout)
    sym = r.checks["symbolic"]
    for part in sym.get("parts", []):
        if part["status"] != "proved" and part.get("detail"):
            print(f"  {part['name']}: {part['detail']}")
    for st in sym.get("steps", []):
        if st["status"] == "failed":
            print(f"  step {st['step']} of {st['part']} ({st['method']}): {st['detail']}")
    for c in r.checks["numeric"].get("comparisons", []):
        if not c["ok"]:
            print(f"  numeric: {c['witness']} at {c['point']}: {c['truth']} {c['op']} {c['bound']} is false")
    ce = r.checks["property"].get("counterexample")
    if ce:
        print(f"  property counterexample (shrunk): {ce}")


def _latex(args) -> int:
    import theorems

    thm = theorems.get(args.name)
    if not hasattr(thm, "parts"):
        raise_bad(f"{args.name} is an axiom (cited, no derivation); `cdpsym latex` takes a theorem")
    print(thm.latex(standalone=args.standalone))
    return EXIT_OK


def _table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)] if rows else [len(h) for h in header]
    widths = [min(w, 70) for w in widths]

    def fmt(row):
        cells = []
        for x, w in zip(row, widths):
            s = str(x)
            cells.append(s if len(s) <= w else s[: w - 1] + "…")
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    print(fmt(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(fmt(r))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
