r"""``cdpsym check``: a claim is *proved*, *certified*, *refuted* with a counterexample, or honestly *undecided*.

>>> r = check("forall eps > 0: eps*tanh(eps/2) <= eps^2/2")
>>> r.verdict, r.exit_code
('proved', 0)
>>> r = check("zCDP(rho) implies DP(rho + sqrt(rho*log(1/delta)), delta)")
>>> r.verdict, sorted(r.counterexample["parameters"]), r.counterexample["witness"].startswith("Gaussian(")
('refuted', ['delta', 'rho'], True)

How a verdict is reached (DESIGN.md, "The claim language"):

* **relations** (``forall eps > 0: a <= b``, ``a = b FOR ...``): the kernel checks a one-step chain
  justified by ``algebra``, ``sign``, ``monotone`` (nested up to three derivatives) or ``interval``
  (:mod:`cdpsym.claims.relations`); a counterexample is a point of the domain where both sides,
  evaluated in Arb at the exact rational coordinates, violate the relation;
* **subject is/implies notion**: a concrete mechanism against a concrete notion is decided from its exact
  privacy curve (:mod:`cdpsym.claims.exact`: *certified* or *refuted*).  Otherwise the library's theorems
  are applied to the subject (:mod:`cdpsym.claims.semantics`), and what remains — the claimed parameter
  is at least the library's, the theorems' variables are in their domains — are inequalities the kernel
  proves over the claim's whole domain.  A refutation is a concrete mechanism satisfying the subject
  (certified) but not the target (certified), at exact parameters found by a search over several scales.

A verdict is never reached by a float comparison: the search only proposes points.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

import sympy as sp

from cdpsym.claims import exact, relations, search, semantics
from cdpsym.claims.grammar import NotionComposition
from cdpsym.claims.language import Claim, Group, parse_claim
from cdpsym.errors import CdpsymError
from cdpsym.expr.evaluate import NotEvaluable
from cdpsym.expr.parse import ParseError, shorten
from cdpsym.mechanisms import Composition, Gaussian, Laplace, RandomizedResponse
from cdpsym.notions import ApproxDP, Notion, PureDP

__all__ = ["check", "ClaimResult", "EXIT_CODES"]

#: exit code of ``cdpsym check`` by verdict
EXIT_CODES = {"proved": 0, "certified": 0, "refuted": 1, "supported": 2, "undecided": 2, "error": 3}

#: seconds a claim may spend looking for a proof and a counterexample (each)
DEFAULT_SECONDS = 3.0


@dataclass
class ClaimResult:
    """The checker's answer for one claim (the same object from Python and the command line)."""

    claim: str
    verdict: str
    canonical: str = ""
    method: list[str] = field(default_factory=list)
    theorems_used: list[str] = field(default_factory=list)
    counterexample: dict | None = None
    message: str = ""
    seconds: float = 0.0
    steps: list[dict] = field(default_factory=list)
    position: int | None = None
    parsed: Claim | None = field(default=None, repr=False)

    @property
    def exit_code(self) -> int:
        return EXIT_CODES[self.verdict]

    @property
    def holds(self) -> bool:
        return self.verdict in ("proved", "certified")

    def to_json(self) -> dict[str, Any]:
        steps = [{k: v for k, v in s.items() if k in ("relation", "why", "rule", "status")} for s in self.steps]
        out = {"claim": self.claim, "verdict": self.verdict, "canonical": self.canonical, "method": self.method,
               "theorems_used": self.theorems_used, "counterexample": self.counterexample,
               "message": self.message, "seconds": round(self.seconds, 3), "steps": steps}
        if self.position is not None:
            out["column"] = self.position + 1
        return out

    def json(self) -> str:
        return json.dumps(self.to_json())

    def __str__(self) -> str:
        return render_text(self)

    def latex(self) -> str:
        from cdpsym.claims.latexout import claim_latex

        return claim_latex(self)

    def _repr_latex_(self) -> str:
        from cdpsym.notebook import claim_math

        return "$\\displaystyle " + claim_math(self) + "$"

    def _repr_html_(self) -> str:
        from cdpsym.notebook import claim_html

        return claim_html(self)


