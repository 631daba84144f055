"""Differential fuzzer of `=~`: Java's java.util.regex (what Neo4j runs) against our
`neo4j_regex_match` (Python's re over the pattern as `dsgqa/dialect/java_regex.py` writes it).

    python benchmarks/bench_regex_java_diff.py --patterns 4000 --seed 1 [--java PATH ...]

Patterns: half random ones from the constructs an LLM may write in a Cypher regex (flags
(?i)(?m)(?s)(?x)(?u)(?d), anchors, classes with ranges, nesting, intersection and escapes,
\\p{..}, greedy, lazy and possessive quantifiers, backreferences, named groups, lookaround,
\\Q..\\E, \\R \\h \\v \\X, octal, hex and Unicode escapes) with stray metacharacters among
them, tried on texts with '', line terminators (\\n \\r \\r\\n \\u0085 \\u2028), non-ASCII and
supplementary characters; half over a, b and line ends that stress backtracking (empty and
zero-width loops, atomic groups, backreferences), tried on every text of up to 4 such
characters; and everyday patterns, which must all be answered. Each also meets texts built
from its own characters. Java answers every (pattern, text) pair in one run of a single-file
program (`java RegexOracle.java`) per JVM found (every /usr/lib/jvm/*/bin/java and `java` on
PATH, or --java), and the JVMs are compared too. Prints the pairs tried and, for ours: agreed,
refused (Java rejects the pattern, or we cannot match it exactly; by reason) and the failures:
a different answer, an answer where Java raises or the JVMs differ, a refusal that calls a
pattern Java compiles invalid. Every failure is printed and makes the exit status 1. Without
java it prints why it skipped and exits 0.
"""

from __future__ import annotations

import argparse
import glob
import itertools
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dsgqa.dialect.regex_patterns import java_syntax_error, neo4j_regex_match  # noqa: E402

JAVA_ORACLE = r"""
import java.nio.file.*;
import java.util.*;
import java.util.regex.*;

public class RegexOracle {
    static String decode(String hex) {
        if (hex.isEmpty()) return "";
        String[] parts = hex.split(",");
        int[] cps = new int[parts.length];
        for (int i = 0; i < parts.length; i++) cps[i] = Integer.parseInt(parts[i], 16);
        return new String(cps, 0, cps.length);
    }
    public static void main(String[] args) throws Exception {
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(Path.of(args[0]))) {
            String[] fields = line.split(";", -1);
            Pattern p;
            try {
                p = Pattern.compile(decode(fields[0]));
            } catch (PatternSyntaxException e) {
                String why = e.getDescription().replaceAll("[^ -~]", "?");
                out.append("ERR ").append(why).append('\n');
                continue;
            } catch (Throwable e) {
                out.append("EXC ").append(e.getClass().getSimpleName()).append('\n');
                continue;
            }
            StringBuilder bits = new StringBuilder("OK ");
            for (int i = 1; i < fields.length; i++) {
                try {
                    bits.append(p.matcher(decode(fields[i])).matches() ? '1' : '0');
                } catch (Throwable e) {
                    bits.append('E');
                }
            }
            out.append(bits).append('\n');
        }
        Files.writeString(Path.of(args[1]), out);
    }
}
"""

# Patterns a model writes for the scene graph: every one must be answered.
EVERYDAY = [
    "(?i).*chair.*", "^R[0-9]+$", ".*table.*", "(?i)^(bed|sofa)s?$", "[A-Z][a-z]+", "\\d+",
    "O\\d{1,3}", "(?i).*\\bdoor\\b.*", "^(?!sign).*$", "(?i)(table|chair)s?", "R\\d",
    "(?i)kitchen|bathroom", "[a-z_]+", "^[^0-9]*$", ".*(?<!s)$", "(?i)^.*lamp$", "O[0-9]+",
    "(?i).*(tv|television).*", "[A-Z]\\d+", "\\w+", "^\\s*$", "(?s).*", "^$", "(?m)^.*$",
    "(?i)CHAIR", "chair|table", "(.)\\1", "(?i)^[a-f].*", "\\p{Upper}\\d", "[\\w-]+",
    "(?x) chair | table ", ".{3,}", "^.{0,5}$", "(?i)^(?:the )?chair$", "\\bchair\\b",
]

