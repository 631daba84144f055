"""The HTTP side of OpenAI-compatible calls: a pool of libcurl handles per model and endpoint
(pycurl), and the retry policy.

Why libcurl: every LLM call of a stage runs on one of the harness's threads, and what a call
does in Python holds the GIL. Against the loopback fake with 0.05 s replies and 2 x 64 threads
on this project's 2-core machine (`benchmarks/bench_llm_transport.py`, CPU of the calling
process per call):
- the openai SDK (httpx) cost 2.0-2.7 ms and reached a fifth of the ideal 2,560 calls/s;
- a urllib3 pool cost 0.46-0.50 ms (a third of it http.client's header parsing through the
  `email` package) and reached 80-85%; with the harness's own work on top, a 5,000-question
  run stayed near half the ideal rate;
- libcurl does the request, the reply and the connection in C with the GIL released: the
  client on it costs 0.15-0.20 ms and reaches 96-97% of the ideal, as fast as the fake server
  itself answers.

What the SDK's retry loop did, `RetryPolicy` and `send` do: refused and dropped connections,
timeouts, TLS and proxy failures, 408/409/429 and 5xx answers get another try after an
exponential backoff with jitter (0.5 s doubling to 8 s, as the SDK); `Retry-After` is honoured
as the SDK read it (fractions too; a malformed one, or one over 60 s, means the backoff); when
the retries run out the last answer is handed back, so the caller can say what it was.
"""

from __future__ import annotations

import email.utils
import os
import random
import threading
import time
import urllib.request
from dataclasses import dataclass
from io import BytesIO
from urllib.parse import urlsplit

import certifi
import pycurl

from benchcore.stop_request import pause

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRIED_STATUSES = frozenset({408, 409, 429, *range(500, 600)})
_BACKOFF_FIRST_S, _BACKOFF_MAX_S, _RETRY_AFTER_MAX_S = 0.5, 8.0, 60.0

# libcurl's failures of a call that never got an answer: refused, unresolved, timed out, reset,
# dropped mid-reply, TLS and proxy failures. Retried, and what the circuit breaker counts.
# Anything else (a malformed reply, a body that does not decode) came from a live server.
_UNREACHED_CODES = frozenset({
    pycurl.E_COULDNT_RESOLVE_PROXY, pycurl.E_COULDNT_RESOLVE_HOST, pycurl.E_COULDNT_CONNECT,
    pycurl.E_OPERATION_TIMEDOUT, pycurl.E_SSL_CONNECT_ERROR, pycurl.E_PEER_FAILED_VERIFICATION,
    pycurl.E_SEND_ERROR, pycurl.E_RECV_ERROR, pycurl.E_GOT_NOTHING, pycurl.E_PARTIAL_FILE,
    pycurl.E_SSL_CACERT_BADFILE, pycurl.E_SSL_CERTPROBLEM, pycurl.E_SSL_CIPHER,
    pycurl.E_HTTP2,
    92, 97,   # libcurl's HTTP2_STREAM (a stream reset) and PROXY (a proxy handshake failed)
})

# The jitter's own generator: retries run on worker threads, and drawing from the module's
# shared one there moves the state other code (a seeded run, a property test) relies on.
_JITTER = random.Random()


class TransportError(Exception):
    """A call that got no usable answer. `unreached`: no answer at all (the breaker counts it,
    a retry may help); else the server answered with something that cannot be read."""

    def __init__(self, message: str, unreached: bool, timed_out: bool = False) -> None:
        super().__init__(message)
        self.unreached = unreached
        self.timed_out = timed_out


@dataclass(frozen=True)
class Answer:
    """What the server said: status, body, and the header lines (read only when needed)."""

    status: int
    body: bytes
    header_lines: tuple[bytes, ...] = ()

    def header(self, name: str) -> str | None:
        """A header of the final answer, case-insensitively. libcurl hands over every block
        it reads (a proxy's CONNECT answer, an interim 100) before the endpoint's final one;
        each starts with its status line."""
        wanted, found = name.lower().encode("latin-1"), None
        for line in self.header_lines:
            if line.startswith(b"HTTP/"):
                found = None           # a new block: what came before was not the answer
                continue
            field, colon, value = line.partition(b":")
            if colon and field.strip().lower() == wanted:
                found = value.strip().decode("latin-1")
        return found


