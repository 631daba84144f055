"""The HTTP side of OpenAI-compatible calls: one urllib3 connection pool per model and endpoint,
and the retry policy.

Why urllib3 and not the openai SDK (httpx underneath): against the loopback fake with 0.05 s
replies and 2 x 64 threads, on this project's 2-core machine, the SDK spent 1.35 ms of CPU per
call and topped out at 765 calls/s, while the same requests through a urllib3 pool cost 0.31 ms
and reached 2,416 calls/s of the ideal 2,560 (`benchmarks/bench_llm_transport.py`). The SDK
with a urllib3 transport under it still cost 1.09 ms: the time goes to httpx's client and the
SDK's request building, not the socket. With the harness's own work on top, the SDK kept a
5,000-question run below a fifth of the ideal rate.

What the SDK's retry loop did, urllib3's `Retry` does: it retries refused and dropped
connections, timeouts, 408/409/429 and 5xx answers, waits with exponential backoff and jitter
(0.5 s doubling to 8 s, as the SDK), honours `Retry-After` on 429 and 503 as the SDK read it
(fractions too; a malformed one, or one over 60 s, means the backoff), and hands back the last
answer when the retries run out, so the caller can say what it was.
"""

from __future__ import annotations

import os
import random
import threading
import urllib.request
from collections.abc import Callable
from urllib.parse import unquote, urlsplit

import certifi
import urllib3
from urllib3.util.retry import Retry

DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRIED_STATUSES = frozenset({408, 409, 429, *range(500, 600)})
_BACKOFF_FIRST_S, _BACKOFF_MAX_S, _RETRY_AFTER_MAX_S = 0.5, 8.0, 60

Pool = urllib3.PoolManager


class _Backoff(Retry):
    """urllib3's policy with the SDK's schedule and its reading of `Retry-After`."""

    def get_backoff_time(self) -> float:
        """The first retry waits too (urllib3 retries at once), so a 429 without `Retry-After`
        is not answered by another request the same moment."""
        errors = len(self.history)
        if errors == 0:
            return 0.0
        wait = min(self.backoff_max, self.backoff_factor * 2 ** (errors - 1))
        return wait * (0.75 + 0.25 * random.random())

    def parse_retry_after(self, retry_after: str) -> float:
        """Seconds (fractions too) or an HTTP date, as the SDK read it. A value that is
        malformed, negative or over a minute counts as absent (0: the backoff applies), where
        urllib3 would raise on the first and wait out the last."""
        try:
            seconds = float(retry_after)
        except ValueError:
            try:
                seconds = super().parse_retry_after(retry_after)
            except urllib3.exceptions.InvalidHeader:
                return 0.0
        return seconds if 0 < seconds <= _RETRY_AFTER_MAX_S else 0.0


def retry_policy(retries: int) -> Retry:
    """`retries` more tries after the first, for any failure worth another try: refused,
    dropped or timed-out connections, TLS and proxy failures, and the statuses above."""
    return _Backoff(
        total=retries, connect=retries, read=retries, status=retries, other=retries,
        redirect=0, allowed_methods=None,   # POST too: a chat completion has no side effects
        status_forcelist=RETRIED_STATUSES, raise_on_status=False,
        respect_retry_after_header=True,
        backoff_factor=_BACKOFF_FIRST_S, backoff_max=_BACKOFF_MAX_S,
    )


_POOLS: dict[tuple[str, str, int], Pool] = {}
_POOLS_LOCK = threading.Lock()


def pool_for(model: str, base_url: str, max_connections: int) -> Pool:
    """The process's connections for a model at an endpoint (requests go to absolute URLs):
    at most `max_connections` open (the model's own cap, as its concurrency limit: two models
    served by one endpoint each get theirs), kept alive between calls; a caller beyond them
    waits for one. The proxy variables (`https_proxy`, `http_proxy`, `all_proxy`, `no_proxy`,
    a proxy's `user:password@`) and `SSL_CERT_FILE`/`SSL_CERT_DIR` are honoured, as httpx did."""
    slot = (model, base_url, max_connections)
    with _POOLS_LOCK:
        if slot not in _POOLS:
            _POOLS[slot] = _new_pool(base_url, max_connections)
        return _POOLS[slot]


def sender(pool: Pool, url: str) -> tuple[Callable[..., urllib3.BaseHTTPResponse], str]:
    """How to send to `url` through `pool`: a proxy takes the absolute URL; without one, the
    endpoint's own connection pool takes the path, which skips the manager's per-request
    lookup of that pool (0.04 ms a call, 6% of the top rate)."""
    if pool.proxy is not None:
        return pool.urlopen, url
    return pool.connection_from_url(url).urlopen, urllib3.util.parse_url(url).request_uri


def _new_pool(url: str, max_connections: int) -> Pool:
    options: dict[str, object] = {"num_pools": 1, "maxsize": max_connections, "block": True}
    if urlsplit(url).scheme == "https":
        # certifi's bundle, unless the machine names its own (an internal CA), as httpx did.
        options["ca_certs"] = os.environ.get("SSL_CERT_FILE") or certifi.where()
        if os.environ.get("SSL_CERT_DIR"):
            options["ca_cert_dir"] = os.environ["SSL_CERT_DIR"]
    proxy = _proxy_for(url)
    if proxy is None:
        return urllib3.PoolManager(**options)
    parts = urlsplit(proxy)
    if parts.username is not None:
        credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        options["proxy_headers"] = urllib3.make_headers(proxy_basic_auth=credentials)
        proxy = parts._replace(netloc=parts.netloc.rpartition("@")[2]).geturl()
    return urllib3.ProxyManager(proxy, **options)


def _proxy_for(url: str) -> str | None:
    parts = urlsplit(url)
    if urllib.request.proxy_bypass(parts.hostname or ""):
        return None
    proxies = urllib.request.getproxies()
    return proxies.get(parts.scheme) or proxies.get("all")


def base_url_of(configured: str | None) -> str:
    """The endpoint a model without a `base_url` is sent to: `$OPENAI_BASE_URL` when set (the
    SDK read it too; without it, a gateway's key would go to api.openai.com), else OpenAI's."""
    return configured or os.environ.get("OPENAI_BASE_URL") or DEFAULT_BASE_URL
