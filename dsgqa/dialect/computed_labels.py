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
    callee = node.children[0] if node.children else None
    return node.data == "call" and len(node.children) == 2 and isinstance(callee, Tree) \
        and callee.data == "var" and plain_name(callee.children[0]).lower() == "label"


def _field(subject: Tree) -> Tree:
    field = tree("str_lit", Token("STRING", quote_string("_label")))
    label = call("struct_extract", subject, field)
    return tree("case_expr",
                tree("case_when", tree("is_null", clone(subject)), tree("null_lit")), label)


def read_computed_labels(root: Tree) -> bool:
    """Rewrite every such call in place; True when there was one."""
    changed = False
    for node in list(root.iter_subtrees()):
        for i, child in enumerate(node.children):
            if isinstance(child, Tree) and _is_label_call(child) \
                    and isinstance(child.children[1], Tree) and child.children[1].data != "var":
                node.children[i] = _field(child.children[1])
                changed = True
    return changed
