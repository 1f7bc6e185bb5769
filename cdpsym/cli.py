"""The ``cdpsym`` command: ``list``, ``verify``, ``latex``, ``bib``; accounting: ``epsilon``, ``delta``, ``calibrate``.

::

    cdpsym epsilon "compose(k=1000, Gaussian(sensitivity=1, sigma=2))" --delta 1e-10 [--digits N] [--json]
    cdpsym epsilon "zCDP(rho=1/2)" --delta 1e-6          # the zCDP -> DP conversions side by side
    cdpsym delta "compose(RandomizedResponse(eps=0.1), k=1000)" --eps 2
    cdpsym calibrate gaussian --eps 1 --delta 1e-6 [--k 500] [--sensitivity 1]   # smallest sigma, rounded up
    cdpsym calibrate pure-dp --eps 1 --delta 1e-6 --k 500                        # largest eps0, rounded down

Subjects are parsed by the claim grammar (:mod:`cdpsym.claims.grammar`) and
numbers by the safe expression parser (:mod:`cdpsym.expr.parse`): exactly,
``1e-10`` is 10^-10; nothing is evaluated.

Budgets.  Every command takes ``--timeout SECONDS`` (default 30; for
``verify`` 60 *per theorem*, plus 0.01 s per ``--examples``) and ``--memory MB``
(default 4096: the address space, ``RLIMIT_AS``).  Work whose cost is known in advance is refused up
front: ``verify --dps`` at most 2000, ``--examples`` at most 10000 (``0``
skips the property checks), ``--digits`` at most 1000, ``--k`` at most 10^9,
and an expression at most 2000 characters.  Output is buffered and printed only
when the command succeeds: a command that runs out of time or memory prints
one line on stderr and nothing on stdout.  Run as a command (``main()``
without arguments), the work happens in a forked child that the parent kills
5 s past its deadline even if it is stuck in native code.

Exit codes: 0 success; 1 a theorem failed verification; 2 no answer within the
means: the requested digits could not be certified, the time or memory
budget ran out, or well-posed work was refused up front because its
predictable cost is beyond a limit (``--digits`` above 1000, ``--k`` or a
composed k above 10^9, too many distinct privacy losses, too fine a
lattice; ``cdpsym: refused up front: ...``, saying what to change); 3 bad input (an unknown theorem name, a bad option, a
malformed subject or number, a parameter outside its domain) — with a one-line
message naming the parameter, the (abbreviated) value and the column, never a
traceback; 4 a bug in cdpsym (``internal error``).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import re
import sys
import time
from typing import Sequence

from cdpsym.budget import Budget, BudgetExceeded
from cdpsym.errors import CdpsymError

__all__ = ["main"]

EXIT_OK, EXIT_FAILED, EXIT_UNCERTIFIED, EXIT_BAD_INPUT, EXIT_INTERNAL = 0, 1, 2, 3, 4

#: ``verify --dps``: the working precision of the numeric check
MIN_DPS, MAX_DPS = 15, 2000
#: ``verify --examples``: property-check examples per theorem (0 skips the property checks)
MAX_EXAMPLES = 10000
#: ``--timeout`` default (seconds) per command; for ``verify`` it is per theorem
DEFAULT_TIMEOUT = {"list": 30.0, "verify": 60.0, "latex": 300.0, "bib": 30.0, "epsilon": 30.0, "delta": 30.0, "calibrate": 30.0,
                   "check": 60.0}
MAX_TIMEOUT = 86400.0
#: ``verify`` without ``--timeout``: seconds added to the budget per requested property example
EXAMPLE_SECONDS = 0.01
#: ``--memory`` (MB of address space)
DEFAULT_MEMORY, MIN_MEMORY, MAX_MEMORY = 4096, 256, 1 << 20
#: longest echo of a user's value in a message, and longest message
SHOWN, MESSAGE_LIMIT = 60, 600


def _shown(text: str) -> str:
    """A user's value as echoed in a message: quoted, control characters escaped, at most ~60 characters."""
    if len(text) <= SHOWN:
        return repr(text)
    return repr(text[: SHOWN - 10] + "…") + f" ({len(text)} characters)"


def _one_line(message: str) -> str:
    """*message* as one printable line: newlines become spaces, other control characters are escaped,
    runs of more than 80 characters without a space are cut, and the whole is at most ~600 characters."""
    message = message.replace("\r\n", " ").replace("\n", " ")
    message = "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in message)
    message = re.sub(r"\S{81,}", lambda m: m.group(0)[:60] + f"…[{len(m.group(0))} characters]", message)
    if len(message) > MESSAGE_LIMIT:
        message = message[: MESSAGE_LIMIT - 100] + " … " + message[-97:]
    return message


