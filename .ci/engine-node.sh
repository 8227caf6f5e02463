#!/usr/bin/env bash
# Proves which Node.js the Pulumi engine runs a program with: the language host
# (pulumi-language-nodejs) and the dynamic provider host (pulumi-resource-pulumi-nodejs) both
# start whichever `node` comes first on PATH. A `pulumi preview` of a tiny JavaScript program with
# one dynamic resource writes down process.version from both; they must equal `node --version`
# here. Offline: file backend, passphrase secrets, everything in a temporary directory.
#
#   bash .ci/engine-node.sh <directory holding pulumi>
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
engine="${1:?usage: engine-node.sh <directory holding pulumi>}"
expected="$(node --version)"

work="$(mktemp -d "${TMPDIR:-/tmp}/pip-engine-node.XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/program" "$work/backend" "$work/home" "$work/seen"
ln -s "$repo/node_modules" "$work/program/node_modules"
printf 'name: engine-node\nruntime: nodejs\n' >"$work/program/Pulumi.yaml"
printf '{ "name": "engine-node", "private": true, "main": "index.js" }\n' >"$work/program/package.json"
cat >"$work/program/index.js" <<'EOF'
"use strict";
const fs = require("fs");
const path = require("path");
const pulumi = require("@pulumi/pulumi");
const seen = process.env.ENGINE_NODE_SEEN;
fs.writeFileSync(path.join(seen, "program"), `${process.version} ${process.execPath}\n`);
// check runs in the dynamic provider host, a separate process, during preview.
const provider = {
  async check(_olds, news) {
    require("fs").writeFileSync(require("path").join(process.env.ENGINE_NODE_SEEN, "provider"), `${process.version} ${process.execPath}\n`);
    return { inputs: news };
  },
  async create(inputs) {
    return { id: "probe", outs: inputs };
  },
};
new pulumi.dynamic.Resource(provider, "probe", {});
EOF

export PATH="$engine:$PATH" ENGINE_NODE_SEEN="$work/seen"
export PULUMI_HOME="$work/home" PULUMI_BACKEND_URL="file://$work/backend" PULUMI_CONFIG_PASSPHRASE=engine-node
export PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true NO_COLOR=1
cd "$work/program"
if ! { pulumi stack init probe --non-interactive && pulumi preview --non-interactive --color never; } >"$work/log" 2>&1; then
  cat "$work/log" >&2
  echo "engine-node: pulumi preview of the probe program failed (above)" >&2
  exit 1
fi
status=0
for who in program provider; do
  if [ ! -s "$work/seen/$who" ]; then
    echo "engine-node: the $who wrote nothing" >&2
    status=1
    continue
  fi
  read -r version exe <"$work/seen/$who"
  echo "engine-node: the engine's $who ran on node $version ($exe)"
  if [ "$version" != "$expected" ]; then
    echo "engine-node: expected $expected, the node first on PATH ($(command -v node))" >&2
    status=1
  fi
done
exit $status
