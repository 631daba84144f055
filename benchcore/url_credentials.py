"""URLs in a run configuration carry no credentials.

A configuration is written to the run's `config.json`, passed to Prefect as the flow's
parameter (kept by the API, shown in its UI) and hashed into cache keys: a password in
`http://user:password@host` would be stored in all of them. Credentials come from the
environment instead (`api_key_env`, `neo4j_password_env`, `$OPENAI_BASE_URL`), and every text
the harness keeps has URL credentials masked (`benchcore.redact`).
"""

from __future__ import annotations


def refuse_credentials(netloc: str, instead: str) -> None:
    """Raise ValueError when a URL's authority (`netloc`) holds `user[:password]@`. The
    message never repeats the URL: it would hold the secret."""
    if "@" in netloc:
        raise ValueError("holds credentials (user:password@ before the host), which would be "
                         f"stored in config.json and the flow's parameters; give them through "
                         f"the environment instead: {instead}")
