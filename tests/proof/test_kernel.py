"""The kernel must never call a false step proved, and must say which checker closed each step."""

from __future__ import annotations

import pytest
import sympy as sp

from cdpsym.expr import (Interval, alpha, delta, eps, greater_than, k, lam, naturals, open_unit, positive, real,
                         rho, t, x)
from cdpsym.proof import (Axiom, Chain, Hypothesis, Part, Theorem, algebra, by, eq, induction, interval, le,
                          numeric, register_axioms, sign, specialize, symbolic_check)
from cdpsym.proof.algebra import Context
import importlib

algebra_module = importlib.import_module("cdpsym.proof.algebra")  # the module, not the function


def statuses(chain, ctx=None):
    """The steps' statuses in ``ctx`` (by default: ε > 0 declared, as the chains below use it)."""
    return [r.status for r in chain.check(ctx or Context({eps: positive()}))]


def test_a_step_may_not_lean_on_an_undeclared_symbols_assumptions():
    """eps is made positive=True; undeclared, its sign is a hidden assumption no domain was checked against."""
    result = Chain(sp.S.Zero).lt(eps, sign()).check(Context())
    assert [r.status for r in result] == ["failed"] and "undeclared" in result[0].detail
    assert statuses(Chain(sp.S.Zero).lt(eps, sign())) == ["proved"]


def test_algebra_proves_identities_and_refutes_non_identities():
    ctx = Context({delta: open_unit()})
    good = Chain(sp.exp(-(2 * sp.sqrt(rho * sp.log(1 / delta))) ** 2 / (4 * rho))).eq(delta, algebra())
    bad = Chain(sp.exp(-(sp.sqrt(rho * sp.log(1 / delta))) ** 2 / (4 * rho))).eq(delta, algebra())
    assert statuses(good, ctx) == ["proved"]
    res = bad.check(ctx)[0]
    assert res.status == "failed" and res.point  # with the sample point that refutes it


def test_sign_step_uses_domains_and_refutes_false_inequalities():
    ctx = Context({alpha: greater_than(1)})
    assert statuses(Chain(sp.S.One).lt(alpha, sign()), ctx) == ["proved"]
    assert statuses(Chain(eps * sp.tanh(eps / 2)).le(eps * (sp.exp(eps) - 1) / 2, sign())) == ["proved"]
    assert statuses(Chain(eps ** 2).le(eps, sign())) == ["failed"]  # false for eps > 1
    assert statuses(Chain(eps).eq(eps, sign())) == ["failed"]  # a sign argument never justifies '='


def test_undecided_algebra_is_supported_never_proved(monkeypatch):
    monkeypatch.setattr(algebra_module, "_simplifications", lambda d, ctx: iter(()))
    # true, but with simplification switched off the kernel cannot close it symbolically
    chain = Chain(sp.cosh(x) ** 2 - sp.sinh(x) ** 2).eq(1, algebra())
    assert statuses(chain) == ["supported"]


def test_numeric_justification_is_evidence_only():
    assert statuses(Chain(eps * sp.tanh(eps / 2)).le(eps ** 2 / 2, numeric())) == ["supported"]
    assert statuses(Chain(eps ** 2 / 2).le(eps * sp.tanh(eps / 2), numeric())) == ["failed"]


def test_interval_certifies_on_a_box_that_covers_the_domain_only():
    ctx = Context({eps: Interval.closed(sp.Rational(1, 2), 4)})
    ok = Chain(eps * sp.tanh(eps / 2)).le(eps ** 2 / 2, interval({eps: (sp.Rational(1, 2), 4)}))
    assert statuses(ok, ctx) == ["certified"]
    bad = Chain(eps ** 2 / 2).le(eps * sp.tanh(eps / 2), interval({eps: (sp.Rational(1, 2), 4)}))
    assert statuses(bad, ctx) == ["failed"]
    # the same true step on a box narrower than the domain, or for an undeclared (unbounded) symbol: no proof
    assert statuses(ok, Context({eps: Interval.closed(sp.Rational(1, 4), 4)})) == ["supported"]
    assert statuses(ok) == ["supported"]


tr = sp.Symbol("t_r", real=True)
MARKOV = Axiom("markov_test", le(sp.Function("Pr")(tr), sp.exp(-lam * tr) * sp.Function("M")(lam)),
               {lam: positive(), tr: real()})
E_TEST = Axiom("e_test", eq(sp.Function("F")(x), x ** 2), {x: real()})
I_TEST = Axiom("i_test", le(sp.Function("F")(x), x ** 2), {x: real()})
S = sp.Function("S", real=True)
S_STEP = Axiom("s_step", eq(S(k + 1), S(k) + 3), {k: naturals()})
S_BASE = Axiom("s_base", eq(S(1), 3))
register_axioms(MARKOV, E_TEST, I_TEST, S_STEP, S_BASE)


