"""The engine functions that stand in for Neo4j built-ins (`dsgqa.dialect.functions`,
`text_functions`, `float_sums`), against values worked out from Neo4j's definitions (Java's
`BigDecimal.valueOf`, `Math.round`, `String.toUpperCase`, the Cypher Manual's string
functions)."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from dsgqa.dialect import CypherSyntaxError, DialectError, translate
from dsgqa.dialect.float_sums import neo4j_sum_arith, neo4j_sum_string
from dsgqa.dialect.functions import neo4j_round
from dsgqa.dialect.neo4j_functions import NEO4J_5_FUNCTIONS
from dsgqa.dialect.parser import parse
from dsgqa.dialect.regex_patterns import neo4j_regex_match
from dsgqa.dialect.removed_syntax import may_call_unknown_functions, refuse_unknown_functions
from dsgqa.dialect.text_functions import (
    neo4j_left,
    neo4j_replace,
    neo4j_right,
    neo4j_split,
    neo4j_substring,
    neo4j_substring_from,
    neo4j_to_lower,
    neo4j_to_upper,
    neo4j_trim,
    neo4j_trim_character,
)


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


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: neo4j_left("hello", 3), "hel"),
    (lambda: neo4j_left("hello", 0), ""),
    (lambda: neo4j_left("hello", 9), "hello"),
    (lambda: neo4j_left(None, None), None),        # only a NULL string gives NULL
    (lambda: neo4j_right("hello", 3), "llo"),
    (lambda: neo4j_right("hello", 0), ""),
    (lambda: neo4j_right("hello", 9), "hello"),
    (lambda: neo4j_right(None, -1), None),
    (lambda: neo4j_substring("hello", 1, 3), "ell"),   # a 0-based start
    (lambda: neo4j_substring("hello", 7, 2), ""),
    (lambda: neo4j_substring_from("hello", 2), "llo"),
    (lambda: neo4j_substring(None, None, 1), None),
    (lambda: neo4j_to_upper("straße"), "STRASSE"),     # Java's full case mapping
    (lambda: neo4j_to_lower("ΟΔΟΣ"), "οδος"),          # and its final sigma
    # Java's Character.isWhitespace: tabs, newlines, an em space; not a no-break space
    (lambda: neo4j_trim("\t hallway \n\u2003", "both"), "hallway"),
    (lambda: neo4j_trim("\u00a0 x \u202f", "both"), "\u00a0 x \u202f"),
    (lambda: neo4j_trim("  x  ", "leading"), "x  "),
    (lambda: neo4j_trim("  x  ", "trailing"), "  x"),
    (lambda: neo4j_trim("     ", "both"), ""),
    (lambda: neo4j_trim_character("xxhix", "x", "both"), "hi"),
    (lambda: neo4j_trim_character("xxhix", "x", "leading"), "hix"),
    (lambda: neo4j_trim_character("xxhix", "x", "trailing"), "xxhi"),
    # every character of the set, as the Manual's btrim('xxyyhelloxyxy', 'xy') = 'hello'
    (lambda: neo4j_trim_character("xxyyhelloxyxy", "xy", "both"), "hello"),
    (lambda: neo4j_trim_character("xxyyhelloxyxy", "xy", "leading"), "helloxyxy"),
    (lambda: neo4j_trim_character("abc", "", "both"), "abc"),
])
def test_string_functions_as_neo4j(call: Callable[[], object], expected: object) -> None:
    assert call() == expected


@pytest.mark.parametrize(("call", "message"), [
    (lambda: neo4j_left("hello", -1), "negative length"),
    (lambda: neo4j_left("hello", None), "NULL length"),
    (lambda: neo4j_right("hello", -2), "negative length"),
    (lambda: neo4j_substring("hello", -1, 2), "negative start"),
    (lambda: neo4j_substring("hello", 1, -2), "negative length"),
    (lambda: neo4j_substring_from("hello", None), "NULL start"),
])
def test_string_functions_raise_where_neo4j_raises(call: Callable[[], object],
                                                   message: str) -> None:
    with pytest.raises(ValueError, match=f"^Neo4j raises: .*{message}"):
        call()


_GRIN = "\U0001F600"   # beyond U+FFFF: two UTF-16 code units in Java


@pytest.mark.parametrize(("call", "expected"), [
    (lambda: neo4j_split("a,,b", ""), ["a", ",", ",", "b"]),
    (lambda: neo4j_split("\u00e9t\u00e9", ""), ["\u00e9", "t", "\u00e9"]),   # BMP: one unit each
    (lambda: neo4j_split(f"a{_GRIN}b", _GRIN), ["a", "b"]),
    (lambda: neo4j_replace(f"a{_GRIN}b", _GRIN, "-"), "a-b"),
    (lambda: neo4j_replace("ab", "", "-"), "-a-b-"),
])
def test_split_and_replace_beside_text_beyond_the_bmp(call: Callable[[], object],
                                                      expected: object) -> None:
    assert call() == expected


@pytest.mark.parametrize("call", [
    lambda: neo4j_split(f"a{_GRIN}", ""),
    lambda: neo4j_replace(f"a{_GRIN}", "", "-"),
])
def test_an_empty_search_of_text_beyond_the_bmp_is_refused(call: Callable[[], object]) -> None:
    """Neo4j cuts such text into UTF-16 code units (`toCharArray()`, `String.replace`), lone
    surrogates the engines cannot hold; the error is not Neo4j's, so not charged."""
    with pytest.raises(ValueError, match="UTF-16 code units") as raised:
        call()
    assert not str(raised.value).startswith("Neo4j raises")


