"""The report's sections on QA by tag: one per kind of tag (see `tag_groups`), each with a chart
that stays readable however many tags the set has, and the full numbers in a table.

A chart shows at most `TOP_TAGS` tags, those with the most questions (where an accuracy means
the most), and its caption names the ones left out; the table beside it has every tag. A long
table is collapsed, so the sections after it are a scroll away, not six hundred rows.
"""

from __future__ import annotations

import pandas as pd

from reporting import metrics, plots
from reporting.document import Figure, Section, Table
from reporting.tag_groups import CATEGORY, TagGroup, tag_groups

TOP_TAGS = 20
LONG_TABLE_ROWS = 30
RATES = ("accuracy",)  # mean F1 is a mean score, shown as 0.750 like everywhere else
GENERATED_NOTE = ("A generated question set tags each question with its category, then its "
                  "template, then the template's features, then its difficulty tier (tier:1 "
                  "to tier:3, from what its gold computation needs); a question counts once "
                  "under each of its tags.")


def tag_sections(qa: pd.DataFrame) -> list[Section]:
    """One section per kind of tag (one, `QA by tag`, for a hand-written set)."""
    if qa.empty:
        return []
    charted = {g.kind: g for g in tag_groups(metrics.qa_by_system(qa))}
    return [_section(group, charted[group.kind]) for group in tag_groups(qa)]


def _section(group: TagGroup, charted: TagGroup) -> Section:
    """`group` has a row per model, pipeline and tag (the table); `charted` the same numbers
    per system label, one bar each (the chart)."""
    kind = group.kind
    shown, left_out = largest_tags(charted.by_tag, TOP_TAGS)
    order = {tag: number for number, tag in enumerate(shown)}
    bars = charted.by_tag[charted.by_tag["tag"].isin(order)]
    bars = bars.sort_values("tag", key=lambda t: t.map(order), kind="stable")
    questions = bars.groupby("tag")["items"].max()
    png = plots.tag_bars(bars.assign(tag=bars["tag"].map(lambda t: f"{t} ({questions[t]:,})")),
                         f"QA accuracy by {kind} (questions in brackets)")
    caption = f"Accuracy by {kind} per model and pipeline (bars) with mean F1 (black ticks)"
    if left_out:
        caption += (f"; the {len(shown)} {group.plural} with the most questions, "
                    f"{len(left_out)} more in the table below: {', '.join(left_out)}")
    figures = [Figure(caption, png, f"qa_accuracy_by_{kind}.png")] if png else []
    table = Table(f"Accuracy and mean F1 by {kind} per model and pipeline",
                  group.by_tag.rename(columns={"tag": kind}), percent=RATES,
                  collapsed=len(group.by_tag) > LONG_TABLE_ROWS)
    paragraphs = [GENERATED_NOTE] if kind == CATEGORY else []
    return Section(f"QA by {kind}", paragraphs=paragraphs, figures=figures, tables=[table])


def largest_tags(by_tag: pd.DataFrame, top: int) -> tuple[list[str], list[str]]:
    """The `top` tags with the most questions (ties by name), then the rest with their counts
    (`name (n)`), for the note of what a chart leaves out."""
    sizes = by_tag.groupby("tag")["items"].max().reset_index()
    sizes = sizes.sort_values(["items", "tag"], ascending=[False, True], kind="stable")
    tags, counts = list(sizes["tag"]), list(sizes["items"])
    return tags[:top], [f"{t} ({int(n):,})" for t, n in zip(tags[top:], counts[top:],
                                                           strict=True)]
