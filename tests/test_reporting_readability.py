"""The report stays readable for a generated question set (about 70 tags): tags grouped by kind,
charts no wider than the page, a table of contents whose links land, counts as whole numbers;
a hand-written set keeps its one group of plain tags."""

from __future__ import annotations

import base64
import io
import re
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pandas as pd
import pytest
from PIL import Image

from dsgqa.question_gen.templates import CATEGORIES
from reporting.document import Table, rows
from reporting.report import build_report
from reporting.store import record_run
from tests.reporting_runs import (
    BAD_REPLY,
    FAILURE_DETAIL,
    generated_tags,
    write_inputs,
    write_run,
)

PAGE_PX = 1200  # the report's max-width (CSS pixels); a wider PNG is scaled down to unreadable
GENERATED_QUESTIONS = [f"g{n:03d}" for n in range(120)]


class ReportParser(HTMLParser):
    """Ids, in-page links, section headings and inline images of one report."""

    def __init__(self) -> None:
        super().__init__()
        self.ids: list[str] = []
        self.links: list[str] = []
        self.images: list[bytes] = []
        self.headings: list[str] = []
        self.tables: dict[str, list[list[str]]] = {}
        self._in: str | None = None
        self._text = ""
        self._caption = ""
        self._row: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.append(str(values["id"]))
        if tag == "a" and str(values.get("href", "")).startswith("#"):
            self.links.append(str(values["href"])[1:])
        if tag == "img" and str(values.get("src", "")).startswith("data:image/png;base64,"):
            self.images.append(base64.b64decode(str(values["src"]).split(",", 1)[1]))
        if tag in ("h2", "caption", "td", "th"):
            self._in, self._text = tag, ""
        if tag == "tr":
            self._row = []

    def handle_data(self, data: str) -> None:
        if self._in:
            self._text += data

    def handle_endtag(self, tag: str) -> None:
        if tag != self._in:
            if tag == "tr" and self._row is not None:
                self.tables.setdefault(self._caption, []).append(self._row)
            return
        if tag == "h2":
            self.headings.append(self._text)
        elif tag == "caption":
            self._caption = self._text
        elif self._row is not None:
            self._row.append(self._text)
        self._in = None


def parsed(html_path: Path) -> ReportParser:
    parser = ReportParser()
    parser.feed(html_path.read_text())
    return parser


