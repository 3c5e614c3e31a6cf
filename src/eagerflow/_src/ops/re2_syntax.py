"""RE2's regular expressions (TF's ``regex_replace``, ``regex_full_match``) as patterns of
Python's `re`, matching what RE2 matches.

`translate` rewrites what the two read differently: ``$`` is the end of the text alone
(Python's also matches before a final newline), ``\\s`` leaves out ``\\v``, ``\\z``,
``\\Q...\\E``, ``\\pL``/``\\p{Greek}`` and POSIX classes (``[[:alpha:]]``) exist, ``{,n}``
is literal text, ``(?U)`` makes repetitions prefer fewer; ``\\d``, ``\\w`` and ``\\b`` are
ASCII's while ``(?i)`` folds case as Unicode does (but leaves İ and ı apart from i, as RE2
does). What RE2 refuses (lookarounds, backreferences, ``\\Z``, a repetition of a
repetition...) raises `Re2Error` with RE2's words. `replace` replaces as RE2's global
replace does: an empty match right where the previous match ended is passed over, with the
character after it.

>>> translate(r"a$|\\s")
'a\\\\Z|[\\\\t\\\\n\\\\f\\\\r ]'
"""
import functools
import re
import unicodedata

import numpy as np

from eagerflow._src.ops import unicode_scripts


class Re2Error(ValueError):
    """A pattern RE2 refuses; the message is RE2's (``missing ): (``)."""


_SPACE = r"\t\n\f\r "
_POSIX = {"alnum": "0-9A-Za-z", "alpha": "A-Za-z", "ascii": r"\x00-\x7f", "blank": r"\t ",
          "cntrl": r"\x00-\x1f\x7f", "digit": "0-9", "graph": "!-~", "lower": "a-z",
          "print": " -~", "punct": r"!-/:-@\[-`{-~", "space": r"\t\n\v\f\r ", "upper": "A-Z",
          "word": "0-9A-Za-z_", "xdigit": "0-9A-Fa-f"}
# ICU's codes (`unicode_scripts`) of the scripts RE2 names
_SCRIPTS = {"Common": 0, "Inherited": 1, "Arabic": 2, "Armenian": 3, "Bengali": 4,
            "Bopomofo": 5, "Cherokee": 6, "Coptic": 7, "Cyrillic": 8, "Devanagari": 10,
            "Ethiopic": 11, "Georgian": 12, "Greek": 14, "Gujarati": 15, "Gurmukhi": 16,
            "Han": 17, "Hangul": 18, "Hebrew": 19, "Hiragana": 20, "Kannada": 21,
            "Katakana": 22, "Khmer": 23, "Lao": 24, "Latin": 25, "Malayalam": 26,
            "Mongolian": 27, "Myanmar": 28, "Ogham": 29, "Oriya": 31, "Runic": 32,
            "Sinhala": 33, "Syriac": 34, "Tamil": 35, "Telugu": 36, "Thaana": 37, "Thai": 38,
            "Tibetan": 39}
_REPEAT = re.compile(r"\{(\d+)(,(\d*))?\}")
_KNOWN_ESCAPES = set("dDwWsSbBAzCpPQEaftnrvx0")


def _ranges(flags):
    """A class body (``\\u0041-\\u005a...``) of the code points where `flags` is True."""
    edges = np.flatnonzero(np.diff(np.concatenate([[0], flags.astype(np.int8), [0]])))
    return "".join(f"\\U{a:08x}-\\U{b - 1:08x}" for a, b in zip(edges[::2], edges[1::2]))


@functools.lru_cache(maxsize=None)
def _categories():
    return np.array([unicodedata.category(chr(c))[:2] for c in range(0x110000)])


@functools.lru_cache(maxsize=64)
def _property(name):
    """The class body of RE2's ``\\p{name}`` (a general category or a script), or None."""
    if name == "Any":
        return r"\x00-\U0010ffff"
    if name in _SCRIPTS:
        deltas, codes = zip(*(e.split(":") for e in unicode_scripts.RUNS.split()))
        starts = np.cumsum([int(d, 16) for d in deltas])
        code = np.array([int(c, 16) for c in codes])[
            np.searchsorted(starts, np.arange(0x110000), side="right") - 1]
        return _ranges(code == _SCRIPTS[name])
    if len(name) in (1, 2) and name[0] in "CLMNPSZ":
        cats = _categories()
        flags = (np.char.startswith(cats, name) if len(name) == 1 else cats == name)
        if flags.any():
            return _ranges(flags)
    return None


