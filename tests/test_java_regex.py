"""`=~` as Neo4j evaluates it: `Pattern.compile(p).matcher(text).matches()` of Java's
java.util.regex, written for Python's re by `dsgqa/dialect/java_regex.py`.

Every expected answer below is Java's, checked with JDK 17 and JDK 25 (the differential fuzzer
`benchmarks/bench_regex_java_diff.py` compares hundreds of thousands of such pairs). Most are
cases where Python's re alone answers otherwise.
"""

from __future__ import annotations

import pytest

from dsgqa.dialect.java_regex import java_regex
from dsgqa.dialect.regex_patterns import java_only, java_syntax_error, neo4j_regex_match

# (pattern, text, Java's answer)
ANSWERED: list[tuple[str, str, bool]] = [
    # Java's multiline ^ never matches at the end of the text, even after a line end
    ("(?m)^.*$", "", False),
    ("(?m)^.*$", "chair", True),
    ("(?m)a$\n^", "a\n", False),
    ("(?m)^a$\n^b$", "a\nb", True),
    # Java's \B holds on '' (Python's fails there)
    ("\\B", "", True),
    ("\\b", "", False),
    ("a\\Bb", "ab", True),
    # line terminators: . ^ $ \Z know \r, \u0085, \u2028 and \u2029; (?d) only \n
    (".", "\r", False),
    (".", "\u0085", False),
    (".", "\u2028", False),
    ("(?s).", "\r", True),
    ("(?d).", "\r", True),
    ("(?d).", "\n", False),
    ("a$\r\n", "a\r\n", True),
    ("a$\r", "a\r", True),
    ("a$\u2028", "a\u2028", True),
    ("a$\n", "a\r\n", False),
    ("a\\Z\n", "a\n", True),
    ("a\\z\n", "a\n", False),
    ("(?m)a$\r^b", "a\rb", True),
    ("(?m)a\r^\nb", "a\r\nb", False),
    # \R, \h, \v (Python's \v is \x0b alone)
    ("\\R", "\r\n", True),
    ("\\R\\n", "\r\n", True),
    ("\\R?\\n", "\r\n", False),       # a Ques keeps \R's first match
    ("\\R{1,2}\\n", "\r\n", False),   # so does a Curly
    ("(?:\\R)+\\n", "\r\n", False),   # and a GroupCurly
    ("(?:\\R|x)+\\n", "\r\n", True),  # a Loop backtracks into it
    ("\\v", "\n", True),
    ("\\v", "\x0b", True),
    ("\\h", "\xa0", True),
    ("\\H", "\t", False),
    # classes: intersections, nesting, escapes, POSIX-looking ones
    ("[a-z&&[^e]]+", "chair", True),
    ("[a-z&&[^e]]+", "bed", False),
    ("[\\d&&[^5]]", "5", False),
    ("[a-c[x-z]]", "y", True),
    ("[^a[b]]", "b", False),
    ("[[:alpha:]]+", "a:hp", True),     # a set of the characters [:alph]
    ("[[:alpha:]]+", "chair", False),
    ("[^^]", "^", False),
    ("[]a]", "]", True),
    ("[a&&&b]", "&", True),
    ("[\\Q-]\\E]", "]", True),
    ("(?x)[a b]", " ", False),           # (?x) skips whitespace in classes too
    ("[\\x41-\\x43]", "B", True),
    ("[\\v-\\r]", "\x0c", True),        # \v is \x0b at the end of a range
    # case: Java folds ASCII only, ranges fold through ASCII
    ("(?i)[Z-a]", "z", True),
    ("(?i)[Z-a]", "_", True),
    ("(?i)k", "\u212a", False),
    ("(?i)é", "É", False),
    ("(?i)(a)\\1", "aA", True),
    ("(?i)a(?-i)b", "Ab", True),
    ("(?i)a(?-i)b", "AB", False),
    ("(?i:a)b", "AB", False),
    ("(?iu)s", "S", True),
    # POSIX names (ASCII) and categories (written for ASCII)
    ("\\p{Upper}\\d", "R1", True),
    ("\\p{Alpha}+", "café", False),
    ("(?i)\\p{Upper}", "e", True),
    ("\\p{Punct}", "$", True),
    ("\\p{L}+", "chair", True),
    ("\\p{IsL}", "a", True),
    ("\\P{Lu}", "a", True),
    ("\\p{gc=Nd}", "7", True),
    ("\\pL", "a", True),
    # escapes
    ("\\Qa.b\\E", "a.b", True),
    ("\\Qa.b\\E", "axb", False),
    ("\\Qa.b", "a.b", True),
    ("\\0141\\x{42}\\u0043\\cA\\e", "aBC\x01\x1b", True),
    ("\\c[", "\x1b", True),
    ("\\uD83D\\uDE00", "\U0001F600", True),
    ("\\141", "a", False),              # a backreference to group 1 (none), then '41'
    ("(a)\\10", "aa0", True),           # group 1, then '0': there is no group 10
    ("(?<x>a)\\k<x>", "aa", True),
    ("\\Ga", "a", True),
    ("a\\Z", "a", True),
    # quantifiers
    ("a{0}", "", True),
    ("a{2}{3}", "aa", True),            # {3} after a count repeats an empty atom
    ("(a|ab)*+c", "abc", False),
    ("(?>a|ab)c", "abc", False),
    ("a*?a", "aaa", True),
    ("l.*+p", "lamp", False),
    ("(?:a|ab){2,}+c", "abac", False),  # each possessive iteration keeps its first match
    ("(?:ab|a){2}+b", "aab", False),
    ("(\\w((?<=a))|[ab]?)++", "ab", True),   # Python's own ++ raised SystemError here
    ("(a|b)++(c)\\2", "abcc", True),         # the possessive group written once: \\2 is (c)
    # lookaround
    ("^(?!sign).*$", "trash", True),
    ("b(?<=^b|xb)a", "ba", True),
    ("a(?<!\\d)b", "ab", True),
    (".(?<=x.)", "xa", False),
    ("x.(?<=x.)", "xa", True),
    # supplementary characters are one character, as in Java
    (".", "\U0001F600", True),
    ("..", "\U0001F600", False),
    # everyday patterns
    ("(?i).*chair.*", "High Chair", True),
    ("^R[0-9]+$", "R12", True),
    ("^R[0-9]+$", "R12\n", False),
    ("(table|chair)s?", "chairs", True),
    ("(O)\\d+\\1?", "O12O", True),
]

