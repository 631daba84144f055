"""A Java regular expression (`java.util.regex.Pattern`, JDK 17 to 25) written as a Python `re`
pattern that matches the same texts, or the reason it cannot be.

Neo4j evaluates `text =~ pattern` as `Pattern.compile(pattern).matcher(text).matches()`
(`CypherBoolean.regex`). Python's re reads many patterns otherwise: `(?m)^` matches at the end
of the text in Python and never in Java; Python's `\\B` fails on '', Java's holds; `.`, `^` and
`$` see `\\r`, `\\u0085`, `\\u2028` and `\\u2029` as line ends in Java only; `\\Z`, `\\z`, `\\h`,
`\\v`, `\\R`, `\\0nn`, `\\x{..}`, `\\Q..\\E`, `[a-z&&[^e]]`, `[a[b]]`, `\\p{Alpha}` and `(?x)`
inside a class mean other things or nothing in Python. So the pattern is not handed to Python
as it is. It is parsed the way Pattern.java parses it (the same cursor walk, so that Java's
quirks come out alike: `\\Q..\\E` is removed before parsing, `{3}` after a quantifier repeats
an empty atom, a `]` first in a class is a character, `[\\][^^]` is an unclosed class, (?x)
skips whitespace inside classes) and each node is written out explicitly:
- a character, class or property as the set of code points Java's predicate accepts (Java's
  ASCII-only case folding, unions, intersections and complements computed here), so that no
  Python flag is needed and the written pattern compiles with `re.ASCII` alone;
- `.`, `^`, `$`, `\\Z`, `\\z`, `\\A`, `\\G` and `\\R` as lookarounds over Java's line terminators
  (or `\\n` alone under (?d));
- the quantifiers Java applies to one match of their atom (`\\R?`, `\\R{2}` and groups whose
  body Java judges deterministic keep the first way `\\R` matches) and possessive ones as
  atomic groups;
- a lookbehind Java accepts only (its body has an obvious maximum length, Java's `TreeInfo`
  study, ported) and written per alternative where Python wants one fixed width.

What Java rejects raises `JavaSyntaxError` with Java's description. What cannot be written
exactly raises `UnsupportedJavaRegex`: Unicode tables that differ between Java and Python
(`\\p{IsLatin}`, `\\p{InGreek}`, `\\p{javaLowerCase}`, `\\N{..}`, `\\X`, `\\b{g}`, (?U), (?c)),
a backreference to a group that is not closed before it or sits in a quantifier, lookaround or
atomic group (Java keeps or clears such captures otherwise than Python), a group that may match
nothing repeated at least twice (Java's loop ends at an empty iteration, Python's goes on), a
lookbehind Python cannot write. Some constructs are exact on some texts only
(`JavaRegex.text_refusal`): `\\b` and `\\B` read non-ASCII letters as word characters in JDK
17 and not in JDK 19+ (JDK-8264160); a Unicode category (`\\p{L}`) is written for ASCII
characters; (?iu) folds non-ASCII case in Java only; Java steps back through a lookbehind by
UTF-16 units, Python by code points.

The emitted patterns were compared with Java 17 and 25 by `benchmarks/bench_regex_java_diff.py`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field

# Pattern.java's flags.
_UNIX_LINES, _CASE_INSENSITIVE, _COMMENTS, _MULTILINE = 0x01, 0x02, 0x04, 0x08
_DOTALL, _UNICODE_CASE = 0x20, 0x40
_MAX_REPS = 0x7FFFFFFF            # Java's unbounded repetition count (and int's maximum)
_MAX_CODE_POINT = 0x10FFFF

# Java's zero-width nodes, written for Python.
_BEGIN = "\\A"                                                   # ^, \A, \G (matches())
_END = "\\Z"                                                     # \z
_CARET = "(?!\\Z)(?:\\A|(?<=[\\n\\x85\\u2028\\u2029])|(?<=\\r)(?!\\n))"   # (?m)^
_UNIX_CARET = "(?!\\Z)(?:\\A|(?<=\\n))"                           # (?md)^
_DOLLAR = "(?=(?:\\r\\n|(?<!\\r)\\n|[\\r\\x85\\u2028\\u2029])?\\Z)"  # $, \Z
_DOLLAR_MULTILINE = "(?=[\\r\\x85\\u2028\\u2029]|(?<!\\r)\\n|\\Z)"    # (?m)$
_UNIX_DOLLAR = "(?=\\n?\\Z)"                                      # (?d)$
_UNIX_DOLLAR_MULTILINE = "(?=\\n|\\Z)"                            # (?md)$
_BOUND = "\\b"
_NOT_BOUND = "(?!\\b)"            # Python's \B fails on '', Java's holds
_LINE_ENDING = "\\r\\n|[\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029]"         # \R


class JavaSyntaxError(ValueError):
    """Java's `PatternSyntaxException` for the pattern (its description)."""


class UnsupportedJavaRegex(ValueError):
    """A construct whose Java meaning cannot be written exactly for Python's re."""


@dataclass(frozen=True)
class JavaRegex:
    """A Java pattern written for Python's re (compile with `re.ASCII`), exact on every text
    but those `text_refusal` names: each field is the reason a kind of text is refused."""

    python: str
    ascii_text: str | None = None   # any non-ASCII character
    word_text: str | None = None    # a non-ASCII letter, digit or mark
    cased_text: str | None = None   # a non-ASCII character with a case
    bmp_text: str | None = None     # a character beyond U+FFFF

    def text_refusal(self, text: str) -> str | None:
        """Why the written pattern may match `text` otherwise than Java, or None."""
        if text.isascii():
            return None
        checks = ((self.ascii_text, lambda c: True), (self.word_text, _word_like),
                  (self.cased_text, _cased), (self.bmp_text, lambda c: ord(c) > 0xFFFF))
        for reason, risky in checks:
            if reason and any(risky(c) for c in text if not c.isascii()):
                return reason
        return None


def _word_like(c: str) -> bool:
    """A character JDK 17's \\b reads as a word character (Character.isLetterOrDigit, or a
    non-spacing mark) and JDK 19+ does not, or one unassigned in Python's Unicode version."""
    category = unicodedata.category(c)
    return category[0] in "LM" or category in ("Nd", "Cn")


def _cased(c: str) -> bool:
    """A character Java's Unicode case folding (?iu) may fold to another one."""
    return c.lower() != c or c.upper() != c or unicodedata.category(c) == "Cn"


# -- Sets of code points: sorted, disjoint, inclusive (low, high) pairs. -----------------------

Ranges = tuple[tuple[int, int], ...]


def _ranges(pairs: list[tuple[int, int]] | set[int]) -> Ranges:
    items = sorted((p, p) if isinstance(p, int) else p for p in pairs)
    merged: list[list[int]] = []
    for low, high in items:
        if merged and low <= merged[-1][1] + 1:
            merged[-1][1] = max(merged[-1][1], high)
        else:
            merged.append([low, high])
    return tuple((low, high) for low, high in merged)


def _union(a: Ranges, b: Ranges) -> Ranges:
    return _ranges(list(a) + list(b))


