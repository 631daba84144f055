"""The engine functions that stand in for Neo4j built-ins (`dsgqa.dialect.functions`), against
values worked out from Neo4j's definitions (Java's `BigDecimal.valueOf`, `Math.round`)."""

from __future__ import annotations

import pytest

from dsgqa.dialect.functions import neo4j_round


@pytest.mark.parametrize(("value", "precision", "mode", "expected"), [
    (1.005, 2, "", 1.01),          # the decimal digits 1.005, not the binary 1.00499...
    (2.675, 2, "", 2.68),
    (2.345, 2, "", 2.35),
    (0.125, 2, "", 0.13),
    (-1.5, 0, "", -1.0),           # Math.round: ties toward positive infinity
    (2.5, 0, "", 3.0),
    (-2.5, 0, "HALF_UP", -3.0),    # an explicit mode: BigDecimal, away from zero
    (2.345, 2, "HALF_EVEN", 2.34),
    (2.5, 0, "HALF_EVEN", 2.0),
    (-1.55, 1, "DOWN", -1.5),
    (-1.55, 1, "FLOOR", -1.6),
    (1.21, 1, "CEILING", 1.3),
    (1e20, 2, "", 1e20),           # fewer places than asked: unchanged
    (1.0e-5, 3, "", 0.0),
    (3.0, 1, "", 3.0),
    (2.5, 1, "UNNECESSARY", 2.5),
])
def test_round_as_neo4j(value: float, precision: int, mode: str, expected: float) -> None:
    assert neo4j_round(value, precision, mode) == expected


@pytest.mark.parametrize(("precision", "mode", "message"), [
    (-2, "", "cannot be negative"),
    (0, "NOPE", "Unknown rounding mode"),
    (1, "UNNECESSARY", "Rounding necessary"),
])
def test_round_refuses_what_neo4j_refuses(precision: int, mode: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        neo4j_round(2.55, precision, mode)


def test_a_value_of_one_of_several_kinds_is_read_back() -> None:
    """`mixed_results.py` writes a returned value of several kinds as a struct with one field
    per kind; the rows read back the row's own value, and any other struct stays a map."""
    from dsgqa.dialect.functions import MIXED_VALUE_KEY, mixed_value
    from dsgqa.graphstore.base import plain_value

    struct = {f"{MIXED_VALUE_KEY}float": None, f"{MIXED_VALUE_KEY}str": "none"}
    assert mixed_value(struct) == (True, "none")
    assert plain_value(struct) == "none"
    assert plain_value({f"{MIXED_VALUE_KEY}int": None, f"{MIXED_VALUE_KEY}str": None}) is None
    assert plain_value({f"{MIXED_VALUE_KEY}int": 7, f"{MIXED_VALUE_KEY}str": None}) == 7
    assert mixed_value({"x": 1.0, "y": 2.0}) == (False, None)
    assert plain_value({"x": 1.0, "y": 2.0}) == {"x": 1.0, "y": 2.0}
