"""cdpsym's certified accounting against the peer libraries, in one run, in one process.

    python bench/peers.py            # full run (a few minutes on 2 cores); writes bench/RESULTS.md
    python bench/peers.py --quick    # smoke run (< 1 minute); prints only
    python bench/peers.py --output somewhere.md

For every query family it runs the same queries through cdpsym.accounting and
through dp-accounting, opendp, autodp and prv-accountant (whichever are
installed; ``pip install -e '.[bench]'``), and prints a Markdown report: each
tool's epsilon, its ratio to the exact value, whether it is below the exact
value (UNSOUND), and the median time per query.  See bench/README.md.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import gc
import importlib.metadata
import math
import os
import platform
import statistics
import sys
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import Callable, Optional

HERE = os.path.dirname(os.path.abspath(__file__))
if HERE not in sys.path:
    sys.path.insert(0, HERE)
ROOT = os.path.dirname(HERE)
if ROOT not in sys.path:  # run from a checkout without `pip install -e .`
    sys.path.insert(1, ROOT)

import mpmath  # noqa: E402
from mpmath import mp  # noqa: E402

import anchors  # noqa: E402
import peer_wrappers as pw  # noqa: E402
from peer_wrappers import GaussQ, PureQ, ZcdpQ  # noqa: E402

CDPSYM = "cdpsym"
CAPS = {tool.name: tool.cap for tool in pw.PEERS if tool.cap}

# ================================================================================================
# query families
# ================================================================================================

DELTAS = (1e-5, 1e-8, 1e-10)
TINY_DELTAS_FULL = (1e-16, 1e-20, 1e-50, 1e-100, 1e-300)
TINY_DELTAS_QUICK = (1e-16, 1e-50, 1e-300)


def gauss_configs(quick: bool) -> list[GaussQ]:
    if quick:
        return [GaussQ(2.0, 1, 1e-5), GaussQ(5.0, 10, 1e-8), GaussQ(2.0, 100, 1e-8), GaussQ(10.0, 1000, 1e-10),
                GaussQ(20.0, 10_000, 1e-5)]
    # 10 noise levels over [0.5, 20] (roughly log-spaced) x 5 values of k = 50; delta cycles through DELTAS
    sigmas = [0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0, 20.0]
    out = []
    for i, sigma in enumerate(sigmas):
        for j, k in enumerate((1, 10, 100, 1000, 10_000)):
            out.append(GaussQ(sigma, k, DELTAS[(i + j) % 3]))
    return out


def pure_configs(quick: bool) -> list[PureQ]:
    if quick:
        return [PureQ(0.1, 10, 1e-5), PureQ(0.1, 100, 1e-8), PureQ(0.1, 1000, 1e-5), PureQ(1.0, 10_000, 1e-10)]
    out = []
    for i, eps0 in enumerate((0.01, 0.1, 0.5, 1.0)):
        for j, k in enumerate((10, 100, 1000, 10_000)):
            out.append(PureQ(eps0, k, DELTAS[(i + j) % 3]))
    return out


def zcdp_configs(quick: bool) -> list[ZcdpQ]:
    if quick:
        return [ZcdpQ(0.01, 1e-5), ZcdpQ(0.5, 1e-8), ZcdpQ(5.0, 1e-10)]
    return [ZcdpQ(rho, d) for rho in (0.001, 0.01, 0.1, 0.5, 1.0, 5.0) for d in DELTAS]


def tiny_configs(quick: bool) -> list:
    deltas = TINY_DELTAS_QUICK if quick else TINY_DELTAS_FULL
    out: list = []
    out += [GaussQ(5.0, 10, d) for d in deltas]       # mu = 0.63: inside every peer's cap
    out += [PureQ(0.1, 100, d) for d in deltas]
    out += [ZcdpQ(0.5, d) for d in deltas]
    return out


FAMILY_TITLES = {
    "gauss": "(a) k-fold Gaussian composition: ε(δ)",
    "pure": "(b) k-fold ε0-DP composition (worst case: randomized response): ε(δ)",
    "zcdp": "(c) ρ-zCDP ⇒ (ε, δ): conversions vs the exact Gaussian witness",
    "tiny": "(d) tiny δ ≤ 1e-16: what each tool returns",
}

#: the configuration whose epsilon is quoted in each family's summary table
REFERENCE = {
    "gauss": lambda q: (q.k, q.sigma) == (1000, 10.0),
    "pure": lambda q: (q.k, q.eps0) == (1000, 0.1),
    "zcdp": lambda q: (q.rho, q.delta) == (0.5, 1e-8),
}


FAMILY_SHORT = {"gauss": "(a) Gaussian composition", "pure": "(b) ε0-DP composition", "zcdp": "(c) zCDP ⇒ (ε,δ)"}
#: issue 5's absolute targets for cdpsym's time per query, ms ("pure" is for k = 1000)
TARGETS = {"gauss": 2.0, "pure": 11.0, "zcdp": 1.0}
#: shortfalls up to this (relative) are reported as float round-off
ROUND_OFF = mp.mpf("1e-13")


def family_of(q) -> str:
    return {GaussQ: "gauss", PureQ: "pure", ZcdpQ: "zcdp"}[type(q)]


# ================================================================================================
# timing
# ================================================================================================

@dataclass
class Timing:
    budget: float          # seconds of repeated calls per (tool, query), after the first call
    max_reps: int
    slow: float            # a first call slower than this gets `slow_reps` more calls only
    slow_reps: int


FULL = Timing(budget=0.15, max_reps=25, slow=0.3, slow_reps=1)
QUICK = Timing(budget=0.02, max_reps=5, slow=0.1, slow_reps=0)


@dataclass
class Outcome:
    """One tool on one query."""

    tool: str
    query: object
    values: dict = field(default_factory=dict)     # variant ("" = the tool's number) -> float
    error: Optional[str] = None
    seconds: Optional[float] = None                 # median of the repeated calls
    first_seconds: Optional[float] = None           # the first (untimed-for-median) call
    reps: int = 0
    certified: object = None                        # cdpsym: the Certified (or dict of them)


def measure(fn: Callable, q, timing: Timing) -> Outcome:
    """Call fn(q) once (the answer), then again while the budget lasts; median of the repeats."""
    out = Outcome(tool="", query=q)
    gc.collect()
    t0 = time.perf_counter()
    try:
        value = fn(q)
    except Exception as exc:  # the tool's answer is its error
        out.first_seconds = time.perf_counter() - t0
        out.seconds = out.first_seconds
        out.error = f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"[:300]
        return out
    first = time.perf_counter() - t0
    out.first_seconds = first
    if first > timing.slow:
        reps = timing.slow_reps
    else:
        reps = max(3, min(timing.max_reps, int(timing.budget / max(first, 1e-6))))
    times = []
    for _ in range(reps):
        t0 = time.perf_counter()
        try:
            fn(q)
        except Exception:
            break
        times.append(time.perf_counter() - t0)
    out.seconds = statistics.median(times) if times else first
    out.reps = len(times) if times else 1
    if isinstance(value, dict) and not _is_certified_dict(value):
        out.values = {k: v for k, v in value.items()}
    elif _is_certified(value) or _is_certified_dict(value):
        out.certified = value
    else:
        out.values = {"": value}
    return out


def _is_certified(value) -> bool:
    return hasattr(value, "ball") and hasattr(value, "rounded")


def _is_certified_dict(value) -> bool:
    return isinstance(value, dict) and bool(value) and all(_is_certified(v) for v in value.values())


# ================================================================================================
# the run
# ================================================================================================

@dataclass
class Row:
    """One printed number: a tool (or a tool's variant) on one query."""

    tool: str
    query: object
    value: Optional[float]
    error: Optional[str]
    seconds: Optional[float]
    reps: int
    ratio: Optional[mpmath.mpf] = None
    below: bool = False            # strictly below the certified lower end (or the mpmath truth)
    shortfall: Optional[mpmath.mpf] = None   # (truth - value)/truth when below
    estimate: bool = False
    certified: object = None
    cks20_ratio: Optional[mpmath.mpf] = None  # zCDP family: value / exact CKS20 optimum
    note: str = ""


@dataclass
class Anchor:
    query: object
    truth: mpmath.mpf
    cert: object = None           # cdpsym Certified for the exact value
    cert_outcome: Optional[Outcome] = None
    cross_check: Optional[bool] = None   # cdpsym's ball contains the mpmath truth
    cks20: Optional[mpmath.mpf] = None
    bs16: Optional[mpmath.mpf] = None
    verdict: object = None        # the ball the "below exact" verdict uses (tighter than the timed answer's)
    verdict_digits: Optional[int] = None
    notes: list = field(default_factory=list)


class Run:
    def __init__(self, quick: bool, log=sys.stderr):
        self.quick = quick
        self.timing = QUICK if quick else FULL
        self.log = log
        self.rows: dict[str, list[Row]] = {"gauss": [], "pure": [], "zcdp": [], "tiny": []}
        self.anchors: dict[tuple, Anchor] = {}
        self.tool_kind: dict[str, str] = {}
        self.not_installed: dict[str, str] = {}
        self.capped: dict[str, list] = {}
        self.accounting_problem = anchors.accounting_status()
        self.scaling: dict = {}
        self.failures: list[str] = []   # cross-check failures and harness problems
        self.bound_checks = {"cks20": [0, 0], "bs16": [0, 0]}  # [passed, total] for cdpsym's zCDP bounds
        self.zcdp_all: list[float] = []  # seconds of zcdp_epsilon returning all three conversions in one call
        self.started = time.time()
        try:
            self.load_at_start = os.getloadavg()
        except OSError:
            self.load_at_start = None

    def say(self, msg: str) -> None:
        print(msg, file=self.log, flush=True)

    # -- anchors ------------------------------------------------------------------------------------
    def anchor(self, q) -> Anchor:
        key = (type(q).__name__, q)
        if key in self.anchors:
            return self.anchors[key]
        a = Anchor(query=q, truth=anchors.truth(q))
        if isinstance(q, ZcdpQ):
            a.cks20, a.bs16 = anchors.cks20_truth(q), anchors.bs16_truth(q)
        if self.accounting_problem is None:
            o = measure(anchors.CERTIFIED[type(q)], q, self.timing)
            o.tool = CDPSYM
            a.cert_outcome = o
            if o.error:
                a.notes.append(f"cdpsym raised {o.error}")
            else:
                cert = o.certified["exact_gaussian"] if isinstance(q, ZcdpQ) else o.certified
                a.cert = cert
                a.cross_check = anchors.ball_contains(cert.ball, a.truth)
                if not a.cross_check:
                    self.failures.append(f"cdpsym's ball {cert.ball} for {q.label()} does NOT contain the mpmath "
                                         f"truth {mpmath.nstr(a.truth, 25)}")
                ball, digits = anchors.verdict_ball(q)
                if ball is None:
                    a.verdict, a.verdict_digits = cert.ball, cert.digits
                else:
                    a.verdict, a.verdict_digits = ball, digits
                    if not anchors.ball_contains(ball, a.truth):
                        self.failures.append(f"cdpsym's {digits}-digit ball {ball} for {q.label()} does NOT contain "
                                             f"the mpmath truth {mpmath.nstr(a.truth, 25)}")
                if isinstance(q, ZcdpQ):
                    # cks20 is CKS20 Prop 12 at a near-optimal rational alpha: a valid bound, so it must not be
                    # below the exact minimum over alpha, and it should be within ~1e-9 of it; bs16 is a closed form
                    c = o.certified.get("cks20")
                    if c is not None:
                        self.bound_checks["cks20"][1] += 1
                        near = anchors.ball_lower(c.ball) <= a.cks20 * (1 + mpmath.mpf("1e-9"))
                        if not anchors.ball_entirely_below(c.ball, a.cks20) and near:
                            self.bound_checks["cks20"][0] += 1
                        if anchors.ball_entirely_below(c.ball, a.cks20):
                            self.failures.append(f"cdpsym's cks20 ball {c.ball} for {q.label()} is below the exact "
                                                 f"CKS20 optimum {mpmath.nstr(a.cks20, 25)}")
                        elif anchors.ball_lower(c.ball) > a.cks20 * (1 + mpmath.mpf("1e-9")):
                            a.notes.append("cdpsym's cks20 is more than 1e-9 above the CKS20 optimum")
                    c = o.certified.get("bs16")
                    if c is not None:
                        self.bound_checks["bs16"][1] += 1
                        self.bound_checks["bs16"][0] += anchors.ball_contains(c.ball, a.bs16)
                    if c is not None and not anchors.ball_contains(c.ball, a.bs16):
                        self.failures.append(f"cdpsym's bs16 ball {c.ball} for {q.label()} does not contain "
                                             f"the mpmath value {mpmath.nstr(a.bs16, 25)}")
        self.anchors[key] = a
        return a

    # -- comparisons ----------------------------------------------------------------------------------
    def judge(self, row: Row, a: Anchor) -> Row:
        if row.value is None or row.error:
            return row
        v = row.value
        if math.isnan(v):
            row.error = "returned nan"
            return row
        with mp.workdps(40):
            row.ratio = mp.mpf(v) / a.truth if not math.isinf(v) else mp.inf
            if a.cks20 is not None and not math.isinf(v):
                row.cks20_ratio = mp.mpf(v) / a.cks20
            below_mpmath = mp.mpf(v) < a.truth * (1 - mp.mpf(10) ** (5 - anchors.DPS))
            if a.verdict is not None:
                row.below = anchors.strictly_below(v, a.verdict)
                if not row.below and below_mpmath:
                    # inside cdpsym's ball, which is too wide to decide; the 60-digit mpmath value decides
                    row.below = True
                    row.note = (f"inside cdpsym's {a.verdict_digits}-digit ball; below the {anchors.DPS}-digit "
                                "mpmath value")
            else:
                row.below = below_mpmath
            if row.below:
                row.shortfall = (a.truth - mp.mpf(v)) / a.truth
        return row

    # -- one family -----------------------------------------------------------------------------------
    def run_family(self, key: str, configs: list) -> None:
        """Run every tool of each query's family on *configs*; rows go to ``self.rows[key]``."""
        self.say(f"== {FAMILY_TITLES[key]}: {len(configs)} queries")
        rows = self.rows[key]
        for i, q in enumerate(configs):
            t0 = time.perf_counter()
            a = self.anchor(q)
            if a.cert_outcome is not None:
                o = a.cert_outcome
                if o.error:
                    rows.append(Row(CDPSYM, q, None, o.error, o.seconds, o.reps))
                elif isinstance(q, ZcdpQ):
                    # the call above returned all three side by side (its time is reported on its own); each
                    # row is timed as a user asking for that one value: zcdp_epsilon(..., methods=[variant])
                    self.zcdp_all.append(o.seconds)
                    for variant, label in (("exact_gaussian", "cdpsym zcdp_epsilon: exact Gaussian"),
                                           ("cks20", "cdpsym zcdp_epsilon: CKS20 bound"),
                                           ("bs16", "cdpsym zcdp_epsilon: BS16 bound")):
                        c = o.certified.get(variant)
                        if c is None:
                            continue
                        alone = measure(functools.partial(anchors.certified_zcdp, methods=(variant,)), q,
                                        self.timing)
                        seconds, reps = (alone.seconds, alone.reps) if not alone.error else (o.seconds, o.reps)
                        r = Row(label, q, float(c.rounded), None, seconds, reps, certified=c)
                        rows.append(self.judge(r, a))
                        self.tool_kind[label] = f"certified (Arb ball), methods=[{variant!r}]"
                else:
                    r = Row(CDPSYM, q, float(o.certified.rounded), None, o.seconds, o.reps, certified=o.certified)
                    rows.append(self.judge(r, a))
            for tool in pw.PEERS:
                if tool.family != family_of(q):
                    continue
                self.tool_kind[tool.name] = tool.kind
                problem = pw.installed(tool.package)
                if problem:
                    self.not_installed[tool.package] = problem
                    rows.append(Row(tool.name, q, None, problem, None, 0))
                    continue
                if tool.applies is not None and not tool.applies(q):
                    self.capped.setdefault(tool.name, []).append(q)
                    continue
                o = measure(tool.fn, q, self.timing)
                if o.error:
                    rows.append(Row(tool.name, q, None, o.error, o.seconds, o.reps))
                    continue
                for variant, value in o.values.items():
                    name = tool.name if not variant else f"{tool.name} ({variant})"
                    self.tool_kind[name] = tool.kind + (" — library's estimate, not a bound"
                                                        if variant == "estimate" else "")
                    r = self.judge(Row(name, q, float(value), None, o.seconds, o.reps,
                                       estimate=(variant == "estimate")), a)
                    if r.below and name in pw.DIAGNOSE:
                        try:
                            why = pw.DIAGNOSE[name](q, float(a.truth))
                        except Exception as exc:
                            why = f"(diagnosis failed: {type(exc).__name__})"
                        if why:
                            r.note = (r.note + "; " if r.note else "") + why
                    rows.append(r)
            self.say(f"  [{i + 1}/{len(configs)}] {q.label():<32} truth ε = {mpmath.nstr(a.truth, 12):<16} "
                     f"({time.perf_counter() - t0:.1f} s)")

    # -- scaling ----------------------------------------------------------------------------------------
    def run_scaling(self) -> None:
        if self.accounting_problem is not None:
            return
        self.say("== scaling of cdpsym's cost in k")
        timing = Timing(budget=0.3 if not self.quick else 0.05, max_reps=41 if not self.quick else 7,
                        slow=1.0, slow_reps=3 if not self.quick else 1)
        pure = []
        for k in (10, 100, 1000, 10_000):
            for eps0 in ((0.1, 1.0) if not self.quick else (0.1,)):
                q = PureQ(eps0, k, 1e-6)
                o = measure(anchors.certified_pure, q, timing)
                pure.append((q, o))
                self.say(f"  pure {q.label()}: {_ms(o.seconds)} ms")
        gauss = []
        for k in (1, 1000, 10 ** 6):
            q = GaussQ(2.0, k, 1e-10)
            o = measure(anchors.certified_gauss, q, timing)
            gauss.append((q, o))
            self.say(f"  gauss {q.label()}: {_ms(o.seconds)} ms")
        from cdpsym.mechanisms import Gaussian, RandomizedResponse, compose
        build = []
        for label, fn in (("compose(Gaussian(sensitivity=1, sigma=2.0), k=1000)",
                           lambda q: compose(Gaussian(sensitivity=1, sigma=2.0), k=1000)),
                          ("compose(RandomizedResponse(0.1), k=1000)",
                           lambda q: compose(RandomizedResponse(0.1), k=1000))):
            build.append((label, measure(fn, None, timing)))
        self.scaling = {"pure": pure, "gauss": gauss, "build": build}


# ================================================================================================
# formatting
# ================================================================================================

def _ms(seconds: Optional[float]) -> str:
    if seconds is None:
        return "–"
    ms = seconds * 1000
    if ms >= 1000:
        return f"{ms:,.0f}"
    if ms >= 10:
        return f"{ms:.1f}"
    return f"{ms:.3f}" if ms < 1 else f"{ms:.2f}"


def _eps(value: Optional[float]) -> str:
    if value is None:
        return "–"
    if math.isinf(value):
        return "∞"
    return f"{value:.10g}"


def _ratio(r) -> str:
    if r is None:
        return "–"
    if r == mp.inf:
        return "∞"
    d = r - 1
    if d == 0:
        return "1 (equal)"
    if abs(d) < mp.mpf("1e-4"):
        sign = "+" if d > 0 else "−"
        return f"1 {sign} {mpmath.nstr(abs(d), 2, min_fixed=1, max_fixed=0)}"
    return mpmath.nstr(r, 6)


def _named(pair) -> str:
    name, seconds = pair
    return f"{name} ({_ms(seconds)})" if name else "none"


def _short(text: str, n: int = 70) -> str:
    text = text.replace("|", "/").replace("\n", " ")
    return text if len(text) <= n else text[: n - 1] + "…"


def _median(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


def machine_info(load_at_start=None) -> list[str]:
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    lines = [f"* nproc: {os.cpu_count()}   CPU: {cpu}   ({platform.machine()}, {platform.system()} {platform.release()})",
             f"* Python {platform.python_version()} ({platform.python_implementation()})"]
    try:
        load = os.getloadavg()
        start = f"at start {load_at_start[0]:.2f}, " if load_at_start else ""
        lines.append(f"* 1-minute load average {start}at the end {load[0]:.2f} (other processes may share the "
                     f"{os.cpu_count()} cores; timings are medians to damp that, and cdpsym and the peers are timed "
                     "query by query under the same conditions)")
    except OSError:
        pass
    versions = []
    for dist in ("cdpsym", "python-flint", "mpmath", "sympy", "numpy", "scipy"):
        try:
            versions.append(f"{dist} {importlib.metadata.version(dist)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{dist} (not installed)")
    lines.append("* " + ", ".join(versions))
    lines.append("* peers: " + ", ".join(f"{k} {v}" for k, v in pw.peer_versions().items()))
    try:
        import subprocess
        rev = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                             timeout=5).stdout.strip()
        dirty = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--", "cdpsym"], capture_output=True,
                               text=True, timeout=5).stdout.strip()
        if rev:
            lines.append(f"* cdpsym checkout: {rev}" + (" + uncommitted changes under cdpsym/" if dirty else ""))
    except Exception:
        pass
    return lines


