"""Finite sums split by the kernel's canonical form, and sequences of numbers (``cdpsym.expr.symbols.sequence``).

``sum_{i=lo}^{m+c} f(i)`` is its first terms up to ``m`` plus ``f(m+1) + ... + f(m+c)`` (an identity for every
integer ``m``), and a sum with integer limits is written out.  A sequence made by ``sequence`` is a sequence of
numbers: its terms are deterministic, arbitrary reals.  Attacks: a wrong last term, non-integer limits, a
sum to infinity called finite, an inner binder of the same name, a random sequence used as a number.
"""

from __future__ import annotations

import sympy as sp

from cdpsym.expr import k, x
from cdpsym.expr.domains import naturals, real
from cdpsym.expr.symbols import is_sequence, sequence
from cdpsym.proof import Chain, Part, Rel, Theorem, algebra, sign, symbolic_check
from cdpsym.proof.algebra import Context, deterministic, equivalent, finite_value

HOLDS = ("proved", "certified")
i = sp.Symbol("i", integer=True, positive=True)
f = sequence("f_test", "f")
g = sp.Function("g_test", real=True)  # an undefined function: a random sequence
CTX = Context({k: naturals(), x: real()}, ())


def _status(lhs, op, rhs, chain, variables=None):
    thm = Theorem(name="sum_test", reference="", source="test", title="t", variables=dict(variables or {k: naturals()}),
                  parts=(Part(name="t", relation=Rel(lhs, op, rhs), proof=chain),))
    return symbolic_check(thm).status


def S(n, h=f):
    return sp.Sum(h(i), (i, 1, n))


def test_a_sum_splits_off_its_last_terms():
    assert equivalent(S(k + 1), S(k) + f(k + 1), CTX).ok is True
    assert equivalent(S(k + 2), S(k) + f(k + 1) + f(k + 2), CTX).ok is True
    assert equivalent(S(3), f(1) + f(2) + f(3), CTX).ok is True
    assert equivalent(S(0), sp.S.Zero, CTX).ok is True
    assert equivalent(sp.Product(f(i), (i, 1, k + 1)), sp.Product(f(i), (i, 1, k)) * f(k + 1), CTX).ok is True
    assert _status(S(k + 1), "=", S(k) + f(k + 1), Chain(S(k + 1)).eq(S(k) + f(k + 1), algebra())) == "proved"


def test_a_wrong_split_is_not_proved():
    for wrong in (S(k) + f(k), S(k), S(k) + f(k + 2), S(k - 1) + f(k + 1)):
        assert _status(S(k + 1), "=", wrong, Chain(S(k + 1)).eq(wrong, algebra())) not in HOLDS, wrong


def test_non_integer_limits_are_not_split():
    y = sp.Symbol("y", real=True)
    assert equivalent(sp.Sum(f(i), (i, 1, y + 1)), sp.Sum(f(i), (i, 1, y)) + f(y + 1),
                      Context({y: real()}, ())).ok is not True


def test_an_inner_binder_of_the_same_name_is_not_reached():
    inner = sp.Sum(f(i), (i, 1, 2))
    outer = sp.Sum(inner * f(i), (i, 1, k + 1))
    wrong = sp.Sum(inner * f(i), (i, 1, k)) + sp.Sum(f(k + 1), (i, 1, 2)) * f(k + 1)
    assert _status(outer, "=", wrong, Chain(outer).eq(wrong, algebra())) not in HOLDS


def test_a_finite_sum_of_numbers_is_finite_and_an_infinite_one_is_not():
    assert finite_value(S(k), CTX).ok is True
    assert finite_value(sp.Sum(f(i) ** 2 * sp.exp(x), (i, 1, k)), CTX).ok is True
    assert finite_value(sp.Sum(1 / f(i), (i, 1, k)), CTX).ok is not True  # a term may be 1/0
    assert finite_value(sp.Sum(f(i), (i, 1, sp.oo)), CTX).ok is not True
    # 0 <= sum of squares is not the claim that the sum is finite where it is not: 0 < e^{-sum_{i<=oo} f_i^2}
    inf_sum = sp.Sum(f(i) ** 2, (i, 1, sp.oo))
    assert _status(sp.S(0), "<", sp.exp(-inf_sum), Chain(sp.S(0)).lt(sp.exp(-inf_sum), sign())) not in HOLDS