def _complement(a: Ranges) -> Ranges:
    out, start = [], 0
    for low, high in a:
        if low > start:
            out.append((start, low - 1))
        start = high + 1
    if start <= _MAX_CODE_POINT:
        out.append((start, _MAX_CODE_POINT))
    return tuple(out)


def _intersect(a: Ranges, b: Ranges) -> Ranges:
    return _complement(_union(_complement(a), _complement(b)))


def _char_text(cp: int) -> str:
    if cp < 128 and chr(cp).isalnum():
        return chr(cp)
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def _set_text(ranges: Ranges) -> str:
    """A Python pattern for one character of the set."""
    if not ranges:
        return "(?!)"
    if ranges == ((0, _MAX_CODE_POINT),):
        return "(?s:.)"
    if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
        return _char_text(ranges[0][0])
    negated = _complement(ranges)
    shown, caret = (negated, "^") if len(negated) < len(ranges) else (ranges, "")
    parts = (_char_text(lo) if lo == hi else f"{_char_text(lo)}-{_char_text(hi)}"
             for lo, hi in shown)
    return f"[{caret}{''.join(parts)}]"


# -- Java's ASCII class (java.util.regex.ASCII). ----------------------------------------------

def _is_ascii(ch: int) -> bool:
    return 0 <= ch < 128


def _is_upper(ch: int) -> bool:
    return 65 <= ch <= 90


def _is_lower(ch: int) -> bool:
    return 97 <= ch <= 122


def _is_alpha(ch: int) -> bool:
    return _is_upper(ch) or _is_lower(ch)


def _is_digit(ch: int) -> bool:
    return 48 <= ch <= 57


def _is_alnum(ch: int) -> bool:
    return _is_alpha(ch) or _is_digit(ch)


def _is_hex(ch: int) -> bool:
    return _is_digit(ch) or 65 <= ch <= 70 or 97 <= ch <= 102


def _is_space(ch: int) -> bool:   # ASCII.isSpace: the whitespace (?x) skips
    return ch in (9, 10, 11, 12, 13, 32)


def _to_lower(ch: int) -> int:
    return ch + 32 if _is_upper(ch) else ch


def _to_upper(ch: int) -> int:
    return ch - 32 if _is_lower(ch) else ch


def _ascii_where(test: object) -> Ranges:
    return _ranges({c for c in range(128) if test(c)})  # type: ignore[operator]


_DIGITS = _ranges([(48, 57)])
_WORD = _ranges([(48, 57), (65, 90), (95, 95), (97, 122)])
_SPACE = _ranges({9, 10, 11, 12, 13, 32})
_HORIZONTAL = _ranges([(9, 9), (32, 32), (0xA0, 0xA0), (0x1680, 0x1680), (0x180E, 0x180E),
                       (0x2000, 0x200A), (0x202F, 0x202F), (0x205F, 0x205F),
                       (0x3000, 0x3000)])
_VERTICAL = _ranges([(10, 13), (0x85, 0x85), (0x2028, 0x2029)])
_DOT = _complement(_ranges({10, 13, 0x85, 0x2028, 0x2029}))
_UNIX_DOT = _complement(_ranges({10}))
_ALL = ((0, _MAX_CODE_POINT),)
_PUNCT = _ascii_where(lambda c: 33 <= c <= 126 and not _is_alnum(c))
# CharPredicates.forProperty's names defined on ASCII alone: exact for every text.
_POSIX: dict[str, Ranges] = {
    "ASCII": ((0, 127),), "Alnum": _ascii_where(_is_alnum), "Alpha": _ascii_where(_is_alpha),
    "Blank": _ranges({9, 32}), "Cntrl": _ranges([(0, 31), (127, 127)]), "Digit": _DIGITS,
    "Graph": _union(_ascii_where(_is_alnum), _PUNCT), "Lower": _ascii_where(_is_lower),
    "Print": ((32, 126),), "Punct": _PUNCT, "Space": _SPACE,
    "Upper": _ascii_where(_is_upper), "XDigit": _ascii_where(_is_hex),
    "L1": ((0, 255),), "all": _ALL,
}
# Its Unicode general categories: written for ASCII characters (a category does not change for
# them between Unicode versions), exact on ASCII texts.
_CATEGORIES: dict[str, tuple[str, ...]] = {
    **{c: (c,) for c in ("Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Me", "Mc", "Nd", "Nl", "No",
                         "Zs", "Zl", "Zp", "Cc", "Cf", "Co", "Cs", "Pd", "Ps", "Pe", "Pc", "Po",
                         "Sm", "Sc", "Sk", "So", "Pi", "Pf")},
    "L": ("Lu", "Ll", "Lt", "Lm", "Lo"), "M": ("Mn", "Me", "Mc"), "N": ("Nd", "Nl", "No"),
    "Z": ("Zs", "Zl", "Zp"), "C": ("Cc", "Cf", "Co", "Cs", "Cn"),
    "P": ("Pd", "Ps", "Pe", "Pc", "Po", "Pi", "Pf"), "S": ("Sm", "Sc", "Sk", "So"),
    "LC": ("Lu", "Ll", "Lt"), "LD": ("Lu", "Ll", "Lt", "Lm", "Lo", "Nd"),
}
# Names Java accepts whose sets follow Unicode tables (or Character methods) beyond ASCII.
_JAVA_METHOD_PROPERTIES = frozenset(
    f"java{n}" for n in ("LowerCase", "UpperCase", "Alphabetic", "Ideographic", "TitleCase",
                         "Digit", "Defined", "Letter", "LetterOrDigit", "JavaIdentifierStart",
                         "JavaIdentifierPart", "UnicodeIdentifierStart",
                         "UnicodeIdentifierPart", "IdentifierIgnorable", "SpaceChar",
                         "Whitespace", "ISOControl", "Mirrored"))
_UNICODE_PROPERTIES = frozenset((
    "ALPHABETIC", "ASSIGNED", "CONTROL", "EMOJI", "EMOJI_PRESENTATION", "EMOJI_MODIFIER",
    "EMOJI_MODIFIER_BASE", "EMOJI_COMPONENT", "EXTENDED_PICTOGRAPHIC", "HEXDIGIT", "HEX_DIGIT",
    "IDEOGRAPHIC", "JOINCONTROL", "JOIN_CONTROL", "LETTER", "LOWERCASE",
    "NONCHARACTERCODEPOINT", "NONCHARACTER_CODE_POINT", "TITLECASE", "PUNCTUATION",
    "UPPERCASE", "WHITESPACE", "WHITE_SPACE", "WORD", "ALPHA", "LOWER", "UPPER", "SPACE",
    "PUNCT", "XDIGIT", "ALNUM", "CNTRL", "DIGIT", "BLANK", "GRAPH", "PRINT"))


def _category(names: tuple[str, ...]) -> Ranges:
    return _ascii_where(lambda c: unicodedata.category(chr(c)) in names)


# -- Java's CharPredicates, kept lazy: a class's BitClass may gain characters after it was
# joined to another predicate (`[a&&&b]` is {a, &, b} in Java), so sets are computed once the
# whole class is parsed. -----------------------------------------------------------------------

class _Pred:
    def ranges(self) -> Ranges:
        raise NotImplementedError


@dataclass(eq=False)
class _Fixed(_Pred):
    value: Ranges

    def ranges(self) -> Ranges:
        return self.value


