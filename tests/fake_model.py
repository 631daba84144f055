"""A 'model' behind the loopback OpenAI-compatible server that knows the demo questions'
reference Cypher and solutions (found by the question text in the prompt), with optional
faults: refusals (400), 429 every k-th request, 500 every m-th, added latency."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import yaml

from benchcore.llm.base import ModelConfig, ToolSpec
from benchcore.llm.cache import ResponseCache
from tests.conftest import PROJECT_ROOT
from tests.fake_openai import FakeOpenAIServer, Reply, chat_reply, error_reply, tool_call_reply

DEMO_QUESTIONS = PROJECT_ROOT / "questions/demo/apartment_questions.yaml"
DEMO_GRAPH = PROJECT_ROOT / "questions/demo/apartment_dsg.json"


def demo_subset(tmp_path: Path, uids: set[str] | None = None) -> tuple[Path, dict[str, dict]]:
    """A question file with some of the demo questions; returns its path and uid -> question."""
    questions = yaml.safe_load(DEMO_QUESTIONS.read_text())["questions"]
    keep = [q for q in questions if uids is None or q["uid"] in uids]
    path = tmp_path / "questions.yaml"
    path.write_text(yaml.safe_dump({"questions": keep}))
    return path, {q["uid"]: q for q in keep}


class ReferenceModel:
    """Callable responder for FakeOpenAIServer; counts answered (200) requests per prompt."""

    def __init__(self, questions: dict[str, dict], refuse: set[str] = frozenset(),
                 latency_s: float = 0.0, every_429: int = 0, every_500: int = 0) -> None:
        self.questions = questions
        self.refuse = set(refuse)
        self.latency_s = latency_s
        self.every_429, self.every_500 = every_429, every_500
        self.answered: dict[str, int] = {}
        self.faults = 0
        self.in_flight = self.max_in_flight = 0
        self._lock = threading.Lock()

    def __call__(self, request: dict, n: int) -> Reply:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            if self.latency_s:
                time.sleep(self.latency_s)
        finally:
            with self._lock:
                self.in_flight -= 1
        if self.every_429 and n % self.every_429 == 0:
            return self._fault(429, "rate limited")
        if self.every_500 and n % self.every_500 == 0:
            return self._fault(500, "overloaded")
        prompt = request["messages"][-1]["content"]
        stage = "cypher" if request["messages"][0]["content"].startswith("You translate") \
            else "refine"
        for uid, q in self.questions.items():
            if q["question"] in prompt:
                if uid in self.refuse:
                    return error_reply(400, "context length exceeded")
                with self._lock:
                    key = f"{uid}/{stage}"
                    self.answered[key] = self.answered.get(key, 0) + 1
                if stage == "cypher":
                    return chat_reply(f"Here you go:\n```cypher\n{q['cypher']}\n```")
                return chat_reply(f"Answer: {q['solution']}")
        return chat_reply("no idea")


    def _fault(self, status: int, message: str) -> Reply:
        with self._lock:
            self.faults += 1
        return error_reply(status, message, {"Retry-After": "0"})


class ReferenceAgent:
    """An agent behind the loopback server: turn 1 calls `run_cypher` with the question's
    reference query, turn 2 answers with the solution. Records (uid, turn) per request in
    `asked`, and the request itself beside it in `requests`."""

    def __init__(self, questions: dict[str, dict], latency_s: float = 0.0) -> None:
        self.questions = questions
        self.latency_s = latency_s
        self.asked: list[tuple[str, int]] = []
        self.requests: list[dict] = []
        self._lock = threading.Lock()

    def __call__(self, request: dict, n: int) -> Reply:
        messages = request["messages"]
        uid, q = next(((u, q) for u, q in self.questions.items()
                       if q["question"] in messages[1]["content"]), ("?", {}))
        turn = 1 + sum(m["role"] == "assistant" for m in messages)
        with self._lock:
            self.asked.append((uid, turn))
            self.requests.append(request)
        if self.latency_s:
            time.sleep(self.latency_s)
        if turn == 1:
            return tool_call_reply([("run_cypher", json.dumps({"query": q.get("cypher", "")}))])
        return tool_call_reply([("answer", json.dumps({"answer": q.get("solution", "")}))])


def cached_asks(recorder: ReferenceAgent | ReferenceCoder, model: ModelConfig,
                cache_dir: Path) -> set[tuple[str, object]]:
    """The requests a fake model recorded (its `asked` entries) whose replies the response
    cache at `cache_dir` holds: a kill -9 test tells by it which replies reached the cache
    before the kill (a reply the server sent may not have)."""
    with recorder._lock:   # `asked` and `requests` grow together under it
        pairs = list(zip(recorder.asked, recorder.requests, strict=True))
    cache = ResponseCache(cache_dir)
    return {asked for asked, request in pairs if cache.get(ResponseCache.key(
        model, request["messages"],
        [ToolSpec(**tool["function"]) for tool in request.get("tools", [])])) is not None}


def serve(model: ReferenceModel | ReferenceAgent | ReferenceCoder) -> FakeOpenAIServer:
    return FakeOpenAIServer(model)


def loopback_model(name: str, server: FakeOpenAIServer) -> ModelConfig:
    """A model behind the loopback server as a kill -9 test wants it: no key, two connections,
    quick retries."""
    return ModelConfig(name=name, base_url=server.base_url, api_key_env="NO_KEY_NEEDED",
                       max_retries=2, timeout_s=10, max_connections=2)


class ChattyModel:
    """A mid-size chat model behind a server without a tool-call parser, as a new user meets
    one: it writes each query in a fence after a sentence, wraps every other answer in prose,
    gets some queries wrong, and, as an agent offered tools, writes its query as a fenced
    ```cypher block in plain text (the server passes no tool call) for all but every third
    question, which call the tool properly.

    Per question (index `i` in the set): the query is broken (not Cypher) when
    `i % 4 == 3`; the refine answer is prose ("The answer is X.") when `i % 2 == 0`, bare
    SLDP otherwise, and "I cannot tell from these rows." after a broken query. Everything is
    a pure function of the request, so a rerun asks nothing new."""

    BROKEN = "MATCH (o:Object RETURN count(o)"

    def __init__(self, questions: dict[str, dict]) -> None:
        self.questions = questions
        self.index = {uid: i for i, uid in enumerate(questions)}

    def _find(self, text: str) -> tuple[str, dict]:
        return next(((u, q) for u, q in self.questions.items() if q["question"] in text),
                    ("?", {}))

    def __call__(self, request: dict, n: int) -> Reply:
        messages = request["messages"]
        if "tools" in request:
            return self._agent(messages)
        uid, q = self._find(messages[-1]["content"])
        i = self.index.get(uid, 0)
        if messages[0]["content"].startswith("You translate"):
            query = self.BROKEN if i % 4 == 3 else q.get("cypher", "")
            return chat_reply(f"This query answers it:\n```cypher\n{query}\n```\n"
                              "It matches the nodes and returns the result.")
        if i % 4 == 3:
            return chat_reply("I cannot tell from these rows.")
        solution = str(q.get("solution", "")).strip()
        return chat_reply(f"The answer is {solution}." if i % 2 == 0 else solution)

    def _agent(self, messages: list[dict]) -> Reply:
        uid, q = self._find(messages[1]["content"])
        if self.index.get(uid, 0) % 3:
            return chat_reply(f"Let me query the graph.\n```cypher\n{q.get('cypher', '')}\n```")
        if not any(m["role"] == "tool" for m in messages):
            return tool_call_reply([("run_cypher", json.dumps({"query": q.get("cypher", "")}))])
        return tool_call_reply([("answer", json.dumps({"answer": q.get("solution", "")}))])


class ReferenceCoder:
    """A coding model behind the loopback server: asked for code, it replies with the demo
    question's hand-written `code:` solution; asked to refine, with the solution. Records
    (uid, stage) per request in `asked`, and the request itself beside it in `requests`
    (`cached_asks` finds its reply in the response cache)."""

    CODE_PROMPT = "You answer questions about a robot's 3D scene graph by writing ONE Python"

    def __init__(self, questions: dict[str, dict], latency_s: float = 0.0) -> None:
        self.questions = questions
        self.latency_s = latency_s
        self.asked: list[tuple[str, str]] = []
        self.requests: list[dict] = []
        self._lock = threading.Lock()

    def __call__(self, request: dict, n: int) -> Reply:
        messages = request["messages"]
        stage = "code" if messages[0]["content"].startswith(self.CODE_PROMPT) else "refine"
        uid, q = next(((u, q) for u, q in self.questions.items()
                       if q["question"] in messages[-1]["content"]), ("?", {}))
        with self._lock:
            self.asked.append((uid, stage))
            self.requests.append(request)
        if self.latency_s:
            time.sleep(self.latency_s)
        if stage == "code":
            return chat_reply(f"```python\n{q.get('code', '')}\n```")
        return chat_reply(f"Answer: {q.get('solution', '')}")
