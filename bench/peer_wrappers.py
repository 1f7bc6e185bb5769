"""The peer libraries, each wrapped as "query parameters in, one float epsilon out".

Every wrapper takes the *same* Python floats cdpsym is given (cdpsym reads a
float at its exact binary value) and does, inside the call, everything a user
of that library would do to answer the query from scratch: build the
mechanism / event / accountant, compose, convert.  Nothing is cached between
calls, so repeated calls time the whole query.

A wrapper returns a float (``inf`` allowed), or a ``{variant: float}`` dict when
one call yields several numbers (prv_accountant returns a lower bound, an
estimate and an upper bound).  Anything a library raises is caught by the
caller and reported as that tool's answer ("error: ...").

Query shapes (all floats, sensitivity 1 throughout):

* ``GaussQ(sigma, k, delta)`` — k-fold composition of the Gaussian mechanism
  ``N(f(x), sigma^2)`` with L2 sensitivity 1;
* ``PureQ(eps0, k, delta)`` — k-fold composition of eps0-DP mechanisms, whose
  worst case is binary randomized response with ``P[truth] = e^eps0/(1+e^eps0)``
  (Kairouz–Oh–Viswanath 2015);
* ``ZcdpQ(rho, delta)`` — convert rho-zCDP to (eps, delta)-DP.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.metadata
import io
import math
import warnings
from dataclasses import dataclass
from typing import Callable, Optional, Union

__all__ = ["GaussQ", "PureQ", "ZcdpQ", "Tool", "PEERS", "installed", "peer_versions", "PEER_PACKAGES"]

Value = Union[float, dict]


@dataclass(frozen=True)
class GaussQ:
    sigma: float
    k: int
    delta: float

    @property
    def mu(self) -> float:
        """``sqrt(k)/sigma``: the composition is exactly one Gaussian with this sensitivity/noise ratio."""
        return math.sqrt(self.k) / self.sigma

    def label(self) -> str:
        return f"σ={self.sigma:g}, k={self.k}, δ={self.delta:g}"


@dataclass(frozen=True)
class PureQ:
    eps0: float
    k: int
    delta: float

    def label(self) -> str:
        return f"ε0={self.eps0:g}, k={self.k}, δ={self.delta:g}"


@dataclass(frozen=True)
class ZcdpQ:
    rho: float
    delta: float

    def label(self) -> str:
        return f"ρ={self.rho:g}, δ={self.delta:g}"


@dataclass(frozen=True)
class Tool:
    """One way of answering a query family with one library."""

    name: str                 # as printed in the report
    package: str              # distribution name (for "not installed" and the version table)
    family: str               # "gauss" | "pure" | "zcdp"
    kind: str                 # short description of the method (closed form, RDP, PLD, ...)
    fn: Callable[[object], Value]
    #: the configurations this tool is run on (PLD / PRV accountants are capped); None = all
    applies: Optional[Callable[[object], bool]] = None
    #: why and where the tool is capped (shown in the report)
    cap: str = ""


PEER_PACKAGES = {
    "dp-accounting": "dp_accounting",
    "opendp": "opendp",
    "autodp": "autodp",
    "prv-accountant": "prv_accountant",
}

_import_errors: dict[str, str] = {}


def installed(package: str) -> Optional[str]:
    """None when *package* imports, else why not (the message is shown in the report)."""
    if package in _import_errors:
        return _import_errors[package] or None
    module = PEER_PACKAGES[package]
    try:
        with _quiet():
            importlib.import_module(module)
        _import_errors[package] = ""
        return None
    except Exception as exc:  # ImportError, or a broken dependency raising anything else
        _import_errors[package] = f"not installed ({type(exc).__name__}: {str(exc)[:120]})"
        return _import_errors[package]


def peer_versions() -> dict[str, str]:
    out = {}
    for package in PEER_PACKAGES:
        try:
            out[package] = importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            out[package] = "not installed"
    return out


@contextlib.contextmanager
def _quiet():
    """Silence the peers' warnings and prints (autodp and prv_accountant talk)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with contextlib.redirect_stdout(io.StringIO()):
            yield


def _rr_truth_probability(eps0: float) -> float:
    """P[truth] of binary randomized response with privacy eps0: e^eps0 / (1 + e^eps0)."""
    return 1.0 / (1.0 + math.exp(-eps0))


