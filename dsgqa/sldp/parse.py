"""SLDP text -> values: the LALR parser on ``dsgqa/sldp.lark``, a regex fast path for lone
numbers and words, and a bounded memo (answers and solutions recur across models and runs)."""

from __future__ import annotations

import functools
import re
from pathlib import Path

from lark import Lark, LarkError, Token, Transformer, UnexpectedInput

from benchcore.once import built_once
from dsgqa.sldp.values import (
    MAX_DEPTH,
    Number,
    Point,
    SLDPDict,
    SLDPError,
    SLDPList,
    SLDPSet,
    SLDPString,
    Value,
    check_depth,
)
from planeval.syntax_errors import describe_parse_error

#: Texts up to this length are memoized (LRU of ``_MEMO_SIZE`` entries); longer ones are not,
#: so a few huge answers cannot pin a lot of memory.
MEMO_MAX_CHARS = 4096
_MEMO_SIZE = 8192

_GRAMMAR = Path(__file__).parent.with_name("sldp.lark")
_ESCAPE = re.compile(r"\\(.)", re.S)
_FRIENDLY = {
    "NUMBER": "a number",
    "NAME": "a word",
    "DQ_STRING": "a quoted string",
    "SQ_STRING": "a quoted string",
    "POINT_OPEN": "POINT(",
    "$END": "end of input",
}


def parse_number(text: str) -> Number:
    """Ints stay ints so they print back unchanged; anything with a point or exponent is float."""
    try:
        if "." in text or "e" in text or "E" in text:
            return float(text)
        return int(text)
    except ValueError as exc:  # e.g. more digits than int() accepts
        raise SLDPError(f"unusable number {text[:20]!r}...: {exc}") from None


def _unquote(token: str) -> str:
    r"""Drop the quotes; ``\\``, ``\"`` and ``\'`` stand for the character, other ``\x`` stay."""
    return _ESCAPE.sub(lambda m: m.group(1) if m.group(1) in "\\\"'" else m.group(0), token[1:-1])


class _Builder(Transformer):
    """Runs inside the LALR parser (no tree is built) and yields the immutable values."""

    def number(self, children: list[Token]) -> Number:
        return parse_number(children[0])

    def string(self, children: list[Token]) -> str:
        first = children[0]
        if first.type == "NAME":
            return " ".join(children)
        return _unquote(first)

    def point(self, children: list[Token]) -> Point:
        return Point(tuple(parse_number(tok) for tok in children[1:]))

    def list(self, children: list[Value]) -> SLDPList:
        return SLDPList(tuple(children))

    def set(self, children: list[Value]) -> SLDPSet:
        return SLDPSet(tuple(children))

    def pair(self, children: list[Value]) -> tuple[Value, Value]:
        return (children[0], children[1])

    def dict(self, children: list[tuple[Number | str, Value]]) -> SLDPDict:
        return SLDPDict(tuple(children))


@built_once
def _parser() -> Lark:
    """Built once per process: grammar analysis costs far more than a parse."""
    return Lark(
        _GRAMMAR.read_text(encoding="utf-8"),
        parser="lalr",
        lexer="basic",
        transformer=_Builder(),
    )


@functools.cache
def scalar_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Number and bare-word regexes taken from the grammar, so the fast path cannot drift."""
    parser = _parser()
    number, name = (parser.get_terminal(n).pattern.to_regexp() for n in ("NUMBER", "NAME"))
    return re.compile(rf"\s*({number})\s*"), re.compile(rf"\s*({name})\s*")


def _parse_uncached(text: str) -> Value:
    if not text.strip():
        raise SLDPError("empty answer: expected an SLDP value")
    number, name = scalar_patterns()
    if match := number.fullmatch(text):
        return parse_number(match.group(1))
    if match := name.fullmatch(text):
        return SLDPString(match.group(1))
    parser = _parser()
    try:
        value = parser.parse(text)
    except UnexpectedInput as exc:
        raise SLDPError(describe_parse_error(exc, parser, _FRIENDLY, quotes="\"'")) from None
    except LarkError as exc:
        raise SLDPError(f"malformed SLDP: {exc}") from None
    if isinstance(value, str):
        return SLDPString(value)
    if sum(text.count(c) for c in "[<{") > MAX_DEPTH:
        check_depth(value)
    return value


_parse_cached = functools.lru_cache(maxsize=_MEMO_SIZE)(_parse_uncached)


def parse_sldp(text: str) -> Value:
    """Parse SLDP text into an immutable value; raises :class:`SLDPError` with the position.

    Repeated texts come from a bounded LRU memo, which is safe because values are immutable."""
    if not isinstance(text, str):
        raise TypeError(f"parse_sldp expects text, got {type(text).__name__}")
    if len(text) <= MEMO_MAX_CHARS:
        return _parse_cached(text)
    return _parse_uncached(text)
