"""What the library establishes about a subject, and what a target notion then asks for.

Every library theorem whose ``notion`` text is a claim (``"zCDP(rho) implies DP(rho + 2*sqrt(rho*log(1/delta)),
delta)"``) is a **schema**: its subject is a pattern (the parameters are the theorem's variables) and its
target the guarantee it proves.  :func:`guarantees` applies the schemas to a subject, repeatedly (a Gaussian
is zCDP by ``gaussian_zcdp``, hence (ε, δ)-DP by ``approx_dp_of_zcdp``), recording the theorems used and the
conditions under which each applies (every instantiated variable in the theorem's domain).

:func:`obligations` reduces "the subject satisfies the target" to inequalities between closed forms, given
a guarantee of the same kind — the inclusions between notions that hold by definition (R-A5…R-A11): a
notion is monotone in its parameters (ρ-zCDP ⊂ ρ'-zCDP for ρ <= ρ'; (ε, δ)-DP ⊂ (ε', δ')-DP for ε <= ε',
δ <= δ'), ρ-zCDP is (α, αρ)-RDP for every α and (ρ, ω)-tCDP for every ω, ε-DP is (ε, δ)-DP and (α, ε)-RDP.
A guarantee "(ε(δ), δ)-DP for every δ" is used at the target's δ.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import sympy as sp

from cdpsym.claims.grammar import NotionComposition
from cdpsym.claims.language import Group, parse_claim
from cdpsym.expr.domains import Interval
from cdpsym.mechanisms import Composition, Gaussian, Laplace, RandomizedResponse
from cdpsym.notions import RDP, TCDP, ZCDP, ApproxDP, MeanConcentratedDP, Notion, PureDP

__all__ = ["Schema", "Guarantee", "schemas", "guarantees", "obligations", "Obligation"]


@dataclass(frozen=True)
class Schema:
    """A library theorem read as ``subject => target`` (its ``notion`` text, parsed by the claim language)."""

    theorem: Any
    subject: Any
    target: Notion
    variables: dict  # the theorem's variables and their domains

    @property
    def name(self) -> str:
        return self.theorem.name


@dataclass(frozen=True)
class Obligation:
    """``lhs op rhs`` must hold on the claim's domain; ``why`` says what it stands for."""

    lhs: sp.Expr
    op: str
    rhs: sp.Expr
    why: str


@dataclass(frozen=True)
class Guarantee:
    """The subject satisfies ``notion``; ``family`` is a parameter it holds for every value of (δ of a
    (ε(δ), δ)-DP family, in its ``family_domain``); ``conditions`` must hold for the theorems to apply."""

    notion: Notion
    theorems: tuple[str, ...] = ()
    conditions: tuple[Obligation, ...] = ()
    family: sp.Symbol | None = None
    family_domain: Interval | None = None

    def describe(self) -> str:
        via = f" by {', '.join(self.theorems)}" if self.theorems else " (the hypothesis)"
        return f"{self.notion!r}{via}"


@functools.lru_cache(maxsize=1)
def schemas() -> tuple[Schema, ...]:
    """The library theorems whose ``notion`` text is a claim ``subject is/implies notion`` **and says what the
    theorem's statement says** (:func:`statement_mismatch`); the others are never used."""
    return tuple(s for s in _all_schemas() if statement_mismatch(s) is None)


@functools.lru_cache(maxsize=1)
def _all_schemas() -> tuple[Schema, ...]:
    from cdpsym import theorems

    out = []
    for thm in theorems.LIBRARY:
        try:
            claim = parse_claim(thm.notion)
        except Exception:  # noqa: BLE001 - a lemma's notion text is prose, not a claim
            continue
        if claim.kind != "implication":
            continue
        out.append(Schema(thm, claim.subject, claim.target, dict(thm.variables)))
    return tuple(out)


