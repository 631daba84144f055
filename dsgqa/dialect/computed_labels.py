"""Kuzu only: the label of a node or relationship that is not a variable, read as a field.

Kuzu 0.11.3's query worker crashes (SIGSEGV) on `label()` of anything but a variable, whether
or not a row reaches it (measured: `MATCH p = (o:Object)<-[:CONTAINS]-(m) RETURN
label(rels(p)[1])`, `label(nodes(p)[1])`, `label(ns[1])` of a collected list, `label(CASE WHEN
true THEN n END)`, `label(coalesce(r, r))`). Neo4j's `type(relationships(p)[0])` and
`labels(nodes(p)[0])` become such calls. A node or relationship is a struct there, and
`struct_extract(x, '_label')` reads the same label without the crash; of a NULL one it gives ''
on Kuzu (Neo4j: NULL), so it is guarded:

    CASE WHEN x IS NULL THEN NULL ELSE struct_extract(x, '_label') END

Ladybug 0.22.0 runs `label()` of any expression and keeps it.
"""

from __future__ import annotations

from lark import Token, Tree

from dsgqa.dialect.emit import plain_name, quote_string
from dsgqa.dialect.trees import call, clone, tree

REWRITE = "label() of a computed node->struct_extract"


def _is_label_call(node: Tree) -> bool:
    if node.data != "call" or len(node.children) != 2:
        return False
    callee = node.children[0]
    return isinstance(callee, Tree) and callee.data == "var" \
        and plain_name(callee.children[0]).lower() == "label"


def _read_as_field(label_call: Tree) -> None:
    """Turn the call, in place, into the guarded field read."""
    subject = label_call.children[1]
    field = tree("str_lit", Token("STRING", quote_string("_label")))
    label = call("struct_extract", subject, field)
    label_call.data = "case_expr"
    label_call.children = [
        tree("case_when", tree("is_null", clone(subject)), tree("null_lit")), label]


def read_computed_labels(root: Tree) -> bool:
    """Rewrite every such call in place; True when there was one."""
    calls = [node for node in root.iter_subtrees_topdown() if _is_label_call(node)
             and isinstance(node.children[1], Tree) and node.children[1].data != "var"]
    for label_call in calls:
        _read_as_field(label_call)
    return bool(calls)
