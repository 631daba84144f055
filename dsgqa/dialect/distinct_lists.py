"""`collect(DISTINCT x)` of a list or map that may hold NULL (Kuzu and Ladybug bug).

Neo4j's `collect(DISTINCT ..)` keeps a set of the values seen, compared by equality under which
NULL equals NULL inside a list or map (`DistinctFunction`, `AnyValue.equals`): `[1, NULL]`
twice is one value. The translator reads `collect(DISTINCT x)` as `list_distinct(collect(x))`
(first arrivals, in the rows' order), and both engines' `list_distinct` keeps every copy of a
list or struct holding a NULL (measured: `[[1, NULL], [1, NULL]]` and `[{r: 'a'}, {r: NULL},
{r: NULL}]` kept all; `size(collect(DISTINCT [o.class, r.nodeSymbol]))` over storage objects
after an OPTIONAL MATCH gave 10 where Neo4j gives 4).

A written list or map becomes a map whose fields hold each element as a list of itself or of
nothing, which holds no NULL, and the distinct values are read back with `head()`:

    collect(DISTINCT [a, b])
 -> [k IN collect(DISTINCT {_v0: [e IN [a] WHERE e IS NOT NULL], _v1: ..}) | [head(k._v0), ..]]

The comprehension over the aggregate becomes a WITH of its own (`lambda_aggregates.py`).
Elements that are never NULL (literals, a node a MATCH bound, the layout's always-set
properties of one) are left as they are, and a list of them all is left alone. Any other list
or map that may hold NULL (a list of lists a WITH passed on) is refused.
"""

from __future__ import annotations

import re

from lark import Tree

from dsgqa.dialect.cross_types import null_free_value
from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.errors import DialectError
from dsgqa.dialect.trees import (
    NON_NULL_LITERALS,
    call,
    function_name,
    name,
    tree,
    var,
)
from dsgqa.dialect.types import ALWAYS_SET, ctype
from dsgqa.dialect.uniqueness import FreshNames

REWRITE = "collect(DISTINCT list or map)->NULL-free keys"
_REFUSAL = ("collect(DISTINCT x) of a list or map that may hold NULL (the engines keep every "
            "copy of one)")
# Where the pass has work: a collect(DISTINCT ..) of a written list or map.
WRITTEN_DISTINCT = re.compile(r"\bcollect\s*\(\s*DISTINCT\s*[\[{]", re.IGNORECASE)


def _never_null(value: object) -> bool:
    """Whether a value can be seen never to be NULL (after `annotate_types`)."""
    if not isinstance(value, Tree):
        return False
    if value.data in NON_NULL_LITERALS:
        return True
    if value.data == "var":
        return getattr(value, "nullable", True) is False
    if value.data == "prop" and isinstance(value.children[0], Tree) \
            and value.children[0].data == "var":
        return plain_name(value.children[1]) in ALWAYS_SET and _never_null(value.children[0])
    return False


def _holds_no_null(value: Tree) -> bool:
    """Whether a list can be seen to hold no NULL: `null_free_value`'s, and a comprehension
    over one whose result is never NULL (`[n IN nodes(p) | n.nodeSymbol]`)."""
    if null_free_value(value):
        return True
    if value.data not in ("list_comp", "list_comp_map") or value.children[0].data != "in_" \
            or not null_free_value(value.children[0].children[1]):
        return False
    return value.data == "list_comp" or _never_null(value.children[-1])


def _written(argument: object) -> Tree | None:
    """The list or map literal `argument` is (through parentheses), or None."""
    while isinstance(argument, Tree) and argument.data == "paren":
        argument = argument.children[0]
    if isinstance(argument, Tree) and argument.data in ("list_literal", "map_literal"):
        return argument
    return None


def _present(value: Tree, names: FreshNames) -> Tree:
    """`[e IN [value] WHERE e IS NOT NULL]`: the value as a list of itself, or of nothing."""
    each = names.fresh("_e")
    return tree("list_comp", tree("in_", var(each), tree("list_literal", value)),
                tree("is_not_null", var(each)))


def _keyed(written: Tree, names: FreshNames) -> Tree | None:
    """The comprehension that stands for `collect(DISTINCT written)`, or None where every
    element is never NULL."""
    values = written.children if written.data == "list_literal" \
        else [entry.children[1] for entry in written.children]
    if all(_never_null(value) for value in values):
        return None
    if any((ctype(value) == "map" or ctype(value).startswith("list<"))
           and not null_free_value(value) for value in values):   # a NULL one level down
        raise DialectError(_REFUSAL)
    key, fields, reads = names.fresh("_k"), [], []
    for i, value in enumerate(values):
        field = f"_v{i}"
        if _never_null(value):
            fields.append(tree("map_entry", name(field), value))
            reads.append(tree("prop", var(key), name(field)))
        else:
            fields.append(tree("map_entry", name(field), _present(value, names)))
            reads.append(call("head", tree("prop", var(key), name(field))))
    if written.data == "list_literal":
        back = tree("list_literal", *reads)
    else:
        back = tree("map_literal", *(tree("map_entry", entry.children[0], read)
                                     for entry, read in zip(written.children, reads,
                                                            strict=True)))
    keys = tree("map_literal", *fields)
    keys.null_free_key = True   # type: ignore[attr-defined]
    collected = tree("call_distinct", var("collect"), "DISTINCT", keys)
    return tree("list_comp_map", tree("in_", var(key), collected), back)


def _distinct_collects(root: Tree) -> list[tuple[Tree, int]]:
    """Each `collect(DISTINCT x)`, as (parent, index)."""
    return [(node, i) for node in root.iter_subtrees() for i, child in enumerate(node.children)
            if isinstance(child, Tree) and child.data == "call_distinct"
            and function_name(child.children[0]).lower() == "collect"
            and len(child.children) == 3]


def key_written_distincts(root: Tree, names: FreshNames) -> bool:
    """Rewrite each `collect(DISTINCT <written list or map>)` (module docstring); True when
    one changed. Reads the `nullable` marks `annotate_types` leaves."""
    changed = False
    for parent, i in _distinct_collects(root):
        written = _written(parent.children[i].children[2])
        if written is None:
            continue
        keyed = _keyed(written, names)
        if keyed is None:   # holds no NULL
            written.null_free_key = True   # type: ignore[attr-defined]
        else:
            parent.children[i] = keyed
            changed = True
    return changed


def refuse_null_holding_distincts(root: Tree) -> None:
    """Refuse `collect(DISTINCT x)` of a list or map that may hold NULL and that the pass above
    did not key. On the annotated tree."""
    for parent, i in _distinct_collects(root):
        argument = parent.children[i].children[2]
        value_type = ctype(argument)
        if (value_type == "map" or value_type.startswith("list<")) \
                and not getattr(argument, "null_free_key", False) \
                and not _holds_no_null(argument):
            raise DialectError(_REFUSAL)
