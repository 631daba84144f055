"""The product's entry point: the `nlp-dsg-benchmark` command line."""

# Imported first, so its exit handler is the first registered and runs last.
from nlp_dsg_benchmark import process_exit as _process_exit  # noqa: F401
