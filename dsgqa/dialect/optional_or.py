"""An OPTIONAL MATCH whose WHERE ORs a subquery with a test of a box field (Kuzu and Ladybug bug).

Found by the differential fuzzer and not understood yet: in both engines

    OPTIONAL MATCH (n1)--(n3)<--(n4)
    WHERE EXISTS { MATCH (n4)--(m) WHERE m.class = 'trash' } OR -3 > n1.bbox_center.y

drops the rows the EXISTS alone keeps (84 rows expected, Kuzu 12, Ladybug 24), while the same
WHERE with `n1.center.y`, with any other second operand, or in a plain MATCH is right. A box
field (`bbox_center`, `bbox_dim`) is NULL for an object without a box, which is what the
failing cases share. No faithful rewrite is known, so such a WHERE is refused (`dialect`)
rather than answered wrongly.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError

_BOX_FIELDS = frozenset({"bbox_center", "bbox_dim"})


def _has(node: object, test: object) -> bool:
    return isinstance(node, Tree) and (test(node) or any(_has(c, test) for c in node.children))


def _is_subquery(node: Tree) -> bool:
    return node.data == "subquery"


def _reads_box(node: Tree) -> bool:
    return node.data == "prop" and plain_name(node.children[1]) in _BOX_FIELDS


def _disjunctions(node: object) -> list[Tree]:
    if not isinstance(node, Tree) or node.data == "subquery":
        return []
    found = [node] if node.data in ("or_", "xor_") else []
    for child in node.children:
        found += _disjunctions(child)
    return found


def refuse_subquery_or_box_field(match: Tree) -> None:
    """Raise `DialectError` for an OPTIONAL MATCH whose WHERE has such a disjunction."""
    if not any(isinstance(c, Token) and c.type == "OPTIONAL" for c in match.children):
        return
    where = next((c for c in match.children if isinstance(c, Tree) and c.data == "where"), None)
    if where is None:
        return
    for disjunction in _disjunctions(where.children[0]):
        if _has(disjunction, _is_subquery) and _has(disjunction, _reads_box):
            raise DialectError("an OPTIONAL MATCH whose WHERE ORs a subquery with a test of a "
                               "box field (both engines drop rows there)")
