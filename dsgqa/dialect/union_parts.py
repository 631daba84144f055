"""The parts of a UNION, each read as rows of its own (Kuzu and Ladybug bug).

Both engines build a UNION's result in one table laid out like a part's own result. When a part
returns columns that come from patterns with no path between them (`MATCH (a:Object),
(b:Room) RETURN a.name, b.name`), that layout keeps the columns apart and every row a part adds
is crossed with the others: `MATCH (a:Object), (b:MeshPlace) RETURN a.name AS s, b.name AS n
UNION ALL MATCH (o:Object) RETURN o.name AS s, o.class AS n` gives 3 x 3 + 3 x 3 rows where Neo4j
gives 3 x 3 + 3, and an empty first part still crosses the second part's columns. It happens in
any part, first, middle or last, and under UNION too. A `SKIP 0` (or any SKIP, LIMIT or ORDER BY)
at the end of a part makes the engine lay its rows out one by one; `SKIP 0` changes nothing else.

UNION (without ALL) loses rows on top of that, even with every part laid out row by row:
`MATCH (o:Object) RETURN o.name AS a, o.class AS b UNION MATCH (b:Building), (p:Place) RETURN
b.name AS a, p.name AS b` keeps one of a building's two places. So the query's own UNIONs run
as UNION ALL and the query worker drops repeated rows as it reads them, before the row cap, as
Neo4j's UNION does (`Translation.distinct_rows`).
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.trees import tree

REWRITE = "UNION part->SKIP 0"
DISTINCT_REWRITE = "UNION->UNION ALL, repeated rows dropped by the reader"


def _final_projection(part: Tree) -> Tree | None:
    last = part.children[-1] if part.children else None
    if isinstance(last, Tree) and last.data == "return_clause":
        projection = last.children[0]
        if isinstance(projection, Tree) and projection.data == "projection":
            return projection
    return None


def skip_union_parts(root: Tree) -> bool:
    """Give every part of every UNION under `root` a SKIP when it has none; True when one did."""
    changed = False
    seen: set[int] = set()
    for query in list(root.iter_subtrees_topdown()):
        if query.data != "query" or id(query) in seen:
            continue
        seen.add(id(query))
        if not any(
                isinstance(c, Tree) and c.data == "union" for c in query.children):
            continue
        for part in query.children:
            if not (isinstance(part, Tree) and part.data == "single_query"):
                continue
            projection = _final_projection(part)
            if projection is None or any(isinstance(c, Tree) and c.data == "skip"
                                         for c in projection.children):
                continue
            limit = next((i for i, c in enumerate(projection.children)
                          if isinstance(c, Tree) and c.data == "limit"),
                         len(projection.children))
            projection.children.insert(limit, tree("skip", tree("int_lit", Token("INT", "0"))))
            changed = True
    return changed


def read_union_as_all(root: Tree) -> bool:
    """Turn the query's own UNIONs (not those inside a subquery) into UNION ALL; True when it
    had one, and its reader must then drop repeated rows."""
    query = root if root.data == "query" else next(
        (c for c in root.children if isinstance(c, Tree) and c.data == "query"), None)
    if query is None:
        return False
    unions = [c for c in query.children if isinstance(c, Tree) and c.data == "union"]
    distinct = [u for u in unions if not u.children]   # never mixed (`compile_errors.py`)
    for union in distinct:
        union.children.append(Token("ALL", "ALL"))
    return bool(distinct)
