"""A path a WITH passes on takes its variable-length relationships along (Kuzu and Ladybug bug).

Both engines rebuild a path from its parts where a later clause reads it, and where a WITH passed
the path on without the relationship variable of a variable-length segment, a later sort or
aggregation fails with "Cannot evaluate expression with type PROPERTY". Measured, on both:

    MATCH p = (a:Room)-[:ROOM_CONNECTED*1..3]-(b:Room) WITH p RETURN length(p) AS l ORDER BY l
    ... WITH a, p RETURN length(p) AS l, count(*) AS n
    MATCH p = (a)-[r*1..2]->(b)-[s*1..2]->(c) WITH p, a RETURN length(p), count(*)   -- so
                                                                    -- with r and not s

(`WITH p ORDER BY length(p) LIMIT 1 RETURN nodes(p)` ran). With the segment's variable beside
the path (`WITH p, _hops1`) every form runs, sorted, grouped, DISTINCT, through later WITHs and
after an OPTIONAL MATCH that found nothing. The variable is a function of the path, so the rows,
groups and DISTINCT are Neo4j's; an anonymous segment gets a generated name, spelled out of
later stars.
"""

from __future__ import annotations

from collections.abc import Callable

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import child_of, item_name, name, rel_detail, tree, var
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "path passed on by WITH->with its variable-length relationships"


def _segments(chain: Tree, names: FreshNames) -> list[str]:
    """The names of a chain's variable-length relationships, naming the anonymous ones."""
    found = []
    for item in chain.children:
        detail = rel_detail(item) if item.data.startswith("rel_") else None
        if detail is None or child_of(detail, "var_length") is None:
            continue
        named = child_of(detail, "name")
        if named is None:
            named = name(names.fresh("_hops"))
            detail.children.insert(0, named)
        found.append(plain_name(named))
    return found


def _paths(match: Tree, names: FreshNames) -> dict[str, list[str]]:
    """path name -> its variable-length relationships, for the MATCH's named paths."""
    found = {}
    for pattern in child_of(match, "pattern_list").children:
        chain = pattern.children[-1]
        if len(pattern.children) == 3 and isinstance(chain, Tree) and chain.data == "chain":
            segments = _segments(chain, names)
            if segments:
                found[plain_name(pattern.children[0])] = segments
    return found


def _carry(clause: Tree, paths: dict[str, list[str]]) -> tuple[dict[str, list[str]], bool]:
    """Add the segments of the paths a WITH passes on by name; (the paths after it, changed)."""
    items = child_of(clause.children[0], "proj_items")
    star = any(isinstance(item, Token) for item in items.children)
    after = dict(paths) if star else {}
    passed = {item_name(item) for item in items.children if isinstance(item, Tree)}
    changed = False
    for item in list(items.children):
        if not (isinstance(item, Tree) and item.children[0].data == "var"):
            continue
        source = plain_name(item.children[0].children[0])
        if source not in paths or item_name(item) is None:
            continue
        after[item_name(item)] = paths[source]
        for segment in paths[source]:
            if segment not in passed and not star:
                items.children.append(tree("proj_item", var(segment)))
                passed.add(segment)
                changed = True
    return after, changed


def _carry_all(single_query: Tree, names: FreshNames) -> bool:
    paths: dict[str, list[str]] = {}
    changed = False
    for clause in single_query.children:
        if not isinstance(clause, Tree):
            continue
        if clause.data == "match":
            paths.update(_paths(clause, names))
        elif clause.data == "with_clause" and paths:
            paths, carried = _carry(clause, paths)
            changed |= carried
    return changed


def carry_path_segments(root: Tree, names: FreshNames,
                        hide_names: Callable[[Tree], None]) -> bool:
    """Apply the pass to each part of the query; True when a WITH changed. `hide_names` spells
    generated names out of a part's stars (`Uniqueness.expand_stars`); the WITH stars it spells
    out then carry the segments too."""
    query = root.children[0] if root.data == "start" else root
    changed = False
    for part in query.children:
        if not (isinstance(part, Tree) and part.data == "single_query"):
            continue
        if not any(isinstance(c, Tree) and c.data == "with_clause" for c in part.children):
            continue
        before = len(names.generated)
        if _carry_all(part, names) or len(names.generated) > before:
            hide_names(part)
            _carry_all(part, names)
            hide_names(part)   # a RETURN * after the WITHs that now carry them
            changed = True
    return changed
