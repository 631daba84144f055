"""Parse Cypher text with the lark grammar in `cypher.lark` (LALR, so parsing stays well under a
millisecond for a typical query)."""

from __future__ import annotations

from pathlib import Path

from lark import Lark, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from benchcore.once import built_once
from dsgqa.dialect.errors import CypherSyntaxError

GRAMMAR = Path(__file__).with_name("cypher.lark")


@built_once
def _parser() -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=False, cache=False)


def parse(query: str) -> Tree:
    """The parse tree of `query`; `CypherSyntaxError` (one line) when it is not Cypher."""
    try:
        return _parser().parse(query)
    except UnexpectedToken as exc:
        got = exc.token.value if exc.token.type != "$END" else "end of query"
        raise CypherSyntaxError(
            f"unexpected {got!r} at line {exc.line}, column {exc.column}") from None
    except UnexpectedCharacters as exc:
        raise CypherSyntaxError(
            f"unexpected character {query[exc.pos_in_stream]!r} at line {exc.line}, "
            f"column {exc.column}") from None
    except UnexpectedEOF:
        raise CypherSyntaxError("query ends too early") from None
    except (LarkError, RecursionError) as exc:
        raise CypherSyntaxError(f"cannot parse the query: {type(exc).__name__}") from None
