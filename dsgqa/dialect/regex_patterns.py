"""`=~` matched as Neo4j matches it: Java's `java.util.regex`, the whole string.

Kuzu and Ladybug match with RE2, which has no lookaround, backreferences, possessive
quantifiers or atomic groups and answers an invalid pattern with false where Neo4j raises; each
of these answered false, or true, with no error (`o.class =~ '^(?!sign).*$'` matched nothing).
So every `=~` goes through Python's `re` (`neo4j_regex_match`, a UDF), a backtracking engine
like Java's. Python's re reads many patterns otherwise than Java (`(?m)^.*$` matches '' in
Python, never in Java), so the pattern is not given to it as written: `java_regex` parses it as
Pattern.java does and writes each node out for Python explicitly (`dsgqa/dialect/java_regex.py`
lists what that covers).

A pattern Java rejects (`java_syntax_error`: `'{' =~ '{'`, `'[\\\\][^^]'`) and one that cannot
be written exactly (`\\p{IsLatin}`, `\\X`, a lookbehind Python cannot write) are refused
(`dialect`): where a string literal is the pattern, when the query is translated; a computed
pattern, when it runs. Neo4j raises on a rejected pattern only where it evaluates the match,
and the engines may evaluate it on rows Neo4j never reaches (the other side of a false AND), so
the model is not charged with it. A few patterns are exact on some texts only (`\\b` reads
non-ASCII letters by the JVM's version; `\\p{L}` is written for ASCII): such a text is refused
when the match meets it.
"""

from __future__ import annotations

import functools
import re

from lark import Tree

from dsgqa.dialect.emit import unquote_string
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.java_regex import (
    JavaRegex,
    JavaSyntaxError,
    UnsupportedJavaRegex,
    java_regex,
)


def java_syntax_error(pattern: str) -> str | None:
    """Java's `PatternSyntaxException` description for `pattern`, or None where Java compiles
    it (or where a construct before the error cannot be written for Python: refused anyway)."""
    try:
        java_regex(pattern)
    except JavaSyntaxError as e:
        return str(e)
    except UnsupportedJavaRegex:
        return None
    return None


def java_only(pattern: str) -> str | None:
    """Why `pattern` cannot be matched by Python's re as Java matches it, or None."""
    try:
        java_regex(pattern)
    except JavaSyntaxError as e:
        return f"a pattern Java rejects ({e}; Neo4j raises where it evaluates it)"
    except UnsupportedJavaRegex as e:
        return str(e)
    return None


def refuse_java_only_patterns(regex: Tree) -> None:
    """Refuse `s =~ 'pattern'` when the pattern (a string literal) is one `java_only` names. A
    computed pattern is checked when it runs: a literal inside it is only a part of it."""
    pattern = regex.children[1]
    while isinstance(pattern, Tree) and pattern.data == "paren":
        pattern = pattern.children[0]
    if isinstance(pattern, Tree) and pattern.data == "str_lit":
        what = java_only(unquote_string(str(pattern.children[0])))
        if what is not None:
            raise DialectError(f"a regular expression with {what} (Python's re cannot match "
                               "it as Neo4j's Java regex does)")


@functools.lru_cache(maxsize=512)
def _as_java(pattern: str) -> tuple[re.Pattern[str], JavaRegex] | str:
    """The pattern as Java reads it, compiled, or why it is refused: once per pattern, not per
    row."""
    what = java_only(pattern)
    if what is not None:
        return f"a regular expression with {what} (Python's re cannot match it as Neo4j's " \
               "Java regex does)"
    written = java_regex(pattern)
    return re.compile(written.python, re.ASCII), written


def neo4j_regex_match(text: str, pattern: str) -> bool:
    """`text =~ pattern`: the whole string matches (Java's `Matcher.matches`). Refused on a
    text the written pattern is not exact for."""
    as_java = _as_java(pattern)
    if isinstance(as_java, str):
        raise ValueError(as_java)
    compiled, written = as_java
    refusal = written.text_refusal(text)
    if refusal is not None:
        raise ValueError(f"a regular expression with {refusal}, over a text with such "
                         "characters (Python's re cannot match it as Neo4j's Java regex "
                         "does)")
    try:
        return compiled.fullmatch(text) is not None
    except (SystemError, RecursionError) as e:   # a defect of Python's re itself
        raise ValueError(f"a regular expression Python's re fails on ({e})") from None
