"""One-line messages for text a grammar rejects, in one location format for every grammar.

SLDP answers, PDDL goals and PDDL domain/problem files are parsed with lark, and people read
the errors (about an LLM's answer, a hand-written domain). One format for where the text broke,
``[source: ]line L, column C: what``, reads the same whichever grammar produced it. It lives in
planeval because the QA track (dsgqa) may import planeval but planeval must not import dsgqa.
"""

from __future__ import annotations

from collections.abc import Mapping

from lark import Lark, UnexpectedCharacters, UnexpectedInput

_END_TOKENS = ("$END", "<EOF>")


def located(
    message: str, line: int | None = None, column: int | None = None, source: str | None = None
) -> str:
    """``source: line L, column C: message``; parts that are unknown (None, or lark's -1) are
    left out, so ``<domain>: message`` and ``line 2: message`` are the same format."""
    where = [source] if source else []
    if line is not None and line > 0:
        where.append(f"line {line}, column {column}" if column and column > 0 else f"line {line}")
    return ": ".join([*where, message])


def describe_parse_error(
    exc: UnexpectedInput,
    parser: Lark,
    friendly: Mapping[str, str],
    source: str | None = None,
    quotes: str = "",
) -> str:
    """One line: where the input broke and what would have been accepted there.

    ``friendly`` names regex terminals (and ``$END``, the end of the input) for people; string
    terminals show as written. A character from ``quotes`` that cannot start a token means a
    quoted string was never closed (the grammar's string terminal failed to match)."""
    return located(_what(exc, parser, friendly, quotes), exc.line, exc.column, source)


def _what(exc: UnexpectedInput, parser: Lark, friendly: Mapping[str, str], quotes: str) -> str:
    if isinstance(exc, UnexpectedCharacters):
        if exc.char in quotes:
            return "unterminated quoted string"
        return f"unexpected character {exc.char!r}"
    token = getattr(exc, "token", None)
    if token is None or token.type in _END_TOKENS:
        found = friendly.get("$END", "end of input")
    else:
        found = repr(str(token)[:30])
    # ``accepts`` is exact for the parser state; ``expected`` may include default reductions.
    expected = (
        getattr(exc, "accepts", None)
        or getattr(exc, "expected", None)
        or getattr(exc, "allowed", None)
        or ()
    )
    names = sorted({_terminal_name(t, friendly, parser) for t in expected})
    wanted = f"; expected {' or '.join(names)}" if names else ""
    return f"unexpected {found}{wanted}"


def _terminal_name(name: str, friendly: Mapping[str, str], parser: Lark) -> str:
    if name in friendly:
        return friendly[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        return name
    return repr(pattern.value) if pattern.type == "str" else name
