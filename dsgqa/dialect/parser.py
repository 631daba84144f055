"""Parse Cypher text with the lark grammar in `cypher.lark` (LALR, so parsing stays well under a
millisecond for a typical query)."""

from __future__ import annotations

import re
from pathlib import Path

from lark import Lark, Token, Transformer, Tree
from lark.exceptions import LarkError, UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

from benchcore.once import built_once
from dsgqa.dialect.errors import CypherSyntaxError, DialectError
from dsgqa.dialect.trees import all_of, call, clone, tree, var
from dsgqa.dialect.unread_syntax import unread_form

GRAMMAR = Path(__file__).with_name("cypher.lark")
# normalize()'s second argument: Neo4j's keywords, not expressions.
NORMAL_FORMS = frozenset({"NFC", "NFD", "NFKC", "NFKD"})
# Neo4j's semantic analysis of label expressions (`LabelExpressionsInPatternsNormalized`, the
# messages its semantic-analysis tests expect).
MIXED_COLON = ("Mixing label expression symbols ('|', '&', '!', and '%') with colon (':') "
               "between labels is not allowed. Please only use one set of symbols.")
_IS_COLON = "Mixing the IS keyword with colon (':') between labels is not allowed."
_BAR_COLON = "Label expressions are not allowed to contain '|:'."
_REL_BAR_COLON = ("The semantics of using colon in the separation of alternative relationship "
                  "types in conjunction with the use of variable binding, inlined property "
                  "predicates, or variable length is no longer supported.")
# A label or type expression's symbols other than `|` (and parentheses).
_GPM_SYMBOLS = frozenset({"label_and", "label_not", "label_any"})


def _plain_integer(token: Token) -> Token:
    """An integer literal as decimal digits (`0x1F`, `0o17`, `1_000`); a legacy leading-zero
    literal (`017`) is kept, and refused where it is read."""
    text = token.value.replace("_", "")
    if text[:2] in ("0x", "0o") or not text.startswith("0"):
        return token.update(value=str(int(text, 0)))
    return token.update(value=text)


# A 0 before another digit, a letter or an underscore, not inside a name: maybe an
# integer written other than in decimal (`01`, `0x1`, `0o2`, `0_1`).
_NOT_DECIMAL = re.compile(r"(?<!\w)0\w")
_DECIMAL = re.compile(r"0|[1-9](?:_?\d)*")
_BOUNDS = frozenset({"range_exact", "range_span", "quant_exact", "quant_range", "quant_from",
                     "quant_to"})


def _check_integers(root: Tree, text: str) -> None:
    """Neo4j 5's lexer (`UNSIGNED_DECIMAL_INTEGER`): a variable-length range or a quantifier
    takes decimal integers only, underscores between digits allowed (`*1_0`, `{1,1_0}`;
    `*0x1` and `{01}` are "Invalid input '0x1': expected ... an integer value"), and `01` is
    the octal syntax Neo4j 5 no longer reads. Read on the text each token was lexed from (the
    tree holds them in decimal, `_plain_integer`)."""
    for node in root.iter_subtrees():
        if node.data in _BOUNDS:
            for bound in node.children:
                if isinstance(bound, Token) and bound.type == "INT" \
                        and bound.start_pos is not None \
                        and not _DECIMAL.fullmatch(written := text[bound.start_pos:bound.end_pos]):
                    raise CypherSyntaxError(f"Invalid input '{written}': expected an integer "
                                            "value")
        elif node.data == "int_lit":
            digits = str(node.children[0])
            if len(digits) > 1 and digits[0] == "0":
                raise CypherSyntaxError(f"The octal integer literal syntax `{digits}` is no "
                                        f"longer supported, please use `0o{digits[1:]}` "
                                        "instead")


# Neo4j 5's `expression7: expression6 comparisonExpression6?`: one of these after an operand,
# never a second after the first (`x IS :: FLOAT IS NOT NULL`, `x IS NULL IS NULL` are
# "Invalid input 'IS'"); `(x IS NULL) IS NULL` and `x IS NULL = true` are read.
_PREDICATES = {"is_null": "IS", "is_not_null": "IS", "starts_with": "STARTS",
               "ends_with": "ENDS", "contains": "CONTAINS", "in_": "IN", "regex": "=~",
               "is_normalized": "IS", "is_not_normalized": "IS", "is_typed": "IS",
               "is_not_typed": "IS"}
_PREDICATE_WORDS = re.compile(r"\b(?:IS|STARTS|ENDS|CONTAINS|IN)\b|=~|::", re.IGNORECASE)


