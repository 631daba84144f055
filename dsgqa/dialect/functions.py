"""Neo4j built-ins that Kuzu and Ladybug lack or compute differently, as Python functions the
engine calls (scalar UDFs, registered on every query worker's connection).

Why UDFs: some Neo4j functions have no faithful form in Kuzu's built-ins. Kuzu's
`string_split` drops empty strings (`split('O237', 'O')` is `['', '237']` in Neo4j and `['237']`
in Kuzu, so an index into it silently reads another element); `CAST(2.5 AS STRING)` is
`'2.500000'` where Neo4j prints Java's shortest form `'2.5'`; `CAST(true AS STRING)` is `'True'`;
`CAST('x' AS INT64)` fails where `toInteger('x')` is NULL, and `CAST(' 42' AS INT64)` is 42
where Neo4j's parse gives NULL; and `stDev`, `percentileCont`, `replace`, `exp`, `isNaN` do not
exist. Each function below follows the Neo4j Cypher Manual; aggregates are computed over
`collect(x)` (which skips NULLs, as the aggregates do). String functions are in
`text_functions.py`, a float sum's readers in `float_sums.py`. The translator (`rewrite.py`)
calls them by the names in `UDFS`; any NULL argument gives NULL, as in Neo4j (the engine's
default NULL handling), except where `null_gives_null` is False.
"""

from __future__ import annotations

import decimal
import math
import re
import types
from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from dsgqa.dialect.float_sums import neo4j_sum_arith, neo4j_sum_string
from dsgqa.dialect.java_numbers import java_double_string, java_math_round
from dsgqa.dialect.lazy_divisors import neo4j_divisor
from dsgqa.dialect.regex_patterns import neo4j_regex_match
from dsgqa.dialect.scalar_reads import neo4j_scalar_property
from dsgqa.dialect.shortest_ends import neo4j_shortest_path_ends, neo4j_shortest_path_refused
from dsgqa.dialect.text_functions import (
    neo4j_left,
    neo4j_normalize,
    neo4j_replace,
    neo4j_reverse,
    neo4j_right,
    neo4j_split,
    neo4j_substring,
    neo4j_substring_from,
    neo4j_text_size,
    neo4j_to_lower,
    neo4j_to_upper,
    neo4j_trim,
    neo4j_trim_character,
)

_LONG_MIN, _LONG_MAX = -(2 ** 63), 2 ** 63 - 1
# Java's Long.parseLong (a sign, digits) and BigDecimal(String) (digits with a point and an
# exponent): no spaces, no `inf`, no underscores, which Python's int() and float() take.
_JAVA_LONG = re.compile(r"[+-]?[0-9]+")
_JAVA_DECIMAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
# What Java's String.trim() removes: every character up to the space.
_JAVA_TRIMMED = "".join(map(chr, range(33)))
# Java's Double.parseDouble after its trim: NaN, Infinity, a decimal with an optional f/d suffix.
_JAVA_DOUBLE = re.compile(r"[+-]?(?:NaN|Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)"
                          r"(?:[eE][+-]?[0-9]+)?[fFdD]?)")
# Java's hexadecimal floating-point literal, which Double.parseDouble reads too ('0x1p3' is
# 8.0): hex digits with an optional point, a binary exponent that may not be left out.
_JAVA_HEX_DOUBLE = re.compile(r"([+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)"
                              r"[pP][+-]?[0-9]+)[fFdD]?")


def neo4j_to_integer(text: str) -> int | None:
    """`toInteger()` of a string as Neo4j parses it: `Long.parseLong`, else the `BigDecimal`
    the text spells truncated toward zero, else NULL; a value outside the 64-bit range raises.
    The range is checked before the truncation, as Neo4j's `stringToLongValue` compares the
    BigDecimal: '9223372036854775807.5' raises."""
    if _JAVA_LONG.fullmatch(text):
        exact: int | Decimal = int(text)
    elif _JAVA_DECIMAL.fullmatch(text):
        exact = Decimal(text)
    else:
        return None
    if not _LONG_MIN <= exact <= _LONG_MAX:
        raise ValueError(f"integer, {text}, is too large")
    return int(exact)   # int() of a Decimal truncates toward zero


def neo4j_to_integer_or_null(text: str) -> int | None:
    """`toIntegerOrNull()` of a string: as `toInteger()`, but a number beyond the 64-bit range
    is refused (the Manual says NULL for input it cannot convert, the source was not read on
    this case), never charged to the model as `toInteger()`'s error is."""
    try:
        return neo4j_to_integer(text)
    except ValueError:
        raise ValueError("toIntegerOrNull() of a text beyond the 64-bit range (NULL or an "
                         "error in Neo4j, not settled here)") from None


