"""Opaque operators: expectation, probability, divergences, distributions.

They are sympy ``Function`` subclasses that never evaluate, so a proof step
can only change them through a justification the kernel checks (a
definition, a cited lemma).  Each prints itself in LaTeX the way a paper
writes it.
"""

from __future__ import annotations

import sympy as sp

__all__ = ["Opaque", "Expect", "Prob", "Renyi", "KL", "HockeyStick", "Normal", "PrivacyLoss", "Indicator",
           "normal_density", "P", "Q", "OPAQUE"]


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
        return True if self.args[0].is_nonnegative else None

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
describe(Expect, r"$\mathbb{E}$ and $\Pr$ are taken under $P$ unless a subscript says otherwise", 90)

#: what the kernel treats as opaque: every subclass of Opaque (CondMGF in the composition foundations, ...)
OPAQUE = (Opaque,)
_Opaque = Opaque
