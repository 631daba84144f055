"""The proxy variables before Prefect reads them: a malformed one is one line naming it, and
loopback (the temporary Prefect API, a local LLM server) is never sent to the proxy."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from nlp_dsg_benchmark.cli import main
from nlp_dsg_benchmark.proxy_environment import PROXY_VARIABLES, exempt_loopback

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def clean_proxies(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    for name in (*PROXY_VARIABLES, "no_proxy", "NO_PROXY"):
        monkeypatch.setenv(name, "")     # restored after the test, whatever the code sets
    return monkeypatch


@pytest.mark.parametrize(("value", "says"), [
    ("http://[proxy.lab:3128", "malformed proxy URL"),
    ("http://proxy.lab:port", "malformed proxy URL"),
    ("ftp://proxy.lab:21", "unsupported proxy scheme 'ftp'"),
    ("http://alice:Pa55w0rd-xyz@:3128", "no host in the proxy URL"),
])
def test_a_malformed_proxy_is_one_line_before_any_work(clean_proxies, tmp_path, capsys,
                                                       value: str, says: str) -> None:
    clean_proxies.chdir(tmp_path)
    clean_proxies.setenv("http_proxy", value)
    code = main(["run", "--questions", str(ROOT / "questions/demo/apartment_questions.yaml"),
                 "--scene-graph", str(ROOT / "questions/demo/apartment_dsg.json"),
                 "--model", "m", "--provider", "oracle", "--run-id", "proxied"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and err.startswith(f"nlp-dsg-benchmark: $http_proxy: {says}")
    assert len(err.splitlines()) == 1 and "Traceback" not in err and "Pa55" not in err
    assert not (tmp_path / "results").exists()


def test_loopback_is_exempted_from_a_proxy(clean_proxies) -> None:
    clean_proxies.setenv("https_proxy", "http://proxy.lab:3128")
    clean_proxies.setenv("no_proxy", "intranet.lab")
    exempt_loopback()
    import os

    assert os.environ["no_proxy"] == "intranet.lab,localhost,127.0.0.1,::1"
    assert os.environ["NO_PROXY"] == "localhost,127.0.0.1,::1"
    assert urllib.request.proxy_bypass("127.0.0.1") and urllib.request.proxy_bypass("localhost")
    assert not urllib.request.proxy_bypass("api.openai.com")
    exempt_loopback()                                  # idempotent
    assert os.environ["no_proxy"] == "intranet.lab,localhost,127.0.0.1,::1"


def test_without_a_proxy_nothing_changes(clean_proxies) -> None:
    import os

    exempt_loopback()
    assert os.environ["no_proxy"] == "" and os.environ["NO_PROXY"] == ""