class Report:
    def __init__(self, run: Run, elapsed: float, argv: list[str]):
        self.run = run
        self.elapsed = elapsed
        self.argv = argv
        self.out: list[str] = []

    def w(self, line: str = "") -> None:
        self.out.append(line)

    # ---------------------------------------------------------------------------------------------
    def tools_in(self, family: str) -> list[str]:
        seen: list[str] = []
        for r in self.run.rows[family]:
            if r.tool not in seen:
                seen.append(r.tool)
        return seen

    def is_cdpsym(self, tool: str) -> bool:
        return tool.startswith("cdpsym")

    def exact_tool(self, family: str) -> str:
        return "cdpsym zcdp_epsilon: exact Gaussian" if family == "zcdp" else CDPSYM

    def _stats(self, rows: list) -> dict:
        ok = [r for r in rows if r.error is None and r.value is not None]
        return {
            "rows": rows,
            "ok": ok,
            "ratios": [r.ratio for r in ok if r.ratio is not None],
            "below": [r for r in ok if r.below],
            "ms": _median([r.seconds for r in ok if r.seconds is not None]),
            "errors": [r for r in rows if r.error],
            "reps": sorted({r.reps for r in ok}),
        }

    def family_stats(self, family: str) -> dict:
        """Per tool: rows, answered rows, ratios, rows below exact, median seconds over queries, errors, calls."""
        return {tool: self._stats([r for r in self.run.rows[family] if r.tool == tool])
                for tool in self.tools_in(family)}

    def fastest_peer(self, stats: dict, sound: bool = False, tight=None) -> tuple[Optional[str], Optional[float]]:
        """The peer with the smallest median time; *sound*: never below exact; *tight*: max ratio <= tight."""
        best: tuple[Optional[str], Optional[float]] = (None, None)
        for tool, s in stats.items():
            if self.is_cdpsym(tool) or s["ms"] is None or not s["ok"]:
                continue
            if sound and (s["below"] or "(estimate)" in tool):
                continue
            if tight is not None and (not s["ratios"] or s["errors"] or max(s["ratios"]) > tight):
                continue
            if best[1] is None or s["ms"] < best[1]:
                best = (tool, s["ms"])
        return best

    # ---------------------------------------------------------------------------------------------
    def header(self) -> None:
        run = self.run
        mode = "quick smoke run (`--quick`)" if run.quick else "full run"
        self.w("# cdpsym certified accounting vs the peer libraries")
        self.w()
        self.w(f"Generated by `python bench/peers.py{' ' + ' '.join(self.argv) if self.argv else ''}` — {mode}, "
               f"{datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}, "
               f"one process, {self.elapsed:.0f} s wall.")
        self.w()
        for line in machine_info(run.load_at_start):
            self.w(line)
        self.w()
        if run.accounting_problem:
            self.w(f"**cdpsym.accounting was not usable in this run:** {run.accounting_problem}. "
                   "Peers are compared with the mpmath ground truth only; no cdpsym timings.")
            self.w()
        self.w("How to read the tables:")
        self.w()
        self.w("* **exact** ε is the true optimum for the query. cdpsym's number is an Arb ball that provably "
               "encloses it (its `rounded` decimal, rounded up, is shown); every ball is cross-checked against an "
               f"independent mpmath evaluation of the exact profile at {anchors.DPS} digits "
               "(`cdpsym.mechanisms`, computed from the exact binary values of the float inputs every tool got).")
        self.w("* **ratio** = tool's ε / exact ε (`1 + 3e-12` means above by that relative amount).")
        self.w("* **UNSOUND** = the tool's ε (a float, taken at its exact binary value) is strictly below the lower "
               "end of cdpsym's certified ball: it claims more privacy than the mechanism has. The verdict uses a "
               "second, untimed cdpsym call certified to more digits than the default 10 (see the last section); "
               "where even that ball contains the tool's value, the 60-digit mpmath value decides. Shortfalls of "
               "≤ 1e-13 (relative) come from a float root-finder's tolerance or round-off in a tool that is otherwise "
               "exact; they are still listed, as the issue asks.")
        self.w("* **ms** = median wall time of one query (from the parameters to ε: building the mechanism/event/"
               "accountant, composing and converting), `time.perf_counter` over repeated calls after a first call, "
               "imports excluded; the per-family figure is the median over the family's queries. "
               f"A first call slower than {run.timing.slow:g} s gets {run.timing.slow_reps} timed call(s) more, no "
               "others; the slow discretised "
               "accountants (PLD, PRV) are capped to the configurations listed under each table.")
        self.w()

    def headline(self) -> None:
        run = self.run
        self.w("## Headline")
        self.w()
        self.w("Times are the family medians (ms per query). *sound* = never below the exact value on the family's "
               "queries it ran (estimates excluded); *tight* = also within 1 % of the exact value on all of them, with "
               "no error. The issue-5 targets are absolute times for cdpsym's exact answer.")
        self.w()
        self.w("| family | cdpsym ms | issue-5 target | fastest peer | fastest sound peer | fastest sound & tight peer | "
               "queries where cdpsym ≤ every sound peer answer | cdpsym ratio | peers' ratios (bounds) | "
               "UNSOUND peer results |")
        self.w("|---|---:|---|---|---|---|---|---|---|---|")
        for family in ("gauss", "pure", "zcdp"):
            stats = self.family_stats(family)
            s = stats.get(self.exact_tool(family))
            peer = self.fastest_peer(stats)
            speer = self.fastest_peer(stats, sound=True)
            tpeer = self.fastest_peer(stats, sound=True, tight=mp.mpf("1.01"))
            if s and s["ok"]:
                contains = sum(1 for r in s["ok"] if self.anchor_of(r).cross_check)
                cd_ratio = f"1 (exact; ball ∋ truth {contains}/{len(s['ok'])})"
                cd_ms = _ms(s["ms"])
            else:
                cd_ratio, cd_ms = "–", "–"
            target = TARGETS[family]
            if s and s["ms"] is not None and family != "pure":
                target_txt = f"≤ {target:g} ms: {'✓' if s['ms'] * 1000 <= target else '✗'}"
            else:
                target_txt = f"≤ {target:g} ms at k = 1000 (below)" if family == "pure" else f"≤ {target:g} ms"
            peer_ratios = [x for t, st in stats.items() if not self.is_cdpsym(t) and "(estimate)" not in t
                           for x in st["ratios"] if x != mp.inf]
            rng = f"{_ratio(min(peer_ratios))} … {_ratio(max(peer_ratios))}" if peer_ratios else "–"
            self.w(f"| {FAMILY_SHORT[family]} | {cd_ms} | {target_txt} | {_named(peer)} | {_named(speer)} | "
                   f"{_named(tpeer)} | {self.per_query_wins(family)} | {cd_ratio} | {rng} | "
                   f"{self.unsound_summary(stats)} |")
        self.w()
        # the judged 1000-fold figure
        k1000 = [r for r in run.rows["pure"] if r.tool == CDPSYM and r.query.k == 1000 and r.error is None]
        if k1000:
            sub = {}
            for r in run.rows["pure"]:
                if r.query.k == 1000:
                    sub.setdefault(r.tool, []).append(r)
            stats = {t: self._stats(rows) for t, rows in sub.items()}
            cd = _median([r.seconds for r in k1000])
            eps0s = ", ".join(f"{e:g}" for e in sorted({r.query.eps0 for r in k1000}))
            self.w(f"* 1000-fold ε0-DP composition ({len(k1000)} queries, ε0 ∈ {{{eps0s}}}): cdpsym "
                   f"{_ms(cd)} ms (target ≤ {TARGETS['pure']:g} ms: {'✓' if cd * 1000 <= TARGETS['pure'] else '✗'}); "
                   f"fastest peer {_named(self.fastest_peer(stats))}; fastest sound peer "
                   f"{_named(self.fastest_peer(stats, sound=True))}; fastest sound & tight peer "
                   f"{_named(self.fastest_peer(stats, sound=True, tight=mp.mpf('1.01')))}.")
        for family in ("gauss", "pure", "zcdp"):
            stats = self.family_stats(family)
            peer, speer = self.fastest_peer(stats), self.fastest_peer(stats, sound=True)
            if peer[0] is not None and peer[0] != speer[0]:
                s = stats[peer[0]]
                self.w(f"* {FAMILY_SHORT[family]}: the fastest peer, {peer[0]}, is below the exact value on "
                       f"{len(s['below'])} of its {len(s['ok'])} queries (see the last section for why), so its time "
                       f"is not that of a correct answer; the fastest peer never below it is {_named(speer)}.")
        self.w("* In (c) the exact value is the ε of the Gaussian with ρ = 1/(2σ²): it is ρ-zCDP, so every sound "
               "ρ-zCDP ⇒ (ε, δ) conversion returns at least that; the conversions (CKS20, BS16 — cdpsym's own "
               "included) are compared with it.")
        self.w()

    def anchor_of(self, r: "Row") -> Anchor:
        return self.run.anchors[(type(r.query).__name__, r.query)]

    def unsound_summary(self, stats) -> str:
        below = [r for t, st in stats.items() if not self.is_cdpsym(t) and "(estimate)" not in t for r in st["below"]]
        estimates = sum(len(st["below"]) for t, st in stats.items() if "(estimate)" in t)
        if not below:
            text = "0"
        else:
            gross = [r for r in below if r.shortfall is not None and r.shortfall > ROUND_OFF]
            tools = sorted({r.tool for r in gross})
            text = f"**{len(below)}**: {len(gross)} by more than 1e-13"
            if tools:
                text += " (" + "; ".join(f"{t} ×{sum(1 for r in gross if r.tool == t)}" for t in tools) + ")"
            if len(below) > len(gross):
                text += f", {len(below) - len(gross)} at float round-off (≤ 1e-13)"
        if estimates:
            text += f"; +{estimates} estimates"
        return text

    def per_query_wins(self, family: str) -> str:
        by_query: dict = {}
        exact_tool = self.exact_tool(family)
        for r in self.run.rows[family]:
            if r.error or r.seconds is None:
                continue
            if r.below or r.estimate:  # a wrong answer is no reference for speed
                continue
            by_query.setdefault(r.query, {})[r.tool] = r.seconds
        wins = total = 0
        for q, tools in by_query.items():
            if exact_tool not in tools:
                continue
            peers = [s for t, s in tools.items() if not self.is_cdpsym(t)]
            if not peers:
                continue
            total += 1
            wins += tools[exact_tool] <= min(peers)
        return f"{wins}/{total}" if total else "–"

    # ---------------------------------------------------------------------------------------------
    def family_section(self, family: str) -> None:
        run = self.run
        rows = run.rows[family]
        self.w(f"## {FAMILY_TITLES[family]}")
        self.w()
        if not rows:
            self.w("(no queries)")
            self.w()
            return
        queries = []
        for r in rows:
            if r.query not in queries:
                queries.append(r.query)
        ref = next((q for q in queries if REFERENCE[family](q)), queries[0])
        stats = self.family_stats(family)
        self.w(f"{len(queries)} queries. ε is quoted at the reference query {ref.label()} "
               f"(exact ε = {mpmath.nstr(run.anchors[(type(ref).__name__, ref)].truth, 15)}).")
        self.w()
        zc = family == "zcdp"
        self.w("| tool | method | queries | ε @ ref | ratio @ ref | ratio min … max | "
               + ("ratio to exact CKS20 min … max | " if zc else "") + "below exact (UNSOUND) | median ms | calls |")
        self.w("|---|---|---:|---:|---:|---|" + ("---|" if zc else "") + "---|---:|---|")
        for tool, s in stats.items():
            kind = "certified exact (Arb ball)" if tool == CDPSYM else run.tool_kind.get(tool, "")
            ref_row = next((r for r in s["rows"] if r.query == ref), None)
            if s["rows"] and all(r.error and r.error.startswith("not installed") for r in s["rows"]):
                self.w(f"| {tool} | {kind} | 0 | not installed | | | " + ("| " if zc else "") + "| | |")
                continue
            n_ok = len(s["ok"])
            n_err = len(s["errors"])
            ratios = [x for x in s["ratios"]]
            rr = f"{_ratio(min(ratios))} … {_ratio(max(ratios))}" if ratios else "–"
            if self.is_cdpsym(tool) and tool == self.exact_tool(family) and ratios:
                contains = sum(1 for r in s["ok"] if run.anchors[(type(r.query).__name__, r.query)].cross_check)
                rr = f"1 exact (ball ∋ truth {contains}/{n_ok}; rounded up ≤ {_ratio(max(ratios))})"
            below = len(s["below"])
            below_txt = f"**{below} UNSOUND**" if below and not self.is_cdpsym(tool) else str(below)
            if below and any(r.estimate for r in s["below"]):
                below_txt += " (estimate)"
            ref_eps = _eps(ref_row.value) if ref_row and not ref_row.error else (
                f"error: {_short(ref_row.error, 40)}" if ref_row else "not run (capped)")
            ref_ratio = _ratio(ref_row.ratio) if ref_row and not ref_row.error else "–"
            if ref_row and ref_row.below:
                ref_ratio += " ⚠"
            reps = s["reps"]
            calls = (f"{reps[0]}–{reps[-1]}" if len(reps) > 1 else (str(reps[0]) if reps else "–"))
            queries_txt = f"{n_ok}" + (f" (+{n_err} errors)" if n_err else "")
            cks = ""
            if zc:
                cr = [r.cks20_ratio for r in s["ok"] if r.cks20_ratio is not None]
                cks = (f"{_ratio(min(cr))} … {_ratio(max(cr))} | " if cr else "– | ")
            self.w(f"| {tool} | {kind} | {queries_txt} | {ref_eps} | {ref_ratio} | {rr} | {cks}{below_txt} | "
                   f"{_ms(s['ms'])} | {calls} |")
        self.w()
        capped = {t: qs for t, qs in run.capped.items() if qs and family_of(qs[0]) == family}
        for tool, qs in capped.items():
            self.w(f"* {tool}: not run on {len(qs)} of {len(queries)} queries (cost cap: "
                   f"{CAPS.get(tool, '')}).")
        errs = [(t, r) for t, s in stats.items() for r in s["errors"] if not r.error.startswith("not installed")]
        for tool, r in errs:
            self.w(f"* {tool} on {r.query.label()}: {_short(r.error, 160)}")
        if capped or errs:
            self.w()
        if zc and run.zcdp_all:
            self.w(f"Each cdpsym row is timed as a user asking for that value alone "
                   f"(`zcdp_epsilon(rho, delta, methods=[...])`); one call returning all three side by side "
                   f"(the default) takes {_ms(_median(run.zcdp_all))} ms (median over the family).")
            self.w()
        if zc:
            self.w("The CKS20 column compares each conversion with the exact optimum of the CKS20 bound "
                   "(min over α > 1, evaluated in mpmath): a value below 1 there means the tool returned less than "
                   "the bound it implements, i.e. the number is not justified by that bound.")
            self.w()
        self.details(family, queries)

    def details(self, family: str, queries: list) -> None:
        run = self.run
        tools = self.tools_in(family)
        tools = [t for t in tools if not all(r.error and r.error.startswith("not installed")
                                             for r in run.rows[family] if r.tool == t)]
        self.w("<details><summary>every query: ε (ratio to exact), ⚠ = below the exact value</summary>")
        self.w()
        self.w("| query | exact ε | " + " | ".join(tools) + " |")
        self.w("|---|---:|" + "---:|" * len(tools))
        index = {(r.tool, r.query): r for r in run.rows[family]}
        for q in queries:
            a = run.anchors[(type(q).__name__, q)]
            cells = []
            for t in tools:
                r = index.get((t, q))
                if r is None:
                    cells.append("·")
                elif r.error:
                    cells.append(f"error: {_short(r.error, 40)}")
                else:
                    cell = f"{_eps(r.value)} ({_ratio(r.ratio)})"
                    if r.below:
                        cell += " ⚠"
                    cells.append(cell)
            self.w(f"| {q.label()} | {mpmath.nstr(a.truth, 12)} | " + " | ".join(cells) + " |")
        self.w()
        self.w("`·` = not run (cost cap).")
        self.w()
        self.w("</details>")
        self.w()

    # ---------------------------------------------------------------------------------------------
    def tiny_section(self) -> None:
        run = self.run
        rows = run.rows["tiny"]
        self.w(f"## {FAMILY_TITLES['tiny']}")
        self.w()
        if not rows:
            self.w("(no queries)")
            self.w()
            return
        for fam, title in (("gauss", "Gaussian σ = 5, k = 10"), ("pure", "ε0 = 0.1 randomized response, k = 100"),
                           ("zcdp", "ρ = 0.5 zCDP (exact = the Gaussian witness)")):
            fam_rows = [r for r in rows if family_of(r.query) == fam]
            if not fam_rows:
                continue
            queries = []
            for r in fam_rows:
                if r.query not in queries:
                    queries.append(r.query)
            tools = []
            for r in fam_rows:
                if r.tool not in tools:
                    tools.append(r.tool)
            self.w(f"### {title}")
            self.w()
            self.w("| tool | " + " | ".join(f"δ = {q.delta:g}" for q in queries) + " | median ms |")
            self.w("|---|" + "---|" * len(queries) + "---:|")
            self.w("| exact ε | " + " | ".join(mpmath.nstr(run.anchors[(type(q).__name__, q)].truth, 10)
                                               for q in queries) + " | |")
            index = {(r.tool, r.query): r for r in fam_rows}
            for t in tools:
                cells = []
                for q in queries:
                    r = index.get((t, q))
                    if r is None:
                        cells.append("·")
                    elif r.error:
                        cells.append("not installed" if r.error.startswith("not installed")
                                     else f"error: {_short(r.error, 60)}")
                    else:
                        cell = f"{_eps(r.value)} ({_ratio(r.ratio)})"
                        if r.below:
                            cell = f"**{cell} UNSOUND**"
                        cells.append(cell)
                ms = _median([index[(t, q)].seconds for q in queries if (t, q) in index
                              and index[(t, q)].error is None and index[(t, q)].seconds is not None])
                self.w(f"| {t} | " + " | ".join(cells) + f" | {_ms(ms)} |")
            self.w()

    # ---------------------------------------------------------------------------------------------
    def scaling_section(self) -> None:
        run = self.run
        self.w("## Scaling of cdpsym's cost in k")
        self.w()
        if not run.scaling:
            self.w("Not measured (cdpsym.accounting not usable in this run).")
            self.w()
            return
        self.w("Claim: cost grows at most linearly in k for ε0-DP composition, and is constant in k for Gaussians. "
               "δ = 1e-6 (pure DP), 1e-10 (Gaussian); median of repeated calls.")
        self.w()
        self.w("| query | ε (cdpsym, rounded up) | digits | median ms | time / time at smallest k | k / smallest k |")
        self.w("|---|---:|---:|---:|---:|---:|")
        verdicts = []
        for fam in ("pure", "gauss"):
            entries = run.scaling.get(fam, [])
            by_eps: dict = {}
            for q, o in entries:
                by_eps.setdefault(getattr(q, "eps0", getattr(q, "sigma", None)), []).append((q, o))
            for key, series in by_eps.items():
                base = series[0]
                for q, o in series:
                    if o.error:
                        self.w(f"| {q.label()} | error: {_short(o.error, 60)} | | | | |")
                        continue
                    rel = o.seconds / base[1].seconds if base[1].seconds else float("nan")
                    self.w(f"| {q.label()} | {o.certified.rounded} | {o.certified.digits} | {_ms(o.seconds)} | "
                           f"{rel:.2f} | {q.k // base[0].k:,} |")
                ok = [(q, o) for q, o in series if not o.error]
                if len(ok) >= 2:
                    (q0, o0), (q1, o1) = ok[0], ok[-1]
                    growth = o1.seconds / o0.seconds
                    slope = math.log(growth) / math.log(q1.k / q0.k) if growth > 0 else float("nan")
                    if fam == "pure":
                        verdicts.append(f"ε0 = {key:g}: k ×{q1.k // q0.k:,} ⇒ time ×{growth:.2f} "
                                        f"(log-log slope {slope:.2f}; linear = 1) — "
                                        f"{'at most linear ✓' if slope <= 1.0 else 'FASTER THAN LINEAR ✗'}")
                    else:
                        verdicts.append(f"Gaussian σ = {key:g}: k ×{q1.k // q0.k:,} ⇒ time ×{growth:.2f} — "
                                        f"{'constant in k ✓ (within 2x)' if growth <= 2.0 else 'NOT CONSTANT ✗'}")
        self.w()
        for v in verdicts:
            self.w(f"* {v}")
        for label, o in run.scaling.get("build", []):
            self.w(f"* of cdpsym's time, building the mechanism object `{label}` alone takes {_ms(o.seconds)} ms "
                   "(included in every cdpsym time above, as for the peers)")
        self.w()

    # ---------------------------------------------------------------------------------------------
    def unsound_section(self) -> None:
        run = self.run
        self.w("## Peer results below the exact value (UNSOUND)")
        self.w()
        found = []
        for family in ("gauss", "pure", "zcdp", "tiny"):
            for r in run.rows[family]:
                if r.below and not self.is_cdpsym(r.tool):
                    found.append((family, r))
        if not found:
            self.w("None: no peer returned an ε strictly below the certified exact value in this run.")
            self.w()
            return
        self.w(f"{len(found)} peer results claim more privacy than the mechanism has: ε strictly below the lower end "
               "of cdpsym's certified ball (or, where that ball is too wide to decide, below the 60-digit mpmath "
               "value — noted):")
        self.w()
        self.w("| family | query | tool | tool's ε | exact ε | shortfall (relative) | note |")
        self.w("|---|---|---|---:|---:|---:|---|")
        for family, r in sorted(found, key=lambda fr: -float(fr[1].shortfall or 0)):
            a = run.anchors[(type(r.query).__name__, r.query)]
            note = "library's *estimate* (it also returns an upper bound)" if r.estimate else ""
            if r.shortfall is not None and r.shortfall <= ROUND_OFF:
                note = (note + "; " if note else "") + "root-finder tolerance / float round-off"
            if r.note:
                note = (note + "; " if note else "") + r.note
            self.w(f"| {family} | {r.query.label()} | {r.tool} | {r.value!r} | {mpmath.nstr(a.truth, 17)} | "
                   f"{mpmath.nstr(r.shortfall, 3)} | {note} |")
        self.w()

    def problems_section(self) -> None:
        run = self.run
        self.w("## Not measured, errors, cross-checks")
        self.w()
        items = []
        if run.accounting_problem:
            items.append(f"cdpsym.accounting: {run.accounting_problem}")
        for package, why in run.not_installed.items():
            items.append(f"{package}: {why}; its rows are reported as not installed")
        total = sum(1 for a in run.anchors.values() if a.cross_check is not None)
        good = sum(1 for a in run.anchors.values() if a.cross_check)
        if total:
            items.append(f"cdpsym's ball contains the independent mpmath value ({anchors.DPS} digits) for "
                         f"{good}/{total} queries")
            by_type: dict = {}
            for a in run.anchors.values():
                if a.verdict_digits is not None:
                    by_type.setdefault(type(a.query).__name__, []).append(a.verdict_digits)
            names = {"GaussQ": "Gaussian", "PureQ": "ε0-DP", "ZcdpQ": "zCDP"}
            parts = [f"{names[t]}: {min(d)}–{max(d)} digits" if min(d) != max(d) else f"{names[t]}: {d[0]} digits"
                     for t, d in by_type.items()]
            items.append("the UNSOUND verdicts use a second, untimed cdpsym call certified to more digits than the "
                         "default 10 (the first of 30, 20, 15 that cdpsym could certify): " + ", ".join(parts))
            ck, bs = run.bound_checks["cks20"], run.bound_checks["bs16"]
            if ck[1]:
                items.append(f"cdpsym's cks20 ball is not below the exact CKS20 optimum (min over α, mpmath) and within "
                             f"1e-9 of it for {ck[0]}/{ck[1]} queries; its bs16 ball contains ρ + 2√(ρ log(1/δ)) "
                             f"(mpmath) for {bs[0]}/{bs[1]}")
            fell = [a.query.label() for a in run.anchors.values()
                    if a.cert is not None and a.verdict_digits == a.cert.digits]
            if fell:
                items.append(f"cdpsym could certify none of 30, 20, 15 digits for {len(fell)} queries (their verdicts "
                             f"use the default ball, and the mpmath value where that is too wide): " + "; ".join(fell))
        for a in run.anchors.values():
            for n in a.notes:
                items.append(f"{a.query.label()}: {n}")
        items += run.failures
        for tool, qs in run.capped.items():
            items.append(f"{tool}: capped, not run on {len(qs)} queries ({CAPS.get(tool, '')})")
        if not items:
            items.append("nothing")
        for it in items:
            self.w(f"* {it}")
        self.w()

    def render(self) -> str:
        self.header()
        self.headline()
        for family in ("gauss", "pure", "zcdp"):
            self.family_section(family)
        self.tiny_section()
        self.scaling_section()
        self.unsound_section()
        self.problems_section()
        return "\n".join(self.out) + "\n"


