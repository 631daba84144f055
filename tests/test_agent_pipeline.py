"""The agentic pipeline against a real loopback OpenAI-compatible server speaking the tool-call
wire format (through the openai SDK's own request/response types), on the demo graph in the
default embedded engine."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchcore.llm import CachedClient, LLMError, ModelConfig, ResponseCache
from benchcore.llm.openai_chat import OpenAIChatClient
from benchcore.llm.scripted import ScriptedClient
from benchcore.names import DEFAULT_EMBEDDED_BACKEND
from dsgqa.graphstore import open_graph_store
from dsgqa.questions import load_question_set
from dsgqa.records import CypherAttempt, LLMUsage, QueryOutcome
from dsgqa.scene_graph import load_scene_graph
from dsgqa.stages import compare, run_query
from dsgqa.stages.agent import run_agent
from tests.fake_model import DEMO_GRAPH, DEMO_QUESTIONS
from tests.fake_openai import FakeOpenAIServer, chat_reply, error_reply, tool_call_reply

COUNT = "MATCH (o:Object) RETURN count(o) AS n"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    store = open_graph_store(DEFAULT_EMBEDDED_BACKEND, load_scene_graph(DEMO_GRAPH),
                             db_root=tmp_path_factory.mktemp("graphs"), memory_limit_mb=256)
    yield store
    store.close()


@pytest.fixture(scope="module")
def question():
    """apt01: how many objects (a count)."""
    return load_question_set(DEMO_QUESTIONS).by_uid()["apt01"]


def _runner(store):
    def run(cypher: str) -> QueryOutcome:
        attempt = CypherAttempt(uid="t", model="m", cypher=cypher, raw_reply="",
                                usage=LLMUsage())
        return run_query(store, attempt, timeout_s=10, max_rows=200)
    return run


def _client(server: FakeOpenAIServer, **settings: object) -> OpenAIChatClient:
    return OpenAIChatClient(ModelConfig(name="fake-agent", base_url=server.base_url,
                                        api_key_env="NO_KEY_NEEDED", max_retries=0, timeout_s=10,
                                        **settings))


def _count(store) -> int:
    return store.query(COUNT, timeout_s=10, max_rows=1).rows[0][0]


def _arguments(**values: str) -> str:
    return json.dumps(values)


def test_two_turn_conversation_in_the_tool_call_wire_format(store, question) -> None:
    objects = _count(store)

    def responder(request: dict, n: int):
        if n == 1:
            return tool_call_reply([("run_cypher", _arguments(query=COUNT))])
        return tool_call_reply([("answer", _arguments(answer=str(objects)))])

    with FakeOpenAIServer(responder) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5)
    first, second = server.requests
    assert [t["function"]["name"] for t in first["tools"]] == ["run_cypher", "answer"]
    assistant, tool = second["messages"][-2:]
    assert assistant["tool_calls"][0]["function"] == {"name": "run_cypher",
                                                      "arguments": _arguments(query=COUNT)}
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_0"
    assert json.loads(tool["content"].splitlines()[1])["rows"] == [[objects]]
    assert (run.answer, run.calls, run.stop_reason) == (str(objects), 2, "answered_after_query")
    assert run.usage.tokens == 2 * 18 and len(run.queries) == 1
    assert compare(question, run).correct == (str(objects) == question.solution.strip())
    assert run.transcript[-1]["tool_calls"][0]["function"]["name"] == "answer"


def test_a_write_query_is_refused_and_the_refusal_shown_to_the_model(store, question) -> None:
    before = _count(store)

    def responder(request: dict, n: int):
        if n == 1:
            return tool_call_reply([("run_cypher", _arguments(query="MATCH (n) DETACH DELETE n"))])
        return chat_reply("```\n0\n```")

    with FakeOpenAIServer(responder) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5)
    result = json.loads(server.requests[1]["messages"][-1]["content"])
    assert result["status"] == "error" and result["error_kind"] == "refused"
    assert run.queries[0].query_error_kind == "refused" and not run.queries[0].valid
    assert _count(store) == before              # the graph is untouched
    # a final message, no tool
    assert (run.answer, run.stop_reason) == ("0", "answered_after_query")


def test_max_iterations_ends_the_loop_and_the_item_is_scored(store, question) -> None:
    with FakeOpenAIServer(lambda r, n: tool_call_reply(
            [("run_cypher", _arguments(query=COUNT))])) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=3)
    assert len(server.requests) == 3
    assert (run.calls, run.stop_reason, run.answer) == (3, "max_iterations", "")
    verdict = compare(question, run)
    assert not verdict.correct and not verdict.valid_answer


def test_malformed_tool_calls_are_reported_back_not_raised(store, question) -> None:
    def responder(request: dict, n: int):
        if n == 1:
            return tool_call_reply([("run_cypher", "{not json"), ("drop_graph", "{}"),
                                    ("run_cypher", _arguments(cypher=COUNT))])
        return tool_call_reply([("answer", _arguments(answer="3"))])

    with FakeOpenAIServer(responder) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5)
    results = [m for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in results] == ["call_0", "call_1", "call_2"]
    errors = [json.loads(m["content"]) for m in results]
    assert {e["error_kind"] for e in errors} == {"malformed_call"}
    assert "not JSON" in errors[0]["error"] and "unknown tool 'drop_graph'" in errors[1]["error"]
    assert "needs a string argument 'query'" in errors[2]["error"]
    assert (run.answer, run.queries) == ("3", [])


def test_a_cypher_block_without_a_tool_call_is_an_answer_without_query(store, question) -> None:
    """A server that does not parse tool calls hands the model's query back as text: on the
    tools protocol that text is the answer, told apart and flagged, never a silent NA."""
    with FakeOpenAIServer(lambda r, n: chat_reply(
            f"I will count them.\n```cypher\n{COUNT}\n```")) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5)
    assert (run.calls, run.queries, run.stop_reason) == (1, [], "answered_without_query")
    assert run.cypher_as_text and run.answer == COUNT
    assert not compare(question, run).valid_answer


def test_a_turn_past_the_tool_call_limit_ends_the_loop(store, question) -> None:
    with FakeOpenAIServer(lambda r, n: tool_call_reply(
            [("run_cypher", _arguments(query=COUNT))] * 3)) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5,
                        max_tool_calls=4)
    assert (run.calls, len(run.queries), run.stop_reason) == (2, 4, "tool_call_limit")
    refused = [json.loads(m["content"]) for m in run.transcript[-2:]]
    assert {r["error_kind"] for r in refused} == {"tool_call_limit"}
    assert not compare(question, run).valid_answer


@pytest.mark.parametrize("kind", ["queries", "malformed", "text_blocks"])
def test_a_reply_with_2000_tool_calls_costs_at_most_the_budget(store, question, kind) -> None:
    """A hostile reply of 2,000 calls (queries, malformed calls, or fenced blocks on the text
    protocol): at most `max_tool_calls` are read, run or answered, the loop stops with
    `tool_call_limit`, and the transcript stays short."""
    ran: list[str] = []
    runner = _runner(store)

    def counting(cypher: str) -> QueryOutcome:
        ran.append(cypher)
        return runner(cypher)

    def responder(request: dict, n: int):
        if kind == "queries":
            return tool_call_reply([("run_cypher", _arguments(query=COUNT))] * 2000)
        if kind == "malformed":
            return tool_call_reply([("drop_graph", "{}")] * 2000)
        return chat_reply("\n".join(f"```cypher\n{COUNT}\n```" for _ in range(2000)))

    with FakeOpenAIServer(responder) as server:
        client = _client(server, tool_protocol="text" if kind == "text_blocks" else "tools")
        run = run_agent(question, client, "schema", counting, max_iterations=5,
                        max_tool_calls=10)
    assert (run.calls, run.stop_reason) == (1, "tool_call_limit")
    assert len(ran) == len(run.queries) == (0 if kind == "malformed" else 10)
    assert len(run.transcript) < 20
    assert all(len(m.get("tool_calls", ())) <= 10 for m in run.transcript)
    assert "1990 more tool call(s) in this reply were not read" in run.transcript[-1]["content"]


def test_malformed_calls_count_towards_the_tool_call_budget(store, question) -> None:
    with FakeOpenAIServer(lambda r, n: tool_call_reply([("drop_graph", "{}")] * 3)) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5,
                        max_tool_calls=4)
    assert (run.calls, run.stop_reason) == (2, "tool_call_limit")
    kinds = [json.loads(m["content"])["error_kind"] for m in run.transcript if m["role"] == "tool"]
    assert kinds == ["malformed_call"] * 4 + ["tool_call_limit"] * 2


def test_parallel_tool_calls_in_one_turn_each_get_their_result(store, question) -> None:
    rooms = "MATCH (r:Room) RETURN count(r) AS n"

    def responder(request: dict, n: int):
        if n == 1:
            return tool_call_reply([("run_cypher", _arguments(query=COUNT)),
                                    ("run_cypher", _arguments(query=rooms))])
        return tool_call_reply([("answer", _arguments(answer="1"))])

    with FakeOpenAIServer(responder) as server:
        run = run_agent(question, _client(server), "schema", _runner(store), max_iterations=5)
    results = [m for m in server.requests[1]["messages"] if m["role"] == "tool"]
    assert [m["tool_call_id"] for m in results] == ["call_0", "call_1"]
    counts = [json.loads(m["content"].splitlines()[1])["rows"][0][0] for m in results]
    assert counts == [_count(store), store.query(rooms, timeout_s=10, max_rows=1).rows[0][0]]
    assert [q.cypher for q in run.queries] == [COUNT, rooms]


def test_text_protocol_reads_fenced_cypher_blocks(store, question) -> None:
    def responder(request: dict, n: int):
        if n == 1:
            return chat_reply(f"Let me count.\n```cypher\n{COUNT}\n```")
        return chat_reply("The answer:\n```\n5\n```")

    with FakeOpenAIServer(responder) as server:
        run = run_agent(question, _client(server, tool_protocol="text"), "schema",
                        _runner(store), max_iterations=5)
    assert all("tools" not in r for r in server.requests)
    assert "```cypher" in server.requests[0]["messages"][0]["content"]
    shown = server.requests[1]["messages"][-1]
    assert shown["role"] == "user" and shown["content"].startswith("Result of query 1:")
    assert (run.answer, run.calls, [q.cypher for q in run.queries]) == ("5", 2, [COUNT])


def test_each_turn_is_cached_by_the_conversation_so_far(store, question, tmp_path) -> None:
    cut = {"on": True}

    def responder(request: dict, n: int):
        if len(request["messages"]) == 2:
            return tool_call_reply([("run_cypher", _arguments(query=COUNT))])
        if cut["on"]:                       # the conversation is cut before its second turn
            return error_reply(400, "connection dropped")
        return tool_call_reply([("answer", _arguments(answer="7"))])

    with FakeOpenAIServer(responder) as server:
        client = CachedClient(_client(server), ResponseCache(tmp_path / "llm"))
        with pytest.raises(LLMError):
            run_agent(question, client, "schema", _runner(store), max_iterations=5)
        assert len(server.requests) == 2
        cut["on"] = False
        resumed = run_agent(question, client, "schema", _runner(store), max_iterations=5)
        # Only the missing second turn is asked: the first came from the cache.
        assert [len(r["messages"]) for r in server.requests[2:]] == [4]
        assert (resumed.fresh_calls, resumed.answer, resumed.calls) == (1, "7", 2)
        again = run_agent(question, client, "schema", _runner(store), max_iterations=5)
    assert len(server.requests) == 3                      # a finished conversation: 0 calls
    assert (again.fresh_calls, again.answer) == (0, "7") and again.usage.cached
    assert again.transcript == resumed.transcript


def test_a_scripted_agent_corrects_its_query_after_the_error(store, question) -> None:
    solution = question.solution.strip()
    script = {question.uid: {"agent": [
        {"run_cypher": "MATCH (o:Object RETURN count(o)"},
        {"run_cypher": COUNT},
        {"answer": solution},
    ]}}
    for protocol in ("tools", "text"):
        client = ScriptedClient(ModelConfig(name="s", provider="scripted",
                                            tool_protocol=protocol), script)
        run = run_agent(question, client, "schema", _runner(store), max_iterations=5)
        first, second = run.queries
        assert (first.valid, first.query_error_kind) == (False, "syntax")
        assert second.valid and second.rows == [[_count(store)]]
        assert (run.calls, run.answer, run.stop_reason) == (3, solution, "answered_after_query")
        assert compare(question, run).correct


def test_scripted_turn_numbers_come_from_the_conversation(tmp_path: Path) -> None:
    """A replayed conversation gets the same replies however many calls came before."""
    script = {"q": {"agent": [{"run_cypher": "A"}, {"answer": "B"}]}}
    client = ScriptedClient(ModelConfig(name="s", provider="scripted"), script)
    from benchcore.llm.base import CallContext
    from dsgqa.agent_tools import TOOLS
    opening = [{"role": "system", "content": "x"}, {"role": "user", "content": "q"}]
    first = client.complete(opening, CallContext("q", "agent"), TOOLS)
    assert first.tool_calls[0].name == "run_cypher"
    later = [*opening, first.assistant_message(), {"role": "tool", "tool_call_id": "c",
                                                   "content": "rows"}]
    for _ in range(3):
        assert client.complete(later, CallContext("q", "agent"), TOOLS).tool_calls[0].name \
            == "answer"
        assert client.complete(opening, CallContext("q", "agent"), TOOLS).tool_calls[0].name \
            == "run_cypher"
