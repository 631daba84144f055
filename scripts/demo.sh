#!/usr/bin/env bash
# Run the demo benchmark end to end: sets up .venv if needed, no API key, no server to start.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root"
exec nlp-dsg-benchmark demo "$@"