def _check_chained_predicates(root: Tree) -> None:
    for node in root.iter_subtrees():
        if node.data in _PREDICATES and not getattr(node, "is_binding", False):
            first = node.children[0]
            if isinstance(first, Tree) and first.data in _PREDICATES:
                raise CypherSyntaxError(f"Invalid input '{_PREDICATES[node.data]}': expected "
                                        "an expression (a second predicate after "
                                        f"{_PREDICATES[first.data]} needs parentheses)")


def _plain_float(token: Token) -> Token:
    """A float literal without the underscores Neo4j allows between digits."""
    return token.update(value=token.value.replace("_", ""))


# Trees whose inline WHEREs stay where they are: a map's or subquery's own, and those of a
# parenthesised path pattern or quantified relationship, which test each repetition's own
# nodes and relationships (group variables are lists outside it), `path_patterns.py`.
_OWN_CONDITIONS = frozenset({"map_literal", "subquery", "list_comp", "list_comp_map",
                             "paren_path", "quantified_rel"})


def inline_conditions(patterns: Tree) -> list[Tree]:
    """Take the WHERE out of every node and relationship pattern of `patterns` (not out of a
    subquery or property map inside one): the conditions, in order."""
    found: list[Tree] = []
    stack = [patterns]
    while stack:
        node = stack.pop(0)
        for child in list(node.children):
            if not isinstance(child, Tree):
                continue
            if child.data == "pattern_where":
                if any(isinstance(c, Tree) and c.data == "var_length" for c in node.children):
                    raise CypherSyntaxError("Relationship pattern predicates are not allowed "
                                            "when a path length is specified")
                node.children.remove(child)
                found.append(child.children[0])
            elif child.data not in _OWN_CONDITIONS:
                stack.append(child)
    return found


def _with_conditions(children: list) -> list:
    """A MATCH's or pattern subquery's children with its patterns' inline WHEREs joined to its
    own WHERE: `MATCH (r:Room WHERE r.class = 'kitchen')` is `MATCH (r:Room) WHERE r.class =
    'kitchen'` (Neo4j 5's node and relationship pattern predicates; for an OPTIONAL MATCH too,
    whose WHERE is part of the pattern)."""
    patterns = next(c for c in children if isinstance(c, Tree) and c.data == "pattern_list")
    found = inline_conditions(patterns)
    if not found:
        return children
    where = next((c for c in children if isinstance(c, Tree) and c.data == "where"), None)
    conditions = [where.children[0]] if where is not None else []
    conditions += found
    if len(conditions) > 1:
        conditions = [tree("paren", c) for c in conditions]
    kept = [c for c in children if c is not where]
    return [*kept, tree("where", all_of(conditions))]


def _gpm_symbols(expression: Tree, bars: bool = True) -> bool:
    """Whether a label or type expression uses `&`, `!` or `%`, or (`bars`) `|`."""
    return any(sub.data in _GPM_SYMBOLS or (bars and sub.data == "label_or")
               for sub in expression.iter_subtrees())


def _normal_form_children(children: list) -> list:
    """The operand and the `normal_form` of an IS NORMALIZED test (NFC where none is named)."""
    form = next((str(c).upper() for c in children if isinstance(c, Token)), "NFC")
    return [children[0], Tree("normal_form", [Token("NORMAL_FORM", form)])]


