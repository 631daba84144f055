"""`data fetch` against a file server on loopback: pinned files land under the destination
with their SOURCE.md, a file with the wrong sha256 or missing upstream is named in one line
and never stored, and a second fetch downloads nothing."""

from __future__ import annotations

import functools
import hashlib
import http.server
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from nlp_dsg_benchmark.cli import main
from nlp_dsg_benchmark.data_fetch import DataSet, FetchError, fetch, load_sources
from tests import external

COMMIT = "0123456789abcdef0123456789abcdef01234567"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def serve() -> Iterator:
    """Start a loopback HTTP server over a folder; returns its base URL."""
    servers: list[http.server.ThreadingHTTPServer] = []

    def start(root: Path) -> str:
        handler = functools.partial(_Quiet, directory=str(root))
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        return f"http://127.0.0.1:{server.server_address[1]}"

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()


def _upstream(root: Path, files: dict[str, bytes]) -> DataSet:
    """A repository snapshot laid out like raw.githubusercontent.com."""
    for relative, body in files.items():
        path = root / "owner/repo" / COMMIT / "data" / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(body)
    return DataSet(name="toy", title="Toy data", repository="owner/repo", commit=COMMIT,
                   source_dir="data", licence="Apache-2.0",
                   files={r: hashlib.sha256(b).hexdigest() for r, b in files.items()})


def test_fetches_checks_and_keeps(tmp_path: Path, serve) -> None:
    data = _upstream(tmp_path / "up", {"a/domain.pddl": b"(define)", "b.txt": b"x" * 5000})
    url = serve(tmp_path / "up")
    counts = fetch([data], tmp_path / "out", url)
    assert counts["toy"] == {"kept": 0, "fetched": 2, "failed": 0}
    assert (tmp_path / "out/toy/a/domain.pddl").read_bytes() == b"(define)"
    note = (tmp_path / "out/toy/SOURCE.md").read_text()
    assert COMMIT in note and "Apache-2.0" in note and "do not commit" in note
    assert fetch([data], tmp_path / "out", url)["toy"] == {"kept": 2, "fetched": 0, "failed": 0}


def test_a_changed_or_missing_file_is_named_and_not_stored(tmp_path: Path, serve) -> None:
    data = _upstream(tmp_path / "up", {"good.txt": b"good", "changed.txt": b"old"})
    (tmp_path / "up/owner/repo" / COMMIT / "data/changed.txt").write_bytes(b"new")
    pinned = dict(data.files, **{"gone.txt": "0" * 64})
    url = serve(tmp_path / "up")
    with pytest.raises(FetchError) as caught:
        fetch([DataSet(**{**data.__dict__, "files": pinned})], tmp_path / "out", url)
    message = str(caught.value)
    assert "\n" not in message and message.startswith("2 file(s) not fetched")
    assert "changed.txt: sha256" in message and "(and 1 more)" in message
    assert (tmp_path / "out/toy/good.txt").is_file()
    assert not (tmp_path / "out/toy/changed.txt").exists()
    assert not (tmp_path / "out/toy/SOURCE.md").exists()


def test_cli_errors_are_one_line(tmp_path: Path, capsys) -> None:
    assert main(["data", "fetch", "--set", "nope", "--dest", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown data set 'nope'" in err
    assert main(["data", "fetch", "--set", "dsg", "--dest", str(tmp_path),
                 "--mirror", "http://127.0.0.1:9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "1 file(s) not fetched: http://127.0.0.1:9/" in err


def test_the_pinned_sources_name_their_licences() -> None:
    sets = {s.name: s for s in load_sources()}
    assert sets["dsg"].licence == "GPL-3.0" and sets["planning"].licence == "Apache-2.0"
    assert all(len(s.commit) == 40 for s in sets.values())


@external.needs(external.EXAMPLE_DSG)
@external.needs(external.PLANNING)
def test_the_real_sources_fetch_the_data_the_tests_use(tmp_path: Path, serve, capsys) -> None:
    """`data fetch` of both sets from a loopback mirror of the two repositories (built from the
    data on this machine) stores exactly the files found there, every sha256 matching."""
    up = tmp_path / "up"
    for data in load_sources():
        here = external.require(external.EXAMPLE_DSG).parent if data.name == "dsg" \
            else external.require(external.PLANNING)
        mirrored = up / data.repository / data.commit / data.source_dir
        mirrored.parent.mkdir(parents=True)
        mirrored.symlink_to(here)
        assert {str(p.relative_to(here)) for p in here.rglob("*")
                if p.is_file() and p.name != "SOURCE.md"} == set(data.files)
    assert main(["data", "fetch", "--dest", str(tmp_path / "out"), "--mirror", serve(up)]) == 0
    out = capsys.readouterr().out
    assert "dsg: 1 fetched" in out and "planning: 1110 fetched" in out
    example = (tmp_path / "out/dsg/example_dsg.json").read_bytes()
    assert example == external.require(external.EXAMPLE_DSG).read_bytes()


def test_missing_data_skips_naming_the_fetch_command_and_fails_under_ci(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from benchcore import external_data

    monkeypatch.setattr(external_data, "search_roots", lambda: [tmp_path])
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"run scripts/fetch-data\.sh"):
        external.require(external.EXAMPLE_DSG)
    assert external.planning_domains() == ["(planning data absent)"]
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must have it"):
        external.require(external.PLANNING)
    (tmp_path / "dsg").mkdir()
    (tmp_path / "dsg/example_dsg.json").write_text("{}")
    assert external.require(external.EXAMPLE_DSG) == tmp_path / "dsg/example_dsg.json"
