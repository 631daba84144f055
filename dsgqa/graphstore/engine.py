"""Import the embedded Cypher engine chosen by config: Ladybug (the default) or Kuzu, whose
fork it is (same API).

The two ship C++ libraries with the same symbols; loading both into one process fails (a type
"already registered") or worse, so the module is imported lazily, by name, and a second engine
is refused. Only the children that build (`build_worker`) and query (`query_worker`) a database
import one; the harness process never does.
"""

from __future__ import annotations

import importlib
import sys
from importlib.metadata import PackageNotFoundError, version
from types import ModuleType

from dsgqa.graphstore.base import GraphStoreError

ENGINE_MODULES: dict[str, str] = {"kuzu": "kuzu", "ladybug": "ladybug"}


def engine_version(backend: str) -> str:
    """The engine package's installed version, read from its metadata without importing it
    (this runs in the harness process, which must never load an engine)."""
    try:
        return version(ENGINE_MODULES.get(backend, backend))
    except PackageNotFoundError:
        return "unknown"


def import_engine(backend: str) -> ModuleType:
    """The engine module for `backend`, refusing one whose sibling is already loaded."""
    if backend not in ENGINE_MODULES:
        raise GraphStoreError(f"unknown embedded engine {backend!r}: use kuzu or ladybug")
    name = ENGINE_MODULES[backend]
    for other_backend, other in ENGINE_MODULES.items():
        if other != name and other in sys.modules:
            raise GraphStoreError(
                f"cannot use {backend}: {other_backend} is already loaded in this process"
            )
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise GraphStoreError(f"engine {backend} is not installed: {exc} (both engines are "
                              "dependencies of nlp-dsg-benchmark: reinstall it)") from exc
