"""The LLM client layer against a real loopback HTTP server and the on-disk response cache."""

from __future__ import annotations

import socket
import struct
import threading
import time

import pytest

from benchcore.llm import CachedClient, CallContext, LLMError, ModelConfig, ResponseCache
from benchcore.llm.openai_chat import OpenAIChatClient
from benchcore.llm.scripted import ScriptedClient
from tests.fake_openai import FakeOpenAIServer, chat_reply, error_reply

CTX = CallContext(uid="q1", stage="cypher")
MESSAGES = [{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}]


def _config(server: FakeOpenAIServer, **kw: object) -> ModelConfig:
    settings = {"max_retries": 3, "timeout_s": 5, **kw}
    return ModelConfig(name="fake-model", base_url=server.base_url, api_key_env="TEST_LLM_KEY",
                       **settings)


def test_request_shape_and_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    with FakeOpenAIServer(lambda req, n: chat_reply("MATCH (n) RETURN n", 40, 9)) as server:
        reply = OpenAIChatClient(_config(server, temperature=0.3, seed=7)).complete(MESSAGES, CTX)
    assert reply.text == "MATCH (n) RETURN n"
    assert (reply.prompt_tokens, reply.completion_tokens) == (40, 9)
    request = server.requests[0]
    assert request["model"] == "fake-model"
    assert request["messages"] == MESSAGES
    assert request["temperature"] == 0.3 and request["seed"] == 7
    headers = {k.lower(): v for k, v in server.headers[0].items()}
    assert headers["authorization"] == "Bearer sk-secret-123"


def test_429_is_retried_honouring_retry_after() -> None:
    def responder(req: dict, n: int):
        if n == 1:
            return error_reply(429, "slow down", {"Retry-After": "0"})
        return chat_reply("ok")

    with FakeOpenAIServer(responder) as server:
        reply = OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
    assert reply.text == "ok"
    assert len(server.requests) == 2