# -- the entry point -----------------------------------------------------------------------------------------

def check(text: str, *, dps: int = 50, seconds: float = DEFAULT_SECONDS) -> ClaimResult:
    """Check one claim (see the module docstring)."""
    start = time.monotonic()
    _SHOWN_DIGITS[0] = max(15, min(int(dps), 100))
    try:
        claim = parse_claim(text)
    except ParseError as exc:
        return ClaimResult(str(text)[:2000] if isinstance(text, str) else repr(type(text)), "error",
                           message=exc.message, position=exc.position, seconds=time.monotonic() - start)
    except CdpsymError as exc:
        return ClaimResult(shorten(str(text), 2000), "error", message=str(exc), seconds=time.monotonic() - start)
    try:
        undefined = _undefined(claim, seconds)
        if undefined is not None:
            result = undefined
        elif claim.kind == "relation":
            result = _check_relations(claim, seconds)
        else:
            result = _check_implication(claim, seconds)
    except RecursionError:
        result = ClaimResult(text, "undecided", message="the claim is too deeply nested to decide")
    except (NotEvaluable, TypeError, ValueError, ArithmeticError) as exc:  # never a verdict by accident
        result = ClaimResult(text, "undecided", message=f"could not evaluate the claim ({type(exc).__name__}: "
                                                        f"{shorten(str(exc), 200)}); no verdict")
    result.claim = text
    result.canonical = claim.canonical()
    result.parsed = claim
    result.seconds = time.monotonic() - start
    return result


# -- where the claim is defined ----------------------------------------------------------------------------------

_DEFINED = {"positive": ("<", "a logarithm's argument must be positive"),
            "nonnegative": ("<=", "a square root's (or real power's) argument must be non-negative"),
            "nonzero": (None, "a denominator must not vanish")}


def _undefined(claim: Claim, seconds: float) -> ClaimResult | None:
    """The claim as written must be defined on its whole domain (sympy would quietly turn ``x/x`` into 1 and
    ``exp(log(x))`` into ``x``).  A point where it is not: an error naming it; not shown either way:
    undecided.  None when every condition is proved."""
    for expr, kind in claim.conditions:
        op, why = _DEFINED[kind]
        deadline = time.monotonic() + seconds
        if op is None:  # nonzero: positive everywhere or negative everywhere
            if any(relations.prove(*rel, claim.domains, deadline=deadline).status in ("proved", "certified")
                   for rel in ((sp.S.Zero, "<", expr), (expr, "<", sp.S.Zero))):
                continue
            bad = _exact_zero(expr, claim, deadline)
        else:
            if relations.prove(sp.S.Zero, op, expr, claim.domains, deadline=deadline).status in ("proved", "certified"):
                continue
            bad = relations.refute(sp.S.Zero, op, expr, claim.domains, deadline=deadline)
        if bad is not None:
            where = ", ".join(f"{s} = {_exact_text(v)}" for s, v in bad.point.items())
            value = bad.rhs.str(10) if op else "0"
            return ClaimResult(claim.text, "error", message=f"the claim is not defined everywhere on its domain: "
                                                            f"{why}, but {plain(expr)} is {value}"
                                                            f"{' at ' + where if where else ''}")
        return ClaimResult(claim.text, "undecided",
                           message=f"not shown defined on the whole domain ({why}: {plain(expr)}); no verdict")
    return None


def _exact_zero(expr: sp.Expr, claim: Claim, deadline: float) -> relations.Violation | None:
    """A point of the domain where *expr* is exactly 0 (decided by sympy on numbers), or None."""
    if sp.count_ops(expr) > 60:
        return None
    for point in search.points(claim.domains, limit=300):
        if time.monotonic() > deadline:
            return None
        try:
            value = sp.simplify(expr.xreplace(point))
        except (TypeError, ValueError, ArithmeticError):
            continue
        if value == 0:
            return relations.Violation(point, None, None, 0)
    return None


