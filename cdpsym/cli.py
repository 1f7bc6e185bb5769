"""The ``cdpsym`` command: ``list``, ``verify``, ``latex``; accounting: ``epsilon``, ``delta``, ``calibrate``.

::

    cdpsym epsilon "compose(k=1000, Gaussian(sensitivity=1, sigma=2))" --delta 1e-10 [--digits N] [--json]
    cdpsym epsilon "zCDP(rho=1/2)" --delta 1e-6          # the zCDP -> DP conversions side by side
    cdpsym delta "compose(RandomizedResponse(eps=0.1), k=1000)" --eps 2
    cdpsym calibrate gaussian --eps 1 --delta 1e-6 [--k 500] [--sensitivity 1]   # smallest sigma, rounded up
    cdpsym calibrate pure-dp --eps 1 --delta 1e-6 --k 500                        # largest eps0, rounded down

Subjects are parsed by the claim grammar (:mod:`cdpsym.claims.grammar`) and
numbers by the safe expression parser (:mod:`cdpsym.expr.parse`): exactly,
``1e-10`` is 10^-10; nothing is evaluated.

Exit codes: 0 success; 1 a theorem failed verification; 2 the requested
digits could not be certified (``epsilon``/``delta``/``calibrate``); 3 bad
input (an unknown theorem name, a bad option, a malformed subject or number,
a parameter outside its domain) — with a one-line message, never a
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

EXIT_OK, EXIT_FAILED, EXIT_UNCERTIFIED, EXIT_BAD_INPUT = 0, 1, 2, 3


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
    lp.add_argument("--markdown", action="store_true", help="the catalogue as a Markdown table (docs/catalogue.md)")

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

    _accounting_parsers(sub)
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
        if args.command in ("epsilon", "delta", "calibrate"):
            from cdpsym.errors import PrecisionError

            try:
                return _ACCOUNTING[args.command](args)
            except PrecisionError as exc:
                print(f"cdpsym: cannot certify: {exc}", file=sys.stderr)
                return EXIT_UNCERTIFIED
    except CdpsymError as exc:
        print(f"cdpsym: error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyboardInterrupt:
        print("cdpsym: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `cdpsym list | head`: the reader left; not an error
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK
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
    if args.markdown:
        print("# Theorem catalogue\n\nGenerated by `cdpsym list --markdown --axioms`; do not edit by hand.\n")
        print("| name | kind | REFERENCE | source | statement |\n| --- | --- | --- | --- | --- |")
        for r in rows:
            cells = [f"`{r['name']}`", r["kind"], r["reference"], r["source"], r["statement"]]
            print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
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
        rows = [[r.name, r.reference, _short_source(r.source), r.checks["symbolic"]["status"], _num(r), _prop(r),
                 r.verdict, f"{r.seconds:.2f}"] for r in reports]
        _table(["theorem", "ref", "source", "symbolic", "numeric", "property", "verdict", "seconds"], rows)
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


def _short_source(source: str) -> str:
    """``Bun & Steinke 2016, Prop 1.3 and Lemma 3.5, arXiv:1605.02065`` -> without the arXiv id."""
    return ", ".join(p for p in source.split(", ") if not p.startswith("arXiv:"))[:48]


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


# -- accounting: epsilon, delta, calibrate ------------------------------------------------------------------

_SUBJECT_HELP = """\
SUBJECT is a mechanism or a notion, e.g.
  Gaussian(sensitivity=1, sigma=2)     Laplace(sensitivity=1, scale=1)     RandomizedResponse(eps=0.1)
  compose(k=1000, Gaussian(1, 2))      compose(Gaussian(1, 2), Laplace(1, 3), k=10)
  zCDP(rho=1/2)  or  0.5-zCDP          RDP(alpha=8, eps=1/2)
  DP(eps=1)  or  1-DP                  compose(k=100, DP(eps=0.1))   (pure DP: its exact worst case,
                                                                       randomized response, Kairouz-Oh-Viswanath)
