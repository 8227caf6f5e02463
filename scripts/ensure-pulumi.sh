#!/usr/bin/env bash
# Makes the Pulumi engine available: `pulumi`, `pulumi-language-nodejs` and
# `pulumi-resource-pulumi-nodejs`, all in one directory. Prints that directory as the last line
# of stdout (progress goes to stderr), so callers can do:
#
#   export PATH="$(bash scripts/ensure-pulumi.sh):$PATH"
#
# Which CLI: the mode is the first argument, else $PULUMI_IP_ENGINE, else `installed`.
#   installed  a `pulumi` on PATH at or above the minimum version (tools/pulumi-minimum/go.mod),
#              as users have it; else the pinned one below.
#   pinned     the version tools/pulumi/go.mod pins (CI's full suite): on PATH if it is exactly
#              that, else a cached build, else a fresh build from Go modules.
#   minimum    the minimum version, the same way (CI proves the quickstart on it).
# Builds are cached in $PULUMI_IP_CACHE_DIR (default ~/.cache/pulumi-integration-platform).
#
# Why a build: no package registry these machines reach ships the CLI binary, and the npm
# packages named `pulumi` download it from the internet at run time.
set -euo pipefail

repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
mode="${1:-${PULUMI_IP_ENGINE:-installed}}"

ensure_name=ensure-pulumi
. "$repo/scripts/lib/ensure.sh"
die() {
  log "$*"
  cat >&2 <<EOF
ensure-pulumi: the Pulumi CLI v${version:-?} is needed and could not be provided. Either
  - install the official Pulumi CLI, v${minimum:-?} or newer:  curl -fsSL https://get.pulumi.com | sh
    and put ~/.pulumi/bin on PATH, or
  - install Go 1.25.11 or newer and run this script again: it builds the CLI from the Go modules
    pinned in tools/ (about 10 minutes on 2 cores, once; later runs use the cache).
EOF
  exit 1
}

# True when version $1 is at or above version $2 (both x.y.z).
at_least() { [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n 1)" = "$2" ]; }

pinned="$(required_version "$repo/tools/pulumi/go.mod" github.com/pulumi/pulumi/pkg/v3)"
minimum="$(required_version "$repo/tools/pulumi-minimum/go.mod" github.com/pulumi/pulumi/pkg/v3)"
[ -n "$pinned" ] && [ -n "$minimum" ] || die "could not read the pkg/v3 versions from tools/pulumi*/go.mod"
case "$mode" in
  installed | pinned) version="$pinned" tools="$repo/tools/pulumi" ;;
  minimum) version="$minimum" tools="$repo/tools/pulumi-minimum" ;;
  *) log "unknown mode '$mode' (from \$1 or PULUMI_IP_ENGINE): use installed, pinned or minimum"; exit 2 ;;
esac

# The pinned CLI and the npm SDK are the same release, so that the full suite runs the pair that
# releases together; an installed CLI at or above the minimum is proven by CI on the minimum.
sdk_pkg="$repo/node_modules/@pulumi/pulumi"
if [ -f "$sdk_pkg/package.json" ]; then
  sdk_version="$(node -p "require('$sdk_pkg/package.json').version")"
  if [ "$sdk_version" != "$pinned" ]; then
    die "node_modules/@pulumi/pulumi is $sdk_version but tools/pulumi/go.mod pins the CLI at $pinned; make them equal"
  fi
else
  die "node_modules/@pulumi/pulumi is missing; run 'npm ci' first (the dynamic provider host ships in it)"
fi

