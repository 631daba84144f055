"""The text of each unaliased RETURN item, which Neo4j names the column after.

`RETURN count(*), r.nodeSymbol` has the columns `count(*)` and `r.nodeSymbol`: the items'
text as written. Lark's position tracking gives every tree its span, but costs a quarter of
the parse (a third of a millisecond on a long query), and nothing else in a translation needs
it. So the items are found in the query's tokens instead: after each RETURN (and its
DISTINCT), the items are the runs of tokens up to a comma, ORDER, SKIP, OFFSET, LIMIT, UNION,
`;` or another clause outside any bracket (CASE ... END counts as one), or a bracket closed
that the run did not open (a subquery's `}`).
The i-th RETURN of the text is the i-th RETURN clause of the tree (both in the order written),
and its runs are its items in order. Where the two do not line up, `Misaligned` is raised and
the caller parses again with positions (`keep_return_texts_from_positions`).
"""

from __future__ import annotations

from lark import Token, Tree

# Tokens that end an item outside brackets (besides a comma): what may follow a RETURN's
# items, and the clauses that may not (a RETURN before the end is an error found later). Not
# WITH, which `STARTS WITH` / `ENDS WITH` hold.
_ENDS = frozenset({"_ORDER", "_SKIP", "_OFFSET", "_LIMIT", "_UNION", "SEMICOLON",
                   "_MATCH", "OPTIONAL", "_UNWIND", "_CALL", "_RETURN", "_WHERE", "_FINISH"})
# CASE ... END nests like a bracket (`CASE x WHEN 1, 2 THEN ...` has commas of its own).
_NESTS = {"_CASE": 1, "_END": -1}
# Tokens whose text may hold brackets that are not the query's own.
_TEXTS = frozenset({"STRING", "QUOTED_NAME"})
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


class Misaligned(Exception):
    """The tokens' RETURN items do not line up with the tree's."""


def _depth_change(token: Token) -> int:
    if token.type in _TEXTS:
        return 0
    if token.type in _NESTS:
        return _NESTS[token.type]
    return sum(c in _OPEN for c in token) - sum(c in _CLOSE for c in token)


def _item_spans(tokens: list[Token], at: int) -> list[tuple[int, int]]:
    """(start, end) offsets of the items of the RETURN at token `at`."""
    i = at + 1
    if i < len(tokens) and tokens[i].type == "DISTINCT":
        i += 1
    spans: list[tuple[int, int]] = []
    first = last = None
    depth = 0
    while i < len(tokens):
        token = tokens[i]
        if depth == 0 and (token.type == "COMMA" or token.type in _ENDS):
            if first is None:
                raise Misaligned
            spans.append((first.start_pos, last.end_pos))   # type: ignore[union-attr]
            first = None
            if token.type != "COMMA":
                break
            i += 1
            continue
        depth += _depth_change(token)
        if depth < 0:
            break   # the `}` of the subquery this RETURN ends
        first = first or token
        last = token
        i += 1
    if first is not None:
        spans.append((first.start_pos, last.end_pos))   # type: ignore[union-attr]
    return spans


def _return_clauses(root: Tree) -> list[Tree]:
    return [node for node in root.iter_subtrees_topdown() if node.data == "return_clause"]


def _unaliased(item: object) -> bool:
    return isinstance(item, Tree) and len(item.children) == 1


def keep_return_texts(root: Tree, query: str, tokens: list[Token]) -> None:
    """Set `original_text` on every unaliased RETURN item under `root` from the query's
    `tokens`; raises `Misaligned` where they do not line up."""
    returns = [i for i, token in enumerate(tokens) if token.type == "_RETURN"]
    clauses = _return_clauses(root)
    if len(returns) != len(clauses):
        raise Misaligned
    for at, clause in zip(returns, clauses, strict=True):
        items = next((c for c in clause.children[0].children
                      if isinstance(c, Tree) and c.data == "proj_items"), None)
        spans = _item_spans(tokens, at)
        if items is None or len(spans) != len(items.children):
            raise Misaligned
        for item, (start, end) in zip(items.children, spans, strict=True):
            if _unaliased(item):
                item.original_text = query[start:end]


def keep_return_texts_from_positions(root: Tree, query: str) -> None:
    """The same from the trees' positions (a parse made with them)."""
    for clause in _return_clauses(root):
        for items in clause.children[0].children:
            if not (isinstance(items, Tree) and items.data == "proj_items"):
                continue
            for item in items.children:
                if _unaliased(item) and not item.meta.empty:
                    item.original_text = query[item.meta.start_pos:item.meta.end_pos]
