"""`=~` matched as Neo4j matches it: Java's `java.util.regex`, the whole string.

Kuzu and Ladybug match with RE2, which has no lookaround, backreferences, possessive
quantifiers or atomic groups and answers an invalid pattern with false where Neo4j raises; each
of these answered false, or true, with no error (`o.class =~ '^(?!sign).*$'` matched nothing).
So every `=~` goes through Python's `re` (`neo4j_regex_match`, a UDF), a backtracking engine
that reads all of those as Java does. What Python reads otherwise than Java is refused
(`dialect`) where a string literal of the pattern shows it: `\\p{..}` class names, `&&` class
intersection, a nested or POSIX class (`[[:alpha:]]` is a set of the characters `:alph` in
Java), the escapes `\\Z`, `\\h`, `\\R`, `\\G`, `\\X`, `\\v`, `\\0` and their capitals, named
groups (`(?<n>..)`, `\\k<n>`), and a pattern Python cannot compile (Java may read `\\Q..\\E`
or `\\e`, or raise). A computed pattern Python cannot compile is refused when it runs.

A pattern Java rejects and Python reads is refused too (`java_syntax_error`): a `{` that starts
no counted repetition (`'{' =~ '{'` is true in Python and "Invalid Regex" in Neo4j), `\\b`
or a digit escape in a class, `\\U`, a conditional group `(?(1)..)`. Neo4j raises only where
it evaluates the match, and the engines may evaluate it on rows Neo4j never reaches (the other
side of a false AND), so the model is not charged with it either.
"""

from __future__ import annotations

import functools
import re

from lark import Tree

from dsgqa.dialect.emit import unquote_string
from dsgqa.dialect.errors import DialectError

# Constructs whose meaning differs, as found in a pattern's text.
_JAVA_ONLY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a named group", re.compile(r"\(\?P?<[A-Za-z]|\\k<|\(\?P[=>]")),
    ("a comment group", re.compile(r"\(\?#")),
    ("a character class name", re.compile(r"\\[pP]\{")),
    ("a class intersection", re.compile(r"&&")),
    ("a nested or POSIX class", re.compile(r"\[[^\]]*\[")),
    ("an escape Python reads otherwise", re.compile(r"(?<!\\)(?:\\\\)*\\[ZhHRGXvV0]")),
    # Java reads `\1` and as many more digits as make a group it has seen; Python a group
    # of up to two digits, or an octal escape (`\141` is 'a' in Python, group 1 then '41' in
    # Java).
    ("a backreference followed by a digit", re.compile(r"(?<!\\)(?:\\\\)*\\[1-9][0-9]")),
)
# Inline flags: Java's i, m and s read alike in Python (with ASCII); x skips whitespace inside
# classes only in Java, u and U switch Unicode on, d changes the line terminators, and Python's
# a and L are errors in Java.
_INLINE_FLAGS = re.compile(r"\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?[:)]")
# Line terminators Java reads in `.`, `^` and `$` and Python does not (Python: `\n` alone).
_OTHER_LINE_ENDS = re.compile("[\r\u0085\u2028\u2029]")
_READS_LINE_ENDS = re.compile(r"[.^$]")


# Java's counted repetition: every `{` outside a class and not escaped starts one.
_COUNTED = re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}")
_JAVA_INT_MAX = 2 ** 31 - 1


def java_syntax_error(pattern: str) -> str | None:
    """Java's `PatternSyntaxException` for `pattern` where Python's re compiles it, or None.
    A scan as `java.util.regex.Pattern` reads escapes, classes and counted repetitions."""
    i, in_class, class_start = 0, False, -1
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            escaped = pattern[i + 1:i + 2]
            if escaped == "U" or (in_class and (escaped == "b" or escaped in "123456789")):
                return "Illegal/unsupported escape sequence"
            i += 2
            if escaped in ("p", "P", "x", "N") and pattern[i:i + 1] == "{":  # `\p{L}`, `\x{61}`
                i = pattern.find("}", i) + 1 or len(pattern)
            continue
        if in_class:
            # A `]` first in the class (after `[` or `[^`) is a character, as in Python.
            if ch == "]" and i > class_start:
                in_class = False
        elif ch == "[":
            in_class = True
            class_start = i + 1 + (pattern[i + 1:i + 2] == "^")
        elif ch == "{":
            counted = _COUNTED.match(pattern, i)
            if counted is None:
                return "Illegal repetition" if not pattern[i + 1:i + 2].isdigit() \
                    else "Unclosed counted closure"
            low = int(counted.group(1))
            high = low if counted.group(2) is None else \
                int(counted.group(3)) if counted.group(3) else None
            if low > _JAVA_INT_MAX or (high is not None and (high > _JAVA_INT_MAX or high < low)):
                return "Illegal repetition range"
            i = counted.end()
            continue
        elif pattern.startswith("(?(", i):
            return "Unknown inline modifier"
        i += 1
    return None


def java_only(pattern: str) -> str | None:
    """The first construct of `pattern` Python's re (ASCII) reads otherwise than Java, or
    None."""
    rejected = java_syntax_error(pattern)
    if rejected is not None:
        return f"a pattern Java rejects ({rejected}; Neo4j raises where it evaluates it)"
    for what, finder in _JAVA_ONLY:
        if finder.search(pattern):
            return what
    for flags in _INLINE_FLAGS.finditer(pattern):
        if not set((flags.group(1) or "") + (flags.group(2) or "")) <= set("ims"):
            return "an inline flag other than i, m or s"
    try:
        re.compile(pattern, re.ASCII)
    except re.error:   # Java may read it (`\\Q..\\E`, `\\e`) or raise: unknown
        return "a pattern Python cannot read"
    return None


def refuse_java_only_patterns(regex: Tree) -> None:
    """Refuse `s =~ pattern` when a string literal of the pattern uses such a construct."""
    for sub in regex.children[1].iter_subtrees_topdown() \
            if isinstance(regex.children[1], Tree) else ():
        if sub.data == "str_lit":
            what = java_only(unquote_string(str(sub.children[0])))
            if what is not None:
                raise DialectError(f"a regular expression with {what} (Python's re reads it "
                                   "otherwise than Neo4j's Java regex)")


@functools.lru_cache(maxsize=256)
def _as_java(pattern: str) -> tuple[re.Pattern[str], bool]:
    """The pattern compiled to read as Java's: ASCII classes and case folding (Java's default),
    and whether it reads line ends (`.`, `^`, `$`); a computed pattern is checked here, where
    its text is known. Once per pattern, not per row."""
    what = java_only(pattern)
    if what is not None:
        raise ValueError(f"a regular expression with {what} (Python's re reads it otherwise "
                         "than Neo4j's Java regex)")
    return re.compile(pattern, re.ASCII), _READS_LINE_ENDS.search(pattern) is not None


def neo4j_regex_match(text: str, pattern: str) -> bool:
    """`text =~ pattern`: the whole string matches (Java's `Matcher.matches`). A text holding
    a line terminator other than `\\n` is refused where the pattern has `.`, `^` or `$`."""
    compiled, reads_line_ends = _as_java(pattern)
    if reads_line_ends and _OTHER_LINE_ENDS.search(text):
        raise ValueError("a regular expression's . ^ or $ over a text with a line terminator "
                         "other than \\n (Java reads \\r, \\u0085, \\u2028 and \\u2029 as line "
                         "ends, Python does not)")
    return compiled.fullmatch(text) is not None