LITERALS = ["a", "b", " ", "  ", "# c\n", "\t", "A", "B", "c", "x", "0", "1", "9", "_", "-",
            "é", "É", "ß", "\u212a", "\u017f", "k", "K", "s", "S", "i", "I", "\u0131",
            "\u0130", "\U0001F600", ",", "'", "/", "=", "<", ">", ":", "!", "@", "%", "~", "\"",
            "\n", "\r", "ab", "abc"]
ESCAPES = ["\\d", "\\D", "\\w", "\\W", "\\s", "\\S", "\\h", "\\H", "\\v", "\\V", "\\R", "\\b",
           "\\B", "\\A", "\\Z", "\\z", "\\G", "\\t", "\\n", "\\r", "\\f", "\\a", "\\e", "\\0141",
           "\\011", "\\0377", "\\0400", "\\07", "\\x41", "\\x{1F600}", "\\x{e9}", "\\u00e9",
           "\\u00C9", "\\uD83D\\uDE00", "\\cA", "\\cj", "\\c?", "\\c[", "\\\\", "\\.", "\\-",
           "\\[", "\\]", "\\{", "\\}", "\\(", "\\)", "\\|", "\\*", "\\+", "\\?", "\\^", "\\$",
           "\\#", "\\ ", "\\/", "\\'", "\\\"", "\\<", "\\>", "\\=", "\\!", "\\_", "\\&",
           "\\Qa.b\\E", "\\Q1\\E", "\\Q\\E", "\\Q(\\E", "\\Qx", "\\k<n>", "\\1", "\\2", "\\10",
           "\\11", "\\p{L}", "\\pL", "\\p{Lu}", "\\p{IsL}", "\\P{Ll}", "\\p{Alpha}", "\\p{Lower}",
           "\\p{Upper}", "\\p{Punct}", "\\p{Space}", "\\p{XDigit}", "\\p{ASCII}", "\\p{Alnum}",
           "\\p{gc=Lu}", "\\p{Nd}", "\\p{N}", "\\p{P}", "\\p{S}", "\\p{Sc}", "\\p{Zs}", "\\p{Cc}",
           "\\p{LC}", "\\p{L1}", "\\p{all}", "\\p{Graph}", "\\p{Print}", "\\p{Blank}",
           "\\p{Cntrl}"]
BAD_ESCAPES = ["\\X", "\\0", "\\08", "\\E", "\\k<m>", "\\9", "\\N{LATIN SMALL LETTER A}",
               "\\p{IsAlphabetic}", "\\p{IsLatin}", "\\p{InGreek}", "\\p{javaLowerCase}",
               "\\p{Foo}", "\\p{}", "\\p{L", "\\b{g}", "\\y", "\\i", "\\U0041", "\\l", "\\g",
               "\\K", "\\x4", "\\x{110000}", "\\u12", "\\c", "\\"]
CLASSES = ["[abc]", "[^abc]", "[a-z]", "[A-Z]", "[0-9]", "[a-zA-Z_]", "[a-z&&[^e]]",
           "[a-c[x-z]]", "[\\d\\s]", "[\\w&&[^_]]", "[]a]", "[^]a]", "[a-]", "[-a]", "[\\]]",
           "[\\\\]", "[\\Q-]\\E]", "[\\p{Lu}]", "[[:alpha:]]", "[a&&b]", "[a&&&b]", "[&&a]",
           "[^a[b]]", "[\\x41-\\x5a]", "[\\u00e0-\\u00ff]", "[a-\\x7a]", "[\\v-\\r]", "[.$^]",
           "[a b]", "[#a]", "[^^]", "[a^]", "[\\^]", "[\\h]", "[\\s&&[^\\n]]", "[^\\n]", "[é-ÿ]",
           "[A-z]", "[Z-a]", "[\\p{L}&&[^a-z]]", "[\\P{Alpha}]", "[a-c&&b-d]", "[[a]]",
           "[\\x{1F600}a]", "[ß]", "[k]", "[s-t]", "[a&b]", "[a&&[b]c]", "[^\\w\\s]", "[\\W]",
           "[^\\D]", "[\\r\\n]", "[^\\r]", "[a-z&&[^aeiou]]", "[^a-z&&[b]]", "[\\S&&\\D]",
           "[\\-a]", "[\\x{e9}]", "[\\u0130\\u0131]", "[\\u212a]", "[^\\u017f]"]