def test_500_is_retried_then_gives_up_with_one_line() -> None:
    failing = FakeOpenAIServer(lambda req, n: error_reply(500, "boom", {"Retry-After": "0"}))
    with failing as server, pytest.raises(LLMError) as caught:
        OpenAIChatClient(_config(server, max_retries=2)).complete(MESSAGES, CTX)
    assert len(server.requests) == 3  # first try + 2 retries
    assert "HTTP 500" in str(caught.value) and "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("status", "hint"), [(400, "request failed"), (401, "API key"), (404, "unknown model")]
)
def test_client_errors_are_not_retried(status: int, hint: str, monkeypatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    refusing = FakeOpenAIServer(lambda req, n: error_reply(status, "nope"))
    with refusing as server, pytest.raises(LLMError) as caught:
        OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
    assert len(server.requests) == 1
    assert hint in str(caught.value)
    assert "sk-secret-123" not in str(caught.value)


def test_unreachable_endpoint_is_one_clear_line() -> None:
    config = ModelConfig(name="m", base_url="http://127.0.0.1:9/v1", max_retries=0, timeout_s=2)
    with pytest.raises(LLMError, match="cannot reach"):
        OpenAIChatClient(config).complete(MESSAGES, CTX)


def test_response_cache_serves_repeats_and_never_stores_the_key(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("TEST_LLM_KEY", "sk-secret-123")
    with FakeOpenAIServer(lambda req, n: chat_reply(f"reply {n}")) as server:
        config = _config(server)
        first = CachedClient(OpenAIChatClient(config), ResponseCache(tmp_path))
        assert first.complete(MESSAGES, CTX).text == "reply 1"
        # A new process-worth of objects: only the disk cache is shared.
        second = CachedClient(OpenAIChatClient(config), ResponseCache(tmp_path))
        again = second.complete(MESSAGES, CTX)
        other = second.complete([*MESSAGES, {"role": "user", "content": "more"}], CTX)
    assert again.text == "reply 1" and again.cached
    assert other.text == "reply 2" and not other.cached
    assert len(server.requests) == 2
    assert (second.fresh_calls, second.cached_calls) == (1, 1)
    stored = "".join(p.read_text(errors="replace") for p in tmp_path.rglob("*.seg"))
    assert "sk-secret-123" not in stored and "reply 1" in stored


def test_sampling_params_change_the_cache_key() -> None:
    base = ModelConfig(name="m")
    assert ResponseCache.key(base, MESSAGES) != ResponseCache.key(
        base.model_copy(update={"temperature": 0.7}), MESSAGES
    )
    # Transport settings do not change what the model answers.
    assert ResponseCache.key(base, MESSAGES) == ResponseCache.key(
        base.model_copy(update={"max_connections": 2, "timeout_s": 1}), MESSAGES
    )


def test_scripted_client_walks_reply_lists(tmp_path) -> None:
    script = tmp_path / "replies.yaml"
    script.write_text("q1:\n  cypher: [first, second]\n  refine: '3'\n")
    config = ModelConfig(name="s", provider="scripted", script=str(script))
    client = ScriptedClient.from_file(config)
    texts = [client.complete(MESSAGES, CTX).text for _ in range(3)]
    assert texts == ["first", "second", "second"]
    assert client.complete(MESSAGES, CallContext("q1", "refine")).text == "3"
    assert client.complete(MESSAGES, CallContext("q9", "refine")).text == ""


def test_a_lone_surrogate_in_a_reply_is_made_storable(tmp_path) -> None:
    with FakeOpenAIServer(lambda req, n: chat_reply("count: \udcff")) as server:
        client = CachedClient(OpenAIChatClient(_config(server)), ResponseCache(tmp_path))
        reply = client.complete(MESSAGES, CTX)
    assert reply.text == "count: \ufffd"
    reply.text.encode("utf-8")
    assert client.complete(MESSAGES, CTX).text == "count: \ufffd"   # the cached copy too


def test_unusable_cache_entries_are_misses_or_cleaned(tmp_path) -> None:
    cache, config = ResponseCache(tmp_path), ModelConfig(name="m")
    key = cache.key(config, MESSAGES)
    path = tmp_path / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True)
    # Written before replies were cleaned: the surrogate is valid JSON.
    path.write_text('{"text": "\\udcff", "prompt_tokens": 1, "completion_tokens": 1, '
                    '"seconds": 0.1, "cached": false}')
    assert cache.get(key).text == "\ufffd"
    for unusable in ('["not", "a", "reply"]', '{"text": 1, "odd_field": 2}', '{"text": 3}',
                     "\x00\xff"):
        path.write_text(unusable)
        assert cache.get(key) is None, unusable
    path.write_bytes(b"\xff\xfe not utf-8")
    assert cache.get(key) is None


def test_a_key_echoed_by_the_server_never_reaches_the_error(monkeypatch) -> None:
    key = "gw-LAB-0123456789abcdef"
    monkeypatch.setenv("TEST_LLM_KEY", key)
    echo = FakeOpenAIServer(lambda req, n: error_reply(
        401, f"bad key; you sent Authorization: Bearer {key} and api_key={key}"))
    with echo as server, pytest.raises(LLMError) as caught:
        OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
    assert "HTTP 401: bad or missing API key" in str(caught.value)
    assert key not in str(caught.value) and "gw-LAB" not in str(caught.value)


def test_a_timeout_says_so() -> None:
    def slow(req: dict, n: int):
        time.sleep(1.5)
        return chat_reply("late")

    with FakeOpenAIServer(slow) as server, pytest.raises(LLMError) as caught:
        OpenAIChatClient(_config(server, timeout_s=0.5, max_retries=0)).complete(MESSAGES, CTX)
    assert "timed out after 0.5 s" in str(caught.value)
    assert "cannot reach" not in str(caught.value)


class _ResettingEndpoint:
    """Accepts connections and closes them at once: an endpoint that cannot be used."""

    def __init__(self) -> None:
        self.connections = 0
        self._socket = socket.create_server(("127.0.0.1", 0))
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._socket.accept()
            except OSError:
                return
            self.connections += 1
            conn.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            conn.close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._socket.getsockname()[1]}/v1"

    def __enter__(self) -> _ResettingEndpoint:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._socket.close()


