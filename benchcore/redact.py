"""Keeping secrets out of everything the harness stores or prints.

A server may echo the request's `Authorization` header in an error body, and that body becomes
an item's error, a log line, a cache entry, a report cell. `redact` replaces, in any text:

- the values of the environment variables that hold secrets: those a model or database config
  names (`register_secret_env`) and any whose name says it is one (`*_API_KEY`, `*_TOKEN`,
  `*_SECRET`, `*PASSWORD`), when at least 8 characters long (shorter ones would match words);
- anything shaped like an OpenAI-style key (`sk-...`) or a bearer token (`Bearer ...`).
"""

from __future__ import annotations

import functools
import os
import re
import threading

MASK = "***"
MIN_SECRET_LENGTH = 8
_SECRET_NAME = re.compile(r"(API_KEY|_TOKEN|_SECRET|PASSWORD)$", re.IGNORECASE)
_SHAPES = (r"\bsk-[A-Za-z0-9_\-]{6,}", r"\bBearer\s+[A-Za-z0-9._~+/=\-]{6,}")
_REGISTERED: set[str] = {"OPENAI_API_KEY"}
_LOCK = threading.Lock()
_LAST: tuple[object, tuple[str, ...]] | None = None   # (environment seen, its secret values)


def register_secret_env(name: str) -> None:
    """Treat the value of environment variable `name` as a secret from now on."""
    with _LOCK:
        _REGISTERED.add(name)


def secret_values() -> tuple[str, ...]:
    """The current values of secret-holding environment variables, longest first.

    Asked for every reply and error text (twice per LLM call), so the answer is kept until the
    environment or the registered names change: reading and matching every variable name cost
    0.1 ms a call, a tenth of the harness's whole work per call at 64 connections."""
    global _LAST
    with _LOCK:
        names = frozenset(_REGISTERED)
    # CPython's raw environment (bytes to bytes): comparing it is one C-level tuple compare,
    # where going through os.environ decodes every name and value.
    raw = getattr(os.environ, "_data", None)
    state = (names, tuple(raw.items()) if isinstance(raw, dict) else tuple(os.environ.items()))
    last = _LAST
    if last is not None and last[0] == state:
        return last[1]
    found = names | {name for name in os.environ if _SECRET_NAME.search(name)}
    values = {os.environ.get(name, "") for name in found}
    secrets = tuple(sorted((v for v in values if len(v) >= MIN_SECRET_LENGTH), key=len,
                           reverse=True))
    _LAST = (state, secrets)
    return secrets


@functools.lru_cache(maxsize=8)
def pattern(secrets: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for every secret value and key shape that `redact` masks."""
    return re.compile("|".join([*(re.escape(s) for s in secrets), *_SHAPES]))


def _masked(match: re.Match[str]) -> str:
    found = match.group(0)
    if found.startswith("Bearer"):
        return f"Bearer {MASK}"
    return f"sk-{MASK}" if found.startswith("sk-") else MASK


def redact(text: str, secrets: tuple[str, ...] | None = None) -> str:
    """`text` with every secret value and key-shaped token masked."""
    if not text:
        return text
    return pattern(secret_values() if secrets is None else secrets).sub(_masked, text)
