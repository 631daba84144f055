"""Shared test fixtures: one Prefect harness per session, isolated result storage per test."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS", "120")
# Per-task INFO lines are noise in test output; failures still log at WARNING and above.
os.environ.setdefault("PREFECT_LOGGING_LOGGERS_PREFECT_TASK_RUNS_LEVEL", "WARNING")
# A CLI run's temporary Prefect API stops with the run in tests (no server outlives a test);
# tests/test_temporary_api.py checks the lingering one on its own.
os.environ["NLP_DSG_TEMPORARY_API_LINGER_S"] = "0"
# pytest imports readline (_pytest/capture.py), and GNU readline writes COLUMNS=80 and LINES=24
# into the process's C environment, behind os.environ's back: every child started without an
# explicit env (pytest-xdist's workers included) would see a fixed 80x24 terminal, and the
# console's tables would no longer follow a test's COLUMNS. The children get what os.environ
# says.
for _name in ("COLUMNS", "LINES"):
    if _name in os.environ:
        os.putenv(_name, os.environ[_name])
    else:
        os.unsetenv(_name)

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "external_data(relative): needs an external data set "
                            "(tests/external.py); skipped without it, failed under CI=true")


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """External data is checked before any fixture reads it (see tests/external.py)."""
    from tests.external import MARKER, require

    for mark in item.iter_markers(MARKER):
        require(mark.args[0])


@pytest.fixture(autouse=True)
def environment_restored() -> Iterator[None]:
    """os.environ as it was before the test. The CLI called in-process sets defaults in it
    (`environment.py`: e.g. PREFECT_LOCAL_STORAGE_PATH, resolved against the working
    directory, the repository): without this, every later test's child process inherited
    them and wrote its task results into the repository's own `.cache`."""
    saved = dict(os.environ)
    yield
    for name in set(os.environ) - set(saved):
        del os.environ[name]
    for name, value in saved.items():
        if os.environ.get(name) != value:
            os.environ[name] = value


@pytest.fixture(scope="session")
def prefect_harness() -> Iterator[None]:
    """A throw-away Prefect API for the whole session (starting one costs ~18 s)."""
    from prefect.testing.utilities import prefect_test_harness

    with prefect_test_harness(server_startup_timeout=120):
        yield


@pytest.fixture
def prefect_storage(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Task results (the stage cache) in a per-test dir, so no cache leaks between tests."""
    from prefect.settings import PREFECT_LOCAL_STORAGE_PATH, temporary_settings

    storage = tmp_path / "prefect-results"
    with temporary_settings({PREFECT_LOCAL_STORAGE_PATH: storage}):
        monkeypatch.setenv("PREFECT_LOCAL_STORAGE_PATH", str(storage))
        yield storage
