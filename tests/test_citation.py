"""CITATION.cff is valid Citation File Format 1.2.0 and stays in step with pyproject.toml.

The checks are the parts of the CFF 1.2.0 schema a hand edit can break: the required keys, the
keys allowed at the top level and in a reference, the SPDX license, the URL form. The version is
compared with pyproject's so that a release cannot cite an old version.
"""

from __future__ import annotations

import re
import tomllib

import yaml

from tests.conftest import PROJECT_ROOT

CFF = PROJECT_ROOT / "CITATION.cff"
TOP_LEVEL = {
    "abstract", "authors", "cff-version", "commit", "contact", "date-released", "doi",
    "identifiers", "keywords", "license", "license-url", "message", "preferred-citation",
    "references", "repository", "repository-artifact", "repository-code", "title", "type", "url",
    "version",
}
REFERENCE_TYPES = {"software", "software-code", "article", "conference-paper", "generic",
                   "data", "report", "proceedings"}
URL = re.compile(r"^(https|http|ftp|sftp)://.+")


def _citation() -> dict:
    return yaml.safe_load(CFF.read_text(encoding="utf-8"))


def _check_authors(authors: list) -> None:
    assert isinstance(authors, list) and authors
    for author in authors:
        assert author.get("name") or author.get("family-names"), author


def test_citation_has_the_required_keys_and_nothing_else() -> None:
    citation = _citation()
    assert {"cff-version", "message", "title", "authors"} <= citation.keys()
    assert set(citation) <= TOP_LEVEL, set(citation) - TOP_LEVEL
    assert citation["cff-version"] == "1.2.0"
    assert citation["type"] == "software"
    _check_authors(citation["authors"])
    assert URL.match(citation["repository-code"])


def test_citation_version_and_license_match_the_project() -> None:
    project = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["project"]
    citation = _citation()
    assert str(citation["version"]) == project["version"]
    assert citation["license"] == "Apache-2.0"
    assert (PROJECT_ROOT / "LICENSE").read_text().lstrip().startswith("Apache License")


def test_citation_references_the_definitions_the_numbers_follow() -> None:
    references = _citation()["references"]
    for reference in references:
        assert {"authors", "title", "type"} <= reference.keys()
        assert reference["type"] in REFERENCE_TYPES
        _check_authors(reference["authors"])
        assert URL.match(reference["repository-code"])
    codes = {reference["repository-code"] for reference in references}
    assert {"https://github.com/GoldenZephyr/heracles",
            "https://github.com/GoldenZephyr/heracles_agents",
            "https://github.com/minecraft-saar/autoplanbench"} <= codes
