"""A scripted model for tests: replies come from a YAML file keyed by item uid and stage.

File format::

    q01:
      cypher: "MATCH (o:Object) RETURN count(o)"
      refine: "12"
    q02:
      cypher: ["first attempt", "second attempt"]   # successive calls get successive replies
    blocksworld/instance-1:
      plan: ["a first plan", "the plan after feedback"]   # planning: keyed by attempt/turn

A missing entry answers with an empty string, which the stages score as a failure, exactly as
they would a real model's useless reply.
"""

from __future__ import annotations

import threading
from collections import defaultdict
from pathlib import Path

import yaml

from benchcore.llm.base import CallContext, LLMError, LLMReply, Message, ModelConfig


def _rough_tokens(text: str) -> int:
    """A whitespace token count, so token columns are non-zero and comparable in tests."""
    return len(text.split())


class ScriptedClient:
    """Replays scripted replies; counts calls per (uid, stage) to walk reply lists."""

    def __init__(self, config: ModelConfig, replies: dict[str, dict[str, str | list[str]]]):
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
            data = yaml.safe_load(path.read_text()) or {}
        except (OSError, yaml.YAMLError) as error:
            raise LLMError(f"{path}: cannot read scripted replies: {error}") from None
        if not isinstance(data, dict):
            raise LLMError(f"{path}: expected a mapping of uid -> stage -> reply")
        return cls(config, data)

    def complete(self, messages: list[Message], context: CallContext) -> LLMReply:
        entry = self.replies.get(context.uid, {}).get(context.stage, "")
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
        prompt = " ".join(m["content"] for m in messages)
        return LLMReply(text=text, prompt_tokens=_rough_tokens(prompt),
                        completion_tokens=_rough_tokens(text))
