"""The collector pause around bulk cache reads: counted across threads, and it never turns on
a collector that was off before."""

from __future__ import annotations

import gc
import threading

from benchcore.gc_pause import gc_paused


def test_the_collector_resumes_when_the_last_reader_is_done() -> None:
    assert gc.isenabled()
    first_in, second_done = threading.Event(), threading.Event()
    seen: list[bool] = []

    def other_reader() -> None:
        first_in.wait()
        with gc_paused():
            seen.append(gc.isenabled())
        second_done.set()

    thread = threading.Thread(target=other_reader)
    thread.start()
    with gc_paused():
        first_in.set()
        second_done.wait()
        seen.append(gc.isenabled())   # the other reader left; this one still reads
    thread.join()
    assert seen == [False, False]
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
