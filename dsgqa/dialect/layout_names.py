"""Point fields and map keys in the case the query or Heracles' layout spells them.

Neo4j's names are case-sensitive: a point has no field `X`, and `{Class: 1}.class` is NULL.
Kuzu and Ladybug look struct fields up ignoring case, so the same query answers as if the model
had spelled the other name: a score Neo4j would not give, with no error. A point field the layout
spells in another case is a `schema` error (Neo4j raises too); a map key some map of the query
or the graph spells in another case is refused. (Labels, types and node keys in another case are
names the layout does not have: `unknown_names.py` reads them as Neo4j does.)
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSchemaError, DialectError
from dsgqa.dialect.trees import function_name, read_key
from dsgqa.dialect.types import LAYOUT_KEYS, POINT_FIELDS
from dsgqa.scene_graph import EDGE_TYPES, LABELS


def _check(name: str, known: tuple[str, ...] | frozenset[str], what: str) -> None:
    """A name the layout spells in another case is a schema error."""
    if name in known:
        return
    same = sorted(k for k in known if k.lower() == name.lower())
    if same:
        raise CypherSchemaError(f"the graph has no {what} {name} (names are case-sensitive: "
                                f"the graph has {same[0]})")


_KNOWN = frozenset(LABELS) | frozenset(EDGE_TYPES) | LAYOUT_KEYS | POINT_FIELDS


def names_collide(names: set[str]) -> bool:
    """Whether two of `names` (the query's identifiers), or one of them and a name of the
    layout, differ only in case: else none of the checks here can fail (a cheap gate)."""
    seen: dict[str, str] = {}
    for name in (*names, *_KNOWN):
        other = seen.setdefault(name.lower(), name)
        if other != name:
            return True
    return False


def check_property_names(root: Tree) -> None:
    """Every key read from a node, relationship or point (`ctype` from `annotate_types`) in the
    layout's case. A key read from anything else (a map, a value of unknown type) is refused
    when the query's maps (or the graph's keys, if the value may hold them) also spell it in
    another case: the engines' struct fields ignore case too, so `{Class: 1}.class` would be 1
    where Neo4j gives NULL."""
    reads: list[tuple[str | None, str]] = []
    written: set[str] = set()
    graph_maps = False   # properties(n) or n {.*}: maps holding the graph's keys
    for sub in root.iter_subtrees_topdown():
        key = read_key(sub)
        if key is not None:
            reads.append((getattr(sub.children[0], "ctype", None), key))
        elif sub.data == "map_projection":
            base = getattr(sub.children[0], "ctype", None)
            for item in sub.children[1:]:
                if item.data == "proj_prop" and isinstance(item.children[0], Tree):
                    reads.append((base, plain_name(item.children[0])))
                    written.add(plain_name(item.children[0]))
                elif item.data == "proj_key":
                    written.add(plain_name(item.children[0]))
                elif item.data == "proj_all":
                    graph_maps = True
        elif sub.data == "map_entry":
            written.add(plain_name(sub.children[0]))
        elif sub.data == "call" and function_name(sub.children[0]).lower() == "properties":
            graph_maps = True
    for base, key in reads:
        if base in ("node", "rel"):
            continue   # a key no label has is NULL by now (`unknown_names.py`)
        if base in ("point", "point2d"):
            _check(key, POINT_FIELDS, "point field")
        else:
            known = written | (LAYOUT_KEYS | POINT_FIELDS
                               if graph_maps or base not in ("map", "list") else set())
            if any(k != key and k.lower() == key.lower() for k in known):
                raise DialectError(f"the key {key} differs only in case from another key the "
                                   "query or the graph has (the engines read keys ignoring "
                                   "case)")
