r"""Prose with Unicode pseudo-maths, as LaTeX: the maths in ``$...$``, never Unicode in text mode.

Titles, hypothesis names, cited-fact legends and step notes are written by hand
as readable Unicode (``ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP``).  This
module finds the mathematical runs in such a line and typesets them as maths::

    >>> prose("ρ-zCDP implies (ρ + 2√(ρ log(1/δ)), δ)-DP")
    '$\\rho$-zCDP implies $(\\rho + 2\\sqrt{\\rho \\log(1/\\delta)}, \\delta)$-DP'
    >>> prose("k-fold composition of ε-DP")
    '$k$-fold composition of $\\varepsilon$-DP'
    >>> prose("Pr[X > tτ] ≤ e^{-t²/2}")
    '$\\Pr[X > t\\tau] \\le e^{-t^{2}/2}$'

The output is pure ASCII: a character the tables do not know becomes its
Unicode name in brackets (it compiles, and a test sees it).
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["prose", "math", "text_escape", "without_reference_ids", "GREEK", "MATH_SYMBOLS"]

GREEK = {
    "α": r"\alpha", "β": r"\beta", "γ": r"\gamma", "δ": r"\delta", "ε": r"\varepsilon", "ζ": r"\zeta",
    "η": r"\eta", "θ": r"\theta", "κ": r"\kappa", "λ": r"\lambda", "μ": r"\mu", "ν": r"\nu", "ξ": r"\xi",
    "π": r"\pi", "ρ": r"\rho", "σ": r"\sigma", "τ": r"\tau", "φ": r"\varphi", "χ": r"\chi", "ψ": r"\psi",
    "ω": r"\omega", "Γ": r"\Gamma", "Δ": r"\Delta", "Θ": r"\Theta", "Λ": r"\Lambda", "Π": r"\Pi",
    "Σ": r"\Sigma", "Φ": r"\Phi", "Ψ": r"\Psi", "Ω": r"\Omega",
}

#: Unicode operators and relations -> LaTeX maths
MATH_SYMBOLS = {
    "≤": r"\le", "≥": r"\ge", "≠": r"\neq", "≈": r"\approx", "≃": r"\simeq", "∼": r"\sim", "~": r"\sim",
    "≪": r"\ll", "≫": r"\gg", "∈": r"\in", "∉": r"\notin", "⊆": r"\subseteq", "⊂": r"\subset",
    "⊇": r"\supseteq", "∪": r"\cup", "∩": r"\cap", "∅": r"\emptyset", "∀": r"\forall", "∃": r"\exists",
    "¬": r"\neg", "⇒": r"\Rightarrow", "⇔": r"\Leftrightarrow", "→": r"\to", "↦": r"\mapsto",
    "←": r"\leftarrow", "×": r"\times", "±": r"\pm", "·": r"\cdot", "∘": r"\circ", "∑": r"\sum",
    "∏": r"\prod", "∫": r"\int", "∂": r"\partial", "∞": r"\infty", "‖": r"\|", "⌈": r"\lceil",
    "⌉": r"\rceil", "⌊": r"\lfloor", "⌋": r"\rfloor", "ℓ": r"\ell", "ℝ": r"\mathbb{R}", "ℕ": r"\mathbb{N}",
    "⊗": r"\otimes", "−": "-", "′": "'", "’": "'", "∧": r"\wedge", "∨": r"\vee", "√": r"\surd",
    "%": r"\%", "#": r"\#", "&": r"\&", "$": r"\$",
}
_SUPERSCRIPTS = {"²": "2", "³": "3", "¹": "1", "⁰": "0", "⁴": "4", "⁻": "-", "ᵏ": "k", "ⁿ": "n", "ᵢ": None}
_SUBSCRIPTS = {"₀": "0", "₁": "1", "₂": "2", "₃": "3", "ᵢ": "i", "ₖ": "k", "₊": "+", "₋": "-", "ⱼ": "j"}
_FUNCTIONS = {"log": r"\log", "exp": r"\exp", "tanh": r"\tanh", "sinh": r"\sinh", "cosh": r"\cosh",
              "sin": r"\sin", "cos": r"\cos", "sup": r"\sup", "inf": r"\inf", "max": r"\max", "min": r"\min",
              "Pr": r"\Pr", "lim": r"\lim", "phi": r"\varphi", "psi": r"\psi"}

#: text-mode punctuation and accented letters (plain ASCII LaTeX)
_TEXT_CHARS = {
    "–": "--", "—": "---", "’": "'", "‘": "`", "“": "``", "”": "''", "…": r"\ldots{}", "§": r"\S{}",
    "é": r"\'e", "è": r"\`e", "ö": r'\"o', "ü": r'\"u', "ä": r'\"a', "ï": r'\"i', "ë": r'\"e',
    "\u00a0": "~", "Ω": r"$\Omega$",
}
_TEXT_ESCAPES = {
    "\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
    "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"\textless{}", ">": r"\textgreater{}",
    "$": r"\$", "|": r"\textbar{}",
}

_MATH_CHARS = set(GREEK) | set(MATH_SYMBOLS) | set(_SUPERSCRIPTS) | set(_SUBSCRIPTS) | set("=<>^_+*/|[]{}ˆ")
_MATH_CHARS -= {"%", "#", "&", "$", "’"}
_ABBREVIATIONS = {"a.s", "i.e", "e.g", "w.r.t", "cf", "vs", "et al", "resp", "a.s.", "i.e.", "e.g."}
_REFERENCE = re.compile(r"^(R-[A-H]\d+[a-z]?|[A-Z]{2,}\d*[a-z]?|REFERENCE\.md|arXiv:\S+)$")
_WORD = re.compile(r"^[A-Za-z]+(['’][A-Za-z]+)?$")
_PUNCT = "()[],.;:"


#: a project-internal reference: an item of the project's REFERENCE.md (``R-C2``), a numeric check (``✓N9``), or
#: the file itself -- meaningless to a paper's reader
_ITEM = r"(?:R-[A-H]\d+[a-z]?|N\d+)\b"
_REFERENCE_ID = re.compile(r"\bR-[A-H]\d+[a-z]?\b|✓N\d+|\bseeds? \d{3}\b|\bREFERENCE(?:\.md)?(?:\s+%s(?:,\s*%s)*)?"
                           % (_ITEM, _ITEM))
_OPEN, _CLOSE = "([{", ")]}"


def without_reference_ids(s: str) -> str:
    """``s`` without the clauses that cite the project's own REFERENCE items (``R-C2``, ``REFERENCE.md R-G6
    [D]``): a reader of a paper does not know them.  The clause is the smallest piece around the mention
    bounded by the enclosing bracket, a ``,`` or ``;`` at its level, or (outside brackets) the end of a sentence;
    a bracket left empty goes too.  A clause that says the result is *derived* (``REFERENCE R-E5 (derived)``,
    ``R-C6 [D]``) becomes the word "derived", so that the papers cited beside it are not credited with it::

        >>> without_reference_ids("the mechanism is ρ-zCDP (MGF form, R-A9)")
        'the mechanism is ρ-zCDP (MGF form)'
        >>> without_reference_ids("REFERENCE R-E7; Canonne, Kamath & Steinke 2020, Prop 12")
        'Canonne, Kamath & Steinke 2020, Prop 12'
        >>> without_reference_ids("not tight; the exact value is smaller (R-E7).")
        'not tight; the exact value is smaller.'
        >>> without_reference_ids("REFERENCE R-E6 (derived); Warner 1965")
        'derived; Warner 1965'
    """
    for _ in range(50):
        m = _REFERENCE_ID.search(s)
        if m is None:
            break
        s = _drop_clause(s, m.start(), m.end())
    return s.strip()


def _drop_clause(s: str, i: int, j: int) -> str:
    depth, lo = 0, i
    while lo > 0:  # back to the clause's start: an opening bracket or a separator at this level
        c = s[lo - 1]
        if c in _CLOSE:
            depth += 1
        elif c in _OPEN:
            if depth == 0:
                break
            depth -= 1
        elif c in ",;" and depth == 0:
            break
        lo -= 1
    inside = lo > 0 and s[lo - 1] in _OPEN
    depth, hi = 0, j
    while hi < len(s):  # on to its end
        c = s[hi]
        if c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (c in ",;" or (not inside and c == "." and (hi + 1 == len(s) or s[hi + 1] == " "))):
            break
        hi += 1
    before, after = s[:lo], s[hi:]
    if re.search(r"\bderived\b|\[D\]", s[lo:hi]):  # keep what the clause says about the result's origin
        return before + re.match(r"\s*", s[lo:hi]).group(0) + "derived" + after  # type: ignore[union-attr]
    last, first = before[-1:], after[:1]  # "" at either end of s
    if inside and first and first in _CLOSE and last in _OPEN:  # the whole bracket: drop it
        return before[:-1].rstrip() + after[1:]
    if last and last in ",;":  # "a, R-A9" -> "a"
        return before[:-1].rstrip() + after
    if first and first in ",;":  # "R-A9, a" -> "a"
        return before + after[1:].lstrip()
    return before.rstrip() + after if first and first in "." + _CLOSE else before + after.lstrip()


def text_escape(s: str) -> str:
    """Plain text for text mode: LaTeX specials escaped, accents and dashes as ASCII LaTeX."""
    out = []
    for ch in s:
        if ch in _TEXT_ESCAPES:
            out.append(_TEXT_ESCAPES[ch])
        elif ord(ch) < 128:
            out.append(ch)
        elif ch in _TEXT_CHARS:
            out.append(_TEXT_CHARS[ch])
        elif ch in GREEK or ch in MATH_SYMBOLS or ch in _SUPERSCRIPTS or ch in _SUBSCRIPTS:
            out.append("$" + math(ch) + "$")
        else:
            out.append(_unknown(ch))
    return "".join(out)


def _unknown(ch: str) -> str:
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode("ascii")
    if base and base.isalpha():
        return base
    return "[" + unicodedata.name(ch, "U+%04X" % ord(ch)).lower() + "]"


# -- classification of the words of a line ------------------------------------------------------------------

def _is_operator(tok: str) -> bool:
    return tok in {"=", "<", ">", "<=", ">=", "+", "-", "*", "/", "|", "~"} or (
        len(tok) == 1 and tok in MATH_SYMBOLS and tok not in "%#&$’′")


#: a Python name of the library (``randomized_response_log_mgf_sharp.slope``): typewriter text, not maths
_IDENTIFIER = re.compile(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+){2,}(?:\.[A-Za-z_][A-Za-z0-9_]*)*")


def _kind(tok: str) -> str:
    """``math``, ``text``, or ``maybe`` (a single letter that is also an English word: a, A, I)."""
    core = tok.strip(_PUNCT)
    if _IDENTIFIER.fullmatch(core):
        return "ident"
    if not core:
        return "text" if tok.strip(_PUNCT + " ") == "" and not any(c in "()[]" for c in tok) else "math"
    if core.lower() in _ABBREVIATIONS or _REFERENCE.match(core) or core[0] == "§":
        return "text"
    if re.fullmatch(r"\d+(st|nd|rd|th)|1[5-9]\d\d|20\d\d", core):  # ordinals and years
        return "text"
    if _is_operator(tok):
        return "math"
    if any(ch in _MATH_CHARS for ch in tok) or "√" in tok:
        return "math"
    if core in _FUNCTIONS or core in ("eps", "epsilon", "lam", "Delta", "delta", "sigma", "rho", "alpha", "xi", "tau"):
        # symbols' ASCII names
        return "math"
    if re.fullmatch(r"[A-Za-z]", core):
        return "maybe" if core in ("a", "A", "I") else "math"
    if re.fullmatch(r"[A-Za-z]'+", core):  # x', M'' (a possessive such as Gibbs' stays text)
        return "math"
    if re.fullmatch(r"\d+(\.\d+)*", core):
        return "maybe"
    if re.fullmatch(r"[-+]?[\d.]+(e-?\d+)?", core) or re.fullmatch(r"[\d.]+/[\d.]+", core):
        return "math"
    if _WORD.match(core) or re.fullmatch(r"[A-Za-z]+\d+", core):
        return "text"
    if re.search(r"[A-Za-z]\(|\)[A-Za-z]|\d", core):
        return "math"
    return "text"


def _split_suffix(tok: str) -> list[str]:
    """``ρ-zCDP`` -> ``ρ``, ``-zCDP``: a hyphenated word after maths stays text."""
    m = re.match(r"^(.*?[^\s\-])(-[A-Za-z][A-Za-z]+[.,;:)]*)$", tok)
    if m and _kind(m.group(1)) == "math" and not _REFERENCE.match(tok.strip(_PUNCT)):
        return [m.group(1), m.group(2)]
    return [tok]


#: the ASCII names of the library's symbols (cdpsym.expr.symbols), typeset as the letters they stand for
_ASCII_GREEK = {"eps": r"\varepsilon", "delta": r"\delta", "Delta": r"\Delta", "rho": r"\rho", "sigma": r"\sigma",
                "alpha": r"\alpha", "lam": r"\lambda", "lambda": r"\lambda", "mu": r"\mu", "nu": r"\nu",
                "tau": r"\tau", "omega": r"\omega", "xi": r"\xi", "epsilon": r"\varepsilon"}


def prose(s: str) -> str:
    """A line of Unicode prose as LaTeX: its maths in ``$...$``, the rest escaped text; ``**x**`` bold,
    ``*x*`` italic."""
    m = re.search(r"(?<![\w)\]*])\*\*([A-Za-z][^*]*?)\*\*(?![\w(\[*])", s)
    if m:  # **bold words** (a power ``x**2`` is not bold: see below)
        return prose(s[: m.start()]) + r"\textbf{%s}" % prose(m.group(1)) + prose(s[m.end():])
    if "**" in s:  # Python's power, as in "Delta**2/b**2"
        s = s.replace("**", "^")
    s = re.sub(r"(?<![\w.])oo(?![\w(])", "∞", s)  # sympy's infinity, as in "[0, oo)" or "-oo"
    m = re.search(r"(?<![\w*])\*([^*\s][^*]*?)\*(?![\w*])", s)
    if m:
        return prose(s[: m.start()]) + r"\emph{%s}" % prose(m.group(1)) + prose(s[m.end():])
    words: list[str] = []
    for w in re.split(r"(\s+)", s):
        if w and not w.isspace():
            words += _split_suffix(w)
        elif w:
            words.append(w)
    kinds = [("space" if w.isspace() else _kind(w)) for w in words]
    toks = [i for i, k in enumerate(kinds) if k != "space"]
    # a single letter that is also a word is maths only next to an operator or other maths
    for j, i in enumerate(toks):
        if kinds[i] == "maybe" and re.fullmatch(r"\d+(\.\d+)*", words[i].strip(_PUNCT)):
            near = [toks[j - 1]] if j else []
            near += [toks[j + 1]] if j + 1 < len(toks) else []
            kinds[i] = "math" if any(_is_operator(words[n]) for n in near) else "text"
        elif kinds[i] == "maybe":
            near = [toks[j - 1]] if j else []
            near += [toks[j + 1]] if j + 1 < len(toks) else []
            kinds[i] = "math" if any(_is_operator(words[n]) or words[n][:1] in "[(" for n in near) else "text"
    # inside the open brackets of an application in a maths run, words are maths too (E[C_i | prefix]); a bare
    # parenthesis or bracket that merely starts with maths -- "(ε tanh(ε/2) for every step)" -- keeps its words
    depth = 0
    for i in toks:
        if kinds[i] == "math" or depth > 0:
            if depth > 0 and kinds[i] == "text" and not _REFERENCE.match(words[i].strip(_PUNCT)):
                kinds[i] = "math"
            w = words[i]
            opened = len(re.findall(r"[\w\]\)][(\[{]", w))  # f(, E[, Pr[: an application opens
            closed = sum(w.count(c) for c in ")]}") - (sum(w.count(c) for c in "([{") - opened)
            depth = max(0, depth + opened - max(0, closed))
    out: list[str] = []
    run: list[str] = []

    def flush() -> None:
        if not run:
            return
        body = "".join(run).rstrip()
        tail = head = ""
        while body:
            opened = sum(body.count(c) for c in "([") - sum(body.count(c) for c in ")]")
            if body[-1] in ",.;:" or (body[-1] in ")]" and opened < 0):
                tail = body[-1] + tail
                body = body[:-1]
            elif body[0] in "([" and opened > 0:
                head += body[0]
                body = body[1:]
            else:
                break
        body = body.strip()
        trailing_space = "".join(run)[len("".join(run).rstrip()):]
        out.append(head + ("$" + math(body) + "$" if body else "") + tail + trailing_space)
        run.clear()

    for i, w in enumerate(words):
        if kinds[i] == "math":
            run.append(w)
        elif kinds[i] == "space" and run:
            run.append(w)
        elif kinds[i] == "ident":
            flush()
            core = w.strip(_PUNCT)
            start = w.index(core)
            out.append(text_escape(w[:start]) + r"\texttt{%s}" % core.replace("_", r"\_\allowbreak{}")
                       + text_escape(w[start + len(core):]))
        else:
            flush()
            out.append(text_escape(w))
    flush()
    return "".join(out)


# -- a maths run ---------------------------------------------------------------------------------------------

def _group(s: str, i: int, open_: str, close: str) -> int:
    """Index of the bracket closing the one at ``s[i]``, or -1."""
    depth = 0
    for j in range(i, len(s)):
        if s[j] == open_:
            depth += 1
        elif s[j] == close:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _atom(s: str, i: int) -> int:
    """End of the atom starting at ``s[i]`` (a Greek letter, a number, a name)."""
    if i >= len(s):
        return i
    if s[i] in GREEK:
        return i + 1
    m = re.match(r"[A-Za-z]+|\d+(\.\d+)?", s[i:])
    return i + (m.end() if m else 1)


def math(s: str) -> str:
    """Unicode pseudo-maths as LaTeX maths (without the dollars)."""
    s = re.sub(r"(\d+(?:\.\d+)?)e(-?\d+)\b",
               lambda m: ("" if m.group(1) == "1" else m.group(1) + r"\cdot ") + "10^{" + m.group(2) + "}", s)
    out: list[str] = []
    i = 0
    n = len(s)
    while i < n:
        ch = s[i]
        two = s[i:i + 2]
        if two in ("<=", ">="):
            out.append(r"\le " if two == "<=" else r"\ge ")
            i += 2
        elif ch == "\\":  # an existing macro (introduced above): copy it
            m = re.match(r"\\[A-Za-z]+", s[i:])
            out.append(m.group(0) if m else r"\backslash ")
            i += m.end() if m else 1
        elif ch == "1" and s[i + 1:i + 2] == "[" and not (i and s[i - 1].isalnum()):
            out.append(r"\mathbf{1}")
            i += 1
        elif ch == "√":
            if i + 1 < n and s[i + 1] == "(" and _group(s, i + 1, "(", ")") > 0:
                j = _group(s, i + 1, "(", ")")
                out.append(r"\sqrt{" + math(s[i + 2:j]) + "}")
                i = j + 1
            else:
                j = _atom(s, i + 1)
                out.append(r"\sqrt{" + math(s[i + 1:j]) + "}" if j > i + 1 else r"\surd ")
                i = j
        elif ch in "^ˆ_":
            op = "_" if ch == "_" else "^"
            j = i + 1
            if j < n and s[j] in "({" and _group(s, j, s[j], ")" if s[j] == "(" else "}") > 0:
                k = _group(s, j, s[j], ")" if s[j] == "(" else "}")
                inner = s[j + 1:k]
                if s[j] == "(" and re.fullmatch(r"[A-Za-z]", inner):  # P^(k): the k-fold product keeps its parens
                    inner = "(" + inner + ")"
                out.append(op + "{" + math(inner) + "}")
                i = k + 1
            else:
                k = _atom(s, j)
                word = s[j:k]
                if op == "_" and re.fullmatch(r"[A-Za-z]{2,}", word):
                    out.append(r"_{\text{" + word + "}}")
                else:
                    out.append(op + "{" + math(word) + "}")
                i = k
        elif ch in _SUPERSCRIPTS and _SUPERSCRIPTS[ch] is not None:
            j = i
            while j < n and s[j] in _SUPERSCRIPTS and _SUPERSCRIPTS[s[j]] is not None:
                j += 1
            out.append("^{" + "".join(_SUPERSCRIPTS[c] for c in s[i:j]) + "}")
            i = j
        elif ch in _SUBSCRIPTS:
            j = i
            while j < n and s[j] in _SUBSCRIPTS:
                j += 1
            out.append("_{" + "".join(_SUBSCRIPTS[c] for c in s[i:j]) + "}")
            i = j
        elif ch in GREEK:
            macro = GREEK[ch]
            if i + 1 < n and s[i + 1] == "\u0304":  # combining macron
                out.append(r"\bar{" + macro + "}")
                i += 2
                continue
            if i + 1 < n and s[i + 1] in "0123456789" and not (i + 2 < n and s[i + 2] in "0123456789"):  # δ0: a subscript
                out.append(macro + "_{" + s[i + 1] + "}")
                i += 2
                continue
            out.append(macro + (" " if i + 1 < n and s[i + 1].isalpha() else ""))
            i += 1
        elif ch in MATH_SYMBOLS:
            macro = MATH_SYMBOLS[ch]
            out.append(macro + (" " if macro[-1].isalpha() and i + 1 < n and s[i + 1].isalnum() else ""))
            i += 1
        elif ch in "{}":
            out.append("\\" + ch)
            i += 1
        elif ch.isalpha() and ch.isascii():
            m = re.match(r"[A-Za-z]+", s[i:])
            word = m.group(0)  # type: ignore[union-attr]
            prev = s[i - 1] if i else " "
            if prev.isdigit() or prev.isalpha():
                out.append(word)
            elif word == "E" and (i + 1 < n and s[i + 1] in "[( "):
                out.append(r"\mathbb{E}")
            elif word in _FUNCTIONS:
                out.append(_FUNCTIONS[word] + (" " if i + len(word) < n and s[i + len(word)].isalnum() else ""))
            elif word == "N" and i + 1 < n and s[i + 1] == "(":  # the normal law, as the statements print it
                out.append(r"\mathcal{N}")
            elif word in ("supp", "Var", "Lap", "Bern", "RR", "N", "sign"):
                out.append(r"\mathrm{" + word + "}" if len(word) > 1 else word)
            elif word == "oo":
                out.append(r"\infty")
            elif word in _ASCII_GREEK:  # a symbol's ASCII name in maths ("Delta**2/b**2")
                out.append(_ASCII_GREEK[word] + (" " if i + len(word) < n and s[i + len(word)].isalnum() else ""))
            elif len(word) > 2:
                out.append(r"\text{" + word + "}")
            else:
                out.append(word)
            i += len(word)
        elif ord(ch) < 128:
            out.append(ch)
            i += 1
        elif ch == "\u0304":
            i += 1
        else:
            out.append(r"\text{" + _unknown(ch) + "}")
            i += 1
    return "".join(out)