def _unicode_class(p, i):
    """(class body, next index, negated) of ``\\pX``, ``\\p{Name}`` or ``\\PX`` at `p[i]`."""
    negated = p[i + 1] == "P"
    if i + 2 < len(p) and p[i + 2] == "{":
        end = p.find("}", i + 3)
        if end < 0:
            raise Re2Error(f"invalid character class range: {p[i:]}")
        name, stop = p[i + 3:end], end + 1
        if name.startswith("^"):
            name, negated = name[1:], not negated
    else:
        name, stop = p[i + 2:i + 3], i + 3
    body = _property(name)
    if body is None:
        raise Re2Error(f"invalid character class range: {p[i:stop]}")
    return body, stop, negated


# Bytes that are no UTF-8 reach the patterns as the lone surrogates U+DC80..U+DCFF (the
# strings decode with "surrogateescape"); RE2 matches no such byte with ".", a negated
# class or \D \W \S \P: those exclude them.
_INVALID = "\udc80-\udcff"
_DIGIT, _WORD = "0-9", "0-9A-Za-z_"
# class bodies of what \S, \D and \W match (in a class: no invalid bytes)
_OTHER = {"S": r"\x00-\x08\x0b\x0e-\x1f\x21-\udc7f\udd00-\U0010ffff",
          "D": r"\x00-\x2f\x3a-\udc7f\udd00-\U0010ffff",
          "W": r"\x00-\x2f\x3a-\x40\x5b-\x5e\x60\x7b-\udc7f\udd00-\U0010ffff"}
_BOUNDARY = {  # RE2's ASCII word boundary, case-sensitive even under (?i)
    "b": "(?-i:(?<![0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<=[0-9A-Za-z_])(?![0-9A-Za-z_]))",
    "B": "(?-i:(?<![0-9A-Za-z_])(?![0-9A-Za-z_])|(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_]))"}
_DOTTED_I = "\u0130\u0131"  # İ and ı, which Python's (?i) takes for i (RE2's does not)
_NOT_DOTTED_I = f"(?-i:(?![{_DOTTED_I}]))"


def _guarded(cls):
    """Python class `cls` matching İ and ı only where it holds them itself, as RE2's
    case folding has it, even under (?i)."""
    kept = "".join(c for c in _DOTTED_I if re.fullmatch(cls, c))
    if all(bool(re.fullmatch(cls, c, re.I)) == (c in kept) for c in _DOTTED_I):
        return cls  # (no i in it: the same either way)
    return f"(?:{_NOT_DOTTED_I}{cls}" + (f"|(?-i:[{kept}]))" if kept else ")")


def _escape(p, i, in_class):
    """(Python text, next index) of the escape at `p[i]` (a backslash)."""
    if i + 1 >= len(p):
        raise Re2Error("trailing \\")
    c = p[i + 1]
    if c.isdigit():  # (octal: "\0" and up to two digits more, or two or three digits)
        digits = re.match(r"[0-7]{0,3}", p[i + 1:i + 4]).group()
        if c in "89" or c != "0" and len(digits) < 2:  # (a backreference)
            raise Re2Error(f"invalid escape sequence: \\{c}")
        value = int(digits, 8)
        return (f"\\x{value:02x}" if value < 256 else f"\\u{value:04x}"), i + 1 + len(digits)
    if c.isalpha() and c not in _KNOWN_ESCAPES:
        raise Re2Error(f"invalid escape sequence: \\{c}")
    if c in "sdw":  # (RE2's are ASCII's, spelled out: the pattern is matched as Unicode)
        body = {"s": _SPACE, "d": _DIGIT, "w": _WORD}[c]
        return (body if in_class else f"[{body}]"), i + 2
    if c in "SDW":
        body = {"S": _SPACE, "D": _DIGIT, "W": _WORD}[c]
        return (_OTHER[c] if in_class else f"[^{body}{_INVALID}]"), i + 2
    if c in "bB" and not in_class:
        return _BOUNDARY[c], i + 2
    if c == "z":
        return r"\Z", i + 2
    if c == "x" and p[i + 2:i + 3] == "{":
        end = p.find("}", i + 3)
        return f"\\U{int(p[i + 3:end], 16):08x}", end + 1
    if c in "pP":
        body, stop, negated = _unicode_class(p, i)
        if in_class:
            if negated:
                raise Re2Error(f"invalid character class range: {p[i:stop]}")
            return body, stop
        return f"[^{body}{_INVALID}]" if negated else f"[{body}]", stop
    return p[i:i + 2], i + 2


