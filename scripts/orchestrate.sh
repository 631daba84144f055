#!/usr/bin/env bash
# The Prefect deployment path (docs/deployment.md), one step per subcommand:
#
#   scripts/orchestrate.sh server              # foreground: the Prefect API + UI + scheduler
#   scripts/orchestrate.sh deploy [NAME...]    # create the process work pool, deploy prefect.yaml
#   scripts/orchestrate.sh worker [ARGS...]    # foreground: runs the pool's flow runs
#   scripts/orchestrate.sh run [NAME] [ARGS...]  # start a run now (default: nightly); with
#                                              # --watch, then print its causes and folder
#   scripts/orchestrate.sh postgres            # optional: a local PostgreSQL for the server
#
# The server listens where PREFECT_API_URL points (default: prefect.toml's 127.0.0.1:4200).
# Its database is SQLite under PREFECT_HOME unless PREFECT_API_DATABASE_CONNECTION_URL is set.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/venv.sh"
cd "$root"
# prefect.yaml's `{{ $PWD }}` placeholders are filled in from this at deploy time.
export PWD="$root"
export PREFECT_API_URL="${PREFECT_API_URL:-http://127.0.0.1:4200/api}"
export PREFECT_SERVER_ANALYTICS_ENABLED="${PREFECT_SERVER_ANALYTICS_ENABLED:-false}"
POOL="nlp-dsg-benchmark"   # as in prefect.yaml
FLOW="nlp-dsg-benchmark"

wait_for_api() {  # the server takes 15-25 s to start; wait up to 120 s
  python - "$PREFECT_API_URL/health" <<'EOF'
import sys, time, urllib.request
deadline = time.monotonic() + 120
while True:
    try:
        urllib.request.urlopen(sys.argv[1], timeout=2).read()
        break
    except OSError as error:
        if time.monotonic() > deadline:
            sys.exit(f"orchestrate: no Prefect API at {sys.argv[1]} after 120 s ({error})")
        time.sleep(0.5)
EOF
}

command="${1:-}"
shift || true
case "$command" in
  server)
    hostport="${PREFECT_API_URL#*://}"; hostport="${hostport%%/*}"
    exec prefect server start --host "${hostport%:*}" --port "${hostport##*:}" "$@" ;;
  deploy)
    wait_for_api
    prefect work-pool inspect "$POOL" >/dev/null 2>&1 \
      || prefect work-pool create "$POOL" --type process
    targets=(--all)
    [ $# -gt 0 ] && { targets=(); for name in "$@"; do targets+=(--name "$name"); done; }
    # The automation that marks a run Crashed once its heartbeats stop (a dead machine's run
    # would stay Running, and `prefect flow-run retry` refuses that).
    prefect automation inspect mark-silent-flow-runs-crashed >/dev/null 2>&1 \
      || prefect automation create --from-file configs/automations/mark-crashed.yaml
    exec prefect --no-prompt deploy "${targets[@]}" ;;
  worker)
    wait_for_api
    exec prefect worker start --pool "$POOL" --type process "$@" ;;
  run)
    name="${1:-nightly}"
    shift || true
    watch=false
    for arg in "$@"; do if [ "$arg" = "--watch" ]; then watch=true; fi; done
    "$watch" || exec prefect deployment run "$FLOW/$name" "$@"
    # Watched: once the run ends, say how and why (the cause of a failure is otherwise only in
    # the worker's log) and where its results are; the exit status stays the run's.
    output="$(mktemp)"
    trap 'rm -f "$output"' EXIT
    status=0
    prefect deployment run "$FLOW/$name" "$@" | tee "$output" || status="${PIPESTATUS[0]}"
    flow_run_id="$(sed -n 's/.*UUID: *\([0-9a-f-]\{36\}\).*/\1/p' "$output" | head -n 1)"
    if [ -n "$flow_run_id" ]; then
      echo
      python -m nlp_dsg_benchmark.flow_run_outcome "$flow_run_id" || true
    fi
    exit "$status" ;;
  postgres)
    # Debian's PostgreSQL on this machine, a `prefect` role and database (needs root). Prints the
    # setting that points the server at it; run `server` with that variable exported.
    command -v pg_ctlcluster >/dev/null || { apt-get update -q && apt-get install -y -q postgresql; }
    version="$(ls /etc/postgresql | sort -n | tail -1)"
    pg_ctlcluster "$version" main start 2>/dev/null || true
    password="${PREFECT_PG_PASSWORD:-prefect}"
    su postgres -c "psql -q -v ON_ERROR_STOP=1" <<EOF
SELECT 'CREATE ROLE prefect LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'prefect')\gexec
ALTER ROLE prefect PASSWORD '$password';
SELECT 'CREATE DATABASE prefect OWNER prefect' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'prefect')\gexec
EOF
    echo "export PREFECT_API_DATABASE_CONNECTION_URL=postgresql+asyncpg://prefect:$password@127.0.0.1:5432/prefect" ;;
  *)
    sed -n '2,11p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
    exit 2 ;;
esac