@pytest.mark.parametrize("query", [
    f"RETURN '{_GRIN}' < '\\uFFFF' AS a",
    f"MATCH (o:Object) WHERE o.name >= '{_GRIN}' RETURN o",
    "RETURN '\\uD83D\\uDE00' > 'a' AS a",                      # the pair as escapes
    f"UNWIND ['{_GRIN}', 'a'] AS x RETURN x ORDER BY x",
    f"MATCH (o:Object) WHERE o.name <> '{_GRIN}' RETURN o.class AS c ORDER BY c",
    f"UNWIND ['{_GRIN}', 'a'] AS x RETURN max(x) AS m",
    "RETURN '\\uD83D' AS lone",                                 # a lone surrogate
])
def test_text_order_beside_text_beyond_the_bmp_is_refused(query: str) -> None:
    with pytest.raises(DialectError):
        translate(query, "ladybug")


@pytest.mark.parametrize("query", [
    f"MATCH (o:Object) WHERE o.name = '{_GRIN}' OR o.name CONTAINS '{_GRIN}' RETURN o",
    f"RETURN size('{_GRIN}') AS n, reverse('a{_GRIN}') AS r, left('{_GRIN}x', 1) AS l",
    f"MATCH (o:Object) WHERE o.name <> '{_GRIN}' RETURN o ORDER BY o.center.x, count {{ (o)--() }}",
    f"MATCH (o:Object) WHERE o.name STARTS WITH '{_GRIN}' RETURN max(o.center.z) AS z",
    "MATCH (o:Object) WHERE o.name < '\u00e9' RETURN o ORDER BY o.name",   # within the BMP
])
def test_text_beyond_the_bmp_is_answered_where_order_is_not_of_it(query: str) -> None:
    translate(query, "ladybug")


@pytest.mark.parametrize("query", [
    "RETURN -0.0 < 0.0 AS a",
    "MATCH (o:Object) WHERE o.center.x >= - 0.0 RETURN o",
    "UNWIND [0.0, -0.0] AS x RETURN max(x) AS m",
    "UNWIND [0.0, -0.0e0] AS x RETURN x ORDER BY x",
])
def test_a_negative_zero_literal_beside_a_float_order_is_refused(query: str) -> None:
    """Neo4j orders -0.0 below 0.0 (`Double.compare`); the engines take them as equal."""
    with pytest.raises(DialectError, match=r"-0\.0 literal"):
        translate(query, "kuzu")


@pytest.mark.parametrize("query", [
    "WITH -0.0 AS z RETURN z = 0.0 AS a, toString(z) AS s",      # no ordering
    "MATCH (o:Object) WHERE o.center.x > -0.5 RETURN o ORDER BY o.center.x",   # not zero
    "MATCH (o:Object) WHERE o.center.x - 0.0 < 1.0 RETURN o",   # a subtraction
    "MATCH (o:Object) WHERE o.center.z = -0.0 RETURN o.name AS n ORDER BY n",   # text order
    "RETURN -0 < 1 AS a",                                         # the integer 0
])
def test_a_negative_zero_literal_is_answered_without_a_float_order(query: str) -> None:
    translate(query, "kuzu")


@pytest.mark.parametrize(("args", "expected"), [
    ((3.0, 2.0, "/", False), 1.5),
    ((-7.5, 2.0, "%", False), -1.5),      # Java's % keeps the dividend's sign
    ((7.0, 2.5, "/", True), 2.8),         # an integer by a float sum
])
def test_float_sum_division(args: tuple[float, float, str, bool], expected: float) -> None:
    assert neo4j_sum_arith(*args) == expected


