"""Labels on a node pattern whose variable is already bound (Kuzu and Ladybug bug).

In Neo4j a node variable is one node, and every pattern that names it tests its labels: all
of them must hold (the Manual's equijoins; TCK Match3). Both engines bind the variable once
and read the labels of every pattern naming it as alternatives. Measured on the example
graph:

    MATCH (p:Place)-[:CONTAINS]->(o:Object) MATCH (p:MeshPlace) RETURN count(*)
    -- Neo4j 0 (no node is a Place and a MeshPlace); both engines 70
    MATCH (m:MeshPlace), (m:Object) RETURN count(*)              -- Neo4j 0; both 161
    MATCH (a)-[:CONTAINS]->(x) MATCH (a:Room) RETURN count(*)    -- Neo4j 91; Kuzu 161

So in a MATCH, the labels a node pattern allows (alternatives, once `label_expressions.py`
has resolved them) become a label test in its WHERE where the pattern names a variable bound
before the clause, or named by an earlier pattern of the same clause: `MATCH (p:MeshPlace)`
becomes `MATCH (p) WHERE p:MeshPlace` (`p:Room|Building` for two), which the rewrite reads
with `label()`. An OPTIONAL MATCH's such labels are refused
(`optional_paths.refuse_outer_label_tests`).
"""

from __future__ import annotations

from lark import Tree

from dsgqa.dialect.emit import plain_name
from dsgqa.dialect.trees import (
    add_conditions,
    child_of,
    is_optional,
    named_node_patterns,
    tree,
    var,
)

REWRITE = "labels of a bound node->label tests"


def _allowed(labels: Tree) -> Tree:
    """A node pattern's labels as one label expression: by now (`label_expressions.py`)
    several labels are alternatives, or one expression is left as it was written."""
    terms = [t for t in labels.children if isinstance(t, Tree) and t.data != "label_sep"]
    return terms[0] if len(terms) == 1 else tree("label_or", *terms)


def test_labels_of_bound_nodes(root: Tree) -> bool:
    """Rewrite every MATCH under `root` in place (it needs the annotator's `scope_before`);
    whether one changed."""
    changed = False
    for match in [m for m in root.iter_subtrees_topdown() if m.data == "match"]:
        before = getattr(match, "scope_before", None)
        if before is None or is_optional(match):
            continue
        seen = set(before)
        tests: list[Tree] = []
        for node in named_node_patterns(child_of(match, "pattern_list")):
            variable = plain_name(node.children[0])
            labels = child_of(node, "node_labels")
            if labels is not None and variable in seen:
                node.children.remove(labels)
                tests.append(tree("has_label", var(variable), _allowed(labels)))
            seen.add(variable)
        if tests:
            add_conditions(match, tests)
            changed = True
    return changed
