#!/usr/bin/env bash
# Run lint and the test suite: sets up .venv if needed. Extra arguments go to pytest.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root"
ruff check .
exec python -m pytest "$@"