def _fail(message: str, prefix: str = "error") -> None:
    print(f"cdpsym: {prefix}: {_one_line(message)}" if prefix else f"cdpsym: {_one_line(message)}",
          file=sys.stderr, flush=True)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 with usage; we keep 3 for bad input, on one line
        _fail(f"{message} (see `{self.prog} --help`)")
        raise SystemExit(EXIT_BAD_INPUT)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not 0 < value <= MAX_TIMEOUT:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"must be a number of seconds in (0, {MAX_TIMEOUT:g}], got {_shown(text)}")
    return value


def _megabytes(text: str) -> int:
    try:
        value = int(text) if len(text) < 20 else -1
    except ValueError:
        value = -1
    if not MIN_MEMORY <= value <= MAX_MEMORY:
        raise argparse.ArgumentTypeError(f"must be a whole number of megabytes between {MIN_MEMORY} and "
                                         f"{MAX_MEMORY}, got {_shown(text)}")
    return value


def _budget_options(parser: argparse.ArgumentParser, command: str) -> None:
    seconds = DEFAULT_TIMEOUT[command]
    if command == "verify":  # None: 60 s, plus 0.01 s per requested property example (see _verify_timeout)
        default, shown = None, f"{seconds:g}, plus {EXAMPLE_SECONDS:g} s per --examples"
        what = "time budget per theorem"
    else:
        default, shown, what = seconds, f"{seconds:g}", "time budget"
    parser.add_argument("--timeout", type=_seconds, default=default, metavar="SECONDS",
                        help=f"{what} (default {shown}); when it runs out: a one-line message, nothing on stdout, "
                             "exit 2")
    parser.add_argument("--memory", type=_megabytes, default=DEFAULT_MEMORY, metavar="MB",
                        help=f"memory budget, address space in MB (default {DEFAULT_MEMORY}; at least {MIN_MEMORY})")


def _verify_timeout(args) -> float:  # type: ignore[no-untyped-def]
    """``verify``'s budget per theorem: ``--timeout``, else 60 s plus 0.01 s per requested example."""
    if args.timeout is not None:
        return args.timeout
    return DEFAULT_TIMEOUT["verify"] + EXAMPLE_SECONDS * (args.examples or 0)