@dataclass(frozen=True)
class RetryPolicy:
    """`retries` more tries after the first, for any failure worth another try."""

    retries: int

    @staticmethod
    def backoff_s(retry: int) -> float:
        """The wait before the `retry`th retry (1-based): 0.5 s doubling to 8 s, less up to a
        quarter of jitter. The first retry waits too, so a 429 without `Retry-After` is not
        answered by another request the same moment."""
        wait = min(_BACKOFF_MAX_S, _BACKOFF_FIRST_S * 2 ** (retry - 1))
        return wait * (0.75 + 0.25 * _JITTER.random())

    @staticmethod
    def retry_after_s(value: str | None) -> float:
        """Seconds (fractions too) or an HTTP date, as the SDK read it. A value that is absent,
        malformed, negative or over a minute counts as absent: 0, the backoff applies."""
        if not value:
            return 0.0
        try:
            seconds = float(value)
        except ValueError:
            try:
                when = email.utils.parsedate_tz(value)
                seconds = email.utils.mktime_tz(when) - time.time() if when else 0.0
            except (OverflowError, ValueError):   # a date past what the clock can hold
                return 0.0
        return seconds if 0 < seconds <= _RETRY_AFTER_MAX_S else 0.0

    def wait_s(self, retry: int, answer: Answer | None) -> float:
        """How long to wait before the `retry`th retry after `answer` (None: no answer)."""
        if answer is not None:
            after = self.retry_after_s(answer.header("retry-after"))
            if after:
                return after
        return self.backoff_s(retry)


class Endpoint:
    """The process's connections for a model at an endpoint: libcurl handles, each keeping its
    connection alive between calls, made on demand and handed to one call at a time. Callers
    cap their concurrent calls at `max_connections` (the model's limit), so at most that many
    handles, hence connections, exist. Proxy variables (`https_proxy`, `http_proxy`,
    `all_proxy`, `no_proxy`, a proxy's `user:password@`) are read as Python reads them, and
    `SSL_CERT_FILE`/`SSL_CERT_DIR` name the trusted certificates instead of certifi's bundle."""

    def __init__(self, url: str, headers: dict[str, str], timeout_s: float) -> None:
        self.url = url
        self.proxy = _proxy_for(url)
        self.connections_made = 0
        self._header_lines = [f"{k}: {v}" for k, v in headers.items()] + ["Expect:"]
        self._timeout_ms = max(1, round(timeout_s * 1000))
        self._idle: list[pycurl.Curl] = []
        self._lock = threading.Lock()

    def post(self, body: bytes) -> Answer:
        """One try: the answer, or a `TransportError`."""
        with self._lock:
            handle = self._idle.pop() if self._idle else self._new_handle()
        sink, headers = BytesIO(), []
        try:
            handle.setopt(pycurl.POSTFIELDS, body)
            handle.setopt(pycurl.WRITEDATA, sink)
            handle.setopt(pycurl.HEADERFUNCTION, headers.append)
            try:
                handle.perform()
            except pycurl.error as error:
                code, message = error.args if len(error.args) == 2 else (0, str(error))
                raise TransportError(str(message) or f"libcurl error {code}",
                                     unreached=code in _UNREACHED_CODES,
                                     timed_out=code == pycurl.E_OPERATION_TIMEDOUT) from None
            return Answer(handle.getinfo(pycurl.RESPONSE_CODE), sink.getvalue(), tuple(headers))
        finally:
            made = handle.getinfo(pycurl.NUM_CONNECTS)
            # An idle handle keeps no reference to this call's body, reply or header list:
            # 64 idle handles would otherwise hold 64 prompts and replies per model.
            handle.setopt(pycurl.POSTFIELDS, b"")
            handle.setopt(pycurl.WRITEFUNCTION, _ignore)
            handle.setopt(pycurl.HEADERFUNCTION, _ignore)
            with self._lock:
                self.connections_made += made
                self._idle.append(handle)

    def close_idle(self) -> int:
        """Close the connections no call is using (a call in flight keeps its own, and puts it
        back when done); the next call opens a new one. How many were closed."""
        with self._lock:
            idle, self._idle = self._idle, []
        for handle in idle:
            handle.close()
        return len(idle)

    def _new_handle(self) -> pycurl.Curl:
        handle = pycurl.Curl()
        handle.setopt(pycurl.URL, self.url)
        handle.setopt(pycurl.POST, 1)
        handle.setopt(pycurl.HTTPHEADER, self._header_lines)
        handle.setopt(pycurl.NOSIGNAL, 1)             # timeouts without signals: threads
        handle.setopt(pycurl.CONNECTTIMEOUT_MS, self._timeout_ms)
        handle.setopt(pycurl.TIMEOUT_MS, self._timeout_ms)
        handle.setopt(pycurl.FOLLOWLOCATION, 0)       # a redirect is an error, as with the SDK
        handle.setopt(pycurl.ACCEPT_ENCODING, "")     # what libcurl can decode, decoded
        # Python's reading of the proxy variables is final: "" is no proxy, and an empty
        # NOPROXY stops libcurl from reading `no_proxy` again its own way.
        handle.setopt(pycurl.PROXY, self.proxy or "")
        handle.setopt(pycurl.NOPROXY, "")
        ca_file = os.environ.get("SSL_CERT_FILE") or certifi.where()
        ca_dir = os.environ.get("SSL_CERT_DIR")
        if urlsplit(self.url).scheme == "https":
            handle.setopt(pycurl.CAINFO, ca_file)
            if ca_dir:
                handle.setopt(pycurl.CAPATH, ca_dir)
        if self.proxy and self.proxy.startswith("https://"):   # TLS to the proxy itself
            handle.setopt(pycurl.PROXY_CAINFO, ca_file)
            if ca_dir:
                handle.setopt(pycurl.PROXY_CAPATH, ca_dir)
        return handle