def test_sequences_are_numbers_and_undefined_functions_are_not():
    assert is_sequence(f) and not is_sequence(g)
    assert deterministic(f(k) + S(k)) and not deterministic(g(k))
    assert deterministic(f(k) * x)


def test_a_sum_is_reindexed_from_one():
    shifted = sp.Sum(f(i + 1), (i, 0, k - 1))
    assert equivalent(shifted, S(k), CTX).ok is True
    assert equivalent(sp.Sum(f(i - 2), (i, 3, k + 2)), S(k), CTX).ok is True
    for wrong in (sp.Sum(f(i), (i, 0, k - 1)), sp.Sum(f(i + 1), (i, 0, k))):
        assert _status(S(k), "=", wrong, Chain(S(k)).eq(wrong, algebra())) not in HOLDS, wrong


# -- red-team regressions ---------------------------------------------------------------------------------------------

def test_reversed_ranges_are_not_split_or_written_out():
    j = sp.Symbol("j", integer=True)
    for lhs, rhs in ((sp.Product(j - k - 1, (j, k + 2, k + 1)), sp.S.Zero),   # an empty product is 1
                     (sp.Product(j - 1, (j, k, 5)), sp.S.Zero),              # 24 at k = 2
                     (sp.Sum(1, (j, k + 3, k + 1)), sp.Sum(1, (j, k + 3, k)) + 1),
                     (sp.Sum(j, (j, k, 3)), sp.Sum(j, (j, k, 0)) + 6)):
        assert _status(lhs, "=", rhs, Chain(lhs).eq(rhs, algebra())) not in HOLDS, lhs


def test_splitting_does_not_capture_a_symbol_of_the_limits():
    n = sp.Symbol("n", integer=True, positive=True)
    j = sp.Symbol("j", integer=True)
    inner = 2 * sp.Sum(j, (n, 1, 2))  # = 4j, n bound inside
    lhs, rhs = sp.Sum(inner, (j, 1, n + 1)), sp.Sum(inner, (j, 1, n)) + 10
    assert _status(lhs, "=", rhs, Chain(lhs).eq(rhs, algebra()), {n: naturals()}) not in HOLDS


def test_one_sequence_per_name():
    assert sequence("f_test", "g") is f


# -- fourteenth review (a hostile review found this proved) ------------------------------------------------------------

def test_a_sum_with_a_limit_not_shown_an_integer_is_not_defined():
    # the canonical form types a sum's variable as an integer (3cos(2 pi j) - 1 = 2) while sympy's sign of
    # Sum(2, (j, 1/3, 2/3)) reads one term at j = 1/3: 0 < Sum(3cos(2 pi j) - 1, (j, 1/3, 2/3)) was proved,
    # false under both readings (-5/2 with the term at 1/3; 0 with no integer in [1/3, 2/3])
    from cdpsym.expr.domains import Interval

    j = sp.Symbol("j", real=True)
    a = sp.Symbol("a_sum_test", real=True)
    for lo, hi, variables in ((sp.Rational(1, 3), sp.Rational(2, 3), None),
                              (a, a, {k: naturals(), a: Interval.open(0, 1)}),
                              (1, k + sp.Rational(1, 2), None)):
        const, wavy = sp.Sum(2, (j, lo, hi)), sp.Sum(3 * sp.cos(2 * sp.pi * j) - 1, (j, lo, hi))
        chain = Chain(sp.S.Zero).lt(const, sign()).eq(wavy, algebra())
        assert _status(sp.S.Zero, "<", wavy, chain, variables) not in HOLDS, (lo, hi)
    # integer limits (a declared natural k) keep the sum defined: 0 < sum_{j=1}^{k} 2 is proved
    chain = Chain(sp.S.Zero).lt(sp.Sum(2, (j, 1, k)), sign())
    assert _status(sp.S.Zero, "<", sp.Sum(2, (j, 1, k)), chain) in HOLDS
