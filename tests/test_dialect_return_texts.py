"""RETURN items' texts (Neo4j's column names) read from the tokens agree with the texts read
from a parse with positions (`return_texts.py`), and a translation falls back to the latter
where the tokens do not line up."""

from __future__ import annotations

import sys

import pytest

from dsgqa.dialect import return_texts as module
from dsgqa.dialect import translate
from dsgqa.dialect.parser import parse_text
from dsgqa.dialect.return_texts import keep_return_texts, keep_return_texts_from_positions

QUERIES = [
    "MATCH (r:Room) RETURN count(*), r.nodeSymbol, (r.center.x + 1) ORDER BY r.nodeSymbol",
    "MATCH (r:Room) RETURN DISTINCT count( * ), r.nodeSymbol SKIP 1 LIMIT 2",
    "MATCH (r:Room) RETURN CASE r.class WHEN 'a', 'b' THEN 1 ELSE 2 END, r.nodeSymbol AS s",
    "MATCH (r:Room) RETURN CASE WHEN r.class IN ['a, b', '(x'] THEN [1, 2] END, {k: [1, 2]}",
    "MATCH (r:Room) RETURN r.nodeSymbol /* a, comment */ , `odd, name(` , r.`class`",
    "MATCH (r:Room) RETURN r.nodeSymbol STARTS WITH 'R', r.class ENDS WITH 'y'",
    "MATCH (r:Room) RETURN r.nodeSymbol UNION ALL MATCH (o:Object) RETURN o.nodeSymbol",
    "MATCH (r:Room) CALL (r) { MATCH (r)-->(m) RETURN count(m), max(m.center.z) } "
    "RETURN r.nodeSymbol, `count(m)`",
    "MATCH (r:Room) RETURN COUNT { MATCH (r)-->(m) RETURN m }, [(r)-->(m) | m.class] ;",
    "MATCH (r:Room) RETURN *, r.class",
    "MATCH (r:Room) RETURN r.nodeSymbol OFFSET 1",
]


def _texts(root: object) -> list[str | None]:
    return [getattr(s, "original_text", None) for s in root.iter_subtrees_topdown()  # type: ignore[attr-defined]
            if s.data == "proj_item"]


@pytest.mark.parametrize("query", QUERIES)
def test_tokens_give_the_texts_positions_give(query: str) -> None:
    plain, text = parse_text(query, positions=False)
    keep_return_texts(plain, text, plain.tokens)
    spanned, text = parse_text(query)
    keep_return_texts_from_positions(spanned, text)
    assert _texts(plain) == _texts(spanned)
    assert any(t is not None for t in _texts(plain))


def test_a_translation_falls_back_to_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    query = "MATCH (r:Room) RETURN count(*), r.nodeSymbol ORDER BY count(*)"
    expected = translate(query, "ladybug")

    def misaligned(*_args: object) -> None:
        raise module.Misaligned

    translate_module = sys.modules["dsgqa.dialect.translate"]   # the package names the function
    monkeypatch.setattr(translate_module, "keep_return_texts", misaligned)
    assert translate(query, "ladybug") == expected
