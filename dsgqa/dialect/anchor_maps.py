"""The property map of a node a subquery starts from, as a test in the WHERE (Kuzu and Ladybug
bug).

Ladybug 0.22.0 fails with "Runtime exception: Unable to construct a hash join without any join
condition." where a MATCH's node pattern carries a property map, an EXISTS { } or COUNT { }
starts from that node, and a projection that aggregates or sorts reads the mapped property
beside a value built around the subquery. Kuzu 0.11.3 goes wrong where the node is an OPTIONAL
MATCH's. Measured, R1 the kitchen holding P1 and p1, R2 holding P2, R3 nothing:

    MATCH (n:Room {class: 'kitchen'})-[:CONTAINS]->(p)
    RETURN n.class AS c, COUNT { MATCH (n)-[:CONTAINS]->(m) } + 1 AS k ORDER BY k
    RETURN n.class AS c, CASE WHEN EXISTS { MATCH (n)-->(m) } THEN 1 END AS e, count(*) AS g
                                                        -- Ladybug: the error above
    MATCH (r:Room) OPTIONAL MATCH (r)-[:CONTAINS]->(n {class: 'floor'})
    RETURN r.nodeSymbol AS r, COUNT { MATCH (n)<-[:CONTAINS]-(m) } + 1 AS k ORDER BY r
                                                        -- Ladybug: the error; Kuzu: R3 lost
    RETURN r.nodeSymbol AS r, sum(COUNT { MATCH (n)<-[:CONTAINS]-(m) }) AS k
    RETURN r.nodeSymbol AS r, collect(EXISTS { MATCH (n)<-[:CONTAINS]-(m) }) AS k
                                                        -- Kuzu: the worker crashed (SIGSEGV)

The same test in the clause's WHERE (`OPTIONAL MATCH (r)-[:CONTAINS]->(n) WHERE n.class =
'floor'`) runs on both and gives Neo4j's rows, and means the same in Neo4j: a property map is an
equality test on the node, in a MATCH and an OPTIONAL MATCH alike (`{k: NULL}` matches nothing,
as `n.k = NULL` holds for nothing). So the map of such a node moves there: an OPTIONAL MATCH's
whole map, and on Ladybug a MATCH's entries whose property the query reads (`n.class`); the
other maps stay, as the model wrote them.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import child_of, is_optional, tree, var

REWRITE = "subquery's start node property map->WHERE"


def _anchors(part: Tree) -> set[str]:
    """The names of the nodes the subqueries of a query part start from (or pass through)."""
    return {plain_name(node.children[0]) for sub in part.iter_subtrees_topdown()
            if sub.data == "subquery" for node in sub.iter_subtrees_topdown()
            if node.data == "node_pattern" and node.children
            and isinstance(node.children[0], Tree) and node.children[0].data == "name"}


def _mapped_nodes(match: Tree, anchors: set[str] | None) -> list[Tree]:
    """The MATCH's named nodes with a property map (of `anchors` only, unless None)."""
    pattern_list = child_of(match, "pattern_list")
    return [node for pattern in pattern_list.children
            if isinstance(pattern.children[-1], Tree) and pattern.children[-1].data == "chain"
            for node in pattern.children[-1].children
            if node.data == "node_pattern" and child_of(node, "map_literal") is not None
            and child_of(node, "name") is not None
            and (anchors is None or plain_name(child_of(node, "name")) in anchors)]


def _read_properties(part: Tree) -> set[tuple[str, str]]:
    """(variable, key) of every `variable.key` the query part reads."""
    return {(plain_name(node.children[0].children[0]), plain_name(node.children[1]))
            for node in part.iter_subtrees_topdown()
            if node.data == "prop" and isinstance(node.children[0], Tree)
            and node.children[0].data == "var"}


def _tests(node: Tree, whole: bool, read: set[tuple[str, str]]) -> list[Tree]:
    """The node's map entries that move (all when `whole`, else those of a property in
    `read`), as equality tests, taken off it."""
    properties = child_of(node, "map_literal")
    variable = plain_name(child_of(node, "name"))
    moved = [entry for entry in properties.children if isinstance(entry, Tree)
             and (whole or (variable, plain_name(entry.children[0])) in read)]
    properties.children = [entry for entry in properties.children if entry not in moved]
    if not properties.children:
        node.children.remove(properties)
    return [tree("compare", tree("prop", var(variable), entry.children[0]),
                 Token("EQ", "="), entry.children[1])
            for entry in moved]


def move_anchor_maps(root: Tree, target: str) -> bool:
    """Apply the pass to each part of the query; True when a map moved."""
    query = root.children[0] if root.data == "start" else root
    changed = False
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        matches = [clause for clause in part.children
                   if isinstance(clause, Tree) and clause.data == "match"]
        if not any(_mapped_nodes(clause, None) for clause in matches):
            continue
        anchors = _anchors(part)
        if not anchors:
            continue
        read = _read_properties(part) if target == "ladybug" else set()
        for clause in matches:
            whole = is_optional(clause)
            tests = [test for node in _mapped_nodes(clause, anchors)
                     for test in _tests(node, whole, read)]
            if not tests:
                continue
            condition = tests[0]
            for test in tests[1:]:
                condition = tree("and_", condition, test)
            where = child_of(clause, "where")
            if where is None:
                clause.children.append(tree("where", condition))
            else:
                where.children[0] = tree("and_", tree("paren", condition),
                                         tree("paren", where.children[0]))
            changed = True
    return changed