@dataclass(eq=False)
class _Bits(_Pred):
    """Java's BitClass: the Latin-1 characters of a class, added to as the class is read."""
    chars: set[int] = field(default_factory=set)

    def ranges(self) -> Ranges:
        return _ranges(self.chars)


@dataclass(eq=False)
class _Union(_Pred):
    parts: list[_Pred]

    def ranges(self) -> Ranges:
        return _ranges([r for p in self.parts for r in p.ranges()])


@dataclass(eq=False)
class _And(_Pred):
    left: _Pred
    right: _Pred

    def ranges(self) -> Ranges:
        return _intersect(self.left.ranges(), self.right.ranges())


@dataclass(eq=False)
class _Not(_Pred):
    inner: _Pred

    def ranges(self) -> Ranges:
        return _complement(self.inner.ranges())


def _union_of(a: _Pred, b: _Pred) -> _Pred:
    return _Union([*a.parts, b]) if isinstance(a, _Union) else _Union([a, b])


# -- The nodes Java builds, as far as matching and `study` tell them apart. --------------------

@dataclass
class _Study:
    """Java's TreeInfo: the length bounds and determinism `study` computes."""
    min: int = 0
    max: int = 0
    max_valid: bool = True
    deterministic: bool = True

    def reset(self) -> None:
        self.min, self.max, self.max_valid, self.deterministic = 0, 0, True, True


class _Node:
    def emit(self) -> str:
        raise NotImplementedError

    def study(self, info: _Study) -> None:   # zero-width nodes: nothing
        return None

    def width(self) -> tuple[int, float] | None:
        """Python's length bounds of a match, in code points (None: a backreference)."""
        return 0, 0

    def children(self) -> tuple[_Node, ...]:
        return ()

    def walk(self) -> list[_Node]:
        out: list[_Node] = [self]
        for child in self.children():
            out += child.walk()
        return out


@dataclass(eq=False)
class _Chars(_Node):
    pred: _Pred

    def emit(self) -> str:
        return _set_text(self.pred.ranges())

    def study(self, info: _Study) -> None:
        info.min += 1
        info.max += 1

    def width(self) -> tuple[int, float] | None:
        return 1, 1


@dataclass(eq=False)
class _Zero(_Node):
    python: str

    def emit(self) -> str:
        return self.python


@dataclass(eq=False)
class _LineEnding(_Node):
    def emit(self) -> str:
        return f"(?:{_LINE_ENDING})"

    def study(self, info: _Study) -> None:
        info.min += 1
        info.max += 2

    def width(self) -> tuple[int, float] | None:
        return 1, 2


@dataclass(eq=False)
class _BackRef(_Node):
    """A backreference. Java leaves a group's capture set when a lookaround, an atomic group
    or a possessive or counted iteration around it succeeded and a later node failed (its
    GroupTail returned to `accept`, which never fails), and keeps or clears it otherwise than
    Python across loop iterations that match nothing: `(?:(?=(a))x|a\\1)` matches 'aa' in
    Java only. So the group must be plain: inside groups and alternatives alone."""
    number: int
    case_insensitive: bool
    closed: bool        # the group closed before the reference
    opened: bool        # the group opened (maybe not closed) before it
    parser: _Parser

    def emit(self) -> str:
        if not self.opened and self.number >= self.parser.group_count:
            return "(?!)"   # a group the pattern never has: Java's BackRef never matches
        if not self.closed:
            raise UnsupportedJavaRegex("a backreference to a group not closed before it")
        if self.number not in self.parser.plain_groups:
            raise UnsupportedJavaRegex("a backreference to a group inside a quantifier, a "
                                       "lookaround or an atomic group")
        if self.number >= 100:
            raise UnsupportedJavaRegex("a backreference to group 100 or beyond")
        return f"(?i:\\{self.number})" if self.case_insensitive else f"(?:\\{self.number})"

    def study(self, info: _Study) -> None:
        info.max_valid = False

    def width(self) -> tuple[int, float] | None:
        return None


@dataclass(eq=False)
class _Seq(_Node):
    nodes: list[_Node]

    def emit(self) -> str:
        return "".join(n.emit() for n in self.nodes)

    def study(self, info: _Study) -> None:
        for n in self.nodes:
            n.study(info)

    def width(self) -> tuple[int, float] | None:
        low, high = 0, 0.0
        for n in self.nodes:
            w = n.width()
            if w is None:
                return None
            low, high = low + w[0], high + w[1]
        return low, high

    def children(self) -> tuple[_Node, ...]:
        return tuple(self.nodes)


@dataclass(eq=False)
class _Alt(_Node):
    """Java's Branch."""
    alternatives: list[_Node]

    def emit(self) -> str:
        return "(?:" + "|".join(a.emit() for a in self.alternatives) + ")"

    def study(self, info: _Study) -> None:
        min_l, max_l, max_v = info.min, info.max, info.max_valid
        min_2, max_2 = _MAX_REPS, -1
        for alternative in self.alternatives:
            info.reset()
            alternative.study(info)
            min_2, max_2 = min(min_2, info.min), max(max_2, info.max)
            max_v = max_v and info.max_valid
        info.min, info.max = min_l + min_2, max_l + max_2
        info.max_valid, info.deterministic = max_v, False

    def width(self) -> tuple[int, float] | None:
        widths = [a.width() for a in self.alternatives]
        if any(w is None for w in widths):
            return None
        return min(w[0] for w in widths), max(w[1] for w in widths)  # type: ignore[index]

    def children(self) -> tuple[_Node, ...]:
        return tuple(self.alternatives)


@dataclass(eq=False)
class _Group(_Node):
    body: _Node
    number: int | None = None
    name: str | None = None

    def emit(self) -> str:
        opening = "(?:" if self.number is None else f"(?P<{self.name}>" if self.name else "("
        return f"{opening}{self.body.emit()})"

    def study(self, info: _Study) -> None:
        self.body.study(info)

    def width(self) -> tuple[int, float] | None:
        return self.body.width()

    def children(self) -> tuple[_Node, ...]:
        return (self.body,)


@dataclass(eq=False)
class _Look(_Node):
    """A lookahead (`=`, `!`) or an atomic group (`>`); Java studies neither's body in a
    lookbehind, and an atomic group's (Ques INDEPENDENT) as its length."""
    kind: str
    body: _Node

    def emit(self) -> str:
        return f"(?{self.kind}{self.body.emit()})"

    def study(self, info: _Study) -> None:
        if self.kind == ">":
            self.body.study(info)

    def width(self) -> tuple[int, float] | None:
        return self.body.width() if self.kind == ">" else (0, 0)

    def children(self) -> tuple[_Node, ...]:
        return (self.body,)