# -- relations -------------------------------------------------------------------------------------------------

def _check_relations(claim: Claim, seconds: float) -> ClaimResult:
    verdicts, methods, steps, notes = [], [], [], []
    for lhs, op, rhs in claim.relations:
        if op == "!=":
            return ClaimResult(claim.text, "undecided", message="'!=' claims are not decided (state an inequality)")
        deadline = time.monotonic() + seconds
        proof = relations.prove(lhs, op, rhs, claim.domains, deadline=deadline, quick=True)
        if proof.status not in ("proved", "certified"):
            violation = relations.refute(lhs, op, rhs, claim.domains, deadline=time.monotonic() + seconds)
            if violation is not None:
                return _refuted_relation(claim, lhs, op, rhs, violation)
            proof = relations.prove(lhs, op, rhs, claim.domains, deadline=time.monotonic() + seconds)
        if proof.status not in ("proved", "certified"):
            box_note = _box_evidence(lhs, op, rhs, claim)
            notes.append(f"{sp.sstr(lhs)} {op} {sp.sstr(rhs)}: not proved ({shorten(proof.detail, 300)}); no "
                         f"counterexample found at {search_count(claim)} points of the domain{box_note}")
            verdicts.append("undecided")
            continue
        verdicts.append(proof.status)
        methods.append(proof.method)
        steps.append(_step(lhs, op, rhs, proof, "the claim"))
    verdict = _weakest(verdicts)
    method = ["symbolic"] + sorted(set(methods))
    message = "; ".join(notes) if notes else _holds_message(verdict, methods)
    return ClaimResult(claim.text, verdict, method=method, message=message, steps=steps)


def search_count(claim: Claim) -> int:
    return sum(1 for _ in search.points(claim.domains, limit=300))


def _box_evidence(lhs, op, rhs, claim: Claim) -> str:
    """Where only a bounded box can be covered: the interval verdict there, as evidence (never a proof)."""
    from cdpsym.proof.branch_and_bound import certify_nonnegative

    if op == "=" or not claim.domains or relations.bounded_box(claim.domains) is not None:
        return ""
    box = {}
    for s, d in claim.domains.items():
        if d.lo.free_symbols or d.hi.free_symbols:
            return ""
        lo = d.lo if d.lo.is_finite else sp.Integer(-100)
        hi = d.hi if d.hi.is_finite else sp.Integer(100)
        if d.lo.is_finite and d.left_open:
            lo = lo + sp.Rational(1, 1000)
        if d.hi.is_finite and d.right_open:
            hi = hi - sp.Rational(1, 1000)
        if lo >= hi:
            return ""
        box[s] = (lo, hi)
    a, o, b = relations.normalise(lhs, op, rhs)
    try:
        res = certify_nonnegative(b - a, box, strict=(o == "<"), max_boxes=400)
    except Exception:  # noqa: BLE001 - evidence only
        return ""
    if res.ok:
        shown = ", ".join(f"{s} in [{lo}, {hi}]" for s, (lo, hi) in box.items())
        return f"; certified on the box {shown} only (interval arithmetic), undecided elsewhere"
    return ""