Numbers are exact: 1e-10, 0.25, 1/3, 2^-20, sqrt(2), exp(-20).
"""

_EPSILON_HELP = """\
Certified epsilon for (epsilon, DELTA)-DP: a mechanism's exact least epsilon (an Arb ball, rounded up), or
for zCDP(rho=...) the conversions side by side (CKS20, BS16, and the Gaussian witness no conversion can beat),
or for compositions of Laplace mechanisms certified lower and upper bounds and their gap.

"""

_DELTA_HELP = """\
Certified delta(EPS): the exact least delta with (EPS, delta)-DP, rounded up.

"""

_CALIBRATE_HELP = """\
calibrate gaussian --eps E --delta D [--k K] [--sensitivity S]
    the smallest sigma such that the K-fold Gaussian mechanism with sensitivity S is (E, D)-DP
    (rounded up: any sigma at least the printed value works)
calibrate pure-dp --eps E --delta D [--k K]
    the largest per-step eps0 such that every K-fold composition of eps0-DP mechanisms is (E, D)-DP
    (exact, Kairouz-Oh-Viswanath; rounded down: any eps0 at most the printed value works)
K defaults to 1, S to 1; numbers are exact (1e-6 is 10^-6).
"""


def _accounting_parsers(sub) -> None:  # type: ignore[no-untyped-def]
    fmt = argparse.RawDescriptionHelpFormatter

    def common(parser: argparse.ArgumentParser) -> None:
        parser.add_argument("--digits", type=int, default=None, metavar="N",
                            help="certified significant digits (default: the accountant's, 10)")
        parser.add_argument("--json", action="store_true", help="print the certified result as JSON")

    ep = sub.add_parser("epsilon", help="certified epsilon of a mechanism or notion at a given delta",
                        description=_EPSILON_HELP + _SUBJECT_HELP, formatter_class=fmt)
    ep.add_argument("subject", metavar="SUBJECT", help="a mechanism or notion (see above)")
    ep.add_argument("--delta", required=True, metavar="D", help="delta in (0, 1), exact (1e-10 is 10^-10)")
    common(ep)

    dp = sub.add_parser("delta", help="certified delta of a mechanism at a given epsilon",
                        description=_DELTA_HELP + _SUBJECT_HELP, formatter_class=fmt)
    dp.add_argument("subject", metavar="SUBJECT", help="a mechanism or pure-DP notion (see above)")
    dp.add_argument("--eps", required=True, metavar="E", help="epsilon >= 0, exact")
    common(dp)

    cp = sub.add_parser("calibrate", help="smallest Gaussian sigma / largest pure-DP eps0 for a target (eps, delta)",
                        description=_CALIBRATE_HELP, formatter_class=fmt)
    cp.add_argument("target", choices=["gaussian", "pure-dp"], metavar="{gaussian,pure-dp}",
                    help="what to calibrate: the Gaussian noise sigma, or the per-step pure-DP eps0")
    cp.add_argument("--eps", required=True, metavar="E", help="target epsilon")
    cp.add_argument("--delta", required=True, metavar="D", help="target delta in (0, 1)")
    cp.add_argument("--k", default="1", metavar="K", help="number of compositions (default 1)")
    cp.add_argument("--sensitivity", default=None, metavar="S", help="sensitivity (gaussian only; default 1)")
    common(cp)


def _number(option: str, text: str):  # type: ignore[no-untyped-def]
    """A command-line number, parsed exactly and safely (a Rational when it is one)."""
    from cdpsym.expr.parse import ParseError, parse_number

    try:
        return parse_number(text)
    except ParseError as exc:
        raise type(exc)(f"{option} {text!r}: {exc}", text=exc.text, position=exc.position) from None


def _count(option: str, text: str) -> int:
    from cdpsym.claims import MAX_K

    value = _number(option, text)
    if not (value.is_Integer and 1 <= value <= MAX_K):
        raise_bad(f"{option} must be a positive integer at most 10^9, got {option} {text}")
    return int(value)


def _subject(text: str):  # type: ignore[no-untyped-def]
    from cdpsym.claims import ParseError, parse_subject

    try:
        return parse_subject(text, symbols=None)
    except ParseError as exc:
        raise type(exc)(f"SUBJECT {text!r}: {exc}", text=exc.text, position=exc.position) from None


def _digits_kw(args) -> dict:  # type: ignore[no-untyped-def]
    return {} if args.digits is None else {"digits": args.digits}


def _pure_dp_worst_case(subject):  # type: ignore[no-untyped-def]
    """For ``DP(eps)`` or a composition of pure-DP notions: the exact worst case, randomized response.

    Every eps-DP mechanism is a post-processing of ``RandomizedResponse(eps)``, and
    every adaptive composition of eps_i-DP mechanisms is dominated by the product of
    the ``RandomizedResponse(eps_i)`` (Kairouz, Oh & Viswanath 2015, Thm 3.3 and 3.5,
    arXiv:1311.0776; Murtagh & Vadhan 2016 for unequal eps_i), so the optimal
    (epsilon, delta) of the notion is that of the randomized responses.  ``None`` when
    *subject* is not of that form.
    """
    from cdpsym.claims import NotionComposition
    from cdpsym.mechanisms import RandomizedResponse, compose
    from cdpsym.notions import PureDP

    if isinstance(subject, PureDP):
        return RandomizedResponse(eps=subject.eps)
    if isinstance(subject, NotionComposition):
        parts = [_pure_dp_worst_case(p) for p in subject.parts]
        if all(p is not None for p in parts):
            return compose(*parts, k=subject.k)
    return None


def _mechanism_for(subject, command: str):  # type: ignore[no-untyped-def]
    """``(mechanism, note)``: the mechanism to account, and a note when it stands for a notion."""
    from cdpsym.mechanisms import Composition, Gaussian, Laplace, RandomizedResponse

    if isinstance(subject, (Gaussian, Laplace, RandomizedResponse, Composition)):
        return subject, None
    worst = _pure_dp_worst_case(subject)
    if worst is not None:
        return worst, (f"every mechanism satisfying {subject!r} is dominated by {worst!r}, which attains it "
                       "(Kairouz-Oh-Viswanath)")
    what = ("a mechanism, zCDP(rho=...), RDP(alpha=..., eps=...), DP(eps=...) or a composition of DP(eps=...)"
            if command == "epsilon" else "a mechanism, DP(eps=...) or a composition of DP(eps=...)")
    raise_bad(f"cdpsym {command} takes {what}; got {subject!r}")
    return None, None  # pragma: no cover - raise_bad raises


def _describe(c, label: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """``epsilon <= 1.2345 (certified to 5 digits; exact: ..., rounded up)``."""
    rel = "<=" if c.direction == "up" else ">="
    if c.exact:
        kind = "exact"
    else:
        kind = "upper bound" if c.direction == "up" else "lower bound"
    name = label or c.quantity
    return f"{name} {rel} {c.rounded} (certified to {c.digits} digits; {kind}: {c.method}, rounded {c.direction})"


def _print_result(result, subject_text: str, note: str | None, as_json: bool) -> None:  # type: ignore[no-untyped-def]
    from cdpsym.accounting import CertifiedBounds

    if as_json:
        payload = dict(result.to_json())
        payload["subject"] = subject_text
        if note:
            payload["note"] = note
        print(json.dumps(payload, indent=2))
        return
    if isinstance(result, CertifiedBounds):
        print(_describe(result.lower))
        print(_describe(result.upper))
        gap = result.gap
        if "." in gap and "e" not in gap.lower():
            gap = gap.rstrip("0").rstrip(".")
        print(f"gap = {gap} (no exact {result.upper.quantity} is known here: two-sided certified bounds)")
    else:
        print(_describe(result))
    if note:
        print(f"  ({note})")


def _epsilon(args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting
    from cdpsym.notions import RDP, ZCDP

    subject = _subject(args.subject)
    delta = _number("--delta", args.delta)
    if isinstance(subject, ZCDP):
        return _zcdp(subject, delta, args)
    if isinstance(subject, RDP):
        result = accounting.rdp_epsilon(alpha=subject.alpha, rdp_eps=subject.eps, delta=delta, **_digits_kw(args))
        _print_result(result, repr(subject), None, args.json)
        return EXIT_OK
    mechanism, note = _mechanism_for(subject, "epsilon")
    result = accounting.epsilon(mechanism, delta=delta, **_digits_kw(args))
    _print_result(result, repr(subject), note, args.json)
    return EXIT_OK


#: the zCDP -> (eps, delta)-DP conversions, in the order printed: (key, label, what it is)
_ZCDP_ROWS = [
    ("cks20", "CKS20", "Canonne-Kamath-Steinke 2020: valid for every rho-zCDP mechanism"),
    ("bs16", "BS16", "Bun-Steinke 2016, Prop. 1.3: valid for every rho-zCDP mechanism"),
    ("exact_gaussian", "Gaussian witness",
     "the exact epsilon of the Gaussian mechanism with this rho: no conversion can give less"),
]


def _zcdp(subject, delta, args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting

    results = accounting.zcdp_epsilon(rho=subject.rho, delta=delta, **_digits_kw(args))
    if args.json:
        payload = {key: c.to_json() for key, c in results.items()}
        payload["subject"] = repr(subject)
        print(json.dumps(payload, indent=2))
        return EXIT_OK
    print(f"{subject!r} => (epsilon, delta)-DP at delta={args.delta.strip()}:")
    keys = [key for key, _, _ in _ZCDP_ROWS if key in results] + [k for k in results if
                                                                  k not in {r[0] for r in _ZCDP_ROWS}]
    labels = {key: label for key, label, _ in _ZCDP_ROWS}
    notes = {key: note for key, _, note in _ZCDP_ROWS}
    width = max(len(labels.get(k, k)) for k in keys)
    for key in keys:
        c = results[key]
        print(f"  {labels.get(key, key).ljust(width)}  {_describe(c)}")
        if key in notes:
            print(f"  {' ' * width}    ({notes[key]})")
    return EXIT_OK


def _delta(args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting

    subject = _subject(args.subject)
    eps = _number("--eps", args.eps)
    mechanism, note = _mechanism_for(subject, "delta")
    result = accounting.delta(mechanism, eps=eps, **_digits_kw(args))
    _print_result(result, repr(subject), note, args.json)
    return EXIT_OK


def _calibrate(args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting

    eps = _number("--eps", args.eps)
    delta = _number("--delta", args.delta)
    k = _count("--k", args.k)
    if args.target == "gaussian":
        sensitivity = _number("--sensitivity", args.sensitivity) if args.sensitivity is not None else 1
        result = accounting.calibrate_sigma(eps=eps, delta=delta, k=k, sensitivity=sensitivity, **_digits_kw(args))
        label = "sigma"
        meaning = "the smallest sufficient sigma, rounded up: any sigma at least this works"
    else:
        if args.sensitivity is not None:
            raise_bad("--sensitivity applies to `calibrate gaussian` only")
        result = accounting.calibrate_eps0(eps=eps, delta=delta, k=k, **_digits_kw(args))
        label = "eps0"
        meaning = "the largest sufficient per-step eps0, rounded down: any eps0 at most this works"
    if args.json:
        payload = dict(result.to_json())
        payload["target"] = args.target
        print(json.dumps(payload, indent=2))
        return EXIT_OK
    print(f"{label} = {result.rounded} ({meaning}; certified to {result.digits} digits; "
          f"{'exact' if result.exact else 'bound'}: {result.method})")
    return EXIT_OK


_ACCOUNTING = {"epsilon": _epsilon, "delta": _delta, "calibrate": _calibrate}


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