# (pattern, Java's PatternSyntaxException description)
JAVA_REJECTS: list[tuple[str, str]] = [
    ("[\\][^^]", "Unclosed character class"),  # the escaped ] leaves the nested class open
    ("(?x)[ ]", "Unclosed character class"),
    ("[", "Unclosed character class"),
    ("{", "Illegal repetition"),
    ("x{y}", "Illegal repetition"),
    ("a{,2}", "Illegal repetition"),
    ("a{1", "Unclosed counted closure"),
    ("a{2,1}", "Illegal repetition range"),
    ("a{99999999999}", "Illegal repetition range"),
    ("[\\b]", "Illegal/unsupported escape sequence"),
    ("[\\1]", "Illegal/unsupported escape sequence"),
    ("a\\U00000061", "Illegal/unsupported escape sequence"),
    ("\\E", "Illegal/unsupported escape sequence"),
    ("\\0", "Illegal octal escape sequence"),
    ("\\x4", "Illegal hexadecimal escape sequence"),
    ("(?(1)a|b)", "Unknown inline modifier"),
    ("(?P<n>a)", "Unknown inline modifier"),
    ("(?#c)", "Unknown inline modifier"),
    ("(?<n>a)(?<n>b)", "Named capturing group <n> is already defined"),
    ("\\k<x>", "named capturing group <x> does not exist"),
    ("(?<=(a|b){2})x", "Look-behind group does not have an obvious maximum length"),
    ("(?<=a\\1)", "Look-behind group does not have an obvious maximum length"),
    ("[z-a]", "Illegal character range"),
    ("\\p{Foo}", "Unknown character property name {Foo}"),
    ("*a", "Dangling meta character '*'"),
    ("a)", "Unmatched closing ')'"),
    ("(a", "Unclosed group"),
]