class _Shorthands(Transformer):
    """Neo4j's shorthands written out as the forms they stand for, while parsing."""

    def __default__(self, data: str, children: list, meta: object) -> Tree:
        """Every other rule's tree, named by a plain string: lark names it by a `Token`, whose
        `==` is a Python method, and the passes compare tree names millions of times (a
        tenth of the translation time went there)."""
        return Tree(str(data), children, meta)

    def trim_from(self, children: list) -> Tree:
        """GQL's `trim([BOTH|LEADING|TRAILING] [c] FROM s)`, which Neo4j 5 reads: `btrim(s, c)`,
        `ltrim(s, c)` or `rtrim(s, c)` (`trim(s)` and its kin without a c), marked so that
        the rewrite checks c is one character."""
        _callee, *rest = children
        mode = str(rest.pop(0)).upper() if rest and isinstance(rest[0], Token) else "BOTH"
        source = rest.pop()
        fname = {"BOTH": "btrim" if rest else "trim", "LEADING": "ltrim",
                 "TRAILING": "rtrim"}[mode]
        node = call(fname, source, *rest)
        node.trim_from = True  # type: ignore[attr-defined]
        return node

    def map_projection(self, children: list) -> Tree:
        """`n {.key}` of a variable as `n {key: n.key}`, the same entry: a property read the
        passes that read properties see (`r {.bbox_dim}` of a room is NULL in Neo4j; the
        engines failed "Cannot find property bbox_dim", charged to the model)."""
        subject = children[0]
        if isinstance(subject, Tree) and subject.data == "var":
            children = [subject] + [
                tree("proj_key", item.children[0], tree(
                    "prop", clone(subject), clone(item.children[0])))
                if isinstance(item, Tree) and item.data == "proj_prop" else item
                for item in children[1:]]
        return Tree("map_projection", children)

    def order_clause(self, children: list) -> Tree:
        """Neo4j 5.24's standalone `ORDER BY` / `SKIP` / `OFFSET` / `LIMIT`: the Cypher Manual
        (clauses/order-by, skip, limit) defines it as `WITH * ORDER BY .. SKIP .. LIMIT ..`,
        which it becomes; `standalone` names the clause for Neo4j's messages."""
        first = children[0].data
        node = Tree("with_clause", [Tree("projection", [
            Tree("proj_items", [Token("STAR", "*")]), *children])])
        node.standalone = {"order": "ORDER BY", "skip": "SKIP"}.get(  # type: ignore[attr-defined]
            first, "LIMIT")
        return node

    def optional_call_subquery(self, children: list) -> Tree:
        """Neo4j 5.24's `OPTIONAL CALL { }`: a CALL subquery marked `optional` (the outer row is
        kept, with NULLs, where the body returns no row; `call_subqueries.py`)."""
        node = Tree("call_subquery", [c for c in children if not isinstance(c, Token)])
        node.optional = True  # type: ignore[attr-defined]
        return node

    def node_labels(self, children: list) -> Tree:
        """`(n:A:B)` is Neo4j 4's conjunction, and Neo4j 5 rejects it beside any of the label
        expression symbols `|`, `&`, `!` and `%` (`(n:Object:MeshPlace|Object)`,
        `(n:Room:!MeshPlace)`), as it does in a WHERE (`has_label`)."""
        if len(children) > 1 and any(_gpm_symbols(part) for part in children):
            raise CypherSyntaxError(MIXED_COLON)
        return Tree("node_labels", children)

    def is_labels(self, children: list) -> Tree:
        """GQL's `(n IS Room|Place)`: the label expression of `(n:Room|Place)`; Neo4j rejects
        a colon after it (`(n IS Room:Place)`)."""
        if len(children) > 1:
            raise CypherSyntaxError(_IS_COLON)
        return Tree("node_labels", children)

    def rel_is_types(self, children: list) -> Tree:
        """GQL's `[r IS CONTAINS]`: the type expression of `[r:CONTAINS]`."""
        return Tree("rel_types", children)

    def label_or_colon(self, children: list) -> Tree:
        """`:A|:B` of a node: Neo4j 5 rejects it (only relationship types keep Neo4j 4's
        `|:`)."""
        raise CypherSyntaxError(_BAR_COLON)

    def rel_or_colon(self, children: list) -> Tree:
        """`[:A|:B]`: Neo4j 4's alternation of types, which Neo4j 5 still reads (deprecated)
        where the relationship has no variable, property map, WHERE or length (`rel_detail`)."""
        node = Tree("label_or", children)
        node.bar_colon = True  # type: ignore[attr-defined]
        return node

    def rel_detail(self, children: list) -> Tree:
        """Neo4j 5 removed `|:` between relationship types beside a variable, a property map,
        a WHERE or a variable length (`[r:A|:B]`, `[:A|:B*1..2]`; the Cypher Manual's 5.0
        removals), or beside the symbols `&`, `!`, `%`."""
        types = next((c for c in children if isinstance(c, Tree) and c.data == "rel_types"),
                     None)
        if types is not None and any(getattr(sub, "bar_colon", False)
                                     for sub in types.iter_subtrees()) \
                and (len(children) > 1 or _gpm_symbols(types, bars=False)):
            raise CypherSyntaxError(_REL_BAR_COLON)
        return Tree("rel_detail", children)

    def is_label(self, children: list) -> Tree:
        """GQL's label predicate `n IS Room`: Neo4j 5's `n:Room`."""
        return Tree("has_label", children)

    def is_normalized(self, children: list) -> Tree:
        """`s IS [NFC|NFD|NFKC|NFKD] NORMALIZED` (Neo4j 5.17; NFC when no form is named):
        `is_normalized(s, normal_form)`, read by `type_predicates.py`."""
        return Tree("is_normalized", _normal_form_children(children))

    def is_not_normalized(self, children: list) -> Tree:
        return Tree("is_not_normalized", _normal_form_children(children))

    def type_list(self, children: list) -> Tree:
        """`LIST<T>` (and `ANY<T | U>`, `type_any`): the bracket that closes it is `>`."""
        if str(children[-1]) != ">":
            raise CypherSyntaxError(f"unexpected {str(children[-1])!r} after a type")
        return Tree("type_list", children)

    def type_any(self, children: list) -> Tree:
        return Tree("type_any", self.type_list(children).children)

    def is_typed(self, children: list) -> Tree:
        """`x IS :: T`, `x IS TYPED T`, `x :: T` (Neo4j 5.9): `is_typed(x, type_expr)`."""
        return Tree("is_typed", [c for c in children if isinstance(c, Tree)])

    def is_not_typed(self, children: list) -> Tree:
        return Tree("is_not_typed", [c for c in children if isinstance(c, Tree)])

    # A simple CASE's WHEN with its subject left out (`WHEN IS :: INTEGER`, Neo4j 5.18), as
    # the tests above without a subject (`simple_case.py` puts the subject in).
    def when_is_normalized(self, children: list) -> Tree:
        return Tree("when_is_normalized", _normal_form_children([None, *children])[1:])

    def when_is_not_normalized(self, children: list) -> Tree:
        return Tree("when_is_not_normalized", _normal_form_children([None, *children])[1:])

    def when_is_typed(self, children: list) -> Tree:
        return Tree("when_is_typed", [c for c in children if isinstance(c, Tree)])

    def when_is_not_typed(self, children: list) -> Tree:
        return Tree("when_is_not_typed", [c for c in children if isinstance(c, Tree)])

    def has_label(self, children: list) -> Tree:
        """`n:A:B` (Neo4j 4's both labels, still read by Neo4j 5) as `n:A&B`: the grammar reads
        it as `(n:A):B`, a label test of a boolean."""
        subject, expression = children
        if isinstance(subject, Tree) and subject.data == "has_label":
            inner_subject, inner_expression = subject.children
            if any(part.data != "label_term" for part in (inner_expression, expression)):
                raise CypherSyntaxError(MIXED_COLON)
            return Tree("has_label", [inner_subject,
                                      Tree("label_and", [inner_expression, expression])])
        return Tree("has_label", children)

    def trim_call(self, children: list) -> Tree:
        """`trim(s)`, `trim(s, c)`: a call as any other (`TRIM_CALL` is its own token)."""
        callee, *args = children
        return call(str(callee), *args)

    def call(self, children: list) -> Tree:
        """`normalize(s, NFD)`: the normal form is one of Neo4j's keywords NFC, NFD, NFKC,
        NFKD (in any case), no variable: a `normal_form` tree, which no pass reads as one
        (`RETURN normalize('a', NFD) AS nfd` was charged as an undefined `NFD`)."""
        callee, *args = children
        if len(args) == 2 and isinstance(callee, Tree) and callee.data == "var" \
                and str(callee.children[0].children[0]).lower() == "normalize" \
                and isinstance(args[1], Tree) and args[1].data == "var" \
                and args[1].children[0].children[0].type == "NAME" \
                and str(args[1].children[0].children[0]).upper() in NORMAL_FORMS:
            form = str(args[1].children[0].children[0]).upper()
            args[1] = Tree("normal_form", [Token("NORMAL_FORM", form)], args[1].meta)
        return Tree("call", [callee, *args])

    def match(self, children: list) -> Tree:
        return Tree("match", _with_conditions(children))

    def subquery_pattern(self, children: list) -> Tree:
        return Tree("subquery_pattern", _with_conditions(children))

    def proj_var(self, children: list) -> Tree:
        """A map projection's variable selector, `r {.class, degree}`: the entry `degree:
        degree` (the Cypher Manual, map projection)."""
        (key,) = children
        return tree("proj_key", key, var(clone(key)))