def _ignore(line: bytes) -> None:
    return None


def send(endpoint: Endpoint, body: bytes, policy: RetryPolicy) -> Answer:
    """`body` posted with the policy's retries: the first answer that is not retried, or the
    last answer when the retries run out; a `TransportError` when the last try got none."""
    retry = 0
    while True:
        try:
            answer = endpoint.post(body)
        except TransportError as error:
            if not error.unreached or retry >= policy.retries:
                raise
            answer = None
        else:
            if answer.status not in RETRIED_STATUSES or retry >= policy.retries:
                return answer
        retry += 1
        if pause(policy.wait_s(retry, answer)):   # the run is stopping: no further try
            if answer is not None:
                return answer
            raise TransportError("the run was stopped before the next try", unreached=True)


_ENDPOINTS: dict[tuple, Endpoint] = {}
_ENDPOINTS_LOCK = threading.Lock()


def endpoint_for(model: str, url: str, max_connections: int, headers: dict[str, str],
                 timeout_s: float) -> Endpoint:
    """The process's endpoint for a model (two models at one endpoint each get their own
    `max_connections`). Keyed by process too: a forked worker opens its own connections."""
    slot = (os.getpid(), model, url, max_connections, tuple(headers.items()), timeout_s)
    with _ENDPOINTS_LOCK:
        if slot not in _ENDPOINTS:
            _ENDPOINTS[slot] = Endpoint(url, headers, timeout_s)
        return _ENDPOINTS[slot]


def close_idle_connections() -> int:
    """Close every endpoint's idle connections in this process, at the end of a run. Each
    handle holds a socket and two more descriptors, and a process that runs many flows (a
    served deployment, a test session, each run against its own endpoint) would otherwise keep
    them all: 384 descriptors per 2 models x 64 connections, past select()'s 1024 in three
    runs. The endpoints stay, so a next run at the same endpoint simply connects again."""
    with _ENDPOINTS_LOCK:
        endpoints = [e for (pid, *_), e in _ENDPOINTS.items() if pid == os.getpid()]
    return sum(endpoint.close_idle() for endpoint in endpoints)


_PROXY_SCHEMES = ("http", "https", "socks4", "socks4a", "socks5", "socks5h")


def _proxy_for(url: str) -> str | None:
    """The proxy the variables name for `url`, or None. A proxy URL libcurl cannot use is a
    `ValueError` here, when the client is made, not a failure of every call."""
    parts = urlsplit(url)
    if urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    proxies = urllib.request.getproxies()
    proxy = proxies.get(parts.scheme) or proxies.get("all")
    if proxy and "://" in proxy:     # without a scheme, libcurl takes an http proxy
        scheme = proxy.partition("://")[0].lower()
        if scheme not in _PROXY_SCHEMES:
            raise ValueError(f"unsupported proxy scheme {scheme!r} in {proxy}")
        try:
            address = urlsplit(proxy)
            address.port  # noqa: B018  # reading it checks the port's range
        except ValueError as error:       # a bracket left open, a port out of range
            raise ValueError(f"malformed proxy URL {proxy}: {error}") from None
        if address.hostname is None:
            raise ValueError(f"no host in proxy URL {proxy}")
    return proxy or None


def base_url_of(configured: str | None) -> str:
    """The endpoint a model without a `base_url` is sent to: `$OPENAI_BASE_URL` when set (the
    SDK read it too; without it, a gateway's key would go to api.openai.com), else OpenAI's."""
    return configured or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
