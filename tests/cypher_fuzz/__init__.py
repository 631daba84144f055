"""A semantic differential fuzzer for the Neo4j -> Kuzu/Ladybug Cypher translator.

Random read queries (`generate`) over random small scene graphs in Heracles' layout (`graphs`)
are answered three ways: by a small reference evaluator written from the Neo4j Cypher Manual
(`reference`), and by the translator on Kuzu and on Ladybug (`engines`, each engine in its own
interpreter). `differential` compares the rows; a difference without an error is a defect.
"""