# ================================================================================================

def preload() -> None:
    """Import everything the wrappers use, so no timed call pays for an import."""
    import importlib
    modules = ["dp_accounting", "dp_accounting.pld.privacy_loss_distribution", "dp_accounting.pld.common",
               "dp_accounting.pld.accountant", "dp_accounting.pld.pld_privacy_accountant",
               "dp_accounting.rdp.rdp_privacy_accountant", "autodp.mechanism_zoo", "autodp.transformer_zoo",
               "autodp.dp_acct", "autodp.converter", "autodp.rdp_bank", "opendp.prelude", "prv_accountant",
               "cdpsym.mechanisms", "cdpsym.accounting", "flint", "scipy.optimize", "scipy.stats"]
    for name in modules:
        try:
            with pw._quiet():
                importlib.import_module(name)
        except Exception:
            pass
    try:
        pw._opendp()
    except Exception:
        pass


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a handful of configurations (< 1 minute)")
    parser.add_argument("--output", help="write the Markdown report here too (default: bench/RESULTS.md for a "
                                         "full run, nothing for --quick)")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    argv_echo = [a for a in (argv if argv is not None else sys.argv[1:])]

    t_start = time.perf_counter()
    warnings.simplefilter("ignore")  # the peers warn a lot (overflow, deprecations); their answers are what counts
    preload()
    run = Run(quick=args.quick)
    if run.accounting_problem:
        run.say(f"note: {run.accounting_problem}")
    try:
        run.run_family("gauss", gauss_configs(args.quick))
        run.run_family("pure", pure_configs(args.quick))
        run.run_family("zcdp", zcdp_configs(args.quick))
        run.run_family("tiny", tiny_configs(args.quick))
        run.run_scaling()
    except KeyboardInterrupt:
        run.say("interrupted: reporting what was measured")
    except Exception:
        run.failures.append("harness error: " + traceback.format_exc().strip().splitlines()[-1])
        traceback.print_exc()
    elapsed = time.perf_counter() - t_start
    text = Report(run, elapsed, argv_echo).render()
    sys.stdout.write(text)
    sys.stdout.flush()
    target = args.output or (None if args.quick else os.path.join(HERE, "RESULTS.md"))
    if target and not args.no_write:
        with open(target, "w") as fh:
            fh.write(text)
        run.say(f"wrote {target}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