def _refuted_relation(claim: Claim, lhs, op, rhs, v: relations.Violation) -> ClaimResult:
    params = {str(s): _exact_text(x) for s, x in v.point.items()}
    fixed = ", ".join(f"{k} = {x}" for k, x in params.items())
    relation = f"{plain(lhs)} {op} {plain(rhs)}"
    command = f'cdpsym check "{relation}' + (f' FOR {fixed}"' if fixed else '"')
    digits = _digits(v.lhs, v.rhs)
    left, right = (v.rhs, v.lhs) if op in (">=", ">") else (v.lhs, v.rhs)  # Violation holds the normalised sides
    ce = {"parameters": params, "witness": None, "claimed": relation,
          "lhs": left.str(digits), "rhs": right.str(digits), "digits": digits, "command": command}
    where = f"at {fixed}" if fixed else "as numbers"
    msg = f"fails {where}: the left side is {left.str(12)}, the right side {right.str(12)} (Arb balls)"
    if v.extra.get("exactly_equal"):
        msg = f"fails {where}: both sides are exactly equal, the claim is strict"
    return ClaimResult(claim.text, "refuted", method=["search", "interval"], counterexample=ce, message=msg)


# -- subject is/implies notion ---------------------------------------------------------------------------------

def _check_implication(claim: Claim, seconds: float) -> ClaimResult:
    subject, target = claim.subject, claim.target
    if isinstance(subject, Group) and not _group_supported(subject):
        return ClaimResult(claim.text, "undecided", message=f"group privacy of {subject.subject!r} is not modelled")
    plain = _mechanism_of(subject)
    if plain is not None and exact.concrete(plain) and exact.concrete(target):
        ok, ev = exact.satisfies(plain, target)
        if ok is True:
            return ClaimResult(claim.text, "certified", method=["exact", ev.detail or ev.quantity],
                               message=f"{ev.quantity} of {plain!r}: {ev.actual.str(15)} <= {ev.bound.str(15)} "
                                       f"(certified)")
        if ok is False:
            return _refuted_notion(claim, {}, plain, "the mechanism itself", target, ev)
    for g in semantics.guarantees(subject):  # the kernel's verdicts on the theorems (cached on disk) off the clock:
        for name in g.theorems:               # a cold cache must not turn a proof into "undecided"
            _library_status(name)
    deadline = time.monotonic() + seconds
    left: dict[int, int] = {}  # per guarantee: the obligations the quick pass left open
    proved = _prove_implication(claim, deadline, quick=True, left=left)
    if proved is not None:
        return proved
    refutation = _refute_implication(claim, time.monotonic() + seconds)
    if refutation is not None:
        return refutation
    proved = _prove_implication(claim, time.monotonic() + seconds, quick=False, left=left)
    if proved is not None:
        return proved
    optimum = _optimum_supports(claim)
    if optimum is not None:
        return optimum
    tried = [g.describe() for g in semantics.guarantees(subject) if semantics.obligations(g, target) is not None]
    msg = ("no library theorem establishes it" if not tried
           else f"the library gives {'; '.join(tried[:3])}, but the kernel could not show that it implies the "
                f"target on the whole domain")
    return ClaimResult(claim.text, "undecided", method=["symbolic", "search"],
                       message=f"{msg}; no counterexample found among the witnesses searched")


#: the library's statements of the exact optimum of composing DP mechanisms: one kind of step, two kinds
_OPTIMUM_THEOREMS = {1: "approx_dp_optimal_composition_homogeneous", 2: "approx_dp_optimal_composition"}