def _rr_noise_parameter(eps0: float) -> float:
    """dp_accounting's noise_parameter p (output uniform w.p. p) for 2-bucket RR with privacy eps0."""
    return 2.0 / (1.0 + math.exp(eps0))


# ================================================================================================
# dp-accounting (Google)
# ================================================================================================

def dpa_analytic_gaussian(q: GaussQ) -> float:
    import dp_accounting
    # k-fold Gaussian = one Gaussian with noise sigma/sqrt(k) (the user applies the closed form)
    return float(dp_accounting.get_epsilon_gaussian(q.sigma / math.sqrt(q.k), q.delta))


def dpa_rdp_gaussian(q: GaussQ) -> float:
    import dp_accounting
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    acc = rdp.RdpAccountant()
    acc.compose(dp_accounting.GaussianDpEvent(q.sigma), q.k)
    return float(acc.get_epsilon(q.delta))


def dpa_pld_gaussian(q: GaussQ) -> float:
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant as pld
    acc = pld.PLDAccountant()  # defaults: value_discretization_interval=1e-4, pessimistic
    acc.compose(dp_accounting.GaussianDpEvent(q.sigma), q.k)
    return float(acc.get_epsilon(q.delta))


def dpa_pld_pure(q: PureQ) -> float:
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as PLD
    pld = PLD.from_privacy_parameters(common.DifferentialPrivacyParameters(q.eps0, 0.0))
    return float(pld.self_compose(q.k).get_epsilon_for_delta(q.delta))