def schema_mismatches() -> dict[str, str]:
    """Library theorems whose notion text is a claim that their statement does not say (should be empty)."""
    return {s.name: m for s in _all_schemas() if (m := statement_mismatch(s)) is not None}


# -- the link between a theorem's notion text and its statement ----------------------------------------------

def _same(a: sp.Expr, b: sp.Expr) -> bool:
    """Equal as expressions: identical, or their difference expands or simplifies to 0."""
    try:
        a, b = sp.sympify(a), sp.sympify(b)
        if a == b:
            return True
        d = sp.expand(a - b)
        return d == 0 or sp.simplify(d) == 0
    except Exception:  # noqa: BLE001 - not shown equal
        return False


def _loss_of(expr: sp.Basic) -> tuple[str, sp.Expr | None] | None:
    """``("single", None)`` for the loss ``L`` of one pair, ``("composed", k)`` for ``L(k)``."""
    from cdpsym.expr import symbols as S

    if expr == S.L:
        return ("single", None)
    if isinstance(expr, sp.core.function.AppliedUndef) and str(expr.func) == "L" and len(expr.args) == 1:
        return ("composed", expr.args[0])
    if isinstance(expr, sp.core.function.AppliedUndef) and str(expr.func) == "G" and len(expr.args) == 1:
        return ("group", expr.args[0])  # the loss between datasets at distance k (a chain of neighbours)
    return None


def _target_of_part(rel) -> tuple[Notion, tuple] | None:
    """The notion a part's relation states, with the loss it is about."""
    from cdpsym.expr import symbols as S
    from cdpsym.expr.operators import Expect, HockeyStick, Prob, Renyi

    lhs, op, rhs = rel.lhs, rel.op, rel.rhs
    if isinstance(lhs, HockeyStick) and op == "<=":
        pair = lhs.args[1]
        kind = ("composed", pair.args[0]) if isinstance(pair, sp.core.function.AppliedUndef) else ("single", None)
        return ApproxDP(eps=lhs.args[0], delta=rhs), kind
    if isinstance(lhs, Renyi) and op == "<=":
        a = lhs.args[0]
        rho = sp.simplify(rhs / a)
        if not rho.has(a):
            return ZCDP(rho=rho), ("single", None)
    if isinstance(lhs, Expect) and op == "<=" and isinstance(lhs.args[0], sp.exp) and isinstance(rhs, sp.exp):
        inner = lhs.args[0].args[0]
        for factor in sp.Mul.make_args(inner):
            loss = _loss_of(factor)
            if loss is not None and sp.simplify(inner / factor) == S.lam:
                rho = sp.simplify(rhs.args[0] / (S.lam * (S.lam + 1)))
                if not rho.has(S.lam):
                    return ZCDP(rho=rho), loss
    if isinstance(lhs, Expect) and op == "<=" and isinstance(lhs.args[0], sp.exp) and isinstance(rhs, sp.exp):
        inner = lhs.args[0].args[0]
        for factor in sp.Mul.make_args(inner):
            loss = _loss_of(factor)
            if loss is not None and _same(inner / factor, S.alpha - 1):  # the MGF at order alpha: RDP
                eps_ = sp.simplify(rhs.args[0] / (S.alpha - 1))
                if not eps_.has(S.L):
                    return RDP(alpha=S.alpha, eps=eps_), loss
    if isinstance(lhs, Prob) and op == "=" and rhs == 1 and isinstance(lhs.args[0], sp.And):
        bounds = {}
        for c in lhs.args[0].args:
            if isinstance(c, sp.LessThan):
                if _loss_of(c.lhs):
                    bounds["hi"] = (c.rhs, _loss_of(c.lhs))
                elif _loss_of(c.rhs):
                    bounds["lo"] = (-c.lhs, _loss_of(c.rhs))
        if "hi" in bounds and "lo" in bounds and _same(bounds["hi"][0], bounds["lo"][0]):
            return PureDP(eps=bounds["hi"][0]), bounds["hi"][1]
    return None