# 1. An installed CLI: in `installed` mode any at or above the minimum, else exactly the version.
if command -v pulumi >/dev/null 2>&1; then
  # With a PULUMI_HOME of its own: `pulumi version` writes its log under PULUMI_HOME (~/.pulumi/logs),
  # and asking a CLI its version must leave the user's home as it was (test/e2e/engine.test.ts).
  probe_home="$(mktemp -d "${TMPDIR:-/tmp}/ensure-pulumi-home.XXXXXX")"
  installed="$(PULUMI_HOME="$probe_home" PULUMI_SKIP_UPDATE_CHECK=true pulumi version 2>/dev/null | sed 's/^v//' || true)"
  rm -rf "$probe_home"
  dir="$(dirname "$(command -v pulumi)")"
  if [ "$mode" = installed ]; then fits() { at_least "$installed" "$minimum"; }; else fits() { [ "$installed" = "$version" ]; }; fi
  if [ -n "$installed" ] && fits && [ -x "$dir/pulumi-language-nodejs" ]; then
    log "using the installed pulumi v$installed in $dir"
    # The dynamic provider host ships with the CLI distribution; add the npm one only if absent.
    if [ ! -x "$dir/pulumi-resource-pulumi-nodejs" ] && ! command -v pulumi-resource-pulumi-nodejs >/dev/null 2>&1; then
      die "$dir has no pulumi-resource-pulumi-nodejs; put $sdk_pkg on PATH too"
    fi
    echo "$dir"
    exit 0
  fi
  if [ -n "$installed" ]; then
    if [ "$mode" = installed ]; then
      log "ignoring pulumi v$installed on PATH: this project needs v$minimum or newer (with pulumi-language-nodejs beside it)"
    else
      log "ignoring pulumi v$installed on PATH: the $mode mode needs exactly v$version"
    fi
  fi
fi

# 2. The cache, keyed by version and by the exact module graph (go.sum), so that a change to the
#    wrapper modules never reuses a stale build.
key="$(cat "$tools/go.sum" "$repo/tools/pulumi/language-nodejs/go.sum" | sha256sum | cut -c1-12)"
bin="$cache_root/pulumi-v$version-$key/bin"
if [ -x "$bin/pulumi" ] && [ -x "$bin/pulumi-language-nodejs" ]; then
  # The provider host script is copied each time: it is tiny and must match node_modules.
  install -m 0755 "$sdk_pkg/pulumi-resource-pulumi-nodejs" "$bin/pulumi-resource-pulumi-nodejs"
  log "using the cached pulumi v$version in $bin"
  echo "$bin"
  exit 0
fi

# 3. Build.
command -v go >/dev/null 2>&1 || die "no pulumi v$version on PATH and no Go toolchain to build it"
export GOTOOLCHAIN=local GOFLAGS=-mod=mod CGO_ENABLED=0
staging="$(mktemp -d "${TMPDIR:-/tmp}/pulumi-build.XXXXXX")"
trap 'rm -rf "$staging"' EXIT

# `go build -v` names each package as it compiles; a count every 100 shows progress without
# flooding CI logs.
build() { # <module dir> <package> <label> <version stamped into the binary>
  local started=$SECONDS
  log "building $3 from $2 (first time only) ..."
  if ! (cd "$1" && go build -v -trimpath -ldflags "-s -w -X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$4" \
        -o "$staging/" "$2" 2>&1) | awk -v label="$3" '
          /^go: downloading / { d++; if (d % 100 == 0) { printf "ensure-pulumi:   %s: %d modules downloaded\n", label, d; fflush() } next }
          /^(go: |#|.*\.go:[0-9]+)/ { print; next }
          { n++; if (n % 100 == 0) { printf "ensure-pulumi:   %s: %d packages compiled\n", label, n; fflush() } }
        ' >&2; then
    die "building $3 failed (see the lines above)"
  fi
  [ -x "$staging/$(basename "$2")" ] || die "building $3 produced no binary (see the lines above)"
  log "built $3 in $((SECONDS - started)) s"
}
build "$tools" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "pulumi v$version" "$version"
host_version="$(required_version "$repo/tools/pulumi/language-nodejs/go.mod" github.com/pulumi/pulumi/sdk/v3)"
build "$repo/tools/pulumi/language-nodejs" github.com/pulumi/pulumi/sdk/v3/nodejs/cmd/pulumi-language-nodejs "pulumi-language-nodejs v$host_version" "$host_version"
install -m 0755 "$sdk_pkg/pulumi-resource-pulumi-nodejs" "$staging/pulumi-resource-pulumi-nodejs"

# Move into place in one rename, so an interrupted build never leaves a half-filled cache entry.
mkdir -p "$(dirname "$bin")"
rm -rf "$bin.tmp.$$"
mv "$staging" "$bin.tmp.$$"
trap - EXIT
rm -rf "$bin"
mv "$bin.tmp.$$" "$bin"
"$bin/pulumi" version >/dev/null || die "the built pulumi does not run"
log "pulumi v$version is ready in $bin"
echo "$bin"