# (pattern, a text Java matches it against, why we refuse)
REFUSED: list[tuple[str, str, str]] = [
    # Java keeps the capture a lookahead made when the alternative then fails ('aa' matches)
    ("(?:(?=(a))x|a\\1)", "aa", "a group inside a quantifier, a lookaround"),
    ("(a)*\\1", "aa", "a group inside a quantifier"),
    ("(|.){2}\\1|", "aa", "may match nothing"),   # Java: false
    # Java's Loop ends at an iteration that matched nothing, even short of its minimum:
    # 'aa\n' does not match in Java (the first iteration's empty choice ends the loop)
    ("(?:(?>\\n|)(?:aa)?){2}\\n", "aa\n", "may match nothing, repeated at least twice"),
    ("(a\\1)", "a", "not closed before it"),
    ("\\2(a)(b)", "ab", "not closed before it"),
    # JDK 17 reads é as a word character, JDK 19+ does not: 'café' =~ 'caf\\b.*'
    ("caf\\b.*", "café", "\\\\b or \\\\B"),
    ("\\p{L}+", "café", "Unicode category written for ASCII"),
    ("(?iu)s", "\u017f", "\\(\\?iu\\)"),
    ("(?iu)\u017f", "s", "non-ASCII character under \\(\\?iu\\)"),
    ("(?<=a)b", "\U0001F600ab", "lookbehind"),
    ("(?<=a?)b", "ab", "lookbehind of varying length"),
    ("(?<=a+)b", "ab", "lookbehind"),
    ("\\X", "a", "grapheme"),
    ("\\b{g}a", "a", "grapheme"),
    ("\\N{LATIN SMALL LETTER A}", "a", "character names"),
    ("\\p{IsLatin}", "a", "scripts"),
    ("\\p{InGreek}", "a", "blocks"),
    ("\\p{IsAlphabetic}", "a", "Unicode properties"),
    ("\\p{javaLowerCase}", "a", "java.lang.Character"),
    ("(?U)\\w", "a", "\\(\\?U\\)"),
    ("(?c)a", "a", "canonical equivalence"),
]

# Patterns a model writes for the scene graph: answered on every ASCII text.
EVERYDAY = [
    "(?i).*chair.*", "^R[0-9]+$", ".*table.*", "(?i)^(bed|sofa)s?$", "[A-Z][a-z]+", "\\d+",
    "O\\d{1,3}", "(?i).*\\bdoor\\b.*", "^(?!sign).*$", "(?i)(table|chair)s?", "[a-z_]+",
    "^[^0-9]*$", ".*(?<!s)$", "(?i)(?:the )?chair", "\\bchair\\b", "(.)\\1", "[\\w-]+",
    "(?x) chair | table ", "\\p{Upper}\\d", "(?s).*", "^$", "(?m)^.*$", ".{3,}",
]


@pytest.mark.parametrize(("pattern", "text", "expected"), ANSWERED)
def test_matches_as_java(pattern: str, text: str, expected: bool) -> None:
    assert neo4j_regex_match(text, pattern) is expected


@pytest.mark.parametrize(("pattern", "description"), JAVA_REJECTS)
def test_a_pattern_java_rejects_is_refused_with_java_s_description(pattern: str,
                                                                   description: str) -> None:
    """Neo4j raises "Invalid Regex" where it evaluates such a pattern; we refuse it."""
    assert java_syntax_error(pattern) == description
    with pytest.raises(ValueError, match="a pattern Java rejects"):
        neo4j_regex_match("a", pattern)


def test_a_trailing_backslash_is_java_s_error() -> None:
    """JDK 17 calls it "Unexpected internal error", JDK 25 "Unescaped trailing backslash"."""
    assert java_syntax_error("a\\") == "Unescaped trailing backslash"


@pytest.mark.parametrize(("pattern", "text", "why"), REFUSED)
def test_a_match_python_cannot_make_as_java_is_refused(pattern: str, text: str,
                                                       why: str) -> None:
    assert java_syntax_error(pattern) is None
    with pytest.raises(ValueError, match=why):
        neo4j_regex_match(text, pattern)


def test_a_text_the_pattern_is_exact_for_is_answered() -> None:
    """The text-dependent refusals above hold for their texts only."""
    assert neo4j_regex_match("cafe", "caf\\b.*") is False
    assert neo4j_regex_match("caf\u00a0", "\\bcaf.*") is True       # no-break space: no letter
    assert neo4j_regex_match("ca f\U0001F600", "ca\\b.*") is True    # neither letter nor mark
    assert neo4j_regex_match("ab", "(?<=a)b") is False
    assert neo4j_regex_match("\U0001F600", "(?iu)s|.") is True        # no case


@pytest.mark.parametrize("pattern", EVERYDAY)
def test_everyday_patterns_are_answered(pattern: str) -> None:
    assert java_only(pattern) is None
    written = java_regex(pattern)
    assert written.text_refusal("High Chair 12") is None