def _cdp_of_parts(parts) -> tuple[Notion, tuple] | None:
    from cdpsym.expr import symbols as S
    from cdpsym.expr.operators import Expect

    mean = sub = None
    for p in parts:
        lhs, rhs = p.relation.lhs, p.relation.rhs
        if p.relation.op != "<=" or not isinstance(lhs, Expect):
            continue
        arg = lhs.args[0]
        if _loss_of(arg):
            mean = (rhs, _loss_of(arg), arg)
        elif isinstance(arg, sp.exp) and isinstance(rhs, sp.exp):
            tau2 = sp.simplify(2 * rhs.args[0] / S.lam ** 2)
            if not tau2.has(S.lam):
                sub = (sp.sqrt(tau2), arg.args[0])
    # the subgaussian part must be about the *centred loss itself*, lam*(L - E[L]) -- not another variable
    # (DR16 Thm 3.4's composed loss is only a compensator plus a subgaussian martingale, R-B10)
    if mean is not None and sub is not None and _same(sub[1], S.lam * (mean[2] - Expect(mean[2]))):
        return MeanConcentratedDP(mu=mean[0], tau=sub[0]), mean[1]
    return None


def _hypothesis_notion(thm) -> Any:
    """The subject the hypotheses of *thm* describe: a notion (per step, for compositions) or a Gaussian."""
    from cdpsym.expr import symbols as S
    from cdpsym.expr.operators import Normal, Renyi

    cdp = _cdp_of_parts(thm.hypotheses)  # (mu, tau)-CDP takes two hypotheses: the mean and the subgaussian tail
    if cdp is not None and cdp[1] == ("single", None):
        return cdp[0]
    for h in thm.hypotheses:
        found = _target_of_part(h.relation)
        if found is not None and found[1] == ("single", None):
            return found[0]
        rel = h.relation
        if h.name.startswith("rdp") and rel.op == "<=":
            inner = rel.lhs.args[0].args[0] if rel.lhs.args and isinstance(rel.lhs.args[0], sp.exp) else None
            if inner is not None and isinstance(rel.rhs, sp.exp):
                order = sp.simplify(inner / S.L) + 1
                if not order.has(S.L):
                    return RDP(alpha=order, eps=sp.simplify(rel.rhs.args[0] / (order - 1)))
    for p in thm.parts:
        lhs = p.relation.lhs
        if isinstance(lhs, Renyi) and isinstance(lhs.args[1], Normal):
            for h in thm.hypotheses:
                if h.name == "sensitivity" and h.relation.op == "<=":
                    return ("gaussian", sp.sqrt(h.relation.rhs), lhs.args[1].args[1])
    if any(h.name == "sensitivity" for h in thm.hypotheses):
        return ("gaussian", None, None)
    return None


def _mechanism_of(thm) -> Any:
    """The Laplace or randomized-response mechanism the hypotheses of *thm* describe (its privacy loss), or
    None: the loss must be exactly that of the mechanism, for every output."""
    from cdpsym.expr import symbols as S

    hyps = {h.name: h for h in thm.hypotheses}
    pair, sens = hyps.get("laplace_pair"), hyps.get("sensitivity")
    if pair is not None and sens is not None and pair.relation.op == "=" and pair.relation.lhs == S.L \
            and sens.relation.op == "<=" and _same(sens.relation.lhs, (S.mu - S.nu) ** 2):
        at = pair.relation.rhs.subs({S.mu: 1, S.nu: 0, S.Y: -1})  # (|-1| - |-2|)/b = -1/b
        scale = sp.simplify(-1 / at) if at != 0 else None
        if scale is not None and not scale.has(S.Y, S.mu, S.nu) and _same(
                pair.relation.rhs, (sp.Abs(S.Y - S.nu) - sp.Abs(S.Y - S.mu)) / scale):
            return Laplace(sensitivity=sp.sqrt(sens.relation.rhs), scale=scale)
    rr = hyps.get("randomized_response_pair")
    bits = hyps.get("binary_output")
    if rr is not None and bits is not None and rr.relation.op == "=" and rr.relation.lhs == S.L:
        bit = next(iter(bits.relation.rhs.free_symbols), None)
        if bit is not None and _same(bits.relation.lhs, bit ** 2) and bits.relation.rhs == bit:
            up, down = (sp.simplify(rr.relation.rhs.subs(bit, v)) for v in (1, 0))
            if _same(up + down, 0) and not up.has(bit):
                return RandomizedResponse(eps=up)
    return None