BAD_CLASSES = ["[\\b]", "[\\1]", "[z-a]", "[\\d-z]", "[a-\\d]", "[\\][^^]", "[\\R]", "[",
               "[]", "[^]", "[a-z&&]", "[a&&&&b]", "[\\X]", "[\\A]"]
FLAGS = ["(?i)", "(?m)", "(?s)", "(?x)", "(?u)", "(?d)", "(?iu)", "(?-i)", "(?ims)", "(?ix)",
         "(?i-m)", "(?im)", "(?sd)", "(?md)", "(?-s)", "(?xi)"]
BAD_FLAGS = ["(?U)", "(?c)", "(?a)", "(?L)", "(?#c)", "(?P<n>a)", "(?'n'a)", "(?<1a>a)", "(?"]
GROUP_OPENERS = ["(", "(", "(?:", "(?:", "(?<n>", "(?<m>", "(?=", "(?!", "(?<=", "(?<!", "(?>",
                 "(?i:", "(?-i:", "(?s:", "(?m:", "(?x:", "(?iu:", "(?d:"]
QUANTIFIERS = ["?", "*", "+", "{2}", "{1,2}", "{0,}", "{2,}", "{0,1}", "{3}", "{0}", "{1,3}"]
BAD_QUANTIFIERS = ["{,2}", "{1,0}", "{99999999999}", "{1", "{a}", "**", "{2}{3}", "?*"]
JUNK = [*"(){}[]\\|*+?^$.-&#,:=!<>", " ", "\t", "\n", "# c\n", "#"]
TEXTS = ["", "a", "b", "A", "B", "ab", "aB", "ba", "aa", "aaa", "abab", "abc", "\n", "a\n",
         "a\r\n", "\r", "a\r", "\r\n", "\n\n", "\u0085", "a\u2028", "\u2029a", "é", "É", "café",
         "CAFÉ", "\u017f", "s", "S", "k", "K", "\u212a", "ß", "SS", "\u0131", "i", "I", "\u0130",
         "\U0001F600", "a\U0001F600", "\U0001F600a", " ", "\t", "_", "-", "0", "1", "123",
         "a-b", "a b", "[", "]", "{", "}", "\\", ".", "\x0b", "\x0c", "\xa0", "\u3000", "\x1b",
         "\x07", "\x01", "a.b", "chair", "Chair", "R12", "O5", "tables", "bed", "#"]


CLASS_ITEMS = ["a", "b", "z", "A", "-", "^", "]", "[", "&", "&&", " ", "#", "\\", "é", ".",
               "a-c", "a-", "-a", "A-z", "Z-a", "\\d", "\\w", "\\s", "\\S", "\\h", "\\v",
               "\\v-\\r", "\\]", "\\[", "\\-", "\\^", "\\&", "\\Q]\\E", "\\x41", "\\x{e9}",
               "\\u0041-\\u005a", "\\p{Lu}", "\\P{Alpha}", "\\pL", "\\n", "\\t", "\\0101"]


def random_class(rng: random.Random, depth: int = 0) -> str:
    """A class of random items, nested classes and intersections."""
    items = []
    for _ in range(rng.randint(0, 4)):
        if depth < 2 and rng.random() < 0.2:
            items.append(random_class(rng, depth + 1))
        else:
            items.append(rng.choice(CLASS_ITEMS))
    return "[" + ("^" if rng.random() < 0.3 else "") + "".join(items) + "]"


def pick(rng: random.Random, good: list[str], bad: list[str]) -> str:
    return rng.choice(bad) if rng.random() < 0.04 else rng.choice(good)


