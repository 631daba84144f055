"""The codegen pipeline's prompts: what the model is told about spark_dsg and the loaded graph
(generate-code), and how it turns the code's result into the answer (refine).

The API description is written by hand and kept short (a model needs the calls that reach
nodes, their hierarchy and attributes, not the whole binding); `API_NAMES` lists every
`Type.member` it mentions, and a test checks each exists in the installed spark_dsg, so the
prompt never advertises a call the sandbox would not have.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from benchcore.llm.base import Message
from dsgqa.prompts import MAX_ROWS_CHARS, _answer_format, template

CODE_TEMPLATES = ("code_system", "cypher_user")
REFINE_CODE_TEMPLATES = ("refine_system", "refine_code_user", "format_sldp", "format_pddl")
API_NAMES: tuple[str, ...] = (
    "DynamicSceneGraph.layer_names", "DynamicSceneGraph.get_layer", "DynamicSceneGraph.nodes",
    "DynamicSceneGraph.edges", "DynamicSceneGraph.get_node", "DynamicSceneGraph.has_node",
    "DynamicSceneGraph.get_labelspace", "Labelspace.get_category", "Labelspace.labels_to_names",
    "LayerKey.layer", "LayerKey.partition", "LayerView.nodes", "LayerView.edges",
    "LayerView.num_nodes", "LayerView.get_node", "SceneGraphNode.id", "SceneGraphNode.layer",
    "SceneGraphNode.attributes", "SceneGraphNode.parents", "SceneGraphNode.children",
    "SceneGraphNode.siblings", "SceneGraphNode.get_parent", "NodeSymbol.str",
    "NodeSymbol.category", "NodeSymbol.category_id", "SceneGraphEdge.source",
    "SceneGraphEdge.target", "NodeAttributes.position", "SemanticNodeAttributes.semantic_label",
    "SemanticNodeAttributes.name", "SemanticNodeAttributes.bounding_box",
    "BoundingBox.world_P_center", "BoundingBox.dimensions",
)
# Class names listed per layer in the prompt, at most (a real labelspace can hold hundreds).
MAX_CLASSES = 60


def code_messages(question: str, graph_text: str) -> list[Message]:
    return [
        {"role": "system", "content": template("code_system").format(graph=graph_text)},
        {"role": "user", "content": template("cypher_user").format(question=question)},
    ]


def refine_code_messages(question: str, code: str, status: str, result: str,
                         comparison_type: str) -> list[Message]:
    truncated = ""
    if len(result) > MAX_ROWS_CHARS:
        result, truncated = result[:MAX_ROWS_CHARS] + " ...", f", cut at {MAX_ROWS_CHARS} chars"
    user = template("refine_code_user").format(question=question, code=code or "(none)",
                                               status=status, result=result or "(none)",
                                               truncated=truncated)
    return [{"role": "system", "content": template("refine_system").format(
                answer_format=_answer_format(comparison_type))},
            {"role": "user", "content": user}]


@lru_cache(maxsize=8)
def graph_description(path: str) -> str:
    """The loaded graph's layers as the model will see them: name, key, node count, attribute
    names and the class names of its labelspace (loaded here with the same spark_dsg the
    sandbox runs; the file is the run's own input, not model output)."""
    import spark_dsg

    graph = spark_dsg.DynamicSceneGraph.load(path)
    lines = []
    for name, key in sorted(graph.layer_names.items(), key=lambda i: (i[1].layer,
                                                                       str(i[1].partition))):
        layer = graph.get_layer(name)
        count = layer.num_nodes()
        first = next(iter(layer.nodes), None)
        attributes = _attribute_names(first.attributes) if first is not None else []
        lines.append(f"- {name}: get_layer({json.dumps(name)}), key {key}, {count} nodes"
                     + (f"; attributes: {', '.join(attributes)}" if attributes else ""))
        classes = _classes(graph, key) if count else []
        if classes:
            shown = classes[:MAX_CLASSES]
            more = f" (and {len(classes) - len(shown)} more)" if len(classes) > len(shown) else ""
            lines.append(f"  classes: {', '.join(shown)}{more}")
    return "\n".join(lines)


def _attribute_names(attributes: Any) -> list[str]:
    return sorted(n for n in dir(attributes) if not n.startswith("_") and not n.isupper()
                  and not callable(getattr(attributes, n, None)))


def _classes(graph: Any, key: Any) -> list[str]:
    """By key: `get_labelspace(name)` finds none in spark_dsg 1.1 files."""
    try:
        names = graph.get_labelspace(key.layer, key.partition).labels_to_names
    except Exception:   # a layer without a labelspace (agents) lists none
        return []
    return [str(v) for _, v in sorted(dict(names).items())]