#: hypotheses that are part of what a subject means, not extra assumptions: the other half of pure DP, the
#: definition of the compensated losses, and the descriptions of a mechanism's pair
_PART_OF_THE_SUBJECT = frozenset({"same_support", "compensated_losses", "sensitivity", "laplace_pair",
                                  "randomized_response_pair", "binary_output", "gaussian_pair", "cdp_mean",
                                  "cdp_subgaussian", "rdp", "tcdp"})


def _unaccounted(thm, subject) -> list[str]:
    """The hypotheses of *thm* that reading it as "subject => target" would drop: every hypothesis must be the
    subject's notion (in either direction of the pair) or part of what the subject means."""
    out = []
    for h in thm.hypotheses:
        if h.name in _PART_OF_THE_SUBJECT:
            continue
        found = _target_of_part(h.relation)
        if found is not None and isinstance(subject, Notion) and type(found[0]) is type(subject) and all(
                _same(a, b) for a, b in zip(found[0].params().values(), subject.params().values())):
            continue
        if h.name.startswith("rdp") or h.name.startswith("zcdp") or h.name == "pure_dp":
            if isinstance(subject, Notion):
                continue
        out.append(h.name)
    return out


def statement_claim(thm) -> tuple[Any, Notion] | None:
    """``(subject, target)`` read off a theorem's **statement** (hypotheses and parts), not its notion text:
    what titles are generated from, so that a title cannot drift from what the chain proves."""
    found = [t for p in thm.parts if (t := _target_of_part(p.relation)) is not None]
    cdp = _cdp_of_parts(thm.parts)
    if cdp is not None:
        found.append(cdp)
    if not found:
        return None
    target, loss = found[-1]  # the last part states the result (earlier parts are steps towards it)
    hyp = _hypothesis_notion(thm)
    subject: Any = _mechanism_of(thm)
    if subject is None and isinstance(hyp, tuple) and hyp[0] == "gaussian" and hyp[1] is not None:
        subject = Gaussian(sensitivity=hyp[1], sigma=hyp[2])
    if subject is None and isinstance(hyp, Notion):
        subject = hyp
    if subject is None:
        return None
    if _unaccounted(thm, subject):  # a hypothesis the guarantee would leave out (subsampling's mixture, ...)
        return None
    if loss[0] == "composed":
        subject = NotionComposition((subject,), loss[1])
    elif loss[0] == "group":
        subject = Group(loss[1], subject)
    return subject, target


