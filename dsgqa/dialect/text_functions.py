"""Neo4j's string functions where the engines' built-ins answer differently (engine UDFs).

Measured on Kuzu 0.11.3 and Ladybug 0.22.0:

- `split('O237', 'O')` is `['', '237']` in Neo4j; the engines drop the empty string, so an index
  into the result reads another element.
- `left(s, n)`, `right(s, n)` and `substring(s, start, n)` with a negative or NULL length or
  start raise an error in Neo4j (Cypher Manual, String functions: "If either start or length
  is null or a negative integer, an error is raised"; only a NULL `s` gives NULL). The engines
  answer '' or NULL, and `substring(s, 0, -3)` crashes both. A literal is checked when the query
  is translated; a computed length or start goes through these functions.
- `trim()`, `ltrim()` and `rtrim()` of a text longer than 12 bytes whose result is 12 bytes or
  fewer return the first 4 bytes and then garbage on both engines (`trim('     seating     ')
  = 'seating'` is false, so a WHERE on it drops every row; returned, the bytes fail to decode).
  Neo4j also removes every code point Java's `Character.isWhitespace` takes (an em space, the
  separators U+001C..U+001F), which the engines keep. The two-argument forms (Neo4j 5's
  `ltrim(s, 'x')`, `btrim(s, 'x')`) remove one given character.
- `toUpper('straße')` is 'STRASSE' and `toLower('ΟΔΟΣ')` 'οδος' in Java, which Neo4j calls
  (`String.toUpperCase`, full case mapping with the final sigma); the engines map one code point
  to one ('STRAẞE', 'οδοσ'). Python's `str.upper` and `str.lower` follow the same Unicode rules
  as Java's (SpecialCasing, Final_Sigma) without a locale.

Errors Neo4j raises too begin "Neo4j raises:". They are `dialect`, not charged to the model
(`graphstore.error_kind`): the engines may evaluate the call on rows Neo4j never reaches. A
negative literal is refused before the query runs.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable


def _by_code_units(function: str, original: str) -> None:
    """Refuse text beyond U+FFFF where Neo4j works on its UTF-16 code units (`utf16_text.py`):
    the pieces would be lone surrogates, which the engines' UTF-8 text cannot hold."""
    if not original.isascii() and any(ord(c) > 0xFFFF for c in original):
        raise ValueError(f"{function} with an empty search text, of text beyond U+FFFF (Neo4j "
                         "cuts it into UTF-16 code units)")


def neo4j_split(original: str, delimiter: str) -> list[str]:
    """`split()`: every piece, empty ones included; an empty delimiter splits into characters
    (Java's UTF-16 code units: `StringValue.splitOnEmptySeparator` is `toCharArray()`)."""
    if delimiter == "":
        _by_code_units("split()", original)
        return list(original)
    return original.split(delimiter)


def neo4j_replace(original: str, search: str, replacement: str) -> str:
    """`replace()`: every literal occurrence (Java's String.replace, as Neo4j calls it; an
    empty search puts the replacement between every two UTF-16 code units)."""
    if search == "":
        _by_code_units("replace()", original)
    return original.replace(search, replacement)


# Java's Character.isWhitespace: the Unicode space, line and paragraph separators but the
# non-breaking spaces, and nine controls.
_JAVA_WHITESPACE = frozenset(
    "\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u1680\u2028\u2029\u205f\u3000"
    + "".join(chr(c) for c in range(0x2000, 0x200B) if c != 0x2007))
_TRIM_ENDS = {"both": (True, True), "leading": (True, False), "trailing": (False, True)}


def _trimmed(original: str, removed: Callable[[str], bool], ends: str) -> str:
    leading, trailing = _TRIM_ENDS[ends]
    start, end = 0, len(original)
    while leading and start < end and removed(original[start]):
        start += 1
    while trailing and end > start and removed(original[end - 1]):
        end -= 1
    return original[start:end]


def neo4j_trim(original: str, ends: str) -> str:
    """`trim()` / `ltrim()` / `rtrim()` (`ends`: both, leading, trailing): Java whitespace."""
    return _trimmed(original, _JAVA_WHITESPACE.__contains__, ends)


def neo4j_trim_character(original: str, characters: str, ends: str) -> str:
    """Neo4j 5's `btrim(s, cs)`, `ltrim(s, cs)`, `rtrim(s, cs)`: every code point of `cs`
    (Neo4j's `trimLeftIndex`/`trimRightIndex` test each against the set; the Manual's
    `btrim('xxyyhelloxyxy', 'xy')` is 'hello')."""
    return _trimmed(original, characters.__contains__, ends)


def neo4j_text_size(original: str) -> int:
    """`size()` of text: its code points (Java's `codePointCount`)."""
    return len(original)


def neo4j_reverse(original: str) -> str:
    """`reverse()` of text: its code points backwards (Java's `StringBuilder.reverse`)."""
    return original[::-1]


def neo4j_normalize(original: str, form: str) -> str:
    """`normalize(s[, form])`: Java's `Normalizer.normalize`, the Unicode normal form NFC, NFD,
    NFKC or NFKD (the engines have no such function)."""
    return unicodedata.normalize(form, original)


def neo4j_to_upper(original: str) -> str:
    return original.upper()


def neo4j_to_lower(original: str) -> str:
    return original.lower()


def _checked(function: str, what: str, value: int | None) -> int:
    """A length or start Neo4j accepts: a non-negative integer."""
    if value is None:
        raise ValueError(f"Neo4j raises: {function}() with a NULL {what}")
    if value < 0:
        raise ValueError(f"Neo4j raises: {function}() with a negative {what} ({value})")
    return value


def neo4j_left(original: str | None, length: int | None) -> str | None:
    """`left()` (called for NULL arguments too: only a NULL `original` gives NULL)."""
    if original is None:
        return None
    return original[:_checked("left", "length", length)]


def neo4j_right(original: str | None, length: int | None) -> str | None:
    if original is None:
        return None
    count = _checked("right", "length", length)
    return original[len(original) - count:] if count < len(original) else original


def neo4j_substring(original: str | None, start: int | None,
                    length: int | None) -> str | None:
    """`substring(original, start, length)` with Neo4j's 0-based start."""
    if original is None:
        return None
    begin = _checked("substring", "start", start)
    return original[begin:begin + _checked("substring", "length", length)]


def neo4j_substring_from(original: str | None, start: int | None) -> str | None:
    """`substring(original, start)`: to the end of the string."""
    if original is None:
        return None
    return original[_checked("substring", "start", start):]
