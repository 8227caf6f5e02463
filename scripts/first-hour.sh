#!/usr/bin/env bash
# A new user's path from the release tarball to a first preview, as README.md's "Install" and
# examples/quickstart/README.md give it, timed step by step (BENCHMARKS.md, "A new user's first
# hour"). Everything happens in a temporary directory; the emulator runs at the platform's rate limit.
#
#   bash scripts/first-hour.sh <tarball> [--cold-npm-cache]
#
# --cold-npm-cache installs with an empty npm cache (every package from the registry), as a new
# machine does; without it, npm's cache of this machine is used.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
tarball="$(realpath "${1:?usage: first-hour.sh <tarball> [--cold-npm-cache]}")"
work="$(mktemp -d "${TMPDIR:-/tmp}/pip-first-hour.XXXXXX")"
emulator_pid=""
trap '[ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null; rm -rf "$work"' EXIT
npm_cache=()
if [ "${2:-}" = --cold-npm-cache ]; then npm_cache=(--cache "$work/npm-cache"); fi

engine="$(bash "$repo/scripts/ensure-pulumi.sh" 2>/dev/null | tail -n 1)"
export PATH="$engine:$PATH" PULUMI_HOME="$work/home" PULUMI_BACKEND_URL="file://$work/backend" \
  PULUMI_CONFIG_PASSPHRASE=first-hour PULUMI_SKIP_UPDATE_CHECK=true NO_COLOR=1
mkdir -p "$work/backend"

step() { # <name>: prints the time of the step before, and starts timing this one
  local now; now="$(date +%s.%N)"
  if [ -n "${step_name:-}" ]; then
    awk -v a="$step_at" -v b="$now" -v n="$step_name" 'BEGIN { printf "%6.1f s  %s\n", b - a, n }'
  fi
  step_name="$1" step_at="$now"
}

cp -r "$repo/examples/quickstart" "$work/quickstart"
cd "$work/quickstart"
step "npm install <tarball> (and the project's other dependencies)"
npm install "${npm_cache[@]}" --no-audit --no-fund --loglevel error "$tarball" >/dev/null
step "the emulator starts (node_modules/.bin/pulumi-integration-platform-emulator, what npx runs)"
node_modules/.bin/pulumi-integration-platform-emulator --port 0 >"$work/banner" 2>&1 &
emulator_pid=$!
until grep -q "export INTEGRATION_PLATFORM_API_KEY" "$work/banner"; do sleep 0.05; done
url="$(sed -n 's/^Integration platform emulator listening on //p' "$work/banner")"
step "pulumi stack init and the two config set lines"
pulumi stack init dev --non-interactive >/dev/null 2>&1
pulumi config set integration-platform:baseUrl "$url" >/dev/null
pulumi config set --secret integration-platform:apiKey tk_emulator >/dev/null
# The calls each command made, from the emulator's request log (its control plane).
calls() { curl -s "$url/_emulator/requests" | node -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).length)'; }
clear_calls() { curl -s -X DELETE "$url/_emulator/requests" >/dev/null; }
clear_calls
step "pulumi preview (the quickstart's seven resources)"
pulumi preview --non-interactive >"$work/preview"
grep -q "+ 8 to create" "$work/preview" || { cat "$work/preview"; exit 1; }
preview_calls="$(calls)"
clear_calls
step "pulumi up"
pulumi up --yes --non-interactive >/dev/null
step ""
echo "calls answered: preview $preview_calls, up $(calls)"
echo "pulumi: $(pulumi version) in $engine; tarball: $(basename "$tarball"), $(du -k "$tarball" | cut -f1) KiB"
