#!/usr/bin/env bash
# Run lint and the test suite: sets up .venv if needed. Extra arguments go to pytest (after
# ours, so `-n 0` runs everything in this one process, e.g. for --pdb).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root"
ruff check .
# Two worker processes (pytest-xdist), one per core of a 2-core machine: each is a pytest session
# of its own (its own Prefect harness, temporary folders and ports). worksteal: a worker that
# runs out of tests takes the not yet started ones from the other's queue, so one slow test
# late in a queue does not leave a core idle at the end.
exec python -m pytest -n 2 --dist worksteal "$@"
