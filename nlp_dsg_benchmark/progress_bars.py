"""Rich progress bars for a run started from the command line, one bar per stage.

Prefect's per-task INFO lines would break the bars; the CLI lowers the console level of task
and flow run loggers to WARNING (see environment.py), while the server keeps the full logs.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from benchcore import progress
from benchcore.terminal_text import printable


@contextmanager
def stage_progress(console: Console, enabled: bool = True) -> Iterator[None]:
    if not enabled:
        yield
        return
    bars = Progress(TextColumn("{task.description:<16}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=False)
    ids: dict[str, int] = {}
    lock = threading.Lock()

    def on_event(event: str, stage: str, count: int) -> None:
        with lock:
            if stage not in ids:
                # a model's name is the user's text: neither markup nor terminal controls
                ids[stage] = bars.add_task(escape(printable(stage)), total=0)
            if event == "started":
                current = bars.tasks[ids[stage]].total or 0
                bars.update(ids[stage], total=current + count)
            else:
                bars.advance(ids[stage], count)

    stop = progress.listen(on_event)
    try:
        with bars:
            yield
    finally:
        stop()
