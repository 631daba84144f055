#!/usr/bin/env bash
# Download the external data sets (the Hydra example graph, AutoPlanBench's domains) at pinned
# commits into the git-ignored data/external/, each file checked against data/sources.json.
# Extra arguments go to `nlp-dsg-benchmark data fetch` (--set NAME, --dest DIR, --mirror URL).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root"
exec nlp-dsg-benchmark data fetch "$@"
