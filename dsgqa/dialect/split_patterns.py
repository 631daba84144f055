"""A MATCH's patterns after an OPTIONAL MATCH, one MATCH clause each (Kuzu bug).

Kuzu 0.11.3 returns no row at all for a MATCH whose pattern list starts from two bound nodes
when an OPTIONAL MATCH left the second one NULL on some rows, where Neo4j drops only those
rows. Measured on the example graph (Ladybug and a hand count: 484):

    MATCH (a:Room) OPTIONAL MATCH (a)-[:ROOM_CONNECTED]->(b:Room) WHERE b.nodeSymbol = 'R1'
    MATCH (a)-[:CONTAINS]->(x), (b)-[:CONTAINS]->(y) RETURN count(*)       -- Kuzu 0
    ... MATCH (a)-[:CONTAINS]->(x) MATCH (b)-[:CONTAINS]->(y) ...          -- Kuzu 484

A `WITH *` before the MATCH does not help; the patterns in two MATCH clauses, or swapped, do.
Two MATCH clauses differ from one pattern list only in relationship uniqueness, which the
translation already writes out (`_rel1 <> _rel2`, `uniqueness.py`), so after an OPTIONAL MATCH
every MATCH of several patterns becomes one MATCH per pattern, its WHERE on the last.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.trees import child_of, is_optional, query_parts, tree

REWRITE = "pattern list after OPTIONAL MATCH->one MATCH per pattern"


def split_patterns_after_optional(root: Tree) -> bool:
    """Split every such MATCH of the query's parts; True when one was split."""
    changed = False
    for part in query_parts(root):
        clauses = part.children
        optional_before = False
        k = 0
        while k < len(clauses):
            clause = clauses[k]
            if isinstance(clause, Tree) and clause.data == "match":
                if is_optional(clause):
                    optional_before = True
                elif optional_before and _pattern_count(clause) > 1:
                    split = _one_match_per_pattern(clause)
                    clauses[k:k + 1] = split
                    k += len(split) - 1
                    changed = True
            k += 1
    return changed


def _pattern_count(match: Tree) -> int:
    patterns = child_of(match, "pattern_list")
    return len(patterns.children) if patterns is not None else 0


def _one_match_per_pattern(match: Tree) -> list[Tree]:
    patterns = child_of(match, "pattern_list")
    where = child_of(match, "where")
    split = [tree("match", tree("pattern_list", pattern)) for pattern in patterns.children]
    if where is not None:
        split[-1].children.append(where)
    return split