@pytest.fixture(scope="module")
def generated_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A run on a generated-style set: 120 questions under 70 tags, two models."""
    root = tmp_path_factory.mktemp("generated")
    inputs = write_inputs(root / "inputs")
    wrong = {("gpt-a", uid) for uid in GENERATED_QUESTIONS[::3]}
    run = write_run(root / "results", "20260101T020000-aaaaaa", inputs, wrong=wrong,
                    unsolved={("gripper", "instance-2")},
                    tags=generated_tags(len(GENERATED_QUESTIONS)), questions=GENERATED_QUESTIONS)
    record_run(run, root / "store")
    return build_report(root / "store", root / "out").html_path


@pytest.fixture(scope="module")
def plain_report(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("plain")
    record_run(write_run(root / "results", "20260101T020000-aaaaaa",
                         write_inputs(root / "inputs")), root / "store")
    return build_report(root / "store", root / "out").html_path


def test_every_chart_of_a_70_tag_set_fits_the_page(generated_report):
    images = parsed(generated_report).images
    assert images
    widths = [Image.open(io.BytesIO(png)).size[0] for png in images]
    assert max(widths) <= PAGE_PX, widths


def test_a_generated_set_is_grouped_by_tag_kind(generated_report):
    report = parsed(generated_report)
    assert {"QA by category", "QA by template", "QA by feature"} <= set(report.headings)
    assert "QA by tag" not in report.headings
    categories = report.tables["Accuracy and mean F1 by category per model and pipeline"]
    assert {row[2] for row in categories[1:]} >= {"counting", "paths", "pddl"}
    assert len(categories) - 1 == 2 * len(CATEGORIES)   # two models, every category
    html = generated_report.read_text()
    # 50 templates: the chart shows the 20 largest and names the 30 it leaves out
    assert re.search(r"the 20 templates with the most questions, 30 more in the table", html)
    # the long template table is collapsed, the short category one is not
    assert re.search(r"<details class=\"table\"><summary>Accuracy and mean F1 by template", html)
    assert not re.search(r"<details class=\"table\"><summary>Accuracy and mean F1 by category",
                         html)


def test_a_hand_written_set_keeps_one_group_of_plain_tags(plain_report):
    report = parsed(plain_report)
    assert "QA by tag" in report.headings and "QA by category" not in report.headings
    by_tag = report.tables["Accuracy and mean F1 by tag per model and pipeline"]
    assert {row[2] for row in by_tag[1:]} == {"counting", "sets", "hierarchy", "paths",
                                              "position"}


@pytest.mark.parametrize("fixture", ["generated_report", "plain_report"])
def test_the_table_of_contents_links_every_section(fixture, request):
    report = parsed(request.getfixturevalue(fixture))
    assert report.links, "no table of contents"
    assert len(report.ids) == len(set(report.ids))
    assert all(link in report.ids for link in report.links)
    sections = [h for h in report.headings if h != "Contents"]
    assert len(report.links) == len(sections)
    markdown = request.getfixturevalue(fixture).with_name("report.md").read_text()
    for link in report.links:
        assert f"](#{link})" in markdown


def test_counts_are_whole_numbers_with_separators():
    frame = pd.DataFrame({"model": ["m"], "tokens": [1547.4], "prompt_tokens": [265015.0],
                          "llm_calls": [3.0], "items": [1200], "tokens_per_question": [1547.4],
                          "llm_calls_per_question": [1.25], "seconds": [2.5],
                          "accuracy": [0.5]})
    cells = [text for text, _ in rows(Table("t", frame, percent=("accuracy",)))[0]]
    assert cells == ["m", "1,547", "265,015", "3", "1,200", "1,547", "1.250", "2.500", "50.0%"]


def test_report_counts_are_integers(generated_report):
    """Every count column of every table holds whole numbers (tokens, calls, questions)."""
    from reporting.document import is_count_column

    report = parsed(generated_report)
    checked = 0
    for caption, table in report.tables.items():
        header, *body = table
        for column, name in enumerate(header):
            if not is_count_column(name):
                continue
            for row in body:
                assert re.fullmatch(r"-?[\d,]*", row[column]), (caption, name, row[column])
                checked += 1
    assert checked > 100


def test_the_planning_drilldown_shows_a_failed_instance(generated_report):
    """gripper/instance-2 failed: its item is closed and holds the model, the failure kind,
    the first error, the reply (escaped), the plan read from it and the feedback."""
    html = generated_report.read_text()
    section = html.split('<section id="per-planning-instance">')[1].split("</section>")[0]
    items = re.findall(r"<details class=\"item wrong\">(.*?)</details>", section, re.S)
    assert len(items) == 1 and "<details open" not in section
    item = items[0]
    assert "<summary>gripper/instance-2 · gpt-a · precondition</summary>" in item
    fields = dict(re.findall(r"<dt>(.*?)</dt><dd><pre>(.*?)</pre></dd>", item, re.S))
    assert fields["model"] == "gpt-a" and fields["failure kind"] == "precondition"
    assert fields["first error"] == escape(FAILURE_DETAIL)
    assert fields["reply"] == escape(BAD_REPLY) and "&lt;plan&gt;" in fields["reply"]
    assert "(pick-up a)\n(stack a c)" in fields["parsed plan"]   # as the evaluation reads it
    assert fields["feedback given"] == escape(FAILURE_DETAIL)
    assert "#per-planning-instance" in html.split("</nav>")[0]


def test_a_long_planning_reply_is_cut_with_a_note():
    from reporting.plan_drilldown import FIELD_CHARS, planning_drilldown

    planning = pd.DataFrame({
        "model": ["m", "m"], "domain": ["d", "d"], "instance": ["i1", "i2"],
        "experiment": ["e", "e"], "success": [True, False], "failure_kind": ["", ""],
        "failure_detail": ["", ""], "error": ["", "HTTP 500: server error"],
        "reply": ["(a)", "x" * (FIELD_CHARS + 500)], "plan": ["", ""], "feedback": ["", ""],
    })
    drill = planning_drilldown(planning)
    assert [item.title for item in drill.items] == ["d/i2 · m · error"]
    fields = dict(drill.items[0].fields)
    assert fields["first error"] == "HTTP 500: server error"
    assert fields["reply"].endswith(f"…(cut: the first {FIELD_CHARS:,} of "
                                    f"{FIELD_CHARS + 500:,} characters)")