@dataclass(eq=False)
class _LookBehind(_Node):
    kind: str                 # '=' or '!'
    body: _Node
    java_min: int             # Java's bounds (Behind's rmin, rmax), from its study
    java_max: int

    def emit(self) -> str:
        alternatives = self._fixed_parts()
        looks = [f"(?<{self.kind}{a.emit()})" for a in alternatives]
        if len(looks) == 1:
            return looks[0]
        return "".join(looks) if self.kind == "!" else "(?:" + "|".join(looks) + ")"

    def _fixed_parts(self) -> list[_Node]:
        """The body, or its alternatives, each of one length within Java's bounds (Java tries
        every start from i - rmax to i - rmin; Python one fixed length)."""
        parts = [self.body]
        width = self.body.width()
        if (width is None or width[0] != width[1]) and isinstance(self.body, _Alt) \
                and not any(isinstance(n, _Group) and n.number is not None
                            for n in self.body.walk()):
            parts = self.body.alternatives
        for part in parts:
            width = part.width()
            if width is None or width[0] != width[1] \
                    or not self.java_min <= width[0] <= self.java_max:
                raise UnsupportedJavaRegex("a lookbehind of varying length")
        return parts

    def children(self) -> tuple[_Node, ...]:
        return (self.body,)


@dataclass(eq=False)
class _Repeat(_Node):
    """A quantified atom, with the node Java builds for it (`kind`):
    - `ques`: Ques (a `?` on a non-group atom, or any possessive `?+`);
    - `char_greedy`: CharPropertyGreedy (`c*`, `c+`, `c{n,}` on one character);
    - `curly`: Curly (counts on a non-group atom, a zero-width group, possessive groups);
    - `group_curly`: GroupCurly (a group Java's study finds deterministic);
    - `loop`: Prolog and Loop (any other group);
    - `branch`: a `?` or `??` on a group, a Branch of the group and nothing.
    Java matches the atom of Ques, Curly and GroupCurly once per iteration, keeping its first
    match: that matters for `\\R` only (the one node study misses that can match two ways),
    whose atom is then written atomic."""
    atom: _Node
    cmin: int
    cmax: int
    qtype: str                # '', '?' (lazy) or '+' (possessive)
    kind: str

    def emit(self) -> str:
        inner = self.atom.emit()
        if self.qtype == "+":
            return _possessive(f"(?>{inner})", self.cmin, self.cmax)
        if self.kind in ("ques", "char_greedy", "curly", "group_curly") \
                and any(isinstance(n, _LineEnding) for n in self.atom.walk()):
            inner = f"(?>{inner})"
        elif not isinstance(self.atom, _Chars) or inner == "(?!)":
            inner = f"(?:{inner})"
        return f"{inner}{_quantifier(self.cmin, self.cmax)}{self.qtype}"

    def study(self, info: _Study) -> None:
        if self.kind == "ques":
            min_l = info.min
            self.atom.study(info)
            info.min, info.deterministic = min_l, False
        elif self.kind == "char_greedy":
            info.min += self.cmin
            if info.max_valid:
                info.max += _MAX_REPS
            info.deterministic = False
        elif self.kind == "loop":
            info.max_valid = info.deterministic = False
        elif self.kind == "branch":
            body = _Study()
            self.atom.study(body)
            info.max += max(body.max, 0)
            info.max_valid = info.max_valid and body.max_valid
            info.deterministic = False
        else:   # Curly, GroupCurly
            min_l, max_l, max_v, det = info.min, info.max, info.max_valid, info.deterministic
            info.reset()
            self.atom.study(info)
            info.min = info.min * self.cmin + min_l
            if max_v and info.max_valid:
                info.max = info.max * self.cmax + max_l
            else:
                info.max_valid = False
            info.deterministic = det if info.deterministic and self.cmin == self.cmax else False

    def width(self) -> tuple[int, float] | None:
        w = self.atom.width()
        if w is None:
            return None
        high = float("inf") if self.cmax == _MAX_REPS and w[1] else w[1] * self.cmax
        return w[0] * self.cmin, high

    def children(self) -> tuple[_Node, ...]:
        return (self.atom,)


def _possessive(atomic: str, cmin: int, cmax: int) -> str:
    """Java's possessive Ques and Curly: each iteration keeps its atom's first match and the
    count never backs off; an atomic group of greedy atomic iterations. (Python 3.11's own
    possessive repeat raises SystemError, "The span of capturing group is wrong", on some
    patterns with groups and a lookbehind: `(\\w((?<=a))|[ab]?)++` on 'ab'.)"""
    return f"(?>{atomic}{_quantifier(cmin, cmax)})"


def _quantifier(cmin: int, cmax: int) -> str:
    if (cmin, cmax) == (0, 1):
        return "?"
    if cmax == _MAX_REPS:
        return "*" if cmin == 0 else "+" if cmin == 1 else f"{{{cmin},}}"
    return f"{{{cmin}}}" if cmin == cmax else f"{{{cmin},{cmax}}}"


def _plain_groups(root: _Node) -> set[int]:
    """The capturing groups reached from the top through groups and alternatives alone."""
    plain, stack = set(), [root]
    while stack:
        node = stack.pop()
        if isinstance(node, _Group) and node.number is not None:
            plain.add(node.number)
        if isinstance(node, (_Group, _Seq, _Alt)):
            stack.extend(node.children())
    return plain


def _studied(node: _Node) -> _Study:
    info = _Study()
    node.study(info)
    return info


# -- The parser: Pattern.java's, method by method. -------------------------------------------

def _c(s: str) -> int:
    return ord(s)