def _parser() -> argparse.ArgumentParser:
    from cdpsym import __version__

    p = _Parser(prog="cdpsym", description="Proof-checking and derivation workbench for differential privacy.",
                epilog="Every command takes --timeout SECONDS and --memory MB. Exit codes: 0 success, 1 a theorem "
                       "failed verification, 2 no answer within the means (digits not certifiable, time or memory "
                       "budget exceeded), 3 bad input.")
    p.add_argument("--version", action="version", version=f"cdpsym {__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    lp = sub.add_parser("list", help="the theorem library: name, REFERENCE item, source, statement",
                        description="The theorem library. The table fits 100 columns (long sources and statements "
                                    "are cut with '…' or wrapped); --json and --markdown give the full text.")
    lp.add_argument("--json", action="store_true", help="machine-readable output")
    lp.add_argument("--axioms", action="store_true", help="also list the trusted base (cited axioms)")
    lp.add_argument("--markdown", action="store_true", help="the catalogue as a Markdown table (docs/catalogue.md)")
    _budget_options(lp, "list")

    vp = sub.add_parser("verify", help="verify theorems (all by default): symbolic, numeric, property")
    vp.add_argument("names", nargs="*", metavar="NAME", help="theorems to verify (default: the whole library)")
    vp.add_argument("--json", action="store_true", help="print a JSON list of reports")
    vp.add_argument("--dps", type=int, default=50, metavar="N",
                    help=f"working precision of the numeric check, {MIN_DPS}..{MAX_DPS} (default 50; precision costs "
                         "time: the quadratures of some axioms take minutes above about 150 digits)")
    vp.add_argument("--examples", type=int, default=None, metavar="N",
                    help=f"property-check examples per theorem, 0..{MAX_EXAMPLES} (default: the theorem's own; "
                         "0 skips the property checks, so a verdict is at best 'supported')")
    vp.add_argument("--no-axioms", action="store_true", help="skip the numeric checks of the cited axioms")
    vp.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    vp.add_argument("--jobs", type=int, default=None, metavar="N",
                    help="theorems verified in parallel (default: the machine's cores, at most 4; 1 = one process)")
    _budget_options(vp, "verify")

    xp = sub.add_parser("latex", help="the derivation as LaTeX")
    xp.add_argument("name", metavar="NAME", nargs="?")
    xp.add_argument("--standalone", action="store_true", help="a complete document (compiles with pdflatex)")
    xp.add_argument("--all", action="store_true", help="with --standalone: the catalogue of the whole library")
    _budget_options(xp, "latex")

    bp = sub.add_parser("bib", help="BibTeX entries of the papers the library (or one theorem) cites")
    bp.add_argument("name", metavar="NAME", nargs="?")
    _budget_options(bp, "bib")

    from cdpsym.claims import cli as check_cli

    check_cli.add_parser(sub, _budget_options)
    _accounting_parsers(sub)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command; returns the exit code (argparse errors, ``--help`` and ``--version`` raise SystemExit).

    With *argv* (in-process use, tests) the budgets are enforced in this process: a timer and
    ``RLIMIT_AS``, both restored afterwards.  Without (the ``cdpsym`` command) the work runs in a
    forked child that is killed if it overruns its deadline by 5 s (native code ignores timers).
    """
    args = _parser().parse_args(argv)
    if args.command == "verify":
        args.timeout = _verify_timeout(args)
    if argv is None:
        from cdpsym.budget import supervise

        return supervise(lambda: _run(args), memory_hint=f"--memory {args.memory} MB")
    return _run(args)


def _run(args) -> int:  # type: ignore[no-untyped-def]
    """Execute parsed *args* within their budgets; stdout is written only if the command succeeds."""
    budget = Budget(args.timeout, args.memory, label=_LABELS.get(args.command, f"cdpsym {args.command}"),
                    hint=_TIME_HINT.get(args.command, "raise it with --timeout SECONDS"))
    out = io.StringIO()
    try:
        with budget, contextlib.redirect_stdout(out):
            code = _dispatch(args, budget)
    except CdpsymError as exc:
        from cdpsym.errors import PrecisionError, ResourceLimit

        if isinstance(exc, ResourceLimit):  # well-posed, but its predictable cost is beyond a limit: exit 2
            _fail(f"{exc}", prefix="refused up front")
            return EXIT_UNCERTIFIED
        if isinstance(exc, PrecisionError):
            _fail(f"{exc}", prefix="cannot certify")
            return EXIT_UNCERTIFIED
        _fail(str(exc))
        return EXIT_BAD_INPUT
    except BudgetExceeded:
        _fail(budget.message(), prefix="")
        return EXIT_UNCERTIFIED
    except MemoryError:
        _fail(f"memory budget exceeded: {budget.label} needed more than {args.memory} MB "
              "(raise it with --memory MB)", prefix="")
        return EXIT_UNCERTIFIED
    except RecursionError:
        _fail(f"{budget.label} nested too deeply (Python's recursion limit); try a simpler input",
              prefix="cannot answer")
        return EXIT_UNCERTIFIED
    except KeyboardInterrupt:
        print("cdpsym: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - a bug in cdpsym: say so in one line
        import os

        if os.environ.get("CDPSYM_DEBUG"):
            raise
        _fail(f"{type(exc).__name__}: {exc} (set CDPSYM_DEBUG=1 for the traceback)", prefix="internal error")
        return EXIT_INTERNAL
    if code in (EXIT_OK, EXIT_FAILED) or (args.command == "check" and code in (EXIT_UNCERTIFIED, EXIT_BAD_INPUT)):
        try:
            sys.stdout.write(out.getvalue())
            sys.stdout.flush()
        except BrokenPipeError:  # `cdpsym list | head`: the reader left; not an error
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


#: what the time budget covers, per command (``verify`` re-arms it per theorem)
_LABELS = {"check": "checking the claim", "list": "listing the library", "latex": "rendering the derivation", "epsilon": "computing epsilon",
           "delta": "computing delta", "calibrate": "calibrating"}
_TIME_HINT = {"verify": "the budget is per theorem; raise it with --timeout SECONDS"}


def _dispatch(args, budget: Budget) -> int:  # type: ignore[no-untyped-def]
    if args.command == "list":
        return _list(args)
    if args.command == "verify":
        return _verify(args, budget)
    if args.command == "latex":
        return _latex(args)
    if args.command == "bib":
        return _bib(args)
    if args.command == "check":
        from cdpsym.claims import cli as check_cli

        return check_cli.run(args)
    return _ACCOUNTING[args.command](args)


def _library():  # type: ignore[no-untyped-def]
    from cdpsym import theorems

    return theorems


def _theorem(name: str):  # type: ignore[no-untyped-def]
    """The theorem or axiom called *name*; an unknown name gets close matches, the name abbreviated."""
    theorems = _library()
    known = [t.name for t in theorems.LIBRARY] + [a.name for a in theorems.AXIOMS]
    if name in known:
        return theorems.get(name)
    import difflib

    close = difflib.get_close_matches(name[:200], known, n=3) if len(name) < 200 else []
    hint = f"did you mean {' or '.join(repr(c) for c in close)}? " if close else ""
    from cdpsym.errors import UnknownName

    raise UnknownName(f"no theorem named {_shown(name)}; {hint}`cdpsym list --axioms` shows all {len(known)}")


def _statement(thm) -> str:
    from cdpsym.render.latex import statement_text

    return statement_text(thm)


def _list(args) -> int:
    theorems = _library()

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
    _list_table(rows, _width())
    return EXIT_OK


def _width() -> int:
    """Columns for a text table: the terminal's, between 60 and 100."""
    import shutil

    return max(60, min(100, shutil.get_terminal_size((100, 24)).columns))