def neo4j_to_float(text: str) -> float | None:
    """`toFloat()` of a string as Neo4j parses it: Java's `Double.parseDouble` (which trims
    characters up to the space), else NULL."""
    trimmed = text.strip(_JAVA_TRIMMED)
    if hexadecimal := _JAVA_HEX_DOUBLE.fullmatch(trimmed):
        return _java_hex_double(hexadecimal[1])
    if not _JAVA_DOUBLE.fullmatch(trimmed):
        return None
    body = trimmed.rstrip("fFdD") if not trimmed.endswith("Infinity") else trimmed
    return float(body.replace("Infinity", "inf").replace("NaN", "nan"))


def _java_hex_double(literal: str) -> float:
    """A hexadecimal literal's double, rounded to nearest as Java rounds it; beyond the
    largest double it is an infinity in Java, where Python's `float.fromhex` raises."""
    try:
        return float.fromhex(literal)
    except OverflowError:
        return -math.inf if literal.startswith("-") else math.inf


def neo4j_to_boolean(text: str) -> bool | None:
    """`toBoolean()` of a string: 'true' or 'false' in any case, once Java whitespace is
    trimmed from both ends (Neo4j trims the text first: ' false' is false), else NULL."""
    return {"true": True, "false": False}.get(neo4j_trim(text, "both").lower())


def neo4j_exp(value: float) -> float:
    """`exp()`, which the engines lack; Java's `Math.exp` gives Infinity where Python's
    `math.exp` raises."""
    try:
        return math.exp(value)
    except OverflowError:
        return math.inf


def neo4j_is_nan(value: float) -> bool:
    """`isNaN()`, which the engines lack."""
    return math.isnan(value)


_JAVA_ROUNDING = {
    "CEILING": decimal.ROUND_CEILING, "FLOOR": decimal.ROUND_FLOOR, "UP": decimal.ROUND_UP,
    "DOWN": decimal.ROUND_DOWN, "HALF_EVEN": decimal.ROUND_HALF_EVEN,
    "HALF_UP": decimal.ROUND_HALF_UP, "HALF_DOWN": decimal.ROUND_HALF_DOWN,
}


def neo4j_round(value: float, precision: int, mode: str) -> float:
    """`round(x, precision[, mode])` as Neo4j computes it (`mode` '' when the query gave
    none): the decimal digits Java prints for the double (`BigDecimal.valueOf`), rounded to
    `precision` places (never more than it has) in the Java rounding mode. Kuzu's
    `round(x, 2)` rounds the binary value (1.005 -> 1.0; Neo4j 1.01) and takes a negative
    precision, which Neo4j refuses."""
    if precision < 0:
        raise ValueError("Precision argument to 'round()' cannot be negative")
    if mode == "":  # no mode given: HALF_UP, but precision 0 is Java's Math.round (ties up)
        if precision == 0:
            return java_math_round(value)
        mode = "HALF_UP"
    if mode not in _JAVA_ROUNDING and mode != "UNNECESSARY":
        raise ValueError("Unknown rounding mode. Valid values are: CEILING, FLOOR, UP, DOWN, "
                         "HALF_EVEN, HALF_UP, HALF_DOWN, UNNECESSARY.")
    if math.isnan(value) or math.isinf(value):
        return value
    digits = Decimal(java_double_string(float(value)))
    scale = min(-digits.as_tuple().exponent, precision)  # type: ignore[operator]
    step = Decimal(1).scaleb(-scale)
    if mode == "UNNECESSARY":
        if digits != digits.quantize(step, rounding=decimal.ROUND_DOWN):
            raise ValueError("Rounding necessary")
        return float(digits)
    # + 0.0: BigDecimal has no -0, so a negative value rounded to zero is 0.0 in Java.
    return float(digits.quantize(step, rounding=_JAVA_ROUNDING[mode])) + 0.0


def neo4j_bool_string(value: bool) -> str:
    return "true" if value else "false"


def _numbers(values: list[Any]) -> list[float]:
    return [float(v) for v in values if v is not None]


def _java_order(x: float) -> tuple[bool, float, float]:
    """Java's `Double.compare` order, by which Neo4j sorts floats for `min`, `max` and the
    percentiles: NaN above every number, -0.0 below 0.0 (Python's own order puts NaN
    anywhere)."""
    nan = math.isnan(x)
    return (nan, 0.0 if nan else x, math.copysign(1.0, x))


def neo4j_min_float(values: list[float]) -> float | None:
    """`min()` of floats that may be NaN: the least number, NaN only if every value is one."""
    xs = _numbers(values)
    return min(xs, key=_java_order) if xs else None


