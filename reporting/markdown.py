"""The report in Markdown, for a pull request, a Prefect artifact or a terminal: the same
document as the HTML version, with the plots as PNG files beside it (Markdown cannot inline them
portably)."""

from __future__ import annotations

from benchcore.markdown_text import markdown_text
from reporting.document import Document, Section, Table, rows


def render_markdown(document: Document) -> str:
    lines = [f"# {markdown_text(document.title)}", ""]
    lines += [f"- **{markdown_text(key)}**: {markdown_text(value)}"
              for key, value in document.facts]
    lines += ["", "**Contents**", ""]
    lines += [f"{n}. [{markdown_text(s.title)}](#{a})"
              for n, (s, a) in enumerate(zip(document.sections, document.anchors(), strict=True),
                                         1)]
    for section in document.sections:
        lines += ["", *_section(section)]
    return "\n".join(lines).rstrip() + "\n"


def _section(section: Section) -> list[str]:
    lines = [f"## {markdown_text(section.title)}", ""]
    for paragraph in section.paragraphs:
        lines += [paragraph, ""]
    for alert in section.alerts:
        lines += [f"> **{markdown_text(alert)}**", ""]
    for figure in section.figures:
        lines += [f"![{figure.caption}]({figure.filename})", ""]
    for table in section.tables:
        lines += [*_table(table), ""]
    for drill in section.drilldowns:
        wrong = [item for item in drill.items if item.wrong]
        lines += [f"### {markdown_text(drill.caption)}: the wrong ones ({len(wrong)})", ""]
        lines += [f"- {markdown_text(item.title)}" for item in wrong] + [""]
    return lines


def _table(table: Table) -> list[str]:
    if table.frame.empty:
        return [f"*{table.caption}: none.*"]
    header = [_escape(str(c)) for c in table.frame.columns]
    lines = [f"**{markdown_text(table.caption)}**", "", "| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if _numeric(table, c) else "---" for c in table.frame.columns)
             + "|"]
    lines += ["| " + " | ".join(_escape(text) for text, _ in row) + " |" for row in rows(table)]
    return lines


def _numeric(table: Table, column: object) -> bool:
    return table.frame[column].dtype.kind in "iuf"


def _escape(text: str) -> str:
    """Cell text that cannot break the table or render as HTML, links or code."""
    return markdown_text(text)