def statement_mismatch(schema: Schema) -> str | None:
    """None when the theorem's statement says what its notion text says; otherwise what differs."""
    thm = schema.theorem
    found = [t for p in thm.parts if (t := _target_of_part(p.relation)) is not None]
    cdp = _cdp_of_parts(thm.parts)
    if cdp is not None:
        found.append(cdp)
    target = schema.target
    matches = [(n, loss) for n, loss in found if type(n) is type(target)
               and all(_same(a, b) for a, b in zip(n.params().values(), target.params().values()))]
    if not matches:
        shown = "; ".join(repr(n) for n, _ in found) or "no notion"
        return f"the statement gives {shown}, the notion text {target!r}"
    loss = matches[0][1]
    subject = schema.subject
    if isinstance(subject, NotionComposition):
        if loss[0] != "composed" or not _same(loss[1], subject.k):
            return "the notion text composes k times, the statement is about one pair"
        subject = subject.parts[0]
    elif isinstance(subject, Group):
        if loss[0] != "group" or not _same(loss[1], subject.size):
            return "the notion text is about a group of datasets, the statement is not"
        subject = subject.subject
    elif loss[0] != "single":
        return f"the statement is about a {loss[0]} loss, the notion text is not"
    if isinstance(subject, (Laplace, RandomizedResponse)):
        mech = _mechanism_of(thm)
        if type(mech) is not type(subject) or not all(
                _same(mech.parameters[name], value) for name, value in subject.parameters.items()):
            return f"the hypotheses give {mech!r}, the notion text's subject is {subject!r}"
        return None
    hyp = _hypothesis_notion(thm)
    if isinstance(subject, Gaussian):
        if not (isinstance(hyp, tuple) and hyp[0] == "gaussian"):
            return "the notion text is about a Gaussian mechanism, the hypotheses are not"
        if hyp[1] is not None and not (_same(hyp[1], subject.sensitivity) and _same(hyp[2], subject.sigma)):
            return f"the Gaussian of the statement has (sensitivity, sigma) = {hyp[1:]}, the notion text {subject!r}"
        return None
    if not isinstance(hyp, Notion) or type(hyp) is not type(subject) or not all(
            _same(a, b) for a, b in zip(hyp.params().values(), subject.params().values())):
        return f"the hypotheses give {hyp!r}, the notion text's subject is {subject!r}"
    return None


# -- matching a subject against a schema's pattern -----------------------------------------------------------

def _match_params(pattern: dict, actual: dict, mapping: dict) -> bool:
    for name, p in pattern.items():
        a = actual.get(name)
        if a is None:
            return False
        if isinstance(p, sp.Symbol):
            if p in mapping and sp.simplify(mapping[p] - a) != 0:
                return False
            mapping[p] = a
        elif sp.simplify(p - a) != 0:
            return False
    return True


def match(pattern: Any, subject: Any) -> dict | None:
    """The instantiation of the pattern's variables that gives *subject*, or None."""
    mapping: dict = {}
    if isinstance(pattern, Notion) and type(pattern) is type(subject):
        return mapping if _match_params(pattern.params(), subject.params(), mapping) else None
    if isinstance(pattern, (Gaussian, Laplace, RandomizedResponse)) and type(pattern) is type(subject):
        return mapping if _match_params(pattern.parameters, subject.parameters, mapping) else None
    if isinstance(pattern, Group) and isinstance(subject, Group):
        inner = match(pattern.subject, subject.subject)
        if inner is None:
            return None
        if isinstance(pattern.size, sp.Symbol):
            if pattern.size in inner and not _same(inner[pattern.size], subject.size):
                return None
            inner[pattern.size] = subject.size
        elif not _same(pattern.size, subject.size):
            return None
        return inner
    if isinstance(pattern, NotionComposition) and isinstance(subject, NotionComposition):
        if len(pattern.parts) != 1 or len(subject.parts) != 1:
            return None
        inner = match(pattern.parts[0], subject.parts[0])
        if inner is None:
            return None
        if isinstance(pattern.k, sp.Symbol):
            inner[pattern.k] = subject.k
        elif pattern.k != subject.k:
            return None
        return inner
    return None