def test_float_sum_of_zero_is_refused_where_its_type_shows() -> None:
    """0.0 may be Neo4j's integer 0 (no values) or the float 0.0 (values that cancel)."""
    assert neo4j_sum_string(2.5) == "2.5"
    assert math.isnan(neo4j_sum_arith(2.5, 0.0, "%", False))
    with pytest.raises(ValueError, match="float sum of 0"):
        neo4j_sum_string(0.0)
    # a float by a sum of 0.0: Infinity over the float 0.0, "/ by zero" over the integer 0
    for args in ((0.0, 0.0, "/", False), (7.0, 0.0, "/", True), (0.0, 0.0, "%", False),
                 (2.5, 0.0, "/", False), (-2.5, 0.0, "/", False)):
        with pytest.raises(ValueError, match="float sum of 0"):
            neo4j_sum_arith(*args)


@pytest.mark.parametrize(("text", "pattern", "expected"), [
    ("trash", "^(?!sign).*$", True),      # lookaround, which RE2 lacks
    ("O55", r"O\d*(\d)\1", True),         # a backreference
    ("lamp", "l.*+p", False),             # a possessive quantifier takes the p
    ("CAFÉ", "(?i)café", False),          # Java folds ASCII case only
    ("naïve", r"\w+", False),             # Java's \w is ASCII
    ("a\rb", "a.b", False),               # Java's . stops at \r; Python's does not
    ("fireexit", "(?x) [a-z ]+ ", True),  # (?x) skips whitespace inside classes too in Java
    ("alpha", "[[:alpha:]]+", True),      # a class of the characters :alph (and nested [..])
    ("", "(?m)^.*$", False),              # Java's multiline ^ never matches at the end
])
def test_regex_reads_as_java(text: str, pattern: str, expected: bool) -> None:
    assert neo4j_regex_match(text, pattern) is expected


@pytest.mark.parametrize(("text", "pattern"), [
    ("café", "caf\\b.*"),                 # é is a word character in JDK 17, not in JDK 19+
    ("aa", "(a)*\\1"),                    # Java's captures in loops differ from Python's
    ("alpha", "[[:alpha:]" + "]+\\X"),      # a computed pattern is checked when it runs
])
def test_regex_python_reads_otherwise_is_refused(text: str, pattern: str) -> None:
    with pytest.raises(ValueError, match="regular expression"):
        neo4j_regex_match(text, pattern)


@pytest.mark.parametrize("query", [
    "RETURN pow(2, 3) AS v",                          # Kuzu's, not Neo4j's (`2 ^ 3`)
    "RETURN concat('a', 'b') AS v",                   # Kuzu's (`'a' + 'b'`)
    "RETURN ln(2.0) AS v",                            # GQL's, not in Neo4j 5
    "MATCH (r:Room) RETURN list_sort(collect(r.nodeSymbol)) AS v",
    "RETURN CAST(1 AS STRING) AS v",
    "RETURN distance(point({x: 0, y: 0}), point({x: 1, y: 0})) AS v",   # removed in Neo4j 5
    "MATCH (o:Object) WHERE ifnull(o.class, 'x') = 'x' RETURN o",
    "RETURN `pow`(2, 3) AS v",                        # backquoted, the same function
])
def test_a_function_neo4j_5_lacks_is_the_model_s_error(query: str) -> None:
    """Neo4j answers "Unknown function"; the engines would have answered some of these."""
    with pytest.raises(CypherSyntaxError):
        translate(query)


def test_every_neo4j_5_function_passes_the_name_check() -> None:
    """A name in the catalogue is translated or refused, never charged as unknown; a word in a
    string is not a call."""
    for fname in NEO4J_5_FUNCTIONS:
        refuse_unknown_functions(parse(f"RETURN {fname}(1) AS v"))
    in_a_string = "MATCH (r:Room) WHERE (r.class = 'pow(') RETURN count(r) AS n"
    assert may_call_unknown_functions(in_a_string)   # the text alone cannot tell ...
    refuse_unknown_functions(parse(in_a_string))     # ... the tree can
    assert not may_call_unknown_functions("MATCH (r:Room) WHERE (r.class = 'x') RETURN "
                                          "count(r) AS n, shortestPath((r)-[*]-(r)) AS p")


def test_bang_equals_is_the_model_s_error() -> None:
    """Neo4j 5 rejects `!=` (its message points to `<>`); the engines took it for `<>`. Inside
    a string it is text."""
    with pytest.raises(CypherSyntaxError, match="probably meant to use '<>'"):
        translate("MATCH (o:Object) WHERE o.class != 'seating' RETURN count(o) AS n")
    assert "'a != b'" in translate("RETURN 'a != b' AS s").query