def _optimum_supports(claim: Claim) -> ClaimResult | None:
    """A concrete claim "composition of DP notions is (ε, δ)-DP" that the exact optimum over all adaptive
    compositions satisfies (certified): *supported*, never proved -- that the product of the four-outcome
    randomized responses is the worst composition is KOV15 Thm 3.3 / MV16 (R-F7, R-F8), which the library
    checks at 50 digits but does not prove."""
    from cdpsym.accounting.pure_dp import DPComposition

    subject, target = claim.subject, claim.target
    if not isinstance(target, (ApproxDP, PureDP)) or not (exact.concrete(subject) and exact.concrete(target)):
        return None
    steps = exact._dp_steps(subject)
    if steps is None:
        return None
    try:
        accountant = DPComposition.from_subject(subject)
        ok, ev = exact._profile(accountant, target.eps, target.delta if isinstance(target, ApproxDP) else 0)
    except (CdpsymError, ValueError, TypeError, ArithmeticError):
        return None
    if ok is not True:
        return None
    kinds = len({(e, d) for e, d, _ in steps})
    name = _OPTIMUM_THEOREMS.get(kinds)
    cited = [name] if name is not None else []
    status = _library_status(name) if name is not None else "supported"
    if status == "failed":
        return None
    where = (f"the library's {name} ({status})" if name is not None
             else "Murtagh & Vadhan 2016 for several kinds of step, not stated in the library")
    message = (f"the exact optimum over every adaptive composition of such mechanisms, "
               f"delta(eps = {plain(target.eps)}) = {ev.actual.str(12)} <= {ev.bound.str(12)} "
               f"(certified with Arb balls: {_method_words(ev.detail)}); "
               f"that the product of the four-outcome randomized responses is the worst composition is "
               f"Kairouz, Oh & Viswanath 2015, Thm 3.3 ({where}): checked, not proved")
    bound = plain(target.delta if isinstance(target, ApproxDP) else sp.S.Zero)
    step = {"relation": f"delta(eps = {plain(target.eps)}) = {ev.actual.str(15)} <= {bound}",
            "rule": "exact optimum", "why": "the four-outcome product, certified with Arb balls", "status": "supported",
            "eps": plain(target.eps), "actual": ev.actual.str(15), "bound": bound}
    return ClaimResult(claim.text, "supported", method=["exact", "optimal composition"], theorems_used=cited,
                       message=message, steps=[step])


def _method_words(detail: str) -> str:
    """The accountant's method, without its notes on rounding (they concern its own printed digits)."""
    return (detail or "the certified accountant").split("; the value lies")[0].split(", rounded up")[0]


def _group_supported(g: Group) -> bool:
    return isinstance(g.subject, (Gaussian, Laplace, Notion, NotionComposition))


def _mechanism_of(subject: Any) -> Any:
    if isinstance(subject, (Gaussian, Laplace, RandomizedResponse, Composition)):
        return subject
    if isinstance(subject, Group) and isinstance(subject.subject, (Gaussian, Laplace)):
        return exact._grouped(subject.subject, subject.size)
    return None


_LIBRARY_STATUS: dict[str, str] = {}


def _library_status(name: str) -> str:
    """The kernel's verdict on a library theorem (it must be proved to be used).

    The verdicts are cached on disk (:func:`_cache_path`), keyed by a hash of every source file of cdpsym and
    of the library and of the sympy/flint versions: the same kernel on the same theorems gives the same
    verdict, so a claim check does not re-run the library's proofs (8 s) each time.  ``CDPSYM_NO_CACHE=1``
    turns the cache off."""
    if name not in _LIBRARY_STATUS:
        cached = _read_cache()
        if name in cached:
            _LIBRARY_STATUS[name] = cached[name]
        else:
            from cdpsym import theorems
            from cdpsym.proof import symbolic_check

            _LIBRARY_STATUS[name] = symbolic_check(theorems.get(name)).status
            _write_cache({**cached, name: _LIBRARY_STATUS[name]})
    return _LIBRARY_STATUS[name]


