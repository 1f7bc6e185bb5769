r"""Splitting an atom into an antipodal pair of atoms preserves the masses and does not decrease the KL divergence.

.. math::
    M'[x] = p\,\frac{e^{a\varepsilon}-1}{e^{s\varepsilon}-1},\quad M[x] = e^{s\varepsilon}M'[x],\quad
    M[s_x] = M'[s_x] = p\Big(1-\frac{e^{a\varepsilon}-1}{e^{s\varepsilon}-1}\Big);\qquad
    M[x]+M[s_x] = D[x],\quad M'[x]+M'[s_x] = D'[x],\quad M'[x], M'[s_x] \ge 0,\quad
    D[x]\,a\varepsilon\ \le\ M[x]\,s\varepsilon

for an atom x with ``D'[x] = p > 0``, ``D[x] = e^{aε}p``, ``a ∈ [−1, 1]``, ``ε > 0``,
``s = sign(a)`` (``s = 1`` at ``a = 0``).  This is the construction of DR16 Lemma 3.9
(R-B15): D, D' with ``Δ∞(D, D') = ε`` become the **antipodal** pair M, M' (Def 3.4:
every log-ratio is in {−ε, 0, ε}), atom by atom, with ``D_KL(D‖D') <= D_KL(M‖M')``.

Parts, one set per sign case (the paper's two cases): ``pos_*`` for ``a ∈ [0, 1]``, s = 1 (the
variable ``a_pos``; at a = 0 the split atom is empty, ``M[x] = M'[x] = 0``, and s_x carries the
atom unchanged); ``neg_*`` for ``a ∈ [−1, 0)``, s = −1 (the variable ``a_neg``).  In each case

* ``mass``, ``mass_prime`` — (i) ``D[x] = M[x] + M[s_x]``, ``D'[x] = M'[x] + M'[s_x]``: M, M'
  are distributions when D, D' are;
* ``nonneg_x``, ``nonneg_s`` — (ii) ``M'[x] >= 0``, ``M'[s_x] >= 0`` (so ``M[x] = e^{sε}M'[x]``
  and ``M[s_x] = M'[s_x]`` are masses too): this is where ``a ∈ [−1, 1]`` is needed;
* ``kl`` — (iii) the atom's KL contribution does not decrease:
  ``D[x] log(D[x]/D'[x]) = D[x]·aε <= M[x]·sε + M[s_x]·0``, the contributions of the new
  atoms x and s_x.  Stated without a log of a ratio, so it is defined where a mass is 0
  (``0·log 0 = 0``).

The rest of (ii), antipodality, holds by construction: ``M[x] = e^{sε}M'[x]`` and
``M[s_x] = M'[s_x]`` are how M is defined (sympy evaluates ``log(M[x]/M'[x])`` to ``sε``
outright, so a part stating it would read ``sε = sε``); with the masses non-negative,
every log-ratio of an atom with mass is in {−ε, 0, ε}.

Lemma parts: ``exp_lemma`` (``1 <= e^v``, v >= 0), ``sinh_definition``, and the
paper's Claim 3.11, ``chord_pos`` (``a ∈ [0, 1]``: ``e^{−aε} − 1 <= a(e^{−ε} − 1)``), and
Claim 3.12, ``chord_neg`` (``a ∈ [−1, 0)``: ``a(e^ε − 1) <= 1 − e^{−aε}``).

Encoding notes.

* Two cases, [0, 1] and [−1, 0), which cover [−1, 1] exactly (the sign decider shows
  ``1 − a >= 0`` on the closed [0, 1] through a rational cover of closed domains; a = 0, where
  the split is trivial, was once a third case of five trivial parts).  The sign cases use two
  symbols because numeric points and property draws give one value per symbol name.
* ``e^{sε} − 1`` is written ``e^{sε/2}(e^{sε/2} − e^{−sε/2})`` (``exp_minus_one``): the
  kernel cannot show ``e^ε − 1 ≠ 0`` for ε > 0, which every statement with it in a
  denominator needs; it can for ``e^{ε/2} − e^{−ε/2}``.  The two are equal (the tests check
  the statement's masses against REFERENCE's formula at 50 digits).

Proof.  (i): algebra.  (ii) and (iii): each is ``start = F(lo) <= F(hi) = target`` for an
increasing affine ``F(w) = start + K(w − lo)``, ``K > 0`` written with ``sinh(ε/2)`` (so the
kernel sees its sign), by a fact ``lo <= hi``; ``sinh_definition`` then brings back the
exponential form and algebra closes.  The facts: ``exp_lemma`` at ``v = aε``,
``(1 − a)ε`` (a > 0), ``−aε``, ``(1 + a)ε`` (a < 0) for (ii); Claim 3.11 / 3.12 for (iii), as
``M[x]ε − D[x]aε = K(a(e^{−ε} − 1) − (e^{−aε} − 1))``, ``K = pεe^{(a+1)ε}/(e^ε − 1)``, resp.
``−M[x]ε − D[x]aε = K(1 − e^{−aε} − a(e^ε − 1))``, ``K = pεe^{aε}/(e^ε − 1)``.  The claims are
**convexity of exp** (the chord of ``c ↦ e^{∓εc}`` on [0, 1] lies above the graph), proved
here rather than assumed: the kernel's **monotone** rule in ε from ε = 0, where both sides
agree, with derivative ``a e^{−ε}(e^{(1−a)ε} − 1)`` resp. ``−a e^{−aε}(e^{(1+a)ε} − 1)``,
non-negative by ``exp_lemma`` (itself ``monotone``).  No axiom is used (the
library's ``exp_chord_bound`` is stated for expectations and is not needed); the kernel
rule ``monotone`` is taken as given.

Honest scope: the lemma for finite D, D' is the **sum over the atoms** of ``kl`` (D_KL is
the sum of per-atom contributions; s_x contributes 0) and of ``mass``/``mass_prime`` (for
normalisation).  Summing is termwise, but the kernel has no rule for comparing sums
termwise, so the statement is **per atom**.  The distribution-level lemma is checked
numerically (REFERENCE N42: ``random_pairs``, ``split_pair``, ``check_split``, used by
the tests; KL by direct summation of the distributions).  ``Δ∞(M, M') = ε`` because
the new log-ratios are ±ε or 0 and ``Δ∞(D, D') = ε`` is attained at some atom.

Tight: ``kl`` holds with equality at a ∈ {−1, 0, 1}, where the split is trivial.

References
----------
* Dwork & Rothblum 2016, Def 3.4, Lemma 3.9, Proposition 3.1 with Claims 3.11, 3.12, arXiv:1603.01887v2
  (the proof's "Since Δ∞(D, D') = e^ε" reads "= ε", REFERENCE.md R-H29).
* REFERENCE.md R-B15 (the construction), N42 (random pairs).
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import mpmath
import sympy as sp

from cdpsym.expr import eps, p, positive, x
from cdpsym.expr.domains import Interval
from cdpsym.proof import Chain, Part, Theorem, algebra, by, eq, le, monotone, sign

__all__ = ["theorem", "make", "mutants", "SplitAtom", "split_atom", "exp_minus_one", "a_pos", "a_neg", "v",
           "split_pair", "check_split", "kl_sum", "random_pairs"]

a_pos = sp.Symbol("a_pos", nonnegative=True)  # a in [0, 1], s = 1
a_neg = sp.Symbol("a_neg", negative=True)  # a in [-1, 0), s = -1
v = sp.Symbol("v", nonnegative=True)  # the exponent of exp_lemma


def _pos_domain(hi: sp.Expr = sp.S.One) -> dict:
    return {a_pos: Interval(sp.S.Zero, sp.sympify(hi), False, False, sample_lo=0, sample_hi=float(sp.sympify(hi)))}


_NEG = {a_neg: Interval(-sp.S.One, sp.S.Zero, False, True, sample_lo=-1, sample_hi=-1e-6)}


def exp_minus_one(x: sp.Expr) -> sp.Expr:
    """``e^x − 1``, written ``e^{x/2}(e^{x/2} − e^{−x/2})`` so that the kernel sees it is non-zero for x ≠ 0.

    (The kernel's sign decider cannot show ``e^ε − 1 ≠ 0`` for ε > 0; it shows
    ``e^{ε/2} − e^{−ε/2} > 0``, which sympy simplifies to ``2 sinh(ε/2)``.)  ``_construction``, the
    numeric split used by the N42 check, uses ``e^x − 1`` as REFERENCE writes it.
    """
    return sp.exp(x / 2) * (sp.exp(x / 2) - sp.exp(-x / 2))


@dataclass(frozen=True)
class SplitAtom:
    """The atom x of (D, D') and the two atoms x, s_x of (M, M') it is split into."""

    a: sp.Expr
    s: int
    d: sp.Expr  # D[x] = e^{aε} p
    d_prime: sp.Expr  # D'[x] = p
    m: sp.Expr  # M[x]
    m_prime: sp.Expr  # M'[x]
    m_s: sp.Expr  # M[s_x]
    m_prime_s: sp.Expr  # M'[s_x]


def split_atom(a: sp.Expr, s: int, factor: int = 1, keep_new_atom: bool = True) -> SplitAtom:
    """DR16 Lemma 3.9's split of the atom with ``D'[x] = p``, ``D[x] = e^{aε}p`` (R-B15), sign ``s``.

    ``factor`` and ``keep_new_atom`` build mutants (``M[x] = e^{factor·sε}M'[x]``; the atom s_x dropped).
    """
    ratio = (sp.exp(a * eps) - 1) / exp_minus_one(s * eps)
    m_prime = p * ratio
    m_s = p * (1 - ratio) if keep_new_atom else sp.S.Zero
    return SplitAtom(a, s, sp.exp(a * eps) * p, p, sp.exp(factor * s * eps) * m_prime, m_prime, m_s, m_s)


# -- ground truths: the atom's masses, then direct sums (0·log 0 = 0) ----------------------------------------------

def _construction(pp, aa, e, s=None):
    """The split as a procedure on numbers: (D[x], D'[x]) -> [(M, M') at x, (M, M') at s_x] (R-B15)."""
    s = s if s is not None else (1 if aa >= 0 else -1)
    ratio = (mpmath.exp(aa * e) - 1) / (mpmath.exp(s * e) - 1)
    mp_x = pp * ratio
    return [(mpmath.exp(s * e) * mp_x, mp_x), (pp * (1 - ratio), pp * (1 - ratio))]


def _contribution(m, m_prime):
    """``M log(M/M')`` of one atom, 0 for mass 0."""
    return mpmath.mpf(0) if m == 0 else m * mpmath.log(m / m_prime)


def _point(values, avar):
    aa = values[avar] if avar is not None else mpmath.mpf(0)
    return values[p], aa, values[eps]


def _d_truth(avar):
    def truth(values, dps):
        pp, aa, e = _point(values, avar)
        return [("D[x] = e^{aε}·D'[x], the atom's definition", mpmath.exp(aa * e) * pp)]
    return truth


def _d_prime_truth(values, dps):
    return [("D'[x]", values[p])]


def _zero_truth(values, dps):
    return [("zero", mpmath.mpf(0))]


def _sinh_truth(values, dps):
    return [("mpmath.sinh", mpmath.sinh(values[x]))]


def _kl_truth(avar):
    def truth(values, dps):
        pp, aa, e = _point(values, avar)
        d = mpmath.exp(aa * e) * pp
        return [("D[x] log(D[x]/D'[x]) from the masses", _contribution(d, pp))]
    return truth


def _kl_reversed_truth(avar, s):
    def truth(values, dps):
        pp, aa, e = _point(values, avar)
        return [("M log(M/M') summed over x and s_x", mpmath.fsum(_contribution(m, mp_) for m, mp_ in
                                                                   _construction(pp, aa, e, s)))]
    return truth


# -- the proof ----------------------------------------------------------------------------------------------------

def _exp_lemma() -> Part:
    return Part("exp_lemma", le(1, sp.exp(v)), title="1 <= e^v for v >= 0",
                variables={v: Interval(sp.S.Zero, sp.S.Infinity, False, True, sample_lo=0, sample_hi=30)},
                proof=Chain(sp.S.One).le(sp.exp(v), monotone(v)))


def _claims(exp_one: Part, pos: dict) -> tuple[Part, Part]:
    a = a_pos
    claim_pos = Part(
        "chord_pos", le(sp.exp(-a * eps) - 1, a * (sp.exp(-eps) - 1)),
        title="DR16 Claim 3.11: a(e^{-ε} - 1) >= e^{-aε} - 1 for 0 < a <= 1", variables=pos,
        # h(ε) = a(e^{-ε} - 1) - e^{-aε} + 1, h(0) = 0, h'(ε) = a e^{-ε}(e^{(1-a)ε} - 1)
        proof=Chain(sp.exp(-a * eps) - 1).le(a * (sp.exp(-eps) - 1), monotone(eps, by(
            exp_one, v=(1 - a) * eps, inside=lambda w: a * sp.exp(-eps) * (w - 1)))))
    a = a_neg
    claim_neg = Part(
        "chord_neg", le(a * (sp.exp(eps) - 1), 1 - sp.exp(-a * eps)),
        title="DR16 Claim 3.12: a(e^ε - 1) <= 1 - e^{-aε} for -1 <= a < 0", variables=_NEG,
        # h(ε) = 1 - e^{-aε} - a(e^ε - 1), h(0) = 0, h'(ε) = -a e^{-aε}(e^{(1+a)ε} - 1)
        proof=Chain(a * (sp.exp(eps) - 1)).le(1 - sp.exp(-a * eps), monotone(eps, by(
            exp_one, v=(1 + a) * eps, inside=lambda w: -a * sp.exp(-a * eps) * (w - 1)))))
    return claim_pos, claim_neg


def _sinh_lemma() -> Part:
    return Part("sinh_definition", eq(sp.sinh(x), (sp.exp(x) - sp.exp(-x)) / 2), title="sinh(x) = (e^x - e^{-x})/2",
                variables={x: positive(sample_lo=1e-3, sample_hi=20, log_scale=True)},
                proof=Chain(sp.sinh(x)).eq((sp.exp(x) - sp.exp(-x)) / 2, algebra("definition of sinh")),
                ground_truth=_sinh_truth)


# e^ε − 1 = 2 e^{ε/2} sinh(ε/2): the positive factors K below are written with sinh (the sign decider sees them
# positive), then sinh_definition turns them into the exponential form of the statement
_EM1 = 2 * sp.exp(eps / 2) * sp.sinh(eps / 2)


def _through(start: sp.Expr, fact: Part, value: dict, factor: sp.Expr, low: sp.Expr, high: sp.Expr,
             target: sp.Expr, sinh_def: Part, note: str) -> Chain:
    """``start = F(low) <= F(high) = target`` with ``F(w) = start + factor·(w − low)``, ``factor > 0`` in sinh form,
    by ``fact: low <= high`` (instantiated with ``value``); then e^{±ε/2} back from sinh, then algebra."""
    def f(w):
        return start + factor * (w - low)

    step = f(high)
    return (Chain(start)
            .le(step, by(fact, inside=f, **value))
            .eq(step.subs(sp.sinh(eps / 2), (sp.exp(eps / 2) - sp.exp(-eps / 2)) / 2), by(sinh_def, x=eps / 2))
            .eq(target, algebra(note)))


def _case_parts(case: str, atom: SplitAtom, variables: dict, exp_one: Part, claim: Part | None, sinh_def: Part,
                reverse_kl: bool) -> list[Part]:
    a, s = atom.a, atom.s
    avar = a if a.free_symbols else None
    parts = [
        Part(f"{case}_mass", eq(atom.d, atom.m + atom.m_s), title="D[x] = M[x] + M[s_x]", variables=variables,
             proof=Chain(atom.d).eq(atom.m + atom.m_s, algebra("the split atom and the new atom together carry the mass p e^{aε} of the atom")),
             ground_truth=_d_truth(avar)),
        Part(f"{case}_mass_prime", eq(atom.d_prime, atom.m_prime + atom.m_prime_s), title="D'[x] = M'[x] + M'[s_x]",
             variables=variables, proof=Chain(atom.d_prime).eq(atom.m_prime + atom.m_prime_s, algebra()),
             ground_truth=_d_prime_truth),
    ]
    kl_lhs, kl_rhs = atom.d * (a * eps), atom.m * (s * eps)
    zero, one = sp.S.Zero, sp.S.One
    if case == "pos":  # R = (e^{aε} - 1)/(e^ε - 1)
        nonneg_x = _through(zero, exp_one, {"v": a * eps}, p / _EM1, one, sp.exp(a * eps), atom.m_prime, sinh_def,
                            "M'[x] = p (e^{aε} - 1)/(e^ε - 1)")
        nonneg_s = _through(zero, exp_one, {"v": (1 - a) * eps}, p * sp.exp(a * eps) / _EM1, one,
                            sp.exp((1 - a) * eps), atom.m_prime_s, sinh_def,
                            "1 - R = e^{aε}(e^{(1-a)ε} - 1)/(e^ε - 1)")
        kl = _through(kl_lhs, claim, {}, p * eps * sp.exp((a + 1) * eps) / _EM1, sp.exp(-a * eps) - 1,
                      a * (sp.exp(-eps) - 1), kl_rhs, sinh_def, "M[x]ε - D[x]aε = K (1 - a + a e^{-ε} - e^{-aε})")
    else:  # "neg": R = (e^{aε} - 1)/(e^{-ε} - 1) = (1 - e^{aε})/(1 - e^{-ε}), 1 - e^{-ε} = e^{-ε}(e^ε-1)
        nonneg_x = _through(zero, exp_one, {"v": -a * eps}, p * sp.exp((a + 1) * eps) / _EM1, one,
                            sp.exp(-a * eps), atom.m_prime, sinh_def, "R = e^{aε}(e^{-aε} - 1)/(1 - e^{-ε})")
        nonneg_s = _through(zero, exp_one, {"v": (1 + a) * eps}, p / _EM1, one, sp.exp((1 + a) * eps),
                            atom.m_prime_s, sinh_def, "1 - R = (e^{aε} - e^{-ε})/(1 - e^{-ε})")
        kl = _through(kl_lhs, claim, {}, p * eps * sp.exp(a * eps) / _EM1, a * (sp.exp(eps) - 1),
                      1 - sp.exp(-a * eps), kl_rhs, sinh_def, "-M[x]ε - D[x]aε = K (1 - e^{-aε} - a(e^ε - 1))")
    kl_part = Part(f"{case}_kl", le(kl_lhs, kl_rhs), title="per-atom KL: D[x]·aε <= M[x]·sε + M[s_x]·0",
                   variables=variables, proof=kl, ground_truth=_kl_truth(avar))
    if reverse_kl:  # a mutant: the split's KL at most the atom's
        kl_part = Part(f"{case}_kl", le(kl_rhs, kl_lhs), title="reversed", variables=variables,
                       proof=Chain(kl_rhs).le(kl_lhs, sign()), ground_truth=_kl_reversed_truth(avar, s))
    parts += [
        Part(f"{case}_nonneg_x", le(0, atom.m_prime), title="M'[x] >= 0", variables=variables, proof=nonneg_x,
             ground_truth=_zero_truth),
        # no ground truth: M'[s_x] = p(1 - R) is 0 at a = ±1, where its evaluation is rounding noise of either
        # sign; check_split (N42) checks the masses of whole split distributions instead
        Part(f"{case}_nonneg_s", le(0, atom.m_prime_s), title="M'[s_x] >= 0", variables=variables, proof=nonneg_s),
        kl_part,
    ]
    return parts


def make(factor: int = 1, keep_new_atom: bool = True, reverse_kl: bool = False, pos_hi: object = 1,
         neg_sign: int = -1) -> Theorem:
    """The split with ``M[x] = e^{factor·sε}M'[x]``; mutants and adversarial tests change the construction
    (``factor``, ``keep_new_atom``, ``neg_sign``), reverse the KL comparison, or widen a's range to (0, pos_hi]."""
    pos = _pos_domain(pos_hi)
    exp_one, sinh_def = _exp_lemma(), _sinh_lemma()
    claim_pos, claim_neg = _claims(exp_one, pos)
    pos_atom = split_atom(a_pos, 1, factor, keep_new_atom)
    neg_atom = split_atom(a_neg, neg_sign, factor, keep_new_atom)
    parts = [exp_one, sinh_def, claim_pos, claim_neg,
             *_case_parts("pos", pos_atom, pos, exp_one, claim_pos, sinh_def, reverse_kl),
             *_case_parts("neg", neg_atom, _NEG, exp_one, claim_neg, sinh_def, reverse_kl)]
    return Theorem(
        name="antipodal_splitting",
        reference="R-B15",
        source="Dwork & Rothblum 2016, Def 3.4 and Lemma 3.9 (Prop 3.1, Claims 3.11, 3.12), arXiv:1603.01887v2",
        title="splitting an atom into an antipodal pair",
        variables={eps: positive(sample_lo=1e-3, sample_hi=20, log_scale=True),
                   p: positive(sample_lo=1e-6, sample_hi=1, log_scale=True)},
        parts=tuple(parts),
        numeric_points=({"eps": "0.7", "p": "0.3", "a_pos": "1", "a_neg": "-1", "v": "0", "x": "3"},
                        {"eps": "0.7", "p": "0.3", "a_pos": "0.4", "a_neg": "-0.4", "v": "0.5", "x": "0.1"},
                        {"eps": "0.001", "p": "0.9", "a_pos": "0.5", "a_neg": "-0.75", "v": "3", "x": "0.001"},
                        {"eps": "12", "p": "1e-4", "a_pos": "0.2", "a_neg": "-0.9", "v": "40", "x": "15"},
                        {"eps": "2", "p": "0.5", "a_pos": "0", "a_neg": "-1e-30", "v": "1e-20", "x": "0.5"},
                        {"eps": "0.3", "p": "0.2", "a_pos": "1e-30", "a_neg": "-0.5", "v": "2", "x": "1"}),
        property_examples=30,
        tight="kl: equality at a in {-1, 0, 1}, where the split is trivial.",
    )


theorem = make()


def mutants() -> list[tuple[str, Theorem]]:
    """Unsafe variants of the statement; tests/theorems/test_mutants.py requires each to fail."""
    return [
        ("M[x] = e^{2sε} M'[x]: the antipodal factor squared", make(factor=2)),
        ("the new atom s_x dropped", make(keep_new_atom=False)),
        ("the KL comparison reversed: KL(M‖M') <= KL(D‖D') per atom", make(reverse_kl=True)),
    ]


# -- REFERENCE N42: the lemma on whole distributions, by direct summation ----------------------------------------

def kl_sum(pp, qq):
    """``D_KL(P‖Q) = Σ P log(P/Q)`` over the atoms (mass 0 contributes 0)."""
    return mpmath.fsum(_contribution(x, y) for x, y in zip(pp, qq))


def split_pair(d, d_prime):
    """(M, M', ε) for finite (D, D') with full support: ε = Δ∞(D, D'), every atom split by R-B15."""
    logs = [mpmath.log(x / y) for x, y in zip(d, d_prime)]
    e = max(abs(x) for x in logs)
    m, m_prime = [], []
    for y, lg in zip(d_prime, logs):
        (mx, mpx), (ms, mps) = _construction(y, lg / e, e)
        m += [mx, ms]
        m_prime += [mpx, mps]
    return m, m_prime, e


def random_pairs(count, seed=20261124):
    """``count`` random (D, D') on 2–7 atoms with full support (deterministic seed)."""
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        n = rng.randint(2, 7)
        d = [mpmath.mpf(rng.random()) + mpmath.mpf("0.01") for _ in range(n)]
        dp = [mpmath.mpf(rng.random()) + mpmath.mpf("0.01") for _ in range(n)]
        out.append(([x / mpmath.fsum(d) for x in d], [x / mpmath.fsum(dp) for x in dp]))
    return out


def check_split(d, d_prime, dps=50):
    """N42 for one pair: normalised, antipodal with Δ∞ = ε, masses >= 0, KL(D‖D') <= KL(M‖M') (direct sums)."""
    with mpmath.workdps(dps):
        m, m_prime, e = split_pair(d, d_prime)
        tol = mpmath.mpf(10) ** (-(dps - 10))
        normalised = abs(mpmath.fsum(m) - 1) < tol and abs(mpmath.fsum(m_prime) - 1) < tol
        nonneg = all(x >= -tol for x in m + m_prime)
        ratios = [mpmath.log(x / y) for x, y in zip(m, m_prime) if x > tol and y > tol]
        antipodal = all(min(abs(r - c) for c in (-e, 0, e)) < mpmath.mpf(10) ** (-(dps - 15)) for r in ratios)
        delta_inf = abs(max(abs(r) for r in ratios) - e) < mpmath.mpf(10) ** (-(dps - 15))
        zero_together = all((x > tol) == (y > tol) for x, y in zip(m, m_prime))
        kl_d, kl_m = kl_sum(d, d_prime), kl_sum(m, m_prime)
        return {"normalised": normalised, "nonnegative": nonneg, "antipodal": antipodal, "delta_inf": delta_inf,
                "same_support": zero_together, "kl_not_decreased": kl_d <= kl_m + tol, "kl": (kl_d, kl_m), "eps": e}
