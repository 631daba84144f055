"""The QA track's stages, one module each, in pipeline order:
generate_cypher -> run_query -> refine -> compare. Solver = the first three; scorer = compare."""

from dsgqa.stages.compare import compare
from dsgqa.stages.generate_cypher import generate_cypher
from dsgqa.stages.refine import refine
from dsgqa.stages.run_query import run_query

__all__ = ["compare", "generate_cypher", "refine", "run_query"]
