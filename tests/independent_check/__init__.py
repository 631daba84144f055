"""An independent answer checker for generated question sets.

The question generator checks each gold answer by computing it twice, but both computations are
its own (its reference Cypher and its own rows -> SLDP conversion), so its agreement is circular.
This package answers every question from the question's *text* and the spark_dsg JSON file
alone: it reads the JSON with the `json` module (`graph`), recognises each phrasing with a
regular expression that also pins the definitions the question states (`phrasings`), computes
the answer from those definitions (`relations`, `solvers`), and compares it with the gold
solution through the benchmark's scorer, SLDP equality with its tolerance or PDDL goal
equivalence (`compare`). It imports nothing from the generator, the scene-graph loader, the
graph store or the Cypher translator.

A question whose text admits more than one answer on this graph (a tie, a false premise, a word
the JSON cannot give a meaning to) is reported as ambiguous, with the reason, not guessed.

Run: `python -m tests.independent_check QUESTIONS.yaml SCENE_GRAPH.json`.
"""
