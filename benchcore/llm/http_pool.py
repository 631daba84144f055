"""The HTTP side of OpenAI-compatible calls: one urllib3 connection pool per endpoint, and the
retry policy.

Why urllib3 and not the openai SDK (httpx underneath): against the loopback fake with 0.05 s
replies and 2 x 64 threads, on this project's 2-core machine, the SDK spent 1.35 ms of CPU per
call and topped out at 765 calls/s, while the same requests through a urllib3 pool cost 0.31 ms
and reached 2,416 calls/s of the ideal 2,560 (`benchmarks/bench_llm_transport.py`). The SDK
with a urllib3 transport under it still cost 1.09 ms: the time goes to httpx's client and the
SDK's request building, not the socket. With the harness's own work on top, the SDK kept a
5,000-question run below a fifth of the ideal rate.

What the SDK's retry loop did, urllib3's `Retry` does: it retries refused and dropped
connections, timeouts, 408/409/429 and 5xx answers, waits with exponential backoff and jitter
(0.5 s doubling to 8 s, as the SDK), honours `Retry-After` on 429 and 503 (waiting at most 60 s;
the SDK ignored a longer one), and hands back the last answer when the retries run out, so the
caller can say what it was.
"""

from __future__ import annotations

import os
import random
import threading
import urllib.request
from urllib.parse import urlsplit

import certifi
import urllib3
from urllib3.util.retry import Retry

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRIED_STATUSES = frozenset({408, 409, 429, *range(500, 600)})
_BACKOFF_FIRST_S, _BACKOFF_MAX_S, _RETRY_AFTER_MAX_S = 0.5, 8.0, 60

Pool = urllib3.HTTPConnectionPool


class _Backoff(Retry):
    """urllib3's policy with the SDK's schedule: the first retry waits too (urllib3 retries at
    once), so a 429 without `Retry-After` is not answered by another request the same moment."""

    def get_backoff_time(self) -> float:
        errors = len(self.history)
        if errors == 0:
            return 0.0
        wait = min(self.backoff_max, self.backoff_factor * 2 ** (errors - 1))
        return wait * (0.75 + 0.25 * random.random())


def retry_policy(retries: int) -> Retry:
    """`retries` more tries after the first, for any failure worth another try."""
    return _Backoff(
        total=retries, connect=retries, read=retries, status=retries, other=0, redirect=0,
        allowed_methods=None,               # POST too: a chat completion has no side effects
        status_forcelist=RETRIED_STATUSES, raise_on_status=False,
        respect_retry_after_header=True, retry_after_max=_RETRY_AFTER_MAX_S,
        backoff_factor=_BACKOFF_FIRST_S, backoff_max=_BACKOFF_MAX_S,
    )


_POOLS: dict[tuple[str, str, int], Pool] = {}
_POOLS_LOCK = threading.Lock()


def pool_for(model: str, base_url: str | None, max_connections: int) -> Pool:
    """The process's pool for a model at an endpoint: at most `max_connections` open
    connections (the model's own cap, as its concurrency limit: two models served by one
    endpoint each get theirs), kept alive between calls; a caller beyond them waits for one.
    The `https_proxy`/`http_proxy`/`no_proxy` and `SSL_CERT_FILE`/`SSL_CERT_DIR` variables are
    honoured, as the SDK did."""
    url = base_url or DEFAULT_BASE_URL
    slot = (model, url, max_connections)
    with _POOLS_LOCK:
        if slot not in _POOLS:
            _POOLS[slot] = _new_pool(url, max_connections)
        return _POOLS[slot]


def _new_pool(url: str, max_connections: int) -> Pool:
    options: dict[str, object] = {"maxsize": max_connections, "block": True}
    if urlsplit(url).scheme == "https":
        # certifi's bundle, unless the machine names its own (an internal CA), as httpx did.
        options["ca_certs"] = os.environ.get("SSL_CERT_FILE") or certifi.where()
        if os.environ.get("SSL_CERT_DIR"):
            options["ca_cert_dir"] = os.environ["SSL_CERT_DIR"]
    proxy = _proxy_for(url)
    if proxy:
        return urllib3.ProxyManager(proxy, num_pools=1, **options).connection_from_url(url)
    return urllib3.connection_from_url(url, **options)


def _proxy_for(url: str) -> str | None:
    host = urlsplit(url).hostname or ""
    if urllib.request.proxy_bypass(host):
        return None
    return urllib.request.getproxies().get(urlsplit(url).scheme)


def request_path(base_url: str | None, endpoint: str) -> str:
    """The path of `endpoint` under the base URL's own path (`/v1` + `/chat/completions`)."""
    return urlsplit(base_url or DEFAULT_BASE_URL).path.rstrip("/") + endpoint
