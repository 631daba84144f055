"""A warning when an API key would cross the network in the clear.

The OpenAI-compatible client sends the key as a bearer token to whatever base URL it is given.
Over `http://` to a machine other than this one, anyone on the path can read it. That is
sometimes intended (a lab server behind a VPN), so it is a warning, not a refusal; but it is
said once per (key variable, endpoint) before the first call, never silently done.
"""

from __future__ import annotations

import ipaddress
import logging
import os
import threading
from urllib.parse import urlsplit

from benchcore.llm.base import ModelConfig
from benchcore.llm.http_pool import base_url_of
from benchcore.text_safety import safe_text

_LOG = logging.getLogger("benchcore.llm")
_SAID: set[tuple[str, str]] = set()
_LOCK = threading.Lock()


def is_loopback(host: str) -> bool:
    """`localhost`, 127.0.0.0/8 or ::1: traffic that never leaves the machine."""
    host = host.strip("[]").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def plain_http_key_warning(config: ModelConfig) -> str | None:
    """The warning to give when `config` would send a key (one is set in its `api_key_env`
    variable) over plain http to a host that is not loopback, else None."""
    if config.provider != "openai" or not os.environ.get(config.api_key_env):
        return None
    url = base_url_of(config.base_url)
    parts = urlsplit(url)
    if parts.scheme != "http" or is_loopback(parts.hostname or ""):
        return None
    return safe_text(f"warning: model {config.name}: the key in ${config.api_key_env} is sent "
                     f"unencrypted to {parts.hostname} (plain http://); use https:// or a "
                     "loopback address")


def warn_plain_http_key(config: ModelConfig) -> str | None:
    """`plain_http_key_warning`, the first time it applies to this key variable and host in
    this process (logged on the `benchcore.llm` logger); None when already said or not
    needed. The command line calls it before the run and prints what it returns, so the
    clients the run makes later stay quiet."""
    warning = plain_http_key_warning(config)
    if warning is None:
        return None
    slot = (config.api_key_env, urlsplit(base_url_of(config.base_url)).netloc)
    with _LOCK:
        if slot in _SAID:
            return None
        _SAID.add(slot)
    _LOG.warning(warning)
    return warning
