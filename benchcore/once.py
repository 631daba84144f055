"""A value built once per process, however many threads ask for it first at the same moment."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

T = TypeVar("T")


def built_once(build: Callable[[], T]) -> Callable[[], T]:
    """`build()`, made by the first caller while the others wait for it. `functools.cache`
    lets every caller that arrives before the first one finishes build its own: a stage's
    threads all parse their first text at once, and each built a lark parser of its own
    (0.1-0.2 s of grammar analysis apiece, holding the GIL: 40% of a 5,000-question
    run-query stage's thread time)."""
    lock = threading.RLock()   # a build that asks for itself recurses, not deadlocks
    built: list[T] = []

    @wraps(build)
    def value() -> T:
        if not built:
            with lock:
                if not built:
                    built.append(build())
        return built[0]

    return value
