"""Keeping secrets out of everything the harness stores or prints.

A server may echo the request's `Authorization` header in an error body, and that body becomes
an item's error, a log line, a cache entry, a report cell. `redact` replaces, in any text:

- the values of the environment variables that hold secrets: those a model or database config
  names (`register_secret_env`) and any whose name says it is one (`*_API_KEY`, `*_TOKEN`,
  `*_SECRET`, `*PASSWORD`), when at least 8 characters long (shorter ones would match words);
- anything shaped like an OpenAI-style key (`sk-...`), a bearer or basic token
  (`Bearer ...`, `Basic ...`), or the credentials in a URL (`http://user:password@host`).

A server that echoes a key does not always echo it verbatim: a JSON body may escape its `/`
(`\\/`), a URL or form body percent-encodes it, a Basic header or a token dump base64-encodes
it. Each secret is therefore matched in all of those forms (`secret_forms`), and a base64 form
also where it sits inside a longer base64 text at any of the three byte alignments.
"""

from __future__ import annotations

import base64
import functools
import json
import os
import re
import threading
from urllib.parse import quote, quote_plus

MASK = "***"
MIN_SECRET_LENGTH = 8
_SECRET_NAME = re.compile(r"(API_KEY|_TOKEN|_SECRET|PASSWORD)$", re.IGNORECASE)
# Each shape is a named group, so `_masked` knows what it found. None can match a NUL
# (`text_safety.already_safe` relies on that).
_SHAPES = (r"(?P<key>\bsk-[A-Za-z0-9_\-]{6,})",
           r"(?P<token>\b(?P<scheme>Bearer|Basic)\s+[A-Za-z0-9._~+/=\-]{6,})",
           # userinfo of a URL: what lies between `scheme://` and the first `@` of the authority
           r"(?P<userinfo>(?<=://)[^\s/?#@\0]+@)")
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


def secret_forms(secret: str) -> set[str]:
    """`secret` as a server may echo it: as is, JSON-escaped (also with `\\/`, and escaped
    twice, a JSON body inside a JSON string), percent-encoded (upper- and lower-case hex,
    `+` for spaces) and base64-encoded (standard and URL-safe alphabets, at each of the three
    byte alignments inside a longer encoded text, as in `Basic base64(user:key)`). Forms
    shorter than `MIN_SECRET_LENGTH` are left out: they would match ordinary words."""
    forms = {secret}
    for ascii_only in (True, False):
        escaped = json.dumps(secret, ensure_ascii=ascii_only)[1:-1]
        forms |= {escaped, escaped.replace("/", "\\/")}
        twice = json.dumps(escaped, ensure_ascii=ascii_only)[1:-1]
        forms |= {twice, twice.replace("/", "\\\\/")}
    for encoded in (quote(secret, safe=""), quote_plus(secret, safe=""), quote(secret)):
        forms |= {encoded, re.sub("%[0-9A-F]{2}", lambda m: m.group(0).lower(), encoded)}
    forms |= _base64_cores(secret.encode("utf-8"))
    return {form for form in forms if len(form) >= MIN_SECRET_LENGTH}


def _base64_cores(data: bytes) -> set[str]:
    """The base64 characters that depend only on `data`, for `data` preceded by 0, 1 or 2 other
    bytes: whatever surrounds the secret in an encoded text, one of these appears in it."""
    cores = set()
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + data).decode("ascii")
        first = -(-8 * offset // 6)                     # first character with no prefix bit
        last = 8 * (offset + len(data)) // 6            # one past the last whole character
        core = encoded[first:last]
        cores |= {core, core.replace("+", "-").replace("/", "_")}
    return cores


# Literal text that every shape's match contains: a text holding none of these and no secret
# form needs no regex at all. Substring tests run at memchr speed, where one alternation of
# every form and shape cost 0.2 ms per 3 KB reply (it defeats the regex engine's prefix scan).
_SHAPE_NEEDLES = ("sk-", "Bearer", "Basic", "://")


@functools.lru_cache(maxsize=8)
def _matcher(secrets: tuple[str, ...]) -> tuple[tuple[str, ...], re.Pattern[str]]:
    """The needles that any match contains, and one regex for every secret value (in every
    form of `secret_forms`) and key shape that `redact` masks; longer forms first, so a form
    is never cut by a shorter one."""
    forms = sorted({form for secret in secrets for form in secret_forms(secret)},
                   key=lambda form: (-len(form), form))
    regex = re.compile("|".join([*(re.escape(form) for form in forms), *_SHAPES]))
    return (*forms, *_SHAPE_NEEDLES), regex


def pattern(secrets: tuple[str, ...]) -> re.Pattern[str]:
    """One regex for every secret form and key shape that `redact` masks."""
    return _matcher(secrets)[1]


def holds_secret(text: str, secrets: tuple[str, ...]) -> bool:
    """Whether `redact` would change `text`."""
    needles, regex = _matcher(secrets)
    return any(needle in text for needle in needles) and regex.search(text) is not None


def _masked(match: re.Match[str]) -> str:
    if match.group("userinfo"):
        return f"{MASK}@"
    if match.group("token"):
        return f"{match.group('scheme')} {MASK}"
    return f"sk-{MASK}" if match.group("key") else MASK


def redact(text: str, secrets: tuple[str, ...] | None = None) -> str:
    """`text` with every secret value and key-shaped token masked."""
    if not text:
        return text
    needles, regex = _matcher(secret_values() if secrets is None else secrets)
    if not any(needle in text for needle in needles):
        return text
    return regex.sub(_masked, text)