def _source_key() -> str:
    import hashlib
    import pathlib

    import flint

    root = pathlib.Path(__file__).resolve().parents[1]
    digest = hashlib.sha256(f"{sp.__version__} {flint.__version__}".encode())
    from cdpsym import theorems

    for base in (root, pathlib.Path(theorems.__file__).resolve().parent):
        for path in sorted(base.rglob("*.py")):
            digest.update(str(path.relative_to(base)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:32]


def _cache_path():
    import os
    import pathlib

    if os.environ.get("CDPSYM_NO_CACHE"):
        return None
    base = os.environ.get("CDPSYM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "cdpsym")
    return pathlib.Path(base) / f"library-verdicts-{_source_key()}.json"


def _read_cache() -> dict:
    try:
        path = _cache_path()
        if path is None or not path.exists():
            return {}
        data = json.loads(path.read_text())
        return {k: v for k, v in data.items() if v in ("proved", "certified", "supported", "failed")}
    except (OSError, ValueError):
        return {}


def _write_cache(data: dict) -> None:
    import os

    try:
        path = _cache_path()
        if path is None:
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_text(json.dumps(data))
        os.replace(tmp, path)
    except OSError:
        return


def _prove_implication(claim: Claim, deadline: float, quick: bool, left: dict | None = None) -> ClaimResult | None:
    """A proof from the library: the first guarantee whose obligations the kernel proves, provided the
    theorems it rests on are themselves proved.  The quick pass (identities and signs) runs to the end
    whatever the clock says, so that a verdict does not depend on the machine's speed; only the slower
    rules (monotone, interval) are bounded by *deadline*.  ``left``: the quick pass records there how many
    obligations each guarantee left open; the slow pass tries the guarantees closest to a proof first (a
    theorem that states the claim itself is not kept waiting behind weaker routes until the clock runs out)."""
    found = list(semantics.guarantees(claim.subject))
    order = range(len(found)) if quick or left is None else sorted(range(len(found)),
                                                                  key=lambda n: left.get(n, len(found) + 99))
    for index in order:
        g = found[index]
        obligations = semantics.obligations(g, claim.target)
        if obligations is None:
            continue
        steps, verdicts, methods = [], [], []
        for done, ob in enumerate(obligations):
            if not quick and time.monotonic() > deadline:
                return None
            proof = relations.prove(ob.lhs, ob.op, ob.rhs, claim.domains, deadline=None if quick else deadline,
                                    quick=quick)
            if proof.status not in ("proved", "certified"):
                if quick and left is not None:
                    left[index] = len(obligations) - done
                break
            verdicts.append(proof.status)
            methods.append(proof.method)
            steps.append(_step(ob.lhs, ob.op, ob.rhs, proof, ob.why))
        else:
            statuses = [_library_status(t) for t in g.theorems]  # the kernel's verdict on each theorem used
            if any(st not in ("proved", "certified") for st in statuses):
                continue
            verdict = _weakest(verdicts + statuses)
            via = f"by {', '.join(g.theorems)}" if g.theorems else "from the hypothesis"
            message = (f"{_subject_text(claim.subject)} satisfies {g.notion!r} {via}; "
                       + ("; ".join(s["why"] for s in steps) if steps else "which is the target"))
            return ClaimResult(claim.text, verdict,
                               method=["symbolic"] + [f"by:{t}" for t in g.theorems] + sorted(set(methods)),
                               theorems_used=list(g.theorems), message=message, steps=steps)
    return None


def _subject_text(subject: Any) -> str:
    return repr(subject)


def _refute_implication(claim: Claim, deadline: float) -> ClaimResult | None:
    from cdpsym.claims.language import _replace

    for point in search.points(claim.domains, limit=400):
        if time.monotonic() > deadline:
            break
        try:
            subject = _replace(claim.subject, point)
            target = _replace(claim.target, point)
        except (CdpsymError, ValueError, TypeError):
            continue
        try:
            candidates = exact.witnesses(subject)
        except (CdpsymError, ValueError, TypeError, ArithmeticError, RecursionError, MemoryError):
            continue
        for w, why in candidates:
            try:
                ok, ev = exact.satisfies(w, target)
            except (CdpsymError, ValueError, TypeError, ArithmeticError, RecursionError, MemoryError):
                continue
            if ok is False:
                return _refuted_notion(claim, point, w, why, target, ev)
            if time.monotonic() > deadline:
                break
    return None


def _short_rational_above(at: sp.Rational, eps: sp.Expr) -> sp.Rational:
    """A rational with 20 significant digits at or above the irrational ``eps`` (Arb-certified), to print in a
    command in place of ``at`` (a rational with a hundred digits just above it); ``at`` when none is found."""
    import mpmath

    with mpmath.workdps(40):
        for digits in (20, 30):
            text = mpmath.nstr(mpmath.mpf(at.p) / at.q * (1 + mpmath.mpf(10) ** (1 - digits)), digits)
            cand = sp.Rational(text)
            try:
                if exact._arb(eps - cand, 512) < 0:
                    return cand
            except Exception:  # noqa: BLE001 - keep the long rational
                break
    return at


def _refuted_notion(claim: Claim, point: dict, w: Any, why: str, target: Notion, ev: exact.Evidence) -> ClaimResult:
    params = {str(s): _exact_text(x) for s, x in point.items()}
    digits = _digits(ev.actual, ev.bound)
    target_text = plain(target)
    command = f'cdpsym check "{plain(w)} is {target_text}"'
    extra: dict = {}
    if isinstance(w, exact.FourOutcomeProduct):  # not a mechanism of the language: the accountant re-computes it
        command = f'cdpsym check "{plain(w.subject)} is {target_text}"'  # the claim at the point: refuted again
        extra["witness_kind"] = "four_outcome"
        extra["steps"] = [{"eps": _exact_text(e), "delta": _exact_text(d), "count": str(c)} for e, d, c in w.steps]
    if isinstance(target, (ApproxDP, PureDP)):
        shown = w.subject if isinstance(w, exact.FourOutcomeProduct) else w  # the accountant's optimum is its delta
        at = ev.extra.get("eps_used", target.eps)  # an irrational eps: the rational just above it (delta is smaller)
        if "eps_used" in ev.extra:
            at = _short_rational_above(at, target.eps)
        extra["delta_command"] = f'cdpsym delta "{plain(shown)}" --eps "{plain(at)}"'
        if "eps_used" in ev.extra:
            extra["delta_at"] = (f"a rational eps just above {plain(target.eps)} (delta is non-increasing in eps; "
                                 f"the command uses {plain(at)})")
    ce = {"parameters": params, "witness": plain(w), "witness_satisfies": why,
          "claimed": f"{ev.quantity} <= {ev.bound.str(digits)}", "actual": ev.actual.str(digits),
          "bound": ev.bound.str(digits), "digits": digits, "command": command, **extra}
    where = ", ".join(f"{k} = {x}" for k, x in params.items())
    at_text = f" at {extra['delta_at']}" if "delta_at" in extra else ""
    msg = (f"{'at ' + where + ': ' if where else ''}{plain(w)} ({why}) is not {target_text}: "
           f"its {ev.quantity}{at_text} is {ev.actual.str(12)} > {ev.bound.str(12)}")
    return ClaimResult(claim.text, "refuted", method=["search", "exact"], counterexample=ce, message=msg)


# -- helpers ---------------------------------------------------------------------------------------------------

class _Plain(sp.printing.str.StrPrinter):
    """sympy's str, with rationals as short exact decimals (``1e-100``, ``0.25``) where they terminate."""

    def _print_Rational(self, expr):  # noqa: N802 - sympy's printer protocol
        return _exact_text(expr)

    def _print_Half(self, expr):  # noqa: N802
        return "0.5"


def plain(e: Any) -> str:
    """An expression, mechanism or notion as claim-language text that parses back to the same value."""
    from cdpsym.claims.grammar import NotionComposition

    if isinstance(e, Notion):
        return f"{type(e).__name__}({', '.join(f'{k}={plain(v)}' for k, v in e.params().items())})"
    if isinstance(e, (Gaussian, Laplace, RandomizedResponse)):
        return f"{type(e).__name__}({', '.join(f'{k}={plain(v)}' for k, v in e.parameters.items())})"
    if isinstance(e, Composition):
        parts = [f"compose({plain(b)}, k={c})" if c != 1 else plain(b) for b, c in e.groups]
        return parts[0] if len(parts) == 1 and e.groups[0][1] != 1 else f"compose({', '.join(parts)})"
    if isinstance(e, NotionComposition):
        inner = ", ".join(plain(p) for p in e.parts)
        return f"compose({inner}, k={plain(e.k)})"
    if isinstance(e, Group):
        return f"group(size={plain(e.size)}, {plain(e.subject)})"
    if isinstance(e, exact.FourOutcomeProduct):  # a witness in words (it is no mechanism of the language)
        return repr(e)
    return _Plain().doprint(sp.sympify(e))


_ORDER = ["failed", "undecided", "supported", "certified", "proved"]


def _weakest(verdicts: list[str]) -> str:
    if not verdicts:
        return "undecided"
    return min(verdicts, key=lambda v: _ORDER.index(v) if v in _ORDER else 0)


def _holds_message(verdict: str, methods: list[str]) -> str:
    return f"{verdict} by the kernel ({', '.join(sorted(set(methods)))})"


def _step(lhs, op, rhs, proof: relations.Proof, why: str) -> dict:
    return {"relation": f"{sp.sstr(lhs)} {op} {sp.sstr(rhs)}", "why": why, "rule": proof.method,
            "status": proof.status, "theorem": proof.theorem, "lhs": lhs, "op": op, "rhs": rhs}


def _exact_text(x: sp.Expr) -> str:
    if isinstance(x, sp.Rational) and not isinstance(x, sp.Integer):
        from fractions import Fraction

        s = _decimal(Fraction(int(x.p), int(x.q)))
        return s if s is not None else f"{x.p}/{x.q}"
    if isinstance(x, sp.Integer) and abs(x) >= 10 ** 6 and str(abs(x)).rstrip("0") == "1":
        return f"{'-' if x < 0 else ''}1e{len(str(abs(x))) - 1}"
    if isinstance(x, sp.Integer):
        return str(x)
    return plain(x)


def _decimal(f) -> str | None:
    """The exact terminating decimal of *f* (powers of ten written as 1e-N), or None."""
    d = f.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return None
    e = max(twos, fives)
    scaled = f * 10 ** e
    if scaled.denominator != 1:
        return None
    m = scaled.numerator
    if m == 1:
        return f"1e-{e}"
    s = str(abs(m)).rjust(e + 1, "0")
    out = (s[:-e] + "." + s[-e:]).rstrip("0").rstrip(".") if e else s
    return ("-" if m < 0 else "") + out if len(out) < 40 else f"{m}e-{e}"


#: significant digits shown for the two sides of a counterexample (``--dps``, at most 100 shown)
_SHOWN_DIGITS = [20]


def _digits(a, b) -> int:
    return _SHOWN_DIGITS[0]


def render_text(r: ClaimResult) -> str:
    """Human output: the claim as understood, the verdict, then the counterexample or the proof."""
    lines = []
    if r.verdict == "error":
        lines.append(f"error: {r.message}")
        if r.position is not None and isinstance(r.claim, str) and len(r.claim) <= 300 and "\n" not in r.claim:
            lines.append(f"  {r.claim}")
            lines.append(f"  {' ' * r.position}^")
        return "\n".join(lines)
    lines.append(f"claim:    {shorten(r.canonical, 400)}")
    lines.append(f"verdict:  {r.verdict.upper()}  ({', '.join(r.method)}; {r.seconds:.2f} s)")
    if r.theorems_used:
        lines.append(f"theorems: {', '.join(r.theorems_used)}")
    if r.counterexample:
        ce = r.counterexample
        lines.append(f"counterexample: {r.message}")
        if ce.get("witness"):
            lines.append(f"  witness:  {ce['witness']} ({ce.get('witness_satisfies', '')})")
        lines.append(f"  re-check: {ce['command']}")
        if ce.get("delta_command") and ce["delta_command"] != ce["command"]:
            lines.append(f"            {ce['delta_command']}")
    else:
        lines.append(f"because:  {r.message}")
        for s in r.steps:
            lines.append(f"  {s['relation']}   [{s['rule']}: {s['why']}]")
    return "\n".join(lines)