def test_a_dead_endpoint_is_not_called_after_n_consecutive_failures() -> None:
    with _ResettingEndpoint() as endpoint:
        url = endpoint.base_url
        config = ModelConfig(name="dead-model", base_url=url, max_retries=1,
                             timeout_s=2, max_consecutive_connection_failures=3)
        client = OpenAIChatClient(config)
        errors = []
        for _ in range(10):
            with pytest.raises(LLMError) as caught:
                client.complete(MESSAGES, CTX)
            errors.append(str(caught.value))
    # The first call with its retry; then, the endpoint suspect, single tries; then none.
    assert endpoint.connections == 2 + 1 + 1
    assert all(f"cannot reach {url}" in e for e in errors)
    assert "not called: 3 consecutive connection failures" in errors[-1]


def test_an_answered_call_closes_the_breaker() -> None:
    from benchcore.llm.breaker import Breaker, EndpointUnavailable

    breaker = Breaker(limit=2)
    breaker.failed("x")
    breaker.answered()                 # alive again: the count starts over
    breaker.failed("x")
    breaker.check()
    breaker.failed("cannot reach u")
    with pytest.raises(EndpointUnavailable, match="cannot reach u"):
        breaker.check()
    never = Breaker(limit=0)           # 0: never stop calling
    for _ in range(10):
        never.failed("x")
    never.check()


