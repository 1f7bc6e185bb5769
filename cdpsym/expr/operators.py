"""Opaque operators: expectation, probability, divergences, distributions.

They are sympy ``Function`` subclasses that never evaluate, so a proof step
can only change them through a justification the kernel checks (a
definition, a cited lemma).  Each prints itself in LaTeX the way a paper
writes it.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["Opaque", "Expect", "Prob", "Renyi", "KL", "HockeyStick", "Normal", "PrivacyLoss", "Indicator",
           "CondExpect", "StepLoss", "ClassLoss", "StepRatio", "ClassRatio", "ComposedRatio", "ClassP", "ClassQ", "SIGNED_SEQUENCES", "ExpectAt", "LinkLoss", "GroupLoss", "KLDiameter", "Output", "normal_density", "P", "Q", "OPAQUE"]


class Opaque(sp.Function):
    """An operator sympy must not evaluate or see inside (subclass it for a new one: the kernel treats
    every subclass as an uninterpreted term, changed only by a justified step)."""

    @classmethod
    def eval(cls, *args):  # noqa: D401 - sympy hook
        return None


class Expect(Opaque):
    r"""``Expect(f)`` is :math:`\mathbb E[f]`, the expectation over the random symbols in ``f``."""

    nargs = 1

    def _latex(self, printer):
        return r"\mathbb{E}\left[%s\right]" % printer._print(self.args[0])

    # an expectation may be +oo (E[e^X] for a heavy tail) or -oo: typed as an extended real
    def _eval_is_extended_positive(self):
        return True if self.args[0].is_positive else None

    def _eval_is_extended_nonnegative(self):
        from cdpsym.expr.symbols import L

        # E_P[L] = D_KL(P||Q) >= 0 for the canonical pair's privacy loss (Gibbs' inequality; E[max(-L, 0)] <=
        # E[e^{-L}] <= 1, so the mean exists in [0, +oo]): typed like the divergence itself
        return True if self.args[0].is_nonnegative or self.args[0] == L else None

    def _eval_is_extended_real(self):
        return True if self.args[0].is_real else None


class Prob(Opaque):
    r"""``Prob(event)`` is :math:`\Pr[\text{event}]`; the event is a sympy relation."""

    nargs = 1

    def _latex(self, printer):
        return r"\Pr\left[%s\right]" % printer._print(self.args[0])

    def _eval_is_nonnegative(self):
        return True

    def _eval_is_real(self):
        return True


class Indicator(Opaque):
    r"""``Indicator(event)`` is :math:`\mathbf 1[\text{event}]`."""

    nargs = 1

    def _latex(self, printer, exp=None):  # exp: sympy's printer passes the exponent of a power (1[A]^c)
        body = r"\mathbf{1}\left[%s\right]" % printer._print(self.args[0])
        return body if exp is None else r"%s^{%s}" % (body, exp)

    def _eval_is_nonnegative(self):
        return True


class Renyi(Opaque):
    r"""``Renyi(alpha, P, Q)`` is :math:`D_\alpha(P\,\|\,Q)` (R-A4)."""

    nargs = 3

    def _latex(self, printer):
        a, p, q = self.args
        return r"D_{%s}\left(%s\,\middle\|\,%s\right)" % (printer._print(a), printer._print(p), printer._print(q))

    def _eval_is_extended_nonnegative(self):  # in [0, +oo]: a divergence may be infinite
        return True


class KL(Opaque):
    r"""``KL(P, Q)`` is :math:`D_{\mathrm{KL}}(P\,\|\,Q)` (R-A2)."""

    nargs = 2

    def _latex(self, printer):
        p, q = self.args
        return r"D_{\mathrm{KL}}\left(%s\,\middle\|\,%s\right)" % (printer._print(p), printer._print(q))

    def _eval_is_extended_nonnegative(self):  # in [0, +oo]: a divergence may be infinite
        return True


class HockeyStick(Opaque):
    r"""``HockeyStick(eps, P, Q)`` is :math:`\delta_{P\|Q}(\varepsilon)=\sup_S P(S)-e^\varepsilon Q(S)` (R-A6)."""

    nargs = 3

    def _latex(self, printer, exp=None):  # exp: sympy's printer passes the exponent of a power (delta(0)^2)
        e, p, q = self.args
        body = r"\delta_{%s\|%s}\left(%s\right)" % (printer._print(p), printer._print(q), printer._print(e))
        return body if exp is None else r"%s^{%s}" % (body, exp)

    def _eval_is_nonnegative(self):
        return True

    def _eval_is_real(self):
        return True


class Normal(Opaque):
    r"""``Normal(m, s)`` is the distribution :math:`\mathcal N(m, s^2)` (an argument of divergences)."""

    nargs = 2

    def _latex(self, printer):
        m, s = self.args
        return r"\mathcal{N}\left(%s, %s\right)" % (printer._print(m), printer._print(s ** 2))  # σ² as a power


class PrivacyLoss(Opaque):
    r"""``PrivacyLoss(P, Q)`` names the privacy-loss random variable :math:`L_{P\|Q}` (R-A1)."""

    nargs = 2

    def _latex(self, printer):
        p, q = self.args
        return r"L_{%s\|%s}" % (printer._print(p), printer._print(q))

    def _eval_is_real(self):
        return True


class _MeanTyping:
    """The typing of a mean: an extended real, (extended) positive or non-negative with its integrand."""

    def _eval_is_extended_positive(self):
        return True if self.args[0].is_positive else None

    def _eval_is_extended_nonnegative(self):
        return True if self.args[0].is_nonnegative else None

    def _eval_is_extended_real(self):
        return True if self.args[0].is_real else None


class CondExpect(_MeanTyping, Opaque):
    r"""``CondExpect(Y, i)`` is :math:`\mathbb E[Y\mid\mathcal F_{i-1}]`: the conditional expectation of ``Y``
    given the *prefix* of step ``i`` of a composition -- the whole history before step ``i``: the adversary's
    coins and the outputs of steps :math:`1,\dots,i-1` (so that, given it, the pair of step ``i`` is fixed).

    A **random variable** (a function of the prefix), not a number: the kernel's ``deterministic`` says so.
    Typed as an extended real, like an expectation.  Only the kernel's class-member rule (``by(fact,
    at_step=i)``) and cited facts about conditional expectations produce or change it.
    """

    nargs = 2

    def _latex(self, printer, exp=None):
        y, i = self.args
        body = r"\mathbb{E}\left[%s \,\middle|\, \mathcal{F}_{%s}\right]" % (printer._print(y), printer._print(i - 1))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)


def _indexed(name: str, fmt: str, **assumptions: bool) -> sp.FunctionClass:
    """A sequence of random variables ``name(i)`` printed ``fmt % i`` (with a power after it when raised)."""
    return sp.Function(name, **assumptions, _latex=lambda self, printer, exp=None: (
        fmt % printer._print(self.args[0]) + (f"^{{{exp}}}" if exp else "")))


#: ``StepLoss(i)``, printed C_i: the privacy loss of step i of the adaptive composition game (DRV10, DR16 §3.1):
#: given the prefix, the adversary picks a pair of the class, and C_i is that pair's privacy loss at step i's
#: output.  A sequence of random variables (an undefined function, so random to the kernel).
StepLoss = _indexed("C", r"C_{%s}", real=True)


#: ``StepRatio(i)``, printed R_i: the likelihood ratio q_i(Y_i)/p_i(Y_i) of the pair the adversary picks at step i
#: (given the prefix), at step i's output (0 where q_i vanishes) -- the step's counterpart of the pair's ``R``, as
#: C_i is of ``L``.  Non-negative at every outcome by definition (a ratio of densities): the kernel trusts this
#: typing (``cdpsym.proof.core.foreign`` admits exactly these ratio sequences with their sign).
StepRatio = _indexed("Rs", r"R_{%s}", nonnegative=True)

#: ``ClassRatio(i)``, printed R^{(i)}: the likelihood ratio of a pair of *class i* (as ``ClassLoss``); read as R_i
#: at step i by the class-member rule, and only there.
ClassRatio = _indexed("Rc", r"R^{(%s)}", nonnegative=True)

#: ``ComposedRatio(k)``, printed Λ_k: the likelihood ratio q^{(k)}/p^{(k)} of the k-fold composition's two views at
#: its output, the product R_1 ⋯ R_k (the axioms of ``theorems.foundations_composition``).  Non-negative.
ComposedRatio = _indexed("Lam", r"\Lambda_{%s}", nonnegative=True)

#: ``ClassP(i)``, ``ClassQ(i)``, printed P_i, Q_i: the two output distributions of a pair of class i (the pair
#: whose likelihood ratio is R^{(i)} and whose loss is L^{(i)}).
ClassP = sp.Function("Pc", _latex=lambda self, printer, exp=None: r"P_{%s}" % printer._print(self.args[0]))
ClassQ = sp.Function("Qc", _latex=lambda self, printer, exp=None: r"Q_{%s}" % printer._print(self.args[0]))

#: the random sequences whose sign is part of their definition (a likelihood ratio is >= 0)
SIGNED_SEQUENCES = (StepRatio, ClassRatio, ComposedRatio)


class ExpectAt(_MeanTyping, Opaque):
    r"""``ExpectAt(Y, j)`` is :math:`\mathbb E_{\mathcal M(x_j)}[Y]`: the expectation with the output of a chain of
    inputs :math:`x_0\simeq x_1\simeq\dots` drawn from :math:`\mathcal M(x_j)` (group privacy).  A number (an
    extended real); plain ``Expect`` of the chain's quantities is under :math:`\mathcal M(x_0)`.  Only the kernel's
    class-member rule (``by(fact, at_link=j)``) and cited facts produce or change it."""

    nargs = 2

    def _latex(self, printer, exp=None):
        y, j = self.args
        body = r"\mathbb{E}_{\mathcal{M}(x_{%s})}\left[%s\right]" % (printer._print(j), printer._print(y))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)


#: ``ClassLoss(i)``, printed L^{(i)}: the privacy loss of an arbitrary pair of *class i* -- the class a scope's
#: hypotheses on ``L^{(i)}`` describe (heterogeneous composition: the pair of step i is a pair of class i).
#: Random (undefined); the class-member rule reads it as C_i at step i, and only there.
ClassLoss = _indexed("Lc", r"L^{(%s)}", real=True)

#: ``LinkLoss(j)``, printed ℓ_j: the privacy loss log m_{j-1}(Y)/m_j(Y) of the link (x_{j-1}, x_j) of a chain of
#: inputs whose consecutive pairs are pairs of the class (group privacy), at an output Y.  Random (undefined).
LinkLoss = _indexed("ell", r"\ell_{%s}", real=True)

#: ``GroupLoss(k)``, printed G_k: the group loss log m_0(Y)/m_k(Y) between the first and the k-th input of the
#: chain, at an output Y of M(x_0) (the sum of the links' losses, by the axioms of ``pure_dp_group_privacy``).
#: Random (undefined); the kernel's supremum rule reads ``E[G_k]`` as D_KL(M(x_0) || M(x_k)).
GroupLoss = _indexed("G", r"G_{%s}", real=True)


class KLDiameter(Opaque):
    r"""``KLDiameter(n)`` is :math:`\sup_{x,x'\in\mathcal X^n}D_{\mathrm{KL}}(\mathcal M(x)\|\mathcal M(x'))`: the
    largest KL divergence between the mechanism's outputs on two inputs of n entries (neighbours differ in at
    most one entry), a number in [0, +oo] (a supremum of KL divergences, each >= 0 by Gibbs' inequality).  Only
    the kernel's supremum rule (``by(fact, over_chains=True)``) bounds it from a fact about the scope's chain."""

    nargs = 1

    def _latex(self, printer, exp=None):
        body = (r"\sup_{x,x'\in\mathcal{X}^{%s}}D_{\mathrm{KL}}\left(\mathcal{M}(x)\,\middle\|\,\mathcal{M}(x')\right)"
                % printer._print(self.args[0]))
        return body if exp is None else r"\left(%s\right)^{%s}" % (body, exp)

    def _eval_is_extended_nonnegative(self):
        return True


#: ``Output(j)``, printed M(x_j): the output distribution of the mechanism on the chain's j-th input.
Output = sp.Function("Mx", _latex=lambda self, printer, exp=None: r"\mathcal{M}(x_{%s})" % printer._print(self.args[0]))


def normal_density(y: sp.Expr, m: sp.Expr, s: sp.Expr) -> sp.Expr:
    """The density of N(m, s²) at y, as an explicit sympy expression."""
    return sp.exp(-(y - m) ** 2 / (2 * s ** 2)) / sp.sqrt(2 * sp.pi * s ** 2)


# The two output distributions of a mechanism on a neighbouring pair.
P = sp.Symbol("P")
Q = sp.Symbol("Q")

from cdpsym.expr.symbols import describe  # noqa: E402  (the Notation entries of the objects defined here)

describe(P, r"$P = \mathcal{M}(x)$ and $Q = \mathcal{M}(x')$ are the output distributions of the mechanism "
            r"$\mathcal{M}$ on a pair of neighbouring inputs $x, x'$, with densities (or mass functions) $p$, $q$", 1)
describe(HockeyStick, r"$\delta_{P\|Q}(\varepsilon) = \sup_{S} \big(P(S) - e^{\varepsilon} Q(S)\big)$ is the "
                      r"hockey-stick divergence: the mechanism is $(\varepsilon,\delta)$-DP when "
                      r"$\delta_{P\|Q}(\varepsilon) \le \delta$ for every neighbouring pair", 80)
describe(KL, r"$D_{\mathrm{KL}}(P\|Q) = \mathbb{E}[L]$ is the Kullback--Leibler divergence", 81)
describe(Renyi, r"$D_{\alpha}(P\|Q) = \frac{1}{\alpha - 1}\log \mathbb{E}_{Q}\big[(p/q)^{\alpha}\big]$ is the "
                r"R\'enyi divergence of order $\alpha > 1$", 82)
describe(CondExpect, r"$\mathcal{F}_{i}$ is the history (the \emph{prefix}: the adversary's coins and the "
                     r"outputs) of the first $i$ steps of a composition, and $\mathbb{E}[\,\cdot \mid \mathcal{F}_{i}]$ the conditional expectation "
                     r"given it", 84)
describe(ClassLoss, r"$L^{(i)}$ is the privacy loss of a pair of the class allowed at step $i$ of a composition "
                    r"(any pair the adversary may choose there)", 15)
describe(StepRatio, r"$R_i$ is the likelihood ratio $q_i/p_i$ of the pair of step $i$ of a composition at "
                    r"that step's output, and $R^{(i)}$ that of a pair of the class allowed at step $i$", 16)
describe(ComposedRatio, r"$\Lambda_k = R_1 \cdots R_k$ is the likelihood ratio of the $k$-fold composition", 17)
describe(ClassP, r"$P_i, Q_i$ are the output distributions of a pair of the class allowed at step $i$", 14)
describe(ExpectAt, r"$\mathcal{M}(x_j)$ is the output distribution on the $j$-th input of the chain, "
                   r"$\ell_j$ the privacy loss of the link $(\mathcal{M}(x_{j-1}), \mathcal{M}(x_j))$, and "
                   r"$\mathbb{E}_{\mathcal{M}(x_j)}$ the expectation with the output drawn from $\mathcal{M}(x_j)$", 21)
describe(KLDiameter, r"$\sup_{x,x'\in\mathcal{X}^n}D_{\mathrm{KL}}(\mathcal{M}(x)\|\mathcal{M}(x'))$ is the largest "
                     r"KL divergence between the output distributions on two inputs of size $n$", 86)
describe(Expect, r"$\mathbb{E}$ and $\Pr$ are taken under $P$ unless a subscript says otherwise", 90)

#: what the kernel treats as opaque: every subclass of Opaque (CondMGF in the composition foundations, ...)
OPAQUE = (Opaque,)
_Opaque = Opaque