def _posix_complement(body):
    """The class body of what POSIX class `body` (ASCII) leaves out (``[:^alpha:]``), bar
    invalid bytes."""
    ascii_ = [c for c in range(128) if not re.fullmatch(f"[{body}]", chr(c))]
    runs = np.split(ascii_, np.flatnonzero(np.diff(ascii_) > 1) + 1)
    return "".join(f"\\x{r[0]:02x}-\\x{r[-1]:02x}" for r in runs) + \
        "\\x80-\\udc7f\\udd00-\\U0010ffff"


def _char_class(p, i):
    """(Python class, next index) of the class starting at `p[i]` (``[``)."""
    j = i + 1
    out = ["["]
    if p[j:j + 1] == "^":
        out.append("^")
        j += 1
    first = True
    while True:
        if j >= len(p):
            raise Re2Error(f"missing ]: {p[i:]}")
        c = p[j]
        if c == "]" and not first:
            out.append(_INVALID + "]" if out[1] == "^" else "]")
            return "".join(out), j + 1
        first = False
        if p.startswith("[:", j):
            end = p.find(":]", j + 2)
            name = p[j + 2:end] if end >= 0 else None
            body = _POSIX.get(name[1:] if name and name.startswith("^") else name)
            if body is None:
                if end >= 0:
                    raise Re2Error(f"invalid character class range: {p[j:end + 2]}")
                out.append(r"\[")
                j += 1
                continue
            out.append(_posix_complement(body) if name.startswith("^") else body)
            j = end + 2
            continue
        if c == "\\":
            kind = p[j + 1:j + 2]
            text, j = _escape(p, j, True)
            out.append(text)
            if p[j:j + 1] == "-" and kind and kind in "dwsDWS":
                out.append(r"\-")  # (RE2 takes a "-" after a class for itself)
                j += 1
            continue
        if c == "-" and p[j + 1:j + 2] not in ("]", "") and j > i + 1 and out[-1] not in "[^":
            low, high = p[j - 1], p[j + 1]
            if high != "\\" and p[j - 2:j - 1] != "\\" and low > high:
                raise Re2Error(f"invalid character class range: {low}-{high}")
        out.append({"[": r"\[", "&": r"\&", "~": r"\~", "|": r"\|"}.get(c, c))
        j += 1


def _group(p, i):
    """(Python text, next index, turns multi-line on) of a group's opening at `p[i]`."""
    if not p.startswith("(?", i):
        return "(", i + 1, False
    rest = p[i + 2:]
    if rest.startswith("P<"):
        return "(?P<", i + 4, False
    flags = re.match(r"([imsU]*)(?:-([imsU]*))?([:)])", rest)
    if flags is None:
        raise Re2Error(f"invalid perl operator: {p[i:i + 3]}")
    return p[i:i + 2 + flags.end()], i + 2 + flags.end(), "m" in flags.group(1)


def _without_ungreedy(text, ungreedy):
    """A group's opening `text` without RE2's U flag (Python has none), and whether the
    group's repetitions are ungreedy (`ungreedy`: the enclosing group's)."""
    flags = re.fullmatch(r"\(\?([imsU]*)(?:-([imsU]*))?([:)])", text)
    if flags is None:
        return text, ungreedy
    on, off, end = flags.group(1), flags.group(2) or "", flags.group(3)
    ungreedy = "U" in on or ungreedy and "U" not in off
    on, off = on.replace("U", ""), off.replace("U", "")
    return "(?" + on + ("-" + off if off else "") + end, ungreedy