def _instantiate(schema: Schema, mapping: dict, theorems: tuple[str, ...], conditions: tuple) -> Guarantee:
    """The schema's target under *mapping*; a target variable the subject does not fix is the family."""
    free = set().union(*(sp.sympify(v).free_symbols for v in schema.target.params().values()))
    family_vars = [v for v in free if v not in mapping]
    family = family_dom = None
    subst = dict(mapping)
    if len(family_vars) == 1:
        family_var = family_vars[0]
        family = sp.Dummy(f"{family_var}_family", positive=True)
        family_dom = schema.variables.get(family_var)
        if family_dom is not None and (family_dom.lo.free_symbols or family_dom.hi.free_symbols):
            return None  # a family whose range depends on other variables: not used
        subst[family_var] = family
    elif family_vars:
        return None  # type: ignore[return-value]
    target = type(schema.target)(**{n: sp.sympify(v).xreplace(subst) for n, v in schema.target.params().items()})
    conds = list(conditions)
    for var, value in mapping.items():
        dom = schema.variables.get(var)
        if dom is not None:  # a domain end may name other variables of the theorem: instantiate it too
            dom = Interval(sp.sympify(dom.lo).xreplace(subst), sp.sympify(dom.hi).xreplace(subst), dom.left_open,
                           dom.right_open, dom.integer)
            conds += _membership(value, dom, f"{var} = {value} in the domain of {schema.name}")
    return Guarantee(target, theorems + (schema.name,), tuple(conds), family, family_dom)


def _membership(value: sp.Expr, dom: Interval, why: str) -> list[Obligation]:
    out = []
    if dom.lo is not sp.S.NegativeInfinity:
        out.append(Obligation(dom.lo, "<" if dom.left_open else "<=", value, why))
    if dom.hi is not sp.S.Infinity:
        out.append(Obligation(value, "<" if dom.right_open else "<=", dom.hi, why))
    if dom.integer and not (sp.sympify(value).is_integer):
        out.append(Obligation(sp.S.Zero, "<", sp.S.Zero, f"{why}: {value} must be an integer"))
    return out


def _as_notion_subject(subject: Any) -> list[tuple[Any, tuple[str, ...], tuple]]:
    """Forms of *subject* that schemas may match, with how they were obtained."""
    forms: list[tuple[Any, tuple[str, ...], tuple]] = [(subject, (), ())]
    if isinstance(subject, Group) and isinstance(subject.subject, (Gaussian, Laplace)):
        inner = subject.subject
        scaled = type(inner)(**{**inner.parameters, "sensitivity": subject.size * inner.sensitivity})
        forms.append((scaled, (), ()))
    if isinstance(subject, Composition) and len(subject.groups) == 1:
        base, count = subject.groups[0]
        for g in guarantees(base, depth=1):
            if g.family is None:
                forms.append((NotionComposition((g.notion,), sp.sympify(count)), g.theorems, g.conditions))
    if isinstance(subject, NotionComposition) and len(subject.parts) == 1:
        for g in guarantees(subject.parts[0], depth=1)[1:]:
            if g.family is None:
                forms.append((NotionComposition((g.notion,), subject.k), g.theorems, g.conditions))
    return forms


def guarantees(subject: Any, depth: int = 3) -> list[Guarantee]:
    """What the library establishes about *subject* (the subject itself first, when it is a notion)."""
    out: list[Guarantee] = [Guarantee(subject)] if isinstance(subject, Notion) else []
    frontier: list[tuple[Any, tuple[str, ...], tuple]] = _as_notion_subject(subject)
    for _ in range(depth):
        nxt = []
        for form, theorems, conds in frontier:
            for schema in schemas():
                if schema.name in theorems:
                    continue
                mapping = match(schema.subject, form)
                if mapping is None:
                    continue
                g = _instantiate(schema, mapping, theorems, conds)
                if g is None:
                    continue
                out.append(g)
                if g.family is None:
                    nxt.append((g.notion, g.theorems, g.conditions))
        frontier = nxt
        if not frontier:
            break
    return out


# -- from a guarantee to the target --------------------------------------------------------------------------