def test_an_unregistered_axiom_never_proves():
    rogue = Axiom("markov_test", MARKOV.relation, MARKOV.variables)  # same name and content, not the registered one
    chain = Chain(sp.Function("Pr")(eps)).le(sp.exp(-eps) * sp.Function("M")(1), by(rogue, lam=1, t_r=eps))
    assert statuses(chain) == ["supported"]
    assert statuses(Chain(sp.Function("Pr")(eps)).le(sp.exp(-eps) * sp.Function("M")(1),
                                                     by(MARKOV, lam=1, t_r=eps))) == ["proved"]


def test_by_discharges_domains_of_the_instantiation():
    ctx = Context({alpha: greater_than(1), eps: positive()})
    start = sp.Function("Pr")(eps)
    ok = Chain(start).le(sp.exp(-(alpha - 1) * eps) * sp.Function("M")(alpha - 1),
                         by(MARKOV, lam=alpha - 1, t_r=eps))
    assert statuses(ok, ctx) == ["proved"]
    # lambda = 1 - alpha is negative on alpha > 1: the axiom does not apply
    bad = Chain(start).le(sp.exp(-(1 - alpha) * eps) * sp.Function("M")(1 - alpha),
                          by(MARKOV, lam=1 - alpha, t_r=eps))
    assert statuses(bad, ctx) == ["failed"]


def test_by_refuses_a_step_that_is_not_the_instance():
    wrong = Chain(sp.Function("Pr")(eps)).le(sp.exp(-2 * eps) * sp.Function("M")(1), by(MARKOV, lam=1, t_r=eps))
    # not proved; not refuted either: e^{-2 eps} M(1) and e^{-eps} M(1) agree where the opaque M(1) is 0, and a
    # sample of an opaque term is no counterexample (sixteenth review)
    assert statuses(wrong) == ["supported"]


def test_inequality_inside_a_decreasing_context_is_refused():
    hyp = Hypothesis("h", le(sp.Function("A")(), sp.Function("B")()))
    A, B = sp.Function("A")(), sp.Function("B")()
    ctx = Context(facts=(hyp,))
    up = Chain(2 * A + 1).le(2 * B + 1, by(hyp, inside=lambda w: 2 * w + 1))
    down = Chain(-A).le(-B, by(hyp, inside=lambda w: -w))
    assert statuses(up, ctx) == ["proved"]
    assert statuses(down, ctx) == ["failed"]


def test_a_hypothesis_can_only_be_cited_where_it_is_assumed():
    hyp = Hypothesis("h", le(sp.Function("A")(), sp.Function("B")()))
    chain = Chain(sp.Function("A")()).le(sp.Function("B")(), by(hyp))
    assert statuses(chain, Context(facts=(hyp,))) == ["proved"]
    assert statuses(chain, Context()) == ["failed"]


def test_a_closed_endpoint_is_not_dropped_by_reparametrization():
    r = sp.Symbol("r", nonnegative=True)
    for dom in (Interval.closed(0, 1), Interval(sp.S.Zero, sp.S.One, False, True)):
        assert statuses(Chain(sp.S.Zero).lt(r, sign()), Context({r: dom})) != ["proved"]
    assert statuses(Chain(sp.S.Zero).lt(r, sign()), Context({r: Interval.open(0, 1)})) == ["proved"]


def test_an_equation_rewrites_a_subterm_but_an_inequality_does_not():
    E = E_TEST
    rewrite = Chain(sp.Function("F")(eps) + 1).eq(eps ** 2 + 1, by(E, x=eps))
    assert statuses(rewrite) == ["proved"]
    I = I_TEST
    no_context = Chain(1 - sp.Function("F")(eps)).le(1 - eps ** 2, by(I, x=eps))
    assert statuses(no_context) == ["failed"]


def test_specialize_checks_the_domain_and_that_the_start_is_free_of_the_variable():
    chain = Chain(sp.Function("D")(eps), variables={alpha: greater_than(1)})
    ok = chain.le(sp.exp((alpha - 1) * (alpha - eps)), numeric()).eq(
        sp.exp(-(eps - 1) ** 2 / 4), specialize(alpha=(eps + 1) / 2))
    ctx = Context({eps: greater_than(1)})
    assert ok.check(ctx)[1].status == "proved"
    outside = chain.le(sp.exp((alpha - 1) * (alpha - eps)), numeric()).eq(
        sp.exp(-(eps - 1) ** 2 / 4), specialize(alpha=(eps + 1) / 2))
    assert outside.check(Context({eps: positive()}))[1].status in ("failed", "supported")
    assert outside.check(Context({eps: Interval.open(0, 1)}))[1].status == "failed"
    starts_with = Chain(alpha, variables={alpha: greater_than(1)}).eq(2, specialize(alpha=2))
    assert statuses(starts_with) == ["failed"]


