#!/usr/bin/env bash
# A new Python user's path from the release folder to a deployed quickstart, as
# docs/installation-configuration.md gives it (the wheel, then the plugin from its archive), timed
# step by step (BENCHMARKS.md, "The plugin as one executable"). Everything happens in a temporary
# directory; the emulator runs at the platform's rate limit.
#
#   bash scripts/first-hour-python.sh <release-folder> [--no-cache-dir]
#
# --no-cache-dir installs with pip's cache off (every package from the index); without it, pip's
# cache of this machine is used. pulumi runs with a PATH of the engine, the language hosts and the
# system directories only (/usr/bin may hold a node: the plugin does not use it). The emulator is a
# Node.js program, which a user's CI runs apart from the stack; it runs here with the caller's node.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
release="$(realpath "${1:?usage: first-hour-python.sh <release-folder> [--no-cache-dir]}")"
version="$(sed -n 's/^pulumi_integration_platform-\(.*\)-py3-none-any\.whl$/\1/p' <(ls "$release"))"
wheel="$release/pulumi_integration_platform-$version-py3-none-any.whl"
archive="$release/pulumi-resource-integration-platform-v$version-linux-amd64.tar.gz"
work="$(mktemp -d "${TMPDIR:-/tmp}/pip-first-hour-python.XXXXXX")"
emulator_pid=""
trap '[ -n "$emulator_pid" ] && kill "$emulator_pid" 2>/dev/null; rm -rf "$work"' EXIT
pip_cache=()
if [ "${2:-}" = --no-cache-dir ]; then pip_cache=(--no-cache-dir); fi

engine="$(bash "$repo/scripts/ensure-pulumi.sh" 2>/dev/null | tail -n 1)"
hosts="$(bash "$repo/scripts/ensure-languages.sh" 2>/dev/null | tail -n 1)"
node="$(command -v node)" python="$(command -v python3)"
export PATH="$engine:$hosts:/usr/local/bin:/usr/bin:/bin" PULUMI_HOME="$work/home" \
  PULUMI_BACKEND_URL="file://$work/backend" PULUMI_CONFIG_PASSPHRASE=first-hour PULUMI_SKIP_UPDATE_CHECK=true NO_COLOR=1
mkdir -p "$work/backend"

step() { # <name>: prints the time of the step before, and starts timing this one
  local now; now="$(date +%s.%N)"
  if [ -n "${step_name:-}" ]; then
    awk -v a="$step_at" -v b="$now" -v n="$step_name" 'BEGIN { printf "%6.1f s  %s\n", b - a, n }'
  fi
  step_name="$1" step_at="$now"
}

started="$(date +%s.%N)"
cp -r "$repo/examples/native/python" "$work/quickstart"
cd "$work/quickstart"
step "python3 -m venv venv"
"$python" -m venv venv
step "venv/bin/pip install <wheel>${pip_cache[*]:+ --no-cache-dir}"
venv/bin/pip install --quiet --disable-pip-version-check "${pip_cache[@]}" "$wheel"
step "pulumi plugin install resource integration-platform $version --file <linux-amd64 archive>"
pulumi plugin install resource integration-platform "$version" --file "$archive" --non-interactive >/dev/null 2>&1
step "the emulator starts (node dist/emulator/main.js, a separate Node.js program)"
"$node" "$repo/dist/emulator/main.js" --port 0 >"$work/banner" 2>&1 &
emulator_pid=$!
until grep -qs "export INTEGRATION_PLATFORM_API_KEY" "$work/banner"; do sleep 0.05; done
url="$(sed -n 's/^Integration platform emulator listening on //p' "$work/banner")"
key="$(sed -n 's/^ *export INTEGRATION_PLATFORM_API_KEY=//p' "$work/banner")"
step "pulumi stack init and the four config set lines"
pulumi stack init dev --non-interactive >/dev/null 2>&1
pulumi config set integration-platform:baseUrl "$url" >/dev/null
pulumi config set --secret integration-platform:apiKey "$key" >/dev/null
pulumi config set --secret crmToken crm-first-hour >/dev/null
pulumi config set accountQuota 250 >/dev/null
# The calls the up made, from the emulator's request log (its control plane).
calls() { curl -s "$url/_emulator/requests" | "$node" -e 'console.log(JSON.parse(require("fs").readFileSync(0, "utf8")).length)'; }
curl -s -X DELETE "$url/_emulator/requests" >/dev/null
step "pulumi up --yes --skip-preview (the quickstart's seven resources)"
pulumi up --yes --skip-preview --non-interactive >"$work/up" 2>&1
grep -q "+ 8 created" "$work/up" || { cat "$work/up"; exit 1; }
step ""
awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%6.1f s  total\n", b - a }'
echo "calls answered: up $(calls)"
echo "pulumi: $(pulumi version 2>/dev/null) in $engine; $("$python" --version); pulumi (Python) $(venv/bin/pip show pulumi | sed -n 's/^Version: //p')"
echo "node on pulumi's PATH: $(command -v node || echo none); the plugin pulumi runs: $(ls "$PULUMI_HOME"/plugins/resource-integration-platform-v*/pulumi-resource-*)"