def _lark(positions: bool) -> Lark:
    return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", lexer="contextual",
                propagate_positions=positions, maybe_placeholders=False, cache=False,
                transformer=_Shorthands(),
                lexer_callbacks={"INT": _plain_integer, "FLOAT": _plain_float})


@built_once
def _parser() -> Lark:
    """The parser that gives every tree its span in the text (`meta`)."""
    return _lark(positions=True)


@built_once
def _plain_parser() -> Lark:
    """The parser without spans: position tracking is a quarter of a parse, and a translation
    needs only the RETURN items' texts, which the tokens give (`return_texts.py`)."""
    return _lark(positions=False)


# The text a label expression may hold after its `:` (names, `|`, `&`, `!`, `%`, parentheses).
_LABEL_TEXT = r"(?:[\w\s|&!%()]|`[^`]*`)"
_LABEL_BEFORE = re.compile(rf"(?::(?!:)|\bIS\b)\s*((?:(?!\bIS\b){_LABEL_TEXT})*?)\s*$",
                           re.IGNORECASE)
_MORE_LABELS = re.compile(r"\s*\|\s*:?\s*(?:!\s*)*(?:\w+|`[^`]*`|%)")


def _bracketed_alternation(query: str, at: int) -> str | None:
    """`n:Room|Place` (or GQL's `n IS Room|Place`) outside a pattern, which Neo4j 5 reads as a
    label expression: our LALR grammar cannot take a top-level `|` there (a list
    comprehension's `|` may follow), so a parse that failed at the `|` of offset `at` is
    retried with the alternation in parentheses, `n:(Room|Place)`. Inside a comprehension
    (`[n IN xs WHERE n:A|B | n.x]`) the failure is at the comprehension's own `|`, and only
    the labels before it are bracketed. None: the `|` does not follow a label."""
    before = _LABEL_BEFORE.search(query[:at])
    if before is None or not re.search(r"\w|%|`", before.group(1)) \
            or before.group(1).count("(") != before.group(1).count(")"):
        return None
    start, end = before.start(1), at
    if "|" not in before.group(1):   # the alternation continues after the failing `|`
        while (more := _MORE_LABELS.match(query, end)) is not None:
            end = more.end()
    labels = query[start:end].strip()
    if "|" not in labels:
        return None
    return f"{query[:start]}({labels}){query[end:]}"


