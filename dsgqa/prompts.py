"""Prompt templates for the QA stages, kept as text files beside this module.

The templates' hash is part of every stage's cache key, so editing a prompt invalidates exactly
the stages that use it and nothing else.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from importlib import resources
from typing import Any

from benchcore.llm.base import Message

MAX_ROWS_IN_PROMPT = 200
# One row can be huge (`RETURN collect(x)` over 400k values is a 3 MB cell); the prompt shows at
# most this many characters of rows and says when it cut them.
MAX_ROWS_CHARS = 20_000


@cache
def template(name: str) -> str:
    return resources.files("dsgqa").joinpath(f"prompts/{name}.txt").read_text()


def prompt_hash(*names: str) -> str:
    """Hash of the named templates' text: a cache-key component for the stage using them."""
    digest = hashlib.sha256()
    for name in names:
        digest.update(template(name).encode())
    return digest.hexdigest()[:16]


CYPHER_TEMPLATES = ("cypher_system", "cypher_user")
REFINE_TEMPLATES = ("refine_system", "refine_user", "format_sldp", "format_pddl")
AGENT_TEMPLATES = ("agent_system", "agent_tools", "agent_text", "cypher_user", "format_sldp",
                   "format_pddl")
IN_CONTEXT_TEMPLATES = ("in_context_system", "cypher_user", "format_sldp", "format_pddl")
# What each in-context variant holds, said in the prompt (`dsgqa.in_context` documents both).
IN_CONTEXT_VARIANTS = {
    "compact": "every object with its class, position and room, then every room",
    "full": "every node of every layer, the containment hierarchy and the same-layer "
            "connections",
}


def cypher_messages(question: str, schema: str) -> list[Message]:
    return [
        {"role": "system", "content": template("cypher_system").format(schema=schema)},
        {"role": "user", "content": template("cypher_user").format(question=question)},
    ]


def _answer_format(comparison_type: str) -> str:
    return template("format_pddl" if comparison_type == "PDDL" else "format_sldp")


def agent_messages(
    question: str, schema: str, comparison_type: str, *, native_tools: bool,
    max_iterations: int,
) -> list[Message]:
    """The agent's opening: the schema, how to call tools (API tools or the text protocol),
    the answer format, and the question."""
    protocol = template("agent_tools" if native_tools else "agent_text")
    system = template("agent_system").format(
        schema=schema, protocol=protocol.strip(), max_iterations=max_iterations,
        answer_format=_answer_format(comparison_type).strip())
    return [{"role": "system", "content": system},
            {"role": "user", "content": template("cypher_user").format(question=question)}]


def in_context_messages(
    question: str, graph_text: str, variant: str, comparison_type: str
) -> list[Message]:
    system = template("in_context_system").format(
        variant=variant, variant_note=IN_CONTEXT_VARIANTS[variant], scene_graph=graph_text,
        answer_format=_answer_format(comparison_type).strip())
    return [{"role": "system", "content": system},
            {"role": "user", "content": template("cypher_user").format(question=question)}]


def refine_messages(
    question: str,
    cypher: str,
    status: str,
    columns: list[str],
    rows: list[list[Any]],
    truncated: bool,
    comparison_type: str,
) -> list[Message]:
    answer_format = _answer_format(comparison_type)
    shown = json.dumps(rows[:MAX_ROWS_IN_PROMPT], default=str)
    if len(shown) > MAX_ROWS_CHARS:
        shown, truncated = shown[:MAX_ROWS_CHARS] + " ...", True
    user = template("refine_user").format(
        question=question,
        cypher=cypher or "(none)",
        status=status,
        columns=json.dumps(columns),
        max_rows=MAX_ROWS_IN_PROMPT,
        truncated=f", cut (at most {MAX_ROWS_CHARS} characters shown)" if truncated else "",
        rows=shown,
    )
    return [
        {"role": "system",
         "content": template("refine_system").format(answer_format=answer_format)},
        {"role": "user", "content": user},
    ]