def _list_table(rows: list[dict], width: int) -> None:
    """Two lines per entry: name, reference and source; then the statement, indented and wrapped."""
    import textwrap

    name_w = max([len("name")] + [len(r["name"]) for r in rows])
    ref_w = max([len("ref")] + [len(r["reference"]) for r in rows])
    source_w = max(20, width - name_w - ref_w - 4)
    print(f"{'name'.ljust(name_w)}  {'ref'.ljust(ref_w)}  source")
    print("    statement")
    print("-" * min(width, name_w + ref_w + 4 + source_w))
    for r in rows:
        print(f"{r['name'].ljust(name_w)}  {r['reference'].ljust(ref_w)}  {_short_source(r['source'], source_w)}"
              .rstrip())
        for line in textwrap.wrap(r["statement"], width, initial_indent="    ", subsequent_indent="      ",
                                  break_on_hyphens=False):
            print(line)


def _verify(args, budget: Budget) -> int:  # type: ignore[no-untyped-def]
    if not MIN_DPS <= args.dps <= MAX_DPS:
        raise_bad(f"--dps must be between {MIN_DPS} and {MAX_DPS}, got --dps {args.dps}")
    if args.examples is not None and not 0 <= args.examples <= MAX_EXAMPLES:
        raise_bad(f"--examples must be between 0 and {MAX_EXAMPLES} (0 skips the property checks), "
                  f"got --examples {args.examples}")
    budget.arm(label="loading the theorem library")
    theorems = _library()
    if args.names:
        targets = [_theorem(n) for n in args.names]
    else:
        targets = list(theorems.LIBRARY) + ([] if args.no_axioms else list(theorems.AXIOMS))
    from cdpsym.verify.runner import verify_theorem

    jobs = args.jobs if args.jobs is not None else min(4, os.cpu_count() or 1)
    if not 1 <= jobs <= 64:
        raise_bad(f"--jobs must be between 1 and 64, got --jobs {jobs}")
    t0 = time.perf_counter()
    if jobs == 1 or len(targets) < 4:
        reports = []
        for i, thm in enumerate(targets, 1):
            budget.arm(label=f"verifying {thm.name}")
            if not args.quiet:  # progress on stderr, also with --json (stdout carries only the result)
                print(f"[{i}/{len(targets)}] verifying {thm.name} …", file=sys.stderr, flush=True)
            reports.append(verify_theorem(thm, dps=args.dps, property_examples=args.examples))
    else:
        reports = _verify_in_parallel(targets, args, budget, jobs)
    budget.arm(label="reporting")
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
    if not args.quiet and args.json:
        print(f"{len(reports)} verified in {time.perf_counter() - t0:.1f} s", file=sys.stderr, flush=True)
    return EXIT_FAILED if failed else EXIT_OK


_JOB: dict = {}  # what the forked workers of _verify_in_parallel verify (set before the pool forks)


def _verify_in_parallel(targets, args, budget: Budget, jobs: int) -> list:  # type: ignore[no-untyped-def]
    """The reports of ``targets`` (in order), verified by ``jobs`` forked worker processes.

    Each worker checks what it is given from scratch -- a theorem's proof needs the certificates of the theorems
    it cites, so a worker re-checks those it has not checked itself: the workers share nothing but the
    library they inherit.  The budget is per theorem, re-armed whenever a report comes back; the workers die
    with the process that started them (``PR_SET_PDEATHSIG``), also when the supervisor kills it."""
    import multiprocessing

    _JOB.update(targets=targets, dps=args.dps, examples=args.examples, quiet=args.quiet, total=len(targets))
    ctx = multiprocessing.get_context("fork")
    reports = []
    with ctx.Pool(jobs, initializer=_worker_init) as pool:
        budget.arm(label="verifying the library")
        for report in pool.imap(_verify_one, range(len(targets)), chunksize=1):
            reports.append(report)
            budget.arm(label="verifying the library (the budget is per theorem)")
    return reports


def _worker_init() -> None:
    import signal

    signal.setitimer(signal.ITIMER_REAL, 0)  # the parent's budget timer is the parent's
    signal.signal(signal.SIGALRM, signal.SIG_DFL)
    try:  # Linux: die with the parent
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG = 1
    except OSError:
        pass


def _verify_one(i: int):  # type: ignore[no-untyped-def]
    from cdpsym.verify.runner import verify_theorem

    thm = _JOB["targets"][i]
    if not _JOB["quiet"]:
        print(f"[{i + 1}/{_JOB['total']}] verifying {thm.name} …", file=sys.stderr, flush=True)
    return verify_theorem(thm, dps=_JOB["dps"], property_examples=_JOB["examples"])


def raise_bad(msg: str) -> None:
    from cdpsym.errors import InvalidParameter

    raise InvalidParameter(msg)


def raise_costly(msg: str) -> None:
    """Refuse well-posed work whose predictable cost is beyond a limit (exit 2, ``refused up front``)."""
    from cdpsym.errors import ResourceLimit

    raise ResourceLimit(msg)