def _target_domain(target: Notion) -> list[Obligation]:
    """The target's own parameters must lie in the notion's domain at every point of the claim (a symbolic
    delta may be negative somewhere: no mechanism is (eps, -0.1)-DP)."""
    why = f"a parameter of {type(target).__name__} in its domain"
    le = lambda a, b: Obligation(a, "<=", b, why)  # noqa: E731
    if isinstance(target, PureDP):
        return [le(0, target.eps)]
    if isinstance(target, ApproxDP):
        return [le(0, target.eps), le(0, target.delta), le(target.delta, 1)]
    if isinstance(target, ZCDP):
        return [le(0, target.rho)]
    if isinstance(target, MeanConcentratedDP):
        return [le(0, target.tau)]
    if isinstance(target, RDP):
        return [Obligation(1, "<", target.alpha, why), le(0, target.eps)]
    if isinstance(target, TCDP):
        return [le(0, target.rho), Obligation(1, "<", target.omega, why)]
    return []


def obligations(g: Guarantee, target: Notion) -> list[Obligation] | None:
    """Inequalities that make ``g`` imply ``target`` by the definitions, or None if it cannot."""
    n = g.notion
    extra: list[Obligation] = list(g.conditions) + _target_domain(target)
    if g.family is not None:
        if not isinstance(n, ApproxDP) or not isinstance(target, ApproxDP):
            return None
        at = target.delta
        n = ApproxDP(eps=n.eps.xreplace({g.family: at}), delta=n.delta.xreplace({g.family: at}))
        if g.family_domain is not None:
            extra += _membership(at, g.family_domain, f"the target's delta in the domain of {g.theorems[-1]}")
    le = lambda a, b, why: Obligation(a, "<=", b, why)  # noqa: E731
    if isinstance(target, ZCDP):
        if isinstance(n, ZCDP):
            return extra + [le(n.rho, target.rho, "rho no larger than the target's (zCDP is monotone in rho)")]
        return None
    if isinstance(target, PureDP):
        if isinstance(n, PureDP):
            return extra + [le(n.eps, target.eps, "eps no larger than the target's")]
        return None
    if isinstance(target, ApproxDP):
        if isinstance(n, PureDP):
            return extra + [le(n.eps, target.eps, "eps-DP is (eps', delta)-DP for eps <= eps'")]
        if isinstance(n, ApproxDP):
            return extra + [le(n.eps, target.eps, "eps no larger than the target's (DP is monotone in eps)"),
                            le(n.delta, target.delta, "delta no larger than the target's")]
        return None
    if isinstance(target, MeanConcentratedDP):
        if isinstance(n, MeanConcentratedDP):
            return extra + [le(n.mu, target.mu, "mean no larger than the target's"),
                            le(n.tau, target.tau, "subgaussian parameter no larger than the target's")]
        return None
    if isinstance(target, RDP):
        if isinstance(n, ZCDP):
            return extra + [le(target.alpha * n.rho, target.eps, "rho-zCDP is (alpha, alpha*rho)-RDP")]
        if isinstance(n, PureDP):
            return extra + [le(n.eps, target.eps, "eps-DP is (alpha, eps)-RDP for every alpha")]
        if isinstance(n, TCDP):
            return extra + [Obligation(target.alpha, "<", n.omega, "an order below omega (R-A11)"),
                            le(target.alpha * n.rho, target.eps, "(rho, omega)-tCDP is (alpha, alpha*rho)-RDP "
                                                                 "for alpha < omega")]
        if isinstance(n, RDP):
            return extra + [le(target.alpha, n.alpha, "an order no larger: D_alpha is non-decreasing in alpha "
                                                       "(van Erven & Harremoes 2014, Thm 3)"),
                            le(n.eps, target.eps, "eps no larger than the target's")]
        return None
    if isinstance(target, TCDP):
        if isinstance(n, ZCDP):
            return extra + [le(n.rho, target.rho, "rho-zCDP is (rho, omega)-tCDP for every omega")]
        if isinstance(n, TCDP):
            return extra + [le(n.rho, target.rho, "rho no larger"), le(target.omega, n.omega, "omega no smaller")]
        return None
    return None
