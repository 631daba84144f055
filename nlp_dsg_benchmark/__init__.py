"""The product's entry point: the `nlp-dsg-benchmark` command line."""