def parse(query: str) -> Tree:
    """The parse tree of `query`; `CypherSyntaxError` (one line) when it is not Cypher."""
    return parse_text(query)[0]


def parse_text(query: str, positions: bool = True) -> tuple[Tree, str]:
    """The parse tree of `query` and the text it is the tree of (positions in the tree index
    it): `query`, or `query` with a label alternation put in parentheses. Without
    `positions`, the trees have no spans and the root holds the query's tokens (`tokens`)."""
    text = query
    for _attempt in range(8):
        try:
            root = _parse(text) if positions else _parse_plain(text)
            if _NOT_DECIMAL.search(text):
                _check_integers(root, text)   # reads the tokens' positions, kept either way
            if len(_PREDICATE_WORDS.findall(text)) > 1:
                _check_chained_predicates(root)
            return root, text
        except UnexpectedToken as exc:
            repaired = _bracketed_alternation(text, exc.token.start_pos) \
                if exc.token.value == "|" else None
            if repaired is None:
                break
            text = repaired
        except (LarkError, RecursionError):
            break
    return _parse(query, report=True), query


def _refuse_unread(query: str, at: int | None) -> None:
    """A parse that failed inside Neo4j 5 syntax the grammar does not read is the translator's
    failure (`unread_syntax.py`): `DialectError`."""
    what = unread_form(query, at) if at is not None else None
    if what is not None:
        raise DialectError(f"{what}: Neo4j 5 syntax the translator does not read")


def _parse_plain(query: str) -> Tree:
    """One parse without spans; the root keeps the tokens it was parsed from."""
    parser = _plain_parser().parse_interactive(query)
    tokens = parser.exhaust_lexer()
    root = parser.feed_eof(tokens[-1] if tokens else None)
    root.tokens = tokens
    return root


def _parse(query: str, report: bool = False) -> Tree:
    """One parse; with `report`, lark's errors become `CypherSyntaxError`."""
    if not report:
        return _parser().parse(query)
    try:
        return _parser().parse(query)
    except UnexpectedToken as exc:
        _refuse_unread(query, exc.token.start_pos if exc.token.type != "$END" else len(query))
        got = exc.token.value if exc.token.type != "$END" else "end of query"
        raise CypherSyntaxError(
            f"unexpected {got!r} at line {exc.line}, column {exc.column}") from None
    except UnexpectedCharacters as exc:
        _refuse_unread(query, exc.pos_in_stream)
        raise CypherSyntaxError(
            f"unexpected character {query[exc.pos_in_stream]!r} at line {exc.line}, "
            f"column {exc.column}") from None
    except UnexpectedEOF:
        raise CypherSyntaxError("query ends too early") from None
    except (LarkError, RecursionError) as exc:
        raise CypherSyntaxError(f"cannot parse the query: {type(exc).__name__}") from None
