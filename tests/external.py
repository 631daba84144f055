"""The tests' one way to external data (`benchcore.external_data`): a test or module that
needs it carries `needs(...)`; without the data it is skipped with a one-line reason naming
the fetch command, except under `CI=true`, where the data must be there and its absence fails.

Module constants use `path(...)`, which never fails at import, so collection succeeds on a
public clone; the marker is checked before any fixture that reads the file is set up
(`tests/conftest.py: pytest_runtest_setup`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from benchcore.external_data import EXAMPLE_DSG, PLANNING, find, missing_message, path_or_fetched

__all__ = ["EXAMPLE_DSG", "PLANNING", "needs", "path", "planning_domains", "require"]

MARKER = "external_data"


def path(relative: str) -> Path:
    """Where the data is, or where it would be fetched to."""
    return path_or_fetched(relative)


def needs(relative: str) -> pytest.MarkDecorator:
    """Mark a test (or `pytestmark` a module) as needing `relative` under the data roots."""
    return getattr(pytest.mark, MARKER)(relative)


def require(relative: str) -> Path:
    """The data's path; else skip (fail under CI=true) with the one-line reason."""
    found = find(relative)
    if found is not None:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail(f"{missing_message(relative)} (CI must have it)", pytrace=False)
    pytest.skip(missing_message(relative))


def planning_domains() -> list[str]:
    """The external planning domains for parametrizing at import; one placeholder when the
    data is absent, so the test is collected and then skipped by its marker (an empty
    parameter set would skip without naming the fetch command)."""
    root = find(PLANNING)
    names = sorted(p.name for p in root.iterdir() if (p / "domain.pddl").is_file()) if root else []
    return names or ["(planning data absent)"]
