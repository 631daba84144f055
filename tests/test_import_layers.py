"""The packages import one another in one direction only (no cycles), and the pure libraries
never import Prefect. Read from the source with `ast`, so an import inside a function counts."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Package -> the packages of ours it may import. Lower layers first; nothing may import upward.
ALLOWED: dict[str, set[str]] = {
    "benchcore": set(),
    "planeval": {"benchcore"},
    "dsgqa": {"benchcore", "planeval"},
    "plangen": {"benchcore", "planeval"},
    "reporting": {"benchcore", "dsgqa", "planeval"},
    "tasks": {"benchcore", "dsgqa", "planeval", "plangen", "reporting"},
    "flows": {"benchcore", "dsgqa", "planeval", "plangen", "reporting", "tasks"},
    "nlp_dsg_benchmark": {
        "benchcore", "dsgqa", "planeval", "plangen", "reporting", "tasks", "flows",
    },
}
PURE_LIBRARIES = ("benchcore", "planeval", "dsgqa", "plangen", "reporting")


def imported_packages(package: str) -> dict[str, set[str]]:
    """Top-level module name -> the files of `package` that import it."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / package).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            else:
                continue
            for name in names:
                found.setdefault(name.split(".")[0], set()).add(str(path.relative_to(ROOT)))
    return found


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_imports_follow_the_layers(package: str) -> None:
    ours = set(ALLOWED)
    imports = imported_packages(package)
    upward = {name: sorted(files) for name, files in imports.items()
              if name in ours and name != package and name not in ALLOWED[package]}
    assert not upward, f"{package} imports {upward}"


@pytest.mark.parametrize("package", PURE_LIBRARIES)
def test_pure_libraries_never_import_prefect(package: str) -> None:
    imports = imported_packages(package)
    assert "prefect" not in imports, sorted(imports["prefect"])
    assert "prefect_dask" not in imports


def test_the_allowed_graph_has_no_cycle() -> None:
    """The table above is itself a layering: a topological order exists."""
    remaining = {name: set(deps) for name, deps in ALLOWED.items()}
    while remaining:
        free = [name for name, deps in remaining.items() if not deps & set(remaining)]
        assert free, f"cycle among {sorted(remaining)}"
        for name in free:
            del remaining[name]