def neo4j_max_float(values: list[float]) -> float | None:
    """`max()` of floats that may be NaN: NaN if any value is one."""
    xs = _numbers(values)
    return max(xs, key=_java_order) if xs else None


def neo4j_stdev(values: list[float]) -> float:
    """`stDev()`: the sample standard deviation; 0.0 for fewer than two values."""
    xs = _numbers(values)
    if len(xs) < 2:
        return 0.0
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def neo4j_stdevp(values: list[float]) -> float:
    """`stDevP()`: the population standard deviation; 0.0 for no values."""
    xs = _numbers(values)
    if not xs:
        return 0.0
    mean = math.fsum(xs) / len(xs)
    return math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / len(xs))


def _check_percentile(percentile: float) -> None:
    if not 0.0 <= percentile <= 1.0:
        raise ValueError(f"percentile {percentile} is not between 0.0 and 1.0")


def neo4j_percentile_cont(values: list[float], percentile: float) -> float | None:
    """`percentileCont()`: linear interpolation between the two nearest values; NULL for none."""
    _check_percentile(percentile)
    xs = sorted(_numbers(values), key=_java_order)
    if not xs:
        return None
    position = percentile * (len(xs) - 1)
    low, high = math.floor(position), math.ceil(position)
    if low == high or high >= len(xs):
        return xs[low]
    return xs[low] * (high - position) + xs[high] * (position - low)


def neo4j_percentile_disc(values: list[float], percentile: float) -> float | None:
    """`percentileDisc()`: the value at the nearest rank (no interpolation); NULL for none."""
    _check_percentile(percentile)
    xs = sorted(_numbers(values), key=_java_order)
    if not xs:
        return None
    return xs[max(math.ceil(percentile * len(xs)) - 1, 0)]


# A list literal whose elements have different types (`[o.nodeSymbol, round(o.center.z, 2)]`,
# fine in Neo4j) cannot be a Kuzu list, whose elements share one type; the translator writes it
# as a struct with these keys in order, and rows turn such a struct back into the list.
MIXED_LIST_KEY = "_neo4j_item_"


# A returned CASE or coalesce() whose results are of several kinds (`mixed_results.py`): a
# struct with one field per kind, all NULL but the row's own value.
MIXED_VALUE_KEY = "_neo4j_value_"


# A node's properties as one map (`properties(n)`, `n {.*}`): a struct of the layout's keys and
# this field, which names the keys a NULL value means absent (Neo4j stores no NULL property, so
# an object without a box has no `bbox_center` key); rows drop those and this field.
PROPERTIES_KEY = "_neo4j_properties_"


def property_map(value: dict[str, Any]) -> dict[str, Any] | None:
    """The map such a struct stands for, or None for any other struct."""
    if PROPERTIES_KEY not in value:
        return None
    absent = set(str(value[PROPERTIES_KEY] or "").split(","))
    return {key: v for key, v in value.items()
            if key != PROPERTIES_KEY and not (v is None and key in absent)}


def mixed_value(value: dict[str, Any]) -> tuple[bool, Any]:
    """(True, the value) for such a struct, (False, None) for any other."""
    if not value or not all(str(key).startswith(MIXED_VALUE_KEY) for key in value):
        return False, None
    return True, next((v for v in value.values() if v is not None), None)


def mixed_list(value: dict[str, Any]) -> list[Any] | None:
    """The list a struct of `MIXED_LIST_KEY` fields stands for, or None for any other struct."""
    keys = list(value)
    if not keys or any(key != f"{MIXED_LIST_KEY}{i}" for i, key in enumerate(keys)):
        return None
    return [value[key] for key in keys]


@dataclass(frozen=True)
class UDF:
    """One engine function: its name in translated queries, Python body and Kuzu signature."""

    name: str
    body: Callable[..., Any]
    params: tuple[str, ...]
    returns: str
    # False: the body is called with NULL arguments too (the engine's default gives NULL for
    # any NULL argument without calling it).
    null_gives_null: bool = True


