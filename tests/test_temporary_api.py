"""The CLI's temporary Prefect API (used when no server is configured or running)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from urllib.parse import urlparse

from nlp_dsg_benchmark import environment
from nlp_dsg_benchmark.temporary_api import _healthy, temporary_api


def _listening(url: str) -> bool:
    parsed = urlparse(url)
    with socket.socket() as probe:
        return probe.connect_ex((parsed.hostname, parsed.port)) == 0


def test_temporary_api_serves_and_is_gone_afterwards() -> None:
    with temporary_api() as url:
        assert _healthy(url)
    assert not _listening(url)


def test_a_configured_but_dead_server_means_a_temporary_api(tmp_path: Path, monkeypatch) -> None:
    """Read without importing Prefect: what prepare_prefect_environment decides from the
    environment and ./prefect.toml."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("PREFECT_API_URL", raising=False)
    monkeypatch.delitem(sys.modules, "prefect", raising=False)  # as if not imported yet
    (tmp_path / "prefect.toml").write_text('[api]\nurl = "http://127.0.0.1:9/api"\n')
    assert environment._configured_api_url() == "http://127.0.0.1:9/api"
    assert environment._choose_api() == ""          # nothing listens on port 9
    with temporary_api() as url:
        (tmp_path / "prefect.toml").write_text(f'[api]\nurl = "{url}"\n')
        assert environment._choose_api() == url     # a running server is used as is


def test_environment_beats_prefect_toml(tmp_path: Path, monkeypatch) -> None:
    value = "http://127.0.0.1:9/api"
    monkeypatch.chdir(tmp_path)
    monkeypatch.delitem(sys.modules, "prefect", raising=False)
    (tmp_path / "prefect.toml").write_text('[api]\nurl = "http://127.0.0.1:4200/api"\n')
    monkeypatch.setenv("PREFECT_API_URL", value)
    assert environment._configured_api_url() == value