def atom(rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if roll < 0.30:
        return rng.choice(LITERALS)
    if roll < 0.50:
        return pick(rng, ESCAPES, BAD_ESCAPES)
    if roll < 0.60:
        return pick(rng, CLASSES, BAD_CLASSES)
    if roll < 0.64:
        return random_class(rng)
    if roll < 0.72:
        return rng.choice(["^", "$", "."])
    if roll < 0.88 and depth < 3:
        closing = ")" if rng.random() < 0.98 else ""
        return rng.choice(GROUP_OPENERS) + alternation(rng, depth + 1) + closing
    if roll < 0.95:
        return pick(rng, FLAGS, BAD_FLAGS)
    return rng.choice(JUNK) if rng.random() < 0.3 else rng.choice(LITERALS)


def sequence(rng: random.Random, depth: int) -> str:
    parts = []
    for _ in range(rng.randint(0 if depth else 1, 4)):
        part = atom(rng, depth)
        if rng.random() < 0.35:
            part += pick(rng, QUANTIFIERS, BAD_QUANTIFIERS) + rng.choice(["", "", "", "?", "+"])
        parts.append(part)
    return "".join(parts)


def alternation(rng: random.Random, depth: int) -> str:
    return "|".join(sequence(rng, depth) for _ in range(1 if rng.random() < 0.7 else 2))


def engine_pattern(rng: random.Random, depth: int = 0,
                   groups: tuple[list[int], list[int]] | None = None) -> str:
    r"""A pattern over a, b and line ends that stresses backtracking: empty alternatives,
    nested and zero-width loops, lazy and possessive quantifiers, atomic groups, lookaround,
    backreferences to closed groups, \R and the anchors. `groups`: the capturing groups opened
    so far (a count) and those closed."""
    opened, closed = groups if groups is not None else ([0], [])
    alternatives = []
    for _ in range(rng.choice([1, 1, 2, 3])):
        parts = []
        for _ in range(rng.randint(0, 3)):
            roll = rng.random()
            if roll < 0.35:
                part = rng.choice(["a", "b", "ab", ".", "[ab]", "\\n", "\\r", "\\R", "[^a]",
                                   "\\s", "\\w"])
            elif roll < 0.45:
                part = rng.choice(["^", "$", "\\b", "\\B", "\\A", "\\Z", "\\z", "(?m)^",
                                   "(?m)$", "(?s)", "(?i)", "(?d)"])
            elif roll < 0.55 and closed:
                part = f"\\{rng.choice(closed)}"
            elif depth < 3:
                opener = rng.choice(["(", "(", "(?:", "(?:", "(?>", "(?=", "(?!", "(?<=",
                                     "(?<!"])
                if opener == "(":
                    opened[0] += 1
                    number = opened[0]
                part = f"{opener}{engine_pattern(rng, depth + 1, (opened, closed))})"
                if opener == "(":
                    closed.append(number)
            else:
                part = "a"
            if rng.random() < 0.4:
                part += rng.choice(["?", "*", "+", "{2}", "{0,2}", "{1,}", "{0}"]) \
                    + rng.choice(["", "", "?", "+"])
            parts.append(part)
        alternatives.append("".join(parts))
    return "|".join(alternatives)


ENGINE_TEXTS = ["".join(t) for n in range(5) for t in itertools.product("ab\n", repeat=n)] \
    + ["\r\n", "a\r\n", "\r\na", "\r\n\r\n", "a\rb", "A", "aA", "Ab"]


def own_texts(rng: random.Random, pattern: str, count: int) -> list[str]:
    """Texts from the pattern's own characters and a few line ends and non-ASCII ones."""
    alphabet = [c for c in pattern if c not in "\\()[]{}?*+|^$"] + ["a", "\n", "\r", "é", "A"]
    return ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 6))) for _ in range(count)]


def encode(s: str) -> str:
    return ",".join(f"{ord(c):x}" for c in s)


def find_javas(given: list[str]) -> list[str]:
    """The JVMs to ask: those given, or every one installed; each once."""
    found = given or [*sorted(glob.glob("/usr/lib/jvm/*/bin/java")), shutil.which("java") or ""]
    unique: dict[str, str] = {}
    for path in found:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            unique.setdefault(os.path.realpath(path), path)
    return list(unique.values())


def java_version(java: str) -> str:
    run = subprocess.run([java, "-version"], capture_output=True, text=True, check=False)
    first = (run.stderr or run.stdout).splitlines()
    return first[0] if first else "?"


def run_java(java: str, lines: list[str], workdir: Path) -> list[str]:
    source = workdir / "RegexOracle.java"
    source.write_text(JAVA_ORACLE)
    given, answers = workdir / "in.txt", workdir / "out.txt"
    given.write_text("\n".join(lines) + "\n")
    subprocess.run([java, "-Xss16m", str(source), str(given), str(answers)], check=True,
                   timeout=1800)
    return answers.read_text(encoding="utf-8").split("\n")[:len(lines)]