UDFS: dict[str, UDF] = {udf.name: udf for udf in (
    UDF("neo4j_split", neo4j_split, ("STRING", "STRING"), "STRING[]"),
    UDF("neo4j_replace", neo4j_replace, ("STRING", "STRING", "STRING"), "STRING"),
    UDF("neo4j_to_upper", neo4j_to_upper, ("STRING",), "STRING"),
    UDF("neo4j_normalize", neo4j_normalize, ("STRING", "STRING"), "STRING"),
    UDF("neo4j_text_size", neo4j_text_size, ("STRING",), "INT64"),
    UDF("neo4j_shortest_path_ends", neo4j_shortest_path_ends, ("BOOLEAN",), "BOOLEAN",
        null_gives_null=False),
    UDF("neo4j_shortest_path_refused", neo4j_shortest_path_refused, ("BOOLEAN", "STRING"),
        "BOOLEAN", null_gives_null=False),
    UDF("neo4j_reverse", neo4j_reverse, ("STRING",), "STRING"),
    UDF("neo4j_regex_match", neo4j_regex_match, ("STRING", "STRING"), "BOOLEAN"),
    UDF("neo4j_to_lower", neo4j_to_lower, ("STRING",), "STRING"),
    UDF("neo4j_trim", neo4j_trim, ("STRING", "STRING"), "STRING"),
    UDF("neo4j_trim_character", neo4j_trim_character, ("STRING", "STRING", "STRING"), "STRING"),
    UDF("neo4j_left", neo4j_left, ("STRING", "INT64"), "STRING", null_gives_null=False),
    UDF("neo4j_right", neo4j_right, ("STRING", "INT64"), "STRING", null_gives_null=False),
    UDF("neo4j_substring", neo4j_substring, ("STRING", "INT64", "INT64"), "STRING",
        null_gives_null=False),
    UDF("neo4j_substring_from", neo4j_substring_from, ("STRING", "INT64"), "STRING",
        null_gives_null=False),
    UDF("neo4j_sum_string", neo4j_sum_string, ("DOUBLE",), "STRING"),
    UDF("neo4j_sum_arith", neo4j_sum_arith, ("DOUBLE", "DOUBLE", "STRING", "BOOLEAN"), "DOUBLE"),
    UDF("neo4j_double_string", java_double_string, ("DOUBLE",), "STRING"),
    UDF("neo4j_bool_string", neo4j_bool_string, ("BOOLEAN",), "STRING"),
    UDF("neo4j_round", neo4j_round, ("DOUBLE", "INT64", "STRING"), "DOUBLE"),
    UDF("neo4j_math_round", java_math_round, ("DOUBLE",), "DOUBLE"),
    UDF("neo4j_divisor", neo4j_divisor, ("INT64", "INT64"), "INT64"),
    UDF("neo4j_scalar_property", neo4j_scalar_property, ("STRING", "STRING", "INT64"),
        "STRING"),
    UDF("neo4j_exp", neo4j_exp, ("DOUBLE",), "DOUBLE"),
    UDF("neo4j_to_integer", neo4j_to_integer, ("STRING",), "INT64"),
    UDF("neo4j_to_integer_or_null", neo4j_to_integer_or_null, ("STRING",), "INT64"),
    UDF("neo4j_to_float", neo4j_to_float, ("STRING",), "DOUBLE"),
    UDF("neo4j_to_boolean", neo4j_to_boolean, ("STRING",), "BOOLEAN"),
    UDF("neo4j_is_nan", neo4j_is_nan, ("DOUBLE",), "BOOLEAN"),
    UDF("neo4j_min_float", neo4j_min_float, ("DOUBLE[]",), "DOUBLE"),
    UDF("neo4j_max_float", neo4j_max_float, ("DOUBLE[]",), "DOUBLE"),
    UDF("neo4j_stdev", neo4j_stdev, ("DOUBLE[]",), "DOUBLE"),
    UDF("neo4j_stdevp", neo4j_stdevp, ("DOUBLE[]",), "DOUBLE"),
    UDF("neo4j_percentile_cont", neo4j_percentile_cont, ("DOUBLE[]", "DOUBLE"), "DOUBLE"),
    UDF("neo4j_percentile_disc", neo4j_percentile_disc, ("DOUBLE[]", "DOUBLE"), "DOUBLE"),
    # percentileDisc returns one of the values: an INTEGER of integers.
    UDF("neo4j_percentile_disc_int", neo4j_percentile_disc, ("INT64[]", "DOUBLE"), "INT64"),
)}


def _unannotated(body: Callable[..., Any]) -> Callable[..., Any]:
    """The same function without type hints: the engine reads hints it cannot map (`float |
    None`) and fails, although the signature is given explicitly."""
    clone = types.FunctionType(body.__code__, body.__globals__, body.__name__,
                               body.__defaults__, body.__closure__)
    clone.__annotations__ = {}
    return clone


def register_udfs(connection: Any) -> None:
    """Make every function of `UDFS` callable on a Kuzu/Ladybug connection."""
    for udf in UDFS.values():
        # An exception in a body (a percentile outside 0..1) fails the query, as in Neo4j.
        connection.create_function(udf.name, _unannotated(udf.body), list(udf.params),
                                   udf.returns, default_null_handling=udf.null_gives_null)