def _short_source(source: str, width: int = 48) -> str:
    """A citation for a table: arXiv ids dropped, then parenthetical remarks elided, then cut at a word.

    >>> _short_source("Dwork & Rothblum 2016, Lemma 3.6, arXiv:1603.01887v2 (Hoeffding 1963, eq. 4.16)")
    'Dwork & Rothblum 2016, Lemma 3.6 (…)'
    >>> _short_source("Bun & Steinke 2016, Prop 1.3 and Lemma 3.5, arXiv:1605.02065")
    'Bun & Steinke 2016, Prop 1.3 and Lemma 3.5'
    """
    text = re.sub(r"[,;]?\s*arXiv:[^\s,;()]+", "", source).strip(" ,;")
    text = re.sub(r"\s+", " ", text)
    if len(text) > width:
        text = _elide_parentheses(text)
    return _clip(text, width)


def _elide_parentheses(text: str) -> str:
    """Replace each outermost ``(...)`` by ``(…)``."""
    out, depth = [], 0
    for ch in text:
        if ch == "(":
            if depth == 0:
                out.append("(…")
            depth += 1
        elif ch == ")" and depth:
            depth -= 1
            if depth == 0:
                out.append(")")
        elif depth == 0:
            out.append(ch)
    return "".join(out) + (")" if depth else "")


def _clip(text: str, width: int) -> str:
    """*text* in at most *width* characters, cut at a word boundary with '…'.

    >>> _clip("Steinke 2022, Composition Basics (seed 002), homogeneous form", 40)
    'Steinke 2022, Composition Basics (seed…'
    """
    if len(text) <= width:
        return text
    cut = text[: width - 1]
    space = cut.rfind(" ")
    if space >= width // 2:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "…"


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
    if args.all:
        if args.name or not args.standalone:
            raise_bad("`cdpsym latex --all` takes no NAME and needs --standalone (the catalogue document)")
        from cdpsym.render.latex import catalogue

        print(catalogue(list(_library().LIBRARY)))
        return EXIT_OK
    if not args.name:
        raise_bad("`cdpsym latex` needs a theorem NAME (or --all --standalone for the catalogue)")
    thm = _theorem(args.name)
    if not hasattr(thm, "parts"):
        raise_bad(f"{args.name} is an axiom (cited, no derivation); `cdpsym latex` takes a theorem")
    print(thm.latex(standalone=args.standalone))
    return EXIT_OK


def _bib(args) -> int:
    from cdpsym.render.bibliography import bibtex, theorem_sources

    if args.name:
        thm = _theorem(args.name)
        sources = theorem_sources(thm) if hasattr(thm, "parts") else [thm.citation]
        print(bibtex(sources), end="")
    else:
        print(bibtex(), end="")
    return EXIT_OK


# -- accounting: epsilon, delta, calibrate ------------------------------------------------------------------

_NUMBERS_HELP = """\
Numbers are exact, never floats: 1e-10 (= 10^-10), 0.25, 1/3, 2^-20, and + - * / ^ of these. Mechanism
parameters (sensitivity, sigma, scale, the eps of RandomizedResponse and of DP(...)) and --sensitivity may
also be irrational: sqrt(2), exp(-20), log(3), pi/4. --delta, --eps, --k, and rho, alpha and the eps of RDP
must be rational. At most 2000 characters and 10^-2000 .. 10^2000 each.
"""

