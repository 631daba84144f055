"""The proxy variables, checked and completed before Prefect reads them.

Prefect's HTTP client (httpx) reads `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy`
when it is made: a malformed proxy URL then ends in an httpx traceback, and a proxy with no
`no_proxy` for loopback sends the requests for the run's own temporary Prefect API (on
127.0.0.1) to the proxy, which cannot reach it. So before any work a bad value is a one-line
error naming the variable, and loopback is added to `no_proxy` (a proxy can never reach this
machine's loopback on our behalf, so no request is lost by it; a local LLM server is reached
directly as well).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

from benchcore.text_safety import safe_text

PROXY_VARIABLES = ("http_proxy", "https_proxy", "all_proxy",
                   "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY")
PROXY_SCHEMES = ("http", "https", "socks4", "socks4a", "socks5", "socks5h")
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")


class ProxyError(ValueError):
    """A proxy variable that no client can use; one line naming it."""


def check_proxy_variables() -> None:
    """Raise `ProxyError` naming the first proxy variable whose value is not a usable proxy
    URL (credentials in it are masked in the message)."""
    for name in PROXY_VARIABLES:
        value = os.environ.get(name, "").strip()
        if not value:
            continue
        problem = _proxy_problem(value)
        if problem:
            raise ProxyError(safe_text(f"${name}: {problem}: {value[:200]}"))


def _proxy_problem(value: str) -> str | None:
    url = value if "://" in value else f"http://{value}"   # a bare host:port means http
    scheme = url.partition("://")[0].lower()
    if scheme not in PROXY_SCHEMES:
        return f"unsupported proxy scheme {scheme!r}"
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018  # reading it checks the port
    except ValueError as error:
        return f"malformed proxy URL ({error})"
    if not parts.hostname:
        return "no host in the proxy URL"
    return None


def exempt_loopback() -> None:
    """When any proxy variable is set, add loopback to `no_proxy` and `NO_PROXY` (keeping what
    they list; `*` already exempts everything)."""
    if not any(os.environ.get(name) for name in PROXY_VARIABLES):
        return
    for name in ("no_proxy", "NO_PROXY"):
        listed = [h.strip() for h in os.environ.get(name, "").split(",") if h.strip()]
        if "*" in listed:
            continue
        missing = [host for host in LOOPBACK_HOSTS if host not in listed]
        if missing:
            os.environ[name] = ",".join([*listed, *missing])