def test_specialize_checks_a_claimed_minimiser():
    g = (alpha - 1) * (alpha * rho - eps)
    chain = Chain(sp.Function("D")(eps), variables={alpha: greater_than(1)}).le(sp.exp(g), numeric())
    ctx = Context({rho: positive(), eps: greater_than(rho)})
    good = chain.eq(sp.exp(-(eps - rho) ** 2 / (4 * rho)), specialize(alpha=(eps + rho) / (2 * rho), minimizes=g))
    assert good.check(ctx)[1].status == "proved"
    not_min = chain.eq(sp.exp(g.subs(alpha, 1 + eps / rho)), specialize(alpha=1 + eps / rho, minimizes=g))
    assert not_min.check(ctx)[1].status == "failed"


def test_induction_proves_a_recurrence_and_rejects_a_wrong_one():
    step_ax, base_ax = S_STEP, S_BASE
    ih = Hypothesis("ih", eq(S(k), 3 * k))
    ctx = Context({k: naturals()})
    good = Chain(S(k)).eq(3 * k, induction(
        k, Chain(S(1)).eq(3, by(base_ax)),
        Chain(S(k + 1)).eq(S(k) + 3, by(step_ax)).eq(3 * k + 3, by(ih))))
    assert statuses(good, ctx) == ["proved"]
    wrong_ih = Hypothesis("ih", eq(S(k), 2 * k))
    bad = Chain(S(k)).eq(2 * k, induction(
        k, Chain(S(1)).eq(3, by(base_ax)),
        Chain(S(k + 1)).eq(S(k) + 3, by(step_ax)).eq(2 * k + 3, by(wrong_ih))))
    assert statuses(bad, ctx) == ["failed"]


def _theorem(rhs, proof, name="t_test"):
    return Theorem(name=name, reference="R-test", source="test", title="test", variables={eps: positive()},
                   parts=(Part("main", le(eps * sp.tanh(eps / 2), rhs), proof=proof),))


def test_theorem_chain_must_end_at_the_statement():
    proof = Chain(eps * sp.tanh(eps / 2)).le(eps * (sp.exp(eps) - 1) / 2, sign())
    assert symbolic_check(_theorem(eps * (sp.exp(eps) - 1) / 2, proof)).status == "proved"
    # same proof, stronger (false) statement
    assert symbolic_check(_theorem(eps * (sp.exp(eps) - 1) / 4, proof, "t_test2")).status == "failed"


def test_theorem_chain_relation_must_imply_the_statement():
    proof = Chain(eps * sp.tanh(eps / 2)).le(eps * (sp.exp(eps) - 1) / 2, sign())
    thm = Theorem(name="t_eq", reference="R-test", source="test", title="test", variables={eps: positive()},
                  parts=(Part("main", eq(eps * sp.tanh(eps / 2), eps * (sp.exp(eps) - 1) / 2), proof=proof),))
    assert symbolic_check(thm).status == "failed"


def test_citing_a_theorem_requires_its_hypotheses():
    h = Hypothesis("pos", le(sp.S.Zero, sp.Function("G")()))
    G = sp.Function("G")()
    inner = Theorem(name="inner_t", reference="R-test", source="test", title="G+1 >= 1", variables={},
                    hypotheses=(h,), parts=(Part("main", le(sp.S.One, G + 1),
                                                 proof=Chain(sp.S.One).le(G + 1, by(h, inside=lambda w: w + 1))),))
    assert symbolic_check(inner).status == "proved"
    # an outer theorem without that hypothesis cannot cite it ...
    outer = Theorem(name="outer_t", reference="R-test", source="test", title="t", variables={},
                    parts=(Part("main", le(sp.S.One, G + 1), proof=Chain(sp.S.One).le(G + 1, by(inner))),))
    assert symbolic_check(outer).status != "proved"
    # ... and one with it can
    outer2 = Theorem(name="outer_t2", reference="R-test", source="test", title="t", variables={}, hypotheses=(h,),
                     parts=(Part("main", le(sp.S.One, G + 1), proof=Chain(sp.S.One).le(G + 1, by(inner))),))
    assert symbolic_check(outer2).status == "proved"


def test_a_domain_wider_than_the_symbols_assumptions_is_refused():
    from cdpsym.errors import ProofError

    with pytest.raises(ProofError, match="positive symbol"):
        Theorem(name="t_wide", reference="R-test", source="test", title="t", variables={eps: real()},
                parts=(Part("main", le(eps, eps), proof=Chain(eps).le(eps, algebra())),))