_SUBJECT_HELP = """\
SUBJECT is a mechanism or a notion, e.g.
  Gaussian(sensitivity=1, sigma=2)     Laplace(sensitivity=1, scale=1)     RandomizedResponse(eps=0.1)
  compose(k=1000, Gaussian(1, 2))      compose(Gaussian(1, 2), Gaussian(2, 3), k=10)
  zCDP(rho=1/2)  or  0.5-zCDP          RDP(alpha=8, eps=1/2)
  DP(eps=1)  or  1-DP                  compose(k=100, DP(eps=0.1))   (pure DP: its exact worst case,
                                                                       randomized response, Kairouz-Oh-Viswanath)
  DP(1, 1e-6)  or  (1, 1e-6)-DP        compose(DP(1, 1e-6), DP(0.5), k=10)   (the optimal composition)
A composition is accounted exactly when its parts are all Gaussian, or all randomized responses and DP
notions; compositions of Laplace mechanisms (scales rational multiples of one another) get certified
two-sided bounds; other mixtures (Gaussian with Laplace, say) are refused.
""" + _NUMBERS_HELP

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
K (an integer, 1 .. 10^9) defaults to 1, S to 1.
""" + _NUMBERS_HELP


def _max_digits() -> int:
    try:
        from cdpsym.accounting.certified import MAX_DIGITS
    except ImportError:  # pragma: no cover
        return 1000
    return MAX_DIGITS


def _accounting_parsers(sub) -> None:  # type: ignore[no-untyped-def]
    fmt = argparse.RawDescriptionHelpFormatter

    def common(parser: argparse.ArgumentParser, command: str) -> None:
        parser.add_argument("--digits", type=int, default=None, metavar="N",
                            help="certified significant digits, 1..1000 (default: the accountant's, 10)")
        parser.add_argument("--json", action="store_true", help="print the certified result as JSON")
        _budget_options(parser, command)

    ep = sub.add_parser("epsilon", help="certified epsilon of a mechanism or notion at a given delta",
                        description=_EPSILON_HELP + _SUBJECT_HELP, formatter_class=fmt)
    ep.add_argument("subject", metavar="SUBJECT", help="a mechanism or notion (see above)")
    ep.add_argument("--delta", required=True, metavar="D", help="delta in (0, 1), rational, exact (1e-10 is 10^-10)")
    common(ep, "epsilon")

    dp = sub.add_parser("delta", help="certified delta of a mechanism at a given epsilon",
                        description=_DELTA_HELP + _SUBJECT_HELP, formatter_class=fmt)
    dp.add_argument("subject", metavar="SUBJECT", help="a mechanism or pure-DP notion (see above)")
    dp.add_argument("--eps", required=True, metavar="E", help="epsilon >= 0, rational, exact")
    common(dp, "delta")

    cp = sub.add_parser("calibrate", help="smallest Gaussian sigma / largest pure-DP eps0 for a target (eps, delta)",
                        description=_CALIBRATE_HELP, formatter_class=fmt)
    cp.add_argument("target", choices=["gaussian", "pure-dp"], metavar="{gaussian,pure-dp}",
                    help="what to calibrate: the Gaussian noise sigma, or the per-step pure-DP eps0")
    cp.add_argument("--eps", required=True, metavar="E", help="target epsilon > 0, rational")
    cp.add_argument("--delta", required=True, metavar="D", help="target delta in (0, 1), rational")
    cp.add_argument("--k", default="1", metavar="K", help="number of compositions, 1..10^9 (default 1)")
    cp.add_argument("--sensitivity", default=None, metavar="S",
                    help="sensitivity > 0, may be irrational (gaussian only; default 1)")
    common(cp, "calibrate")


def _number(option: str, text: str):  # type: ignore[no-untyped-def]
    """A command-line number, parsed exactly and safely (a Rational when it is one)."""
    from cdpsym.expr.parse import ParseError, parse_number

    try:
        return parse_number(text)
    except ParseError as exc:
        raise type(exc)(f"{option} {_shown(text)}: {exc}", text=exc.text, position=exc.position) from None


def _count(option: str, text: str) -> int:
    from cdpsym.claims import MAX_K

    value = _number(option, text)
    if not (value.is_Integer and value >= 1):
        raise_bad(f"{option} must be a positive integer at most 10^9, got {option} {_shown(text)}")
    if value > MAX_K:  # well-posed, but beyond the documented cost limit: exit 2, not bad input
        raise_costly(f"{option} {_shown(text)} is beyond the accountants' limit of 10^9 compositions (their cost "
                     f"and precision grow with k); ask for {option} at most 10^9")
    return int(value)


def _subject(text: str, where: dict | None = None):  # type: ignore[no-untyped-def]
    from cdpsym.claims import ParseError, parse_subject

    try:
        return parse_subject(text, symbols=None, where=where)
    except ParseError as exc:
        raise type(exc)(f"SUBJECT {_shown(text)}: {exc}", text=exc.text, position=exc.position) from None


def _digits_kw(args) -> dict:  # type: ignore[no-untyped-def]
    if args.digits is None:
        return {}
    if args.digits < 1:
        raise_bad(f"--digits must be between 1 and {_max_digits()}, got --digits {args.digits}")
    if args.digits > _max_digits():  # a well-posed request whose cost grows with the digits: exit 2
        raise_costly(f"--digits must be between 1 and {_max_digits()}, got --digits {args.digits} (the working "
                     f"precision, and the time, grow with the digits); ask for at most {_max_digits()}")
    return {"digits": args.digits}


#: the accountant's parameter name -> how the command line calls it (``rdp_eps`` is RDP's eps)
_PARAMETER_NAMES = {"rdp_eps": "eps"}
_RATIONAL_ONLY = re.compile(r"^(?P<name>\w+) must be rational here \(.*?\), got \w+=(?P<value>.*)$")


@contextlib.contextmanager
def _origins(**origins: tuple[str, str, int | None]):  # type: ignore[no-untyped-def]
    """Errors of the accountant about a parameter name where it came from: ``name=(label, text, offset)``.

    ``epsilon "zCDP(rho=sqrt(2))"`` -> ``SUBJECT 'zCDP(rho=sqrt(2))' at column 6: rho must be rational ...``.
    """
    from cdpsym.errors import InvalidParameter
    from cdpsym.expr.parse import ParseError

    try:
        yield
    except ParseError:
        raise
    except InvalidParameter as exc:
        message = str(exc)
        head = re.match(r"(\w+)\b", message)
        name = head.group(1) if head else ""
        if name not in origins:
            raise
        label, text, offset = origins[name]
        shown = _PARAMETER_NAMES.get(name, name)
        m = _RATIONAL_ONLY.match(message)
        if m:
            message = (f"{shown} must be a rational number here, got {shown}={m.group('value')} (a decimal 1e-6, a "
                       "fraction 1/3 or a power 2^-20; irrational values such as sqrt(2) are accepted only as "
                       "mechanism parameters and --sensitivity)")
        elif shown != name:
            message = re.sub(rf"\b{name}\b", shown, message)
        column = f" at column {offset + 1}" if offset is not None else ""
        raise InvalidParameter(f"{label} {_shown(text)}{column}: {message}") from None


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
    from cdpsym.accounting.pure_dp import DPComposition

    approx = DPComposition.from_subject(subject)  # (eps, delta)-DP notions and compositions of them
    if approx is not None:
        return approx, ("the optimal composition: every (eps_i, delta_i)-DP mechanism is a post-processing of a "
                        "four-outcome randomized response, and their products attain it (Kairouz-Oh-Viswanath, "
                        "Murtagh-Vadhan)")
    what = ("a mechanism, zCDP(rho=...), RDP(alpha=..., eps=...), DP(eps=...), DP(eps=..., delta=...) or a "
            "composition of DP notions" if command == "epsilon"
            else "a mechanism, DP(eps=...), DP(eps=..., delta=...) or a composition of DP notions")
    from cdpsym.expr.parse import shorten

    raise_bad(f"cdpsym {command} takes {what}; got {shorten(repr(subject), SHOWN)}")
    return None, None  # pragma: no cover - raise_bad raises


#: in human output, integers (or a fraction's parts) with more digits than this are abbreviated
LONG_NUMBER = 24
_LONG_RATIONAL = re.compile(r"(?<![\w.])(-?\d+)(?:/(\d+))?(?![\w.])")


def _compact_rational(n: int, d: int = 1) -> str:
    """``n/d`` in a few characters: ``10^300``, ``10^-300``, ``-10^20``, else ``~1.234567890e+300`` (the ``~``:
    rounded to 10 significant digits; JSON output keeps the exact value).

    >>> _compact_rational(10**300), _compact_rational(1, 10**300), _compact_rational(12345678901234567890123456789, 7)
    ('10^300', '10^-300', '~1.763668414e+27')
    """
    sign, n = ("-" if n < 0 else ""), abs(n)
    for top, bottom, minus in ((n, d, ""), (d, n, "-")):
        if bottom == 1 and top > 1:
            digits = str(top)
            if digits.strip("0") == "1":
                return f"{sign}10^{minus}{len(digits) - 1}"
    import mpmath

    with mpmath.workdps(20):
        return "~" + sign + mpmath.nstr(mpmath.mpf(n) / d, 10, min_fixed=1, max_fixed=0, strip_zeros=False)


def _abbreviate_numbers(text: str) -> str:
    """*text* (a rendered subject or note, never a certified value) with every integer or fraction longer than
    :data:`LONG_NUMBER` digits written compactly (:func:`_compact_rational`)."""
    def short(m: "re.Match[str]") -> str:
        n, d = m.group(1), m.group(2)
        if len(n.lstrip("-")) <= LONG_NUMBER and (d is None or len(d) <= LONG_NUMBER):
            return m.group(0)
        return _compact_rational(int(n), int(d) if d else 1)

    return _LONG_RATIONAL.sub(short, text)


def _value_shown(rounded: str) -> str:
    """A certified value for human output: as rounded, unless its decimal exponent itself is huge
    (``delta "Gaussian(1, 1)" --eps 10^300`` has a 300-digit exponent): then the certified mantissa, the
    exponent's leading digits and its length (``--json`` keeps every digit).

    >>> _value_shown("1.5e-" + "2" * 300)
    '1.5e-222222222222…(a 300-digit exponent; --json gives it exactly)'
    """
    mantissa, e, exponent = rounded.partition("e")
    digits = exponent.lstrip("+-")
    if not e or len(digits) <= LONG_NUMBER:
        return rounded
    return f"{mantissa}e{exponent[:len(exponent) - len(digits)]}{digits[:12]}…(a {len(digits)}-digit exponent; " \
           "--json gives it exactly)"


def _describe(c, label: str | None = None) -> str:  # type: ignore[no-untyped-def]
    """``epsilon <= 1.2345 (certified to 5 digits; exact: ..., rounded up)``."""
    rel = "<=" if c.direction == "up" else ">="
    if c.exact:
        kind = "exact"
    else:
        kind = "upper bound" if c.direction == "up" else "lower bound"
    name = label or c.quantity
    return (f"{name} {rel} {_value_shown(c.rounded)} (certified to {c.digits} digits; {kind}: {c.method}, "
            f"rounded {c.direction})")


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
        print(f"  ({_abbreviate_numbers(note)})")


def _epsilon(args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting
    from cdpsym.notions import RDP, ZCDP

    where: dict = {}
    subject = _subject(args.subject, where)
    delta = _number("--delta", args.delta)
    digits = _digits_kw(args)
    flags = {"delta": ("--delta", args.delta, None), "digits": ("--digits", str(args.digits), None)}
    at = {name: ("SUBJECT", args.subject, where.get(name)) for name in ("rho", "alpha", "eps")}
    if isinstance(subject, ZCDP):
        with _origins(rho=at["rho"], **flags):
            return _zcdp(subject, delta, args, digits)
    if isinstance(subject, RDP):
        with _origins(alpha=at["alpha"], rdp_eps=at["eps"], **flags):
            result = accounting.rdp_epsilon(alpha=subject.alpha, rdp_eps=subject.eps, delta=delta, **digits)
        _print_result(result, repr(subject), None, args.json)
        return EXIT_OK
    mechanism, note = _mechanism_for(subject, "epsilon")
    with _origins(**flags):
        result = accounting.epsilon(mechanism, delta=delta, **digits)
    _print_result(result, repr(subject), note, args.json)
    return EXIT_OK


#: the zCDP -> (eps, delta)-DP conversions, in the order printed: (key, label, what it is)
_ZCDP_ROWS = [
    ("cks20", "CKS20", "Canonne-Kamath-Steinke 2020: valid for every rho-zCDP mechanism"),
    ("bs16", "BS16", "Bun-Steinke 2016, Prop. 1.3: valid for every rho-zCDP mechanism"),
    ("exact_gaussian", "Gaussian witness",
     "the exact epsilon of the Gaussian mechanism with this rho: no conversion can give less"),
]


def _zcdp(subject, delta, args, digits: dict) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting

    results = accounting.zcdp_epsilon(rho=subject.rho, delta=delta, **digits)
    if args.json:
        payload = {key: c.to_json() for key, c in results.items()}
        payload["subject"] = repr(subject)
        print(json.dumps(payload, indent=2))
        return EXIT_OK
    shown_delta = args.delta.strip()
    if len(shown_delta) > 2 * LONG_NUMBER:
        shown_delta = _compact_rational(int(delta.p), int(delta.q)) if getattr(delta, "is_Rational", False) \
            else _shown(shown_delta)
    print(f"{_abbreviate_numbers(repr(subject))} => (epsilon, delta)-DP at delta={shown_delta}:")
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
    digits = _digits_kw(args)
    mechanism, note = _mechanism_for(subject, "delta")
    with _origins(eps=("--eps", args.eps, None), digits=("--digits", str(args.digits), None)):
        result = accounting.delta(mechanism, eps=eps, **digits)
    _print_result(result, repr(subject), note, args.json)
    return EXIT_OK


def _calibrate(args) -> int:  # type: ignore[no-untyped-def]
    from cdpsym import accounting

    eps = _number("--eps", args.eps)
    delta = _number("--delta", args.delta)
    k = _count("--k", args.k)
    digits = _digits_kw(args)
    flags = {"eps": ("--eps", args.eps, None), "delta": ("--delta", args.delta, None), "k": ("--k", args.k, None),
             "digits": ("--digits", str(args.digits), None)}
    if args.target == "gaussian":
        sensitivity = _number("--sensitivity", args.sensitivity) if args.sensitivity is not None else 1
        with _origins(sensitivity=("--sensitivity", str(args.sensitivity or 1), None), **flags):
            result = accounting.calibrate_sigma(eps=eps, delta=delta, k=k, sensitivity=sensitivity, **digits)
        label = "sigma"
        meaning = "the smallest sufficient sigma, rounded up: any sigma at least this works"
    else:
        if args.sensitivity is not None:
            raise_bad("--sensitivity applies to `calibrate gaussian` only")
        with _origins(**flags):
            result = accounting.calibrate_eps0(eps=eps, delta=delta, k=k, **digits)
        label = "eps0"
        meaning = "the largest sufficient per-step eps0, rounded down: any eps0 at most this works"
    if args.json:
        payload = dict(result.to_json())
        payload["target"] = args.target
        print(json.dumps(payload, indent=2))
        return EXIT_OK
    print(f"{label} = {_value_shown(result.rounded)} ({meaning}; certified to {result.digits} digits; "
          f"{'exact' if result.exact else 'bound'}: {result.method})")
    return EXIT_OK


_ACCOUNTING = {"epsilon": _epsilon, "delta": _delta, "calibrate": _calibrate}


def _table(header: list[str], rows: list[list[str]]) -> None:
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)] if rows else [len(h) for h in header]
    widths = [min(w, 70) for w in widths]

    def fmt(row):
        cells = [_clip(str(x), w) for x, w in zip(row, widths)]
        return "  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip()

    print(fmt(header))
    print("  ".join("-" * w for w in widths))
    for r in rows:
        print(fmt(r))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
