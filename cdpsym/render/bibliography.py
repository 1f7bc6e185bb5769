r"""The bibliography: BibTeX entries for what the library cites, matched from the ``source`` strings.

A theorem's ``source`` and an axiom's ``citation`` are written for a reader
(``"Dwork & Rothblum 2016, Thm 3.5, arXiv:1603.01887v2"``); :func:`cite_keys`
finds the papers they name, so a document can ``\cite`` them and print a
bibliography generated from the citations::

    >>> cite_keys("Bun & Steinke 2016, Prop 1.6, arXiv:1605.02065")
    ['BS16']
    >>> cite_keys("Warner 1965; Dwork & Roth 2014, §3.2, Claim 3.5")
    ['Warner65', 'DR14']
    >>> unmatched("Smith 1999, Thm 2; Hoeffding 1963")
    ['Smith 1999']

Keys follow docs/REFERENCE.md (``DR16``, ``BS16``, ``M17``, ``CKS20`` …).  A
library source that names a year no entry matches is a bug (a test checks all
of them, including theorem modules added later).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterable, Mapping

__all__ = ["BibEntry", "ENTRIES", "cite_keys", "unmatched", "entries_for", "bibtex", "thebibliography",
           "library_sources", "theorem_sources"]


@dataclass(frozen=True)
class BibEntry:
    """One BibTeX entry (fields in ASCII LaTeX) and the patterns that find it in a source string."""

    key: str
    kind: str
    fields: Mapping[str, str]
    patterns: tuple[str, ...] = field(default_factory=tuple)

    def matches(self, source: str) -> list[tuple[int, int]]:
        return [m.span() for p in self.patterns for m in re.finditer(p, source)]

    def bibtex(self) -> str:
        width = max(len(k) for k in self.fields)
        body = ",\n".join(f"  {k.ljust(width)} = {{{v}}}" for k, v in self.fields.items())
        return f"@{self.kind}{{{self.key},\n{body}\n}}"

    def bibitem(self) -> str:
        """The entry as a ``\\bibitem`` for ``thebibliography`` (no BibTeX run needed)."""
        f = self.fields
        parts = [_authors(f.get("author", f.get("editor", "")))]
        title = f.get("title", "")
        parts.append(r"\emph{%s}" % title if self.kind in ("book", "phdthesis") else title)
        where = f.get("journal") or f.get("booktitle") or f.get("publisher") or f.get("school") or \
            f.get("howpublished", "")
        if f.get("volume") and f.get("journal"):
            where += f" {f['volume']}" + (f"({f['number']})" if f.get("number") else "")
        year = f.get("year", "")
        if year and year not in where:  # a blog's "27 May 2024" already dates it
            where += (", " if where else "") + year
        if f.get("edition"):
            where += f", {f['edition']} edition"
        if f.get("pages"):  # the year with the venue, then the pages: "TCC 2016, pp. 635--658"
            where += f", pp.~{f['pages']}"
        parts.append(where)
        if f.get("eprint"):
            parts.append(r"arXiv:%s" % f["eprint"])
        return r"\bibitem{%s} " % self.key + ". ".join(p.strip() for p in parts if p.strip()) + "."


def _authors(names: str) -> str:
    people = [n.strip() for n in names.split(" and ") if n.strip()]
    if len(people) <= 2:
        return " and ".join(people)
    return ", ".join(people[:-1]) + ", and " + people[-1]


def _e(key: str, kind: str, patterns: Iterable[str], **fields: str) -> BibEntry:
    return BibEntry(key, kind, fields, tuple(patterns))


_AND = r"\s*(?:&|and)\s*"
_DASH = r"\s*[-\u2013\u2014]\s*"

#: every paper and book the library cites (add an entry when a new source names one)
ENTRIES: tuple[BibEntry, ...] = (
    _e("DR16", "misc", [r"Dwork" + _AND + r"Rothblum,?\s+2016", r"Dwork" + _DASH + r"Rothblum(?!\s*(?:&|and|,)\s*Vadhan)",
                        r"arXiv:1603\.01887\S*"],
       author="Cynthia Dwork and Guy N. Rothblum", title="Concentrated Differential Privacy", year="2016",
       eprint="1603.01887", archivePrefix="arXiv", howpublished="arXiv preprint"),
    _e("BS16", "inproceedings", [r"Bun" + _AND + r"Steinke,?\s+2016", r"Bun" + _DASH + r"Steinke", r"arXiv:1605\.02065\S*"],
       author="Mark Bun and Thomas Steinke",
       title="Concentrated Differential Privacy: Simplifications, Extensions, and Lower Bounds",
       booktitle="Theory of Cryptography Conference (TCC 2016-B)", series="LNCS", volume="9985",
       pages="635--658", publisher="Springer", year="2016", eprint="1605.02065", archivePrefix="arXiv"),
    _e("M17", "inproceedings", [r"Mironov,?\s+2017", r"arXiv:1702\.07476\S*", r"Mironov(?=\s+(?:Def|Prop|Cor|Thm))"],
       author="Ilya Mironov", title="R{\\'e}nyi Differential Privacy",
       booktitle="IEEE 30th Computer Security Foundations Symposium (CSF)", pages="263--275", year="2017",
       eprint="1702.07476", archivePrefix="arXiv"),
    _e("DR14", "article", [r"Dwork" + _AND + r"Roth,?\s+2014"],
       author="Cynthia Dwork and Aaron Roth", title="The Algorithmic Foundations of Differential Privacy",
       journal="Foundations and Trends in Theoretical Computer Science", volume="9", number="3--4",
       pages="211--407", year="2014"),
    _e("DMNS06", "inproceedings", [r"Dwork,\s*McSherry,\s*Nissim" + _AND + r"Smith,?\s+2006", r"DMNS06"],
       author="Cynthia Dwork and Frank McSherry and Kobbi Nissim and Adam Smith",
       title="Calibrating Noise to Sensitivity in Private Data Analysis",
       booktitle="Theory of Cryptography Conference (TCC 2006)", series="LNCS", volume="3876",
       pages="265--284", publisher="Springer", year="2006"),
    _e("DRV10", "inproceedings", [r"Dwork,\s*Rothblum" + _AND + r"Vadhan,?\s+2010", r"DRV10"],
       author="Cynthia Dwork and Guy N. Rothblum and Salil Vadhan", title="Boosting and Differential Privacy",
       booktitle="IEEE 51st Annual Symposium on Foundations of Computer Science (FOCS)", pages="51--60",
       year="2010"),
    _e("KOV15", "inproceedings", [r"Kairouz,\s*Oh" + _AND + r"Viswanath,?\s+20(?:15|17)",
                                  r"Kairouz" + _DASH + r"Oh" + _DASH + r"Viswanath", r"arXiv:1311\.0776\S*"],
       author="Peter Kairouz and Sewoong Oh and Pramod Viswanath",
       title="The Composition Theorem for Differential Privacy",
       booktitle="Proceedings of the 32nd International Conference on Machine Learning (ICML)", pages="1376--1385",
       year="2015", note="Journal version: IEEE Trans. Inf. Theory 63(6), 2017", eprint="1311.0776",
       archivePrefix="arXiv"),
    _e("MV16", "inproceedings", [r"Murtagh" + _AND + r"Vadhan,?\s+2016", r"Murtagh" + _DASH + r"Vadhan",
                                 r"arXiv:1507\.03113\S*"],
       author="Jack Murtagh and Salil Vadhan",
       title="The Complexity of Computing the Optimal Composition of Differential Privacy",
       booktitle="Theory of Cryptography Conference (TCC 2016-A)", series="LNCS", volume="9562",
       pages="157--175", publisher="Springer", year="2016", eprint="1507.03113", archivePrefix="arXiv"),
    _e("CKS20", "inproceedings", [r"Canonne,\s*Kamath" + _AND + r"Steinke,?\s+2020",
                                  r"Canonne" + _DASH + r"Kamath" + _DASH + r"Steinke", r"CKS20", r"arXiv:2004\.00010\S*"],
       author="Cl{\\'e}ment L. Canonne and Gautam Kamath and Thomas Steinke",
       title="The Discrete Gaussian for Differential Privacy",
       booktitle="Advances in Neural Information Processing Systems 33 (NeurIPS)", year="2020",
       eprint="2004.00010", archivePrefix="arXiv"),
    _e("BW18", "inproceedings", [r"Balle" + _AND + r"Wang,?\s+2018", r"Balle" + _DASH + r"Wang", r"arXiv:1805\.06530\S*"],
       author="Borja Balle and Yu-Xiang Wang",
       title="Improving the Gaussian Mechanism for Differential Privacy: Analytical Calibration and Optimal "
             "Denoising",
       booktitle="Proceedings of the 35th International Conference on Machine Learning (ICML)", pages="394--403",
       year="2018", eprint="1805.06530", archivePrefix="arXiv"),
    _e("BO13", "inproceedings", [r"Barthe" + _AND + r"Olmedo,?\s+2013"],
       author="Gilles Barthe and Federico Olmedo",
       title="Beyond Differential Privacy: Composition Theorems and Relational Logic for $f$-divergences between "
             "Probabilistic Programs",
       booktitle="Automata, Languages, and Programming (ICALP 2013)", year="2013"),
    _e("BBG18", "inproceedings", [r"Balle,\s*Barthe" + _AND + r"Gaboardi,?\s+2018", r"arXiv:1807\.01647\S*"],
       author="Borja Balle and Gilles Barthe and Marco Gaboardi",
       title="Privacy Amplification by Subsampling: Tight Analyses via Couplings and Divergences",
       booktitle="Advances in Neural Information Processing Systems 31 (NeurIPS)", year="2018",
       eprint="1807.01647", archivePrefix="arXiv"),
    _e("BBGHS20", "inproceedings", [r"Balle,\s*Barthe,\s*Gaboardi,\s*Hsu" + _AND + r"Sato,?\s+2020",
                                    r"arXiv:1905\.09982\S*"],
       author="Borja Balle and Gilles Barthe and Marco Gaboardi and Justin Hsu and Tetsuya Sato",
       title="Hypothesis Testing Interpretations and R{\\'e}nyi Differential Privacy",
       booktitle="Proceedings of the 23rd International Conference on Artificial Intelligence and Statistics "
                 "(AISTATS)", year="2020", eprint="1905.09982", archivePrefix="arXiv"),
    _e("S22", "misc", [r"Steinke,?\s+2022(?!b)", r"arXiv:2210\.00597\S*"],
       author="Thomas Steinke",
       title="Composition of Differential Privacy \\& Privacy Amplification by Subsampling", year="2022",
       eprint="2210.00597", archivePrefix="arXiv", howpublished="arXiv preprint"),
    _e("S22b", "misc", [r"Composition Basics"],
       author="Thomas Steinke", title="Composition Basics", year="2022",
       howpublished="DifferentialPrivacy.org blog, 1 November 2022"),
    _e("S24", "misc", [r"Steinke,?\s+2024"],
       author="Thomas Steinke", title="Tight {RDP} \\& {zCDP} Bounds from Pure {DP}", year="2024",
       howpublished="DifferentialPrivacy.org blog, 27 May 2024"),
    _e("HM25", "misc", [r"Harrison" + _AND + r"Manurangsi,?\s+2025", r"arXiv:2510\.25746\S*"],
       author="Charlie Harrison and Pasin Manurangsi",
       title="Exact {zCDP} Characterizations for Fundamental Differentially Private Mechanisms", year="2025",
       eprint="2510.25746", archivePrefix="arXiv", howpublished="arXiv preprint"),
    _e("BDRS18", "inproceedings", [r"Bun,\s*Dwork,\s*Rothblum" + _AND + r"Steinke,?\s+2018", r"BDRS18"],
       author="Mark Bun and Cynthia Dwork and Guy N. Rothblum and Thomas Steinke",
       title="Composable and Versatile Privacy via Truncated {CDP}",
       booktitle="Proceedings of the 50th Annual ACM Symposium on Theory of Computing (STOC)", pages="74--86",
       year="2018", doi="10.1145/3188745.3188946"),
    _e("S25", "misc", [r"Steinke,?\s+2025"],
       author="Thomas Steinke", title="Limits of Privacy Amplification by Subsampling", year="2025",
       howpublished="DifferentialPrivacy.org blog, April 2025"),
    _e("CR21", "inproceedings", [r"Cesar" + _AND + r"Rogers,?\s+20(?:20|21)", r"arXiv:2004\.07223\S*"],
       author="Mark Cesar and Ryan Rogers", title="Bounding, Concentrating, and Truncating: Unifying Privacy "
       "Loss Composition for Data Analytics",
       booktitle="Proceedings of the 32nd International Conference on Algorithmic Learning Theory (ALT)",
       series="PMLR", volume="132", pages="421--457", year="2021", eprint="2004.07223", archivePrefix="arXiv"),
    _e("MT07", "inproceedings", [r"McSherry" + _AND + r"Talwar,?\s+2007", r"MT07"],
       author="Frank McSherry and Kunal Talwar", title="Mechanism Design via Differential Privacy",
       booktitle="48th Annual IEEE Symposium on Foundations of Computer Science (FOCS)", pages="94--103",
       year="2007"),
    _e("BK00", "book", [r"Buldygin" + _AND + r"Kozachenko,?\s+2000"],
       author="V. V. Buldygin and Yu. V. Kozachenko", title="Metric Characterization of Random Variables and "
       "Random Processes", series="Translations of Mathematical Monographs", volume="188",
       publisher="American Mathematical Society", year="2000"),
    _e("Riv12", "misc", [r"Rivasplata,?\s+2012"],
       author="Omar Rivasplata", title="Subgaussian random variables: an expository note", year="2012",
       howpublished="Unpublished note"),
    _e("KS98", "inproceedings", [r"Kearns" + _AND + r"Saul,?\s+1998"],
       author="Michael Kearns and Lawrence Saul", title="Large Deviation Methods for Approximate Probabilistic "
       "Inference", booktitle="Proceedings of the 14th Conference on Uncertainty in Artificial Intelligence "
       "(UAI)", pages="311--319", year="1998"),
    _e("BK13", "article", [r"Berend" + _AND + r"Kontorovich,?\s+2013"],
       author="Daniel Berend and Aryeh Kontorovich", title="On the concentration of the missing mass",
       journal="Electronic Communications in Probability", volume="18", number="3", pages="1--7", year="2013"),
    _e("AS64", "book", [r"Abramowitz" + _AND + r"Stegun(?:,?\s+1964)?"],
       author="Milton Abramowitz and Irene A. Stegun", title="Handbook of Mathematical Functions with Formulas, "
       "Graphs, and Mathematical Tables", publisher="National Bureau of Standards", year="1964"),
    _e("HLP34", "book", [r"Hardy,\s*Littlewood" + _AND + r"P(?:\u00f3|o|\\'o)lya(?:,?\s+1934)?"],
       author="G. H. Hardy and J. E. Littlewood and G. P{\\'o}lya", title="Inequalities",
       publisher="Cambridge University Press", year="1934"),
    _e("Rudin87", "book", [r"Rudin,?\s+1987", r"Rudin,?\s*\*?Real and Complex Analysis"],
       author="Walter Rudin", title="Real and Complex Analysis", publisher="McGraw-Hill", edition="third",
       year="1987"),
    _e("Tsybakov09", "book", [r"Tsybakov(?:,?\s+2009)?"],
       author="Alexandre B. Tsybakov", title="Introduction to Nonparametric Estimation", publisher="Springer",
       year="2009"),
    _e("BH79", "article", [r"Bretagnolle" + _AND + r"Huber,?\s+1979"],
       author="Jean Bretagnolle and Catherine Huber", title="Estimation des densit{\\'e}s: risque minimax",
       journal="Zeitschrift f{\\\"u}r Wahrscheinlichkeitstheorie und verwandte Gebiete", volume="47",
       pages="119--137", year="1979"),
    _e("Durrett19", "book", [r"Durrett(?:,?\s+20(?:10|19))?"],
       author="Rick Durrett", title="Probability: Theory and Examples", publisher="Cambridge University Press",
       edition="fifth", year="2019"),
    _e("Pinsker64", "book", [r"Pinsker,?\s+1964"],
       author="M. S. Pinsker", title="Information and Information Stability of Random Variables and Processes",
       publisher="Holden-Day", year="1964"),
    _e("Young12", "article", [r"Young,?\s+1912"],
       author="W. H. Young", title="On classes of summable functions and their Fourier series",
       journal="Proceedings of the Royal Society of London, Series A", volume="87", pages="225--229", year="1912"),
    _e("Wainwright19", "book", [r"Wainwright,?\s+2019"],
       author="Martin J. Wainwright", title="High-Dimensional Statistics: A Non-Asymptotic Viewpoint",
       publisher="Cambridge University Press", year="2019"),
    _e("Canonne22", "misc", [r"Canonne,?\s+2022", r"arXiv:2202\.07198\S*"],
       author="Cl{\\'e}ment L. Canonne", title="A short note on an inequality between {KL} and {TV}", year="2022",
       eprint="2202.07198", archivePrefix="arXiv", howpublished="arXiv preprint"),
    _e("DRS19", "misc", [r"Dong,\s*Roth" + _AND + r"Su,?\s+2019", r"arXiv:1905\.02383\S*"],
       author="Jinshuo Dong and Aaron Roth and Weijie J. Su", title="Gaussian Differential Privacy", year="2019",
       eprint="1905.02383", archivePrefix="arXiv", howpublished="arXiv preprint"),
    _e("vEH14", "article", [r"van\s+Erven" + _AND + r"Harremo(?:\u00eb|e|\\\"e)s,?(?:\s+2014)?",
                            r"van\s+Erven" + _DASH + r"Harremo(?:\u00eb|e)s"],
       author="Tim van Erven and Peter Harremo{\\\"e}s", title="R{\\'e}nyi Divergence and {Kullback-Leibler} Divergence",
       journal="IEEE Transactions on Information Theory", volume="60", number="7", pages="3797--3820",
       year="2014"),
    _e("Hoeffding63", "article", [r"Hoeffding,?\s+1963"],
       author="Wassily Hoeffding", title="Probability Inequalities for Sums of Bounded Random Variables",
       journal="Journal of the American Statistical Association", volume="58", number="301", pages="13--30",
       year="1963"),
    _e("Warner65", "article", [r"Warner,?\s+1965"],
       author="Stanley L. Warner",
       title="Randomized Response: A Survey Technique for Eliminating Evasive Answer Bias",
       journal="Journal of the American Statistical Association", volume="60", number="309", pages="63--69",
       year="1965"),
    _e("Feller1", "book", [r"Feller,?\s*Vol\.?\s*I(?!I)\b", r"Feller,?\s+1968"],
       author="William Feller", title="An Introduction to Probability Theory and Its Applications, Volume I",
       edition="third", publisher="Wiley", year="1968"),
    _e("Feller2", "book", [r"Feller,?\s*Vol\.?\s*II\b", r"Feller,?\s+1971"],
       author="William Feller", title="An Introduction to Probability Theory and Its Applications, Volume II",
       edition="second", publisher="Wiley", year="1971"),
    _e("Williams91", "book", [r"Williams,?\s+1991"],
       author="David Williams", title="Probability with Martingales", publisher="Cambridge University Press",
       year="1991"),
    _e("CT06", "book", [r"Cover" + _AND + r"Thomas,?\s+2006"],
       author="Thomas M. Cover and Joy A. Thomas", title="Elements of Information Theory", edition="second",
       publisher="Wiley", year="2006"),
    _e("BLM13", "book", [r"Boucheron,\s*Lugosi" + _AND + r"Massart,?\s+2013"],
       author="St{\\'e}phane Boucheron and G{\\'a}bor Lugosi and Pascal Massart",
       title="Concentration Inequalities: A Nonasymptotic Theory of Independence",
       publisher="Oxford University Press", year="2013"),
    _e("Markov1884", "phdthesis", [r"Markov,?\s+1884"],
       author="Andrey A. Markov", title="On Certain Applications of Algebraic Continued Fractions",
       school="St. Petersburg University", year="1884", note="In Russian"),
    _e("Kolmogorov33", "book", [r"Kolmogorov,?\s+1933"],
       author="Andrey N. Kolmogorov", title="Grundbegriffe der Wahrscheinlichkeitsrechnung", publisher="Springer",
       year="1933"),
    _e("Billingsley95", "book", [r"Billingsley(?:,?\s+1995)?"],
       author="Patrick Billingsley", title="Probability and Measure", edition="third", publisher="Wiley",
       year="1995"),
    _e("Vershynin18", "book", [r"Vershynin,?\s+2018"],
       author="Roman Vershynin",
       title="High-Dimensional Probability: An Introduction with Applications in Data Science",
       publisher="Cambridge University Press", year="2018"),
    _e("Rudin76", "book", [r"Rudin(?!,?\s+1987)(?!,?\s*\*?Real)(?:,?\s+1976)?"],
       author="Walter Rudin", title="Principles of Mathematical Analysis", edition="third",
       publisher="McGraw-Hill", year="1976"),
    _e("Hadamard1893", "article", [r"Hadamard,?\s+1893"],
       author="Jacques Hadamard",
       title="{\\'E}tude sur les propri{\\'e}t{\\'e}s des fonctions enti{\\`e}res et en particulier d'une fonction "
             "consid{\\'e}r{\\'e}e par {Riemann}",
       journal="Journal de Math{\\'e}matiques Pures et Appliqu{\\'e}es", volume="9", pages="171--215",
       year="1893"),
)

_BY_KEY = {e.key: e for e in ENTRIES}

#: a year, not part of an arXiv identifier or a decimal number
_YEAR = re.compile(r"(?<![\d.:])(1[5-9]\d\d|20\d\d)(?![\d.]\d)")


def cite_keys(source: str) -> list[str]:
    """The bib keys a source string names, in order of first mention."""
    found = sorted((span[0], e.key) for e in ENTRIES for span in e.matches(source))
    out: list[str] = []
    for _, key in found:
        if key not in out:
            out.append(key)
    return out


def unmatched(source: str) -> list[str]:
    """Author-year mentions in *source* that no entry covers (``"Smith 1999"``): each is a missing entry."""
    covered = [span for e in ENTRIES for span in e.matches(source)]
    out = []
    for m in _YEAR.finditer(source):
        if not any(a <= m.start() and m.end() <= b for a, b in covered):
            head = source[: m.end()]
            who = re.search(r"([A-Z][\w'\u00e0-\u00ff-]*(?:[,&\s]+(?:and\s+)?[A-Z][\w'\u00e0-\u00ff-]*)*),?\s*\d{4}$",
                            head)
            out.append(who.group(0) if who else m.group(0))
    return out


def entries_for(keys: Iterable[str]) -> list[BibEntry]:
    return [_BY_KEY[k] for k in keys if k in _BY_KEY]


def theorem_sources(theorem) -> list[str]:  # type: ignore[no-untyped-def]
    """What a theorem cites: its own source, and the citations of the axioms and theorems its proof uses."""
    from cdpsym.render.latex import _axioms_used, _dependencies

    out = [theorem.source]
    out += [t.source for t in _dependencies(theorem)]
    out += [a.citation for a in _axioms_used([*_dependencies(theorem), theorem])]
    return [s for s in out if s]


def library_sources() -> list[tuple[str, str]]:
    """``(name, source)`` for every theorem and axiom of the library."""
    from cdpsym import theorems

    return ([(t.name, t.source) for t in theorems.LIBRARY] + [(a.name, a.citation) for a in theorems.AXIOMS])


def keys_for(sources: Iterable[str]) -> list[str]:
    out: list[str] = []
    for s in sources:
        for k in cite_keys(s):
            if k not in out:
                out.append(k)
    return out


def bibtex(sources: Iterable[str] | None = None) -> str:
    """The BibTeX entries of what *sources* cite (default: the whole library), in order of first citation."""
    if sources is None:
        sources = [s for _, s in library_sources()]
    return "\n\n".join(e.bibtex() for e in entries_for(keys_for(sources))) + "\n"


def thebibliography(keys: Iterable[str]) -> str:
    """A ``thebibliography`` environment for *keys* (compiles with plain pdflatex, no BibTeX run)."""
    items = [e.bibitem() for e in entries_for(keys)]
    if not items:
        return ""
    return "\\begin{thebibliography}{99}\n" + "\n".join(items) + "\n\\end{thebibliography}"
