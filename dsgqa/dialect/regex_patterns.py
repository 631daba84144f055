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
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.emit import unquote_string
from dsgqa.dialect.errors import DialectError

# Constructs whose meaning differs, as found in a pattern's text.
_JAVA_ONLY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("a named group", re.compile(r"\(\?<[A-Za-z]|\\k<")),
    ("a character class name", re.compile(r"\\[pP]\{")),
    ("a class intersection", re.compile(r"&&")),
    ("a nested or POSIX class", re.compile(r"\[[^\]]*\[")),
    ("an escape Python reads otherwise", re.compile(r"(?<!\\)(?:\\\\)*\\[ZhHRGXvV0]")),
)


def java_only(pattern: str) -> str | None:
    """The first construct of `pattern` the engines read otherwise than Java, or None."""
    for what, finder in _JAVA_ONLY:
        if finder.search(pattern):
            return what
    try:
        re.compile(pattern)
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


def neo4j_regex_match(text: str, pattern: str) -> bool:
    """`text =~ pattern`: the whole string matches (Java's `Matcher.matches`)."""
    try:
        return re.fullmatch(pattern, text) is not None
    except re.error as exc:   # computed: Java may read it or raise, which is not known here
        raise ValueError(f"a regular expression Python cannot read ({exc})") from None
