"""Does a run's HTML report still open? Parsed with the standard library's HTML parser: the
sections a reader looks for are there, every drill-down item is closed, the plots are inline
and the document ends, so a browser shows the whole file, not a truncated or broken one.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

# The report's sections (reporting/sections.py: build_document), in order.
EXPECTED_SECTIONS = ("Summary", "Scene-graph QA", "Planning", "Tokens, cost and time",
                     "Run-vs-run comparison", "Trend over runs", "Per question")


@dataclass
class ReportShape:
    sections: list[str] = field(default_factory=list)
    drill_items: int = 0
    drill_items_closed: int = 0
    wrong_items: int = 0
    images: int = 0
    notes: list[str] = field(default_factory=list)
    ended: bool = False

    def problems(self, expected: tuple[str, ...] = EXPECTED_SECTIONS) -> list[str]:
        """What would make the report fail to open or miss what a reader needs; [] when fine."""
        found = []
        missing = [s for s in expected if s not in self.sections]
        if missing:
            found.append(f"missing sections: {', '.join(missing)}")
        if self.drill_items != self.drill_items_closed:
            found.append(f"{self.drill_items - self.drill_items_closed} drill-down items "
                         "never closed")
        if not self.ended:
            found.append("no closing </html>")
        return found


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.shape = ReportShape()
        self._in: str | None = None   # "h2" or "note" while collecting their text
        self._text: list[str] = []
        self._in_drilldown = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        if tag == "h2":
            self._in, self._text = "h2", []
        elif tag == "div" and "drilldown" in classes:
            self._in_drilldown = True
        elif tag == "p" and self._in_drilldown:
            self._in, self._text = "note", []
        elif tag == "details" and "item" in classes:
            self.shape.drill_items += 1
            self.shape.wrong_items += "wrong" in classes
        elif tag == "img":
            self.shape.images += 1

    def handle_endtag(self, tag: str) -> None:
        if tag == "h2" and self._in == "h2":
            self.shape.sections.append("".join(self._text).strip())
            self._in = None
        elif tag == "p" and self._in == "note":
            self.shape.notes.append("".join(self._text).strip())
            self._in = None
        elif tag == "details":
            self.shape.drill_items_closed += 1
        elif tag == "html":
            self.shape.ended = True

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text.append(data)


def read_report(path: Path) -> ReportShape:
    reader = _Reader()
    reader.feed(Path(path).read_text(encoding="utf-8"))
    reader.close()
    return reader.shape
