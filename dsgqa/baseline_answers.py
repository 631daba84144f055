"""Trivial baselines: what a model scores without understanding the question.

A question set separates models only if guessing scores low on it. Each baseline answers every
question the same trivial way:

- `zero`: `0`, whatever was asked (right for a count of nothing);
- `empty`: nothing found: the empty container of the answer's kind (`<>`, `[]`, `{}`), `<>` for
  a single value, the goal's empty form for a PDDL question (`(and)`, `(or)`) (right for "which
  rooms hold no object?" when every room holds one);
- `ids`: the node IDs the question names (`R1`, `O43`, `P10247`), in the order named, as a set,
  a list, or the one ID, as the answer's kind asks (right for "which place holds O12?" only if
  it names that place);
- `common-class`: the graph's most common object class (ties by name), in the answer's kind.

Like the oracle (`dsgqa.oracle`), a baseline reads the solution's *shape* only, never its values
(the question's own words say the same: "answer with a set of nodeSymbols"), and prints its rows
with the oracle's printers (`rows_to_sldp`, `rows_to_pddl`), so what differs between the oracle
and a baseline is the rows, not the formatting. Only `common-class` reads the graph: with one
fixed query (`COMMON_CLASS_CYPHER`), with a fixed program (`COMMON_CLASS_CODE`), or from the
scene graph text in its prompt (`common_class_in_text`).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from dsgqa.rows_to_pddl import rows_to_pddl
from dsgqa.rows_to_sldp import rows_to_sldp

ZERO, EMPTY, IDS, COMMON_CLASS = "zero", "empty", "ids", "common-class"
BASELINES: tuple[str, ...] = (ZERO, EMPTY, IDS, COMMON_CLASS)

#: A node ID as spark_dsg prints a node symbol: one letter, then the index (R1, O43, P10247).
_NODE_ID = re.compile(r"\b[A-Za-z][0-9]+\b")

COMMON_CLASS_CYPHER = ("MATCH (o:Object) RETURN o.class AS class, count(o) AS objects "
                       "ORDER BY objects DESC, class LIMIT 1")

#: The codegen pipeline's way to the same class: the objects' labelspace (the graph metadata's
#: legacy one beneath it), counted as the harness names classes.
COMMON_CLASS_CODE = '''\
def solve_task(scene_graph):
    from collections import Counter
    names = {int(k): str(v) for k, v in
             ((scene_graph.metadata.get() or {}).get("labelspace") or {}).items()}
    try:
        key = scene_graph.layer_names["OBJECTS"]
        space = scene_graph.get_labelspace(key.layer, key.partition).labels_to_names
        names.update({int(k): str(v) for k, v in space.items()})
    except (KeyError, AttributeError):
        pass
    counts = Counter(names.get(int(n.attributes.semantic_label), "unknown")
                     for n in scene_graph.get_layer("OBJECTS").nodes)
    return min(counts, key=lambda c: (-counts[c], c)) if counts else None
'''

# An object's line in the in-context scene graph text: compact `- (id=O1, class=chair, pos=...,
# room=R1)`, full `- (id=O1, label=Object, class=chair, ...)`.
_COMPACT_OBJECT = re.compile(r"^- \(id=[^,]+, class=([^,)]*), pos=.*, room=", re.MULTILINE)
_FULL_OBJECT = re.compile(r"^- \(id=[^,]+, label=Object, class=([^,)]*)[,)]", re.MULTILINE)


def named_ids(question: str) -> list[str]:
    """The node IDs a question's text names, each once, in the order named."""
    return list(dict.fromkeys(_NODE_ID.findall(question)))


def common_class_in_text(text: str) -> str | None:
    """The most common object class of the scene graph text in a prompt (ties by name)."""
    classes = _FULL_OBJECT.findall(text) or _COMPACT_OBJECT.findall(text)
    return most_common(classes)


def most_common(classes: list[str]) -> str | None:
    counts = Counter(classes)
    return min(counts, key=lambda c: (-counts[c], c)) if counts else None


def common_class_of(rows: list[list[Any]]) -> str | None:
    """The class in the first cell of the rows `COMMON_CLASS_CYPHER` or the code returned."""
    if rows and rows[0] and isinstance(rows[0][0], str):
        return rows[0][0]
    return None


def baseline_answer(baseline: str, question: str, solution: str, pddl: bool,
                    common_class: str | None = None) -> str:
    """The baseline's answer to a question (its text and the solution's shape)."""
    if baseline == ZERO:
        return "0"
    if baseline == EMPTY:
        rows: list[list[Any]] = []
    elif baseline == IDS:
        rows = [[node] for node in named_ids(question)]
    elif baseline == COMMON_CLASS:
        rows = [[common_class]] if common_class else []
    else:
        raise ValueError(f"unknown baseline {baseline!r}: choose from {', '.join(BASELINES)}")
    if pddl:
        return rows_to_pddl(rows, like=solution)
    return rows_to_sldp(["answer"], rows, like=solution)
