"""Variables whose names differ only in case.

Neo4j's variable names are case-sensitive; Kuzu's and Ladybug's binders are not. So on the
engines `MATCH (a:Room), (A:Object)` joins one variable with itself instead of pairing rooms with
objects, `WITH r.nodeSymbol AS X, r.class AS x RETURN X, x` returns the symbol twice, and
`MATCH (n) RETURN N.class` answers where Neo4j says "Variable `N` not defined". Each is a number
Neo4j would not give, with no error. So:

- a name read but bound only in another case is the syntax error Neo4j raises;
- two bound names that differ only in case are refused (`dialect`): the engines cannot hold both.
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.trees import binds, reads

# Trees whose `name` children bind a variable (a proj_item's second child is its alias).
_NAMING = frozenset({"node_pattern", "rel_detail", "pattern", "unwind", "yield_items"})


def _bound(root: Tree) -> tuple[set[str], set[str]]:
    """The names the query binds: by patterns, UNWIND and lambdas; and as aliases."""
    bound: set[str] = set()
    aliases: set[str] = set()
    for sub in root.iter_subtrees_topdown():
        if sub.data in _NAMING:
            bound.update(plain_name(c) for c in sub.children
                         if isinstance(c, Tree) and c.data == "name")
        elif sub.data == "proj_item" and len(sub.children) > 1:
            aliases.add(plain_name(sub.children[1]))
        else:
            bound |= binds(sub)
    return bound, aliases


def check_variable_case(root: Tree) -> None:
    """Raise when two variable names differ only in case (module docstring). An alias no
    clause reads is only a column's name and clashes with nothing."""
    bound, aliases = _bound(root)
    read = reads(root, into_subqueries=True)
    names = bound | aliases | read
    if len({n.lower() for n in names}) == len(names):
        return
    spellings: dict[str, list[str]] = {}
    for name in sorted(names):
        spellings.setdefault(name.lower(), []).append(name)
    for same in spellings.values():
        if len(same) < 2:
            continue
        defined = [n for n in same if n in bound or n in aliases]
        for name in same:
            if name not in bound and name not in aliases:
                raise CypherSyntaxError(f"variable {name} is not defined (names are "
                                        f"case-sensitive: {defined[0]} is)")
        used = [n for n in same if n in bound or n in read]
        if len(used) > 1:
            raise DialectError(f"variables {' and '.join(used)} differ only in case (the "
                               "engines read them as one variable)")