class _Parser:
    """Pattern.java's recursive descent over the pattern's code points (`temp`, ended by two
    zeros), with its `cursor`, `flags0` and COMMENTS-mode peeking."""

    def __init__(self, pattern: str) -> None:
        self.temp = [ord(c) for c in pattern] + [0, 0]
        self.length = len(pattern)
        self.cursor = 0
        self.flags0 = 0
        self.group_count = 1            # Java's capturingGroupCount
        self.named: dict[str, int] = {}
        self.closed: set[int] = set()
        self.root: _Node | None = None  # escape()'s node ("double return")
        self.predicate: _Pred | None = None
        self.ascii_text: str | None = None
        self.word_text: str | None = None
        self.cased_text: str | None = None
        self.bmp_text: str | None = None
        self.plain_groups: set[int] = set()

    def has(self, flag: int) -> bool:
        return bool(self.flags0 & flag)

    def at(self, index: int) -> int:
        if not 0 <= index < len(self.temp):   # Java: ArrayIndexOutOfBoundsException
            raise UnsupportedJavaRegex("a pattern Java's parser fails on")
        return self.temp[index]

    # ---- cursor movement (accept, peek, read, next, skip, unread) ----
    def accept(self, ch: int, message: str) -> None:
        test = self.at(self.cursor)
        self.cursor += 1
        if self.has(_COMMENTS):
            test = self.parse_past_whitespace(test)
        if ch != test:
            raise JavaSyntaxError(message)

    def mark(self, c: int) -> None:
        self.temp[self.length] = c

    def peek(self) -> int:
        ch = self.at(self.cursor)
        return self.peek_past_whitespace(ch) if self.has(_COMMENTS) else ch

    def read(self) -> int:
        ch = self.at(self.cursor)
        self.cursor += 1
        return self.parse_past_whitespace(ch) if self.has(_COMMENTS) else ch

    def next(self) -> int:
        self.cursor += 1
        ch = self.at(self.cursor)
        return self.peek_past_whitespace(ch) if self.has(_COMMENTS) else ch

    def next_escaped(self) -> int:
        self.cursor += 1
        return self.at(self.cursor)

    def peek_past_whitespace(self, ch: int) -> int:
        while _is_space(ch) or ch == _c("#"):
            while _is_space(ch):
                self.cursor += 1
                ch = self.at(self.cursor)
            if ch == _c("#"):
                ch = self.peek_past_line()
        return ch

    def parse_past_whitespace(self, ch: int) -> int:
        while _is_space(ch) or ch == _c("#"):
            while _is_space(ch):
                ch = self.at(self.cursor)
                self.cursor += 1
            if ch == _c("#"):
                ch = self.parse_past_line()
        return ch

    def parse_past_line(self) -> int:
        ch = self.at(self.cursor)
        self.cursor += 1
        while ch != 0 and not self.is_line_separator(ch):
            ch = self.at(self.cursor)
            self.cursor += 1
        if ch == 0 and self.cursor > self.length:
            self.cursor = self.length
            ch = self.at(self.cursor)
            self.cursor += 1
        return ch

    def peek_past_line(self) -> int:
        self.cursor += 1
        ch = self.at(self.cursor)
        while ch != 0 and not self.is_line_separator(ch):
            self.cursor += 1
            ch = self.at(self.cursor)
        if ch == 0 and self.cursor > self.length:
            self.cursor = self.length
            ch = self.at(self.cursor)
        return ch

    def is_line_separator(self, ch: int) -> bool:
        if self.has(_UNIX_LINES):
            return ch == 10
        return ch in (10, 13, 0x85, 0x2028, 0x2029)

    def skip(self) -> int:
        ch = self.at(self.cursor + 1)
        self.cursor += 2
        return ch

    def unread(self) -> None:
        self.cursor -= 1

    # ---- the whole pattern ----
    def compile(self) -> _Node:
        if self.length == 0:
            return _Seq([])
        if 0 in self.temp[:self.length]:
            raise UnsupportedJavaRegex("a NUL character")
        self.remove_qe_quoting()
        node = self.expr()
        self.plain_groups = _plain_groups(node)
        if self.length != self.cursor:
            if self.peek() == _c(")"):
                raise JavaSyntaxError("Unmatched closing ')'")
            if self.cursor == self.length + 1 and self.at(self.length - 1) == _c("\\"):
                raise JavaSyntaxError("Unescaped trailing backslash")
            raise JavaSyntaxError("Unexpected internal error")
        return node

    def remove_qe_quoting(self) -> None:
        """Java removes `\\Q..\\E` before parsing: letters and non-ASCII stay, a digit first in a
        quote becomes `\\x3N`, every other character is escaped."""
        temp, length, i = self.temp, self.length, 0
        while i < length - 1:
            if temp[i] != _c("\\"):
                i += 1
            elif temp[i + 1] != _c("Q"):
                i += 2
            else:
                break
        if i >= length - 1:
            return
        new, i = temp[:i], i + 2
        in_quote = begin_quote = True
        while i < length:
            c = temp[i]
            i += 1
            if not _is_ascii(c) or _is_alpha(c):
                new.append(c)
            elif _is_digit(c):
                if begin_quote:
                    new += [_c("\\"), _c("x"), _c("3")]
                new.append(c)
            elif c != _c("\\"):
                if in_quote:
                    new.append(_c("\\"))
                new.append(c)
            elif in_quote:
                if temp[i] == _c("E"):
                    i += 1
                    in_quote = False
                else:
                    new += [_c("\\"), _c("\\")]
            elif temp[i] == _c("Q"):
                i += 1
                in_quote = begin_quote = True
                continue
            else:
                new.append(c)
                if i != length:
                    new.append(temp[i])
                    i += 1
            begin_quote = False
        self.length = len(new)
        self.temp = [*new, 0, 0]

    def expr(self) -> _Node:
        alternatives = []
        while True:
            alternatives.append(self.sequence())
            if self.peek() != _c("|"):
                return alternatives[0] if len(alternatives) == 1 else _Alt(alternatives)
            self.next()

    def sequence(self) -> _Node:
        nodes: list[_Node] = []
        while True:
            ch = self.peek()
            if ch == _c("("):
                group = self.group0()
                if group is not None:
                    nodes.append(group)
                continue
            if ch == _c("["):
                node: _Node = self.chars(self.clazz(True))
            elif ch == _c("\\"):
                ch = self.next_escaped()
                if ch in (_c("p"), _c("P")):
                    node = self.chars(self.property_escape(ch))
                else:
                    self.unread()
                    node = self.atom()
            elif ch == _c("^"):
                self.next()
                node = _Zero(_CARET if not self.has(_UNIX_LINES) else _UNIX_CARET) \
                    if self.has(_MULTILINE) else _Zero(_BEGIN)
            elif ch == _c("$"):
                self.next()
                node = self.dollar(self.has(_MULTILINE))
            elif ch == _c("."):
                self.next()
                node = _Chars(_Fixed(_ALL if self.has(_DOTALL)
                                     else _UNIX_DOT if self.has(_UNIX_LINES) else _DOT))
            elif ch in (_c("|"), _c(")")):
                break
            elif ch in (_c("?"), _c("*"), _c("+")):
                self.next()
                raise JavaSyntaxError(f"Dangling meta character '{chr(ch)}'")
            elif ch == 0 and self.cursor >= self.length:
                break
            else:   # also a dangling ] or }: a character
                node = self.atom()
            nodes.append(self.closure(node))
        return nodes[0] if len(nodes) == 1 else _Seq(nodes)

    def dollar(self, multiline: bool) -> _Node:
        if self.has(_UNIX_LINES):
            return _Zero(_UNIX_DOLLAR_MULTILINE if multiline else _UNIX_DOLLAR)
        return _Zero(_DOLLAR_MULTILINE if multiline else _DOLLAR)

    def property_escape(self, ch: int) -> _Pred:
        """`\\p{..}`, `\\pL`, `\\P..`: the cursor is on the p."""
        complement = ch == _c("P")
        if self.next() != _c("{"):
            self.unread()
            return self.family(True, complement)
        return self.family(False, complement)

    def atom(self) -> _Node:
        """A run of characters (Java's Slice), one character or an escape's node."""
        chars: list[int] = []
        prev = -1
        ch = self.peek()
        while True:
            if ch in (_c("*"), _c("+"), _c("?"), _c("{")):
                if len(chars) > 1:       # the quantifier takes the last character alone
                    self.cursor = prev
                    chars.pop()
                break
            if ch in (_c("$"), _c("."), _c("^"), _c("("), _c("["), _c("|"), _c(")")):
                break
            if ch == _c("\\"):
                ch = self.next_escaped()
                if ch in (_c("p"), _c("P")):
                    if chars:
                        self.unread()
                        break
                    return self.chars(self.property_escape(ch))
                self.unread()
                prev = self.cursor
                ch = self.escape(False, not chars, False)
                if ch >= 0:
                    chars.append(ch)
                    ch = self.peek()
                    continue
                if not chars:
                    assert self.root is not None
                    return self.root
                self.cursor = prev
                break
            if ch == 0 and self.cursor >= self.length:
                break
            prev = self.cursor
            chars.append(ch)
            ch = self.next()
        if len(chars) == 1:
            return self.chars(self.single(chars[0]))
        return _Seq([self.chars(self.single(c)) for c in chars])

    def chars(self, pred: _Pred) -> _Chars:
        return _Chars(pred)

    def ref(self, ref_num: int) -> _Node:
        """A backreference: more digits only while they name a group opened before."""
        while True:
            ch = self.peek()
            if not _is_digit(ch):
                break
            longer = ref_num * 10 + ch - _c("0")
            if self.group_count - 1 < longer:
                break
            ref_num = longer
            self.read()
        return self.backref(ref_num)

    def backref(self, number: int) -> _Node:
        ci = self.has(_CASE_INSENSITIVE)
        if ci and self.has(_UNICODE_CASE):
            self.unicode_case(None)
        return _BackRef(number, ci, number in self.closed, number < self.group_count, self)

    def unicode_case(self, ch: int | None) -> None:
        """(?iu) folds case by Unicode's tables: alike for ASCII texts and ASCII characters of
        the pattern only."""
        if ch is not None and not _is_ascii(ch):
            raise UnsupportedJavaRegex("a non-ASCII character under (?iu)")
        self.cased_text = "(?iu), which folds non-ASCII case by Java's tables"

    def word_bound(self, python: str) -> _Node:
        self.word_text = "\\b or \\B, which read non-ASCII letters by the JVM's version"
        return _Zero(python)

    def class_escape(self, ranges: Ranges, inclass: bool, create: bool) -> int:
        if create:
            self.predicate = _Fixed(ranges)
            if not inclass:
                self.root = _Chars(self.predicate)
        return -1

    def escape(self, inclass: bool, create: bool, isrange: bool) -> int:
        """The character an escape stands for, or -1 with its node in `root` (outside a class)
        and its set in `predicate` (\\d, \\s ...)."""
        ch = self.skip()
        c = chr(ch)
        if c == "0":
            return self.octal()
        if "1" <= c <= "9" and not inclass:
            if create:
                self.root = self.ref(ch - _c("0"))
            return -1
        if c in "ABGRXZbkz" and inclass:
            raise JavaSyntaxError("Illegal/unsupported escape sequence")
        zero = {"A": _BEGIN, "G": _BEGIN, "z": _END}
        if c in zero:
            if create:
                self.root = _Zero(zero[c])
            return -1
        classes = {"d": _DIGITS, "D": _complement(_DIGITS), "s": _SPACE,
                   "S": _complement(_SPACE), "w": _WORD, "W": _complement(_WORD),
                   "h": _HORIZONTAL, "H": _complement(_HORIZONTAL),
                   "V": _complement(_VERTICAL)}
        if c in classes:
            return self.class_escape(classes[c], inclass, create)
        if c == "v":
            return 0x0B if isrange else self.class_escape(_VERTICAL, inclass, create)
        chars = {"a": 7, "e": 0x1B, "f": 0x0C, "n": 10, "r": 13, "t": 9}
        if c in chars:
            return chars[c]
        if c == "B":
            if create:
                self.root = self.word_bound(_NOT_BOUND)
            return -1
        if c == "R":
            if create:
                self.root = _LineEnding()
            return -1
        if c == "X":
            if create:
                raise UnsupportedJavaRegex("\\X (grapheme clusters)")
            return -1
        if c == "Z":
            if create:
                self.root = self.dollar(False)
            return -1
        if c == "b":
            if create:
                if self.peek() == _c("{"):
                    if self.skip() == _c("g"):
                        if self.read() == _c("}"):
                            raise UnsupportedJavaRegex("\\b{g} (grapheme cluster boundaries)")
                        raise JavaSyntaxError("Illegal/unsupported escape sequence")
                    self.unread()
                    self.unread()
                self.root = self.word_bound(_BOUND)
            return -1
        if c == "c":
            if self.cursor < self.length:
                return self.read() ^ 64
            raise JavaSyntaxError("Illegal control escape sequence")
        if c == "k":
            if self.read() != _c("<"):
                raise JavaSyntaxError("\\k is not followed by '<' for named capturing group")
            name = self.groupname(self.read())
            if name not in self.named:
                raise JavaSyntaxError(f"named capturing group <{name}> does not exist")
            if create:
                self.root = self.backref(self.named[name])
            return -1
        if c == "N":
            raise UnsupportedJavaRegex("\\N{..} (Unicode character names)")
        if c == "u":
            return self.unicode_escape()
        if c == "x":
            return self.hex_escape()
        if (c.isascii() and c.isalpha()) or "1" <= c <= "9":
            raise JavaSyntaxError("Illegal/unsupported escape sequence")
        return ch

    def octal(self) -> int:
        n = self.read()
        if 48 <= n <= 55:
            m = self.read()
            if 48 <= m <= 55:
                o = self.read()
                if 48 <= o <= 55 and 48 <= n <= 51:
                    return (n - 48) * 64 + (m - 48) * 8 + (o - 48)
                self.unread()
                return (n - 48) * 8 + (m - 48)
            self.unread()
            return n - 48
        raise JavaSyntaxError("Illegal octal escape sequence")

    def hex_escape(self) -> int:
        n = self.read()
        if _is_hex(n):
            m = self.read()
            if _is_hex(m):
                return int(chr(n) + chr(m), 16)
        elif n == _c("{") and _is_hex(self.peek()):
            value = 0
            while True:
                n = self.read()
                if not _is_hex(n):
                    break
                value = value * 16 + int(chr(n), 16)
                if value > _MAX_CODE_POINT:
                    raise JavaSyntaxError("Hexadecimal codepoint is too big")
            if n != _c("}"):
                raise JavaSyntaxError("Unclosed hexadecimal escape sequence")
            return value
        raise JavaSyntaxError("Illegal hexadecimal escape sequence")

    def uxxxx(self) -> int:
        value = 0
        for _ in range(4):
            ch = self.read()
            if not _is_hex(ch):
                raise JavaSyntaxError("Illegal Unicode escape sequence")
            value = value * 16 + int(chr(ch), 16)
        return value

    def unicode_escape(self) -> int:
        n = self.uxxxx()
        if 0xD800 <= n <= 0xDBFF:
            cur = self.cursor
            if self.read() == _c("\\") and self.read() == _c("u"):
                n2 = self.uxxxx()
                if 0xDC00 <= n2 <= 0xDFFF:
                    return 0x10000 + ((n - 0xD800) << 10) + (n2 - 0xDC00)
            self.cursor = cur
        return n

    # ---- classes ----
    def clazz(self, consume: bool) -> _Pred:
        """`[..]`: unions of nested classes, `&&` intersections, ranges and characters, as
        Java's clazz() combines them."""
        prev: _Pred | None = None
        curr: _Pred | None = None
        bits = _Bits()
        is_neg = has_bits = False
        ch = self.next()
        if ch == _c("^") and self.at(self.cursor - 1) == _c("["):
            ch = self.next()
            is_neg = True
        while True:
            if ch == _c("["):
                curr = self.clazz(True)
                prev = curr if prev is None else _union_of(prev, curr)
                ch = self.peek()
                continue
            if ch == _c("&"):
                ch = self.next()
                if ch == _c("&"):
                    ch = self.next()
                    right: _Pred | None = None
                    while ch not in (_c("]"), _c("&")):
                        if ch == _c("["):
                            part = self.clazz(True)
                        else:
                            self.unread()
                            part = self.clazz(False)
                        right = part if right is None else _union_of(right, part)
                        ch = self.peek()
                    if has_bits:
                        if prev is None:
                            prev = curr = bits
                        else:
                            prev = _union_of(prev, bits)
                        has_bits = False
                    if right is not None:
                        curr = right
                    if prev is None:
                        if right is None:
                            raise JavaSyntaxError("Bad class syntax")
                        prev = right
                    else:
                        if curr is None:
                            raise JavaSyntaxError("Bad intersection syntax")
                        prev = _And(prev, curr)
                    continue
                self.unread()   # a single & is a character
            elif ch == 0 and self.cursor >= self.length:
                raise JavaSyntaxError("Unclosed character class")
            elif ch == _c("]") and (prev is not None or has_bits):
                if consume:
                    self.next()
                if prev is None:
                    prev = bits
                elif has_bits:
                    prev = _union_of(prev, bits)
                return _Not(prev) if is_neg else prev
            curr = self.range(bits)
            if curr is None:
                has_bits = True
            elif prev is None:
                prev = curr
            elif prev is not curr:
                prev = _union_of(prev, curr)
            ch = self.peek()

    def range(self, bits: _Bits) -> _Pred | None:
        ch = self.peek()
        if ch == _c("\\"):
            ch = self.next_escaped()
            if ch in (_c("p"), _c("P")):
                return self.property_escape(ch)
            isrange = self.at(self.cursor + 1) == _c("-")
            self.unread()
            ch = self.escape(True, True, isrange)
            if ch == -1:
                return self.predicate
        else:
            self.next()
        if self.peek() == _c("-"):
            end_range = self.at(self.cursor + 1)
            if end_range == _c("["):
                return self.bits_or_single(bits, ch)
            if end_range != _c("]"):
                self.next()
                m = self.peek()
                if m == _c("\\"):
                    m = self.escape(True, False, True)
                else:
                    self.next()
                if m < ch:
                    raise JavaSyntaxError("Illegal character range")
                return _Fixed(self.char_range(ch, m))
        return self.bits_or_single(bits, ch)

    def char_range(self, low: int, high: int) -> Ranges:
        """Range, or CIRange under (?i): ASCII characters whose other case is in range too;
        CIRangeU (?iu) is the same on ASCII texts."""
        ranges = ((low, high),)
        if self.has(_CASE_INSENSITIVE):
            if self.has(_UNICODE_CASE):
                self.unicode_case(None)
            folded = {c for c in range(128)
                      if low <= _to_upper(c) <= high or low <= _to_lower(c) <= high}
            ranges = _union(ranges, _ranges(folded))
        return ranges

    def bits_or_single(self, bits: _Bits, ch: int) -> _Pred | None:
        folds = (0xFF, 0xB5, 0x49, 0x69, 0x53, 0x73, 0x4B, 0x6B, 0xC5, 0xE5)
        unicode_case = self.has(_CASE_INSENSITIVE) and self.has(_UNICODE_CASE)
        if ch < 256 and not (unicode_case and ch in folds):
            if self.has(_CASE_INSENSITIVE):
                if _is_ascii(ch):
                    bits.chars |= {_to_upper(ch), _to_lower(ch)}
                elif self.has(_UNICODE_CASE):
                    self.unicode_case(ch)
            bits.chars.add(ch)
            return None
        return self.single(ch)

    def single(self, ch: int) -> _Pred:
        """One character: both ASCII cases under (?i) (Java folds ASCII only)."""
        if self.has(_CASE_INSENSITIVE):
            if self.has(_UNICODE_CASE):
                self.unicode_case(ch)
            if _is_ascii(ch) and _to_lower(ch) != _to_upper(ch):
                return _Fixed(_ranges({_to_lower(ch), _to_upper(ch)}))
        return _Fixed(((ch, ch),))

    def family(self, single_letter: bool, complement: bool) -> _Pred:
        """A property's set: Java's family() and CharPredicates.forProperty."""
        self.next()
        if single_letter:
            name = chr(self.at(self.cursor))
            self.read()
        else:
            i = self.cursor
            self.mark(_c("}"))
            while self.read() != _c("}"):
                pass
            self.mark(0)
            j = self.cursor
            if j > self.length:
                raise JavaSyntaxError("Unclosed character family")
            if i + 1 >= j:
                raise JavaSyntaxError("Empty character family")
            name = "".join(chr(c) for c in self.temp[i:j - 1])
        ranges = self.property_ranges(name)
        return _Fixed(_complement(ranges) if complement else ranges)

    def property_ranges(self, name: str) -> Ranges:
        if "=" in name:
            key, value = name.split("=", 1)
            key = key.lower()
            if key in ("sc", "script", "blk", "block"):
                raise UnsupportedJavaRegex(f"\\p{{{name}}} (Unicode scripts and blocks)")
            ranges = self.for_property(value) if key in ("gc", "general_category") else None
            if ranges is None:
                raise JavaSyntaxError(f"Unknown Unicode property {{name=<{key}>, "
                                      f"value=<{value}>}}")
            return ranges
        if name.startswith("In"):
            raise UnsupportedJavaRegex(f"\\p{{{name}}} (Unicode blocks)")
        if name.startswith("Is"):
            short = name[2:]
            if short.upper() in _UNICODE_PROPERTIES:
                raise UnsupportedJavaRegex(f"\\p{{{name}}} (Unicode properties)")
            ranges = self.for_property(short)
            if ranges is None:
                raise UnsupportedJavaRegex(f"\\p{{{name}}} (Unicode scripts)")
            return ranges
        ranges = self.for_property(name)
        if ranges is None:
            raise JavaSyntaxError(f"Unknown character property name {{{name}}}")
        return ranges

    def for_property(self, name: str) -> Ranges | None:
        case_insensitive = self.has(_CASE_INSENSITIVE)
        if name in ("Lower", "Upper") and case_insensitive:
            return _POSIX["Alpha"]
        if name in _POSIX:
            return _POSIX[name]
        if name in _CATEGORIES:
            self.ascii_text = f"\\p{{{name}}}, a Unicode category written for ASCII"
            cased = name in ("Lu", "Ll", "Lt") and case_insensitive
            return _category(("Lu", "Ll", "Lt") if cased else _CATEGORIES[name])
        if name in _JAVA_METHOD_PROPERTIES:
            raise UnsupportedJavaRegex(f"\\p{{{name}}} (java.lang.Character's tables)")
        return None

    # ---- groups and quantifiers ----
    def groupname(self, ch: int) -> str:
        if not _is_alpha(ch):
            raise JavaSyntaxError("capturing group name does not start with a Latin letter")
        name = []
        while True:
            name.append(chr(ch))
            ch = self.read()
            if not _is_alnum(ch):
                break
        if ch != _c(">"):
            raise JavaSyntaxError("named capturing group is missing trailing '>'")
        return "".join(name)

    def new_group(self, name: str | None = None) -> int:
        number = self.group_count
        self.group_count += 1
        if name is not None:
            self.named[name] = number
        return number

    def group0(self) -> _Node | None:
        """A group and its quantifier; None for a flags-only group `(?i)`."""
        save = self.flags0
        number: int | None = None
        ch = self.next()
        if ch == _c("?"):
            ch = self.skip()
            if ch == _c(":"):
                head: _Node = _Group(self.expr())
            elif ch in (_c("="), _c("!"), _c(">")):
                head = _Look(chr(ch), self.expr())
            elif ch == _c("<"):
                ch = self.read()
                if ch not in (_c("="), _c("!")):
                    name = self.groupname(ch)
                    if name in self.named:
                        raise JavaSyntaxError(f"Named capturing group <{name}> is already "
                                              "defined")
                    number = self.new_group(name)
                    head = _Group(self.expr(), number, name)
                else:
                    head = self.lookbehind(chr(ch))
            elif ch in (_c("$"), _c("@")):
                raise JavaSyntaxError("Unknown group type")
            else:
                self.unread()
                self.add_flag()
                ch = self.read()
                if ch == _c(")"):
                    return None
                if ch != _c(":"):
                    raise JavaSyntaxError("Unknown inline modifier")
                head = _Group(self.expr())
        else:
            number = self.new_group()
            head = _Group(self.expr(), number)
        self.accept(_c(")"), "Unclosed group")
        self.flags0 = save
        if number is not None:
            self.closed.add(number)
        return self.group_closure(head)

    def lookbehind(self, kind: str) -> _Node:
        body = self.expr()
        info = _studied(body)
        if not info.max_valid:
            raise JavaSyntaxError("Look-behind group does not have an obvious maximum length")
        if max(info.min, info.max) > _MAX_REPS:   # Java's int arithmetic wrapped
            raise UnsupportedJavaRegex("a lookbehind whose length bounds overflow in Java")
        self.bmp_text = "a lookbehind (Java steps back by UTF-16 units)"
        return _LookBehind(kind, body, info.min, info.max)

    def group_closure(self, head: _Node) -> _Node:
        """The group quantified as Java's group0() builds it."""
        quantifier = self.quantifier()
        if quantifier is None:
            return head
        cmin, cmax, qtype, java = quantifier
        if isinstance(head, (_Look, _LookBehind)):   # a zero-width assertion: as Ques, Curly
            return _Repeat(head, cmin, cmax, qtype, "ques" if java == "ques" else "curly")
        if java == "ques":
            return _Repeat(head, cmin, cmax, qtype, "ques" if qtype == "+" else "branch")
        if qtype == "+":
            return _Repeat(head, cmin, cmax, qtype, "curly")
        if _studied(head).deterministic:
            return _Repeat(head, cmin, cmax, qtype, "group_curly")
        width = head.width()
        if cmin >= 2 and (width is None or width[0] == 0):
            raise UnsupportedJavaRegex("a group that may match nothing, repeated at least "
                                       "twice (Java's loop ends at an empty iteration)")
        return _Repeat(head, cmin, cmax, qtype, "loop")

    def closure(self, node: _Node) -> _Node:
        """The node quantified as Java's closure() builds it."""
        quantifier = self.quantifier()
        if quantifier is None:
            return node
        cmin, cmax, qtype, java = quantifier
        if java == "greedy_fn" and qtype == "" and isinstance(node, _Chars):
            java = "char_greedy"
        return _Repeat(node, cmin, cmax, qtype, "curly" if java == "greedy_fn" else java)

    def quantifier(self) -> tuple[int, int, str, str] | None:
        """The quantifier that follows: (cmin, cmax, qtype, Java's node) where the node is
        `ques` (Ques), `curly` (new Curly) or `greedy_fn` (Java's curly(): `*`, `+`, `{n,}`,
        CharPropertyGreedy when greedy on one character)."""
        ch = self.peek()
        if ch == _c("?"):
            return 0, 1, self.qtype(), "ques"
        if ch in (_c("*"), _c("+")):
            return (0 if ch == _c("*") else 1), _MAX_REPS, self.qtype(), "greedy_fn"
        if ch != _c("{"):
            return None
        ch = self.skip()
        if not _is_digit(ch):
            raise JavaSyntaxError("Illegal repetition")
        cmin = 0
        while True:
            cmin = cmin * 10 + ch - _c("0")
            if cmin > _MAX_REPS:
                raise JavaSyntaxError("Illegal repetition range")
            ch = self.read()
            if not _is_digit(ch):
                break
        if ch == _c(","):
            ch = self.read()
            if ch == _c("}"):
                self.unread()
                return cmin, _MAX_REPS, self.qtype(), "greedy_fn"
            cmax = 0
            while _is_digit(ch):
                cmax = cmax * 10 + ch - _c("0")
                if cmax > _MAX_REPS:
                    raise JavaSyntaxError("Illegal repetition range")
                ch = self.read()
        else:
            cmax = cmin
        if ch != _c("}"):
            raise JavaSyntaxError("Unclosed counted closure")
        if cmax < cmin:
            raise JavaSyntaxError("Illegal repetition range")
        self.unread()
        return cmin, cmax, self.qtype(), "ques" if (cmin, cmax) == (0, 1) else "curly"

    def qtype(self) -> str:
        ch = self.next()
        if ch == _c("?"):
            self.next()
            return "?"
        if ch == _c("+"):
            self.next()
            return "+"
        return ""

    def add_flag(self) -> None:
        flags = {"i": _CASE_INSENSITIVE, "m": _MULTILINE, "s": _DOTALL, "d": _UNIX_LINES,
                 "u": _UNICODE_CASE, "x": _COMMENTS}
        ch = self.peek()
        while True:
            c = chr(ch)
            if c in flags:
                self.flags0 |= flags[c]
            elif c == "c":
                raise UnsupportedJavaRegex("(?c) (canonical equivalence)")
            elif c == "U":
                raise UnsupportedJavaRegex("(?U) (Unicode character classes)")
            elif c == "-":
                self.next()
                self.sub_flag()
                return
            else:
                return
            ch = self.next()

    def sub_flag(self) -> None:
        flags = {"i": _CASE_INSENSITIVE, "m": _MULTILINE, "s": _DOTALL, "d": _UNIX_LINES,
                 "u": _UNICODE_CASE, "x": _COMMENTS, "c": 0, "U": _UNICODE_CASE}
        ch = self.peek()
        while chr(ch) in flags:
            self.flags0 &= ~flags[chr(ch)]
            ch = self.next()


@functools.lru_cache(maxsize=512)
def java_regex(pattern: str) -> JavaRegex:
    """`pattern` as Java reads it, written for Python's re; raises `JavaSyntaxError` where
    Java rejects it and `UnsupportedJavaRegex` where it cannot be written exactly."""
    parser = _Parser(pattern)
    try:
        python = parser.compile().emit()
    except RecursionError:
        raise UnsupportedJavaRegex("a pattern nested too deeply") from None
    try:
        re.compile(python, re.ASCII)
    except (re.error, OverflowError, RecursionError) as e:
        raise UnsupportedJavaRegex(f"a construct Python's re cannot write ({e})") from None
    return JavaRegex(python, parser.ascii_text, parser.word_text, parser.cased_text,
                     parser.bmp_text)
