"""A whole benchmark run's outcome, and the rule that decides whether the run failed.

Like inspect_ai's fail-on-error: single failing items are recorded and the run goes on; the run
itself fails only when too large a share of items errored (a wrong answer is not an error).
The tables are written before this check, so a failed run never loses finished results.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from benchcore.failure_causes import describe_causes
from benchcore.track_summary import TrackSummary


class ErrorBudgetExceeded(RuntimeError):
    """More items errored than the run's `max_error_fraction` allows. The message's first line
    says so; the lines after it name the most common causes with their counts."""


@dataclass(frozen=True)
class RunSummary:
    run_id: str
    run_dir: str
    qa: TrackSummary | None = None
    planning: TrackSummary | None = None
    report_html: str | None = None
    regressions: list[str] = field(default_factory=list)
    # The report's headline per model, as Markdown and as records (the run's artifacts).
    headline_markdown: str | None = None
    headline_records: list[dict[str, object]] = field(default_factory=list)
    # Set when nothing changed since the run finished cleanly and it was reused as it was
    # (benchcore.finished_runs): when it finished.
    reused_finished_at: str | None = None

    def with_report(self, result: Any, headline_markdown: str,
                    headline_records: list[dict[str, object]]) -> RunSummary:
        """This summary plus the report's location, headline and regression flags."""
        flags = [f"{r.model} {r.metric}: {r.before:.3f} -> {r.after:.3f}"
                 for r in result.regressions]
        return replace(self, report_html=str(result.html_path), regressions=flags,
                       headline_markdown=headline_markdown, headline_records=headline_records)

    def tracks(self) -> list[tuple[str, TrackSummary | None]]:
        return [("qa", self.qa), ("planning", self.planning)]

    def llm_calls(self) -> dict[str, int]:
        counts = {"fresh": 0, "cached_stages": 0}
        for _name, track in self.tracks():
            if track is not None:
                for key in counts:
                    counts[key] += track.llm_calls.get(key, 0)
        return counts


def check_error_budget(summary: RunSummary, max_error_fraction: float) -> None:
    for name, track in summary.tracks():
        if track is None or track.items == 0:
            continue
        share = track.errors / track.items
        if share > max_error_fraction:
            causes = "".join(f"\n  {line}" for line in describe_causes(track.error_causes))
            raise ErrorBudgetExceeded(
                f"{name} track: {track.errors}/{track.items} items errored "
                f"(limit {max_error_fraction:.0%}); tables written to {summary.run_dir}{causes}"
            )