def ours(pattern: str, text: str) -> str:
    """'1', '0', 'R' (refused: the pattern, or this text) or 'S' (refused as Java's error)."""
    try:
        return "1" if neo4j_regex_match(text, pattern) else "0"
    except ValueError:
        return "S" if java_syntax_error(pattern) is not None else "R"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--patterns", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--own-texts", type=int, default=8)
    parser.add_argument("--java", action="append", default=[])
    args = parser.parse_args()
    javas = find_javas(args.java)
    if not javas:
        print("skipped: no java found (install a JDK 17 or 21, or pass --java PATH)")
        return 0
    rng = random.Random(args.seed)
    mixed = [alternation(rng, 0) for _ in range(args.patterns // 2)]
    engine = [engine_pattern(rng) for _ in range(args.patterns - len(mixed))]
    patterns = list(dict.fromkeys(EVERYDAY + mixed + engine))
    texts = {p: (ENGINE_TEXTS if p in engine else TEXTS) + own_texts(rng, p, args.own_texts)
             for p in patterns}
    lines = [";".join([encode(p)] + [encode(t) for t in texts[p]]) for p in patterns]
    started = time.perf_counter()
    answers: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for java in javas:
            answers[java] = run_java(java, lines, Path(tmp))
    java_seconds = time.perf_counter() - started
    for java in javas:
        print(f"java: {java_version(java)} ({java})")

    outcome: Counter = Counter()
    refused_why: Counter = Counter()
    failures: list[str] = []
    everyday_refused = []
    jvm_differ: list[str] = []
    started = time.perf_counter()
    for n, pattern in enumerate(patterns):
        rows = [answers[java][n] for java in javas]
        for i, text in enumerate(texts[pattern]):
            verdicts = {row[3 + i] if row.startswith("OK") else row.split(" ", 1)[0]
                        for row in rows}
            mine = ours(pattern, text)
            pair = f"{pattern!r} on {text!r}"
            if len(verdicts) > 1:
                outcome["JVMs differ"] += 1
                each = " / ".join(r[3 + i] if r.startswith("OK") else r for r in rows)
                jvm_differ.append(f"{pair}: {each}, ours {mine}")
                if mine in "01":
                    failures.append(f"answered where the JVMs differ ({sorted(verdicts)}): "
                                    f"{pair} -> {mine}")
                continue
            java = verdicts.pop()
            if java in ("ERR", "EXC", "E"):
                outcome["Java raises"] += 1
                if mine in "01":
                    failures.append(f"answered where Java raises ({rows[0]}): {pair} -> {mine}")
                continue
            if mine == java:
                outcome["agree"] += 1
            elif mine == "R":
                outcome["refused"] += 1
                try:
                    neo4j_regex_match(text, pattern)
                except ValueError as e:
                    refused_why[str(e).removeprefix("a regular expression with ")[:80]] += 1
                if pattern in EVERYDAY and text.isascii():
                    everyday_refused.append(pair)
            elif mine == "S":
                outcome["refused as Java's error, Java compiles it"] += 1
                failures.append(f"called invalid, Java compiles it: {pair} "
                                f"({java_syntax_error(pattern)})")
            else:
                outcome["disagree"] += 1
                failures.append(f"disagree: {pair}: Java {java}, ours {mine}")
    ours_seconds = time.perf_counter() - started

    pairs = sum(len(t) for t in texts.values())
    print(f"patterns: {len(patterns)}, (pattern, text) pairs: {pairs}, "
          f"Java {java_seconds:.1f} s for {len(javas)} JVM(s), ours {ours_seconds:.1f} s")
    for name in ("agree", "refused", "Java raises", "JVMs differ", "disagree",
                 "refused as Java's error, Java compiles it"):
        print(f"  {name:45} {outcome[name]:8}")
    print("refused pairs Java answers, by reason:")
    for why, count in refused_why.most_common(15):
        print(f"  {count:7}  {why}")
    if everyday_refused:
        print(f"everyday patterns refused on ASCII texts: {len(everyday_refused)}")
        for pair in everyday_refused[:20]:
            print(f"  {pair}")
    if jvm_differ:
        print("pairs the JVMs answer differently (in the order above):")
        for pair in jvm_differ[:10]:
            print(f"  {pair}")
    print(f"failures: {len(failures)}")
    for failure in failures[:200]:
        print(f"  {failure}")
    return 1 if failures or everyday_refused else 0


if __name__ == "__main__":
    sys.exit(main())
