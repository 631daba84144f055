#!/usr/bin/env bash
# Create .venv (if missing or stale) and install the project with its dev extras into it.
# Sourced by the other scripts, so every entry point does its own set-up on a fresh machine.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
stamp="$venv/.installed-$(sha1sum "$root/pyproject.toml" | cut -c1-12)"
# Two entry points started at once (the server and a deploy) must not both install: the
# second waits for the first's lock, then finds the stamp.
install_venv() {
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if [ ! -f "$stamp" ]; then
  log="$venv/install.log"
  echo "setting up $venv (log: $log)" >&2
  # Output goes to a log (the machine's pip config names local indexes that may be absent, and
  # pip warns about each); on failure the log's tail is shown.
  if ! { "$venv/bin/python" -m pip install --upgrade pip \
         && "$venv/bin/python" -m pip install -e "$root[dev]"; } >"$log" 2>&1; then
    grep -v "is ignored: it is neither" "$log" | tail -20 >&2
    echo "pip install failed (full log: $log)" >&2
    exit 1
  fi
  rm -f "$venv"/.installed-* && touch "$stamp"
fi
}
if [ ! -f "$stamp" ]; then
  mkdir -p "$(dirname "$venv")"
  exec {venv_lock}>"$root/.venv.lock"
  flock "$venv_lock"
  install_venv
  flock -u "$venv_lock"
  exec {venv_lock}>&-
fi
# A fresh ephemeral Prefect API takes 14-24 s to start here; the default timeout is 20 s.
export PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS="${PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS:-120}"
export PATH="$venv/bin:$PATH"
