"""Neo4j 5 syntax the grammar does not read: a dialect refusal, never a syntax error.

The model is told it writes Neo4j Cypher 5, so a valid Neo4j 5 query the grammar (`cypher.lark`)
cannot parse is the translator's failure, not the model's: reported as "not Cypher" it charged
the model for Neo4j 5.9's quantified path patterns and quantified relationships
(`((a)-[:T]->(b)){1,3}`, `-[:T]->+`) and 5.21's path selectors (`SHORTEST 1`, `ANY SHORTEST`,
`ALL SHORTEST`, `SHORTEST 2 GROUPS`, `ANY`). Where a parse fails inside one of these forms, the
failure is reported as that form (`DialectError`); a failure elsewhere stays the model's syntax
error, and so do the errors Neo4j finds in such a form that its text shows (a quantified path
pattern nested in another or holding a variable-length relationship, a quantified pattern in
shortestPath()). Two Neo4j errors it cannot see are refused with the form: a group variable
read as a single node, and two patterns of one MATCH beside a selective selector.
"""

from __future__ import annotations

import re

from dsgqa.dialect.errors import CypherSyntaxError

_QUANTIFIER = r"(?:\{\s*\d*\s*(?:,\s*\d*\s*)?\}|[+*])"
# A relationship followed by a quantifier, then the next node: `]->{2}(`, `]-+(`, `-->*(`.
_QUANTIFIED_RELATIONSHIP = re.compile(
    rf"(?:\]\s*-\s*>?|-->|<--|--)\s*{_QUANTIFIER}\s*\(")
# A closing parenthesis followed by a quantifier: a parenthesised path when what it closes
# holds a relationship (`((a)-->(b)){1,3}`), not an arithmetic group (`(a + b)*2`).
_CLOSE_QUANTIFIED = re.compile(rf"\)\s*{_QUANTIFIER}")
_RELATIONSHIP = re.compile(r"-\s*\[|\]\s*-|-->|<--|--")
# A selector opens a MATCH's path pattern, after `MATCH`, `p =` or `,`.
_SELECTOR = re.compile(
    r"(?:\bMATCH\b|=|,)\s*(?:(?:ANY|ALL)\s+SHORTEST(?:\s+PATHS?)?"
    r"|SHORTEST\s+\d+(?:\s+(?:PATHS?|GROUPS?))?|ANY(?:\s+\d+)?(?:\s+PATHS?)?"
    r"|ALL(?:\s+PATHS?)?)\s*\(", re.IGNORECASE)
_VAR_LENGTH = re.compile(r"\[[^\]]*\*")
_SHORTEST_CALL = re.compile(r"\b(?:all)?shortestPath\s*\(", re.IGNORECASE)
_QPP = "a quantified path pattern ((...){m,n}, (...)+)"
_QUANTIFIED = "a quantified relationship (-[:T]->{m,n}, ->+, ->*)"


def _opening(text: str, close: int) -> int | None:
    """The offset of the `(` the `)` at `close` closes (strings and comments aside: a rare
    miss only loses the recognition)."""
    depth = 0
    for at in range(close, -1, -1):
        if text[at] == ")":
            depth += 1
        elif text[at] == "(":
            depth -= 1
            if depth == 0:
                return at
    return None


def _spans(text: str) -> list[tuple[int, int, str]]:
    """Each Cypher 5 form the grammar does not read in `text`: (start, end, what it is)."""
    found = [(m.start(), m.end(), _QUANTIFIED) for m in _QUANTIFIED_RELATIONSHIP.finditer(text)]
    for m in _CLOSE_QUANTIFIED.finditer(text):
        start = _opening(text, m.start())
        if start is not None and _RELATIONSHIP.search(text, start, m.start()):
            found.append((start, m.end(), _QPP))
    found += [(m.start(), m.end(), "a path selector (SHORTEST k, ANY, ALL SHORTEST)")
              for m in _SELECTOR.finditer(text)]
    return found


def _refuse_invalid(text: str, spans: list[tuple[int, int, str]]) -> None:
    """Neo4j's semantic checks of quantified patterns that text shows (the messages of its
    semantic analysis, checked with its linter): a quantified path pattern inside another,
    a variable-length relationship inside one, and a quantified pattern in shortestPath()."""
    quantified = [(start, end) for start, end, what in spans if what in (_QPP, _QUANTIFIED)]
    for start, end, what in spans:
        if what != _QPP:
            continue
        if any(start < inner < end and inner_end < end for inner, inner_end in quantified):
            raise CypherSyntaxError("Quantified path patterns are not allowed to be nested.")
        if _VAR_LENGTH.search(text, start, end):
            raise CypherSyntaxError("Variable length relationships cannot be part of a "
                                    "quantified path pattern.")
    for call in _SHORTEST_CALL.finditer(text):
        close = _closing(text, call.end() - 1)
        if any(call.end() <= start < close for start, _ in quantified):
            raise CypherSyntaxError("shortestPath(...) requires a pattern containing a single "
                                    "relationship, not a quantified pattern")


def _closing(text: str, opening: int) -> int:
    """The offset of the `)` that closes the `(` at `opening` (the end of text: none)."""
    depth = 0
    for at in range(opening, len(text)):
        if text[at] == "(":
            depth += 1
        elif text[at] == ")":
            depth -= 1
            if depth == 0:
                return at
    return len(text)


def unread_form(text: str, at: int) -> str | None:
    """The Cypher 5 form the grammar does not read that the parse failing at offset `at` of
    `text` failed inside, or None (read only when a parse failed)."""
    spans = _spans(text)
    inside = next((what for start, end, what in spans if start <= at <= end), None)
    if inside is not None:
        _refuse_invalid(text, spans)
    return inside