def dpa_pld_rr(q: PureQ) -> float:
    import dp_accounting
    from dp_accounting.pld import privacy_loss_distribution as PLD
    pld = PLD.from_randomized_response(_rr_noise_parameter(q.eps0), 2,
                                       neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    return float(pld.self_compose(q.k).get_epsilon_for_delta(q.delta))


def dpa_pld_accountant_rr(q: PureQ) -> float:
    """The accountant API exactly as documented: ``compose(event, count=k)``."""
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant as pld
    acc = pld.PLDAccountant(dp_accounting.NeighboringRelation.REPLACE_ONE)
    acc.compose(dp_accounting.RandomizedResponseDpEvent(_rr_noise_parameter(q.eps0), 2), q.k)
    return float(acc.get_epsilon(q.delta))


def dpa_kov(q: PureQ) -> float:
    """KOV15 Thm 3.3 (optimal composition), evaluated at the kinks eps0*(k-2i) in floats."""
    from dp_accounting.pld import accountant, common
    eps = accountant.advanced_composition(common.DifferentialPrivacyParameters(q.eps0, 0.0), q.k, q.delta)
    if eps is None:
        raise ValueError("advanced_composition returned None (no guarantee possible)")
    return float(eps)


def dpa_rdp_rr(q: PureQ) -> float:
    import dp_accounting
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    acc = rdp.RdpAccountant(neighboring_relation=dp_accounting.NeighboringRelation.REPLACE_ONE)
    acc.compose(dp_accounting.RandomizedResponseDpEvent(_rr_noise_parameter(q.eps0), 2), q.k)
    return float(acc.get_epsilon(q.delta))


def dpa_rdp_zcdp(q: ZcdpQ) -> float:
    import dp_accounting
    from dp_accounting.rdp import rdp_privacy_accountant as rdp
    acc = rdp.RdpAccountant()
    acc.compose(dp_accounting.ZCDpEvent(q.rho))
    return float(acc.get_epsilon(q.delta))


# ================================================================================================
# autodp
# ================================================================================================

def autodp_analytic_gaussian(q: GaussQ) -> float:
    from autodp import mechanism_zoo, transformer_zoo
    with _quiet():
        mech = transformer_zoo.ComposeGaussian()([mechanism_zoo.GaussianMechanism(q.sigma)], [q.k])
        return float(mech.get_approxDP(q.delta))


def autodp_rdp_gaussian(q: GaussQ) -> float:
    from autodp import mechanism_zoo, transformer_zoo
    with _quiet():
        mech = transformer_zoo.Composition()([mechanism_zoo.GaussianMechanism(q.sigma, approxDP_off=True)], [q.k])
        return float(mech.get_approxDP(q.delta))


def autodp_rdp_pure(q: PureQ) -> float:
    from autodp import mechanism_zoo, transformer_zoo
    with _quiet():
        mech = transformer_zoo.Composition()([mechanism_zoo.PureDP_Mechanism(q.eps0)], [q.k])
        return float(mech.get_approxDP(q.delta))


def autodp_kov_acct(q: PureQ) -> float:
    """autodp's DP_acct: min of k*eps0 and the two KOV15 closed-form (Thm 3.4-style) bounds."""
    from autodp import dp_acct
    with _quiet():
        acct = dp_acct.DP_acct()
        for _ in range(q.k):
            acct.update_DPlosses(q.eps0, 0.0)
        return float(acct.get_eps(q.delta))


def autodp_zcdp_bbghs(q: ZcdpQ) -> float:
    from autodp import mechanism_zoo
    with _quiet():
        return float(mechanism_zoo.zCDP_Mechanism(q.rho).get_approxDP(q.delta))


def autodp_zcdp_mironov(q: ZcdpQ) -> float:
    """RDP -> DP with the basic (Mironov 2017 Prop 3) conversion: for zCDP this is BS16 Prop 1.3."""
    from autodp import converter, rdp_bank
    with _quiet():
        rdp = lambda alpha: rdp_bank.RDP_zCDP({"rho": q.rho, "xi": 0}, alpha)  # noqa: E731
        return float(converter.rdp_to_approxdp(rdp, BBGHS_conversion=False)(q.delta))


# ================================================================================================
# OpenDP
# ================================================================================================

_opendp_ready = False


def _opendp():
    global _opendp_ready
    import opendp.prelude as dp
    if not _opendp_ready:
        dp.enable_features("contrib", "honest-but-curious")
        _opendp_ready = True
    return dp


def opendp_gaussian(q: GaussQ) -> float:
    dp = _opendp()
    meas = dp.m.make_gaussian(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=q.sigma)
    composed = dp.c.make_composition([meas] * q.k) if q.k > 1 else meas
    return float(dp.c.make_zCDP_to_approxDP(composed).map(1.0).epsilon(q.delta))


def opendp_pure(q: PureQ) -> float:
    dp = _opendp()
    rr = dp.m.make_randomized_response_bool(_rr_truth_probability(q.eps0))
    z = dp.c.make_pureDP_to_zCDP(rr)
    composed = dp.c.make_composition([z] * q.k) if q.k > 1 else z
    return float(dp.c.make_zCDP_to_approxDP(composed).map(1).epsilon(q.delta))


def opendp_zcdp(q: ZcdpQ) -> float:
    dp = _opendp()
    rho = q.rho
    meas = dp.m.make_user_measurement(dp.atom_domain(T=int), dp.absolute_distance(T=int),
                                      output_measure=dp.zero_concentrated_divergence(),
                                      function=lambda x: x, privacy_map=lambda d_in: rho)
    return float(dp.c.make_zCDP_to_approxDP(meas).map(1).epsilon(q.delta))


# ================================================================================================
# prv-accountant (Microsoft)
# ================================================================================================

PRV_EPS_ERROR = 0.01  # absolute; the library's docs suggest ~0.1, we ask for 10x tighter
PRV_DELTA_ERROR_FACTOR = 1e-3  # delta_error = 1e-3 * delta, as the library's docs suggest


def _prv(prv_mechanism, k: int, delta: float) -> dict:
    import prv_accountant
    with _quiet():
        acc = prv_accountant.PRVAccountant([prv_mechanism], eps_error=PRV_EPS_ERROR,
                                           delta_error=PRV_DELTA_ERROR_FACTOR * delta, max_self_compositions=[k])
        lower, estimate, upper = acc.compute_epsilon(delta, [k])
    return {"upper": float(upper), "estimate": float(estimate)}


def prv_gaussian(q: GaussQ) -> dict:
    import prv_accountant
    return _prv(prv_accountant.GaussianMechanism(noise_multiplier=q.sigma), q.k, q.delta)


def prv_pure(q: PureQ) -> dict:
    import prv_accountant
    return _prv(prv_accountant.PureDPMechanism(q.eps0), q.k, q.delta)


# ================================================================================================
# caps for the slow (discretised) accountants
# ================================================================================================

#: dp_accounting's Gaussian PLD costs ~ 2e5*mu grid points (0.3 s at mu = 0.5, 4 s at mu = 5, 130 s at mu = 50)
PLD_GAUSS_MAX_MU = 1.0
#: prv_accountant's grid grows like (eps + 3) * sqrt(k) / eps_error (0.06 s at k = 1, 0.4 s at k = 100, 250 s at 10^4)
PRV_GAUSS_MAX_K = 100
PRV_GAUSS_MAX_MU = 2.0
#: PLD self-composition of pure DP: ~0.5 s at k = 1000, ~5 s at k = 10^4
PLD_PURE_MAX_K = 1000
#: prv_accountant on pure DP: 0.09 s at k = 100, 3.6 s at k = 1000
PRV_PURE_MAX_K = 100
#: dp_accounting advanced_composition is O(k^2) Python floats
KOV_MAX_K = 1000


PEERS: list[Tool] = [
    # (a) k-fold Gaussian
    Tool("dp_accounting get_epsilon_gaussian(σ/√k)", "dp-accounting", "gauss", "closed form (analytic Gaussian, float)",
         dpa_analytic_gaussian),
    Tool("autodp ComposeGaussian (analytic)", "autodp", "gauss", "closed form (analytic Gaussian, float)",
         autodp_analytic_gaussian),
    Tool("opendp composition → zCDP→(ε,δ)", "opendp", "gauss", "zCDP composition + CKS20 conversion",
         opendp_gaussian),
    Tool("dp_accounting RdpAccountant", "dp-accounting", "gauss", "RDP (order grid) + CKS20 conversion",
         dpa_rdp_gaussian),
    Tool("autodp Composition (RDP)", "autodp", "gauss", "RDP (Brent over α) + BBGHS conversion",
         autodp_rdp_gaussian),
    Tool("dp_accounting PLDAccountant", "dp-accounting", "gauss", "PLD, pessimistic, Δ=1e-4",
         dpa_pld_gaussian, applies=lambda q: q.mu <= PLD_GAUSS_MAX_MU,
         cap=f"only where √k/σ ≤ {PLD_GAUSS_MAX_MU:g}: its grid grows with √k/σ (0.3 s at 0.5, 4 s at 5, 130 s at 50)"),
    Tool("prv_accountant PRVAccountant (Gaussian)", "prv-accountant", "gauss", f"PRV/FFT, eps_error={PRV_EPS_ERROR}",
         prv_gaussian, applies=lambda q: q.k <= PRV_GAUSS_MAX_K and q.mu <= PRV_GAUSS_MAX_MU,
         cap=f"only k ≤ {PRV_GAUSS_MAX_K} and √k/σ ≤ {PRV_GAUSS_MAX_MU:g}: 0.4 s at k = 100, 250 s at k = 10^4"),
    # (b) k-fold eps0-DP
    Tool("dp_accounting PLD from_privacy_parameters ⊗k", "dp-accounting", "pure", "PLD self_compose, pessimistic",
         dpa_pld_pure, applies=lambda q: q.k <= PLD_PURE_MAX_K,
         cap=f"only k ≤ {PLD_PURE_MAX_K}: about 5 s per call at k = 10^4"),
    Tool("dp_accounting PLD from_randomized_response ⊗k", "dp-accounting", "pure", "PLD self_compose, pessimistic",
         dpa_pld_rr, applies=lambda q: q.k <= PLD_PURE_MAX_K,
         cap=f"only k ≤ {PLD_PURE_MAX_K}: about 5 s per call at k = 10^4"),
    Tool("dp_accounting PLDAccountant.compose(RR event, k)", "dp-accounting", "pure", "PLD accountant API",
         dpa_pld_accountant_rr),
    Tool("dp_accounting advanced_composition (KOV Thm 3.3)", "dp-accounting", "pure", "KOV optimal, at kinks, float",
         dpa_kov, applies=lambda q: q.k <= KOV_MAX_K,
         cap=f"only k ≤ {KOV_MAX_K}: an O(k²) Python loop"),
    Tool("dp_accounting RdpAccountant (RR event)", "dp-accounting", "pure", "RDP (order grid) + CKS20 conversion",
         dpa_rdp_rr),
    Tool("autodp Composition (PureDP RDP)", "autodp", "pure", "RDP (Brent over α) + BBGHS conversion",
         autodp_rdp_pure),
    Tool("autodp DP_acct (KOV closed forms)", "autodp", "pure", "KOV15 Thm 3.4-style closed forms",
         autodp_kov_acct),
    Tool("opendp pureDP→zCDP → composition → (ε,δ)", "opendp", "pure", "BS16 + zCDP composition + CKS20",
         opendp_pure),
    Tool("prv_accountant PRVAccountant (PureDP)", "prv-accountant", "pure", f"PRV/FFT, eps_error={PRV_EPS_ERROR}",
         prv_pure, applies=lambda q: q.k <= PRV_PURE_MAX_K,
         cap=f"only k ≤ {PRV_PURE_MAX_K}: 3.6 s at k = 1000"),
    # (c) rho-zCDP => (eps, delta)
    Tool("dp_accounting RdpAccountant(ZCDpEvent)", "dp-accounting", "zcdp", "CKS20 on the default order grid",
         dpa_rdp_zcdp),
    Tool("opendp make_zCDP_to_approxDP", "opendp", "zcdp", "CKS20", opendp_zcdp),
    Tool("autodp zCDP_Mechanism (BBGHS)", "autodp", "zcdp", "CKS20/BBGHS, Brent over α", autodp_zcdp_bbghs),
    Tool("autodp rdp_to_approxdp (basic)", "autodp", "zcdp", "BS16 Prop 1.3 (Mironov), Brent over α",
         autodp_zcdp_mironov),
]


# ================================================================================================
# diagnoses: run only for answers found below the exact value, to say why (evidence, not guesses)
# ================================================================================================

def _diag_pld_pure(q: PureQ, exact_eps: float) -> str:
    from dp_accounting.pld import common
    from dp_accounting.pld import privacy_loss_distribution as PLD
    with _quiet():
        pld = PLD.from_privacy_parameters(common.DifferentialPrivacyParameters(q.eps0, 0.0)).self_compose(q.k)
        d = float(pld.get_delta_for_epsilon(exact_eps))
    if d < q.delta:
        return (f"the PLD's own δ at the exact ε is {d:.6g} < δ = {q.delta:g}: an absolute error of "
                f"{q.delta - d:.1g} in δ (FFT / truncation) that the pessimistic rounding does not cover")
    return (f"the PLD's own δ at the exact ε is {d!r} ≥ δ: the shortfall comes from its ε search "
            "(get_epsilon_for_delta), not from the PLD")


def _diag_pld_accountant_rr(q: PureQ, exact_eps: float) -> str:
    single = dpa_pld_accountant_rr(PureQ(q.eps0, 1, q.delta))
    here = dpa_pld_accountant_rr(q)
    if here == single:
        return (f"same answer as for k = 1 ({single!r}): `PLDAccountant` ignores `count` for "
                "`RandomizedResponseDpEvent` (composes once)")
    return ""


def _diag_prv_pure(q: PureQ, exact_eps: float) -> str:
    import prv_accountant
    from prv_accountant.accountant import compute_safe_domain_size
    with _quiet():
        mech = prv_accountant.PureDPMechanism(q.eps0)
        L = compute_safe_domain_size([mech], [q.k], PRV_EPS_ERROR, PRV_DELTA_ERROR_FACTOR * q.delta)
    if L < exact_eps:
        return (f"its loss domain is cut at L = {L:.4g} < exact ε (losses reach kε0 = {q.k * q.eps0:g}); L comes "
                f"from `PureDPMechanism.rdp(α) = (α-1)ε0/α`, below the Rényi divergence of ε0-DP "
                f"(e.g. {mech.rdp(2.0):.4g} < D_2 of RR = {_rr_d2(q.eps0):.4g} at α = 2)")
    return ""


def _rr_d2(eps0: float) -> float:
    p = _rr_truth_probability(eps0)
    return math.log(p * p / (1 - p) + (1 - p) * (1 - p) / p)


def _diag_kov(q: PureQ, exact_eps: float) -> str:
    if q.delta < 2.0 ** -53:
        return ("it tests `1 - (1-δ)^k (1-δ_i) <= δ` in floats, so every δ_i < 2^-53 passes for this δ "
                "(δ_i at the returned kink is > δ)")
    return ""


DIAGNOSE: dict[str, Callable[[object, float], str]] = {
    "dp_accounting PLD from_privacy_parameters ⊗k": _diag_pld_pure,
    "dp_accounting PLDAccountant.compose(RR event, k)": _diag_pld_accountant_rr,
    "prv_accountant PRVAccountant (PureDP) (upper)": _diag_prv_pure,
    "prv_accountant PRVAccountant (PureDP) (estimate)": _diag_prv_pure,
    "dp_accounting advanced_composition (KOV Thm 3.3)": _diag_kov,
}
