"""`=~` patterns the engines read differently from Neo4j.

Neo4j matches `=~` with Java's `java.util.regex` (the whole string must match); Kuzu and
Ladybug use RE2, which has no lookaround, backreferences, possessive quantifiers or atomic
groups, reads `[[:alpha:]]` as a POSIX class (Java: a set of the characters `:alph`), lacks
Java's `\\p{Upper}` names, `&&` class intersection, `\\Z`, `\\h`, `\\R`, `\\G` and `\\X`, and
answers an invalid pattern with false where Neo4j raises. Each of these answered false, or
true, with no error (`o.class =~ '^(?!sign).*$'` matched nothing). A string literal in a
pattern that uses any of them is refused (`dialect`); a pattern Python cannot compile either
(a stray `[`) is refused too, rather than answered false. Everything else (classes, `\\d`,
`\\w`, `\\s`, quantifiers, alternation, `(?i)`) both libraries read alike.
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.emit import unquote_string
from dsgqa.dialect.errors import DialectError

# Constructs whose meaning differs, as found in a pattern's text.
_JAVA_ONLY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("lookaround", re.compile(r"\(\?<?[=!]")),
    ("an atomic group", re.compile(r"\(\?>")),
    ("a backreference", re.compile(r"(?<!\\)(?:\\\\)*\\(?:[1-9]|k<)")),
    ("a possessive quantifier", re.compile(r"(?:[*+?]|\})\+")),
    ("a Java character class name", re.compile(r"\\[pP]\{(?:Lower|Upper|ASCII|Alpha|Digit|"
                                               r"Alnum|Punct|Graph|Print|Blank|Cntrl|XDigit|"
                                               r"Space|java|Is|In)")),
    ("a class intersection", re.compile(r"&&")),
    ("a nested or POSIX class", re.compile(r"\[[^\]]*\[")),
    ("an escape RE2 lacks", re.compile(r"(?<!\\)(?:\\\\)*\\[ZhHRGXvV]")),
)


def java_only(pattern: str) -> str | None:
    """The first construct of `pattern` the engines read otherwise than Java, or None."""
    for what, finder in _JAVA_ONLY:
        if finder.search(pattern):
            return what
    try:
        re.compile(pattern)
    except re.error:
        return "a pattern that does not compile"
    return None


def refuse_java_only_patterns(regex: Tree) -> None:
    """Refuse `s =~ pattern` when a string literal of the pattern uses such a construct."""
    for sub in regex.children[1].iter_subtrees_topdown() \
            if isinstance(regex.children[1], Tree) else ():
        if sub.data == "str_lit":
            what = java_only(unquote_string(str(sub.children[0])))
            if what is not None:
                raise DialectError(f"a regular expression with {what} (the engines' RE2 reads "
                                   "it otherwise than Neo4j's Java regex)")
