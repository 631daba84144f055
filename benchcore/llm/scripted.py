"""A scripted model for tests: replies come from a YAML file keyed by item uid and stage.

File format::

    q01:
      cypher: "MATCH (o:Object) RETURN count(o)"
      refine: "12"
    q02:
      cypher: ["first attempt", "second attempt"]   # successive calls get successive replies
    blocksworld/instance-1:
      plan: ["a first plan", "the plan after feedback"]   # planning: keyed by attempt/turn
    q03:
      agent:                                  # an agent's turns, one per reply
        - run_cypher: "MATCH (o:Objct) RETURN count(o)"    # a tool call (a list: parallel calls)
        - run_cypher: "MATCH (o:Object) RETURN count(o)"
        - answer: "12"                        # or a plain string: a final message

A turn that names tools is sent as tool calls when the call offers tools, and as the text
protocol's fenced block (```cypher ... ```) or plain answer when it does not, so one script serves
both protocols. An agent's turn number is the count of assistant messages so far, so a replayed
conversation gets the same replies whether or not earlier turns came from a cache.

A missing entry answers with an empty string, which the stages score as a failure, exactly as
they would a real model's useless reply.
"""

from __future__ import annotations

import json
import threading
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import yaml

from benchcore.llm.base import (
    CallContext,
    LLMError,
    LLMReply,
    Message,
    ModelConfig,
    ToolCall,
    ToolSpec,
)
from benchcore.yaml_load import load_yaml


def _rough_tokens(text: str) -> int:
    """A whitespace token count, so token columns are non-zero and comparable in tests."""
    return len(text.split())


class ScriptedClient:
    """Replays scripted replies; counts calls per (uid, stage) to walk reply lists."""

    def __init__(self, config: ModelConfig, replies: dict[str, dict[str, object]]):
        self.config = config
        self.replies = replies
        self._calls: dict[tuple[str, str], int] = defaultdict(int)
        self._lock = threading.Lock()

    @classmethod
    def from_file(cls, config: ModelConfig) -> ScriptedClient:
        if not config.script:
            raise LLMError(f"model {config.name}: the scripted provider needs `script: FILE`")
        path = Path(config.script)
        try:
            data = load_yaml(path.read_text()) or {}
        except (OSError, yaml.YAMLError) as error:
            detail = str(error).strip().splitlines()
            raise LLMError(f"{path}: cannot read scripted replies: "
                           f"{detail[0] if detail else type(error).__name__}") from None
        if not isinstance(data, dict):
            raise LLMError(f"{path}: expected a mapping of uid -> stage -> reply")
        return cls(config, data)

    def complete(
        self, messages: list[Message], context: CallContext, tools: Sequence[ToolSpec] = ()
    ) -> LLMReply:
        entry = self.replies.get(context.uid, {}).get(context.stage, "")
        prompt = " ".join(str(m.get("content") or "") for m in messages)
        if context.stage == "agent":
            turn = sum(m.get("role") == "assistant" for m in messages)
            return _agent_reply(entry, turn, bool(tools), _rough_tokens(prompt))
        with self._lock:
            turn = self._calls[(context.uid, context.stage)]
            self._calls[(context.uid, context.stage)] += 1
        # Stages that know which try this is say so; then a reply does not depend on which
        # earlier calls were served from a cache.
        numbered = context.extra.get("attempt") or context.extra.get("turn")
        if isinstance(numbered, int):
            turn = numbered - 1
        if isinstance(entry, list):
            text = str(entry[min(turn, len(entry) - 1)]) if entry else ""
        else:
            text = str(entry)
        return LLMReply(text=text, prompt_tokens=_rough_tokens(prompt),
                        completion_tokens=_rough_tokens(text))


def _agent_reply(entry: object, turn: int, native_tools: bool, prompt_tokens: int) -> LLMReply:
    """Turn `turn` of a scripted agent; past the script's end the last turn repeats."""
    turns = entry if isinstance(entry, list) else [entry]
    step = turns[min(turn, len(turns) - 1)] if turns else ""
    if not isinstance(step, dict):
        text = str(step)
        return LLMReply(text=text, prompt_tokens=prompt_tokens,
                        completion_tokens=_rough_tokens(text))
    calls = [(name, value) for name, values in step.items()
             for value in (values if isinstance(values, list) else [values])]
    if native_tools:
        tool_calls = tuple(
            ToolCall(id=f"call_{turn}_{i}", name=str(name),
                     arguments=value if name == "raw" else json.dumps(_arguments(name, value)))
            for i, (name, value) in enumerate(calls))
        return LLMReply(text="", tool_calls=tool_calls, prompt_tokens=prompt_tokens,
                        completion_tokens=sum(_rough_tokens(c.arguments) for c in tool_calls))
    text = "\n\n".join(f"```cypher\n{value}\n```" if name == "run_cypher" else str(value)
                        for name, value in calls)
    return LLMReply(text=text, prompt_tokens=prompt_tokens, completion_tokens=_rough_tokens(text))


def _arguments(tool: str, value: object) -> dict[str, object]:
    """A scripted call's arguments: a mapping as written, else the tool's one parameter."""
    if isinstance(value, dict):
        return value
    return {"query": value} if tool == "run_cypher" else {"answer": value}
