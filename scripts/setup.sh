#!/usr/bin/env bash
# Installs what the tests and the demo need on a fresh Debian machine:
# Chromium and Mosquitto from Debian (when missing; needs root), then npm packages,
# then the lint's own tool package (tools/lint, docs/lint.md).
set -euo pipefail
cd "$(dirname "$0")/.."
need=()
command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ] || need+=(chromium)
command -v mosquitto >/dev/null 2>&1 || [ -x /usr/sbin/mosquitto ] || need+=(mosquitto)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
  else
    echo "setup: missing ${need[*]}; install them with: sudo apt-get install -y ${need[*]}" >&2
  fi
fi
if [ -f package-lock.json ]; then npm ci --no-audit --no-fund --loglevel=error; else npm install --no-audit --no-fund --loglevel=error; fi
node -e "import('./scripts/lint.mjs').then((m) => process.exit(m.ensureLintTools() ? 0 : 1))"
