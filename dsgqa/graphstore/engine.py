"""Import the embedded Cypher engine chosen by config: Kuzu or its fork Ladybug (same API).

The two ship C++ libraries with the same symbols; loading both into one process is asking for
trouble, so the module is imported lazily, by name, and a second engine is refused.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

from dsgqa.graphstore.base import GraphStoreError

ENGINE_MODULES: dict[str, str] = {"kuzu": "kuzu", "ladybug": "ladybug"}


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
        hint = " (pip install 'nlp-dsg-benchmark[ladybug]')" if backend == "ladybug" else ""
        raise GraphStoreError(f"engine {backend} is not installed: {exc}{hint}") from exc
