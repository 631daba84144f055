"""A question set's tags grouped by kind, so a generated set's ~70 tags read as a few short
lists (its categories, its templates, their features) instead of one long one.

`questions generate` writes each question's tags as its category first, then its template, then
the template's features, then its difficulty tier (`tier:N`). The same word can be the category
of one question and a feature of another (`counting`, `ordered_lists`), so a tag's kind is its
place in its question's list, not the word itself; a tier tag is known by its form. A
hand-written set has plain tags in no particular order: one group, `tag`, as the report always
showed it.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from benchcore.tag_lists import tag_list
from dsgqa.question_gen.difficulty import tier_of_tags
from dsgqa.question_gen.templates import CATEGORIES
from reporting import metrics

CATEGORY, TIER, TEMPLATE, FEATURE, PLAIN = "category", "tier", "template", "feature", "tag"
KINDS = (CATEGORY, TIER, TEMPLATE, FEATURE)


@dataclass(frozen=True)
class TagGroup:
    """One kind of tag and its per-tag summary (metrics.qa_by_tag's columns)."""

    kind: str
    by_tag: pd.DataFrame

    @property
    def plural(self) -> str:
        return {CATEGORY: "categories", TIER: "tiers", TEMPLATE: "templates",
                FEATURE: "features", PLAIN: "tags"}[self.kind]


def is_generated(qa: pd.DataFrame) -> bool:
    """Whether every question's tags start with a generator category and name a template:
    then positions mean kinds. One hand-written question among them and they mean nothing."""
    if qa.empty or "tags" not in qa.columns:
        return False
    tags = qa["tags"].map(tag_list)
    return bool(tags.map(lambda t: len(t) >= 2 and t[0] in CATEGORIES).all())


def tag_groups(qa: pd.DataFrame) -> list[TagGroup]:
    """Per kind (category, tier, template, feature) of a generated set, else the one plain
    group; kinds no question has (a set without features, or written before tiers) are left
    out."""
    if not is_generated(qa):
        return [TagGroup(PLAIN, metrics.qa_by_tag(qa))]
    groups = []
    for kind in KINDS:
        by_tag = metrics.qa_by_tag(rows_of_kind(qa, kind))
        if not by_tag.empty:
            groups.append(TagGroup(kind, by_tag))
    return groups


def rows_of_kind(qa: pd.DataFrame, kind: str) -> pd.DataFrame:
    """The rows with each question's tags cut to those of one kind (a generated set's)."""
    return qa.assign(tags=qa["tags"].map(lambda v: _of_kind(tag_list(v), kind)))


def _of_kind(tags: list[str], kind: str) -> list[str]:
    if kind == CATEGORY:
        return tags[:1]
    if kind == TEMPLATE:
        return tags[1:2]
    tiers = [t for t in tags[2:] if tier_of_tags([t]) is not None]
    if kind == TIER:
        return tiers
    return [t for t in tags[2:] if t not in tiers]
