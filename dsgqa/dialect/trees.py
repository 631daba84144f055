"""Building parse-tree nodes for rewrites: the node shapes `cypher.lark` produces, so a rewritten
tree prints (`emit`) like one the parser made. One leaf module, so every rewrite pass builds
nodes the same way."""

from __future__ import annotations

from lark import Token, Tree


def tree(data: str, *children: object) -> Tree:
    return Tree(data, list(children))


def name(text: str) -> Tree:
    return tree("name", Token("NAME", text))


def var(text: str | Tree) -> Tree:
    """A variable reference, from its text or an existing `name` node."""
    return tree("var", text if isinstance(text, Tree) else name(text))


def call(function: str, *args: object) -> Tree:
    return tree("call", var(function), *args)


def int_lit(value: int) -> Tree:
    return tree("int_lit", Token("INT", str(value)))