@functools.lru_cache(maxsize=256)
def translate(pattern):
    """Python's pattern matching what RE2's `pattern` matches; Re2Error where RE2 refuses
    it (its message RE2's)."""
    p, out, i, depth, multiline = pattern, [], 0, 0, False
    scoped = [[]]  # the flags set alone (``(?i)``) in each open group: they hold to its end
    ungreedy = [False]  # RE2's (?U) in each open group: its repetitions prefer fewer
    previous = "start"  # what precedes: "start" (of the pattern, a group, a branch), "atom",
    repeat_at = 0       # or "repeat" (whose operator starts at `repeat_at`)
    while i < len(p):
        c = p[i]
        size = 1
        if c in "*+?" or c == "{" and _REPEAT.match(p, i):
            size = _REPEAT.match(p, i).end() - i if c == "{" else 1
            if previous == "repeat":
                raise Re2Error(f"bad repetition operator: {p[repeat_at:i + size]}")
            if previous == "start":
                raise Re2Error(f"no argument for repetition operator: {p[i:i + size]}")
            if c == "{":
                low, high = _REPEAT.match(p, i).group(1, 3)
                if int(low) > 1000 or high and (int(high) > 1000 or int(high) < int(low)):
                    raise Re2Error(f"invalid repetition size: {p[i:i + size]}")
            lazy = p[i + size:i + size + 1] == "?"
            out.append(p[i:i + size] + ("?" if lazy != ungreedy[-1] else ""))
            size += lazy
            previous, repeat_at = "repeat", i
            i += size
            continue
        if c == "\\":
            if p.startswith("\\Q", i):
                end = p.find("\\E", i + 2)
                end = len(p) if end < 0 else end
                out.append(re.escape(p[i + 2:end]))
                i = min(end + 2, len(p))
            else:
                text, i = _escape(p, i, False)
                out.append(_guarded(text) if text.startswith("[") else text)
            previous = "atom"
            continue
        if c == "[":
            text, i = _char_class(p, i)
            out.append(_guarded(text))
            previous = "atom"
            continue
        if c == "(":
            text, i, multi = _group(p, i)
            multiline = multiline or multi
            text, lazy = _without_ungreedy(text, ungreedy[-1])
            if text.endswith(")"):  # flags alone: Python's scoped flags up to the group's end
                ungreedy[-1] = lazy
                if text != "(?)":
                    scoped[-1].append(text[:-1] + ":")
                    out.append(scoped[-1][-1])
                continue
            out.append(text)
            depth += 1
            scoped.append([])
            ungreedy.append(lazy)
            previous = "start"
            continue
        if c == ")":
            if not depth:
                raise Re2Error(f"unexpected ): {p}")
            depth -= 1
            out.append(")" * len(scoped.pop()))
            ungreedy.pop()
        if c == "|":  # (flags set in a branch hold in the next ones)
            out.append(")" * len(scoped[-1]) + "|" + "".join(scoped[-1]))
            previous = "start"
            i += 1
            continue
        out.append({"$": "$" if multiline else r"\Z", "{": r"\{",
                    ".": f"(?:(?![{_INVALID}]).)", "i": _NOT_DOTTED_I + "i",
                    "I": _NOT_DOTTED_I + "I"}.get(c, f"(?-i:{c})" if c in _DOTTED_I else c))
        previous = "start" if c == "|" else "atom"
        i += 1
    if depth:
        raise Re2Error(f"missing ): {p}")
    return "".join(out) + ")" * len(scoped[0])


def replace(regex, template, text, count):
    """`text` with the matches of compiled `regex` replaced by `template` (all of them when
    `count` is 0, else the first), as RE2 replaces: an empty match right where the previous
    match ended is passed over, with the character after it, and the search goes on past
    that character (Python's `re.sub` would take a longer match there)."""
    out, pos, last_end, done = [], 0, -1, 0
    while pos <= len(text) and not (count and done >= count):
        match = regex.search(text, pos)
        if match is None:
            break
        start, end = match.span()
        out.append(text[pos:start])
        if start == end == last_end:
            out.append(text[start:start + 1])
            pos = start + 1
            continue
        out.append(match.expand(template))
        pos = last_end = end
        done += 1
    out.append(text[pos:])
    return "".join(out)