def test_openai_endpoint_without_a_key_fails_at_once(monkeypatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(LLMError, match=r"no API key for api.openai.com: set \$OPENAI_API_KEY"):
        OpenAIChatClient(ModelConfig(name="oracle"))
    OpenAIChatClient(ModelConfig(name="local", base_url="http://127.0.0.1:9/v1"))  # keyless ok


@pytest.mark.parametrize("body", [
    {"choices": []},
    {"choices": [{"message": None}]},
    {"choices": [{"message": {"content": None}}], "usage": {"prompt_tokens": "many"}},
    {"choices": "odd", "usage": []},
])
def test_a_malformed_reply_is_an_empty_answer_not_a_crash(body: dict) -> None:
    with FakeOpenAIServer(lambda req, n: (200, body, {})) as server:
        reply = OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
    assert (reply.text, reply.prompt_tokens, reply.completion_tokens) == ("", 0, 0)


def test_a_429_without_retry_after_waits_before_the_retry() -> None:
    """The SDK's schedule: the first retry waits about 0.5 s (urllib3 alone would retry at
    once, answering a rate limit with another request the same moment)."""
    def responder(req: dict, n: int):
        return error_reply(429, "slow down") if n == 1 else chat_reply("ok")

    with FakeOpenAIServer(responder) as server:
        started = time.monotonic()
        reply = OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
        waited = time.monotonic() - started
    assert reply.text == "ok" and len(server.requests) == 2
    assert waited >= 0.375   # 0.5 s less the jitter of at most a quarter


def test_the_retry_policy_reads_retry_after_as_the_sdk_did() -> None:
    from email.utils import formatdate

    from benchcore.llm.http_pool import RETRIED_STATUSES, RetryPolicy

    assert RetryPolicy.retry_after_s("2") == 2 and RetryPolicy.retry_after_s("0.25") == 0.25
    in_ten = RetryPolicy.retry_after_s(formatdate(time.time() + 10, usegmt=True))
    assert 8 <= in_ten <= 10                      # an HTTP date
    for absent in ("3600", "soon", "-1", "0", "", None):   # over a minute, malformed, none
        assert RetryPolicy.retry_after_s(absent) == 0
    assert 0.375 <= RetryPolicy.backoff_s(1) <= 0.5 and 0.75 <= RetryPolicy.backoff_s(2) <= 1
    assert 6 <= RetryPolicy.backoff_s(30) <= 8   # doubling stops at 8 s
    assert 429 in RETRIED_STATUSES and 503 in RETRIED_STATUSES and 408 in RETRIED_STATUSES
    assert 400 not in RETRIED_STATUSES and 404 not in RETRIED_STATUSES


def test_the_proxy_variables_are_honoured(monkeypatch: pytest.MonkeyPatch) -> None:
    from benchcore.llm.http_pool import endpoint_for

    monkeypatch.setenv("https_proxy", "http://proxy.example:3128")
    monkeypatch.setenv("no_proxy", "internal.example")
    through = endpoint_for("m", "https://api.example/v1", 7, {}, 60)
    direct = endpoint_for("m", "https://internal.example/v1", 7, {}, 60)
    assert through.proxy == "http://proxy.example:3128"
    assert direct.proxy is None


def test_an_http_endpoint_behind_a_proxy_is_asked_through_it(monkeypatch) -> None:
    """The proxy gets the absolute URL (not a path meant for the endpoint) and the
    credentials written in the proxy variable."""
    import base64

    with FakeOpenAIServer(lambda req, n: chat_reply("via proxy")) as proxy:
        port = proxy.base_url.split(":")[2].split("/")[0]
        monkeypatch.setenv("http_proxy", f"http://lab%20user:p%40ss@127.0.0.1:{port}")
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        config = ModelConfig(name="behind-proxy", base_url="http://vllm.internal:8000/v1")
        reply = OpenAIChatClient(config).complete(MESSAGES, CTX)
    assert reply.text == "via proxy"
    assert proxy.paths == ["http://vllm.internal:8000/v1/chat/completions"]
    sent = {k.lower(): v for k, v in proxy.headers[0].items()}
    assert sent["proxy-authorization"] == "Basic " + base64.b64encode(b"lab user:p@ss").decode()


@pytest.mark.parametrize("retry_after", ["1.5", "soon", "-3", "86400"])
def test_any_retry_after_gets_a_retry_not_an_error(retry_after: str) -> None:
    """Fractions are waited for; malformed, negative or over-a-minute values mean the
    backoff, as the SDK read them (urllib3 alone raised on the first)."""
    def responder(req: dict, n: int):
        return error_reply(429, "slow", {"Retry-After": retry_after}) if n == 1 \
            else chat_reply("ok")

    with FakeOpenAIServer(responder) as server:
        started = time.monotonic()
        reply = OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
        waited = time.monotonic() - started
    assert reply.text == "ok" and len(server.requests) == 2
    assert waited >= (1.5 if retry_after == "1.5" else 0.375) and waited < 5


def test_openai_base_url_is_where_a_model_without_base_url_goes(monkeypatch) -> None:
    with FakeOpenAIServer(lambda req, n: chat_reply("from the gateway")) as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
        monkeypatch.delenv("OPENAI_API_KEY", raising=False)   # a keyless gateway is fine
        reply = OpenAIChatClient(ModelConfig(name="via-env")).complete(MESSAGES, CTX)
    assert reply.text == "from the gateway" and len(server.requests) == 1


def test_one_pool_per_endpoint_keeps_connections_alive() -> None:
    with FakeOpenAIServer(lambda req, n: chat_reply(f"reply {n}")) as server:
        client = OpenAIChatClient(_config(server))
        again = OpenAIChatClient(_config(server))
        for _ in range(3):
            client.complete(MESSAGES, CTX)
            again.complete(MESSAGES, CTX)
        assert client._endpoint is again._endpoint
        other = OpenAIChatClient(_config(server).model_copy(update={"name": "other-model"}))
        assert other._endpoint is not client._endpoint   # each model its own max_connections
        assert client._endpoint.connections_made == 1 and len(server.requests) == 6


def test_idle_connections_are_closed_at_the_end_of_a_run_and_reopened_on_demand() -> None:
    """A process that runs many flows must not keep every run's connections (and their
    descriptors) open; the endpoint connects again when a later run calls it."""
    import os

    from benchcore.llm.http_pool import close_idle_connections

    def descriptors() -> int:
        return len(os.listdir("/proc/self/fd"))

    with FakeOpenAIServer(lambda req, n: chat_reply(f"reply {n}")) as server:
        config = _config(server).model_copy(update={"name": "closing", "max_connections": 4})
        client = OpenAIChatClient(config)
        before = descriptors()
        threads = [threading.Thread(target=client.complete, args=(MESSAGES, CTX))
                   for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        opened, made = descriptors(), client._endpoint.connections_made
        assert made >= 1 and opened > before
        assert close_idle_connections() >= made and client._endpoint._idle == []
        assert descriptors() <= opened - made     # a socket (and more) per connection
        assert client.complete(MESSAGES, CTX).text.startswith("reply")
        assert client._endpoint.connections_made == made + 1


@pytest.mark.parametrize(("base_url", "says"), [
    ("localhost:8000/v1", "must be an http:// or https:// URL with a host"),
    ("http://localhost:99999/v1", "not a URL: Port out of range"),
])
def test_a_base_url_the_client_cannot_use_is_a_config_error(tmp_path, base_url, says) -> None:
    from benchcore.run_config import ConfigError, load_config

    path = tmp_path / "run.yaml"
    path.write_text(f"models: [{{name: m, base_url: '{base_url}'}}]\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert str(caught.value).startswith(f"{path}:1: field models.0.base_url: {says}")
    assert "\n" not in str(caught.value)


def test_a_redirect_is_an_error_not_a_reply() -> None:
    moved = FakeOpenAIServer(lambda req, n: (307, {"error": {"message": "moved"}},
                                             {"Location": "http://127.0.0.1:9/v1"}))
    with moved as server, pytest.raises(LLMError, match="HTTP 307: request failed: moved"):
        OpenAIChatClient(_config(server)).complete(MESSAGES, CTX)
    assert len(server.requests) == 1


def test_https_verifies_the_server_against_the_trusted_certificates(tmp_path, monkeypatch) -> None:
    """certifi's bundle by default, so a self-signed server is refused in one line; trusted
    once `SSL_CERT_FILE` names its certificate (an internal CA), as with the SDK."""
    from tests.fake_openai import self_signed_tls

    tls, certificate = self_signed_tls(tmp_path)
    with FakeOpenAIServer(lambda req, n: chat_reply("over tls"), tls=tls) as server:
        monkeypatch.delenv("SSL_CERT_FILE", raising=False)
        untrusted = _config(server, max_retries=0).model_copy(update={"name": "untrusted"})
        refused = r"cannot reach https://localhost:\d+/v1 \(SSL certificate .*self-signed"
        with pytest.raises(LLMError, match=refused):
            OpenAIChatClient(untrusted).complete(MESSAGES, CTX)
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
        trusted = _config(server).model_copy(update={"name": "trusted"})
        reply = OpenAIChatClient(trusted).complete(MESSAGES, CTX)
    assert reply.text == "over tls"


def test_a_reply_that_cannot_be_read_is_not_a_dead_endpoint() -> None:
    """A body that does not decode came from a live server: one clear line, and the breaker
    does not count it as a connection failure."""
    from benchcore.llm.breaker import breaker_for

    garbled = FakeOpenAIServer(lambda req, n: (200, {"not": "gzip"}, {"Content-Encoding": "gzip"}))
    with garbled as server, pytest.raises(LLMError, match="could not be read") as caught:
        config = _config(server).model_copy(update={"name": "garbled-model"})
        OpenAIChatClient(config).complete(MESSAGES, CTX)
    assert "cannot reach" not in str(caught.value) and "\n" not in str(caught.value)
    assert not breaker_for(config).suspect


def test_an_https_proxy_is_checked_against_the_trusted_certificates(tmp_path, monkeypatch) -> None:
    """TLS to the proxy itself uses `SSL_CERT_FILE` too (a proxy of an internal CA)."""
    from tests.fake_openai import self_signed_tls

    tls, certificate = self_signed_tls(tmp_path)
    with FakeOpenAIServer(lambda req, n: chat_reply("via tls proxy"), tls=tls) as proxy:
        monkeypatch.setenv("http_proxy", proxy.base_url.removesuffix("/v1"))
        monkeypatch.delenv("no_proxy", raising=False)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.setenv("SSL_CERT_FILE", str(certificate))
        config = ModelConfig(name="behind-tls-proxy", base_url="http://vllm.internal:8000/v1",
                             max_retries=0)
        reply = OpenAIChatClient(config).complete(MESSAGES, CTX)
    assert reply.text == "via tls proxy"
    assert proxy.paths == ["http://vllm.internal:8000/v1/chat/completions"]


def test_python_decides_which_hosts_bypass_the_proxy(monkeypatch) -> None:
    """libcurl would read `no_proxy` again in its own way (CIDR ranges, which Python does not
    read): the decision made in Python is the one that holds."""
    with FakeOpenAIServer(lambda req, n: chat_reply("via proxy")) as proxy:
        monkeypatch.setenv("http_proxy", proxy.base_url.removesuffix("/v1"))
        monkeypatch.setenv("no_proxy", "127.0.0.0/8")
        monkeypatch.delenv("NO_PROXY", raising=False)
        config = ModelConfig(name="cidr", base_url="http://127.0.0.2:9/v1", max_retries=0)
        assert OpenAIChatClient(config).complete(MESSAGES, CTX).text == "via proxy"


@pytest.mark.parametrize("proxy", ["ftp://proxy.example:21", "http://[::1"])
def test_a_proxy_the_client_cannot_use_fails_when_the_client_is_made(proxy, monkeypatch) -> None:
    monkeypatch.setenv("https_proxy", proxy)
    monkeypatch.delenv("no_proxy", raising=False)
    monkeypatch.delenv("NO_PROXY", raising=False)
    with pytest.raises(LLMError, match=r"cannot use the proxy for https://api\.example/v1"):
        OpenAIChatClient(ModelConfig(name="p", base_url="https://api.example/v1"))


def test_only_the_final_answers_headers_count() -> None:
    """An interim 100 or a proxy's CONNECT answer comes first; its Retry-After is not the
    endpoint's."""
    from benchcore.llm.http_pool import Answer, RetryPolicy

    answer = Answer(429, b"", (b"HTTP/1.1 100 Continue\r\n", b"Retry-After: 7\r\n", b"\r\n",
                               b"HTTP/1.1 429 Too Many Requests\r\n", b"Content-Length: 0\r\n"))
    assert answer.header("retry-after") is None
    later = Answer(429, b"", (*answer.header_lines, b"retry-after: 2\r\n"))
    assert later.header("Retry-After") == "2"
    assert RetryPolicy.retry_after_s("Mon, 1 Jan 99999999999 00:00:00 GMT") == 0   # overflow


def test_an_idle_connection_keeps_no_request_or_reply() -> None:
    """64 idle handles per model must not hold 64 prompts and replies."""
    import gc
    import json
    import sys
    import time
    import tracemalloc

    from benchcore.llm.http_pool import endpoint_for

    with FakeOpenAIServer(lambda req, n: chat_reply("x" * 2_000_000)) as server:
        endpoint = endpoint_for("idle", server.base_url + "/chat/completions", 2, {}, 10)
        body = json.dumps({"model": "idle", "messages": MESSAGES}).encode() + b" " * 100_000
        before = sys.getrefcount(body)
        tracemalloc.start()
        try:
            answer = endpoint.post(body)
            assert answer.status == 200 and len(answer.body) > 2_000_000
            del answer
            # The fake server's handler thread frees its own copy of the reply when it returns,
            # which on a loaded machine may come after the client is done: wait for it.
            deadline = time.monotonic() + 5.0
            while True:
                gc.collect()
                held, _ = tracemalloc.get_traced_memory()
                if held < 500_000 or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
        finally:
            tracemalloc.stop()
    assert sys.getrefcount(body) == before    # the request body is let go
    assert held < 500_000                     # and so is the 2 MB reply


@pytest.mark.parametrize("where", ["models.0.base_url", "qa.neo4j_uri"])
def test_credentials_in_a_configured_url_are_refused_and_never_repeated(tmp_path,
                                                                        where) -> None:
    """A password in a URL would be stored in config.json and the flow's parameters:
    credentials come from the environment; the error does not repeat the URL."""
    from benchcore.run_config import ConfigError, load_config

    path = tmp_path / "run.yaml"
    url = {"models.0.base_url": "http://alice:Pa55-w0rd-xyz@llm.lab:8000/v1",
           "qa.neo4j_uri": "neo4j://neo:Pa55-w0rd-xyz@db.lab:7687"}[where]
    model = f"{{name: m, base_url: '{url}'}}" if where.startswith("models") else "{name: m}"
    qa = f"qa: {{questions: q.yaml, scene_graph: g.json, neo4j_uri: '{url}'}}\n" \
        if where.startswith("qa") else ""
    path.write_text(f"models: [{model}]\n{qa}")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    line = 2 if where.startswith("qa") else 1
    assert str(caught.value).startswith(f"{path}:{line}: field {where}: holds credentials")
    assert "Pa55" not in str(caught.value) and "alice" not in str(caught.value)


def test_credentials_from_openai_base_url_work_and_are_masked_in_errors(monkeypatch) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://alice:Pa55-w0rd-xyz@127.0.0.1:9/v1")
    config = ModelConfig(name="m", max_retries=0, timeout_s=2,
                         max_consecutive_connection_failures=0)
    with pytest.raises(LLMError) as caught:
        OpenAIChatClient(config).complete(MESSAGES, CTX)
    assert "cannot reach http://***@127.0.0.1:9/v1" in str(caught.value)
    assert "Pa55" not in str(caught.value) and "alice" not in str(caught.value)


def test_a_key_sent_over_plain_http_to_another_host_is_warned_about_once(
    monkeypatch, caplog,
) -> None:
    from benchcore.llm.plain_http import plain_http_key_warning, warn_plain_http_key

    monkeypatch.setenv("TEST_LLM_KEY", "sk-lab-0123456789")
    remote = ModelConfig(name="m", base_url="http://llm.lab.example:8000/v1",
                         api_key_env="TEST_LLM_KEY")
    said = warn_plain_http_key(remote)
    assert said is not None and "sent unencrypted to llm.lab.example" in said
    assert "$TEST_LLM_KEY" in said and "0123456789" not in said
    assert warn_plain_http_key(remote) is None                     # once
    caplog.clear()
    with caplog.at_level("WARNING", logger="benchcore.llm"):
        OpenAIChatClient(remote)
    assert "unencrypted" not in caplog.text
    for quiet in ("https://llm.lab.example/v1", "http://127.0.0.1:8000/v1",
                  "http://localhost:8000/v1", "http://[::1]:8000/v1"):
        assert plain_http_key_warning(remote.model_copy(update={"base_url": quiet})) is None
    monkeypatch.delenv("TEST_LLM_KEY")
    assert plain_http_key_warning(remote) is None                   # no key, nothing sent
